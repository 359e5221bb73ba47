//! The rules of tree construction, phase by phase (XML5 §1.5: the start
//! phase, the main phase, the end phase).
//!
//! [`TreeBuilder::process`] takes each token (a replacement text's first
//! checked in that text and moved to the reference, in `mod.rs`) through
//! the checks every token meets (`prepare`, in `mod.rs`: errors settled,
//! the first XML declaration, the depth limit, the end of pending text),
//! then dispatches on the phase; each phase matches on the token, one arm
//! per rule of §1.5, quoted. `grep "§1.5 Main phase"` finds the rules of a
//! phase. Where the builder goes beyond the spec (a token §1.5 does not
//! name, what XML 1.0 makes of it, a limit) the arm says so, and
//! docs/conformance.md records the decision.
//!
//! The arms hand on to the rest of the builder: elements are created and
//! closed in `elements.rs` (names resolved in `namespaces.rs`), character
//! data waits in `text.rs`, references to declared entities expand in
//! `entities.rs`.

use crate::error::ErrorCode;
use crate::span::Span;
use crate::tokenizer::{Comment, Doctype, ProcessingInstruction, Token, XmlDecl};

use super::{Phase, TreeBuilder, TreeSink};

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// Builds from one token (of the source or of a replacement text): the
    /// checks every token meets, then the rules of the current phase.
    #[inline(always)]
    pub(super) fn process(&mut self, token: Token<'_>) {
        match self.reference_span() {
            None => self.dispatch(&token),
            Some(reference) => self.process_replacement_token(token, reference),
        }
    }

    /// The checks every token meets (`prepare`), then the phase's rules.
    /// The token is matched by reference all the way down: it is large,
    /// and a copy per token would show in the instruction count.
    #[inline(always)]
    pub(super) fn dispatch(&mut self, token: &Token<'_>) {
        if !self.prepare(token) {
            return;
        }
        match self.phase {
            Phase::Start => self.start_phase(token),
            Phase::Main => self.main_phase(token),
            Phase::End => self.end_phase(token),
        }
    }

    /// §1.5 Start phase: before the root element. (Not inlined: few tokens
    /// come before the root, and the main phase's rules stay the body of
    /// the dispatch.)
    #[inline(never)]
    fn start_phase(&mut self, token: &Token<'_>) {
        match *token {
            // §1.5 Start phase, "A start tag token": "Create an element for
            // the token and then append it to the Document node and push it
            // into the stack of open elements. This element is the root
            // element ... Then switch to the main phase."
            Token::StartTag(ref tag) => {
                if let Some((qname, mark)) = self.create_element_for_token(tag, false) {
                    self.push_open(qname, mark);
                    self.phase = Phase::Main;
                }
            }
            // §1.5 Start phase, "An empty tag token": "Create an element for
            // the token and append it to the Document node. Then switch to
            // the end phase."
            Token::EmptyTag(ref tag) => {
                if let Some((_, mark)) = self.create_element_for_token(tag, true) {
                    self.scopes.unwind(mark);
                    self.phase = Phase::End;
                }
            }
            // §1.5 Start phase, "A comment token": "Append a Comment node to
            // the Document node".
            Token::Comment(comment) => self.comment(comment),
            // §1.5 Start phase, "A processing instruction token": "Append a
            // ProcessingInstruction node to the Document node".
            Token::ProcessingInstruction(pi) => self.processing_instruction(pi),
            // §1.5 Start phase, "An end-of-file token": "Parse error.
            // Reprocess the token in the end phase" (where parsing stops).
            Token::EndOfFile(offset) => {
                self.error(ErrorCode::MissingRootElement, offset);
                self.phase = Phase::End;
            }
            // Beyond §1.5, which ignores it as "anything else": the first
            // DOCTYPE is appended to the Document node (the suite's
            // test1.dat; docs/conformance.md, "Tree construction").
            Token::Doctype(doctype) => self.doctype(doctype),
            // §1.5 Start phase, "Anything else": "Parse error. Ignore the
            // token."
            Token::EndTag(tag) => self.end_tag_outside_root(tag.span),
            Token::ShortEndTag(span) => self.end_tag_outside_root(span),
            // Characters are "anything else" too: their lines of whitespace
            // are kept for the round trip, the rest reported and dropped
            // (docs/conformance.md, "Tree construction").
            Token::Text(text) => self.character_token(text),
            // Beyond §1.5, which names no XML declaration: one that is not
            // the first token (the first is the document's, see `prepare`)
            // is misplaced and kept as a PI (XML 1.0 §2.8).
            Token::XmlDeclaration(declaration) => self.misplaced_xml_declaration(declaration),
            // Beyond §1.5: a reference to a declared entity is built where
            // it is, and reported when it makes markup (`entities.rs`).
            Token::EntityReference(reference) => {
                self.entity_reference(reference.name, reference.span);
            }
        }
    }

    /// §1.5 Main phase: inside the root element (or a fragment's context
    /// element, which nothing closes).
    #[inline]
    fn main_phase(&mut self, token: &Token<'_>) {
        match *token {
            // §1.5 Main phase, "A character token": "Append a character to
            // the current element."
            Token::Text(text) => self.character_token(text),
            // §1.5 Main phase, "A start tag token": "Insert an element for
            // the token" (create it, append it to the current element, push
            // it onto the stack of open elements), and "An empty tag token":
            // "Create an element for the token and append it to the current
            // element" (its namespace declarations end with it).
            Token::StartTag(ref tag) | Token::EmptyTag(ref tag) => {
                let empty = matches!(*token, Token::EmptyTag(_));
                match self.create_element_for_token(tag, empty) {
                    Some((qname, mark)) if !empty => self.push_open(qname, mark),
                    Some((_, mark)) => self.scopes.unwind(mark),
                    None => {}
                }
            }
            // §1.5 Main phase, "An end tag token" (see `end_tag`).
            Token::EndTag(tag) => {
                if self.in_source() {
                    self.check_end_tag(tag.name, tag.span);
                }
                let name = self.limited_name(tag.name, tag.span.start + 2);
                self.end_tag(name, tag.span);
            }
            // §1.5 Main phase, "A short end tag token": "Pop an element from
            // the stack of open elements. If there are no more elements on
            // the stack of open elements switch to the end phase" (`pop`).
            // Beyond the spec: `</>` is not XML, so it is an error
            // (`short-end-tag`); in a fragment it would close the element
            // outside, so it is stray.
            Token::ShortEndTag(span) => {
                if self.stack.is_empty() {
                    self.error(ErrorCode::StrayEndTag, span.start);
                    self.dropped(span);
                } else {
                    self.error(ErrorCode::ShortEndTag, span.start);
                    self.pop(span.end, Some(span));
                }
            }
            // §1.5 Main phase, "A comment token": "Append a Comment node to
            // the current element".
            Token::Comment(comment) => self.comment(comment),
            // §1.5 Main phase, "A processing instruction token": "Append a
            // ProcessingInstruction node to the current element".
            Token::ProcessingInstruction(pi) => self.processing_instruction(pi),
            // §1.5 Main phase, "An end-of-file token": "Parse error.
            // Reprocess the token in the end phase": the open elements are
            // closed (one `eof-in-element`; none in a fragment with nothing
            // of its own open), and popping the last switches to the end
            // phase.
            Token::EndOfFile(offset) => {
                if !self.stack.is_empty() {
                    self.error(ErrorCode::EofInElement, offset);
                }
                while !self.stack.is_empty() {
                    self.pop(offset, None);
                }
            }
            // Beyond §1.5, which names no other token in the main phase: a
            // DOCTYPE is misplaced and ignored, an XML declaration kept as a
            // PI, a reference expanded (docs/conformance.md).
            Token::Doctype(doctype) => self.misplaced_doctype(doctype.span),
            Token::XmlDeclaration(declaration) => self.misplaced_xml_declaration(declaration),
            Token::EntityReference(reference) => {
                self.entity_reference(reference.name, reference.span);
            }
        }
    }

    /// §1.5 End phase: after the root element. (Not inlined, as the start
    /// phase.)
    #[inline(never)]
    fn end_phase(&mut self, token: &Token<'_>) {
        match *token {
            // §1.5 End phase, "A comment token": "Append a Comment node to
            // the Document node".
            Token::Comment(comment) => self.comment(comment),
            // §1.5 End phase, "A processing instruction token": "Append a
            // ProcessingInstruction node to the Document node".
            Token::ProcessingInstruction(pi) => self.processing_instruction(pi),
            // §1.5 End phase, "An end-of-file token": parsing stops.
            Token::EndOfFile(_) => {}
            // §1.5 End phase, "Anything else": "Parse error. Ignore the
            // token."
            Token::StartTag(ref tag) | Token::EmptyTag(ref tag) => {
                self.error(ErrorCode::ElementAfterRootElement, tag.span.start);
                self.dropped(tag.span);
            }
            Token::EndTag(tag) => self.end_tag_outside_root(tag.span),
            Token::ShortEndTag(span) => self.end_tag_outside_root(span),
            Token::Doctype(doctype) => self.misplaced_doctype(doctype.span),
            // As in the start phase: lines of whitespace are kept, the rest
            // reported and dropped; an XML declaration is kept as a PI; a
            // reference is built.
            Token::Text(text) => self.character_token(text),
            Token::XmlDeclaration(declaration) => self.misplaced_xml_declaration(declaration),
            Token::EntityReference(reference) => {
                self.entity_reference(reference.name, reference.span);
            }
        }
    }

    /// §1.5 Main phase, "An end tag token": "If the tag name of the current
    /// node does not match the tag name of the end tag token this is a
    /// parse error. If there is an element in scope with the same tag name
    /// as that of the token pop nodes from the stack of open elements until
    /// the first such element has been popped from the stack. If there are
    /// no more elements on the stack of open elements at this point switch
    /// to the end phase" (`pop`). Names compare as written; the one parse
    /// error is `mismatched-end-tag` when it closes more than the current
    /// element, `stray-end-tag` when it closes nothing (docs/conformance.md).
    fn end_tag(&mut self, name: &str, span: Span) {
        let current = self.stack.last().map(|open| open.qname);
        let current_name = current.map(|q| &*self.sink.names().qname_data(q).text);
        if current_name.is_some_and(|current| crate::dom::same_text(current, name)) {
            self.pop(span.end, Some(span));
            return;
        }
        // "An element in scope": any open element, counted per name.
        let open = self
            .sink
            .names()
            .find_qname(name)
            .filter(|q| self.open_counts.get(q.0 as usize).is_some_and(|&n| n > 0));
        match open {
            Some(target) => {
                // The elements inside the innermost open `target`.
                let implied_closes = self
                    .stack
                    .iter()
                    .rev()
                    .position(|open| open.qname == target)
                    .unwrap_or(0);
                self.end_tag_error(ErrorCode::MismatchedEndTag, name, span, implied_closes);
                while let Some(top) = self.stack.last().map(|open| open.qname) {
                    if top == target {
                        self.pop(span.end, Some(span));
                        break;
                    }
                    self.pop(span.start, None);
                }
            }
            None => {
                self.end_tag_error(ErrorCode::StrayEndTag, name, span, 0);
                self.dropped(span);
            }
        }
    }

    /// An end tag or `</>` in the start or end phase: "anything else",
    /// "parse error, ignore the token".
    fn end_tag_outside_root(&mut self, span: Span) {
        self.error(ErrorCode::EndTagOutsideRootElement, span.start);
        self.dropped(span);
    }

    /// "A comment token": "Append a Comment node to" the current node (the
    /// Document node outside the root element), once checked against
    /// XML 1.0.
    fn comment(&mut self, comment: Comment<'_>) {
        if self.in_source() {
            self.checker.comment(comment.data, comment.span);
            self.report_checks();
        }
        self.flush_text();
        self.sink.comment(comment.data, comment.span);
    }

    /// "A processing instruction token": "Append a ProcessingInstruction
    /// node to" the current node, once checked against XML 1.0.
    fn processing_instruction(&mut self, pi: ProcessingInstruction<'_>) {
        if self.in_source() {
            self.checker.processing_instruction(pi.target, pi.span);
            self.report_checks();
        }
        self.append_processing_instruction(pi.target, pi.data, pi.span);
    }

    fn append_processing_instruction(&mut self, target: &str, data: &str, span: Span) {
        let target = self.limited_name(target, span.start + 2);
        self.flush_text();
        self.sink.processing_instruction(target, data, span);
    }

    /// An XML declaration that is not the first token (the first is the
    /// document's, see `prepare`): `misplaced-xml-declaration`, and kept as
    /// a PI named `xml` where a PI would go (XML 1.0 §2.8, §2.6; §1.5 is
    /// silent; docs/conformance.md).
    fn misplaced_xml_declaration(&mut self, declaration: XmlDecl<'_>) {
        self.error(ErrorCode::MisplacedXmlDeclaration, declaration.span.start);
        let at = declaration.span.start;
        let target = self.checker.source.slice(at + 2, at + 5).to_owned();
        self.append_processing_instruction(&target, declaration.data, declaration.span);
    }

    /// A DOCTYPE in the start phase: the first from the source is the
    /// document's (its declarations apply from here on); another is
    /// misplaced.
    fn doctype(&mut self, doctype: &Doctype<'_>) {
        if self.seen_doctype || !self.in_source() {
            self.misplaced_doctype(doctype.span);
            return;
        }
        self.seen_doctype = true;
        let standalone = self.standalone;
        let parameter_references = doctype
            .declarations
            .is_some_and(|d| d.has_parameter_references());
        self.entities_may_be_external =
            !standalone && (doctype.system_id.is_some() || parameter_references);
        if let Some(declarations) = doctype.declarations {
            self.set_declarations(declarations);
            self.checker.declarations = Some(declarations.clone());
        }
        self.checker.doctype(
            doctype.name,
            doctype.public_id,
            doctype.system_id,
            doctype.span,
        );
        self.report_checks();
        self.flush_text();
        self.sink.doctype(doctype);
    }

    /// A DOCTYPE after the first, or after the root started:
    /// `misplaced-doctype`, ignored.
    fn misplaced_doctype(&mut self, span: Span) {
        self.error(ErrorCode::MisplacedDoctype, span.start);
        self.dropped(span);
    }
}
