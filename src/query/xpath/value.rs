//! The values of XPath 1.0 (§1, §3.1): node-sets of [`XNode`]s (elements
//! and the other tree nodes, attribute and namespace nodes), strings,
//! numbers and booleans, and the [`Bindings`] a caller gives an
//! evaluation. A leaf of `xpath`: the parser, the evaluator and the
//! functions name these types.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::dom::{Attribute, Node, NodeType};

use super::functions;

/// What the caller binds for an evaluation: variables, and namespace
/// prefixes for name tests.
///
/// Unless [`Bindings::document_prefixes`] turns it off, prefixes not bound
/// here fall back to those declared in scope at the document element (so
/// `//atom:entry` works on a feed that declares `xmlns:atom`); an unprefixed
/// name test always means "no namespace", as XPath 1.0 says.
///
/// ```
/// use xml5dom::query::{Bindings, Value};
/// let mut bindings = Bindings::new();
/// bindings.namespace("a", "http://www.w3.org/2005/Atom").variable("n", Value::Number(3.0));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Bindings<'a> {
    pub(super) namespaces: HashMap<String, String>,
    pub(super) variables: HashMap<String, Value<'a>>,
    pub(super) no_document_prefixes: bool,
}

impl<'a> Bindings<'a> {
    /// No variables, no prefixes beyond the document element's.
    ///
    /// ```
    /// let bindings = xml5dom::query::Bindings::new();
    /// ```
    pub fn new() -> Bindings<'a> {
        Bindings::default()
    }

    /// Binds `prefix` to the namespace `uri` for name tests.
    ///
    /// ```
    /// let mut bindings = xml5dom::query::Bindings::new();
    /// bindings.namespace("svg", "http://www.w3.org/2000/svg");
    /// ```
    pub fn namespace(&mut self, prefix: &str, uri: &str) -> &mut Bindings<'a> {
        self.namespaces.insert(prefix.to_owned(), uri.to_owned());
        self
    }

    /// Binds the variable `$name` (write `prefix:local` for a prefixed
    /// variable name, as the expression does).
    ///
    /// ```
    /// use xml5dom::query::{Bindings, Value};
    /// let mut bindings = Bindings::new();
    /// bindings.variable("who", Value::String("ada".into()));
    /// ```
    pub fn variable(&mut self, name: &str, value: Value<'a>) -> &mut Bindings<'a> {
        self.variables.insert(name.to_owned(), value);
        self
    }

    /// Whether prefixes declared at the document element are bound when
    /// not bound here (default `true`).
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::{Bindings, XPath};
    /// let doc = Document::parse("<p:r xmlns:p='urn:p'/>");
    /// let mut strict = Bindings::new();
    /// strict.document_prefixes(false);
    /// assert!(XPath::compile("/p:r").unwrap().select_with(doc.root(), &strict).is_err());
    /// ```
    pub fn document_prefixes(&mut self, enabled: bool) -> &mut Bindings<'a> {
        self.no_document_prefixes = !enabled;
        self
    }
}

/// The four result types of XPath 1.0 (§1).
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::{Value, XPath};
/// let doc = Document::parse("<a>42</a>");
/// let eval = |e: &str| XPath::compile(e).unwrap().evaluate(doc.root()).unwrap();
/// assert_eq!(eval("string(/a)"), Value::String("42".into()));
/// assert_eq!(eval("/a * 2"), Value::Number(84.0));
/// assert_eq!(eval("/a = 42"), Value::Boolean(true));
/// assert!(matches!(eval("/a"), Value::NodeSet(nodes) if nodes.len() == 1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// Nodes in document order, without duplicates.
    NodeSet(Vec<XNode<'a>>),
    /// `true()` or `false()`.
    Boolean(bool),
    /// A double.
    Number(f64),
    /// A string.
    String(String),
}

impl<'a> Value<'a> {
    /// The value converted with XPath's `string()` (numbers formatted as
    /// libxml2 formats them).
    ///
    /// ```
    /// use xml5dom::query::Value;
    /// assert_eq!(Value::Number(2.0).to_xpath_string(), "2");
    /// assert_eq!(Value::Number(0.5).to_xpath_string(), "0.5");
    /// assert_eq!(Value::Boolean(true).to_xpath_string(), "true");
    /// ```
    pub fn to_xpath_string(&self) -> String {
        to_string(self)
    }

    /// The value converted with XPath's `number()`.
    ///
    /// ```
    /// use xml5dom::query::Value;
    /// assert_eq!(Value::String(" 12 ".into()).to_number(), 12.0);
    /// assert!(Value::String("x".into()).to_number().is_nan());
    /// ```
    pub fn to_number(&self) -> f64 {
        to_number(self)
    }

    /// The value converted with XPath's `boolean()`.
    ///
    /// ```
    /// use xml5dom::query::Value;
    /// assert!(!Value::String(String::new()).to_boolean());
    /// assert!(Value::Number(-1.0).to_boolean());
    /// ```
    pub fn to_boolean(&self) -> bool {
        to_boolean(self)
    }

    /// `"node-set"`, `"boolean"`, `"number"` or `"string"`.
    ///
    /// ```
    /// assert_eq!(xml5dom::query::Value::Number(1.0).type_name(), "number");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::NodeSet(_) => "node-set",
            Value::Boolean(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
        }
    }
}

/// A node of the XPath data model: a tree node, an attribute, or a
/// namespace node.
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::{XNode, XPath};
/// let doc = Document::parse("<a xmlns:p='urn:p' x='1'/>");
/// let nodes = XPath::compile("/a/@x | /a/namespace::p").unwrap().select(doc.root()).unwrap();
/// // An element's attributes come before its namespace nodes, as in libxml2.
/// assert_eq!(nodes[0].as_attribute().unwrap().value(), "1");
/// assert!(matches!(nodes[1], XNode::Namespace(ref ns) if ns.prefix() == "p"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum XNode<'a> {
    /// The document, an element, text, a comment or a processing
    /// instruction.
    Node(Node<'a>),
    /// An attribute (namespace declarations are not attributes in XPath).
    Attribute(AttributeNode<'a>),
    /// A namespace in scope at an element.
    Namespace(NamespaceNode<'a>),
}

impl<'a> XNode<'a> {
    /// The tree node, if this is one (the first DOM node of a run of
    /// text, for a text node). `XNode::from(node)` goes the other way.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::XPath;
    /// let doc = Document::parse("<a/>");
    /// let found = XPath::compile("/a").unwrap().select(doc.root()).unwrap();
    /// assert_eq!(found[0].as_node().unwrap().name(), "a");
    /// ```
    pub fn as_node(&self) -> Option<Node<'a>> {
        match self {
            XNode::Node(node) => Some(*node),
            _ => None,
        }
    }

    /// The attribute, if this is one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::XPath;
    /// let doc = Document::parse("<a x='1'/>");
    /// let found = XPath::compile("/a/@x").unwrap().select(doc.root()).unwrap();
    /// assert_eq!(found[0].as_attribute().unwrap().name(), "x");
    /// ```
    pub fn as_attribute(&self) -> Option<Attribute<'a>> {
        match self {
            XNode::Attribute(attribute) => Some(attribute.attribute),
            _ => None,
        }
    }

    /// The element that owns an attribute or namespace node, or the parent
    /// of a tree node.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::XPath;
    /// let doc = Document::parse("<a x='1'/>");
    /// let found = XPath::compile("/a/@x").unwrap().select(doc.root()).unwrap();
    /// assert_eq!(found[0].parent().unwrap().name(), "a");
    /// ```
    pub fn parent(&self) -> Option<Node<'a>> {
        match self {
            XNode::Node(node) => node.parent(),
            XNode::Attribute(attribute) => Some(attribute.element),
            XNode::Namespace(namespace) => Some(namespace.element),
        }
    }

    /// The node's string-value (§5). For a text node, the text of the
    /// whole run of adjacent text siblings it is part of, which XPath sees
    /// as one node (see "Text nodes" in the `query::xpath` docs); for a tree
    /// node, what [`Node::string_value`] gives, which the table there
    /// compares with [`Node::text_content`]; for an attribute its value,
    /// for a namespace node its URI.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::XPath;
    /// let doc = Document::parse("<a>x<b>y</b><!--z--></a>");
    /// let found = XPath::compile("/a").unwrap().select(doc.root()).unwrap();
    /// assert_eq!(found[0].string_value(), "xy");
    ///
    /// let doc = Document::parse("<!DOCTYPE a [<!ENTITY e 'y<b/>'>]><a>x&e;</a>");
    /// let found = XPath::compile("/a/text()").unwrap().select(doc.root()).unwrap();
    /// assert_eq!(found.len(), 1);
    /// assert_eq!(found[0].string_value(), "xy");
    /// ```
    pub fn string_value(&self) -> String {
        string_value(*self)
    }

    /// The DOM text nodes of a text node: the run of adjacent text
    /// siblings it is part of, from the first, which XPath sees as one
    /// text node (see "Text nodes" in the `query::xpath` docs). Nothing for
    /// other nodes.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::XPath;
    /// let doc = Document::parse("<!DOCTYPE a [<!ENTITY e 'y<b/>'>]><a>x&e;</a>");
    /// let found = XPath::compile("/a/text()").unwrap().select(doc.root()).unwrap();
    /// let pieces: Vec<_> = found[0].text_run().map(|n| n.text().unwrap()).collect();
    /// assert_eq!(pieces, ["x", "y"]);
    /// ```
    pub fn text_run(&self) -> impl Iterator<Item = Node<'a>> + 'a {
        let first = match self {
            XNode::Node(n) if n.is_text() => Some(run_start(*n)),
            _ => None,
        };
        first
            .into_iter()
            .flat_map(|first| std::iter::once(first).chain(first.following_siblings()))
            .take_while(Node::is_text)
    }
}

/// A tree node as XPath sees it: [`XNode::Node`]. (For a text node, the
/// XPath text node is the run of adjacent text it is part of: see
/// [`XNode::text_run`].)
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::{XNode, XPath};
///
/// let doc = Document::parse("<a><b/></a>");
/// let b = doc.root_element().unwrap().first_child().unwrap();
/// let found = XPath::compile("//b").unwrap().select(doc.root()).unwrap();
/// assert_eq!(found, [XNode::from(b)]);
/// assert_eq!(found[0].as_node(), Some(b));
/// ```
impl<'a> From<Node<'a>> for XNode<'a> {
    fn from(node: Node<'a>) -> XNode<'a> {
        XNode::Node(node)
    }
}

/// XPath's string-value of tree nodes, beside the DOM's text.
impl Node<'_> {
    /// The node's XPath string-value (§5): what `string(.)` gives with
    /// this node as the context, and [`XNode::string_value`] of the node
    /// as a query hands it back.
    ///
    /// For an element (and the document) it is
    /// [`text_content`](Node::text_content): the text of its descendant
    /// text nodes in document order. The two differ elsewhere:
    ///
    /// | node | `string_value()` (XPath) | `text_content()` (DOM) |
    /// |---|---|---|
    /// | element | its descendants' text | the same |
    /// | document | the root element's text | the same, and the whitespace kept around the root element |
    /// | text node | the whole run of adjacent text siblings it is part of, which XPath sees as one text node | its own text |
    /// | comment, PI | its data | empty |
    /// | DOCTYPE | empty (XPath has no such node) | empty |
    ///
    /// Text nodes lie side by side where an entity's expansion holds
    /// markup (`a&e;c` with `<!ENTITY e "x<b/>y">` gives the text nodes
    /// `a`, `x`, then `y`, `c`) or after edits; see "Text nodes" in the
    /// docs of the `query::xpath` module.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::{XNode, XPath};
    ///
    /// let doc = Document::parse(r#"<!DOCTYPE r [<!ENTITY e "x<b/>y">]><r>a&e;c<!--note--></r>"#);
    /// let r = doc.root_element().unwrap();
    /// assert_eq!(r.string_value(), "axyc");
    /// assert_eq!(r.text_content(), "axyc");
    ///
    /// let a = r.first_child().unwrap();
    /// assert_eq!(a.text_content(), "a");
    /// assert_eq!(a.string_value(), "ax"); // `a` and `x` are one XPath text node
    ///
    /// let note = r.last_child().unwrap();
    /// assert_eq!((note.string_value().as_str(), note.text_content().as_str()), ("note", ""));
    ///
    /// let doc_around = Document::parse("<a>x</a>\n");
    /// let root = doc_around.root();
    /// assert_eq!((root.string_value().as_str(), root.text_content().as_str()), ("x", "x\n"));
    ///
    /// // The same as XPath's, for every node.
    /// for node in doc.root().descendants() {
    ///     assert_eq!(node.string_value(), XNode::from(node).string_value());
    ///     let string = XPath::compile("string(.)").unwrap().evaluate(node).unwrap();
    ///     assert_eq!(node.string_value(), string.to_xpath_string());
    /// }
    /// ```
    pub fn string_value(&self) -> String {
        XNode::Node(*self).string_value()
    }
}

/// An attribute node: the attribute and the element it belongs to.
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::{XNode, XPath};
/// let mut doc = Document::parse("<a x='1'/>");
/// let found = XPath::compile("//@x").unwrap().select(doc.root()).unwrap();
/// let XNode::Attribute(attribute) = found[0] else { panic!() };
/// let (element, name) = (attribute.element().id(), attribute.attribute().name().to_owned());
/// doc.set_attribute(element, &name, "2").unwrap();
/// assert_eq!(doc.root_element().unwrap().attribute("x"), Some("2"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct AttributeNode<'a> {
    pub(super) element: Node<'a>,
    pub(super) attribute: Attribute<'a>,
    /// Its position among the element's attributes (for document order).
    pub(super) index: usize,
}

impl PartialEq for AttributeNode<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.element == other.element && self.index == other.index
    }
}

impl<'a> AttributeNode<'a> {
    /// The element the attribute belongs to.
    ///
    /// ```
    /// # use xml5dom::Document; use xml5dom::query::{XNode, XPath};
    /// let doc = Document::parse("<a x='1'/>");
    /// let found = XPath::compile("//@x").unwrap().select(doc.root()).unwrap();
    /// let XNode::Attribute(attribute) = found[0] else { panic!() };
    /// assert_eq!(attribute.element().name(), "a");
    /// ```
    pub fn element(&self) -> Node<'a> {
        self.element
    }

    /// The attribute.
    ///
    /// ```
    /// # use xml5dom::Document; use xml5dom::query::{XNode, XPath};
    /// let doc = Document::parse("<a x='1'/>");
    /// let found = XPath::compile("//@x").unwrap().select(doc.root()).unwrap();
    /// let XNode::Attribute(attribute) = found[0] else { panic!() };
    /// assert_eq!(attribute.attribute().value(), "1");
    /// ```
    pub fn attribute(&self) -> Attribute<'a> {
        self.attribute
    }

    /// Its position among the element's attributes (declarations counted).
    pub(crate) fn index(&self) -> usize {
        self.index
    }
}

/// A namespace node: a prefix bound at an element (§5.4).
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::{XNode, XPath};
/// let doc = Document::parse("<a xmlns='urn:d'/>");
/// let found = XPath::compile("/*/namespace::*").unwrap().select(doc.root()).unwrap();
/// let uris: Vec<_> = found.iter().filter_map(|n| match n {
///     XNode::Namespace(ns) => Some((ns.prefix(), ns.uri())),
///     _ => None,
/// }).collect();
/// assert_eq!(uris, [("xml", xml5dom::XML_NAMESPACE), ("", "urn:d")]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NamespaceNode<'a> {
    pub(super) element: Node<'a>,
    pub(super) prefix: &'a str,
    pub(super) uri: &'a str,
    /// Its position among the element's namespace nodes (document order).
    pub(super) index: usize,
}

impl<'a> NamespaceNode<'a> {
    /// The element the namespace is in scope at.
    ///
    /// ```
    /// # use xml5dom::Document; use xml5dom::query::{XNode, XPath};
    /// let doc = Document::parse("<a xmlns:p='urn:p'><b/></a>");
    /// let found = XPath::compile("//b/namespace::p").unwrap().select(doc.root()).unwrap();
    /// let XNode::Namespace(ns) = found[0] else { panic!() };
    /// assert_eq!(ns.element().name(), "b");
    /// ```
    pub fn element(&self) -> Node<'a> {
        self.element
    }

    /// The prefix; empty for the default namespace.
    ///
    /// ```
    /// # use xml5dom::Document; use xml5dom::query::{XNode, XPath};
    /// let doc = Document::parse("<a xmlns:p='urn:p'/>");
    /// let found = XPath::compile("/a/namespace::p").unwrap().select(doc.root()).unwrap();
    /// let XNode::Namespace(ns) = found[0] else { panic!() };
    /// assert_eq!(ns.prefix(), "p");
    /// ```
    pub fn prefix(&self) -> &'a str {
        self.prefix
    }

    /// The namespace URI.
    ///
    /// ```
    /// # use xml5dom::Document; use xml5dom::query::{XNode, XPath};
    /// let doc = Document::parse("<a xmlns:p='urn:p'/>");
    /// let found = XPath::compile("/a/namespace::p").unwrap().select(doc.root()).unwrap();
    /// let XNode::Namespace(ns) = found[0] else { panic!() };
    /// assert_eq!(ns.uri(), "urn:p");
    /// ```
    pub fn uri(&self) -> &'a str {
        self.uri
    }
}

pub(super) fn in_content(node: Node<'_>) -> bool {
    node.is_text() && !is_top_level(node)
}

/// The first node of the run of adjacent text siblings `node` is in
/// (`node` itself if it is not text or starts its run).
pub(super) fn run_start(node: Node<'_>) -> Node<'_> {
    let mut start = node;
    if start.is_text() {
        while let Some(prev) = start.prev_sibling().filter(Node::is_text) {
            start = prev;
        }
    }
    start
}

/// The text of the run of adjacent text siblings that starts at `first`,
/// borrowed when the run is one node.
pub(super) fn run_text(first: Node<'_>) -> Cow<'_, str> {
    let own = first.text().unwrap_or("");
    if !first.next_sibling().is_some_and(|n| n.is_text()) {
        return Cow::Borrowed(own);
    }
    let mut text = own.to_owned();
    for next in first.following_siblings().take_while(Node::is_text) {
        text.push_str(next.text().unwrap_or(""));
    }
    Cow::Owned(text)
}

pub(super) fn is_top_level(node: Node<'_>) -> bool {
    node.parent().is_some_and(|p| p.is_document())
}

/// The string-value of a node (§5); for any text node of a run of
/// adjacent text siblings, the text of the whole run.
pub(super) fn string_value(node: XNode<'_>) -> String {
    match node {
        XNode::Node(n) if n.is_text() => run_text(run_start(n)).into_owned(),
        _ => string_value_cow(node).into_owned(),
    }
}

/// The string-value, borrowed where the node holds it whole (attributes,
/// text, comments: most comparisons), built for elements, the root and
/// runs of text. A text node here is the first of its run, as the
/// evaluator hands out only those.
pub(super) fn string_value_cow(node: XNode<'_>) -> Cow<'_, str> {
    match node {
        XNode::Node(n) => match n.node_type() {
            NodeType::Text => run_text(n),
            NodeType::Comment | NodeType::ProcessingInstruction => {
                Cow::Borrowed(n.text().unwrap_or(""))
            }
            NodeType::Element if !n.has_children() => Cow::Borrowed(""),
            NodeType::Element => match n.first_child() {
                // One text child: its text is the element's string-value.
                Some(only) if only.is_text() && only.next_sibling().is_none() => {
                    Cow::Borrowed(only.text().unwrap_or(""))
                }
                _ => Cow::Owned(built_string_value(node)),
            },
            _ => Cow::Owned(built_string_value(node)),
        },
        XNode::Attribute(a) => Cow::Borrowed(a.attribute.value()),
        XNode::Namespace(ns) => Cow::Borrowed(ns.uri),
    }
}

pub(super) fn built_string_value(node: XNode<'_>) -> String {
    match node {
        XNode::Node(n) => match n.node_type() {
            NodeType::Document | NodeType::Element => {
                let mut out = String::new();
                for d in n.descendants() {
                    if in_content(d) {
                        out.push_str(d.text().unwrap_or(""));
                    }
                }
                out
            }
            NodeType::Text => run_text(n).into_owned(),
            NodeType::Comment | NodeType::ProcessingInstruction => {
                n.text().unwrap_or("").to_owned()
            }
            NodeType::Doctype => String::new(),
        },
        XNode::Attribute(a) => a.attribute.value().to_owned(),
        XNode::Namespace(ns) => ns.uri.to_owned(),
    }
}

pub(super) fn to_string(value: &Value<'_>) -> String {
    match value {
        Value::NodeSet(nodes) => nodes
            .first()
            .map(|&n| string_value_cow(n).into_owned())
            .unwrap_or_default(),
        Value::Boolean(b) => if *b { "true" } else { "false" }.to_owned(),
        Value::Number(n) => functions::number_to_string(*n),
        Value::String(s) => s.clone(),
    }
}

pub(super) fn to_number(value: &Value<'_>) -> f64 {
    match value {
        Value::Number(n) => *n,
        Value::Boolean(b) => f64::from(u8::from(*b)),
        Value::String(s) => functions::string_to_number(s),
        Value::NodeSet(_) => functions::string_to_number(&to_string(value)),
    }
}

pub(super) fn to_boolean(value: &Value<'_>) -> bool {
    match value {
        Value::NodeSet(nodes) => !nodes.is_empty(),
        Value::Boolean(b) => *b,
        Value::Number(n) => functions::number_to_boolean(*n),
        Value::String(s) => functions::string_to_boolean(s),
    }
}
