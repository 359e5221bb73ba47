//! Stage 5 of the pipeline: writing a document (or a subtree) back out.
//!
//! Three promises (docs/serialization.md has the details):
//!
//! * **Lossless.** A document parsed without errors and not edited comes out
//!   byte for byte as it went in: every node that nothing changed is copied
//!   from the source.
//! * **Minimal diff.** After edits, only what was edited is written anew:
//!   an edited start tag keeps the original text of its other attributes and
//!   the spacing between them; untouched subtrees are copied whole.
//! * **Repair.** A document that had parse errors is written fresh, as
//!   well-formed XML 1.0 with namespaces, which parses back to the same tree;
//!   where the tree holds something XML cannot carry (a forbidden character,
//!   `--` in a comment, a name that is not a name, no root element), a
//!   documented rule changes it and the change is reported as a [`Repair`].
//!
//! Namespace declarations are added where the output needs them, so every
//! name resolves to the same namespace when the output is parsed again, also
//! after edits that moved nodes between scopes. Pretty printing changes only
//! whitespace-only text between elements. Canonical forms are in
//! [`canonical`].
//!
//! Nothing here recurses over the tree.

pub mod canonical;
mod repair;

pub use canonical::{canonicalize, write_canonical, CanonicalForm};

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::chars::{is_forbidden_char, is_name};
use crate::dom::{
    is_xml_space, Attribute, Document, Node, NodeKind, NodeType, DIRTY_CHILDREN, DIRTY_SELF,
    XMLNS_NAMESPACE, XML_NAMESPACE,
};
use crate::Span;

/// How to serialize.
///
/// ```
/// use xml5dom::{Document, SerializeOptions};
/// let doc = Document::parse("<a><b>x</b><c/></a>");
/// let out = doc.serialize(&SerializeOptions { pretty: Some(2), ..Default::default() });
/// assert_eq!(out.text, "<a>\n  <b>x</b>\n  <c/>\n</a>\n");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SerializeOptions {
    /// Indent element-only content by this many spaces per level; `None`
    /// writes whitespace as it is in the tree.
    pub pretty: Option<usize>,
    /// The encoding of the output bytes ([`Document::to_bytes`],
    /// [`Document::write_xml`]); the XML declaration is made to say it.
    pub encoding: OutputEncoding,
}

/// The encoding to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputEncoding {
    /// UTF-8.
    #[default]
    Utf8,
    /// The encoding the document was read in (with its byte-order mark, if
    /// it had one): the round trip for non-UTF-8 input.
    Original,
    /// Another encoding; characters it cannot encode become character
    /// references.
    Other(crate::Encoding),
}

impl OutputEncoding {
    fn resolve(self, doc: &Document) -> crate::Encoding {
        match self {
            OutputEncoding::Utf8 => crate::Encoding::UTF_8,
            OutputEncoding::Original => doc.encoding(),
            OutputEncoding::Other(encoding) => encoding,
        }
    }
}

/// Whether a document in `encoding` needs an XML declaration to say so
/// (XML 1.0 §4.3.3: a reader assumes UTF-8 or UTF-16 without one).
fn needs_declaration(encoding: crate::Encoding) -> bool {
    encoding != crate::Encoding::UTF_8 && !encoding.is_utf16()
}

/// The output of [`Document::serialize`]: the text, and what had to change
/// because XML could not carry it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Serialized {
    /// The XML text.
    pub text: String,
    /// The repairs made, in document order.
    pub repairs: Vec<Repair>,
}

/// One change the serializer made because XML cannot carry what the tree
/// holds.
///
/// ```
/// use xml5dom::{Document, RepairKind};
/// let doc = Document::parse("<a><!-- a -- b --></a>");
/// let out = doc.serialize(&Default::default());
/// assert_eq!(out.text, "<a><!-- a - - b --></a>");
/// assert_eq!(out.repairs[0].kind, RepairKind::CommentText);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// What was changed.
    pub kind: RepairKind,
    /// Where the node that needed it came from in the source, if it did.
    pub offset: Option<usize>,
}

/// The kinds of [`Repair`], each a documented rule (docs/serialization.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RepairKind {
    /// A character XML 1.0 cannot carry, even as a reference, became U+FFFD.
    ForbiddenCharacter,
    /// `--` in a comment became `- -`; a final `-` became `- `.
    CommentText,
    /// A name that is not an XML name, or not a valid qualified name, had
    /// its bad characters replaced by `_`.
    InvalidName,
    /// A prefix with no namespace was declared with the placeholder
    /// namespace `urn:xml5dom:undeclared:PREFIX`.
    UndeclaredPrefix,
    /// An attribute that would repeat another (after a name repair) was
    /// dropped.
    DuplicateAttribute,
    /// A processing instruction XML cannot carry (target `xml`, or not a
    /// name) was written as a comment holding its text.
    ProcessingInstructionAsComment,
    /// A document without a root element got an empty `<root/>`.
    MissingRootElement,
    /// A declaration of the internal subset with an error was left out
    /// (the rest of the subset is kept as written).
    DeclarationDropped,
    /// A `&`, `<` or `>` that XML would read as markup was escaped.
    Escaped,
    /// A reference XML does not accept (an entity it does not predefine
    /// and nothing declares, a malformed character reference) was written
    /// as the characters it stood for.
    ReferenceReplaced,
    /// An attribute was written anew: its value quoted, `=""` added, or
    /// its value rewritten.
    AttributeRewritten,
    /// Markup was written anew around what it holds: whitespace added
    /// between attributes, stray characters in a tag left out, an end tag
    /// reduced to its name, a comment's or PI's delimiters mended.
    MarkupRewritten,
    /// An end tag was added where the element now closes.
    EndTagAdded,
    /// Markup the tree leaves out (a stray end tag, a misplaced DOCTYPE,
    /// an element or text after the root, a repeated attribute) was left
    /// out.
    MarkupDropped,
    /// An entity reference was written as the nodes its expansion made,
    /// because the expansion was not well-formed where it stood.
    EntityExpanded,
    /// A comment, CDATA section or PI cut off by the end of the input was
    /// closed.
    Closed,
    /// A DOCTYPE that XML cannot carry (no name, or identifiers it cannot
    /// quote) was left out, or lost its identifiers.
    DoctypeChanged,
    /// The XML declaration's values were made valid (version `1.0`,
    /// encoding `UTF-8`, standalone dropped when invalid).
    XmlDeclarationChanged,
}

impl RepairKind {
    /// A kebab-case name for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            RepairKind::ForbiddenCharacter => "forbidden-character",
            RepairKind::CommentText => "comment-text",
            RepairKind::InvalidName => "invalid-name",
            RepairKind::UndeclaredPrefix => "undeclared-prefix",
            RepairKind::DuplicateAttribute => "duplicate-attribute",
            RepairKind::ProcessingInstructionAsComment => "processing-instruction-as-comment",
            RepairKind::MissingRootElement => "missing-root-element",
            RepairKind::DeclarationDropped => "declaration-dropped",
            RepairKind::Escaped => "escaped",
            RepairKind::ReferenceReplaced => "reference-replaced",
            RepairKind::AttributeRewritten => "attribute-rewritten",
            RepairKind::MarkupRewritten => "markup-rewritten",
            RepairKind::EndTagAdded => "end-tag-added",
            RepairKind::MarkupDropped => "markup-dropped",
            RepairKind::EntityExpanded => "entity-expanded",
            RepairKind::Closed => "closed",
            RepairKind::DoctypeChanged => "doctype-changed",
            RepairKind::XmlDeclarationChanged => "xml-declaration-changed",
        }
    }
}

impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Document {
    /// The document as XML: the source itself where nothing changed, the
    /// edited parts written anew, and repaired XML if the input had errors.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let text = "<?xml version='1.0'?>\n<a  x = 'y'><b/>&amp;<![CDATA[<]]></a >\n";
    /// assert_eq!(Document::parse(text).to_xml(), text);
    /// ```
    pub fn to_xml(&self) -> String {
        self.serialize(&SerializeOptions::default()).text
    }

    /// Serializes with `options`, returning the text and the repairs made,
    /// in source order, each at the offset of the problem it mends.
    ///
    /// ```
    /// use xml5dom::{Document, RepairKind};
    /// let doc = Document::parse("<a x=1>fish & chips");
    /// let out = doc.serialize(&Default::default());
    /// assert_eq!(out.text, "<a x=\"1\">fish &amp; chips</a>");
    /// let repairs: Vec<_> = out.repairs.iter().map(|r| (r.kind, r.offset)).collect();
    /// assert_eq!(repairs, [
    ///     (RepairKind::AttributeRewritten, Some(5)), // quotes around `1`
    ///     (RepairKind::Escaped, Some(12)),           // the `&`
    ///     (RepairKind::EndTagAdded, Some(19)),       // at the end
    /// ]);
    /// ```
    pub fn serialize(&self, options: &SerializeOptions) -> Serialized {
        let mut writer = Writer::new(self, options, self.edited);
        writer.document();
        Serialized {
            text: writer.out,
            repairs: writer.repairs,
        }
    }

    /// Serializes into bytes in the encoding of `options` (with a
    /// byte-order mark for UTF-16, and for the document's own encoding if
    /// the input had one); returns the bytes and the repairs.
    ///
    /// ```
    /// use xml5dom::{Document, OutputEncoding, SerializeOptions};
    /// let input = encoding_rs::SHIFT_JIS.encode("<?xml version='1.0' encoding='Shift_JIS'?><a>\u{65e5}</a>").0;
    /// let doc = Document::parse_bytes(&input);
    /// let same = SerializeOptions { encoding: OutputEncoding::Original, ..Default::default() };
    /// assert_eq!(doc.to_bytes(&same).0, input.to_vec());
    /// let (utf8, _) = doc.to_bytes(&Default::default());
    /// assert_eq!(utf8, "<?xml version='1.0' encoding='UTF-8'?><a>\u{65e5}</a>".as_bytes());
    /// ```
    pub fn to_bytes(&self, options: &SerializeOptions) -> (Vec<u8>, Vec<Repair>) {
        let serialized = self.serialize(options);
        let target = options.encoding.resolve(self);
        // The document's own encoding keeps its byte-order mark or its lack
        // of one; UTF-16 and UTF-32 otherwise need one (XML 1.0 §4.3.3).
        let bom = if target == self.encoding() {
            self.had_byte_order_mark()
        } else {
            target.is_utf16() || target.is_utf32()
        };
        let bytes = target.encode_with_bom(&serialized.text, bom);
        (bytes, serialized.repairs)
    }

    /// Writes [`Document::to_bytes`]'s bytes to `writer`; returns the
    /// repairs.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut out = Vec::new();
    /// Document::parse("<a/>").write_xml(&mut out, &Default::default()).unwrap();
    /// assert_eq!(out, b"<a/>");
    /// ```
    ///
    /// The output is written as it is made, a piece at a time, so that
    /// writing a large document needs little memory beyond the document.
    pub fn write_xml<W: std::io::Write>(
        &self,
        mut writer: W,
        options: &SerializeOptions,
    ) -> std::io::Result<Vec<Repair>> {
        let target = options.encoding.resolve(self);
        let bom = if target == self.encoding() {
            self.had_byte_order_mark()
        } else {
            target.is_utf16() || target.is_utf32()
        };
        let mut encoder = crate::decoding::PieceEncoder::new(target, bom);
        let mut bytes = Vec::new();
        let mut failed = None;
        let mut send = |text: &str, last: bool| {
            if failed.is_some() {
                return;
            }
            if encoder.passes_through() {
                failed = writer.write_all(text.as_bytes()).err();
                return;
            }
            // In pieces, so that a long copied subtree is not encoded whole.
            let mut rest = text;
            while failed.is_none() {
                let mut cut = rest.len().min(PIECE);
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                let (piece, after) = rest.split_at(cut);
                bytes.clear();
                encoder.encode(piece, last && after.is_empty(), &mut bytes);
                failed = writer.write_all(&bytes).err();
                if after.is_empty() {
                    return;
                }
                rest = after;
            }
        };
        let mut serializer = Writer::new(self, options, self.edited);
        serializer.sink = Some(&mut send);
        serializer.document();
        let (rest, repairs) = (std::mem::take(&mut serializer.out), serializer.repairs);
        send(&rest, true);
        match failed {
            Some(error) => Err(error),
            None => Ok(repairs),
        }
    }
}

impl Node<'_> {
    /// The subtree as XML, with the namespace declarations it needs to stand
    /// alone.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<r xmlns:p='urn:p'><p:a x='1'><b/></p:a></r>");
    /// let a = doc.root_element().unwrap().first_child().unwrap();
    /// assert_eq!(a.to_xml(), "<p:a x='1' xmlns:p=\"urn:p\"><b/></p:a>");
    /// ```
    pub fn to_xml(&self) -> String {
        let doc = self.document();
        let mut writer = Writer::new(doc, &SerializeOptions::default(), true);
        writer.without_declarations(*self);
        writer.subtree(*self);
        writer.out
    }

    /// Writes [`Node::to_xml`]'s text to `writer`.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b x='1'/></a>");
    /// let mut out = Vec::new();
    /// doc.root_element().unwrap().first_child().unwrap().write_xml(&mut out).unwrap();
    /// assert_eq!(out, b"<b x='1'/>");
    /// ```
    pub fn write_xml<W: std::io::Write>(&self, mut writer: W) -> std::io::Result<()> {
        let mut failed = None;
        let mut send = |text: &str, _last: bool| {
            if failed.is_none() {
                failed = writer.write_all(text.as_bytes()).err();
            }
        };
        let doc = self.document();
        let mut serializer = Writer::new(doc, &SerializeOptions::default(), true);
        serializer.sink = Some(&mut send);
        serializer.without_declarations(*self);
        serializer.subtree(*self);
        let rest = std::mem::take(&mut serializer.out);
        send(&rest, true);
        failed.map_or(Ok(()), Err)
    }
}

/// Whether repaired output keeps what made undeclared entities warnings
/// (`entity-in-external-subset`): the DOCTYPE's external identifier, or a
/// parameter-entity reference in a kept item of its internal subset.
fn external_declarations_kept(doc: &Document, broken: &repair::Broken<'_>) -> bool {
    let Some(node) = doc
        .root()
        .children()
        .find(|n| n.node_type() == NodeType::Doctype)
    else {
        return false;
    };
    let NodeKind::Doctype(index) = doc.data(node.id().0).kind else {
        return false;
    };
    let fields = &doc.doctypes[index];
    // Read again as written out: a parameter-entity declaration is no
    // reference, and a reference in a dropped declaration is gone.
    let references = fields.subset_span.is_some_and(|subset| {
        let kept = repair::kept_subset(broken, subset, &fields.subset_items, &mut Vec::new());
        crate::dtd::has_parameter_references(&kept)
    });
    let Some(span) = node.span() else {
        return references;
    };
    let head_end = fields.subset_span.map_or(span.end + 1, |s| s.start);
    let copied = broken.within(span.start, head_end).is_empty();
    let system_kept = match (node.public_id(), node.system_id()) {
        (_, None) => false,
        _ if copied => true,
        (_, Some(system)) => quotable(system),
    };
    let name_kept = is_name(node.name()) || fields.subset_span.is_some();
    (system_kept && name_kept) || references
}

/// The offsets of the references in `source` to entities other than the
/// predefined ones (`&name;`), in order.
fn general_references(source: &str) -> Vec<usize> {
    let bytes = source.as_bytes();
    memchr::memchr_iter(b'&', bytes)
        .filter(|&at| {
            let rest = &source[at + 1..];
            let name_len = rest
                .find(|c: char| !crate::chars::is_name_char(c))
                .unwrap_or(rest.len());
            let name = &rest[..name_len];
            !name.is_empty()
                && rest[name_len..].starts_with(';')
                && !crate::chars::is_predefined_entity(name)
        })
        .collect()
}

/// Whether `s` can be quoted: it does not hold both quotes.
fn quotable(s: &str) -> bool {
    !(s.contains('"') && s.contains('\''))
}

/// The placeholder namespace for a prefix that had none.
fn placeholder_namespace(prefix: &str) -> String {
    format!("urn:xml5dom:undeclared:{prefix}")
}

/// How much output the serializer gathers before handing it on.
const PIECE: usize = 1 << 16;

/// Where to cut `text` (at least [`PIECE`] long) to hand on all but its
/// last few characters: the text written next looks back at them (`]]`
/// before `>`, CR before LF).
fn cut_keeping_tail(text: &str) -> usize {
    const KEPT: usize = 8;
    let mut cut = text.len() - KEPT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

/// How many levels of elements pretty printing indents: content deeper
/// than this is written as the tree has it, so that output stays in
/// proportion to the input however deep it nests (xmllint caps its
/// indentation for the same reason; docs/serialization.md).
pub const PRETTY_DEPTH: usize = 64;

/// An element being written whose children follow.
struct Frame {
    /// Its children are element-only and get indented.
    indent_children: bool,
    /// Pretty printing must not touch anything below: `xml:space="preserve"`
    /// is in effect, or the content is mixed.
    untouchable: bool,
    /// Output depth of the element.
    depth: usize,
    /// Length of the namespace binding log before the element.
    bindings: usize,
    /// Whether it wrote any child (for pretty printing).
    wrote_child: bool,
    /// The name its start tag was written with, where a namespace fixup
    /// renamed it: the end tag must match.
    renamed: Option<String>,
    /// Where the source not yet accounted for between its children starts,
    /// while its children are as parsed: content that made no node (an
    /// empty CDATA section, a reference to an empty entity) is copied from
    /// there when the children are written one by one.
    gap_from: Option<usize>,
}

/// Takes a piece of output, and whether it is the last.
type Sink<'s> = dyn FnMut(&str, bool) + 's;

struct Writer<'d> {
    doc: &'d Document,
    /// The output not yet handed to `sink` (all of it, without one).
    out: String,
    /// Where output goes a piece at a time, as it is made, if anywhere.
    sink: Option<&'d mut Sink<'d>>,
    /// Output went to `sink` already.
    sent: bool,
    repairs: Vec<Repair>,
    /// The document is not well-formed: copy only what is well-formed as
    /// written, and repair the rest.
    repair: bool,
    /// Its well-formedness errors, where the source cannot be copied.
    broken: repair::Broken<'d>,
    /// Some attribute-list declaration of the internal subset is dropped:
    /// the attributes its defaults supplied are written.
    attlists_dropped: bool,
    /// Edits happened (or a subtree is written alone): check namespace
    /// scopes before copying source.
    check_scopes: bool,
    pretty: Option<usize>,
    /// The encoding the output will be written in.
    target: crate::Encoding,
    frames: Vec<Frame>,
    /// Namespace bindings in the output: per prefix (`""` for the default), a
    /// stack of URIs (`""` for none), and a log to unwind.
    bindings: HashMap<String, Vec<String>>,
    log: Vec<String>,
    /// Elements whose subtree [`subtree_resolves`](Self::subtree_resolves)
    /// found a name in that does not resolve.
    unresolved: HashSet<crate::NodeId>,
    generated_prefixes: usize,
    /// The name the start tag being written was given by a namespace fixup,
    /// until its end tag uses it.
    renamed: Option<String>,
    /// The whole document is written (not a subtree): entity references
    /// may stand for the nodes their expansion made.
    whole_document: bool,
    /// Where the source refers to entities other than the predefined ones,
    /// if the output has no declarations for them (the DOCTYPE was removed,
    /// or a subtree is written alone): source holding one is not copied,
    /// and its text and values are written as the tree has them.
    references_undeclared: Option<Vec<usize>>,
    /// Where the elements with attributes from `ATTLIST` defaults start in
    /// the source, once `attlists_dropped`: a subtree holding one is not
    /// copied, so that they are written.
    defaults_at: Vec<usize>,
}

impl<'d> Writer<'d> {
    fn new(doc: &'d Document, options: &SerializeOptions, check_scopes: bool) -> Writer<'d> {
        let mut broken = repair::Broken {
            source: doc.source(),
            errors: doc
                .errors
                .iter()
                .filter(|e| e.is_error())
                .map(|e| (e.offset, e.code))
                .collect(),
            dropped: &doc.dropped,
            depth_dropped: &doc.depth_dropped,
            dropped_entities: Vec::new(),
            declared_entities: Vec::new(),
            dependents_dropped: Default::default(),
            unchecked: doc
                .errors
                .iter()
                .filter(|e| {
                    use crate::ErrorCode::*;
                    matches!(
                        e.code,
                        NameLengthLimit | EntityDepthLimit | EntityExpansionLimit | AttributeLimit
                    )
                })
                .map(|e| e.offset)
                .collect(),
        };
        let repair = !broken.errors.is_empty();
        let mut attlists_dropped = false;
        if repair {
            for doctype in &doc.doctypes {
                let items = &doctype.subset_items;
                let names = repair::dropped_entities(&mut broken, items, &doctype.subset_entities);
                broken.dropped_entities.extend(names);
                let declared = doctype.subset_entities.iter().map(|(_, name)| name.clone());
                broken.declared_entities.extend(declared);
                // (A malformed one was skipped, and supplied nothing.)
                attlists_dropped |= items.iter().any(|item| {
                    !broken.kept(*item)
                        && doc.source()[item.range()].starts_with("<!ATTLIST")
                        && !broken
                            .within(item.start, item.end)
                            .iter()
                            .any(|&(_, code)| code == crate::ErrorCode::MalformedDeclaration)
                });
            }
            broken.declared_entities.sort_unstable();
            if !external_declarations_kept(doc, &broken) {
                // An entity an unread DTD might have declared: with no such
                // DTD in the output, the reference is an error there.
                let promoted = doc
                    .errors
                    .iter()
                    .filter(|e| e.code == crate::ErrorCode::EntityInExternalSubset)
                    .map(|e| (e.offset, crate::ErrorCode::UndeclaredEntity));
                broken.errors.extend(promoted);
                broken.errors.sort_by_key(|&(at, _)| at);
            }
        }
        let mut writer = Writer {
            doc,
            out: String::new(),
            sink: None,
            sent: false,
            repairs: Vec::new(),
            repair,
            broken,
            attlists_dropped,
            // Copying from the source of a repaired document checks scopes
            // too: repaired start tags may declare otherwise.
            check_scopes: check_scopes || repair,
            pretty: options.pretty,
            target: options.encoding.resolve(doc),
            frames: Vec::new(),
            bindings: HashMap::new(),
            log: Vec::new(),
            unresolved: Default::default(),
            generated_prefixes: 0,
            renamed: None,
            whole_document: false,
            references_undeclared: None,
            defaults_at: Vec::new(),
        };
        if writer.attlists_dropped {
            writer.note_defaults(doc.root());
        }
        writer
    }

    /// Writes the whole document.
    fn document(&mut self) {
        let doc = self.doc;
        self.whole_document = true;
        if !doc
            .root()
            .children()
            .any(|n| n.node_type() == NodeType::Doctype)
        {
            self.without_declarations(doc.root());
        }
        self.report_dropped_markup();
        self.subtree(doc.root());
        // In source order (repairs of created nodes, without an offset, last).
        self.repairs.sort_by_key(|r| r.offset.unwrap_or(usize::MAX));
    }

    /// Hands the output so far to the sink once there is enough of it,
    /// keeping its last few characters: the next text looks back at them
    /// (`]]` before `>`, CR before LF).
    fn send_some(&mut self) {
        if self.out.len() < PIECE {
            return;
        }
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        let cut = cut_keeping_tail(&self.out);
        sink(&self.out[..cut], false);
        self.out.drain(..cut);
        self.sent = true;
    }

    /// Writes `span` of the source as it is: a long one (a whole unedited
    /// subtree) straight to the sink, not through `out`.
    fn push_source(&mut self, span: Span) {
        let text = &self.doc.source()[span.range()];
        let Some(sink) = self.sink.as_mut().filter(|_| text.len() >= PIECE) else {
            self.out.push_str(text);
            return;
        };
        sink(&self.out, false);
        self.out.clear();
        let cut = cut_keeping_tail(text);
        sink(&text[..cut], false);
        self.out.push_str(&text[cut..]);
        self.sent = true;
    }

    /// Nothing has been written yet.
    fn wrote_nothing(&self) -> bool {
        !self.sent && self.out.is_empty()
    }

    /// Fills [`defaults_at`](Self::defaults_at) for what is written: `scope`.
    fn note_defaults(&mut self, scope: Node<'_>) {
        let mut at: Vec<usize> = std::iter::once(scope)
            .chain(scope.descendants())
            .filter(|n| n.attributes().any(|a| a.is_defaulted()))
            .filter_map(|n| self.doc.data(n.id().0).span())
            .map(|span| span.start)
            .collect();
        at.sort_unstable();
        self.defaults_at = at;
    }

    /// The output, `scope` written out, has no DOCTYPE to declare the
    /// source's entities or supply its attribute defaults. (Only the
    /// source and nodes of `scope` are looked through, so that writing a
    /// small subtree stays in proportion to it.)
    fn without_declarations(&mut self, scope: Node<'_>) {
        if self.doc.doctypes.is_empty() {
            return;
        }
        if !self.attlists_dropped {
            self.attlists_dropped = true;
            self.note_defaults(scope);
        }
        // An edited or created node may hold parsed ones from anywhere.
        let data = self.doc.data(scope.id().0);
        let span = data
            .span()
            .filter(|_| data.dirty == 0)
            .unwrap_or(Span::new(0, self.source().len()));
        let mut at = general_references(&self.source()[span.range()]);
        for offset in &mut at {
            *offset += span.start;
        }
        self.references_undeclared = Some(at);
    }

    /// Whether the source `start..end` refers to an entity the output
    /// does not declare.
    fn refers_to_undeclared(&self, start: usize, end: usize) -> bool {
        self.references_undeclared.as_ref().is_some_and(|at| {
            let from = at.partition_point(|&o| o < start);
            at.get(from).is_some_and(|&o| o < end)
        })
    }

    fn source(&self) -> &'d str {
        self.doc.source()
    }

    /// Reports a repair of `node`, at the first error in its source (where
    /// `check` shows the problem), or at its start.
    fn report(&mut self, kind: RepairKind, node: Node<'_>) {
        let offset = node.span().map(|span| {
            self.broken
                .within(span.start, span.end)
                .first()
                .map_or(span.start, |&(at, _)| at)
        });
        self.repairs.push(Repair { kind, offset });
    }

    fn report_at(&mut self, kind: RepairKind, offset: usize) {
        self.repairs.push(Repair {
            kind,
            offset: Some(offset),
        });
    }

    /// Reports what the parse left out of the tree (the output leaves it
    /// out too): stray end tags, misplaced DOCTYPEs, elements and text
    /// after the root.
    fn report_dropped_markup(&mut self) {
        use crate::ErrorCode::*;
        let dropped: Vec<usize> = self
            .broken
            .errors
            .iter()
            .filter(|(_, code)| {
                matches!(
                    code,
                    StrayEndTag
                        | EndTagOutsideRootElement
                        | ElementAfterRootElement
                        | MisplacedDoctype
                        | TextOutsideRootElement
                )
            })
            .map(|&(at, _)| at)
            .collect();
        for at in dropped {
            self.report_at(RepairKind::MarkupDropped, at);
        }
    }

    /// Copies `span` of the source, mending what its errors point at; on
    /// `Err`, nothing was written.
    fn copy_repaired(
        &mut self,
        span: Span,
        context: repair::Context,
    ) -> Result<(), repair::Fallback> {
        let mut made = Vec::new();
        let mark = self.out.len();
        let result = repair::copy_repaired(&self.broken, span, context, &mut self.out, &mut made);
        if result.is_err() {
            self.out.truncate(mark);
            return result;
        }
        for (kind, at) in made {
            if kind != RepairKind::MarkupDropped {
                self.report_at(kind, at);
            }
        }
        Ok(())
    }

    // ----- Namespace bindings of the output ------------------------------

    fn lookup(&self, prefix: &str) -> &str {
        match prefix {
            "xml" => XML_NAMESPACE,
            "xmlns" => XMLNS_NAMESPACE,
            _ => self
                .bindings
                .get(prefix)
                .and_then(|stack| stack.last())
                .map_or("", String::as_str),
        }
    }

    fn bind(&mut self, prefix: &str, uri: &str) {
        self.bindings
            .entry(prefix.to_owned())
            .or_default()
            .push(uri.to_owned());
        self.log.push(prefix.to_owned());
    }

    fn unwind(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some(prefix) = self.log.pop() {
                if let Some(stack) = self.bindings.get_mut(&prefix) {
                    stack.pop();
                }
            }
        }
    }

    /// Binds the namespace declarations among an element's attributes (but
    /// `xmlns:p=""`, which Namespaces 1.0 cannot write: it is written under
    /// another name).
    fn bind_declarations(&mut self, element: Node<'_>) {
        for attribute in element.attributes() {
            if let Some(prefix) = attribute.declared_prefix() {
                if !undeclares_prefix(attribute) {
                    self.bind(prefix.unwrap_or(""), attribute.value());
                }
            }
        }
    }

    /// Whether an element's own names resolve in the output as in the tree,
    /// given the bindings in effect (its own declarations included).
    fn names_resolve(&self, element: Node<'_>) -> bool {
        let element_ok = match element.namespace() {
            Some(uri) => self.lookup(element.prefix().unwrap_or("")) == uri,
            None => element.prefix().is_none() && self.lookup("").is_empty(),
        };
        element_ok
            && element.attributes().all(|a| {
                if a.declared_prefix().is_some() {
                    return true;
                }
                match (a.prefix(), a.namespace()) {
                    (Some(prefix), Some(uri)) => self.lookup(prefix) == uri,
                    (None, None) => true,
                    _ => false,
                }
            })
    }

    /// Whether a clean subtree can be copied from the source as it is: every
    /// name in it resolves in the output as in the tree.
    fn subtree_resolves(&mut self, root: Node<'_>) -> bool {
        if !self.check_scopes {
            return true;
        }
        if self.unresolved.contains(&root.id()) {
            return false;
        }
        let mark = self.log.len();
        let mut marks = Vec::new();
        let mut ok = true;
        for edge in root.traverse() {
            match edge {
                crate::Edge::Open(node) if node.is_element() => {
                    marks.push(self.log.len());
                    self.bind_declarations(node);
                    if !self.names_resolve(node) {
                        ok = false;
                        // The elements from `root` down to this one fail
                        // too when the walk asks, one level further down
                        // each time: it knows without looking again (so a
                        // deep subtree is looked through once, not once per
                        // level). Their scopes in the output are the ones
                        // looked at here, since each of them resolved.
                        let mut on_path = Some(node);
                        while let Some(element) = on_path {
                            self.unresolved.insert(element.id());
                            on_path = element.parent().filter(|_| element != root);
                        }
                        break;
                    }
                }
                crate::Edge::Close(node) if node.is_element() => {
                    if let Some(m) = marks.pop() {
                        self.unwind(m);
                    }
                }
                _ => {}
            }
        }
        self.unwind(mark);
        ok
    }

    // ----- The walk ------------------------------------------------------

    /// Writes `start` and everything below it, without recursion.
    fn subtree(&mut self, start: Node<'d>) {
        let mut node = start;
        'walk: loop {
            self.send_some();
            if self.skipped(node) {
                // A whitespace-only text that pretty printing replaces.
                self.gap_before(node);
            } else {
                self.gap_before(node);
                self.before_child();
                if let Some(last) = self.entity_reference(node) {
                    // The reference stands for the nodes up to `last`.
                    node = last;
                } else if self.open(node) {
                    if let Some(child) = node.first_child() {
                        node = child;
                        continue 'walk;
                    }
                    self.close(node);
                }
            }
            loop {
                if node == start {
                    return;
                }
                if let Some(next) = node.next_sibling() {
                    node = next;
                    continue 'walk;
                }
                match node.parent() {
                    Some(parent) => {
                        node = parent;
                        self.close(node);
                        self.send_some();
                    }
                    None => return,
                }
            }
        }
    }

    /// A whitespace-only text node in content that is being indented.
    fn skipped(&self, node: Node<'_>) -> bool {
        node.is_text()
            && self.frames.last().is_some_and(|f| f.indent_children)
            && node.text().is_some_and(|t| t.chars().all(is_xml_space))
    }

    /// Pretty printing: a line break and indentation before a child of
    /// indented content (none before the very first output).
    fn before_child(&mut self) {
        let Some(width) = self.pretty else { return };
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if !frame.indent_children {
            return;
        }
        frame.wrote_child = true;
        let depth = frame.depth;
        if !self.wrote_nothing() {
            self.out.push('\n');
            push_indent(&mut self.out, width * depth);
        }
    }

    /// Writes a node, or the start of an element whose children follow
    /// (then returns `true`).
    fn open(&mut self, node: Node<'d>) -> bool {
        match node.node_type() {
            NodeType::Document => {
                self.declaration();
                self.frames.push(Frame {
                    indent_children: self.pretty.is_some(),
                    untouchable: false,
                    depth: 0,
                    bindings: self.log.len(),
                    wrote_child: false,
                    renamed: None,
                    // Outside the root, content that made no node is not
                    // XML (an empty CDATA section there): never copied.
                    gap_from: None,
                });
                true
            }
            NodeType::Element => self.element(node),
            NodeType::Text => {
                self.text(node);
                false
            }
            NodeType::Comment => {
                self.comment(node);
                false
            }
            NodeType::ProcessingInstruction => {
                self.processing_instruction(node);
                false
            }
            NodeType::Doctype => {
                self.doctype(node);
                false
            }
        }
    }

    fn close(&mut self, node: Node<'d>) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if node.is_document() {
            if self.repair && self.doc.root_element().is_none() {
                self.report(RepairKind::MissingRootElement, node);
                if self.pretty.is_some() && !self.wrote_nothing() {
                    self.out.push('\n');
                }
                self.out.push_str("<root/>");
            }
            if self.pretty.is_some() && !self.wrote_nothing() && !self.out.ends_with('\n') {
                self.out.push('\n');
            }
            return;
        }
        if let Some(width) = self.pretty {
            if frame.indent_children && frame.wrote_child {
                self.out.push('\n');
                push_indent(&mut self.out, width * (frame.depth - 1));
            }
        }
        if let (Some(from), Some(to)) = (frame.gap_from, self.content_end(node)) {
            self.copy_gap(from, to);
        }
        self.renamed = frame.renamed;
        self.end_tag(node);
        self.unwind(frame.bindings);
    }

    /// The source of a node that nothing changed and that is well-formed as
    /// written (and, for an element, closed by its own end tag or written
    /// as an empty-element tag): it is copied whole.
    fn verbatim(&self, node: Node<'_>) -> Option<Span> {
        let data = self.doc.data(node.id().0);
        if data.dirty != 0 {
            return None;
        }
        let span = self.source_span(node)?;
        let text = matches!(data.kind, NodeKind::Text { .. });
        if text && self.broken.drops_within(span) {
            // Markup the tree left out (past a limit) inside the text.
            return None;
        }
        if self.refers_to_undeclared(span.start, span.end) {
            return None;
        }
        let from = self.defaults_at.partition_point(|&o| o < span.start);
        if self.defaults_at.get(from).is_some_and(|&o| o < span.end) {
            return None; // attributes to write that the source does not hold
        }
        if !self.repair {
            return Some(span);
        }
        // A `<` that starts no tag is reported at the character after it,
        // which may be the next node's first.
        let end = span.end + usize::from(text);
        if !self.broken.clean(span.start, end) {
            return None;
        }
        match data.kind {
            NodeKind::Element { tag_end, .. }
                if data.end_tag().is_none()
                    && !(tag_end == span.end && self.source()[..tag_end].ends_with("/>")) =>
            {
                None
            }
            _ => Some(span),
        }
    }

    /// The node's own source, if the output may use it: not for a node an
    /// entity's expansion made (its span is the reference's).
    fn source_span(&self, node: Node<'_>) -> Option<Span> {
        let data = self.doc.data(node.id().0);
        if data.expansion != 0 {
            return None;
        }
        data.span()
    }

    /// Whether `start..end` of the source may be copied as it is.
    fn clean(&self, start: usize, end: usize) -> bool {
        (!self.repair || self.broken.clean(start, end)) && !self.refers_to_undeclared(start, end)
    }

    /// The source `start..end` of a DOCTYPE with forbidden characters
    /// replaced, if those are its only errors.
    fn characters_replaced(&self, node: Node<'_>, start: usize, end: usize) -> Option<String> {
        if !self.repair {
            return Some(self.source().get(start..end)?.to_owned());
        }
        let name = self.mended_doctype_name(node);
        let name = name.as_ref().map(|(span, name)| (*span, name.as_str()));
        self.broken.with_characters_replaced(start, end, name)
    }

    /// Where a DOCTYPE's name that is not a name is written, and the name
    /// it becomes.
    fn mended_doctype_name(&self, node: Node<'_>) -> Option<(Span, String)> {
        let name = node.name();
        if name.is_empty() || is_name(name) {
            return None;
        }
        let span = self.source_span(node)?;
        let raw = self.source().get(span.range())?;
        let after = raw
            .get("<!DOCTYPE".len()..)?
            .trim_start_matches([' ', '\t', '\n', '\r']);
        let start = span.start + raw.len() - after.len();
        let written = after.get(..name.len())?;
        let next = after[name.len()..].chars().next();
        let ends = matches!(next, Some(' ' | '\t' | '\n' | '\r' | '>' | '['));
        (ends && written.eq_ignore_ascii_case(name)).then(|| {
            (
                Span::new(start, start + name.len()),
                repaired_qname(written),
            )
        })
    }

    /// Reports what [`characters_replaced`](Self::characters_replaced)
    /// changed in a DOCTYPE's `start..end`, written as `text`.
    fn report_doctype_characters(&mut self, node: Node<'_>, start: usize, end: usize, text: &str) {
        if !self.repair || text == &self.source()[start..end] {
            return;
        }
        if self.broken.public_identifier_broken(start, end) {
            self.report(RepairKind::DoctypeChanged, node);
        }
        if let Some((span, _)) = self.mended_doctype_name(node) {
            if (start..end).contains(&span.start) {
                self.report_at(RepairKind::InvalidName, span.start);
            }
        }
        let replacements = |s: &str| s.matches('\u{FFFD}').count();
        if replacements(text) > replacements(&self.source()[start..end]) {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
    }

    /// At the first node an entity reference's expansion made: if those
    /// nodes are all still there, in order and as parsed, writes the
    /// reference as it was in the source and returns the last of them.
    fn entity_reference(&mut self, node: Node<'d>) -> Option<Node<'d>> {
        if !self.whole_document || self.references_undeclared.is_some() {
            // A subtree written alone, or a document without the entity's
            // declaration, is written as nodes.
            return None;
        }
        let mark = self.doc.data(node.id().0).expansion;
        if mark == 0 {
            return None;
        }
        if node
            .parent()
            .is_some_and(|p| self.doc.data(p.id().0).expansion == mark)
        {
            return None; // inside the expansion, not at its level
        }
        let record = self.doc.entity_expansions.get(mark as usize - 1)?;
        if record.first != Some(node.id().0) {
            return None;
        }
        let reference = record.reference;
        // Errors inside the replacement text are reported at the reference:
        // then its nodes are written, repaired.
        let declaration_dropped = self.broken.dropped_entities.contains(&record.name);
        if !record.balanced || !self.clean(reference.start, reference.end) || declaration_dropped {
            if self.repair {
                self.report(RepairKind::EntityExpanded, node);
            }
            return None;
        }
        if !node.parent().is_some_and(|p| p.is_element()) {
            return None; // moved out of content, where no reference can stand
        }
        let mut last = node;
        let mut current = Some(node);
        for _ in 0..record.count {
            let here = current?;
            let data = self.doc.data(here.id().0);
            if data.expansion != mark || data.dirty != 0 {
                return None;
            }
            last = here;
            current = here.next_sibling();
        }
        if self.check_scopes {
            // Nodes that moved need their names declared anew.
            let mut node = Some(node);
            while let Some(here) = node {
                if !self.subtree_resolves(here) {
                    return None;
                }
                if here == last {
                    break;
                }
                node = here.next_sibling();
            }
        }
        self.out.push_str(&self.source()[reference.range()]);
        Some(last)
    }

    // ----- Document level ------------------------------------------------

    fn declaration(&mut self) {
        // A byte-order mark in the text goes back out as it came in.
        if self.source().starts_with('\u{FEFF}') {
            self.out.push('\u{FEFF}');
        }
        let target = self.target;
        let Some(declaration) = self.doc.xml_declaration() else {
            // Without a declaration a reader assumes UTF-8 or UTF-16 (or
            // what it detects, as for UTF-32); a document written back in
            // the encoding it was read in stays as it was.
            if needs_declaration(target) && target != self.doc.encoding() {
                self.out.push_str("<?xml version=\"1.0\" encoding=\"");
                self.out.push_str(target.declared_name());
                self.out.push_str("\"?>");
            }
            return;
        };
        if self.clean(declaration.span.start, declaration.span.end) {
            let span = declaration.span;
            let text = &self.source()[span.range()];
            self.out.push_str(&declaration_for(
                text,
                declaration.encoding.as_deref(),
                target,
                target == self.doc.encoding(),
            ));
            return;
        }
        let version_ok = declaration.version.as_deref().is_some_and(|v| {
            v.strip_prefix("1.")
                .is_some_and(|m| !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit()))
        });
        let version = if version_ok {
            declaration.version.as_deref().unwrap_or("1.0")
        } else {
            "1.0"
        };
        let standalone = declaration
            .standalone
            .as_deref()
            .filter(|s| *s == "yes" || *s == "no");
        let encoding_changed = declaration
            .encoding
            .as_deref()
            .is_some_and(|e| crate::Encoding::for_label(e).is_none());
        if !version_ok
            || encoding_changed
            || standalone.is_none() != declaration.standalone.is_none()
        {
            self.repairs.push(Repair {
                kind: RepairKind::XmlDeclarationChanged,
                offset: Some(declaration.span.start),
            });
        }
        self.out.push_str("<?xml version=\"");
        self.out.push_str(version);
        self.out.push('"');
        if declaration.encoding.is_some() || needs_declaration(target) {
            self.out.push_str(" encoding=\"");
            self.out.push_str(target.declared_name());
            self.out.push('"');
        }
        if let Some(standalone) = standalone {
            self.out.push_str(" standalone=\"");
            self.out.push_str(standalone);
            self.out.push('"');
        }
        self.out.push_str("?>");
    }

    fn doctype(&mut self, node: Node<'_>) {
        let data = self.doc.data(node.id().0);
        let NodeKind::Doctype(index) = data.kind else {
            return;
        };
        let fields = &self.doc.doctypes[index];
        let subset = fields.subset_span;
        if let (Some(span), None, 0) = (self.source_span(node), subset, data.dirty) {
            // As written, or with only a forbidden character replaced.
            if let Some(text) = self.characters_replaced(node, span.start, span.end) {
                self.report_doctype_characters(node, span.start, span.end, &text);
                self.out.push_str(&text);
                return;
            }
        }
        // The internal subset as written, less its broken declarations.
        let kept_subset = match (self.source_span(node), subset) {
            (Some(_), Some(subset)) if self.repair => {
                let mut made = Vec::new();
                let text =
                    repair::kept_subset(&self.broken, subset, &fields.subset_items, &mut made);
                for (kind, at) in made {
                    self.report_at(kind, at);
                }
                Some(text)
            }
            (Some(_), Some(subset)) => Some(self.source()[subset.range()].to_owned()),
            _ => None,
        };
        // The part before the subset, if it is well-formed as written.
        if let (Some(span), Some(subset), Some(kept)) =
            (self.source_span(node), subset, &kept_subset)
        {
            let head = match data.dirty {
                0 => self.characters_replaced(node, span.start, subset.start),
                _ => None,
            };
            if let Some(head) = head {
                self.report_doctype_characters(node, span.start, subset.start, &head);
                let source = self.source();
                self.out.push_str(&head);
                self.out.push_str(kept);
                let tail = &source[subset.end..span.end];
                if self
                    .characters_replaced(node, subset.end, span.end)
                    .as_deref()
                    == Some(tail)
                    && tail.starts_with(']')
                    && tail.ends_with('>')
                {
                    self.out.push_str(tail);
                } else {
                    self.report(RepairKind::Closed, node);
                    self.out.push_str("]>");
                }
                return;
            }
        }
        // Stray characters after the identifiers (`"x.dtd"<>`): the header
        // up to its last identifier is copied, the rest written anew.
        if let (Some(span), 0) = (self.source_span(node), data.dirty) {
            let head_end = subset.map_or(span.end, |subset| subset.start);
            let end = self.doctype_identifiers_end(node, span.start, head_end);
            if let Some(end) = end.filter(|&end| self.clean(span.start, end)) {
                self.report(RepairKind::MarkupRewritten, node);
                let source = self.source();
                self.out.push_str(&source[span.start..end]);
                if let Some(kept) = kept_subset {
                    self.out.push_str(" [");
                    self.out.push_str(&kept);
                    self.out.push(']');
                }
                self.out.push('>');
                return;
            }
        }
        let reported = self.repairs.len();
        let mut name = self.doctype_name(node);
        if !is_name(&name) {
            // Without a subset, a DOCTYPE without a valid name says nothing
            // XML needs; with one, it keeps its declarations under a name.
            self.report(RepairKind::DoctypeChanged, node);
            if kept_subset.is_none() {
                return;
            }
            name = match self.doc.root_element() {
                Some(root) if name.is_empty() => repaired_qname(root.name()),
                _ => repaired_name(&name),
            };
        }
        self.out.push_str("<!DOCTYPE ");
        self.out.push_str(&name);
        match (node.public_id(), node.system_id()) {
            (Some(public), Some(system)) if quotable(system) => {
                self.out.push_str(" PUBLIC ");
                if public.chars().all(crate::chars::is_pubid_char) {
                    push_quoted(&mut self.out, public);
                } else {
                    // Characters outside `PubidChar` left out, whitespace
                    // a space.
                    self.report(RepairKind::DoctypeChanged, node);
                    let public: String = public
                        .chars()
                        .filter_map(|c| match c {
                            _ if crate::chars::is_pubid_char(c) => Some(c),
                            _ if c.is_whitespace() => Some(' '),
                            _ => None,
                        })
                        .collect();
                    push_quoted(&mut self.out, &public);
                }
                self.out.push(' ');
                let mut forbidden = false;
                let system = replace_forbidden(system, &mut forbidden);
                if forbidden {
                    self.report(RepairKind::ForbiddenCharacter, node);
                }
                push_quoted(&mut self.out, &system);
            }
            (None, Some(system)) if quotable(system) => {
                self.out.push_str(" SYSTEM ");
                let mut forbidden = false;
                let system = replace_forbidden(system, &mut forbidden);
                if forbidden {
                    self.report(RepairKind::ForbiddenCharacter, node);
                }
                push_quoted(&mut self.out, &system);
            }
            (None, None) => {}
            _ => self.report(RepairKind::DoctypeChanged, node),
        }
        if let Some(kept) = kept_subset {
            self.out.push_str(" [");
            self.out.push_str(&kept);
            self.out.push(']');
        }
        self.out.push('>');
        // Written anew from the tree, which left out what XML5's recovery
        // skipped (`<!DOCTYPE a PUB&LIC "...">` keeps no identifiers).
        if let (Some(span), 0) = (self.source_span(node), data.dirty) {
            let head_end = subset.map_or(span.end, |subset| subset.start);
            if self.repairs.len() == reported && !self.clean(span.start, head_end) {
                self.report(RepairKind::DoctypeChanged, node);
            }
        }
    }

    /// Where a DOCTYPE's last identifier (or, without one, its name) ends
    /// in its header `start..end`, if the tree holds it as written there.
    fn doctype_identifiers_end(&self, node: Node<'_>, start: usize, end: usize) -> Option<usize> {
        let head = self.source().get(start..end)?;
        match node.system_id().or(node.public_id()) {
            Some(last) => ['"', '\'']
                .iter()
                .filter_map(|&quote| {
                    let quoted = format!("{quote}{last}{quote}");
                    head.rfind(&quoted).map(|at| start + at + quoted.len())
                })
                .max(),
            None => {
                let name = self.doctype_name(node);
                let rest = head.strip_prefix("<!DOCTYPE")?;
                let after_space = rest.trim_start_matches([' ', '\t', '\n', '\r']);
                let spaced = after_space.len() < rest.len();
                (spaced && is_name(&name) && after_space.starts_with(&*name))
                    .then(|| end - after_space.len() + name.len())
            }
        }
    }

    /// A DOCTYPE's name as written: the tree holds it lowercased (as XML5
    /// says), the source as the author wrote it, which the root element's
    /// name usually repeats.
    fn doctype_name(&self, node: Node<'_>) -> String {
        let name = node.name();
        if let Some(span) = self.source_span(node) {
            let raw = self.source()[span.range()]
                .get("<!DOCTYPE".len()..)
                .unwrap_or_default()
                .trim_start_matches([' ', '\t', '\n', '\r', '\u{C}']);
            let written = raw.get(..name.len()).unwrap_or_default();
            if written.eq_ignore_ascii_case(name) && is_name(written) {
                return written.to_owned();
            }
        }
        name.to_owned()
    }

    // ----- Elements ------------------------------------------------------

    fn element(&mut self, node: Node<'d>) -> bool {
        let parent = self.frames.last();
        let parent_untouchable = parent.is_some_and(|f| f.untouchable);
        let depth = parent.map_or(1, |f| f.depth + 1);
        let preserve = node.attribute_ns(XML_NAMESPACE, "space") == Some("preserve");
        let element_only = element_only(node);
        let untouchable = self.pretty.is_none()
            || parent_untouchable
            || preserve
            || !element_only
            || depth > PRETTY_DEPTH;
        let indent_children = !untouchable;

        // A subtree nothing changed, and that pretty printing leaves alone:
        // copy it.
        if let Some(span) = self.verbatim(node) {
            if !indent_children && self.subtree_resolves(node) {
                self.push_source(span);
                return false;
            }
        }

        let bindings = self.log.len();
        self.bind_declarations(node);
        let has_children = node.has_children();
        self.start_tag(node, has_children);
        if !has_children {
            self.renamed = None;
            self.unwind(bindings);
            return false;
        }
        let renamed = self.renamed.take();
        let data = self.doc.data(node.id().0);
        let gap_from = match (data.kind_tag_end(), data.dirty & DIRTY_CHILDREN) {
            (Some(tag_end), 0) if self.source_span(node).is_some() => Some(tag_end),
            _ => None,
        };
        self.frames.push(Frame {
            indent_children,
            untouchable,
            depth,
            bindings,
            wrote_child: false,
            renamed,
            gap_from,
        });
        true
    }

    /// Before a child of an element written child by child: the source
    /// between the previous child (or the start tag) and this one, which
    /// holds content that made no node, or nothing.
    fn gap_before(&mut self, node: Node<'_>) {
        let Some(from) = self.frames.last().and_then(|f| f.gap_from) else {
            return;
        };
        // Nodes an expansion made carry the reference's span.
        let next = match self.doc.data(node.id().0).span() {
            Some(span) if span.start >= from => {
                self.copy_gap(from, span.start);
                Some(span.end)
            }
            Some(span) => Some(from.max(span.end)),
            None => None,
        };
        if let Some(frame) = self.frames.last_mut() {
            frame.gap_from = next;
        }
    }

    /// Copies the source `from..to` between nodes, mended like text and
    /// without what the parse dropped; nothing if it cannot be mended.
    fn copy_gap(&mut self, from: usize, to: usize) {
        // (A reference to an entity the output does not declare made no
        // node: it stands for nothing.)
        if from < to && !self.refers_to_undeclared(from, to) {
            let _ = self.copy_repaired(Span::new(from, to), repair::Context::Text);
        }
    }

    /// The content of an element without children, as parsed: what made no
    /// node (`<a><![CDATA[]]></a>`).
    fn empty_content(&mut self, node: Node<'_>) {
        let data = self.doc.data(node.id().0);
        if let (Some(from), Some(to), 0) = (
            data.kind_tag_end().filter(|_| data.expansion == 0),
            self.content_end(node),
            data.dirty & DIRTY_CHILDREN,
        ) {
            self.copy_gap(from, to);
        }
    }

    /// Where the content of an element ends in the source: its end tag, or
    /// where it was closed.
    fn content_end(&self, node: Node<'_>) -> Option<usize> {
        let data = self.doc.data(node.id().0);
        let span = self.source_span(node)?;
        Some(data.end_tag().map_or(span.end, |end| end.start))
    }

    /// Writes an element's start tag (as an empty-element tag if it has no
    /// children and was written that way, or is new).
    fn start_tag(&mut self, node: Node<'d>, has_children: bool) {
        let data = self.doc.data(node.id().0);
        let NodeKind::Element { tag_end, .. } = data.kind else {
            return;
        };
        let source_tag = self.source_span(node);
        let fixup = self.fixup(node);
        self.renamed = fixup.element_name.clone();
        let defaults_to_write = node
            .attributes()
            .any(|a| a.is_defaulted() && !self.default_only(node, a));
        match source_tag {
            Some(span)
                if data.dirty & DIRTY_SELF == 0
                    && fixup.renames_nothing()
                    && self.clean(span.start, tag_end)
                    && !defaults_to_write =>
            {
                // The original start tag, with declarations added before its
                // end, and turned from `<a/>` into `<a>` if it gained
                // children.
                let tag = &self.source()[span.start..tag_end];
                let self_closing = tag.ends_with("/>");
                let body = if self_closing {
                    &tag[..tag.len() - 2]
                } else {
                    &tag[..tag.len() - 1]
                };
                self.out.push_str(body);
                self.push_declarations(&fixup.declarations);
                if self_closing && !has_children {
                    self.out.push_str("/>");
                } else {
                    self.out.push('>');
                    if !has_children {
                        self.empty_content(node);
                        self.end_tag(node);
                    }
                }
            }
            Some(span) => self.patched_start_tag(node, span, tag_end, has_children, &fixup),
            None => self.fresh_start_tag(node, has_children, &fixup),
        }
    }

    /// What an element needs in the output beyond its own markup: namespace
    /// declarations, and new prefixes where its own declarations are in the
    /// way or a namespaced attribute has none. Binds as it goes.
    fn fixup(&mut self, node: Node<'_>) -> Fixup {
        let mut fixup = Fixup::default();
        // Prefixes the element's own declarations bind: those cannot be
        // bound again on it.
        let own: HashSet<String> = node
            .attributes()
            .filter(|&a| !undeclares_prefix(a))
            .filter_map(|a| a.declared_prefix().map(|p| p.unwrap_or("").to_owned()))
            .collect();

        // The element's name as it will be written (repaired if it must be):
        // its prefix is what needs a binding.
        let written = written_element_name(node.name(), node.prefix().is_some());
        let (written_prefix, written_local) = match crate::dom::qname_colon(&written) {
            Some(colon) => (Some(&written[..colon]), &written[colon + 1..]),
            None => (None, written.as_str()),
        };
        let renamed = written != node.name();
        match (written_prefix, node.namespace()) {
            (prefix, Some(uri)) => {
                if let Some(new) = self.need(&mut fixup, &own, prefix.unwrap_or(""), uri) {
                    fixup.element_name = Some(format!("{new}:{written_local}"));
                }
            }
            // A name repaired into one without a prefix (`n:`, `xmlns:a`)
            // takes the default namespace in scope (reported as a repair
            // that changes the tree).
            (None, None) if renamed => {}
            (None, None) => {
                self.need(&mut fixup, &own, "", "");
            }
            (Some(prefix), None) => {
                // (Bound to something else in the output, after an
                // `xmlns:p=""` written under another name.)
                let uri = placeholder_namespace(prefix);
                if self.lookup(prefix) != uri {
                    self.report(RepairKind::UndeclaredPrefix, node);
                    if let Some(new) = self.need(&mut fixup, &own, prefix, &uri) {
                        fixup.element_name = Some(format!("{new}:{written_local}"));
                    }
                }
            }
        }
        for (index, attribute) in node.attributes().enumerate() {
            if attribute.declared_prefix().is_some() || forbidden_declaration(attribute.name()) {
                continue; // a declaration, or written under another name
            }
            let prefix = attribute.prefix().map(repaired_name);
            match (prefix, attribute.namespace()) {
                (Some(prefix), Some(uri)) => {
                    if let Some(new) = self.need(&mut fixup, &own, &prefix, uri) {
                        fixup
                            .attribute_names
                            .push((index, format!("{new}:{}", attribute.local_name())));
                    }
                }
                (None, Some(uri)) => {
                    // A namespaced attribute needs a prefix.
                    let new = self.fresh_prefix(&own);
                    self.bind(&new, uri);
                    fixup.declare(&new, uri);
                    fixup
                        .attribute_names
                        .push((index, format!("{new}:{}", attribute.local_name())));
                }
                (Some(prefix), None) => {
                    let uri = placeholder_namespace(&prefix);
                    if self.lookup(&prefix) != uri {
                        self.report(RepairKind::UndeclaredPrefix, node);
                        if let Some(new) = self.need(&mut fixup, &own, &prefix, &uri) {
                            let local = repaired_name(attribute.local_name());
                            fixup
                                .attribute_names
                                .push((index, format!("{new}:{local}")));
                        }
                    }
                }
                (None, None) => {}
            }
        }
        fixup
    }

    /// Makes `prefix` mean `uri` in the output: nothing if it already does,
    /// a declaration if it can be added, or a new prefix (returned) if the
    /// element's own declarations bind it otherwise.
    fn need(
        &mut self,
        fixup: &mut Fixup,
        own: &HashSet<String>,
        prefix: &str,
        uri: &str,
    ) -> Option<String> {
        if prefix == "xml" || self.lookup(prefix) == uri {
            return None;
        }
        let taken = own.contains(prefix) || fixup.declared.contains(prefix);
        if !taken {
            self.bind(prefix, uri);
            fixup.declare(prefix, uri);
            return None;
        }
        let new = self.fresh_prefix(own);
        self.bind(&new, uri);
        fixup.declare(&new, uri);
        Some(new)
    }

    fn fresh_prefix(&mut self, own: &HashSet<String>) -> String {
        loop {
            self.generated_prefixes += 1;
            let prefix = format!("ns{}", self.generated_prefixes);
            if self.lookup(&prefix).is_empty() && !own.contains(&prefix) {
                return prefix;
            }
        }
    }

    fn push_declarations(&mut self, extra: &[(String, String)]) {
        for (prefix, uri) in extra {
            self.out.push_str(" xmlns");
            if !prefix.is_empty() {
                self.out.push(':');
                self.out.push_str(prefix);
            }
            self.out.push_str("=\"");
            push_attribute_value(&mut self.out, uri, b'"', &mut false);
            self.out.push('"');
        }
    }

    /// An element's name in the output ([`written_element_name`]),
    /// reporting the repair.
    fn writable_element_name(&mut self, node: Node<'_>) -> String {
        let written = written_element_name(node.name(), node.prefix().is_some());
        if written != node.name() {
            self.report(RepairKind::InvalidName, node);
        }
        written
    }

    /// An attribute's name in the output.
    fn attribute_name(
        &mut self,
        node: Node<'_>,
        fixup: &Fixup,
        index: usize,
        attribute: Attribute<'_>,
    ) -> String {
        let name = attribute.name();
        if let Some(renamed) = fixup.attribute_name(index) {
            return renamed.to_owned();
        }
        let report = |writer: &mut Self| match attribute.source_span() {
            Some(span) => writer.report_at(RepairKind::InvalidName, span.start),
            None => writer.report(RepairKind::InvalidName, node),
        };
        if (attribute.declared_prefix().is_none() && forbidden_declaration(name))
            || undeclares_prefix(attribute)
        {
            // A declaration XML forbids stays an ordinary attribute.
            report(self);
            return repaired_name(&format!("_{name}"));
        }
        let repaired = if attribute.prefix().is_some() {
            repaired_qname(name)
        } else {
            repaired_name(name)
        };
        if repaired != name {
            report(self);
        }
        repaired
    }

    /// A start tag written from scratch.
    fn fresh_start_tag(&mut self, node: Node<'d>, has_children: bool, fixup: &Fixup) {
        let name = match &fixup.element_name {
            Some(name) => name.clone(),
            None => self.writable_element_name(node),
        };
        self.out.push('<');
        self.out.push_str(&name);
        let mut written: Vec<String> = Vec::new();
        for (index, attribute) in node.attributes().enumerate() {
            if self.default_only(node, attribute) {
                continue;
            }
            let attribute_name = self.attribute_name(node, fixup, index, attribute);
            if written.contains(&attribute_name) {
                self.report(RepairKind::DuplicateAttribute, node);
                continue;
            }
            self.push_attribute(node, &attribute_name, attribute.value());
            written.push(attribute_name);
        }
        self.push_declarations(&fixup.declarations);
        self.out.push_str(if has_children { ">" } else { "/>" });
    }

    /// An attribute the DTD's default supplied and no edit changed: the
    /// output keeps the DTD, which supplies it again. (Repaired output
    /// drops the internal subset, so it writes the attribute.)
    /// Whether `attribute` of `node` is one the DTD written out supplies:
    /// defaulted, unchanged, its declaration kept, and the element still of
    /// the name it declares it for (unedited, or its source name kept).
    fn default_only(&self, node: Node<'_>, attribute: Attribute<'_>) -> bool {
        let renamed = self.doc.data(node.id().0).dirty & DIRTY_SELF != 0
            && !self
                .source_span(node)
                .is_some_and(|span| self.renamed_none(node, span));
        attribute.is_defaulted() && !attribute.is_modified() && !self.attlists_dropped && !renamed
    }

    fn push_attribute(&mut self, node: Node<'_>, name: &str, value: &str) {
        self.out.push(' ');
        self.push_name_and_value(node, name, value, b'"');
    }

    fn push_name_and_value(&mut self, node: Node<'_>, name: &str, value: &str, quote: u8) {
        self.out.push_str(name);
        self.out.push('=');
        self.out.push(quote as char);
        let mut forbidden = false;
        push_attribute_value(&mut self.out, value, quote, &mut forbidden);
        if forbidden {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
        self.out.push(quote as char);
    }

    /// An edited or broken start tag: each original attribute still present
    /// keeps its place and the whitespace before it (and its source text if
    /// it did not change and is well-formed as written; a broken one is
    /// mended in place), removed ones disappear with the whitespace before
    /// them, new ones go after the others, and the tag ends as it did.
    /// Anything else in the source tag (stray characters) is left out.
    fn patched_start_tag(
        &mut self,
        node: Node<'d>,
        span: Span,
        tag_end: usize,
        has_children: bool,
        fixup: &Fixup,
    ) {
        let source = self.source();
        let tag = &source[span.start..tag_end];
        self.out.push('<');
        match &fixup.element_name {
            Some(name) => self.out.push_str(name),
            None => {
                let name = self.writable_element_name(node);
                self.out.push_str(&name);
            }
        }
        // A prefix no one declared gets its placeholder declaration where
        // it is first used (where `check` reports it): after the name, or
        // before the attribute.
        // (Each taken out once it is written; found by prefix, since a
        // broken tag may have thousands.)
        let mut placeholders: Vec<Option<(String, String)>> = fixup
            .declarations
            .iter()
            .filter(|(prefix, uri)| *uri == placeholder_namespace(prefix))
            .cloned()
            .map(Some)
            .collect();
        let mut placeholder_at: HashMap<String, usize> = HashMap::new();
        for (i, declaration) in placeholders.iter().enumerate().rev() {
            if let Some((prefix, _)) = declaration {
                placeholder_at.insert(prefix.clone(), i);
            }
        }
        let mut place = |writer: &mut Self, prefix: Option<&str>| {
            // The fixup declared the prefix as it can be written.
            let Some(prefix) = prefix.map(repaired_name) else {
                return;
            };
            let at = placeholder_at.remove(&prefix);
            if let Some(declaration) = at.and_then(|i| placeholders[i].take()) {
                writer.push_declarations(std::slice::from_ref(&declaration));
            }
        };
        place(self, node.prefix());
        // Where the text between attributes starts: after the name, then
        // after each attribute.
        let mut gap_start = span.start + 1 + original_name(&tag[1..]).len();
        // The names written so far, where repairs may make two the same.
        let mut written = std::collections::HashSet::new();
        for (index, attribute) in node.attributes().enumerate() {
            if attribute.source_span().is_none() && self.default_only(node, attribute) {
                continue;
            }
            place(self, attribute.prefix());
            let renamed = fixup.attribute_name(index).is_some();
            let rewrite = attribute.is_modified() || renamed;
            let copy = attribute
                .source_span()
                .filter(|o| !rewrite && self.clean(o.start, o.end));
            let name = match copy {
                Some(_) => attribute.name().to_owned(),
                None => self.attribute_name(node, fixup, index, attribute),
            };
            if self.repair && !written.insert(name.clone()) {
                self.report(RepairKind::DuplicateAttribute, node);
                if let Some(original) = attribute.source_span() {
                    gap_start = original.end;
                }
                continue;
            }
            match attribute.source_span() {
                Some(original) => {
                    let gap = gap_start.min(original.start);
                    let before = &source[gap..original.start];
                    let space = &before[before.trim_end_matches(is_xml_space).len()..];
                    if self.repair {
                        self.report_gap(gap, original.start, before.len() - space.len());
                        if space.is_empty() {
                            self.report_at(RepairKind::MarkupRewritten, original.start);
                        }
                    }
                    self.out
                        .push_str(if space.is_empty() { " " } else { space });
                    gap_start = original.end;
                    if copy.is_some() {
                        self.out.push_str(&source[original.range()]);
                    } else if rewrite || self.refers_to_undeclared(original.start, original.end) {
                        let quote = attribute.source_quote().unwrap_or(b'"');
                        self.push_name_and_value(node, &name, attribute.value(), quote);
                    } else {
                        self.repaired_attribute(node, &name, attribute, original);
                    }
                }
                None => {
                    self.out.push(' ');
                    self.push_name_and_value(node, &name, attribute.value(), b'"');
                }
            }
        }
        let mut rest: Vec<(String, String)> = fixup
            .declarations
            .iter()
            .filter(|(prefix, uri)| *uri != placeholder_namespace(prefix))
            .cloned()
            .collect();
        rest.extend(placeholders.into_iter().flatten());
        self.push_declarations(&rest);
        // The original end of the tag: the space before `>` or `/>` (a tag
        // cut off by the end of the input has neither).
        let (self_closing, closer) = if tag.ends_with("/>") {
            (true, 2)
        } else if tag.ends_with('>') {
            (false, 1)
        } else {
            (false, 0)
        };
        let body = &tag[..tag.len() - closer];
        let trailing = &body[body.trim_end_matches(is_xml_space).len()..];
        let last_gap = body.get(gap_start - span.start..).unwrap_or_default();
        if self.repair {
            let dropped = last_gap.len().saturating_sub(trailing.len());
            self.report_gap(gap_start, span.start + body.len(), dropped);
        }
        if self.repair && closer == 0 {
            self.report(RepairKind::Closed, node);
        }
        self.out.push_str(trailing);
        if has_children || !self_closing {
            self.out.push('>');
            if !has_children {
                self.empty_content(node);
                self.end_tag(node);
            }
        } else {
            self.out.push_str("/>");
        }
    }

    /// Reports what a start tag's output leaves out of `start..end`, the
    /// text between two attributes (or after the last) less the whitespace
    /// kept: `dropped` bytes, the attributes the tree dropped as duplicates
    /// and stray characters.
    fn report_gap(&mut self, start: usize, end: usize, dropped: usize) {
        use crate::ErrorCode::{DuplicateAttribute, DuplicateNamespacedAttribute};
        if dropped == 0 {
            return;
        }
        let errors: Vec<_> = self.broken.within(start, end).to_vec();
        for &(at, code) in &errors {
            let kind = match code {
                DuplicateAttribute | DuplicateNamespacedAttribute => RepairKind::MarkupDropped,
                _ => RepairKind::MarkupRewritten,
            };
            self.report_at(kind, at);
        }
        if errors.is_empty() {
            self.report_at(RepairKind::MarkupRewritten, start);
        }
    }

    /// An attribute with an error in it, written with its name as it can
    /// be written, `=`, and its value copied with each broken spot mended,
    /// in its quotes (an unquoted value gets `"`, or `'` if it holds `"`).
    fn repaired_attribute(
        &mut self,
        node: Node<'_>,
        name: &str,
        attribute: Attribute<'_>,
        original: Span,
    ) {
        let source = self.source();
        let Some(value) = attribute.source_value_span() else {
            // `<a x>`: the tree holds an empty value.
            self.report_at(RepairKind::AttributeRewritten, original.start);
            self.out.push_str(name);
            self.out.push_str("=\"\"");
            return;
        };
        let quoted = attribute.source_quote();
        let raw = &source[value.range()];
        let quote = quoted.unwrap_or(if raw.contains('"') && !raw.contains('\'') {
            b'\''
        } else {
            b'"'
        });
        if quoted.is_none() {
            self.report_at(RepairKind::AttributeRewritten, value.start);
        }
        // The name and `=` as written, if the name is.
        if name == attribute.name() && self.clean(original.start, value.start) {
            let head = &source[original.start..value.start];
            let head = head.strip_suffix(['"', '\'']).unwrap_or(head);
            self.out.push_str(head);
        } else {
            // A name written anew keeps the spacing around its `=`.
            let head = &source[original.start..value.start];
            let head = head.strip_suffix(['"', '\'']).unwrap_or(head);
            let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
            let equals = head
                .rfind('=')
                .map(|at| &head[head[..at].trim_end_matches(space).len()..])
                .filter(|equals| equals.chars().all(|c| c == '=' || space(c)));
            self.out.push_str(name);
            self.out.push_str(
                equals
                    .filter(|e| e.matches('=').count() == 1)
                    .unwrap_or("="),
            );
        }
        self.out.push(quote as char);
        let context = repair::Context::Value { quote };
        if self.copy_repaired(value, context).is_err() {
            self.report_at(RepairKind::AttributeRewritten, value.start);
            let mut forbidden = false;
            push_attribute_value(&mut self.out, attribute.value(), quote, &mut forbidden);
            if forbidden {
                self.report(RepairKind::ForbiddenCharacter, node);
            }
        }
        self.out.push(quote as char);
    }

    fn end_tag(&mut self, node: Node<'_>) {
        if let Some(name) = self.renamed.take() {
            self.out.push_str("</");
            self.out.push_str(&name);
            self.out.push('>');
            return;
        }
        let data = self.doc.data(node.id().0);
        if let Some(span) = self.source_span(node) {
            match data.end_tag() {
                Some(end) if self.renamed_none(node, span) => {
                    // A `mismatched-end-tag` there is about the elements it
                    // closes, not about the tag.
                    let broken = self
                        .broken
                        .within(end.start, end.end)
                        .iter()
                        .find(|&&(_, code)| code != crate::ErrorCode::MismatchedEndTag)
                        .copied();
                    let Some((at, code)) = broken else {
                        self.out.push_str(&self.source()[end.range()]);
                        return;
                    };
                    // `</a x>`, `</>`: the name alone; or an end tag an
                    // entity's replacement text held, written out.
                    let kind = if code == crate::ErrorCode::UnbalancedEntityReference {
                        RepairKind::EntityExpanded
                    } else {
                        RepairKind::MarkupRewritten
                    };
                    self.report_at(kind, at);
                }
                Some(_) => {}
                // Closed by another element's end tag, or by the end of the
                // input: the end tag goes where the element now ends.
                None if self.repair && data.dirty & DIRTY_SELF == 0 => {
                    self.report_at(RepairKind::EndTagAdded, span.end);
                }
                None => {}
            }
        }
        self.fresh_end_tag(node);
    }

    /// Whether an element's name is still the one its start tag has in the
    /// source (an edit may have renamed it).
    fn renamed_none(&self, node: Node<'_>, span: Span) -> bool {
        let name = node.name();
        original_name(&self.source()[span.start + 1..]) == name
            && written_element_name(name, node.prefix().is_some()) == name
    }

    fn fresh_end_tag(&mut self, node: Node<'_>) {
        let name = written_element_name(node.name(), node.prefix().is_some());
        self.out.push_str("</");
        self.out.push_str(&name);
        self.out.push('>');
    }

    // ----- Character data, comments, PIs ---------------------------------

    fn text(&mut self, node: Node<'_>) {
        let mark = self.out.len();
        self.text_node(node);
        // (Outside the root only whitespace is written, and its line ends
        // are not part of the tree.)
        if node.parent().is_some_and(|p| p.is_element()) {
            self.escape_joined_cdata_end(mark);
        }
    }

    /// Text written from `mark` on, after text that ended in `]` or `]]`
    /// (an edit took away what stood between): a `]]>` across the join
    /// gets its `>` escaped, and a line feed after a raw CR is written as a
    /// reference.
    fn escape_joined_cdata_end(&mut self, mark: usize) {
        // Likewise a raw CR then LF, which would read back as one line end.
        if mark > 0 && self.out[..mark].ends_with('\r') && self.out[mark..].starts_with('\n') {
            self.out.replace_range(mark..mark + 1, "&#10;");
        }
        let from = mark.saturating_sub(2);
        let Some(window) = self.out.get(from..(mark + 2).min(self.out.len())) else {
            return;
        };
        if let Some(i) = window.find("]]>") {
            let gt = from + i + 2;
            if gt >= mark && from + i < mark {
                self.out.replace_range(gt..gt + 1, "&gt;");
            }
        }
    }

    fn text_node(&mut self, node: Node<'_>) {
        let top_level = node.parent().is_some_and(|p| p.is_document());
        let verbatim = self
            .verbatim(node)
            .filter(|span| !(top_level && self.source()[span.range()].contains(['&', '<'])));
        if let Some(span) = verbatim {
            self.push_source(span);
            return;
        }
        let data = self.doc.data(node.id().0);
        if node.parent().is_some_and(|p| p.is_document()) {
            // Outside the root only whitespace can be; the tree keeps only
            // that of broken text, and it is written as it is in the source.
            let (written, from_source) = match (self.source_span(node), data.dirty) {
                // (Not a reference or CDATA: a node moved here from content.)
                (Some(span), 0) if !self.source()[span.range()].contains(['&', '<']) => {
                    (&self.source()[span.range()], true)
                }
                _ => (node.text().unwrap_or(""), false),
            };
            let whitespace = if written.chars().all(is_xml_space) {
                written.to_owned()
            } else {
                crate::tree_builder::kept_outside_root(written)
            };
            self.out.push_str(&whitespace);
            if !from_source && whitespace.len() != written.len() {
                // (Dropped source text was reported with its error.)
                self.report(RepairKind::MarkupDropped, node);
            }
            return;
        }
        let span = self
            .source_span(node)
            .filter(|span| !self.refers_to_undeclared(span.start, span.end));
        if let (Some(span), 0) = (span, data.dirty) {
            // Broken text: its source, mended where the errors are.
            if self.copy_repaired(span, repair::Context::Text).is_ok() {
                return;
            }
            // Not mendable in place only for a reference whose replacement
            // text is at fault: it is written as what it stands for.
            if self.repair {
                self.report(RepairKind::EntityExpanded, node);
            }
        }
        let text = node.text().unwrap_or("");
        let mut forbidden = false;
        let mut at = 0;
        for range in node.cdata_ranges() {
            push_text(&mut self.out, &text[at..range.start], &mut forbidden);
            let cdata = &text[range.clone()];
            let writable = !cdata.contains("]]>")
                && !cdata.contains('\r')
                && !cdata.chars().any(is_forbidden_char);
            if writable {
                self.out.push_str("<![CDATA[");
                self.out.push_str(cdata);
                self.out.push_str("]]>");
            } else {
                push_text(&mut self.out, cdata, &mut forbidden);
            }
            at = range.end;
        }
        push_text(&mut self.out, &text[at..], &mut forbidden);
        if forbidden {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
    }

    fn comment(&mut self, node: Node<'_>) {
        if let Some(span) = self.verbatim(node) {
            self.out.push_str(&self.source()[span.range()]);
            return;
        }
        // The text as written where it is the tree's (its line ends kept),
        // else the tree's.
        let data = node.text().unwrap_or("");
        let written = self
            .source_span(node)
            .filter(|_| self.doc.data(node.id().0).dirty == 0)
            .and_then(|span| comment_source(&self.source()[span.range()], data))
            .unwrap_or(data);
        let (text, changed) = comment_text(written);
        if changed {
            self.report(RepairKind::CommentText, node);
        } else {
            self.report_rewritten(node);
        }
        self.out.push_str("<!--");
        self.out.push_str(&text);
        self.out.push_str("-->");
    }

    /// Reports why a comment or PI of a repaired document was written anew,
    /// when its text did not change: it was cut off by the end of the input,
    /// or its delimiters were not XML's.
    fn report_rewritten(&mut self, node: Node<'_>) {
        let Some(span) = self.source_span(node).filter(|_| self.repair) else {
            return;
        };
        let errors = self.broken.within(span.start, span.end);
        let kind = if errors.iter().any(|&(_, code)| {
            matches!(
                code,
                crate::ErrorCode::EofInComment | crate::ErrorCode::EofInProcessingInstruction
            )
        }) {
            RepairKind::Closed
        } else {
            RepairKind::MarkupRewritten
        };
        if !errors.is_empty() {
            self.report(kind, node);
        }
    }

    fn processing_instruction(&mut self, node: Node<'_>) {
        if let Some(span) = self.verbatim(node) {
            self.out.push_str(&self.source()[span.range()]);
            return;
        }
        let target = node.name();
        let data = node.text().unwrap_or("");
        if data.contains("?>") {
            // Only an edit can put it there: XML has no way to write it.
            self.report(RepairKind::ProcessingInstructionAsComment, node);
            let (text, _) = comment_text(&format!("?{target} {data}?"));
            self.out.push_str("<!--");
            self.out.push_str(&text);
            self.out.push_str("-->");
            return;
        }
        // The target as written, if the PI was parsed (the tree's may be
        // cut by a limit), and the rest after it: only what XML cannot
        // carry changes there.
        let data_node = self.doc.data(node.id().0);
        let source = self
            .source_span(node)
            .filter(|_| data_node.dirty == 0)
            .and_then(|span| {
                let text = self.source()[span.range()].get(2..)?;
                let end = text
                    .find([' ', '\t', '\n', '\r', '?'])
                    .unwrap_or(text.len());
                Some((&text[..end], &text[end..]))
            })
            .filter(|(written, _)| written.starts_with(target));
        let target = source.map_or(target, |(written, _)| written);
        let rest = source.map(|(_, rest)| rest);
        // A target that is not a name, or is `xml` (a misplaced or broken
        // XML declaration): renamed, so the PI stays a PI.
        let written = if target.eq_ignore_ascii_case("xml") {
            format!("_{target}")
        } else {
            repaired_name(target)
        };
        if written != target {
            self.report(RepairKind::InvalidName, node);
        }
        self.out.push_str("<?");
        self.out.push_str(&written);
        let mut forbidden = false;
        match rest {
            Some(rest) => {
                let closed = rest.ends_with("?>");
                let rest = rest
                    .strip_suffix("?>")
                    .unwrap_or(rest.strip_suffix('?').unwrap_or(rest));
                let rest = replace_forbidden(rest, &mut forbidden);
                self.out.push_str(&rest);
                if !closed {
                    self.report(RepairKind::Closed, node);
                }
            }
            None => {
                let data = replace_forbidden(data, &mut forbidden);
                if !data.is_empty() {
                    self.out.push(' ');
                    self.out.push_str(&data);
                }
            }
        }
        if forbidden {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
        self.out.push_str("?>");
    }
}

/// The source text of an XML declaration, with its encoding made to say
/// `target`: the label replaced if it names another encoding, added after
/// the version if there is none and `target` needs one.
fn declaration_for(text: &str, label: Option<&str>, target: crate::Encoding, own: bool) -> String {
    let agrees = |label: &str| {
        target.agrees_with(label)
            // A label we do not know, written back in the encoding the
            // document was read in: it is the author's, kept.
            || (own && crate::Encoding::for_label(label).is_none())
    };
    match label {
        Some(label) if agrees(label) => text.to_owned(),
        Some(label) => {
            // The label is the quoted value after `encoding`.
            let at = text.find("encoding").unwrap_or(0);
            match text[at..].find(label) {
                Some(i) => {
                    let start = at + i;
                    format!(
                        "{}{}{}",
                        &text[..start],
                        target.declared_name(),
                        &text[start + label.len()..]
                    )
                }
                None => text.to_owned(),
            }
        }
        // Written back in its own encoding, a declaration without a label
        // stays as it was.
        None if own || !needs_declaration(target) => text.to_owned(),
        None => {
            // After the version's closing quote.
            let version_end = text
                .find("version")
                .and_then(|v| {
                    let rest = &text[v..];
                    let open = rest.find(['"', '\''])?;
                    let quote = rest.as_bytes()[open] as char;
                    let close = rest[open + 1..].find(quote)?;
                    Some(v + open + 1 + close + 1)
                })
                .unwrap_or(5);
            format!(
                "{} encoding=\"{}\"{}",
                &text[..version_end],
                target.declared_name(),
                &text[version_end..]
            )
        }
    }
}

/// Whether an element's content is element-only: at least one child that is
/// not text, and all text whitespace.
fn element_only(node: Node<'_>) -> bool {
    node.is_element()
        && node.children().any(|c| !c.is_text())
        && node
            .children()
            .all(|c| !c.is_text() || c.text().is_some_and(|t| t.chars().all(is_xml_space)))
}

fn push_indent(out: &mut String, width: usize) {
    out.extend(std::iter::repeat_n(' ', width));
}

/// `s` quoted with `"`, or `'` when it contains `"`.
fn push_quoted(out: &mut String, s: &str) {
    let quote = if s.contains('"') { '\'' } else { '"' };
    out.push(quote);
    out.push_str(s);
    out.push(quote);
}

/// Text content, escaped; forbidden characters become U+FFFD.
fn push_text(out: &mut String, text: &str, forbidden: &mut bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c if is_forbidden_char(c) => {
                *forbidden = true;
                out.push('\u{FFFD}');
            }
            c => out.push(c),
        }
    }
}

/// An attribute value for the quote `quote`, escaped so that attribute-value
/// normalization gives it back.
fn push_attribute_value(out: &mut String, value: &str, quote: u8, forbidden: &mut bool) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' if quote == b'"' => out.push_str("&quot;"),
            '\'' if quote == b'\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if is_forbidden_char(c) => {
                *forbidden = true;
                out.push('\u{FFFD}');
            }
            c => out.push(c),
        }
    }
}

fn replace_forbidden(text: &str, forbidden: &mut bool) -> String {
    if text.chars().any(is_forbidden_char) {
        *forbidden = true;
        text.chars()
            .map(|c| if is_forbidden_char(c) { '\u{FFFD}' } else { c })
            .collect()
    } else {
        text.to_owned()
    }
}

/// The text between a comment's delimiters in its source `raw`, if it is
/// the comment's `data` as written (line ends aside): for a comment closed
/// by `-->` or `--!>`, or cut off by the end of the input (which drops a
/// pending `-` or `--`).
fn comment_source<'r>(raw: &'r str, data: &str) -> Option<&'r str> {
    let body = raw.strip_prefix("<!--")?;
    let body = body
        .strip_suffix("-->")
        .or_else(|| body.strip_suffix("--!>"))
        .unwrap_or_else(|| {
            let dashes = body.len() - body.trim_end_matches('-').len();
            &body[..body.len() - dashes.min(2)]
        });
    let normalized = body
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}");
    (normalized == data).then_some(body)
}

/// Comment text XML can carry: no `--`, no final `-`, no forbidden
/// characters. Returns whether it changed.
fn comment_text(text: &str) -> (String, bool) {
    let mut forbidden = false;
    let mut out = replace_forbidden(text, &mut forbidden);
    let mut changed = forbidden;
    while out.contains("--") {
        out = out.replace("--", "- -");
        changed = true;
    }
    if out.ends_with('-') {
        out.push(' ');
        changed = true;
    }
    (out, changed)
}

/// A name with the characters an XML name (without colons) cannot have
/// replaced by `_`, and a `_` in front if it cannot start one.
fn repaired_name(name: &str) -> String {
    use crate::chars::{is_name_char, is_name_start_char};
    if is_name(name) && !name.contains(':') && !name.chars().any(is_forbidden_char) {
        return name.to_owned();
    }
    let mut out = String::with_capacity(name.len() + 1);
    for (i, c) in name.chars().enumerate() {
        // Noncharacters are name characters to XML, but xml5dom reports them.
        let ok = c != ':'
            && !is_forbidden_char(c)
            && if i == 0 {
                is_name_start_char(c)
            } else {
                is_name_char(c)
            };
        if i == 0 && !ok && c != ':' && is_name_char(c) && !is_forbidden_char(c) {
            out.push('_');
            out.push(c);
        } else {
            out.push(if ok { c } else { '_' });
        }
    }
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// The element name at the start of a tag's source (after its `<`).
fn original_name(after_lt: &str) -> &str {
    let end = after_lt
        .find([' ', '\t', '\n', '\r', '/', '>'])
        .unwrap_or(after_lt.len());
    &after_lt[..end]
}

/// An element's name as it can be written: as an attribute's, and an
/// element may not have the prefix `xmlns` (Namespaces in XML 1.0 §3).
/// `prefixed` says whether the tree has a prefix for it: a name whose colon
/// made no prefix (`a:0b`) is repaired as one name, so that the output does
/// not gain a prefix to bind.
fn written_element_name(name: &str, prefixed: bool) -> String {
    if name.starts_with("xmlns:") || !prefixed {
        repaired_name(name)
    } else {
        repaired_qname(name)
    }
}

/// `xmlns:p=""`: a declaration that undeclares a prefix, which only
/// Namespaces 1.1 allows.
fn undeclares_prefix(attribute: Attribute<'_>) -> bool {
    matches!(attribute.declared_prefix(), Some(Some(_))) && attribute.value().is_empty()
}

/// An attribute named like a namespace declaration that is not one (the
/// tree builder found it forbidden): it cannot be written under that name.
fn forbidden_declaration(name: &str) -> bool {
    name == "xmlns" || name.starts_with("xmlns:")
}

/// The changes an element's start tag needs in the output.
#[derive(Default)]
struct Fixup {
    /// Namespace declarations to add: `(prefix, uri)`.
    declarations: Vec<(String, String)>,
    /// A new name for the element (a new prefix).
    element_name: Option<String>,
    /// New names for attributes, by index, in index order.
    attribute_names: Vec<(usize, String)>,
    /// The prefixes of `declarations` (an element may need thousands).
    declared: HashSet<String>,
}

impl Fixup {
    /// The new name of the attribute at `index`, if it has one.
    fn attribute_name(&self, index: usize) -> Option<&str> {
        let at = self
            .attribute_names
            .binary_search_by_key(&index, |&(i, _)| i)
            .ok()?;
        Some(&self.attribute_names[at].1)
    }

    /// Adds the declaration of `prefix` for `uri`.
    fn declare(&mut self, prefix: &str, uri: &str) {
        self.declared.insert(prefix.to_owned());
        self.declarations.push((prefix.to_owned(), uri.to_owned()));
    }

    fn renames_nothing(&self) -> bool {
        self.element_name.is_none() && self.attribute_names.is_empty()
    }
}

/// A qualified name as it can be written: each part of a valid `p:l`
/// repaired, anything else repaired as one name.
fn repaired_qname(name: &str) -> String {
    match crate::dom::qname_colon(name) {
        Some(colon) => {
            let prefix = repaired_name(&name[..colon]);
            let local = repaired_name(&name[colon + 1..]);
            format!("{prefix}:{local}")
        }
        None => repaired_name(name),
    }
}
