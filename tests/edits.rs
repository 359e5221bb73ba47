//! Edits that write back correctly (issue 15): after accepted edits, the
//! document written out is well-formed, reads back without errors to the
//! same tree, and `Node::to_xml` of any element reads back to that subtree;
//! an edit that cannot give that is refused.

#[allow(dead_code)]
#[path = "common/edit_checks.rs"]
mod edit_checks;

use edit_checks::check_written_back;
use pretty_assertions::assert_eq;
use xml5dom::query::{Value, XPath};
use xml5dom::{Document, NodeId, ParseOptions, XML_NAMESPACE};

/// `doc` writes back well-formed, without errors, as the same tree, and
/// each element alone does too.
#[track_caller]
fn writes_back(doc: &Document) -> String {
    check_written_back(doc, None).unwrap_or_else(|broken| panic!("{broken}"))
}

fn root(doc: &Document) -> NodeId {
    doc.root_element().unwrap().id()
}

fn first_child(doc: &Document, id: NodeId) -> NodeId {
    doc.node(id).unwrap().first_child().unwrap().id()
}

// ----- Namespaces ---------------------------------------------------------

#[test]
fn a_new_attribute_does_not_rebind_the_elements_prefix() {
    let mut doc = Document::parse("<r xmlns:p=\"urn:1\"><p:a p:y=\"0\"/></r>");
    let a = first_child(&doc, root(&doc));
    doc.set_attribute_ns(a, "urn:2", "p:x", "1").unwrap();
    writes_back(&doc);
    let a = doc.node(a).unwrap();
    assert_eq!(a.namespace(), Some("urn:1"));
    assert_eq!(a.attribute_ns("urn:2", "x"), Some("1"));
    assert_eq!(a.attribute_ns("urn:1", "y"), Some("0"));
}

#[test]
fn a_default_namespace_declaration_that_would_move_the_element_is_refused() {
    let mut doc = Document::parse("<r><a/></r>");
    let a = first_child(&doc, root(&doc));
    let refused = doc.set_attribute(a, "xmlns", "urn:x").unwrap_err();
    assert!(refused.to_string().contains("xmlns"), "{refused}");
    writes_back(&doc);
    let mut doc = Document::parse("<r xmlns=\"urn:x\"/>");
    let r = root(&doc);
    assert!(doc.rename_ns(r, "", "r").is_err());
    writes_back(&doc);
    // Where the declaration agrees with the names, it is taken.
    let mut doc = Document::parse("<r><p:a xmlns:p='urn:p'/></r>");
    let a = first_child(&doc, root(&doc));
    doc.set_attribute(a, "xmlns:q", "urn:q").unwrap();
    doc.set_attribute(a, "q:z", "1").unwrap();
    assert_eq!(doc.node(a).unwrap().attribute_ns("urn:q", "z"), Some("1"));
    assert!(doc.set_attribute(a, "xmlns:p", "urn:other").is_err());
    assert!(doc.set_attribute(a, "xmlns:q", "").is_err());
    writes_back(&doc);
}

#[test]
fn attributes_are_the_same_by_namespace_and_local_name() {
    let mut doc = Document::parse("<a x=\"1\"/>");
    let a = root(&doc);
    doc.set_attribute_ns(a, "urn:b", "p:x", "2").unwrap();
    doc.set_attribute_ns(a, "urn:b", "x", "3").unwrap();
    let node = doc.node(a).unwrap();
    assert_eq!(node.attribute("x"), Some("1"));
    assert_eq!(node.attribute_ns("urn:b", "x"), Some("3"));
    assert_eq!(node.attributes().count(), 2);
    writes_back(&doc);
}

#[test]
fn the_xml_namespace_is_written_with_its_prefix() {
    let mut doc = Document::parse("<a/>");
    let a = root(&doc);
    doc.set_attribute_ns(a, XML_NAMESPACE, "lang", "en")
        .unwrap();
    let out = writes_back(&doc);
    assert_eq!(out, "<a xml:lang=\"en\"/>");
    assert!(doc.set_attribute_ns(a, "urn:x", "xml:space", "1").is_err());
}

#[test]
fn prefixes_resolve_where_the_node_lands() {
    let mut doc =
        Document::parse("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>");
    let rdf = root(&doc);
    let item = doc.create_element("rdf:Description");
    doc.set_attribute(item, "rdf:about", "http://example.org/")
        .unwrap();
    doc.append(rdf, item).unwrap();
    let node = doc.node(item).unwrap();
    let uri = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
    assert_eq!(node.namespace(), Some(uri));
    assert_eq!(node.attribute_ns(uri, "about"), Some("http://example.org/"));
    let count = XPath::compile("count(//@rdf:about)").unwrap();
    assert_eq!(count.evaluate(doc.root()).unwrap(), Value::Number(1.0));
    let out = writes_back(&doc);
    assert!(!out.contains("undeclared"), "{out}");
    // Where the prefix is bound to nothing, the node cannot land.
    let mut doc = Document::parse("<r/>");
    let r = root(&doc);
    let x = doc.create_element("p:x");
    assert!(doc.append(r, x).is_err());
    assert!(doc.rename(r, "q:r").is_err());
    assert!(doc.set_attribute(r, "q:a", "1").is_err());
    writes_back(&doc);
}

#[test]
fn a_created_prefixed_element_lands_in_the_prefixs_namespace() {
    let mut doc = Document::parse("<r xmlns:p=\"urn:p\"/>");
    let r = root(&doc);
    let x = doc.create_element("p:x");
    doc.append(r, x).unwrap();
    assert_eq!(doc.node(x).unwrap().namespace(), Some("urn:p"));
    writes_back(&doc);
}

// ----- Entities and defaults ------------------------------------------------

#[test]
fn references_without_a_declaration_are_written_expanded() {
    let mut doc = Document::parse("<!DOCTYPE r [<!ENTITY e \"hi\">]><r>&e;</r>");
    let doctype = doc.root().first_child().unwrap().id();
    doc.remove(doctype).unwrap();
    assert_eq!(writes_back(&doc), "<r>hi</r>");

    let doc = Document::parse(
        "<!DOCTYPE r [<!ENTITY e \"hi\"><!ATTLIST b d CDATA \"v\">]><r><b>&e;</b></r>",
    );
    let b = doc.root_element().unwrap().first_child().unwrap();
    assert_eq!(b.to_xml(), "<b d=\"v\">hi</b>");
    writes_back(&doc);
}

#[test]
fn a_renamed_element_keeps_its_defaulted_attributes_if_it_must() {
    let mut doc = Document::parse("<!DOCTYPE r [<!ATTLIST b d CDATA \"v\">]><r><b/></r>");
    let b = first_child(&doc, root(&doc));
    doc.rename(b, "c").unwrap();
    writes_back(&doc);
}

// ----- Text, comments and PIs ---------------------------------------------

#[test]
fn comments_and_pis_a_reader_would_see_otherwise_are_refused() {
    let mut doc = Document::parse("<a/>");
    let a = root(&doc);
    for text in [">x", "->x", "a--b", "a-", "--"] {
        let c = doc.create_comment("ok");
        doc.append(a, c).unwrap();
        assert!(doc.set_text(c, text).is_err(), "{text:?}");
    }
    let pi = doc.create_processing_instruction("t", "d");
    doc.append(a, pi).unwrap();
    assert!(doc.set_text(pi, "a?>b").is_err());
    assert!(doc.rename(pi, "xml").is_err());
    assert!(doc.rename(pi, "1t").is_err());
    writes_back(&doc);
}

#[test]
fn text_brought_together_by_a_removal_is_escaped() {
    let mut doc = Document::parse("<a>x]]<b/>>y</a>");
    let b = doc
        .root_element()
        .unwrap()
        .children()
        .find(|n| n.is_element())
        .unwrap()
        .id();
    doc.remove(b).unwrap();
    assert_eq!(writes_back(&doc), "<a>x]]&gt;y</a>");
}

// ----- Structure ------------------------------------------------------------

#[test]
fn edits_that_leave_no_document_are_refused() {
    let mut doc = Document::parse("<!DOCTYPE a><a><b/></a>");
    let document = doc.root().id();
    let a = root(&doc);
    let doctype = doc.root().first_child().unwrap().id();
    let second = doc.create_element("c");
    let refused = doc.append(document, second).unwrap_err();
    assert!(refused.to_string().contains("root element"), "{refused}");
    assert!(doc.append(a, doctype).is_err());
    let text = doc.create_text("words");
    assert!(doc.append(document, text).is_err());
    let space = doc.create_text("\n");
    doc.append(document, space).unwrap();
    assert!(doc.set_text(document, "x").is_err());
    assert!(doc.insert_after(a, doctype).is_err());
    writes_back(&doc);
}

// ----- Waiting prefixes (issue 30) ------------------------------------------
//
// On a node not in the document, a prefix bound to nothing waits and is
// resolved where the node lands; docs/editing.md ("Waiting prefixes").

/// `<b/>`, the first child of `<a>`, in `text`.
fn b_of(doc: &Document) -> NodeId {
    first_child(doc, root(doc))
}

#[test]
fn renaming_an_element_whose_prefix_waits_does_not_panic() {
    let mut doc = Document::parse("<a/>");
    let e = doc.create_element("p:x");
    doc.rename(e, "y").unwrap();
    let node = doc.node(e).unwrap();
    assert_eq!((node.name(), node.namespace()), ("y", None));
    // Its attributes' waiting prefixes are not the element's name.
    let e = doc.create_element("p:x");
    doc.set_attribute(e, "q:a", "1").unwrap();
    doc.rename(e, "y").unwrap();
    doc.rename(e, "q:y").unwrap();
    let a = root(&doc);
    assert!(doc.append(a, e).is_err(), "q is bound to nothing here");
    writes_back(&doc);
    // Nor one parsed with an undeclared prefix.
    let mut doc = Document::parse("<p:q/>");
    let q = root(&doc);
    assert!(doc.rename(q, "p:x").is_err(), "p is bound to nothing");
    doc.rename(q, "x").unwrap();
    assert_eq!(doc.to_xml(), "<x/>");
}

#[test]
fn a_namespace_given_explicitly_does_not_take_a_waiting_prefix() {
    let mut doc = Document::parse("<a xmlns:its=\"urn:its\"><b/></a>");
    let b = b_of(&doc);
    let e = doc.create_element("its:page");
    doc.set_attribute_ns(e, "urn:mallard", "its:gui", "x")
        .unwrap();
    doc.prepend(b, e).unwrap();
    let page = doc.node(e).unwrap();
    assert_eq!(page.namespace(), Some("urn:its"));
    assert_eq!(page.attribute_ns("urn:mallard", "gui"), Some("x"));
    let gui = page.attributes().find(|a| a.local_name() == "gui").unwrap();
    assert_ne!(gui.prefix(), Some("its"), "another prefix for urn:mallard");
    writes_back(&doc);
}

#[test]
fn a_waiting_attribute_that_would_repeat_another_is_refused_where_it_lands() {
    let mut doc = Document::parse("<a xmlns:l=\"urn:l\"><b/></a>");
    let b = b_of(&doc);
    let e = doc.create_element("e");
    doc.set_attribute(e, "l:x", "1").unwrap();
    doc.set_attribute_ns(e, "urn:l", "ns1:x", "2").unwrap();
    let before = doc.to_xml();
    let refused = doc.append(b, e).unwrap_err().to_string();
    assert!(
        refused.contains("l:x") && refused.contains("{urn:l}x"),
        "{refused}"
    );
    assert_eq!(doc.to_xml(), before, "a refused edit changes nothing");
    assert!(doc.node(e).unwrap().parent().is_none());
    writes_back(&doc);

    let mut doc = Document::parse("<a xmlns:its=\"urn:its\"><b/></a>");
    let b = b_of(&doc);
    let e = doc.create_element("item");
    doc.set_attribute(e, "its:a", "1").unwrap();
    doc.set_attribute_ns(e, "urn:its", "a", "2").unwrap();
    assert!(doc.append(b, e).is_err());
    // Where `its` means something else, both can land.
    let other = doc.create_element("o");
    doc.set_attribute(other, "xmlns:its", "urn:other").unwrap();
    doc.append(b, other).unwrap();
    doc.append(other, e).unwrap();
    let item = doc.node(e).unwrap();
    assert_eq!(item.attribute_ns("urn:other", "a"), Some("1"));
    assert_eq!(item.attribute_ns("urn:its", "a"), Some("2"));
    writes_back(&doc);
}

#[test]
fn a_waiting_name_written_alone_is_not_taken_by_its_attribute() {
    const XSD: &str = "http://www.w3.org/2001/XMLSchema";
    let mut doc = Document::parse("<a/>");
    let v = doc.create_element("v");
    doc.set_attribute_ns(v, XSD, "xs:x", "1").unwrap();
    let c = doc.create_element("xs:y");
    doc.append(v, c).unwrap();
    doc.set_attribute_ns(c, "ns", "xs:z", "2").unwrap();
    doc.detach(c).unwrap();
    let alone = doc.node(c).unwrap().to_xml();
    let again = Document::parse(&alone);
    let y = again.root_element().unwrap();
    assert_eq!(y.attribute_ns("ns", "z"), Some("2"), "{alone}");
    assert_ne!(y.namespace(), Some("ns"), "{alone}");
    // Landed where `xs` is bound, the name takes that namespace.
    let a = root(&doc);
    doc.set_attribute(a, "xmlns:xs", XSD).unwrap();
    doc.append(a, c).unwrap();
    assert_eq!(doc.node(c).unwrap().namespace(), Some(XSD));
    assert_eq!(doc.node(c).unwrap().attribute_ns("ns", "z"), Some("2"));
    writes_back(&doc);
}

#[test]
fn waiting_prefixes_of_a_subtree_resolve_together_by_the_nearest_binding() {
    let mut doc = Document::parse("<a xmlns:p=\"urn:outer\"><b/></a>");
    let b = b_of(&doc);
    // top declares p itself; mid uses p with a namespace given; the
    // waiting names below resolve by the nearest element that binds p.
    let top = doc.create_element("p:top");
    let mid = doc.create_element_ns("urn:mid", "p:mid");
    let low = doc.create_element("p:low");
    doc.set_attribute(low, "p:at", "1").unwrap();
    let side = doc.create_element("side");
    doc.set_attribute(side, "p:at", "2").unwrap();
    doc.append(top, mid).unwrap();
    doc.append(mid, low).unwrap();
    doc.append(top, side).unwrap();
    doc.set_attribute(top, "xmlns:p", "urn:top").unwrap();
    doc.append(b, top).unwrap();
    let ns = |id| doc.node(id).unwrap().namespace();
    assert_eq!(ns(top), Some("urn:top"));
    assert_eq!(ns(mid), Some("urn:mid"));
    assert_eq!(ns(low), Some("urn:mid"));
    let low_at = doc.node(low).unwrap().attribute_ns("urn:mid", "at");
    assert_eq!(low_at, Some("1"));
    let side_at = doc.node(side).unwrap().attribute_ns("urn:top", "at");
    assert_eq!(side_at, Some("2"));
    writes_back(&doc);
}

#[test]
fn a_created_parent_binds_its_prefix_for_what_lands_under_it() {
    // The writer declares `p` on <p:x> for its name, so a child's `p`
    // means the same there.
    let mut doc = Document::parse("<a/>");
    let a = root(&doc);
    let x = doc.create_element_ns("urn:x", "p:x");
    doc.append(a, x).unwrap();
    let y = doc.create_element("p:y");
    doc.append(x, y).unwrap();
    assert_eq!(doc.node(y).unwrap().namespace(), Some("urn:x"));
    doc.rename(y, "p:z").unwrap();
    assert_eq!(doc.node(y).unwrap().namespace(), Some("urn:x"));
    writes_back(&doc);
}

#[test]
fn an_explicit_element_namespace_does_not_take_a_waiting_attribute_prefix() {
    let mut doc = Document::parse("<a xmlns:p=\"urn:p\"/>");
    let e = doc.create_element("e");
    doc.set_attribute(e, "p:x", "1").unwrap();
    let refused = doc.rename_ns(e, "urn:other", "p:e").unwrap_err();
    assert!(refused.to_string().contains("p:x"), "{refused}");
    doc.rename(e, "p:e").unwrap();
    let a = root(&doc);
    doc.append(a, e).unwrap();
    let node = doc.node(e).unwrap();
    assert_eq!(node.namespace(), Some("urn:p"));
    assert_eq!(node.attribute_ns("urn:p", "x"), Some("1"));
    writes_back(&doc);
}

#[test]
fn the_root_element_cannot_go_into_a_detached_element() {
    let mut doc = Document::parse("<!-- c --><a><b/></a>");
    let a = root(&doc);
    let loose = doc.create_element("x");
    assert!(doc.prepend(loose, a).is_err());
    assert!(doc.append(loose, a).is_err());
    let inner = doc.create_element("y");
    doc.append(loose, inner).unwrap();
    assert!(doc.insert_before(inner, a).is_err());
    assert!(doc.replace(inner, a).is_err());
    assert_eq!(doc.root_element().map(|r| r.id()), Some(a));
    writes_back(&doc);
}

#[test]
fn a_copy_of_a_renamed_element_writes_the_defaults_its_new_name_lacks() {
    let mut doc = Document::parse("<!DOCTYPE r [<!ATTLIST b d CDATA \"v\">]><r><b/></r>");
    let b = first_child(&doc, root(&doc));
    doc.rename(b, "c").unwrap();
    let copy = doc.deep_copy(b).unwrap();
    let r = root(&doc);
    doc.append(r, copy).unwrap();
    assert_eq!(doc.node(copy).unwrap().attribute("d"), Some("v"));
    let out = writes_back(&doc);
    assert!(out.ends_with("<c d=\"v\"/><c d=\"v\"/></r>"), "{out}");
}

#[test]
fn a_pi_target_the_parse_took_is_kept_when_the_pi_is_written_anew() {
    // A colon in a PI target is an XML 1.0 name that Namespaces forbids;
    // the parse takes it without an error (docs/conformance.md), so
    // writing the PI anew keeps it.
    let mut doc = Document::parse("<?a:b x?><r/>");
    assert!(doc.is_well_formed());
    let pi = doc.root().first_child().unwrap().id();
    doc.set_text(pi, "y").unwrap();
    assert_eq!(writes_back(&doc), "<?a:b y?><r/>");
}

// ----- Undeclared prefixes (issue 31) -------------------------------------

const DC: &str = "http://purl.org/dc/elements/1.1/";

/// A feed that uses `dc` without declaring it, on elements and an attribute.
const UNDECLARED_DC: &str = "<rss><channel><dc:creator>A</dc:creator>\
                             <item dc:id='1'><dc:creator>B</dc:creator></item></channel></rss>";

/// `text` parsed with every undeclared prefix in its placeholder
/// namespace, well-known ones too
/// (`ParseOptions::placeholder_for_well_known_prefixes`).
fn parse_with_placeholders(text: &str) -> Document {
    let mut options = ParseOptions::default();
    options.placeholder_for_well_known_prefixes = true;
    Document::parse_with(text, &options)
}

/// The namespaces an undeclared `dc` is in: its registered one by
/// default, its placeholder with the option; with the parse of each.
fn undeclared_dc_parses() -> [(&'static str, Document); 2] {
    [
        (DC, Document::parse(UNDECLARED_DC)),
        (
            "urn:xml5dom:undeclared:dc",
            parse_with_placeholders(UNDECLARED_DC),
        ),
    ]
}

/// The `dc` names of `doc`, element and attribute, with their namespaces.
fn dc_names(doc: &Document) -> Vec<(String, Option<String>)> {
    let mut names = Vec::new();
    for node in doc.root().descendants().filter(|n| n.is_element()) {
        if node.prefix() == Some("dc") {
            names.push((node.name().to_owned(), node.namespace().map(str::to_owned)));
        }
        for attribute in node.attributes().filter(|a| a.prefix() == Some("dc")) {
            let uri = attribute.namespace().map(str::to_owned);
            names.push((attribute.name().to_owned(), uri));
        }
    }
    names
}

#[test]
fn a_name_with_an_undeclared_prefix_is_in_the_namespace_the_writer_declares() {
    assert_eq!(
        xml5dom::undeclared_namespace("dc"),
        "urn:xml5dom:undeclared:dc"
    );
    for (namespace, doc) in undeclared_dc_parses() {
        let expected = ["dc:creator", "dc:id", "dc:creator"]
            .map(|n| (n.to_owned(), Some(namespace.to_owned())));
        assert_eq!(dc_names(&doc), expected);
        // The output declares that namespace, and reads back to the same
        // names.
        let written = doc.to_xml();
        assert!(
            written.contains(&format!("xmlns:dc=\"{namespace}\"")),
            "{written}"
        );
        let again = Document::parse(&written);
        assert_eq!(again.errors(), []);
        assert_eq!(dc_names(&again), expected);
        // XPath selects them by it, in the tree and in the output; so does
        // ElementPath.
        let mut bindings = xml5dom::query::Bindings::new();
        bindings.namespace("dc", namespace);
        let xpath = XPath::compile("//dc:creator | //@dc:id").unwrap();
        for doc in [&doc, &again] {
            assert_eq!(xpath.select_with(doc.root(), &bindings).unwrap().len(), 3);
            let found = doc
                .root()
                .findall(&format!(".//{{{namespace}}}creator"))
                .unwrap();
            assert_eq!(found.len(), 2);
        }
    }
}

#[test]
fn an_unbound_prefix_error_says_when_the_document_uses_it_undeclared() {
    for (namespace, doc) in undeclared_dc_parses() {
        let unbound =
            |expression: &str| match XPath::compile(expression).unwrap().evaluate(doc.root()) {
                Err(xml5dom::XPathError::UnboundPrefix {
                    undeclared_namespace,
                    ..
                }) => undeclared_namespace,
                other => panic!("{expression}: {other:?}"),
            };
        assert_eq!(unbound("//dc:creator").as_deref(), Some(namespace));
        assert_eq!(unbound("//media:content"), None);
        let error = XPath::compile("count(//@dc:id)")
            .unwrap()
            .evaluate(doc.root())
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains(&format!("in the namespace {namespace}")),
            "{error}"
        );
    }
    // A well-known prefix that a declaration binds to its registered
    // namespace is not used undeclared, on the root element or below it.
    for declared in [
        "<rss xmlns:dc='http://purl.org/dc/elements/1.1/'><dc:creator/></rss>",
        "<rss><item xmlns:dc='http://purl.org/dc/elements/1.1/'><dc:creator/></item></rss>",
    ] {
        let doc = Document::parse(declared);
        match XPath::compile("//dc:creator").unwrap().evaluate(doc.root()) {
            Ok(_) => assert!(declared.starts_with("<rss xmlns")),
            Err(xml5dom::XPathError::UnboundPrefix {
                undeclared_namespace,
                ..
            }) => assert_eq!(undeclared_namespace, None, "{declared}"),
            Err(other) => panic!("{declared}: {other:?}"),
        }
    }
}

#[test]
fn binding_an_undeclared_prefix_declares_it_once_on_the_root_element() {
    let mut doc = Document::parse(UNDECLARED_DC);
    assert_eq!(doc.bind_undeclared_prefix("dc", DC).unwrap(), 3);
    let expected: Vec<_> = ["dc:creator", "dc:id", "dc:creator"]
        .map(|n| (n.to_owned(), Some(DC.to_owned())))
        .into();
    assert_eq!(dc_names(&doc), expected);
    let written = writes_back(&doc);
    assert_eq!(
        written,
        "<rss xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><dc:creator>A</dc:creator>\
         <item dc:id='1'><dc:creator>B</dc:creator></item></channel></rss>"
    );
    assert_eq!(written.matches("xmlns:").count(), 1);
    let again = Document::parse(&written);
    assert_eq!(again.errors(), []);
    assert_eq!(dc_names(&again), expected);
    // Nothing left to bind: nothing changes.
    assert_eq!(doc.bind_undeclared_prefix("media", "urn:m").unwrap(), 0);
    assert_eq!(doc.to_xml(), written);
    // The root element declares dc now.
    let refused = doc.bind_undeclared_prefix("dc", "urn:other").unwrap_err();
    assert!(
        refused.to_string().contains("declares \"dc\" already"),
        "{refused}"
    );
    assert_eq!(doc.to_xml(), written);
}

#[test]
fn binding_an_undeclared_prefix_is_refused_where_it_cannot_be_made() {
    // Two attributes would be one: nothing changes.
    let source = "<r xmlns:x='urn:dc'><e x:a='1' dc:a='2'/><dc:f/></r>";
    let mut doc = Document::parse(source);
    let before = doc.to_tree_dump();
    let refused = doc.bind_undeclared_prefix("dc", "urn:dc").unwrap_err();
    assert!(
        refused.to_string().contains("would both be {urn:dc}a"),
        "{refused}"
    );
    assert_eq!(doc.to_tree_dump(), before);
    // Prefixes and namespaces that cannot be declared.
    let mut doc = Document::parse(UNDECLARED_DC);
    for (prefix, uri) in [
        ("dc", ""),
        ("xml", "urn:x"),
        ("xmlns", "urn:x"),
        ("", "urn:x"),
    ] {
        assert!(
            doc.bind_undeclared_prefix(prefix, uri).is_err(),
            "{prefix}={uri}"
        );
    }
    assert!(doc.bind_undeclared_prefix("dc", XML_NAMESPACE).is_err());
    assert_eq!(
        doc.to_tree_dump(),
        Document::parse(UNDECLARED_DC).to_tree_dump()
    );
}

#[test]
fn binding_an_undeclared_prefix_leaves_what_an_inner_declaration_covers() {
    // `xmlns:p=""` (an error in XML 1.0, an undeclaration all the same)
    // covers <p:c>: a declaration on the root element cannot reach it.
    let mut doc = Document::parse("<r><b xmlns:p=''><p:c/></b><p:d/></r>");
    assert_eq!(doc.bind_undeclared_prefix("p", "urn:p").unwrap(), 1);
    let namespace = |name: &str| {
        let node = doc.root().descendants().find(|n| n.name() == name).unwrap();
        node.namespace().map(str::to_owned)
    };
    assert_eq!(namespace("p:d").as_deref(), Some("urn:p"));
    assert_eq!(
        namespace("p:c").as_deref(),
        Some("urn:xml5dom:undeclared:p")
    );
}

#[test]
fn declaring_a_prefix_by_hand_re_homes_its_undeclared_uses_in_scope() {
    let mut doc = Document::parse(
        "<rss><channel><itunes:author>A</itunes:author><item><itunes:author>B</itunes:author></item></channel></rss>",
    );
    let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd";
    let rss = root(&doc);
    doc.set_attribute(rss, "xmlns:itunes", itunes).unwrap();
    let authors: Vec<_> = doc
        .root()
        .descendants()
        .filter(|n| n.local_name() == "author")
        .map(|n| n.namespace())
        .collect();
    assert_eq!(authors, [Some(itunes), Some(itunes)]);
    let written = writes_back(&doc);
    assert_eq!(written.matches("xmlns:itunes").count(), 1, "{written}");
    // The element's own name too: it used the prefix undeclared.
    let mut doc = Document::parse("<p:r><p:x p:a='1'/></p:r>");
    let r = root(&doc);
    doc.set_attribute(r, "xmlns:p", "urn:p").unwrap();
    assert_eq!(doc.node(r).unwrap().namespace(), Some("urn:p"));
    let x = first_child(&doc, r);
    assert_eq!(doc.node(x).unwrap().attribute_ns("urn:p", "a"), Some("1"));
    assert_eq!(
        writes_back(&doc),
        "<p:r xmlns:p=\"urn:p\"><p:x p:a='1'/></p:r>"
    );
    // Below an element, only what it covers.
    let mut doc = Document::parse("<r><a><p:x/></a><p:y/></r>");
    let a = first_child(&doc, root(&doc));
    doc.set_attribute(a, "xmlns:p", "urn:p").unwrap();
    let ns = |doc: &Document, name: &str| {
        let node = doc.root().descendants().find(|n| n.name() == name).unwrap();
        node.namespace().map(str::to_owned)
    };
    assert_eq!(ns(&doc, "p:x").as_deref(), Some("urn:p"));
    assert_eq!(ns(&doc, "p:y").as_deref(), Some("urn:xml5dom:undeclared:p"));
}

#[test]
fn waiting_prefixes_still_resolve_where_they_land_beside_undeclared_ones() {
    // A created `dc:x` waits; under <dc:creator>, whose name binds `dc` in
    // the output (to the namespace the undeclared `dc` is in), it takes
    // that namespace; where nothing binds `dc` it is refused.
    for (namespace, mut doc) in undeclared_dc_parses() {
        let channel = first_child(&doc, root(&doc));
        let creator = first_child(&doc, channel);
        let x = doc.create_element("dc:x");
        assert_eq!(doc.node(x).unwrap().namespace(), None);
        assert!(
            doc.append(channel, x).is_err(),
            "dc is bound to nothing there"
        );
        doc.append(creator, x).unwrap();
        assert_eq!(doc.node(x).unwrap().namespace(), Some(namespace));
        // Bound afterwards, it moves with the rest.
        assert_eq!(doc.bind_undeclared_prefix("dc", DC).unwrap(), 4);
        assert_eq!(doc.node(x).unwrap().namespace(), Some(DC));
        writes_back(&doc);
    }
}

#[test]
fn append_element_ns_declares_the_namespace_once() {
    let media = "http://search.yahoo.com/mrss/";
    let mut doc = Document::parse("<rss><channel><item/><item/><item/></channel></rss>");
    let items: Vec<NodeId> = doc
        .root()
        .descendants()
        .filter(|n| n.name() == "item")
        .map(|n| n.id())
        .collect();
    for item in items {
        let mut item = doc.node_mut(item).unwrap();
        item.append_element_ns(media, "media:content").unwrap();
    }
    let written = writes_back(&doc);
    assert_eq!(written.matches("xmlns:media").count(), 1, "{written}");
    assert_eq!(
        written,
        "<rss xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><item><media:content/></item>\
         <item><media:content/></item><item><media:content/></item></channel></rss>"
    );
    // Where the root element uses the prefix otherwise, each element
    // declares it.
    let mut doc = Document::parse("<r xmlns:media='urn:other'><a/><b/></r>");
    for name in ["a", "b"] {
        let id = doc
            .root()
            .descendants()
            .find(|n| n.name() == name)
            .unwrap()
            .id();
        let mut element = doc.node_mut(id).unwrap();
        element.append_element_ns(media, "media:content").unwrap();
    }
    let written = writes_back(&doc);
    assert_eq!(written.matches("xmlns:media").count(), 3, "{written}");
    // Where a name uses it undeclared in another namespace (a declaration
    // would move it), too; where it uses it undeclared in the registered
    // namespace of the well-known prefix, the one declaration covers it
    // as well.
    let options = [(false, media, 1), (true, "urn:xml5dom:undeclared:media", 0)];
    for (placeholders, old_namespace, root_declares) in options {
        let source = "<r><media:old/><a/></r>";
        let mut doc = match placeholders {
            false => Document::parse(source),
            true => parse_with_placeholders(source),
        };
        let a = doc
            .root()
            .descendants()
            .find(|n| n.name() == "a")
            .unwrap()
            .id();
        let mut element = doc.node_mut(a).unwrap();
        element.append_element_ns(media, "media:content").unwrap();
        let old = doc
            .root()
            .descendants()
            .find(|n| n.name() == "media:old")
            .unwrap();
        assert_eq!(old.namespace(), Some(old_namespace));
        let root = doc.root_element().unwrap();
        assert_eq!(root.attributes().count(), root_declares);
        let written = writes_back(&doc);
        let declarations = written.matches("xmlns:media").count();
        assert_eq!(declarations, 2 - root_declares, "{written}");
    }
}
