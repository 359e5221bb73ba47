//! Character data: the data state (§1.4.1), where text runs until `<` or
//! `&`, and the CDATA section states (§1.4.39–41). What `&` leads to is in
//! `references.rs`, what `<` leads to in `tags.rs` and `markup.rs`.

use super::input::{stop_table, Window};
use super::states::State;
use super::{Flow, TextKind, Token, TokenSink, Tokenizer};
use crate::error::ErrorCode;

// Bytes that end a bulk run of text (see `input::stop_table` for the bytes
// every table includes). `]` too, although it is text, so that a run read
// in bulk holds nothing the tree builder's check of character data looks
// for (`]]>`, `&`, control characters): see `Text::needs_check`.
static DATA_STOP: [bool; 256] = stop_table(b"<&]");
static CDATA_STOP: [bool; 256] = stop_table(b"]");

impl<S: TokenSink> Tokenizer<S> {
    /// §1.4.1 Data state.
    #[inline]
    pub(super) fn data_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        if self.text.is_empty() {
            self.mark = self.pos;
        }
        let start = self.pos;
        let n = self.scan_run(w, start, &DATA_STOP);
        if n > 0 {
            self.pos += n;
            self.text_push_scanned(w, start, start + n);
        }
        match w.byte(self.pos) {
            Some(b'<') => {
                self.emit_text(w);
                self.token_start = self.pos;
                self.pos += 1;
                self.state = State::TagOpen;
                self.tag_name_fast(w);
            }
            Some(b'&') => {
                self.amp = self.pos;
                self.pos += 1;
                self.state = State::CharacterReferenceInData;
            }
            _ => match next!(self, w, eof) {
                None => {
                    self.emit_text(w);
                    self.sink.process_token(Token::EndOfFile(self.pos));
                    self.finished = true;
                    return Flow::Done;
                }
                Some(c) => {
                    let c = self.replace_null(w, c);
                    self.text_push_current(w, c);
                }
            },
        }
        Flow::Continue
    }

    /// Emits the CDATA section's text and goes back to the data state.
    fn leave_cdata(&mut self, w: &Window<'_>) {
        self.emit_text(w);
        self.text_kind = TextKind::Plain;
        self.state = State::Data;
    }

    /// §1.4.39 CDATA state.
    #[inline]
    pub(super) fn cdata_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        let start = self.pos;
        let n = self.scan_run(w, start, &CDATA_STOP);
        if n > 0 {
            self.pos += n;
            self.text_push_span(w, start, start + n);
        }
        match next!(self, w, eof) {
            Some(']') => self.state = State::CdataBracket,
            None => {
                self.error_at(w, ErrorCode::EofInCdata, self.pos);
                self.leave_cdata(w);
            }
            Some(c) => {
                let c = self.replace_null(w, c);
                self.text_push_current(w, c);
            }
        }
        Flow::Continue
    }

    /// §1.4.40 CDATA bracket state.
    #[inline]
    pub(super) fn cdata_bracket_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some(']') => self.state = State::CdataEnd,
            None => {
                self.error_at(w, ErrorCode::EofInCdata, self.pos);
                self.leave_cdata(w);
            }
            Some(_) => {
                // The spec says to stay in the bracket state, which
                // would read `]a]b` wrongly; the suite's "CDATA bracket
                // text state" case wants the CDATA state.
                let bracket = self.current_start() - 1;
                self.text_push_span(w, bracket, bracket + 1);
                self.reconsume();
                self.state = State::Cdata;
            }
        }
        Flow::Continue
    }

    /// §1.4.41 CDATA end state.
    #[inline]
    pub(super) fn cdata_end_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('>') => self.leave_cdata(w),
            Some(']') => {
                let bracket = self.current_start() - 2;
                self.text_push_span(w, bracket, bracket + 1);
            }
            None => {
                self.error_at(w, ErrorCode::EofInCdata, self.pos);
                self.leave_cdata(w);
            }
            Some(_) => {
                let start = self.current_start();
                self.text_push_span(w, start - 2, start);
                self.reconsume();
                self.state = State::Cdata;
            }
        }
        Flow::Continue
    }
}
