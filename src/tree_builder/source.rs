//! The source text as the tree builder reads it: all of it, or, when the
//! input streams in, a window that moves along it.
//!
//! The builder reads the source between tokens (the text waiting to become
//! a node, the markup around a CDATA section, the checks inside a token)
//! by absolute byte offsets, the offsets of the spans. A [`Source`] answers
//! for the offsets it still holds: a whole text holds all of them; a
//! window holds what was fed and not yet released, and the stream driver
//! releases what lies before both the tokenizer's unfinished token and
//! what the builder still needs (see `TreeBuilder::needed_from`), so the
//! window stays as small as the largest token.
//!
//! It also counts lines as it goes, for the errors of a sink that hands
//! them on in source order: positions asked for in order cost what lies
//! between them, and nothing before the window is needed.

use std::borrow::Cow;

/// The text the builder reads, by absolute offsets.
pub(crate) struct Source<'i> {
    text: Cow<'i, str>,
    /// The absolute offset of `text`'s first byte.
    base: usize,
    /// The line and column counted up to some offset in the window.
    counted: LineCount,
    /// The line and column at `base` (what a count back starts from).
    at_base: LineCount,
    /// The line and column counted up to the last offset asked for in
    /// order ([`position_in_order`](Self::position_in_order)): the start
    /// tags of open elements, apart from the errors' count.
    in_order: LineCount,
}

/// A line and column (both from 1, the column in characters) at an
/// absolute offset.
#[derive(Clone, Copy, Debug)]
struct LineCount {
    offset: usize,
    line: u32,
    column: u32,
}

impl Default for LineCount {
    fn default() -> LineCount {
        LineCount {
            offset: 0,
            line: 1,
            column: 1,
        }
    }
}

impl<'i> Source<'i> {
    /// All of the source, borrowed.
    pub(crate) fn whole(text: &'i str) -> Source<'i> {
        Source {
            text: Cow::Borrowed(text),
            base: 0,
            counted: LineCount::default(),
            at_base: LineCount::default(),
            in_order: LineCount::default(),
        }
    }

    /// An empty window at the start of a source that will be
    /// [pushed](Self::push) in pieces.
    pub(crate) fn window() -> Source<'static> {
        Source {
            text: Cow::Owned(String::new()),
            base: 0,
            counted: LineCount::default(),
            at_base: LineCount::default(),
            in_order: LineCount::default(),
        }
    }

    /// The whole source with its own lifetime, when this is all of it.
    #[inline]
    pub(crate) fn borrowed(&self) -> Option<&'i str> {
        match self.text {
            Cow::Borrowed(text) if self.base == 0 => Some(text),
            _ => None,
        }
    }

    /// The absolute offset one past the last byte held.
    #[inline]
    pub(crate) fn end(&self) -> usize {
        self.base + self.text.len()
    }

    /// The text between two absolute offsets, if the window holds it and
    /// both are character boundaries.
    #[inline]
    pub(crate) fn get(&self, start: usize, end: usize) -> Option<&str> {
        self.text
            .get(start.checked_sub(self.base)?..end.checked_sub(self.base)?)
    }

    /// [`get`](Self::get), or `""` where it gives nothing.
    #[inline]
    pub(crate) fn slice(&self, start: usize, end: usize) -> &str {
        self.get(start, end).unwrap_or_default()
    }

    /// The bytes between two absolute offsets (none where the window does
    /// not hold them).
    #[inline]
    pub(crate) fn bytes(&self, start: usize, end: usize) -> &[u8] {
        let range = start.saturating_sub(self.base)..end.saturating_sub(self.base);
        self.text.as_bytes().get(range).unwrap_or_default()
    }

    /// The byte at an absolute offset.
    #[inline]
    pub(crate) fn byte(&self, at: usize) -> Option<u8> {
        self.text
            .as_bytes()
            .get(at.checked_sub(self.base)?)
            .copied()
    }

    /// Where `s` is in the source, if it is `text` at `at`: found by
    /// address when `s` is a slice of the window (a whole input's tokens
    /// borrow it), else by comparing (a stream's tokens borrow the
    /// tokenizer's buffer).
    #[inline]
    pub(crate) fn is_at(&self, s: &str, at: usize) -> bool {
        let base = self.text.as_ptr() as usize;
        let address = s.as_ptr() as usize;
        if address >= base && address + s.len() <= base + self.text.len() {
            return address - base + self.base == at;
        }
        self.compare_at(s, at)
    }

    #[inline(never)]
    fn compare_at(&self, s: &str, at: usize) -> bool {
        self.get(at, at + s.len()) == Some(s)
    }

    /// The text held, taken out (the window is left empty).
    pub(crate) fn take_text(&mut self) -> String {
        std::mem::take(&mut self.text).into_owned()
    }

    /// Appends the next piece of a streamed source.
    pub(crate) fn push(&mut self, piece: &str) {
        self.text.to_mut().push_str(piece);
    }

    /// Nothing before `offset` will be read again: a window may let it go
    /// (it does once that is at least half of what it holds, so that
    /// moving the rest down costs no more than reading it did).
    pub(crate) fn release_before(&mut self, offset: usize) {
        let offset = offset.min(self.end());
        let Cow::Owned(text) = &mut self.text else {
            return;
        };
        let Some(release) = offset.checked_sub(self.base) else {
            return;
        };
        if release == 0 || release < text.len() / 2 || !text.is_char_boundary(release) {
            return;
        }
        let at_offset = if self.counted.offset <= offset {
            // On from the count in order where that got further.
            let from = match self.in_order {
                o if o.offset <= offset && o.offset > self.counted.offset => o,
                _ => self.counted,
            };
            self.counted = count(text, self.base, from, offset);
            self.counted
        } else {
            count(text, self.base, self.at_base, offset)
        };
        text.drain(..release);
        self.base = offset;
        self.at_base = at_offset;
    }

    /// The line and column of an absolute offset in the window, counted on
    /// from the last one asked for (or from the window's start, for one
    /// before it).
    pub(crate) fn position(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.clamp(self.base, self.end());
        let found = if offset >= self.counted.offset {
            self.counted = count(&self.text, self.base, self.counted, offset);
            self.counted
        } else {
            count(&self.text, self.base, self.at_base, offset)
        };
        (found.line, found.column)
    }

    /// The line and column of an absolute offset in the window, for offsets
    /// asked for in order (the start tags of open elements): counted on from
    /// the last one, or from the errors' count or the window's start where
    /// that is nearer, leaving the errors' count where it is (so neither
    /// count goes back over what the other passed).
    pub(crate) fn position_in_order(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.clamp(self.base, self.end());
        let mut from = self.at_base;
        for candidate in [self.in_order, self.counted] {
            if candidate.offset <= offset && candidate.offset > from.offset {
                from = candidate;
            }
        }
        self.in_order = count(&self.text, self.base, from, offset);
        (self.in_order.line, self.in_order.column)
    }
}

/// `from` counted on to `to` through `text` (whose first byte is at
/// absolute offset `base`): a line ends at each LF, CR LF and lone CR.
fn count(text: &str, base: usize, from: LineCount, to: usize) -> LineCount {
    let mut to = to - base;
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    let start = from.offset - base;
    if to <= start {
        return from;
    }
    let bytes = text.as_bytes();
    let (mut line, mut column) = (from.line, from.column);
    let mut line_from = start;
    for at in memchr::memchr2_iter(b'\n', b'\r', &bytes[start..to]) {
        let at = start + at;
        if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            // The LF ends this line.
            continue;
        }
        line = line.saturating_add(1);
        column = 1;
        line_from = at + 1;
    }
    let characters = bytes[line_from..to]
        .iter()
        .filter(|&&b| (b as i8) >= -0x40)
        .count();
    column = column.saturating_add(u32::try_from(characters).unwrap_or(u32::MAX));
    LineCount {
        offset: base + to,
        line,
        column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line and column of every offset of `text`, by the document's
    /// line index.
    fn expected(text: &str, offset: usize) -> (u32, u32) {
        crate::dom::LineIndex::default().position_from_line_start(text, offset)
    }

    #[test]
    fn positions_match_the_line_index_in_order_and_out_of_it() {
        let text = "a\r\nb\rc\n\u{e9}t\r\r\n\nend\u{10000}x\r";
        let mut whole = Source::whole(text);
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(
                whole.position(offset),
                expected(text, offset),
                "at {offset}"
            );
        }
        // Backwards: counted again from the start.
        assert_eq!(whole.position(3), expected(text, 3));
    }

    #[test]
    fn a_window_counts_across_releases() {
        let text = "ab\r\ncd\ref\ng\u{e9}hij\r\nk\rlmn\nop";
        for piece in 1..5 {
            let mut window = Source::window();
            let mut fed = 0;
            let mut asked = 0;
            while fed < text.len() {
                let mut end = (fed + piece).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                window.push(&text[fed..end]);
                fed = end;
                // Ask for a position or two behind what was fed, then let
                // go of what is before them.
                while asked + 2 < fed {
                    if text.is_char_boundary(asked) {
                        assert_eq!(window.position(asked), expected(text, asked));
                        window.release_before(asked);
                        assert_eq!(window.get(asked, fed), text.get(asked..fed));
                    }
                    asked += 1;
                }
            }
            assert_eq!(window.position(text.len()), expected(text, text.len()));
        }
    }

    #[test]
    fn a_window_finds_tokens_by_content() {
        let mut window = Source::window();
        window.push("<a>text</a>");
        let elsewhere = String::from("text");
        assert!(window.is_at(&elsewhere, 3));
        assert!(!window.is_at(&elsewhere, 4));
        window.release_before(6);
        assert!(window.get(3, 7).is_none());
        assert_eq!(window.get(6, 8), Some("t<"));
    }
}
