//! The tree as the xml5lib-tests `#document` dump, as printed by
//! `xml5dom tree`.

use super::node::{Edge, Node, NodeType};
use super::Document;
use crate::chars::is_xml_space;
use crate::output::Pieces;

impl Document {
    /// The tree in the `#document` format of the xml5lib-tests suite: one
    /// `| `-prefixed line per node, two more spaces per level, attributes on
    /// their own lines sorted by local name (then qualified name), namespaced
    /// names as `{uri}prefix:local`, text in quotes, `<!-- data -->`,
    /// `<?target data?>` and `<!DOCTYPE name "public" "system">`.
    ///
    /// Whitespace text directly under the document is kept in the tree for
    /// the round trip but not printed: it is not part of the XML information
    /// set (docs/conformance.md).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a xmlns='urn:x' b='1'>hi<!--c--></a>");
    /// assert_eq!(doc.to_tree_dump(), "\
    /// | <{urn:x}a>
    /// |   b=\"1\"
    /// |   {http://www.w3.org/2000/xmlns/}xmlns=\"urn:x\"
    /// |   \"hi\"
    /// |   <!-- c -->
    /// ");
    /// ```
    ///
    /// Indentation stops growing at [`DUMP_DEPTH`] levels: a line deeper
    /// than that says its level after the indentation (`(+N) `), so that
    /// the dump of a deeply nested document stays in proportion to it.
    pub fn to_tree_dump(&self) -> String {
        let mut out = Pieces::kept();
        self.dump_into(&mut out);
        out.finish().unwrap_or_default()
    }

    /// Writes [`to_tree_dump`](Self::to_tree_dump)'s text to `writer` as it
    /// is made, so that a large document needs little memory beyond itself.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut out = Vec::new();
    /// Document::parse("<a>x</a>").write_tree_dump(&mut out).unwrap();
    /// assert_eq!(out, b"| <a>\n|   \"x\"\n");
    /// ```
    pub fn write_tree_dump<W: std::io::Write>(&self, mut writer: W) -> std::io::Result<()> {
        let mut out = Pieces::written(&mut writer);
        self.dump_into(&mut out);
        out.finish().map(drop)
    }

    fn dump_into(&self, pieces: &mut Pieces<'_>) {
        let mut depth = 0usize;
        for edge in self.root().traverse() {
            pieces.send_some();
            let out = &mut pieces.text;
            match edge {
                Edge::Open(node) if node.is_document() => {}
                Edge::Close(node) if node.is_document() => {}
                Edge::Open(node) => {
                    let printed = !(node.is_text()
                        && node.parent().is_some_and(|p| p.is_document())
                        && node.text().is_some_and(|t| t.chars().all(is_xml_space)));
                    if printed {
                        write_node(out, node, depth);
                    }
                    depth += 1;
                }
                Edge::Close(_) => depth -= 1,
            }
        }
    }
}

/// How many levels of the tree dump are indented; deeper lines say their
/// level instead.
pub const DUMP_DEPTH: usize = 32;

fn line(out: &mut String, depth: usize) {
    use std::fmt::Write as _;

    out.push_str("| ");
    for _ in 0..depth.min(DUMP_DEPTH) {
        out.push_str("  ");
    }
    if depth > DUMP_DEPTH {
        // (Written in place: no string made per line.)
        let _ = write!(out, "(+{}) ", depth - DUMP_DEPTH);
    }
}

fn push_name(out: &mut String, namespace: Option<&str>, qualified: &str) {
    if let Some(uri) = namespace {
        out.push('{');
        out.push_str(uri);
        out.push('}');
    }
    out.push_str(qualified);
}

fn write_node(out: &mut String, node: Node<'_>, depth: usize) {
    line(out, depth);
    match node.node_type() {
        NodeType::Element => {
            out.push('<');
            push_name(out, node.namespace(), node.name());
            out.push_str(">\n");
            let mut attributes: Vec<_> = node.attributes().collect();
            attributes.sort_by(|a, b| (a.local_name(), a.name()).cmp(&(b.local_name(), b.name())));
            for attribute in attributes {
                line(out, depth + 1);
                push_name(out, attribute.namespace(), attribute.name());
                out.push_str("=\"");
                out.push_str(attribute.value());
                out.push_str("\"\n");
            }
        }
        NodeType::Text => {
            out.push('"');
            out.push_str(node.text().unwrap_or(""));
            out.push_str("\"\n");
        }
        NodeType::Comment => {
            out.push_str("<!-- ");
            out.push_str(node.text().unwrap_or(""));
            out.push_str(" -->\n");
        }
        NodeType::ProcessingInstruction => {
            out.push_str("<?");
            out.push_str(node.name());
            out.push(' ');
            out.push_str(node.text().unwrap_or(""));
            out.push_str("?>\n");
        }
        NodeType::Doctype => {
            out.push_str("<!DOCTYPE ");
            out.push_str(node.name());
            let public = node.public_id().unwrap_or("");
            let system = node.system_id().unwrap_or("");
            if !public.is_empty() || !system.is_empty() {
                out.push_str(" \"");
                out.push_str(public);
                out.push_str("\" \"");
                out.push_str(system);
                out.push('"');
            }
            out.push_str(">\n");
        }
        NodeType::Document => {}
    }
}
