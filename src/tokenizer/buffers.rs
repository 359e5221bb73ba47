//! What the tokenizer keeps while it reads a token across states (and
//! pieces of input): the names of the tag's attributes (to find a
//! duplicate), the DOCTYPE and the XML declaration being built. A leaf of
//! the tokenizer: the `Tokenizer` holds these, and the state files fill
//! them.

use super::input::StrBuf;

/// The XML declaration being read.
#[derive(Default)]
pub(super) struct DeclarationBuilder {
    /// `version`, `encoding`, `standalone`.
    pub(super) values: [StrBuf; 3],
    pub(super) present: [bool; 3],
    /// Which pseudo-attribute is being read.
    pub(super) current: usize,
    /// A pseudo-attribute name has been recognized: from here on this is a
    /// declaration, not a PI that happens to be called `xml`.
    pub(super) started: bool,
    /// Offset of the first non-whitespace character after `<?xml`.
    pub(super) content_start: Option<usize>,
    /// Offset of the `?` that may close the declaration.
    pub(super) question_mark: usize,
    pub(super) data: StrBuf,
}

/// The DOCTYPE being read, with buffers kept from earlier ones.
#[derive(Default)]
pub(super) struct DoctypeBuilder {
    pub(super) name: Option<StrBuf>,
    pub(super) public_id: Option<StrBuf>,
    pub(super) system_id: Option<StrBuf>,
    pub(super) internal_subset: Option<StrBuf>,
    /// Where the internal subset's text starts, and ends (its `]`, or where
    /// the DOCTYPE was cut short).
    pub(super) subset_start: usize,
    pub(super) subset_end: usize,
    pub(super) spare: Vec<StrBuf>,
}

impl DoctypeBuilder {
    pub(super) fn reset(&mut self) {
        for slot in [
            &mut self.name,
            &mut self.public_id,
            &mut self.system_id,
            &mut self.internal_subset,
        ] {
            if let Some(mut buf) = slot.take() {
                buf.clear();
                self.spare.push(buf);
            }
        }
    }

    pub(super) fn fresh(spare: &mut Vec<StrBuf>) -> StrBuf {
        spare.pop().unwrap_or_default()
    }
}

/// The names of a tag's attributes once it has more than a few, to find a
/// duplicate in constant time: each name's hash and the index of the first
/// attribute with it (no copy of the name; names whose hashes collide, which
/// is all but never, are kept in a list beside).
#[derive(Default)]
pub(super) struct AttributeNames {
    hasher: std::hash::RandomState,
    first: std::collections::HashMap<u64, usize>,
    colliding: Vec<(u64, usize)>,
}

impl AttributeNames {
    pub(super) fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    pub(super) fn clear(&mut self) {
        self.first.clear();
        self.colliding.clear();
    }

    /// Notes the attribute `index` called `name`; `false` if an earlier one
    /// had that name (`same(i)`: attribute `i` is called `name` too).
    pub(super) fn insert(
        &mut self,
        name: &[u8],
        index: usize,
        same: impl Fn(usize) -> bool,
    ) -> bool {
        use std::hash::BuildHasher;

        let hash = self.hasher.hash_one(name);
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(index);
                true
            }
            std::collections::hash_map::Entry::Occupied(entry) => {
                if same(*entry.get()) {
                    return false;
                }
                let earlier = self.colliding.iter().any(|&(h, i)| h == hash && same(i));
                if !earlier {
                    self.colliding.push((hash, index));
                }
                !earlier
            }
        }
    }
}
