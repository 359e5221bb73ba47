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

use std::collections::HashMap;
use std::fmt;

use serde::de::{self, DeserializeOwned, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use crate::dom::{Document, Node};
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

    /// The error, placed at `at` unless it is placed already.
    fn at(mut self, at: &Place<'_>) -> DeError {
        if self.path.is_none() {
            self.path = Some(at.path.clone());
            self.position = at.position();
        }
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
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(message: T) -> DeError {
        DeError {
            message: message.to_string(),
            path: None,
            position: None,
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
    from_document(&Document::parse(text))
}

/// Reads `bytes` (XML in any encoding, however broken) into a `T`.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<Deserialized<T>, DeError> {
    from_document(&Document::parse_bytes(bytes))
}

/// Reads what `reader` gives (XML in any encoding, however broken) into a
/// `T`.
pub fn from_reader<T: DeserializeOwned, R: std::io::Read>(
    reader: R,
) -> Result<Deserialized<T>, DeError> {
    let doc = Document::from_reader(reader).map_err(de::Error::custom)?;
    from_document(&doc)
}

/// Reads the element `node` into a `T`.
pub fn from_node<'a, T: de::Deserialize<'a>>(node: Node<'a>) -> Result<T, DeError> {
    let name = node.name();
    let place = Place {
        node,
        path: format!("/{name}"),
        depth: 1,
    };
    T::deserialize(ElementDeserializer { place })
}

fn from_document<T: DeserializeOwned>(doc: &Document) -> Result<Deserialized<T>, DeError> {
    let root = doc
        .root_element()
        .ok_or_else(|| <DeError as de::Error>::custom("the document has no element"))?;
    let value = from_node(root)?;
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

/// The methods for plain values (booleans, numbers, characters, strings,
/// units and enums of unit variants), handed on whole to `self.$to()`.
macro_rules! plain_values_from {
    ($to:ident) => {
        delegate! { $to:
            deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
            deserialize_string deserialize_unit
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            name: &'static str,
            variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, DeError> {
            self.$to().deserialize_enum(name, variants, visitor)
        }
    };
}

/// How deep elements may nest in what is read: serde's derived code
/// recurses once per level, so deeper ones are refused rather than left to
/// overflow the stack (serde_json has the same bound).
pub const MAX_DEPTH: usize = 128;

/// An element, its path from the root and its depth (the root's is 1).
#[derive(Clone)]
struct Place<'a> {
    node: Node<'a>,
    path: String,
    depth: usize,
}

impl Place<'_> {
    /// An error if the element is nested too deep to read its contents.
    fn check_depth(&self) -> Result<(), DeError> {
        if self.depth <= MAX_DEPTH {
            return Ok(());
        }
        let message = format!("elements nested deeper than {MAX_DEPTH}");
        Err(<DeError as de::Error>::custom(message).at(self))
    }

    fn position(&self) -> Option<(u32, u32)> {
        let span = self.node.span()?;
        Some(self.node.document().position(span.start))
    }
}

/// Reads one element: a struct or map from its attributes, children and
/// text; a plain value from its text.
struct ElementDeserializer<'a> {
    place: Place<'a>,
}

/// The text of an element: its text children, joined.
fn own_text(node: Node<'_>) -> String {
    node.children()
        .filter(|child| child.is_text())
        .filter_map(|child| child.text())
        .collect()
}

impl<'a> ElementDeserializer<'a> {
    fn text(&self) -> TextDeserializer<'a> {
        TextDeserializer {
            text: own_text(self.place.node),
            place: self.place.clone(),
        }
    }

    fn map(&self, fields: &'static [&'static str]) -> ElementMap<'a> {
        let node = self.place.node;
        let mut entries: Vec<(String, Entry<'a>)> = Vec::new();
        for attribute in node.attributes() {
            let key = format!("@{}", attribute.name());
            entries.push((key, Entry::Text(attribute.value().to_owned())));
        }
        // Elements of one name, wherever they stand, make one entry (in
        // the order of the first of each name).
        let mut groups: Vec<(String, Vec<Node<'a>>)> = Vec::new();
        let mut group_of: HashMap<String, usize> = HashMap::new();
        let expanded = fields.iter().any(|field| field.starts_with('{'));
        for child in node.child_elements() {
            let key = field_key(child, expanded.then_some(fields));
            match group_of.get(&key) {
                Some(&group) => groups[group].1.push(child),
                None => {
                    group_of.insert(key.clone(), groups.len());
                    groups.push((key, vec![child]));
                }
            }
        }
        for (key, nodes) in groups {
            entries.push((key, Entry::Elements(nodes)));
        }
        let text = own_text(node);
        if !text.trim().is_empty() || fields.contains(&"$text") {
            entries.push(("$text".to_owned(), Entry::Text(text)));
        }
        entries.reverse();
        ElementMap {
            entries,
            value: None,
            parent: self.place.clone(),
        }
    }
}

/// The key a child element is read under: `{uri}local` when the type has
/// a field of that expanded name (`fields`, given when some field is named
/// so), else its name as written.
fn field_key(child: Node<'_>, fields: Option<&[&str]>) -> String {
    if let (Some(uri), Some(fields)) = (child.namespace(), fields) {
        let expanded = format!("{{{uri}}}{}", child.local_name());
        if fields.contains(&expanded.as_str()) {
            return expanded;
        }
    }
    child.name().to_owned()
}

/// What a key of an element's map holds.
enum Entry<'a> {
    Text(String),
    Elements(Vec<Node<'a>>),
}

struct ElementMap<'a> {
    /// The entries still to read, last first.
    entries: Vec<(String, Entry<'a>)>,
    value: Option<(String, Entry<'a>)>,
    parent: Place<'a>,
}

impl<'de, 'a: 'de> MapAccess<'de> for ElementMap<'a> {
    type Error = DeError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((key, entry)) = self.entries.pop() else {
            return Ok(None);
        };
        let read = seed.deserialize(key.as_str().into_deserializer());
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
            Entry::Text(text) => {
                let place = Place {
                    node: self.parent.node,
                    path: format!("{}/{key}", self.parent.path),
                    depth: self.parent.depth,
                };
                seed.deserialize(TextDeserializer { text, place })
            }
            Entry::Elements(nodes) => seed.deserialize(ElementsDeserializer {
                nodes,
                path: format!("{}/{key}", self.parent.path),
                depth: self.parent.depth + 1,
            }),
        }
    }
}

/// The elements of one name under one parent: a sequence, or (asked for
/// one value) the first.
struct ElementsDeserializer<'a> {
    nodes: Vec<Node<'a>>,
    path: String,
    depth: usize,
}

impl<'a> ElementsDeserializer<'a> {
    fn first(self) -> ElementDeserializer<'a> {
        let node = self.nodes[0];
        ElementDeserializer {
            place: Place {
                node,
                path: self.path,
                depth: self.depth,
            },
        }
    }
}

struct Elements<'a> {
    nodes: std::vec::IntoIter<Node<'a>>,
    path: String,
    depth: usize,
    index: usize,
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
        self.index += 1;
        let place = Place {
            node,
            path: format!("{}[{}]", self.path, self.index),
            depth: self.depth,
        };
        seed.deserialize(ElementDeserializer { place }).map(Some)
    }
}

impl<'de, 'a: 'de> de::Deserializer<'de> for ElementsDeserializer<'a> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.nodes.len() > 1 {
            return self.deserialize_seq(visitor);
        }
        self.first().deserialize_any(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_seq(Elements {
            nodes: self.nodes.into_iter(),
            path: self.path,
            depth: self.depth,
            index: 0,
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
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

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    plain_values_from!(first);

    delegate! { first: deserialize_map deserialize_ignored_any }

    serde::forward_to_deserialize_any! {
        bytes byte_buf unit_struct tuple tuple_struct identifier
    }
}

impl<'de, 'a: 'de> de::Deserializer<'de> for ElementDeserializer<'a> {
    type Error = DeError;

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
        let place = self.place.clone();
        visitor
            .visit_map(self.map(fields))
            .map_err(|error| error.at(&place))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.place.check_depth()?;
        let place = self.place.clone();
        visitor
            .visit_map(self.map(&[]))
            .map_err(|error| error.at(&place))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        ElementsDeserializer {
            nodes: vec![self.place.node],
            path: self.place.path,
            depth: self.place.depth,
        }
        .deserialize_seq(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    plain_values_from!(text);

    serde::forward_to_deserialize_any! {
        bytes byte_buf unit_struct tuple tuple_struct identifier
    }
}

/// Text read as a plain value: a string as it is, a number, a boolean or
/// a character from it with surrounding whitespace trimmed.
struct TextDeserializer<'a> {
    text: String,
    place: Place<'a>,
}

impl TextDeserializer<'_> {
    /// The text read as `T`, or an error naming what was expected.
    fn parse<T: std::str::FromStr>(&self, expected: &str) -> Result<T, DeError> {
        self.text.trim().parse().map_err(|_| {
            let found = &self.text;
            <DeError as de::Error>::custom(format!("expected {expected}, found {found:?}"))
                .at(&self.place)
        })
    }
}

macro_rules! parsed {
    ($($method:ident $visit:ident $type:ty, $expected:literal;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
                let value: $type = self.parse($expected)?;
                visitor.$visit(value)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for TextDeserializer<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_string(self.text)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.text.trim() {
            "true" | "1" => visitor.visit_bool(true),
            "false" | "0" => visitor.visit_bool(false),
            _ => Err(de::Error::custom(format!(
                "expected a boolean, found {:?}",
                self.text
            )))
            .map_err(|error: DeError| error.at(&self.place)),
        }
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
        deserialize_char visit_char char, "a character";
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

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

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_enum(self.text.trim().to_owned().into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        str string bytes byte_buf unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}
