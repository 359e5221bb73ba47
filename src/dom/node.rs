//! Reading the tree: [`Node`] handles and their attributes. (The axes that
//! walk from a node, and their iterators, are `axes.rs`'s.)

use std::collections::HashSet;

use super::{AttributeData, Document, NodeId, NodeKind, XMLNS_NAMESPACE, XML_NAMESPACE};
use crate::span::Span;

/// What kind of node a [`Node`] is.
///
/// ```
/// use xml5dom::{Document, NodeType};
/// let doc = Document::parse("<!DOCTYPE a><a>t<!--c--></a>");
/// let kinds: Vec<NodeType> = doc.root().descendants().map(|n| n.node_type()).collect();
/// assert_eq!(kinds, [NodeType::Doctype, NodeType::Element, NodeType::Text, NodeType::Comment]);
/// assert_eq!(doc.root().node_type(), NodeType::Document);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeType {
    /// The document itself, the root of the tree.
    Document,
    /// `<!DOCTYPE ...>`.
    Doctype,
    /// An element.
    Element,
    /// Character data (text, references and CDATA sections, merged).
    Text,
    /// A comment.
    Comment,
    /// A processing instruction.
    ProcessingInstruction,
}

/// A read-only handle to a node: cheap to copy, borrowed from its document.
///
/// ```
/// use xml5dom::Document;
/// let doc = Document::parse("<p>Hello <b>world</b></p>");
/// let p = doc.root_element().unwrap();
/// assert_eq!(p.name(), "p");
/// assert_eq!(p.children().count(), 2);
/// assert_eq!(p.text_content(), "Hello world");
/// ```
#[derive(Clone, Copy)]
pub struct Node<'a> {
    doc: &'a Document,
    id: indextree::NodeId,
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.doc, other.doc) && self.id == other.id
    }
}

impl Eq for Node<'_> {}

/// Compact: the kind, the name or the start of the text, and where the
/// node starts in the source as `line:column` (nodes made by edits have no
/// position). [`Display`](std::fmt::Display) writes the node's XML.
///
/// ```
/// use xml5dom::Document;
/// let mut doc = Document::parse("<feed>\n  <item id='3'>new</item><!-- c --></feed>");
/// let feed = doc.root_element().unwrap();
/// let item = feed.first_element_child().unwrap();
/// assert_eq!(format!("{item:?}"), "Element(item @ 2:3)");
/// assert_eq!(format!("{:?}", item.first_child().unwrap()), "Text(\"new\" @ 2:16)");
/// assert_eq!(format!("{:?}", feed.last_child().unwrap()), "Comment(\" c \" @ 2:26)");
/// assert_eq!(format!("{:?}", doc.root()), "Document");
/// let id = doc.create_element("made");
/// assert_eq!(format!("{:?}", doc.node(id).unwrap()), "Element(made)");
/// ```
impl std::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// Text shown in full up to this many characters, then cut.
        const SHOWN: usize = 32;
        let shown = |text: &str| {
            let mut cut: String = text.chars().take(SHOWN).collect();
            if cut.len() < text.len() {
                cut.push('\u{2026}');
            }
            format!("{cut:?}")
        };
        let what = match self.node_type() {
            NodeType::Document => return f.write_str("Document"),
            NodeType::Element | NodeType::ProcessingInstruction | NodeType::Doctype => {
                self.name().to_owned()
            }
            NodeType::Text | NodeType::Comment => shown(self.text().unwrap_or("")),
        };
        write!(f, "{:?}({what}", self.node_type())?;
        if let Some(span) = self.span() {
            let (line, column) = self.doc.position(span.start);
            write!(f, " @ {line}:{column}")?;
        }
        f.write_str(")")
    }
}

/// One step of [`Node::traverse`]: entering or leaving a node.
///
/// ```
/// use xml5dom::{Document, Edge};
/// let doc = Document::parse("<a><b><c/></b></a>");
/// let (mut depth, mut deepest) = (0, 0);
/// for edge in doc.root_element().unwrap().traverse() {
///     match edge {
///         Edge::Open(_) => depth += 1,
///         Edge::Close(_) => depth -= 1,
///     }
///     deepest = deepest.max(depth);
/// }
/// assert_eq!((depth, deepest), (0, 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge<'a> {
    /// Before the node's children.
    Open(Node<'a>),
    /// After the node's children.
    Close(Node<'a>),
}

impl<'a> Node<'a> {
    pub(crate) fn new(doc: &'a Document, id: indextree::NodeId) -> Node<'a> {
        Node { doc, id }
    }

    fn kind(&self) -> NodeKind {
        self.doc.data(self.id).kind()
    }

    fn wrap(&self, id: Option<indextree::NodeId>) -> Option<Node<'a>> {
        id.map(|id| Node::new(self.doc, id))
    }

    /// The node's id, for editing through the document.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let a = doc.root_element().unwrap().id();
    /// doc.set_attribute(a, "x", "1").unwrap();
    /// assert_eq!(doc.node(a).unwrap().attribute("x"), Some("1"));
    /// ```
    pub fn id(&self) -> NodeId {
        NodeId(self.id)
    }

    /// The document the node belongs to.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>x</a>");
    /// let a = doc.root_element().unwrap();
    /// assert!(std::ptr::eq(a.document(), &doc));
    /// assert_eq!(a.document().source(), "<a>x</a>");
    /// ```
    pub fn document(&self) -> &'a Document {
        self.doc
    }

    /// What kind of node this is.
    ///
    /// ```
    /// use xml5dom::{Document, NodeType};
    /// let doc = Document::parse("<a>t<!--c--><?p d?></a>");
    /// let kinds: Vec<_> = doc.root_element().unwrap().children().map(|n| n.node_type()).collect();
    /// assert_eq!(kinds, [NodeType::Text, NodeType::Comment, NodeType::ProcessingInstruction]);
    /// ```
    pub fn node_type(&self) -> NodeType {
        match self.kind() {
            NodeKind::Document => NodeType::Document,
            NodeKind::Doctype(_) => NodeType::Doctype,
            NodeKind::Element { .. } => NodeType::Element,
            NodeKind::Text { .. } => NodeType::Text,
            NodeKind::Comment(_) => NodeType::Comment,
            NodeKind::ProcessingInstruction { .. } => NodeType::ProcessingInstruction,
        }
    }

    /// Whether this is the document node.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a/>");
    /// assert!(doc.root().is_document());
    /// assert!(!doc.root_element().unwrap().is_document());
    /// ```
    pub fn is_document(&self) -> bool {
        self.node_type() == NodeType::Document
    }

    /// Whether this is an element.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>t<b/></a>");
    /// let a = doc.root_element().unwrap();
    /// assert!(a.is_element());
    /// assert_eq!(a.children().filter(|n| n.is_element()).count(), 1);
    /// ```
    pub fn is_element(&self) -> bool {
        self.node_type() == NodeType::Element
    }

    /// Whether this is a text node.
    ///
    /// Whitespace around the root element is kept as text nodes of the
    /// document:
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>t</a>\n");
    /// assert!(doc.root_element().unwrap().first_child().unwrap().is_text());
    /// assert!(doc.root().last_child().unwrap().is_text());
    /// ```
    pub fn is_text(&self) -> bool {
        self.node_type() == NodeType::Text
    }

    /// Whether this is a comment.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!-- licence --><a/>");
    /// let first = doc.root().first_child().unwrap();
    /// assert!(first.is_comment());
    /// assert_eq!(first.text(), Some(" licence "));
    /// ```
    pub fn is_comment(&self) -> bool {
        self.node_type() == NodeType::Comment
    }

    /// Whether this is a processing instruction.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<?xml-stylesheet href='s.css'?><a/>");
    /// let pi = doc.root().first_child().unwrap();
    /// assert!(pi.is_processing_instruction());
    /// assert_eq!(pi.name(), "xml-stylesheet");
    /// ```
    pub fn is_processing_instruction(&self) -> bool {
        self.node_type() == NodeType::ProcessingInstruction
    }

    /// Whether this is a DOCTYPE.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!DOCTYPE html><html/>");
    /// let doctype = doc.root().first_child().unwrap();
    /// assert!(doctype.is_doctype());
    /// assert_eq!(doctype.name(), "html");
    /// ```
    pub fn is_doctype(&self) -> bool {
        self.node_type() == NodeType::Doctype
    }

    /// The qualified name as written: an element's name, a PI's target, a
    /// DOCTYPE's name; `""` for other nodes.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<svg:rect xmlns:svg='http://www.w3.org/2000/svg'/>");
    /// assert_eq!(doc.root_element().unwrap().name(), "svg:rect");
    /// ```
    pub fn name(&self) -> &'a str {
        match self.kind() {
            NodeKind::Element { name, .. } => self.doc.names.qualified(name),
            NodeKind::ProcessingInstruction { target, .. } => {
                &self.doc.names.qname_data(target).text
            }
            NodeKind::Doctype(d) => self
                .doctype_data(d)
                .and_then(|d| d.name)
                .map_or("", |r| self.doc.str(r)),
            _ => "",
        }
    }

    /// The local name: the part after the prefix (the whole name when there
    /// is none); for non-elements, as [`Node::name`].
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<svg:rect xmlns:svg='http://www.w3.org/2000/svg'/>");
    /// assert_eq!(doc.root_element().unwrap().local_name(), "rect");
    /// ```
    pub fn local_name(&self) -> &'a str {
        match self.kind() {
            NodeKind::Element { name, .. } => self.doc.names.local(name),
            _ => self.name(),
        }
    }

    /// The prefix of an element's name, if it has one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<svg:rect xmlns:svg='http://www.w3.org/2000/svg'/>");
    /// assert_eq!(doc.root_element().unwrap().prefix(), Some("svg"));
    /// ```
    pub fn prefix(&self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Element { name, .. } => self.doc.names.prefix(name),
            _ => None,
        }
    }

    /// The namespace URI of an element, if it is in one.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<feed xmlns='http://www.w3.org/2005/Atom'/>");
    /// assert_eq!(doc.root_element().unwrap().namespace(), Some("http://www.w3.org/2005/Atom"));
    /// ```
    pub fn namespace(&self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Element { name, .. } => self.doc.names.namespace_of(name),
            _ => None,
        }
    }

    /// Whether this is an element with the local name `local` in the
    /// namespace `namespace` (`None` for no namespace).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a:b xmlns:a='urn:x'/>");
    /// assert!(doc.root_element().unwrap().has_name(Some("urn:x"), "b"));
    /// ```
    pub fn has_name(&self, namespace: Option<&str>, local: &str) -> bool {
        self.is_element() && self.local_name() == local && self.namespace() == namespace
    }

    // ----- Attributes ----------------------------------------------------

    fn doctype_data(&self, index: u32) -> Option<&'a super::DoctypeData> {
        self.doc.doctypes.get(index as usize)
    }

    /// A DOCTYPE's data (`None` for other nodes).
    pub(crate) fn doctype(&self) -> Option<&'a super::DoctypeData> {
        match self.kind() {
            NodeKind::Doctype(d) => self.doctype_data(d),
            _ => None,
        }
    }

    fn attribute_data(&self) -> &'a [AttributeData] {
        self.doc.own_attributes(self.id)
    }

    /// The attributes, in source order (namespace declarations included).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a y='2' x='1'/>");
    /// let names: Vec<_> = doc.root_element().unwrap().attributes().map(|a| a.name()).collect();
    /// assert_eq!(names, ["y", "x"]);
    /// ```
    pub fn attributes(&self) -> Attributes<'a> {
        Attributes {
            doc: self.doc,
            iter: self.attribute_data().iter(),
        }
    }

    /// The value of the attribute in no namespace with local name `local`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a href='x' xlink:href='y' xmlns:xlink='http://www.w3.org/1999/xlink'/>");
    /// assert_eq!(doc.root_element().unwrap().attribute("href"), Some("x"));
    /// ```
    pub fn attribute(&self, local: &str) -> Option<&'a str> {
        self.attributes()
            .find(|a| a.namespace().is_none() && a.local_name() == local)
            .map(|a| a.value())
    }

    /// The value of the attribute with namespace `namespace` and local name
    /// `local`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xlink:href='y' xmlns:xlink='http://www.w3.org/1999/xlink'/>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(a.attribute_ns("http://www.w3.org/1999/xlink", "href"), Some("y"));
    /// ```
    pub fn attribute_ns(&self, namespace: &str, local: &str) -> Option<&'a str> {
        self.attributes()
            .find(|a| a.namespace() == Some(namespace) && a.local_name() == local)
            .map(|a| a.value())
    }

    /// Whether the element has an attribute in no namespace named `local`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<input disabled='' xml:lang='en'/>");
    /// let input = doc.root_element().unwrap();
    /// assert!(input.has_attribute("disabled"));
    /// assert!(!input.has_attribute("lang")); // `xml:lang` is in the XML namespace
    /// ```
    pub fn has_attribute(&self, local: &str) -> bool {
        self.attribute(local).is_some()
    }

    // ----- Text ----------------------------------------------------------

    /// The text of a text node, a comment's data or a PI's data.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>1 &lt; 2<!--note--></a>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(a.first_child().unwrap().text(), Some("1 < 2"));
    /// assert_eq!(a.last_child().unwrap().text(), Some("note"));
    /// assert_eq!(a.text(), None);
    /// ```
    pub fn text(&self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Text { text, .. } => Some(self.doc.text_of(text)),
            NodeKind::Comment(text) => Some(self.doc.text_of(text)),
            NodeKind::ProcessingInstruction { data, .. } => Some(self.doc.text_of(data)),
            _ => None,
        }
    }

    /// All the text of the subtree, in document order (text nodes only).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>x<b>y<!--no--></b>z</a>");
    /// assert_eq!(doc.root_element().unwrap().text_content(), "xyz");
    /// ```
    pub fn text_content(&self) -> String {
        let mut out = String::new();
        for node in std::iter::once(*self).chain(self.descendants()) {
            if let NodeKind::Text { text, .. } = node.kind() {
                out.push_str(self.doc.text_of(text));
            }
        }
        out
    }

    /// The byte ranges of a text node's text that came from CDATA sections.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>x<![CDATA[<y>]]>z</a>");
    /// let text = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!(text.text(), Some("x<y>z"));
    /// assert_eq!(text.cdata_ranges(), [1..4]);
    /// ```
    pub fn cdata_ranges(&self) -> Vec<std::ops::Range<usize>> {
        match self.kind() {
            NodeKind::Text { cdata, .. } => self
                .doc
                .cdata_parts(cdata)
                .iter()
                .map(|&(start, end)| start..end)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A DOCTYPE's name as its source writes it: XML5 lowercases the name
    /// ([`name`](Self::name) gives `root` for `<!DOCTYPE ROOT>`), XML
    /// keeps it, and so do the APIs that report what XML reports (lxml's
    /// `docinfo.root_name`). The lowercased name where the source does not
    /// hold it as written (a NUL in it became U+FFFD); `None` for other
    /// nodes.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!DOCTYPE ROOT SYSTEM 'r.dtd'><ROOT/>");
    /// let doctype = doc.root().first_child().unwrap();
    /// assert_eq!(doctype.name(), "root");
    /// assert_eq!(doctype.doctype_name_as_written(), Some("ROOT"));
    /// ```
    pub fn doctype_name_as_written(&self) -> Option<&'a str> {
        if !self.is_doctype() {
            return None;
        }
        let name = self.name();
        let written = self.span().and_then(|span| {
            let markup = self.doc.source().get(span.range())?;
            let keyword = markup.get(..9)?;
            if !keyword.eq_ignore_ascii_case("<!DOCTYPE") {
                return None;
            }
            let after = markup[9..].trim_start_matches([' ', '\t', '\n', '\r']);
            after
                .get(..name.len())
                .filter(|written| written.eq_ignore_ascii_case(name))
        });
        Some(written.unwrap_or(name))
    }

    /// A DOCTYPE's public identifier.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse(r#"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "xhtml1-strict.dtd"><html/>"#);
    /// let doctype = doc.root().first_child().unwrap();
    /// assert_eq!(doctype.public_id(), Some("-//W3C//DTD XHTML 1.0 Strict//EN"));
    /// ```
    pub fn public_id(&self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Doctype(d) => self.doctype_data(d)?.public_id.map(|r| self.doc.str(r)),
            _ => None,
        }
    }

    /// A DOCTYPE's system identifier.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse(r#"<!DOCTYPE note SYSTEM "note.dtd"><note/>"#);
    /// let doctype = doc.root().first_child().unwrap();
    /// assert_eq!(doctype.system_id(), Some("note.dtd"));
    /// assert_eq!(doctype.public_id(), None);
    /// ```
    pub fn system_id(&self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Doctype(d) => self.doctype_data(d)?.system_id.map(|r| self.doc.str(r)),
            _ => None,
        }
    }

    /// A DOCTYPE's internal subset, unparsed.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!DOCTYPE a [<!ENTITY e 'x'>]><a/>");
    /// let doctype = doc.root().first_child().unwrap();
    /// assert_eq!(doctype.internal_subset(), Some("<!ENTITY e 'x'>"));
    /// ```
    pub fn internal_subset(&self) -> Option<&'a str> {
        match self.kind() {
            NodeKind::Doctype(d) => self
                .doctype_data(d)?
                .internal_subset
                .map(|r| self.doc.str(r)),
            _ => None,
        }
    }

    /// The notations a DOCTYPE's internal subset declares
    /// (`<!NOTATION name SYSTEM "s">`, `PUBLIC "p"` or `PUBLIC "p" "s"`),
    /// in the order declared; a name declared twice keeps its first
    /// declaration. Empty for other nodes, and for a DOCTYPE whose subset
    /// is not read (one after the first, or after the root element).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse(
    ///     "<!DOCTYPE a [<!NOTATION png SYSTEM 'image/png'><!NOTATION txt PUBLIC '-//text'>]><a/>",
    /// );
    /// let doctype = doc.root().first_child().unwrap();
    /// let names: Vec<_> = doctype.notations().iter().map(|n| n.name()).collect();
    /// assert_eq!(names, ["png", "txt"]);
    /// assert_eq!(doctype.notations()[1].public_id(), Some("-//text"));
    /// assert_eq!(doctype.notations()[1].system_id(), None);
    /// assert!(doc.root_element().unwrap().notations().is_empty());
    /// ```
    pub fn notations(&self) -> &'a [crate::notation::Notation] {
        match self.kind() {
            NodeKind::Doctype(d) => self.doctype_data(d).map_or(&[], |d| &d.notations[..]),
            _ => &[],
        }
    }

    /// The source this node was parsed from (`None` for created nodes).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!(&doc.source()[b.span().unwrap().range()], "<b/>");
    /// ```
    pub fn span(&self) -> Option<Span> {
        self.doc.data(self.id).span()
    }

    /// The name of the entity whose reference in content made this node,
    /// for nodes made by expanding an entity with markup (the outermost
    /// entity, if references were nested). Such a node's [`span`](Self::span)
    /// is the reference's.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!DOCTYPE a [<!ENTITY sig '<b>Bo</b>'>]><a>&sig;</a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!((b.name(), b.entity()), ("b", Some("sig")));
    /// assert_eq!(&doc.source()[b.span().unwrap().range()], "&sig;");
    /// ```
    pub fn entity(&self) -> Option<&'a str> {
        let mark = self.doc.expansion_mark(self.id);
        let record = self
            .doc
            .entity_expansions
            .get((mark as usize).checked_sub(1)?)?;
        Some(&record.name)
    }

    // ----- Namespaces in scope -------------------------------------------

    /// The namespace URI bound to `prefix` (`None`: the default namespace) in
    /// scope at this node.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xmlns='urn:d' xmlns:p='urn:p'><b/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!(b.lookup_namespace_uri(Some("p")), Some("urn:p"));
    /// assert_eq!(b.lookup_namespace_uri(None), Some("urn:d"));
    /// assert_eq!(b.lookup_namespace_uri(Some("xml")), Some(xml5dom::XML_NAMESPACE));
    /// ```
    pub fn lookup_namespace_uri(&self, prefix: Option<&str>) -> Option<&'a str> {
        if prefix == Some("xml") {
            return Some(XML_NAMESPACE);
        }
        if prefix == Some("xmlns") {
            return Some(XMLNS_NAMESPACE);
        }
        for element in std::iter::once(*self)
            .chain(self.ancestors())
            .filter(Node::is_element)
        {
            for attribute in element.attributes() {
                if let Some(declared) = attribute.declared_prefix() {
                    if declared == prefix {
                        let value = attribute.value();
                        return (!value.is_empty()).then_some(value);
                    }
                }
            }
        }
        None
    }

    /// A prefix bound to `uri` in scope at this node: `Some("")` when `uri`
    /// is the default namespace, `None` when no prefix maps to it.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xmlns:p='urn:p'><b xmlns='urn:d'/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!(b.lookup_prefix("urn:p"), Some("p"));
    /// assert_eq!(b.lookup_prefix("urn:d"), Some(""));
    /// assert_eq!(b.lookup_prefix("urn:none"), None);
    /// ```
    pub fn lookup_prefix(&self, uri: &str) -> Option<&'a str> {
        if uri == XML_NAMESPACE {
            return Some("xml");
        }
        // One walk up, noting the prefixes declared nearer this node: a
        // declaration of one of them is shadowed. (Looking each candidate
        // up from this node again would cost the depth squared.)
        let mut nearer: HashSet<Option<&str>> = HashSet::new();
        for element in std::iter::once(*self)
            .chain(self.ancestors())
            .filter(Node::is_element)
        {
            for attribute in element.attributes() {
                let Some(declared) = attribute.declared_prefix() else {
                    continue;
                };
                let value = attribute.value();
                let bound = match declared {
                    // Bound whatever is declared (as `lookup_namespace_uri`
                    // has them).
                    Some("xml") => false,
                    Some("xmlns") => uri == XMLNS_NAMESPACE,
                    _ => !nearer.contains(&declared) && !value.is_empty(),
                };
                if bound && value == uri {
                    return Some(declared.unwrap_or(""));
                }
                nearer.insert(declared);
            }
        }
        None
    }

    // ----- Moving around -------------------------------------------------

    /// The parent (`None` for the document and detached nodes).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/></a>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(a.first_child().unwrap().parent(), Some(a));
    /// assert_eq!(a.parent(), Some(doc.root()));
    /// assert_eq!(doc.root().parent(), None);
    /// ```
    pub fn parent(&self) -> Option<Node<'a>> {
        self.wrap(self.id.parent(&self.doc.arena))
    }

    /// The first child.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>t<b/></a>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(a.first_child().unwrap().text(), Some("t"));
    /// assert_eq!(a.last_child().unwrap().first_child(), None);
    /// ```
    pub fn first_child(&self) -> Option<Node<'a>> {
        self.wrap(self.id.first_child(&self.doc.arena))
    }

    /// The last child.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t</a>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(a.last_child().unwrap().text(), Some("t"));
    /// ```
    pub fn last_child(&self) -> Option<Node<'a>> {
        self.wrap(self.id.last_child(&self.doc.arena))
    }

    /// The next sibling.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/><c/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!(b.next_sibling().unwrap().name(), "c");
    /// assert_eq!(b.next_sibling().unwrap().next_sibling(), None);
    /// ```
    pub fn next_sibling(&self) -> Option<Node<'a>> {
        self.wrap(self.id.next_sibling(&self.doc.arena))
    }

    /// The previous sibling.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/><c/></a>");
    /// let c = doc.root_element().unwrap().last_child().unwrap();
    /// assert_eq!(c.prev_sibling().unwrap().name(), "b");
    /// assert_eq!(c.prev_sibling().unwrap().prev_sibling(), None);
    /// ```
    pub fn prev_sibling(&self) -> Option<Node<'a>> {
        self.wrap(self.id.previous_sibling(&self.doc.arena))
    }

    /// Whether the node has children.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/></a>");
    /// let a = doc.root_element().unwrap();
    /// assert!(a.has_children());
    /// assert!(!a.first_child().unwrap().has_children());
    /// ```
    pub fn has_children(&self) -> bool {
        self.id.first_child(&self.doc.arena).is_some()
    }

    // ----- Elements only -------------------------------------------------

    /// The first element child.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a>t<b/><c/></a>");
    /// assert_eq!(doc.root_element().unwrap().first_element_child().unwrap().name(), "b");
    /// ```
    pub fn first_element_child(&self) -> Option<Node<'a>> {
        self.child_elements().next()
    }

    /// The last element child.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/><c/>t</a>");
    /// assert_eq!(doc.root_element().unwrap().last_element_child().unwrap().name(), "c");
    /// ```
    pub fn last_element_child(&self) -> Option<Node<'a>> {
        self.child_elements().next_back()
    }

    /// The next element sibling.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t<c/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!(b.next_sibling_element().unwrap().name(), "c");
    /// ```
    pub fn next_sibling_element(&self) -> Option<Node<'a>> {
        self.following_sibling_elements().next()
    }

    /// The previous element sibling.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b/>t<c/></a>");
    /// let c = doc.root_element().unwrap().last_child().unwrap();
    /// assert_eq!(c.prev_sibling_element().unwrap().name(), "b");
    /// assert_eq!(c.prev_sibling_element().unwrap().prev_sibling_element(), None);
    /// ```
    pub fn prev_sibling_element(&self) -> Option<Node<'a>> {
        self.preceding_sibling_elements().next()
    }
}

/// An attribute of an element.
///
/// ```
/// use xml5dom::Document;
/// let doc = Document::parse("<a xmlns:x='urn:x' x:id='7'/>");
/// let id = doc.root_element().unwrap().attributes().last().unwrap();
/// assert_eq!((id.name(), id.value()), ("x:id", "7"));
/// assert_eq!(id.namespace(), Some("urn:x"));
/// ```
#[derive(Clone, Copy)]
pub struct Attribute<'a> {
    doc: &'a Document,
    data: &'a AttributeData,
}

impl<'a> Attribute<'a> {
    /// The qualified name as written.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xml:lang='en'/>");
    /// let lang = doc.root_element().unwrap().attributes().next().unwrap();
    /// assert_eq!(lang.name(), "xml:lang");
    /// ```
    pub fn name(&self) -> &'a str {
        self.doc.names.qualified(self.data.name)
    }

    /// The local name.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xml:lang='en' id='1'/>");
    /// let names: Vec<_> = doc.root_element().unwrap().attributes().map(|a| a.local_name()).collect();
    /// assert_eq!(names, ["lang", "id"]);
    /// ```
    pub fn local_name(&self) -> &'a str {
        self.doc.names.local(self.data.name)
    }

    /// The prefix, if any.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xml:lang='en' id='1'/>");
    /// let prefixes: Vec<_> = doc.root_element().unwrap().attributes().map(|a| a.prefix()).collect();
    /// assert_eq!(prefixes, [Some("xml"), None]);
    /// ```
    pub fn prefix(&self) -> Option<&'a str> {
        self.doc.names.prefix(self.data.name)
    }

    /// The namespace URI, if the attribute is in a namespace.
    ///
    /// Attributes without a prefix are in no namespace, even under a default
    /// namespace:
    ///
    /// ```
    /// use xml5dom::{Document, XML_NAMESPACE};
    /// let doc = Document::parse("<a xmlns='urn:d' id='1' xml:lang='en'/>");
    /// let uris: Vec<_> = doc.root_element().unwrap().attributes().skip(1).map(|a| a.namespace()).collect();
    /// assert_eq!(uris, [None, Some(XML_NAMESPACE)]);
    /// ```
    pub fn namespace(&self) -> Option<&'a str> {
        self.doc.names.namespace_of(self.data.name)
    }

    /// The value, references resolved and whitespace normalized.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a title='Tom &amp;\tJerry'/>");
    /// let title = doc.root_element().unwrap().attributes().next().unwrap();
    /// assert_eq!(title.value(), "Tom & Jerry");
    /// ```
    pub fn value(&self) -> &'a str {
        self.doc.text_of(self.data.value)
    }

    /// The whole attribute in the source (`None` for one set by an edit).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a x = '1'/>");
    /// let a = doc.root_element().unwrap();
    /// let x = a.attributes().next().unwrap();
    /// assert_eq!(&doc.source()[x.span().unwrap().range()], "x = '1'");
    ///
    /// let a = a.id();
    /// doc.set_attribute(a, "x", "2").unwrap();
    /// assert_eq!(doc.node(a).unwrap().attributes().next().unwrap().span(), None);
    /// ```
    pub fn span(&self) -> Option<Span> {
        (!self.data.modified())
            .then_some(self.data.span())
            .flatten()
    }

    /// The raw value in the source, between the quotes.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a x='1 &lt; 2'/>");
    /// let x = doc.root_element().unwrap().attributes().next().unwrap();
    /// assert_eq!(x.value(), "1 < 2");
    /// assert_eq!(&doc.source()[x.value_span().unwrap().range()], "1 &lt; 2");
    /// ```
    pub fn value_span(&self) -> Option<Span> {
        (!self.data.modified())
            .then_some(self.data.value_span())
            .flatten()
    }

    /// Where the attribute was in the source, even if an edit changed it.
    pub(crate) fn source_span(&self) -> Option<Span> {
        self.data.span()
    }

    /// Where the value was in the source (between its quotes), if the
    /// attribute was parsed with one.
    pub(crate) fn source_value_span(&self) -> Option<Span> {
        self.data.value_span()
    }

    /// The quote the value had in the source, if it had one.
    pub(crate) fn source_quote(&self) -> Option<u8> {
        let span = self.data.value_span()?;
        let quote = *self
            .doc
            .source()
            .as_bytes()
            .get(span.start.checked_sub(1)?)?;
        matches!(quote, b'"' | b'\'').then_some(quote)
    }

    /// Whether an edit changed the attribute since it was parsed.
    pub(crate) fn is_modified(&self) -> bool {
        self.data.modified()
    }

    /// Whether the attribute was not in the tag but supplied by the default
    /// of an attribute-list declaration in the internal subset (DOM's
    /// `specified` is the opposite). The serializer does not write it while
    /// the document keeps its DTD.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!DOCTYPE a [<!ATTLIST a x CDATA 'd'>]><a y='1'/>");
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(a.attribute("x"), Some("d"));
    /// let defaulted: Vec<_> = a.attributes().map(|at| (at.name(), at.is_defaulted())).collect();
    /// assert_eq!(defaulted, [("y", false), ("x", true)]);
    /// assert_eq!(doc.to_xml(), "<!DOCTYPE a [<!ATTLIST a x CDATA 'd'>]><a y='1'/>");
    /// ```
    pub fn is_defaulted(&self) -> bool {
        self.data.is_defaulted()
    }

    /// Whether an attribute-list declaration gives the attribute type `ID`
    /// (`xml:id` is an ID without one); XPath's `id()` finds elements by
    /// such attributes.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<!DOCTYPE a [<!ATTLIST b key ID #IMPLIED>]><a><b key=' k1 '/></a>");
    /// let b = doc.root_element().unwrap().first_child().unwrap();
    /// let key = b.attributes().next().unwrap();
    /// assert!(key.is_id());
    /// assert_eq!(key.value(), "k1"); // a tokenized type: whitespace collapsed
    /// ```
    pub fn is_id(&self) -> bool {
        self.data.is_id()
    }

    /// For a namespace declaration, the prefix it declares: `Some(None)` for
    /// `xmlns`, `Some(Some(p))` for `xmlns:p`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xmlns='urn:d' xmlns:p='urn:p' p:x='1'/>");
    /// let declared: Vec<_> = doc.root_element().unwrap().attributes().map(|a| a.declared_prefix()).collect();
    /// assert_eq!(declared, [Some(None), Some(Some("p")), None]);
    /// ```
    pub fn declared_prefix(&self) -> Option<Option<&'a str>> {
        if self.namespace() != Some(XMLNS_NAMESPACE) {
            return None;
        }
        Some(match self.prefix() {
            Some(_) => Some(self.local_name()),
            None => None,
        })
    }
}

impl std::fmt::Debug for Attribute<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={:?}", self.name(), self.value())
    }
}

/// The attributes of an element, in source order.
///
/// ```
/// use xml5dom::Document;
/// let doc = Document::parse("<a x='1' y='2' z='3'/>");
/// let attributes = doc.root_element().unwrap().attributes();
/// assert_eq!(attributes.len(), 3);
/// let last = attributes.rev().next().unwrap();
/// assert_eq!((last.name(), last.value()), ("z", "3"));
/// ```
#[derive(Clone)]
pub struct Attributes<'a> {
    doc: &'a Document,
    iter: std::slice::Iter<'a, AttributeData>,
}

impl<'a> Iterator for Attributes<'a> {
    type Item = Attribute<'a>;

    fn next(&mut self) -> Option<Attribute<'a>> {
        let doc = self.doc;
        self.iter.next().map(|data| Attribute { doc, data })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl DoubleEndedIterator for Attributes<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let doc = self.doc;
        self.iter.next_back().map(|data| Attribute { doc, data })
    }
}

impl ExactSizeIterator for Attributes<'_> {}
