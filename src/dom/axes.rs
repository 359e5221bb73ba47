//! The iterators of [`Node`]'s axes, as named types: [`Children`],
//! [`Ancestors`], [`Descendants`], [`FollowingSiblings`],
//! [`PrecedingSiblings`], [`Traverse`], and [`Elements`], which keeps the
//! elements of any of them; and the methods of [`Node`] that make them,
//! here rather than in `node.rs` so that the node names its iterators
//! nowhere and the iterators, which hand out nodes, can name it.
//!
//! Each wraps the arena's own iterator (no allocation, no recursion: the
//! arena's links are followed one step per item) and hands out [`Node`]
//! handles. A caller can store them in a struct or name them in a
//! signature, which an `impl Iterator` would not allow.

use std::iter::FusedIterator;

use super::{Document, Edge, Node, NodeData};

/// Turns an arena iterator over ids into one over [`Node`]s of `doc`.
macro_rules! node_iterator {
    ($(#[$doc:meta])* $name:ident, $inner:ident) => {
        $(#[$doc])*
        pub struct $name<'a> {
            doc: &'a Document,
            inner: indextree::$inner<'a, NodeData>,
        }

        impl<'a> Iterator for $name<'a> {
            type Item = Node<'a>;

            #[inline]
            fn next(&mut self) -> Option<Node<'a>> {
                self.inner.next().map(|id| Node::new(self.doc, id))
            }
        }

        impl FusedIterator for $name<'_> {}
    };
}

node_iterator!(
    /// The children of a node, in order: [`Node::children`].
    Children,
    Children
);
node_iterator!(
    /// The ancestors of a node, nearest first: [`Node::ancestors`].
    Ancestors,
    Ancestors
);
node_iterator!(
    /// The descendants of a node in document order: [`Node::descendants`].
    Descendants,
    Descendants
);
node_iterator!(
    /// The siblings after a node, nearest first:
    /// [`Node::following_siblings`].
    FollowingSiblings,
    FollowingSiblings
);
node_iterator!(
    /// The siblings before a node, nearest first:
    /// [`Node::preceding_siblings`].
    PrecedingSiblings,
    PrecedingSiblings
);

impl DoubleEndedIterator for Children<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|id| Node::new(self.doc, id))
    }
}

impl<'a> Children<'a> {
    fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        Children {
            doc,
            inner: id.children(&doc.arena),
        }
    }
}

impl<'a> Ancestors<'a> {
    /// Without the node itself.
    fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        let mut inner = id.ancestors(&doc.arena);
        inner.next();
        Ancestors { doc, inner }
    }
}

impl<'a> Descendants<'a> {
    /// Without the node itself.
    fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        let mut inner = id.descendants(&doc.arena);
        inner.next();
        Descendants { doc, inner }
    }
}

impl<'a> FollowingSiblings<'a> {
    /// Without the node itself.
    fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        let mut inner = id.following_siblings(&doc.arena);
        inner.next();
        FollowingSiblings { doc, inner }
    }
}

impl<'a> PrecedingSiblings<'a> {
    /// Without the node itself.
    fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        let mut inner = id.preceding_siblings(&doc.arena);
        inner.next();
        PrecedingSiblings { doc, inner }
    }
}

/// A subtree as open and close edges, in document order: [`Node::traverse`].
pub struct Traverse<'a> {
    doc: &'a Document,
    inner: indextree::Traverse<'a, NodeData>,
}

impl<'a> Traverse<'a> {
    fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        Traverse {
            doc,
            inner: id.traverse(&doc.arena),
        }
    }
}

impl<'a> Iterator for Traverse<'a> {
    type Item = Edge<'a>;

    #[inline]
    fn next(&mut self) -> Option<Edge<'a>> {
        self.inner.next().map(|edge| match edge {
            indextree::NodeEdge::Start(id) => Edge::Open(Node::new(self.doc, id)),
            indextree::NodeEdge::End(id) => Edge::Close(Node::new(self.doc, id)),
        })
    }
}

impl FusedIterator for Traverse<'_> {}

/// The elements among the nodes of another axis: [`Node::child_elements`],
/// [`Node::descendant_elements`] and the other `*_elements` methods.
#[derive(Clone)]
pub struct Elements<I>(I);

impl<'a, I: Iterator<Item = Node<'a>>> Iterator for Elements<I> {
    type Item = Node<'a>;

    #[inline]
    fn next(&mut self) -> Option<Node<'a>> {
        self.0.find(Node::is_element)
    }
}

impl<'a, I: DoubleEndedIterator<Item = Node<'a>>> DoubleEndedIterator for Elements<I> {
    #[inline]
    fn next_back(&mut self) -> Option<Node<'a>> {
        self.0.rfind(Node::is_element)
    }
}

impl<'a, I: FusedIterator<Item = Node<'a>>> FusedIterator for Elements<I> {}

/// The axes of a node.
impl<'a> Node<'a> {
    /// The children, in order.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t<c/></a>");
    /// let n: Vec<_> = doc.root_element().unwrap().children().map(|c| c.name()).collect();
    /// assert_eq!(n, ["b", "", "c"]);
    /// ```
    pub fn children(&self) -> Children<'a> {
        Children::new(self.document(), self.id().0)
    }

    /// The ancestors, nearest first (the document last); not the node
    /// itself.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b><c/></b></a>");
    /// let c = doc.root_element().unwrap().descendants().last().unwrap();
    /// let n: Vec<_> = c.ancestors().map(|x| x.name()).collect();
    /// assert_eq!(n, ["b", "a", ""]);
    /// ```
    pub fn ancestors(&self) -> Ancestors<'a> {
        Ancestors::new(self.document(), self.id().0)
    }

    /// The descendants in document order; not the node itself.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b><c/></b><d/></a>");
    /// let n: Vec<_> = doc.root_element().unwrap().descendants().map(|x| x.name()).collect();
    /// assert_eq!(n, ["b", "c", "d"]);
    /// ```
    pub fn descendants(&self) -> Descendants<'a> {
        Descendants::new(self.document(), self.id().0)
    }

    /// The siblings after this node, nearest first.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t<c/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// let n: Vec<_> = b.following_siblings().map(|x| x.name()).collect();
    /// assert_eq!(n, ["", "c"]);
    /// ```
    pub fn following_siblings(&self) -> FollowingSiblings<'a> {
        FollowingSiblings::new(self.document(), self.id().0)
    }

    /// The siblings before this node, nearest first.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t<c/></a>");
    /// let c = doc.root_element().unwrap().last_child().unwrap();
    /// let n: Vec<_> = c.preceding_siblings().map(|x| x.name()).collect();
    /// assert_eq!(n, ["", "b"]);
    /// ```
    pub fn preceding_siblings(&self) -> PrecedingSiblings<'a> {
        PrecedingSiblings::new(self.document(), self.id().0)
    }

    /// The subtree as open and close edges, in document order, starting with
    /// `Open(self)` and ending with `Close(self)`.
    ///
    /// ```
    /// use xml5dom::{Document, Edge};
    /// let doc = Document::parse("<a><b/></a>");
    /// let edges: Vec<String> = doc.root_element().unwrap().traverse().map(|e| match e {
    ///     Edge::Open(n) => format!("<{}>", n.name()),
    ///     Edge::Close(n) => format!("</{}>", n.name()),
    /// }).collect();
    /// assert_eq!(edges.concat(), "<a><b></b></a>");
    /// ```
    pub fn traverse(&self) -> Traverse<'a> {
        Traverse::new(self.document(), self.id().0)
    }

    /// The element children.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t<!--c--><d/></a>");
    /// let n: Vec<_> = doc.root_element().unwrap().child_elements().map(|x| x.name()).collect();
    /// assert_eq!(n, ["b", "d"]);
    /// ```
    pub fn child_elements(&self) -> Elements<Children<'a>> {
        Elements(self.children())
    }

    /// The element ancestors, nearest first.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b>t</b></a>");
    /// let t = doc.root_element().unwrap().descendants().last().unwrap();
    /// let n: Vec<_> = t.ancestor_elements().map(|x| x.name()).collect();
    /// assert_eq!(n, ["b", "a"]);
    /// ```
    pub fn ancestor_elements(&self) -> Elements<Ancestors<'a>> {
        Elements(self.ancestors())
    }

    /// The element descendants, in document order.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b>t<c/></b><!--x--><d/></a>");
    /// let n: Vec<_> = doc.root_element().unwrap().descendant_elements().map(|x| x.name()).collect();
    /// assert_eq!(n, ["b", "c", "d"]);
    /// ```
    pub fn descendant_elements(&self) -> Elements<Descendants<'a>> {
        Elements(self.descendants())
    }

    /// The element siblings after this node, nearest first.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t<c/><d/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// let n: Vec<_> = b.following_sibling_elements().map(|x| x.name()).collect();
    /// assert_eq!(n, ["c", "d"]);
    /// ```
    pub fn following_sibling_elements(&self) -> Elements<FollowingSiblings<'a>> {
        Elements(self.following_siblings())
    }

    /// The element siblings before this node, nearest first.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/><c/>t<d/></a>");
    /// let d = doc.root_element().unwrap().last_child().unwrap();
    /// let n: Vec<_> = d.preceding_sibling_elements().map(|x| x.name()).collect();
    /// assert_eq!(n, ["c", "b"]);
    /// ```
    pub fn preceding_sibling_elements(&self) -> Elements<PrecedingSiblings<'a>> {
        Elements(self.preceding_siblings())
    }
}
