//! The tokenizer's fast paths: the usual tag (`<name`, `</name`) and the
//! usual attribute (`name="value"`) read with `scan` over whole runs
//! instead of a state step per character. Each stops at anything unusual,
//! and at the end of the window, leaving the machine exactly where the
//! states of `tags.rs` and `attributes.rs` would have, so that they take
//! over from there; the tokens and errors are the same either way.

use super::input::{scan, scan_long, stop_table, xml11_cut, Window};
use super::states::State;
use super::tags::NAME_STOP;
use super::{TagKind, TokenSink, Tokenizer};
use crate::chars::predefined_reference;
use crate::span::Span;

/// The fast path's value tables also stop at `<`, so that a value it reads
/// whole needs no check at all.
static PLAIN_DOUBLE_QUOTED_STOP: [bool; 256] = stop_table(b"\"&\t\n<");
static PLAIN_SINGLE_QUOTED_STOP: [bool; 256] = stop_table(b"'&\t\n<");

impl<S: TokenSink> Tokenizer<S> {
    /// The usual case of the tag open, end tag open and tag name states
    /// without a step per character: `<` or `</`, then a name of plain
    /// characters, then `>`, whitespace, or (in a start tag) `/>`. It stops
    /// at anything else, and at the end of the window, leaving the machine
    /// where stepping would have: in the tag open state (nothing consumed),
    /// or in a tag name state with the name read.
    #[inline]
    pub(super) fn tag_name_fast(&mut self, w: &Window<'_>) {
        let bytes = w.bytes_from(self.pos);
        let (kind, offset) = match bytes.first() {
            Some(b'/') => (TagKind::End, 1),
            _ => (TagKind::Start, 0),
        };
        match bytes.get(offset) {
            Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
            _ => return,
        }
        let mut name_len = scan(&bytes[offset..], &NAME_STOP);
        if self.xml11 {
            name_len = xml11_cut(&bytes[offset..], name_len);
        }
        let after = offset + name_len;
        let Some(&next) = bytes.get(after) else {
            return;
        };
        self.start_tag(kind);
        let name_start = self.pos + offset;
        self.tag_name
            .push_span(w, name_start, name_start + name_len);
        self.pos = name_start + name_len;
        self.state = match kind {
            TagKind::End => State::EndTagName,
            _ => State::TagName,
        };
        match next {
            b'>' => {
                self.pos += 1;
                self.emit_tag(w);
            }
            b' ' | b'\t' | b'\n' => {
                self.pos += 1;
                self.state = match kind {
                    TagKind::End => State::EndTagNameAfter,
                    _ => State::TagAttributeNameBefore,
                };
            }
            _ => {}
        }
    }

    /// The fast path of an attribute value `value` (starting at
    /// `value_start`) at the `&` at `read`: references to the predefined
    /// entities (`&amp;` in a URL) and the plain runs after them, resolved
    /// as the value state would and needing no check. Returns how far it
    /// read: to the quote, or to what the value state must read.
    #[inline(never)]
    fn value_references(
        &mut self,
        w: &Window<'_>,
        value: &[u8],
        mut read: usize,
        table: &[bool; 256],
        quote: u8,
        value_start: usize,
    ) -> usize {
        // A declared entity may be named `amp` too (and must then stand for
        // the same): the value states look declarations up first.
        if self.declarations.as_ref().is_some_and(|d| d.has_entities()) {
            return read;
        }
        let xml11 = self.xml11;
        let attribute = self.current_attribute();
        while value.get(read) == Some(&b'&') {
            let after = value.get(read + 1..).unwrap_or_default();
            let Some((len, text)) = predefined_reference(after) else {
                break;
            };
            attribute.value.push_str(w, text);
            read += 1 + len;
            let rest = value.get(read..).unwrap_or_default();
            let mut run = scan_long(rest, table, [quote, b'&', b'<']);
            if xml11 {
                run = xml11_cut(rest, run);
            }
            attribute
                .value
                .push_span(w, value_start + read, value_start + read + run);
            read += run;
        }
        read
    }

    /// The usual case of the attribute states without a step per
    /// character: whitespace, then `name="value"` with a plain name and a
    /// value that needs no reference, normalization or check, as often as it
    /// comes, and the tag's `>` or `/>`. It stops at anything else, and at
    /// the end of the window, leaving the machine exactly where stepping
    /// would have: in the attribute name before state, or in a quoted value
    /// state. Returns whether it left the attribute name before state.
    #[inline]
    pub(super) fn attributes_fast(&mut self, w: &Window<'_>) -> bool {
        loop {
            let bytes = w.bytes_from(self.pos);
            let spaces = bytes
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t' | b'\n'))
                .unwrap_or(bytes.len());
            // Skipping whitespace is all the state does with it.
            self.pos += spaces;
            let bytes = &bytes[spaces..];
            match bytes.first() {
                Some(b'>') => {
                    self.pos += 1;
                    self.emit_tag(w);
                    return true;
                }
                Some(b'/') if bytes.get(1) == Some(&b'>') => {
                    self.pos += 2;
                    self.tag_kind = TagKind::Empty;
                    self.emit_tag(w);
                    return true;
                }
                Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
                _ => return false,
            }
            let mut name_len = scan(bytes, &NAME_STOP);
            if self.xml11 {
                name_len = xml11_cut(bytes, name_len);
            }
            let (quote, table, value_state) = match bytes.get(name_len..name_len + 2) {
                Some(b"=\"") => (
                    b'"',
                    &PLAIN_DOUBLE_QUOTED_STOP,
                    State::TagAttributeValueDoubleQuoted,
                ),
                Some(b"='") => (
                    b'\'',
                    &PLAIN_SINGLE_QUOTED_STOP,
                    State::TagAttributeValueSingleQuoted,
                ),
                _ => return false,
            };
            let value = &bytes[name_len + 2..];
            let mut value_len = scan_long(value, table, [quote, b'&', b'<']);
            if self.xml11 {
                value_len = xml11_cut(value, value_len);
            }

            // The attribute name state's work, then the value's.
            let name_start = self.pos;
            let name_end = name_start + name_len;
            self.new_attribute(name_start, name_end);
            self.current_attribute()
                .name
                .push_span(w, name_start, name_end);
            self.check_duplicate_attribute(w, name_end);
            let value_start = name_end + 2;
            let attribute = self.current_attribute();
            attribute.value_span = Some(Span::new(value_start, value_start));
            attribute
                .value
                .push_span(w, value_start, value_start + value_len);
            let mut read = value_len;
            if value.get(read) == Some(&b'&') {
                read = self.value_references(w, value, read, table, quote, value_start);
            }
            let value_end = value_start + read;
            if value.get(read) != Some(&quote) {
                // A reference of another kind, a character to normalize or
                // check, or the end of the window: the value state goes on
                // from here.
                self.pos = value_end;
                self.state = value_state;
                return true;
            }
            self.pos = value_end + 1;
            self.end_attribute_value(value_end, value_end + 1);
            self.current_attribute().plain = true;
        }
    }
}
