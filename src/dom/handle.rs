//! [`NodeMut`]: a mutable handle on one node, for chained edits.
//!
//! It is a thin layer over the id-based editing API (`&mut Document` and
//! [`NodeId`]s), which it calls and whose checks and errors it shares: what
//! one refuses the other refuses too. The methods that make a node return
//! a handle on it, so a subtree can be built in one expression:
//!
//! ```
//! use xml5dom::Document;
//! let mut doc = Document::parse("<list/>");
//! let mut list = doc.root_element_mut().unwrap();
//! list.append_element("item")?
//!     .set_attribute("id", "3")?
//!     .append_text("new")?;
//! assert_eq!(doc.to_xml(), "<list><item id=\"3\">new</item></list>");
//! # Ok::<(), xml5dom::Error>(())
//! ```

use super::{Document, Node, NodeId};
use crate::error::Error;

type Result<T> = std::result::Result<T, Error>;

/// A mutable handle on a node of a [`Document`]: edits it, makes and
/// inserts nodes around it, and walks to its relatives. Get one with
/// [`Document::node_mut`], [`Document::root_mut`] or
/// [`Document::root_element_mut`].
///
/// While a handle lives, it borrows the document mutably; [`as_node`]
/// reads through it, and [`id`] gives the node's id for later.
///
/// [`as_node`]: NodeMut::as_node
/// [`id`]: NodeMut::id
///
/// ```
/// use xml5dom::Document;
/// let mut doc = Document::parse("<a xmlns:p='urn:p'><b/></a>");
/// let mut b = doc.root_element_mut().unwrap().into_first_child().unwrap();
/// b.rename("p:b")?.set_attribute("p:x", "1")?;
/// b.parent_mut().unwrap().append_comment(" done ")?;
/// assert_eq!(doc.to_xml(), "<a xmlns:p='urn:p'><p:b p:x=\"1\"/><!-- done --></a>");
/// # Ok::<(), xml5dom::Error>(())
/// ```
pub struct NodeMut<'a> {
    doc: &'a mut Document,
    id: NodeId,
}

impl std::fmt::Debug for NodeMut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NodeMut({:?})", self.as_node())
    }
}

impl Document {
    /// A mutable handle on the node `id`, unless it was removed.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.node_mut(a).unwrap().set_attribute("x", "1")?;
    /// assert_eq!(doc.to_xml(), "<a x=\"1\"/>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn node_mut(&mut self, id: NodeId) -> Option<NodeMut<'_>> {
        self.live(id).ok()?;
        Some(NodeMut { doc: self, id })
    }

    /// A mutable handle on the document node.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_mut().append_comment(" end ")?;
    /// assert_eq!(doc.to_xml(), "<a/><!-- end -->");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn root_mut(&mut self) -> NodeMut<'_> {
        let id = NodeId(self.root);
        NodeMut { doc: self, id }
    }

    /// A mutable handle on the root element, if there is one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().append_element("b")?;
    /// assert_eq!(doc.to_xml(), "<a><b/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn root_element_mut(&mut self) -> Option<NodeMut<'_>> {
        let id = self.root_element()?.id();
        Some(NodeMut { doc: self, id })
    }
}

/// Where a new node goes, relative to the handle's node.
#[derive(Clone, Copy)]
enum Place {
    Append,
    Prepend,
    Before,
    After,
}

impl<'a> NodeMut<'a> {
    /// The node's id (valid after the handle is gone, until the node is
    /// removed).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let b = doc.root_element_mut().unwrap().append_element("b")?.id();
    /// assert_eq!(doc.node(b).unwrap().name(), "b");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The node, to read. (Should the node have been removed, by removing
    /// an ancestor through a handle borrowed from this one, this is the
    /// document node: a handle never reads a node that is gone.)
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a x='1'/>");
    /// let a = doc.root_element_mut().unwrap();
    /// assert_eq!(a.as_node().attribute("x"), Some("1"));
    /// ```
    pub fn as_node(&self) -> Node<'_> {
        self.live_node().unwrap_or_else(|| self.doc.root())
    }

    /// The node, unless it was removed.
    fn live_node(&self) -> Option<Node<'_>> {
        self.doc.node(self.id)
    }

    /// The document, to read.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element_mut().unwrap();
    /// assert_eq!(a.document().to_xml(), "<a/>");
    /// ```
    pub fn document(&self) -> &Document {
        self.doc
    }

    /// The document, to edit through ids while the handle lives: for the
    /// handle's methods that other modules add (fragment parsing adds
    /// `append_fragment`, the DOM knowing nothing of parsing).
    pub(crate) fn document_mut(&mut self) -> &mut Document {
        self.doc
    }

    /// The document, to edit through ids (the handle is given up).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element_mut().unwrap();
    /// let id = a.id();
    /// let doc = a.into_document();
    /// doc.set_attribute(id, "x", "1")?;
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn into_document(self) -> &'a mut Document {
        self.doc
    }

    fn at(&mut self, id: Option<NodeId>) -> Option<NodeMut<'_>> {
        Some(NodeMut {
            doc: &mut *self.doc,
            id: id?,
        })
    }

    fn into_at(self, id: Option<NodeId>) -> Option<NodeMut<'a>> {
        Some(NodeMut {
            doc: self.doc,
            id: id?,
        })
    }

    /// A handle on the parent, if the node has one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let mut b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// b.parent_mut().unwrap().set_attribute("x", "1")?;
    /// assert_eq!(doc.to_xml(), "<a x=\"1\"><b/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn parent_mut(&mut self) -> Option<NodeMut<'_>> {
        let id = self.live_node().and_then(|n| n.parent()).map(|n| n.id());
        self.at(id)
    }

    /// A handle on the first child, if any.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let mut a = doc.root_element_mut().unwrap();
    /// a.first_child_mut().unwrap().rename("c")?;
    /// assert_eq!(doc.to_xml(), "<a><c/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn first_child_mut(&mut self) -> Option<NodeMut<'_>> {
        let id = self
            .live_node()
            .and_then(|n| n.first_child())
            .map(|n| n.id());
        self.at(id)
    }

    /// A handle on the last child, if any.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/>x</a>");
    /// doc.root_element_mut().unwrap().last_child_mut().unwrap().set_text("y")?;
    /// assert_eq!(doc.to_xml(), "<a><b/>y</a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn last_child_mut(&mut self) -> Option<NodeMut<'_>> {
        let id = self
            .live_node()
            .and_then(|n| n.last_child())
            .map(|n| n.id());
        self.at(id)
    }

    /// A handle on the next sibling, if any.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let mut b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// assert_eq!(b.next_sibling_mut().unwrap().as_node().name(), "c");
    /// ```
    pub fn next_sibling_mut(&mut self) -> Option<NodeMut<'_>> {
        let id = self
            .live_node()
            .and_then(|n| n.next_sibling())
            .map(|n| n.id());
        self.at(id)
    }

    /// A handle on the previous sibling, if any.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let mut c = doc.root_element_mut().unwrap().into_last_child().unwrap();
    /// assert_eq!(c.prev_sibling_mut().unwrap().as_node().name(), "b");
    /// ```
    pub fn prev_sibling_mut(&mut self) -> Option<NodeMut<'_>> {
        let id = self
            .live_node()
            .and_then(|n| n.prev_sibling())
            .map(|n| n.id());
        self.at(id)
    }

    /// This handle, moved to the parent (`None` if there is none).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// let a = doc.node_mut(b).unwrap().into_parent().unwrap();
    /// assert_eq!(a.as_node().name(), "a");
    /// ```
    pub fn into_parent(self) -> Option<NodeMut<'a>> {
        let id = self.live_node().and_then(|n| n.parent()).map(|n| n.id());
        self.into_at(id)
    }

    /// This handle, moved to the first child (`None` if there is none).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// assert_eq!(b.as_node().name(), "b");
    /// ```
    pub fn into_first_child(self) -> Option<NodeMut<'a>> {
        let id = self
            .live_node()
            .and_then(|n| n.first_child())
            .map(|n| n.id());
        self.into_at(id)
    }

    /// This handle, moved to the last child (`None` if there is none).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let c = doc.root_element_mut().unwrap().into_last_child().unwrap();
    /// assert_eq!(c.as_node().name(), "c");
    /// ```
    pub fn into_last_child(self) -> Option<NodeMut<'a>> {
        let id = self
            .live_node()
            .and_then(|n| n.last_child())
            .map(|n| n.id());
        self.into_at(id)
    }

    /// This handle, moved to the next sibling (`None` if there is none).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// assert_eq!(b.into_next_sibling().unwrap().as_node().name(), "c");
    /// ```
    pub fn into_next_sibling(self) -> Option<NodeMut<'a>> {
        let id = self
            .live_node()
            .and_then(|n| n.next_sibling())
            .map(|n| n.id());
        self.into_at(id)
    }

    /// This handle, moved to the previous sibling (`None` if there is
    /// none).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let c = doc.root_element_mut().unwrap().into_last_child().unwrap();
    /// assert_eq!(c.into_prev_sibling().unwrap().as_node().name(), "b");
    /// ```
    pub fn into_prev_sibling(self) -> Option<NodeMut<'a>> {
        let id = self
            .live_node()
            .and_then(|n| n.prev_sibling())
            .map(|n| n.id());
        self.into_at(id)
    }

    /// Puts the node `new` (made or detached before) at `place`; on
    /// failure a node made for it is removed again.
    fn put(&mut self, new: NodeId, place: Place, made: bool) -> Result<NodeId> {
        let done = match place {
            Place::Append => self.doc.append(self.id, new),
            Place::Prepend => self.doc.prepend(self.id, new),
            Place::Before => self.doc.insert_before(self.id, new),
            Place::After => self.doc.insert_after(self.id, new),
        };
        if let Err(error) = done {
            if made {
                // Never attached: removing it cannot fail for a reason
                // worth reporting over the first.
                let _ = self.doc.remove(new);
            }
            return Err(error);
        }
        Ok(new)
    }

    fn put_mut(&mut self, new: NodeId, place: Place) -> Result<NodeMut<'_>> {
        let id = self.put(new, place, true)?;
        Ok(NodeMut {
            doc: &mut *self.doc,
            id,
        })
    }

    /// Makes a new element named `name` the last child; returns a handle
    /// on it. A prefix resolves in scope where it lands (refused if it is
    /// bound to nothing there); without one, the element takes no
    /// namespace, as [`Document::create_element`] says.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a xmlns:p='urn:p'/>");
    /// let mut a = doc.root_element_mut().unwrap();
    /// let b = a.append_element("p:b")?;
    /// assert_eq!(b.as_node().namespace(), Some("urn:p"));
    /// assert!(a.append_element("q:b").is_err()); // q is not declared
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_element(&mut self, name: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_element(name);
        self.put_mut(new, Place::Append)
    }

    /// Makes a new element named `name` in the namespace `namespace` the
    /// last child (see [`Document::create_element_ns`]); returns a handle on
    /// it.
    ///
    /// The namespace is declared once for all the elements added so: a
    /// binding of the prefix in scope is used if there is one; else the
    /// prefix is declared on the root element, when the prefix is free
    /// there (no name of the root element or of an element between uses
    /// it, and no name of the document uses it undeclared); else on the
    /// element (docs/editing.md).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let mut b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// b.append_element_ns("urn:x", "x:e")?;
    /// b.append_element_ns("urn:x", "x:e")?;
    /// let mut c = doc.root_element_mut().unwrap().into_last_child().unwrap();
    /// c.append_element_ns("urn:x", "x:e")?;
    /// assert_eq!(doc.to_xml(), "<a xmlns:x=\"urn:x\"><b><x:e/><x:e/></b><c><x:e/></c></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_element_ns(&mut self, namespace: &str, name: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_element_ns(namespace, name);
        let id = self.put(new, Place::Append, true)?;
        self.doc.declare_on_root(id);
        Ok(NodeMut {
            doc: &mut *self.doc,
            id,
        })
    }

    /// Makes a new element named `name` the first child; returns a handle
    /// on it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><c/></a>");
    /// doc.root_element_mut().unwrap().prepend_element("b")?;
    /// assert_eq!(doc.to_xml(), "<a><b/><c/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn prepend_element(&mut self, name: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_element(name);
        self.put_mut(new, Place::Prepend)
    }

    /// Makes a new element named `name` the previous sibling; returns a
    /// handle on it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><c/></a>");
    /// let mut c = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// c.insert_element_before("b")?;
    /// assert_eq!(doc.to_xml(), "<a><b/><c/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn insert_element_before(&mut self, name: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_element(name);
        self.put_mut(new, Place::Before)
    }

    /// Makes a new element named `name` the next sibling; returns a handle
    /// on it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let mut b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// b.insert_element_after("c")?;
    /// assert_eq!(doc.to_xml(), "<a><b/><c/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn insert_element_after(&mut self, name: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_element(name);
        self.put_mut(new, Place::After)
    }

    /// Makes a new text node the last child; returns a handle on it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a>x</a>");
    /// doc.root_element_mut().unwrap().append_text(" & y")?;
    /// assert_eq!(doc.to_xml(), "<a>x &amp; y</a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_text(&mut self, text: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_text(text);
        self.put_mut(new, Place::Append)
    }

    /// Makes a new text node the first child; returns a handle on it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a>y</a>");
    /// doc.root_element_mut().unwrap().prepend_text("x")?;
    /// assert_eq!(doc.to_xml(), "<a>xy</a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn prepend_text(&mut self, text: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_text(text);
        self.put_mut(new, Place::Prepend)
    }

    /// Makes a new comment the last child; returns a handle on it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().append_comment(" c ")?;
    /// assert_eq!(doc.to_xml(), "<a><!-- c --></a>");
    /// assert!(doc.root_element_mut().unwrap().append_comment("--").is_err());
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_comment(&mut self, text: &str) -> Result<NodeMut<'_>> {
        let new = self.doc.create_comment(text);
        self.put_mut(new, Place::Append)
    }

    /// Makes a new processing instruction the last child; returns a handle
    /// on it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().append_processing_instruction("pi", "data")?;
    /// assert_eq!(doc.to_xml(), "<a><?pi data?></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_processing_instruction(
        &mut self,
        target: &str,
        data: &str,
    ) -> Result<NodeMut<'_>> {
        let new = self.doc.create_processing_instruction(target, data);
        self.put_mut(new, Place::Append)
    }

    /// Makes the node `child` (detached, or elsewhere in the tree: it
    /// moves) the last child.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// doc.root_element_mut().unwrap().append(b)?;
    /// assert_eq!(doc.to_xml(), "<a><c/><b/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append(&mut self, child: NodeId) -> Result<&mut Self> {
        self.put(child, Place::Append, false)?;
        Ok(self)
    }

    /// Makes the node `child` the first child.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let c = doc.root_element().unwrap().last_child().unwrap().id();
    /// doc.root_element_mut().unwrap().prepend(c)?;
    /// assert_eq!(doc.to_xml(), "<a><c/><b/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn prepend(&mut self, child: NodeId) -> Result<&mut Self> {
        self.put(child, Place::Prepend, false)?;
        Ok(self)
    }

    /// Puts the node `node` right before this one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let c = doc.root_element().unwrap().last_child().unwrap().id();
    /// let mut b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// b.insert_before(c)?;
    /// assert_eq!(doc.to_xml(), "<a><c/><b/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn insert_before(&mut self, node: NodeId) -> Result<&mut Self> {
        self.put(node, Place::Before, false)?;
        Ok(self)
    }

    /// Puts the node `node` right after this one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/><c/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// let mut c = doc.root_element_mut().unwrap().into_last_child().unwrap();
    /// c.insert_after(b)?;
    /// assert_eq!(doc.to_xml(), "<a><c/><b/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn insert_after(&mut self, node: NodeId) -> Result<&mut Self> {
        self.put(node, Place::After, false)?;
        Ok(self)
    }

    /// Appends a detached copy of `node` of this document (see
    /// [`Document::deep_copy`]); returns a handle on the copy.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b x='1'>y</b></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap().id();
    /// doc.root_element_mut().unwrap().append_copy(b)?.set_attribute("x", "2")?;
    /// assert_eq!(doc.to_xml(), "<a><b x='1'>y</b><b x=\"2\">y</b></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_copy(&mut self, node: NodeId) -> Result<NodeMut<'_>> {
        let new = self.doc.deep_copy(node)?;
        self.put_mut(new, Place::Append)
    }

    /// Appends a copy of `node` of `other` (see [`Document::import`]);
    /// returns a handle on the copy.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let other = Document::parse("<x:b xmlns:x='urn:x'>y</x:b>");
    /// let b = other.root_element().unwrap().id();
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().append_import(&other, b)?;
    /// assert_eq!(doc.to_xml(), "<a><x:b xmlns:x=\"urn:x\">y</x:b></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_import(&mut self, other: &Document, node: NodeId) -> Result<NodeMut<'_>> {
        let new = self.doc.import(other, node)?;
        self.put_mut(new, Place::Append)
    }

    /// Sets the attribute `name` (see [`Document::set_attribute`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().set_attribute("x", "1")?.set_attribute("y", "2")?;
    /// assert_eq!(doc.to_xml(), "<a x=\"1\" y=\"2\"/>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn set_attribute(&mut self, name: &str, value: &str) -> Result<&mut Self> {
        self.doc.set_attribute(self.id, name, value)?;
        Ok(self)
    }

    /// Sets the attribute `name` in the namespace `namespace` (see
    /// [`Document::set_attribute_ns`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().set_attribute_ns("urn:x", "x:y", "1")?;
    /// assert_eq!(doc.to_xml(), "<a x:y=\"1\" xmlns:x=\"urn:x\"/>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn set_attribute_ns(
        &mut self,
        namespace: &str,
        name: &str,
        value: &str,
    ) -> Result<&mut Self> {
        self.doc.set_attribute_ns(self.id, namespace, name, value)?;
        Ok(self)
    }

    /// Removes the attribute with the qualified name `name`; returns its
    /// value, if there was one (see [`Document::remove_attribute`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a x='1'/>");
    /// let old = doc.root_element_mut().unwrap().remove_attribute("x")?;
    /// assert_eq!(old.as_deref(), Some("1"));
    /// assert_eq!(doc.to_xml(), "<a/>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn remove_attribute(&mut self, name: &str) -> Result<Option<String>> {
        self.doc.remove_attribute(self.id, name)
    }

    /// Sets the node's text (see [`Document::set_text`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a>old<b/></a>");
    /// doc.root_element_mut().unwrap().set_text("new")?;
    /// assert_eq!(doc.to_xml(), "<a>new</a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn set_text(&mut self, text: &str) -> Result<&mut Self> {
        self.doc.set_text(self.id, text)?;
        Ok(self)
    }

    /// Renames the element or PI (see [`Document::rename`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().rename("b")?;
    /// assert_eq!(doc.to_xml(), "<b/>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn rename(&mut self, name: &str) -> Result<&mut Self> {
        self.doc.rename(self.id, name)?;
        Ok(self)
    }

    /// Renames the element into the namespace `namespace` (see
    /// [`Document::rename_ns`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// doc.root_element_mut().unwrap().rename_ns("urn:x", "x:a")?;
    /// assert_eq!(doc.to_xml(), "<x:a xmlns:x=\"urn:x\"/>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn rename_ns(&mut self, namespace: &str, name: &str) -> Result<&mut Self> {
        self.doc.rename_ns(self.id, namespace, name)?;
        Ok(self)
    }

    /// Unlinks the node from its parent (see [`Document::detach`]); it can
    /// be inserted again by its id.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let mut b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// b.detach()?;
    /// assert!(b.as_node().parent().is_none());
    /// assert_eq!(doc.to_xml(), "<a></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn detach(&mut self) -> Result<&mut Self> {
        self.doc.detach(self.id)?;
        Ok(self)
    }

    /// Removes the node and its subtree (see [`Document::remove`]).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let b = doc.root_element_mut().unwrap().into_first_child().unwrap();
    /// b.remove()?;
    /// assert_eq!(doc.to_xml(), "<a></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn remove(self) -> Result<()> {
        self.doc.remove(self.id)
    }
}
