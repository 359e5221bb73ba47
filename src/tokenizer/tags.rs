//! Tags: the tag open state that follows `<` (§1.4.3), end tags
//! (§1.4.4–6), and the tag name and empty tag states of start tags
//! (§1.4.7–8). Attributes are in `attributes.rs`; the usual tag is read
//! without a step per character by `tag_name_fast` in `fast_paths.rs`.

use super::input::{stop_table, Window};
use super::states::State;
use super::{Flow, TagKind, Token, TokenSink, Tokenizer};
use crate::error::ErrorCode;

/// Bytes that end a bulk run of a tag or attribute name (see
/// `input::stop_table` for the bytes every table includes).
pub(super) static NAME_STOP: [bool; 256] = stop_table(b"\t\n />=");

impl<S: TokenSink> Tokenizer<S> {
    /// §1.4.3 Tag open state.
    #[inline]
    pub(super) fn tag_open_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('/') => self.state = State::EndTagOpen,
            Some('?') => self.state = State::Pi,
            Some('!') => self.state = State::MarkupDeclaration,
            Some('\t' | '\n' | ' ' | ':' | '<' | '>') => {
                self.error(w, ErrorCode::InvalidFirstCharacterOfTagName);
                self.text_push_span(w, self.token_start, self.token_start + 1);
                self.reconsume();
                self.state = State::Data;
            }
            None => {
                self.error_at(w, ErrorCode::EofBeforeTagName, self.pos);
                self.text_push_span(w, self.token_start, self.token_start + 1);
                self.state = State::Data;
            }
            Some(c) => {
                self.start_tag(TagKind::Start);
                self.push_current(w, c, |t| &mut t.tag_name);
                self.state = State::TagName;
            }
        }
        Flow::Continue
    }

    /// §1.4.4 End tag open state.
    #[inline]
    pub(super) fn end_tag_open_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('>') => {
                self.sink.process_token(Token::ShortEndTag(self.span()));
                self.state = State::Data;
            }
            Some('\t' | '\n' | ' ' | '<' | ':') => {
                self.error(w, ErrorCode::InvalidFirstCharacterOfTagName);
                self.text_push_span(w, self.token_start, self.token_start + 2);
                self.reconsume();
                self.state = State::Data;
            }
            None => {
                self.error_at(w, ErrorCode::EofBeforeTagName, self.pos);
                self.text_push_span(w, self.token_start, self.token_start + 2);
                self.state = State::Data;
            }
            Some(c) => {
                self.start_tag(TagKind::End);
                self.push_current(w, c, |t| &mut t.tag_name);
                self.state = State::EndTagName;
            }
        }
        Flow::Continue
    }

    /// §1.4.5 End tag name state.
    #[inline]
    pub(super) fn end_tag_name_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &NAME_STOP, |t| &mut t.tag_name);
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => self.state = State::EndTagNameAfter,
            Some('/') => {
                self.error(w, ErrorCode::UnexpectedSolidusInTag);
                self.state = State::EndTagNameAfter;
            }
            Some('>') => self.emit_tag(w),
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.emit_tag(w);
            }
            Some(c) => {
                self.push_current(w, c, |t| &mut t.tag_name);
            }
        }
        Flow::Continue
    }

    /// §1.4.6 End tag name after state.
    #[inline]
    pub(super) fn end_tag_name_after_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('>') => self.emit_tag(w),
            Some('\t' | '\n' | ' ') => {}
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.emit_tag(w);
            }
            Some(_) => self.error(w, ErrorCode::UnexpectedCharacterAfterEndTagName),
        }
        Flow::Continue
    }

    /// §1.4.7 Tag name state.
    #[inline]
    pub(super) fn tag_name_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &NAME_STOP, |t| &mut t.tag_name);
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => self.state = State::TagAttributeNameBefore,
            Some('>') => self.emit_tag(w),
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.emit_tag(w);
            }
            Some('/') => {
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            Some(c) => {
                self.push_current(w, c, |t| &mut t.tag_name);
            }
        }
        Flow::Continue
    }

    /// §1.4.8 Empty tag state.
    #[inline]
    pub(super) fn empty_tag_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('>') => self.emit_tag(w),
            other => {
                // The spec says "reconsume in tag attribute value before
                // state", a slip for "name before"; the suite's
                // `<a x=test /` wants the parse error (see
                // docs/conformance.md).
                let at = if other.is_some() {
                    self.current_start()
                } else {
                    self.pos
                };
                self.error_at(w, ErrorCode::UnexpectedSolidusInTag, at);
                self.reconsume();
                self.state = State::TagAttributeNameBefore;
            }
        }
        Flow::Continue
    }

    /// Starts a tag of `kind`, with no name and no attributes yet.
    pub(super) fn start_tag(&mut self, kind: TagKind) {
        self.tag_name.clear();
        self.tag_kind = kind;
        self.attribute_count = 0;
        self.attribute_dropped = false;
        if !self.attribute_names.is_empty() {
            self.attribute_names.clear();
        }
    }
}
