//! # xml5dom
//!
//! An XML5 parser: it loads any XML, however broken, the way the XML5 spec
//! says to recover, reports every parse error with its position, builds an
//! arena DOM with a complete tree API, queries it (XPath 1.0, ElementPath)
//! and writes it back out: byte for byte where nothing changed.
//!
//! The pipeline, one module per stage, each importing only the stages
//! before it:
//!
//! 1. [`decoding`]: bytes in any encoding to text;
//! 2. [`dtd`]: the DOCTYPE's internal subset: declarations, entities and
//!    their expansion;
//! 3. [`tokenizer`]: text to tokens and parse errors (XML5 §1.4);
//! 4. tree construction (XML5 §1.5) builds the arena [`dom`];
//! 5. the [`serializer`] writes it back: losslessly, with minimal diffs after
//!    edits, repaired into well-formed XML, pretty or canonical;
//! 6. [`query`]: XPath 1.0 and ElementTree's path language over the tree.
//!
//! [`Document::parse`] and its siblings (bytes, files, readers) and the push
//! [`Parser`] wire the stages together. The `xml5dom` command line is a
//! package of its own (`cli/` in the repository), so depending on this
//! crate compiles none of it.
//!
//! Edits go through [`NodeId`]s on `&mut Document` or through a mutable
//! handle ([`NodeMut`], for chained edits); subtrees are copied within a
//! document ([`Document::deep_copy`]) or between documents
//! ([`Document::import`]) with their namespaces kept, and markup is parsed
//! as an element's content ([`fragment`]). Documents are `Clone`.
//!
//! Parsing never fails: every input gives a document plus [`ParseError`]s.
//! Caller mistakes (an unreadable file, an edit that could not be written
//! back) are [`Error`]s.
//!
//! A tour: broken input in, walk, query, edit, write back.
//!
//! ```
//! use xml5dom::query::Value;
//! use xml5dom::{Document, SerializeOptions, XPath};
//!
//! // An unquoted value, a bare `&`, an element never closed.
//! let mut doc = Document::parse("<list><item id=1>fish & chips<item id='2'>peas</list>");
//! let codes: Vec<&str> = doc.errors().iter().map(|e| e.code.as_str()).collect();
//! assert_eq!(codes, ["unquoted-attribute-value", "bare-ampersand", "mismatched-end-tag"]);
//! for error in doc.errors() {
//!     println!("{}:{}: {}", error.line, error.column, error.code);
//! }
//! // An end tag that does not close the current element names the one open.
//! let context = doc.error_context(2).unwrap();
//! assert_eq!(context.open.as_ref().unwrap().name, "item");
//!
//! // Walk: the second item ended up inside the first, as XML5 recovers.
//! let list = doc.root_element().unwrap();
//! let ids: Vec<&str> = list.descendants().filter_map(|n| n.attribute("id")).collect();
//! assert_eq!(ids, ["1", "2"]);
//!
//! // Query.
//! let count = XPath::compile("count(//item)").unwrap().evaluate(doc.root()).unwrap();
//! assert_eq!(count, Value::Number(2.0));
//!
//! // Edit, then write back: repaired where the input was broken, the edit
//! // written in, the rest copied as it was.
//! let first = list.first_element_child().unwrap().id();
//! doc.set_attribute(first, "checked", "yes").unwrap();
//! assert_eq!(
//!     doc.to_xml(),
//!     "<list><item id=\"1\" checked=\"yes\">fish &amp; chips<item id='2'>peas</item></item></list>"
//! );
//!
//! // Or pretty printed, with the repairs listed.
//! let pretty = doc.serialize(&SerializeOptions { pretty: Some(2), ..Default::default() });
//! assert!(pretty.text.starts_with("<list>\n  <item"));
//! for repair in &pretty.repairs {
//!     println!("{:?} at {:?}", repair.kind, repair.offset);
//! }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod char_refs;
mod chars;
pub mod decoding;
pub mod dom;
pub mod dtd;
mod error;
pub mod events;
pub mod fragment;
mod limits;
mod notation;
mod output;
mod parse;
pub mod query;
pub mod serializer;
mod span;
#[cfg(test)]
mod test_inputs;
pub mod tokenizer;
mod tree_builder;

pub use decoding::{Encoding, EncodingSource, ParseOptions};
pub use dom::{
    undeclared_namespace, Attribute, Attributes, Document, Edge, Node, NodeId, NodeMut, NodeType,
    XmlDeclaration, UNDECLARED_NAMESPACE_BASE, XMLNS_NAMESPACE, XML_NAMESPACE,
};
pub use error::{ElementStart, Error, ErrorCode, ErrorContext, ParseError, Severity};
pub use fragment::Fragment;
pub use limits::{Limits, ENTITY_EXPANSION_FLOOR, MAX_INPUT_BYTES};
pub use parse::Parser;
pub use query::{XPath, XPathError};
pub use serializer::{
    canonicalize, canonicalize_subset, canonicalize_with, write_canonical, write_canonical_with,
    CanonicalForm, CanonicalOptions, InclusiveNamespaces, OutputEncoding, Repair, RepairKind,
    SerializeOptions, Serialized, PRETTY_DEPTH,
};
pub use span::Span;

/// Keeps the README's examples compiling and passing.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
