//! [`CatalogResolver`]: external identifiers mapped to local files by
//! OASIS XML Catalogs 1.1, in the order of its §7; and [`catalog_files`],
//! the catalog list of `XML_CATALOG_FILES` read as libxml2 reads it.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::external::{ExternalRequest, Refusal, Resolved, Resolver};
use crate::limits::MAX_INPUT_BYTES;

use super::catalog_file::{parse_catalog, Entry, Kind};
use super::location::{file_uri, normalize_public, normalize_system, target, unwrap_urn, Target};
use super::read::read_bounded;

/// Maps external identifiers to local files by OASIS XML Catalogs 1.1
/// catalogs, and reads the file a catalog names. A request no catalog
/// maps goes to the fallback resolver, if there is one
/// ([`with_fallback`](CatalogResolver::with_fallback)), and is otherwise
/// [`Refusal::NotFound`].
///
/// The catalog files are the ones the caller names and those they name
/// (`nextCatalog`, `delegatePublic`, `delegateSystem`, `delegateURI`,
/// relative to the catalog that names them), all read and parsed by
/// xml5dom when the resolver is built, each once, however often it is
/// named (so a loop of `nextCatalog`s ends). They are local files: a
/// catalog named by an `http:` URI is not read. A catalog that is not
/// well-formed is used as far as it reads; what was wrong is in
/// [`problems`](CatalogResolver::problems), never an error.
///
/// Entries: `public`, `system`, `rewriteSystem`, `systemSuffix`,
/// `delegatePublic`, `delegateSystem`, `uri`, `rewriteURI`, `uriSuffix`,
/// `delegateURI`, `nextCatalog`, in `group`s, with `prefer` and
/// `xml:base`. An external identifier is looked up as §7.1 says (system
/// entries, the longest `rewriteSystem`, the longest `systemSuffix`,
/// `delegateSystem`, then public entries as `prefer` allows,
/// `delegatePublic`, then the `nextCatalog`s in order, catalog by catalog),
/// `urn:publicid:` identifiers unwrapped (§6.4); one that maps to nothing
/// is then looked up as a URI (§7.2), as libxml2 does.
///
/// What a catalog maps an identifier to is read whatever folder it is in
/// (the catalog's author chose it), if it is a local file: a mapping to
/// `http:` or any scheme but `file:` is [`Refusal::NotAllowed`]. Nothing is
/// ever read from the network.
///
/// ```
/// use xml5dom::external::{ExternalKind, ExternalRequest, Resolver};
/// use xml5dom::resolve::CatalogResolver;
///
/// let folder = std::env::temp_dir().join(format!("xml5dom-catalog-doc-{}", std::process::id()));
/// std::fs::create_dir_all(folder.join("dtd")).unwrap();
/// std::fs::write(folder.join("dtd/book.dtd"), "<!ENTITY title 'Dune'>").unwrap();
/// std::fs::write(folder.join("catalog.xml"), r#"
///   <catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
///     <public publicId="-//Example//DTD Book//EN" uri="dtd/book.dtd"/>
///   </catalog>"#).unwrap();
/// let catalog = CatalogResolver::from_files([folder.join("catalog.xml")]);
///
/// let mut request = ExternalRequest::new(ExternalKind::Dtd, "http://example.com/book.dtd");
/// request.public_id = Some("-//Example//DTD Book//EN");
/// assert_eq!(catalog.resolve(&request).unwrap().bytes, b"<!ENTITY title 'Dune'>");
/// # std::fs::remove_dir_all(&folder).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct CatalogResolver {
    catalogs: Arc<Catalogs>,
    fallback: Option<Arc<dyn Resolver>>,
    max_bytes: usize,
}

/// Something wrong with a catalog file: it could not be read, it is not
/// well-formed, an entry lacks an attribute, it names a catalog that is
/// not read. The catalog is used as far as it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CatalogProblem {
    /// The catalog file.
    pub catalog: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CatalogProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.catalog.display(), self.message)
    }
}

/// Every catalog file read, by number.
#[derive(Debug, Default)]
struct Catalogs {
    /// Each catalog's entries.
    entries: Vec<Vec<Entry>>,
    /// Each catalog's `nextCatalog`s, those that were read.
    next: Vec<Vec<usize>>,
    /// The catalogs read, by the absolute URI entries name them with.
    by_uri: HashMap<String, usize>,
    /// The catalogs the caller named, in order.
    top: Vec<usize>,
    problems: Vec<CatalogProblem>,
}

/// The catalog files met while loading: each canonical path numbered
/// once, and those still to read.
#[derive(Default)]
struct Files {
    paths: Vec<PathBuf>,
    numbers: HashMap<PathBuf, usize>,
    queue: VecDeque<usize>,
}

/// What a lookup asks for (§7.1.1, §7.2.1), normalized.
#[derive(Clone, Debug)]
enum Request {
    /// An external identifier.
    External {
        public: Option<String>,
        system: Option<String>,
    },
    /// A URI reference.
    Uri(String),
}

/// What one catalog says to a request.
enum Step {
    Found(String),
    /// Ask only these catalogs, and only this (§7.1.2 steps 5 and 7, §7.2.2
    /// step 5).
    Delegate(Vec<usize>, Request),
    /// Nothing here: go on with its `nextCatalog`s, then the other
    /// catalogs of the list.
    Next,
}

impl Catalogs {
    /// Reads `paths` and every catalog they lead to, each once.
    fn load(paths: &[PathBuf]) -> Catalogs {
        let mut catalogs = Catalogs::default();
        let mut files = Files::default();
        for path in paths {
            match catalogs.number(&mut files, path, path) {
                Some(number) if !catalogs.top.contains(&number) => catalogs.top.push(number),
                _ => {}
            }
        }
        while let Some(number) = files.queue.pop_front() {
            let path = files.paths[number].clone();
            let name = path.to_string_lossy().into_owned();
            let file = match read_bounded(&path, &name, MAX_INPUT_BYTES) {
                Ok(bytes) => parse_catalog(bytes, &file_uri(&path)),
                Err(refusal) => {
                    catalogs.problem(&path, refusal.to_string());
                    Default::default()
                }
            };
            for message in file.problems {
                catalogs.problem(&path, message);
            }
            let delegates = file.entries.iter().filter(|entry| {
                matches!(
                    entry.kind,
                    Kind::DelegatePublic | Kind::DelegateSystem | Kind::DelegateUri
                )
            });
            let referred: Vec<String> = delegates
                .map(|entry| entry.target.clone())
                .chain(file.next.iter().cloned())
                .collect();
            for uri in referred {
                if catalogs.by_uri.contains_key(&uri) {
                    continue;
                }
                match target(&uri) {
                    Target::Local(local) if local.is_absolute() => {
                        if let Some(found) = catalogs.number(&mut files, &local, &path) {
                            catalogs.by_uri.insert(uri, found);
                        }
                    }
                    _ => catalogs.problem(
                        &path,
                        format!("{uri} is not read (catalogs are local files)"),
                    ),
                }
            }
            let next = file
                .next
                .iter()
                .filter_map(|uri| catalogs.by_uri.get(uri).copied())
                .collect();
            catalogs.entries[number] = file.entries;
            catalogs.next[number] = next;
        }
        catalogs
    }

    /// The number of the catalog at `path` (named in `by`), given one and
    /// queued to be read if it is new; `None` if it cannot be found.
    fn number(&mut self, files: &mut Files, path: &Path, by: &Path) -> Option<usize> {
        let canonical = match std::fs::canonicalize(path) {
            Ok(canonical) => canonical,
            Err(error) => {
                let message = match path == by {
                    true => format!("cannot read it: {error}"),
                    false => format!("cannot read the catalog {}: {error}", path.display()),
                };
                self.problem(by, message);
                return None;
            }
        };
        if let Some(&known) = files.numbers.get(&canonical) {
            return Some(known);
        }
        let number = files.paths.len();
        files.paths.push(canonical.clone());
        files.numbers.insert(canonical, number);
        files.queue.push_back(number);
        self.entries.push(Vec::new());
        self.next.push(Vec::new());
        Some(number)
    }

    fn problem(&mut self, catalog: &Path, message: String) {
        self.problems.push(CatalogProblem {
            catalog: catalog.to_path_buf(),
            message,
        });
    }

    /// The catalogs `uris` name that were read, in order.
    fn numbered<'a>(&self, uris: impl Iterator<Item = &'a str>) -> Vec<usize> {
        uris.filter_map(|uri| self.by_uri.get(uri).copied())
            .collect()
    }

    /// The answer to `request`, asking the catalogs of `list` in order,
    /// each followed by its `nextCatalog`s (§7.1.2 steps 8 and 9), each
    /// once.
    fn walk(&self, mut list: Vec<usize>, mut request: Request) -> Option<String> {
        // A delegation narrows the request, after which the same catalog
        // delegates to the same list: more delegations than twice the
        // catalogs are a loop.
        let mut delegations_left = 2 * self.entries.len() + 2;
        loop {
            let mut seen = vec![false; self.entries.len()];
            let mut stack: Vec<usize> = list.iter().rev().copied().collect();
            let mut delegated = None;
            while let Some(number) = stack.pop() {
                if std::mem::replace(&mut seen[number], true) {
                    continue;
                }
                match self.step(number, &request) {
                    Step::Found(uri) => return Some(uri),
                    Step::Delegate(catalogs, narrowed) => {
                        delegated = Some((catalogs, narrowed));
                        break;
                    }
                    Step::Next => stack.extend(self.next[number].iter().rev()),
                }
            }
            let (catalogs, narrowed) = delegated?;
            if delegations_left == 0 {
                return None;
            }
            delegations_left -= 1;
            list = catalogs;
            request = narrowed;
        }
    }

    /// What catalog `number` says to `request`: §7.1.2 steps 2 to 7 for an
    /// external identifier, §7.2.2 steps 2 to 5 for a URI.
    fn step(&self, number: usize, request: &Request) -> Step {
        let entries = &self.entries[number];
        let of = |kind: Kind| entries.iter().filter(move |entry| entry.kind == kind);
        match request {
            Request::External { public, system } => {
                if let Some(system) = system {
                    if let Some(step) = self.mapped(of, system, Kind::System, Kind::RewriteSystem) {
                        return step;
                    }
                    if let Some(entry) =
                        longest(of(Kind::SystemSuffix), |key| system.ends_with(key))
                    {
                        return Step::Found(entry.target.clone());
                    }
                    let delegates =
                        by_longest(of(Kind::DelegateSystem), |key| system.starts_with(key));
                    if !delegates.is_empty() {
                        let only_system = Request::External {
                            public: None,
                            system: Some(system.clone()),
                        };
                        return Step::Delegate(self.numbered(delegates.into_iter()), only_system);
                    }
                }
                if let Some(public) = public {
                    // With a system identifier too, only entries where
                    // `prefer="public"` (§4.1.1).
                    let usable = |entry: &&Entry| system.is_none() || entry.prefer_public;
                    if let Some(entry) = of(Kind::Public)
                        .filter(usable)
                        .find(|entry| entry.key == *public)
                    {
                        return Step::Found(entry.target.clone());
                    }
                    let delegates = by_longest(of(Kind::DelegatePublic).filter(usable), |key| {
                        public.starts_with(key)
                    });
                    if !delegates.is_empty() {
                        let only_public = Request::External {
                            public: Some(public.clone()),
                            system: None,
                        };
                        return Step::Delegate(self.numbered(delegates.into_iter()), only_public);
                    }
                }
                Step::Next
            }
            Request::Uri(uri) => {
                if let Some(step) = self.mapped(of, uri, Kind::Uri, Kind::RewriteUri) {
                    return step;
                }
                if let Some(entry) = longest(of(Kind::UriSuffix), |key| uri.ends_with(key)) {
                    return Step::Found(entry.target.clone());
                }
                let delegates = by_longest(of(Kind::DelegateUri), |key| uri.starts_with(key));
                match delegates.is_empty() {
                    true => Step::Next,
                    false => Step::Delegate(
                        self.numbered(delegates.into_iter()),
                        Request::Uri(uri.clone()),
                    ),
                }
            }
        }
    }

    /// The first entry of kind `exact` for `id`, else the longest `rewrite`
    /// prefix replaced.
    fn mapped<'a, I>(
        &self,
        of: impl Fn(Kind) -> I,
        id: &str,
        exact: Kind,
        rewrite: Kind,
    ) -> Option<Step>
    where
        I: Iterator<Item = &'a Entry>,
    {
        if let Some(entry) = of(exact).find(|entry| entry.key == id) {
            return Some(Step::Found(entry.target.clone()));
        }
        let entry = longest(of(rewrite), |key| id.starts_with(key))?;
        Some(Step::Found(format!(
            "{}{}",
            entry.target,
            &id[entry.key.len()..]
        )))
    }
}

/// The entry whose key `matches` and is longest; the first of those
/// equally long.
fn longest<'a>(
    entries: impl Iterator<Item = &'a Entry>,
    matches: impl Fn(&str) -> bool,
) -> Option<&'a Entry> {
    let mut best: Option<&Entry> = None;
    for entry in entries.filter(|entry| matches(&entry.key)) {
        if best.is_none_or(|best| entry.key.len() > best.key.len()) {
            best = Some(entry);
        }
    }
    best
}

/// The catalogs of the entries whose key `matches`, the longest key first
/// (§7.1.2 step 5), in document order among equals.
fn by_longest<'a>(
    entries: impl Iterator<Item = &'a Entry>,
    matches: impl Fn(&str) -> bool,
) -> Vec<&'a str> {
    let mut found: Vec<&Entry> = entries.filter(|entry| matches(&entry.key)).collect();
    found.sort_by_key(|entry| std::cmp::Reverse(entry.key.len()));
    found.iter().map(|entry| entry.target.as_str()).collect()
}

impl CatalogResolver {
    /// A resolver of the catalogs in `paths` (in the order they are asked),
    /// read now with every catalog they name. Never fails: a catalog that
    /// cannot be read counts as empty, and says so in
    /// [`problems`](CatalogResolver::problems).
    pub fn from_files<I, P>(paths: I) -> CatalogResolver
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let paths: Vec<PathBuf> = paths.into_iter().map(|p| p.as_ref().to_owned()).collect();
        CatalogResolver {
            catalogs: Arc::new(Catalogs::load(&paths)),
            fallback: None,
            max_bytes: MAX_INPUT_BYTES,
        }
    }

    /// The same catalogs, with `fallback` asked for what they do not map
    /// (a [`DirectoryResolver`](super::DirectoryResolver), typically). The
    /// catalogs are shared, not read again.
    pub fn with_fallback<R: Resolver + 'static>(mut self, fallback: R) -> CatalogResolver {
        self.fallback = Some(Arc::new(fallback));
        self
    }

    /// The same resolver, refusing files of more than `max_bytes` bytes
    /// that a catalog maps to (told by their size, before they are read).
    /// Catalog files themselves are read up to [`MAX_INPUT_BYTES`].
    pub fn max_bytes(mut self, max_bytes: usize) -> CatalogResolver {
        self.max_bytes = max_bytes;
        self
    }

    /// What was wrong with the catalogs, in the order they were read.
    pub fn problems(&self) -> &[CatalogProblem] {
        &self.catalogs.problems
    }

    /// The URI the catalogs map an external identifier to (§7.1), without
    /// reading it: what `xmlcatalog CATALOG ID` prints.
    ///
    /// ```
    /// # let folder = std::env::temp_dir().join(format!("xml5dom-lookup-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&folder).unwrap();
    /// # let path = folder.join("catalog.xml");
    /// std::fs::write(&path, r#"
    ///   <catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
    ///     <rewriteSystem systemIdStartString="http://example.com/dtd/" rewritePrefix="/usr/share/dtd/"/>
    ///   </catalog>"#).unwrap();
    /// let catalog = xml5dom::resolve::CatalogResolver::from_files([&path]);
    /// assert_eq!(
    ///     catalog.lookup(None, Some("http://example.com/dtd/book.dtd")).as_deref(),
    ///     Some("file:///usr/share/dtd/book.dtd")
    /// );
    /// assert_eq!(catalog.lookup(Some("-//Unknown//EN"), None), None);
    /// # std::fs::remove_dir_all(&folder).unwrap();
    /// ```
    pub fn lookup(&self, public_id: Option<&str>, system_id: Option<&str>) -> Option<String> {
        // §7.1.1: a `urn:publicid:` system identifier is a public one (the
        // public identifier given wins if they differ).
        let mut public = public_id.map(|id| unwrap_urn(id).unwrap_or_else(|| id.to_owned()));
        let mut system = system_id.map(str::to_owned);
        if let Some(unwrapped) = system_id.and_then(unwrap_urn) {
            public.get_or_insert(unwrapped);
            system = None;
        }
        let request = Request::External {
            public: public.map(|id| normalize_public(&id)),
            system: system.map(|id| normalize_system(&id)),
        };
        self.catalogs.walk(self.catalogs.top.clone(), request)
    }

    /// The URI the catalogs map a URI reference to (§7.2: `uri`,
    /// `rewriteURI`, `uriSuffix`, `delegateURI`; a `urn:publicid:` URN as
    /// the public identifier it wraps), without reading it.
    pub fn lookup_uri(&self, uri: &str) -> Option<String> {
        let request = match unwrap_urn(uri) {
            Some(public) => Request::External {
                public: Some(normalize_public(&public)),
                system: None,
            },
            None => Request::Uri(normalize_system(uri)),
        };
        self.catalogs.walk(self.catalogs.top.clone(), request)
    }

    /// Reads `uri`, which a catalog mapped `id` to.
    fn read_mapped(&self, id: &str, uri: &str) -> Result<Resolved, Refusal> {
        let path = match target(uri) {
            Target::Local(path) if path.is_absolute() => path,
            _ => {
                return Err(Refusal::NotAllowed(format!(
                "{uri}, where a catalog maps {id} (only local files are read, never the network)"
            )))
            }
        };
        let canonical = std::fs::canonicalize(&path).map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => {
                Refusal::NotFound(format!("{uri}, where a catalog maps {id}"))
            }
            _ => Refusal::Unreadable(uri.to_owned(), error.to_string()),
        })?;
        let name = canonical.to_string_lossy().into_owned();
        let bytes = read_bounded(&canonical, &name, self.max_bytes)?;
        Ok(Resolved { uri: name, bytes })
    }
}

impl Resolver for CatalogResolver {
    fn resolve(&self, request: &ExternalRequest<'_>) -> Result<Resolved, Refusal> {
        let id = request.system_id;
        let system = (!id.is_empty()).then_some(id);
        let mapped = self
            .lookup(request.public_id, system)
            .or_else(|| system.and_then(|id| self.lookup_uri(id)));
        match (mapped, &self.fallback) {
            (Some(uri), _) => self.read_mapped(id, &uri),
            (None, Some(fallback)) => fallback.resolve(request),
            (None, None) => Err(Refusal::NotFound(format!("{id} (in no catalog)"))),
        }
    }
}

/// The catalog files of `XML_CATALOG_FILES`' value, as libxml2 reads it:
/// paths or `file:` URIs, separated by white space. Entries with another
/// scheme (`http:`) are left out: no catalog is read from the network.
/// (Unlike libxml2, nothing stands for an unset variable: no
/// `/etc/xml/catalog` is read unless named.)
///
/// ```
/// use std::path::PathBuf;
/// let files = xml5dom::resolve::catalog_files(" /etc/xml/docbook.xml\tfile:///opt/my%20catalog.xml http://x/c.xml ");
/// assert_eq!(files, [PathBuf::from("/etc/xml/docbook.xml"), PathBuf::from("/opt/my catalog.xml")]);
/// ```
pub fn catalog_files(value: &str) -> Vec<PathBuf> {
    value
        .split([' ', '\t', '\n', '\r'])
        .filter(|entry| !entry.is_empty())
        .filter_map(|entry| match super::location::scheme(entry) {
            // A path as written (`%` is a character of file names).
            None => Some(PathBuf::from(entry)),
            Some(_) => match target(entry) {
                Target::Local(path) => Some(path),
                Target::Elsewhere(_) => None,
            },
        })
        .collect()
}
