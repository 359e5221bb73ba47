//! Layer 7: the resolvers a caller may opt into, the only code of
//! xml5dom that reads files it was not handed: [`DirectoryResolver`]
//! (files inside given folders, and nowhere else) and [`CatalogResolver`]
//! (OASIS XML Catalogs 1.1, falling back to another resolver), plus
//! [`catalog_files`] (the list of `XML_CATALOG_FILES`). Nothing here reads
//! from the network.
//!
//! A parse reads nothing beyond its input unless its options hold a
//! [`Resolver`](crate::external::Resolver); these are the ones xml5dom
//! provides. docs/resolving.md says what is read when, and how this
//! compares with lxml and xmllint.
//!
//! ```
//! use std::sync::Arc;
//! use xml5dom::resolve::DirectoryResolver;
//! use xml5dom::ParseOptions;
//!
//! let mut options = ParseOptions::default();
//! options.external.resolver = Some(Arc::new(DirectoryResolver::new(["schemas/"])));
//! options.external.load_dtd = true;
//! options.external.base = Some("schemas/book.xml".into());
//! assert!(options.external.resolves());
//! ```
//!
//! Inside: `location.rs` reads identifiers (URI references, `file:`
//! URIs, the catalog normalizations) without touching the file system;
//! `read.rs` reads one regular file under a size bound; `directory.rs` is
//! the confined resolver; `catalog_file.rs` reads one catalog into its
//! entries, and `catalog.rs` follows catalogs and looks identifiers up.

mod catalog;
mod catalog_file;
mod directory;
mod location;
mod read;

pub use catalog::{catalog_files, CatalogProblem, CatalogResolver};
pub use directory::DirectoryResolver;
