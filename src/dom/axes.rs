//! The iterators of [`Node`]'s axes, as named types: [`Children`],
//! [`Ancestors`], [`Descendants`], [`FollowingSiblings`],
//! [`PrecedingSiblings`], [`Traverse`], and [`Elements`], which keeps the
//! elements of any of them.
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
    pub(super) fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        Children {
            doc,
            inner: id.children(&doc.arena),
        }
    }
}

impl<'a> Ancestors<'a> {
    /// Without the node itself.
    pub(super) fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        let mut inner = id.ancestors(&doc.arena);
        inner.next();
        Ancestors { doc, inner }
    }
}

impl<'a> Descendants<'a> {
    /// Without the node itself.
    pub(super) fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        let mut inner = id.descendants(&doc.arena);
        inner.next();
        Descendants { doc, inner }
    }
}

impl<'a> FollowingSiblings<'a> {
    /// Without the node itself.
    pub(super) fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
        let mut inner = id.following_siblings(&doc.arena);
        inner.next();
        FollowingSiblings { doc, inner }
    }
}

impl<'a> PrecedingSiblings<'a> {
    /// Without the node itself.
    pub(super) fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
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
    pub(super) fn new(doc: &'a Document, id: indextree::NodeId) -> Self {
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
pub struct Elements<I>(pub(super) I);

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
