//! Character references (§1.4.2 in text, §1.4.42 in attribute values;
//! §1.4.44's reading of the reference itself is `char_refs::consume`), and
//! references to the entities the internal subset declared, which become
//! [`Token::EntityReference`]s in text and are expanded in attribute values.

use super::input::Window;
use super::states::{AttributeValueState, State};
use super::{EntityReference, Flow, Token, TokenSink, Tokenizer};
use crate::char_refs::{self, CharRef, Replacement};
use crate::dtd::{EntityLookup, ExpansionMode};
use crate::error::ErrorCode;
use crate::span::Span;

impl<S: TokenSink> Tokenizer<S> {
    /// §1.4.2 Character reference in data state.
    #[inline]
    pub(super) fn character_reference_in_data_state(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        if !self.reference_run_complete(w, eof) {
            return Flow::Suspend;
        }
        match self.declared_reference_in_data(w, eof) {
            None => return Flow::Suspend,
            Some(true) => {
                self.state = State::Data;
                return Flow::Continue;
            }
            Some(false) => {}
        }
        match char_refs::consume(w.bytes_from(self.pos), eof, false, None, self.xml11) {
            CharRef::NeedMore => return Flow::Suspend,
            CharRef::NotARef { error } => {
                if let Some(code) = error {
                    self.error_at(w, code, self.amp);
                }
                self.text_push_span(w, self.amp, self.amp + 1);
            }
            CharRef::Ref {
                consumed,
                text,
                errors,
            } => {
                for code in errors.iter() {
                    self.error_at(w, code, self.amp);
                }
                self.pos += consumed;
                if errors.is_empty() {
                    self.char_ref(w, text, self.pos);
                } else {
                    self.emit_char_ref(w, text, self.pos);
                }
            }
        }
        self.state = State::Data;
        Flow::Continue
    }

    /// §1.4.42 Character reference in attribute value state; `value_state`
    /// is the attribute value state to return to.
    #[inline]
    pub(super) fn character_reference_in_attribute_value_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        value_state: AttributeValueState,
    ) -> Flow {
        if !self.reference_run_complete(w, eof) {
            return Flow::Suspend;
        }
        match self.declared_reference_in_attribute(w, eof) {
            None => return Flow::Suspend,
            Some(true) => {
                self.state = value_state.state();
                return Flow::Continue;
            }
            Some(false) => {}
        }
        let outcome = char_refs::consume(
            w.bytes_from(self.pos),
            eof,
            true,
            Some(value_state.additional_allowed()),
            self.xml11,
        );
        match outcome {
            CharRef::NeedMore => return Flow::Suspend,
            CharRef::NotARef { error } => {
                if let Some(code) = error {
                    self.error_at(w, code, self.amp);
                }
                let amp = self.amp;
                self.current_attribute().value.push_span(w, amp, amp + 1);
            }
            CharRef::Ref {
                consumed,
                text,
                errors,
            } => {
                for code in errors.iter() {
                    self.error_at(w, code, self.amp);
                }
                self.pos += consumed;
                let value = &mut self.current_attribute().value;
                match text {
                    Replacement::Char(c) => value.push_char(w, c),
                    Replacement::Str(s) => value.push_str(w, s),
                }
            }
        }
        self.state = value_state.state();
        Flow::Continue
    }

    /// Whether the name or number after the `&` at `self.amp` ends inside
    /// the window (or the input is complete), so that the matchers below
    /// can decide without more input. Until then they would suspend, and
    /// run again over the whole name at every chunk: a long name arriving
    /// in small chunks would cost its length squared. How far the name is
    /// known to go is kept, so each byte is looked at once.
    fn reference_run_complete(&mut self, w: &Window<'_>, eof: bool) -> bool {
        if eof {
            return true;
        }
        // The HTML names and numbers go on over ASCII letters and digits (and
        // `#`); a declared entity's name also over `-._:` and non-ASCII
        // bytes, but no further than the longest declared name and one.
        let declared_end = match &self.declarations {
            Some(d) if d.has_entities() => self.pos.saturating_add(d.longest_name() + 1),
            _ => self.pos,
        };
        let from = self.reference_scanned.max(self.pos).min(w.end());
        for (at, &b) in (from..).zip(w.bytes_from(from)) {
            let html = b.is_ascii_alphanumeric() || b == b'#';
            let declared =
                at < declared_end && (matches!(b, b'-' | b'.' | b'_' | b':') || b >= 0x80);
            if !(html || declared) {
                return true;
            }
        }
        self.reference_scanned = w.end();
        false
    }

    /// After `&` in content: a reference to a declared entity becomes an
    /// [`Token::EntityReference`]. `None` when more input is needed, else
    /// whether it was one.
    fn declared_reference_in_data(&mut self, w: &Window<'_>, eof: bool) -> Option<bool> {
        let Some(declarations) = &self.declarations else {
            return Some(false);
        };
        if !declarations.has_entities() {
            return Some(false);
        }
        let Some(n) = declarations.match_reference(w.bytes_from(self.pos), eof)? else {
            return Some(false);
        };
        self.emit_text(w);
        let name = w.slice(self.pos, self.pos + n);
        self.pos += n + 1;
        self.sink
            .process_token(Token::EntityReference(EntityReference {
                name,
                span: Span::new(self.amp, self.pos),
            }));
        Some(true)
    }

    /// After `&` in an attribute value: a reference to a declared entity is
    /// expanded into the value. `None` when more input is needed, else
    /// whether it was one.
    fn declared_reference_in_attribute(&mut self, w: &Window<'_>, eof: bool) -> Option<bool> {
        let Some(declarations) = self.declarations.clone() else {
            return Some(false);
        };
        if !declarations.has_entities() {
            return Some(false);
        }
        let Some(n) = declarations.match_reference(w.bytes_from(self.pos), eof)? else {
            return Some(false);
        };
        let name = w.slice(self.pos, self.pos + n);
        let reference = w.slice(self.amp, self.pos + n + 1);
        let mut value = String::new();
        let mut errors = Vec::new();
        declarations.read_up_to(self.pos + n + 1);
        match declarations.lookup(name) {
            EntityLookup::Internal(text) if declarations.max_depth() > 0 => {
                let expanded = declarations.expand(
                    text,
                    Some(name),
                    0,
                    ExpansionMode::Attribute,
                    &mut value,
                    &mut errors,
                );
                if expanded.is_err() {
                    // Out of budget: the reference stays as written.
                    value.clear();
                    value.push_str(reference);
                }
            }
            EntityLookup::Internal(_) => {
                errors.push(ErrorCode::EntityDepthLimit);
                value.push_str(reference);
            }
            // (`lookup` never reads an external entity: in an attribute
            // value one may not be referred to.)
            EntityLookup::External | EntityLookup::Unavailable(_) => {
                errors.push(ErrorCode::ExternalEntityInAttributeValue);
                value.push_str(reference);
            }
            EntityLookup::Unparsed => {
                errors.push(ErrorCode::UnparsedEntityReference);
                value.push_str(reference);
            }
            EntityLookup::Undeclared => {
                errors.push(ErrorCode::UndeclaredEntity);
                value.push_str(reference);
            }
        }
        for code in errors {
            self.error_at(w, code, self.amp);
        }
        self.pos += n + 1;
        self.current_attribute().value.push_str(w, &value);
        Some(true)
    }
}
