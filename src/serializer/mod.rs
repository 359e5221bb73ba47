//! Layer 5: writing a document (or a subtree) back out.
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

pub(crate) mod c14n;
pub mod canonical;
pub(crate) mod canonical_markup;
mod escape;
mod namespaces;
mod options;
mod repair;
mod repairs;
mod writer;

pub use canonical::{
    canonicalize, canonicalize_subset, canonicalize_with, write_canonical, write_canonical_with,
    CanonicalForm, CanonicalOptions, InclusiveNamespaces,
};
pub use options::{OutputEncoding, Repair, RepairKind, SerializeOptions, Serialized, PRETTY_DEPTH};

use crate::dom::{Document, Node};

use writer::{document_text, subtree_serialized, subtree_text, write_document, write_subtree};

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
        document_text(self, options)
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
        let bom = options::byte_order_mark(self, target);
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
        writer: W,
        options: &SerializeOptions,
    ) -> std::io::Result<Vec<Repair>> {
        write_document(self, writer, options)
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
        subtree_text(*self)
    }

    /// The subtree as XML with `options`, as [`Node::to_xml`] writes it,
    /// and the repairs made, in source order: pretty printing indents as
    /// [`Document::serialize`] does, the node itself at depth 0 and without
    /// a line break after it. (`options.encoding` says only what a subtree
    /// of an XML 1.1 document declares; the text is the caller's to encode.)
    ///
    /// ```
    /// use xml5dom::{Document, RepairKind, SerializeOptions};
    /// let doc = Document::parse("<r><a><b>x</b><!-- -- --></a></r>");
    /// let a = doc.root_element().unwrap().first_child().unwrap();
    /// let pretty = SerializeOptions { pretty: Some(2), ..Default::default() };
    /// let out = a.serialize(&pretty);
    /// assert_eq!(out.text, "<a>\n  <b>x</b>\n  <!-- - - -->\n</a>");
    /// assert_eq!(out.repairs[0].kind, RepairKind::CommentText);
    /// assert_eq!(out.repairs[0].offset, Some(19)); // the `--`
    /// ```
    pub fn serialize(&self, options: &SerializeOptions) -> Serialized {
        subtree_serialized(*self, options)
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
    pub fn write_xml<W: std::io::Write>(&self, writer: W) -> std::io::Result<()> {
        write_subtree(*self, writer)
    }
}

/// The node's XML, as [`Node::to_xml`] writes it.
///
/// ```
/// use xml5dom::Document;
/// let doc = Document::parse("<r xmlns:p='urn:p'><p:a>x &amp; y</p:a></r>");
/// let a = doc.root_element().unwrap().first_child().unwrap();
/// assert_eq!(a.to_string(), "<p:a xmlns:p=\"urn:p\">x &amp; y</p:a>");
/// assert_eq!(format!("{}", a.first_child().unwrap()), "x &amp; y");
/// ```
impl std::fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_xml())
    }
}
