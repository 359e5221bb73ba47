//! The [`TreeSink`] that builds a [`Document`]: what the builder reports,
//! written into the arena and the document's side vectors through the
//! DOM's crate-private construction API.
//!
//! It lives here, beside the builder, and not in the DOM, which knows
//! nothing of parsing: it is the builder's half of the bargain (how its
//! events become nodes, spans, storage and expansion records), and the DOM
//! only offers what any construction needs.

use crate::dom::{
    AttributeData, DoctypeData, Document, EntityExpansion, ItemRange, LineIndex, Names, NodeData,
    NodeKind, StrRange,
};
use crate::error::{ErrorCode, ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{Doctype, XmlDecl};

use super::sink::{Chars, StartElement, TreeSink};

/// Builds a [`Document`] from `input`.
pub(crate) struct DocumentSink<'i> {
    /// The text parsed: strings that are slices of it are kept as ranges of
    /// the document's source (a copy, or this text itself once handed
    /// over), not stored again.
    input: &'i str,
    doc: Document,
    /// The open elements, innermost last.
    open: Vec<indextree::NodeId>,
    /// The expansion running, if any.
    expansion: Option<Expansion>,
    /// The expansion mark of nodes made now: `1 +` the running expansion's
    /// index, else 0.
    mark: u32,
    /// The document is built as its source arrives: the positions of
    /// error contexts are counted once it has all of it.
    growing: bool,
    /// The document will never have its source: its nodes are made as
    /// edits make them (no spans into a source), and what only a source
    /// can say (the XML declaration as written, dropped markup, where
    /// entity expansions were) is left out.
    sourceless: bool,
}

/// An expansion while it runs: where its nodes go, and the last child there
/// before it.
struct Expansion {
    index: usize,
    parent: indextree::NodeId,
    last_before: Option<indextree::NodeId>,
}

impl<'i> DocumentSink<'i> {
    /// A sink whose document keeps a copy of `input`.
    pub(crate) fn new(input: &'i str) -> DocumentSink<'i> {
        DocumentSink::for_document(input, Document::with_source(input))
    }

    /// A sink whose document does not copy `input`: the caller owns it
    /// and hands it over when the parse is done
    /// ([`Document::give_source`]).
    pub(crate) fn without_copy(input: &'i str) -> DocumentSink<'i> {
        DocumentSink::for_document(input, Document::sized_for(input))
    }

    /// A sink whose document is built as its source arrives: it has none
    /// while it is built (strings it is given are stored, unless they come
    /// as ranges of the source) and takes it at the end
    /// ([`Document::give_grown_source`]).
    pub(crate) fn growing() -> DocumentSink<'static> {
        let mut sink = DocumentSink::for_document("", Document::sized_for(""));
        sink.growing = true;
        sink
    }

    /// A sink whose document is built from a stream that lets its text go:
    /// it never has a source (see `sourceless`).
    pub(crate) fn sourceless() -> DocumentSink<'static> {
        let mut sink = DocumentSink::growing();
        sink.sourceless = true;
        sink.doc.edited = true;
        sink
    }

    /// A sink for a fragment of `input`: its nodes go into an element
    /// (named `fragment`, made for them) that stands for the element the
    /// fragment is the content of.
    pub(crate) fn for_fragment(input: &'i str) -> DocumentSink<'i> {
        let mut sink = DocumentSink::new(input);
        let qname = sink.doc.names.qname("fragment");
        let name = sink.doc.names.name(qname, None);
        let kind = NodeKind::Element {
            name,
            attributes: ItemRange::default(),
            tag_end: 0,
            end_tag: crate::dom::NO_END_TAG,
        };
        let context = sink
            .doc
            .root
            .append_value(NodeData::created(kind), &mut sink.doc.arena);
        sink.open.push(context);
        sink
    }

    fn for_document(input: &'i str, doc: Document) -> DocumentSink<'i> {
        DocumentSink {
            input,
            doc,
            open: Vec::new(),
            expansion: None,
            mark: 0,
            growing: false,
            sourceless: false,
        }
    }

    /// How many nodes the document has so far (the document node too).
    #[cfg(test)]
    pub(crate) fn nodes_so_far(&self) -> usize {
        self.doc.arena.len()
    }

    /// The document built so far.
    pub(crate) fn document(&self) -> &Document {
        &self.doc
    }

    /// The document built so far, to edit between events (see
    /// [`mend_parent`](Self::mend_parent)).
    pub(crate) fn document_mut(&mut self) -> &mut Document {
        &mut self.doc
    }

    /// The element opened last and not closed.
    pub(crate) fn current(&self) -> Option<indextree::NodeId> {
        self.open.last().copied()
    }

    /// The last child of where nodes go now.
    pub(crate) fn last_child(&self) -> Option<indextree::NodeId> {
        self.doc.arena.get(self.parent())?.last_child()
    }

    /// For a document edited between events: if the element nodes go into
    /// now is no longer in the document (moved into another), puts a new
    /// element, detached, in its place, so that what it would have held
    /// goes there and the elements it closes still pair up. Returns that
    /// element.
    pub(crate) fn mend_parent(&mut self) -> Option<indextree::NodeId> {
        let last = self.open.last_mut()?;
        if !last.is_removed(&self.doc.arena) {
            return None;
        }
        *last = self.doc.create_element("removed").0;
        Some(*last)
    }

    /// Gives the error last reported its context (a replayed stream's,
    /// whose context comes after its error).
    pub(crate) fn error_context(&mut self, context: ErrorContext) {
        self.doc.set_last_error_context(context);
    }

    /// Where nodes go now: the element last opened, or the document.
    fn parent(&self) -> indextree::NodeId {
        self.open.last().copied().unwrap_or(self.doc.root)
    }

    /// Appends a node parsed from `span` to the current parent. The fast
    /// path: no check that the node is not an ancestor of the parent, which
    /// walks up the tree (quadratic in depth).
    #[inline]
    fn append(&mut self, kind: NodeKind, span: Span) -> indextree::NodeId {
        let parent = self.parent();
        let mut data = match self.sourceless {
            true => NodeData::created(kind),
            false => NodeData::parsed(kind, span),
        };
        data.expansion = self.mark;
        parent.append_value(data, &mut self.doc.arena)
    }

    /// A string from the builder: a range of the source when it is a slice
    /// of it, else a copy in the document's storage.
    fn string(&mut self, s: &str) -> StrRange {
        let base = self.input.as_ptr() as usize;
        let at = s.as_ptr() as usize;
        if at >= base && at + s.len() <= base + self.input.len() {
            StrRange::new(at - base, at - base + s.len())
        } else {
            self.doc.store(s)
        }
    }
}

impl TreeSink for DocumentSink<'_> {
    type Output = Document;

    #[inline]
    fn names(&self) -> &Names {
        &self.doc.names
    }

    #[inline]
    fn names_mut(&mut self) -> &mut Names {
        &mut self.doc.names
    }

    #[inline]
    fn lines(&self) -> &LineIndex {
        &self.doc.lines
    }

    fn xml_declaration(&mut self, declaration: &XmlDecl<'_>) {
        if self.sourceless {
            return;
        }
        let owned = |s: Option<&str>| s.map(str::to_owned);
        self.doc.declaration = Some(crate::dom::XmlDeclaration {
            version: owned(declaration.version),
            encoding: owned(declaration.encoding),
            standalone: owned(declaration.standalone),
            span: declaration.span,
        });
    }

    fn doctype(&mut self, doctype: &Doctype<'_>) {
        if let Some(declarations) = doctype.declarations {
            self.doc.attribute_defaults = declarations.defaulted_attributes();
        }
        let sourceless = self.sourceless;
        let mut field = |s: Option<&str>| s.map(|s| self.string(s));
        let data = DoctypeData {
            name: field(doctype.name),
            public_id: field(doctype.public_id),
            system_id: field(doctype.system_id),
            internal_subset: field(doctype.internal_subset),
            subset_span: doctype.subset_span.filter(|_| !sourceless),
            subset_items: match sourceless {
                true => Box::default(),
                false => doctype.subset_items.into(),
            },
            subset_entities: doctype.subset_entities.into(),
            notations: doctype
                .declarations
                .map_or_else(Box::default, |d| d.notations().into()),
            subset_pis: doctype
                .declarations
                .map_or_else(Box::default, |d| d.processing_instructions().into()),
            written_name: doctype.declarations.map(|d| d.doctype_name().into()),
        };
        // The builder reports one DOCTYPE at most (it drops the others), so
        // this is 0.
        let Ok(index) = u32::try_from(self.doc.doctypes.len()) else {
            return;
        };
        self.doc.doctypes.push(data);
        self.append(NodeKind::Doctype(index), doctype.span);
    }

    #[inline]
    fn start_element(&mut self, element: &StartElement<'_>) {
        let first = self.doc.attributes.len();
        for attribute in element.attributes {
            let value = match attribute.value_at {
                Some(at) => StrRange::new(at, at + attribute.value.len()),
                None => self.string(&attribute.value),
            };
            let mut data = match attribute.span {
                _ if self.sourceless => AttributeData::created(attribute.name, value),
                Some(span) => {
                    AttributeData::parsed(attribute.name, value, span, attribute.value_span)
                }
                None => AttributeData::defaulted(attribute.name, value),
            };
            if attribute.is_id {
                data.set_id();
            }
            self.doc.attributes.push(data);
        }
        // A document holds at most `u32::MAX` attributes (`ItemRange` is
        // 32-bit): an element that would pass that keeps none. The 4 GiB of
        // input a parse takes cannot write so many; DTD defaults or entity
        // expansion under raised limits could, in hundreds of gigabytes.
        let attributes = ItemRange::new(first, element.attributes.len()).unwrap_or_else(|| {
            self.doc.attributes.truncate(first);
            let (line, column) = self
                .doc
                .lines
                .position_from_line_start(self.input, element.span.start);
            self.doc.errors.push(ParseError {
                code: ErrorCode::AttributeLimit,
                offset: element.span.start,
                line,
                column,
            });
            ItemRange::default()
        });
        let tag_end = if self.sourceless { 0 } else { element.span.end };
        let kind = NodeKind::parsed_element(element.name, attributes, tag_end);
        let id = self.append(kind, element.span);
        if !element.empty {
            self.open.push(id);
        }
    }

    #[inline]
    fn end_element(&mut self, end: usize, end_tag: Option<Span>) {
        // (A sourceless document's nodes have no spans to close; it is
        // the one that may be edited, and lose the element, meanwhile.)
        if let Some(id) = self.open.pop().filter(|_| !self.sourceless) {
            self.doc.close_parsed(id, end, end_tag);
        }
    }

    #[inline]
    fn text_storage(&mut self) -> &mut String {
        self.doc.storage()
    }

    #[inline]
    fn text(&mut self, text: Chars<'_>, cdata: &[(usize, usize)], span: Span) {
        let text = match text {
            Chars::Str(text) => self.string(text),
            Chars::InSource(text, at) => StrRange::new(at, at + text.len()),
            Chars::Stored(start, end) => self.doc.stored_range(start, end),
        };
        let cdata = self.doc.add_cdata(cdata);
        self.append(NodeKind::Text { text, cdata }, span);
    }

    fn comment(&mut self, data: &str, span: Span) {
        let data = self.string(data);
        self.append(NodeKind::Comment(data), span);
    }

    fn processing_instruction(&mut self, target: &str, data: &str, span: Span) {
        let target = self.doc.names.qname(target);
        let data = self.string(data);
        self.append(NodeKind::ProcessingInstruction { target, data }, span);
    }

    fn begin_expansion(&mut self, name: &str, reference: Span) {
        if self.sourceless {
            return;
        }
        let index = self.doc.entity_expansions.len();
        self.doc.entity_expansions.push(EntityExpansion {
            name: name.into(),
            reference,
            first: None,
            count: 0,
            balanced: true,
        });
        let parent = self.parent();
        let last_before = self.doc.arena[parent].last_child();
        self.expansion = Some(Expansion {
            index,
            parent,
            last_before,
        });
        self.mark = u32::try_from(index + 1).unwrap_or(u32::MAX);
    }

    fn end_expansion(&mut self, balanced: bool) {
        self.mark = 0;
        let Some(active) = self.expansion.take() else {
            return;
        };
        let arena = &self.doc.arena;
        let first = match active.last_before {
            Some(last) => arena[last].next_sibling(),
            None => arena[active.parent].first_child(),
        };
        let mut count = 0;
        let mut node = first;
        while let Some(id) = node {
            count += 1;
            node = arena[id].next_sibling();
        }
        if let Some(record) = self.doc.entity_expansions.get_mut(active.index) {
            record.first = first;
            record.count = count;
            record.balanced = balanced;
        }
    }

    fn dropped(&mut self, span: Span) {
        if !self.sourceless {
            self.doc.dropped.push(span);
        }
    }

    fn depth_dropped(&mut self, span: Span, continues: bool) {
        if self.sourceless {
            return;
        }
        match self.doc.depth_dropped.last_mut() {
            Some(last) if continues => last.end = span.end,
            _ => self.doc.depth_dropped.push(span),
        }
    }

    fn depth_dropped_end(&mut self, end: usize) {
        if let Some(last) = self.doc.depth_dropped.last_mut() {
            last.end = end;
        }
    }

    fn error(&mut self, error: ParseError) {
        self.doc.errors.push(error);
    }

    fn error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        self.doc.push_error_with_context(error, context);
    }

    fn open_element_start(&mut self, _: &mut super::Source<'_>) -> Option<(usize, u32, u32)> {
        let element = *self.open.last()?;
        let span = self.doc.arena[element].get().span()?;
        Some((span.start, 0, 0))
    }

    /// The document, errors in source order.
    fn finish(mut self) -> Document {
        self.doc.sort_errors();
        if !self.growing {
            self.doc.count_context_positions(self.input);
        }
        self.doc
    }
}
