//! Measures the reach of repairs on real files: every well-formed file must
//! come back byte for byte, and every malformed one be repaired like a
//! damaged one (below); each well-formed file then gets one random damage (a `&` or `<`
//! inserted, an end tag or a value's quote removed, a `--` or a control
//! character inserted), and its repaired output must be well-formed, a
//! fixpoint, and changed only on lines within one line of an error
//! `check` reports.
//!
//! ```sh
//! find / -name '*.xml' -size -300k > files.txt
//! cargo run --release -p bench-tools --bin repair_reach -- files.txt 1 10   # seeds 1..=10
//! ```
//!
//! With `REPAIR_REACH_KEEP=DIR`, each damaged input whose repair has a
//! problem is written to `DIR/N.xml`.
//!
//! A changed line is one some shortest edit script (by lines, or by
//! characters) changes: line diffs align repeated lines (blank ones, say)
//! arbitrarily, and a change counts as near when one alignment puts it
//! near an error. Files are read as bytes and written back in their own
//! encoding; only files that are UTF-8 text are damaged, so that an
//! inserted byte is one character.

use similar::{Algorithm, DiffTag, TextDiff};
use std::time::Duration;
use xml5dom::{Document, ErrorCode, OutputEncoding, SerializeOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let Some(list) = args.get(1) else {
        eprintln!("usage: repair_reach FILE-LIST [FIRST-SEED [LAST-SEED]]");
        std::process::exit(2);
    };
    let first: u64 = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let last: u64 = args.get(3).map_or(Ok(first), |s| s.parse())?;
    let paths: Vec<String> = std::fs::read_to_string(list)?
        .lines()
        .map(str::to_owned)
        .collect();
    let own = SerializeOptions {
        encoding: OutputEncoding::Original,
        ..Default::default()
    };

    let (mut well_formed, mut changed) = (0, 0);
    let (mut malformed, mut malformed_failed) = (0, 0);
    let mut texts = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let doc = Document::parse_bytes(&bytes);
        if !doc.is_well_formed() {
            // As found: repaired like a damaged one, with nothing excused.
            malformed += 1;
            if let Some(problem) = check(&bytes, &own, false) {
                malformed_failed += 1;
                println!("{path}: {problem}");
            }
            continue;
        }
        well_formed += 1;
        if doc.to_bytes(&own).0 != bytes {
            changed += 1;
            println!("{path}: well-formed, but written back changed");
        }
        if let Ok(text) = String::from_utf8(bytes) {
            texts.push((path, text));
        }
    }
    println!("{well_formed} well-formed files, {changed} not written back byte for byte");
    println!("{malformed} malformed files, {malformed_failed} repaired with a problem");

    // Where to keep the damaged inputs whose repair has a problem.
    let keep = std::env::var("REPAIR_REACH_KEEP").ok();
    let (mut tried, mut failed) = (0, 0);
    for seed in first..=last {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for (path, text) in &texts {
            let Some(broken) = damage(text, &mut rng) else {
                continue;
            };
            tried += 1;
            if let Some(problem) = check(broken.as_bytes(), &own, true) {
                failed += 1;
                println!("{path} (seed {seed}): {problem}");
                if let Some(dir) = &keep {
                    std::fs::write(format!("{dir}/{failed}.xml"), &broken)?;
                }
            }
        }
    }
    println!("{tried} damaged files, {failed} repaired with a problem");
    Ok(())
}

/// A xorshift generator: the same seed damages the same places.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `text` with one damage, or `None` if the kind drawn has no place in it.
fn damage(text: &str, rng: &mut Rng) -> Option<String> {
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    let at = *bounds.get(rng.below(bounds.len()))?;
    let mut broken = text.to_owned();
    match rng.below(6) {
        0 => broken.insert(at, '&'),
        1 => broken.insert(at, '<'),
        2 => {
            let ends: Vec<usize> = text.match_indices("</").map(|(i, _)| i).collect();
            let start = *ends.get(rng.below(ends.len()))?;
            let len = text[start..].find('>')?;
            broken.replace_range(start..start + len + 1, "");
        }
        3 => {
            let values: Vec<usize> = text.match_indices("=\"").map(|(i, _)| i).collect();
            let eq = *values.get(rng.below(values.len()))?;
            let len = text[eq + 2..].find('"')?;
            broken.replace_range(eq + 2 + len..eq + 3 + len, "");
            broken.replace_range(eq + 1..eq + 2, "");
        }
        4 => broken.insert_str(at, "--"),
        _ => broken.insert(at, '\u{1}'),
    }
    Some(broken)
}

/// What is wrong with the repair of `input`, if anything; `excuse_recovery`
/// leaves out of the line check the documents whose content XML5's
/// recovery itself leaves out of the tree.
fn check(input: &[u8], own: &SerializeOptions, excuse_recovery: bool) -> Option<String> {
    let doc = Document::parse_bytes(input);
    let out = doc.to_bytes(own).0;
    let again = Document::parse_bytes(&out);
    if !again.is_well_formed() {
        let errors: Vec<_> = again
            .errors()
            .iter()
            .filter(|e| e.is_error())
            .take(3)
            .collect();
        return Some(format!("the output has errors: {errors:?}"));
    }
    if again.to_bytes(own).0 != out {
        return Some("the output is not a fixpoint".into());
    }
    if doc.is_well_formed() {
        return (out != input).then(|| "well-formed, but changed".into());
    }
    // A `/` in the root's start tag ends the root, a quote open in the
    // DOCTYPE takes what follows: the output cannot keep what follows.
    let recovery_drops = doc.errors().iter().any(|e| {
        matches!(
            e.code,
            ErrorCode::ElementAfterRootElement | ErrorCode::EofInDoctype
        )
    });
    // EBCDIC ends its lines with other bytes than the text compared here.
    let ebcdic = ["IBM037", "IBM500", "IBM1047", "IBM1140"].contains(&doc.encoding().name());
    if (excuse_recovery && recovery_drops) || ebcdic {
        return None;
    }
    let error_lines: Vec<usize> = doc
        .errors()
        .iter()
        .filter(|e| e.is_error())
        .map(|e| e.line as usize)
        .collect();
    let near = |line: usize| error_lines.iter().any(|&e| e.abs_diff(line) <= 1);
    // UTF-16 and UTF-32 end lines with the same code units, so their lines
    // line up in the lossy text too.
    let (old, new) = (
        String::from_utf8_lossy(input),
        String::from_utf8_lossy(&out),
    );
    far_change(&old, &new, near).map(|(first, last)| {
        format!(
            "lines {first}-{last} changed, errors on lines {:?}",
            &error_lines[..error_lines.len().min(6)]
        )
    })
}

/// The first changed run of `old`'s lines (1-based, inclusive) that is not
/// `near` an error, under each alignment tried, or `None` if one alignment
/// has every change near one.
fn far_change(old: &str, new: &str, near: impl Fn(usize) -> bool) -> Option<(usize, usize)> {
    let (a, b) = (lines(old), lines(new));
    // Where a line starts, and where a character does, in `old`.
    let starts: Vec<usize> = a
        .iter()
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len();
            Some(start)
        })
        .collect();
    let offsets: Vec<usize> = old
        .char_indices()
        .map(|(i, _)| i)
        .chain([old.len()])
        .collect();
    let line_of = |c: usize| starts.partition_point(|&s| s <= offsets[c.min(offsets.len() - 1)]);

    let mut found = None;
    for algorithm in [Algorithm::Myers, Algorithm::Patience] {
        let diff = TextDiff::configure()
            .algorithm(algorithm)
            .timeout(Duration::from_secs(5))
            .diff_slices(&a, &b);
        // Line `i` (0-based) is line `i + 1`.
        match first_far(diff.ops(), |i| i + 1, &near) {
            None => return None,
            Some(run) => found = found.or(Some(run)),
        }
    }
    // By characters, each change at the lines it touches.
    let diff = TextDiff::configure()
        .timeout(Duration::from_secs(5))
        .diff_chars(old, new);
    first_far(diff.ops(), line_of, &near).and(found)
}

/// The first run of old lines an edit changes that is not all `near` an
/// error; `line` maps an index of the diffed sequence to its line.
fn first_far(
    ops: &[similar::DiffOp],
    line: impl Fn(usize) -> usize,
    near: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    ops.iter()
        .filter(|op| op.tag() != DiffTag::Equal)
        .map(|op| {
            let r = op.old_range();
            (line(r.start), line(r.end.max(r.start + 1) - 1))
        })
        .find(|&(first, last)| !(first..=last).all(&near))
}

/// The lines of `text` as xml5dom counts them: ended by LF, CR LF or CR.
fn lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            lines.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}
