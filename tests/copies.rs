//! Issue 21's tree API: the mutable node handle, `Clone` for documents,
//! deep copies within a document, imports between documents (with their
//! namespaces kept), fragment parsing, and `Display`/`Debug` for nodes.
//! Every edited document is also held to the promise of docs/editing.md
//! (`common/edit_checks.rs`): it writes out well-formed and reads back to
//! the same tree.

#[allow(dead_code)]
#[path = "common/edit_checks.rs"]
mod edit_checks;

use edit_checks::{check_written_back, dump};
use xml5dom::{Document, ErrorCode, Node, NodeId};

/// The promise, and the output.
fn written(doc: &Document) -> String {
    match check_written_back(doc, None) {
        Ok(out) => out,
        Err(broken) => panic!("{broken}"),
    }
}

fn first_child(doc: &Document, parent: NodeId) -> NodeId {
    doc.node(parent).unwrap().first_child().unwrap().id()
}

fn root(doc: &Document) -> NodeId {
    doc.root_element().unwrap().id()
}

/// The element at `path` (child element indexes) under the root element.
fn at(doc: &Document, path: &[usize]) -> NodeId {
    let mut node = doc.root_element().unwrap();
    for &i in path {
        node = node.child_elements().nth(i).unwrap();
    }
    node.id()
}

/// `node` of `doc`, read back from the output of `doc`: the same path of
/// child elements from the root.
fn read_back<'a>(again: &'a Document, doc: &Document, node: NodeId) -> Node<'a> {
    let mut path = Vec::new();
    let mut n = doc.node(node).unwrap();
    while let Some(parent) = n.parent().filter(|p| p.is_element()) {
        path.push(parent.child_elements().position(|c| c == n).unwrap());
        n = parent;
    }
    let mut found = again.root_element().unwrap();
    for &i in path.iter().rev() {
        found = found.child_elements().nth(i).unwrap();
    }
    found
}

/// Imports `path` of `source` into `target` under its element `under`,
/// and checks that every name of the copy reads back from the output in
/// the namespace it had in `source`; returns the output.
fn import_and_check(source: &str, path: &[usize], target: &str, under: &[usize]) -> String {
    let other = Document::parse(source);
    assert!(other.is_well_formed());
    let mut doc = Document::parse(target);
    let node = at(&other, path);
    let copy = doc.import(&other, node).unwrap();
    let parent = at(&doc, under);
    doc.append(parent, copy).unwrap();
    let out = written(&doc);
    let again = Document::parse(&out);
    let copy_again = read_back(&again, &doc, copy);
    assert_eq!(dump(copy_again), dump(other.node(node).unwrap()), "{out}");
    out
}

// ----- Import: namespaces -------------------------------------------------

#[test]
fn an_import_declares_the_prefix_its_source_ancestor_declared() {
    let out = import_and_check(
        "<a:feed xmlns:a='urn:A'><a:entry a:id='1'><a:title>T</a:title></a:entry></a:feed>",
        &[0],
        "<feed/>",
        &[],
    );
    assert_eq!(
        out,
        "<feed><a:entry a:id=\"1\" xmlns:a=\"urn:A\"><a:title>T</a:title></a:entry></feed>"
    );
}

#[test]
fn an_import_under_the_same_prefix_for_another_uri_keeps_its_uri() {
    // Source binds a to urn:A, the target binds a to urn:B.
    let out = import_and_check(
        "<a:feed xmlns:a='urn:A'><a:entry a:id='1'/></a:feed>",
        &[0],
        "<a:feed xmlns:a='urn:B'><a:x/></a:feed>",
        &[0],
    );
    assert_eq!(
        out,
        "<a:feed xmlns:a='urn:B'><a:x><a:entry a:id=\"1\" xmlns:a=\"urn:A\"/></a:x></a:feed>"
    );
    // And the other way: the target's prefix for the copy's URI is
    // another one, and the copy's prefix means something else there.
    let out = import_and_check(
        "<r xmlns:b='urn:A'><b:c b:x='1'><b:d/></b:c></r>",
        &[0],
        "<r xmlns:a='urn:A' xmlns:b='urn:B'><b:y/></r>",
        &[0],
    );
    assert_eq!(
        out,
        "<r xmlns:a='urn:A' xmlns:b='urn:B'><b:y><b:c b:x=\"1\" xmlns:b=\"urn:A\"><b:d/></b:c></b:y></r>"
    );
}

#[test]
fn an_import_keeps_default_namespaces_both_ways() {
    // In a default namespace in the source, under another one.
    let out = import_and_check(
        "<feed xmlns='urn:A'><entry><id>1</id></entry></feed>",
        &[0],
        "<feed xmlns='urn:B'/>",
        &[],
    );
    assert_eq!(
        out,
        "<feed xmlns='urn:B'><entry xmlns=\"urn:A\"><id>1</id></entry></feed>"
    );
    // In no namespace, under a default namespace: `xmlns=""`.
    let out = import_and_check(
        "<feed><entry><id>1</id></entry></feed>",
        &[0],
        "<feed xmlns='urn:B'/>",
        &[],
    );
    assert_eq!(
        out,
        "<feed xmlns='urn:B'><entry xmlns=\"\"><id>1</id></entry></feed>"
    );
}

#[test]
fn an_import_keeps_its_own_xmlns_empty_declaration() {
    let out = import_and_check(
        "<a xmlns='urn:A'><b xmlns=''><c/></b></a>",
        &[0],
        "<r xmlns='urn:B'><s/></r>",
        &[0],
    );
    assert_eq!(out, "<r xmlns='urn:B'><s><b xmlns=\"\"><c/></b></s></r>");
}

#[test]
fn an_import_keeps_namespaced_attributes_whose_prefix_is_taken() {
    // The copy's own declaration binds p; its attribute's prefix q means
    // another namespace in the target.
    let out = import_and_check(
        "<r xmlns:q='urn:Q'><p:e xmlns:p='urn:P' q:x='1' p:y='2'/></r>",
        &[0],
        "<r xmlns:q='urn:Z' xmlns:p='urn:Z2'/>",
        &[],
    );
    assert_eq!(
        out,
        "<r xmlns:q='urn:Z' xmlns:p='urn:Z2'><p:e xmlns:p=\"urn:P\" q:x=\"1\" p:y=\"2\" xmlns:q=\"urn:Q\"/></r>"
    );
}

#[test]
fn an_import_of_svg_with_xlink_into_xhtml() {
    import_and_check(
        "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'><g><use xlink:href='#a' xml:lang='en'/></g></svg>",
        &[0],
        "<html xmlns='http://www.w3.org/1999/xhtml' xmlns:xlink='urn:not-xlink'><body/></html>",
        &[0],
    );
}

#[test]
fn an_import_is_independent_of_its_source() {
    let other = Document::parse("<a><b x='1'>t<!--c--><?pi d?><![CDATA[<z>]]></b></a>");
    let b = at(&other, &[0]);
    let mut doc = Document::parse("<r/>");
    let copy = doc.import(&other, b).unwrap();
    // Detached until inserted, with nothing of the source's positions.
    assert!(doc.node(copy).unwrap().parent().is_none());
    assert!(doc.node(copy).unwrap().span().is_none());
    doc.set_attribute(copy, "x", "2").unwrap();
    let r = root(&doc);
    doc.append(r, copy).unwrap();
    assert_eq!(
        written(&doc),
        "<r><b x=\"2\">t<!--c--><?pi d?><![CDATA[<z>]]></b></r>"
    );
    assert_eq!(other.to_xml(), other.source());
}

#[test]
fn what_cannot_be_imported() {
    let other = Document::parse("<!DOCTYPE a><a/>");
    let mut doc = Document::parse("<r/>");
    let doctype = other.root().first_child().unwrap().id();
    assert!(doc.import(&other, doctype).is_err());
    assert!(doc.import(&other, other.root().id()).is_err());
    assert!(doc.deep_copy(doc.root().id()).is_err());
    // A prefix bound to nothing in a broken source: refused where it lands
    // unless the prefix is bound there (then it takes that namespace, as
    // a created element would).
    let broken = Document::parse("<r><p:a/></r>");
    let a = at(&broken, &[0]);
    let copy = doc.import(&broken, a).unwrap();
    let r = root(&doc);
    assert!(doc.append(r, copy).is_err());
    let mut bound = Document::parse("<r xmlns:p='urn:p'/>");
    let copy = bound.import(&broken, a).unwrap();
    let r = root(&bound);
    bound.append(r, copy).unwrap();
    assert_eq!(bound.node(copy).unwrap().namespace(), Some("urn:p"));
    written(&bound);
}

#[test]
fn an_import_into_a_document_whose_dtd_gives_defaults_must_have_them() {
    let mut doc = Document::parse("<!DOCTYPE r [<!ATTLIST b d CDATA 'v'>]><r><b/></r>");
    let other = Document::parse("<x><b/></x>");
    let copy = doc.import(&other, at(&other, &[0])).unwrap();
    let r = root(&doc);
    assert!(
        doc.append(r, copy).is_err(),
        "it would read back with d='v'"
    );
    doc.set_attribute(copy, "d", "w").unwrap();
    doc.append(r, copy).unwrap();
    assert_eq!(
        written(&doc),
        "<!DOCTYPE r [<!ATTLIST b d CDATA 'v'>]><r><b/><b d=\"w\"/></r>"
    );
}

// ----- Deep copy ----------------------------------------------------------

#[test]
fn a_deep_copy_moved_to_another_scope_keeps_its_namespaces() {
    let mut doc =
        Document::parse("<r xmlns:p='urn:1'><p:a p:x='1'><p:b/></p:a><s xmlns:p='urn:2'/></r>");
    let (a, s) = (at(&doc, &[0]), at(&doc, &[1]));
    let copy = doc.deep_copy(a).unwrap();
    doc.append(s, copy).unwrap();
    let out = written(&doc);
    assert_eq!(
        out,
        "<r xmlns:p='urn:1'><p:a p:x='1'><p:b/></p:a><s xmlns:p='urn:2'><p:a p:x=\"1\" xmlns:p=\"urn:1\"><p:b/></p:a></s></r>"
    );
}

#[test]
fn a_deep_copy_is_its_own() {
    let mut doc = Document::parse("<r><a x='1'>t</a></r>");
    let a = at(&doc, &[0]);
    let copy = doc.deep_copy(a).unwrap();
    // Edits of the copy leave the original as it was, and the other way.
    doc.set_attribute(copy, "x", "2").unwrap();
    doc.set_attribute(copy, "y", "3").unwrap();
    let text = first_child(&doc, copy);
    doc.set_text(text, "u").unwrap();
    doc.set_attribute(a, "z", "4").unwrap();
    doc.insert_after(a, copy).unwrap();
    assert_eq!(
        written(&doc),
        "<r><a x='1' z=\"4\">t</a><a x=\"2\" y=\"3\">u</a></r>"
    );
}

#[test]
fn a_deep_copy_of_deep_nesting_does_not_recurse() {
    let depth = 200_000;
    let text = format!("<r>{}{}</r>", "<a>".repeat(depth), "</a>".repeat(depth));
    let mut doc = Document::parse(&text);
    let a = at(&doc, &[0]);
    let copy = doc.deep_copy(a).unwrap();
    let r = root(&doc);
    doc.append(r, copy).unwrap();
    // (`descendants` leaves the node itself out.)
    assert_eq!(doc.node(copy).unwrap().descendants().count(), depth - 1);
    let mut other = Document::parse("<x/>");
    let imported = other.import(&doc, copy).unwrap();
    let x = root(&other);
    other.append(x, imported).unwrap();
    let expected = format!(
        "<x>{}<a/>{}</x>",
        "<a>".repeat(depth - 1),
        "</a>".repeat(depth - 1)
    );
    // (Not `assert_eq!`: a failure would print megabytes.)
    assert!(other.to_xml() == expected);
}

// ----- Clone --------------------------------------------------------------

#[test]
fn a_clone_is_deep_and_independent() {
    let original = Document::parse("<r xmlns:p='urn:p'><p:a>t</p:a>&amp;<b x=1 /></r>");
    let mut copy = original.clone();
    assert_eq!(copy.errors(), original.errors());
    assert_eq!(copy.source(), original.source());
    assert_eq!(copy.to_xml(), original.to_xml());
    // Ids of the original name the same nodes in the clone.
    let a = at(&original, &[0]);
    assert_eq!(copy.node(a).unwrap().name(), "p:a");
    // New names, new strings and new nodes in the clone only.
    copy.rename(a, "p:renamed").unwrap();
    let made = copy.create_element_ns("urn:new", "n:new");
    copy.append(a, made).unwrap();
    copy.set_attribute(a, "p:x", "1").unwrap();
    assert_eq!(original.node(a).unwrap().name(), "p:a");
    assert!(original.node(made).is_none());
    assert_eq!(
        original.to_xml(),
        "<r xmlns:p='urn:p'><p:a>t</p:a>&amp;<b x=\"1\" /></r>"
    );
    assert_eq!(
        copy.to_xml(),
        "<r xmlns:p='urn:p'><p:renamed p:x=\"1\">t<n:new xmlns:n=\"urn:new\"/></p:renamed>&amp;<b x=\"1\" /></r>"
    );
    // Positions are counted in the clone as in the original.
    let b = at(&original, &[1]);
    let offset = original.node(b).unwrap().span().unwrap().start;
    assert_eq!(copy.position(offset), original.position(offset));
}

// ----- Fragments ----------------------------------------------------------

#[test]
fn a_broken_fragment_is_repaired_and_its_errors_reported() {
    let mut doc = Document::parse("<feed><entry/></feed>");
    let feed = root(&doc);
    let added = doc
        .append_fragment(feed, "<item id=3>new</item> text <b>x & y</feed></c>")
        .unwrap();
    let errors: Vec<(ErrorCode, usize, u32, u32)> = added
        .errors
        .iter()
        .map(|e| (e.code, e.offset, e.line, e.column))
        .collect();
    assert_eq!(
        errors,
        [
            (ErrorCode::UnquotedAttributeValue, 9, 1, 10),
            (ErrorCode::BareAmpersand, 32, 1, 33),
            (ErrorCode::StrayEndTag, 35, 1, 36),
            (ErrorCode::StrayEndTag, 42, 1, 43),
            (ErrorCode::EofInElement, 46, 1, 47),
        ]
    );
    assert_eq!(added.nodes.len(), 3);
    // The stray `</feed>` closed nothing outside the fragment.
    assert_eq!(
        written(&doc),
        "<feed><entry/><item id=\"3\">new</item> text <b>x &amp; y</b></feed>"
    );
    assert!(doc.errors().is_empty(), "the document's own errors stay");
}

#[test]
fn a_fragment_resolves_prefixes_in_the_scope_of_its_element() {
    let mut doc = Document::parse("<r xmlns='urn:d' xmlns:p='urn:p'><s xmlns:p='urn:q'/></r>");
    let s = at(&doc, &[0]);
    let added = doc
        .append_fragment(
            s,
            "<p:a p:x='1'><b/><c xmlns='' xmlns:p='urn:z'><p:d/></c></p:a>",
        )
        .unwrap();
    assert!(added.errors.is_empty(), "{:?}", added.errors);
    let a = doc.node(added.nodes[0]).unwrap();
    assert_eq!(a.namespace(), Some("urn:q"));
    assert_eq!(a.attribute_ns("urn:q", "x"), Some("1"));
    let b = a.first_child().unwrap();
    assert_eq!(b.namespace(), Some("urn:d"));
    let c = b.next_sibling().unwrap();
    assert_eq!(c.namespace(), None);
    assert_eq!(c.first_child().unwrap().namespace(), Some("urn:z"));
    assert_eq!(
        written(&doc),
        "<r xmlns='urn:d' xmlns:p='urn:p'><s xmlns:p='urn:q'><p:a p:x=\"1\"><b/><c xmlns=\"\" xmlns:p=\"urn:z\"><p:d/></c></p:a></s></r>"
    );
}

#[test]
fn a_fragment_sees_namespaces_that_names_of_made_elements_use() {
    // <n:e> is made in urn:n with no declaration in the tree yet: n still
    // means urn:n there (the output declares it).
    let mut doc = Document::parse("<r/>");
    let r = root(&doc);
    let e = doc.create_element_ns("urn:n", "n:e");
    doc.append(r, e).unwrap();
    let added = doc.append_fragment(e, "<n:f/>").unwrap();
    assert_eq!(doc.node(added.nodes[0]).unwrap().namespace(), Some("urn:n"));
    assert_eq!(written(&doc), "<r><n:e xmlns:n=\"urn:n\"><n:f/></n:e></r>");
}

#[test]
fn a_fragment_that_cannot_go_in_leaves_the_document_as_it_was() {
    let mut doc = Document::parse("<r><a/></r>");
    let before = doc.to_xml();
    let r = root(&doc);
    for fragment in ["<b/><q:c/>", "<b/>\u{1}", "<!-- a -- b -->", "<?xml x?>"] {
        assert!(doc.append_fragment(r, fragment).is_err(), "{fragment:?}");
        assert_eq!(doc.to_xml(), before);
        assert_eq!(doc.node(r).unwrap().children().count(), 1);
    }
    let document = doc.root().id();
    assert!(doc.append_fragment(document, "<b/>").is_err());
    let a = at(&doc, &[0]);
    doc.remove(a).unwrap();
    assert!(doc.append_fragment(a, "<b/>").is_err());
}

#[test]
fn a_fragment_inserted_before_a_sibling() {
    let mut doc = Document::parse("<r><z/></r>");
    let z = at(&doc, &[0]);
    let added = doc.insert_fragment_before(z, "<x/>y<").unwrap();
    assert_eq!(added.nodes.len(), 2);
    assert_eq!(
        added.errors.iter().map(|e| e.code).collect::<Vec<_>>(),
        [ErrorCode::EofBeforeTagName]
    );
    assert_eq!(written(&doc), "<r><x/>y&lt;<z/></r>");
}

#[test]
fn a_deep_broken_fragment_is_parsed_without_recursion() {
    let depth = 200_000;
    let mut doc = Document::parse("<r/>");
    let r = root(&doc);
    let added = doc.append_fragment(r, &"<a>".repeat(depth)).unwrap();
    assert_eq!(added.nodes.len(), 1);
    assert_eq!(added.errors.len(), 1);
    // (`descendants` leaves the node itself out.)
    assert_eq!(doc.root().descendants().count(), depth + 1);
    let expected = format!(
        "<r>{}<a/>{}</r>",
        "<a>".repeat(depth - 1),
        "</a>".repeat(depth - 1)
    );
    assert!(doc.to_xml() == expected);
}

// ----- The handle ---------------------------------------------------------

#[test]
fn a_handle_builds_and_edits_in_chains() {
    let mut doc = Document::parse("<feed xmlns:dc='http://purl.org/dc/elements/1.1/'/>");
    let mut feed = doc.root_element_mut().unwrap();
    for (n, title) in [(1, "one"), (2, "two & three")] {
        let mut entry = feed.append_element("entry").unwrap();
        entry.set_attribute("n", &n.to_string()).unwrap();
        entry
            .append_element("dc:title")
            .unwrap()
            .append_text(title)
            .unwrap();
    }
    feed.prepend_element("head")
        .unwrap()
        .append_comment(" two entries ")
        .unwrap();
    let mut first = feed
        .into_first_child()
        .unwrap()
        .into_next_sibling()
        .unwrap();
    first.rename("item").unwrap().remove_attribute("n").unwrap();
    let title = first
        .first_child_mut()
        .unwrap()
        .as_node()
        .namespace()
        .map(str::to_owned);
    assert_eq!(title.as_deref(), Some("http://purl.org/dc/elements/1.1/"));
    assert!(
        first.append_element("x:y").is_err(),
        "x is bound to nothing"
    );
    assert_eq!(
        written(&doc),
        "<feed xmlns:dc='http://purl.org/dc/elements/1.1/'><head><!-- two entries --></head><item><dc:title>one</dc:title></item><entry n=\"2\"><dc:title>two &amp; three</dc:title></entry></feed>"
    );
}

#[test]
fn a_handle_moves_copies_and_imports() {
    let other = Document::parse("<o xmlns='urn:o'><e>1</e></o>");
    let e = at(&other, &[0]);
    let mut doc = Document::parse("<r><a/><b/></r>");
    let (a, b) = (at(&doc, &[0]), at(&doc, &[1]));
    let mut handle = doc.node_mut(b).unwrap();
    handle.append(a).unwrap();
    let copy = handle.append_copy(a).unwrap().id();
    handle.append_import(&other, e).unwrap();
    handle.append_fragment("<f/>").unwrap();
    let mut parent = handle.parent_mut().unwrap();
    parent.set_attribute("n", "4").unwrap();
    assert_eq!(parent.as_node().name(), "r");
    doc.node_mut(copy).unwrap().detach().unwrap();
    assert_eq!(
        written(&doc),
        "<r n=\"4\"><b><a/><e xmlns=\"urn:o\">1</e><f/></b></r>"
    );
    assert!(doc.node_mut(copy).is_some());
    doc.node_mut(copy).unwrap().remove().unwrap();
    assert!(doc.node_mut(copy).is_none());
}

// ----- Display and Debug --------------------------------------------------

#[test]
fn nodes_display_their_xml_and_debug_compactly() {
    let doc = Document::parse("<r xmlns:p='urn:p'>\n<p:a x='1'>t</p:a><?pi d?></r>");
    let a = doc.root_element().unwrap().first_element_child().unwrap();
    assert_eq!(a.to_string(), a.to_xml());
    assert_eq!(a.to_string(), "<p:a x='1' xmlns:p=\"urn:p\">t</p:a>");
    assert_eq!(format!("{a:?}"), "Element(p:a @ 2:1)");
    let pi = a.next_sibling().unwrap();
    assert_eq!(format!("{pi:?}"), "ProcessingInstruction(pi @ 2:19)");
    assert_eq!(pi.to_string(), "<?pi d?>");
    let long = Document::parse(&format!("<a>{}</a>", "x".repeat(100)));
    let text = long.root_element().unwrap().first_child().unwrap();
    assert_eq!(
        format!("{text:?}"),
        format!("Text(\"{}\u{2026}\" @ 1:4)", "x".repeat(32))
    );
}

#[test]
fn a_fragment_of_many_nodes_deep_in_a_document_lands_in_linear_time() {
    // 20,000 nodes under an element 100,000 deep: each does not walk the
    // element's ancestors again (that would be 2 billion steps).
    let depth = 100_000;
    let text = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let mut doc = Document::parse(&text);
    let deepest = doc.root().descendants().last().unwrap().id();
    let added = doc
        .append_fragment(deepest, &"<b/>x".repeat(10_000))
        .unwrap();
    assert_eq!(added.nodes.len(), 20_000);
    assert!(added.errors.is_empty());
    assert_eq!(doc.node(deepest).unwrap().children().count(), 20_000);
}

#[test]
fn a_fragment_uses_the_entities_and_defaults_of_the_documents_dtd() {
    let mut doc = Document::parse(
        "<!DOCTYPE r [<!ENTITY e 'hi'><!ENTITY m '<b>x</b>'><!ATTLIST b d CDATA 'v'>]><r><b/></r>",
    );
    let r = root(&doc);
    let added = doc.append_fragment(r, "&e;<b/>&m;<b d='w'/>").unwrap();
    assert!(added.errors.is_empty(), "{:?}", added.errors);
    let d: Vec<_> = doc
        .root()
        .descendants()
        .filter_map(|n| n.attribute("d"))
        .collect();
    assert_eq!(d, ["v", "v", "v", "w"]);
    // The defaults stay defaults: the DTD written out supplies them.
    assert_eq!(
        written(&doc),
        "<!DOCTYPE r [<!ENTITY e 'hi'><!ENTITY m '<b>x</b>'><!ATTLIST b d CDATA 'v'>]><r><b/>hi<b/><b>x</b><b d=\"w\"/></r>"
    );
    // A copy of the document's own element keeps its default a default.
    let b = at(&doc, &[0]);
    let copy = doc.deep_copy(b).unwrap();
    doc.append(r, copy).unwrap();
    assert!(written(&doc).ends_with("<b d=\"w\"/><b/></r>"));
    // Without the DOCTYPE, they are written out.
    let mut plain = Document::parse("<r/>");
    let r = root(&plain);
    let added = plain.append_fragment(r, "&e;<b/>").unwrap();
    assert_eq!(
        added.errors.iter().map(|e| e.code).collect::<Vec<_>>(),
        [ErrorCode::UnknownNamedCharacterReference]
    );
    assert_eq!(written(&plain), "<r>&amp;e;<b/></r>");
}

#[test]
fn a_handle_whose_node_was_removed_reads_nothing_of_it() {
    let mut doc = Document::parse("<r><a><b/></a></r>");
    let a = at(&doc, &[0]);
    let mut b = doc.node_mut(a).unwrap().into_first_child().unwrap();
    b.parent_mut().unwrap().remove().unwrap();
    // Removing <a> removed <b>: its handle edits nothing and has no
    // relatives, and reads the document node rather than a stale one.
    assert!(b.set_attribute("x", "1").is_err());
    assert!(b.parent_mut().is_none());
    assert!(b.as_node().is_document());
    // (A node made now may reuse the slot: still not read as <b>.)
    let made = doc.create_element("c");
    let r = root(&doc);
    doc.append(r, made).unwrap();
    assert_eq!(written(&doc), "<r><c/></r>");
}
