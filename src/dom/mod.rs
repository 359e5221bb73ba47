//! Layer 3: the arena DOM.
//!
//! A [`Document`] owns everything: the arena of nodes (on `indextree`), the
//! source text (a copy of a `&str`, or the `String` it was handed), the
//! strings that differ from the source, and the interned names and
//! namespace URIs. It borrows nothing, so it can be kept, edited and sent
//! across threads. Read it through [`Node`] handles (`Copy`, borrowed from
//! the document), edit it through the `&mut Document` methods that take
//! [`NodeId`]s.
//!
//! Nothing here recurses over the tree: iterators walk the arena's links,
//! and dropping a document drops a few vectors, so a document nested
//! 1,000,000 deep is as easy as a flat one.
//!
//! ```
//! use xml5dom::Document;
//!
//! let doc = Document::parse("<feed><entry id='1'>Hi</entry><entry id='2'/></feed>");
//! let root = doc.root_element().unwrap();
//! let ids: Vec<_> = root.child_elements().filter_map(|e| e.attribute("id")).collect();
//! assert_eq!(ids, ["1", "2"]);
//! ```

mod axes;
mod build;
mod compact;
mod copy;
mod dump;
mod edit;
mod errors;
mod handle;
mod node;

pub use axes::{
    Ancestors, Children, Descendants, Elements, FollowingSiblings, PrecedingSiblings, Traverse,
};
pub(crate) use build::Builder;
pub use dump::DUMP_DEPTH;
pub use handle::NodeMut;
pub use node::{Attribute, Attributes, Edge, Node, NodeType};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::decoding::{Encoding, EncodingSource, InputMap};

use crate::error::ParseError;
use crate::span::Span;

/// The XML namespace, bound to the prefix `xml` everywhere.
///
/// ```
/// use xml5dom::{Document, XML_NAMESPACE};
/// let doc = Document::parse("<p xml:lang='fr'>Bonjour</p>");
/// let p = doc.root_element().unwrap();
/// assert_eq!(p.attribute_ns(XML_NAMESPACE, "lang"), Some("fr"));
/// ```
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace of namespace declarations (`xmlns`, `xmlns:p`).
///
/// ```
/// use xml5dom::{Document, XMLNS_NAMESPACE};
/// let doc = Document::parse("<a xmlns='urn:d' xmlns:p='urn:p'/>");
/// let a = doc.root_element().unwrap();
/// assert_eq!(a.attribute_ns(XMLNS_NAMESPACE, "xmlns"), Some("urn:d"));
/// assert_eq!(a.attribute_ns(XMLNS_NAMESPACE, "p"), Some("urn:p"));
/// ```
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// What the namespace of a name whose prefix nothing declares starts with:
/// such a name (`cc:license` with no `xmlns:cc` in scope, an error) is in
/// the namespace [`undeclared_namespace`] gives its prefix (unless the
/// prefix is a well-known one, [`WELL_KNOWN_NAMESPACES`]). See
/// [`undeclared_namespace`].
pub const UNDECLARED_NAMESPACE_BASE: &str = "urn:xml5dom:undeclared:";

/// The namespace a name whose prefix nothing declares is in, its
/// placeholder: `urn:xml5dom:undeclared:` and the prefix. The parse puts
/// the name there (and reports `unbound-namespace-prefix`), the writer
/// declares it (`xmlns:cc="urn:xml5dom:undeclared:cc"`), and queries select
/// it by it, so the tree, the output and XPath agree on what the name is.
/// [`Document::bind_undeclared_prefix`] moves such names into the
/// namespace the prefix was meant for. A well-known prefix
/// ([`WELL_KNOWN_NAMESPACES`]: `dc`, `itunes`, `media`, ...) gets its
/// registered namespace instead, unless the parse is asked for the
/// placeholder ([`ParseOptions::placeholder_for_well_known_prefixes`]).
///
/// ```
/// use xml5dom::{undeclared_namespace, Document, ParseOptions};
/// let doc = Document::parse("<rss><cc:license>by</cc:license></rss>");
/// let license = doc.root_element().unwrap().first_child().unwrap();
/// assert_eq!(license.namespace(), Some("urn:xml5dom:undeclared:cc"));
/// assert_eq!(license.namespace(), Some(&*undeclared_namespace("cc")));
/// assert_eq!(doc.errors()[0].code.as_str(), "unbound-namespace-prefix");
///
/// let mut options = ParseOptions::default();
/// options.placeholder_for_well_known_prefixes = true;
/// let doc = Document::parse_with("<rss><dc:creator>J</dc:creator></rss>", &options);
/// let creator = doc.root_element().unwrap().first_child().unwrap();
/// assert_eq!(creator.namespace(), Some("urn:xml5dom:undeclared:dc"));
/// ```
///
/// [`ParseOptions::placeholder_for_well_known_prefixes`]: crate::decoding::ParseOptions::placeholder_for_well_known_prefixes
pub fn undeclared_namespace(prefix: &str) -> String {
    format!("{UNDECLARED_NAMESPACE_BASE}{prefix}")
}

/// Whether `uri` is the placeholder namespace of undeclared uses of
/// `prefix`.
pub(crate) fn is_undeclared_namespace(prefix: &str, uri: &str) -> bool {
    uri.strip_prefix(UNDECLARED_NAMESPACE_BASE) == Some(prefix)
}

/// Whether `uri` is a namespace a parse gives names whose prefix nothing
/// declares: the prefix's placeholder, or the registered namespace of a
/// well-known prefix ([`well_known_namespace`]). A name so, where the
/// output does not bind its prefix to `uri`, is one the writers declare
/// the prefix for (an `undeclared-prefix` repair).
pub(crate) fn is_namespace_of_undeclared(prefix: &str, uri: &str) -> bool {
    is_undeclared_namespace(prefix, uri) || well_known_namespace(prefix) == Some(uri)
}

/// The prefixes that feeds and web documents use with one namespace each,
/// and that namespace, as the specification that defines it registers it
/// (docs/conformance.md, "Well-known prefixes", says where). A name whose
/// prefix is one of these and that nothing declares (`<itunes:duration>`
/// with no `xmlns:itunes` in scope) is in this namespace instead of its
/// placeholder ([`undeclared_namespace`]); it is still the error
/// `unbound-namespace-prefix`, and repaired output declares the prefix
/// with this namespace where the name needs it. A declared prefix means
/// what its declaration says, whatever this table holds.
/// [`ParseOptions::placeholder_for_well_known_prefixes`] turns this off.
///
/// ```
/// use xml5dom::{Document, WELL_KNOWN_NAMESPACES};
/// let doc = Document::parse("<rss><channel><itunes:author>A</itunes:author></channel></rss>");
/// let author = doc.root().descendants().find(|n| n.local_name() == "author").unwrap();
/// assert_eq!(author.namespace(), Some("http://www.itunes.com/dtds/podcast-1.0.dtd"));
/// assert_eq!(doc.errors()[0].code.as_str(), "unbound-namespace-prefix");
/// assert!(WELL_KNOWN_NAMESPACES.contains(&("itunes", "http://www.itunes.com/dtds/podcast-1.0.dtd")));
/// ```
///
/// [`ParseOptions::placeholder_for_well_known_prefixes`]: crate::decoding::ParseOptions::placeholder_for_well_known_prefixes
pub const WELL_KNOWN_NAMESPACES: &[(&str, &str)] = &[
    ("itunes", "http://www.itunes.com/dtds/podcast-1.0.dtd"),
    ("podcast", "https://podcastindex.org/namespace/1.0"),
    ("dc", "http://purl.org/dc/elements/1.1/"),
    ("dcterms", "http://purl.org/dc/terms/"),
    ("content", "http://purl.org/rss/1.0/modules/content/"),
    ("media", "http://search.yahoo.com/mrss/"),
    ("atom", "http://www.w3.org/2005/Atom"),
    ("georss", "http://www.georss.org/georss"),
    ("geo", "http://www.w3.org/2003/01/geo/wgs84_pos#"),
    ("slash", "http://purl.org/rss/1.0/modules/slash/"),
    ("wfw", "http://wellformedweb.org/CommentAPI/"),
    ("sy", "http://purl.org/rss/1.0/modules/syndication/"),
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    (
        "googleplay",
        "http://www.google.com/schemas/play-podcasts/1.0",
    ),
    ("xlink", "http://www.w3.org/1999/xlink"),
    ("xhtml", "http://www.w3.org/1999/xhtml"),
    ("svg", "http://www.w3.org/2000/svg"),
    ("mml", "http://www.w3.org/1998/Math/MathML"),
];

/// The registered namespace of a well-known prefix
/// ([`WELL_KNOWN_NAMESPACES`]), if `prefix` is one (as written: prefixes
/// are case-sensitive).
///
/// ```
/// use xml5dom::well_known_namespace;
/// assert_eq!(well_known_namespace("dc"), Some("http://purl.org/dc/elements/1.1/"));
/// assert_eq!(well_known_namespace("DC"), None);
/// assert_eq!(well_known_namespace("x"), None);
/// ```
pub fn well_known_namespace(prefix: &str) -> Option<&'static str> {
    WELL_KNOWN_NAMESPACES
        .iter()
        .find(|&&(known, _)| known == prefix)
        .map(|&(_, uri)| uri)
}

/// Identifies a node of a [`Document`]; stable across edits until the node is
/// removed. Get a handle to read it with [`Document::node`].
///
/// ```
/// use xml5dom::Document;
/// let mut doc = Document::parse("<a><b/><c/></a>");
/// let a = doc.root_element().unwrap();
/// let (b, c) = (a.first_child().unwrap().id(), a.last_child().unwrap().id());
/// doc.insert_before(b, c).unwrap();
/// assert_eq!(doc.node(c).unwrap().next_sibling().unwrap().id(), b);
/// doc.remove(c).unwrap();
/// assert!(doc.node(c).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) indextree::NodeId);

/// Marks a [`StrRange`] of the stored strings (the top bit: no source
/// offset reaches it, an allocation being at most `isize::MAX` bytes).
const STORED: usize = 1 << (usize::BITS - 1);

/// A range of [`Document`]'s string storage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct StrRange {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl StrRange {
    pub(crate) fn new(start: usize, end: usize) -> StrRange {
        StrRange { start, end }
    }
}

/// An interned namespace URI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct NsId(pub(crate) u32);

/// An interned qualified name, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct QNameId(pub(crate) u32);

/// An interned name: a qualified name and the namespace it resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct NameId(pub(crate) u32);

#[derive(Clone)]
pub(crate) struct QNameData {
    pub(crate) text: Box<str>,
    /// Where the prefix ends, for a valid prefixed QName.
    pub(crate) colon: Option<usize>,
    /// The text is an XML `Name` (checked once, when interned).
    pub(crate) is_name: bool,
    /// The text has a colon but is not a valid `prefix:local`.
    pub(crate) bad_colon: bool,
    /// The name this qualified name resolved to last: most qualified names
    /// resolve to one namespace throughout a document.
    last_name: Option<(Option<NsId>, NameId)>,
}

impl QNameData {
    /// The prefix and local name of a valid prefixed name; otherwise no
    /// prefix and all of it (a name whose parts are not names, `a:0b`, is
    /// all local name).
    fn split(&self) -> (Option<&str>, &str) {
        match self.colon {
            Some(c) if !self.bad_colon => (Some(&self.text[..c]), &self.text[c + 1..]),
            _ => (None, &self.text),
        }
    }
}

#[derive(Clone)]
pub(crate) struct NameData {
    pub(crate) qname: QNameId,
    pub(crate) namespace: Option<NsId>,
}

/// The interned names and namespace URIs of a document.
///
/// The maps keep the standard library's keyed hasher, so no input can make
/// interning slow; in front of the qualified-name map sits a small
/// two-way cache, verified by comparing the text, which answers the
/// common case (a document's few names, over and over) without hashing.
#[derive(Clone, Default)]
pub(crate) struct Names {
    qnames: Vec<QNameData>,
    qname_index: HashMap<Box<str>, QNameId>,
    /// Recently interned names by [`cache_slot`]: 6 KB, made once names
    /// were looked up a few dozen times, so that a small document (a
    /// subtree of a stream) neither carries it inline nor makes it.
    qname_cache: Option<Box<QNameCache>>,
    /// Lookups made before there was a cache.
    uncached_lookups: u32,
    names: Vec<NameData>,
    name_index: HashMap<(QNameId, Option<NsId>), NameId>,
    namespaces: Vec<Box<str>>,
    namespace_index: HashMap<Box<str>, NsId>,
    /// The namespaces interned last, most recent first.
    recent_namespaces: [NsId; 2],
}

pub(crate) const XML_NS: NsId = NsId(0);
pub(crate) const XMLNS_NS: NsId = NsId(1);

impl Names {
    /// A table holding the two reserved namespaces (`XML_NS`, `XMLNS_NS`).
    pub(crate) fn new() -> Names {
        let mut names = Names::default();
        names.namespace(XML_NAMESPACE);
        names.namespace(XMLNS_NAMESPACE);
        names
    }

    pub(crate) fn namespace(&mut self, uri: &str) -> NsId {
        // A document declares its few namespaces over and over (on each
        // embedded XHTML `div`, each extension element): the two last
        // interned answer most without hashing the URI.
        for id in self.recent_namespaces {
            if self
                .namespaces
                .get(id.0 as usize)
                .is_some_and(|known| **known == *uri)
            {
                return id;
            }
        }
        let id = match self.namespace_index.get(uri) {
            Some(&id) => id,
            None => {
                let id = NsId(self.namespaces.len() as u32);
                self.namespaces.push(uri.into());
                self.namespace_index.insert(uri.into(), id);
                id
            }
        };
        self.recent_namespaces = [id, self.recent_namespaces[0]];
        id
    }

    /// Whether `uri` was ever interned (no name can be in it otherwise).
    pub(crate) fn knows_namespace(&self, uri: &str) -> bool {
        self.namespace_index.contains_key(uri)
    }

    pub(crate) fn namespace_uri(&self, id: NsId) -> &str {
        &self.namespaces[id.0 as usize]
    }

    /// Interns a qualified name; `colon` is set only for a valid `p:l`.
    pub(crate) fn qname(&mut self, text: &str) -> QNameId {
        let (key, slot) = cache_slot(text);
        if let Some(id) = self.cached_qname(slot, key, text) {
            return id;
        }
        let id = match self.qname_index.get(text) {
            Some(&id) => id,
            None => {
                let id = QNameId(self.qnames.len() as u32);
                let colon = qname_colon(text);
                self.qnames.push(QNameData {
                    text: text.into(),
                    colon,
                    is_name: crate::chars::is_name(text),
                    bad_colon: text.contains(':') && !qname_parts_are_names(text, colon),
                    last_name: None,
                });
                self.qname_index.insert(text.into(), id);
                id
            }
        };
        // Two ways per set: the entry this one displaces moves to the other
        // way, so two names that share a set do not keep evicting each
        // other.
        // A small document (a subtree of a stream) finds its few names by
        // hashing: the cache is made once names are looked up often.
        if self.qname_cache.is_none() {
            self.uncached_lookups += 1;
            if self.uncached_lookups < QNAME_CACHE_AFTER {
                return id;
            }
        }
        let cache = &mut self.qname_cache.get_or_insert_with(Box::default).0;
        cache[slot ^ 1] = cache[slot];
        cache[slot] = CacheEntry {
            id: id.0.wrapping_add(1),
            len: u32::try_from(text.len()).unwrap_or(u32::MAX),
            key,
        };
        id
    }

    fn cached_qname(&self, slot: usize, key: NameKey, text: &str) -> Option<QNameId> {
        // Most names are short: the length and the first and last eight
        // bytes settle it without a call to compare memory.
        let matches = |entry: &CacheEntry| {
            entry.id != 0 && entry.len as usize == text.len() && entry.key == key
        };
        let cache = self.qname_cache.as_deref()?;
        let entry = [slot, slot ^ 1]
            .into_iter()
            .map(|s| cache.0[s])
            .find(matches)?;
        let id = entry.id - 1;
        let data = self.qnames.get(id as usize)?;
        (text.len() <= 16 || *data.text == *text).then_some(QNameId(id))
    }

    /// The interned qualified name `text`, if there is one.
    pub(crate) fn find_qname(&self, text: &str) -> Option<QNameId> {
        let (key, slot) = cache_slot(text);
        self.cached_qname(slot, key, text)
            .or_else(|| self.qname_index.get(text).copied())
    }

    /// The local part of a qualified name.
    pub(crate) fn local_of(&self, id: QNameId) -> &str {
        self.qname_data(id).split().1
    }

    pub(crate) fn qname_data(&self, id: QNameId) -> &QNameData {
        &self.qnames[id.0 as usize]
    }

    pub(crate) fn name(&mut self, qname: QNameId, namespace: Option<NsId>) -> NameId {
        let q = qname.0 as usize;
        if let Some((ns, id)) = self.qnames[q].last_name {
            if ns == namespace {
                return id;
            }
        }
        let id = match self.name_index.get(&(qname, namespace)) {
            Some(&id) => id,
            None => {
                let id = NameId(self.names.len() as u32);
                self.names.push(NameData { qname, namespace });
                self.name_index.insert((qname, namespace), id);
                id
            }
        };
        self.qnames[q].last_name = Some((namespace, id));
        id
    }

    pub(crate) fn name_data(&self, id: NameId) -> &NameData {
        &self.names[id.0 as usize]
    }

    /// The qualified name as written.
    pub(crate) fn qualified(&self, id: NameId) -> &str {
        &self.qname_data(self.name_data(id).qname).text
    }

    /// The prefix, for a valid prefixed name.
    pub(crate) fn prefix(&self, id: NameId) -> Option<&str> {
        self.qname_data(self.name_data(id).qname).split().0
    }

    /// All of a name at once: qualified name, prefix, local name and
    /// namespace URI (for a caller that wants them all, as the events do:
    /// one lookup instead of four).
    pub(crate) fn parts(&self, id: NameId) -> (&str, Option<&str>, &str, Option<&str>) {
        let name = self.name_data(id);
        let q = self.qname_data(name.qname);
        let (prefix, local) = q.split();
        let namespace = name.namespace.map(|ns| self.namespace_uri(ns));
        (&q.text, prefix, local, namespace)
    }

    /// The local name: after the colon of a valid prefixed name, else all.
    pub(crate) fn local(&self, id: NameId) -> &str {
        self.local_of(self.name_data(id).qname)
    }

    pub(crate) fn namespace_of(&self, id: NameId) -> Option<&str> {
        self.name_data(id)
            .namespace
            .map(|ns| self.namespace_uri(ns))
    }
}

const QNAME_CACHE_SLOTS: usize = 256;

/// How many times a table looks qualified names up before it caches them.
const QNAME_CACHE_AFTER: u32 = 64;

#[derive(Clone)]
struct QNameCache([CacheEntry; QNAME_CACHE_SLOTS]);

/// A cached name: `id` is `QNameId + 1` (0: empty), `len` and `key` are of
/// its text.
#[derive(Clone, Copy, Default)]
struct CacheEntry {
    id: u32,
    len: u32,
    key: NameKey,
}

/// A name's first and last eight bytes (zero-padded; the last are 0 for a
/// name of up to eight bytes): with its length, all of a name of up to
/// sixteen bytes.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct NameKey {
    first: u64,
    last: u64,
}

impl Default for QNameCache {
    fn default() -> QNameCache {
        QNameCache([CacheEntry::default(); QNAME_CACHE_SLOTS])
    }
}

/// `a == b`, comparing short strings without a call to compare memory
/// (names are short, and compared often).
#[inline]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && head(a) == head(b) && (a.len() <= 8 || a == b)
}

/// The first eight bytes, zero-padded (without a variable-length copy,
/// which would be a call).
#[inline]
fn head(bytes: &[u8]) -> u64 {
    match bytes.get(..8) {
        Some(first) => <[u8; 8]>::try_from(first).map_or(0, u64::from_le_bytes),
        None => bytes
            .iter()
            .enumerate()
            .fold(0, |head, (i, &b)| head | u64::from(b) << (8 * i)),
    }
}

/// A name's [`NameKey`] and its cache slot: a hash of the key and its
/// length. A collision only costs a lookup in the real map.
#[inline]
fn cache_slot(text: &str) -> (NameKey, usize) {
    let bytes = text.as_bytes();
    let first = head(bytes);
    let last = match bytes.len().checked_sub(8) {
        Some(from) if from > 0 => head(&bytes[from..]),
        _ => 0,
    };
    let h = (first ^ last.rotate_left(31) ^ bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (
        NameKey { first, last },
        (h >> 56) as usize % QNAME_CACHE_SLOTS,
    )
}

/// Whether a name with a colon is a QName whose prefix and local part are
/// names (Namespaces in XML 1.0 §3: both `NCName`s); a name that is not an
/// XML name at all is reported as that instead.
fn qname_parts_are_names(text: &str, colon: Option<usize>) -> bool {
    use crate::chars::is_name;
    match colon {
        Some(colon) => !is_name(text) || (is_name(&text[..colon]) && is_name(&text[colon + 1..])),
        None => false,
    }
}

/// Where the prefix of a QName ends: `Some` only for `prefix:local` with both
/// parts non-empty and no second colon.
pub(crate) fn qname_colon(name: &str) -> Option<usize> {
    let colon = name.find(':')?;
    let valid = colon > 0 && colon + 1 < name.len() && !name[colon + 1..].contains(':');
    valid.then_some(colon)
}

/// One node's data, kept small (it is most of a document's memory) and
/// without anything to drop (dropping a document frees a few vectors).
///
/// Packed by hand in 24 bytes: the kind, flags, the source span and three
/// words whose meaning the kind gives ([`NodeKind`] is the readable view:
/// [`kind`](Self::kind) decodes them). What few nodes have lives in the
/// document's side tables instead: the entity expansion that made a node
/// ([`EXPANDED`], `Document::expansions`), an end tag too long for
/// `end_tag_len` (`Document::long_end_tags`), a string range that does
/// not fit a [`TextRef`] (`Document::wide_ranges`).
///
/// Source offsets are 32-bit: the parse driver cuts an input longer than
/// `Limits::max_input_bytes` (never more than `u32::MAX` bytes), so every
/// offset of a parsed node fits. Stored text is addressed by [`TextRef`]s,
/// which fall back to a full [`StrRange`] kept aside: edits may store any
/// amount of text.
#[derive(Clone)]
pub(crate) struct NodeData {
    tag: KindTag,
    /// [`PARSED`], [`UNCHECKED`], [`EXPANDED`] and what edits changed
    /// (`DIRTY_*`, so the serializer can copy the source of everything
    /// else).
    flags: u8,
    /// An element's end tag in the source, `end - end_tag_len..end`: 0
    /// for none, [`LONG_END_TAG`] for one kept in `Document::long_end_tags`.
    end_tag_len: u16,
    /// The source this node was parsed from, `start..end` (meaningless
    /// unless [`PARSED`]).
    start: u32,
    end: u32,
    /// By kind: an element's name, first attribute ([`NO_ATTRIBUTES`] for
    /// none; the run ends at the one marked last) and the end of its start
    /// tag; a text node's text (two words) and CDATA run; a comment's
    /// text; a processing instruction's data and target; a DOCTYPE's
    /// index.
    words: [u32; 3],
}

/// Which [`NodeKind`] a [`NodeData`] holds (one byte, whose unused values
/// let indextree keep its free-list marker there).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum KindTag {
    Document,
    Doctype,
    Element,
    Text,
    Comment,
    ProcessingInstruction,
}

// Node data is most of a document's memory: an arena node is its data plus
// five links (parent, siblings, children), 112 bytes, a cache line and
// three quarters. Keep it so (64-bit targets).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<NodeData>() == 24);
    assert!(std::mem::size_of::<indextree::Node<NodeData>>() == 112);
};

/// The node's own markup or text changed (name, attributes, data).
const DIRTY_SELF: u8 = 1;
/// The node's list of children changed.
const DIRTY_CHILDREN: u8 = 2;
/// Some descendant is dirty.
const DIRTY_DESCENDANTS: u8 = 4;
/// The `DIRTY_*` bits of [`NodeData`]'s flags.
const DIRTY: u8 = DIRTY_SELF | DIRTY_CHILDREN | DIRTY_DESCENDANTS;
/// The node was parsed (its span is the source it came from).
const PARSED: u8 = 8;
/// Created or named by an edit and not yet checked where it lands
/// (prefixes resolved, names and text validated).
const UNCHECKED: u8 = 16;
/// Made by expanding an entity reference: `Document::expansions` has which.
const EXPANDED: u8 = 32;

/// `NodeData::end_tag_len` of an end tag of `u16::MAX` bytes or more.
const LONG_END_TAG: u16 = u16::MAX;

/// An element's first attribute when it has none.
const NO_ATTRIBUTES: u32 = u32::MAX;

/// A source offset as a node or attribute keeps it. Every offset of a
/// parsed document fits (its source is at most `u32::MAX` bytes, see
/// [`NodeData`]); one that did not would be clamped to `u32::MAX`, the end
/// of what 32 bits address, never wrapped to a small offset.
fn offset32(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

/// `start..end` as a [`Span`].
fn span_of(start: u32, end: u32) -> Span {
    Span::new(start as usize, end as usize)
}

impl NodeData {
    /// A node parsed from `span` of the source (an element has no
    /// attributes and no start tag yet: see
    /// [`set_parsed_tag`](Self::set_parsed_tag)).
    fn parsed(kind: NodeKind, span: Span) -> NodeData {
        NodeData {
            flags: PARSED,
            start: offset32(span.start),
            end: offset32(span.end),
            ..NodeData::created(kind)
        }
    }

    /// A node created by an edit.
    fn created(kind: NodeKind) -> NodeData {
        let (tag, words) = match kind {
            NodeKind::Document => (KindTag::Document, [0; 3]),
            NodeKind::Doctype(index) => (KindTag::Doctype, [index, 0, 0]),
            NodeKind::Element { name } => (KindTag::Element, [name.0, NO_ATTRIBUTES, 0]),
            NodeKind::Text { text, cdata } => (KindTag::Text, [text.start, text.len, cdata]),
            NodeKind::Comment(text) => (KindTag::Comment, [text.start, text.len, 0]),
            NodeKind::ProcessingInstruction { target, data } => (
                KindTag::ProcessingInstruction,
                [data.start, data.len, target.0],
            ),
        };
        NodeData {
            tag,
            flags: 0,
            end_tag_len: 0,
            start: 0,
            end: 0,
            words,
        }
    }

    /// What the node is, with its kind's fields.
    #[inline]
    fn kind(&self) -> NodeKind {
        let [a, b, c] = self.words;
        match self.tag {
            KindTag::Document => NodeKind::Document,
            KindTag::Doctype => NodeKind::Doctype(a),
            KindTag::Element => NodeKind::Element { name: NameId(a) },
            KindTag::Text => NodeKind::Text {
                text: TextRef { start: a, len: b },
                cdata: c,
            },
            KindTag::Comment => NodeKind::Comment(TextRef { start: a, len: b }),
            KindTag::ProcessingInstruction => NodeKind::ProcessingInstruction {
                target: QNameId(c),
                data: TextRef { start: a, len: b },
            },
        }
    }

    /// Gives the node `kind`'s fields (of the same kind: an element keeps
    /// its attributes and tags).
    fn set_kind(&mut self, kind: NodeKind) {
        let words = NodeData::created(kind).words;
        match kind {
            NodeKind::Element { name } => self.words[0] = name.0,
            _ => self.words = words,
        }
    }

    /// Whether the node is an element.
    #[inline]
    fn is_element(&self) -> bool {
        self.tag == KindTag::Element
    }

    /// An element's first attribute in the attribute storage, if it has
    /// any (the run ends at the one marked last).
    #[inline]
    fn first_attribute(&self) -> Option<usize> {
        match self.words[1] {
            first if self.is_element() && first != NO_ATTRIBUTES => Some(first as usize),
            _ => None,
        }
    }

    /// For a parse: the element's attributes start at `first` (if it has
    /// any) and its start tag ends at `tag_end`.
    fn set_parsed_tag(&mut self, first: Option<u32>, tag_end: usize) {
        self.words[1] = first.unwrap_or(NO_ATTRIBUTES);
        self.words[2] = offset32(tag_end);
    }

    fn is_parsed(&self) -> bool {
        self.flags & PARSED != 0
    }

    /// What edits changed: `DIRTY_*` bits, 0 for nothing.
    pub(crate) fn dirty(&self) -> u8 {
        self.flags & DIRTY
    }

    /// Whether the node was created or named by an edit and not yet
    /// checked where it lands.
    pub(crate) fn unchecked(&self) -> bool {
        self.flags & UNCHECKED != 0
    }

    pub(crate) fn set_unchecked(&mut self, unchecked: bool) {
        if unchecked {
            self.flags |= UNCHECKED;
        } else {
            self.flags &= !UNCHECKED;
        }
    }

    /// The source this node was parsed from; `None` for created nodes.
    pub(crate) fn span(&self) -> Option<Span> {
        self.is_parsed().then(|| span_of(self.start, self.end))
    }

    /// Whether any edit changed the node (its own markup, its children,
    /// a descendant).
    #[inline]
    pub(crate) fn edited(&self) -> bool {
        self.dirty() != 0
    }

    /// Whether an edit changed the node's own markup or text.
    #[inline]
    pub(crate) fn self_edited(&self) -> bool {
        self.dirty() & DIRTY_SELF != 0
    }

    /// Whether an edit changed the node's list of children.
    #[inline]
    pub(crate) fn children_edited(&self) -> bool {
        self.dirty() & DIRTY_CHILDREN != 0
    }

    /// Whether an entity reference's expansion made the node (see
    /// [`Document::expansion_mark`]).
    #[inline]
    pub(crate) fn expanded(&self) -> bool {
        self.flags & EXPANDED != 0
    }

    /// Whether the node is a text node (CDATA parts included).
    #[inline]
    pub(crate) fn is_text(&self) -> bool {
        self.tag == KindTag::Text
    }

    /// An element's `tag_end` as recorded (0 for a created element), or
    /// `None` for another node (see [`kind_tag_end`](Self::kind_tag_end)
    /// for the parsed end of the tag).
    #[inline]
    pub(crate) fn element_tag_end(&self) -> Option<usize> {
        self.is_element().then_some(self.words[2] as usize)
    }

    /// A DOCTYPE node's index in the document's DOCTYPE storage.
    #[inline]
    pub(crate) fn doctype_index(&self) -> Option<usize> {
        (self.tag == KindTag::Doctype).then_some(self.words[0] as usize)
    }

    /// Where an element's start tag ends in the source.
    pub(crate) fn kind_tag_end(&self) -> Option<usize> {
        self.element_tag_end().filter(|_| self.is_parsed())
    }
}

/// A range of one of [`Document`]'s side vectors: an element's attributes.
/// 32-bit: whatever makes one (a parse, an edit) checks that it fits
/// ([`ItemRange::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ItemRange {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl ItemRange {
    /// `start..start + len`, if its end fits in 32 bits.
    pub(crate) fn new(start: usize, len: usize) -> Option<ItemRange> {
        let end = u32::try_from(start.checked_add(len)?).ok()?;
        let start = u32::try_from(start).ok()?;
        Some(ItemRange {
            start,
            len: end - start,
        })
    }

    pub(crate) fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }
}

/// A [`StrRange`] in eight bytes, as nodes and attributes keep it: `start`
/// and the length in the source or (the top bit of `len`) in the stored
/// strings; or, for a range that does not fit so (stored strings past
/// 4 GiB, a string of 2 GiB or more), `len` is [`WIDE`] and `start` the
/// index of the range in `Document::wide_ranges`. Read it with
/// [`Document::text_of`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextRef {
    start: u32,
    len: u32,
}

/// `TextRef::len`'s bit for a range of the stored strings.
const TEXT_STORED: u32 = 1 << 31;
/// `TextRef::len` of a range kept in `Document::wide_ranges`.
const WIDE: u32 = u32::MAX;

impl TextRef {
    /// `range`, kept in `wide` if it does not fit eight bytes.
    fn new(range: StrRange, wide: &mut Vec<StrRange>) -> TextRef {
        TextRef::short(range).unwrap_or_else(|| {
            // Past `u32::MAX` wide ranges, their storage alone would be
            // 64 GiB: one that did not fit would read as empty.
            let start = u32::try_from(wide.len()).unwrap_or(u32::MAX);
            wide.push(range);
            TextRef { start, len: WIDE }
        })
    }

    /// The range it stands for (`wide`: where wide ones are kept).
    #[inline]
    fn range(self, wide: &[StrRange]) -> StrRange {
        let start = self.start as usize;
        match self.len {
            WIDE => wide.get(start).copied().unwrap_or_default(),
            len if len & TEXT_STORED != 0 => {
                let end = start + (len & !TEXT_STORED) as usize;
                StrRange::new(STORED | start, STORED | end)
            }
            len => StrRange::new(start, start + len as usize),
        }
    }

    /// `range` in eight bytes, if it fits.
    #[inline]
    fn short(range: StrRange) -> Option<TextRef> {
        // (Without branches on the way: every string a parse keeps comes
        // through here.)
        let start = range.start & !STORED;
        let len = range.end.wrapping_sub(range.start);
        let stored = ((range.start >> (usize::BITS - 1)) as u32) << 31;
        let fits = start <= u32::MAX as usize && len < (TEXT_STORED - 1) as usize;
        fits.then_some(TextRef {
            start: start as u32,
            len: stored | len as u32,
        })
    }
}

/// The attributes of `attributes` from `first` to the one marked last
/// (none without a first).
fn attribute_run(attributes: &[AttributeData], first: Option<usize>) -> ItemRange {
    let Some(first) = first else {
        return ItemRange::default();
    };
    let len = attributes
        .get(first..)
        .unwrap_or_default()
        .iter()
        .position(AttributeData::is_last)
        .map_or(0, |last| last + 1);
    ItemRange::new(first, len).unwrap_or_default()
}

/// What a node is, with its kind's fields: the view of [`NodeData`] that
/// code matches on (`NodeData::kind`).
#[derive(Clone, Copy)]
enum NodeKind {
    Document,
    /// An index into [`Document`]'s DOCTYPE storage.
    Doctype(u32),
    /// (Its attributes: [`Document::attribute_range`]; its tags:
    /// [`NodeData::kind_tag_end`], [`Document::end_tag`].)
    Element {
        name: NameId,
    },
    Text {
        text: TextRef,
        /// The parts (relative byte ranges of the text) that were CDATA
        /// sections in the source: 0 for none (most text nodes), else `1 +`
        /// an index in [`Document`]'s CDATA runs
        /// ([`Document::cdata_parts`]).
        cdata: u32,
    },
    Comment(TextRef),
    ProcessingInstruction {
        /// The target, interned like the names of elements: targets are
        /// names, few and repeated, and one `u32` keeps this node as
        /// small as the others.
        target: QNameId,
        data: TextRef,
    },
}

#[derive(Clone)]
pub(crate) struct DoctypeData {
    pub(crate) name: Option<StrRange>,
    pub(crate) public_id: Option<StrRange>,
    pub(crate) system_id: Option<StrRange>,
    pub(crate) internal_subset: Option<StrRange>,
    /// Where a parsed internal subset is in the source (see
    /// `tokenizer::Doctype::subset_span`).
    pub(crate) subset_span: Option<Span>,
    /// The subset's items in the source, one span each, in order.
    pub(crate) subset_items: Box<[Span]>,
    /// The general entities it declared, by declaration offset.
    pub(crate) subset_entities: Box<[(usize, Box<str>)]>,
    /// The notations it declared, in order (see [`Node::notations`]).
    pub(crate) notations: Box<[crate::notation::Notation]>,
    /// The processing instructions of its internal subset (target, data),
    /// in order, when it was read.
    pub(crate) subset_pis: Box<[(Box<str>, Box<str>)]>,
    /// Its name as written (`name` is ASCII-lowercased), when its subset
    /// was read.
    pub(crate) written_name: Option<Box<str>>,
}

#[derive(Clone, Copy)]
pub(crate) struct AttributeData {
    pub(crate) name: NameId,
    pub(crate) value: TextRef,
    /// Where the attribute was in the source, `start..end` (kept when an
    /// edit changes it, so the serializer can write the new value in its
    /// place); meaningless unless [`ATTRIBUTE_PARSED`].
    start: u32,
    end: u32,
    /// Where its value was, between the quotes (meaningless unless
    /// [`ATTRIBUTE_HAS_VALUE`]).
    value_start: u32,
    value_end: u32,
    /// What the DTD says of it (`DTD_DEFAULTED`, `DTD_ID`) and the
    /// `ATTRIBUTE_*` bits.
    flags: u8,
}

// Attributes are the other big part of a document's memory (about one per
// `=` of the input).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<AttributeData>() == 32);

/// Not in the tag: supplied by an attribute-list declaration's default.
const DTD_DEFAULTED: u8 = 1;
/// Declared of type `ID` by an attribute-list declaration.
const DTD_ID: u8 = 2;
/// An edit changed the name or value since it was parsed.
const ATTRIBUTE_MODIFIED: u8 = 4;
/// Parsed from the source (its span is where).
const ATTRIBUTE_PARSED: u8 = 8;
/// Parsed with a value (its value span is where).
const ATTRIBUTE_HAS_VALUE: u8 = 16;
/// The last of its element's attributes (an element keeps only where its
/// attributes start).
const ATTRIBUTE_LAST: u8 = 32;

impl AttributeData {
    /// An attribute parsed from `span`, its value (if it had one) from
    /// `value_span`.
    pub(crate) fn parsed(
        name: NameId,
        value: TextRef,
        span: Span,
        value_span: Option<Span>,
    ) -> AttributeData {
        let has_value = if value_span.is_some() {
            ATTRIBUTE_HAS_VALUE
        } else {
            0
        };
        let value_span = value_span.unwrap_or_default();
        AttributeData {
            name,
            value,
            start: offset32(span.start),
            end: offset32(span.end),
            value_start: offset32(value_span.start),
            value_end: offset32(value_span.end),
            flags: ATTRIBUTE_PARSED | has_value,
        }
    }

    /// An attribute created by an edit.
    pub(crate) fn created(name: NameId, value: TextRef) -> AttributeData {
        AttributeData {
            name,
            value,
            start: 0,
            end: 0,
            value_start: 0,
            value_end: 0,
            flags: ATTRIBUTE_MODIFIED,
        }
    }

    /// An attribute supplied by an attribute-list declaration's default.
    pub(crate) fn defaulted(name: NameId, value: TextRef) -> AttributeData {
        AttributeData {
            flags: DTD_DEFAULTED,
            ..AttributeData::created(name, value)
        }
    }

    pub(crate) fn span(&self) -> Option<Span> {
        (self.flags & ATTRIBUTE_PARSED != 0).then(|| span_of(self.start, self.end))
    }

    pub(crate) fn value_span(&self) -> Option<Span> {
        let parsed_with_value = ATTRIBUTE_PARSED | ATTRIBUTE_HAS_VALUE;
        (self.flags & parsed_with_value == parsed_with_value)
            .then(|| span_of(self.value_start, self.value_end))
    }

    /// Whether an edit changed the name or value since it was parsed.
    pub(crate) fn modified(&self) -> bool {
        self.flags & ATTRIBUTE_MODIFIED != 0
    }

    pub(crate) fn set_modified(&mut self) {
        self.flags |= ATTRIBUTE_MODIFIED;
    }

    /// Supplied by an attribute-list declaration's default.
    pub(crate) fn is_defaulted(&self) -> bool {
        self.flags & DTD_DEFAULTED != 0
    }

    /// Declared of type `ID` by an attribute-list declaration.
    pub(crate) fn is_id(&self) -> bool {
        self.flags & DTD_ID != 0
    }

    pub(crate) fn set_id(&mut self) {
        self.flags |= DTD_ID;
    }

    fn is_last(&self) -> bool {
        self.flags & ATTRIBUTE_LAST != 0
    }

    fn set_last(&mut self, last: bool) {
        if last {
            self.flags |= ATTRIBUTE_LAST;
        } else {
            self.flags &= !ATTRIBUTE_LAST;
        }
    }
}

/// The XML declaration's fields.
///
/// ```
/// use xml5dom::Document;
/// let doc = Document::parse("<?xml version='1.0' standalone='yes'?>\n<a/>");
/// let decl = doc.xml_declaration().unwrap();
/// assert_eq!(decl.version.as_deref(), Some("1.0"));
/// assert_eq!(decl.encoding, None);
/// assert_eq!(decl.standalone.as_deref(), Some("yes"));
/// assert_eq!(&doc.source()[decl.span.range()], "<?xml version='1.0' standalone='yes'?>");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XmlDeclaration {
    /// `version`, if given.
    pub version: Option<String>,
    /// `encoding`, if given.
    pub encoding: Option<String>,
    /// `standalone`, if given.
    pub standalone: Option<String>,
    /// Where it was.
    pub span: Span,
}

/// What a document's errors say of it (see [`Document::is_well_formed`]).
#[derive(Clone, Copy, Debug)]
struct Verdict {
    /// An error is a well-formedness violation.
    errors: bool,
    /// A limit of the parse was reached.
    limits: bool,
}

/// A parsed (and possibly edited) XML document.
///
/// [`Document::parse`] never fails: it returns the tree the XML5 rules build
/// plus the parse errors met on the way ([`Document::errors`]).
///
/// ```
/// use xml5dom::Document;
/// let doc = Document::parse("<list><item>one<item>two</list>");
/// assert_eq!(doc.errors()[0].code.as_str(), "mismatched-end-tag");
/// let list = doc.root_element().unwrap();
/// assert_eq!(list.descendant_elements().count(), 2);
/// assert_eq!(list.text_content(), "onetwo");
/// ```
pub struct Document {
    arena: indextree::Arena<NodeData>,
    root: indextree::NodeId,
    /// The source text.
    text: SourceText,
    source_len: usize,
    /// Every string that differs from the source; a [`StrRange`] from
    /// `source_len` on points here. (Kept apart from the source so that
    /// storing the first string does not copy the whole source to grow it.)
    stored: String,
    /// The side storage's size after the last compaction (`compact.rs`).
    compacted_size: usize,
    names: Names,
    /// Every element's attributes, each element's in one range.
    attributes: Vec<AttributeData>,
    /// The CDATA parts of every text node that has any, each node's in
    /// one run.
    cdata: Vec<(usize, usize)>,
    /// Those runs, `start..end` of `cdata`: a text node's
    /// `NodeKind::Text::cdata` is `1 +` the index of its run here.
    cdata_runs: Vec<(usize, usize)>,
    /// The data of DOCTYPE nodes.
    doctypes: Vec<DoctypeData>,
    declaration: Option<XmlDeclaration>,
    errors: Vec<ParseError>,
    /// Whether an error is a well-formedness violation and whether a limit
    /// was reached, found the first time it is asked: the errors do not
    /// change once the document is built, and a writer of one node asks
    /// again each time.
    verdict: OnceLock<Verdict>,
    /// The context of some errors, by index in `errors`, in order (see
    /// `errors.rs`).
    error_contexts: Vec<(usize, crate::error::ErrorContext)>,
    /// Whether any edit was made (the serializer then checks namespace
    /// scopes before copying source).
    edited: bool,
    /// How many nodes may be [`NodeData::unchecked`]: while there are
    /// any, a move looks through the subtree it moves.
    unchecked: usize,
    /// The elements the internal subset's attribute-list declarations give
    /// defaults, each with the attributes they give a default, sorted:
    /// while the DOCTYPE is there, a document read back has them (edits
    /// keep that true).
    attribute_defaults: AttributeDefaults,
    encoding: crate::decoding::Encoding,
    encoding_source: EncodingSource,
    /// The input began with a byte-order mark (not part of the text).
    bom: bool,
    input_map: InputMap,
    /// Where the source's lines start (the parse fills it if it reported
    /// errors).
    lines: LineIndex,
    /// Where [`position`](Self::position) was last asked.
    last_position: Mutex<PositionCursor>,
    /// The entity references in content whose replacement text held markup,
    /// in document order (the outermost reference of nested ones).
    entity_expansions: Vec<EntityExpansion>,
    /// Markup the parse dropped (stray end tags, misplaced DOCTYPEs,
    /// elements after the root), as source spans in order: it may lie
    /// inside a text node's span, and repaired output leaves it out.
    dropped: Vec<Span>,
    /// Where elements past the depth limit were dropped: from each
    /// outermost dropped tag to the end tag that closed it, in order. Their
    /// tags may lie inside a text node's span.
    depth_dropped: Vec<Span>,
    /// The nodes an entity reference's expansion made ([`EXPANDED`]), each
    /// with `1 +` the index of the expansion in `entity_expansions`.
    expansions: HashMap<indextree::NodeId, u32>,
    /// Where the end tags of [`LONG_END_TAG`] elements start.
    long_end_tags: HashMap<indextree::NodeId, u32>,
    /// The string ranges too wide for a [`TextRef`].
    wide_ranges: Vec<StrRange>,
}

/// The elements that attribute-list declarations give defaults, each with
/// the attributes they give a default.
type AttributeDefaults = Vec<(Box<str>, Vec<Box<str>>)>;

/// One reference in content to an entity with markup, and the nodes its
/// expansion made: the serializer writes the reference back in their place
/// while they are as parsed.
#[derive(Clone, Debug)]
pub(crate) struct EntityExpansion {
    pub(crate) name: Box<str>,
    /// The reference in the source.
    pub(crate) reference: Span,
    /// The first of the nodes made at the reference's level, if any.
    pub(crate) first: Option<indextree::NodeId>,
    /// How many nodes were made at that level.
    pub(crate) count: usize,
    /// The expansion closed every element it opened and no other.
    pub(crate) balanced: bool,
}

// Documents are shared between threads and moved across them.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Document>();
};

impl Document {
    /// The encoding the document was decoded from (UTF-8 for text given as
    /// `&str`).
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// How the encoding was found.
    pub fn encoding_source(&self) -> EncodingSource {
        self.encoding_source
    }

    /// Whether the input began with a byte-order mark.
    pub fn had_byte_order_mark(&self) -> bool {
        self.bom
    }

    /// The offset in the input's bytes of an offset in [`Document::source`]:
    /// exact everywhere for UTF-8 input, and at the decoding errors for
    /// other encodings (`None` elsewhere there).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse_bytes(b"<a>x\xff\xfey</a>");
    /// let error = &doc.errors()[0];
    /// assert_eq!(error.code.as_str(), "windows-1252-in-utf-8");
    /// assert_eq!(doc.input_offset(error.offset), Some(4));
    /// let y = doc.source().find('y').unwrap();
    /// assert_eq!(doc.input_offset(y), Some(6));
    /// ```
    pub fn input_offset(&self, offset: usize) -> Option<usize> {
        self.input_map.input_offset(offset)
    }

    /// An empty document for `source`, holding a copy of it (the tree
    /// builder fills it).
    fn with_source(source: &str) -> Document {
        let mut doc = Document::sized_for(source);
        doc.text = SourceText::Owned(source.to_owned());
        doc
    }

    /// An empty document for `source`, without the text itself (the tree
    /// builder fills it): [`give_source`](Self::give_source) hands it that
    /// text, the same string, once the parse that borrows it is done. Until
    /// then only the construction API may be used.
    fn sized_for(source: &str) -> Document {
        // Reserving the arena up front saves growing it by copying (which
        // costs more than counting, and at the end of a parse holds the old
        // and the new arena at once): a node for each `<` that is not `</`,
        // and a text node before each `<` that does not follow a `>`.
        let bytes = source.as_bytes();
        let mut arena = indextree::Arena::with_capacity(node_estimate(bytes));
        // Likewise about one attribute per `=`.
        let attributes = Vec::with_capacity(memchr::memchr_iter(b'=', bytes).count());
        let root = arena.new_node(NodeData::parsed(
            NodeKind::Document,
            Span::new(0, source.len()),
        ));
        Document {
            arena,
            root,
            text: SourceText::Owned(String::new()),
            source_len: source.len(),
            stored: String::new(),
            compacted_size: 0,
            names: Names::new(),
            attributes,
            cdata: Vec::new(),
            cdata_runs: Vec::new(),
            doctypes: Vec::new(),
            declaration: None,
            errors: Vec::new(),
            verdict: OnceLock::new(),
            error_contexts: Vec::new(),
            edited: false,
            unchecked: 0,
            attribute_defaults: Vec::new(),
            encoding: crate::decoding::Encoding::UTF_8,
            encoding_source: EncodingSource::Default,
            bom: false,
            input_map: InputMap::default(),
            lines: LineIndex::default(),
            last_position: Mutex::new(PositionCursor::default()),
            entity_expansions: Vec::new(),
            dropped: Vec::new(),
            depth_dropped: Vec::new(),
            expansions: HashMap::new(),
            long_end_tags: HashMap::new(),
            wide_ranges: Vec::new(),
        }
    }

    /// Gives a document made by [`sized_for`](Self::sized_for) its source:
    /// the text it was sized for, taken as it is (no copy).
    pub(crate) fn give_source(&mut self, text: SourceText) {
        debug_assert!(self.text.is_empty() && text.len() == self.source_len);
        self.text = text;
    }

    /// Gives a document built as its source arrived (made by `sized_for`
    /// of no text) the source it was built from: its ranges of the source
    /// are into it (stored strings are told apart by [`STORED`], not by
    /// the source's length, which was not known while it was built).
    pub(crate) fn give_grown_source(&mut self, mut text: String) {
        self.source_len = text.len();
        self.arena[self.root].get_mut().end = offset32(text.len());
        // Grown by doubling as the input came: what is kept is what is
        // used.
        text.shrink_to_fit();
        self.text = SourceText::Owned(text);
        self.arena.shrink_to_fit();
        self.attributes.shrink_to_fit();
    }

    /// The document node, the root of the tree.
    ///
    /// ```
    /// use xml5dom::{Document, NodeType};
    /// let doc = Document::parse("<a/>");
    /// assert_eq!(doc.root().node_type(), NodeType::Document);
    /// ```
    pub fn root(&self) -> Node<'_> {
        Node::new(self, self.root)
    }

    /// The root element, the first element child of the document.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!-- c --><a/>");
    /// assert_eq!(doc.root_element().unwrap().name(), "a");
    /// ```
    pub fn root_element(&self) -> Option<Node<'_>> {
        self.root().child_elements().next()
    }

    /// The node with id `id`, unless it was removed.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a/>");
    /// let id = doc.root_element().unwrap().id();
    /// assert_eq!(doc.node(id).unwrap().name(), "a");
    /// ```
    pub fn node(&self, id: NodeId) -> Option<Node<'_>> {
        self.arena
            .get(id.0)
            .filter(|n| !n.is_removed())
            .map(|_| Node::new(self, id.0))
    }

    /// The parse errors, in source order. Each one's `Display` has its
    /// code's generic sentence; [`diagnostics`](Self::diagnostics) says
    /// them with what the parser knew (the message `xml5dom check`
    /// prints).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a x=1 x='2'/>");
    /// let codes: Vec<_> = doc.errors().iter().map(|e| e.code.as_str()).collect();
    /// assert_eq!(codes, ["unquoted-attribute-value", "duplicate-attribute"]);
    /// ```
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// Whether an edit has changed the document since it was parsed (or it
    /// was built without a source, as edits build).
    pub(crate) fn is_edited(&self) -> bool {
        self.edited
    }

    /// The records of the DOCTYPE nodes, by their
    /// [`NodeData::doctype_index`].
    pub(crate) fn doctype_records(&self) -> &[DoctypeData] {
        &self.doctypes
    }

    /// The record of the entity expansion `index` (a node's
    /// [`Document::expansion_mark`] minus 1).
    pub(crate) fn entity_expansion(&self, index: usize) -> Option<&EntityExpansion> {
        self.entity_expansions.get(index)
    }

    /// Where the source had markup that made no node, and markup dropped
    /// for the depth limit, each in source order.
    pub(crate) fn dropped_markup(&self) -> (&[Span], &[Span]) {
        (&self.dropped, &self.depth_dropped)
    }

    /// Records how the input was decoded: its encoding, how that was found,
    /// whether it began with a byte-order mark, and the map back to its
    /// bytes.
    pub(crate) fn set_decoding(
        &mut self,
        encoding: Encoding,
        source: EncodingSource,
        bom: bool,
        input_map: InputMap,
    ) {
        self.encoding = encoding;
        self.encoding_source = source;
        self.bom = bom;
        self.input_map = input_map;
    }

    /// Whether the input is known to be well-formed XML 1.0 with
    /// namespaces: no parse error is a well-formedness violation, and no
    /// limit was reached (there may be warnings, see
    /// [`Severity`](crate::error::Severity)). A document a limit cut short
    /// or changed is never taken for well-formed: the tree is not all of
    /// the input ([`limit_reached`](Self::limit_reached)).
    ///
    /// ```
    /// use xml5dom::{Document, ParseOptions};
    /// // `&#13;` is a warning (XML allows it), a bare `&` an error.
    /// assert!(Document::parse("<a>x&#13;y</a>").is_well_formed());
    /// assert!(!Document::parse("<a>x & y</a>").is_well_formed());
    /// // Well-formed, but cut short by a limit.
    /// let mut options = ParseOptions::default();
    /// options.limits.max_input_bytes = 4;
    /// assert!(!Document::parse_with("<a>x</a>", &options).is_well_formed());
    /// ```
    pub fn is_well_formed(&self) -> bool {
        let verdict = self.verdict();
        !verdict.errors && !verdict.limits
    }

    /// Whether an error is a well-formedness violation (warnings and
    /// limits aside): what the serializer repairs.
    pub(crate) fn has_errors(&self) -> bool {
        self.verdict().errors
    }

    /// What the errors say of the document, found the first time it is
    /// asked.
    fn verdict(&self) -> Verdict {
        *self.verdict.get_or_init(|| Verdict {
            errors: self.errors.iter().any(ParseError::is_error),
            limits: self.errors.iter().any(ParseError::is_limit),
        })
    }

    /// The first of the errors that say a limit of the parse was reached
    /// ([`Severity::Limit`](crate::error::Severity::Limit)), if any: then
    /// the tree is not all of the document (the input was cut, or markup,
    /// attributes, a name's end or an expansion were left out), and raising
    /// that limit ([`Limits`](crate::limits::Limits)) reads it whole.
    ///
    /// ```
    /// use xml5dom::{Document, ErrorCode, ParseOptions};
    /// assert!(Document::parse("<a><b/></a>").limit_reached().is_none());
    /// let mut options = ParseOptions::default();
    /// options.limits.max_element_depth = Some(1);
    /// let doc = Document::parse_with("<a><b/></a>", &options);
    /// assert_eq!(doc.limit_reached().unwrap().code, ErrorCode::ElementDepthLimit);
    /// ```
    pub fn limit_reached(&self) -> Option<&ParseError> {
        if !self.verdict().limits {
            return None;
        }
        self.errors.iter().find(|e| e.is_limit())
    }

    /// The XML declaration, if the document started with one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<?xml version='1.0' encoding='UTF-8'?><a/>");
    /// assert_eq!(doc.xml_declaration().unwrap().encoding.as_deref(), Some("UTF-8"));
    /// ```
    pub fn xml_declaration(&self) -> Option<&XmlDeclaration> {
        self.declaration.as_ref()
    }

    /// The text the document was parsed from.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>x</a>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(&doc.source()[a.span().unwrap().range()], "<a>x</a>");
    /// ```
    pub fn source(&self) -> &str {
        &self.text[..self.source_len]
    }

    /// The 1-based line and column (in characters) of a byte offset into the
    /// source; CR LF, CR and LF each end a line. Offsets past the end give the
    /// end's position.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>\r\n  <b/></a>");
    /// let b = doc.root_element().unwrap().first_element_child().unwrap();
    /// assert_eq!(doc.position(b.span().unwrap().start), (2, 3));
    /// ```
    pub fn position(&self, offset: usize) -> (u32, u32) {
        // Positions are mostly asked for in order (errors, repairs): count
        // on from the last one. (Another thread holding the cursor just
        // means counting from the line's start.)
        match self.last_position.try_lock() {
            Ok(mut cursor) => self.position_after(&mut cursor, offset),
            Err(_) => self.position_from_line_start(offset),
        }
    }

    /// [`position`](Self::position), counting characters from the start of
    /// the offset's line.
    fn position_from_line_start(&self, offset: usize) -> (u32, u32) {
        self.lines.position_from_line_start(self.source(), offset)
    }

    /// [`position`](Self::position), counting on from `cursor` (see
    /// [`LineIndex::position_after`]).
    pub(crate) fn position_after(&self, cursor: &mut PositionCursor, offset: usize) -> (u32, u32) {
        self.lines.position_after(self.source(), cursor, offset)
    }

    pub(crate) fn str(&self, range: StrRange) -> &str {
        match range.start & STORED {
            0 => &self.text[range.start..range.end],
            _ => &self.stored[range.start & !STORED..range.end & !STORED],
        }
    }

    /// For a parse: the storage of strings that are not in the source, to
    /// append to (a range appended is then taken with
    /// [`stored_range`](Self::stored_range); what is there must stay).
    fn storage(&mut self) -> &mut String {
        &mut self.stored
    }

    /// For a parse: bytes `start..end` of [`storage`](Self::storage).
    fn stored_range(&self, start: usize, end: usize) -> StrRange {
        StrRange::new(STORED | start, STORED | end)
    }

    /// Stores a string that is not in the source.
    pub(crate) fn store(&mut self, s: &str) -> StrRange {
        let start = self.stored.len();
        self.stored.push_str(s);
        self.stored_range(start, start + s.len())
    }

    /// Stores a string that is not in the source, as a node or attribute
    /// keeps it.
    fn store_ref(&mut self, s: &str) -> TextRef {
        let range = self.store(s);
        self.text_ref(range)
    }

    /// For a parse: the parsed element `id` closed, its source now ending
    /// at `end`; `end_tag` is the end tag that closed it, if one did.
    fn close_parsed(&mut self, id: indextree::NodeId, end: usize, end_tag: Option<Span>) {
        let data = self.arena[id].get_mut();
        data.end = offset32(end);
        let Some(tag) = end_tag.filter(|_| data.is_element()) else {
            return;
        };
        let start = offset32(tag.start);
        // An end tag is at least three bytes (`</>`), so its length is
        // never the 0 of none.
        match u16::try_from(data.end.wrapping_sub(start)) {
            Ok(len) if len != 0 && len != LONG_END_TAG => data.end_tag_len = len,
            _ => {
                data.end_tag_len = LONG_END_TAG;
                self.long_end_tags.insert(id, start);
            }
        }
    }

    /// The end tag that closed the parsed element `id` in the source
    /// (`</name>` or `</>`), if one did.
    pub(crate) fn end_tag(&self, id: indextree::NodeId) -> Option<Span> {
        let data = self.data(id);
        if !data.is_parsed() {
            return None;
        }
        let start = match data.end_tag_len {
            0 => return None,
            LONG_END_TAG => *self.long_end_tags.get(&id)?,
            len => data.end - u32::from(len),
        };
        Some(span_of(start, data.end))
    }

    /// `1 +` the index in the entity expansions of the one that made the
    /// node `id`; 0 for other nodes. Such a node's span is the reference's.
    #[inline]
    pub(crate) fn expansion_mark(&self, id: indextree::NodeId) -> u32 {
        match self.data(id).expanded() {
            true => self.expansions.get(&id).copied().unwrap_or(0),
            false => 0,
        }
    }

    /// `range` as a node or attribute keeps it.
    fn text_ref(&mut self, range: StrRange) -> TextRef {
        TextRef::new(range, &mut self.wide_ranges)
    }

    /// The range a [`TextRef`] stands for.
    #[inline]
    fn range_of(&self, text: TextRef) -> StrRange {
        text.range(&self.wide_ranges)
    }

    /// The text a [`TextRef`] stands for.
    #[inline]
    fn text_of(&self, text: TextRef) -> &str {
        self.str(self.range_of(text))
    }

    /// The attributes of `element` in the attribute storage (none for
    /// another node): from its first to the one marked last.
    fn attribute_range(&self, element: indextree::NodeId) -> ItemRange {
        attribute_run(&self.attributes, self.data(element).first_attribute())
    }

    /// The attributes of `element` (none for another node).
    #[inline]
    fn own_attributes(&self, element: indextree::NodeId) -> &[AttributeData] {
        self.attributes
            .get(self.attribute_range(element).range())
            .unwrap_or_default()
    }

    /// Gives `element` the attributes `range` of the attribute storage
    /// (marking the last of them so; nothing for another node).
    fn set_attribute_range(&mut self, element: indextree::NodeId, range: ItemRange) {
        let data = self.arena[element].get_mut();
        if !data.is_element() {
            return;
        }
        data.words[1] = if range.len == 0 {
            NO_ATTRIBUTES
        } else {
            range.start
        };
        let own = self.attributes.get_mut(range.range()).unwrap_or_default();
        let last = own.len().saturating_sub(1);
        for (i, attribute) in own.iter_mut().enumerate() {
            attribute.set_last(i == last);
        }
    }

    /// For a parse: records a text node's CDATA parts (relative byte ranges
    /// of its text), giving its `NodeKind::Text::cdata`. Past `u32::MAX - 1`
    /// text nodes with CDATA parts (more than the 4 GiB of input a parse
    /// takes can hold, but entity expansion under raised limits can make
    /// them), a text node keeps none: its text is the same, and the
    /// serializer writes it escaped where it writes it anew.
    fn add_cdata(&mut self, parts: &[(usize, usize)]) -> u32 {
        if parts.is_empty() {
            return 0;
        }
        let Ok(mark) = u32::try_from(self.cdata_runs.len() + 1) else {
            return 0;
        };
        let start = self.cdata.len();
        self.cdata.extend_from_slice(parts);
        self.cdata_runs.push((start, self.cdata.len()));
        mark
    }

    /// The CDATA parts `NodeKind::Text::cdata` points at.
    pub(crate) fn cdata_parts(&self, cdata: u32) -> &[(usize, usize)] {
        (cdata as usize)
            .checked_sub(1)
            .and_then(|run| self.cdata_runs.get(run))
            .and_then(|&(start, end)| self.cdata.get(start..end))
            .unwrap_or_default()
    }

    pub(crate) fn data(&self, id: indextree::NodeId) -> &NodeData {
        self.arena[id].get()
    }

    /// Records an edit: `flags` on `id`, and "a descendant is dirty" on its
    /// ancestors (stopping where that is already recorded, since it is then
    /// recorded above too).
    pub(crate) fn mark_dirty(&mut self, id: indextree::NodeId, flags: u8) {
        self.edited = true;
        self.arena[id].get_mut().flags |= flags & DIRTY;
        let mut parent = id.parent(&self.arena);
        while let Some(ancestor) = parent {
            let data = self.arena[ancestor].get_mut();
            if data.flags & DIRTY_DESCENDANTS != 0 {
                break;
            }
            data.flags |= DIRTY_DESCENDANTS;
            parent = ancestor.parent(&self.arena);
        }
    }
}

/// Where the lines of a source start, found the first time a position is
/// asked, and positions counted from them. The tree builder counts its
/// errors' positions with the index its sink lends it, so a [`Document`]
/// keeps the index its parse built.
#[derive(Clone, Debug, Default)]
pub(crate) struct LineIndex {
    starts: OnceLock<Vec<usize>>,
}

impl LineIndex {
    /// The line and column of `offset` in `source` (as
    /// [`Document::position`] gives them), counting characters from the
    /// start of the offset's line.
    pub(crate) fn position_from_line_start(&self, source: &str, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(source, offset);
        let starts = self.starts.get_or_init(|| line_starts(source));
        let line = starts.partition_point(|&start| start <= offset);
        let line_start = starts[line - 1];
        let column = source[line_start..offset].chars().count() + 1;
        (
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        )
    }

    /// [`position_from_line_start`](Self::position_from_line_start),
    /// counting on (or back) from where `cursor` was left when `offset` is on the same line and nearer to it
    /// than to the line's start: positions asked for in order cost what
    /// lies between them, not a scan from the line's start each (a
    /// one-line document with many errors stays linear).
    pub(crate) fn position_after(
        &self,
        source: &str,
        cursor: &mut PositionCursor,
        offset: usize,
    ) -> (u32, u32) {
        let offset = floor_char_boundary(source, offset);
        if cursor.line > 0 && cursor.line_start <= offset && offset < cursor.line_end {
            if cursor.offset <= offset {
                let more = source[cursor.offset..offset].chars().count();
                cursor.column = cursor
                    .column
                    .saturating_add(u32::try_from(more).unwrap_or(u32::MAX));
                cursor.offset = offset;
                return (cursor.line, cursor.column);
            }
            if cursor.offset - offset < offset - cursor.line_start {
                let fewer = source[offset..cursor.offset].chars().count();
                cursor.column = cursor
                    .column
                    .saturating_sub(u32::try_from(fewer).unwrap_or(u32::MAX));
                cursor.offset = offset;
                return (cursor.line, cursor.column);
            }
        }
        let (line, column) = self.position_from_line_start(source, offset);
        let starts = self.starts.get_or_init(|| line_starts(source));
        let index = usize::try_from(line).unwrap_or(usize::MAX);
        *cursor = PositionCursor {
            offset,
            line,
            column,
            line_start: index
                .checked_sub(1)
                .and_then(|i| starts.get(i))
                .copied()
                .unwrap_or(0),
            line_end: starts.get(index).copied().unwrap_or(usize::MAX),
        };
        (line, column)
    }
}

/// Where [`LineIndex::position_after`] was last asked, and where that line
/// starts and ends (the next line's start).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PositionCursor {
    offset: usize,
    line: u32,
    column: u32,
    line_start: usize,
    line_end: usize,
}

/// `offset`, or the start of the character it falls in, within `source`.
fn floor_char_boundary(source: &str, offset: usize) -> usize {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Byte offsets at which lines start: 0, and after each CR LF, CR or LF.
fn line_starts(source: &str) -> Vec<usize> {
    let bytes = source.as_bytes();
    let mut starts = vec![0];
    let mut i = 0;
    while let Some(found) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
        let at = i + found;
        let next = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            at + 2
        } else {
            at + 1
        };
        starts.push(next);
        i = next;
        if i >= bytes.len() {
            break;
        }
    }
    starts
}

impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_tree_dump())
    }
}

/// What stays of text outside the root element that XML does not allow
/// there: its lines that are only whitespace, and the line ends of the
/// others, so that repaired output keeps its lines. The tree builder keeps
/// that much of such text, and the serializer writes edited text outside
/// the root element the same way.
pub(crate) fn kept_outside_root(text: &str) -> String {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    text.split_inclusive(['\n', '\r'])
        .map(|line| {
            if line.chars().all(is_space) {
                line
            } else {
                line.trim_start_matches(|c| !matches!(c, '\n' | '\r'))
            }
        })
        .collect()
}

/// Text a caller shares with a document instead of handing it over (see
/// [`Document::parse_shared_with`]): the document keeps it, without a
/// copy, as its source for as long as the document lives.
pub type SharedText = Arc<dyn AsRef<str> + Send + Sync>;

/// A document's source: its own string, or text it shares with its
/// caller. Reads as a `str` either way.
#[derive(Clone)]
pub(crate) enum SourceText {
    Owned(String),
    Shared(SharedText),
}

impl std::ops::Deref for SourceText {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        match self {
            SourceText::Owned(text) => text,
            SourceText::Shared(text) => (**text).as_ref(),
        }
    }
}

/// How many nodes a parse of `bytes` makes, about: the document node and
/// one to spare, a node for each `<` that is not `</`, and a text node
/// before each `<` that does not follow a `>`. Counted over each pair of
/// neighbouring bytes in blocks of 64 pairs, whose count fits a byte, so
/// that the compiler makes vector code of it: a search for each `<` costs
/// several times more on markup-dense input.
fn node_estimate(bytes: &[u8]) -> usize {
    let pairs = bytes.len().saturating_sub(1);
    let (firsts, seconds) = (&bytes[..pairs], bytes.get(1..).unwrap_or_default());
    let in_pair = |first: u8, second: u8| {
        u8::from(first == b'<') & u8::from(second != b'/')
            | u8::from(second == b'<') & u8::from(first != b'>') << 1
    };
    let mut estimate = 2 + usize::from(bytes.last() == Some(&b'<'));
    let blocks = firsts.chunks_exact(64).zip(seconds.chunks_exact(64));
    for (firsts, seconds) in blocks {
        let mut block = 0u8;
        for i in 0..64 {
            let found = in_pair(firsts[i], seconds[i]);
            block += (found & 1) + (found >> 1);
        }
        estimate += usize::from(block);
    }
    let done = pairs / 64 * 64;
    for (&first, &second) in firsts[done..].iter().zip(&seconds[done..]) {
        let found = in_pair(first, second);
        estimate += usize::from((found & 1) + (found >> 1));
    }
    estimate
}

#[cfg(test)]
mod tests {
    use super::{Document, StrRange, TextRef, STORED};
    use crate::span::Span;

    /// An end tag too long for a node's 16-bit length is kept aside, and
    /// written as parsed whether or not the element's children changed.
    #[test]
    fn a_long_end_tag_is_kept_aside_and_written_as_parsed() {
        // `</a`, the spaces and `>`: 65,534 bytes fit the node, 65,535 on
        // do not.
        for spaces in [0, 65_530, 65_531, 65_532, 70_000] {
            let source = format!("<a><b/></a{}>", " ".repeat(spaces));
            let mut doc = Document::parse(&source);
            assert!(doc.is_well_formed());
            let a = doc.root_element().unwrap().id();
            assert_eq!(doc.end_tag(a.0), Some(Span::new(7, source.len())));
            assert_eq!(doc.to_xml(), source);
            let c = doc.create_element("c");
            doc.append(a, c).unwrap();
            let expected = format!("<a><b/><c/></a{}>", " ".repeat(spaces));
            assert_eq!(doc.to_xml(), expected);
        }
    }

    /// A string range that does not fit a node's eight bytes is kept aside
    /// and read back the same.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_range_too_wide_for_a_node_is_kept_aside() {
        let fits = (1 << 31) - 2;
        let ranges = [
            (StrRange::new(0, 10), false),
            (StrRange::new(u32::MAX as usize, u32::MAX as usize), false),
            (StrRange::new(STORED | 7, STORED | 9), false),
            (StrRange::new(STORED, STORED | fits), false),
            (StrRange::new(5, 5 + fits), false),
            (StrRange::new(STORED, STORED | (fits + 1)), true),
            (StrRange::new(5, 5 + (fits + 1)), true),
            (
                StrRange::new(STORED | (1 << 33), STORED | ((1 << 33) + 4)),
                true,
            ),
            (StrRange::new(1 << 32, (1 << 32) + 1), true),
        ];
        let mut wide = Vec::new();
        for (range, aside) in ranges {
            let before = wide.len();
            let text = TextRef::new(range, &mut wide);
            assert_eq!(text.range(&wide), range);
            assert_eq!(wide.len() > before, aside, "{range:?}");
        }
    }

    /// Each element's attributes stay its own through edits that move,
    /// shorten, empty and grow them in turn (an element keeps only where
    /// they start; the last is marked).
    #[test]
    fn attributes_stay_each_elements_own_through_edits() {
        let mut doc = Document::parse("<r><a x='1' y='2'/><b z='3'/><c/></r>");
        let r = doc.root_element().unwrap();
        let ids: Vec<_> = r.children().map(|n| n.id()).collect();
        let (a, b, c) = (ids[0], ids[1], ids[2]);
        doc.set_attribute(a, "w", "4").unwrap();
        assert_eq!(doc.remove_attribute(b, "z").unwrap().as_deref(), Some("3"));
        doc.set_attribute(c, "u", "6").unwrap();
        doc.set_attribute(b, "v", "5").unwrap();
        assert_eq!(doc.remove_attribute(a, "x").unwrap().as_deref(), Some("1"));
        doc.set_attribute(a, "y", "7").unwrap();
        let attributes = |doc: &Document, id| -> Vec<(String, String)> {
            let node = doc.node(id).unwrap();
            let pairs = node
                .attributes()
                .map(|a| (a.name().into(), a.value().into()));
            pairs.collect()
        };
        let pair = |name: &str, value: &str| (name.to_owned(), value.to_owned());
        assert_eq!(attributes(&doc, a), [pair("y", "7"), pair("w", "4")]);
        assert_eq!(attributes(&doc, b), [pair("v", "5")]);
        assert_eq!(attributes(&doc, c), [pair("u", "6")]);
        doc.clear_attributes(a).unwrap();
        assert_eq!(attributes(&doc, a), []);
        assert_eq!(attributes(&doc, b), [pair("v", "5")]);
        let reread = Document::parse(&doc.to_xml());
        let r = reread.root_element().unwrap();
        let ids: Vec<_> = r.children().map(|n| n.id()).collect();
        assert_eq!(attributes(&reread, ids[0]), []);
        assert_eq!(attributes(&reread, ids[1]), [pair("v", "5")]);
        assert_eq!(attributes(&reread, ids[2]), [pair("u", "6")]);
    }
}
