//! Attributes: the attribute name and value states (§1.4.9–15), the
//! attribute buffers they fill, and the duplicate-attribute check. The
//! usual `name="value"` is read without these states by
//! `attributes_fast` in `fast_paths.rs`; references in values are in
//! `references.rs`.

use super::input::{stop_table, Window};
use super::states::{AttributeValueState, State};
use super::tags::NAME_STOP;
use super::token::AttributeBuffer;
use super::{push_consumed, Flow, TagKind, TokenSink, Tokenizer};
use crate::error::ErrorCode;
use crate::span::Span;

// Bytes that end a bulk run of an attribute value (see `input::stop_table`
// for the bytes every table includes).
static DOUBLE_QUOTED_STOP: [bool; 256] = stop_table(b"\"&\t\n");
static SINGLE_QUOTED_STOP: [bool; 256] = stop_table(b"'&\t\n");
static UNQUOTED_STOP: [bool; 256] = stop_table(b"\t\n &>");

impl<S: TokenSink> Tokenizer<S> {
    /// §1.4.9 Tag attribute name before state.
    #[inline]
    pub(super) fn tag_attribute_name_before_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        if self.attributes_fast(w) {
            return Flow::Continue;
        }
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {}
            Some('>') => self.emit_tag(w),
            Some('/') => {
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            Some(':') => self.error(w, ErrorCode::ColonBeforeAttr),
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.emit_tag(w);
            }
            Some(c) => {
                self.start_attribute(w, c);
                self.state = State::TagAttributeName;
            }
        }
        Flow::Continue
    }

    /// §1.4.10 Tag attribute name state.
    #[inline]
    pub(super) fn tag_attribute_name_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &NAME_STOP, |t| &mut t.current_attribute().name);
        match next!(self, w, eof) {
            Some('=') => {
                let at = self.current_start();
                self.check_duplicate_attribute(w, at);
                self.state = State::TagAttributeValueBefore;
            }
            Some('>') => {
                let at = self.current_start();
                self.check_duplicate_attribute(w, at);
                self.emit_tag(w);
            }
            Some('\t' | '\n' | ' ') => {
                let at = self.current_start();
                self.check_duplicate_attribute(w, at);
                self.state = State::TagAttributeNameAfter;
            }
            Some('/') => {
                let at = self.current_start();
                self.check_duplicate_attribute(w, at);
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            None => {
                self.check_duplicate_attribute(w, self.pos);
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.emit_tag(w);
            }
            Some(c) => {
                self.push_current(w, c, |t| &mut t.current_attribute().name);
            }
        }
        Flow::Continue
    }

    /// §1.4.11 Tag attribute name after state.
    #[inline]
    pub(super) fn tag_attribute_name_after_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {}
            Some('=') => self.state = State::TagAttributeValueBefore,
            Some('>') => self.emit_tag(w),
            Some('/') => {
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.emit_tag(w);
            }
            Some(c) => {
                self.start_attribute(w, c);
                self.state = State::TagAttributeName;
            }
        }
        Flow::Continue
    }

    /// §1.4.12 Tag attribute value before state.
    #[inline]
    pub(super) fn tag_attribute_value_before_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {}
            Some('"') => {
                let pos = self.pos;
                self.current_attribute().value_span = Some(Span::new(pos, pos));
                self.state = State::TagAttributeValueDoubleQuoted;
            }
            Some('\'') => {
                let pos = self.pos;
                self.current_attribute().value_span = Some(Span::new(pos, pos));
                self.state = State::TagAttributeValueSingleQuoted;
            }
            Some('&') => {
                self.reconsume();
                let pos = self.pos;
                self.current_attribute().value_span = Some(Span::new(pos, pos));
                self.state = State::TagAttributeValueUnquoted;
            }
            Some('>') => self.emit_tag(w),
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.emit_tag(w);
            }
            Some(c) => {
                let c = self.replace_null(w, c);
                let (start, end) = (self.current_start(), self.pos);
                let attribute = self.current_attribute();
                attribute.value_span = Some(Span::new(start, end));
                push_consumed(&mut attribute.value, w, start, end, c);
                self.state = State::TagAttributeValueUnquoted;
            }
        }
        Flow::Continue
    }

    /// §1.4.13 Tag attribute value double quoted state.
    #[inline]
    pub(super) fn tag_attribute_value_double_quoted_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        self.attribute_value_quoted(
            w,
            eof,
            &DOUBLE_QUOTED_STOP,
            AttributeValueState::DoubleQuoted,
        )
    }

    /// §1.4.14 Tag attribute value single quoted state.
    #[inline]
    pub(super) fn tag_attribute_value_single_quoted_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        self.attribute_value_quoted(
            w,
            eof,
            &SINGLE_QUOTED_STOP,
            AttributeValueState::SingleQuoted,
        )
    }

    /// §1.4.15 Tag attribute value unquoted state.
    #[inline]
    pub(super) fn tag_attribute_value_unquoted_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &UNQUOTED_STOP, |t| &mut t.current_attribute().value);
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {
                let at = self.current_start();
                self.end_attribute_value(at, at);
                self.state = State::TagAttributeNameBefore;
            }
            Some('&') => {
                self.amp = self.current_start();
                self.state =
                    State::CharacterReferenceInAttributeValue(AttributeValueState::Unquoted);
            }
            Some('>') => {
                let at = self.current_start();
                self.end_attribute_value(at, at);
                self.emit_tag(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.end_attribute_value(self.pos, self.pos);
                self.emit_tag(w);
            }
            Some(c) => {
                self.push_current(w, c, |t| &mut t.current_attribute().value);
            }
        }
        Flow::Continue
    }

    /// §1.4.13 and §1.4.14: the quoted attribute value states.
    #[inline]
    fn attribute_value_quoted(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        table: &[bool; 256],
        value_state: AttributeValueState,
    ) -> Flow {
        self.bulk(w, table, |t| &mut t.current_attribute().value);
        match next!(self, w, eof) {
            Some(c) if c as u32 == value_state.additional_allowed() as u32 => {
                let at = self.current_start();
                self.end_attribute_value(at, self.pos);
                self.state = State::TagAttributeNameBefore;
            }
            Some('&') => {
                self.amp = self.current_start();
                self.state = State::CharacterReferenceInAttributeValue(value_state);
            }
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.end_attribute_value(self.pos, self.pos);
                self.emit_tag(w);
            }
            // Attribute-value normalization (XML 1.0 §3.3.3).
            Some('\t' | '\n') => self.current_attribute().value.push_char(w, ' '),
            Some(c) => {
                self.push_current(w, c, |t| &mut t.current_attribute().value);
            }
        }
        Flow::Continue
    }

    /// Records where the current attribute's value ends (`value_end`,
    /// exclusive of a closing quote) and where the whole attribute ends.
    pub(super) fn end_attribute_value(&mut self, value_end: usize, attribute_end: usize) {
        let attribute = self.current_attribute();
        if let Some(span) = &mut attribute.value_span {
            span.end = value_end;
        }
        attribute.end = attribute_end;
    }

    /// Starts a new attribute whose name begins with the character consumed
    /// last.
    fn start_attribute(&mut self, w: &Window<'_>, c: char) {
        let (start, pos) = (self.current_start(), self.pos);
        self.new_attribute(start, pos);
        let c = self.replace_null(w, c);
        push_consumed(&mut self.current_attribute().name, w, start, pos, c);
    }

    /// Adds an empty attribute whose name starts at `start` (its span ends at
    /// `end` for now), reusing a buffer of an earlier tag.
    #[inline]
    pub(super) fn new_attribute(&mut self, start: usize, end: usize) {
        self.finish_attribute();
        if self.attribute_count == self.attributes.len() {
            self.attributes.push(AttributeBuffer::default());
        }
        let attribute = &mut self.attributes[self.attribute_count];
        attribute.name.clear();
        attribute.value.clear();
        attribute.start = start;
        attribute.end = end;
        attribute.value_span = None;
        attribute.plain = false;
        self.attribute_count += 1;
    }

    pub(super) fn current_attribute(&mut self) -> &mut AttributeBuffer {
        &mut self.attributes[self.attribute_count - 1]
    }

    /// Drops the attribute just read if it was a duplicate.
    pub(super) fn finish_attribute(&mut self) {
        if self.attribute_dropped {
            self.attribute_count -= 1;
            self.attribute_dropped = false;
        }
    }

    /// On leaving the attribute name state: a name already on the tag is a
    /// parse error and the new attribute is dropped (§1.4.10).
    pub(super) fn check_duplicate_attribute(&mut self, w: &Window<'_>, name_end: usize) {
        let index = self.attribute_count - 1;
        let current = &mut self.attributes[index];
        current.end = name_end;
        let (earlier, rest) = self.attributes.split_at(index);
        let duplicate = if let Some(keys) = self.attribute_keys.get_mut(..=index) {
            let name = rest[0].name.as_bytes(w);
            let key = match (name.first(), name.last()) {
                (Some(&first), Some(&last)) => {
                    (name.len() as u32) << 16 | u32::from(first) << 8 | u32::from(last)
                }
                _ => 0,
            };
            keys[index] = key;
            // The keys lie side by side: most tags are settled by reading
            // them alone.
            keys[..index]
                .iter()
                .zip(earlier)
                .any(|(&k, a)| k == key && a.name.as_bytes(w) == name)
        } else {
            let name = rest[0].name.as_bytes(w);
            let names = &mut self.attribute_names;
            if names.is_empty() {
                for (i, attribute) in earlier.iter().enumerate() {
                    names.insert(attribute.name.as_bytes(w), i, |_| false);
                }
            }
            let same = |i: usize| earlier.get(i).map(|a| a.name.as_bytes(w)) == Some(name);
            !names.insert(name, index, same)
        };
        if duplicate {
            let start = rest[0].start;
            self.attribute_dropped = true;
            self.error_at(w, ErrorCode::DuplicateAttribute, start);
        }
    }
}
