//! [`DirectoryResolver`]: external references read from files inside the
//! folders it is given, and nowhere else.

use std::path::{Path, PathBuf};

use crate::external::{ExternalRequest, Refusal, Resolved, Resolver};
use crate::limits::MAX_INPUT_BYTES;

use super::location::{base_folder, last_segment, lexically_normal, target, Target};
use super::read::read_bounded;

/// Reads what a document refers to from files inside its root folders,
/// and refuses everything else: other folders (`../` escapes, absolute
/// paths, `file:///etc/passwd`, symbolic links that lead out), and every
/// URI with a scheme other than `file:` (`http:`, `https:`, `ftp:`: only a
/// catalog maps those: a `CatalogResolver` with this one as its fallback).
///
/// A system identifier is looked for
///
/// 1. resolved against the request's base (the folder of the file it was
///    read in, or of the document), and, if that is not a readable file
///    inside a root,
/// 2. in each root in turn, by its last path segment (`dtd/book.dtd` as
///    `ROOT/book.dtd`), as `xmllint --path` does.
///
/// Each candidate is made canonical (symbolic links followed, `..`
/// resolved by the file system) and must lie inside a root, as made
/// canonical when the resolver was built. What is read is a regular file
/// of at most [`max_bytes`](DirectoryResolver::max_bytes) bytes; its
/// [`Resolved::uri`] is its canonical path, the base of what it refers to.
///
/// ```
/// use xml5dom::external::{ExternalKind, ExternalRequest, Refusal, Resolver};
/// use xml5dom::resolve::DirectoryResolver;
///
/// let folder = std::env::temp_dir().join(format!("xml5dom-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&folder).unwrap();
/// std::fs::write(folder.join("book.dtd"), "<!ENTITY title 'Dune'>").unwrap();
/// let resolver = DirectoryResolver::new([&folder]);
///
/// let mut request = ExternalRequest::new(ExternalKind::Dtd, "dtd/book.dtd");
/// let found = resolver.resolve(&request).unwrap(); // by its last segment
/// assert_eq!(found.bytes, b"<!ENTITY title 'Dune'>");
///
/// request.system_id = "file:///etc/passwd";
/// assert!(matches!(resolver.resolve(&request), Err(Refusal::NotAllowed(_))));
/// request.system_id = "http://example.com/book.dtd";
/// assert!(matches!(resolver.resolve(&request), Err(Refusal::NotAllowed(_))));
/// # std::fs::remove_dir_all(&folder).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct DirectoryResolver {
    roots: Vec<PathBuf>,
    max_bytes: usize,
}

/// What became of one candidate path.
enum Candidate {
    /// A regular file inside a root, by its canonical path.
    Inside(PathBuf),
    /// Nothing there (or a folder), inside a root.
    Missing,
    /// Outside every root, whether or not it exists: the two are not told
    /// apart, so a refusal says nothing of files elsewhere.
    Outside,
    /// Inside a root, but it could not be looked at.
    Unreadable(String),
}

impl DirectoryResolver {
    /// A resolver confined to `roots`, each made canonical now. A root that
    /// does not exist or is not a folder is left out (see
    /// [`roots`](DirectoryResolver::roots)); with none, everything is
    /// refused. Files are read up to [`MAX_INPUT_BYTES`].
    pub fn new<I, P>(roots: I) -> DirectoryResolver
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let mut canonical: Vec<PathBuf> = Vec::new();
        for root in roots {
            match std::fs::canonicalize(root.as_ref()) {
                Ok(root) if root.is_dir() && !canonical.contains(&root) => canonical.push(root),
                _ => {}
            }
        }
        DirectoryResolver {
            roots: canonical,
            max_bytes: MAX_INPUT_BYTES,
        }
    }

    /// The same resolver, refusing files of more than `max_bytes` bytes
    /// (told by their size, before they are read).
    pub fn max_bytes(mut self, max_bytes: usize) -> DirectoryResolver {
        self.max_bytes = max_bytes;
        self
    }

    /// The folders it reads from, canonical: those given that exist.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    fn inside_a_root(&self, path: &Path) -> bool {
        self.roots.iter().any(|root| path.starts_with(root))
    }

    /// Where `path` is, as far as reading it goes.
    fn look_at(&self, path: &Path) -> Candidate {
        // Only where a path that cannot be made canonical would have been:
        // a `..` after a symbolic link is not followed here as the file
        // system would, so this never decides that a file may be read.
        let would_be_inside = self.inside_a_root(&lexically_normal(path));
        match std::fs::canonicalize(path) {
            Ok(canonical) if !self.inside_a_root(&canonical) => Candidate::Outside,
            Ok(canonical) if canonical.is_dir() => Candidate::Missing,
            Ok(canonical) => Candidate::Inside(canonical),
            Err(_) if !would_be_inside => Candidate::Outside,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Candidate::Missing,
            Err(error) => Candidate::Unreadable(error.to_string()),
        }
    }
}

impl Resolver for DirectoryResolver {
    fn resolve(&self, request: &ExternalRequest<'_>) -> Result<Resolved, Refusal> {
        let id = request.system_id;
        let path = match target(id) {
            Target::Local(path) => path,
            Target::Elsewhere(_) => {
                return Err(Refusal::NotAllowed(format!(
                    "{id} (only files inside the allowed folders are read)"
                )))
            }
        };
        // 1. Against the base: the folder of the file the reference was
        // read in (made canonical when it exists, so that `..` in the
        // identifier counts from where that file really is).
        let folder = request
            .base
            .and_then(base_folder)
            .map(|folder| std::fs::canonicalize(&folder).unwrap_or(folder));
        let from_base = match path.is_absolute() {
            true => Some(path.clone()),
            false => folder.as_ref().map(|folder| folder.join(&path)),
        };
        // A document outside the roots (the command line's `--dtd-path`
        // for a document elsewhere) has neighbours outside them too: not
        // finding one there is not a refusal. An absolute path outside
        // them, or one that leads out from a base inside them, is.
        let escapes = path.is_absolute()
            || folder
                .as_ref()
                .is_some_and(|folder| self.inside_a_root(&lexically_normal(folder)));
        // 2. Each root and the last segment (a link there that leads out
        // is refused).
        let in_roots: Vec<(PathBuf, bool)> = match last_segment(&path) {
            Some(name) => self.roots.iter().map(|r| (r.join(name), true)).collect(),
            None => Vec::new(),
        };
        let mut refusal = Refusal::NotFound(id.to_owned());
        let from_base = from_base.map(|candidate| (candidate, escapes));
        for (candidate, escapes) in from_base.into_iter().chain(in_roots) {
            match self.look_at(&candidate) {
                Candidate::Inside(file) => {
                    let uri = file.to_string_lossy().into_owned();
                    match read_bounded(&file, &uri, self.max_bytes) {
                        Ok(bytes) => return Ok(Resolved { uri, bytes }),
                        Err(error) => refusal = error,
                    }
                }
                Candidate::Missing => {}
                Candidate::Outside if !escapes => {}
                Candidate::Outside => {
                    if matches!(refusal, Refusal::NotFound(_)) {
                        refusal =
                            Refusal::NotAllowed(format!("{id} (outside the allowed folders)"));
                    }
                }
                Candidate::Unreadable(why) => {
                    refusal = Refusal::Unreadable(candidate.to_string_lossy().into_owned(), why)
                }
            }
        }
        Err(refusal)
    }
}
