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
mod error;
mod eval;
mod functions;
mod parser;
mod value;

pub(crate) use error::column;
pub use error::XPathError;
pub use value::{AttributeNode, Bindings, NamespaceNode, Value, XNode};

use crate::dom::Node;

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
        eval::evaluate(&self.expr, &self.source, context, bindings)
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
