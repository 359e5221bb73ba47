//! Layer 7 (feature `serde`): Rust values written out as well-formed XML
//! through serde, by quick-xml's conventions, so that `xml5dom::de` (its
//! sibling, not imported) reads them back: a field `@name` is an
//! attribute, `$text` the element's text, `$value` content without an
//! element of its own, any other field a child element of its name, a
//! `Vec<T>` repeated elements, `None` nothing at all, a unit variant its
//! name as text, and a field renamed `{namespace-uri}local` an element in
//! that namespace, its prefix declared on it where none is in scope.
//!
//! It owns the escaping and the refusals: text and attribute values are
//! escaped so that a parser reads back the same characters (CR as `&#13;`;
//! TAB and LF too in attribute values), and a character XML cannot carry
//! (XML 1.0 `Char`), a name that is not an XML name or a prefix never
//! declared is a [`SerError`] naming the field, never written. Output is
//! written as it is made ([`to_writer`]): serde walks each struct twice,
//! once for its start tag (attributes may follow elements among a type's
//! fields) and once for its content, so nothing is held back.
//! docs/serde.md, "Writing".

use std::collections::HashSet;
use std::fmt;

use serde::ser::{self, Impossible, Serialize};

use crate::chars::{is_ncname_char, is_ncname_start_char, is_xml_char};

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// A value that cannot be written as XML: what, and at which field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SerError {
    message: String,
    /// The field's path (`/Feed/item[2]/@id`), if known.
    path: Option<String>,
}

impl SerError {
    /// What could not be written.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where: the path of the field from the root element, attributes as
    /// `@name`, items of a sequence as `name[n]` (from 1).
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// The error, placed at `path` unless it is placed already.
    fn at(mut self, path: &[String]) -> SerError {
        if self.path.is_none() {
            self.path = Some(format!("/{}", path.join("/")));
        }
        self
    }
}

impl fmt::Display for SerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{path}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for SerError {}

impl ser::Error for SerError {
    fn custom<T: fmt::Display>(message: T) -> SerError {
        SerError {
            message: message.to_string(),
            path: None,
        }
    }
}

fn error(message: impl Into<String>) -> SerError {
    SerError {
        message: message.into(),
        path: None,
    }
}

/// Writes `value` as an XML document, its root element named after the
/// type (a struct's or unit struct's name, as `#[serde(rename)]` says; an
/// enum's variant). Other values at the top (a string, a number, a map)
/// need a root name: [`to_string_with_root`].
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Item {
///     #[serde(rename = "@id")]
///     id: u32,
///     title: String,
///     note: Option<String>,
/// }
/// #[derive(Serialize)]
/// #[serde(rename = "feed")]
/// struct Feed {
///     #[serde(rename = "item")]
///     items: Vec<Item>,
/// }
///
/// let feed = Feed {
///     items: vec![
///         Item { id: 1, title: "Fish & chips".into(), note: None },
///         Item { id: 2, title: "Peas".into(), note: Some(" <fresh> ".into()) },
///     ],
/// };
/// assert_eq!(
///     xml5dom::ser::to_string(&feed).unwrap(),
///     "<feed><item id=\"1\"><title>Fish &amp; chips</title></item>\
///      <item id=\"2\"><title>Peas</title><note> &lt;fresh&gt; </note></item></feed>"
/// );
/// ```
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String, SerError> {
    let mut text = String::new();
    to_writer(&mut text, value)?;
    Ok(text)
}

/// [`to_string`] with the root element named `root` (an XML name, or
/// `{uri}local`), for any value: a struct, a map, a string or a number.
///
/// ```
/// use std::collections::BTreeMap;
///
/// let map = BTreeMap::from([("@lang", "en"), ("greeting", "hi"), ("name", "Ann")]);
/// assert_eq!(
///     xml5dom::ser::to_string_with_root("hello", &map).unwrap(),
///     "<hello lang=\"en\"><greeting>hi</greeting><name>Ann</name></hello>"
/// );
/// assert_eq!(xml5dom::ser::to_string_with_root("n", &42).unwrap(), "<n>42</n>");
///
/// let refused = xml5dom::ser::to_string_with_root("n", "bell \u{7}").unwrap_err();
/// assert_eq!(refused.to_string(), "/n: U+0007 is a character XML cannot carry");
/// ```
pub fn to_string_with_root<T: ?Sized + Serialize>(
    root: &str,
    value: &T,
) -> Result<String, SerError> {
    let mut text = String::new();
    to_writer_with_root(&mut text, root, value)?;
    Ok(text)
}

/// [`to_string`] into `writer`, written as it is made. A [`fmt::Write`],
/// as quick-xml's `to_writer` takes, so that code ports by changing the
/// import and the text is known to be UTF-8 (a `String` is one; for an
/// `io::Write`, write the `String`). On an error, what was written is the
/// document up to the refused value, which is never written.
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Point {
///     #[serde(rename = "@x")]
///     x: i32,
///     #[serde(rename = "@y")]
///     y: i32,
/// }
///
/// let mut out = String::new();
/// xml5dom::ser::to_writer(&mut out, &Point { x: 1, y: -2 }).unwrap();
/// assert_eq!(out, "<Point x=\"1\" y=\"-2\"/>");
/// ```
pub fn to_writer<W: fmt::Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
) -> Result<(), SerError> {
    Writer::new(writer).write_root(None, value)
}

/// [`to_writer`] with the root element named `root`, as
/// [`to_string_with_root`].
///
/// ```
/// let mut out = String::new();
/// xml5dom::ser::to_writer_with_root(&mut out, "{urn:example}note", "a < b").unwrap();
/// assert_eq!(out, "<ns1:note xmlns:ns1=\"urn:example\">a &lt; b</ns1:note>");
/// ```
pub fn to_writer_with_root<W: fmt::Write, T: ?Sized + Serialize>(
    writer: W,
    root: &str,
    value: &T,
) -> Result<(), SerError> {
    Writer::new(writer).write_root(Some(root), value)
}

/// The first character XML cannot carry in `text`, as an error.
fn check_chars(text: &str) -> Result<(), SerError> {
    match text.chars().find(|&c| !is_xml_char(c)) {
        None => Ok(()),
        Some(c) => Err(error(format!(
            "U+{:04X} is a character XML cannot carry",
            u32::from(c)
        ))),
    }
}

/// Writes `text` escaped: `&`, `<` and `>` always (`>` so that no `]]>`
/// is written), CR as a reference (a raw one would be read as LF,
/// XML 1.0 §2.11); in an attribute value also `"` and TAB, LF (which
/// attribute-value normalization would turn into spaces, §3.3.3).
fn write_escaped<W: fmt::Write>(out: &mut W, text: &str, attribute: bool) -> fmt::Result {
    let mut from = 0;
    for (at, byte) in text.bytes().enumerate() {
        let reference = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'\r' => "&#13;",
            b'"' if attribute => "&quot;",
            b'\t' if attribute => "&#9;",
            b'\n' if attribute => "&#10;",
            _ => continue,
        };
        // Each byte matched is ASCII, so `at` is a character boundary.
        out.write_str(&text[from..at])?;
        out.write_str(reference)?;
        from = at + 1;
    }
    out.write_str(&text[from..])
}

/// Whether `text` is XML whitespace only.
fn is_blank(text: &str) -> bool {
    text.bytes()
        .all(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
}

/// Text of whitespace only, as character references: `xml5dom::de` (as
/// quick-xml) takes blank text written as it is beside elements for
/// indentation, and text written with references for text.
fn write_blank<W: fmt::Write>(out: &mut W, text: &str) -> fmt::Result {
    for byte in text.bytes() {
        write!(out, "&#{byte};")?;
    }
    Ok(())
}

/// A struct variant's fields are written as a struct's: the
/// `SerializeStructVariant` of `$type`, handed to its `SerializeStruct`.
macro_rules! struct_variant_as_struct {
    ($type:ident, $ok:ty) => {
        impl<W: fmt::Write> ser::SerializeStructVariant for $type<'_, W> {
            type Ok = $ok;
            type Error = SerError;

            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), SerError> {
                ser::SerializeStruct::serialize_field(self, key, value)
            }

            fn end(self) -> Result<$ok, SerError> {
                ser::SerializeStruct::end(self)
            }
        }
    };
}

fn is_ncname(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_ncname_start_char) && chars.all(is_ncname_char)
}

/// A field's or key's name as the type gives it.
#[derive(Clone, Copy)]
enum Name<'n> {
    /// `local` or `prefix:local`.
    Qualified {
        prefix: Option<&'n str>,
        local: &'n str,
    },
    /// `{uri}local`: written with a prefix bound to `uri`.
    Expanded { uri: &'n str, local: &'n str },
}

impl<'n> Name<'n> {
    fn parse(name: &'n str) -> Result<Name<'n>, SerError> {
        let not_a_name = || error(format!("`{name}` is not an XML name"));
        if let Some(rest) = name.strip_prefix('{') {
            let (uri, local) = rest.split_once('}').ok_or_else(not_a_name)?;
            if !is_ncname(local) {
                return Err(not_a_name());
            }
            check_chars(uri)?;
            if uri.is_empty() {
                return Ok(Name::Qualified {
                    prefix: None,
                    local,
                });
            }
            return Ok(Name::Expanded { uri, local });
        }
        match name.split_once(':') {
            None if is_ncname(name) => Ok(Name::Qualified {
                prefix: None,
                local: name,
            }),
            Some((prefix, local)) if is_ncname(prefix) && is_ncname(local) => Ok(Name::Qualified {
                prefix: Some(prefix),
                local,
            }),
            _ => Err(not_a_name()),
        }
    }
}

/// A namespace prefix in scope (`""` for the default namespace).
struct Binding {
    prefix: String,
    uri: String,
}

/// A start tag written but for its end (`>` or `/>`), and what closing it
/// takes.
struct OpenElement {
    qualified_name: String,
    /// How many bindings of the writer's scope the element declared.
    bindings: usize,
}

/// What the first walk of a value left to do.
enum Opened {
    Done,
    /// A struct or map: its start tag is written, its content is next.
    Open(OpenElement),
}

/// Where a value stands, which decides how it is written.
#[derive(Clone, Copy)]
enum Mode<'n> {
    /// A field's value: an element of that name (each item of a sequence).
    Element(&'n str),
    /// The document's root: named as given, else after the type.
    Root(Option<&'n str>),
    /// `$value`: text as text, a struct or enum variant as an element
    /// named after it.
    Content,
}

struct Writer<W> {
    out: W,
    /// The innermost element's start tag awaits its `>` (written before
    /// its first content) or `/>` (if it gets none).
    tag_open: bool,
    bindings: Vec<Binding>,
    /// The path to the value being written, for errors.
    path: Vec<String>,
}

impl<W: fmt::Write> Writer<W> {
    fn new(out: W) -> Writer<W> {
        Writer {
            out,
            tag_open: false,
            bindings: Vec::new(),
            path: Vec::new(),
        }
    }

    fn put(&mut self, text: &str) -> Result<(), SerError> {
        self.out
            .write_str(text)
            .map_err(|_| error("the writer failed"))
    }

    /// Ends the open start tag, as content follows.
    fn begin_content(&mut self) -> Result<(), SerError> {
        if self.tag_open {
            self.tag_open = false;
            self.put(">")?;
        }
        Ok(())
    }

    fn text(&mut self, text: &str) -> Result<(), SerError> {
        check_chars(text)?;
        if text.is_empty() {
            return Ok(());
        }
        self.begin_content()?;
        let written = if is_blank(text) {
            write_blank(&mut self.out, text)
        } else {
            write_escaped(&mut self.out, text, false)
        };
        written.map_err(|_| error("the writer failed"))
    }

    fn write_root<T: ?Sized + Serialize>(
        &mut self,
        root: Option<&str>,
        value: &T,
    ) -> Result<(), SerError> {
        if let Some(root) = root {
            self.path.push(root.to_owned());
        }
        self.write_value(Mode::Root(root), value)
            .map_err(|e| e.at(&self.path))
    }

    /// `value` as the element `name` (for a sequence, one per item).
    fn write_element<T: ?Sized + Serialize>(
        &mut self,
        name: &str,
        value: &T,
    ) -> Result<(), SerError> {
        self.path.push(name.to_owned());
        let written = self
            .write_value(Mode::Element(name), value)
            .map_err(|e| e.at(&self.path));
        self.path.pop();
        written
    }

    /// The two walks of a value: its start tag, then (a struct's or a
    /// map's) its content and end tag.
    fn write_value<T: ?Sized + Serialize>(
        &mut self,
        mode: Mode<'_>,
        value: &T,
    ) -> Result<(), SerError> {
        if let Opened::Open(element) = value.serialize(Opening { w: self, mode })? {
            value.serialize(Filling { w: self })?;
            self.close(element)?;
        }
        Ok(())
    }

    /// A field of a struct or an entry of a map, in the content walk.
    fn write_field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), SerError> {
        match key {
            _ if key.starts_with('@') => Ok(()),
            "$text" => {
                self.path.push(key.to_owned());
                let written = match value.serialize(SimpleValue) {
                    Ok(Some(text)) => self.text(&text),
                    Ok(None) => Ok(()),
                    Err(e) => Err(e),
                };
                let written = written.map_err(|e| e.at(&self.path));
                self.path.pop();
                written
            }
            "$value" => self.write_value(Mode::Content, value),
            _ => self.write_element(key, value),
        }
    }

    /// The element `name` holding `text` alone.
    fn text_element(&mut self, name: &str, text: &str) -> Result<(), SerError> {
        check_chars(text)?;
        let element = self.start_tag(name, Vec::new())?;
        self.text(text)?;
        self.close(element)
    }

    /// The prefix bound to `prefix` by `own` (this element's declarations)
    /// or the scope.
    fn lookup<'b>(&'b self, own: &'b [Binding], prefix: &str) -> Option<&'b str> {
        own.iter()
            .chain(self.bindings.iter().rev())
            .find(|binding| binding.prefix == prefix)
            .map(|binding| binding.uri.as_str())
    }

    /// A prefix for `uri`: one in scope, else a new one declared in `own`.
    fn prefix_for(&self, own: &mut Vec<Binding>, uri: &str) -> Result<String, SerError> {
        if uri == XML_NAMESPACE {
            return Ok("xml".to_owned());
        }
        if uri == XMLNS_NAMESPACE {
            return Err(error("the xmlns namespace is for declarations only"));
        }
        let in_scope = own
            .iter()
            .chain(self.bindings.iter().rev())
            .find(|binding| {
                !binding.prefix.is_empty()
                    && binding.uri == uri
                    && self.lookup(own, &binding.prefix) == Some(uri)
            })
            .map(|binding| binding.prefix.clone());
        if let Some(prefix) = in_scope {
            return Ok(prefix);
        }
        let mut number = self.bindings.len() + own.len() + 1;
        let prefix = loop {
            let prefix = format!("ns{number}");
            if self.lookup(own, &prefix).is_none() {
                break prefix;
            }
            number += 1;
        };
        own.push(Binding {
            prefix: prefix.clone(),
            uri: uri.to_owned(),
        });
        Ok(prefix)
    }

    /// The name written for `name`, its prefix declared (in `own` if it
    /// takes a new declaration); `attribute` names take no default
    /// namespace.
    fn qualified_name(
        &self,
        own: &mut Vec<Binding>,
        name: Name<'_>,
        attribute: bool,
    ) -> Result<String, SerError> {
        match name {
            Name::Qualified {
                prefix: None,
                local,
            } => Ok(local.to_owned()),
            Name::Qualified {
                prefix: Some(prefix),
                local,
            } => {
                let declared = prefix == "xml"
                    || (attribute && prefix == "xmlns")
                    || self.lookup(own, prefix).is_some_and(|uri| !uri.is_empty());
                if !declared {
                    return Err(error(format!(
                        "the prefix `{prefix}` of `{prefix}:{local}` is not declared (declare it \
                         with an `@xmlns:{prefix}` field, or name the field `{{uri}}{local}`)"
                    )));
                }
                Ok(format!("{prefix}:{local}"))
            }
            Name::Expanded { uri, local } => {
                let prefix = self.prefix_for(own, uri)?;
                Ok(format!("{prefix}:{local}"))
            }
        }
    }

    /// Writes the start tag of `name` with `attributes` (names as the
    /// type gives them, values unescaped), leaving it open.
    fn start_tag(
        &mut self,
        name: &str,
        attributes: Vec<(String, String)>,
    ) -> Result<OpenElement, SerError> {
        let element_name = Name::parse(name)?;
        // The element's own declarations come first: its name and the
        // other attributes may use them.
        let mut own: Vec<Binding> = Vec::new();
        let mut parsed = Vec::with_capacity(attributes.len());
        for (attribute, value) in &attributes {
            let at = |e: SerError| e.at(&[self.path.join("/"), format!("@{attribute}")]);
            let parsed_name = Name::parse(attribute).map_err(at)?;
            let declared = match parsed_name {
                Name::Qualified {
                    prefix: None,
                    local: "xmlns",
                } => Some(""),
                Name::Qualified {
                    prefix: Some("xmlns"),
                    local,
                } => Some(local),
                _ => None,
            };
            if let Some(prefix) = declared {
                if !prefix.is_empty() && (value.is_empty() || prefix == "xmlns") {
                    return Err(at(error(format!(
                        "`xmlns:{prefix}` cannot be declared as {value:?}"
                    ))));
                }
                own.push(Binding {
                    prefix: prefix.to_owned(),
                    uri: value.clone(),
                });
            }
            parsed.push((attribute, parsed_name, value));
        }
        let declared = own.len();
        let qualified_name = self.qualified_name(&mut own, element_name, false)?;
        let mut written = Vec::with_capacity(parsed.len());
        let mut seen = HashSet::new();
        for (attribute, parsed_name, value) in parsed {
            let at = |e: SerError| e.at(&[self.path.join("/"), format!("@{attribute}")]);
            let attribute_name = self
                .qualified_name(&mut own, parsed_name, true)
                .map_err(at)?;
            let expanded = match attribute_name.split_once(':') {
                None if attribute_name == "xmlns" => (XMLNS_NAMESPACE, ""),
                None => ("", attribute_name.as_str()),
                Some(("xmlns", local)) => (XMLNS_NAMESPACE, local),
                Some(("xml", local)) => (XML_NAMESPACE, local),
                Some((prefix, local)) => (self.lookup(&own, prefix).unwrap_or(""), local),
            };
            if !seen.insert((expanded.0.to_owned(), expanded.1.to_owned())) {
                return Err(at(error(format!(
                    "the attribute `{attribute_name}` is written twice"
                ))));
            }
            written.push((attribute_name, value));
        }
        self.begin_content()?;
        self.put("<")?;
        self.put(&qualified_name)?;
        for binding in &own[declared..] {
            self.put(" xmlns:")?;
            self.put(&binding.prefix)?;
            self.put("=\"")?;
            write_escaped(&mut self.out, &binding.uri, true)
                .map_err(|_| error("the writer failed"))?;
            self.put("\"")?;
        }
        for (attribute_name, value) in written {
            self.put(" ")?;
            self.put(&attribute_name)?;
            self.put("=\"")?;
            write_escaped(&mut self.out, value, true).map_err(|_| error("the writer failed"))?;
            self.put("\"")?;
        }
        self.tag_open = true;
        let bindings = own.len();
        self.bindings.extend(own);
        Ok(OpenElement {
            qualified_name,
            bindings,
        })
    }

    fn close(&mut self, element: OpenElement) -> Result<(), SerError> {
        if self.tag_open {
            self.tag_open = false;
            self.put("/>")?;
        } else {
            self.put("</")?;
            self.put(&element.qualified_name)?;
            self.put(">")?;
        }
        let keep = self.bindings.len().saturating_sub(element.bindings);
        self.bindings.truncate(keep);
        Ok(())
    }
}

/// The first walk of a value: a plain value, a sequence or an enum
/// written whole; a struct's or map's start tag with its attributes.
struct Opening<'a, W> {
    w: &'a mut Writer<W>,
    mode: Mode<'a>,
}

impl<'a, W: fmt::Write> Opening<'a, W> {
    fn text_value(self, text: &str, what: &str) -> Result<Opened, SerError> {
        match self.mode {
            Mode::Element(name) | Mode::Root(Some(name)) => self.w.text_element(name, text)?,
            Mode::Root(None) => return Err(needs_root(what)),
            Mode::Content => self.w.text(text)?,
        }
        Ok(Opened::Done)
    }

    fn empty_element(mut self, name: &str) -> Result<Opened, SerError> {
        self.name_root(name);
        let element = self.w.start_tag(name, Vec::new())?;
        self.w.close(element)?;
        Ok(Opened::Done)
    }

    /// The root element, named after the type, starts the path of errors.
    fn name_root(&mut self, name: &str) {
        if matches!(self.mode, Mode::Root(None)) && self.w.path.is_empty() {
            self.w.path.push(name.to_owned());
        }
    }

    fn attributes(mut self, name: &'a str) -> Attributes<'a, W> {
        self.name_root(name);
        Attributes {
            w: self.w,
            name,
            attributes: Vec::new(),
            key: None,
        }
    }

    fn sequence(self, name: Option<&'a str>) -> Sequence<'a, W> {
        Sequence {
            w: self.w,
            name,
            index: 0,
        }
    }
}

fn needs_root(what: &str) -> SerError {
    error(format!(
        "{what} at the top needs a root element name (to_string_with_root)"
    ))
}

fn element_variant(name: &str, variant: &str) -> SerError {
    error(format!(
        "the variant `{name}::{variant}` is written as an element of its own name, in a \
         `$value` field or at the top, not as a field's element"
    ))
}

macro_rules! text_values {
    ($($method:ident $type:ty, $what:literal;)*) => {
        $(
            fn $method(self, value: $type) -> Result<Self::Ok, SerError> {
                self.text_value(&value.to_string(), $what)
            }
        )*
    };
}

impl<'a, W: fmt::Write> ser::Serializer for Opening<'a, W> {
    type Ok = Opened;
    type Error = SerError;
    type SerializeSeq = Sequence<'a, W>;
    type SerializeTuple = Sequence<'a, W>;
    type SerializeTupleStruct = Sequence<'a, W>;
    type SerializeTupleVariant = Sequence<'a, W>;
    type SerializeMap = Attributes<'a, W>;
    type SerializeStruct = Attributes<'a, W>;
    type SerializeStructVariant = Attributes<'a, W>;

    text_values! {
        serialize_bool bool, "a boolean";
        serialize_i8 i8, "a number";
        serialize_i16 i16, "a number";
        serialize_i32 i32, "a number";
        serialize_i64 i64, "a number";
        serialize_i128 i128, "a number";
        serialize_u8 u8, "a number";
        serialize_u16 u16, "a number";
        serialize_u32 u32, "a number";
        serialize_u64 u64, "a number";
        serialize_u128 u128, "a number";
        serialize_f32 f32, "a number";
        serialize_f64 f64, "a number";
        serialize_char char, "a character";
        serialize_str &str, "a string";
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<Opened, SerError> {
        Err(error("bytes have no XML form; write them as a string"))
    }

    fn serialize_none(self) -> Result<Opened, SerError> {
        match self.mode {
            Mode::Root(_) => Err(error("`None` at the top: a document needs a root element")),
            _ => Ok(Opened::Done),
        }
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Opened, SerError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Opened, SerError> {
        match self.mode {
            Mode::Element(name) | Mode::Root(Some(name)) => self.empty_element(name),
            Mode::Root(None) => Err(needs_root("`()`")),
            Mode::Content => Ok(Opened::Done),
        }
    }

    fn serialize_unit_struct(self, type_name: &'static str) -> Result<Opened, SerError> {
        match self.mode {
            Mode::Element(name) | Mode::Root(Some(name)) => self.empty_element(name),
            Mode::Root(None) => self.empty_element(type_name),
            Mode::Content => Ok(Opened::Done),
        }
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Opened, SerError> {
        match self.mode {
            Mode::Element(name) | Mode::Root(Some(name)) => {
                self.w.text_element(name, variant)?;
                Ok(Opened::Done)
            }
            Mode::Root(None) | Mode::Content => self.empty_element(variant),
        }
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        type_name: &'static str,
        value: &T,
    ) -> Result<Opened, SerError> {
        match self.mode {
            Mode::Root(None) => value.serialize(Opening {
                w: self.w,
                mode: Mode::Root(Some(type_name)),
            }),
            _ => value.serialize(self),
        }
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        type_name: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Opened, SerError> {
        match self.mode {
            Mode::Element(_) => Err(element_variant(type_name, variant)),
            Mode::Root(_) | Mode::Content => {
                self.w.write_element(variant, value)?;
                Ok(Opened::Done)
            }
        }
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Sequence<'a, W>, SerError> {
        match self.mode {
            Mode::Element(name) => Ok(self.sequence(Some(name))),
            Mode::Root(_) => Err(error(
                "a sequence at the top would be several root elements",
            )),
            Mode::Content => Ok(self.sequence(None)),
        }
    }

    fn serialize_tuple(self, len: usize) -> Result<Sequence<'a, W>, SerError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<Sequence<'a, W>, SerError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        type_name: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Sequence<'a, W>, SerError> {
        match self.mode {
            Mode::Element(_) => Err(element_variant(type_name, variant)),
            Mode::Root(_) | Mode::Content => Ok(self.sequence(Some(variant))),
        }
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Attributes<'a, W>, SerError> {
        match self.mode {
            Mode::Element(name) | Mode::Root(Some(name)) => Ok(self.attributes(name)),
            Mode::Root(None) => Err(needs_root("a map")),
            Mode::Content => Err(error(
                "a map in a `$value` field has no element name to be written under",
            )),
        }
    }

    fn serialize_struct(
        self,
        type_name: &'static str,
        _: usize,
    ) -> Result<Attributes<'a, W>, SerError> {
        let name = match self.mode {
            Mode::Element(name) | Mode::Root(Some(name)) => name,
            Mode::Root(None) | Mode::Content => type_name,
        };
        Ok(self.attributes(name))
    }

    fn serialize_struct_variant(
        self,
        type_name: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Attributes<'a, W>, SerError> {
        match self.mode {
            Mode::Element(_) => Err(element_variant(type_name, variant)),
            Mode::Root(_) | Mode::Content => Ok(self.attributes(variant)),
        }
    }
}

/// The items of a sequence: elements named `name` each, or (in `$value`)
/// content each.
struct Sequence<'a, W> {
    w: &'a mut Writer<W>,
    name: Option<&'a str>,
    index: usize,
}

impl<W: fmt::Write> Sequence<'_, W> {
    fn item<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        self.index += 1;
        match self.name {
            Some(name) => {
                // The path's last step numbers the item.
                self.w.path.push(format!("{name}[{}]", self.index));
                let written = self
                    .w
                    .write_value(Mode::Element(name), value)
                    .map_err(|e| e.at(&self.w.path));
                self.w.path.pop();
                written
            }
            None => self.w.write_value(Mode::Content, value),
        }
    }
}

macro_rules! sequence_impl {
    ($($trait:ident $method:ident;)*) => {
        $(
            impl<W: fmt::Write> ser::$trait for Sequence<'_, W> {
                type Ok = Opened;
                type Error = SerError;

                fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
                    self.item(value)
                }

                fn end(self) -> Result<Opened, SerError> {
                    Ok(Opened::Done)
                }
            }
        )*
    };
}

sequence_impl! {
    SerializeSeq serialize_element;
    SerializeTuple serialize_element;
    SerializeTupleStruct serialize_field;
    SerializeTupleVariant serialize_field;
}

/// The attributes of a struct or a map (its `@` fields), gathered for its
/// start tag; the other fields wait for the content walk.
struct Attributes<'a, W> {
    w: &'a mut Writer<W>,
    name: &'a str,
    attributes: Vec<(String, String)>,
    /// A map's key given before its value.
    key: Option<String>,
}

impl<W: fmt::Write> Attributes<'_, W> {
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), SerError> {
        let Some(attribute) = key.strip_prefix('@') else {
            return Ok(());
        };
        let at = |e: SerError| e.at(&[self.w.path.join("/"), key.to_owned()]);
        if let Some(text) = value.serialize(SimpleValue).map_err(at)? {
            check_chars(&text).map_err(at)?;
            self.attributes.push((attribute.to_owned(), text));
        }
        Ok(())
    }

    fn end(self) -> Result<Opened, SerError> {
        let element = self.w.start_tag(self.name, self.attributes)?;
        Ok(Opened::Open(element))
    }
}

impl<W: fmt::Write> ser::SerializeStruct for Attributes<'_, W> {
    type Ok = Opened;
    type Error = SerError;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        self.field(key, value)
    }

    fn end(self) -> Result<Opened, SerError> {
        Attributes::end(self)
    }
}

struct_variant_as_struct!(Attributes, Opened);

impl<W: fmt::Write> ser::SerializeMap for Attributes<'_, W> {
    type Ok = Opened;
    type Error = SerError;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), SerError> {
        self.key = Some(key.serialize(KeyName)?);
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| error("a map's value without its key"))?;
        self.field(&key, value)
    }

    fn end(self) -> Result<Opened, SerError> {
        Attributes::end(self)
    }
}

/// The second walk of a struct or a map: its content (fields other than
/// attributes).
struct Filling<'a, W> {
    w: &'a mut Writer<W>,
}

fn changed() -> SerError {
    error("the value serialized differently when walked again")
}

macro_rules! refused_after_opening {
    ($($method:ident $type:ty;)*) => {
        $(
            fn $method(self, _: $type) -> Result<(), SerError> {
                Err(changed())
            }
        )*
    };
}

impl<'a, W: fmt::Write> ser::Serializer for Filling<'a, W> {
    type Ok = ();
    type Error = SerError;
    type SerializeSeq = Impossible<(), SerError>;
    type SerializeTuple = Impossible<(), SerError>;
    type SerializeTupleStruct = Impossible<(), SerError>;
    type SerializeTupleVariant = Impossible<(), SerError>;
    type SerializeMap = Children<'a, W>;
    type SerializeStruct = Children<'a, W>;
    type SerializeStructVariant = Children<'a, W>;

    refused_after_opening! {
        serialize_bool bool; serialize_i8 i8; serialize_i16 i16; serialize_i32 i32;
        serialize_i64 i64; serialize_u8 u8; serialize_u16 u16; serialize_u32 u32;
        serialize_u64 u64; serialize_f32 f32; serialize_f64 f64; serialize_char char;
        serialize_str &str; serialize_bytes &[u8]; serialize_unit_struct &'static str;
    }

    fn serialize_none(self) -> Result<(), SerError> {
        Err(changed())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), SerError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), SerError> {
        Err(changed())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), SerError> {
        Err(changed())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), SerError> {
        Err(changed())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, SerError> {
        Err(changed())
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, SerError> {
        Err(changed())
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, SerError> {
        Err(changed())
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(changed())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Children<'a, W>, SerError> {
        Ok(Children {
            w: self.w,
            key: None,
        })
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Children<'a, W>, SerError> {
        Ok(Children {
            w: self.w,
            key: None,
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Children<'a, W>, SerError> {
        Ok(Children {
            w: self.w,
            key: None,
        })
    }
}

/// The fields of a struct or map written as its content.
struct Children<'a, W> {
    w: &'a mut Writer<W>,
    /// A map's key given before its value.
    key: Option<String>,
}

impl<W: fmt::Write> ser::SerializeStruct for Children<'_, W> {
    type Ok = ();
    type Error = SerError;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        self.w.write_field(key, value)
    }

    fn end(self) -> Result<(), SerError> {
        Ok(())
    }
}

struct_variant_as_struct!(Children, ());

impl<W: fmt::Write> ser::SerializeMap for Children<'_, W> {
    type Ok = ();
    type Error = SerError;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), SerError> {
        self.key = Some(key.serialize(KeyName)?);
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| error("a map's value without its key"))?;
        self.w.write_field(&key, value)
    }

    fn end(self) -> Result<(), SerError> {
        Ok(())
    }
}

/// A plain value as text (an attribute's value, `$text`): `None` for
/// `None`, an error for what has no text form.
struct SimpleValue;

fn not_text(what: &str) -> SerError {
    error(format!(
        "{what} cannot be an attribute value or text; only strings, numbers, booleans, \
         characters and unit enum variants can"
    ))
}

macro_rules! displayed {
    ($($method:ident $type:ty;)*) => {
        $(
            fn $method(self, value: $type) -> Result<Option<String>, SerError> {
                Ok(Some(value.to_string()))
            }
        )*
    };
}

impl ser::Serializer for SimpleValue {
    type Ok = Option<String>;
    type Error = SerError;
    type SerializeSeq = Impossible<Option<String>, SerError>;
    type SerializeTuple = Impossible<Option<String>, SerError>;
    type SerializeTupleStruct = Impossible<Option<String>, SerError>;
    type SerializeTupleVariant = Impossible<Option<String>, SerError>;
    type SerializeMap = Impossible<Option<String>, SerError>;
    type SerializeStruct = Impossible<Option<String>, SerError>;
    type SerializeStructVariant = Impossible<Option<String>, SerError>;

    displayed! {
        serialize_bool bool; serialize_i8 i8; serialize_i16 i16; serialize_i32 i32;
        serialize_i64 i64; serialize_i128 i128; serialize_u8 u8; serialize_u16 u16;
        serialize_u32 u32; serialize_u64 u64; serialize_u128 u128; serialize_f32 f32;
        serialize_f64 f64; serialize_char char; serialize_str &str;
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<Option<String>, SerError> {
        Err(not_text("bytes"))
    }

    fn serialize_none(self) -> Result<Option<String>, SerError> {
        Ok(None)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Option<String>, SerError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Option<String>, SerError> {
        Ok(Some(String::new()))
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<Option<String>, SerError> {
        Ok(Some(String::new()))
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Option<String>, SerError> {
        Ok(Some(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Option<String>, SerError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Option<String>, SerError> {
        Err(not_text("an enum variant with a value"))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, SerError> {
        Err(not_text("a sequence"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, SerError> {
        Err(not_text("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, SerError> {
        Err(not_text("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(not_text("an enum variant with a value"))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, SerError> {
        Err(not_text("a map"))
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, SerError> {
        Err(not_text("a struct"))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(not_text("an enum variant with fields"))
    }
}

/// A map's key as a name: a string, a character, an integer or a unit
/// variant (checked as a name where it is used).
struct KeyName;

fn not_a_key() -> SerError {
    error("a map key must be a string (an element or `@attribute` name)")
}

impl ser::Serializer for KeyName {
    type Ok = String;
    type Error = SerError;
    type SerializeSeq = Impossible<String, SerError>;
    type SerializeTuple = Impossible<String, SerError>;
    type SerializeTupleStruct = Impossible<String, SerError>;
    type SerializeTupleVariant = Impossible<String, SerError>;
    type SerializeMap = Impossible<String, SerError>;
    type SerializeStruct = Impossible<String, SerError>;
    type SerializeStructVariant = Impossible<String, SerError>;

    fn serialize_str(self, value: &str) -> Result<String, SerError> {
        Ok(value.to_owned())
    }

    fn serialize_char(self, value: char) -> Result<String, SerError> {
        Ok(value.to_string())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, SerError> {
        Ok(variant.to_owned())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, SerError> {
        value.serialize(self)
    }

    fn serialize_i8(self, value: i8) -> Result<String, SerError> {
        Ok(value.to_string())
    }
    fn serialize_i16(self, value: i16) -> Result<String, SerError> {
        Ok(value.to_string())
    }
    fn serialize_i32(self, value: i32) -> Result<String, SerError> {
        Ok(value.to_string())
    }
    fn serialize_i64(self, value: i64) -> Result<String, SerError> {
        Ok(value.to_string())
    }
    fn serialize_u8(self, value: u8) -> Result<String, SerError> {
        Ok(value.to_string())
    }
    fn serialize_u16(self, value: u16) -> Result<String, SerError> {
        Ok(value.to_string())
    }
    fn serialize_u32(self, value: u32) -> Result<String, SerError> {
        Ok(value.to_string())
    }
    fn serialize_u64(self, value: u64) -> Result<String, SerError> {
        Ok(value.to_string())
    }

    fn serialize_bool(self, _: bool) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_f32(self, _: f32) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_f64(self, _: f64) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_none(self) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_unit(self) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, SerError> {
        Err(not_a_key())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, SerError> {
        Err(not_a_key())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, SerError> {
        Err(not_a_key())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, SerError> {
        Err(not_a_key())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(not_a_key())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, SerError> {
        Err(not_a_key())
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, SerError> {
        Err(not_a_key())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(not_a_key())
    }
}
