//! # xml5dom
//!
//! An XML5 parser: it loads any XML, however broken, the way the XML5 spec
//! says to recover, reports every parse error with its position, builds an
//! arena DOM with a complete tree API, queries it (XPath 1.0, ElementPath)
//! and writes it back out: byte for byte where nothing changed.
//!
//! ## Getting started
//!
//! Parse a broken string, read its errors, walk the tree, query it, edit
//! it, write it back:
//!
//! ```
//! use xml5dom::query::XPath;
//! use xml5dom::{Document, SerializeOptions};
//!
//! // Parsing never fails: an unquoted value, a bare `&` and an element
//! // never closed give a tree and three errors.
//! let mut doc = Document::parse("<list><item id=1>fish & chips<item id='2'>peas</list>");
//! for diagnostic in doc.diagnostics() {
//!     println!("input.xml:{diagnostic}");
//! }
//! let said: Vec<String> = doc.diagnostics().map(|d| d.to_string()).collect();
//! assert_eq!(said, [
//!     "1:16: error: unquoted-attribute-value: attribute value without quotes",
//!     "1:23: error: bare-ampersand: `&` that starts no reference; kept as text",
//!     "1:47: error: mismatched-end-tag: end tag </list> does not match the open element \
//!      <item> (line 1, column 30); <item> and 1 more element inside <list> are closed",
//! ]);
//! // Each error's code, severity, offset, line and column are fields.
//! assert_eq!(doc.errors()[1].code.as_str(), "bare-ampersand");
//!
//! // Walk: the second item ended up inside the first, as XML5 recovers.
//! let list = doc.root_element().unwrap();
//! let ids: Vec<&str> = list.descendants().filter_map(|n| n.attribute("id")).collect();
//! assert_eq!(ids, ["1", "2"]);
//! assert_eq!(list.text_content(), "fish & chipspeas");
//!
//! // Query: XPath hands back nodes of the tree, and values.
//! let items = XPath::compile("//item[@id='2']").unwrap().select(doc.root()).unwrap();
//! let peas = items[0].as_node().unwrap();
//! assert_eq!((peas.text_content(), items[0].string_value()), ("peas".into(), "peas".into()));
//! let count = XPath::compile("count(//item)").unwrap().evaluate(doc.root()).unwrap();
//! assert_eq!(count.to_number(), 2.0);
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
//!
//! Files and bytes in any encoding: [`Document::from_file`],
//! [`Document::parse_bytes`], [`Document::from_reader`], or the push
//! [`Parser`] fed chunks. Every entry point has a sibling that takes
//! [`ParseOptions`] (limits, the encoding), named with `_with`
//! ([`Document::from_file_with`], [`Document::parse_bytes_with`], ...; a
//! constructor's is `with_options`).
//!
//! Edits go through [`NodeId`]s on `&mut Document` or through a mutable
//! handle ([`NodeMut`], for chained edits); subtrees are copied within a
//! document ([`Document::deep_copy`]) or between documents
//! ([`Document::import`]) with their namespaces kept, and markup is parsed
//! as an element's content ([`fragment`]). Documents are `Clone`.
//!
//! Parsing never fails: every input gives a document plus [`ParseError`]s
//! ([`Document::diagnostics`] says them as `xml5dom check` prints them).
//! Caller mistakes (an unreadable file, an edit that could not be written
//! back) are [`Error`]s. Files too large to hold are read as [`events`]:
//! the same parse, in memory bounded by the depth and the largest token.
//!
//! ## How it is built
//!
//! The pipeline, as layers: each module imports only the layers below
//! its own (docs/architecture.md has the map). Text flows from decoding
//! through the tokenizer and tree construction into the DOM, and the
//! serializer writes it back.
//!
//! 1. the foundations, which import nothing of the crate: `chars`,
//!    `scope`, `span`, `limits`, `error`, `output`, `notation`,
//!    `test_inputs`, `uri`, [`external`] (the caller's resolver);
//! 2. [`decoding`]: bytes in any encoding to text; `char_refs`;
//! 3. [`dtd`]: the DOCTYPE's internal subset (declarations, entities and
//!    their expansion); the arena [`dom`];
//! 4. [`tokenizer`]: text to tokens and parse errors (XML5 §1.4);
//!    [`query`]: XPath 1.0 and ElementTree's path language over the DOM;
//! 5. tree construction (XML5 §1.5, the `tree_builder` module), with
//!    namespaces; the [`serializer`] writes a document back: losslessly,
//!    with minimal diffs after edits, repaired into well-formed XML,
//!    pretty or canonical;
//! 6. `parse`, the driver that wires the stages together;
//! 7. [`events`]: the pipeline without a tree; [`fragment`]: markup parsed
//!    into a document; [`resolve`]: the resolvers a caller may opt into
//!    (files in given folders, XML catalogs); `de` and `ser`: documents
//!    into Rust values and Rust values into XML through serde (with the
//!    serde feature).
//!
//! [`Document::parse`] and its siblings (bytes, files, readers) and the push
//! [`Parser`] wire the stages together; [`events`] runs them without a
//! tree. The `xml5dom` command line is a package of its own (`cli/` in the
//! repository), so depending on this crate compiles none of it.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod char_refs;
mod chars;
#[cfg(feature = "serde")]
pub mod de;
pub mod decoding;
pub mod dom;
pub mod dtd;
mod error;
pub mod events;
pub mod external;
pub mod fragment;
mod limits;
mod notation;
mod output;
mod parse;
pub mod query;
pub mod resolve;
mod scope;
#[cfg(feature = "serde")]
pub mod ser;
pub mod serializer;
mod span;
#[cfg(test)]
mod test_inputs;
pub mod tokenizer;
mod tree_builder;
mod uri;

pub use decoding::{Encoding, EncodingSource, ParseOptions};
pub use dom::{
    undeclared_namespace, well_known_namespace, Attribute, Attributes, Document, Edge, Node,
    NodeId, NodeMut, NodeType, SharedText, XmlDeclaration, UNDECLARED_NAMESPACE_BASE,
    WELL_KNOWN_NAMESPACES, XMLNS_NAMESPACE, XML_NAMESPACE,
};
pub use error::{
    Diagnostic, ElementStart, Error, ErrorCode, ErrorContext, ExternalPosition, ParseError,
    Severity,
};
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
