//! Queries over the tree: XPath 1.0 ([`XPath`]) and ElementTree's
//! ElementPath (`find`, `findall`, `iterfind`, `findtext`).
//!
//! This stage reads a [`Document`](crate::Document) and hands back node
//! handles ([`Node`](crate::Node), [`Attribute`](crate::Attribute)) that
//! the rest of the tree API, editing included, accepts by their ids.

pub mod xpath;

pub use xpath::{AttributeNode, Bindings, NamespaceNode, Value, XNode, XPath, XPathError};
