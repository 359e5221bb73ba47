//! The writer: one walk over the tree, without recursion, that copies each
//! node from the source where it may (nothing changed it, no error lies in
//! it, its names resolve in the output's scopes) and writes it anew where it
//! may not, handing the output to a sink a piece at a time if there is one.
//!
//! Here are the [`Writer`] and its state, the streaming sink, the walk with
//! its [`Frame`]s (pretty printing), copying unedited source, the gaps
//! between children, and entity references written back as references.
//! How a node is written anew is in the child modules: `prolog` (the XML
//! declaration, the DOCTYPE), `tags` (start tags, attributes, end tags) and
//! `character_data` (text, comments, processing instructions). The writer
//! uses namespace fixup, the repairs and escaping, and hands the entry
//! points in `serializer` the text and the repairs made.

mod character_data;
mod prolog;
mod tags;

use crate::chars::is_xml_space;
use crate::dom::{Document, Node, NodeType, XML_NAMESPACE};
use crate::output::PIECE;
use crate::span::Span;

use super::escape::Version;
use super::namespaces::Scopes;
use super::options::{
    byte_order_mark, Repair, RepairKind, SerializeOptions, Serialized, PRETTY_DEPTH,
};
use super::repair;
use super::repairs::{mend, Mend};

/// The whole document as text, and the repairs made
/// ([`Document::serialize`]).
pub(super) fn document_text(doc: &Document, options: &SerializeOptions) -> Serialized {
    let mut writer = Writer::for_document(doc, options);
    writer.document();
    Serialized {
        text: writer.out,
        repairs: writer.repairs,
    }
}

/// Writes the whole document to `writer` in the encoding of `options`, a
/// piece at a time as it is made; returns the repairs
/// ([`Document::write_xml`]).
pub(super) fn write_document<W: std::io::Write>(
    doc: &Document,
    mut writer: W,
    options: &SerializeOptions,
) -> std::io::Result<Vec<Repair>> {
    let target = options.encoding.resolve(doc);
    let bom = byte_order_mark(doc, target);
    let mut encoder = crate::decoding::PieceEncoder::new(target, bom);
    let mut bytes = Vec::new();
    let mut failed = None;
    let mut send = |text: &str, last: bool| {
        if failed.is_some() {
            return;
        }
        if encoder.passes_through() {
            failed = writer.write_all(text.as_bytes()).err();
            return;
        }
        // In pieces, so that a long copied subtree is not encoded whole.
        let mut rest = text;
        while failed.is_none() {
            let mut cut = rest.len().min(PIECE);
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            let (piece, after) = rest.split_at(cut);
            bytes.clear();
            encoder.encode(piece, last && after.is_empty(), &mut bytes);
            failed = writer.write_all(&bytes).err();
            if after.is_empty() {
                return;
            }
            rest = after;
        }
    };
    let mut serializer = Writer::for_document(doc, options);
    serializer.sink = Some(&mut send);
    serializer.document();
    let (rest, repairs) = (std::mem::take(&mut serializer.out), serializer.repairs);
    send(&rest, true);
    match failed {
        Some(error) => Err(error),
        None => Ok(repairs),
    }
}

/// The subtree at `node` as text, with the namespace declarations it needs
/// to stand alone ([`Node::to_xml`]).
pub(super) fn subtree_text(node: Node<'_>) -> String {
    subtree_serialized(node, &SerializeOptions::default()).text
}

/// The subtree at `node` as text with `options` (pretty printing), and the
/// repairs made ([`Node::serialize`]).
pub(super) fn subtree_serialized(node: Node<'_>, options: &SerializeOptions) -> Serialized {
    let mut writer = Writer::for_subtree(node, options);
    writer.subtree(node);
    writer
        .repairs
        .sort_by_key(|r| r.offset.unwrap_or(usize::MAX));
    Serialized {
        text: writer.out,
        repairs: writer.repairs,
    }
}

/// Whether `doc`'s XML declaration says `version="1.1"`.
fn declares_xml11(doc: &Document) -> bool {
    doc.xml_declaration()
        .is_some_and(|d| d.version.as_deref() == Some("1.1"))
}

/// Writes [`subtree_text`]'s text to `writer`, a piece at a time as it is
/// made ([`Node::write_xml`]).
pub(super) fn write_subtree<W: std::io::Write>(
    node: Node<'_>,
    mut writer: W,
) -> std::io::Result<()> {
    let mut failed = None;
    let mut send = |text: &str, _last: bool| {
        if failed.is_none() {
            failed = writer.write_all(text.as_bytes()).err();
        }
    };
    let mut serializer = Writer::for_subtree(node, &SerializeOptions::default());
    serializer.sink = Some(&mut send);
    serializer.subtree(node);
    let rest = std::mem::take(&mut serializer.out);
    send(&rest, true);
    failed.map_or(Ok(()), Err)
}

/// Where to cut `text` (at least [`PIECE`] long) to hand on all but its
/// last few characters: the text written next looks back at them (`]]`
/// before `>`, CR before LF).
fn cut_keeping_tail(text: &str) -> usize {
    const KEPT: usize = 8;
    let mut cut = text.len() - KEPT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

/// An element being written whose children follow.
struct Frame {
    /// Its children are element-only and get indented.
    indent_children: bool,
    /// Pretty printing must not touch anything below: `xml:space="preserve"`
    /// is in effect, or the content is mixed.
    untouchable: bool,
    /// Output depth of the element.
    depth: usize,
    /// Length of the namespace binding log before the element.
    bindings: usize,
    /// Whether it wrote any child (for pretty printing).
    wrote_child: bool,
    /// The name its start tag was written with, where a namespace fixup
    /// renamed it: the end tag must match.
    renamed: Option<String>,
    /// Where the source not yet accounted for between its children starts,
    /// while its children are as parsed: content that made no node (an
    /// empty CDATA section, a reference to an empty entity) is copied from
    /// there when the children are written one by one.
    gap_from: Option<usize>,
}

/// Takes a piece of output, and whether it is the last.
type Sink<'s> = dyn FnMut(&str, bool) + 's;

/// One serialization under way: the output so far and where it goes, the
/// repairs made, what is broken in the document, and where the walk is.
struct Writer<'d> {
    doc: &'d Document,
    /// The output not yet handed to `sink` (all of it, without one).
    out: String,
    /// Where output goes a piece at a time, as it is made, if anywhere.
    sink: Option<&'d mut Sink<'d>>,
    /// Output went to `sink` already.
    sent: bool,
    repairs: Vec<Repair>,
    /// The document is not well-formed: copy only what is well-formed as
    /// written, and repair the rest.
    repair: bool,
    /// Its well-formedness errors, where the source cannot be copied.
    broken: repair::Broken<'d>,
    /// Some attribute-list declaration of the internal subset is dropped:
    /// the attributes its defaults supplied are written.
    attlists_dropped: bool,
    pretty: Option<usize>,
    /// The line end pretty printing breaks lines with: the document's own,
    /// as its first line ends (CR LF, CR or LF; LF if it has none).
    newline: &'static str,
    /// The encoding the output will be written in.
    target: crate::decoding::Encoding,
    frames: Vec<Frame>,
    /// The namespace bindings of the output.
    scopes: Scopes,
    /// The name the start tag being written was given by a namespace fixup,
    /// until its end tag uses it.
    renamed: Option<String>,
    /// The whole document is written (not a subtree): entity references
    /// may stand for the nodes their expansion made.
    whole_document: bool,
    /// Where the source refers to entities other than the predefined ones,
    /// if the output has no declarations for them (the DOCTYPE was removed,
    /// or a subtree is written alone): source holding one is not copied,
    /// and its text and values are written as the tree has them.
    references_undeclared: Option<Vec<usize>>,
    /// Where the elements with attributes from `ATTLIST` defaults start in
    /// the source, once `attlists_dropped`: a subtree holding one is not
    /// copied, so that they are written.
    defaults_at: Vec<usize>,
    /// The XML version whose character rules what is written anew follows:
    /// 1.1 for a whole document that says so (its declaration is written
    /// too), 1.0 otherwise (a subtree alone has no declaration).
    version: Version,
}

impl<'d> Writer<'d> {
    /// A writer of the whole document (nodes, if its scopes are checked as
    /// after edits).
    fn for_document(doc: &'d Document, options: &SerializeOptions) -> Writer<'d> {
        let (broken, attlists_dropped) = repair::Broken::of(doc);
        let repair = !broken.errors.is_empty();
        let mut writer = Writer::new(doc, options, broken, repair, doc.is_edited());
        if declares_xml11(doc) {
            writer.version = Version::V11;
        }
        if attlists_dropped {
            writer.attlists_dropped = true;
            writer.note_defaults(doc.root());
        }
        writer
    }

    /// A writer of `scope` alone, with the namespace declarations it needs
    /// to stand alone and without the DOCTYPE's declarations.
    ///
    /// Everything it makes before writing is in proportion to the subtree,
    /// not the document, since a caller may write each node of a document
    /// in turn (`xml5dom query //title`, `Display`): it takes the errors
    /// and references of the source the subtree's nodes came from
    /// ([`source_reach`]), the defaults of its own elements, and asks the
    /// document only whether it is well-formed (an answer the document
    /// keeps). Nothing is kept between calls: the serializer stores
    /// nothing in the document, which does not know it.
    fn for_subtree(scope: Node<'d>, options: &SerializeOptions) -> Writer<'d> {
        let doc = scope.document();
        let reach = source_reach(scope);
        let repair = doc.has_errors();
        let broken = repair::Broken::of_subtree(doc, &reach, !repair);
        let mut writer = Writer::new(doc, options, broken, repair, true);
        writer.without_declarations(scope, &reach);
        if scope.is_element() && declares_xml11(doc) {
            // Its source and what is written anew read as they do in the
            // document only by 1.1's rules (NEL ends a line, controls are
            // referred to), which an XML declaration must ask for.
            writer.version = Version::V11;
            writer.out.push_str("<?xml version=\"1.1\"?>");
        }
        writer
    }

    fn new(
        doc: &'d Document,
        options: &SerializeOptions,
        broken: repair::Broken<'d>,
        repair: bool,
        check_scopes: bool,
    ) -> Writer<'d> {
        Writer {
            doc,
            out: String::new(),
            sink: None,
            sent: false,
            repairs: Vec::new(),
            repair,
            broken,
            attlists_dropped: false,
            pretty: options.pretty,
            newline: match options.pretty {
                Some(_) => line_end(doc.source()),
                None => "\n",
            },
            target: options.encoding.resolve(doc),
            frames: Vec::new(),
            // Copying from the source of a repaired document checks scopes
            // too: repaired start tags may declare otherwise.
            scopes: Scopes::new(check_scopes || repair),
            renamed: None,
            whole_document: false,
            references_undeclared: None,
            defaults_at: Vec::new(),
            version: Version::V10,
        }
    }

    /// Writes the whole document.
    fn document(&mut self) {
        let doc = self.doc;
        self.whole_document = true;
        if !doc
            .root()
            .children()
            .any(|n| n.node_type() == NodeType::Doctype)
        {
            let everything = Span::new(0, self.source().len());
            self.without_declarations(doc.root(), &[everything]);
        }
        self.report_dropped_markup();
        self.subtree(doc.root());
        // In source order (repairs of created nodes, without an offset, last).
        self.repairs.sort_by_key(|r| r.offset.unwrap_or(usize::MAX));
    }

    /// Hands the output so far to the sink once there is enough of it,
    /// keeping its last few characters: the next text looks back at them
    /// (`]]` before `>`, CR before LF).
    fn send_some(&mut self) {
        if self.out.len() < PIECE {
            return;
        }
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        let cut = cut_keeping_tail(&self.out);
        sink(&self.out[..cut], false);
        self.out.drain(..cut);
        self.sent = true;
    }

    /// Writes `span` of the source as it is: a long one (a whole unedited
    /// subtree) straight to the sink, not through `out`.
    fn push_source(&mut self, span: Span) {
        let text = &self.doc.source()[span.range()];
        let Some(sink) = self.sink.as_mut().filter(|_| text.len() >= PIECE) else {
            self.out.push_str(text);
            return;
        };
        sink(&self.out, false);
        self.out.clear();
        let cut = cut_keeping_tail(text);
        sink(&text[..cut], false);
        self.out.push_str(&text[cut..]);
        self.sent = true;
    }

    /// Nothing has been written yet.
    fn wrote_nothing(&self) -> bool {
        !self.sent && self.out.is_empty()
    }

    /// Fills [`defaults_at`](Self::defaults_at) for what is written: `scope`.
    fn note_defaults(&mut self, scope: Node<'_>) {
        let mut at: Vec<usize> = std::iter::once(scope)
            .chain(scope.descendants())
            .filter(|n| n.attributes().any(|a| a.is_defaulted()))
            .filter_map(|n| self.doc.data(n.id().0).span())
            .map(|span| span.start)
            .collect();
        at.sort_unstable();
        self.defaults_at = at;
    }

    /// The output, `scope` written out, has no DOCTYPE to declare the
    /// source's entities or supply its attribute defaults. `reach` is the
    /// source its nodes came from, in order ([`source_reach`]): only that
    /// and the nodes of `scope` are looked through, so that writing a
    /// small subtree stays in proportion to it.
    fn without_declarations(&mut self, scope: Node<'_>, reach: &[Span]) {
        if self.doc.doctype_records().is_empty() {
            return;
        }
        if !self.attlists_dropped {
            self.attlists_dropped = true;
            self.note_defaults(scope);
        }
        let mut at = Vec::new();
        for span in reach {
            let text = self.source().get(span.range()).unwrap_or_default();
            at.extend(general_references(text).into_iter().map(|o| o + span.start));
        }
        self.references_undeclared = Some(at);
    }

    /// Whether the source `start..end` refers to an entity the output
    /// does not declare.
    fn refers_to_undeclared(&self, start: usize, end: usize) -> bool {
        self.references_undeclared.as_ref().is_some_and(|at| {
            let from = at.partition_point(|&o| o < start);
            at.get(from).is_some_and(|&o| o < end)
        })
    }

    fn source(&self) -> &'d str {
        self.doc.source()
    }

    /// Reports a repair of `node`, at the first error in its source (where
    /// `check` shows the problem), or at its start.
    fn report(&mut self, kind: RepairKind, node: Node<'_>) {
        let offset = node.span().map(|span| {
            self.broken
                .within(span.start, span.end)
                .first()
                .map_or(span.start, |&(at, _)| at)
        });
        self.repairs.push(Repair { kind, offset });
    }

    fn report_at(&mut self, kind: RepairKind, offset: usize) {
        self.repairs.push(Repair {
            kind,
            offset: Some(offset),
        });
    }

    /// Reports what the parse left out of the tree (the output leaves it
    /// out too): stray end tags, misplaced DOCTYPEs, elements and text
    /// after the root.
    fn report_dropped_markup(&mut self) {
        let dropped: Vec<usize> = self
            .broken
            .errors
            .iter()
            .filter(|&&(_, code)| mend(code) == Mend::DropMarkup)
            .map(|&(at, _)| at)
            .collect();
        for at in dropped {
            self.report_at(RepairKind::MarkupDropped, at);
        }
    }

    /// Copies `span` of the source, mending what its errors point at; on
    /// `Err`, nothing was written.
    fn copy_repaired(
        &mut self,
        span: Span,
        context: repair::Context,
    ) -> Result<(), repair::Fallback> {
        let mut made = Vec::new();
        let mark = self.out.len();
        let result = repair::copy_repaired(&self.broken, span, context, &mut self.out, &mut made);
        if result.is_err() {
            self.out.truncate(mark);
            return result;
        }
        for (kind, at) in made {
            if kind != RepairKind::MarkupDropped {
                self.report_at(kind, at);
            }
        }
        Ok(())
    }

    // ----- The walk ------------------------------------------------------

    /// Writes `start` and everything below it, without recursion.
    fn subtree(&mut self, start: Node<'d>) {
        let mut node = start;
        'walk: loop {
            self.send_some();
            if self.skipped(node) {
                // A whitespace-only text that pretty printing replaces.
                self.gap_before(node);
            } else {
                self.gap_before(node);
                self.before_child();
                if let Some(last) = self.entity_reference(node) {
                    // The reference stands for the nodes up to `last`.
                    node = last;
                } else if self.open(node) {
                    if let Some(child) = node.first_child() {
                        node = child;
                        continue 'walk;
                    }
                    self.close(node);
                }
            }
            loop {
                if node == start {
                    return;
                }
                if let Some(next) = node.next_sibling() {
                    node = next;
                    continue 'walk;
                }
                match node.parent() {
                    Some(parent) => {
                        node = parent;
                        self.close(node);
                        self.send_some();
                    }
                    None => return,
                }
            }
        }
    }

    /// A whitespace-only text node in content that is being indented.
    fn skipped(&self, node: Node<'_>) -> bool {
        node.is_text()
            && self.frames.last().is_some_and(|f| f.indent_children)
            && node.text().is_some_and(|t| t.chars().all(is_xml_space))
    }

    /// Pretty printing: a line break and indentation before a child of
    /// indented content (none before the very first output).
    fn before_child(&mut self) {
        let Some(width) = self.pretty else { return };
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if !frame.indent_children {
            return;
        }
        frame.wrote_child = true;
        let depth = frame.depth;
        if !self.wrote_nothing() {
            self.out.push_str(self.newline);
            push_indent(&mut self.out, width * depth);
        }
    }

    /// Writes a node, or the start of an element whose children follow
    /// (then returns `true`).
    fn open(&mut self, node: Node<'d>) -> bool {
        match node.node_type() {
            NodeType::Document => {
                self.declaration();
                self.frames.push(Frame {
                    indent_children: self.pretty.is_some(),
                    untouchable: false,
                    depth: 0,
                    bindings: self.scopes.mark(),
                    wrote_child: false,
                    renamed: None,
                    // Outside the root, content that made no node is not
                    // XML (an empty CDATA section there): never copied.
                    gap_from: None,
                });
                true
            }
            NodeType::Element => self.element(node),
            NodeType::Text => {
                self.text(node);
                false
            }
            NodeType::Comment => {
                self.comment(node);
                false
            }
            NodeType::ProcessingInstruction => {
                self.processing_instruction(node);
                false
            }
            NodeType::Doctype => {
                self.doctype(node);
                false
            }
        }
    }

    fn close(&mut self, node: Node<'d>) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if node.is_document() {
            if self.repair && self.doc.root_element().is_none() {
                self.report(RepairKind::MissingRootElement, node);
                if self.pretty.is_some() && !self.wrote_nothing() {
                    self.out.push_str(self.newline);
                }
                self.out.push_str("<root/>");
            }
            let ended = self.out.ends_with(['\n', '\r']);
            if self.pretty.is_some() && !self.wrote_nothing() && !ended {
                self.out.push_str(self.newline);
            }
            return;
        }
        if let Some(width) = self.pretty {
            if frame.indent_children && frame.wrote_child {
                self.out.push_str(self.newline);
                push_indent(&mut self.out, width * (frame.depth - 1));
            }
        }
        if let (Some(from), Some(to)) = (frame.gap_from, self.content_end(node)) {
            self.copy_gap(from, to);
        }
        self.renamed = frame.renamed;
        self.end_tag(node);
        self.scopes.unwind(frame.bindings);
    }

    /// The source of a node that nothing changed and that is well-formed as
    /// written (and, for an element, closed by its own end tag or written
    /// as an empty-element tag): it is copied whole.
    fn verbatim(&self, node: Node<'_>) -> Option<Span> {
        let data = self.doc.data(node.id().0);
        if data.edited() {
            return None;
        }
        let span = self.source_span(node)?;
        let text = data.is_text();
        if text && self.broken.drops_within(span) {
            // Markup the tree left out (past a limit) inside the text.
            return None;
        }
        if self.refers_to_undeclared(span.start, span.end) {
            return None;
        }
        let from = self.defaults_at.partition_point(|&o| o < span.start);
        if self.defaults_at.get(from).is_some_and(|&o| o < span.end) {
            return None; // attributes to write that the source does not hold
        }
        if !self.repair {
            return Some(span);
        }
        // A `<` that starts no tag is reported at the character after it,
        // which may be the next node's first.
        let end = span.end + usize::from(text);
        if !self.broken.clean(span.start, end) {
            return None;
        }
        match data.element_tag_end() {
            Some(tag_end)
                if self.doc.end_tag(node.id().0).is_none()
                    && !(tag_end == span.end && self.source()[..tag_end].ends_with("/>")) =>
            {
                None
            }
            _ => Some(span),
        }
    }

    /// The node's own source, if the output may use it: not for a node an
    /// entity's expansion made (its span is the reference's).
    fn source_span(&self, node: Node<'_>) -> Option<Span> {
        let data = self.doc.data(node.id().0);
        if data.expanded() {
            return None;
        }
        data.span()
    }

    /// Whether `start..end` of the source may be copied as it is.
    fn clean(&self, start: usize, end: usize) -> bool {
        (!self.repair || self.broken.clean(start, end)) && !self.refers_to_undeclared(start, end)
    }

    /// At the first node an entity reference's expansion made: if those
    /// nodes are all still there, in order and as parsed, writes the
    /// reference as it was in the source and returns the last of them.
    fn entity_reference(&mut self, node: Node<'d>) -> Option<Node<'d>> {
        if !self.whole_document || self.references_undeclared.is_some() {
            // A subtree written alone, or a document without the entity's
            // declaration, is written as nodes.
            return None;
        }
        let mark = self.doc.expansion_mark(node.id().0);
        if mark == 0 {
            return None;
        }
        if node
            .parent()
            .is_some_and(|p| self.doc.expansion_mark(p.id().0) == mark)
        {
            return None; // inside the expansion, not at its level
        }
        let record = self.doc.entity_expansion(mark as usize - 1)?;
        if record.first != Some(node.id().0) {
            return None;
        }
        let reference = record.reference;
        // Errors inside the replacement text are reported at the reference:
        // then its nodes are written, repaired.
        let declaration_dropped = self.broken.dropped_entities().contains(&record.name);
        if !record.balanced || !self.clean(reference.start, reference.end) || declaration_dropped {
            if self.repair {
                self.report(RepairKind::EntityExpanded, node);
            }
            return None;
        }
        if !node.parent().is_some_and(|p| p.is_element()) {
            return None; // moved out of content, where no reference can stand
        }
        let mut last = node;
        let mut current = Some(node);
        for _ in 0..record.count {
            let here = current?;
            let data = self.doc.data(here.id().0);
            if self.doc.expansion_mark(here.id().0) != mark || data.edited() {
                return None;
            }
            last = here;
            current = here.next_sibling();
        }
        if self.scopes.check {
            // Nodes that moved need their names declared anew.
            let mut node = Some(node);
            while let Some(here) = node {
                if !self.scopes.subtree_resolves(here) {
                    return None;
                }
                if here == last {
                    break;
                }
                node = here.next_sibling();
            }
        }
        self.out.push_str(&self.source()[reference.range()]);
        Some(last)
    }

    // ----- Elements ------------------------------------------------------

    fn element(&mut self, node: Node<'d>) -> bool {
        let parent = self.frames.last();
        let parent_untouchable = parent.is_some_and(|f| f.untouchable);
        let depth = parent.map_or(1, |f| f.depth + 1);
        let preserve = node.attribute_ns(XML_NAMESPACE, "space") == Some("preserve");
        let element_only = element_only(node);
        let untouchable = self.pretty.is_none()
            || parent_untouchable
            || preserve
            || !element_only
            || depth > PRETTY_DEPTH;
        let indent_children = !untouchable;

        // A subtree nothing changed, and that pretty printing leaves alone:
        // copy it.
        if let Some(span) = self.verbatim(node) {
            if !indent_children && self.scopes.subtree_resolves(node) {
                self.push_source(span);
                return false;
            }
        }

        let bindings = self.scopes.mark();
        self.scopes.bind_declarations(node);
        let has_children = node.has_children();
        self.start_tag(node, has_children);
        if !has_children {
            self.renamed = None;
            self.scopes.unwind(bindings);
            return false;
        }
        let renamed = self.renamed.take();
        let data = self.doc.data(node.id().0);
        let gap_from = match (data.kind_tag_end(), data.children_edited()) {
            (Some(tag_end), false) if self.source_span(node).is_some() => Some(tag_end),
            _ => None,
        };
        self.frames.push(Frame {
            indent_children,
            untouchable,
            depth,
            bindings,
            wrote_child: false,
            renamed,
            gap_from,
        });
        true
    }

    /// Before a child of an element written child by child: the source
    /// between the previous child (or the start tag) and this one, which
    /// holds content that made no node, or nothing.
    fn gap_before(&mut self, node: Node<'_>) {
        let Some(from) = self.frames.last().and_then(|f| f.gap_from) else {
            return;
        };
        // Nodes an expansion made carry the reference's span.
        let next = match self.doc.data(node.id().0).span() {
            Some(span) if span.start >= from => {
                self.copy_gap(from, span.start);
                Some(span.end)
            }
            Some(span) => Some(from.max(span.end)),
            None => None,
        };
        if let Some(frame) = self.frames.last_mut() {
            frame.gap_from = next;
        }
    }

    /// Copies the source `from..to` between nodes, mended like text and
    /// without what the parse dropped; nothing if it cannot be mended.
    fn copy_gap(&mut self, from: usize, to: usize) {
        // (A reference to an entity the output does not declare made no
        // node: it stands for nothing.)
        if from < to && !self.refers_to_undeclared(from, to) {
            let _ = self.copy_repaired(Span::new(from, to), repair::Context::Text);
        }
    }

    /// The content of an element without children, as parsed: what made no
    /// node (`<a><![CDATA[]]></a>`).
    fn empty_content(&mut self, node: Node<'_>) {
        let data = self.doc.data(node.id().0);
        if let (Some(from), Some(to), false) = (
            data.kind_tag_end().filter(|_| !data.expanded()),
            self.content_end(node),
            data.children_edited(),
        ) {
            self.copy_gap(from, to);
        }
    }

    /// Where the content of an element ends in the source: its end tag, or
    /// where it was closed.
    fn content_end(&self, node: Node<'_>) -> Option<usize> {
        let span = self.source_span(node)?;
        let end_tag = self.doc.end_tag(node.id().0);
        Some(end_tag.map_or(span.end, |end| end.start))
    }
}

/// The source `scope`'s nodes came from: their spans, merged, in order.
/// A node no edit touched stands for its subtree (the parse nests each
/// node's span in its parent's, and an entity's nodes carry the
/// reference's span); below one an edit touched, each node may have come
/// from anywhere and counts for itself. What a writer looks at in the
/// source lies there: a node, a tag, an attribute, the gaps between the
/// children of an element whose children were not changed.
fn source_reach(scope: Node<'_>) -> Vec<Span> {
    let doc = scope.document();
    let mut spans = Vec::new();
    let mut node = scope;
    'walk: loop {
        let data = doc.data(node.id().0);
        let span = data.span();
        spans.extend(span);
        if span.is_none() || data.edited() {
            if let Some(child) = node.first_child() {
                node = child;
                continue;
            }
        }
        loop {
            if node == scope {
                break 'walk;
            }
            if let Some(next) = node.next_sibling() {
                node = next;
                continue 'walk;
            }
            match node.parent() {
                Some(parent) => node = parent,
                None => break 'walk,
            }
        }
    }
    repair::merged(spans)
}

/// The offsets of the references in `source` to entities other than the
/// predefined ones (`&name;`), in order.
fn general_references(source: &str) -> Vec<usize> {
    let bytes = source.as_bytes();
    memchr::memchr_iter(b'&', bytes)
        .filter(|&at| {
            let rest = &source[at + 1..];
            let name_len = rest
                .find(|c: char| !crate::chars::is_name_char(c))
                .unwrap_or(rest.len());
            let name = &rest[..name_len];
            !name.is_empty()
                && rest[name_len..].starts_with(';')
                && !crate::chars::is_predefined_entity(name)
        })
        .collect()
}

/// Whether an element's content is element-only: at least one child that is
/// not text, and all text whitespace.
fn element_only(node: Node<'_>) -> bool {
    node.is_element()
        && node.children().any(|c| !c.is_text())
        && node
            .children()
            .all(|c| !c.is_text() || c.text().is_some_and(|t| t.chars().all(is_xml_space)))
}

/// The line end `source` uses first: CR LF, CR or LF (LF if none).
fn line_end(source: &str) -> &'static str {
    let bytes = source.as_bytes();
    match source.find(['\r', '\n']) {
        Some(at) if bytes[at] == b'\n' => "\n",
        Some(at) if bytes.get(at + 1) == Some(&b'\n') => "\r\n",
        Some(_) => "\r",
        None => "\n",
    }
}

fn push_indent(out: &mut String, width: usize) {
    out.extend(std::iter::repeat_n(' ', width));
}

#[cfg(test)]
mod subtree_tests;
