//! What the builder keeps between tokens for its files by concern, as
//! fields of `TreeBuilder`: the character data waiting to become one text
//! node (`text.rs` fills it), what each attribute of the tag being built
//! declares (`namespaces.rs`), and the expansion of an entity with markup
//! while it runs (`entities.rs`). A leaf of the tree builder, so that the
//! builder's state names no file that adds to the builder.

use crate::span::Span;

use super::source::Source;

/// Character data waiting to become one text node.
#[derive(Default)]
pub(super) struct PendingText {
    pub(super) active: bool,
    pub(super) span: Span,
    /// The text so far, while it is exactly one range of the source.
    pub(super) verbatim: Option<(usize, usize)>,
    /// The text so far, once it is not a range of the source: a range of
    /// the sink's text storage, grown in place while it ends the storage.
    pub(super) copied: Option<(usize, usize)>,
    pub(super) len: usize,
    pub(super) cdata: Vec<(usize, usize)>,
    /// Outside the root: on each line, the first character that is not
    /// literal whitespace (each is reported, so that `check` shows every
    /// line the repair drops something from).
    pub(super) offending: Vec<usize>,
    /// How far the source is known to hold no line break after the last
    /// of `offending`.
    pub(super) scanned_to: usize,
}

impl PendingText {
    /// Starts new character data at `span` (keeping the CDATA list's
    /// allocation).
    pub(super) fn start(&mut self, span: Span) {
        self.active = true;
        self.span = span;
        self.verbatim = None;
        self.copied = None;
        self.len = 0;
        self.cdata.clear();
        self.offending.clear();
    }

    /// Notes a character outside the root at `at` that XML does not allow
    /// there, if it is the first on its line.
    pub(super) fn offending_at(&mut self, source: &Source<'_>, at: usize) {
        let new_line = match self.offending.last() {
            None => true,
            Some(_) => source
                .bytes(self.scanned_to.min(at), at)
                .iter()
                .any(|&b| matches!(b, b'\n' | b'\r')),
        };
        if new_line {
            self.offending.push(at);
        }
        self.scanned_to = at;
    }

    /// Notes that the text from `start_len` on came from a CDATA section
    /// (merged with the section just before, if it ended there).
    pub(super) fn note_cdata(&mut self, start_len: usize) {
        match self.cdata.last_mut() {
            Some(last) if last.1 == start_len => last.1 = self.len,
            _ => self.cdata.push((start_len, self.len)),
        }
    }
}

/// What an attribute declares (`namespaces.rs`), without its prefix, kept for each attribute of the
/// tag being built between binding its declarations and resolving its
/// attributes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum DeclarationKind {
    No,
    Valid { prefixed: bool },
    Invalid,
}

/// The outermost expansion of a reference with markup, while it runs.
pub(super) struct ActiveExpansion {
    /// The reference.
    pub(super) reference: Span,
    /// The depth of the stack of open elements when it started.
    pub(super) stack_len: usize,
    /// The same for each entity being expanded inside it (outermost
    /// first): each must close what it opens, and nothing else (XML 1.0
    /// §4.3.2).
    pub(super) levels: Vec<usize>,
    /// Some entity closed an element it did not open, or left one open.
    pub(super) unbalanced: bool,
}
