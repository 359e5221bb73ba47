//! The general Canonical XML writer: Canonical XML 1.0 and 1.1 and
//! Exclusive XML Canonicalization 1.0, of a whole document or of a document
//! subset (an XPath node-set), as libxml2's C14N module writes them.
//!
//! The whole-document Canonical XML 1.0 of `canonical.rs` (which hands
//! the rest here) is the special case that streams; this writer covers the rest. Its steps follow
//! libxml2's, because its output must be byte-identical to libxml2's, quirks
//! included (docs/conformance.md, "Canonical forms (issue 20)"):
//!
//! - every node of the tree is visited; a node is *visible* when it is in
//!   the node-set (every node is, without one). Only visible elements,
//!   text, comments and PIs are written, but the attributes (and, in the
//!   inclusive forms, the namespace nodes) of an element that is not
//!   visible are written where it stands when they are in the node-set;
//! - the namespace declarations already written are kept on a stack of
//!   segments, one per visible open element (libxml2's "visible namespace
//!   stack"): a declaration is written on an element unless the stack says
//!   the nearest output ancestor has it;
//! - Canonical XML 1.0 copies onto a visible element whose parent is not
//!   visible the nearest `xml:*` attributes of all its ancestors; 1.1 copies
//!   only `xml:lang` and `xml:space` from the ancestors left out and joins
//!   their `xml:base` values into one; Exclusive copies none.
//!
//! The markup itself (escapes, attribute order, start tags, PIs) is
//! `canonical_markup.rs`'s, which every canonical writer shares.
//!
//! Nothing recurses: the tree is walked with [`Node::traverse`], and what
//! each open element changed is undone when it closes. Every lookup is a
//! hash lookup or the top of a stack, so the work is linear in the document
//! and the node-set, except the `xml:base` fix-up of Canonical XML 1.1,
//! which joins the `xml:base` values of the left-out ancestors of each
//! element it writes.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::dom::{Attribute, Document, Edge, Node, NodeId, NodeType, XML_NAMESPACE};
use crate::output::Pieces;
use crate::query::XNode;
use crate::scope::Scopes;
use crate::uri::UriParts;

use super::canonical_markup::{
    c14n_order, declare_undeclared, escape_c14n_text, write_c14n_start_tag, write_pi,
    InclusiveNamespaces,
};

/// Which of libxml2's three C14N algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Canonical XML 1.0 (inclusive).
    Inclusive10,
    /// Exclusive XML Canonicalization 1.0.
    Exclusive,
    /// Canonical XML 1.1.
    Inclusive11,
}

/// A node-set indexed for the questions canonicalization asks: is this tree
/// node, this attribute, this namespace node in it?
pub(crate) struct Subset<'a> {
    nodes: HashSet<NodeId>,
    /// (element, index among its attributes).
    attributes: HashSet<(NodeId, usize)>,
    /// (element, prefix; `""` for the default namespace).
    namespace_keys: HashSet<(NodeId, &'a str)>,
    /// Each element's namespace nodes in the set, as (prefix, URI).
    namespaces: HashMap<NodeId, Vec<(&'a str, &'a str)>>,
}

impl<'a> Subset<'a> {
    /// Indexes `nodes`, keeping those of `doc` (nodes of another document
    /// are not in it).
    pub(crate) fn new(doc: &Document, nodes: &[XNode<'a>]) -> Subset<'a> {
        let mut subset = Subset {
            nodes: HashSet::new(),
            attributes: HashSet::new(),
            namespace_keys: HashSet::new(),
            namespaces: HashMap::new(),
        };
        for node in nodes {
            let Some(owner) = node.parent().or_else(|| node.as_node()) else {
                continue;
            };
            if !std::ptr::eq(owner.document(), doc) {
                continue;
            }
            match node {
                XNode::Node(node) => {
                    subset.nodes.insert(node.id());
                }
                XNode::Attribute(attribute) => {
                    subset
                        .attributes
                        .insert((attribute.element().id(), attribute.index()));
                }
                XNode::Namespace(namespace) => {
                    let element = namespace.element().id();
                    if subset.namespace_keys.insert((element, namespace.prefix())) {
                        subset
                            .namespaces
                            .entry(element)
                            .or_default()
                            .push((namespace.prefix(), namespace.uri()));
                    }
                }
            }
        }
        subset
    }
}

/// Visibility: the subset's, or everything.
#[derive(Clone, Copy)]
struct Visibility<'s, 'a>(Option<&'s Subset<'a>>);

impl Visibility<'_, '_> {
    fn node(self, node: Node<'_>) -> bool {
        self.0.is_none_or(|s| s.nodes.contains(&node.id()))
    }

    fn attribute(self, element: Node<'_>, index: usize) -> bool {
        self.0
            .is_none_or(|s| s.attributes.contains(&(element.id(), index)))
    }

    fn namespace(self, element: Node<'_>, prefix: Option<&str>) -> bool {
        self.0.is_none_or(|s| {
            s.namespace_keys
                .contains(&(element.id(), prefix.unwrap_or("")))
        })
    }
}

/// Writes `doc` (or the subset) in `mode`.
pub(crate) fn write(
    doc: &Document,
    mode: Mode,
    with_comments: bool,
    inclusive: &InclusiveNamespaces,
    subset: Option<&Subset<'_>>,
    pieces: &mut Pieces<'_>,
) {
    let mut writer = Writer {
        mode,
        with_comments,
        inclusive,
        visibility: Visibility(subset),
        declared: DeclaredScope::default(),
        changes: DeclaredScope::default(),
        rendered: Rendered::default(),
        xml_attributes: XmlAttributeScope::default(),
        lang: Vec::new(),
        space: Vec::new(),
        base: Vec::new(),
        frames: Vec::new(),
        visible_depths: Vec::new(),
        position: Position::Before,
        parent_is_document: true,
    };
    for edge in doc.root().traverse() {
        pieces.send_some();
        let out = &mut pieces.text;
        match edge {
            Edge::Open(node) => writer.open(node, out),
            Edge::Close(node) => {
                if node.is_element() {
                    writer.close(node, out);
                }
            }
        }
    }
}

/// Where the writer is, for the line feeds around top-level comments and
/// PIs (libxml2's `pos`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Before,
    Inside,
    After,
}

/// What an open element changed, to undo when it closes.
struct Frame {
    visible: bool,
    /// It set `parent_is_document` back to false: its end restores it.
    was_top: bool,
    rendered: RenderedMark,
    declared: usize,
    changes: usize,
    xml_attributes: usize,
    lang: usize,
    space: usize,
    base: usize,
}

/// One attribute to write: its sort key, name and value.
struct Written<'a> {
    key: (&'a str, &'a str),
    name: &'a str,
    value: Cow<'a, str>,
}

struct Writer<'s, 'a> {
    mode: Mode,
    with_comments: bool,
    /// Borrowed as long as the document's strings: the prefixes it gives
    /// go into the same lists.
    inclusive: &'a InclusiveNamespaces,
    visibility: Visibility<'s, 'a>,
    /// The declarations in scope (libxml2's `xmlSearchNs`).
    declared: DeclaredScope<'a>,
    /// Inclusive forms without a subset: what is in scope as written (a
    /// declaration is written where it changes it).
    changes: DeclaredScope<'a>,
    rendered: Rendered<'a>,
    /// Canonical XML 1.0: the nearest `xml:*` attributes of the ancestors.
    xml_attributes: XmlAttributeScope<'a>,
    /// Canonical XML 1.1: the open elements' `xml:lang`, `xml:space` and
    /// `xml:base`, with their depths.
    lang: Vec<(usize, Attribute<'a>)>,
    space: Vec<(usize, Attribute<'a>)>,
    base: Vec<(usize, Attribute<'a>)>,
    frames: Vec<Frame>,
    /// The depths of the visible open elements.
    visible_depths: Vec<usize>,
    position: Position,
    parent_is_document: bool,
}

impl<'a> Writer<'_, 'a> {
    fn open(&mut self, node: Node<'a>, out: &mut String) {
        let visible = self.visibility.node(node);
        match node.node_type() {
            NodeType::Element => self.open_element(node, visible, out),
            NodeType::Text => {
                // Text outside the root element is not in the XPath data
                // model (libxml2 keeps none).
                if visible && !self.frames.is_empty() {
                    escape_c14n_text(node.text().unwrap_or(""), out);
                }
            }
            NodeType::Comment => {
                if visible && self.with_comments {
                    self.top_level(out, |out| {
                        out.push_str("<!--");
                        out.push_str(node.text().unwrap_or(""));
                        out.push_str("-->");
                    });
                }
            }
            NodeType::ProcessingInstruction => {
                if visible {
                    self.top_level(out, |out| {
                        write_pi(node.name(), node.text().unwrap_or(""), false, out);
                    });
                }
            }
            NodeType::Document | NodeType::Doctype => {}
        }
    }

    /// A comment or PI, with the line feed that separates it from the
    /// document element when it is outside it.
    fn top_level(&self, out: &mut String, write: impl FnOnce(&mut String)) {
        if self.position == Position::After {
            out.push('\n');
        }
        write(out);
        if self.position == Position::Before {
            out.push('\n');
        }
    }

    fn open_element(&mut self, element: Node<'a>, visible: bool, out: &mut String) {
        let depth = self.frames.len() + 1;
        let parent_visible = self.frames.last().is_none_or(|frame| frame.visible);
        let nearest_visible = self.visible_depths.last().copied().unwrap_or(0);
        let mut frame = Frame {
            visible,
            was_top: false,
            rendered: self.rendered.save(),
            declared: self.declared.mark(),
            changes: self.changes.mark(),
            xml_attributes: self.xml_attributes.mark(),
            lang: self.lang.len(),
            space: self.space.len(),
            base: self.base.len(),
        };
        if visible && self.parent_is_document {
            self.parent_is_document = false;
            frame.was_top = true;
            self.position = Position::Inside;
        }

        // The element's declarations come into scope first: its namespace
        // axis sees them.
        for attribute in element.attributes() {
            if let Some(prefix) = attribute.declared_prefix() {
                // libxml2 rejects `xmlns:p=""` (Namespaces 1.1) and keeps
                // the binding it had.
                if prefix != Some("xml") && (prefix.is_none() || !attribute.value().is_empty()) {
                    self.declared.bind(prefix, attribute.value());
                }
            }
        }

        let mut declarations: Vec<(Option<&'a str>, &'a str)> = Vec::new();
        match self.mode {
            Mode::Exclusive => self.exclusive_namespaces(element, visible, &mut declarations),
            Mode::Inclusive10 | Mode::Inclusive11 => {
                self.inclusive_namespaces(element, visible, &mut declarations);
            }
        }
        if visible {
            self.rendered.shift();
        }

        let mut attributes: Vec<Written<'a>> = Vec::new();
        match self.mode {
            Mode::Exclusive => self.visible_attributes(element, &mut attributes),
            Mode::Inclusive10 => {
                self.visible_attributes(element, &mut attributes);
                if visible && !parent_visible {
                    self.xml_attributes.inherit(&mut attributes);
                }
            }
            Mode::Inclusive11 => {
                self.attributes_11(element, visible, depth, nearest_visible, &mut attributes);
            }
        }
        attributes.sort_by(|a, b| a.key.cmp(&b.key));

        // The start tag, or what libxml2 writes of an element left out.
        let attributes = attributes.iter().map(|a| (a.name, a.value.as_ref()));
        if visible {
            write_c14n_start_tag(element.name(), &declarations, attributes, out);
        } else {
            write_dangling(&declarations, attributes, out);
        }

        // This element's xml:* attributes, for its descendants.
        for attribute in element.attributes() {
            if attribute.namespace() != Some(XML_NAMESPACE) {
                continue;
            }
            match self.mode {
                Mode::Inclusive10 => self.xml_attributes.bind(attribute),
                Mode::Inclusive11 => match attribute.local_name() {
                    "lang" => self.lang.push((depth, attribute)),
                    "space" => self.space.push((depth, attribute)),
                    "base" => self.base.push((depth, attribute)),
                    _ => {}
                },
                Mode::Exclusive => {}
            }
        }
        if visible {
            self.visible_depths.push(depth);
        }
        self.frames.push(frame);
    }

    fn close(&mut self, element: Node<'a>, out: &mut String) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if frame.visible {
            self.visible_depths.pop();
            out.push_str("</");
            out.push_str(element.name());
            out.push('>');
            if frame.was_top {
                self.parent_is_document = true;
                self.position = Position::After;
            }
        }
        self.rendered.restore(frame.rendered);
        self.declared.undo(frame.declared);
        self.changes.undo(frame.changes);
        self.xml_attributes.undo(frame.xml_attributes);
        self.lang.truncate(frame.lang);
        self.space.truncate(frame.space);
        self.base.truncate(frame.base);
    }

    /// The namespace axis of Canonical XML 1.0 and 1.1.
    fn inclusive_namespaces(
        &mut self,
        element: Node<'a>,
        visible: bool,
        list: &mut Vec<(Option<&'a str>, &'a str)>,
    ) {
        let Some(subset) = self.visibility.0 else {
            // Every namespace node is visible, every element too: a
            // declaration is written where what is in scope changes.
            for attribute in element.attributes() {
                let Some(prefix) = attribute.declared_prefix() else {
                    continue;
                };
                let uri = attribute.value();
                if prefix != Some("xml") && self.changes.bound(prefix).unwrap_or("") != uri {
                    self.changes.bind(prefix, uri);
                    // `xmlns:p=""` leaves no namespace node to write;
                    // `xmlns=""` is written when it undeclares a default.
                    if prefix.is_none() || !uri.is_empty() {
                        list.push((prefix, uri));
                    }
                }
            }
            // A prefix used undeclared is declared where the repaired
            // document declares it: where its placeholder is not in scope.
            let names = std::iter::once((element.prefix(), element.namespace())).chain(
                element
                    .attributes()
                    .filter(|attribute| attribute.declared_prefix().is_none())
                    .map(|attribute| (attribute.prefix(), attribute.namespace())),
            );
            let changes = &mut self.changes;
            let rebinds = |prefix, uri| {
                let changed = changes.bound(Some(prefix)).unwrap_or("") != uri;
                if changed {
                    changes.bind(Some(prefix), uri);
                }
                changed
            };
            declare_undeclared(names, rebinds, list);
            list.sort_unstable_by_key(|&(prefix, _)| prefix);
            return;
        };
        let mut has_default = false;
        for &(prefix, uri) in subset.namespaces.get(&element.id()).into_iter().flatten() {
            if prefix == "xml" {
                continue;
            }
            let prefix = (!prefix.is_empty()).then_some(prefix);
            let written = self.rendered.find_inclusive(prefix, uri);
            if visible {
                self.rendered.add(prefix, uri, true);
            }
            if !written {
                list.push((prefix, uri));
            }
            has_default |= prefix.is_none();
        }
        // `xmlns=""` when the nearest output ancestor had a default.
        if visible && !has_default && !self.rendered.find_inclusive(None, "") {
            list.push((None, ""));
        }
        list.sort_by_key(|&(prefix, _)| prefix);
    }

    /// The namespace axis of Exclusive XML Canonicalization: the namespaces
    /// the element and its attributes use, and those of the
    /// InclusiveNamespaces PrefixList.
    fn exclusive_namespaces(
        &mut self,
        element: Node<'a>,
        visible: bool,
        list: &mut Vec<(Option<&'a str>, &'a str)>,
    ) {
        let visibility = self.visibility;
        let mut has_default = false;
        let mut default_used = false;
        let inclusive_default = self.inclusive.contains_default();

        for prefix in self.inclusive.lookups() {
            if prefix == Some("xml") {
                continue;
            }
            let Some(uri) = self.declared.get(prefix) else {
                continue;
            };
            if !visibility.namespace(element, prefix) {
                continue;
            }
            let written = self.rendered.find_inclusive(prefix, uri);
            if visible {
                self.rendered.add(prefix, uri, true);
            }
            if !written && !list.iter().any(|&(p, _)| p == prefix) {
                list.push((prefix, uri));
            }
            has_default |= prefix.is_none();
        }

        // The element's own namespace (an element in none uses the default).
        let (prefix, uri) = match element.namespace() {
            Some(uri) => (element.prefix(), Some(uri)),
            None => {
                default_used = true;
                (None, self.declared.get(None))
            }
        };
        if let Some(uri) = uri {
            if prefix != Some("xml") {
                if visible
                    && visibility.namespace(element, prefix)
                    && !self.rendered.find_exclusive(prefix, uri)
                {
                    list.push((prefix, uri));
                }
                if visible {
                    let seen = visibility.namespace(element, prefix);
                    self.rendered.add(prefix, uri, seen);
                }
                has_default |= prefix.is_none();
            }
        }

        // The namespaces of its visible attributes.
        for (index, attribute) in element.attributes().enumerate() {
            if attribute.declared_prefix().is_some() {
                continue;
            }
            let Some(uri) = attribute.namespace() else {
                continue;
            };
            if uri == XML_NAMESPACE || !visibility.attribute(element, index) {
                continue;
            }
            let prefix = attribute.prefix();
            let written = self.rendered.find_exclusive(prefix, uri);
            if !written && visible {
                let seen = visibility.namespace(element, prefix);
                self.rendered.add(prefix, uri, seen);
                list.push((prefix, uri));
            }
        }

        if visible && !has_default {
            let undeclare = if inclusive_default {
                !self.rendered.find_inclusive(None, "")
            } else {
                default_used && !self.rendered.find_exclusive(None, "")
            };
            if undeclare {
                list.push((None, ""));
            }
        }
        list.sort_by_key(|&(prefix, _)| prefix);
    }

    /// The element's attributes in the node-set.
    fn visible_attributes(&self, element: Node<'a>, list: &mut Vec<Written<'a>>) {
        for (index, attribute) in element.attributes().enumerate() {
            if attribute.declared_prefix().is_none() && self.visibility.attribute(element, index) {
                list.push(written(attribute));
            }
        }
    }

    /// The attribute axis of Canonical XML 1.1: on a visible element,
    /// `xml:lang`, `xml:space` and `xml:base` are its own (in the node-set
    /// or not) or those of its left-out ancestors, `xml:base` joined with
    /// theirs.
    fn attributes_11(
        &self,
        element: Node<'a>,
        visible: bool,
        depth: usize,
        nearest_visible: usize,
        list: &mut Vec<Written<'a>>,
    ) {
        let mut lang = None;
        let mut space = None;
        let mut base = None;
        for (index, attribute) in element.attributes().enumerate() {
            if attribute.declared_prefix().is_some() {
                continue;
            }
            let slot = if visible && attribute.namespace() == Some(XML_NAMESPACE) {
                match attribute.local_name() {
                    "lang" if lang.is_none() => Some(&mut lang),
                    "space" if space.is_none() => Some(&mut space),
                    "base" if base.is_none() => Some(&mut base),
                    _ => None,
                }
            } else {
                None
            };
            match slot {
                Some(slot) => *slot = Some((depth, attribute)),
                None => {
                    if self.visibility.attribute(element, index) {
                        list.push(written(attribute));
                    }
                }
            }
        }
        if !visible {
            return;
        }
        // The nearest on a left-out ancestor, below the nearest visible one.
        let hidden = |stack: &[(usize, Attribute<'a>)]| {
            stack
                .last()
                .copied()
                .filter(|&(owner, _)| owner > nearest_visible)
        };
        for found in [
            lang.or_else(|| hidden(&self.lang)),
            space.or_else(|| hidden(&self.space)),
        ]
        .into_iter()
        .flatten()
        {
            list.push(written(found.1));
        }
        if let Some((owner, attribute)) = base.or_else(|| hidden(&self.base)) {
            let mut value = Some(attribute.value().to_owned());
            for &(depth, above) in self.base.iter().rev() {
                if depth >= owner {
                    continue;
                }
                if depth <= nearest_visible {
                    break;
                }
                let Some(reference) = value else { break };
                let mut base = above.value().to_owned();
                // As libxml2: a base ending in `..` or `.` (its next to last
                // byte a dot) gets a `/`, so that it is a directory.
                if base.len() > 1 && base.as_bytes()[base.len() - 2] == b'.' {
                    base.push('/');
                }
                value = resolve_uri(&reference, &base);
            }
            if let Some(value) = value.filter(|value| !value.is_empty()) {
                list.push(Written {
                    key: c14n_order(Some(XML_NAMESPACE), "base", "xml:base"),
                    name: "xml:base",
                    value: Cow::Owned(value),
                });
            }
        }
    }
}

fn written(attribute: Attribute<'_>) -> Written<'_> {
    Written {
        key: c14n_order(
            attribute.namespace(),
            attribute.local_name(),
            attribute.name(),
        ),
        name: attribute.name(),
        value: Cow::Borrowed(attribute.value()),
    }
}

/// What libxml2 writes for an element outside the node-set whose namespace
/// or attribute nodes are in it: those nodes, without a tag around them.
fn write_dangling<'b>(
    declarations: &[(Option<&str>, &str)],
    attributes: impl Iterator<Item = (&'b str, &'b str)>,
    out: &mut String,
) {
    let mut tag = String::new();
    write_c14n_start_tag("", declarations, attributes, &mut tag);
    // `<` + the empty name, then ` a="1"...`, then `>`.
    out.push_str(&tag[1..tag.len() - 1]);
}

// ----- Namespace state -------------------------------------------------------

/// The declarations in scope, as written in the document (libxml2's
/// `xmlSearchNs`): `xmlns=""` binds the default namespace to `""`.
#[derive(Default)]
struct DeclaredScope<'a> {
    /// Per prefix (`""`: the default namespace), the URIs bound.
    bindings: Scopes<&'a str>,
}

impl<'a> DeclaredScope<'a> {
    fn mark(&self) -> usize {
        self.bindings.mark()
    }

    fn undo(&mut self, mark: usize) {
        self.bindings.unwind(mark);
    }

    fn bind(&mut self, prefix: Option<&'a str>, uri: &'a str) {
        self.bindings.bind(prefix.unwrap_or(""), uri);
    }

    fn get(&self, prefix: Option<&str>) -> Option<&'a str> {
        let uri = self.bound(prefix)?;
        (prefix.is_none() || !uri.is_empty()).then_some(uri)
    }

    /// What `prefix` is bound to as written (`xmlns:p=""` too).
    fn bound(&self, prefix: Option<&str>) -> Option<&'a str> {
        self.bindings.get(prefix.unwrap_or("")).copied()
    }
}

/// libxml2's stack of the namespace nodes written (or visible) at the open
/// elements: entries are added by visible elements, and after each visible
/// element's namespace axis the segment it added becomes "the parent's".
/// Canonical XML looks a prefix up in that segment (and the element's own);
/// Exclusive looks through the whole stack.
#[derive(Default)]
struct Rendered<'a> {
    /// (prefix, URI, whether that namespace node is in the node-set).
    entries: Vec<(Option<&'a str>, &'a str, bool)>,
    /// For each prefix, its positions in `entries`, the last on top.
    positions: HashMap<Option<&'a str>, Vec<usize>>,
    previous_start: usize,
    previous_end: usize,
}

#[derive(Clone, Copy)]
struct RenderedMark {
    previous_start: usize,
    previous_end: usize,
    len: usize,
}

impl<'a> Rendered<'a> {
    fn save(&self) -> RenderedMark {
        RenderedMark {
            previous_start: self.previous_start,
            previous_end: self.previous_end,
            len: self.entries.len(),
        }
    }

    fn restore(&mut self, mark: RenderedMark) {
        while self.entries.len() > mark.len {
            if let Some((prefix, _, _)) = self.entries.pop() {
                if let Some(positions) = self.positions.get_mut(&prefix) {
                    positions.pop();
                }
            }
        }
        self.previous_start = mark.previous_start;
        self.previous_end = mark.previous_end;
    }

    fn shift(&mut self) {
        self.previous_start = self.previous_end;
        self.previous_end = self.entries.len();
    }

    fn add(&mut self, prefix: Option<&'a str>, uri: &'a str, in_set: bool) {
        self.positions
            .entry(prefix)
            .or_default()
            .push(self.entries.len());
        self.entries.push((prefix, uri, in_set));
    }

    fn latest(&self, prefix: Option<&str>) -> Option<(usize, &'a str, bool)> {
        let &at = self.positions.get(&prefix)?.last()?;
        let (_, uri, visible) = *self.entries.get(at)?;
        Some((at, uri, visible))
    }

    /// Canonical XML: whether `prefix` is bound to `uri` as the nearest
    /// output ancestor wrote it. The default namespace is looked for in the
    /// whole stack, and `xmlns=""` counts as written when nothing is.
    fn find_inclusive(&self, prefix: Option<&str>, uri: &str) -> bool {
        let undeclared_default = prefix.is_none() && uri.is_empty();
        let start = if undeclared_default {
            0
        } else {
            self.previous_start
        };
        match self.latest(prefix) {
            Some((at, found, _)) if at >= start => found == uri,
            _ => undeclared_default,
        }
    }

    /// Exclusive: whether the nearest binding of `prefix` on the stack is
    /// `uri` and its namespace node (at the element that added it) is in the
    /// node-set: a namespace written for an attribute whose namespace node
    /// was left out is written again below, as libxml2 does.
    fn find_exclusive(&self, prefix: Option<&str>, uri: &str) -> bool {
        match self.latest(prefix) {
            Some((_, found, visible)) => found == uri && visible,
            None => prefix.is_none() && uri.is_empty(),
        }
    }
}

/// Canonical XML 1.0: the nearest `xml:*` attribute of each name on the
/// open elements.
#[derive(Default)]
struct XmlAttributeScope<'a> {
    bindings: HashMap<&'a str, Vec<Attribute<'a>>>,
    bound: Vec<&'a str>,
}

impl<'a> XmlAttributeScope<'a> {
    fn mark(&self) -> usize {
        self.bound.len()
    }

    fn undo(&mut self, mark: usize) {
        for local in self.bound.drain(mark.min(self.bound.len())..) {
            if let Some(attributes) = self.bindings.get_mut(local) {
                attributes.pop();
                if attributes.is_empty() {
                    self.bindings.remove(local);
                }
            }
        }
    }

    fn bind(&mut self, attribute: Attribute<'a>) {
        let local = attribute.local_name();
        self.bindings.entry(local).or_default().push(attribute);
        self.bound.push(local);
    }

    /// Adds to `list` the nearest of each name it does not have.
    fn inherit(&self, list: &mut Vec<Written<'a>>) {
        if self.bindings.is_empty() {
            return;
        }
        let own: HashSet<(&str, &str)> = list.iter().map(|a| a.key).collect();
        for attributes in self.bindings.values() {
            let Some(&attribute) = attributes.last() else {
                continue;
            };
            let inherited = written(attribute);
            if !own.contains(&inherited.key) {
                list.push(inherited);
            }
        }
    }
}

// ----- xml:base -------------------------------------------------------------

/// Resolves `reference` against `base` as libxml2's `xmlBuildURI` does:
/// RFC 3986 section 5.2, with an absolute-path reference kept as written
/// and a relative path normalized by [`normalize_path`] (leading `..`
/// segments of a relative result are kept).
fn resolve_uri(reference: &str, base: &str) -> Option<String> {
    let base = UriParts::split(base);
    if reference.is_empty() {
        // The base without its fragment.
        return Some(
            UriParts {
                fragment: None,
                ..base
            }
            .join(),
        );
    }
    let r = UriParts::split(reference);
    let resolved = if r.scheme.is_some() {
        return Some(reference.to_owned());
    } else if r.path.is_empty() && r.authority.is_none() {
        UriParts {
            query: r.query.or(base.query),
            fragment: r.fragment,
            ..base
        }
    } else if r.authority.is_some() {
        UriParts {
            scheme: base.scheme,
            ..r
        }
    } else if r.path.starts_with('/') {
        UriParts {
            scheme: base.scheme,
            authority: base.authority,
            ..r
        }
    } else {
        // Merge: the base's path up to its last `/`, then the reference's.
        let mut path = String::new();
        if let Some(slash) = base.path.rfind('/') {
            path.push_str(&base.path[..=slash]);
        }
        if path.is_empty() && base.authority.is_some() {
            path.push('/');
        }
        path.push_str(r.path);
        let path = normalize_path(&path);
        let merged = UriParts {
            scheme: base.scheme,
            authority: base.authority,
            path: &path,
            ..r
        };
        return Some(merged.join());
    };
    Some(resolved.join())
}

/// Removes dot segments as libxml2 does (RFC 2396 section 5.2, steps 6c to
/// 6g): `.` segments and empty ones (`//`) go, each `segment/..` goes (a
/// trailing one leaves the `/` before it), and an absolute path drops the
/// `..` segments it starts with.
fn normalize_path(path: &str) -> String {
    let rest = path.trim_start_matches('/');
    let leading = &path[..path.len() - rest.len()];
    if rest.is_empty() {
        return path.to_owned();
    }
    // `.` and empty segments; a last one leaves the path ending in `/`.
    let parts: Vec<&str> = rest.split('/').collect();
    let mut kept: Vec<&str> = Vec::with_capacity(parts.len());
    for (i, &part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        if !last && (part == "." || part.is_empty()) {
            continue;
        }
        kept.push(if last && part == "." { "" } else { part });
    }
    // `segment/..`, leftmost first, again after each removal.
    let mut segments: Vec<&str> = Vec::with_capacity(kept.len());
    let count = kept.len();
    for (i, &segment) in kept.iter().enumerate() {
        let last = i + 1 == count;
        if segment == ".."
            && segments
                .last()
                .is_some_and(|&top| top != ".." && !top.is_empty())
        {
            segments.pop();
            if last && !segments.is_empty() {
                segments.push("");
            }
            continue;
        }
        segments.push(segment);
    }
    if leading == "/" && segments.first() == Some(&"..") {
        while segments.first() == Some(&"..") {
            segments.remove(0);
        }
        if segments.is_empty() {
            return String::new();
        }
    }
    let mut out = leading.to_owned();
    out.push_str(&segments.join("/"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_references() {
        assert_eq!(
            resolve_uri("../g", "http://e.org/a/b/c").as_deref(),
            Some("http://e.org/a/g")
        );
        assert_eq!(resolve_uri("../g", "c/d").as_deref(), Some("g"));
        assert_eq!(
            resolve_uri("g", "http://e.org/a/b/").as_deref(),
            Some("http://e.org/a/b/g")
        );
        assert_eq!(resolve_uri("", "x#f").as_deref(), Some("x"));
        assert_eq!(
            resolve_uri("urn:x", "http://e.org/").as_deref(),
            Some("urn:x")
        );
        assert_eq!(
            resolve_uri("/p/../q", "http://e.org/a").as_deref(),
            Some("http://e.org/p/../q")
        );
    }

    #[test]
    fn normalizes_dot_segments() {
        assert_eq!(normalize_path("a/./b//c/."), "a/b/c/");
        assert_eq!(normalize_path("a/b/.."), "a/");
        assert_eq!(normalize_path("a/../"), "");
        assert_eq!(normalize_path("../a/../b"), "../b");
        assert_eq!(normalize_path("/../a"), "/a");
        assert_eq!(normalize_path("/.."), "");
        assert_eq!(normalize_path("a/b/../../c"), "c");
    }
}
