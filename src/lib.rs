//! # xml5dom
//!
//! An XML5 parser: it loads any XML, however broken, the way the XML5 spec
//! says to recover, reports every parse error with its position, and (in
//! later stages) builds an arena DOM that it can write back out.
//!
//! The pipeline, one module per stage:
//!
//! 1. [`decoding`]: bytes in any encoding to text ([`Document::parse_bytes`],
//!    [`Parser`] for chunks);
//! 2. [`tokenizer`]: text to tokens and parse errors (XML5 §1.4);
//! 3. tree construction ([`Document::parse`]) builds the arena [`dom`];
//! 4. the [`serializer`] writes it back: losslessly, with minimal diffs after
//!    edits, repaired into well-formed XML, pretty or canonical.
//!
//! Parsing never fails: every input gives tokens plus [`ParseError`]s.
//! Caller mistakes (an unreadable file) are [`Error`]s.
//!
//! ```
//! use xml5dom::tokenizer::{tokenize, TokenList};
//!
//! let out = tokenize("<a x=1><b>text &amp more", TokenList::default());
//! for error in out.errors() {
//!     println!("{}:{}: {}", error.line, error.column, error.code);
//! }
//! assert_eq!(out.errors().count(), 1); // `&amp` without `;`
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod decoding;
pub mod dom;
mod error;
mod limits;
mod output;
pub mod query;
pub mod serializer;
mod span;
pub mod tokenizer;
mod tree_builder;

pub use decoding::{Encoding, EncodingSource, ParseOptions, Parser};
pub use dom::{
    Attribute, Attributes, Document, Edge, Node, NodeId, NodeType, XmlDeclaration, XMLNS_NAMESPACE,
    XML_NAMESPACE,
};
pub use error::{Error, ErrorCode, ParseError, Severity};
pub use limits::{Limits, ENTITY_EXPANSION_FLOOR};
pub use serializer::{
    canonicalize, write_canonical, CanonicalForm, OutputEncoding, Repair, RepairKind,
    SerializeOptions, Serialized, PRETTY_DEPTH,
};
pub use span::Span;

/// Keeps the README's examples compiling and passing.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
