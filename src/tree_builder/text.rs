//! Character data waiting to become a text node (XML5 §1.5: "append a
//! character to a node": collect it "and all subsequent consecutive
//! characters that would be appended to that node and insert one Text
//! node").
//!
//! The phases hand every text token here ([`TreeBuilder::push_text`]);
//! the text waits in [`PendingText`] until the tree changes (a node is
//! appended, an element closes, the input ends), and then
//! [`TreeBuilder::flush_text`] hands one text to the sink. A token ignored
//! between two runs of text (a stray end tag, a misplaced DOCTYPE) changes
//! nothing, so it leaves them one text node. The text stays a
//! range of the source while it is one; once references or pieces from
//! elsewhere make it differ, it is copied into the sink's text storage and
//! grown there. Outside the root element only whitespace is kept: the first
//! other character of each line is noted here and reported at the flush
//! (docs/conformance.md, "Tree construction").

use crate::error::ErrorCode;
use crate::span::Span;
use crate::tokenizer::{Text, TextKind};

use super::{Chars, Phase, TreeBuilder, TreeSink};

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// A text token, in any phase: checked against the source (not a
    /// piece of a replacement text, which was checked in its own), then
    /// added to the pending text.
    #[inline(always)]
    pub(super) fn character_token(&mut self, text: Text<'_>) {
        if self.in_source() {
            self.checker.text(&text);
            self.report_checks();
        }
        self.push_text(text);
    }

    /// Adds a piece of character data to the pending text.
    #[inline(always)]
    pub(super) fn push_text(&mut self, piece: Text<'_>) {
        let verbatim = self.verbatim_at(&piece);
        // The usual case first: inside the root, a run of plain source text
        // starts new character data.
        if let (false, TextKind::Plain, Phase::Main, Some(at)) =
            (self.text.active, piece.kind, self.phase, verbatim)
        {
            self.text.start(piece.span);
            self.text.verbatim = Some((at, piece.span.end));
            self.text.len = piece.data.len();
            return;
        }
        let (start, end) = self.node_span(&piece);
        if !self.text.active {
            self.text.start(Span::new(start, end));
        }
        self.text.span.end = end;
        if self.phase != Phase::Main {
            self.note_outside_root(&piece);
        }
        let start_len = self.text.len;
        self.append_chars(piece.data, verbatim);
        self.text.len += piece.data.len();
        if piece.kind == TextKind::Cdata {
            self.text.note_cdata(start_len);
        }
    }

    /// Where the piece is in the source, if it is exactly the source there.
    #[inline(always)]
    fn verbatim_at(&self, piece: &Text<'_>) -> Option<usize> {
        match piece.kind {
            TextKind::CharRef | TextKind::Entity => None,
            _ => (piece.data.len() == piece.span.len()
                && self.checker.source.is_at(piece.data, piece.span.start))
            .then_some(piece.span.start),
        }
    }

    /// The part of the source a piece adds to the text node's span: its
    /// own, but a CDATA piece's span covers its content only, and the node
    /// covers the markup around it too.
    #[inline]
    fn node_span(&self, piece: &Text<'_>) -> (usize, usize) {
        let (mut start, mut end) = (piece.span.start, piece.span.end);
        if piece.kind == TextKind::Cdata {
            let source = &self.checker.source;
            if source.bytes(start.saturating_sub(9), start) == b"<![CDATA[" {
                start -= "<![CDATA[".len();
            }
            let rest = source.bytes(end, source.end());
            if rest.starts_with(b"]]>") {
                end += "]]>".len();
            } else if matches!(rest, b"]" | b"]]") {
                // Cut off by the end of the input, which dropped these.
                end = source.end();
            }
        }
        (start, end)
    }

    /// Outside the root element: notes the characters of a piece that are
    /// not allowed there, the first of each line (reported at the flush).
    #[inline]
    fn note_outside_root(&mut self, piece: &Text<'_>) {
        let source = &self.checker.source;
        let t = &mut self.text;
        if piece.kind != TextKind::Plain {
            // A reference or CDATA is never whitespace as written.
            t.offending_at(source, piece.span.start);
            return;
        }
        // The first character of each line that is not whitespace; the
        // rest of its line is skipped.
        let (start, end) = (piece.span.start, piece.span.end);
        let bytes = source.bytes(start, end);
        let mut i = 0;
        while i < bytes.len() {
            if matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
                continue;
            }
            // NEL and LINE SEPARATOR end lines in XML 1.1.
            let line_end = match bytes[i..] {
                [0xC2, 0x85, ..] if self.xml11 => 2,
                [0xE2, 0x80, 0xA8, ..] if self.xml11 => 3,
                _ => 0,
            };
            if line_end > 0 {
                i += line_end;
                continue;
            }
            t.offending_at(source, start + i);
            i = memchr::memchr2(b'\n', b'\r', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            t.scanned_to = start + i;
        }
    }

    /// Appends `data` to the pending text: a longer range of the source if
    /// it is the source right after it (`verbatim`), else a copy in the
    /// sink's text storage.
    #[inline(always)]
    fn append_chars(&mut self, data: &str, verbatim: Option<usize>) {
        let t = &mut self.text;
        match (t.verbatim, t.copied, verbatim) {
            (None, None, Some(at)) if t.len == 0 => t.verbatim = Some((at, at + data.len())),
            (Some((start, end)), None, Some(at)) if at == end => {
                t.verbatim = Some((start, end + data.len()));
            }
            (_, Some((start, end)), _) => {
                let storage = self.sink.text_storage();
                if storage.len() == end {
                    storage.push_str(data);
                    t.copied = Some((start, storage.len()));
                } else {
                    // Something else was stored meanwhile: the text so far
                    // moves to the end.
                    let so_far = storage.get(start..end).map(str::to_owned);
                    let at = storage.len();
                    storage.push_str(&so_far.unwrap_or_default());
                    storage.push_str(data);
                    t.copied = Some((at, storage.len()));
                }
            }
            (_, None, _) => {
                let storage = self.sink.text_storage();
                let at = storage.len();
                if let Some((start, end)) = t.verbatim.take() {
                    storage.push_str(self.checker.source.slice(start, end));
                }
                storage.push_str(data);
                t.copied = Some((at, storage.len()));
            }
        }
    }

    /// Turns the pending character data into a text node (outside the root,
    /// only its whitespace: the rest is reported and left out).
    pub(super) fn flush_text(&mut self) {
        if !self.text.active {
            return;
        }
        self.text.active = false;
        let outside = self.phase != Phase::Main && !self.text.offending.is_empty();
        if outside {
            for i in 0..self.text.offending.len() {
                self.error(ErrorCode::TextOutsideRootElement, self.text.offending[i]);
            }
        }
        let t = &self.text;
        if t.len == 0 {
            // Only empty entities: no character data, no node.
            return;
        }
        let text = match (t.verbatim, t.copied) {
            (Some((start, end)), _) => {
                Chars::InSource(self.checker.source.slice(start, end), start)
            }
            (None, Some((start, end))) => Chars::Stored(start, end),
            (None, None) => return,
        };
        if outside {
            let whitespace = match text {
                Chars::Str(text) | Chars::InSource(text, _) => crate::dom::kept_outside_root(text),
                Chars::Stored(start, end) => self
                    .sink
                    .text_storage()
                    .get(start..end)
                    .map(crate::dom::kept_outside_root)
                    .unwrap_or_default(),
            };
            if !whitespace.is_empty() {
                self.sink.text(Chars::Str(&whitespace), &[], t.span);
            }
            return;
        }
        self.sink.text(text, &t.cdata, t.span);
    }
}
