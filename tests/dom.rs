//! Tests of the DOM's reading and editing API: accessors on a namespaced
//! document, spans and positions, every iterator and link, every edit (each
//! followed by a full consistency check of the tree), the edits that must
//! fail without touching the tree, and sharing a document between threads.
//!
//! Every expectation here was worked out by hand from the API docs and
//! `docs/conformance.md` ("Tree construction"), not copied from the output.

use pretty_assertions::assert_eq;
use xml5dom::{Document, Edge, Error, Node, NodeId, NodeType, XMLNS_NAMESPACE, XML_NAMESPACE};

// ----- Helpers -------------------------------------------------------------

/// A short description of a node: an element's name, `'text'`,
/// `<!--comment-->`, `<?target data?>`, `!doctype` or `#document`.
fn label(node: Node<'_>) -> String {
    match node.node_type() {
        NodeType::Document => "#document".to_string(),
        NodeType::Doctype => format!("!{}", node.name()),
        NodeType::Element => node.name().to_string(),
        NodeType::Text => format!("'{}'", node.text().unwrap()),
        NodeType::Comment => format!("<!--{}-->", node.text().unwrap()),
        NodeType::ProcessingInstruction => {
            format!("<?{} {}?>", node.name(), node.text().unwrap())
        }
    }
}

fn labels<'a>(nodes: impl Iterator<Item = Node<'a>>) -> Vec<String> {
    nodes.map(label).collect()
}

/// The children of the node `id`, as labels.
fn child_labels(doc: &Document, id: NodeId) -> Vec<String> {
    labels(doc.node(id).unwrap().children())
}

/// `traverse()` as `+label` (open) and `-label` (close), space-separated.
fn edges(node: Node<'_>) -> String {
    let edges: Vec<String> = node
        .traverse()
        .map(|edge| match edge {
            Edge::Open(n) => format!("+{}", label(n)),
            Edge::Close(n) => format!("-{}", label(n)),
        })
        .collect();
    edges.join(" ")
}

/// The first element (in document order) with the qualified name `name`.
fn element(doc: &Document, name: &str) -> NodeId {
    doc.root()
        .descendants()
        .find(|n| n.is_element() && n.name() == name)
        .unwrap_or_else(|| panic!("no element {name}"))
        .id()
}

/// The first node (in document order) whose label is `wanted`.
fn labelled(doc: &Document, wanted: &str) -> NodeId {
    doc.root()
        .descendants()
        .find(|n| label(*n) == wanted)
        .unwrap_or_else(|| panic!("no node {wanted}"))
        .id()
}

/// A text node's CDATA ranges as pairs.
fn cdata(node: Node<'_>) -> Vec<(usize, usize)> {
    node.cdata_ranges()
        .into_iter()
        .map(|r| (r.start, r.end))
        .collect()
}

/// Slices the source with a span.
fn slice(doc: &Document, span: Option<xml5dom::Span>) -> &str {
    &doc.source()[span.unwrap().range()]
}

/// Walks the whole tree from the document with `traverse()` (no recursion)
/// and checks the links of every node against its children.
fn assert_consistent(doc: &Document) {
    let root = doc.root();
    assert_eq!(root.parent(), None, "the document has no parent");
    assert_eq!(root.next_sibling(), None);
    assert_eq!(root.prev_sibling(), None);
    let mut opened = 0usize;
    let mut closed = 0usize;
    for edge in root.traverse() {
        let node = match edge {
            Edge::Open(node) => {
                opened += 1;
                node
            }
            Edge::Close(_) => {
                closed += 1;
                continue;
            }
        };
        assert_eq!(doc.node(node.id()), Some(node), "a live node is reachable");
        let children: Vec<Node<'_>> = node.children().collect();
        for child in &children {
            assert_eq!(child.parent(), Some(node), "parent of a child of {node:?}");
        }
        assert_eq!(node.first_child(), children.first().copied());
        assert_eq!(node.last_child(), children.last().copied());
        assert_eq!(node.has_children(), !children.is_empty());
        if let Some(first) = children.first() {
            assert_eq!(first.prev_sibling(), None);
        }
        if let Some(last) = children.last() {
            assert_eq!(last.next_sibling(), None);
        }
        for pair in children.windows(2) {
            assert_eq!(pair[0].next_sibling(), Some(pair[1]));
            assert_eq!(pair[1].prev_sibling(), Some(pair[0]));
        }
        if let Some(next) = node.next_sibling() {
            assert_eq!(next.prev_sibling(), Some(node), "next/prev are inverses");
        }
        if let Some(prev) = node.prev_sibling() {
            assert_eq!(prev.next_sibling(), Some(node), "prev/next are inverses");
        }
        let mut backwards: Vec<Node<'_>> = node.children().rev().collect();
        backwards.reverse();
        assert_eq!(backwards, children, "children().rev() of {node:?}");
    }
    assert_eq!(opened, closed, "every open edge is closed");
}

/// Checks that an edit failed with `InvalidEdit`.
fn assert_invalid<T: std::fmt::Debug>(result: Result<T, Error>) {
    match result {
        Err(Error::InvalidEdit(_)) => {}
        other => panic!("expected Err(InvalidEdit), got {other:?}"),
    }
}

/// Runs an edit that must fail, and checks that the tree is unchanged.
fn assert_rejected<T: std::fmt::Debug>(
    doc: &mut Document,
    edit: impl FnOnce(&mut Document) -> Result<T, Error>,
) {
    let before = doc.to_tree_dump();
    let text_before = doc.root().text_content();
    assert_invalid(edit(doc));
    assert_eq!(doc.to_tree_dump(), before, "a failed edit changed the tree");
    assert_eq!(doc.root().text_content(), text_before);
    assert_consistent(doc);
}

// ----- Reading: a namespaced document --------------------------------------

/// The default namespace, a prefix, `xml:lang`, and both undeclarations.
const NS_DOC: &str = concat!(
    r#"<root xmlns="urn:d" xmlns:p="urn:p" xml:lang="en" id="r">"#,
    r#"<p:item p:attr="1" plain="2">text</p:item>"#,
    r#"<child xmlns=""><leaf/></child>"#,
    r#"<inner xmlns:p=""><q/></inner>"#,
    r#"</root>"#,
);

/// Its one error: `xmlns:p=""` undeclares a prefix, which only Namespaces
/// 1.1 allows (the tree undeclares it, as the xml5lib suite requires).
#[test]
fn namespaced_document_parses_with_one_namespaces_1_0_error() {
    let doc = Document::parse(NS_DOC);
    let codes: Vec<_> = doc.errors().iter().map(|e| (e.code, e.offset)).collect();
    assert_eq!(
        codes,
        [(
            xml5dom::ErrorCode::PrefixUndeclared,
            NS_DOC.find("xmlns:p=\"\"").unwrap()
        )]
    );
    assert_eq!(doc.source(), NS_DOC);
}

#[test]
fn namespaced_document_dump() {
    let doc = Document::parse(NS_DOC);
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <{urn:d}root>
|   id=\"r\"
|   {http://www.w3.org/XML/1998/namespace}xml:lang=\"en\"
|   {http://www.w3.org/2000/xmlns/}xmlns:p=\"urn:p\"
|   {http://www.w3.org/2000/xmlns/}xmlns=\"urn:d\"
|   <{urn:p}p:item>
|     {urn:p}p:attr=\"1\"
|     plain=\"2\"
|     \"text\"
|   <child>
|     {http://www.w3.org/2000/xmlns/}xmlns=\"\"
|     <leaf>
|   <{urn:d}inner>
|     {http://www.w3.org/2000/xmlns/}xmlns:p=\"\"
|     <{urn:d}q>
"
    );
}

#[test]
fn element_in_default_namespace() {
    let doc = Document::parse(NS_DOC);
    let root = doc.root_element().unwrap();
    assert_eq!(root.node_type(), NodeType::Element);
    assert_eq!(root.name(), "root");
    assert_eq!(root.local_name(), "root");
    assert_eq!(root.prefix(), None);
    assert_eq!(root.namespace(), Some("urn:d"));
    assert!(root.has_name(Some("urn:d"), "root"));
    assert!(!root.has_name(None, "root"));
    assert!(!root.has_name(Some("urn:d"), "item"));
}

#[test]
fn prefixed_element() {
    let doc = Document::parse(NS_DOC);
    let item = doc.node(element(&doc, "p:item")).unwrap();
    assert_eq!(item.name(), "p:item");
    assert_eq!(item.local_name(), "item");
    assert_eq!(item.prefix(), Some("p"));
    assert_eq!(item.namespace(), Some("urn:p"));
    assert!(item.has_name(Some("urn:p"), "item"));
    assert!(!item.has_name(Some("urn:d"), "item"));
    assert!(!item.has_name(Some("urn:p"), "p:item"));
}

#[test]
fn undeclared_default_namespace_leaves_elements_in_no_namespace() {
    let doc = Document::parse(NS_DOC);
    let child = doc.node(element(&doc, "child")).unwrap();
    let leaf = doc.node(element(&doc, "leaf")).unwrap();
    assert_eq!(child.namespace(), None);
    assert_eq!(leaf.namespace(), None);
    assert!(leaf.has_name(None, "leaf"));
    // `inner`, a sibling, is back in the default namespace.
    let inner = doc.node(element(&doc, "inner")).unwrap();
    assert_eq!(inner.namespace(), Some("urn:d"));
    assert_eq!(
        doc.node(element(&doc, "q")).unwrap().namespace(),
        Some("urn:d")
    );
}

#[test]
fn attributes_in_source_order_with_their_names() {
    let doc = Document::parse(NS_DOC);
    let root = doc.root_element().unwrap();
    let attributes: Vec<_> = root.attributes().collect();
    let names: Vec<_> = attributes.iter().map(|a| a.name()).collect();
    assert_eq!(names, ["xmlns", "xmlns:p", "xml:lang", "id"]);
    let locals: Vec<_> = attributes.iter().map(|a| a.local_name()).collect();
    assert_eq!(locals, ["xmlns", "p", "lang", "id"]);
    let prefixes: Vec<_> = attributes.iter().map(|a| a.prefix()).collect();
    assert_eq!(prefixes, [None, Some("xmlns"), Some("xml"), None]);
    let namespaces: Vec<_> = attributes.iter().map(|a| a.namespace()).collect();
    assert_eq!(
        namespaces,
        [
            Some(XMLNS_NAMESPACE),
            Some(XMLNS_NAMESPACE),
            Some(XML_NAMESPACE),
            None
        ]
    );
    let values: Vec<_> = attributes.iter().map(|a| a.value()).collect();
    assert_eq!(values, ["urn:d", "urn:p", "en", "r"]);
    let declared: Vec<_> = attributes.iter().map(|a| a.declared_prefix()).collect();
    assert_eq!(declared, [Some(None), Some(Some("p")), None, None]);
    assert_eq!(root.attributes().len(), 4);
    let backwards: Vec<_> = root.attributes().rev().map(|a| a.name()).collect();
    assert_eq!(backwards, ["id", "xml:lang", "xmlns:p", "xmlns"]);
}

#[test]
fn attribute_lookup_by_local_name_and_namespace() {
    let doc = Document::parse(NS_DOC);
    let root = doc.root_element().unwrap();
    assert_eq!(root.attribute("id"), Some("r"));
    assert!(root.has_attribute("id"));
    // `xml:lang` and the declarations are in namespaces.
    assert_eq!(root.attribute("lang"), None);
    assert_eq!(root.attribute("xml:lang"), None);
    assert!(!root.has_attribute("lang"));
    assert_eq!(root.attribute("xmlns"), None);
    assert_eq!(root.attribute_ns(XML_NAMESPACE, "lang"), Some("en"));
    assert_eq!(root.attribute_ns(XMLNS_NAMESPACE, "p"), Some("urn:p"));
    assert_eq!(root.attribute_ns(XMLNS_NAMESPACE, "xmlns"), Some("urn:d"));
    assert_eq!(root.attribute_ns("urn:d", "id"), None);
    assert_eq!(root.attribute("missing"), None);

    let item = doc.node(element(&doc, "p:item")).unwrap();
    // The default namespace does not apply to attributes.
    assert_eq!(item.attribute("plain"), Some("2"));
    assert_eq!(item.attribute_ns("urn:d", "plain"), None);
    assert_eq!(item.attribute("attr"), None);
    assert_eq!(item.attribute_ns("urn:p", "attr"), Some("1"));
    let attr = item.attributes().next().unwrap();
    assert_eq!(
        (attr.name(), attr.local_name(), attr.prefix()),
        ("p:attr", "attr", Some("p"))
    );
    assert_eq!(attr.namespace(), Some("urn:p"));
    assert_eq!(attr.declared_prefix(), None);
}

#[test]
fn undeclarations_are_namespace_declarations_with_empty_values() {
    let doc = Document::parse(NS_DOC);
    let child = doc.node(element(&doc, "child")).unwrap();
    let xmlns = child.attributes().next().unwrap();
    assert_eq!((xmlns.name(), xmlns.value()), ("xmlns", ""));
    assert_eq!(xmlns.declared_prefix(), Some(None));
    let inner = doc.node(element(&doc, "inner")).unwrap();
    let xmlns_p = inner.attributes().next().unwrap();
    assert_eq!((xmlns_p.name(), xmlns_p.value()), ("xmlns:p", ""));
    assert_eq!(xmlns_p.declared_prefix(), Some(Some("p")));
}

#[test]
fn lookup_namespace_uri_in_scope() {
    let doc = Document::parse(NS_DOC);
    let root = doc.root_element().unwrap();
    assert_eq!(root.lookup_namespace_uri(None), Some("urn:d"));
    assert_eq!(root.lookup_namespace_uri(Some("p")), Some("urn:p"));
    assert_eq!(root.lookup_namespace_uri(Some("xml")), Some(XML_NAMESPACE));
    assert_eq!(
        root.lookup_namespace_uri(Some("xmlns")),
        Some(XMLNS_NAMESPACE)
    );
    assert_eq!(root.lookup_namespace_uri(Some("nope")), None);

    // Below `xmlns=""`: no default namespace, `p` still bound.
    let leaf = doc.node(element(&doc, "leaf")).unwrap();
    assert_eq!(leaf.lookup_namespace_uri(None), None);
    assert_eq!(leaf.lookup_namespace_uri(Some("p")), Some("urn:p"));
    // Below `xmlns:p=""`: `p` unbound, the default still there.
    let q = doc.node(element(&doc, "q")).unwrap();
    assert_eq!(q.lookup_namespace_uri(Some("p")), None);
    assert_eq!(q.lookup_namespace_uri(None), Some("urn:d"));

    // Non-elements look through their ancestors.
    let text = doc
        .node(element(&doc, "p:item"))
        .unwrap()
        .first_child()
        .unwrap();
    assert!(text.is_text());
    assert_eq!(text.lookup_namespace_uri(Some("p")), Some("urn:p"));
    assert_eq!(text.lookup_namespace_uri(None), Some("urn:d"));
    // The document has nothing in scope but `xml` and `xmlns`.
    assert_eq!(doc.root().lookup_namespace_uri(None), None);
    assert_eq!(doc.root().lookup_namespace_uri(Some("p")), None);
    assert_eq!(
        doc.root().lookup_namespace_uri(Some("xml")),
        Some(XML_NAMESPACE)
    );
}

#[test]
fn lookup_prefix_in_scope() {
    let doc = Document::parse(NS_DOC);
    let root = doc.root_element().unwrap();
    assert_eq!(root.lookup_prefix("urn:d"), Some(""));
    assert_eq!(root.lookup_prefix("urn:p"), Some("p"));
    assert_eq!(root.lookup_prefix(XML_NAMESPACE), Some("xml"));
    assert_eq!(root.lookup_prefix("urn:none"), None);

    let leaf = doc.node(element(&doc, "leaf")).unwrap();
    assert_eq!(leaf.lookup_prefix("urn:p"), Some("p"));
    // The default namespace was undeclared on `child`.
    assert_eq!(leaf.lookup_prefix("urn:d"), None);
    let q = doc.node(element(&doc, "q")).unwrap();
    assert_eq!(q.lookup_prefix("urn:p"), None);
    assert_eq!(q.lookup_prefix("urn:d"), Some(""));
}

#[test]
fn lookup_prefix_skips_shadowed_bindings() {
    let doc = Document::parse("<a xmlns:p='urn:1' xmlns:q='urn:1'><b xmlns:p='urn:2'/></a>");
    let b = doc.root_element().unwrap().first_child().unwrap();
    assert_eq!(b.lookup_namespace_uri(Some("p")), Some("urn:2"));
    assert_eq!(b.lookup_prefix("urn:2"), Some("p"));
    // `p` no longer means urn:1 at `b`, but `q` still does.
    assert_eq!(b.lookup_prefix("urn:1"), Some("q"));
}

#[test]
fn attribute_spans_slice_the_source() {
    let doc = Document::parse(NS_DOC);
    let root = doc.root_element().unwrap();
    let spans: Vec<(&str, &str)> = root
        .attributes()
        .map(|a| (slice(&doc, a.span()), slice(&doc, a.value_span())))
        .collect();
    assert_eq!(
        spans,
        [
            (r#"xmlns="urn:d""#, "urn:d"),
            (r#"xmlns:p="urn:p""#, "urn:p"),
            (r#"xml:lang="en""#, "en"),
            (r#"id="r""#, "r"),
        ]
    );
}

#[test]
fn attribute_spans_are_byte_offsets_of_the_raw_text() {
    let doc = Document::parse(
        r#"<a x='1'  y="t&amp;u" z="1
2"/>"#,
    );
    let a = doc.root_element().unwrap();
    let x = a.attributes().next().unwrap();
    assert_eq!(x.span(), Some(xml5dom::Span::new(3, 8)));
    assert_eq!(x.value_span(), Some(xml5dom::Span::new(6, 7)));
    let y = a.attributes().nth(1).unwrap();
    assert_eq!(y.span(), Some(xml5dom::Span::new(10, 21)));
    assert_eq!(y.value_span(), Some(xml5dom::Span::new(13, 20)));
    // The value is resolved, the span keeps the text as written.
    assert_eq!(y.value(), "t&u");
    assert_eq!(slice(&doc, y.value_span()), "t&amp;u");
    // A line end in a value is normalized to a space.
    let z = a.attributes().nth(2).unwrap();
    assert_eq!(z.value(), "1 2");
    assert_eq!(slice(&doc, z.value_span()), "1\n2");
    assert_eq!(slice(&doc, z.span()), "z=\"1\n2\"");
}

#[test]
fn node_spans_slice_the_source() {
    let doc = Document::parse("<!--c--><a>x&lt;<b/><?p d?></a>");
    let root = doc.root();
    assert_eq!(root.span(), Some(xml5dom::Span::new(0, doc.source().len())));
    let comment = root.first_child().unwrap();
    assert_eq!(slice(&doc, comment.span()), "<!--c-->");
    let a = doc.root_element().unwrap();
    assert_eq!(slice(&doc, a.span()), "<a>x&lt;<b/><?p d?></a>");
    let spans: Vec<&str> = a.children().map(|n| slice(&doc, n.span())).collect();
    assert_eq!(spans, ["x&lt;", "<b/>", "<?p d?>"]);
}

#[test]
fn text_and_text_content() {
    let doc = Document::parse("<a>x<b>y<!--c--><?pi d?></b>z</a>");
    let a = doc.root_element().unwrap();
    assert_eq!(a.text(), None);
    assert_eq!(a.text_content(), "xyz");
    let b = a.first_element_child().unwrap();
    assert_eq!(b.text_content(), "y");
    let kids: Vec<_> = b.children().collect();
    assert_eq!(kids[0].text(), Some("y"));
    assert_eq!(kids[0].text_content(), "y");
    assert_eq!(kids[1].text(), Some("c"));
    assert_eq!(kids[1].text_content(), "");
    assert_eq!(kids[2].name(), "pi");
    assert_eq!(kids[2].text(), Some("d"));
    assert_eq!(kids[2].text_content(), "");
    assert_eq!(doc.root().text(), None);
    assert_eq!(doc.root().text_content(), "xyz");
}

#[test]
fn text_resolves_references_and_merges_cdata() {
    let doc = Document::parse("<a>1 &lt; 2<![CDATA[ & <b> ]]>!</a>");
    let a = doc.root_element().unwrap();
    assert_eq!(a.children().count(), 1);
    assert_eq!(a.first_child().unwrap().text(), Some("1 < 2 & <b> !"));
}

#[test]
fn cdata_ranges_are_byte_ranges_of_the_merged_text() {
    let doc = Document::parse("<a>1<![CDATA[2]]><![CDATA[3]]>4<![CDATA[5&]]>&lt;</a>");
    let text = doc.root_element().unwrap().first_child().unwrap();
    assert_eq!(text.text(), Some("12345&<"));
    // Adjacent sections merge into one range.
    assert_eq!(cdata(text), [(1, 3), (4, 6)]);
}

#[test]
fn cdata_ranges_count_bytes_not_characters() {
    let doc = Document::parse("<a>é<![CDATA[ü]]></a>");
    let text = doc.root_element().unwrap().first_child().unwrap();
    assert_eq!(text.text(), Some("éü"));
    assert_eq!(cdata(text), [(2, 4)]);
}

#[test]
fn cdata_ranges_empty_without_cdata_and_for_other_nodes() {
    let doc = Document::parse("<a>plain<!--c--></a>");
    let a = doc.root_element().unwrap();
    assert_eq!(cdata(a.first_child().unwrap()), []);
    assert_eq!(cdata(a.last_child().unwrap()), []);
    assert_eq!(cdata(a), []);
}

#[test]
fn doctype_with_public_and_system_identifiers() {
    let doc = Document::parse(concat!(
        r#"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "#,
        r#""http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html/>"#,
    ));
    assert_eq!(doc.errors(), &[]);
    let doctype = doc.root().first_child().unwrap();
    assert!(doctype.is_doctype());
    assert_eq!(doctype.node_type(), NodeType::Doctype);
    assert_eq!(doctype.name(), "html");
    assert_eq!(doctype.local_name(), "html");
    assert_eq!(doctype.prefix(), None);
    assert_eq!(doctype.namespace(), None);
    assert_eq!(
        doctype.public_id(),
        Some("-//W3C//DTD XHTML 1.0 Strict//EN")
    );
    assert_eq!(
        doctype.system_id(),
        Some("http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd")
    );
    assert_eq!(doctype.internal_subset(), None);
    assert_eq!(doctype.text(), None);
    assert_eq!(doctype.attributes().count(), 0);
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <!DOCTYPE html \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">
| <html>
"
    );
}

#[test]
fn doctype_with_system_identifier_and_internal_subset() {
    let doc = Document::parse(r#"<!DOCTYPE Note SYSTEM "note.dtd" [<!ENTITY e "x">]><note/>"#);
    let doctype = doc.root().first_child().unwrap();
    // The name is ASCII-lowercased.
    assert_eq!(doctype.name(), "note");
    assert_eq!(doctype.public_id(), None);
    assert_eq!(doctype.system_id(), Some("note.dtd"));
    assert_eq!(doctype.internal_subset(), Some(r#"<!ENTITY e "x">"#));
    assert_eq!(
        slice(&doc, doctype.span()),
        r#"<!DOCTYPE Note SYSTEM "note.dtd" [<!ENTITY e "x">]>"#
    );
    assert_eq!(
        doc.to_tree_dump(),
        "| <!DOCTYPE note \"\" \"note.dtd\">\n| <note>\n"
    );
}

#[test]
fn doctype_fields_are_none_on_other_nodes() {
    let doc = Document::parse("<a/>");
    let a = doc.root_element().unwrap();
    assert_eq!(
        (a.public_id(), a.system_id(), a.internal_subset()),
        (None, None, None)
    );
}

#[test]
fn a_doctype_name_as_written_keeps_its_case() {
    // (source, name, name as written)
    let cases = [
        ("<!DOCTYPE ROOT><ROOT/>", "root", "ROOT"),
        (
            "<!DOCTYPE Mixed-Case SYSTEM 'm.dtd'><Mixed-Case/>",
            "mixed-case",
            "Mixed-Case",
        ),
        (
            "<!DOCTYPE\n\t  Spaced [<!ENTITY e 'v'>]><Spaced/>",
            "spaced",
            "Spaced",
        ),
        // Only ASCII letters are lowercased: the rest is as written.
        (
            "<!DOCTYPE \u{c9}T\u{c9}><\u{c9}T\u{c9}/>",
            "\u{c9}t\u{c9}",
            "\u{c9}T\u{c9}",
        ),
        // A NUL in the name is U+FFFD in the name, which the source does not
        // hold: the name as the DOCTYPE node has it.
        ("<!DOCTYPE A\u{0}B><a/>", "a\u{fffd}b", "a\u{fffd}b"),
    ];
    for (source, name, written) in cases {
        let doc = Document::parse(source);
        let doctype = doc.root().first_child().unwrap();
        assert!(doctype.is_doctype(), "{source:?}");
        assert_eq!(doctype.name(), name, "{source:?}");
        assert_eq!(
            doctype.doctype_name_as_written(),
            Some(written),
            "{source:?}"
        );
    }
    let doc = Document::parse("<a/>");
    assert_eq!(doc.root_element().unwrap().doctype_name_as_written(), None);
    assert_eq!(doc.root().doctype_name_as_written(), None);
}

#[test]
fn xml_declaration_fields_and_span() {
    let doc =
        Document::parse("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<a/>");
    let declaration = doc.xml_declaration().unwrap();
    assert_eq!(declaration.version.as_deref(), Some("1.0"));
    assert_eq!(declaration.encoding.as_deref(), Some("UTF-8"));
    assert_eq!(declaration.standalone.as_deref(), Some("yes"));
    assert_eq!(declaration.span, xml5dom::Span::new(0, 55));
    assert_eq!(
        &doc.source()[declaration.span.range()],
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
    );
    // It makes no node: the document holds the whitespace and the root.
    assert_eq!(labels(doc.root().children()), ["'\n'", "a"]);
}

#[test]
fn xml_declaration_with_version_only() {
    let doc = Document::parse("<?xml version='1.1'?><a/>");
    let declaration = doc.xml_declaration().unwrap();
    assert_eq!(declaration.version.as_deref(), Some("1.1"));
    assert_eq!(declaration.encoding, None);
    assert_eq!(declaration.standalone, None);
}

#[test]
fn no_xml_declaration() {
    let doc = Document::parse("<a/>");
    assert_eq!(doc.xml_declaration(), None);
}

#[test]
fn misplaced_xml_declaration_is_a_processing_instruction() {
    let doc = Document::parse("<a/><?xml version='1.0'?>");
    assert_eq!(doc.xml_declaration(), None);
    let codes: Vec<_> = doc.errors().iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, ["misplaced-xml-declaration"]);
    let pi = doc.root().last_child().unwrap();
    assert!(pi.is_processing_instruction());
    assert_eq!(pi.name(), "xml");
    assert_eq!(pi.text(), Some("version='1.0'"));
}

#[test]
fn whitespace_outside_the_root_is_kept_but_not_dumped() {
    let doc = Document::parse("<?xml version='1.0'?>\n<!--c-->\n<a/>\n");
    assert_eq!(doc.errors(), &[]);
    assert_eq!(
        labels(doc.root().children()),
        ["'\n'", "<!--c-->", "'\n'", "a", "'\n'"]
    );
    assert_eq!(doc.root_element().unwrap().name(), "a");
    assert_eq!(doc.to_tree_dump(), "| <!-- c -->\n| <a>\n");
    assert_eq!(doc.root().text_content(), "\n\n\n");
}

#[test]
fn whitespace_inside_the_root_is_dumped() {
    let doc = Document::parse("<a>\n<b/> </a>");
    assert_eq!(
        doc.to_tree_dump(),
        "| <a>\n|   \"\n\"\n|   <b>\n|   \" \"\n"
    );
}

#[test]
fn root_element_skips_leading_nodes() {
    let doc = Document::parse("<!DOCTYPE a><!--c--><?p?><a/>");
    assert_eq!(doc.root_element().unwrap().name(), "a");
    assert_eq!(
        labels(doc.root().children()),
        ["!a", "<!--c-->", "<?p ?>", "a"]
    );
}

#[test]
fn no_root_element() {
    let doc = Document::parse("<!--only-->");
    assert_eq!(doc.root_element(), None);
    let codes: Vec<_> = doc.errors().iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, ["missing-root-element"]);
}

#[test]
fn node_types_and_predicates() {
    let doc = Document::parse("<!DOCTYPE a><a>t<!--c--><?p d?></a>");
    let root = doc.root();
    let a = doc.root_element().unwrap();
    let kinds: Vec<NodeType> = std::iter::once(root)
        .chain(root.descendants())
        .map(|n| n.node_type())
        .collect();
    assert_eq!(
        kinds,
        [
            NodeType::Document,
            NodeType::Doctype,
            NodeType::Element,
            NodeType::Text,
            NodeType::Comment,
            NodeType::ProcessingInstruction,
        ]
    );
    let predicates = |n: Node<'_>| {
        [
            n.is_document(),
            n.is_doctype(),
            n.is_element(),
            n.is_text(),
            n.is_comment(),
            n.is_processing_instruction(),
        ]
    };
    let nodes: Vec<Node<'_>> = std::iter::once(root).chain(root.descendants()).collect();
    for (i, node) in nodes.iter().enumerate() {
        let expected: Vec<bool> = (0..6).map(|j| j == i).collect();
        assert_eq!(predicates(*node).to_vec(), expected, "{node:?}");
    }
    // Names of non-elements.
    assert_eq!(root.name(), "");
    assert_eq!(a.first_child().unwrap().name(), "");
    assert_eq!(a.first_child().unwrap().local_name(), "");
    assert_eq!(nodes[4].name(), "");
    assert_eq!(nodes[5].name(), "p");
    assert_eq!(nodes[5].local_name(), "p");
    assert_eq!(nodes[5].prefix(), None);
    assert!(
        !nodes[5].has_name(None, "p"),
        "only elements have names to match"
    );
}

#[test]
fn node_ids_handles_and_equality() {
    let doc = Document::parse("<a><b/></a>");
    let a = doc.root_element().unwrap();
    let b = a.first_child().unwrap();
    assert_eq!(doc.node(b.id()), Some(b));
    assert_eq!(b.parent(), Some(a));
    assert_ne!(a, b);
    assert!(std::ptr::eq(b.document(), &doc));
    // Handles into two documents differ even at the same position.
    let other = Document::parse("<a><b/></a>");
    assert_ne!(other.root_element().unwrap(), a);
    assert_eq!(format!("{a:?}"), "Element(a @ 1:1)");
    assert_eq!(format!("{:?}", doc.root()), "Document");
}

#[test]
fn debug_of_document_is_the_dump() {
    let doc = Document::parse("<a>t</a>");
    assert_eq!(format!("{doc:?}"), "| <a>\n|   \"t\"\n");
}

// ----- Reading: positions and errors -----------------------------------------

#[test]
fn position_after_cr_lf_and_multibyte_characters() {
    // Offsets: `\r` 3, `\n` 4, `<b/>` 7..11, `\r\n` 11..13, `\t` 13,
    // `é` 14..16, `<c/>` 16..20, `</a>` 20..24.
    let doc = Document::parse("<a>\r\n  <b/>\r\n\té<c/></a>");
    assert_eq!(doc.source().len(), 24);
    assert_eq!(doc.position(0), (1, 1));
    assert_eq!(doc.position(3), (1, 4));
    // The LF of a CR LF is still on the first line.
    assert_eq!(doc.position(4), (1, 5));
    assert_eq!(doc.position(5), (2, 1));
    let b = doc.node(element(&doc, "b")).unwrap();
    assert_eq!(doc.position(b.span().unwrap().start), (2, 3));
    let c = doc.node(element(&doc, "c")).unwrap();
    assert_eq!(c.span().unwrap().start, 16);
    // `\t` and `é` are one column each.
    assert_eq!(doc.position(16), (3, 3));
    // Inside `é`: the position of its first byte.
    assert_eq!(doc.position(15), (3, 2));
    assert_eq!(doc.position(24), (3, 11));
    assert_eq!(doc.position(1000), (3, 11));
}

#[test]
fn position_after_lone_cr_and_lf() {
    let doc = Document::parse("<a>\r\r\n\n</a>");
    // Line starts: 0, 4 (after `\r`), 6 (after `\r\n`), 7 (after `\n`).
    assert_eq!(doc.position(4), (2, 1));
    assert_eq!(doc.position(5), (2, 2));
    assert_eq!(doc.position(6), (3, 1));
    assert_eq!(doc.position(7), (4, 1));
}

#[test]
fn errors_carry_positions_in_source_order() {
    // The second `x` is at byte 16: line 2, column 12.
    let doc = Document::parse("<a>\r\n  <b x='1' x='2'/><c></a>");
    let errors: Vec<_> = doc
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.offset, e.line, e.column))
        .collect();
    assert_eq!(
        errors,
        [
            ("duplicate-attribute", 16, 2, 12),
            ("mismatched-end-tag", 26, 2, 22),
        ]
    );
    assert_eq!(doc.position(16), (2, 12));
    let b = doc.node(element(&doc, "b")).unwrap();
    assert_eq!(b.attributes().count(), 1);
    assert_eq!(b.attribute("x"), Some("1"));
}

// ----- Moving around ------------------------------------------------------

/// a
///   b
///     c
///     't'
///     d
///   e
///   <!--x-->
///   f
///     g
const TREE: &str = "<a><b><c/>t<d/></b><e/><!--x--><f><g/></f></a>";

#[test]
fn children_and_reverse() {
    let doc = Document::parse(TREE);
    let a = doc.root_element().unwrap();
    assert_eq!(labels(a.children()), ["b", "e", "<!--x-->", "f"]);
    assert_eq!(labels(a.children().rev()), ["f", "<!--x-->", "e", "b"]);
    let b = a.first_child().unwrap();
    assert_eq!(labels(b.children()), ["c", "'t'", "d"]);
    assert_eq!(labels(doc.root().children()), ["a"]);
}

#[test]
fn children_from_both_ends_meet_once() {
    let doc = Document::parse(TREE);
    let a = doc.root_element().unwrap();
    let mut children = a.children();
    assert_eq!(children.next().map(label).as_deref(), Some("b"));
    assert_eq!(children.next_back().map(label).as_deref(), Some("f"));
    assert_eq!(children.next_back().map(label).as_deref(), Some("<!--x-->"));
    assert_eq!(children.next().map(label).as_deref(), Some("e"));
    assert_eq!(children.next().map(label), None);
    assert_eq!(children.next_back().map(label), None);
}

#[test]
fn first_last_child_and_has_children() {
    let doc = Document::parse(TREE);
    let a = doc.root_element().unwrap();
    assert_eq!(a.first_child().map(label).as_deref(), Some("b"));
    assert_eq!(a.last_child().map(label).as_deref(), Some("f"));
    let b = a.first_child().unwrap();
    assert_eq!(b.first_child().map(label).as_deref(), Some("c"));
    assert_eq!(b.last_child().map(label).as_deref(), Some("d"));
    assert!(a.has_children());
    let c = b.first_child().unwrap();
    assert!(!c.has_children());
    assert_eq!(c.first_child(), None);
    assert_eq!(c.last_child(), None);
    let text = c.next_sibling().unwrap();
    assert!(!text.has_children());
    let g = doc.node(element(&doc, "g")).unwrap();
    // An only child is both first and last.
    let f = g.parent().unwrap();
    assert_eq!(f.first_child(), Some(g));
    assert_eq!(f.last_child(), Some(g));
}

#[test]
fn sibling_links() {
    let doc = Document::parse(TREE);
    let a = doc.root_element().unwrap();
    let b = a.first_child().unwrap();
    let mut forward = vec![label(b)];
    let mut node = b;
    while let Some(next) = node.next_sibling() {
        forward.push(label(next));
        node = next;
    }
    assert_eq!(forward, ["b", "e", "<!--x-->", "f"]);
    let mut backward = vec![label(node)];
    while let Some(prev) = node.prev_sibling() {
        backward.push(label(prev));
        node = prev;
    }
    assert_eq!(backward, ["f", "<!--x-->", "e", "b"]);
    assert_eq!(b.prev_sibling(), None);
    assert_eq!(a.last_child().unwrap().next_sibling(), None);
    // The root element and the document have no siblings.
    assert_eq!(a.next_sibling(), None);
    assert_eq!(a.prev_sibling(), None);
    assert_eq!(doc.root().next_sibling(), None);
}

#[test]
fn parent_links() {
    let doc = Document::parse(TREE);
    let g = doc.node(element(&doc, "g")).unwrap();
    assert_eq!(g.parent().map(label).as_deref(), Some("f"));
    let a = doc.root_element().unwrap();
    assert_eq!(a.parent(), Some(doc.root()));
    assert_eq!(doc.root().parent(), None);
    let text = doc.node(labelled(&doc, "'t'")).unwrap();
    assert_eq!(text.parent().map(label).as_deref(), Some("b"));
}

#[test]
fn ancestors_nearest_first_without_self() {
    let doc = Document::parse(TREE);
    let g = doc.node(element(&doc, "g")).unwrap();
    assert_eq!(labels(g.ancestors()), ["f", "a", "#document"]);
    assert_eq!(labels(g.ancestor_elements()), ["f", "a"]);
    let text = doc.node(labelled(&doc, "'t'")).unwrap();
    assert_eq!(labels(text.ancestors()), ["b", "a", "#document"]);
    let a = doc.root_element().unwrap();
    assert_eq!(labels(a.ancestors()), ["#document"]);
    assert_eq!(labels(a.ancestor_elements()), Vec::<String>::new());
    assert_eq!(doc.root().ancestors().count(), 0);
}

#[test]
fn descendants_in_document_order_without_self() {
    let doc = Document::parse(TREE);
    let a = doc.root_element().unwrap();
    assert_eq!(
        labels(a.descendants()),
        ["b", "c", "'t'", "d", "e", "<!--x-->", "f", "g"]
    );
    assert_eq!(
        labels(a.descendant_elements()),
        ["b", "c", "d", "e", "f", "g"]
    );
    assert_eq!(
        labels(doc.root().descendants()),
        ["a", "b", "c", "'t'", "d", "e", "<!--x-->", "f", "g"]
    );
    let b = a.first_child().unwrap();
    // Stops at the end of the subtree, not at the end of the document.
    assert_eq!(labels(b.descendants()), ["c", "'t'", "d"]);
    let c = b.first_child().unwrap();
    assert_eq!(c.descendants().count(), 0);
    assert_eq!(c.descendant_elements().count(), 0);
}

#[test]
fn following_siblings_nearest_first() {
    let doc = Document::parse(TREE);
    let b = doc.node(element(&doc, "b")).unwrap();
    assert_eq!(labels(b.following_siblings()), ["e", "<!--x-->", "f"]);
    assert_eq!(labels(b.following_sibling_elements()), ["e", "f"]);
    let e = b.next_sibling().unwrap();
    assert_eq!(labels(e.following_siblings()), ["<!--x-->", "f"]);
    let f = doc.node(element(&doc, "f")).unwrap();
    assert_eq!(f.following_siblings().count(), 0);
    assert_eq!(f.following_sibling_elements().count(), 0);
    // A comment's element siblings.
    let comment = f.prev_sibling().unwrap();
    assert_eq!(labels(comment.following_sibling_elements()), ["f"]);
}

#[test]
fn preceding_siblings_nearest_first() {
    let doc = Document::parse(TREE);
    let f = doc.node(element(&doc, "f")).unwrap();
    assert_eq!(labels(f.preceding_siblings()), ["<!--x-->", "e", "b"]);
    assert_eq!(labels(f.preceding_sibling_elements()), ["e", "b"]);
    let d = doc.node(element(&doc, "d")).unwrap();
    assert_eq!(labels(d.preceding_siblings()), ["'t'", "c"]);
    assert_eq!(labels(d.preceding_sibling_elements()), ["c"]);
    let b = doc.node(element(&doc, "b")).unwrap();
    assert_eq!(b.preceding_siblings().count(), 0);
    assert_eq!(b.preceding_sibling_elements().count(), 0);
}

#[test]
fn element_children_and_element_siblings() {
    let doc = Document::parse(TREE);
    let a = doc.root_element().unwrap();
    assert_eq!(labels(a.child_elements()), ["b", "e", "f"]);
    assert_eq!(labels(a.child_elements().rev()), ["f", "e", "b"]);
    assert_eq!(a.first_element_child().map(label).as_deref(), Some("b"));
    assert_eq!(a.last_element_child().map(label).as_deref(), Some("f"));
    let b = a.first_element_child().unwrap();
    assert_eq!(b.first_element_child().map(label).as_deref(), Some("c"));
    assert_eq!(b.last_element_child().map(label).as_deref(), Some("d"));
    let c = b.first_element_child().unwrap();
    // Skips the text between `c` and `d`.
    assert_eq!(c.next_sibling_element().map(label).as_deref(), Some("d"));
    assert_eq!(c.next_sibling().map(label).as_deref(), Some("'t'"));
    let d = c.next_sibling_element().unwrap();
    assert_eq!(d.prev_sibling_element(), Some(c));
    assert_eq!(d.next_sibling_element(), None);
    assert_eq!(c.prev_sibling_element(), None);
    // Skips the comment between `e` and `f`.
    let e = b.next_sibling_element().unwrap();
    assert_eq!(e.next_sibling_element().map(label).as_deref(), Some("f"));
    let f = a.last_element_child().unwrap();
    assert_eq!(f.prev_sibling_element(), Some(e));
}

#[test]
fn element_variants_on_nodes_without_element_neighbours() {
    let doc = Document::parse("<a>t<!--c--></a>");
    let a = doc.root_element().unwrap();
    assert_eq!(a.child_elements().count(), 0);
    assert_eq!(a.first_element_child(), None);
    assert_eq!(a.last_element_child(), None);
    assert_eq!(a.descendant_elements().count(), 0);
    let text = a.first_child().unwrap();
    assert_eq!(text.next_sibling_element(), None);
    assert_eq!(text.prev_sibling_element(), None);
    assert_eq!(text.child_elements().count(), 0);
    assert_eq!(labels(text.ancestor_elements()), ["a"]);
    assert_eq!(doc.root().first_element_child(), Some(a));
    assert_eq!(doc.root().last_element_child(), Some(a));
}

#[test]
fn traverse_opens_and_closes_every_node() {
    let doc = Document::parse(TREE);
    let b = doc.node(element(&doc, "b")).unwrap();
    assert_eq!(edges(b), "+b +c -c +'t' -'t' +d -d -b");
    let a = doc.root_element().unwrap();
    assert_eq!(
        edges(a),
        "+a +b +c -c +'t' -'t' +d -d -b +e -e +<!--x--> -<!--x--> +f +g -g -f -a"
    );
}

#[test]
fn traverse_of_a_leaf_stays_on_it() {
    let doc = Document::parse(TREE);
    let c = doc.node(element(&doc, "c")).unwrap();
    assert_eq!(edges(c), "+c -c");
    let text = doc.node(labelled(&doc, "'t'")).unwrap();
    assert_eq!(edges(text), "+'t' -'t'");
    let e = doc.node(element(&doc, "e")).unwrap();
    assert_eq!(edges(e), "+e -e");
    // The last node in the document.
    let g = doc.node(element(&doc, "g")).unwrap();
    assert_eq!(edges(g), "+g -g");
}

#[test]
fn traverse_of_the_document() {
    let doc = Document::parse("<!--c--><a><b/></a>");
    assert_eq!(
        edges(doc.root()),
        "+#document +<!--c--> -<!--c--> +a +b -b -a -#document"
    );
}

// ----- Editing: creating and inserting --------------------------------------

const EDIT: &str = "<r><a><a1/><a2/></a><b><b1/></b></r>";

#[test]
fn created_nodes_start_detached() {
    let mut doc = Document::parse("<r/>");
    let e = doc.create_element("e");
    let ns = doc.create_element_ns("urn:n", "n:e");
    let t = doc.create_text("text");
    let c = doc.create_comment("comment");
    let pi = doc.create_processing_instruction("target", "data");
    for id in [e, ns, t, c, pi] {
        let node = doc.node(id).unwrap();
        assert_eq!(node.parent(), None, "{node:?}");
        assert_eq!(node.next_sibling(), None);
        assert_eq!(node.prev_sibling(), None);
        assert!(!node.has_children());
        assert_eq!(node.span(), None, "created nodes have no source");
        assert!(std::ptr::eq(node.document(), &doc));
    }
    assert_eq!(doc.node(e).unwrap().node_type(), NodeType::Element);
    assert_eq!(doc.node(t).unwrap().node_type(), NodeType::Text);
    assert_eq!(doc.node(c).unwrap().node_type(), NodeType::Comment);
    assert_eq!(
        doc.node(pi).unwrap().node_type(),
        NodeType::ProcessingInstruction
    );
    // They are not in the tree.
    assert_eq!(doc.root().descendants().count(), 1);
    assert_eq!(doc.to_tree_dump(), "| <r>\n");
    assert_consistent(&doc);
}

#[test]
fn created_nodes_carry_their_names_and_text() {
    let mut doc = Document::parse("<r xmlns:p='urn:p'/>");
    let e = doc.create_element("p:e");
    let e = doc.node(e).unwrap();
    // No scope when created: the prefix is split but not resolved.
    assert_eq!(
        (e.name(), e.prefix(), e.local_name()),
        ("p:e", Some("p"), "e")
    );
    assert_eq!(e.namespace(), None);
    let x = doc.create_element("xml:e");
    assert_eq!(doc.node(x).unwrap().namespace(), Some(XML_NAMESPACE));
    let ns = doc.create_element_ns("urn:n", "n:e");
    let ns = doc.node(ns).unwrap();
    assert_eq!((ns.prefix(), ns.local_name()), (Some("n"), "e"));
    assert_eq!(ns.namespace(), Some("urn:n"));
    assert!(ns.has_name(Some("urn:n"), "e"));
    let plain = doc.create_element_ns("", "plain");
    assert_eq!(doc.node(plain).unwrap().namespace(), None);
    let t = doc.create_text("a < b");
    assert_eq!(doc.node(t).unwrap().text(), Some("a < b"));
    assert_eq!(cdata(doc.node(t).unwrap()), []);
    let c = doc.create_comment("note");
    assert_eq!(doc.node(c).unwrap().text(), Some("note"));
    let pi = doc.create_processing_instruction("go", "now");
    assert_eq!(doc.node(pi).unwrap().name(), "go");
    assert_eq!(doc.node(pi).unwrap().text(), Some("now"));
}

#[test]
fn created_element_resolves_its_prefix_where_it_lands() {
    let mut doc = Document::parse("<r xmlns='urn:d' xmlns:p='urn:p'/>");
    let r = doc.root_element().unwrap().id();
    let plain = doc.create_element("plain");
    let prefixed = doc.create_element("p:x");
    assert_eq!(doc.node(prefixed).unwrap().namespace(), None);
    doc.append(r, plain).unwrap();
    doc.append(r, prefixed).unwrap();
    assert_eq!(doc.node(plain).unwrap().namespace(), None);
    assert_eq!(doc.node(prefixed).unwrap().namespace(), Some("urn:p"));
    assert_consistent(&doc);
}

#[test]
fn append_new_nodes() {
    let mut doc = Document::parse(EDIT);
    let b = element(&doc, "b");
    let b2 = doc.create_element("b2");
    doc.append(b, b2).unwrap();
    let t = doc.create_text("t");
    doc.append(b, t).unwrap();
    assert_eq!(child_labels(&doc, b), ["b1", "b2", "'t'"]);
    assert_eq!(doc.node(b2).unwrap().parent().unwrap().id(), b);
    assert_consistent(&doc);
}

#[test]
fn append_into_an_empty_element() {
    let mut doc = Document::parse(EDIT);
    let a1 = element(&doc, "a1");
    let c = doc.create_comment("c");
    doc.append(a1, c).unwrap();
    assert_eq!(child_labels(&doc, a1), ["<!--c-->"]);
    assert_consistent(&doc);
}

#[test]
fn prepend_new_nodes() {
    let mut doc = Document::parse(EDIT);
    let a = element(&doc, "a");
    let t = doc.create_text("first");
    doc.prepend(a, t).unwrap();
    let c = doc.create_comment("before");
    doc.prepend(a, c).unwrap();
    assert_eq!(
        child_labels(&doc, a),
        ["<!--before-->", "'first'", "a1", "a2"]
    );
    assert_consistent(&doc);
    let a2 = element(&doc, "a2");
    let only = doc.create_element("only");
    doc.prepend(a2, only).unwrap();
    assert_eq!(child_labels(&doc, a2), ["only"]);
    assert_consistent(&doc);
}

#[test]
fn insert_before_and_after_new_nodes() {
    let mut doc = Document::parse(EDIT);
    let a1 = element(&doc, "a1");
    let a2 = element(&doc, "a2");
    let first = doc.create_comment("first");
    doc.insert_before(a1, first).unwrap();
    let middle = doc.create_processing_instruction("mid", "dle");
    doc.insert_after(a1, middle).unwrap();
    let last = doc.create_text("last");
    doc.insert_after(a2, last).unwrap();
    let before_a2 = doc.create_element("x");
    doc.insert_before(a2, before_a2).unwrap();
    let a = element(&doc, "a");
    assert_eq!(
        child_labels(&doc, a),
        ["<!--first-->", "a1", "<?mid dle?>", "x", "a2", "'last'"]
    );
    assert_consistent(&doc);
}

#[test]
fn insert_next_to_the_root_element() {
    let mut doc = Document::parse("<r/>");
    let r = doc.root_element().unwrap().id();
    let c = doc.create_comment("before");
    doc.insert_before(r, c).unwrap();
    let pi = doc.create_processing_instruction("after", "x");
    doc.insert_after(r, pi).unwrap();
    assert_eq!(
        labels(doc.root().children()),
        ["<!--before-->", "r", "<?after x?>"]
    );
    assert_eq!(doc.root_element().unwrap().id(), r);
    assert_eq!(
        doc.to_tree_dump(),
        "| <!-- before -->\n| <r>\n| <?after x?>\n"
    );
    assert_consistent(&doc);
}

#[test]
fn append_moves_an_existing_node_to_another_parent() {
    let mut doc = Document::parse(EDIT);
    let (a, b, a1) = (element(&doc, "a"), element(&doc, "b"), element(&doc, "a1"));
    doc.append(b, a1).unwrap();
    assert_eq!(child_labels(&doc, a), ["a2"]);
    assert_eq!(child_labels(&doc, b), ["b1", "a1"]);
    assert_eq!(doc.node(a1).unwrap().parent().unwrap().id(), b);
    assert_eq!(
        doc.node(a1).unwrap().prev_sibling().map(label).as_deref(),
        Some("b1")
    );
    assert_consistent(&doc);
}

#[test]
fn append_moves_a_subtree_deeper() {
    let mut doc = Document::parse(EDIT);
    let (a, b1) = (element(&doc, "a"), element(&doc, "b1"));
    doc.append(b1, a).unwrap();
    assert_eq!(labels(doc.root_element().unwrap().children()), ["b"]);
    assert_eq!(
        child_labels(&doc, a),
        ["a1", "a2"],
        "the subtree moves whole"
    );
    let a2 = doc.node(element(&doc, "a2")).unwrap();
    assert_eq!(labels(a2.ancestors()), ["a", "b1", "b", "r", "#document"]);
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <r>
|   <b>
|     <b1>
|       <a>
|         <a1>
|         <a2>
"
    );
    assert_consistent(&doc);
}

#[test]
fn append_moves_a_node_up() {
    let mut doc = Document::parse(EDIT);
    let (r, a1) = (element(&doc, "r"), element(&doc, "a1"));
    doc.append(r, a1).unwrap();
    assert_eq!(child_labels(&doc, r), ["a", "b", "a1"]);
    assert_eq!(child_labels(&doc, element(&doc, "a")), ["a2"]);
    assert_consistent(&doc);
}

#[test]
fn append_of_the_last_child_keeps_it_last() {
    let mut doc = Document::parse(EDIT);
    let (a, a2) = (element(&doc, "a"), element(&doc, "a2"));
    doc.append(a, a2).unwrap();
    assert_eq!(child_labels(&doc, a), ["a1", "a2"]);
    assert_consistent(&doc);
}

#[test]
fn append_reorders_within_one_parent() {
    let mut doc = Document::parse(EDIT);
    let (a, a1) = (element(&doc, "a"), element(&doc, "a1"));
    doc.append(a, a1).unwrap();
    assert_eq!(child_labels(&doc, a), ["a2", "a1"]);
    assert_consistent(&doc);
}

#[test]
fn prepend_moves_an_existing_node() {
    let mut doc = Document::parse(EDIT);
    let (a, b, b1) = (element(&doc, "a"), element(&doc, "b"), element(&doc, "b1"));
    doc.prepend(a, b1).unwrap();
    assert_eq!(child_labels(&doc, a), ["b1", "a1", "a2"]);
    assert_eq!(child_labels(&doc, b), Vec::<String>::new());
    assert!(!doc.node(b).unwrap().has_children());
    assert_consistent(&doc);
    let a2 = element(&doc, "a2");
    doc.prepend(a, a2).unwrap();
    assert_eq!(child_labels(&doc, a), ["a2", "b1", "a1"]);
    assert_consistent(&doc);
}

#[test]
fn insert_before_moves_a_node_from_another_parent() {
    let mut doc = Document::parse(EDIT);
    let (a, b, a1, b1) = (
        element(&doc, "a"),
        element(&doc, "b"),
        element(&doc, "a1"),
        element(&doc, "b1"),
    );
    doc.insert_before(a1, b1).unwrap();
    assert_eq!(child_labels(&doc, a), ["b1", "a1", "a2"]);
    assert_eq!(child_labels(&doc, b), Vec::<String>::new());
    assert_consistent(&doc);
}

#[test]
fn insert_after_moves_a_node_between_depths() {
    let mut doc = Document::parse(EDIT);
    let (r, a, a1) = (element(&doc, "r"), element(&doc, "a"), element(&doc, "a1"));
    // Up one level, right after its old parent.
    doc.insert_after(a, a1).unwrap();
    assert_eq!(child_labels(&doc, r), ["a", "a1", "b"]);
    assert_eq!(child_labels(&doc, a), ["a2"]);
    assert_consistent(&doc);
    // Down again, after `b1`.
    let b1 = element(&doc, "b1");
    doc.insert_after(b1, a1).unwrap();
    assert_eq!(child_labels(&doc, r), ["a", "b"]);
    assert_eq!(child_labels(&doc, element(&doc, "b")), ["b1", "a1"]);
    assert_consistent(&doc);
}

#[test]
fn insert_after_swaps_siblings() {
    let mut doc = Document::parse(EDIT);
    let (a, a1, a2) = (element(&doc, "a"), element(&doc, "a1"), element(&doc, "a2"));
    doc.insert_after(a2, a1).unwrap();
    assert_eq!(child_labels(&doc, a), ["a2", "a1"]);
    assert_consistent(&doc);
    doc.insert_before(a2, a1).unwrap();
    assert_eq!(child_labels(&doc, a), ["a1", "a2"]);
    assert_consistent(&doc);
}

#[test]
fn ids_stay_valid_across_moves() {
    let mut doc = Document::parse("<r><a x='1'>t</a><b/></r>");
    let (a, b) = (element(&doc, "a"), element(&doc, "b"));
    doc.append(b, a).unwrap();
    let moved = doc.node(a).unwrap();
    assert_eq!(moved.attribute("x"), Some("1"));
    assert_eq!(moved.text_content(), "t");
    // The span still points at where it was parsed from.
    assert_eq!(slice(&doc, moved.span()), "<a x='1'>t</a>");
}

// ----- Editing: detaching and removing ------------------------------------

#[test]
fn detach_then_reinsert_elsewhere() {
    let mut doc = Document::parse(EDIT);
    let (r, a, b1) = (element(&doc, "r"), element(&doc, "a"), element(&doc, "b1"));
    doc.detach(a).unwrap();
    assert_eq!(child_labels(&doc, r), ["b"]);
    let detached = doc.node(a).unwrap();
    assert_eq!(detached.parent(), None);
    assert_eq!(detached.next_sibling(), None);
    assert_eq!(
        labels(detached.children()),
        ["a1", "a2"],
        "keeps its subtree"
    );
    assert_eq!(doc.to_tree_dump(), "| <r>\n|   <b>\n|     <b1>\n");
    assert_consistent(&doc);

    doc.insert_before(b1, a).unwrap();
    assert_eq!(child_labels(&doc, element(&doc, "b")), ["a", "b1"]);
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <r>
|   <b>
|     <a>
|       <a1>
|       <a2>
|     <b1>
"
    );
    assert_consistent(&doc);
}

#[test]
fn detach_of_a_detached_node_is_harmless() {
    let mut doc = Document::parse(EDIT);
    let a = element(&doc, "a");
    doc.detach(a).unwrap();
    doc.detach(a).unwrap();
    let e = doc.create_element("e");
    doc.detach(e).unwrap();
    assert_eq!(doc.node(e).unwrap().parent(), None);
    assert_consistent(&doc);
}

#[test]
fn detach_a_middle_child_relinks_its_siblings() {
    let mut doc = Document::parse("<r><a/><b/><c/></r>");
    let (r, b) = (element(&doc, "r"), element(&doc, "b"));
    doc.detach(b).unwrap();
    assert_eq!(child_labels(&doc, r), ["a", "c"]);
    let a = doc.node(element(&doc, "a")).unwrap();
    assert_eq!(a.next_sibling().map(label).as_deref(), Some("c"));
    assert_consistent(&doc);
}

#[test]
fn edit_inside_a_detached_subtree() {
    let mut doc = Document::parse(EDIT);
    let (a, a1, r) = (element(&doc, "a"), element(&doc, "a1"), element(&doc, "r"));
    doc.detach(a).unwrap();
    let n = doc.create_element("n");
    doc.append(a1, n).unwrap();
    doc.set_attribute(a, "k", "v").unwrap();
    assert_eq!(
        labels(doc.node(a).unwrap().descendants()),
        ["a1", "n", "a2"]
    );
    doc.append(r, a).unwrap();
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <r>
|   <b>
|     <b1>
|   <a>
|     k=\"v\"
|     <a1>
|       <n>
|     <a2>
"
    );
    assert_consistent(&doc);
}

#[test]
fn remove_a_subtree_invalidates_every_id_in_it() {
    let mut doc = Document::parse("<r><a>x<a1>y<!--c--></a1></a><b>z</b></r>");
    let r = element(&doc, "r");
    let a = element(&doc, "a");
    let removed: Vec<NodeId> = std::iter::once(doc.node(a).unwrap())
        .chain(doc.node(a).unwrap().descendants())
        .map(|n| n.id())
        .collect();
    assert_eq!(removed.len(), 5);
    assert_eq!(doc.root().text_content(), "xyz");

    doc.remove(a).unwrap();
    for id in &removed {
        assert_eq!(doc.node(*id), None);
    }
    assert_eq!(child_labels(&doc, r), ["b"]);
    assert!(doc.root().descendants().all(|n| !removed.contains(&n.id())));
    assert_eq!(doc.root().text_content(), "z");
    assert_eq!(doc.to_tree_dump(), "| <r>\n|   <b>\n|     \"z\"\n");
    assert_consistent(&doc);
}

#[test]
fn removed_ids_stay_invalid_after_new_nodes_are_created() {
    let mut doc = Document::parse("<r><a/><b/></r>");
    let (r, a) = (element(&doc, "r"), element(&doc, "a"));
    doc.remove(a).unwrap();
    let fresh: Vec<NodeId> = (0..4).map(|_| doc.create_element("n")).collect();
    assert_eq!(doc.node(a), None);
    assert!(!fresh.contains(&a));
    for id in fresh {
        doc.append(r, id).unwrap();
    }
    assert_eq!(doc.node(a), None);
    assert_eq!(child_labels(&doc, r), ["b", "n", "n", "n", "n"]);
    assert_consistent(&doc);
}

#[test]
fn remove_a_detached_node() {
    let mut doc = Document::parse("<r/>");
    let e = doc.create_element("e");
    let t = doc.create_text("t");
    doc.append(e, t).unwrap();
    doc.remove(e).unwrap();
    assert_eq!(doc.node(e), None);
    assert_eq!(doc.node(t), None);
    assert_eq!(doc.to_tree_dump(), "| <r>\n");
    assert_consistent(&doc);
}

#[test]
fn remove_a_first_and_a_last_child() {
    let mut doc = Document::parse("<r><a/><b/><c/></r>");
    let r = element(&doc, "r");
    doc.remove(element(&doc, "a")).unwrap();
    assert_eq!(child_labels(&doc, r), ["b", "c"]);
    assert_consistent(&doc);
    doc.remove(element(&doc, "c")).unwrap();
    assert_eq!(child_labels(&doc, r), ["b"]);
    assert_consistent(&doc);
    doc.remove(element(&doc, "b")).unwrap();
    assert!(!doc.node(r).unwrap().has_children());
    assert_consistent(&doc);
}

#[test]
fn the_root_element_is_replaced_not_removed() {
    let mut doc = Document::parse("<!--c--><r><a/></r>");
    let r = element(&doc, "r");
    assert_invalid(doc.remove(r));
    assert_invalid(doc.detach(r));
    let a = element(&doc, "a");
    doc.replace(r, a).unwrap();
    assert_eq!(doc.root_element().unwrap().id(), a);
    assert!(doc.node(r).is_none());
    assert_eq!(doc.to_tree_dump(), "| <!-- c -->\n| <a>\n");
    assert_consistent(&doc);
}

// ----- Editing: attributes ------------------------------------------------

#[test]
fn set_attribute_replaces_in_place_and_adds_at_the_end() {
    let mut doc = Document::parse("<a x='1' y='2'/>");
    let a = element(&doc, "a");
    doc.set_attribute(a, "x", "3").unwrap();
    doc.set_attribute(a, "z", "4").unwrap();
    let node = doc.node(a).unwrap();
    let attributes: Vec<_> = node.attributes().map(|a| (a.name(), a.value())).collect();
    assert_eq!(attributes, [("x", "3"), ("y", "2"), ("z", "4")]);
    let spans: Vec<_> = node.attributes().map(|a| a.span()).collect();
    // Set attributes have no source; `y` keeps its span.
    assert_eq!(spans, [None, Some(xml5dom::Span::new(9, 14)), None]);
    assert_eq!(node.attributes().next().unwrap().value_span(), None);
    assert_eq!(
        doc.to_tree_dump(),
        "| <a>\n|   x=\"3\"\n|   y=\"2\"\n|   z=\"4\"\n"
    );
    assert_consistent(&doc);
}

#[test]
fn attribute_edits_on_neighbours_keep_each_element_its_own_attributes() {
    // Elements' attributes are stored side by side: growing the first must
    // not spill into the second, and removing must not take from it.
    let mut doc = Document::parse("<r><a x='1' y='2'/><b p='3' q='4'/><c/></r>");
    let (a, b, c) = (element(&doc, "a"), element(&doc, "b"), element(&doc, "c"));
    doc.set_attribute(a, "z", "5").unwrap();
    doc.set_attribute(c, "k", "6").unwrap();
    doc.set_attribute(a, "w", "7").unwrap();
    doc.set_attribute(b, "q", "8").unwrap();
    assert_eq!(doc.remove_attribute(a, "x").unwrap().as_deref(), Some("1"));
    assert_eq!(doc.remove_attribute(b, "p").unwrap().as_deref(), Some("3"));
    let pairs = |id| -> Vec<(String, String)> {
        doc.node(id)
            .unwrap()
            .attributes()
            .map(|a| (a.name().to_owned(), a.value().to_owned()))
            .collect()
    };
    let owned = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    };
    assert_eq!(pairs(a), owned(&[("y", "2"), ("z", "5"), ("w", "7")]));
    assert_eq!(pairs(b), owned(&[("q", "8")]));
    assert_eq!(pairs(c), owned(&[("k", "6")]));
    assert_eq!(
        doc.to_xml(),
        "<r><a y='2' z=\"5\" w=\"7\"/><b q='8'/><c k=\"6\"/></r>"
    );
    assert_consistent(&doc);
}

#[test]
fn set_attribute_resolves_its_prefix_in_scope() {
    let mut doc = Document::parse("<r xmlns='urn:d' xmlns:p='urn:p'><a/></r>");
    let a = element(&doc, "a");
    doc.set_attribute(a, "p:k", "1").unwrap();
    doc.set_attribute(a, "k", "2").unwrap();
    doc.set_attribute(a, "xml:lang", "fr").unwrap();
    let node = doc.node(a).unwrap();
    let p_k = node.attributes().next().unwrap();
    assert_eq!(
        (p_k.name(), p_k.prefix(), p_k.local_name(), p_k.namespace()),
        ("p:k", Some("p"), "k", Some("urn:p"))
    );
    assert_eq!(node.attribute_ns("urn:p", "k"), Some("1"));
    // Unprefixed attributes take no namespace, even with a default in scope.
    assert_eq!(node.attributes().nth(1).unwrap().namespace(), None);
    assert_eq!(node.attribute("k"), Some("2"));
    assert_eq!(node.attribute_ns(XML_NAMESPACE, "lang"), Some("fr"));
    assert_eq!(node.attributes().count(), 3);
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <{urn:d}r>
|   {http://www.w3.org/2000/xmlns/}xmlns:p=\"urn:p\"
|   {http://www.w3.org/2000/xmlns/}xmlns=\"urn:d\"
|   <{urn:d}a>
|     k=\"2\"
|     {urn:p}p:k=\"1\"
|     {http://www.w3.org/XML/1998/namespace}xml:lang=\"fr\"
"
    );
    assert_consistent(&doc);
}

#[test]
fn set_attribute_with_an_unbound_prefix_waits_until_the_element_lands() {
    let mut doc = Document::parse("<a xmlns:q='urn:q'/>");
    assert_invalid(doc.set_attribute(element(&doc, "a"), "z:k", "v"));
    let a = doc.create_element("e");
    doc.set_attribute(a, "q:k", "v").unwrap();
    let attribute = doc.node(a).unwrap().attributes().next().unwrap();
    assert_eq!(
        (attribute.name(), attribute.prefix(), attribute.local_name()),
        ("q:k", Some("q"), "k")
    );
    assert_eq!(attribute.namespace(), None);
    // Setting it again replaces it.
    doc.set_attribute(a, "q:k", "w").unwrap();
    let values: Vec<_> = doc
        .node(a)
        .unwrap()
        .attributes()
        .map(|a| a.value())
        .collect();
    assert_eq!(values, ["w"]);
    let root = element(&doc, "a");
    doc.append(root, a).unwrap();
    let node = doc.node(a).unwrap();
    assert_eq!(node.attribute_ns("urn:q", "k"), Some("w"));
}

#[test]
fn set_attribute_declares_a_namespace() {
    let mut doc = Document::parse("<r><a/></r>");
    let (r, a) = (element(&doc, "r"), element(&doc, "a"));
    doc.set_attribute(r, "xmlns:n", "urn:n").unwrap();
    let declaration = doc.node(r).unwrap().attributes().next().unwrap();
    assert_eq!(declaration.namespace(), Some(XMLNS_NAMESPACE));
    assert_eq!(declaration.declared_prefix(), Some(Some("n")));
    assert_eq!(
        doc.node(a).unwrap().lookup_namespace_uri(Some("n")),
        Some("urn:n")
    );
    // The new binding is used by later edits below it.
    doc.set_attribute(a, "n:k", "v").unwrap();
    assert_eq!(doc.node(a).unwrap().attribute_ns("urn:n", "k"), Some("v"));
    // `r` is in no namespace: a default namespace would move it.
    assert_invalid(doc.set_attribute(r, "xmlns", "urn:d"));
    doc.set_attribute(a, "xmlns", "").unwrap();
    assert_eq!(
        doc.node(a)
            .unwrap()
            .attributes()
            .find(|at| at.declared_prefix() == Some(None))
            .map(|at| at.value()),
        Some("")
    );
    assert_consistent(&doc);
}

#[test]
fn set_attribute_ns_adds_and_replaces_by_namespace_and_local_name() {
    let mut doc = Document::parse("<a/>");
    let a = element(&doc, "a");
    doc.set_attribute_ns(a, "urn:x", "x:k", "1").unwrap();
    let node = doc.node(a).unwrap();
    let attribute = node.attributes().next().unwrap();
    assert_eq!(
        (attribute.name(), attribute.prefix(), attribute.namespace()),
        ("x:k", Some("x"), Some("urn:x"))
    );
    // Same namespace and local name, another prefix: replaced.
    doc.set_attribute_ns(a, "urn:x", "y:k", "2").unwrap();
    // No namespace: a different attribute.
    doc.set_attribute_ns(a, "", "k", "3").unwrap();
    let node = doc.node(a).unwrap();
    let attributes: Vec<_> = node.attributes().map(|a| (a.name(), a.value())).collect();
    assert_eq!(attributes, [("y:k", "2"), ("k", "3")]);
    assert_eq!(node.attribute_ns("urn:x", "k"), Some("2"));
    assert_eq!(node.attribute("k"), Some("3"));
    assert_eq!(node.attributes().next().unwrap().namespace(), Some("urn:x"));
    assert_eq!(node.attributes().nth(1).unwrap().namespace(), None);
    assert_eq!(
        doc.to_tree_dump(),
        "| <a>\n|   k=\"3\"\n|   {urn:x}y:k=\"2\"\n"
    );
    assert_consistent(&doc);
}

#[test]
fn set_attribute_ns_replaces_a_parsed_attribute() {
    let mut doc = Document::parse("<a xmlns:p='urn:p' p:k='old'/>");
    let a = element(&doc, "a");
    doc.set_attribute_ns(a, "urn:p", "p:k", "new").unwrap();
    let node = doc.node(a).unwrap();
    let attributes: Vec<_> = node.attributes().map(|a| (a.name(), a.value())).collect();
    assert_eq!(attributes, [("xmlns:p", "urn:p"), ("p:k", "new")]);
}

#[test]
fn remove_attribute_present_and_absent() {
    let mut doc = Document::parse("<a x='1' y='2' z='3'/>");
    let a = element(&doc, "a");
    assert_eq!(doc.remove_attribute(a, "y").unwrap().as_deref(), Some("2"));
    let names: Vec<_> = doc
        .node(a)
        .unwrap()
        .attributes()
        .map(|a| a.name())
        .collect();
    assert_eq!(names, ["x", "z"]);
    assert_eq!(doc.node(a).unwrap().attribute("y"), None);
    assert_consistent(&doc);

    assert_eq!(doc.remove_attribute(a, "y").unwrap(), None);
    assert_eq!(doc.remove_attribute(a, "missing").unwrap(), None);
    let names: Vec<_> = doc
        .node(a)
        .unwrap()
        .attributes()
        .map(|a| a.name())
        .collect();
    assert_eq!(names, ["x", "z"]);
    assert_eq!(doc.to_tree_dump(), "| <a>\n|   x=\"1\"\n|   z=\"3\"\n");
    assert_consistent(&doc);
}

#[test]
fn remove_attribute_by_qualified_name() {
    let mut doc = Document::parse("<r xmlns:p='urn:p'><a p:k='1' k='2'/></r>");
    let (r, a) = (element(&doc, "r"), element(&doc, "a"));
    assert_eq!(
        doc.remove_attribute(a, "p:k").unwrap().as_deref(),
        Some("1")
    );
    let names: Vec<_> = doc
        .node(a)
        .unwrap()
        .attributes()
        .map(|a| a.name())
        .collect();
    assert_eq!(names, ["k"]);
    // Removing a declaration takes its binding out of scope.
    assert_eq!(
        doc.remove_attribute(r, "xmlns:p").unwrap().as_deref(),
        Some("urn:p")
    );
    assert_eq!(doc.node(a).unwrap().lookup_namespace_uri(Some("p")), None);
    assert_consistent(&doc);
}

#[test]
fn set_attribute_on_a_created_element() {
    let mut doc = Document::parse("<r/>");
    let r = element(&doc, "r");
    let e = doc.create_element("e");
    doc.set_attribute(e, "k", "v").unwrap();
    doc.append(r, e).unwrap();
    assert_eq!(doc.to_tree_dump(), "| <r>\n|   <e>\n|     k=\"v\"\n");
    assert_consistent(&doc);
}

// ----- Editing: names ------------------------------------------------------

#[test]
fn rename_keeps_the_default_namespace_in_scope() {
    let mut doc = Document::parse("<r xmlns='urn:d' xmlns:p='urn:p'><a x='1'>t</a></r>");
    let a = element(&doc, "a");
    doc.rename(a, "b").unwrap();
    let node = doc.node(a).unwrap();
    assert_eq!((node.name(), node.prefix()), ("b", None));
    assert_eq!(node.namespace(), Some("urn:d"));
    // Attributes and children stay.
    assert_eq!(node.attribute("x"), Some("1"));
    assert_eq!(node.text_content(), "t");
    assert_consistent(&doc);
}

#[test]
fn rename_with_a_prefix_resolves_it_in_scope() {
    let mut doc = Document::parse("<r xmlns='urn:d' xmlns:p='urn:p'><a/></r>");
    let a = element(&doc, "a");
    doc.rename(a, "p:c").unwrap();
    let node = doc.node(a).unwrap();
    assert_eq!(
        (
            node.name(),
            node.prefix(),
            node.local_name(),
            node.namespace()
        ),
        ("p:c", Some("p"), "c", Some("urn:p"))
    );
    assert!(node.has_name(Some("urn:p"), "c"));
    doc.rename(a, "xml:c").unwrap();
    assert_eq!(doc.node(a).unwrap().namespace(), Some(XML_NAMESPACE));
    // A prefix bound to nothing is refused.
    assert_invalid(doc.rename(a, "z:c"));
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <{urn:d}r>
|   {http://www.w3.org/2000/xmlns/}xmlns:p=\"urn:p\"
|   {http://www.w3.org/2000/xmlns/}xmlns=\"urn:d\"
|   <{http://www.w3.org/XML/1998/namespace}xml:c>
"
    );
    assert_consistent(&doc);
}

#[test]
fn rename_uses_the_elements_own_declarations() {
    let mut doc =
        Document::parse("<r xmlns='urn:d'><a xmlns='urn:own' xmlns:q='urn:q'/><b xmlns=''/></r>");
    let (a, b) = (element(&doc, "a"), element(&doc, "b"));
    doc.rename(a, "x").unwrap();
    assert_eq!(doc.node(a).unwrap().namespace(), Some("urn:own"));
    doc.rename(a, "q:x").unwrap();
    assert_eq!(doc.node(a).unwrap().namespace(), Some("urn:q"));
    // `xmlns=""` undeclared the default namespace.
    doc.rename(b, "y").unwrap();
    assert_eq!(doc.node(b).unwrap().namespace(), None);
    assert_consistent(&doc);
}

#[test]
fn rename_of_a_detached_element_has_no_scope() {
    let mut doc = Document::parse("<r xmlns='urn:d'/>");
    let e = doc.create_element("e");
    doc.rename(e, "f").unwrap();
    assert_eq!(doc.node(e).unwrap().namespace(), None);
    // Once inserted, a rename sees the scope.
    let r = element(&doc, "r");
    doc.append(r, e).unwrap();
    doc.rename(e, "g").unwrap();
    assert_eq!(doc.node(e).unwrap().namespace(), Some("urn:d"));
}

#[test]
fn rename_ns_sets_namespace_and_name() {
    let mut doc = Document::parse("<r xmlns='urn:d'><a/></r>");
    let a = element(&doc, "a");
    doc.rename_ns(a, "urn:n", "n:x").unwrap();
    let node = doc.node(a).unwrap();
    assert_eq!(
        (
            node.name(),
            node.prefix(),
            node.local_name(),
            node.namespace()
        ),
        ("n:x", Some("n"), "x", Some("urn:n"))
    );
    // `""` is no namespace, whatever is in scope.
    doc.rename_ns(a, "", "plain").unwrap();
    let node = doc.node(a).unwrap();
    assert_eq!((node.name(), node.namespace()), ("plain", None));
    doc.rename_ns(a, "urn:u", "u").unwrap();
    let node = doc.node(a).unwrap();
    assert_eq!((node.prefix(), node.namespace()), (None, Some("urn:u")));
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <{urn:d}r>
|   {http://www.w3.org/2000/xmlns/}xmlns=\"urn:d\"
|   <{urn:u}u>
"
    );
    assert_consistent(&doc);
}

#[test]
fn rename_a_processing_instruction_target() {
    let mut doc = Document::parse("<r><?old some data?></r>");
    let pi = doc.root_element().unwrap().first_child().unwrap().id();
    doc.rename(pi, "new").unwrap();
    let node = doc.node(pi).unwrap();
    assert_eq!(node.name(), "new");
    assert_eq!(node.text(), Some("some data"));
    assert_eq!(doc.to_tree_dump(), "| <r>\n|   <?new some data?>\n");
    assert_consistent(&doc);
}

// ----- Editing: text --------------------------------------------------------

#[test]
fn set_text_on_a_text_node_drops_its_cdata() {
    let mut doc = Document::parse("<a>x<![CDATA[y]]></a>");
    let a = element(&doc, "a");
    let t = doc.node(a).unwrap().first_child().unwrap().id();
    assert_eq!(cdata(doc.node(t).unwrap()), [(1, 2)]);
    doc.set_text(t, "new").unwrap();
    assert_eq!(doc.node(t).unwrap().text(), Some("new"));
    assert_eq!(cdata(doc.node(t).unwrap()), []);
    assert_eq!(doc.node(a).unwrap().text_content(), "new");
    assert_eq!(doc.to_tree_dump(), "| <a>\n|   \"new\"\n");
    assert_consistent(&doc);
}

#[test]
fn set_text_on_a_comment_and_a_processing_instruction() {
    let mut doc = Document::parse("<a><!--old--><?t old?></a>");
    let c = labelled(&doc, "<!--old-->");
    let pi = labelled(&doc, "<?t old?>");
    doc.set_text(c, "new comment").unwrap();
    doc.set_text(pi, "new data").unwrap();
    assert_eq!(doc.node(c).unwrap().text(), Some("new comment"));
    assert_eq!(doc.node(pi).unwrap().name(), "t", "the target stays");
    assert_eq!(doc.node(pi).unwrap().text(), Some("new data"));
    assert_eq!(
        doc.to_tree_dump(),
        "| <a>\n|   <!-- new comment -->\n|   <?t new data?>\n"
    );
    assert_consistent(&doc);
}

#[test]
fn set_text_on_an_element_replaces_its_children() {
    let mut doc = Document::parse("<r><a x='1'>old<b><c/></b><!--k--></a></r>");
    let a = element(&doc, "a");
    let old: Vec<NodeId> = doc.node(a).unwrap().descendants().map(|n| n.id()).collect();
    assert_eq!(old.len(), 4);
    doc.set_text(a, "new").unwrap();
    for id in &old {
        assert_eq!(doc.node(*id), None, "old children are removed");
    }
    let node = doc.node(a).unwrap();
    assert_eq!(labels(node.children()), ["'new'"]);
    assert_eq!(node.attribute("x"), Some("1"), "attributes stay");
    assert_eq!(node.first_child().unwrap().span(), None);
    assert_eq!(
        doc.to_tree_dump(),
        "| <r>\n|   <a>\n|     x=\"1\"\n|     \"new\"\n"
    );
    assert_consistent(&doc);
}

#[test]
fn set_text_to_empty_on_an_element_leaves_no_children() {
    let mut doc = Document::parse("<r><a>old<b/></a></r>");
    let a = element(&doc, "a");
    doc.set_text(a, "").unwrap();
    assert!(!doc.node(a).unwrap().has_children());
    assert_eq!(doc.to_tree_dump(), "| <r>\n|   <a>\n");
    assert_consistent(&doc);
}

#[test]
fn set_text_on_an_empty_element_adds_a_text_child() {
    let mut doc = Document::parse("<r/>");
    let r = element(&doc, "r");
    doc.set_text(r, "hello").unwrap();
    assert_eq!(doc.root().text_content(), "hello");
    assert_eq!(doc.to_tree_dump(), "| <r>\n|   \"hello\"\n");
    assert_consistent(&doc);
}

// ----- Editing: what must fail --------------------------------------------

#[test]
fn append_a_node_into_itself_fails() {
    let mut doc = Document::parse(EDIT);
    let a = element(&doc, "a");
    assert_rejected(&mut doc, |d| d.append(a, a));
    assert_rejected(&mut doc, |d| d.prepend(a, a));
    assert_eq!(
        doc.node(a).unwrap().parent().map(label).as_deref(),
        Some("r")
    );
}

#[test]
fn append_a_node_into_its_descendant_fails() {
    let mut doc = Document::parse(EDIT);
    let (r, a, a1) = (element(&doc, "r"), element(&doc, "a"), element(&doc, "a1"));
    assert_rejected(&mut doc, |d| d.append(a1, a));
    assert_rejected(&mut doc, |d| d.prepend(a1, r));
    // Through a sibling of a descendant: `a1`'s parent is `a`.
    assert_rejected(&mut doc, |d| d.insert_before(a1, a));
    assert_rejected(&mut doc, |d| d.insert_after(a1, r));
    // The node did not lose its place.
    assert_eq!(doc.node(a).unwrap().parent().unwrap().id(), r);
}

#[test]
fn cycles_are_caught_in_detached_subtrees() {
    let mut doc = Document::parse(EDIT);
    let (a, a1) = (element(&doc, "a"), element(&doc, "a1"));
    doc.detach(a).unwrap();
    assert_invalid(doc.append(a1, a));
    assert_eq!(doc.node(a1).unwrap().parent().unwrap().id(), a);
    assert_eq!(doc.node(a).unwrap().parent(), None);
    assert_consistent(&doc);
}

#[test]
fn only_elements_and_the_document_take_children() {
    let mut doc = Document::parse("<!DOCTYPE r><r>t<!--c--><?p d?></r>");
    let t = labelled(&doc, "'t'");
    let c = labelled(&doc, "<!--c-->");
    let pi = labelled(&doc, "<?p d?>");
    let doctype = labelled(&doc, "!r");
    let e = doc.create_element("e");
    assert_rejected(&mut doc, |d| d.append(t, e));
    assert_rejected(&mut doc, |d| d.prepend(c, e));
    assert_rejected(&mut doc, |d| d.append(pi, e));
    assert_rejected(&mut doc, |d| d.append(doctype, e));
    assert_eq!(doc.node(e).unwrap().parent(), None, "still detached");
}

#[test]
fn the_document_node_cannot_be_moved_or_removed() {
    let mut doc = Document::parse(EDIT);
    let root = doc.root().id();
    let a = element(&doc, "a");
    let e = doc.create_element("e");
    assert_rejected(&mut doc, |d| d.append(a, root));
    assert_rejected(&mut doc, |d| d.append(e, root));
    assert_rejected(&mut doc, |d| d.prepend(a, root));
    assert_rejected(&mut doc, |d| d.insert_before(a, root));
    assert_rejected(&mut doc, |d| d.insert_after(a, root));
    assert_rejected(&mut doc, |d| d.detach(root));
    assert_rejected(&mut doc, |d| d.remove(root));
    assert_eq!(doc.node(root), Some(doc.root()));
}

#[test]
fn insert_next_to_a_node_without_a_parent_fails() {
    let mut doc = Document::parse(EDIT);
    let root = doc.root().id();
    let lone = doc.create_element("lone");
    let e = doc.create_element("e");
    assert_rejected(&mut doc, |d| d.insert_before(lone, e));
    assert_rejected(&mut doc, |d| d.insert_after(lone, e));
    assert_rejected(&mut doc, |d| d.insert_before(root, e));
    assert_rejected(&mut doc, |d| d.insert_after(root, e));
    // A detached parsed node too.
    let a = element(&doc, "a");
    doc.detach(a).unwrap();
    assert_rejected(&mut doc, |d| d.insert_before(a, e));
    assert_eq!(doc.node(e).unwrap().parent(), None);
}

#[test]
fn a_removed_id_is_rejected_by_every_edit() {
    let mut doc = Document::parse(EDIT);
    let (r, a) = (element(&doc, "r"), element(&doc, "a"));
    let a1 = element(&doc, "a1");
    doc.remove(a).unwrap();
    let b1 = element(&doc, "b1");
    let e = doc.create_element("e");
    assert_rejected(&mut doc, |d| d.append(r, a));
    assert_rejected(&mut doc, |d| d.append(a, e));
    assert_rejected(&mut doc, |d| d.append(a1, e));
    assert_rejected(&mut doc, |d| d.prepend(a, e));
    assert_rejected(&mut doc, |d| d.prepend(r, a1));
    assert_rejected(&mut doc, |d| d.insert_before(a, e));
    assert_rejected(&mut doc, |d| d.insert_after(a, e));
    assert_rejected(&mut doc, |d| d.insert_before(b1, a));
    assert_rejected(&mut doc, |d| d.insert_after(b1, a1));
    assert_rejected(&mut doc, |d| d.detach(a));
    assert_rejected(&mut doc, |d| d.remove(a));
    assert_rejected(&mut doc, |d| d.remove(a1));
    assert_rejected(&mut doc, |d| d.set_attribute(a, "k", "v"));
    assert_rejected(&mut doc, |d| d.set_attribute_ns(a, "urn:x", "x:k", "v"));
    assert_rejected(&mut doc, |d| d.remove_attribute(a, "k"));
    assert_rejected(&mut doc, |d| d.rename(a, "z"));
    assert_rejected(&mut doc, |d| d.rename_ns(a, "urn:x", "z"));
    assert_rejected(&mut doc, |d| d.set_text(a, "t"));
    assert_eq!(doc.node(e).unwrap().parent(), None);
}

#[test]
fn ids_removed_by_set_text_are_rejected() {
    let mut doc = Document::parse("<r><a><b/></a></r>");
    let (r, a, b) = (element(&doc, "r"), element(&doc, "a"), element(&doc, "b"));
    doc.set_text(a, "t").unwrap();
    assert_eq!(doc.node(b), None);
    assert_rejected(&mut doc, |d| d.append(r, b));
    assert_rejected(&mut doc, |d| d.set_attribute(b, "k", "v"));
}

#[test]
fn attributes_only_on_elements() {
    let mut doc = Document::parse("<r>t<!--c--></r>");
    let t = labelled(&doc, "'t'");
    let c = labelled(&doc, "<!--c-->");
    let root = doc.root().id();
    assert_rejected(&mut doc, |d| d.set_attribute(t, "k", "v"));
    assert_rejected(&mut doc, |d| d.set_attribute_ns(c, "urn:x", "x:k", "v"));
    assert_rejected(&mut doc, |d| d.set_attribute(root, "k", "v"));
    assert_rejected(&mut doc, |d| d.remove_attribute(c, "k"));
    assert_rejected(&mut doc, |d| d.remove_attribute(root, "k"));
}

#[test]
fn names_only_on_elements_and_processing_instructions() {
    let mut doc = Document::parse("<!DOCTYPE r><r>t<!--c--><?p d?></r>");
    let t = labelled(&doc, "'t'");
    let c = labelled(&doc, "<!--c-->");
    let pi = labelled(&doc, "<?p d?>");
    let doctype = labelled(&doc, "!r");
    let root = doc.root().id();
    assert_rejected(&mut doc, |d| d.rename(t, "x"));
    assert_rejected(&mut doc, |d| d.rename(c, "x"));
    assert_rejected(&mut doc, |d| d.rename(doctype, "x"));
    assert_rejected(&mut doc, |d| d.rename(root, "x"));
    // `rename_ns` is for elements only.
    assert_rejected(&mut doc, |d| d.rename_ns(pi, "urn:x", "x"));
    assert_rejected(&mut doc, |d| d.rename_ns(t, "urn:x", "x"));
}

#[test]
fn a_doctype_has_no_text_to_set() {
    let mut doc = Document::parse("<!DOCTYPE r SYSTEM 's'><r/>");
    let doctype = labelled(&doc, "!r");
    assert_rejected(&mut doc, |d| d.set_text(doctype, "x"));
    assert_eq!(doc.node(doctype).unwrap().system_id(), Some("s"));
}

// ----- Editing: a sequence, checked by the dump ------------------------------

#[test]
fn a_sequence_of_edits_gives_the_expected_dump() {
    let mut doc = Document::parse(r#"<r xmlns:p="urn:p"><a>x</a><b/></r>"#);
    let (r, a, b) = (element(&doc, "r"), element(&doc, "a"), element(&doc, "b"));

    let c = doc.create_element("c");
    doc.append(b, c).unwrap();
    doc.set_attribute(c, "p:k", "1").unwrap();
    let hello = doc.create_text("hello");
    doc.append(c, hello).unwrap();
    let note = doc.create_comment("note");
    doc.insert_before(a, note).unwrap();
    let pi = doc.create_processing_instruction("go", "now");
    doc.insert_after(a, pi).unwrap();
    doc.rename(a, "p:a").unwrap();
    doc.append(a, c).unwrap();
    doc.set_text(b, "bee").unwrap();
    assert_consistent(&doc);

    assert_eq!(
        child_labels(&doc, r),
        ["<!--note-->", "p:a", "<?go now?>", "b"]
    );
    assert_eq!(doc.root().text_content(), "xhellobee");
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <r>
|   {http://www.w3.org/2000/xmlns/}xmlns:p=\"urn:p\"
|   <!-- note -->
|   <{urn:p}p:a>
|     \"x\"
|     <c>
|       {urn:p}p:k=\"1\"
|       \"hello\"
|   <?go now?>
|   <b>
|     \"bee\"
"
    );
}

#[test]
fn building_a_fragment_while_detached_then_attaching_it() {
    let mut doc = Document::parse("<list/>");
    let list = element(&doc, "list");
    let item = doc.create_element("item");
    doc.set_attribute(item, "n", "1").unwrap();
    let text = doc.create_text("one");
    doc.append(item, text).unwrap();
    let sub = doc.create_element_ns("urn:s", "s:sub");
    doc.prepend(item, sub).unwrap();
    assert_eq!(doc.to_tree_dump(), "| <list>\n");
    doc.append(list, item).unwrap();
    assert_eq!(
        doc.to_tree_dump(),
        "\
| <list>
|   <item>
|     n=\"1\"
|     <{urn:s}s:sub>
|     \"one\"
"
    );
    assert_consistent(&doc);
}

// ----- Threads ---------------------------------------------------------------

#[test]
fn documents_move_between_threads_and_are_shared() {
    let doc = std::thread::spawn(|| Document::parse("<a><b>one</b><c>two</c></a>"))
        .join()
        .unwrap();
    let (text, dump) = std::thread::scope(|s| {
        let text = s.spawn(|| doc.root_element().unwrap().text_content());
        let dump = s.spawn(|| {
            let root = doc.root_element().unwrap();
            (root.child_elements().count(), doc.to_tree_dump())
        });
        (text.join().unwrap(), dump.join().unwrap())
    });
    assert_eq!(text, "onetwo");
    assert_eq!(
        dump,
        (
            2,
            "| <a>\n|   <b>\n|     \"one\"\n|   <c>\n|     \"two\"\n".to_string()
        )
    );

    // Edited on another thread, read back here.
    let mut doc = doc;
    let c = element(&doc, "c");
    let doc = std::thread::spawn(move || {
        doc.set_text(c, "three").unwrap();
        doc
    })
    .join()
    .unwrap();
    assert_eq!(doc.root().text_content(), "onethree");
}

// ----- Regressions found while writing these tests --------------------------

#[test]
fn inserting_a_node_next_to_itself_is_rejected_without_a_panic() {
    let mut doc = Document::parse("<a><b/><c/></a>");
    let b = doc.root_element().unwrap().first_child().unwrap().id();
    assert_rejected(&mut doc, |doc| doc.insert_before(b, b));
    assert_rejected(&mut doc, |doc| doc.insert_after(b, b));
    assert_eq!(doc.to_tree_dump(), "| <a>\n|   <b>\n|   <c>\n");
    assert_consistent(&doc);
}

#[test]
fn a_text_node_span_covers_the_cdata_markup_at_its_ends() {
    for (xml, text) in [
        ("<a>x<![CDATA[y]]></a>", "x<![CDATA[y]]>"),
        ("<a><![CDATA[y]]>z</a>", "<![CDATA[y]]>z"),
        ("<a>x<![CDATA[y]]>z</a>", "x<![CDATA[y]]>z"),
        ("<a><![CDATA[y]]></a>", "<![CDATA[y]]>"),
    ] {
        let doc = Document::parse(xml);
        let node = doc.root_element().unwrap().first_child().unwrap();
        let span = node.span().unwrap();
        assert_eq!(&doc.source()[span.range()], text, "{xml}");
    }
}

#[test]
fn set_attribute_replaces_an_attribute_with_the_same_qualified_name() {
    // p is unbound when p:k is parsed, bound by the time it is set again.
    let mut doc = Document::parse("<a p:k='1'/>");
    let a = doc.root_element().unwrap().id();
    doc.set_attribute(a, "xmlns:p", "urn:p").unwrap();
    doc.set_attribute(a, "p:k", "2").unwrap();
    let names: Vec<_> = doc
        .node(a)
        .unwrap()
        .attributes()
        .map(|at| (at.name(), at.value()))
        .collect();
    assert_eq!(names, [("p:k", "2"), ("xmlns:p", "urn:p")]);
    assert_eq!(doc.node(a).unwrap().attribute_ns("urn:p", "k"), Some("2"));
}

#[test]
fn normalized_text_is_not_mixed_with_strings_stored_after_it() {
    // Text with CR LF is copied (normalized) and becomes a node only when
    // the next node is appended, after that node's own strings are stored.
    let doc = Document::parse("<a>x\r\ny<!--c\r\nd--><?p q\r\nr?>z\r\n<b k='1\r\n2'/></a>");
    let a = doc.root_element().unwrap();
    let texts: Vec<_> = a.children().map(|n| n.text().unwrap_or("<b>")).collect();
    assert_eq!(texts, ["x\ny", "c\nd", "q\nr", "z\n", "<b>"]);
    let doc =
        Document::parse("<?xml version='1.0'?>\r\n<!DOCTYPE d [\r\n<!ENTITY e 'v'>\r\n]>\r\n<d/>");
    let first = doc.root().first_child().unwrap();
    assert_eq!(first.text(), Some("\n"));
    assert_eq!(
        first.next_sibling().unwrap().internal_subset(),
        Some("\n<!ENTITY e 'v'>\n")
    );
}
