//! What a caller asks for and what it gets back: [`SerializeOptions`]
//! (pretty printing, the [`OutputEncoding`]), the [`Serialized`] text with
//! its [`Repair`]s, each of a [`RepairKind`] that names a documented rule,
//! and [`PRETTY_DEPTH`].
//!
//! Plain data, which the rest of the serializer reads and fills in, and
//! what the options say about the output's encoding and byte-order mark
//! for a document; it knows nothing of how the output is made.

use std::fmt;

use crate::dom::Document;

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
    Other(crate::decoding::Encoding),
}

impl OutputEncoding {
    pub(super) fn resolve(self, doc: &Document) -> crate::decoding::Encoding {
        match self {
            OutputEncoding::Utf8 => crate::decoding::Encoding::UTF_8,
            OutputEncoding::Original => doc.encoding(),
            OutputEncoding::Other(encoding) => encoding,
        }
    }
}

/// Whether output in `target` starts with a byte-order mark: the
/// document's own encoding keeps its mark or its lack of one; UTF-16 and
/// UTF-32 otherwise need one (XML 1.0 §4.3.3).
pub(super) fn byte_order_mark(doc: &Document, target: crate::decoding::Encoding) -> bool {
    if target == doc.encoding() {
        doc.had_byte_order_mark()
    } else {
        target.is_utf16() || target.is_utf32()
    }
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
    /// A name whose prefix nothing declares, in the placeholder namespace
    /// `urn:xml5dom:undeclared:PREFIX` ([`crate::dom::undeclared_namespace`])
    /// or in the registered namespace of a well-known prefix
    /// ([`crate::dom::well_known_namespace`]), or whose prefix waits on a
    /// node written alone, had that namespace declared.
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
    /// The XML declaration's values were made valid (version `1.0`, an
    /// encoding label that is unknown or contradicts the byte-order mark
    /// made the name of the encoding written, standalone dropped when
    /// invalid).
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

/// How many levels of elements pretty printing indents: content deeper
/// than this is written as the tree has it, so that output stays in
/// proportion to the input however deep it nests (xmllint caps its
/// indentation for the same reason; docs/serialization.md).
pub const PRETTY_DEPTH: usize = 64;
