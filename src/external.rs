//! Layer 1: what a document refers to outside itself (an external DTD
//! subset, external parameter and general entities) and the caller's
//! [`Resolver`], which alone may turn such a reference into bytes.
//!
//! xml5dom reads nothing the caller did not give it: without a resolver in
//! the parse options, external references are reported and left as they
//! are. A resolver is the caller's opt-in, and it decides what may be read;
//! the ones xml5dom provides (the `resolve` module) read local files only,
//! never the network: those in the folders they are given, and those a
//! catalog the caller names maps to. A leaf: it names nothing of the
//! crate.

use std::fmt;
use std::sync::Arc;

/// What an external reference asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExternalKind {
    /// The external DTD subset of `<!DOCTYPE name SYSTEM "...">` (read only
    /// when [`External::load_dtd`] is set).
    Dtd,
    /// An external parameter entity (`<!ENTITY % name SYSTEM "...">`),
    /// referred to from a DTD.
    ParameterEntity,
    /// An external parsed general entity (`<!ENTITY name SYSTEM "...">`),
    /// referred to in content.
    GeneralEntity,
}

/// One external reference to resolve.
///
/// ```
/// use xml5dom::external::{ExternalKind, ExternalRequest};
/// let request = ExternalRequest::new(ExternalKind::Dtd, "book.dtd");
/// assert_eq!(request.system_id, "book.dtd");
/// assert_eq!((request.public_id, request.base, request.name), (None, None, None));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExternalRequest<'a> {
    /// What it is.
    pub kind: ExternalKind,
    /// The entity's name (`None` for the DTD subset).
    pub name: Option<&'a str>,
    /// The public identifier, if one was given.
    pub public_id: Option<&'a str>,
    /// The system identifier, as written (a URI reference, often a
    /// relative path).
    pub system_id: &'a str,
    /// Where a relative system identifier is resolved from: the URI of the
    /// file the reference was read in (a [`Resolved::uri`]), or the
    /// document's [`External::base`]; `None` when neither is known.
    pub base: Option<&'a str>,
}

impl<'a> ExternalRequest<'a> {
    /// A request for `system_id`, with no public identifier, name or base.
    pub fn new(kind: ExternalKind, system_id: &'a str) -> ExternalRequest<'a> {
        ExternalRequest {
            kind,
            name: None,
            public_id: None,
            system_id,
            base: None,
        }
    }
}

/// What a resolver read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Where it was read from: the base of the references inside it, and
    /// the name its errors are reported with.
    pub uri: String,
    /// Its bytes, in any encoding (a text declaration may say which).
    pub bytes: Vec<u8>,
}

/// Why a resolver did not read a reference.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// Nothing is there (the file does not exist, no catalog entry).
    #[error("not found: {0}")]
    NotFound(String),
    /// It is outside what the resolver may read (another folder, the
    /// network).
    #[error("not allowed: {0}")]
    NotAllowed(String),
    /// Reading it failed.
    #[error("could not read {0}: {1}")]
    Unreadable(String, String),
}

/// Turns external references into bytes, or refuses. Given in
/// [`External::resolver`], it is asked for each external reference a parse
/// meets, and it alone decides what may be read.
///
/// ```
/// use xml5dom::external::{ExternalKind, ExternalRequest, Refusal, Resolved, Resolver};
///
/// /// Serves one entity from memory.
/// #[derive(Debug)]
/// struct Memory;
/// impl Resolver for Memory {
///     fn resolve(&self, request: &ExternalRequest<'_>) -> Result<Resolved, Refusal> {
///         match request.system_id {
///             "chapter.xml" => Ok(Resolved { uri: "mem:chapter.xml".into(), bytes: b"<p>Hi</p>".to_vec() }),
///             other => Err(Refusal::NotFound(other.into())),
///         }
///     }
/// }
///
/// let found = Memory.resolve(&ExternalRequest::new(ExternalKind::GeneralEntity, "chapter.xml"));
/// assert_eq!(found.unwrap().bytes, b"<p>Hi</p>");
/// let missing = Memory.resolve(&ExternalRequest::new(ExternalKind::Dtd, "x.dtd"));
/// assert_eq!(missing.unwrap_err().to_string(), "not found: x.dtd");
/// ```
pub trait Resolver: fmt::Debug + Send + Sync {
    /// The bytes `request` refers to, or why not.
    fn resolve(&self, request: &ExternalRequest<'_>) -> Result<Resolved, Refusal>;
}

/// A shared resolver resolves as the one it shares.
impl<R: Resolver + ?Sized> Resolver for Arc<R> {
    fn resolve(&self, request: &ExternalRequest<'_>) -> Result<Resolved, Refusal> {
        (**self).resolve(request)
    }
}

/// What a parse may read beyond its input (part of the parse options,
/// `ParseOptions::external`). The default reads nothing.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct External {
    /// The resolver asked for external entities; `None` (the default): no
    /// external reference is read.
    pub resolver: Option<Arc<dyn Resolver>>,
    /// Also read the external DTD subset, for its entities and default
    /// attributes (as `xmllint --loaddtd`, lxml's `load_dtd`). Needs a
    /// resolver.
    pub load_dtd: bool,
    /// The document's own URI or path: the base of its relative system
    /// identifiers. `Document::from_file` sets it to the file's path when
    /// it is not set.
    pub base: Option<String>,
}

impl External {
    /// Whether anything external may be read.
    pub fn resolves(&self) -> bool {
        self.resolver.is_some()
    }
}
