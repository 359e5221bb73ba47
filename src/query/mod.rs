//! Layer 4: queries over the DOM, XPath 1.0 ([`XPath`]) and ElementTree's
//! ElementPath ([`ElementPath`]: `find`, `findall`, `iterfind`,
//! `findtext`, also as methods on [`Node`](crate::dom::Node)).
//!
//! It reads a [`Document`](crate::dom::Document) and hands back node
//! handles ([`Node`](crate::dom::Node), [`Attribute`](crate::dom::Attribute)) that
//! the rest of the tree API, editing included, accepts by their ids.

pub mod element_path;
pub mod xpath;

pub use element_path::{ElementPath, ElementPathError};
pub use xpath::{AttributeNode, Bindings, NamespaceNode, Value, XNode, XPath, XPathError};
