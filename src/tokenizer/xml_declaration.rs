//! The XML declaration, `<?xml version="1.0" ...?>` (§1.4.17–23): its
//! pseudo-attributes are read in order, and anything the grammar does not
//! allow turns it back into a processing instruction named `xml` (the PI
//! data state, in `markup.rs`, takes over).

use super::input::Window;
use super::states::State;
use super::{push_source, Flow, Token, TokenSink, Tokenizer, XmlDecl};
use crate::error::ErrorCode;
use crate::span::Span;

/// The pseudo-attributes, in the order the grammar allows them.
const DECLARATION_NAMES: [&str; 3] = ["version", "encoding", "standalone"];

impl<S: TokenSink> Tokenizer<S> {
    /// §1.4.17 XML declaration state.
    pub(super) fn xml_declaration_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {}
            Some('v' | 'e' | 's') => {
                let at = self.current_start();
                self.declaration.content_start.get_or_insert(at);
                self.reconsume();
                self.state = State::XmlDeclarationAttributeName;
            }
            Some('?') => {
                let at = self.current_start();
                self.declaration.content_start.get_or_insert(at);
                self.declaration.question_mark = at;
                self.state = State::XmlDeclarationAfter;
            }
            None => {
                self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                self.emit_declaration(w, self.pos);
            }
            Some(_) => {
                let at = self.current_start();
                self.declaration.content_start.get_or_insert(at);
                self.declaration_error(w, at);
            }
        }
        Flow::Continue
    }

    /// §1.4.18 XML declaration attribute name state.
    pub(super) fn xml_declaration_attribute_name_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        let bytes = w.bytes_from(self.pos);
        let found = DECLARATION_NAMES
            .iter()
            .position(|name| bytes.starts_with(name.as_bytes()));
        if let Some(index) = found {
            let at = self.pos;
            self.pos += DECLARATION_NAMES[index].len();
            let d = &mut self.declaration;
            // Each at most once, in the order of the grammar.
            let misplaced = d.present[index..].iter().any(|&p| p);
            d.started = true;
            d.current = index;
            d.values[index].clear();
            d.present[index] = false;
            if misplaced {
                self.error_at(w, ErrorCode::InvalidXmlDeclaration, at);
            }
            self.state = State::XmlDeclarationAttributeNameAfter;
        } else if !eof
            && DECLARATION_NAMES
                .iter()
                .any(|name| bytes.len() < name.len() && name.as_bytes().starts_with(bytes))
        {
            return Flow::Suspend;
        } else {
            // Consume one character so that the error points at it,
            // then hand it to the PI data state.
            next!(self, w, eof);
            let at = self.current_start();
            self.declaration_error(w, at);
        }
        Flow::Continue
    }

    /// §1.4.19 XML declaration attribute name after.
    pub(super) fn xml_declaration_attribute_name_after_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {}
            Some('=') => self.state = State::XmlDeclarationAttributeValueBefore,
            None => {
                self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                self.emit_declaration(w, self.pos);
            }
            Some(_) => {
                let at = self.current_start();
                self.declaration_error(w, at);
            }
        }
        Flow::Continue
    }

    /// §1.4.20 XML declaration attribute before value state.
    pub(super) fn xml_declaration_attribute_value_before_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
    ) -> Flow {
        match next!(self, w, eof) {
            Some('\t' | '\n' | ' ') => {}
            Some(quote @ ('"' | '\'')) => {
                self.state = State::XmlDeclarationAttributeValueQuoted(quote as u8);
            }
            None => {
                self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                self.emit_declaration(w, self.pos);
            }
            Some(_) => {
                let at = self.current_start();
                self.declaration_error(w, at);
            }
        }
        Flow::Continue
    }

    /// §1.4.21 XML declaration attribute value (single-quoted) state, and
    /// §1.4.22 its double-quoted twin; `quote` is the quote.
    pub(super) fn xml_declaration_attribute_value_quoted_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        quote: u8,
    ) -> Flow {
        let c = next!(self, w, eof);
        let index = self.declaration.current;
        match c {
            Some(c) if c as u32 == quote as u32 => {
                self.declaration.present[index] = true;
                self.state = State::XmlDeclaration;
            }
            Some('?') => {
                self.error(w, ErrorCode::AbruptClosingXmlDeclaration);
                self.declaration.present[index] = true;
                self.declaration.question_mark = self.current_start();
                self.state = State::XmlDeclarationAfter;
            }
            None => {
                self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                self.declaration.present[index] = true;
                self.emit_declaration(w, self.pos);
            }
            Some(c) => {
                self.push_current(w, c, |t| &mut t.declaration.values[index]);
            }
        }
        Flow::Continue
    }

    /// §1.4.23 XML declaration after state.
    pub(super) fn xml_declaration_after_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match next!(self, w, eof) {
            Some('>') => {
                let end = self.declaration.question_mark;
                self.emit_declaration(w, end);
            }
            None => {
                self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                let end = self.declaration.question_mark;
                self.emit_declaration(w, end);
            }
            Some(_) => {
                // Spec: reprocess in the PI data state, dropping the `?`
                // (the suite's `<?xml ?m?>` gives data "m"). Once a
                // declaration has started, its fallback PI keeps all of
                // its text, the `?` included.
                let question_mark = self.declaration.question_mark;
                let end = if self.declaration.started {
                    question_mark + 1
                } else {
                    question_mark
                };
                self.declaration_error(w, end);
            }
        }
        Flow::Continue
    }

    /// Starts reading a declaration, after `<?xml`.
    pub(super) fn start_declaration(&mut self) {
        let d = &mut self.declaration;
        for value in &mut d.values {
            value.clear();
        }
        d.present = [false; 3];
        d.started = false;
        d.content_start = None;
    }

    /// Gives up on the XML declaration: it becomes a PI named `xml` whose
    /// data is the source from the first non-space character up to `upto`,
    /// and the PI data state takes over.
    fn declaration_to_pi(&mut self, w: &Window<'_>, upto: usize) {
        self.pi_target.clear();
        self.pi_target
            .push_span(w, self.token_start + 2, self.token_start + 5);
        self.pi_data.clear();
        if let Some(start) = self.declaration.content_start {
            push_source(&mut self.pi_data, w, start, upto.max(start));
        }
        self.state = State::PiData;
    }

    /// An error that turns a started declaration into a PI.
    fn declaration_error(&mut self, w: &Window<'_>, upto: usize) {
        if self.declaration.started {
            self.error(w, ErrorCode::InvalidXmlDeclaration);
        }
        self.declaration_to_pi(w, upto);
        self.reconsume();
    }

    fn emit_declaration(&mut self, w: &Window<'_>, content_end: usize) {
        if !self.declaration.started {
            self.declaration_to_pi(w, content_end);
            self.emit_pi(w);
            return;
        }
        if !self.declaration.present[0] {
            self.error_at(w, ErrorCode::InvalidXmlDeclaration, self.token_start);
        }
        let d = &mut self.declaration;
        d.data.clear();
        if let Some(start) = d.content_start {
            push_source(&mut d.data, w, start, content_end.max(start));
        }
        let d = &self.declaration;
        let value = |i: usize| d.present[i].then(|| d.values[i].as_str(w));
        // What follows is read by XML 1.1's rules, if this declaration is
        // the document's (at the start of the text: decoding takes off a
        // byte-order mark).
        if self.token_start == 0 {
            self.xml11 = value(0) == Some("1.1");
        }
        let token = Token::XmlDeclaration(XmlDecl {
            version: value(0),
            encoding: value(1),
            standalone: value(2),
            data: d.data.as_str(w),
            span: Span::new(self.token_start, self.pos),
        });
        self.sink.process_token(token);
        self.state = State::Data;
    }
}
