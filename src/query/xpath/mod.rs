//! XPath 1.0 (W3C Recommendation, 16 November 1999) over the DOM.
//!
//! An expression is compiled once ([`XPath::compile`]: `parser` turns the
//! text into the `ast`) and evaluated as often as needed against any node
//! (`eval`), with variables and namespace prefixes bound by the caller
//! ([`Bindings`]). Results follow libxml2 where XPath 1.0 leaves room
//! (number formatting, the order of namespace nodes); docs/conformance.md
//! lists each such decision.
//!
//! The XPath data model sees the tree the way XML does: no DOCTYPE nodes,
//! no text outside the root element, attributes and namespace declarations
//! as attribute and namespace nodes ([`XNode`]).
//!
//! # Text nodes
//!
//! XPath never has two text nodes side by side (§5.7), but the DOM may:
//! an entity whose replacement holds markup leaves its text apart from the
//! text around it (`a&e;c` with `<!ENTITY e "x<b/>y">` gives the DOM text
//! nodes `a`, `x`, an element `b`, `y` and `c`), and edits can put text
//! next to text. XPath sees each run of adjacent text siblings as one text
//! node, which counts once for `text()`, `node()`, positions, `count()`,
//! `last()` and every axis, and whose string-value is the whole run's
//! text. A node-set hands back the first DOM node of the run;
//! [`XNode::string_value`] gives the run's text and [`XNode::text_run`]
//! its DOM nodes. Given a later node of a run (as the context node, or in
//! a variable), the evaluator takes the run's first.
//!
//! ```
//! use xml5dom::Document;
//! use xml5dom::query::{Value, XPath};
//!
//! let doc = Document::parse(r#"<!DOCTYPE r [<!ENTITY e "x<b/>y">]><r>a&e;c</r>"#);
//! let eval = |e: &str| XPath::compile(e).unwrap().evaluate(doc.root()).unwrap();
//! assert_eq!(eval("count(/r/text())"), Value::Number(2.0));
//! assert_eq!(eval("string(/r/text()[1])"), Value::String("ax".into()));
//! let texts = XPath::compile("/r/text()").unwrap().select(doc.root()).unwrap();
//! assert_eq!(texts[1].string_value(), "yc");
//! assert_eq!(texts[1].as_node().unwrap().text(), Some("y"));
//! ```
//!
//! # Namespace nodes
//!
//! The namespace axis gives libxml2's order: `xml` first, then the
//! bindings in scope in the reverse of "the element's own declarations in
//! source order, then its parent's, and so on up, each prefix once".
//!
//! ```
//! use xml5dom::Document;
//! use xml5dom::query::{Value, XPath};
//!
//! let doc = Document::parse("<a xmlns:p='1' xmlns:q='2'><b xmlns:r='3' xmlns:s='4'/></a>");
//! let name = |n: usize| {
//!     let expr = format!("name(/a/b/namespace::*[{n}])");
//!     XPath::compile(&expr).unwrap().evaluate(doc.root()).unwrap()
//! };
//! let names: Vec<_> = (1..=5).map(name).collect();
//! let want = ["xml", "q", "p", "s", "r"].map(|s| Value::String(s.into()));
//! assert_eq!(names, want);
//! ```
//!
//! ```
//! use xml5dom::Document;
//! use xml5dom::query::{Value, XPath};
//!
//! let doc = Document::parse("<list><item n='1'/><item n='2'/><item n='3'/></list>");
//! let sum = XPath::compile("sum(//item/@n)").unwrap();
//! assert_eq!(sum.evaluate(doc.root()).unwrap(), Value::Number(6.0));
//! ```

pub(crate) mod ast;
mod eval;
mod functions;
mod parser;

use std::collections::HashMap;

use crate::dom::{Attribute, Node};

/// A compiled XPath 1.0 expression: compile once, evaluate against any
/// node of any document.
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::XPath;
///
/// let doc = Document::parse("<feed><entry id='a'/><entry id='b'/></feed>");
/// let entries = XPath::compile("/feed/entry[@id='b']").unwrap();
/// let found = entries.select(doc.root()).unwrap();
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].as_node().unwrap().attribute("id"), Some("b"));
/// ```
#[derive(Clone, Debug)]
pub struct XPath {
    source: String,
    expr: ast::Expr,
}

impl XPath {
    /// Compiles `expression`; a syntax error, an unknown function or a
    /// wrong number of arguments is an [`XPathError`] that points at the
    /// offending character.
    ///
    /// ```
    /// use xml5dom::query::XPath;
    /// let error = XPath::compile("//item[@id=]").unwrap_err();
    /// assert_eq!(error.offset(), 11);
    /// assert!(XPath::compile("frobnicate(1)").is_err());
    /// ```
    pub fn compile(expression: &str) -> Result<XPath, XPathError> {
        Ok(XPath {
            source: expression.to_owned(),
            expr: parser::parse(expression)?,
        })
    }

    /// The expression as written.
    ///
    /// ```
    /// use xml5dom::query::XPath;
    /// assert_eq!(XPath::compile("count(//a)").unwrap().as_str(), "count(//a)");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Evaluates the expression with `context` as the context node, and
    /// the namespace prefixes in scope at the document element bound (no
    /// variables).
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::{Value, XPath};
    /// let doc = Document::parse("<f xmlns:a='urn:a'><a:x>1</a:x><a:x>2</a:x></f>");
    /// let total = XPath::compile("sum(//a:x)").unwrap().evaluate(doc.root()).unwrap();
    /// assert_eq!(total, Value::Number(3.0));
    /// ```
    pub fn evaluate<'a>(&self, context: Node<'a>) -> Result<Value<'a>, XPathError> {
        self.evaluate_with(context, &Bindings::new())
    }

    /// Evaluates the expression with `context` as the context node and
    /// `bindings` for variables and namespace prefixes.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::{Bindings, Value, XPath};
    /// let doc = Document::parse("<r><i n='1'/><i n='2'/><i n='3'/></r>");
    /// let mut bindings = Bindings::new();
    /// bindings.variable("min", Value::Number(2.0));
    /// let count = XPath::compile("count(//i[@n >= $min])").unwrap();
    /// assert_eq!(count.evaluate_with(doc.root(), &bindings).unwrap(), Value::Number(2.0));
    /// ```
    pub fn evaluate_with<'a>(
        &self,
        context: Node<'a>,
        bindings: &Bindings<'a>,
    ) -> Result<Value<'a>, XPathError> {
        eval::evaluate(self, context, bindings)
    }

    /// Evaluates an expression that must give a node-set, and returns its
    /// nodes in document order ([`XPathError::NotANodeSet`] otherwise).
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::XPath;
    /// let doc = Document::parse("<a><b/>text<!--c--></a>");
    /// let kinds: Vec<_> = XPath::compile("/a/node()").unwrap()
    ///     .select(doc.root()).unwrap()
    ///     .iter().map(|n| n.as_node().unwrap().node_type()).collect();
    /// assert_eq!(kinds.len(), 3);
    /// assert!(XPath::compile("1 + 1").unwrap().select(doc.root()).is_err());
    /// ```
    pub fn select<'a>(&self, context: Node<'a>) -> Result<Vec<XNode<'a>>, XPathError> {
        self.select_with(context, &Bindings::new())
    }

    /// [`XPath::select`] with bindings.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::{Bindings, XPath};
    /// let doc = Document::parse("<r xmlns='urn:r'><i/></r>");
    /// let mut bindings = Bindings::new();
    /// bindings.namespace("r", "urn:r");
    /// let items = XPath::compile("//r:i").unwrap().select_with(doc.root(), &bindings).unwrap();
    /// assert_eq!(items.len(), 1);
    /// ```
    pub fn select_with<'a>(
        &self,
        context: Node<'a>,
        bindings: &Bindings<'a>,
    ) -> Result<Vec<XNode<'a>>, XPathError> {
        match self.evaluate_with(context, bindings)? {
            Value::NodeSet(nodes) => Ok(nodes),
            other => Err(XPathError::NotANodeSet {
                found: other.type_name(),
                offset: 0,
                column: 1,
            }),
        }
    }
}

impl std::str::FromStr for XPath {
    type Err = XPathError;

    fn from_str(expression: &str) -> Result<XPath, XPathError> {
        XPath::compile(expression)
    }
}

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
    namespaces: HashMap<String, String>,
    variables: HashMap<String, Value<'a>>,
    no_document_prefixes: bool,
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
        eval::to_string(self)
    }

    /// The value converted with XPath's `number()`.
    ///
    /// ```
    /// use xml5dom::query::Value;
    /// assert_eq!(Value::String(" 12 ".into()).to_number(), 12.0);
    /// assert!(Value::String("x".into()).to_number().is_nan());
    /// ```
    pub fn to_number(&self) -> f64 {
        eval::to_number(self)
    }

    /// The value converted with XPath's `boolean()`.
    ///
    /// ```
    /// use xml5dom::query::Value;
    /// assert!(!Value::String(String::new()).to_boolean());
    /// assert!(Value::Number(-1.0).to_boolean());
    /// ```
    pub fn to_boolean(&self) -> bool {
        eval::to_boolean(self)
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
    /// as one node (see [the module docs](self#text-nodes)); for a tree
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
        eval::string_value(*self)
    }

    /// The DOM text nodes of a text node: the run of adjacent text
    /// siblings it is part of, from the first, which XPath sees as one
    /// text node (see [the module docs](self#text-nodes)). Nothing for
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
            XNode::Node(n) if n.is_text() => Some(eval::run_start(*n)),
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
    /// `a`, `x`, then `y`, `c`) or after edits; see
    /// [the XPath module docs](crate::query::xpath#text-nodes).
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
    element: Node<'a>,
    attribute: Attribute<'a>,
    /// Its position among the element's attributes (for document order).
    index: usize,
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
    element: Node<'a>,
    prefix: &'a str,
    uri: &'a str,
    /// Its position among the element's namespace nodes (document order).
    index: usize,
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

/// Why an expression could not be compiled or evaluated. Every kind says
/// where in the expression: a byte offset and a 1-based column (in
/// characters).
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::{XPath, XPathError};
/// let error = XPath::compile("count(//a").unwrap_err();
/// assert!(matches!(error, XPathError::Syntax { .. }));
/// assert_eq!(error.to_string(), "XPath syntax error at column 10: `,` or `)` was expected, but the expression ended");
///
/// let doc = Document::parse("<a/>");
/// let error = XPath::compile("//x:a").unwrap().evaluate(doc.root()).unwrap_err();
/// assert_eq!(error.to_string(), "the namespace prefix `x` at column 3 is not bound");
///
/// // A prefix the document uses undeclared: the error says how to select.
/// let doc = Document::parse("<rss><dc:creator>J</dc:creator></rss>");
/// let error = XPath::compile("//dc:creator").unwrap().evaluate(doc.root()).unwrap_err();
/// assert!(matches!(
///     &error,
///     XPathError::UnboundPrefix { undeclared_namespace: Some(uri), .. }
///         if uri == "urn:xml5dom:undeclared:dc"
/// ));
/// assert_eq!(
///     error.to_string(),
///     "the namespace prefix `dc` at column 3 is not bound; the document uses `dc` without \
///      declaring it, and its names with that prefix are in the namespace \
///      urn:xml5dom:undeclared:dc: bind `dc` to it to select them"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum XPathError {
    /// The text does not follow the grammar.
    #[error("XPath syntax error at column {column}: {message}")]
    Syntax {
        /// What is wrong.
        message: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A function that XPath 1.0 does not define.
    #[error("unknown XPath function `{name}` at column {column}")]
    UnknownFunction {
        /// The name as written.
        name: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A function called with the wrong number of arguments.
    #[error("the XPath function `{function}` at column {column} takes {expected} argument(s), not {given}")]
    ArgumentCount {
        /// The function.
        function: &'static str,
        /// How many it takes (`"1"`, `"2 to 3"`, `"at least 2"`).
        expected: String,
        /// How many it was given.
        given: usize,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A prefix neither the bindings nor the document element bind.
    #[error(
        "the namespace prefix `{prefix}` at column {column} is not bound{}",
        undeclared_hint(prefix, .undeclared_namespace.as_deref())
    )]
    UnboundPrefix {
        /// The prefix.
        prefix: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
        /// When the document uses the prefix without declaring it: the
        /// namespace its names using it are in
        /// ([`undeclared_namespace`](crate::dom::undeclared_namespace)), which a
        /// binding of the prefix to it selects.
        undeclared_namespace: Option<String>,
    },
    /// A variable the bindings do not bind.
    #[error("the variable `${name}` at column {column} is not bound")]
    UnboundVariable {
        /// The name as written.
        name: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A node-set was needed (a path step, a predicate on a value, `|`,
    /// `count()`, ...) but the value was of another type.
    #[error("a node-set was expected at column {column}, not a {found}")]
    NotANodeSet {
        /// The type of the value found.
        found: &'static str,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// The expression nests deeper than the parser allows.
    #[error("the XPath expression nests deeper than {limit} levels at column {column}")]
    TooDeep {
        /// The limit.
        limit: usize,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
}

impl XPathError {
    /// The byte offset in the expression the error points at.
    ///
    /// ```
    /// use xml5dom::query::XPath;
    /// assert_eq!(XPath::compile("1 +").unwrap_err().offset(), 3);
    /// ```
    pub fn offset(&self) -> usize {
        match self {
            XPathError::Syntax { offset, .. }
            | XPathError::UnknownFunction { offset, .. }
            | XPathError::ArgumentCount { offset, .. }
            | XPathError::UnboundPrefix { offset, .. }
            | XPathError::UnboundVariable { offset, .. }
            | XPathError::NotANodeSet { offset, .. }
            | XPathError::TooDeep { offset, .. } => *offset,
        }
    }

    /// The 1-based column (in characters) the error points at.
    ///
    /// ```
    /// use xml5dom::query::XPath;
    /// assert_eq!(XPath::compile("'é' = ]").unwrap_err().column(), 7);
    /// ```
    pub fn column(&self) -> usize {
        match self {
            XPathError::Syntax { column, .. }
            | XPathError::UnknownFunction { column, .. }
            | XPathError::ArgumentCount { column, .. }
            | XPathError::UnboundPrefix { column, .. }
            | XPathError::UnboundVariable { column, .. }
            | XPathError::NotANodeSet { column, .. }
            | XPathError::TooDeep { column, .. } => *column,
        }
    }
}

/// What [`XPathError::UnboundPrefix`] adds when the document uses the
/// prefix undeclared: how to select those names.
fn undeclared_hint(prefix: &str, namespace: Option<&str>) -> String {
    match namespace {
        Some(uri) => format!(
            "; the document uses `{prefix}` without declaring it, and its names with \
             that prefix are in the namespace {uri}: bind `{prefix}` to it to select them"
        ),
        None => String::new(),
    }
}

/// The 1-based column, in characters, of byte `offset` of `source`.
pub(crate) fn column(source: &str, offset: usize) -> usize {
    let offset = offset.min(source.len());
    source
        .char_indices()
        .take_while(|&(at, _)| at < offset)
        .count()
        + 1
}
