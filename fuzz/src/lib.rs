//! The checks the fuzz targets run. They live in `tests/common/fuzz_checks.rs`
//! so that `tests/regressions.rs` runs exactly the same assertions on every
//! saved crash input.

#[path = "../../tests/common/fuzz_checks.rs"]
mod checks;

pub use checks::{events_equal_dom, fixpoint, parse_bytes, random_chunks, xpath};

use checks::edit_checks;


/// Choices read from the input's bytes, then from a generator seeded by
/// them.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
    state: u64,
}

impl edit_checks::Choose for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        let byte = match self.data.get(self.at) {
            Some(&b) => u64::from(b),
            None => {
                self.state ^= self.state << 13;
                self.state ^= self.state >> 7;
                self.state ^= self.state << 17;
                self.state
            }
        };
        self.at += 1;
        (byte % n.max(1) as u64) as usize
    }
}

/// `edits`: the input (if it is a well-formed document, else one of
/// `edit_checks::SHAPES` chosen by its first byte) gets up to 24 edits chosen by its
/// bytes, and must then write back as docs/editing.md promises.
pub fn edits(data: &[u8]) {
    let text = std::str::from_utf8(data).ok();
    let doc = text.filter(|t| xml5dom::Document::parse(t).is_well_formed());
    let seed = data.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    let mut choose = Bytes {
        data,
        at: 0,
        state: seed | 1,
    };
    let text = match doc {
        Some(text) => text,
        None => edit_checks::SHAPES[usize::from(data.first().copied().unwrap_or(0)) % edit_checks::SHAPES.len()],
    };
    let steps = 1 + edit_checks::Choose::below(&mut choose, 24);
    edit_checks::edit_sequence(text, &mut choose, steps, Some(20));
}
