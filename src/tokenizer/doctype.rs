//! The DOCTYPE: XML5's DOCTYPE states (§1.4.45–49) and, for the public and
//! system identifiers that XML5 leaves unfinished, HTML's (W3C 2012 text,
//! `html5-tokenization-charrefs.txt` §8.2.4.56–66) as the suite requires.
//! In these states NUL becomes U+FFFD without an error, as the suite's
//! doctype.test requires. The internal subset between `[` and `]` is in
//! `internal_subset.rs`.

use super::buffers::DoctypeBuilder;
use super::input::{StrBuf, Window};
use super::markup::BOGUS_COMMENT_STOP;
use super::states::State;
use super::{push_consumed, Flow, TokenSink, Tokenizer};
use crate::error::ErrorCode;

/// Whitespace in DOCTYPEs, which (as in HTML, and as the suite requires)
/// also includes form feed.
fn is_doctype_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | ' ')
}

impl<S: TokenSink> Tokenizer<S> {
    /// §1.4.45 DOCTYPE state.
    pub(super) fn doctype_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => self.state = State::BeforeDoctypeName,
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                self.error(w, ErrorCode::MissingWhitespaceBeforeDoctypeName);
                self.reconsume();
                self.state = State::BeforeDoctypeName;
            }
        }
        Flow::Continue
    }

    /// §1.4.46 Before DOCTYPE name state.
    pub(super) fn before_doctype_name_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {}
            Some('>') => {
                self.error(w, ErrorCode::MissingDoctypeName);
                self.emit_doctype(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(c) => {
                let mut name = DoctypeBuilder::fresh(&mut self.doctype.spare);
                self.doctype_name_push(w, &mut name, c);
                self.doctype.name = Some(name);
                self.state = State::DoctypeName;
            }
        }
        Flow::Continue
    }

    /// §1.4.47 DOCTYPE name state.
    pub(super) fn doctype_name_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => self.state = State::AfterDoctypeName,
            Some('>') => self.emit_doctype(w),
            Some('[') => self.start_internal_subset(),
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(c) => {
                let mut name = self.doctype.name.take().unwrap_or_default();
                self.doctype_name_push(w, &mut name, c);
                self.doctype.name = Some(name);
            }
        }
        Flow::Continue
    }

    /// §1.4.48 After DOCTYPE name state.
    pub(super) fn after_doctype_name_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {}
            Some('>') => self.emit_doctype(w),
            Some('[') => self.start_internal_subset(),
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                self.reconsume();
                let public = self.lookahead(w, eof, b"PUBLIC");
                let system = self.lookahead(w, eof, b"SYSTEM");
                match (public, system) {
                    (Some(true), _) => {
                        self.pos += 6;
                        self.state = State::AfterDoctypePublicKeyword;
                    }
                    (_, Some(true)) => {
                        self.pos += 6;
                        self.state = State::AfterDoctypeSystemKeyword;
                    }
                    (None, _) | (_, None) => return Flow::Suspend,
                    (Some(false), Some(false)) => {
                        next!(self, w, eof);
                        self.error(w, ErrorCode::InvalidCharacterSequenceAfterDoctypeName);
                        self.state = State::BogusDoctype;
                    }
                }
            }
        }
        Flow::Continue
    }

    /// HTML §8.2.4.56 After DOCTYPE public keyword state.
    pub(super) fn after_doctype_public_keyword_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => self.state = State::BeforeDoctypePublicIdentifier,
            Some(quote @ ('"' | '\'')) => {
                self.error(w, ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword);
                self.start_public_id(quote);
            }
            other => self.doctype_identifier_missing(w, other, true),
        }
        Flow::Continue
    }

    /// HTML §8.2.4.57 Before DOCTYPE public identifier state.
    pub(super) fn before_doctype_public_identifier_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {}
            Some(quote @ ('"' | '\'')) => self.start_public_id(quote),
            other => self.doctype_identifier_missing(w, other, true),
        }
        Flow::Continue
    }

    /// HTML §8.2.4.58–59 DOCTYPE public identifier (double- and
    /// single-quoted) states; `quote` is the quote.
    pub(super) fn doctype_public_identifier_quoted_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        quote: u8,
    ) -> Flow {
        self.doctype_identifier_quoted(w, eof, quote, true)
    }

    /// HTML §8.2.4.60 After DOCTYPE public identifier state.
    pub(super) fn after_doctype_public_identifier_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {
                self.state = State::BetweenDoctypePublicAndSystemIdentifiers
            }
            Some('>') => self.emit_doctype(w),
            Some('[') => self.start_internal_subset(),
            Some(quote @ ('"' | '\'')) => {
                self.error(
                    w,
                    ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                );
                self.start_system_id(quote);
            }
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                self.error(w, ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Flow::Continue
    }

    /// HTML §8.2.4.61 Between DOCTYPE public and system identifiers state.
    pub(super) fn between_doctype_public_and_system_identifiers_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {}
            Some('>') => self.emit_doctype(w),
            Some('[') => self.start_internal_subset(),
            Some(quote @ ('"' | '\'')) => self.start_system_id(quote),
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                self.error(w, ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Flow::Continue
    }

    /// HTML §8.2.4.62 After DOCTYPE system keyword state.
    pub(super) fn after_doctype_system_keyword_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => self.state = State::BeforeDoctypeSystemIdentifier,
            Some(quote @ ('"' | '\'')) => {
                self.error(w, ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword);
                self.start_system_id(quote);
            }
            other => self.doctype_identifier_missing(w, other, false),
        }
        Flow::Continue
    }

    /// HTML §8.2.4.63 Before DOCTYPE system identifier state.
    pub(super) fn before_doctype_system_identifier_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {}
            Some(quote @ ('"' | '\'')) => self.start_system_id(quote),
            other => self.doctype_identifier_missing(w, other, false),
        }
        Flow::Continue
    }

    /// HTML §8.2.4.64–65 DOCTYPE system identifier (double- and
    /// single-quoted) states; `quote` is the quote.
    pub(super) fn doctype_system_identifier_quoted_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        quote: u8,
    ) -> Flow {
        self.doctype_identifier_quoted(w, eof, quote, false)
    }

    /// HTML §8.2.4.66 After DOCTYPE system identifier state.
    pub(super) fn after_doctype_system_identifier_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {}
            Some('>') => self.emit_doctype(w),
            Some('[') => self.start_internal_subset(),
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                self.error(
                    w,
                    ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
                );
                self.state = State::BogusDoctype;
            }
        }
        Flow::Continue
    }

    /// After the internal subset's closing `]`.
    pub(super) fn after_doctype_internal_subset_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some(c) if is_doctype_space(c) => {}
            Some('>') => self.emit_doctype(w),
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                self.error(w, ErrorCode::UnexpectedCharacterAfterDoctypeInternalSubset);
                self.state = State::BogusDoctype;
            }
        }
        Flow::Continue
    }

    /// §1.4.49 Bogus DOCTYPE state.
    pub(super) fn bogus_doctype_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        self.pos += self.scan_run(w, self.pos, &BOGUS_COMMENT_STOP);
        match next!(self, w, eof) {
            Some('>') | None => self.emit_doctype(w),
            Some(_) => {}
        }
        Flow::Continue
    }

    fn doctype_name_push(&mut self, w: &Window<'_>, name: &mut StrBuf, c: char) {
        let start = self.current_start();
        match c {
            'A'..='Z' => name.push_char(w, c.to_ascii_lowercase()),
            '\0' => name.push_char(w, '\u{FFFD}'),
            _ => push_consumed(name, w, start, self.pos, c),
        }
    }

    fn start_public_id(&mut self, quote: char) {
        self.doctype.public_id = Some(DoctypeBuilder::fresh(&mut self.doctype.spare));
        self.state = State::DoctypePublicIdentifierQuoted(quote as u8);
    }

    fn start_system_id(&mut self, quote: char) {
        self.doctype.system_id = Some(DoctypeBuilder::fresh(&mut self.doctype.spare));
        self.state = State::DoctypeSystemIdentifierQuoted(quote as u8);
    }

    /// After `PUBLIC` or `SYSTEM`, anything but whitespace or a quote.
    fn doctype_identifier_missing(&mut self, w: &Window<'_>, c: Option<char>, public: bool) {
        match c {
            Some('>') => {
                let code = if public {
                    ErrorCode::MissingDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingDoctypeSystemIdentifier
                };
                self.error(w, code);
                self.emit_doctype(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                let code = if public {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                };
                self.error(w, code);
                self.state = State::BogusDoctype;
            }
        }
    }

    /// The quoted public and system identifier states.
    fn doctype_identifier_quoted(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        quote: u8,
        public: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some(c) if c as u32 == quote as u32 => {
                self.state = if public {
                    State::AfterDoctypePublicIdentifier
                } else {
                    State::AfterDoctypeSystemIdentifier
                };
            }
            Some('>') => {
                let code = if public {
                    ErrorCode::AbruptDoctypePublicIdentifier
                } else {
                    ErrorCode::AbruptDoctypeSystemIdentifier
                };
                self.error(w, code);
                self.emit_doctype(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(c) => {
                let start = self.current_start();
                let end = self.pos;
                let field = if public {
                    &mut self.doctype.public_id
                } else {
                    &mut self.doctype.system_id
                };
                let buf = field.get_or_insert_with(StrBuf::default);
                let c = if c == '\0' { '\u{FFFD}' } else { c };
                push_consumed(buf, w, start, end, c);
            }
        }
        Flow::Continue
    }
}
