//! The [`TreeSink`] that builds a [`Document`]: what the builder reports,
//! turned into calls of the DOM's construction API ([`Builder`]).
//!
//! It lives here, beside the tree builder, and not in the DOM, which knows
//! nothing of parsing: it is the builder's half of the bargain (how its
//! tokens and events become names, strings and records), and the DOM's
//! [`Builder`] only offers what any construction needs.

use crate::dom::{Builder, DoctypeData, Document, LineIndex, Names, XmlDeclaration};
use crate::error::{ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{Doctype, XmlDecl};

use super::sink::{Chars, StartElement, TreeSink};

/// Builds a [`Document`] from `input`.
pub(crate) struct DocumentSink<'i> {
    builder: Builder<'i>,
    /// Whether text of XML whitespace only is left out
    /// (`ParseOptions::skip_blank_text`).
    skip_blank_text: bool,
}

impl<'i> DocumentSink<'i> {
    fn of(builder: Builder<'i>) -> DocumentSink<'i> {
        DocumentSink {
            builder,
            skip_blank_text: false,
        }
    }

    /// The sink, leaving text of XML whitespace only out if `skip`.
    pub(crate) fn skipping_blank_text(mut self, skip: bool) -> DocumentSink<'i> {
        self.skip_blank_text = skip;
        self
    }

    /// Whether the node made now follows an element among its siblings.
    fn after_element(&self) -> bool {
        let last = self.builder.last_child();
        let doc = self.builder.document();
        last.and_then(|id| doc.node(crate::dom::NodeId(id)))
            .is_some_and(|node| node.is_element())
    }

    /// Whether `text` is indentation: XML whitespace as the source has
    /// it (no CDATA, no reference) after an element.
    fn is_indentation(&self, text: &Chars<'_>, cdata: &[(usize, usize)]) -> bool {
        let Chars::InSource(text, _) = *text else {
            return false;
        };
        cdata.is_empty()
            && text
                .bytes()
                .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            && self.after_element()
    }

    /// A sink whose document keeps a copy of `input`.
    pub(crate) fn new(input: &'i str) -> DocumentSink<'i> {
        DocumentSink::of(Builder::new(input))
    }

    /// A sink whose document does not copy `input`: the caller owns it
    /// and hands it over when the parse is done
    /// ([`Document::give_source`]).
    pub(crate) fn without_copy(input: &'i str) -> DocumentSink<'i> {
        DocumentSink::of(Builder::without_copy(input))
    }

    /// A sink whose document is built as its source arrives (see
    /// [`Builder::growing`]).
    pub(crate) fn growing() -> DocumentSink<'static> {
        DocumentSink::of(Builder::growing())
    }

    /// A sink whose document is built from a stream that lets its text go:
    /// it never has a source (see [`Builder::sourceless`]).
    pub(crate) fn sourceless() -> DocumentSink<'static> {
        DocumentSink::of(Builder::sourceless())
    }

    /// A sink for a fragment of `input` (see [`Builder::for_fragment`]).
    pub(crate) fn for_fragment(input: &'i str) -> DocumentSink<'i> {
        DocumentSink::of(Builder::for_fragment(input))
    }

    /// How many nodes the document has so far (the document node too).
    #[cfg(test)]
    pub(crate) fn nodes_so_far(&self) -> usize {
        self.builder.nodes_so_far()
    }

    /// The document built so far.
    pub(crate) fn document(&self) -> &Document {
        self.builder.document()
    }

    /// The document built so far, to edit between events (see
    /// [`mend_parent`](Self::mend_parent)).
    pub(crate) fn document_mut(&mut self) -> &mut Document {
        self.builder.document_mut()
    }

    /// The element opened last and not closed.
    pub(crate) fn current(&self) -> Option<indextree::NodeId> {
        self.builder.current()
    }

    /// The last child of where nodes go now.
    pub(crate) fn last_child(&self) -> Option<indextree::NodeId> {
        self.builder.last_child()
    }

    /// See [`Builder::mend_parent`].
    pub(crate) fn mend_parent(&mut self) -> Option<indextree::NodeId> {
        self.builder.mend_parent()
    }

    /// Gives the error last reported its context (a replayed stream's,
    /// whose context comes after its error).
    pub(crate) fn error_context(&mut self, context: ErrorContext) {
        self.builder.error_context(context);
    }
}

impl TreeSink for DocumentSink<'_> {
    type Output = Document;

    #[inline]
    fn names(&self) -> &Names {
        self.builder.names()
    }

    #[inline]
    fn names_mut(&mut self) -> &mut Names {
        self.builder.names_mut()
    }

    #[inline]
    fn lines(&self) -> &LineIndex {
        self.builder.lines()
    }

    fn xml_declaration(&mut self, declaration: &XmlDecl<'_>) {
        let owned = |s: Option<&str>| s.map(str::to_owned);
        self.builder.xml_declaration(XmlDeclaration {
            version: owned(declaration.version),
            encoding: owned(declaration.encoding),
            standalone: owned(declaration.standalone),
            span: declaration.span,
        });
    }

    fn doctype(&mut self, doctype: &Doctype<'_>) {
        let mut field = |s: Option<&str>| s.map(|s| self.builder.string(s));
        let data = DoctypeData {
            name: field(doctype.name),
            public_id: field(doctype.public_id),
            system_id: field(doctype.system_id),
            internal_subset: field(doctype.internal_subset),
            subset_span: doctype.subset_span,
            subset_items: doctype.subset_items.into(),
            subset_entities: doctype.subset_entities.into(),
            notations: doctype
                .declarations
                .map_or_else(Box::default, |d| d.notations().into()),
            subset_pis: doctype
                .declarations
                .map_or_else(Box::default, |d| d.processing_instructions().into()),
            written_name: doctype.declarations.map(|d| d.doctype_name().into()),
        };
        let defaults = doctype.declarations.map(|d| d.defaulted_attributes());
        self.builder.doctype(data, defaults, doctype.span);
    }

    #[inline]
    fn start_element(&mut self, element: &StartElement<'_>) {
        let attributes = self.builder.attributes_start();
        for attribute in element.attributes {
            let value = match attribute.value_at {
                Some(at) => self.builder.in_source(at, attribute.value.len()),
                None => self.builder.string(&attribute.value),
            };
            self.builder.attribute(
                attribute.name,
                value,
                attribute.span,
                attribute.value_span,
                attribute.is_id,
            );
        }
        self.builder
            .start_element(element.name, attributes, element.span, element.empty);
    }

    #[inline]
    fn end_element(&mut self, end: usize, end_tag: Option<Span>) {
        self.builder.end_element(end, end_tag);
    }

    #[inline]
    fn text_storage(&mut self) -> &mut String {
        self.builder.storage()
    }

    #[inline]
    fn text(&mut self, text: Chars<'_>, cdata: &[(usize, usize)], span: Span) {
        if self.skip_blank_text && self.is_indentation(&text, cdata) {
            return;
        }
        let text = match text {
            Chars::Str(text) => self.builder.string(text),
            Chars::InSource(text, at) => self.builder.in_source(at, text.len()),
            Chars::Stored(start, end) => self.builder.stored(start, end),
        };
        self.builder.text(text, cdata, span);
    }

    fn comment(&mut self, data: &str, span: Span) {
        let data = self.builder.string(data);
        self.builder.comment(data, span);
    }

    fn processing_instruction(&mut self, target: &str, data: &str, span: Span) {
        let data = self.builder.string(data);
        self.builder.processing_instruction(target, data, span);
    }

    fn begin_expansion(&mut self, name: &str, reference: Span) {
        self.builder.begin_expansion(name, reference);
    }

    fn end_expansion(&mut self, balanced: bool) {
        self.builder.end_expansion(balanced);
    }

    fn dropped(&mut self, span: Span) {
        self.builder.dropped(span);
    }

    fn depth_dropped(&mut self, span: Span, continues: bool) {
        self.builder.depth_dropped(span, continues);
    }

    fn depth_dropped_end(&mut self, end: usize) {
        self.builder.depth_dropped_end(end);
    }

    fn error(&mut self, error: ParseError) {
        self.builder.error(error);
    }

    fn error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        self.builder.error_with_context(error, context);
    }

    fn open_element_start(&mut self, _: &mut super::Source<'_>) -> Option<(usize, u32, u32)> {
        Some((self.builder.open_element_start()?, 0, 0))
    }

    /// The document, errors in source order.
    fn finish(self) -> Document {
        self.builder.finish()
    }
}
