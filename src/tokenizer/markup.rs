//! Markup that is not a tag: what follows `<!` (the markup declaration
//! state, §1.4.28), comments (§1.4.29–38), the bogus comment state
//! (§1.4.43) that takes what is neither, and processing instructions
//! (§1.4.16, §1.4.24–27). `<?xml` turns off into `xml_declaration.rs`, and
//! `<!DOCTYPE` into `doctype.rs`.

use super::input::{stop_table, Window};
use super::states::State;
use super::{Flow, TextKind, TokenSink, Tokenizer};
use crate::error::ErrorCode;

// Bytes that end a bulk run (see `input::stop_table` for the bytes every
// table includes).
static COMMENT_STOP: [bool; 256] = stop_table(b"-<");
static PI_DATA_STOP: [bool; 256] = stop_table(b"?");
static PI_TARGET_STOP: [bool; 256] = stop_table(b"\t\n ?");
/// Also the bogus DOCTYPE state's.
pub(super) static BOGUS_COMMENT_STOP: [bool; 256] = stop_table(b">");

impl<S: TokenSink> Tokenizer<S> {
    /// §1.4.16 Pi state.
    #[inline]
    pub(super) fn pi_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        // `<?xml` followed by whitespace, `?` or the end of the input
        // starts the XML declaration; `<?xml-stylesheet` does not.
        let bytes = w.bytes_from(self.pos);
        match self.lookahead(w, eof, b"xml") {
            None => return Flow::Suspend,
            Some(true) => match bytes.get(3) {
                None if !eof => return Flow::Suspend,
                None | Some(b'\t' | b'\n' | b'\r' | b' ' | b'?') => {
                    self.pos += 3;
                    self.start_declaration();
                    self.state = State::XmlDeclaration;
                    return Flow::Continue;
                }
                Some(_) => {}
            },
            Some(false) => {}
        }
        match next!(self, w, eof) {
            c @ (None | Some('\t' | '\n' | ' ')) => {
                let at = if c.is_some() {
                    self.current_start()
                } else {
                    self.pos
                };
                self.error_at(w, ErrorCode::MissingProcessingInstructionTarget, at);
                self.comment.clear();
                self.reconsume();
                self.state = State::BogusComment;
            }
            Some(c) => {
                self.pi_target.clear();
                self.pi_data.clear();
                self.push_current(w, c, |t| &mut t.pi_target);
                self.state = State::PiTarget;
            }
        }
        Flow::Continue
    }

    /// §1.4.24 Pi target state.
    #[inline]
    pub(super) fn pi_target_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &PI_TARGET_STOP, |t| &mut t.pi_target);
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => self.state = State::PiTargetAfter,
            None => {
                self.error_at(w, ErrorCode::EofInProcessingInstruction, self.pos);
                self.emit_pi(w);
            }
            Some('?') => self.state = State::PiAfter,
            Some(c) => {
                self.push_current(w, c, |t| &mut t.pi_target);
            }
        }
        Flow::Continue
    }

    /// §1.4.25 Pi target after state.
    #[inline]
    pub(super) fn pi_target_after_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {}
            _ => {
                self.reconsume();
                self.state = State::PiData;
            }
        }
        Flow::Continue
    }

    /// §1.4.26 Pi data state.
    #[inline]
    pub(super) fn pi_data_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &PI_DATA_STOP, |t| &mut t.pi_data);
        match next!(self, w, eof) {
            Some('?') => self.state = State::PiAfter,
            None => {
                self.error_at(w, ErrorCode::EofInProcessingInstruction, self.pos);
                self.emit_pi(w);
            }
            Some(c) => {
                self.push_current(w, c, |t| &mut t.pi_data);
            }
        }
        Flow::Continue
    }

    /// §1.4.27 Pi after state.
    #[inline]
    pub(super) fn pi_after_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        let c = next!(self, w, eof);
        // The `?` that brought us here is data unless `>` follows:
        // the spec drops it, which would read `<?t a?b?>` as "ab"
        // where XML gives "a?b" (docs/conformance.md).
        let question_mark = if c.is_some() {
            self.current_start() - 1
        } else {
            self.pos - 1
        };
        match c {
            Some('>') => self.emit_pi(w),
            Some('?') => {
                self.pi_data.push_span(w, question_mark, question_mark + 1);
            }
            _ => {
                self.pi_data.push_span(w, question_mark, question_mark + 1);
                self.reconsume();
                self.state = State::PiData;
            }
        }
        Flow::Continue
    }

    /// §1.4.28 Markup declaration state.
    #[inline]
    pub(super) fn markup_declaration_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        for (word, next_state) in [
            (&b"--"[..], State::CommentStart),
            (b"DOCTYPE", State::Doctype),
            (b"[CDATA[", State::Cdata),
        ] {
            match self.lookahead(w, eof, word) {
                None => return Flow::Suspend,
                Some(true) => {
                    self.pos += word.len();
                    match next_state {
                        State::CommentStart => self.comment.clear(),
                        State::Doctype => self.doctype.reset(),
                        _ => self.text_kind = TextKind::Cdata,
                    }
                    self.state = next_state;
                    return Flow::Continue;
                }
                Some(false) => {}
            }
        }
        self.error_at(w, ErrorCode::IncorrectlyOpenedComment, self.pos);
        self.comment.clear();
        self.state = State::BogusComment;
        Flow::Continue
    }

    /// §1.4.29 Comment start state.
    #[inline]
    pub(super) fn comment_start_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('-') => self.state = State::CommentStartDash,
            Some('>') => {
                self.error(w, ErrorCode::AbruptClosingOfEmptyComment);
                self.emit_comment(w);
            }
            _ => {
                self.reconsume();
                self.state = State::Comment;
            }
        }
        Flow::Continue
    }

    /// §1.4.30 Comment start dash state.
    #[inline]
    pub(super) fn comment_start_dash_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('-') => self.state = State::CommentEnd,
            Some('>') => {
                self.error(w, ErrorCode::AbruptClosingOfEmptyComment);
                self.emit_comment(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInComment, self.pos);
                self.emit_comment(w);
            }
            Some(_) => {
                let dash = self.current_start() - 1;
                self.comment.push_span(w, dash, dash + 1);
                self.reconsume();
                self.state = State::Comment;
            }
        }
        Flow::Continue
    }

    /// §1.4.31 Comment state.
    #[inline]
    pub(super) fn comment_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &COMMENT_STOP, |t| &mut t.comment);
        match next!(self, w, eof) {
            Some('<') => {
                let start = self.current_start();
                self.comment.push_span(w, start, self.pos);
                self.state = State::CommentLessThanSign;
            }
            Some('-') => self.state = State::CommentEndDash,
            None => {
                self.error_at(w, ErrorCode::EofInComment, self.pos);
                self.emit_comment(w);
            }
            Some(c) => {
                self.push_current(w, c, |t| &mut t.comment);
            }
        }
        Flow::Continue
    }

    /// §1.4.32 Comment less-than sign state.
    #[inline]
    pub(super) fn comment_less_than_sign_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('!') => {
                let start = self.current_start();
                self.comment.push_span(w, start, self.pos);
                self.state = State::CommentLessThanSignBang;
            }
            Some('<') => {
                let start = self.current_start();
                self.comment.push_span(w, start, self.pos);
            }
            _ => {
                self.reconsume();
                self.state = State::Comment;
            }
        }
        Flow::Continue
    }

    /// §1.4.33 Comment less-than sign bang state.
    #[inline]
    pub(super) fn comment_less_than_sign_bang_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('-') => self.state = State::CommentLessThanSignBangDash,
            _ => {
                self.reconsume();
                self.state = State::Comment;
            }
        }
        Flow::Continue
    }

    /// §1.4.34 Comment less-than sign bang dash state.
    #[inline]
    pub(super) fn comment_less_than_sign_bang_dash_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some('-') => self.state = State::CommentLessThanSignBangDashDash,
            _ => {
                self.reconsume();
                self.state = State::CommentEndDash;
            }
        }
        Flow::Continue
    }

    /// §1.4.35 Comment less-than sign bang dash dash state.
    #[inline]
    pub(super) fn comment_less_than_sign_bang_dash_dash_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            None | Some('>') => {
                self.reconsume();
                self.state = State::CommentEnd;
            }
            Some(_) => {
                self.error(w, ErrorCode::NestedComment);
                self.reconsume();
                self.state = State::CommentEnd;
            }
        }
        Flow::Continue
    }

    /// §1.4.36 Comment end dash state.
    #[inline]
    pub(super) fn comment_end_dash_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('-') => self.state = State::CommentEnd,
            None => {
                self.error_at(w, ErrorCode::EofInComment, self.pos);
                self.emit_comment(w);
            }
            Some(_) => {
                let dash = self.current_start() - 1;
                self.comment.push_span(w, dash, dash + 1);
                self.reconsume();
                self.state = State::Comment;
            }
        }
        Flow::Continue
    }

    /// §1.4.37 Comment end state.
    #[inline]
    pub(super) fn comment_end_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('>') => self.emit_comment(w),
            Some('!') => self.state = State::CommentEndBang,
            Some('-') => {
                let dash = self.current_start() - 2;
                self.comment.push_span(w, dash, dash + 1);
            }
            None => {
                self.error_at(w, ErrorCode::EofInComment, self.pos);
                self.emit_comment(w);
            }
            Some(_) => {
                let start = self.current_start();
                self.comment.push_span(w, start - 2, start);
                self.reconsume();
                self.state = State::Comment;
            }
        }
        Flow::Continue
    }

    /// §1.4.38 Comment end bang state.
    #[inline]
    pub(super) fn comment_end_bang_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('-') => {
                let start = self.current_start();
                self.comment.push_span(w, start - 3, start);
                self.state = State::CommentEndDash;
            }
            Some('>') => {
                self.error(w, ErrorCode::IncorrectlyClosedComment);
                self.emit_comment(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInComment, self.pos);
                self.emit_comment(w);
            }
            Some(_) => {
                let start = self.current_start();
                self.comment.push_span(w, start - 3, start);
                self.reconsume();
                self.state = State::Comment;
            }
        }
        Flow::Continue
    }

    /// §1.4.43 Bogus comment state.
    #[inline]
    pub(super) fn bogus_comment_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.bulk(w, &BOGUS_COMMENT_STOP, |t| &mut t.comment);
        match next!(self, w, eof) {
            Some('>') | None => self.emit_comment(w),
            Some(c) => {
                self.push_current(w, c, |t| &mut t.comment);
            }
        }
        Flow::Continue
    }
}
