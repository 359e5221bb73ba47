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
use xml5dom::{Document, NodeId, XML_NAMESPACE};

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
