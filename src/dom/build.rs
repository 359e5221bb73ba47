//! Building a document node by node: the construction API a parse calls
//! (the tree builder's sink, `tree_builder/document_sink.rs`, is the one
//! caller). It speaks in DOM terms only (names, strings, spans, errors) and
//! knows nothing of tokens; it keeps the open elements and the entity
//! expansion running, so that node layout (`NodeData`, `NodeKind`, the
//! flags) stays private to this module's parent.

use super::{
    AttributeData, AttributeDefaults, DoctypeData, Document, EntityExpansion, ItemRange, LineIndex,
    NameId, Names, NodeData, NodeKind, StrRange, XmlDeclaration, EXPANDED,
};
use crate::error::{ErrorCode, ErrorContext, ParseError};
use crate::span::Span;

/// Builds a [`Document`] from `input`, in document order.
pub(crate) struct Builder<'i> {
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

/// The start of an element's attributes in the document's attribute list,
/// from [`Builder::attributes_start`], for [`Builder::start_element`].
#[derive(Clone, Copy)]
pub(crate) struct AttributesStart(usize);

impl<'i> Builder<'i> {
    /// A builder whose document keeps a copy of `input`.
    pub(crate) fn new(input: &'i str) -> Builder<'i> {
        Builder::for_document(input, Document::with_source(input))
    }

    /// A builder whose document does not copy `input`: the caller owns it
    /// and hands it over when the parse is done
    /// ([`Document::give_source`]).
    pub(crate) fn without_copy(input: &'i str) -> Builder<'i> {
        Builder::for_document(input, Document::sized_for(input))
    }

    /// A builder whose document is built as its source arrives: it has none
    /// while it is built (strings it is given are stored, unless they come
    /// as ranges of the source) and takes it at the end
    /// ([`Document::give_grown_source`]).
    pub(crate) fn growing() -> Builder<'static> {
        let mut builder = Builder::for_document("", Document::sized_for(""));
        builder.growing = true;
        builder
    }

    /// A builder whose document is built from a stream that lets its text
    /// go: it never has a source (see `sourceless`).
    pub(crate) fn sourceless() -> Builder<'static> {
        let mut builder = Builder::growing();
        builder.sourceless = true;
        builder.doc.edited = true;
        builder
    }

    /// A builder for a fragment of `input`: its nodes go into an element
    /// (named `fragment`, made for them) that stands for the element the
    /// fragment is the content of.
    pub(crate) fn for_fragment(input: &'i str) -> Builder<'i> {
        let mut builder = Builder::new(input);
        let qname = builder.doc.names.qname("fragment");
        let name = builder.doc.names.name(qname, None);
        let kind = NodeKind::Element { name };
        let context = builder
            .doc
            .root
            .append_value(NodeData::created(kind), &mut builder.doc.arena);
        builder.open.push(context);
        builder
    }

    fn for_document(input: &'i str, doc: Document) -> Builder<'i> {
        Builder {
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

    /// The names interned so far.
    #[inline]
    pub(crate) fn names(&self) -> &Names {
        &self.doc.names
    }

    /// The names, to intern more.
    #[inline]
    pub(crate) fn names_mut(&mut self) -> &mut Names {
        &mut self.doc.names
    }

    /// The document's line index (lines and columns of offsets).
    #[inline]
    pub(crate) fn lines(&self) -> &LineIndex {
        &self.doc.lines
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

    /// Where the element opened last and not closed starts in the source.
    pub(crate) fn open_element_start(&self) -> Option<usize> {
        let element = *self.open.last()?;
        Some(self.doc.arena[element].get().span()?.start)
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
        let data = self.node(kind, span);
        self.append_node(data)
    }

    /// The data of a node parsed from `span`.
    #[inline]
    fn node(&self, kind: NodeKind, span: Span) -> NodeData {
        match self.sourceless {
            true => NodeData::created(kind),
            false => NodeData::parsed(kind, span),
        }
    }

    /// [`append`](Self::append) of the data made by [`node`](Self::node).
    #[inline]
    fn append_node(&mut self, mut data: NodeData) -> indextree::NodeId {
        let parent = self.parent();
        if self.mark == 0 {
            return parent.append_value(data, &mut self.doc.arena);
        }
        data.flags |= EXPANDED;
        let id = parent.append_value(data, &mut self.doc.arena);
        self.doc.expansions.insert(id, self.mark);
        id
    }

    // Strings.

    /// A string to keep: a range of the source when it is a slice of the
    /// input, else a copy in the document's storage.
    #[inline]
    pub(crate) fn string(&mut self, s: &str) -> StrRange {
        let base = self.input.as_ptr() as usize;
        let at = s.as_ptr() as usize;
        if at >= base && at + s.len() <= base + self.input.len() {
            StrRange::new(at - base, at - base + s.len())
        } else {
            self.doc.store(s)
        }
    }

    /// The `len` bytes of the source at `at`.
    #[inline]
    pub(crate) fn in_source(&self, at: usize, len: usize) -> StrRange {
        StrRange::new(at, at + len)
    }

    /// The storage of strings that are not in the source, to append to (a
    /// range appended is then taken with [`stored`](Self::stored); what is
    /// there must stay).
    #[inline]
    pub(crate) fn storage(&mut self) -> &mut String {
        self.doc.storage()
    }

    /// Bytes `start..end` of [`storage`](Self::storage).
    #[inline]
    pub(crate) fn stored(&self, start: usize, end: usize) -> StrRange {
        self.doc.stored_range(start, end)
    }

    // Nodes, in document order.

    /// The XML declaration (left out of a sourceless document: it says how
    /// the source was written).
    pub(crate) fn xml_declaration(&mut self, declaration: XmlDeclaration) {
        if !self.sourceless {
            self.doc.declaration = Some(declaration);
        }
    }

    /// The DOCTYPE, and the attribute defaults its declarations give, if it
    /// had any.
    pub(crate) fn doctype(
        &mut self,
        mut data: DoctypeData,
        attribute_defaults: Option<AttributeDefaults>,
        span: Span,
    ) {
        if let Some(defaults) = attribute_defaults {
            self.doc.attribute_defaults = defaults;
        }
        if self.sourceless {
            data.subset_span = None;
            data.subset_items = Box::default();
        }
        // The builder reports one DOCTYPE at most (it drops the others), so
        // this is 0.
        let Ok(index) = u32::try_from(self.doc.doctypes.len()) else {
            return;
        };
        self.doc.doctypes.push(data);
        self.append(NodeKind::Doctype(index), span);
    }

    /// Where the next element's attributes start: add them with
    /// [`attribute`](Self::attribute), then the element with
    /// [`start_element`](Self::start_element).
    #[inline]
    pub(crate) fn attributes_start(&self) -> AttributesStart {
        AttributesStart(self.doc.attributes.len())
    }

    /// An attribute of the next element: written at `span` (its value
    /// between the quotes at `value_span`), or supplied by an
    /// attribute-list default (`span` `None`); `is_id` when declared of
    /// type `ID`.
    #[inline]
    pub(crate) fn attribute(
        &mut self,
        name: NameId,
        value: StrRange,
        span: Option<Span>,
        value_span: Option<Span>,
        is_id: bool,
    ) {
        let value = self.doc.text_ref(value);
        let mut data = match span {
            _ if self.sourceless => AttributeData::created(name, value),
            Some(span) => AttributeData::parsed(name, value, span, value_span),
            None => AttributeData::defaulted(name, value),
        };
        if is_id {
            data.set_id();
        }
        self.doc.attributes.push(data);
    }

    /// An element, its start tag at `span`, with the attributes added since
    /// `attributes`; it holds what comes next until
    /// [`end_element`](Self::end_element), unless `empty`.
    #[inline]
    pub(crate) fn start_element(
        &mut self,
        name: NameId,
        attributes: AttributesStart,
        span: Span,
        empty: bool,
    ) {
        let first = attributes.0;
        // A document holds at most `u32::MAX` attributes (`ItemRange` is
        // 32-bit): an element that would pass that keeps none. The 4 GiB of
        // input a parse takes cannot write so many; DTD defaults or entity
        // expansion under raised limits could, in hundreds of gigabytes.
        let count = self.doc.attributes.len() - first;
        let attributes = ItemRange::new(first, count).unwrap_or_else(|| {
            self.doc.attributes.truncate(first);
            let (line, column) = self
                .doc
                .lines
                .position_from_line_start(self.input, span.start);
            self.doc.errors.push(ParseError {
                code: ErrorCode::AttributeLimit,
                offset: span.start,
                line,
                column,
            });
            ItemRange::default()
        });
        let tag_end = if self.sourceless { 0 } else { span.end };
        let mut data = self.node(NodeKind::Element { name }, span);
        data.set_parsed_tag((attributes.len > 0).then_some(attributes.start), tag_end);
        let id = self.append_node(data);
        let last = attributes.range().last();
        if let Some(last) = last.and_then(|last| self.doc.attributes.get_mut(last)) {
            last.set_last(true);
        }
        if !empty {
            self.open.push(id);
        }
    }

    /// Closes the element opened last, its source ending at `end`;
    /// `end_tag` is the end tag that closed it, if one did.
    #[inline]
    pub(crate) fn end_element(&mut self, end: usize, end_tag: Option<Span>) {
        // (A sourceless document's nodes have no spans to close; it is
        // the one that may be edited, and lose the element, meanwhile.)
        if let Some(id) = self.open.pop().filter(|_| !self.sourceless) {
            self.doc.close_parsed(id, end, end_tag);
        }
    }

    /// A text node; `cdata` are the parts of it (relative byte ranges)
    /// that were CDATA sections.
    #[inline]
    pub(crate) fn text(&mut self, text: StrRange, cdata: &[(usize, usize)], span: Span) {
        let cdata = self.doc.add_cdata(cdata);
        let text = self.doc.text_ref(text);
        self.append(NodeKind::Text { text, cdata }, span);
    }

    /// A comment.
    pub(crate) fn comment(&mut self, data: StrRange, span: Span) {
        let data = self.doc.text_ref(data);
        self.append(NodeKind::Comment(data), span);
    }

    /// A processing instruction.
    pub(crate) fn processing_instruction(&mut self, target: &str, data: StrRange, span: Span) {
        let target = self.doc.names.qname(target);
        let data = self.doc.text_ref(data);
        self.append(NodeKind::ProcessingInstruction { target, data }, span);
    }

    // What the source says beyond the nodes.

    /// The nodes made from now until [`end_expansion`](Self::end_expansion)
    /// are the expansion of the entity `name`, referenced at `reference`.
    pub(crate) fn begin_expansion(&mut self, name: &str, reference: Span) {
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

    /// The expansion running ends; `balanced` when it closed every element
    /// it opened and no other.
    pub(crate) fn end_expansion(&mut self, balanced: bool) {
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

    /// Markup at `span` that made no node.
    pub(crate) fn dropped(&mut self, span: Span) {
        if !self.sourceless {
            self.doc.dropped.push(span);
        }
    }

    /// Markup at `span` dropped for the depth limit; `continues` when it
    /// runs on from the last such span.
    pub(crate) fn depth_dropped(&mut self, span: Span, continues: bool) {
        if self.sourceless {
            return;
        }
        match self.doc.depth_dropped.last_mut() {
            Some(last) if continues => last.end = span.end,
            _ => self.doc.depth_dropped.push(span),
        }
    }

    /// The last span dropped for the depth limit ends at `end`.
    pub(crate) fn depth_dropped_end(&mut self, end: usize) {
        if let Some(last) = self.doc.depth_dropped.last_mut() {
            last.end = end;
        }
    }

    // Errors.

    /// An error found.
    pub(crate) fn error(&mut self, error: ParseError) {
        self.doc.errors.push(error);
    }

    /// An error found, with its context.
    pub(crate) fn error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        self.doc.push_error_with_context(error, context);
    }

    /// Gives the error last reported its context (a replayed stream's,
    /// whose context comes after its error).
    pub(crate) fn error_context(&mut self, context: ErrorContext) {
        self.doc.set_last_error_context(context);
    }

    /// The document, errors in source order.
    pub(crate) fn finish(mut self) -> Document {
        self.doc.sort_errors();
        if !self.growing {
            self.doc.count_context_positions(self.input);
        }
        self.doc
    }
}
