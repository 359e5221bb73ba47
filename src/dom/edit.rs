//! Editing the tree. Every edit takes `&mut Document` and [`NodeId`]s, keeps
//! the parent and sibling links consistent, and reports what it cannot do as
//! [`Error::InvalidEdit`] instead of panicking.
//!
//! An edit is accepted only if the document written out afterwards reads
//! back as the tree is (docs/editing.md): names are XML names whose
//! prefixes resolve where the node is, an element's own name, attributes
//! and declarations agree on what each prefix means, text, comments and
//! PIs hold only what XML can carry as they are written, and the document
//! keeps one root element, after its DOCTYPE. A node created detached may
//! use a prefix its future place declares: it is resolved, and checked,
//! when the node lands.

use super::{
    AttributeData, Document, ItemRange, NameId, NodeData, NodeId, NodeKind, NsId, DIRTY_CHILDREN,
    DIRTY_SELF, XMLNS_NAMESPACE, XMLNS_NS, XML_NAMESPACE, XML_NS,
};
use crate::chars::is_xml_space;
use crate::chars::{is_forbidden_char, is_name, is_reference_only_11};
use crate::error::Error;

type Result<T> = std::result::Result<T, Error>;

fn refused(why: impl Into<String>) -> Error {
    Error::InvalidEdit(why.into())
}

/// Whether `name` is a qualified name (Namespaces in XML 1.0, production 7).
fn is_qname(name: &str) -> bool {
    is_name(name)
        && match name.find(':') {
            None => true,
            Some(_) => super::qname_colon(name).is_some(),
        }
}

/// What XML cannot carry in `text` at all, if anything.
fn forbidden_in(text: &str) -> Option<char> {
    text.chars().find(|&c| is_forbidden_char(c))
}

fn check_text(text: &str) -> Result<()> {
    match forbidden_in(text) {
        Some(c) => Err(refused(format!(
            "U+{:04X} cannot be written in XML, not even as a reference",
            c as u32
        ))),
        None => Ok(()),
    }
}

/// Text that cannot be escaped (a comment's, a PI's): also no CR, which
/// reads back as a line feed, and in an XML 1.1 document (`xml11`) none of
/// the characters 1.1 carries only as references (the C1 controls and DEL,
/// NEL and LINE SEPARATOR, which end lines there).
fn check_unescaped(text: &str, xml11: bool) -> Result<()> {
    check_text(text)?;
    if text.contains('\r') {
        return Err(refused(
            "a carriage return in a comment or PI reads back as a line feed",
        ));
    }
    if let Some(c) = text.chars().find(|&c| xml11 && is_reference_only_11(c)) {
        return Err(refused(format!(
            "U+{:04X} can be written in an XML 1.1 document only as a reference, which a comment or PI does not read",
            c as u32
        )));
    }
    Ok(())
}

/// A comment's text that reads back as one comment with that text.
fn check_comment(text: &str, xml11: bool) -> Result<()> {
    check_unescaped(text, xml11)?;
    if text.contains("--") || text.ends_with('-') {
        return Err(refused(
            "a comment cannot hold `--` or end with `-` (XML 1.0 §2.5)",
        ));
    }
    if text.starts_with('>') || text.starts_with("->") {
        return Err(refused(
            "a comment cannot start with `>` or `->`: `<!-->` would end it",
        ));
    }
    Ok(())
}

fn check_pi_target(target: &str) -> Result<()> {
    if !is_name(target) || target.contains(':') {
        return Err(refused(format!(
            "{target:?} is not a processing instruction target (a name without `:`)"
        )));
    }
    if target.eq_ignore_ascii_case("xml") {
        return Err(refused(
            "a processing instruction cannot be named `xml` (reserved)",
        ));
    }
    Ok(())
}

fn check_pi_data(data: &str, xml11: bool) -> Result<()> {
    check_unescaped(data, xml11)?;
    if data.contains("?>") {
        return Err(refused("a processing instruction cannot hold `?>`"));
    }
    if data.starts_with(is_xml_space) {
        return Err(refused(
            "a processing instruction's data cannot start with whitespace (it reads back as the separator)",
        ));
    }
    Ok(())
}

/// Where the attribute storage must end: an element's attributes are an
/// [`ItemRange`], 32-bit (`u32::MAX` fits `usize` on every target the
/// standard library supports).
const MAX_ATTRIBUTE_END: usize = u32::MAX as usize;

/// Why an attribute cannot be added to a document that has
/// [`MAX_ATTRIBUTE_END`] in use.
const FULL: &str = "the document holds as many attributes as it can (4,294,967,295)";

/// Where a moved node goes.
#[derive(Clone, Copy)]
enum Place {
    Append,
    Prepend,
    Before(indextree::NodeId),
    After(indextree::NodeId),
}

impl Document {
    fn new_node(&mut self, kind: NodeKind) -> NodeId {
        let mut data = NodeData::created(kind);
        data.set_unchecked(true);
        self.unchecked += 1;
        NodeId(self.arena.new_node(data))
    }

    /// Whether the document's XML declaration says `version="1.1"` (its
    /// characters are written by XML 1.1's rules).
    fn is_xml11(&self) -> bool {
        self.declaration
            .as_ref()
            .is_some_and(|d| d.version.as_deref() == Some("1.1"))
    }

    pub(super) fn live(&self, id: NodeId) -> Result<indextree::NodeId> {
        match self.arena.get(id.0) {
            Some(node) if !node.is_removed() => Ok(id.0),
            _ => Err(refused("the node was removed")),
        }
    }

    /// Whether `id` is in the document's tree (not detached).
    fn attached(&self, id: indextree::NodeId) -> bool {
        id.ancestors(&self.arena).any(|a| a == self.root)
    }

    /// What `prefix` means on `element` by the element's own name,
    /// attributes and declarations, if they use it with a namespace (a
    /// waiting use means nothing yet).
    fn own_binding(
        &self,
        element: indextree::NodeId,
        prefix: &str,
        with_name: bool,
    ) -> Option<String> {
        let node = self.node(NodeId(element))?;
        prefix_uses(node)
            .into_iter()
            .filter(|u| with_name || u.by != UsedBy::Name)
            .find(|u| u.prefix == prefix && u.uri.is_some())
            .and_then(|u| u.uri.map(str::to_owned))
    }

    /// What `prefix` means at `element`: its own uses first (its name's
    /// too if `with_name`), then, for a prefix, the nearest ancestor that
    /// uses it with a namespace (as the output binds it: the writer
    /// declares what a name needs), and for the default namespace the
    /// nearest `xmlns` declaration. `""` is the default namespace
    /// (`Some("")` when there is none).
    fn binding_at(
        &self,
        element: indextree::NodeId,
        prefix: &str,
        with_name: bool,
    ) -> Option<String> {
        match prefix {
            "xml" => return Some(XML_NAMESPACE.to_owned()),
            "xmlns" => return Some(XMLNS_NAMESPACE.to_owned()),
            _ => {}
        }
        if let Some(uri) = self.own_binding(element, prefix, with_name) {
            return Some(uri);
        }
        let node = self.node(NodeId(element))?;
        if prefix.is_empty() {
            return Some(node.lookup_namespace_uri(None).unwrap_or("").to_owned());
        }
        node.ancestors()
            .filter(|a| a.is_element())
            .find_map(|a| {
                prefix_uses(a)
                    .into_iter()
                    .find(|u| u.prefix == prefix && u.uri.is_some())
            })
            .and_then(|u| u.uri)
            .filter(|uri| !uri.is_empty())
            .map(str::to_owned)
    }

    /// The name `qualified` resolved at `element`; a prefix bound to
    /// nothing is left unresolved (no namespace) on a detached element, to
    /// be resolved where it lands, and refused on an attached one.
    fn resolve(
        &mut self,
        element: indextree::NodeId,
        qualified: &str,
        use_default: bool,
    ) -> Result<NameId> {
        if !is_qname(qualified) {
            return Err(refused(format!("{qualified:?} is not a qualified name")));
        }
        let prefix = super::qname_colon(qualified).map(|c| &qualified[..c]);
        if prefix == Some("xmlns") {
            return Err(refused(
                "the prefix `xmlns` is only for namespace declarations (attributes)",
            ));
        }
        let qname = self.names.qname(qualified);
        // An attribute's prefix means what it means on the element's name;
        // an element's new name goes by the declarations.
        let with_name = !use_default;
        let uri = match prefix {
            Some(prefix) => match self.binding_at(element, prefix, with_name) {
                Some(uri) => Some(uri),
                None if self.attached(element) => {
                    return Err(refused(format!(
                        "the prefix {prefix:?} of {qualified:?} is not declared where the node is"
                    )))
                }
                None => {
                    self.mark_unchecked(element);
                    None
                }
            },
            None if qualified == "xmlns" => Some(XMLNS_NAMESPACE.to_owned()),
            None if use_default => self.binding_at(element, "", false),
            None => None,
        };
        let namespace = uri
            .filter(|uri| !uri.is_empty())
            .map(|uri| self.names.namespace(&uri));
        Ok(self.names.name(qname, namespace))
    }

    fn mark_unchecked(&mut self, id: indextree::NodeId) {
        let data = self.arena[id].get_mut();
        if !data.unchecked() {
            data.set_unchecked(true);
            self.unchecked += 1;
        }
    }

    /// The name `qualified` in `namespace` (`""` for none), checked: the
    /// `xml` prefix and only it for the XML namespace, `xmlns` for none,
    /// and a prefix only with a namespace.
    fn name_ns(&mut self, namespace: &str, qualified: &str) -> Result<NameId> {
        if !is_qname(qualified) {
            return Err(refused(format!("{qualified:?} is not a qualified name")));
        }
        let prefix = super::qname_colon(qualified).map(|c| &qualified[..c]);
        match (prefix, namespace) {
            (Some("xml"), XML_NAMESPACE) | (None, "") => {}
            (Some("xml"), _) | (_, XML_NAMESPACE) => {
                return Err(refused(
                    "the prefix `xml` is bound to the XML namespace, and only it",
                ))
            }
            (Some("xmlns"), _) | (_, XMLNS_NAMESPACE) => {
                return Err(refused(
                    "namespace declarations are set as attributes named `xmlns` or `xmlns:*`",
                ))
            }
            (Some(_), "") => {
                return Err(refused(format!(
                    "the prefixed name {qualified:?} needs a namespace"
                )))
            }
            _ => {}
        }
        let qname = self.names.qname(qualified);
        let namespace: Option<NsId> =
            (!namespace.is_empty()).then(|| self.names.namespace(namespace));
        Ok(self.names.name(qname, namespace))
    }

    // ----- Attribute defaults ---------------------------------------------

    /// The attributes the DTD, while it is written, gives elements named
    /// `element` a default for.
    pub(super) fn defaults_for<'s>(
        &'s self,
        element: &'s str,
    ) -> impl Iterator<Item = &'s str> + 's {
        let doctype = self
            .root
            .children(&self.arena)
            .any(|c| matches!(self.arena[c].get().kind(), NodeKind::Doctype(_)));
        self.declared_defaults(element, doctype)
    }

    fn declared_defaults<'s>(
        &'s self,
        element: &'s str,
        written: bool,
    ) -> impl Iterator<Item = &'s str> + 's {
        let defaults = if written {
            &self.attribute_defaults[..]
        } else {
            &[]
        };
        let at = defaults.partition_point(|(e, _)| &**e < element);
        defaults
            .get(at)
            .filter(|(e, _)| &**e == element)
            .into_iter()
            .flat_map(|(_, attributes)| attributes.iter().map(|a| &**a))
    }

    /// Refuses a name `element` whose DTD defaults the element `id` lacks:
    /// read back, it would have them.
    fn check_defaults(&self, id: indextree::NodeId, element: &str) -> Result<()> {
        let node = self.node(NodeId(id));
        for attribute in self.defaults_for(element) {
            if node.is_some_and(|n| n.attributes().all(|a| a.name() != attribute)) {
                return Err(refused(format!(
                    "the DTD gives <{element}> a default for {attribute:?}, which this element does not have: set it first"
                )));
            }
        }
        Ok(())
    }

    /// Refuses to bring the DTD back while an element lacks an attribute
    /// it gives a default for.
    fn check_defaults_everywhere(&self) -> Result<()> {
        for node in self.root().descendants().filter(|n| n.is_element()) {
            for attribute in self.declared_defaults(node.name(), true) {
                if node.attributes().all(|a| a.name() != attribute) {
                    return Err(refused(format!(
                        "the DTD gives <{}> a default for {attribute:?}, which an element has lost: it would come back",
                        node.name()
                    )));
                }
            }
        }
        Ok(())
    }

    // ----- Where a node lands ---------------------------------------------

    /// Checks that `child` may go to `place` under `parent`: the kinds of
    /// node each parent holds, one root element after one DOCTYPE, no
    /// text but whitespace outside it, and the subtree's new names
    /// resolved and checked. Returns the names to set once it is there.
    fn check_landing(
        &self,
        parent: indextree::NodeId,
        child: indextree::NodeId,
        place: Place,
    ) -> Result<Vec<Resolved>> {
        self.check_landing_known(parent, child, place, None, &mut OuterScope::default())
    }

    /// [`check_landing`](Self::check_landing), told whether `parent` is in
    /// the document if the caller knows, and given the bindings in scope
    /// there once looked up (for many nodes landing under one parent, so
    /// that each does not walk its ancestors again).
    fn check_landing_known(
        &self,
        parent: indextree::NodeId,
        child: indextree::NodeId,
        place: Place,
        attached: Option<bool>,
        outer: &mut OuterScope,
    ) -> Result<Vec<Resolved>> {
        let child_kind = self.arena[child].get().kind();
        match self.arena[parent].get().kind() {
            NodeKind::Document => {
                self.check_document_children(child, place)?;
                let returning = matches!(child_kind, NodeKind::Doctype(_))
                    && !self.attribute_defaults.is_empty()
                    && child.parent(&self.arena) != Some(self.root);
                if returning {
                    self.check_defaults_everywhere()?;
                }
            }
            NodeKind::Element { .. } => {
                if matches!(child_kind, NodeKind::Doctype(_)) {
                    return Err(refused("a DOCTYPE can only be a child of the document"));
                }
            }
            _ => return Err(refused("only the document and elements have children")),
        }
        // Built up apart from the document, a subtree is checked when it
        // joins it.
        if self.unchecked == 0 || !attached.unwrap_or_else(|| self.attached(parent)) {
            return Ok(Vec::new());
        }
        self.check_subtree(child, parent, outer)
    }

    /// The document's children with `child` at `place`: at most one
    /// element, at most one DOCTYPE and before it, and text only of
    /// whitespace.
    fn check_document_children(&self, child: indextree::NodeId, place: Place) -> Result<()> {
        let mut children: Vec<indextree::NodeId> = self
            .root
            .children(&self.arena)
            .filter(|&c| c != child)
            .collect();
        let at = match place {
            Place::Append => children.len(),
            Place::Prepend => 0,
            Place::Before(sibling) => children
                .iter()
                .position(|&c| c == sibling)
                .unwrap_or(children.len()),
            Place::After(sibling) => children
                .iter()
                .position(|&c| c == sibling)
                .map_or(children.len(), |i| i + 1),
        };
        children.insert(at, child);
        let (mut element, mut doctype) = (None, None);
        for (i, &c) in children.iter().enumerate() {
            match self.arena[c].get().kind() {
                NodeKind::Element { .. } if element.is_some() => {
                    return Err(refused("a document has one root element"))
                }
                NodeKind::Element { .. } => element = Some(i),
                NodeKind::Doctype(_) if doctype.is_some() => {
                    return Err(refused("a document has one DOCTYPE"))
                }
                NodeKind::Doctype(_) => doctype = Some(i),
                NodeKind::Text { text, .. }
                    if c == child && !self.text_of(text).chars().all(is_xml_space) =>
                {
                    return Err(refused("only whitespace can be outside the root element"));
                }
                _ => {}
            }
        }
        match (doctype, element) {
            (Some(d), Some(e)) if d > e => {
                Err(refused("the DOCTYPE must come before the root element"))
            }
            _ => Ok(()),
        }
    }

    /// Checks the nodes created or named by edits in the subtree `top`
    /// about to go under `parent` (in the document), and resolves their
    /// waiting prefixes, all in one walk down: each by the nearest element
    /// that binds it as the output will (the node's own declarations, the
    /// names and declarations of its new ancestors, inside the subtree
    /// first), so that an element's name, attributes and declarations
    /// agree on every prefix. Refuses a prefix bound to nothing there, and
    /// an element two of whose attributes would then have one expanded
    /// name. Returns the names to set once it is there.
    fn check_subtree(
        &self,
        top: indextree::NodeId,
        parent: indextree::NodeId,
        outer: &mut OuterScope,
    ) -> Result<Vec<Resolved>> {
        let mut resolved = Vec::new();
        let mut waiting = false;
        for id in top.descendants(&self.arena) {
            if self.arena[id].get().unchecked() {
                self.check_new_node(id)?;
                waiting |= self.node(NodeId(id)).is_some_and(|n| {
                    n.is_element() && prefix_uses(n).iter().any(|u| u.uri.is_none())
                });
            }
        }
        if !waiting {
            return Ok(resolved);
        }
        // The bindings of the subtree's elements above the walk, a stack
        // per prefix, and how many each element pushed.
        let mut scope: std::collections::HashMap<&str, Vec<&str>> = Default::default();
        let mut pushed: Vec<Vec<&str>> = Vec::new();
        let Some(top_node) = self.node(NodeId(top)) else {
            return Ok(resolved);
        };
        for edge in top_node.traverse() {
            let node = match edge {
                super::Edge::Open(node) => node,
                super::Edge::Close(node) => {
                    if node.is_element() {
                        for prefix in pushed.pop().unwrap_or_default() {
                            if let Some(stack) = scope.get_mut(prefix) {
                                stack.pop();
                            }
                        }
                    }
                    continue;
                }
            };
            let id = node.id().0;
            let unchecked = self.arena[id].get().unchecked();
            if !node.is_element() {
                continue;
            }
            let uses = prefix_uses(node);
            let mut own = Vec::new();
            for used in &uses {
                if let Some(uri) = used.uri {
                    scope.entry(used.prefix).or_default().push(uri);
                    own.push(used.prefix);
                }
            }
            pushed.push(own);
            if !unchecked {
                continue;
            }
            let first = resolved.len();
            for used in uses.iter().filter(|u| u.uri.is_none()) {
                let bound = scope
                    .get(used.prefix)
                    .and_then(|stack| stack.last().copied())
                    .map(str::to_owned)
                    .or_else(|| outer.binding(self, parent, used.prefix))
                    .filter(|uri| !uri.is_empty());
                let Some(uri) = bound else {
                    let name = match used.by {
                        UsedBy::Attribute(i) => node.attributes().nth(i).map(|a| a.name()),
                        _ => Some(node.name()),
                    };
                    return Err(refused(format!(
                        "the prefix {:?} of {:?} is not declared where the node would go",
                        used.prefix,
                        name.unwrap_or_default()
                    )));
                };
                let attribute = match used.by {
                    UsedBy::Attribute(i) => Some(i),
                    _ => None,
                };
                resolved.push(Resolved {
                    element: id,
                    attribute,
                    uri,
                });
            }
            self.check_attributes_distinct(node, &resolved[first..], "where it would go")?;
        }
        Ok(resolved)
    }

    /// Refuses an element two of whose attributes would have one expanded
    /// name once the waiting ones among them are `resolved`.
    fn check_attributes_distinct(
        &self,
        node: super::Node<'_>,
        resolved: &[Resolved],
        when: &str,
    ) -> Result<()> {
        if resolved.iter().all(|r| r.attribute.is_none()) {
            return Ok(());
        }
        let mut seen: std::collections::HashMap<(&str, &str), &str> = Default::default();
        for (i, attribute) in node.attributes().enumerate() {
            if attribute.declared_prefix().is_some() {
                continue;
            }
            let uri = resolved
                .iter()
                .find(|r| r.attribute == Some(i))
                .map_or(attribute.namespace().unwrap_or(""), |r| r.uri.as_str());
            let key = (uri, attribute.local_name());
            if let Some(other) = seen.insert(key, attribute.name()) {
                return Err(refused(format!(
                    "the attributes {other:?} and {:?} of <{}> would both be {{{uri}}}{} {when}",
                    attribute.name(),
                    node.name(),
                    attribute.local_name()
                )));
            }
        }
        Ok(())
    }

    /// Checks a node created or named by an edit (its names, text and
    /// declarations) before it joins the document.
    fn check_new_node(&self, id: indextree::NodeId) -> Result<()> {
        match self.arena[id].get().kind() {
            NodeKind::Text { text, .. } => check_text(self.text_of(text)),
            NodeKind::Comment(text) => check_comment(self.text_of(text), self.is_xml11()),
            NodeKind::ProcessingInstruction { target, data } => {
                check_pi_target(&self.names.qname_data(target).text)?;
                check_pi_data(self.text_of(data), self.is_xml11())
            }
            NodeKind::Element { name } => {
                self.check_defaults(id, self.names.qualified(name))?;
                let own = self.own_attributes(id);
                let names = std::iter::once((None, name))
                    .chain(own.iter().enumerate().map(|(i, a)| (Some(i), a.name)));
                for (attribute, name) in names {
                    let qualified = self.names.qualified(name);
                    if !is_qname(qualified) {
                        return Err(refused(format!("{qualified:?} is not a qualified name")));
                    }
                    let declaration = qualified == "xmlns" || qualified.starts_with("xmlns:");
                    if let (Some(i), true) = (attribute, declaration) {
                        // (Copied from a parse that found it no declaration,
                        // it is not one either.)
                        if self.names.name_data(name).namespace != Some(XMLNS_NS) {
                            return Err(refused(format!(
                                "{qualified:?} is not a namespace declaration"
                            )));
                        }
                        let value = own.get(i).map_or("", |a| self.text_of(a.value));
                        check_declaration(qualified, value)?;
                        continue;
                    }
                    if attribute.is_none() && self.names.prefix(name) == Some("xmlns") {
                        return Err(refused(
                            "the prefix `xmlns` is only for namespace declarations (attributes)",
                        ));
                    }
                }
                Ok(())
            }
            NodeKind::Document | NodeKind::Doctype(_) => Ok(()),
        }
    }

    /// Sets the names resolved where a subtree landed, and marks its nodes
    /// checked.
    fn landed(&mut self, top: indextree::NodeId, resolved: Vec<Resolved>) {
        self.landed_known(top, resolved, None)
    }

    /// [`landed`](Self::landed), told whether `top` is in the document if
    /// the caller knows.
    fn landed_known(
        &mut self,
        top: indextree::NodeId,
        resolved: Vec<Resolved>,
        attached: Option<bool>,
    ) {
        self.set_resolved(resolved);
        if self.unchecked == 0 || !attached.unwrap_or_else(|| self.attached(top)) {
            return;
        }
        let ids: Vec<indextree::NodeId> = top.descendants(&self.arena).collect();
        for id in ids {
            let data = self.arena[id].get_mut();
            if data.unchecked() {
                data.set_unchecked(false);
                self.unchecked = self.unchecked.saturating_sub(1);
            }
        }
    }

    /// Puts the names `resolved` in their namespaces.
    fn set_resolved(&mut self, resolved: Vec<Resolved>) {
        for Resolved {
            element,
            attribute,
            uri,
        } in resolved
        {
            let namespace = Some(self.names.namespace(&uri));
            match (attribute, self.arena[element].get().kind()) {
                (None, NodeKind::Element { name }) => {
                    let qname = self.names.name_data(name).qname;
                    let name = self.names.name(qname, namespace);
                    self.arena[element]
                        .get_mut()
                        .set_kind(NodeKind::Element { name });
                }
                (Some(i), NodeKind::Element { .. }) => {
                    let at = self.attribute_range(element).range().start + i;
                    let qname = self.names.name_data(self.attributes[at].name).qname;
                    self.attributes[at].name = self.names.name(qname, namespace);
                }
                _ => {}
            }
        }
    }

    /// The namespace bindings in scope at `element` as the output will have
    /// them, nearest first: for each prefix (`""` for the default), the
    /// namespace the nearest element using it gives it (`""`: none).
    pub(crate) fn scope_at(&self, element: NodeId) -> Vec<(String, String)> {
        self.output_scope(element.0)
            .into_iter()
            .map(|(prefix, uri)| (prefix.to_owned(), uri.to_owned()))
            .collect()
    }

    /// [`scope_at`](Self::scope_at), borrowed: one walk up from `node`
    /// (itself included if it is an element). Waiting uses bind nothing.
    fn output_scope(&self, node: indextree::NodeId) -> Vec<(&str, &str)> {
        let mut scope = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let Some(node) = self.node(NodeId(node)) else {
            return scope;
        };
        for ancestor in std::iter::once(node).chain(node.ancestors()) {
            if !ancestor.is_element() {
                continue;
            }
            for used in prefix_uses(ancestor) {
                if let Some(uri) = used.uri.filter(|_| seen.insert(used.prefix)) {
                    scope.push((used.prefix, uri));
                }
            }
        }
        scope
    }

    /// Puts the detached `nodes`, in order, under the element `parent`
    /// (before `before`, one of its children, or at the end): all of them
    /// or, if one may not go there, none.
    pub(crate) fn insert_all(
        &mut self,
        parent: NodeId,
        before: Option<NodeId>,
        nodes: &[NodeId],
    ) -> Result<()> {
        let parent = self.live(parent)?;
        if !matches!(self.arena[parent].get().kind(), NodeKind::Element { .. }) {
            return Err(refused("a fragment is the content of an element"));
        }
        let before = match before {
            Some(sibling) => {
                let sibling = self.live(sibling)?;
                if sibling.parent(&self.arena) != Some(parent) {
                    return Err(refused("the node is not a child of the element"));
                }
                Some(sibling)
            }
            None => None,
        };
        let place = before.map_or(Place::Append, Place::Before);
        // Walked once for all the nodes.
        let attached = Some(self.attached(parent));
        let mut outer = OuterScope::default();
        let mut landings = Vec::with_capacity(nodes.len());
        for &node in nodes {
            let node = self.live(node)?;
            if node.parent(&self.arena).is_some() {
                return Err(refused("only detached nodes are inserted together"));
            }
            landings.push((
                node,
                self.check_landing_known(parent, node, place, attached, &mut outer)?,
            ));
        }
        if !landings.is_empty() {
            self.mark_dirty(parent, DIRTY_CHILDREN);
        }
        for (node, resolved) in landings {
            match before {
                Some(sibling) => sibling.checked_insert_before(node, &mut self.arena),
                None => parent.checked_append(node, &mut self.arena),
            }
            .map_err(tree_error)?;
            self.landed_known(node, resolved, attached);
        }
        Ok(())
    }

    // ----- Creating ------------------------------------------------------

    /// Creates a detached element named `name`. A prefix is resolved where
    /// the element lands (`append` and the like refuse it if it is bound to
    /// nothing there); without one, the element is in no namespace.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let root = doc.root_element().unwrap().id();
    /// let b = doc.create_element("b");
    /// doc.append(root, b).unwrap();
    /// assert_eq!(doc.root_element().unwrap().first_child().unwrap().name(), "b");
    /// ```
    pub fn create_element(&mut self, name: &str) -> NodeId {
        let qname = self.names.qname(name);
        let namespace = match super::qname_colon(name) {
            Some(c) if &name[..c] == "xml" => Some(XML_NS),
            _ => None,
        };
        let name = self.names.name(qname, namespace);
        self.new_node(NodeKind::Element { name })
    }

    /// Creates a detached element named `name` in the namespace `namespace`
    /// (`""` for none). A name that cannot be in that namespace (a prefix
    /// without one, `xml` for another) is taken as by
    /// [`Document::create_element`].
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let e = doc.create_element_ns("http://www.w3.org/2000/svg", "svg:g");
    /// let e = doc.node(e).unwrap();
    /// assert_eq!((e.prefix(), e.local_name()), (Some("svg"), "g"));
    /// assert_eq!(e.namespace(), Some("http://www.w3.org/2000/svg"));
    /// ```
    pub fn create_element_ns(&mut self, namespace: &str, name: &str) -> NodeId {
        let Ok(name) = self.name_ns(namespace, name) else {
            return self.create_element(name);
        };
        self.new_node(NodeKind::Element { name })
    }

    /// Creates a detached text node.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a>Hello</a>");
    /// let a = doc.root_element().unwrap().id();
    /// let t = doc.create_text(", world");
    /// assert!(doc.node(t).unwrap().parent().is_none());
    /// doc.append(a, t).unwrap();
    /// assert_eq!(doc.node(a).unwrap().text_content(), "Hello, world");
    /// ```
    pub fn create_text(&mut self, text: &str) -> NodeId {
        let text = self.store_ref(text);
        self.new_node(NodeKind::Text { text, cdata: 0 })
    }

    /// Creates a detached comment.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element().unwrap().id();
    /// let c = doc.create_comment(" generated ");
    /// doc.append(a, c).unwrap();
    /// let c = doc.node(a).unwrap().first_child().unwrap();
    /// assert!(c.is_comment());
    /// assert_eq!(c.text(), Some(" generated "));
    /// ```
    pub fn create_comment(&mut self, text: &str) -> NodeId {
        let text = self.store_ref(text);
        self.new_node(NodeKind::Comment(text))
    }

    /// Creates a detached processing instruction.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element().unwrap().id();
    /// let pi = doc.create_processing_instruction("xml-stylesheet", "href='s.css'");
    /// doc.insert_before(a, pi).unwrap();
    /// let pi = doc.root().first_child().unwrap();
    /// assert_eq!((pi.name(), pi.text()), ("xml-stylesheet", Some("href='s.css'")));
    /// ```
    pub fn create_processing_instruction(&mut self, target: &str, data: &str) -> NodeId {
        let target = self.names.qname(target);
        let data = self.store_ref(data);
        self.new_node(NodeKind::ProcessingInstruction { target, data })
    }

    // ----- Moving --------------------------------------------------------

    /// Checks that `child` may go to `place` under `parent`, and detaches
    /// it; returns it and the names to resolve once it is there.
    fn adopt(
        &mut self,
        parent: indextree::NodeId,
        child: NodeId,
        place: Place,
    ) -> Result<(indextree::NodeId, Vec<Resolved>)> {
        let child = self.live(child)?;
        if matches!(self.arena[child].get().kind(), NodeKind::Document) {
            return Err(refused("the document node cannot be moved"));
        }
        if child == parent || parent.ancestors(&self.arena).any(|a| a == child) {
            return Err(refused("a node cannot go inside itself"));
        }
        if parent != self.root {
            // Into an element, detached or not: the document keeps its
            // root element.
            self.check_removable(child)?;
        }
        let resolved = self.check_landing(parent, child, place)?;
        if let Some(old_parent) = child.parent(&self.arena) {
            self.mark_dirty(old_parent, DIRTY_CHILDREN);
        }
        child.detach(&mut self.arena);
        self.mark_dirty(parent, DIRTY_CHILDREN);
        Ok((child, resolved))
    }

    /// Makes `child` (detached or not) the last child of `parent`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let a = doc.root_element().unwrap();
    /// let (a_id, b) = (a.id(), a.first_child().unwrap().id());
    /// doc.append(a_id, b).unwrap();
    /// let names: Vec<_> = doc.root_element().unwrap().children().map(|n| n.name()).collect();
    /// assert_eq!(names, ["c", "b"]);
    /// ```
    pub fn append(&mut self, parent: NodeId, child: NodeId) -> Result<()> {
        let parent = self.live(parent)?;
        let (child, resolved) = self.adopt(parent, child, Place::Append)?;
        parent
            .checked_append(child, &mut self.arena)
            .map_err(tree_error)?;
        self.landed(child, resolved);
        Ok(())
    }

    /// Makes `child` the first child of `parent`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><c/></a>");
    /// let a = doc.root_element().unwrap().id();
    /// let b = doc.create_element("b");
    /// doc.prepend(a, b).unwrap();
    /// let names: Vec<_> = doc.node(a).unwrap().children().map(|n| n.name()).collect();
    /// assert_eq!(names, ["b", "c"]);
    /// ```
    pub fn prepend(&mut self, parent: NodeId, child: NodeId) -> Result<()> {
        let parent = self.live(parent)?;
        let (child, resolved) = self.adopt(parent, child, Place::Prepend)?;
        parent
            .checked_prepend(child, &mut self.arena)
            .map_err(tree_error)?;
        self.landed(child, resolved);
        Ok(())
    }

    /// Checks that `node` may become a sibling of `sibling`, and detaches it.
    fn adopt_beside(
        &mut self,
        sibling: NodeId,
        node: NodeId,
        before: bool,
    ) -> Result<(indextree::NodeId, indextree::NodeId, Vec<Resolved>)> {
        if sibling == node {
            return Err(refused("a node cannot go next to itself"));
        }
        let sibling = self.live(sibling)?;
        let parent = sibling
            .parent(&self.arena)
            .ok_or_else(|| refused("the node has no parent"))?;
        let place = if before {
            Place::Before(sibling)
        } else {
            Place::After(sibling)
        };
        let (node, resolved) = self.adopt(parent, node, place)?;
        Ok((sibling, node, resolved))
    }

    /// Puts `node` right before `sibling`, under the same parent.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><c/></a>");
    /// let c = doc.root_element().unwrap().first_child().unwrap().id();
    /// let b = doc.create_element("b");
    /// doc.insert_before(c, b).unwrap();
    /// assert_eq!(doc.root_element().unwrap().first_child().unwrap().name(), "b");
    /// ```
    pub fn insert_before(&mut self, sibling: NodeId, node: NodeId) -> Result<()> {
        let (sibling, node, resolved) = self.adopt_beside(sibling, node, true)?;
        sibling
            .checked_insert_before(node, &mut self.arena)
            .map_err(tree_error)?;
        self.landed(node, resolved);
        Ok(())
    }

    /// Puts `node` right after `sibling`, under the same parent.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><d/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// let c = doc.create_element("c");
    /// doc.insert_after(b, c).unwrap();
    /// let names: Vec<_> = doc.root_element().unwrap().children().map(|n| n.name()).collect();
    /// assert_eq!(names, ["b", "c", "d"]);
    /// let document = doc.root().id();
    /// assert!(doc.insert_after(document, c).is_err()); // the document has no siblings
    /// ```
    pub fn insert_after(&mut self, sibling: NodeId, node: NodeId) -> Result<()> {
        let (sibling, node, resolved) = self.adopt_beside(sibling, node, false)?;
        sibling
            .checked_insert_after(node, &mut self.arena)
            .map_err(tree_error)?;
        self.landed(node, resolved);
        Ok(())
    }

    /// Puts `new` where `old` is and removes `old` with its subtree (how
    /// the root element is replaced: a document keeps one). `new` may come
    /// from inside `old`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<!-- c --><a/>");
    /// let a = doc.root_element().unwrap().id();
    /// let b = doc.create_element("b");
    /// doc.replace(a, b).unwrap();
    /// assert_eq!(doc.to_xml(), "<!-- c --><b/>");
    /// ```
    pub fn replace(&mut self, old: NodeId, new: NodeId) -> Result<()> {
        let old_id = self.live(old)?;
        let new_id = self.live(new)?;
        if old_id == new_id {
            return Ok(());
        }
        if old_id.ancestors(&self.arena).any(|a| a == new_id) {
            return Err(refused("a node cannot go inside itself"));
        }
        if matches!(self.arena[new_id].get().kind(), NodeKind::Document) {
            return Err(refused("the document node cannot be moved"));
        }
        let is_element =
            |id: indextree::NodeId| matches!(self.arena[id].get().kind(), NodeKind::Element { .. });
        if self.check_removable(old_id).is_err() && !is_element(new_id) {
            return Err(refused("only an element can take the root element's place"));
        }
        let parent = old_id
            .parent(&self.arena)
            .ok_or_else(|| refused("the node has no parent"))?;
        if parent != self.root {
            self.check_removable(new_id)?;
        }
        // Checked as if `old` were not there.
        let next = old_id.next_sibling(&self.arena);
        old_id.detach(&mut self.arena);
        let place = next.map_or(Place::Append, Place::Before);
        let checked = self
            .live(NodeId(new_id))
            .and_then(|_| self.check_landing(parent, new_id, place));
        // Put `old` back, whatever the check said.
        match next {
            Some(next) => next.checked_insert_before(old_id, &mut self.arena),
            None => parent.checked_append(old_id, &mut self.arena),
        }
        .map_err(tree_error)?;
        let resolved = checked?;
        if let Some(old_parent) = new_id.parent(&self.arena) {
            self.mark_dirty(old_parent, DIRTY_CHILDREN);
        }
        new_id.detach(&mut self.arena);
        old_id
            .checked_insert_before(new_id, &mut self.arena)
            .map_err(tree_error)?;
        self.mark_dirty(parent, DIRTY_CHILDREN);
        old_id.remove_subtree(&mut self.arena);
        self.landed(new_id, resolved);
        Ok(())
    }

    /// Unlinks `node` (and its subtree) from its parent; it stays in the
    /// document, detached, and can be inserted again. The root element
    /// cannot be detached (see [`Document::replace`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// doc.detach(b).unwrap();
    /// assert!(doc.node(b).unwrap().parent().is_none());
    /// assert!(!doc.root_element().unwrap().has_children());
    /// ```
    pub fn detach(&mut self, node: NodeId) -> Result<()> {
        let node = self.live(node)?;
        self.check_removable(node)?;
        if let Some(parent) = node.parent(&self.arena) {
            self.mark_dirty(parent, DIRTY_CHILDREN);
        }
        node.detach(&mut self.arena);
        Ok(())
    }

    /// Removes `node` and its subtree from the document; their ids become
    /// invalid. The root element cannot be removed (see
    /// [`Document::replace`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b><c/></b></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// let (b, c) = (b.id(), b.first_child().unwrap().id());
    /// doc.remove(b).unwrap();
    /// assert!(doc.node(b).is_none() && doc.node(c).is_none());
    /// ```
    pub fn remove(&mut self, node: NodeId) -> Result<()> {
        let node = self.live(node)?;
        self.check_removable(node)?;
        if let Some(parent) = node.parent(&self.arena) {
            self.mark_dirty(parent, DIRTY_CHILDREN);
        }
        node.remove_subtree(&mut self.arena);
        self.compact_if_wasteful();
        Ok(())
    }

    fn check_removable(&self, node: indextree::NodeId) -> Result<()> {
        if node == self.root {
            return Err(refused("the document node cannot be moved or removed"));
        }
        let root_element = node.parent(&self.arena) == Some(self.root)
            && matches!(self.arena[node].get().kind(), NodeKind::Element { .. });
        if root_element {
            return Err(refused(
                "a document keeps its root element: put another in its place with Document::replace",
            ));
        }
        Ok(())
    }

    // ----- Changing ------------------------------------------------------

    fn element(&self, element: NodeId) -> Result<indextree::NodeId> {
        let id = self.live(element)?;
        match self.arena[id].get().kind() {
            NodeKind::Element { .. } => Ok(id),
            _ => Err(refused("only elements have attributes")),
        }
    }

    /// A use on `element` of `prefix` (`""`: the default namespace) for
    /// another namespace than `uri`, or, if `waiting_too`, one waiting to
    /// be bound where the element lands; but the uses `skip` tells apart.
    fn prefix_conflict(
        &self,
        element: indextree::NodeId,
        prefix: &str,
        uri: &str,
        what: &str,
        waiting_too: bool,
        skip: impl Fn(UsedBy) -> bool,
    ) -> Result<()> {
        let Some(node) = self.node(NodeId(element)) else {
            return Ok(());
        };
        let conflict = prefix_uses(node).into_iter().find(|u| {
            u.prefix == prefix
                && !skip(u.by)
                && match u.uri {
                    Some(used) => used != uri,
                    None => waiting_too,
                }
        });
        let Some(used) = conflict else {
            return Ok(());
        };
        let waits = if used.uri.is_none() {
            " (bound to nothing yet: it is to mean what it means where the element lands)"
        } else {
            ""
        };
        let meaning = used.uri.map_or(String::new(), |u| format!(" for {u:?}"));
        Err(refused(match used.by {
            UsedBy::Name => format!(
                "{what}: the element's name {:?} uses the prefix {prefix:?}{meaning}{waits}",
                node.name()
            ),
            UsedBy::Attribute(i) | UsedBy::Declaration(i) => format!(
                "{what}: the element's attribute {:?} uses the prefix {prefix:?}{meaning}{waits}",
                node.attributes().nth(i).map_or("", |a| a.name())
            ),
        }))
    }

    /// Sets the attribute `name` (a qualified name; its prefix is resolved in
    /// scope at the element) to `value`, replacing the attribute with the
    /// same namespace and local name. `xmlns` and `xmlns:p` set namespace
    /// declarations, which must agree with the element's own name and
    /// attributes (a declaration that would move them is refused); the
    /// names in the element's scope that use `p` undeclared (see
    /// [`Document::bind_undeclared_prefix`]) move into the namespace
    /// `xmlns:p` declares. On an element not in the document, a prefix
    /// bound to nothing yet is resolved where the element lands.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a x='1' xmlns:p='urn:p'/>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.set_attribute(a, "x", "2").unwrap();
    /// doc.set_attribute(a, "p:y", "3").unwrap();
    /// assert!(doc.set_attribute(a, "q:z", "4").is_err()); // q is not declared
    /// assert!(doc.set_attribute(a, "xmlns", "urn:d").is_err()); // would move <a>
    /// let a = doc.node(a).unwrap();
    /// assert_eq!(a.attribute("x"), Some("2"));
    /// assert_eq!(a.attribute_ns("urn:p", "y"), Some("3"));
    /// ```
    pub fn set_attribute(&mut self, element: NodeId, name: &str, value: &str) -> Result<()> {
        let id = self.element(element)?;
        check_text(value)?;
        if name == "xmlns" || name.starts_with("xmlns:") {
            return self.set_declaration(id, name, value);
        }
        let name = self.resolve(id, name, false)?;
        self.put_attribute(element, name, value)
    }

    /// Sets the namespace declaration `name` (`xmlns` or `xmlns:p`).
    fn set_declaration(&mut self, id: indextree::NodeId, name: &str, uri: &str) -> Result<()> {
        self.declare(id, name, uri).map(|_| ())
    }

    /// Sets the namespace declaration `name` on the element `id`, and moves
    /// the names that used its prefix undeclared in the element's scope
    /// into the namespace it declares (see [`undeclared_uses`]); returns
    /// how many moved. Refused, changing nothing, where the element's own
    /// names would change namespace otherwise, or where two attributes of
    /// an element would then have one expanded name.
    ///
    /// [`undeclared_uses`]: Self::undeclared_uses
    fn declare(&mut self, id: indextree::NodeId, name: &str, uri: &str) -> Result<usize> {
        let prefix = check_declaration(name, uri)?;
        let rehomed: Vec<Resolved> = self
            .undeclared_uses(id, prefix)
            .into_iter()
            .map(|(element, attribute)| Resolved {
                element,
                attribute,
                uri: uri.to_owned(),
            })
            .collect();
        // The element's own names come first in tree order.
        let own: Vec<Option<usize>> = rehomed
            .iter()
            .take_while(|r| r.element == id)
            .map(|r| r.attribute)
            .collect();
        let what = format!("{name}={uri:?} would change a name's namespace");
        // (A waiting use of the prefix takes its meaning from declarations:
        // this one gives it; so does an undeclared one it covers.)
        self.prefix_conflict(id, prefix, uri, &what, false, |by| match by {
            UsedBy::Declaration(_) => true,
            UsedBy::Name => own.contains(&None),
            UsedBy::Attribute(i) => own.contains(&Some(i)),
        })?;
        let mut start = 0;
        while start < rehomed.len() {
            let element = rehomed[start].element;
            let end = start
                + rehomed[start..]
                    .iter()
                    .take_while(|r| r.element == element)
                    .count();
            if let Some(node) = self.node(NodeId(element)) {
                self.check_attributes_distinct(node, &rehomed[start..end], "once it is declared")?;
            }
            start = end;
        }
        let qname = self.names.qname(name);
        let declaration = self.names.name(qname, Some(XMLNS_NS));
        self.put_attribute(NodeId(id), declaration, uri)?;
        let count = rehomed.len();
        for r in &rehomed {
            self.mark_dirty(r.element, DIRTY_SELF);
        }
        self.set_resolved(rehomed);
        Ok(count)
    }

    // ----- Undeclared prefixes ----------------------------------------------

    /// The namespaces a name that uses `prefix` undeclared may be in, if
    /// the document has names in them: the prefix's placeholder
    /// ([`undeclared_namespace`](super::undeclared_namespace)), and the
    /// registered namespace of a well-known prefix
    /// ([`well_known_namespace`](super::well_known_namespace)), which a
    /// name is in undeclared only where no declaration of the prefix
    /// covers it. `(None, None)`: no name uses `prefix` undeclared, and no
    /// walk is needed to know it.
    fn undeclared_namespaces(&self, prefix: &str) -> (Option<String>, Option<&'static str>) {
        if prefix.is_empty() {
            return (None, None);
        }
        let placeholder = super::undeclared_namespace(prefix);
        let placeholder = Some(placeholder).filter(|uri| self.names.knows_namespace(uri));
        let registered =
            super::well_known_namespace(prefix).filter(|uri| self.names.knows_namespace(uri));
        (placeholder, registered)
    }

    /// The names in the subtree of `element` that use `prefix` undeclared
    /// (they are in its placeholder namespace, [`undeclared_namespace`], or
    /// in the registered namespace of a well-known prefix with no
    /// declaration of the prefix in scope) and that a declaration of
    /// `prefix` on `element` covers: all but those below another element
    /// that declares `prefix` (the element's own declarations are the ones
    /// a new one replaces). In tree order, each element's name before its
    /// attributes: `(element, None)` for the name, `(element, Some(i))` for
    /// its attribute `i`.
    ///
    /// [`undeclared_namespace`]: super::undeclared_namespace
    fn undeclared_uses(
        &self,
        element: indextree::NodeId,
        prefix: &str,
    ) -> Vec<(indextree::NodeId, Option<usize>)> {
        let mut uses = Vec::new();
        let (placeholder, registered) = self.undeclared_namespaces(prefix);
        // A document that never had such a name is not walked.
        if placeholder.is_none() && registered.is_none() {
            return uses;
        }
        let Some(top) = self.node(NodeId(element)) else {
            return uses;
        };
        let declares = |node: super::Node<'_>| {
            node.attributes()
                .any(|a| a.declared_prefix() == Some(Some(prefix)))
        };
        // Names in the registered namespace are declared ones where an
        // ancestor of `element` declares the prefix.
        let registered = registered.filter(|_| {
            !top.ancestors()
                .any(|ancestor| ancestor.is_element() && declares(ancestor))
        });
        let undeclared = |name_prefix: Option<&str>, uri: Option<&str>| {
            name_prefix == Some(prefix)
                && uri.is_some()
                && (uri == placeholder.as_deref() || uri == registered)
        };
        // How many elements open on the walk declare `prefix`.
        let mut shadowed = 0usize;
        for edge in top.traverse() {
            match edge {
                super::Edge::Open(node) if node.is_element() => {
                    if node != top && declares(node) {
                        shadowed += 1;
                    }
                    if shadowed > 0 {
                        continue;
                    }
                    if undeclared(node.prefix(), node.namespace()) {
                        uses.push((node.id().0, None));
                    }
                    for (i, attribute) in node.attributes().enumerate() {
                        if attribute.declared_prefix().is_none()
                            && undeclared(attribute.prefix(), attribute.namespace())
                        {
                            uses.push((node.id().0, Some(i)));
                        }
                    }
                }
                super::Edge::Close(node) if node.is_element() && node != top && declares(node) => {
                    shadowed = shadowed.saturating_sub(1);
                }
                _ => {}
            }
        }
        uses
    }

    /// The namespaces of the names that use `prefix` undeclared: its
    /// placeholder namespace if a name is in it, and the registered
    /// namespace of a well-known prefix if a name is in it where no
    /// declaration of the prefix covers the name.
    pub(crate) fn undeclared_prefix_namespaces(
        &self,
        prefix: &str,
    ) -> (Option<String>, Option<&'static str>) {
        let (placeholder, registered) = self.undeclared_namespaces(prefix);
        let (mut placeholder_used, mut registered_used) = (false, false);
        if placeholder.is_none() && registered.is_none() {
            return (None, None);
        }
        let declares = |node: super::Node<'_>| {
            node.attributes()
                .any(|a| a.declared_prefix() == Some(Some(prefix)))
        };
        // How many elements open on the walk declare `prefix`: a name in
        // the registered namespace below one of them is a declared one.
        let mut declared = 0usize;
        for edge in self.root().traverse() {
            match edge {
                super::Edge::Open(node) if node.is_element() => {
                    if declares(node) {
                        declared += 1;
                    }
                    let names = std::iter::once((node.prefix(), node.namespace())).chain(
                        node.attributes()
                            .filter(|a| a.declared_prefix().is_none())
                            .map(|a| (a.prefix(), a.namespace())),
                    );
                    for (name_prefix, uri) in names {
                        let Some(uri) = uri.filter(|_| name_prefix == Some(prefix)) else {
                            continue;
                        };
                        placeholder_used |= Some(uri) == placeholder.as_deref();
                        registered_used |= declared == 0 && Some(uri) == registered;
                    }
                    if placeholder_used == placeholder.is_some()
                        && registered_used == registered.is_some()
                    {
                        break;
                    }
                }
                super::Edge::Close(node) if node.is_element() && declares(node) => {
                    declared = declared.saturating_sub(1);
                }
                _ => {}
            }
        }
        (
            placeholder.filter(|_| placeholder_used),
            registered.filter(|_| registered_used),
        )
    }

    /// Binds `prefix`, which names of the document use undeclared, to
    /// `uri` everywhere it is used so: declares `xmlns:prefix="uri"` on the
    /// root element and moves those names (in the placeholder namespace
    /// [`undeclared_namespace`](super::undeclared_namespace) gives the
    /// prefix, or in the registered namespace of a well-known prefix,
    /// [`well_known_namespace`](super::well_known_namespace), that the
    /// parse gave it) into `uri`. Every such name is in the root element's
    /// scope, so the one declaration covers all of them, but those below
    /// an element that declares the prefix (`xmlns:p=""`, which undeclares
    /// it in XML 1.1), which it cannot reach and which keep their
    /// namespace.
    /// Returns how many names moved; with none to move, changes nothing and
    /// returns 0.
    ///
    /// Refused, changing nothing, when there is no root element, when
    /// `prefix` or `uri` cannot be declared (`xml`, `xmlns`, an empty URI,
    /// not a name), when the root element declares `prefix` already, and
    /// when two attributes of an element would then have one expanded name.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<rss><channel><dc:creator>J</dc:creator></channel></rss>");
    /// let dc = "http://purl.org/dc/elements/1.1/";
    /// assert_eq!(doc.bind_undeclared_prefix("dc", dc)?, 1);
    /// let creator = doc.root().descendants().find(|n| n.local_name() == "creator").unwrap();
    /// assert_eq!(creator.namespace(), Some(dc));
    /// assert_eq!(
    ///     doc.to_xml(),
    ///     "<rss xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><dc:creator>J</dc:creator></channel></rss>"
    /// );
    /// assert_eq!(doc.bind_undeclared_prefix("media", "urn:m")?, 0); // not used: nothing to do
    /// assert!(doc.bind_undeclared_prefix("dc", "urn:other").is_err()); // declared on the root now
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn bind_undeclared_prefix(&mut self, prefix: &str, uri: &str) -> Result<usize> {
        let root = self
            .root_element()
            .ok_or_else(|| refused("the document has no root element"))?;
        let name = format!("xmlns:{prefix}");
        check_declaration(&name, uri)?;
        let declared = root
            .attributes()
            .find(|a| a.declared_prefix() == Some(Some(prefix)));
        if let Some(declaration) = declared {
            return Err(refused(format!(
                "the root element declares {prefix:?} already ({}={:?})",
                declaration.name(),
                declaration.value()
            )));
        }
        let root = root.id().0;
        if self.undeclared_uses(root, prefix).is_empty() {
            return Ok(0);
        }
        self.declare(root, &name, uri)
    }

    /// After the element `element` was made in its namespace and put in the
    /// document: if nothing binds its prefix there, declares the prefix on
    /// the root element (where one declaration covers every element added
    /// so), when the prefix is free there: no name of the root element
    /// uses it, nor any element between, and no name of the document uses
    /// it undeclared (the declaration would move it). Otherwise the writer
    /// declares it on the element, as it does for any name.
    pub(crate) fn declare_on_root(&mut self, element: NodeId) {
        let Some(node) = self.node(element) else {
            return;
        };
        let (Some(prefix), Some(uri)) = (node.prefix(), node.namespace()) else {
            return;
        };
        let Some(root) = self.root_element() else {
            return;
        };
        if prefix == "xml" || node == root {
            return;
        }
        let (mut used_above, mut under_root) = (false, false);
        for ancestor in node.ancestors().filter(|a| a.is_element()) {
            used_above |= prefix_uses(ancestor).iter().any(|u| u.prefix == prefix);
            under_root |= ancestor == root;
        }
        if used_above || !under_root {
            return;
        }
        let (prefix, uri, root) = (prefix.to_owned(), uri.to_owned(), root.id().0);
        // A declaration moves the names that use the prefix undeclared
        // into its namespace: it is made only where that leaves each in
        // the namespace it is in (in the registered namespace of a
        // well-known prefix, which it then declares for them too).
        let (placeholder, registered) = self.undeclared_prefix_namespaces(&prefix);
        if placeholder.is_some() || registered.is_some_and(|registered| registered != uri) {
            return;
        }
        // (Cannot be refused: the root element does not use the prefix.)
        let _ = self.declare(root, &format!("xmlns:{prefix}"), &uri);
    }

    /// Sets the attribute with namespace `namespace` (`""` for none) and
    /// qualified name `name`, replacing the attribute with the same
    /// namespace and local name.
    ///
    /// The prefix is kept as given where it means `namespace` or nothing
    /// on the element; otherwise (or with no prefix, for a namespace) the
    /// attribute takes a prefix that does: one in scope, or a new `nsN`.
    /// The XML namespace always takes `xml`.
    ///
    /// ```
    /// use xml5dom::{Document, XML_NAMESPACE};
    /// let mut doc = Document::parse("<a xmlns:p='urn:1'/>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.set_attribute_ns(a, "http://www.w3.org/1999/xlink", "xlink:href", "#x").unwrap();
    /// doc.set_attribute_ns(a, "urn:2", "p:x", "1").unwrap(); // p is urn:1 here
    /// doc.set_attribute_ns(a, XML_NAMESPACE, "lang", "en").unwrap();
    /// let names: Vec<_> = doc.node(a).unwrap().attributes().map(|a| a.name()).collect();
    /// assert_eq!(names, ["xmlns:p", "xlink:href", "ns1:x", "xml:lang"]);
    /// ```
    pub fn set_attribute_ns(
        &mut self,
        element: NodeId,
        namespace: &str,
        name: &str,
        value: &str,
    ) -> Result<()> {
        let id = self.element(element)?;
        check_text(value)?;
        if namespace == XMLNS_NAMESPACE && (name == "xmlns" || name.starts_with("xmlns:")) {
            return self.set_declaration(id, name, value);
        }
        let local = super::qname_colon(name).map_or(name, |c| &name[c + 1..]);
        let qualified = match namespace {
            XML_NAMESPACE => format!("xml:{local}"),
            "" => name.to_owned(),
            _ => {
                let given = super::qname_colon(name).map(|c| &name[..c]);
                if let Some(reserved) = given.filter(|&p| p == "xml" || p == "xmlns") {
                    return Err(refused(format!(
                        "the prefix {reserved:?} cannot be bound to {namespace:?}"
                    )));
                }
                let prefix = self.attribute_prefix(id, given, namespace);
                format!("{prefix}:{local}")
            }
        };
        let name = self.name_ns(namespace, &qualified)?;
        self.put_attribute(element, name, value)
    }

    /// The prefix for an attribute in `namespace` on `element`: `given`
    /// if the element uses it for that namespace or not at all, else one
    /// the element or its scope binds to it, else a new one. A prefix
    /// waiting on the element (bound to nothing yet) is not free: it is
    /// to mean what it means where the element lands.
    fn attribute_prefix(
        &self,
        element: indextree::NodeId,
        given: Option<&str>,
        namespace: &str,
    ) -> String {
        let node = self.node(NodeId(element));
        let uses = node.map(prefix_uses).unwrap_or_default();
        let free = |prefix: &str| {
            uses.iter()
                .all(|u| u.prefix != prefix || u.uri == Some(namespace))
        };
        if let Some(given) = given.filter(|&p| p != "xml" && p != "xmlns" && free(p)) {
            return given.to_owned();
        }
        let own = uses
            .iter()
            .find(|u| !u.prefix.is_empty() && u.uri == Some(namespace) && free(u.prefix));
        if let Some(used) = own {
            return used.prefix.to_owned();
        }
        if let Some(p) = node
            .and_then(|n| n.lookup_prefix(namespace))
            .filter(|p| !p.is_empty() && free(p))
        {
            return p.to_owned();
        }
        (1..)
            .map(|n| format!("ns{n}"))
            .find(|p| free(p) && self.binding_at(element, p, true).is_none())
            .unwrap_or_default()
    }

    fn put_attribute(&mut self, element: NodeId, name: NameId, value: &str) -> Result<()> {
        let value = self.store_ref(value);
        let names = &self.names;
        // The same attribute: the same namespace and local name (or, for
        // a prefix bound to nothing yet, the same qualified name).
        let same = |a: &AttributeData| {
            let (x, y) = (names.name_data(a.name), names.name_data(name));
            let unresolved = x.namespace.is_none() && names.prefix(a.name).is_some();
            (unresolved && x.qname == y.qname)
                || (x.namespace == y.namespace && names.local(a.name) == names.local(name))
        };
        let element_id = self.live(element)?;
        if !self.data(element_id).is_element() {
            return Err(refused("only elements have attributes"));
        }
        let range = self.attribute_range(element_id);
        match self
            .attributes
            .get_mut(range.range())
            .and_then(|own| own.iter_mut().find(|a| same(a)))
        {
            Some(existing) => {
                existing.name = name;
                existing.value = value;
                existing.set_modified();
            }
            None => {
                let range = self.attribute_room(element.0, MAX_ATTRIBUTE_END)?.range();
                let grown =
                    ItemRange::new(range.start, range.len() + 1).ok_or_else(|| refused(FULL))?;
                self.attributes.push(AttributeData::created(name, value));
                self.set_attribute_range(element.0, grown);
            }
        }
        self.mark_dirty(element.0, DIRTY_SELF);
        Ok(())
    }

    /// Makes room to append an attribute to `element`'s: its attributes
    /// must stay one range, so unless they end the storage they move to
    /// its end (the old slots left unused), and the range must end within
    /// `limit` (`u32::MAX`, see [`ItemRange`]). Slots left unused by moves
    /// can add up to that after enough edits: then the storage is compacted
    /// first. Only a document with `limit` attributes in use is refused.
    /// Returns the element's range, which now ends the storage.
    fn attribute_room(&mut self, element: indextree::NodeId, limit: usize) -> Result<ItemRange> {
        let range = self.attribute_range(element).range();
        let ends_storage = range.end == self.attributes.len();
        let moved = if ends_storage { 0 } else { range.len() };
        if self.attributes.len() + moved >= limit {
            self.compact(Some(element));
        } else if !ends_storage {
            self.attributes.extend_from_within(range.clone());
        }
        if self.attributes.len() >= limit {
            return Err(refused(FULL));
        }
        // Moved, compacted or not, the attributes now end the storage (an
        // element without any starts at its end).
        let start = self.attributes.len().saturating_sub(range.len());
        let moved = ItemRange::new(start, range.len()).ok_or_else(|| refused(FULL))?;
        self.set_attribute_range(element, moved);
        Ok(moved)
    }

    /// Removes the attribute with the qualified name `name`; returns its
    /// value, or `None` if there was none.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a x='1'/>");
    /// let a = doc.root_element().unwrap().id();
    /// assert_eq!(doc.remove_attribute(a, "x").unwrap().as_deref(), Some("1"));
    /// assert!(doc.node(a).unwrap().attribute("x").is_none());
    /// ```
    pub fn remove_attribute(&mut self, element: NodeId, name: &str) -> Result<Option<String>> {
        if let Some(node) = self.node(element).filter(|n| n.is_element()) {
            if self.defaults_for(node.name()).any(|a| a == name)
                && node.attributes().any(|a| a.name() == name)
            {
                return Err(refused(format!(
                    "the DTD gives {name:?} a default, which would come back: set a value instead"
                )));
            }
        }
        let id = self.live(element)?;
        if !self.data(id).is_element() {
            return Err(refused("only elements have attributes"));
        }
        let range = self.attribute_range(id);
        let names = &self.names;
        let own = self.attributes.get(range.range()).unwrap_or_default();
        let position = own.iter().position(|a| names.qualified(a.name) == name);
        let value = position.map(|i| self.text_of(own[i].value).to_owned());
        if let Some(i) = position {
            // Close the gap within the element's range.
            let at = range.range().start + i;
            self.attributes.copy_within(at + 1..range.range().end, at);
            let shorter = ItemRange {
                len: range.len - 1,
                ..range
            };
            self.set_attribute_range(id, shorter);
        }
        if value.is_some() {
            self.mark_dirty(element.0, DIRTY_SELF);
        }
        Ok(value)
    }

    /// Removes every attribute of `element` but its namespace declarations
    /// (which names in its subtree may use), as lxml's `attrib.clear()`.
    /// Refused, changing nothing, if the DTD gives one of them a default
    /// (it would come back).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<p:a xmlns:p='urn:p' x='1' p:y='2'><p:b/></p:a>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.clear_attributes(a).unwrap();
    /// assert_eq!(doc.to_xml(), "<p:a xmlns:p='urn:p'><p:b/></p:a>");
    /// ```
    pub fn clear_attributes(&mut self, element: NodeId) -> Result<()> {
        let node = self
            .node(element)
            .filter(|n| n.is_element())
            .ok_or_else(|| refused("only elements have attributes"))?;
        // Most documents have no DTD defaults: no walk over the attributes
        // (a streamed record is cleared once per record read).
        if !self.attribute_defaults.is_empty() {
            let mut names = node
                .attributes()
                .filter(|a| a.declared_prefix().is_none())
                .map(|a| a.name());
            if let Some(name) =
                names.find(|name| self.defaults_for(node.name()).any(|d| d == *name))
            {
                return Err(refused(format!(
                    "the DTD gives {name:?} a default, which would come back: set a value instead"
                )));
            }
        }
        let id = self.live(element)?;
        let range = self.attribute_range(id);
        let mut kept = range.range().start;
        for at in range.range() {
            let attribute = self.attributes[at];
            if self.names.name_data(attribute.name).namespace == Some(XMLNS_NS) {
                self.attributes[kept] = attribute;
                kept += 1;
            }
        }
        let left = kept - range.range().start;
        if left != range.range().len() {
            let kept = ItemRange {
                len: left as u32,
                ..range
            };
            self.set_attribute_range(id, kept);
            self.mark_dirty(element.0, DIRTY_SELF);
        }
        Ok(())
    }

    /// Renames an element (its prefix resolved in scope at the element, no
    /// prefix taking the default namespace in scope) or changes a PI's
    /// target. A name whose prefix the element's own declarations or
    /// attributes use for another namespace is refused.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a xmlns='urn:d'><b/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// doc.rename(b, "c").unwrap();
    /// let c = doc.node(b).unwrap();
    /// assert_eq!((c.name(), c.namespace()), ("c", Some("urn:d")));
    /// assert!(doc.rename(b, "p:c").is_err()); // p is not declared
    /// ```
    pub fn rename(&mut self, node: NodeId, name: &str) -> Result<()> {
        let id = self.live(node)?;
        match self.arena[id].get().kind() {
            NodeKind::Element { .. } => {
                let new = self.resolve(id, name, true)?;
                self.set_element_name(id, new, false)
            }
            NodeKind::ProcessingInstruction { .. } => {
                check_pi_target(name)?;
                let new = self.names.qname(name);
                if let NodeKind::ProcessingInstruction { data, .. } = self.data(id).kind() {
                    let kind = NodeKind::ProcessingInstruction { target: new, data };
                    self.arena[id].get_mut().set_kind(kind);
                }
                self.mark_dirty(id, DIRTY_SELF);
                Ok(())
            }
            _ => Err(refused("only elements and PIs have names to change")),
        }
    }

    /// Gives an element the name `new`, if its own declarations and
    /// attributes agree on what its prefix means.
    /// `explicit`: the caller gave the namespace (`rename_ns`), so an
    /// attribute whose prefix waits to be bound where the element lands
    /// must not be bound by it instead.
    fn set_element_name(
        &mut self,
        id: indextree::NodeId,
        new: NameId,
        explicit: bool,
    ) -> Result<()> {
        let prefix = self.names.prefix(new).unwrap_or("").to_owned();
        let uri = self.names.namespace_of(new).map(str::to_owned);
        let what = format!(
            "{:?} in {} cannot be written on this element",
            self.names.qualified(new),
            uri.as_deref()
                .map_or("no namespace".to_owned(), |u| format!("{u:?}"))
        );
        if uri.is_some() || prefix.is_empty() {
            let uri = uri.unwrap_or_default();
            self.prefix_conflict(id, &prefix, &uri, &what, explicit, |by| by == UsedBy::Name)?;
        }
        if self.attached(id) {
            self.check_defaults(id, self.names.qualified(new))?;
        } else {
            self.mark_unchecked(id);
        }
        if self.data(id).is_element() {
            self.arena[id]
                .get_mut()
                .set_kind(NodeKind::Element { name: new });
        }
        self.mark_dirty(id, DIRTY_SELF);
        Ok(())
    }

    /// Renames an element into the namespace `namespace` (`""` for none).
    /// A name the element's own declarations or attributes would put in
    /// another namespace is refused.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.rename_ns(a, "http://www.w3.org/2000/svg", "svg:svg").unwrap();
    /// let svg = doc.node(a).unwrap();
    /// assert_eq!((svg.prefix(), svg.local_name()), (Some("svg"), "svg"));
    /// assert_eq!(svg.namespace(), Some("http://www.w3.org/2000/svg"));
    /// doc.rename_ns(a, "", "plain").unwrap();
    /// assert_eq!(doc.node(a).unwrap().namespace(), None);
    /// ```
    pub fn rename_ns(&mut self, node: NodeId, namespace: &str, name: &str) -> Result<()> {
        let id = self.live(node)?;
        if !matches!(self.arena[id].get().kind(), NodeKind::Element { .. }) {
            return Err(refused("only elements have namespaces"));
        }
        let new = self.name_ns(namespace, name)?;
        self.set_element_name(id, new, true)
    }

    /// Sets the text of a text node, a comment or a PI's data; for an
    /// element, replaces all its children with one text node. Text XML
    /// cannot carry, and comments and PIs that would read back otherwise
    /// (`--` in a comment, `?>` in a PI), are refused.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a>old<b/></a>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.set_text(a, "new").unwrap();
    /// assert_eq!(doc.node(a).unwrap().text_content(), "new");
    /// assert_eq!(doc.node(a).unwrap().children().count(), 1);
    /// ```
    pub fn set_text(&mut self, node: NodeId, text: &str) -> Result<()> {
        let id = self.live(node)?;
        match self.arena[id].get().kind() {
            NodeKind::Comment(_) => check_comment(text, self.is_xml11())?,
            NodeKind::ProcessingInstruction { .. } => check_pi_data(text, self.is_xml11())?,
            NodeKind::Document => {
                return Err(refused(
                    "the document's children cannot be replaced by text",
                ))
            }
            NodeKind::Doctype(_) => return Err(refused("a DOCTYPE has no text")),
            NodeKind::Text { .. } | NodeKind::Element { .. } => check_text(text)?,
        }
        if id.parent(&self.arena) == Some(self.root)
            && matches!(self.arena[id].get().kind(), NodeKind::Text { .. })
            && !text.chars().all(is_xml_space)
        {
            return Err(refused("only whitespace can be outside the root element"));
        }
        let stored = self.store_ref(text);
        let data = self.arena[id].get_mut();
        match data.kind() {
            NodeKind::Text { .. } => {
                data.set_kind(NodeKind::Text {
                    text: stored,
                    cdata: 0,
                });
                self.mark_dirty(id, DIRTY_SELF);
                Ok(())
            }
            NodeKind::Comment(_) => {
                data.set_kind(NodeKind::Comment(stored));
                self.mark_dirty(id, DIRTY_SELF);
                Ok(())
            }
            NodeKind::ProcessingInstruction { target, .. } => {
                data.set_kind(NodeKind::ProcessingInstruction {
                    target,
                    data: stored,
                });
                self.mark_dirty(id, DIRTY_SELF);
                Ok(())
            }
            NodeKind::Element { .. } => {
                self.mark_dirty(id, DIRTY_CHILDREN);
                while let Some(child) = id.first_child(&self.arena) {
                    child.remove_subtree(&mut self.arena);
                }
                if !text.is_empty() {
                    let child = NodeId(self.arena.new_node(NodeData::created(NodeKind::Text {
                        text: stored,
                        cdata: 0,
                    })));
                    id.checked_append(child.0, &mut self.arena)
                        .map_err(tree_error)?;
                }
                Ok(())
            }
            NodeKind::Document | NodeKind::Doctype(_) => Ok(()),
        }
    }
}

/// Checks the namespace declaration `name` (`xmlns` or `xmlns:p`) of
/// `uri`; returns the prefix it declares (`""` for the default).
fn check_declaration<'n>(name: &'n str, uri: &str) -> Result<&'n str> {
    let prefix = name.strip_prefix("xmlns:").unwrap_or("");
    if !is_qname(name) || prefix.contains(':') {
        return Err(refused(format!("{name:?} is not a qualified name")));
    }
    match (prefix, uri) {
        ("xmlns", _) | (_, XMLNS_NAMESPACE) => Err(refused(
            "the prefix `xmlns` and its namespace cannot be declared",
        )),
        ("xml", XML_NAMESPACE) => Ok(prefix),
        ("xml", _) | (_, XML_NAMESPACE) => Err(refused(
            "the prefix `xml` is bound to the XML namespace, and only it",
        )),
        (p, "") if !p.is_empty() => Err(refused(format!(
            "xmlns:{p}=\"\" undeclares a prefix, which Namespaces in XML 1.0 does not allow"
        ))),
        _ => Ok(prefix),
    }
}

/// A prefixed name of a landed subtree and the namespace its prefix has
/// there: the element's own name (`attribute: None`) or its attribute.
struct Resolved {
    element: indextree::NodeId,
    attribute: Option<usize>,
    uri: String,
}

/// The namespace bindings in scope where a subtree lands, as the output
/// will have them: looked up once, on the first prefix a landing subtree
/// needs from outside itself, and kept for the other nodes landing there.
#[derive(Default)]
struct OuterScope {
    bindings: Option<std::collections::HashMap<String, String>>,
}

impl OuterScope {
    /// What `prefix` means at `parent` (nothing at the document node but
    /// `xml`).
    fn binding(
        &mut self,
        doc: &Document,
        parent: indextree::NodeId,
        prefix: &str,
    ) -> Option<String> {
        match prefix {
            "xml" => return Some(XML_NAMESPACE.to_owned()),
            "xmlns" => return None,
            _ => {}
        }
        let bindings = self.bindings.get_or_insert_with(|| {
            doc.output_scope(parent)
                .into_iter()
                .map(|(prefix, uri)| (prefix.to_owned(), uri.to_owned()))
                .collect()
        });
        bindings.get(prefix).cloned()
    }
}

/// What uses a prefix on an element.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum UsedBy {
    Name,
    /// The attribute at this index (not a declaration).
    Attribute(usize),
    /// The namespace declaration at this index among the attributes.
    Declaration(usize),
}

/// One use of a prefix (`""`: the default namespace) on an element, and
/// the namespace it gives the prefix: `None` while it waits (a prefixed
/// name bound to nothing yet, on a node not in the document, or parsed
/// with an undeclared prefix).
#[derive(Clone, Copy, Debug)]
struct PrefixUse<'d> {
    prefix: &'d str,
    uri: Option<&'d str>,
    by: UsedBy,
}

/// The prefixes an element's own name, attributes and declarations use,
/// name first, then in attribute order (`""` with `Some("")` for an
/// unprefixed name in no namespace).
fn prefix_uses(node: super::Node<'_>) -> Vec<PrefixUse<'_>> {
    let mut uses = Vec::new();
    let (prefix, uri) = match (node.prefix(), node.namespace()) {
        (Some(prefix), uri) => (prefix, uri),
        (None, uri) => ("", Some(uri.unwrap_or(""))),
    };
    uses.push(PrefixUse {
        prefix,
        uri,
        by: UsedBy::Name,
    });
    for (i, attribute) in node.attributes().enumerate() {
        let used = match attribute.declared_prefix() {
            Some(prefix) => Some((
                prefix.unwrap_or(""),
                Some(attribute.value()),
                UsedBy::Declaration(i),
            )),
            None => attribute
                .prefix()
                .filter(|&p| p != "xmlns")
                .map(|p| (p, attribute.namespace(), UsedBy::Attribute(i))),
        };
        if let Some((prefix, uri, by)) = used {
            uses.push(PrefixUse { prefix, uri, by });
        }
    }
    uses
}

/// indextree's refusals, which the checks above should already prevent.
fn tree_error(error: indextree::NodeError) -> Error {
    use indextree::NodeError::*;
    refused(match error {
        AppendSelf | PrependSelf | InsertBeforeSelf | InsertAfterSelf => {
            "a node cannot go inside or next to itself"
        }
        Removed => "the node was removed",
        AppendAncestor | PrependAncestor => "a node cannot go inside itself",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attributes of every element, by name and value, in tree order.
    fn attributes(doc: &Document) -> Vec<Vec<(String, String)>> {
        doc.root()
            .descendants()
            .map(|n| {
                n.attributes()
                    .map(|a| (a.name().to_owned(), a.value().to_owned()))
                    .collect()
            })
            .collect()
    }

    /// Appending attributes to two elements in turn moves each one's range
    /// to the end of the storage every time, leaving slots unused; before
    /// the storage would pass its limit, it is compacted, and only a
    /// document that uses every slot is refused. (The limit is `u32::MAX`;
    /// here a small one stands for it.)
    #[test]
    fn appending_attributes_compacts_the_storage_before_its_limit() {
        let mut doc = Document::sized_for("");
        let root = NodeId(doc.root);
        let r = doc.create_element("r");
        doc.append(root, r).unwrap();
        let (a, b) = (doc.create_element("a"), doc.create_element("b"));
        doc.append(r, a).unwrap();
        doc.append(r, b).unwrap();
        for i in 0..10 {
            doc.set_attribute(a, &format!("x{i}"), "1").unwrap();
            doc.set_attribute(b, &format!("y{i}"), "2").unwrap();
        }
        doc.remove_attribute(b, "y0").unwrap();
        let before = attributes(&doc);
        assert!(doc.attributes.len() > 50, "{}", doc.attributes.len());

        let range = doc.attribute_room(a.0, 30).unwrap();
        assert_eq!(doc.attributes.len(), 19, "only the slots in use are kept");
        assert_eq!(range.range(), 9..19, "the element's own last");
        assert_eq!(attributes(&doc), before);

        // Room within the limit: no compaction, the range moves to the end.
        let range = doc.attribute_room(b.0, 30).unwrap();
        assert_eq!(range.range(), 19..28);
        assert_eq!(attributes(&doc), before);

        // Every slot in use (after compacting): refused, nothing lost.
        assert!(doc.attribute_room(a.0, 19).is_err());
        assert_eq!(doc.attributes.len(), 19);
        assert_eq!(attributes(&doc), before);
    }
}
