//! Editing the tree. Every edit takes `&mut Document` and [`NodeId`]s, keeps
//! the parent and sibling links consistent, and reports what it cannot do as
//! [`Error::InvalidEdit`] instead of panicking.

use super::{
    AttributeData, Document, ItemRange, NameId, NodeData, NodeId, NodeKind, NsId, DIRTY_CHILDREN,
    DIRTY_SELF, NO_END_TAG, XMLNS_NS, XML_NS,
};
use crate::error::Error;

type Result<T> = std::result::Result<T, Error>;

impl Document {
    fn new_node(&mut self, kind: NodeKind) -> NodeId {
        NodeId(self.arena.new_node(NodeData::created(kind)))
    }

    fn live(&self, id: NodeId) -> Result<indextree::NodeId> {
        match self.arena.get(id.0) {
            Some(node) if !node.is_removed() => Ok(id.0),
            _ => Err(Error::InvalidEdit("the node was removed")),
        }
    }

    fn kind_mut(&mut self, id: NodeId) -> Result<&mut NodeKind> {
        let id = self.live(id)?;
        Ok(&mut self.arena[id].get_mut().kind)
    }

    /// Resolves `qualified` at `scope` (an element, or `None` for no scope):
    /// a prefix through the declarations in scope, no prefix to the default
    /// namespace when `use_default` is set.
    fn resolve(&mut self, scope: Option<NodeId>, qualified: &str, use_default: bool) -> NameId {
        let qname = self.names.qname(qualified);
        let colon = self.names.qname_data(qname).colon;
        let uri = match (colon, scope.and_then(|id| self.node(id))) {
            (Some(c), Some(node)) => node.lookup_namespace_uri(Some(&qualified[..c])),
            (None, Some(node)) if use_default => node.lookup_namespace_uri(None),
            _ => None,
        }
        .map(str::to_owned);
        let namespace = match (colon, uri) {
            (Some(c), _) if &qualified[..c] == "xml" => Some(XML_NS),
            (Some(c), _) if &qualified[..c] == "xmlns" => Some(XMLNS_NS),
            (None, _) if qualified == "xmlns" => Some(XMLNS_NS),
            (_, Some(uri)) => Some(self.names.namespace(&uri)),
            (_, None) => None,
        };
        self.names.name(qname, namespace)
    }

    fn name_ns(&mut self, namespace: &str, qualified: &str) -> NameId {
        let qname = self.names.qname(qualified);
        let namespace: Option<NsId> =
            (!namespace.is_empty()).then(|| self.names.namespace(namespace));
        self.names.name(qname, namespace)
    }

    // ----- Creating ------------------------------------------------------

    /// Creates a detached element named `name`, in no namespace until it is
    /// renamed or created with [`Document::create_element_ns`].
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
        let name = self.resolve(None, name, false);
        self.new_node(NodeKind::Element {
            name,
            attributes: ItemRange::default(),
            tag_end: 0,
            end_tag: NO_END_TAG,
        })
    }

    /// Creates a detached element named `name` in the namespace `namespace`
    /// (`""` for none).
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
        let name = self.name_ns(namespace, name);
        self.new_node(NodeKind::Element {
            name,
            attributes: ItemRange::default(),
            tag_end: 0,
            end_tag: NO_END_TAG,
        })
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
        let text = self.store(text);
        self.new_node(NodeKind::Text {
            text,
            cdata: ItemRange::default(),
        })
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
        let text = self.store(text);
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
        let target = self.store(target);
        let data = self.store(data);
        self.new_node(NodeKind::ProcessingInstruction { target, data })
    }

    // ----- Moving --------------------------------------------------------

    /// Checks that `child` may become a child of `parent`, and detaches it.
    fn adopt(&mut self, parent: indextree::NodeId, child: NodeId) -> Result<indextree::NodeId> {
        let child = self.live(child)?;
        if !matches!(
            self.arena[parent].get().kind,
            NodeKind::Document | NodeKind::Element { .. }
        ) {
            return Err(Error::InvalidEdit(
                "only the document and elements have children",
            ));
        }
        if matches!(self.arena[child].get().kind, NodeKind::Document) {
            return Err(Error::InvalidEdit("the document node cannot be moved"));
        }
        if child == parent || parent.ancestors(&self.arena).any(|a| a == child) {
            return Err(Error::InvalidEdit("a node cannot go inside itself"));
        }
        if let Some(old_parent) = child.parent(&self.arena) {
            self.mark_dirty(old_parent, DIRTY_CHILDREN);
        }
        child.detach(&mut self.arena);
        self.mark_dirty(parent, DIRTY_CHILDREN);
        Ok(child)
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
        let child = self.adopt(parent, child)?;
        parent
            .checked_append(child, &mut self.arena)
            .map_err(tree_error)
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
        let child = self.adopt(parent, child)?;
        parent
            .checked_prepend(child, &mut self.arena)
            .map_err(tree_error)
    }

    /// Checks that `node` may become a sibling of `sibling`, and detaches it.
    fn adopt_beside(
        &mut self,
        sibling: NodeId,
        node: NodeId,
    ) -> Result<(indextree::NodeId, indextree::NodeId)> {
        if sibling == node {
            return Err(Error::InvalidEdit("a node cannot go next to itself"));
        }
        let sibling = self.live(sibling)?;
        let parent = sibling
            .parent(&self.arena)
            .ok_or(Error::InvalidEdit("the node has no parent"))?;
        let node = self.adopt(parent, node)?;
        Ok((sibling, node))
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
        let (sibling, node) = self.adopt_beside(sibling, node)?;
        sibling
            .checked_insert_before(node, &mut self.arena)
            .map_err(tree_error)
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
        let (sibling, node) = self.adopt_beside(sibling, node)?;
        sibling
            .checked_insert_after(node, &mut self.arena)
            .map_err(tree_error)
    }

    /// Unlinks `node` (and its subtree) from its parent; it stays in the
    /// document, detached, and can be inserted again.
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
        if node == self.root {
            return Err(Error::InvalidEdit("the document node cannot be moved"));
        }
        if let Some(parent) = node.parent(&self.arena) {
            self.mark_dirty(parent, DIRTY_CHILDREN);
        }
        node.detach(&mut self.arena);
        Ok(())
    }

    /// Removes `node` and its subtree from the document; their ids become
    /// invalid.
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
        if node == self.root {
            return Err(Error::InvalidEdit("the document node cannot be removed"));
        }
        if let Some(parent) = node.parent(&self.arena) {
            self.mark_dirty(parent, DIRTY_CHILDREN);
        }
        node.remove_subtree(&mut self.arena);
        Ok(())
    }

    // ----- Changing ------------------------------------------------------

    /// Sets the attribute `name` (a qualified name; its prefix is resolved in
    /// scope at the element) to `value`, replacing an attribute with the same
    /// qualified name or the same namespace and local name.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a x='1' xmlns:p='urn:p'/>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.set_attribute(a, "x", "2").unwrap();
    /// doc.set_attribute(a, "p:y", "3").unwrap();
    /// let a = doc.node(a).unwrap();
    /// assert_eq!(a.attribute("x"), Some("2"));
    /// assert_eq!(a.attribute_ns("urn:p", "y"), Some("3"));
    /// ```
    pub fn set_attribute(&mut self, element: NodeId, name: &str, value: &str) -> Result<()> {
        self.live(element)?;
        let name = self.resolve(Some(element), name, false);
        self.put_attribute(element, name, value)
    }

    /// Sets the attribute with namespace `namespace` (`""` for none) and
    /// qualified name `name`.
    ///
    /// The prefix is kept as given; no namespace declaration is added.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.set_attribute_ns(a, "http://www.w3.org/1999/xlink", "xlink:href", "#x").unwrap();
    /// let a = doc.node(a).unwrap();
    /// assert_eq!(a.attribute_ns("http://www.w3.org/1999/xlink", "href"), Some("#x"));
    /// let href = a.attributes().next().unwrap();
    /// assert_eq!((href.name(), href.prefix()), ("xlink:href", Some("xlink")));
    /// ```
    pub fn set_attribute_ns(
        &mut self,
        element: NodeId,
        namespace: &str,
        name: &str,
        value: &str,
    ) -> Result<()> {
        self.live(element)?;
        let name = self.name_ns(namespace, name);
        self.put_attribute(element, name, value)
    }

    fn put_attribute(&mut self, element: NodeId, name: NameId, value: &str) -> Result<()> {
        let value = self.store(value);
        let names = &self.names;
        // The same attribute: the same qualified name, or the same namespace
        // and local name.
        let same = |a: &AttributeData| {
            let (x, y) = (names.name_data(a.name), names.name_data(name));
            x.qname == y.qname
                || (x.namespace.is_some()
                    && x.namespace == y.namespace
                    && names.local(a.name) == names.local(name))
        };
        let NodeKind::Element { attributes, .. } = &mut self.arena[element.0].get_mut().kind else {
            return Err(Error::InvalidEdit("only elements have attributes"));
        };
        let range = *attributes;
        let storage = &mut self.attributes;
        match storage
            .get_mut(range.range())
            .and_then(|own| own.iter_mut().find(|a| same(a)))
        {
            Some(existing) => {
                existing.name = name;
                existing.value = value;
                existing.modified = true;
            }
            None => {
                // The element's attributes must stay one range: unless they
                // end the storage, move them to its end (the old slots are
                // left unused).
                let mut range = range;
                if range.start + range.len != storage.len() {
                    let start = storage.len();
                    storage.extend_from_within(range.range());
                    range.start = start;
                }
                storage.push(AttributeData::created(name, value));
                range.len += 1;
                *attributes = range;
            }
        }
        self.mark_dirty(element.0, DIRTY_SELF);
        Ok(())
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
        let NodeKind::Element { attributes, .. } = self.kind_mut(element)? else {
            return Err(Error::InvalidEdit("only elements have attributes"));
        };
        let range = *attributes;
        let names = &self.names;
        let own = self.attributes.get(range.range()).unwrap_or_default();
        let position = own.iter().position(|a| names.qualified(a.name) == name);
        let value = position.map(|i| self.str(own[i].value).to_owned());
        if let Some(i) = position {
            // Close the gap within the element's range.
            let at = range.start + i;
            self.attributes
                .copy_within(at + 1..range.start + range.len, at);
            if let NodeKind::Element { attributes, .. } = self.kind_mut(element)? {
                attributes.len -= 1;
            }
        }
        if value.is_some() {
            self.mark_dirty(element.0, DIRTY_SELF);
        }
        Ok(value)
    }

    /// Renames an element (its prefix resolved in scope at the element, no
    /// prefix taking the default namespace in scope) or changes a PI's
    /// target.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a xmlns='urn:d'><b/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// doc.rename(b, "c").unwrap();
    /// let c = doc.node(b).unwrap();
    /// assert_eq!((c.name(), c.namespace()), ("c", Some("urn:d")));
    /// ```
    pub fn rename(&mut self, node: NodeId, name: &str) -> Result<()> {
        self.live(node)?;
        match self.arena[node.0].get().kind {
            NodeKind::Element { .. } => {
                let new = self.resolve(Some(node), name, true);
                if let NodeKind::Element { name, .. } = self.kind_mut(node)? {
                    *name = new;
                }
                self.mark_dirty(node.0, DIRTY_SELF);
                Ok(())
            }
            NodeKind::ProcessingInstruction { .. } => {
                let new = self.store(name);
                if let NodeKind::ProcessingInstruction { target, .. } = self.kind_mut(node)? {
                    *target = new;
                }
                self.mark_dirty(node.0, DIRTY_SELF);
                Ok(())
            }
            _ => Err(Error::InvalidEdit(
                "only elements and PIs have names to change",
            )),
        }
    }

    /// Renames an element into the namespace `namespace` (`""` for none).
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
        let new = self.name_ns(namespace, name);
        match self.kind_mut(node)? {
            NodeKind::Element { name, .. } => *name = new,
            _ => return Err(Error::InvalidEdit("only elements have namespaces")),
        }
        self.mark_dirty(node.0, DIRTY_SELF);
        Ok(())
    }

    /// Sets the text of a text node, a comment or a PI's data; for an element
    /// (or the document), replaces all its children with one text node.
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
        self.live(node)?;
        let stored = self.store(text);
        match self.kind_mut(node)? {
            NodeKind::Text { text, cdata } => {
                *text = stored;
                *cdata = ItemRange::default();
                self.mark_dirty(node.0, DIRTY_SELF);
                Ok(())
            }
            NodeKind::Comment(text) => {
                *text = stored;
                self.mark_dirty(node.0, DIRTY_SELF);
                Ok(())
            }
            NodeKind::ProcessingInstruction { data, .. } => {
                *data = stored;
                self.mark_dirty(node.0, DIRTY_SELF);
                Ok(())
            }
            NodeKind::Element { .. } | NodeKind::Document => {
                self.mark_dirty(node.0, DIRTY_CHILDREN);
                let id = node.0;
                while let Some(child) = id.first_child(&self.arena) {
                    child.remove_subtree(&mut self.arena);
                }
                if !text.is_empty() {
                    let child = self.new_node(NodeKind::Text {
                        text: stored,
                        cdata: ItemRange::default(),
                    });
                    id.checked_append(child.0, &mut self.arena)
                        .map_err(tree_error)?;
                }
                Ok(())
            }
            NodeKind::Doctype(_) => Err(Error::InvalidEdit("a DOCTYPE has no text")),
        }
    }
}

/// indextree's refusals, which the checks above should already prevent.
fn tree_error(error: indextree::NodeError) -> Error {
    use indextree::NodeError::*;
    Error::InvalidEdit(match error {
        AppendSelf | PrependSelf | InsertBeforeSelf | InsertAfterSelf => {
            "a node cannot go inside or next to itself"
        }
        Removed => "the node was removed",
        AppendAncestor | PrependAncestor => "a node cannot go inside itself",
    })
}
