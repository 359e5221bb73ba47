//! Canonical forms: W3C Canonical XML 1.0 and 1.1 and Exclusive XML
//! Canonicalization 1.0 (each with or without comments; of a whole document
//! or of a document subset, an XPath node-set: [`canonicalize_with`]), as
//! libxml2 writes them, and the two forms of the W3C XML Conformance Test
//! Suite's output files (James Clark's "xmltest" canonical XML, and Sun's
//! second form, which adds the notations the DTD declares).
//!
//! The whole-document Canonical XML 1.0 and xmltest writers are here; the
//! rest is the general C14N writer of `c14n.rs`. All walk the tree with
//! [`Node::traverse`](crate::dom::Node::traverse), never recursing, so a
//! document nested 1,000,000 deep is written like a flat one. All write the
//! tree as it is: a document parsed with errors is written as the XML5
//! rules recovered it, escaped so that the output is well-formed where the
//! tree allows it.
//!
//! ```
//! use xml5dom::Document;
//! use xml5dom::serializer::canonical::{canonicalize, CanonicalForm};
//!
//! let doc = Document::parse("<?xml version='1.0'?>\n<a b='1' a='2'><e/><!--c--></a>\n");
//! assert_eq!(canonicalize(&doc, CanonicalForm::C14n), r#"<a a="2" b="1"><e></e></a>"#);
//! assert_eq!(
//!     canonicalize(&doc, CanonicalForm::C14nWithComments),
//!     r#"<a a="2" b="1"><e></e><!--c--></a>"#
//! );
//! assert_eq!(canonicalize(&doc, CanonicalForm::XmlTest), r#"<a a="2" b="1"><e></e></a>"#);
//! ```

use std::fmt::Write as _;

use crate::dom::{Attribute, Document, Edge, NodeType};
use crate::notation::Notation;
use crate::output::Pieces;
use crate::query::XNode;
use crate::scope::ElementScopes;

use super::c14n::{self, Mode, Subset};
pub use super::canonical_markup::InclusiveNamespaces;
use super::canonical_markup::{
    c14n_order, declare_undeclared, document_level, escape_ascii, escape_c14n_text,
    write_c14n_start_tag, write_pi,
};

/// Which canonical form to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CanonicalForm {
    /// Canonical XML 1.0, inclusive, without comments.
    C14n,
    /// Canonical XML 1.0, inclusive, with comments.
    C14nWithComments,
    /// The canonical form of the XML Conformance Test Suite (xmltest).
    XmlTest,
    /// The suite's second canonical form: [`XmlTest`](Self::XmlTest), plus
    /// the internal subset's processing instructions and a DOCTYPE with
    /// the notations it declares, sorted by name.
    XmlTestSecond,
    /// Exclusive XML Canonicalization 1.0, without comments.
    ExcC14n,
    /// Exclusive XML Canonicalization 1.0, with comments.
    ExcC14nWithComments,
    /// Canonical XML 1.1, without comments.
    C14n11,
    /// Canonical XML 1.1, with comments.
    C14n11WithComments,
}

impl CanonicalForm {
    /// Whether the form is one of the W3C Canonical XML family (1.0, 1.1,
    /// Exclusive), which can write a document subset
    /// ([`canonicalize_subset`]) and takes [`CanonicalOptions`].
    ///
    /// ```
    /// use xml5dom::CanonicalForm;
    /// assert!(CanonicalForm::ExcC14n.is_c14n());
    /// assert!(!CanonicalForm::XmlTest.is_c14n());
    /// ```
    pub fn is_c14n(self) -> bool {
        self.c14n_mode().is_some()
    }

    /// The algorithm and whether comments are kept, for the C14N family.
    fn c14n_mode(self) -> Option<(Mode, bool)> {
        match self {
            CanonicalForm::C14n => Some((Mode::Inclusive10, false)),
            CanonicalForm::C14nWithComments => Some((Mode::Inclusive10, true)),
            CanonicalForm::ExcC14n => Some((Mode::Exclusive, false)),
            CanonicalForm::ExcC14nWithComments => Some((Mode::Exclusive, true)),
            CanonicalForm::C14n11 => Some((Mode::Inclusive11, false)),
            CanonicalForm::C14n11WithComments => Some((Mode::Inclusive11, true)),
            CanonicalForm::XmlTest | CanonicalForm::XmlTestSecond => None,
        }
    }
}

/// What a Canonical XML form is given besides the document: the
/// InclusiveNamespaces PrefixList (Exclusive forms only) and the document
/// subset to write (all of the document when `None`).
///
/// ```
/// use xml5dom::query::XPath;
/// use xml5dom::{canonicalize_with, CanonicalForm, CanonicalOptions, Document, InclusiveNamespaces};
///
/// let doc = Document::parse("<r xmlns:a='urn:a' xmlns:b='urn:b'><a:e/></r>");
/// let mut options = CanonicalOptions::default();
/// assert_eq!(
///     canonicalize_with(&doc, CanonicalForm::ExcC14n, &options),
///     r#"<r><a:e xmlns:a="urn:a"></a:e></r>"#
/// );
/// options.inclusive_namespaces = InclusiveNamespaces::parse("b");
/// assert_eq!(
///     canonicalize_with(&doc, CanonicalForm::ExcC14n, &options),
///     r#"<r xmlns:b="urn:b"><a:e xmlns:a="urn:a"></a:e></r>"#
/// );
/// let nodes = XPath::compile("//*[local-name()='e']").unwrap().select(doc.root()).unwrap();
/// options.subset = Some(&nodes);
/// assert_eq!(
///     canonicalize_with(&doc, CanonicalForm::ExcC14n, &options),
///     "<a:e></a:e>"
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct CanonicalOptions<'s, 'a> {
    /// Prefixes treated as Canonical XML 1.0 treats them, in the Exclusive
    /// forms (ignored by the others).
    pub inclusive_namespaces: InclusiveNamespaces,
    /// The node-set to write, as an XPath selection gives it (elements,
    /// text, comments, PIs, attribute and namespace nodes); `None` for the
    /// whole document.
    pub subset: Option<&'s [XNode<'a>]>,
}

/// Writes `doc` in the canonical form `form`.
///
/// Canonical XML 1.0 (<https://www.w3.org/TR/xml-c14n>), for the whole
/// document:
///
/// - no XML declaration, no DOCTYPE, nothing of the whitespace around the
///   root element; a line feed after each comment or PI before the root
///   element and before each one after it;
/// - CDATA sections as escaped text, empty elements as start and end tags;
/// - text escapes `&amp; &lt; &gt; &#xD;`; attribute values in double quotes
///   with `&amp; &lt; &quot; &#x9; &#xA; &#xD;`;
/// - on each element, first the namespace declarations that change what is
///   in scope at its parent (`xmlns=""` only to undeclare a non-empty
///   default), sorted by prefix with the default first, then the other
///   attributes sorted by namespace URI (none first) and local name;
/// - PIs as `<?target data?>` (`<?target?>` when there is no data); comments
///   as `<!--data-->`, only in [`CanonicalForm::C14nWithComments`].
///
/// The xmltest form (<https://www.w3.org/XML/Test/> output files):
///
/// ```text
/// CanonXML ::= Pi* element Pi*
/// element  ::= Stag (Datachar | Pi | element)* Etag
/// Stag     ::= '<' Name Atts '>'
/// Etag     ::= '</' Name '>'
/// Pi       ::= '<?' Name ' ' (((Char - S) Char*)? - (Char* '?>' Char*)) '?>'
/// Atts     ::= (' ' Name '=' '"' Datachar* '"')*
/// Datachar ::= '&amp;' | '&lt;' | '&gt;' | '&quot;' | '&#9;'| '&#10;'| '&#13;'
///            | (Char - ('&' | '<' | '>' | '"' | #x9 | #xA | #xD))
/// ```
///
/// with the attributes (namespace declarations included, as plain
/// attributes) sorted by qualified name, comments, DOCTYPE and XML
/// declaration dropped.
///
/// A document without a root element gives just its PIs (and comments).
///
/// The second xmltest form (Sun's "Second XML Canonical Form", the
/// suite's outputs for documents that declare notations) is the xmltest
/// form, with where the DOCTYPE was: the processing instructions of its
/// internal subset, as the form writes PIs, then, when the subset declares
/// notations,
///
/// ```text
/// DTD2      ::= '<!DOCTYPE ' name ' [' #xA Notations ']>' #xA
/// Notations ::= ('<!NOTATION ' Name ' ' ExternalId '>' #xA)*
/// ExternalId ::= 'PUBLIC ' PubidLiteral ' ' SystemLiteral
///              | 'PUBLIC ' PubidLiteral | 'SYSTEM ' SystemLiteral
/// ```
///
/// with the notations sorted by name, the DOCTYPE's name as written, and
/// the literals in single quotes (double quotes for one that holds a
/// single quote). System identifiers are written as declared, not made
/// relative to the document as the form's text asks.
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::serializer::canonical::{canonicalize, CanonicalForm};
///
/// let doc = Document::parse(
///     "<!DOCTYPE doc [<!NOTATION png SYSTEM 'viewer'><?pi x?><!NOTATION gif PUBLIC '-//gif'>]><doc/>",
/// );
/// assert_eq!(
///     canonicalize(&doc, CanonicalForm::XmlTestSecond),
///     "<?pi x?><!DOCTYPE doc [\n<!NOTATION gif PUBLIC '-//gif'>\n<!NOTATION png SYSTEM 'viewer'>\n]>\n<doc></doc>"
/// );
/// assert_eq!(canonicalize(&doc, CanonicalForm::XmlTest), "<doc></doc>");
/// ```
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::serializer::canonical::{canonicalize, CanonicalForm};
///
/// let doc = Document::parse("<?pi?><r xmlns='urn:r' xmlns:p='urn:p'><p:s xmlns='urn:r'>&amp;</p:s></r>");
/// assert_eq!(
///     canonicalize(&doc, CanonicalForm::C14n),
///     "<?pi?>\n<r xmlns=\"urn:r\" xmlns:p=\"urn:p\"><p:s>&amp;</p:s></r>"
/// );
/// assert_eq!(
///     canonicalize(&doc, CanonicalForm::XmlTest),
///     "<?pi ?><r xmlns=\"urn:r\" xmlns:p=\"urn:p\"><p:s xmlns=\"urn:r\">&amp;</p:s></r>"
/// );
/// ```
pub fn canonicalize(doc: &Document, form: CanonicalForm) -> String {
    let mut out = Pieces::kept();
    write_form(doc, form, &mut out);
    out.finish().unwrap_or_default()
}

/// Writes [`canonicalize`]'s text (UTF-8) to `writer` as it is made, so that
/// a large document needs little memory beyond itself.
///
/// ```
/// use xml5dom::{write_canonical, CanonicalForm, Document};
/// let doc = Document::parse("<a b='1'/>");
/// let mut out = Vec::new();
/// write_canonical(&doc, CanonicalForm::C14n, &mut out).unwrap();
/// assert_eq!(out, b"<a b=\"1\"></a>");
/// ```
pub fn write_canonical<W: std::io::Write>(
    doc: &Document,
    form: CanonicalForm,
    mut writer: W,
) -> std::io::Result<()> {
    let mut out = Pieces::written(&mut writer);
    write_form(doc, form, &mut out);
    out.finish().map(drop)
}

/// Writes `doc` in the canonical form `form` with `options`: the
/// InclusiveNamespaces PrefixList of the Exclusive forms, and a document
/// subset (an XPath node-set) instead of the whole document. The output is
/// libxml2's (`xmlC14NDocDumpMemory`) byte for byte, for every form and
/// subset. The xmltest form takes no options: it writes the whole document.
///
/// What a subset writes: the nodes in it, in document order. An element
/// not in it is not written, but its children in it are (a subset need not
/// be a subtree); its attributes and namespace nodes in the set are written
/// where it stands, as libxml2 does. A namespace declaration or an
/// attribute is written only if its node is in the set, so a subset meant
/// to be well-formed selects them with the elements, as XML Signature
/// does: `(//. | //@* | //namespace::*)[ancestor-or-self::e]`.
///
/// ```
/// use xml5dom::query::XPath;
/// use xml5dom::{canonicalize_with, CanonicalForm, CanonicalOptions, Document};
///
/// let doc = Document::parse("<r xmlns='urn:r' xml:lang='en'><e a='1'>t</e><f/></r>");
/// let nodes = XPath::compile("(//. | //@* | //namespace::*)[ancestor-or-self::*[local-name()='e']]")
///     .unwrap()
///     .select(doc.root())
///     .unwrap();
/// let options = CanonicalOptions { subset: Some(&nodes), ..CanonicalOptions::default() };
/// // Canonical XML 1.0 and 1.1 bring xml:lang from the ancestor left out.
/// assert_eq!(
///     canonicalize_with(&doc, CanonicalForm::C14n, &options),
///     r#"<e xmlns="urn:r" a="1" xml:lang="en">t</e>"#
/// );
/// assert_eq!(
///     canonicalize_with(&doc, CanonicalForm::ExcC14n, &options),
///     r#"<e xmlns="urn:r" a="1">t</e>"#
/// );
/// ```
pub fn canonicalize_with(
    doc: &Document,
    form: CanonicalForm,
    options: &CanonicalOptions<'_, '_>,
) -> String {
    let mut out = Pieces::kept();
    write_form_with(doc, form, options, &mut out);
    out.finish().unwrap_or_default()
}

/// [`canonicalize_with`], written to `writer` as it is made.
///
/// ```
/// use xml5dom::{write_canonical_with, CanonicalForm, CanonicalOptions, Document};
/// let doc = Document::parse("<r xmlns:p='urn:p'><e/></r>");
/// let mut out = Vec::new();
/// write_canonical_with(&doc, CanonicalForm::ExcC14n, &CanonicalOptions::default(), &mut out)
///     .unwrap();
/// assert_eq!(out, b"<r><e></e></r>");
/// ```
pub fn write_canonical_with<W: std::io::Write>(
    doc: &Document,
    form: CanonicalForm,
    options: &CanonicalOptions<'_, '_>,
    mut writer: W,
) -> std::io::Result<()> {
    let mut out = Pieces::written(&mut writer);
    write_form_with(doc, form, options, &mut out);
    out.finish().map(drop)
}

/// The document subset `nodes` (an XPath node-set of `doc`) in the form
/// `form`: [`canonicalize_with`] with just a subset.
///
/// ```
/// use xml5dom::query::XPath;
/// use xml5dom::{canonicalize_subset, CanonicalForm, Document};
///
/// let doc = Document::parse("<r><e a='1'>t<!--c--></e><f/></r>");
/// let nodes = XPath::compile("//e | //e//node() | //e/@*").unwrap().select(doc.root()).unwrap();
/// assert_eq!(
///     canonicalize_subset(&doc, CanonicalForm::C14nWithComments, &nodes),
///     r#"<e a="1">t<!--c--></e>"#
/// );
/// // Without its element, an attribute is written bare, as libxml2 does.
/// let nodes = XPath::compile("//e/@*").unwrap().select(doc.root()).unwrap();
/// assert_eq!(canonicalize_subset(&doc, CanonicalForm::C14n, &nodes), r#" a="1""#);
/// ```
pub fn canonicalize_subset(doc: &Document, form: CanonicalForm, nodes: &[XNode<'_>]) -> String {
    let options = CanonicalOptions {
        subset: Some(nodes),
        ..CanonicalOptions::default()
    };
    canonicalize_with(doc, form, &options)
}

fn write_form(doc: &Document, form: CanonicalForm, out: &mut Pieces<'_>) {
    write_form_with(doc, form, &CanonicalOptions::default(), out);
}

fn write_form_with(
    doc: &Document,
    form: CanonicalForm,
    options: &CanonicalOptions<'_, '_>,
    out: &mut Pieces<'_>,
) {
    match (form, options.subset) {
        // The whole document in Canonical XML 1.0: the writer the
        // streaming one follows step for step.
        (CanonicalForm::C14n, None) => write_c14n(doc, false, out),
        (CanonicalForm::C14nWithComments, None) => write_c14n(doc, true, out),
        (CanonicalForm::XmlTest, _) => write_xmltest(doc, false, out),
        (CanonicalForm::XmlTestSecond, _) => write_xmltest(doc, true, out),
        _ => {
            let Some((mode, with_comments)) = form.c14n_mode() else {
                return;
            };
            let subset = options.subset.map(|nodes| Subset::new(doc, nodes));
            let inclusive = match mode {
                Mode::Exclusive => options.inclusive_namespaces.clone(),
                Mode::Inclusive10 | Mode::Inclusive11 => InclusiveNamespaces::default(),
            };
            c14n::write(doc, mode, with_comments, &inclusive, subset.as_ref(), out);
        }
    }
}

// ----- Canonical XML 1.0 ---------------------------------------------------

fn write_c14n(doc: &Document, with_comments: bool, pieces: &mut Pieces<'_>) {
    let mut scope = ElementScopes::<&str>::default();
    // Reused for every element.
    let mut declarations: Vec<(Option<&str>, &str)> = Vec::new();
    let mut attributes: Vec<Attribute<'_>> = Vec::new();
    // Open elements; 0 at the document level.
    let mut depth = 0usize;
    // Whether an element has been written at the document level: comments
    // and PIs before it are followed by a line feed, those after it are
    // preceded by one.
    let mut after_root = false;

    for edge in doc.root().traverse() {
        pieces.send_some();
        let out = &mut pieces.text;
        match edge {
            Edge::Open(node) => match node.node_type() {
                NodeType::Element => {
                    if depth == 0 {
                        after_root = true;
                    }
                    depth += 1;
                    scope.open();
                    declarations.clear();
                    attributes.clear();
                    for attribute in node.attributes() {
                        match attribute.declared_prefix() {
                            // Always bound, never written.
                            Some(Some("xml")) => {}
                            Some(prefix) => {
                                let uri = attribute.value();
                                if scope.declare(prefix, uri) {
                                    // `xmlns:p=""` (Namespaces 1.1) leaves no
                                    // namespace node to write; `xmlns=""` is
                                    // written when it undeclares a default.
                                    if prefix.is_none() || !uri.is_empty() {
                                        declarations.push((prefix, uri));
                                    }
                                }
                            }
                            None => attributes.push(attribute),
                        }
                    }
                    // A prefix used undeclared is declared where the
                    // repaired document declares it: where its placeholder
                    // namespace is not in scope.
                    let names = std::iter::once((node.prefix(), node.namespace()))
                        .chain(attributes.iter().map(|a| (a.prefix(), a.namespace())));
                    let declare = |prefix, uri| scope.declare(Some(prefix), uri);
                    declare_undeclared(names, declare, &mut declarations);
                    declarations.sort_unstable_by_key(|&(prefix, _)| prefix);
                    attributes.sort_unstable_by(|a, b| c14n_key(a).cmp(&c14n_key(b)));

                    let attributes = attributes.iter().map(|a| (a.name(), a.value()));
                    write_c14n_start_tag(node.name(), &declarations, attributes, out);
                }
                NodeType::Text => {
                    if depth > 0 {
                        escape_c14n_text(node.text().unwrap_or(""), out);
                    }
                }
                NodeType::Comment if with_comments => {
                    document_level(depth, after_root, out, |out| {
                        out.push_str("<!--");
                        out.push_str(node.text().unwrap_or(""));
                        out.push_str("-->");
                    });
                }
                NodeType::ProcessingInstruction => {
                    document_level(depth, after_root, out, |out| {
                        write_pi(node.name(), node.text().unwrap_or(""), false, out);
                    });
                }
                NodeType::Comment | NodeType::Document | NodeType::Doctype => {}
            },
            Edge::Close(node) => {
                if node.is_element() {
                    depth -= 1;
                    scope.close();
                    out.push_str("</");
                    out.push_str(node.name());
                    out.push('>');
                }
            }
        }
    }
}

/// The key of a DOM attribute in Canonical XML's order ([`c14n_order`]).
fn c14n_key<'a>(attribute: &Attribute<'a>) -> (&'a str, &'a str) {
    c14n_order(
        attribute.namespace(),
        attribute.local_name(),
        attribute.name(),
    )
}

// ----- xmltest -------------------------------------------------------------

/// The xmltest form; with `second`, the second form (the subset's PIs and
/// notations where the DOCTYPE is).
fn write_xmltest(doc: &Document, second: bool, pieces: &mut Pieces<'_>) {
    let mut attributes: Vec<Attribute<'_>> = Vec::new();
    let mut depth = 0usize;
    let version = doc.xml_declaration().and_then(|d| d.version.as_deref());
    let xml11 = is_xml11(version);
    if xml11 {
        pieces.text.push_str(XMLTEST_1_1_DECLARATION);
    }
    for edge in doc.root().traverse() {
        pieces.send_some();
        let out = &mut pieces.text;
        match edge {
            Edge::Open(node) => match node.node_type() {
                NodeType::Element => {
                    depth += 1;
                    attributes.clear();
                    attributes.extend(node.attributes());
                    attributes.sort_unstable_by_key(Attribute::name);
                    out.push('<');
                    out.push_str(node.name());
                    for attribute in &attributes {
                        out.push(' ');
                        out.push_str(attribute.name());
                        out.push_str("=\"");
                        escape_xmltest(attribute.value(), xml11, out);
                        out.push('"');
                    }
                    out.push('>');
                }
                NodeType::Text => {
                    if depth > 0 {
                        escape_xmltest(node.text().unwrap_or(""), xml11, out);
                    }
                }
                NodeType::ProcessingInstruction => {
                    write_pi(node.name(), node.text().unwrap_or(""), true, out);
                }
                NodeType::Doctype if second => {
                    if let Some(data) = node.doctype() {
                        let name = data.written_name.as_deref().unwrap_or(node.name());
                        write_second_form_doctype(name, &data.notations, &data.subset_pis, out);
                    }
                }
                NodeType::Comment | NodeType::Document | NodeType::Doctype => {}
            },
            Edge::Close(node) => {
                if node.is_element() {
                    depth -= 1;
                    out.push_str("</");
                    out.push_str(node.name());
                    out.push('>');
                }
            }
        }
    }
}

/// The line the xmltest form of an XML 1.1 document starts with.
pub(crate) const XMLTEST_1_1_DECLARATION: &str = "<?xml version=\"1.1\"?>";

/// Whether a document whose XML declaration gave `version` is XML 1.1
/// (for the xmltest form, which writes those differently).
pub(crate) fn is_xml11(version: Option<&str>) -> bool {
    version == Some("1.1")
}

/// Datachar: `&`, `<`, `>`, `"`, tab, LF and CR escaped; in an XML 1.1
/// document also the controls 1.1 allows only as references (`RestrictedChar`,
/// XML 1.1 §2.2), as decimal references, as the suite's 1.1 outputs have
/// them (`eduni/xml-1.1/out/043.xml`: `&#12;`, `053.xml`: `&#133;`).
pub(crate) fn escape_xmltest(text: &str, xml11: bool, out: &mut String) {
    let datachar = |c| match c {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        b'"' => Some("&quot;"),
        b'\t' => Some("&#9;"),
        b'\n' => Some("&#10;"),
        b'\r' => Some("&#13;"),
        _ => None,
    };
    if !xml11 {
        escape_ascii(text, out, datachar);
        return;
    }
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let restricted = matches!(
            c,
            '\u{1}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{7F}'..='\u{9F}'
        );
        if restricted {
            escape_ascii(&text[start..i], out, datachar);
            // Writing to a `String` cannot fail.
            let _ = write!(out, "&#{};", u32::from(c));
            start = i + c.len_utf8();
        }
    }
    escape_ascii(&text[start..], out, datachar);
}

/// What the second xmltest form writes for a DOCTYPE named `name`: the
/// processing instructions of its subset, then, if it declares notations,
/// a DOCTYPE that lists them sorted by name.
pub(crate) fn write_second_form_doctype(
    name: &str,
    notations: &[Notation],
    processing_instructions: &[(Box<str>, Box<str>)],
    out: &mut String,
) {
    for (target, data) in processing_instructions {
        write_pi(target, data, true, out);
    }
    if notations.is_empty() {
        return;
    }
    let mut sorted: Vec<&Notation> = notations.iter().collect();
    sorted.sort_unstable_by_key(|notation| notation.name());
    out.push_str("<!DOCTYPE ");
    out.push_str(name);
    out.push_str(" [\n");
    for notation in sorted {
        out.push_str("<!NOTATION ");
        out.push_str(notation.name());
        match (notation.public_id(), notation.system_id()) {
            (Some(public_id), system_id) => {
                out.push_str(" PUBLIC ");
                write_literal(public_id, out);
                if let Some(system_id) = system_id {
                    out.push(' ');
                    write_literal(system_id, out);
                }
            }
            (None, system_id) => {
                out.push_str(" SYSTEM ");
                write_literal(system_id.unwrap_or(""), out);
            }
        }
        out.push_str(">\n");
    }
    out.push_str("]>\n");
}

/// A literal in single quotes, or in double quotes if it holds a single
/// quote (it then holds no double quote: it was one literal).
fn write_literal(literal: &str, out: &mut String) {
    let quote = if literal.contains('\'') { '"' } else { '\'' };
    out.push(quote);
    out.push_str(literal);
    out.push(quote);
}
