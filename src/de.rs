//! Layer 7 (feature `serde`): documents, however broken, into Rust values
//! through serde, by quick-xml's conventions: `@name` for an attribute,
//! `$text` for an element's text, element names for fields, `Vec<T>` for
//! repeated elements (collected wherever they stand among the others),
//! `Option<T>` for absent ones, and `{namespace-uri}local` for a field
//! matched by expanded name whatever prefix the document used.
//!
//! It reads the whole document (the tree), so what a streaming
//! deserializer cannot see is here: elements of one name interleaved with
//! others, every attribute and child before a field is asked for. The
//! parse errors of the input come back beside the value
//! ([`Deserialized::errors`]); a value that does not fit its type is a
//! [`DeError`] that names where (`/rss/channel/item[3]/pubDate at
//! 41:15`). docs/serde.md.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{self, DeserializeOwned, MapAccess, SeqAccess, Visitor};

use crate::decoding::ParseOptions;
use crate::dom::{Attribute, Document, Node};
use crate::error::ParseError;

/// A value read from a document, and the parse errors of its input.
#[derive(Debug)]
#[non_exhaustive]
pub struct Deserialized<T> {
    /// The value.
    pub value: T,
    /// What was wrong with the input (empty for well-formed XML).
    pub errors: Vec<ParseError>,
}

/// A document that does not fit the type asked for: what, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeError {
    message: String,
    /// The element's path (`/rss/channel/item[3]/pubDate`), if known.
    path: Option<String>,
    /// Its line and column, if it came from the source.
    position: Option<(u32, u32)>,
    /// What was wrong with the input (often the reason it did not fit).
    parse_errors: Vec<ParseError>,
}

impl DeError {
    /// What did not fit.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where: the element's path from the root.
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// Where: the element's line and column in the source.
    pub fn position(&self) -> Option<(u32, u32)> {
        self.position
    }

    /// The parse errors of the input, which may be why it did not fit:
    /// they are not dropped when the value cannot be read.
    pub fn parse_errors(&self) -> &[ParseError] {
        &self.parse_errors
    }

    /// The error, placed at `at` unless it is placed already.
    fn at(self, at: &Place<'_>) -> DeError {
        self.at_field(at, None)
    }

    /// The error, placed at the attribute or text `field` of `at` (the
    /// source offset `offset`) unless it is placed already.
    fn at_field(mut self, at: &Place<'_>, field: Option<(&str, Option<usize>)>) -> DeError {
        if self.path.is_some() {
            return self;
        }
        let mut path = at.path();
        let mut offset = at.node.span().map(|span| span.start);
        if let Some((name, field_offset)) = field {
            path.push('/');
            path.push_str(name);
            offset = field_offset.or(offset);
        }
        self.path = Some(path);
        self.position = offset.map(|offset| at.node.document().position(offset));
        self
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            f.write_str(path)?;
            if let Some((line, column)) = self.position {
                write!(f, " at {line}:{column}")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)?;
        match self.parse_errors.len() {
            0 => Ok(()),
            1 => f.write_str(" (the input has 1 parse error)"),
            n => write!(f, " (the input has {n} parse errors)"),
        }
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(message: T) -> DeError {
        DeError {
            message: message.to_string(),
            path: None,
            position: None,
            parse_errors: Vec::new(),
        }
    }
}

/// Reads `text` (XML, however broken) into a `T`.
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Item {
///     #[serde(rename = "@id")]
///     id: u32,
///     title: String,
/// }
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Feed {
///     #[serde(rename = "item")]
///     items: Vec<Item>,
/// }
///
/// // Unquoted, unclosed and with a bare `&`: read all the same.
/// let read = xml5dom::de::from_str::<Feed>(
///     "<feed><item id=1><title>Fish & chips</title></item><item id='2'><title>Peas</feed>",
/// )
/// .unwrap();
/// assert_eq!(read.value.items[0].title, "Fish & chips");
/// assert_eq!(read.value.items[1], Item { id: 2, title: "Peas".into() });
/// let codes: Vec<&str> = read.errors.iter().map(|e| e.code.as_str()).collect();
/// assert_eq!(codes, ["unquoted-attribute-value", "bare-ampersand", "mismatched-end-tag"]);
/// ```
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<Deserialized<T>, DeError> {
    from_document(&Document::parse_with(text, &reading()))
}

/// Reads `bytes` (XML in any encoding, however broken) into a `T`.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<Deserialized<T>, DeError> {
    from_document(&Document::parse_bytes_with(bytes, &reading()))
}

/// Reads what `reader` gives (XML in any encoding, however broken) into a
/// `T`.
pub fn from_reader<T: DeserializeOwned, R: std::io::Read>(
    reader: R,
) -> Result<Deserialized<T>, DeError> {
    let doc = Document::from_reader_with(reader, &reading()).map_err(de::Error::custom)?;
    from_document(&doc)
}

/// Reads the element `node` into a `T`.
pub fn from_node<'a, T: de::Deserialize<'a>>(node: Node<'a>) -> Result<T, DeError> {
    let place = Place {
        node,
        origin: node,
        depth: 1,
    };
    T::deserialize(ElementDeserializer {
        place,
        variant_by_name: true,
    })
}

/// How the entry points parse: text of whitespace only that follows an
/// element (indentation) left out of the tree, as reading skips it anyway
/// ([`text_of`]), which makes the tree of indented data a third smaller.
fn reading() -> ParseOptions {
    ParseOptions {
        skip_blank_text: true,
        ..ParseOptions::default()
    }
}

fn from_document<T: DeserializeOwned>(doc: &Document) -> Result<Deserialized<T>, DeError> {
    let root = doc
        .root_element()
        .ok_or_else(|| <DeError as de::Error>::custom("the document has no element"))?;
    let value = from_node(root).map_err(|mut error| {
        error.parse_errors = doc.errors().to_vec();
        error
    })?;
    Ok(Deserialized {
        value,
        errors: doc.errors().to_vec(),
    })
}

/// Deserializer methods that hand the whole call on to `self.$to()`.
macro_rules! delegate {
    ($to:ident: $($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                self.$to().$method(visitor)
            }
        )*
    };
}

/// The methods for plain values (booleans, numbers, characters and
/// strings), handed on whole to `self.$to()`.
macro_rules! plain_values_from {
    ($to:ident) => {
        delegate! { $to:
            deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
            deserialize_string
        }
    };
}

/// The methods every reader here answers alike: a newtype is its content;
/// a unit, a unit struct and what is ignored accept anything (the content
/// is not read).
macro_rules! units_and_newtypes {
    () => {
        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            visitor: V,
        ) -> Result<V::Value, DeError> {
            visitor.visit_newtype_struct(self)
        }

        fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            visitor.visit_unit()
        }

        fn deserialize_unit_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            visitor: V,
        ) -> Result<V::Value, DeError> {
            visitor.visit_unit()
        }

        fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            visitor.visit_unit()
        }
    };
}

/// Tuples and tuple structs read as the reader's sequence.
macro_rules! tuples_as_sequences {
    () => {
        fn deserialize_tuple<V: Visitor<'de>>(
            self,
            _: usize,
            visitor: V,
        ) -> Result<V::Value, DeError> {
            self.deserialize_seq(visitor)
        }

        fn deserialize_tuple_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            _: usize,
            visitor: V,
        ) -> Result<V::Value, DeError> {
            self.deserialize_seq(visitor)
        }
    };
}

/// How deep elements may nest in what is read: serde's derived code
/// recurses once per level, so deeper ones are refused rather than left to
/// overflow the stack (serde_json has the same bound).
pub const MAX_DEPTH: usize = 128;

/// The special field names: an element's text, and its content (elements
/// and text no other field takes, in document order).
const TEXT: &str = "$text";
const VALUE: &str = "$value";

/// An element being read, the element reading started at (where paths
/// start) and its depth below it (the start's is 1).
#[derive(Clone, Copy)]
struct Place<'a> {
    node: Node<'a>,
    origin: Node<'a>,
    depth: usize,
}

impl<'a> Place<'a> {
    fn child(&self, node: Node<'a>) -> Place<'a> {
        Place {
            node,
            origin: self.origin,
            depth: self.depth + 1,
        }
    }

    /// An error if the element is nested too deep to read its contents.
    fn check_depth(&self) -> Result<(), DeError> {
        if self.depth <= MAX_DEPTH {
            return Ok(());
        }
        let message = format!("elements nested deeper than {MAX_DEPTH}");
        Err(<DeError as de::Error>::custom(message).at(self))
    }

    /// The element's path (`/rss/channel/item[3]`), worked out only for an
    /// error: each step names an element, indexed among the siblings of its
    /// name when it has any.
    fn path(&self) -> String {
        let mut steps = Vec::with_capacity(self.depth);
        let mut node = self.node;
        for _ in 1..self.depth {
            if node == self.origin {
                break;
            }
            steps.push(step(node));
            match node.parent() {
                Some(parent) => node = parent,
                None => break,
            }
        }
        steps.push(self.origin.name().to_owned());
        let mut path = String::new();
        for step in steps.iter().rev() {
            path.push('/');
            path.push_str(step);
        }
        path
    }
}

/// One step of a path: the element's name, and its index among the
/// siblings of that name (from 1) when there are any.
fn step(node: Node<'_>) -> String {
    let name = node.name();
    let same_name = |sibling: &Node<'_>| sibling.name() == name;
    let before = std::iter::successors(node.prev_sibling_element(), |n| n.prev_sibling_element())
        .filter(same_name)
        .count();
    let after = std::iter::successors(node.next_sibling_element(), |n| n.next_sibling_element())
        .any(|n| same_name(&n));
    if before == 0 && !after {
        return name.to_owned();
    }
    format!("{name}[{}]", before + 1)
}

/// Whether a text node is indentation: XML whitespace only, written as it
/// is (no CDATA, no character reference, as its source shows).
fn is_indentation(text: Node<'_>) -> bool {
    let Some(value) = text.text().filter(|value| is_xml_whitespace(value)) else {
        return false;
    };
    let source = text
        .span()
        .and_then(|span| text.document().source().get(span.range()));
    source == Some(value)
}

/// XML's whitespace (space, tab, line feed, carriage return) only.
fn is_xml_whitespace(text: &str) -> bool {
    text.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// The text of an element: its text children (CDATA included), joined;
/// borrowed from the document when there is one. Beside child elements,
/// text of whitespace only written as it is is left out (indentation), as
/// quick-xml skips it; an element's only text is kept, blank or not.
fn text_of(node: Node<'_>) -> Cow<'_, str> {
    let mixed = node.child_elements().next().is_some();
    let mut texts = node
        .children()
        .filter(|child| child.is_text())
        .filter(|child| !(mixed && is_indentation(*child)))
        .filter_map(|child| child.text());
    let Some(first) = texts.next() else {
        return Cow::Borrowed("");
    };
    match texts.next() {
        None => Cow::Borrowed(first),
        Some(second) => {
            let mut joined = String::from(first);
            joined.push_str(second);
            joined.extend(texts);
            Cow::Owned(joined)
        }
    }
}

/// The key a child element (or an element choosing an enum variant) is
/// read under, the first of: `{uri}local` if one of `names` is that
/// expanded name (looked for only if `expanded`: some name is written so);
/// its qualified name if one of `names` is that; its local name, as
/// quick-xml reads every name. With it, whether it is the name as written.
fn element_key<'a>(child: Node<'a>, names: &[&str], expanded: bool) -> (Cow<'a, str>, bool) {
    if let (true, Some(uri)) = (expanded, child.namespace()) {
        let name = format!("{{{uri}}}{}", child.local_name());
        if names.contains(&name.as_str()) {
            return (Cow::Owned(name), false);
        }
    }
    let name = child.name();
    if !name.contains(':') || names.contains(&name) {
        return (Cow::Borrowed(name), true);
    }
    (Cow::Borrowed(child.local_name()), false)
}

/// The key an attribute is read under, as an element's (`@{uri}local`,
/// `@qualified:name`, `@local`), except that namespace declarations and
/// `xml:` attributes keep their qualified name (as quick-xml).
fn attribute_key<'a>(attribute: Attribute<'a>, fields: &[&str], expanded: bool) -> Key<'a> {
    let name = attribute.name();
    let local = attribute.local_name();
    let declaration = name == "xmlns" || name.starts_with("xmlns:") || name.starts_with("xml:");
    if name.len() == local.len() || declaration {
        return Key::Attribute(name);
    }
    if let (true, Some(uri)) = (expanded, attribute.namespace()) {
        let key = format!("@{{{uri}}}{local}");
        if fields.contains(&key.as_str()) {
            return Key::Name(Cow::Owned(key));
        }
    }
    if fields
        .iter()
        .any(|field| field.strip_prefix('@') == Some(name))
    {
        return Key::Attribute(name);
    }
    Key::Attribute(local)
}

/// Whether some of `names` are expanded names (`{uri}local`, `@{uri}local`).
fn has_expanded_names(names: &[&str]) -> bool {
    names
        .iter()
        .any(|name| name.starts_with('{') || name.starts_with("@{"))
}

/// Reads one element: a struct or map from its attributes, children and
/// text; a plain value from its text; an enum by its name (at the top and
/// in `$value` content) or by its text (in a field).
struct ElementDeserializer<'a> {
    place: Place<'a>,
    variant_by_name: bool,
}

impl<'a> ElementDeserializer<'a> {
    fn text(&self) -> TextDeserializer<'a> {
        TextDeserializer {
            text: text_of(self.place.node),
            place: self.place,
            field: None,
            as_text_variant: false,
        }
    }

    /// The element as a map: attributes (`@name`), children by name, its
    /// text (`$text`) and, if the type has a `$value` field, what no other
    /// field takes.
    fn map(&self, fields: &'static [&'static str]) -> ElementMap<'a> {
        let node = self.place.node;
        let has_value = fields.contains(&VALUE);
        let has_text = fields.contains(&TEXT);
        // As quick-xml: text goes to `$value` unless there is a `$text`.
        let text_in_content = has_value && !has_text;
        let expanded = has_expanded_names(fields);
        // Room for a record's attributes and children: one allocation.
        let mut entries: Vec<(Key<'a>, Entry<'a>)> = Vec::with_capacity(16);
        for attribute in node.attributes() {
            let offset = attribute.value_span().or(attribute.span());
            let value = Cow::Borrowed(attribute.value());
            let entry = Entry::Text(value, offset.map(|span| span.start));
            entries.push((attribute_key(attribute, fields, expanded), entry));
        }
        let mut groups = Groups::after(entries.len());
        let mut content: Vec<Item<'a>> = Vec::new();
        let mut significant_text = false;
        let mixed = node.child_elements().next().is_some();
        for child in node.children() {
            if child.is_element() {
                let (key, exact) = element_key(child, fields, expanded);
                if has_value && !fields.contains(&key.as_ref()) {
                    content.push(Item::Element(child));
                } else {
                    groups.add(&mut entries, key, child, exact);
                }
            } else if let (true, Some(text)) = (child.is_text(), child.text()) {
                significant_text |= !is_xml_whitespace(text);
                if text_in_content && !(mixed && is_indentation(child)) {
                    match content.last_mut() {
                        Some(Item::Text(joined)) => joined.to_mut().push_str(text),
                        _ => content.push(Item::Text(Cow::Borrowed(text))),
                    }
                }
            }
        }
        if !text_in_content && (has_text || significant_text) {
            entries.push((
                Key::Name(Cow::Borrowed(TEXT)),
                Entry::Text(text_of(node), None),
            ));
        }
        if has_value {
            entries.push((Key::Name(Cow::Borrowed(VALUE)), Entry::Content(content)));
        }
        ElementMap {
            entries: entries.into_iter(),
            value: None,
            place: self.place,
            attribute_key: String::new(),
        }
    }

    fn elements(self) -> ElementsDeserializer<'a> {
        let parent = Place {
            depth: self.place.depth - 1,
            ..self.place
        };
        ElementsDeserializer {
            group: Group {
                first: self.place.node,
                more: Vec::new(),
                exact: None,
            },
            parent,
        }
    }
}

/// The child elements of one key: the first, and any more.
struct Group<'a> {
    first: Node<'a>,
    more: Vec<Node<'a>>,
    /// The first whose name as written is the key, read when one value is
    /// asked for: a field `link` takes `<link>` before an `<atom:link>`
    /// that came first.
    exact: Option<Node<'a>>,
}

impl<'a> Group<'a> {
    /// A group of `first` (`exact`: its name as written is the key).
    fn new(first: Node<'a>, exact: bool) -> Group<'a> {
        Group {
            first,
            more: Vec::new(),
            exact: exact.then_some(first),
        }
    }

    fn add(&mut self, node: Node<'a>, exact: bool) {
        if exact && self.exact.is_none() {
            self.exact = Some(node);
        }
        self.more.push(node);
    }
}

/// Child elements grouped by key, wherever they stand among the others,
/// into the entries of a map from `start` on, in the order of the first
/// of each key.
struct Groups<'a> {
    start: usize,
    /// Each key's entry, once there are too many to scan.
    index: HashMap<Cow<'a, str>, usize>,
}

/// Whether two keys are the same: names interned by the document are
/// often the very same string.
fn same_key(a: &str, b: &str) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || a == b
}

/// Up to this many keys, a scan finds a group faster than a hash.
const SCAN_LIMIT: usize = 8;

impl<'a> Groups<'a> {
    fn after(start: usize) -> Groups<'a> {
        Groups {
            start,
            index: HashMap::new(),
        }
    }

    /// `node` under `key` (`exact`: the node's name as written).
    fn add(
        &mut self,
        entries: &mut Vec<(Key<'a>, Entry<'a>)>,
        key: Cow<'a, str>,
        node: Node<'a>,
        exact: bool,
    ) {
        let found = if self.index.is_empty() {
            (self.start..entries.len())
                .find(|&at| matches!(&entries[at].0, Key::Name(name) if same_key(name, &key)))
        } else {
            self.index.get(&key).copied()
        };
        if let Some((_, Entry::Elements(group))) = found.and_then(|at| entries.get_mut(at)) {
            group.add(node, exact);
            return;
        }
        if entries.len() - self.start == SCAN_LIMIT {
            self.index = (self.start..entries.len())
                .filter_map(|at| match &entries[at].0 {
                    Key::Name(name) => Some((name.clone(), at)),
                    Key::Attribute(_) => None,
                })
                .collect();
        }
        if !self.index.is_empty() {
            self.index.insert(key.clone(), entries.len());
        }
        let group = Group::new(node, exact);
        entries.push((Key::Name(key), Entry::Elements(group)));
    }
}

/// A key of an element's map.
#[derive(Clone)]
enum Key<'a> {
    /// An attribute, by its qualified name (read as `@name`).
    Attribute(&'a str),
    /// Child elements by name, or `$text` or `$value`.
    Name(Cow<'a, str>),
}

/// What a key of an element's map holds.
enum Entry<'a> {
    /// An attribute's value (and where it starts) or the element's text.
    Text(Cow<'a, str>, Option<usize>),
    Elements(Group<'a>),
    /// The `$value`: elements and text no other field takes.
    Content(Vec<Item<'a>>),
}

/// One piece of `$value` content.
enum Item<'a> {
    Element(Node<'a>),
    /// Adjacent text and CDATA, joined.
    Text(Cow<'a, str>),
}

struct ElementMap<'a> {
    /// The entries still to read.
    entries: std::vec::IntoIter<(Key<'a>, Entry<'a>)>,
    value: Option<(Key<'a>, Entry<'a>)>,
    place: Place<'a>,
    /// `@name` of the attribute being read (one buffer for them all).
    attribute_key: String,
}

impl<'de, 'a: 'de> MapAccess<'de> for ElementMap<'a> {
    type Error = DeError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((key, entry)) = self.entries.next() else {
            return Ok(None);
        };
        let read = match &key {
            Key::Attribute(name) => {
                self.attribute_key.clear();
                self.attribute_key.push('@');
                self.attribute_key.push_str(name);
                seed.deserialize(de::value::StrDeserializer::new(&self.attribute_key))
            }
            Key::Name(Cow::Borrowed(key)) => {
                seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            }
            Key::Name(Cow::Owned(key)) => seed.deserialize(de::value::StrDeserializer::new(key)),
        };
        self.value = Some((key, entry));
        read.map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, DeError> {
        let Some((key, entry)) = self.value.take() else {
            return Err(de::Error::custom("a value without its key"));
        };
        match entry {
            Entry::Text(text, offset) => seed.deserialize(TextDeserializer {
                text,
                place: self.place,
                field: Some(Field { key, offset }),
                as_text_variant: false,
            }),
            Entry::Elements(group) => seed.deserialize(ElementsDeserializer {
                group,
                parent: self.place,
            }),
            Entry::Content(items) => seed.deserialize(ContentDeserializer {
                items,
                place: self.place,
            }),
        }
    }
}

/// The child elements of one key: a sequence, or (asked for one value)
/// the first.
struct ElementsDeserializer<'a> {
    group: Group<'a>,
    parent: Place<'a>,
}

/// The XML Schema instance namespace, whose `nil` attribute says an
/// element stands for no value.
const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

impl<'a> ElementsDeserializer<'a> {
    fn first(self) -> ElementDeserializer<'a> {
        let node = self.group.exact.unwrap_or(self.group.first);
        ElementDeserializer {
            place: self.parent.child(node),
            variant_by_name: false,
        }
    }

    /// Whether the element is marked `xsi:nil="true"` (as quick-xml reads
    /// it: an `Option` is then `None`).
    fn is_nil(&self) -> bool {
        let node = self.group.exact.unwrap_or(self.group.first);
        node.attributes().any(|attribute| {
            attribute.namespace() == Some(XSI)
                && attribute.local_name() == "nil"
                && matches!(attribute.value().trim(), "true" | "1")
        })
    }
}

struct Elements<'a> {
    nodes: std::iter::Chain<std::iter::Once<Node<'a>>, std::vec::IntoIter<Node<'a>>>,
    parent: Place<'a>,
}

impl<'de, 'a: 'de> SeqAccess<'de> for Elements<'a> {
    type Error = DeError;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some(node) = self.nodes.next() else {
            return Ok(None);
        };
        let element = ElementDeserializer {
            place: self.parent.child(node),
            variant_by_name: false,
        };
        seed.deserialize(element).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.nodes.size_hint().0)
    }
}

impl<'de, 'a: 'de> de::Deserializer<'de> for ElementsDeserializer<'a> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if !self.group.more.is_empty() {
            return self.deserialize_seq(visitor);
        }
        self.first().deserialize_any(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let nodes = std::iter::once(self.group.first).chain(self.group.more);
        visitor.visit_seq(Elements {
            nodes,
            parent: self.parent,
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.is_nil() {
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.first().deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.first().deserialize_enum(name, variants, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    plain_values_from!(first);

    delegate! { first: deserialize_map deserialize_unit }

    serde::forward_to_deserialize_any! {
        bytes byte_buf unit_struct tuple tuple_struct identifier
    }
}

impl<'de, 'a: 'de> de::Deserializer<'de> for ElementDeserializer<'a> {
    type Error = DeError;

    units_and_newtypes!();

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let node = self.place.node;
        if node.attributes().next().is_some() || node.child_elements().next().is_some() {
            return self.deserialize_map(visitor);
        }
        self.text().deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.place.check_depth()?;
        let place = self.place;
        visitor
            .visit_map(self.map(fields))
            .map_err(|error| error.at(&place))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.place.check_depth()?;
        let place = self.place;
        visitor
            .visit_map(self.map(&[]))
            .map_err(|error| error.at(&place))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        if !self.variant_by_name {
            return self.text().deserialize_enum(name, variants, visitor);
        }
        let place = self.place;
        visitor
            .visit_enum(ElementVariant { place, variants })
            .map_err(|error| error.at(&place))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.elements().deserialize_seq(visitor)
    }

    plain_values_from!(text);

    serde::forward_to_deserialize_any! {
        bytes byte_buf tuple tuple_struct identifier
    }
}

/// An enum chosen by an element's name (`{uri}local` if a variant is
/// named so); the element holds the variant's content.
struct ElementVariant<'a> {
    place: Place<'a>,
    variants: &'static [&'static str],
}

impl<'de, 'a: 'de> de::EnumAccess<'de> for ElementVariant<'a> {
    type Error = DeError;
    type Variant = ElementDeserializer<'a>;

    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, ElementDeserializer<'a>), DeError> {
        let expanded = has_expanded_names(self.variants);
        let (name, _) = element_key(self.place.node, self.variants, expanded);
        let variant = seed.deserialize(de::value::StrDeserializer::<DeError>::new(&name))?;
        let content = ElementDeserializer {
            place: self.place,
            variant_by_name: false,
        };
        Ok((variant, content))
    }
}

impl<'de, 'a: 'de> de::VariantAccess<'de> for ElementDeserializer<'a> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        Ok(())
    }

    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, DeError> {
        seed.deserialize(self)
    }

    /// A tuple variant's values are the element's text, a list separated
    /// by whitespace (`xs:list`).
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_seq(self.text(), visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}

/// The `$value` of an element: the elements and text no other field
/// takes, in document order. A sequence of them, or one.
struct ContentDeserializer<'a> {
    items: Vec<Item<'a>>,
    /// The element they are in.
    place: Place<'a>,
}

impl<'a> ContentDeserializer<'a> {
    /// The text among the items, joined (elements left out).
    fn text(self) -> TextDeserializer<'a> {
        let mut texts = self.items.into_iter().filter_map(|item| match item {
            Item::Text(text) => Some(text),
            Item::Element(_) => None,
        });
        let mut text = texts.next().unwrap_or_default();
        for more in texts {
            text.to_mut().push_str(&more);
        }
        TextDeserializer {
            text,
            place: self.place,
            field: Some(Field {
                key: Key::Name(Cow::Borrowed(VALUE)),
                offset: None,
            }),
            as_text_variant: false,
        }
    }

    /// The first item, or (there is none) the element they would be in.
    fn first(self) -> Result<ItemDeserializer<'a>, Place<'a>> {
        let place = self.place;
        match self.items.into_iter().next() {
            Some(item) => Ok(ItemDeserializer::new(item, place)),
            None => Err(place),
        }
    }
}

/// One item of `$value` content: an element (an enum chosen by its name,
/// anything else read from it) or text (an enum's `$text` variant,
/// anything else read from it).
enum ItemDeserializer<'a> {
    Element(ElementDeserializer<'a>),
    Text(TextDeserializer<'a>),
}

impl<'a> ItemDeserializer<'a> {
    fn new(item: Item<'a>, parent: Place<'a>) -> ItemDeserializer<'a> {
        match item {
            Item::Element(node) => ItemDeserializer::Element(ElementDeserializer {
                place: parent.child(node),
                variant_by_name: true,
            }),
            Item::Text(text) => ItemDeserializer::Text(TextDeserializer {
                text,
                place: parent,
                field: Some(Field {
                    key: Key::Name(Cow::Borrowed(VALUE)),
                    offset: None,
                }),
                as_text_variant: true,
            }),
        }
    }
}

/// Deserializer methods of [`ItemDeserializer`], handed to the element's
/// or the text's.
macro_rules! either_item {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                match self {
                    ItemDeserializer::Element(element) => element.$method(visitor),
                    ItemDeserializer::Text(text) => text.$method(visitor),
                }
            }
        )*
    };
}

impl<'de, 'a: 'de> de::Deserializer<'de> for ItemDeserializer<'a> {
    type Error = DeError;

    units_and_newtypes!();
    tuples_as_sequences!();

    either_item! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_seq deserialize_map deserialize_identifier
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self {
            ItemDeserializer::Element(element) => element.deserialize_struct(name, fields, visitor),
            ItemDeserializer::Text(text) => text.deserialize_struct(name, fields, visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self {
            ItemDeserializer::Element(element) => element.deserialize_enum(name, variants, visitor),
            ItemDeserializer::Text(text) => text.deserialize_enum(name, variants, visitor),
        }
    }
}

struct Items<'a> {
    items: std::vec::IntoIter<Item<'a>>,
    place: Place<'a>,
}

impl<'de, 'a: 'de> SeqAccess<'de> for Items<'a> {
    type Error = DeError;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        match self.items.next() {
            Some(item) => seed
                .deserialize(ItemDeserializer::new(item, self.place))
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

impl<'de, 'a: 'de> de::Deserializer<'de> for ContentDeserializer<'a> {
    type Error = DeError;

    units_and_newtypes!();
    tuples_as_sequences!();

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.items.len() > 1 {
            return self.deserialize_seq(visitor);
        }
        match self.first() {
            Ok(item) => item.deserialize_any(visitor),
            Err(_) => visitor.visit_str(""),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_seq(Items {
            items: self.items.into_iter(),
            place: self.place,
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.items.is_empty() {
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    /// The first item chooses the variant: an element by its name, text
    /// the `$text` variant. No content at all is an empty `$text`.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let item = self
            .first()
            .unwrap_or_else(|place| ItemDeserializer::new(Item::Text(Cow::Borrowed("")), place));
        item.deserialize_enum(name, variants, visitor)
    }

    /// The first item; none: a struct of no fields given.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.first() {
            Ok(item) => item.deserialize_struct(name, fields, visitor),
            Err(place) => empty_map(place, visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.first() {
            Ok(item) => item.deserialize_map(visitor),
            Err(place) => empty_map(place, visitor),
        }
    }

    plain_values_from!(text);

    serde::forward_to_deserialize_any! {
        bytes byte_buf identifier
    }
}

/// A map of no entries, for a struct read from no content: its fields are
/// all missing (or default).
fn empty_map<'de, 'a: 'de, V: Visitor<'de>>(
    place: Place<'a>,
    visitor: V,
) -> Result<V::Value, DeError> {
    let map = ElementMap {
        entries: Vec::new().into_iter(),
        value: None,
        place,
        attribute_key: String::new(),
    };
    visitor.visit_map(map).map_err(|error| error.at(&place))
}

/// The attribute or text a text value came from, for error paths.
struct Field<'a> {
    /// An attribute, `$text` or `$value`.
    key: Key<'a>,
    /// Where its value starts in the source, when that is more precise
    /// than the element's start.
    offset: Option<usize>,
}

/// Text read as a plain value: a string as it is; a number, a boolean or
/// a character from it with XML whitespace around it trimmed; a list of
/// values (`xs:list`) from its whitespace-separated parts.
struct TextDeserializer<'a> {
    text: Cow<'a, str>,
    /// The element it belongs to.
    place: Place<'a>,
    field: Option<Field<'a>>,
    /// Read as an enum: the `$text` variant (text in `$value` content), not
    /// the variant the text names (text in a field).
    as_text_variant: bool,
}

/// `error` placed at `field` of `place`.
fn placed_at(error: DeError, place: &Place<'_>, field: Option<&Field<'_>>) -> DeError {
    let step = field.map(|field| (field.path_step(), field.offset));
    let step = step.as_ref().map(|(name, offset)| (name.as_ref(), *offset));
    error.at_field(place, step)
}

impl Field<'_> {
    /// The field's step in a path: `@name`, `$text`, `$value`.
    fn path_step(&self) -> Cow<'_, str> {
        match &self.key {
            Key::Attribute(name) => Cow::Owned(format!("@{name}")),
            Key::Name(name) => Cow::Borrowed(name),
        }
    }
}

fn trim_xml_whitespace(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\n', '\r'])
}

impl TextDeserializer<'_> {
    /// `error` placed at this text's field.
    fn placed(&self, error: DeError) -> DeError {
        placed_at(error, &self.place, self.field.as_ref())
    }

    /// The text read as `T`, or an error naming what was expected.
    fn parse<T: std::str::FromStr>(&self, expected: &str) -> Result<T, DeError> {
        trim_xml_whitespace(&self.text).parse().map_err(|_| {
            let found = &self.text;
            self.placed(de::Error::custom(format!(
                "expected {expected}, found {found:?}"
            )))
        })
    }
}

macro_rules! parsed {
    ($($method:ident $visit:ident $type:ty, $expected:literal;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                let value: $type = self.parse($expected)?;
                visitor.$visit(value).map_err(|error| self.placed(error))
            }
        )*
    };
}

impl<'de, 'a: 'de> de::Deserializer<'de> for TextDeserializer<'a> {
    type Error = DeError;

    units_and_newtypes!();
    tuples_as_sequences!();

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let read = match &self.text {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_str(text),
        };
        read.map_err(|error| self.placed(error))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let value = match trim_xml_whitespace(&self.text) {
            "true" | "1" => true,
            "false" | "0" => false,
            _ => {
                let found = &self.text;
                let message = format!("expected a boolean, found {found:?}");
                return Err(self.placed(de::Error::custom(message)));
            }
        };
        visitor
            .visit_bool(value)
            .map_err(|error| self.placed(error))
    }

    parsed! {
        deserialize_i8 visit_i8 i8, "an integer";
        deserialize_i16 visit_i16 i16, "an integer";
        deserialize_i32 visit_i32 i32, "an integer";
        deserialize_i64 visit_i64 i64, "an integer";
        deserialize_i128 visit_i128 i128, "an integer";
        deserialize_u8 visit_u8 u8, "an unsigned integer";
        deserialize_u16 visit_u16 u16, "an unsigned integer";
        deserialize_u32 visit_u32 u32, "an unsigned integer";
        deserialize_u64 visit_u64 u64, "an unsigned integer";
        deserialize_u128 visit_u128 u128, "an unsigned integer";
        deserialize_f32 visit_f32 f32, "a number";
        deserialize_f64 visit_f64 f64, "a number";
    }

    /// A character: the text's one character, or (there are more) the
    /// one between XML whitespace, so that a space or a tab reads back.
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let mut chars = self.text.chars();
        if let (Some(only), None) = (chars.next(), chars.next()) {
            return visitor.visit_char(only).map_err(|error| self.placed(error));
        }
        let value: char = self.parse("a character")?;
        visitor
            .visit_char(value)
            .map_err(|error| self.placed(error))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let place = self.place;
        let field = (self.field.as_ref()).map(|field| Field {
            key: field.key.clone(),
            offset: field.offset,
        });
        let placed = |error: DeError| placed_at(error, &place, field.as_ref());
        if self.as_text_variant {
            return visitor
                .visit_enum(TextVariant { text: self })
                .map_err(placed);
        }
        let name = trim_xml_whitespace(&self.text);
        let variant = de::value::StrDeserializer::<DeError>::new(name);
        visitor.visit_enum(variant).map_err(placed)
    }

    /// A list (`xs:list`): the values between whitespace.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let parts: Vec<Cow<'a, str>> = match &self.text {
            Cow::Borrowed(text) => text.split_ascii_whitespace().map(Cow::Borrowed).collect(),
            Cow::Owned(text) => (text.split_ascii_whitespace())
                .map(|part| Cow::Owned(part.to_owned()))
                .collect(),
        };
        let list = List {
            parts: parts.into_iter(),
            text: &self,
        };
        visitor.visit_seq(list).map_err(|error| self.placed(error))
    }

    serde::forward_to_deserialize_any! {
        str string bytes byte_buf map struct identifier
    }
}

/// The parts of a list in text.
struct List<'t, 'a> {
    parts: std::vec::IntoIter<Cow<'a, str>>,
    /// The text they are from.
    text: &'t TextDeserializer<'a>,
}

impl<'de, 'a: 'de> SeqAccess<'de> for List<'_, 'a> {
    type Error = DeError;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some(part) = self.parts.next() else {
            return Ok(None);
        };
        let field = self.text.field.as_ref().map(|field| Field {
            key: field.key.clone(),
            offset: field.offset,
        });
        let part = TextDeserializer {
            text: part,
            place: self.text.place,
            field,
            as_text_variant: false,
        };
        seed.deserialize(part).map(Some)
    }
}

/// Text in `$value` content read as an enum: the variant named `$text`.
struct TextVariant<'a> {
    text: TextDeserializer<'a>,
}

impl<'de, 'a: 'de> de::EnumAccess<'de> for TextVariant<'a> {
    type Error = DeError;
    type Variant = TextVariant<'a>;

    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, TextVariant<'a>), DeError> {
        let variant = seed.deserialize(de::value::BorrowedStrDeserializer::<DeError>::new(TEXT))?;
        Ok((variant, self))
    }
}

impl<'de, 'a: 'de> de::VariantAccess<'de> for TextVariant<'a> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        Ok(())
    }

    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, DeError> {
        let mut text = self.text;
        text.as_text_variant = false;
        seed.deserialize(text)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_seq(self.text, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, DeError> {
        let found = &self.text.text;
        let message = format!("expected an element for a struct variant, found text {found:?}");
        Err(self.text.placed(de::Error::custom(message)))
    }
}
