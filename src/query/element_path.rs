//! ElementTree's path language, ElementPath, over the DOM.
//!
//! [`ElementPath`] compiles a path such as `atom:entry[@type='html']/atom:title`
//! once; its [`find`](ElementPath::find), [`findall`](ElementPath::findall),
//! [`iterfind`](ElementPath::iterfind) and [`findtext`](ElementPath::findtext)
//! run it from a node and give the results Python 3.11's
//! `xml.etree.ElementTree` gives on the same document, quirks included. The
//! same four methods on [`Node`] take the path as a string, as Python's
//! `Element` methods do. docs/element_path.md lists the syntax, how the DOM
//! maps onto ElementTree's model, and each decision.
//!
//! A path is read as ElementTree reads it: a tokenizer that skips what it
//! cannot read, then one step per token, each predicate classified by the
//! "signature" of its tokens. Evaluation is lazy and iterative (a stack of
//! cursors, one per step), so no walk recurses over the tree.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::dom::{Node, NodeId, XMLNS_NAMESPACE};

/// A compiled ElementTree path.
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::element_path::ElementPath;
///
/// let doc = Document::parse(
///     "<feed xmlns='http://www.w3.org/2005/Atom'>\
///        <entry><title>One</title></entry><entry><title>Two</title></entry>\
///      </feed>",
/// );
/// let feed = doc.root_element().unwrap();
/// let atom = [("a", "http://www.w3.org/2005/Atom")];
/// let titles = ElementPath::compile_with("a:entry/a:title", &atom).unwrap();
/// let texts: Vec<_> = titles.iterfind(feed).map(|t| t.text_content()).collect();
/// assert_eq!(texts, ["One", "Two"]);
/// ```
#[derive(Clone, Debug)]
pub struct ElementPath {
    path: Box<str>,
    steps: Arc<[Step]>,
    /// CPython's C accelerator answers `find`, `findall` and `findtext` for a
    /// path without `/ * [ @ .` (outside braces) and without a namespace map
    /// by comparing the path with the children's tags, without parsing it.
    literal: bool,
}

// Compiled paths are shared between threads, like documents.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<ElementPath>();
};

impl ElementPath {
    /// Compiles `path` without a namespace map, as Python's methods called
    /// without `namespaces=`.
    ///
    /// Fails where ElementTree's parser fails (its `iterfind` raises), with
    /// the position of the offending token. A `prefix:tag` needs a map.
    ///
    /// ```
    /// use xml5dom::query::element_path::{ElementPath, ElementPathError};
    ///
    /// assert!(ElementPath::compile(".//item[@id='7']/name").is_ok());
    /// let error = ElementPath::compile("item[0]").unwrap_err();
    /// assert_eq!(error.to_string(), "XPath position >= 1 expected at byte 5 of the path");
    /// assert!(matches!(
    ///     ElementPath::compile("atom:entry"),
    ///     Err(ElementPathError::UnboundPrefix { .. })
    /// ));
    /// ```
    pub fn compile(path: &str) -> Result<ElementPath, ElementPathError> {
        let steps = parse(path, None)?;
        Ok(ElementPath {
            path: path.into(),
            steps: steps.into(),
            literal: is_plain_tag(path),
        })
    }

    /// Compiles `path` with a namespace map, as Python's `namespaces=`: each
    /// `(prefix, uri)` lets `prefix:tag` stand for `{uri}tag`, and the empty
    /// prefix gives unprefixed tags a default namespace (not attribute names).
    /// A prefix given twice takes its last URI.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::element_path::ElementPath;
    ///
    /// let doc = Document::parse("<svg xmlns='http://www.w3.org/2000/svg'><g><rect/></g></svg>");
    /// let svg = doc.root_element().unwrap();
    /// let rects = ElementPath::compile_with(".//rect", &[("", "http://www.w3.org/2000/svg")]).unwrap();
    /// assert_eq!(rects.findall(svg).len(), 1);
    /// // Without the default namespace, `rect` means a `rect` in no namespace.
    /// assert_eq!(ElementPath::compile(".//rect").unwrap().findall(svg).len(), 0);
    /// ```
    pub fn compile_with(
        path: &str,
        namespaces: &[(&str, &str)],
    ) -> Result<ElementPath, ElementPathError> {
        let steps = parse(path, Some(namespaces))?;
        Ok(ElementPath {
            path: path.into(),
            steps: steps.into(),
            literal: false,
        })
    }

    /// The path as it was given.
    ///
    /// ```
    /// use xml5dom::query::element_path::ElementPath;
    /// assert_eq!(ElementPath::compile("a/b").unwrap().as_str(), "a/b");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.path
    }

    /// The first match, as Python's `find`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::element_path::ElementPath;
    ///
    /// let doc = Document::parse("<config><db host='a'/><db host='b'/></config>");
    /// let config = doc.root_element().unwrap();
    /// let db = ElementPath::compile("db[last()]").unwrap().find(config).unwrap();
    /// assert_eq!(db.attribute("host"), Some("b"));
    /// ```
    pub fn find<'a>(&self, element: Node<'a>) -> Option<Node<'a>> {
        if self.literal {
            return element
                .child_elements()
                .find(|child| et_name(*child).equals(&self.path));
        }
        self.iterfind(element).next()
    }

    /// Every match in ElementTree's order, as Python's `findall`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::element_path::ElementPath;
    ///
    /// let doc = Document::parse("<a><b><c/></b><c/></a>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(ElementPath::compile(".//c").unwrap().findall(a).len(), 2);
    /// ```
    pub fn findall<'a>(&self, element: Node<'a>) -> Vec<Node<'a>> {
        if self.literal {
            return element
                .child_elements()
                .filter(|child| et_name(*child).equals(&self.path))
                .collect();
        }
        self.iterfind(element).collect()
    }

    /// The matches one at a time, as Python's `iterfind`; lazy, so taking the
    /// first does not look for the rest.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::element_path::ElementPath;
    ///
    /// let doc = Document::parse("<list><item n='1'/><item n='2'/><item n='3'/></list>");
    /// let list = doc.root_element().unwrap();
    /// let items = ElementPath::compile("item").unwrap();
    /// let n: Vec<_> = items.iterfind(list).skip(1).filter_map(|i| i.attribute("n")).collect();
    /// assert_eq!(n, ["2", "3"]);
    /// ```
    pub fn iterfind<'a>(&self, element: Node<'a>) -> Matches<'a> {
        Matches::new(Arc::clone(&self.steps), element)
    }

    /// The text of the first match, as Python's `findtext`: its `.text`
    /// (the text before its first child element; `""` if there is none), or
    /// `None` if nothing matched.
    ///
    /// ```
    /// use xml5dom::Document;
    /// use xml5dom::query::element_path::ElementPath;
    ///
    /// let doc = Document::parse("<p><b>bold<!-- note --> text<i>it</i>tail</b><br/></p>");
    /// let p = doc.root_element().unwrap();
    /// let text = |path: &str| ElementPath::compile(path).unwrap().findtext(p);
    /// assert_eq!(text("b").as_deref(), Some("bold text"));
    /// assert_eq!(text("br").as_deref(), Some(""));
    /// assert_eq!(text("em"), None);
    /// ```
    pub fn findtext(&self, element: Node<'_>) -> Option<String> {
        self.find(element).map(et_text)
    }
}

/// The matches of an [`ElementPath`], from [`ElementPath::iterfind`] or
/// [`Node::iterfind`].
///
/// ```
/// use xml5dom::Document;
///
/// let doc = Document::parse("<r><a><b/></a><a><b/><b/></a></r>");
/// let r = doc.root_element().unwrap();
/// let mut matches = r.iterfind("a/b").unwrap();
/// assert!(matches.next().is_some());
/// assert_eq!(matches.count(), 2);
/// ```
#[derive(Debug)]
pub struct Matches<'a> {
    steps: Arc<[Step]>,
    context: Node<'a>,
    /// A cursor per step that has an input: the last one's nodes are the
    /// output, the others' feed the next step.
    cursors: Vec<Cursor<'a>>,
    /// The parents each `..` step (by index) has given: ElementTree gives
    /// each once.
    seen: HashSet<(usize, NodeId)>,
    /// Positions among same-tag siblings, for `[n]` and `[last()]`.
    siblings: SiblingCounts,
}

impl<'a> Matches<'a> {
    fn new(steps: Arc<[Step]>, context: Node<'a>) -> Matches<'a> {
        let mut matches = Matches {
            seen: HashSet::new(),
            siblings: SiblingCounts::default(),
            steps,
            context,
            cursors: Vec::new(),
        };
        // Only elements and documents have what ElementTree's elements have.
        if context.is_element() || context.is_document() {
            let first = matches.start(0, context);
            matches.cursors.push(first);
        }
        matches
    }

    /// The cursor of step `index` over `input`.
    fn start(&mut self, index: usize, input: Node<'a>) -> Cursor<'a> {
        let Some(step) = self.steps.get(index) else {
            return Cursor::Done;
        };
        match step {
            Step::Child(_) => Cursor::Children(input.first_child()),
            Step::Descendant(_) => Cursor::Descendants {
                root: input,
                next: input.first_child(),
            },
            Step::SelfNode => Cursor::One(input),
            Step::Parent => match input.parent() {
                Some(parent) if input != self.context => {
                    if self.seen.insert((index, parent.id())) {
                        Cursor::One(parent)
                    } else {
                        Cursor::Done
                    }
                }
                _ => Cursor::Done,
            },
            Step::Filter(predicate) => {
                if predicate.holds(input, self.context, &mut self.siblings) {
                    Cursor::One(input)
                } else {
                    Cursor::Done
                }
            }
        }
    }

    /// The next node step `index` gives for its current input.
    fn pull(&mut self, index: usize) -> Option<Node<'a>> {
        let test = match self.steps.get(index)? {
            Step::Child(test) | Step::Descendant(test) => Some(test),
            _ => None,
        };
        let cursor = self.cursors.get_mut(index)?;
        loop {
            let node = cursor.advance()?;
            match test {
                None => return Some(node),
                Some(test) if node.is_element() && test.matches(et_name(node)) => {
                    return Some(node)
                }
                Some(_) => {}
            }
        }
    }
}

impl<'a> Iterator for Matches<'a> {
    type Item = Node<'a>;

    fn next(&mut self) -> Option<Node<'a>> {
        while let Some(index) = self.cursors.len().checked_sub(1) {
            match self.pull(index) {
                Some(node) if index + 1 == self.steps.len() => return Some(node),
                Some(node) => {
                    let cursor = self.start(index + 1, node);
                    self.cursors.push(cursor);
                }
                None => {
                    self.cursors.pop();
                }
            }
        }
        None
    }
}

/// Where a step is in its walk over one input node.
#[derive(Debug)]
enum Cursor<'a> {
    Done,
    One(Node<'a>),
    /// The next child to look at.
    Children(Option<Node<'a>>),
    /// The next node of `root`'s subtree in document order.
    Descendants {
        root: Node<'a>,
        next: Option<Node<'a>>,
    },
}

impl<'a> Cursor<'a> {
    fn advance(&mut self) -> Option<Node<'a>> {
        match self {
            Cursor::Done => None,
            Cursor::One(node) => {
                let node = *node;
                *self = Cursor::Done;
                Some(node)
            }
            Cursor::Children(next) => {
                let node = (*next)?;
                *next = node.next_sibling();
                Some(node)
            }
            Cursor::Descendants { root, next } => {
                let node = (*next)?;
                *next = following_in(*root, node);
                Some(node)
            }
        }
    }
}

/// The node after `node` in document order, within `root`'s subtree.
fn following_in<'a>(root: Node<'a>, node: Node<'a>) -> Option<Node<'a>> {
    if let Some(child) = node.first_child() {
        return Some(child);
    }
    let mut at = node;
    while at != root {
        if let Some(sibling) = at.next_sibling() {
            return Some(sibling);
        }
        at = at.parent()?;
    }
    None
}

/// Keeps the examples of docs/element_path.md compiling and passing.
#[doc = include_str!("../../docs/element_path.md")]
#[cfg(doctest)]
pub struct ElementPathDocsDoctests;

// ----- The four queries on nodes ---------------------------------------------

impl<'a> Node<'a> {
    /// The first element `path` selects from this node, as Python's
    /// `Element.find(path)`; see [`ElementPath`] to compile a path once or
    /// give a namespace map.
    ///
    /// A path without `/ * [ @ .` is compared with the children's tags as it
    /// is, never parsed (as CPython does), so it cannot fail.
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<book><title>Dune</title><author>Herbert</author></book>");
    /// let book = doc.root_element().unwrap();
    /// assert_eq!(book.find("author")?.unwrap().text_content(), "Herbert");
    /// assert_eq!(book.find("price")?, None);
    /// assert!(book.find("/book").is_err());
    /// # Ok::<(), xml5dom::query::element_path::ElementPathError>(())
    /// ```
    pub fn find(&self, path: &str) -> Result<Option<Node<'a>>, ElementPathError> {
        if is_plain_tag(path) {
            return Ok(self
                .child_elements()
                .find(|child| et_name(*child).equals(path)));
        }
        Ok(ElementPath::compile(path)?.find(*self))
    }

    /// Every element `path` selects from this node, as Python's
    /// `Element.findall(path)`.
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<list><item/><group><item/></group><item/></list>");
    /// let list = doc.root_element().unwrap();
    /// assert_eq!(list.findall("item")?.len(), 2);
    /// assert_eq!(list.findall(".//item")?.len(), 3);
    /// assert_eq!(list.findall("*/item")?.len(), 1);
    /// # Ok::<(), xml5dom::query::element_path::ElementPathError>(())
    /// ```
    pub fn findall(&self, path: &str) -> Result<Vec<Node<'a>>, ElementPathError> {
        if is_plain_tag(path) {
            return Ok(self
                .child_elements()
                .filter(|child| et_name(*child).equals(path))
                .collect());
        }
        Ok(ElementPath::compile(path)?.findall(*self))
    }

    /// The elements `path` selects from this node, lazily, as Python's
    /// `Element.iterfind(path)`. The path is always parsed (CPython too).
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<r><x id='a'/><x/><x id='b'/></r>");
    /// let r = doc.root_element().unwrap();
    /// let ids: Vec<_> = r.iterfind("x[@id]")?.filter_map(|x| x.attribute("id")).collect();
    /// assert_eq!(ids, ["a", "b"]);
    /// # Ok::<(), xml5dom::query::element_path::ElementPathError>(())
    /// ```
    pub fn iterfind(&self, path: &str) -> Result<Matches<'a>, ElementPathError> {
        Ok(ElementPath::compile(path)?.iterfind(*self))
    }

    /// The text of the first element `path` selects, as Python's
    /// `Element.findtext(path)`: the text before its first child element
    /// (comments and processing instructions skipped), `""` if there is
    /// none; `None` if nothing matched.
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<user><name>Ada<!-- b. 1815 --> Lovelace</name><email/></user>");
    /// let user = doc.root_element().unwrap();
    /// assert_eq!(user.findtext("name")?.as_deref(), Some("Ada Lovelace"));
    /// assert_eq!(user.findtext("email")?.as_deref(), Some(""));
    /// assert_eq!(user.findtext("phone")?, None);
    /// # Ok::<(), xml5dom::query::element_path::ElementPathError>(())
    /// ```
    pub fn findtext(&self, path: &str) -> Result<Option<String>, ElementPathError> {
        Ok(self.find(path)?.map(et_text))
    }
}

// ----- Errors -----------------------------------------------------------------

/// Why a path could not be compiled. Positions are byte offsets into the
/// path as given.
///
/// Where Python raises a `SyntaxError`, the message is Python's.
///
/// ```
/// use xml5dom::query::element_path::{ElementPath, ElementPathError};
///
/// let error = ElementPath::compile("/feed").unwrap_err();
/// assert_eq!(error.to_string(), "cannot use absolute path on element at byte 0 of the path");
/// let error = ElementPath::compile_with("x:item", &[("y", "urn:y")]).unwrap_err();
/// assert_eq!(error.to_string(), "prefix 'x' not found in prefix map at byte 0 of the path");
/// assert_eq!(error.position(), 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ElementPathError {
    /// The path is not in ElementTree's syntax.
    #[error("{message} at byte {position} of the path")]
    Syntax {
        /// Where the offending token starts.
        position: usize,
        /// What is wrong.
        message: String,
    },
    /// A `prefix:name` whose prefix is not in the namespace map.
    #[error(
        "prefix {} not found in prefix map at byte {position} of the path",
        python_repr(prefix)
    )]
    UnboundPrefix {
        /// Where the name starts.
        position: usize,
        /// The prefix.
        prefix: String,
    },
    /// Syntax ElementTree recognizes but does not support: a function other
    /// than `last()`, or an offset from `last()` that is not a number.
    #[error("{message} at byte {position} of the path")]
    Unsupported {
        /// Where the offending token starts.
        position: usize,
        /// What is not supported.
        message: &'static str,
    },
}

impl ElementPathError {
    /// The byte offset in the path where the error was found.
    ///
    /// ```
    /// use xml5dom::query::element_path::ElementPath;
    /// assert_eq!(ElementPath::compile("a/b[@x=1]").unwrap_err().position(), 3);
    /// ```
    pub fn position(&self) -> usize {
        match self {
            ElementPathError::Syntax { position, .. }
            | ElementPathError::UnboundPrefix { position, .. }
            | ElementPathError::Unsupported { position, .. } => *position,
        }
    }
}

fn syntax(position: usize, message: impl Into<String>) -> ElementPathError {
    ElementPathError::Syntax {
        position,
        message: message.into(),
    }
}

/// A string quoted the way Python's `repr` quotes it (for the characters a
/// prefix can hold), so messages read as Python's.
fn python_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

// ----- ElementTree's view of the DOM -----------------------------------------

/// A name as ElementTree spells it: `{uri}local` in a namespace, else the
/// name as written. Compared in pieces, without building the string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct EtName<'a> {
    namespace: Option<&'a str>,
    /// The local name in a namespace, else the qualified name.
    name: &'a str,
}

impl<'a> EtName<'a> {
    fn parts(self) -> [&'a str; 4] {
        match self.namespace {
            Some(uri) => ["{", uri, "}", self.name],
            None => [self.name, "", "", ""],
        }
    }

    fn len(self) -> usize {
        self.parts().iter().map(|part| part.len()).sum()
    }

    fn starts_with(self, prefix: &str) -> bool {
        let mut rest = prefix.as_bytes();
        for part in self.parts().map(str::as_bytes) {
            if rest.len() <= part.len() {
                return part.starts_with(rest);
            }
            match rest.strip_prefix(part) {
                Some(after) => rest = after,
                None => return false,
            }
        }
        rest.is_empty()
    }

    fn ends_with(self, suffix: &str) -> bool {
        let mut rest = suffix.as_bytes();
        for part in self.parts().map(str::as_bytes).into_iter().rev() {
            if rest.len() <= part.len() {
                return part.ends_with(rest);
            }
            match rest.strip_suffix(part) {
                Some(before) => rest = before,
                None => return false,
            }
        }
        rest.is_empty()
    }

    fn equals(self, text: &str) -> bool {
        self.len() == text.len() && self.starts_with(text)
    }
}

fn et_name(element: Node<'_>) -> EtName<'_> {
    match element.namespace() {
        Some(uri) => EtName {
            namespace: Some(uri),
            name: element.local_name(),
        },
        None => EtName {
            namespace: None,
            name: element.name(),
        },
    }
}

/// The value of the attribute ElementTree keys `key`. Namespace
/// declarations are not attributes there.
fn et_attribute<'a>(element: Node<'a>, key: &str) -> Option<&'a str> {
    element
        .attributes()
        .filter(|attribute| attribute.namespace() != Some(XMLNS_NAMESPACE))
        .find(|attribute| {
            let name = match attribute.namespace() {
                Some(uri) => EtName {
                    namespace: Some(uri),
                    name: attribute.local_name(),
                },
                None => EtName {
                    namespace: None,
                    name: attribute.name(),
                },
            };
            name.equals(key)
        })
        .map(|attribute| attribute.value())
}

/// ElementTree's `.text`: the text before the first child element. Its
/// parser drops comments and processing instructions, so the text around
/// them is one string.
fn et_text(element: Node<'_>) -> String {
    let mut text = String::new();
    for child in element.children() {
        if child.is_element() {
            break;
        }
        if child.is_text() {
            text.push_str(child.text().unwrap_or_default());
        }
    }
    text
}

/// Whether ElementTree's `"".join(element.itertext())`, all the text of the
/// subtree, is `value`; compared piece by piece.
fn text_content_is(element: Node<'_>, value: &str) -> bool {
    let mut rest = value;
    for node in element.descendants().filter(Node::is_text) {
        match rest.strip_prefix(node.text().unwrap_or_default()) {
            Some(after) => rest = after,
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether CPython's C accelerator compares `path` with tags instead of
/// parsing it: no namespace map, not `{}...` or `{*}...`, and none of
/// `/ * [ @ .` outside braces.
fn is_plain_tag(path: &str) -> bool {
    if path.starts_with("{}") || path.starts_with("{*}") {
        return false;
    }
    let mut in_braces = false;
    for c in path.chars() {
        match c {
            '{' => in_braces = true,
            '}' => in_braces = false,
            '/' | '*' | '[' | '@' | '.' if !in_braces => return false,
            _ => {}
        }
    }
    true
}

// ----- Steps ------------------------------------------------------------------

#[derive(Debug)]
enum Step {
    /// A tag or `*`.
    Child(TagTest),
    /// `//` and a tag or `*`.
    Descendant(TagTest),
    /// `.`
    SelfNode,
    /// `..`: each parent once, never above the node the query started from.
    Parent,
    /// `[...]`
    Filter(Predicate),
}

/// Which tags a tag in a path selects, decided on its spelling as
/// ElementTree does.
#[derive(Debug, PartialEq, Eq)]
enum TagTest {
    /// `*` or `{*}*`.
    Any,
    /// `{}*`: tags in no namespace (those not starting with `{`).
    NoNamespace,
    /// `{*}name`: `name` in any namespace or none; holds `}name`.
    Local(Box<str>),
    /// `{uri}*` (anything ending in `}*`): tags starting with `{uri}`.
    Prefix(Box<str>),
    /// Anything else, `{}` removed from its start.
    Exact(Box<str>),
}

impl TagTest {
    fn new(tag: &str) -> TagTest {
        if tag == "{*}*" {
            TagTest::Any
        } else if tag == "{}*" {
            TagTest::NoNamespace
        } else if let Some(local) = tag.strip_prefix("{*}") {
            TagTest::Local(format!("}}{local}").into())
        } else if let Some(prefix) = tag.strip_suffix('*').filter(|p| p.ends_with('}')) {
            TagTest::Prefix(prefix.into())
        } else {
            TagTest::Exact(tag.strip_prefix("{}").unwrap_or(tag).into())
        }
    }

    fn matches(&self, name: EtName<'_>) -> bool {
        match self {
            TagTest::Any => true,
            TagTest::NoNamespace => !name.starts_with("{"),
            TagTest::Local(suffix) => name.ends_with(suffix) || name.equals(&suffix[1..]),
            TagTest::Prefix(prefix) => name.starts_with(prefix),
            TagTest::Exact(tag) => name.equals(tag),
        }
    }
}

#[derive(Debug)]
enum Predicate {
    /// `[@key]`
    HasAttribute(Box<str>),
    /// `[@key='value']`, `[@key!='value']`: either way the attribute must be
    /// there.
    Attribute {
        key: Box<str>,
        value: Box<str>,
        equal: bool,
    },
    /// `[tag]`: a child element with the tag.
    HasChild(TagTest),
    /// `[tag='text']`, `[tag!='text']`: a child element with the tag whose
    /// text content is (is not) `text`.
    ChildText {
        tag: TagTest,
        value: Box<str>,
        equal: bool,
    },
    /// `[.='text']`, `[.!='text']`
    Text { value: Box<str>, equal: bool },
    /// `[n]`, `[last()]`, `[last()-n]`: among the siblings with the same
    /// tag (not those the step selected: ElementTree counts this way).
    Position(Position),
}

#[derive(Debug, Clone, Copy)]
enum Position {
    /// So many siblings with the same tag before it.
    Preceding(u64),
    /// So many siblings with the same tag after it.
    Following(u64),
}

impl Predicate {
    fn holds(&self, element: Node<'_>, context: Node<'_>, siblings: &mut SiblingCounts) -> bool {
        match self {
            Predicate::HasAttribute(key) => et_attribute(element, key).is_some(),
            Predicate::Attribute { key, value, equal } => {
                et_attribute(element, key).is_some_and(|v| (v == &**value) == *equal)
            }
            Predicate::HasChild(tag) => element
                .child_elements()
                .any(|child| tag.matches(et_name(child))),
            Predicate::ChildText { tag, value, equal } => element
                .child_elements()
                .filter(|child| tag.matches(et_name(*child)))
                .any(|child| text_content_is(child, value) == *equal),
            Predicate::Text { value, equal } => text_content_is(element, value) == *equal,
            Predicate::Position(position) => {
                // ElementTree knows no parent for the node the query started
                // from.
                match element.parent() {
                    Some(parent) if element != context => {
                        siblings.position_is(parent, element, *position)
                    }
                    _ => false,
                }
            }
        }
    }
}

/// How many siblings `[n]` and `[last()]` look at from an element before
/// they count for all the children of its parent at once.
const SIBLING_BUDGET: usize = 64;

/// How many siblings with the same tag come before and after each child
/// element of the parents counted so far. An element's position is
/// counted in place while that is short; past [`SIBLING_BUDGET`]
/// siblings, its parent's children are counted once, in one pass, so that
/// `*[1]` over many children with different tags is not their number
/// squared.
#[derive(Debug, Default)]
struct SiblingCounts {
    parents: HashSet<NodeId>,
    /// By element: same-tag siblings before it, after it.
    counts: HashMap<NodeId, (u64, u64)>,
}

impl SiblingCounts {
    /// Whether `element`, a child of `parent`, is where `position` says.
    fn position_is(&mut self, parent: Node<'_>, element: Node<'_>, position: Position) -> bool {
        if !self.parents.contains(&parent.id()) {
            let name = et_name(element);
            let in_place = match position {
                Position::Preceding(n) => {
                    same_name_count_is(element.preceding_sibling_elements(), name, n)
                }
                Position::Following(n) => {
                    same_name_count_is(element.following_sibling_elements(), name, n)
                }
            };
            if let Some(answer) = in_place {
                return answer;
            }
            self.count(parent);
        }
        let (before, after) = self.counts.get(&element.id()).copied().unwrap_or_default();
        match position {
            Position::Preceding(n) => before == n,
            Position::Following(n) => after == n,
        }
    }

    /// Counts the same-tag siblings of every child element of `parent`.
    fn count(&mut self, parent: Node<'_>) {
        self.parents.insert(parent.id());
        let mut totals: HashMap<EtName<'_>, u64> = HashMap::new();
        for child in parent.child_elements() {
            let seen = totals.entry(et_name(child)).or_default();
            self.counts.insert(child.id(), (*seen, 0));
            *seen += 1;
        }
        for child in parent.child_elements() {
            let total = totals.get(&et_name(child)).copied().unwrap_or_default();
            if let Some((before, after)) = self.counts.get_mut(&child.id()) {
                *after = total.saturating_sub(*before + 1);
            }
        }
    }
}

/// Whether exactly `wanted` of `siblings` have the name `name`; stops
/// counting past it. `None` if that was not settled within
/// [`SIBLING_BUDGET`] siblings.
fn same_name_count_is<'a>(
    siblings: impl Iterator<Item = Node<'a>>,
    name: EtName<'_>,
    wanted: u64,
) -> Option<bool> {
    let mut count = 0u64;
    for (looked, sibling) in siblings.enumerate() {
        if looked == SIBLING_BUDGET {
            return None;
        }
        if et_name(sibling) == name {
            count += 1;
            if count > wanted {
                return Some(false);
            }
        }
    }
    Some(count == wanted)
}

// ----- Tokens -------------------------------------------------------------------

/// A token, with prefixes resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token<'p> {
    /// `/ // . .. * [ ] @ = != ( ) () : ::`, or a quoted string with its
    /// quotes.
    Op(&'p str),
    /// A name: `{uri}local`, or as written.
    Name(Cow<'p, str>),
    /// A run of whitespace.
    Space,
}

#[derive(Debug)]
struct Spanned<'p> {
    token: Token<'p>,
    at: usize,
}

/// ElementTree's tokenizer: operators, names and whitespace; a `!` that is
/// not `!=` is skipped. A name's prefix is resolved with the namespace map,
/// and an unprefixed name gets the default namespace unless it follows `@`
/// directly.
struct Tokens<'p, 'm> {
    path: &'p str,
    pos: usize,
    namespaces: Option<&'m [(&'m str, &'m str)]>,
    default_namespace: Option<&'m str>,
    after_at: bool,
}

impl<'p, 'm> Tokens<'p, 'm> {
    fn new(path: &'p str, namespaces: Option<&'m [(&'m str, &'m str)]>) -> Tokens<'p, 'm> {
        let mut tokens = Tokens {
            path,
            pos: 0,
            namespaces,
            default_namespace: None,
            after_at: false,
        };
        tokens.default_namespace = tokens.lookup("").filter(|uri| !uri.is_empty());
        tokens
    }

    fn lookup(&self, prefix: &str) -> Option<&'m str> {
        self.namespaces?
            .iter()
            .rev()
            .find(|(p, _)| *p == prefix)
            .map(|(_, uri)| *uri)
    }

    fn next(&mut self) -> Result<Option<Spanned<'p>>, ElementPathError> {
        let Some((at, token)) = self.lex() else {
            return Ok(None);
        };
        let token = match token {
            Token::Name(Cow::Borrowed(name)) => Token::Name(self.resolve(name, at)?),
            other => other,
        };
        self.after_at = token == Token::Op("@");
        Ok(Some(Spanned { token, at }))
    }

    fn resolve(&self, name: &'p str, at: usize) -> Result<Cow<'p, str>, ElementPathError> {
        if name.starts_with('{') {
            return Ok(Cow::Borrowed(name));
        }
        if let Some((prefix, local)) = name.split_once(':') {
            return match self.lookup(prefix) {
                Some(uri) => Ok(Cow::Owned(format!("{{{uri}}}{local}"))),
                None => Err(ElementPathError::UnboundPrefix {
                    position: at,
                    prefix: prefix.into(),
                }),
            };
        }
        match self.default_namespace {
            Some(uri) if !self.after_at => Ok(Cow::Owned(format!("{{{uri}}}{name}"))),
            _ => Ok(Cow::Borrowed(name)),
        }
    }

    /// The next token as written, and where it starts.
    fn lex(&mut self) -> Option<(usize, Token<'p>)> {
        loop {
            let at = self.pos;
            let rest = self.path.get(at..)?;
            let first = rest.chars().next()?;
            let (len, token): (usize, fn(&'p str) -> Token<'p>) =
                if let Some(len) = operator_len(rest) {
                    (len, Token::Op)
                } else if is_space(first) {
                    let len = rest.find(|c| !is_space(c)).unwrap_or(rest.len());
                    (len, |_| Token::Space)
                } else if is_name_char(first) {
                    (name_len(rest), |name| Token::Name(Cow::Borrowed(name)))
                } else {
                    // A `!` without `=`: nothing matches it, and
                    // ElementTree's tokenizer moves on.
                    self.pos += first.len_utf8();
                    continue;
                };
            self.pos += len;
            return Some((at, token(&rest[..len])));
        }
    }
}

/// The length of the operator `rest` starts with, if it starts with one.
fn operator_len(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let first = *bytes.first()?;
    match first {
        // A quoted string needs its closing quote; an open quote is part of
        // a name.
        b'\'' | b'"' => rest[1..].find(first as char).map(|end| end + 2),
        // `::`, `//`, `..`
        b':' | b'/' | b'.' => Some(if bytes.get(1) == Some(&first) { 2 } else { 1 }),
        b'(' => Some(if bytes.get(1) == Some(&b')') { 2 } else { 1 }),
        b'!' => (bytes.get(1) == Some(&b'=')).then_some(2),
        b'*' | b'[' | b']' | b')' | b'@' | b'=' => Some(1),
        _ => None,
    }
}

/// Whitespace as Python's `\s` (Unicode's, and the ASCII separators
/// U+001C to U+001F).
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn is_name_char(c: char) -> bool {
    !matches!(c, '/' | '[' | ']' | '(' | ')' | '@' | '!' | '=') && !is_space(c)
}

/// The length of the name `rest` starts with: a `{...}` holding anything
/// but `}`, if name characters follow it, then name characters.
fn name_len(rest: &str) -> usize {
    let run = |text: &str| text.find(|c| !is_name_char(c)).unwrap_or(text.len());
    if rest.starts_with('{') {
        if let Some(close) = rest.find('}').filter(|&close| close > 1) {
            let tail = run(&rest[close + 1..]);
            if tail > 0 {
                return close + 1 + tail;
            }
        }
    }
    run(rest)
}

// ----- Parsing ------------------------------------------------------------------

fn parse(path: &str, namespaces: Option<&[(&str, &str)]>) -> Result<Vec<Step>, ElementPathError> {
    if path.starts_with('/') {
        return Err(syntax(0, "cannot use absolute path on element"));
    }
    // A trailing `/` means `/*`.
    let with_star;
    let path = if path.ends_with('/') {
        with_star = format!("{path}*");
        &with_star
    } else {
        path
    };
    let mut tokens = Tokens::new(path, namespaces);
    let Some(mut token) = tokens.next()? else {
        // Python's `iterfind` returns None here, which cannot be iterated.
        return Err(syntax(0, "empty path"));
    };
    let mut steps = Vec::new();
    loop {
        steps.push(step(token, &mut tokens)?);
        // Steps follow each other with or without a `/` between them.
        token = match tokens.next()? {
            Some(Spanned {
                token: Token::Op("/"),
                ..
            }) => match tokens.next()? {
                Some(next) => next,
                None => break,
            },
            Some(next) => next,
            None => break,
        };
    }
    Ok(steps)
}

fn step(first: Spanned<'_>, tokens: &mut Tokens<'_, '_>) -> Result<Step, ElementPathError> {
    Ok(match first.token {
        Token::Name(name) => Step::Child(TagTest::new(&name)),
        // Whitespace is a tag with no name, which no element has.
        Token::Space => Step::Child(TagTest::new("")),
        Token::Op("*") => Step::Child(TagTest::Any),
        Token::Op(".") => Step::SelfNode,
        Token::Op("..") => Step::Parent,
        Token::Op("//") => match tokens.next()? {
            Some(Spanned {
                token: Token::Op("*"),
                ..
            }) => Step::Descendant(TagTest::Any),
            Some(Spanned {
                token: Token::Name(name),
                ..
            }) => Step::Descendant(TagTest::new(&name)),
            Some(Spanned {
                token: Token::Space,
                ..
            }) => Step::Descendant(TagTest::new("")),
            Some(other) => return Err(syntax(other.at, "invalid descendant")),
            None => return Err(syntax(tokens.path.len(), "path ends after `//`")),
        },
        Token::Op("[") => Step::Filter(predicate(first.at, tokens)?),
        Token::Op(op) => return Err(syntax(first.at, format!("unexpected `{op}`"))),
    })
}

/// One token of a predicate: its part of the signature (the operator, `'`
/// for a quoted string, `-` for a name) and its value.
struct Part<'p> {
    signature: &'p str,
    value: Cow<'p, str>,
    at: usize,
}

fn predicate(open: usize, tokens: &mut Tokens<'_, '_>) -> Result<Predicate, ElementPathError> {
    let mut parts = Vec::new();
    loop {
        let Some(Spanned { token, at }) = tokens.next()? else {
            return Err(syntax(open, "unterminated predicate"));
        };
        let part = match token {
            Token::Op("]") => break,
            Token::Space => continue,
            Token::Op(quoted) if quoted.starts_with(['\'', '"']) => Part {
                signature: "'",
                value: Cow::Borrowed(quoted.get(1..quoted.len() - 1).unwrap_or_default()),
                at,
            },
            Token::Op(op) => Part {
                signature: op,
                value: Cow::Borrowed(""),
                at,
            },
            Token::Name(name) => Part {
                signature: "-",
                value: name,
                at,
            },
        };
        parts.push(part);
    }
    let signature: String = parts.iter().map(|part| part.signature).collect();
    let value = |index: usize| parts.get(index).map_or("", |part| &*part.value);
    let at = |index: usize| parts.get(index).map_or(open, |part| part.at);
    let last = parts.last().map_or("", |part| &*part.value);
    let is_number = is_position(value(0));
    Ok(match signature.as_str() {
        "@-" => Predicate::HasAttribute(value(1).into()),
        "@-='" | "@-!='" => Predicate::Attribute {
            key: value(1).into(),
            value: last.into(),
            equal: signature == "@-='",
        },
        "-" if !is_number => Predicate::HasChild(TagTest::new(value(0))),
        "-='" | "-!='" if !is_number => Predicate::ChildText {
            tag: TagTest::new(value(0)),
            value: last.into(),
            equal: signature == "-='",
        },
        ".='" | ".!='" => Predicate::Text {
            value: last.into(),
            equal: signature == ".='",
        },
        "-" => {
            let n = python_int(value(0)).unwrap_or(Int::ZERO);
            if n.negative || n.magnitude == 0 {
                return Err(syntax(at(0), "XPath position >= 1 expected"));
            }
            Predicate::Position(Position::Preceding(n.magnitude - 1))
        }
        "-()" | "-()-" => {
            if value(0) != "last" {
                return Err(ElementPathError::Unsupported {
                    position: at(0),
                    message: "unsupported function",
                });
            }
            if signature == "-()" {
                Predicate::Position(Position::Following(0))
            } else {
                // The third token: with `( )` written apart, that is `)`,
                // which is not a number.
                let Some(n) = python_int(value(2)) else {
                    return Err(ElementPathError::Unsupported {
                        position: at(2),
                        message: "unsupported expression",
                    });
                };
                if !n.negative || n.magnitude == 0 {
                    return Err(syntax(at(2), "XPath offset from last() must be negative"));
                }
                Predicate::Position(Position::Following(n.magnitude))
            }
        }
        _ => return Err(syntax(open, "invalid predicate")),
    })
}

/// Whether a predicate's name is a position (Python: `\-?\d+$`, here with
/// ASCII digits).
fn is_position(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A whole number; the magnitude saturates, which no count of siblings
/// reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Int {
    negative: bool,
    magnitude: u64,
}

impl Int {
    const ZERO: Int = Int {
        negative: false,
        magnitude: 0,
    };
}

/// A number as Python's `int()` reads text: a sign, then ASCII digits with
/// single underscores between them.
fn python_int(text: &str) -> Option<Int> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let mut magnitude = 0u64;
    let mut after_digit = false;
    for b in digits.bytes() {
        match b {
            b'0'..=b'9' => {
                magnitude = magnitude
                    .saturating_mul(10)
                    .saturating_add(u64::from(b - b'0'));
                after_digit = true;
            }
            b'_' if after_digit => after_digit = false,
            _ => return None,
        }
    }
    after_digit.then_some(Int {
        negative,
        magnitude,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexed(path: &str) -> Vec<String> {
        let mut tokens = Tokens::new(path, None);
        let mut out = Vec::new();
        while let Some((_, token)) = tokens.lex() {
            out.push(match token {
                Token::Op(op) => format!("op {op}"),
                Token::Name(name) => format!("name {name}"),
                Token::Space => "space".into(),
            });
        }
        out
    }

    #[test]
    fn tokens_follow_elementtree() {
        assert_eq!(lexed("a//b"), ["name a", "op //", "name b"]);
        assert_eq!(lexed(".//{u/v}x.y"), ["op .", "op //", "name {u/v}x.y"]);
        assert_eq!(lexed("{u/v}"), ["name {u", "op /", "name v}"]);
        assert_eq!(lexed("a!b"), ["name a", "name b"]);
        assert_eq!(
            lexed("[@x!='1']"),
            ["op [", "op @", "name x", "op !=", "op '1'", "op ]"]
        );
        assert_eq!(
            lexed("[last()-1]"),
            ["op [", "name last", "op ()", "name -1", "op ]"]
        );
        assert_eq!(lexed("a'b 'c"), ["name a'b", "space", "name 'c"]);
        assert_eq!(lexed("*:a::b"), ["op *", "op :", "name a::b"]);
        assert_eq!(lexed("x\u{1c}y"), ["name x", "space", "name y"]);
    }

    #[test]
    fn tag_tests_classify_as_elementtree() {
        assert_eq!(TagTest::new("{*}*"), TagTest::Any);
        assert_eq!(TagTest::new("{}*"), TagTest::NoNamespace);
        assert_eq!(TagTest::new("{*}a}*"), TagTest::Local("}a}*".into()));
        assert_eq!(TagTest::new("{}x}*"), TagTest::Prefix("{}x}".into()));
        assert_eq!(TagTest::new("{}{u}a"), TagTest::Exact("{u}a".into()));
        let name = EtName {
            namespace: Some("urn:x"),
            name: "a",
        };
        assert!(name.equals("{urn:x}a"));
        assert!(name.starts_with("{urn:"));
        assert!(name.ends_with("x}a"));
        assert!(!name.equals("{urn:x}ab"));
        assert!(TagTest::new("{*}").matches(EtName {
            namespace: Some("u"),
            name: ""
        }));
    }

    #[test]
    fn numbers_read_as_python_int() {
        let int = |text| python_int(text).map(|n| (n.negative, n.magnitude));
        assert_eq!(int("-1_0"), Some((true, 10)));
        assert_eq!(int("+007"), Some((false, 7)));
        assert_eq!(int("1__0"), None);
        assert_eq!(int("1_"), None);
        assert_eq!(int(""), None);
        assert_eq!(int("-"), None);
        assert_eq!(int("99999999999999999999999"), Some((false, u64::MAX)));
    }

    #[test]
    fn prefixes_quote_as_python_repr() {
        assert_eq!(python_repr("a"), "'a'");
        assert_eq!(python_repr("a'b"), "\"a'b\"");
        assert_eq!(python_repr("a'\"b"), "'a\\'\"b'");
    }

    #[test]
    fn a_document_is_an_element_whose_child_is_the_root() {
        let doc = crate::dom::Document::parse("<!-- c --><feed><entry/></feed>");
        let root = doc.root();
        assert_eq!(root.findall("feed/entry").unwrap().len(), 1);
        assert_eq!(root.find(".").unwrap(), Some(root));
        let feed = doc.root_element().unwrap();
        assert_eq!(feed.findall("..").unwrap(), []);
        assert_eq!(root.findall("feed/..").unwrap(), [root]);
        assert_eq!(root.findall("feed[1]").unwrap().len(), 1);
    }

    #[test]
    fn other_nodes_select_nothing() {
        let doc = crate::dom::Document::parse("<a>text<!--c--><b/></a>");
        let text = doc.root_element().unwrap().first_child().unwrap();
        assert_eq!(text.findall(".").unwrap(), []);
        assert_eq!(text.findall("*").unwrap(), []);
        assert_eq!(text.find("b").unwrap(), None);
        assert!(text.findall("/b").is_err());
    }

    #[test]
    fn plain_tags_are_compared_unparsed_on_nodes() {
        // CPython's `findall("atom:entry")` without a map is `[]`, not an
        // error: the C accelerator never parses a path without / * [ @ .
        let doc = crate::dom::Document::parse("<feed><atom:entry/></feed>");
        let feed = doc.root_element().unwrap();
        assert_eq!(feed.findall("atom:entry").unwrap(), []);
        // (The undeclared prefix, a well-known one, puts the element in
        // the Atom namespace, which selects it.)
        let entry = "{http://www.w3.org/2005/Atom}entry";
        assert_eq!(feed.findall(entry).unwrap().len(), 1);
        assert!(feed.iterfind("atom:entry").is_err());
        assert!(ElementPath::compile("atom:entry").is_err());
        assert_eq!(feed.findall("a b").unwrap(), []);
        assert_eq!(feed.findall("").unwrap(), []);
        assert!(feed.iterfind("").is_err());
    }
}
