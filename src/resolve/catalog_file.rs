//! One OASIS XML Catalogs 1.1 catalog file read into its entries: parsed
//! by xml5dom itself (recovering, as every parse does), each entry's
//! identifier normalized (§6.2, §6.3) and each URI it names made absolute
//! against the `xml:base` in force (§6.3.3: the catalog's own URI, changed
//! by `xml:base` on `catalog`, `group` or the entry). What it hands on is
//! plain data; `catalog.rs` follows the references and resolves.

use crate::dom::{Document, Node, XML_NAMESPACE};
use crate::error::ParseError;

use super::location::{normalize_public, normalize_system, resolve_reference};

/// The namespace of catalog elements (§6.1); elements in any other are
/// ignored, with what they hold.
pub const CATALOG_NAMESPACE: &str = "urn:oasis:names:tc:entity:xmlns:xml:catalog";

/// The kinds of entries (§6.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `public`: a public identifier to a URI.
    Public,
    /// `system`: a system identifier to a URI.
    System,
    /// `rewriteSystem`: a system identifier's start replaced.
    RewriteSystem,
    /// `systemSuffix`: a system identifier by its end.
    SystemSuffix,
    /// `delegatePublic`: public identifiers with a start, to other catalogs.
    DelegatePublic,
    /// `delegateSystem`: system identifiers with a start, to other catalogs.
    DelegateSystem,
    /// `uri`: a URI to a URI.
    Uri,
    /// `rewriteURI`: a URI's start replaced.
    RewriteUri,
    /// `uriSuffix`: a URI by its end.
    UriSuffix,
    /// `delegateURI`: URIs with a start, to other catalogs.
    DelegateUri,
}

impl Kind {
    /// The entry's element name, the attribute holding what it matches,
    /// and the one holding where it leads.
    fn of(local_name: &str) -> Option<(Kind, &'static str, &'static str)> {
        Some(match local_name {
            "public" => (Kind::Public, "publicId", "uri"),
            "system" => (Kind::System, "systemId", "uri"),
            "rewriteSystem" => (Kind::RewriteSystem, "systemIdStartString", "rewritePrefix"),
            "systemSuffix" => (Kind::SystemSuffix, "systemIdSuffix", "uri"),
            "delegatePublic" => (Kind::DelegatePublic, "publicIdStartString", "catalog"),
            "delegateSystem" => (Kind::DelegateSystem, "systemIdStartString", "catalog"),
            "uri" => (Kind::Uri, "name", "uri"),
            "rewriteURI" => (Kind::RewriteUri, "uriStartString", "rewritePrefix"),
            "uriSuffix" => (Kind::UriSuffix, "uriSuffix", "uri"),
            "delegateURI" => (Kind::DelegateUri, "uriStartString", "catalog"),
            _ => return None,
        })
    }

    /// Whether it matches public identifiers (normalized as §6.2 says)
    /// rather than system identifiers and URIs (§6.3).
    fn is_public(self) -> bool {
        matches!(self, Kind::Public | Kind::DelegatePublic)
    }
}

/// One entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What it is.
    pub kind: Kind,
    /// What it matches, normalized.
    pub key: String,
    /// Where it leads (a URI, a rewrite prefix or a catalog), absolute.
    pub target: String,
    /// Whether `prefer="public"` is in force where it stands (§4.1.1):
    /// public entries match a request with a system identifier only then.
    pub prefer_public: bool,
}

/// What a catalog file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CatalogFile {
    /// Its entries, in document order.
    pub entries: Vec<Entry>,
    /// Its `nextCatalog` entries' catalogs, absolute, in order.
    pub next: Vec<String>,
    /// What was wrong with it (it is used as far as it reads).
    pub problems: Vec<String>,
}

/// Where an element stands: the base and `prefer` in force.
struct Scope {
    base: String,
    prefer_public: bool,
}

/// The catalog in `bytes`, whose own URI (the first base) is `uri`.
pub fn parse_catalog(bytes: Vec<u8>, uri: &str) -> CatalogFile {
    let doc = Document::parse_vec(bytes);
    let mut file = CatalogFile::default();
    let serious = |error: &ParseError| error.is_error() || error.is_limit();
    let errors = doc.errors().iter().filter(|e| serious(e)).count();
    if let Some(first) = doc.diagnostics().find(|d| serious(&d.error())) {
        file.problems.push(format!(
            "not well-formed ({errors} errors; the first at {first}); read as recovered"
        ));
    }
    let Some(root) = doc.root_element() else {
        file.problems.push("no catalog element".into());
        return file;
    };
    if !is_catalog_element(root, "catalog") {
        file.problems.push(format!(
            "the root element is <{}>, not a catalog in the namespace {CATALOG_NAMESPACE}",
            root.name()
        ));
        return file;
    }
    // Depth first, in document order, without recursion: catalog and
    // group elements pass their scope on to their children.
    let mut todo = vec![(
        root,
        Scope {
            base: uri.to_owned(),
            prefer_public: true,
        },
    )];
    while let Some((element, outer)) = todo.pop() {
        let base = match element.attribute_ns(XML_NAMESPACE, "base") {
            Some(base) => resolve_reference(&outer.base, base.trim()),
            None => outer.base.clone(),
        };
        let local = element.local_name();
        // Entries are empty; an element inside one is a tag left open in a
        // broken catalog, read as if it stood beside it.
        let inner = match local {
            "catalog" | "group" => Scope {
                prefer_public: prefer(element, outer.prefer_public, &mut file.problems),
                base: base.clone(),
            },
            _ => Scope {
                base: outer.base.clone(),
                prefer_public: outer.prefer_public,
            },
        };
        let children: Vec<Node<'_>> = element
            .child_elements()
            .filter(|child| child.namespace() == Some(CATALOG_NAMESPACE))
            .collect();
        for child in children.into_iter().rev() {
            let scope = Scope {
                base: inner.base.clone(),
                prefer_public: inner.prefer_public,
            };
            todo.push((child, scope));
        }
        file.read_entry(element, &base, outer.prefer_public);
    }
    file
}

/// The `prefer` a `catalog` or `group` element sets, `outer` if none.
fn prefer(element: Node<'_>, outer: bool, problems: &mut Vec<String>) -> bool {
    match element.attribute("prefer").map(str::trim) {
        None => outer,
        Some("public") => true,
        Some("system") => false,
        Some(other) => {
            problems.push(format!(
                "<{}> prefer=\"{other}\" (neither public nor system) is ignored",
                element.local_name()
            ));
            outer
        }
    }
}

impl CatalogFile {
    /// The entry `element` is, if it is one, its URIs made absolute
    /// against `base`.
    fn read_entry(&mut self, element: Node<'_>, base: &str, prefer_public: bool) {
        let local = element.local_name();
        if local == "nextCatalog" {
            match element.attribute("catalog") {
                Some(catalog) => self.next.push(resolve_reference(base, catalog.trim())),
                None => self
                    .problems
                    .push("<nextCatalog> without catalog= is ignored".into()),
            }
            return;
        }
        // Other elements of the namespace (`catalog`, `group`, TR9401's
        // `doctype`, `entity`, ...) are not entries of this resolver's.
        let Some((kind, matched, leads)) = Kind::of(local) else {
            return;
        };
        let (Some(key), Some(target)) = (element.attribute(matched), element.attribute(leads))
        else {
            self.problems.push(format!(
                "<{local}> without {matched}= or {leads}= is ignored"
            ));
            return;
        };
        let key = match kind.is_public() {
            true => normalize_public(key),
            false => normalize_system(key),
        };
        self.entries.push(Entry {
            kind,
            key,
            target: resolve_reference(base, &normalize_system(target.trim())),
            prefer_public,
        });
    }
}

fn is_catalog_element(element: Node<'_>, local: &str) -> bool {
    element.namespace() == Some(CATALOG_NAMESPACE) && element.local_name() == local
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: Kind, key: &str, target: &str, prefer_public: bool) -> Entry {
        let (key, target) = (key.to_owned(), target.to_owned());
        Entry {
            kind,
            key,
            target,
            prefer_public,
        }
    }

    #[test]
    fn entries_take_the_base_and_prefer_in_force() {
        let catalog =
            br#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog" prefer="system">
  <public publicId="  -//A//DTD  A//EN " uri="a.dtd"/>
  <group prefer="public" xml:base="dtd/">
    <system systemId="http://x/b c.dtd" uri="b.dtd"/>
    <rewriteSystem systemIdStartString="http://x/" rewritePrefix="x/"/>
    <uri xml:base="/elsewhere/" name="urn:u" uri="u.xml"/>
  </group>
  <other:thing xmlns:other="urn:other"><system systemId="hidden" uri="h"/></other:thing>
  <nextCatalog catalog="more/catalog.xml"/>
  <delegatePublic publicIdStartString="-//B//" catalog="b.xml"/>
  <system uri="no-key"/>
</catalog>"#;
        let file = parse_catalog(catalog.to_vec(), "file:///c/catalog.xml");
        assert_eq!(
            file.entries,
            [
                entry(Kind::Public, "-//A//DTD A//EN", "file:///c/a.dtd", false),
                entry(
                    Kind::System,
                    "http://x/b%20c.dtd",
                    "file:///c/dtd/b.dtd",
                    true
                ),
                entry(Kind::RewriteSystem, "http://x/", "file:///c/dtd/x/", true),
                entry(Kind::Uri, "urn:u", "file:///elsewhere/u.xml", true),
                entry(Kind::DelegatePublic, "-//B//", "file:///c/b.xml", false),
            ]
        );
        assert_eq!(file.next, ["file:///c/more/catalog.xml"]);
        assert_eq!(
            file.problems,
            ["<system> without systemId= or uri= is ignored"]
        );
    }

    #[test]
    fn a_broken_catalog_is_read_as_far_as_it_goes() {
        let catalog = br#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="a.dtd" uri="found.dtd"/>
  <system systemId=b.dtd uri="also.dtd">
  <public publicId="-//P//EN" uri="p.dtd""#;
        let file = parse_catalog(catalog.to_vec(), "file:///c/catalog.xml");
        let keys: Vec<&str> = file.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["a.dtd", "b.dtd", "-//P//EN"]);
        assert_eq!(file.problems.len(), 1, "{:?}", file.problems);
        assert!(
            file.problems[0].starts_with("not well-formed ("),
            "{:?}",
            file.problems
        );
    }

    #[test]
    fn anything_but_a_catalog_has_no_entries() {
        for text in [
            "",
            "just text",
            "<catalog><system systemId='a' uri='b'/></catalog>",
        ] {
            let file = parse_catalog(text.as_bytes().to_vec(), "file:///c/x.xml");
            assert!(file.entries.is_empty(), "{text:?}");
            assert!(!file.problems.is_empty(), "{text:?}");
        }
    }
}
