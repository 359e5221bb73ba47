//! The serializer: lossless output, minimal diffs after edits, escaping,
//! namespace declarations after moves, repairs, and pretty printing. (The
//! corpus round trip is `tests/round_trip.rs`; generated broken input is
//! `tests/fixpoint.rs`; canonical forms are `tests/canonical.rs`.)

use pretty_assertions::assert_eq;
use xml5dom::{Document, ParseOptions, RepairKind, SerializeOptions, WELL_KNOWN_NAMESPACES};

/// The one changed stretch between `before` and `after`: what `before` had
/// there and what `after` has instead.
fn changed<'a>(before: &'a str, after: &'a str) -> (&'a str, &'a str) {
    let prefix = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let suffix = before[prefix..]
        .bytes()
        .rev()
        .zip(after[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (
        &before[prefix..before.len() - suffix],
        &after[prefix..after.len() - suffix],
    )
}

/// Every element and attribute as `{namespace}local`, in document order,
/// namespace declarations left out: what must survive a round trip when
/// declarations are added.
fn expanded_names(doc: &Document) -> Vec<String> {
    let mut names = Vec::new();
    for element in doc.root().descendant_elements() {
        names.push(format!(
            "{{{}}}{}",
            element.namespace().unwrap_or(""),
            element.local_name()
        ));
        for attribute in element
            .attributes()
            .filter(|a| a.declared_prefix().is_none())
        {
            names.push(format!(
                "@{{{}}}{}={}",
                attribute.namespace().unwrap_or(""),
                attribute.local_name(),
                attribute.value()
            ));
        }
    }
    names
}

fn pretty(xml: &str, width: usize) -> String {
    Document::parse(xml)
        .serialize(&SerializeOptions {
            pretty: Some(width),
            ..Default::default()
        })
        .text
}

// ----- Lossless ------------------------------------------------------------

#[test]
fn an_unedited_document_comes_back_byte_for_byte() {
    let xml = "\u{feff}<?xml version='1.0' standalone=\"yes\"?>\r\n\
        <!DOCTYPE doc PUBLIC \"-//X//EN\" 'd.dtd' [\n  <!ENTITY e \"]>\">\n]>\n\
        <!-- before -->\n<doc  a = 'x'\tb=\"&amp;&#x41;\"\n>text &lt; &#233;<![CDATA[ <raw> ]]>\
        <e/><e></e><?pi  data ?></doc   >\n<!--after-->\n";
    // A byte-order mark is not part of the document, but comes back out.
    let doc = Document::parse(xml);
    assert_eq!(doc.errors(), []);
    assert_eq!(doc.to_xml(), xml);
}

// ----- Minimal diff --------------------------------------------------------

#[test]
fn changing_an_attribute_changes_only_its_value() {
    let xml = "<root>\n  <item  id='7'   class=\"a b\"\n   lang='en' />\n</root>";
    let mut doc = Document::parse(xml);
    let item = doc
        .root_element()
        .unwrap()
        .first_element_child()
        .unwrap()
        .id();
    doc.set_attribute(item, "class", "c").unwrap();
    let out = doc.to_xml();
    assert_eq!(changed(xml, &out), ("a b", "c"));
}

#[test]
fn changing_an_attribute_keeps_its_quote() {
    let mut doc = Document::parse("<a x='1' y=\"2\"/>");
    let a = doc.root_element().unwrap().id();
    doc.set_attribute(a, "x", "it's").unwrap();
    assert_eq!(doc.to_xml(), "<a x='it&apos;s' y=\"2\"/>");
}

#[test]
fn removing_an_attribute_removes_only_it_and_its_space() {
    let xml = "<a  x='1'   y=\"2\"\tz='3'/>";
    let mut doc = Document::parse(xml);
    let a = doc.root_element().unwrap().id();
    doc.remove_attribute(a, "y").unwrap();
    assert_eq!(doc.to_xml(), "<a  x='1'\tz='3'/>");
}

#[test]
fn adding_an_attribute_adds_only_it() {
    let xml = "<a x='1' >t</a>";
    let mut doc = Document::parse(xml);
    let a = doc.root_element().unwrap().id();
    doc.set_attribute(a, "y", "2 & 3").unwrap();
    let out = doc.to_xml();
    assert_eq!(changed(xml, &out), ("", "y=\"2 &amp; 3\" "));
}

#[test]
fn changing_a_text_changes_only_the_text() {
    let xml = "<doc>\n  <p class='x'>Hello, <b>world</b>!</p>\n</doc>\n";
    let mut doc = Document::parse(xml);
    let b = doc
        .root_element()
        .unwrap()
        .descendant_elements()
        .nth(1)
        .unwrap();
    let text = b.first_child().unwrap().id();
    doc.set_text(text, "you & me").unwrap();
    let out = doc.to_xml();
    assert_eq!(changed(xml, &out), ("world", "you &amp; me"));
}

#[test]
fn inserting_an_element_adds_only_its_bytes() {
    let xml = "<list>\n  <li a='1'>one</li>\n  <li a='2'>two</li>\n</list>";
    let mut doc = Document::parse(xml);
    let first = doc
        .root_element()
        .unwrap()
        .first_element_child()
        .unwrap()
        .id();
    let new = doc.create_element("li");
    doc.set_attribute(new, "a", "1.5").unwrap();
    let text = doc.create_text("one and a half");
    doc.append(new, text).unwrap();
    doc.insert_after(first, new).unwrap();
    let out = doc.to_xml();
    assert_eq!(
        changed(xml, &out),
        ("", "<li a=\"1.5\">one and a half</li>")
    );
}

#[test]
fn removing_an_element_removes_only_its_bytes() {
    let xml = "<list>\n  <li>one</li><li>two <b>2</b></li>\n  <li>three</li>\n</list>";
    let mut doc = Document::parse(xml);
    let two = doc
        .root_element()
        .unwrap()
        .child_elements()
        .nth(1)
        .unwrap()
        .id();
    doc.remove(two).unwrap();
    let out = doc.to_xml();
    assert_eq!(changed(xml, &out), ("<li>two <b>2</b></li>", ""));
}

#[test]
fn renaming_an_element_changes_its_start_and_end_tags_only() {
    let xml = "<a><old  x='1'>t</old ></a>";
    let mut doc = Document::parse(xml);
    let old = doc.root_element().unwrap().first_child().unwrap().id();
    doc.rename(old, "new").unwrap();
    assert_eq!(doc.to_xml(), "<a><new  x='1'>t</new></a>");
}

#[test]
fn an_empty_element_that_gains_a_child_gets_an_end_tag() {
    let mut doc = Document::parse("<a><b x='1'/></a>");
    let b = doc.root_element().unwrap().first_child().unwrap().id();
    let c = doc.create_element("c");
    doc.append(b, c).unwrap();
    assert_eq!(doc.to_xml(), "<a><b x='1'><c/></b></a>");
}

#[test]
fn an_element_that_loses_its_children_keeps_its_tags() {
    let mut doc = Document::parse("<a><b>x</b ></a>");
    let b = doc.root_element().unwrap().first_child().unwrap();
    let text = b.first_child().unwrap().id();
    doc.remove(text).unwrap();
    assert_eq!(doc.to_xml(), "<a><b></b ></a>");
}

// ----- Escaping and namespaces ---------------------------------------------

#[test]
fn new_text_and_values_are_escaped() {
    let mut doc = Document::parse("<a/>");
    let a = doc.root_element().unwrap().id();
    doc.set_attribute(a, "v", "<\"&'\t\n\r>").unwrap();
    doc.set_text(a, "<&>]]>\r").unwrap();
    let out = doc.to_xml();
    assert_eq!(
        out,
        "<a v=\"&lt;&quot;&amp;'&#9;&#10;&#13;>\">&lt;&amp;&gt;]]&gt;&#13;</a>"
    );
    let again = Document::parse(&out);
    let a = again.root_element().unwrap();
    assert_eq!(a.attribute("v"), Some("<\"&'\t\n\r>"));
    assert_eq!(a.text_content(), "<&>]]>\r");
}

#[test]
fn a_moved_subtree_gets_the_declarations_it_needs() {
    let xml = "<r><a xmlns:p='urn:p'><p:x p:y='1'/></a><b/></r>";
    let mut doc = Document::parse(xml);
    let root = doc.root_element().unwrap();
    let x = root.first_child().unwrap().first_child().unwrap().id();
    let b = root.child_elements().nth(1).unwrap().id();
    doc.append(b, x).unwrap();
    let out = doc.to_xml();
    assert_eq!(
        out,
        "<r><a xmlns:p='urn:p'></a><b><p:x p:y='1' xmlns:p=\"urn:p\"/></b></r>"
    );
    assert_eq!(expanded_names(&Document::parse(&out)), expanded_names(&doc));
}

#[test]
fn a_moved_unprefixed_element_keeps_its_default_namespace() {
    let xml = "<r><a xmlns='urn:a'><x/></a><b/></r>";
    let mut doc = Document::parse(xml);
    let root = doc.root_element().unwrap();
    let x = root.first_child().unwrap().first_child().unwrap().id();
    let b = root.child_elements().nth(1).unwrap().id();
    doc.append(b, x).unwrap();
    let out = doc.to_xml();
    assert_eq!(
        out,
        "<r><a xmlns='urn:a'></a><b><x xmlns=\"urn:a\"/></b></r>"
    );
    assert_eq!(expanded_names(&Document::parse(&out)), expanded_names(&doc));
}

#[test]
fn an_element_moved_out_of_a_default_namespace_undeclares_it() {
    let mut doc = Document::parse("<r xmlns='urn:r'><a/></r>");
    let r = doc.root_element().unwrap().id();
    let plain = doc.create_element("plain");
    doc.append(r, plain).unwrap();
    let out = doc.to_xml();
    assert_eq!(out, "<r xmlns='urn:r'><a/><plain xmlns=\"\"/></r>");
    assert_eq!(expanded_names(&Document::parse(&out)), expanded_names(&doc));
}

#[test]
fn a_namespaced_attribute_without_a_prefix_gets_one() {
    let mut doc = Document::parse("<a/>");
    let a = doc.root_element().unwrap().id();
    doc.set_attribute_ns(a, "urn:x", "k", "v").unwrap();
    let out = doc.to_xml();
    assert_eq!(out, "<a ns1:k=\"v\" xmlns:ns1=\"urn:x\"/>");
    let again = Document::parse(&out);
    assert_eq!(
        again.root_element().unwrap().attribute_ns("urn:x", "k"),
        Some("v")
    );
}

#[test]
fn a_subtree_serializes_with_its_inherited_declarations() {
    let doc = Document::parse("<r xmlns='urn:d' xmlns:p='urn:p'><p:a><b p:c='1'/></p:a></r>");
    let a = doc.root_element().unwrap().first_child().unwrap();
    let out = a.to_xml();
    assert_eq!(
        out,
        "<p:a xmlns:p=\"urn:p\"><b p:c='1' xmlns=\"urn:d\"/></p:a>"
    );
}

// ----- Repairs -------------------------------------------------------------

fn repairs(xml: &str) -> (String, Vec<RepairKind>) {
    let out = Document::parse(xml).serialize(&SerializeOptions::default());
    (out.text, out.repairs.iter().map(|r| r.kind).collect())
}

/// Each broken spot is mended in place, and reported; the rest (the
/// quotes of `b`, the text) is copied as it was.
#[test]
fn broken_input_is_mended_where_it_is_broken() {
    let (text, kinds) = repairs("<a x=1 y b='&'>AT&T <b>bold<i>both</b> & more");
    assert_eq!(
        text,
        "<a x=\"1\" y=\"\" b='&amp;'>AT&amp;T <b>bold<i>both</i></b> &amp; more</a>"
    );
    use RepairKind::*;
    assert_eq!(
        kinds,
        [
            AttributeRewritten,
            AttributeRewritten,
            Escaped,
            Escaped,
            EndTagAdded,
            Escaped,
            EndTagAdded
        ]
    );
}

/// An XML declaration whose only error is its encoding label (one no
/// table knows, or one the byte-order mark contradicts) keeps everything
/// but the label, which names the encoding written (issue 30).
#[test]
fn a_declaration_with_a_wrong_label_changes_only_the_label() {
    let declaration = |label: &str| {
        format!("<?xml version = \"1.0\"\n  encoding='{label}'  standalone=\"yes\" ?>\n")
    };
    let input = format!("{}<a>AT&T</a>", declaration("bogus"));
    let out = Document::parse_bytes(input.as_bytes()).serialize(&SerializeOptions::default());
    assert_eq!(out.text, format!("{}<a>AT&amp;T</a>", declaration("UTF-8")));
    let kinds: Vec<RepairKind> = out.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        [RepairKind::XmlDeclarationChanged, RepairKind::Escaped]
    );
    let input = format!("\u{FEFF}{}<a/>", declaration("windows-1252"));
    let out = Document::parse_bytes(input.as_bytes()).serialize(&SerializeOptions::default());
    assert_eq!(out.text, format!("{}<a/>", declaration("UTF-8")));
    // Text given as `&str` was read by no label: the label is no error,
    // and the declaration names the encoding written all the same.
    let doc = Document::parse(&format!("{}<a/>", declaration("bogus")));
    assert_eq!(doc.errors(), []);
    assert_eq!(doc.to_xml(), format!("{}<a/>", declaration("UTF-8")));
}

#[test]
fn forbidden_characters_become_replacement_characters() {
    let (text, kinds) = repairs("<a t='\u{1}'>x\u{8}y\u{c}</a>");
    assert_eq!(text, "<a t='\u{fffd}'>x\u{fffd}y\u{fffd}</a>");
    assert_eq!(kinds, [RepairKind::ForbiddenCharacter; 3]);
}

#[test]
fn comments_lose_their_double_hyphens() {
    // XML5 reads `x--y---` as the data `x--y-`.
    let (text, kinds) = repairs("<a><!--x--y---></a>");
    assert_eq!(text, "<a><!--x- -y- --></a>");
    assert_eq!(kinds, [RepairKind::CommentText]);
}

#[test]
fn names_that_are_not_names_are_mended() {
    let (text, kinds) = repairs("<1a><b\"c d\"e='1'/></1a>");
    assert_eq!(text, "<_1a><b_c d_e='1'/></_1a>");
    assert!(
        kinds.iter().all(|k| *k == RepairKind::InvalidName),
        "{kinds:?}"
    );
}

/// `xml` parsed with every undeclared prefix in its placeholder namespace,
/// well-known ones too, then written out.
fn repairs_with_placeholders(xml: &str) -> (String, Vec<RepairKind>) {
    let mut options = ParseOptions::default();
    options.placeholder_for_well_known_prefixes = true;
    let out = Document::parse_with(xml, &options).serialize(&SerializeOptions::default());
    (out.text, out.repairs.iter().map(|r| r.kind).collect())
}

#[test]
fn undeclared_prefixes_get_a_placeholder_namespace() {
    let (text, kinds) = repairs("<svg><use my:href='#a'/></svg>");
    assert_eq!(
        text,
        "<svg><use xmlns:my=\"urn:xml5dom:undeclared:my\" my:href='#a'/></svg>"
    );
    assert_eq!(kinds, [RepairKind::UndeclaredPrefix]);
    // Well-known prefixes too, where the parse was asked to.
    let (text, kinds) = repairs_with_placeholders("<svg><use xlink:href='#a'/></svg>");
    assert_eq!(
        text,
        "<svg><use xmlns:xlink=\"urn:xml5dom:undeclared:xlink\" xlink:href='#a'/></svg>"
    );
    assert_eq!(kinds, [RepairKind::UndeclaredPrefix]);
}

/// A well-known prefix nothing declares is declared with its registered
/// namespace where the placeholder would be (where it is first used, once
/// for the element's scope), and a declaration of the prefix in the
/// document still means what it says in its scope.
#[test]
fn undeclared_well_known_prefixes_are_declared_with_their_registered_namespace() {
    let (text, kinds) = repairs("<svg><use xlink:href='#a'/></svg>");
    assert_eq!(
        text,
        "<svg><use xmlns:xlink=\"http://www.w3.org/1999/xlink\" xlink:href='#a'/></svg>"
    );
    assert_eq!(kinds, [RepairKind::UndeclaredPrefix]);

    let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd";
    let feed = "<rss version=\"2.0\">\n<channel>\n\
                <itunes:author>A</itunes:author>\n\
                <item><itunes:duration>1:00</itunes:duration><itunes:image href='i.png'/></item>\n\
                <item xmlns:itunes='urn:mine'><itunes:duration>2:00</itunes:duration></item>\n\
                </channel>\n</rss>";
    let (text, kinds) = repairs(feed);
    assert_eq!(
        text,
        format!(
            "<rss version=\"2.0\">\n<channel>\n\
             <itunes:author xmlns:itunes=\"{itunes}\">A</itunes:author>\n\
             <item><itunes:duration xmlns:itunes=\"{itunes}\">1:00</itunes:duration>\
             <itunes:image xmlns:itunes=\"{itunes}\" href='i.png'/></item>\n\
             <item xmlns:itunes='urn:mine'><itunes:duration>2:00</itunes:duration></item>\n\
             </channel>\n</rss>"
        )
    );
    assert_eq!(kinds, [RepairKind::UndeclaredPrefix; 3]);
    let again = Document::parse(&text);
    assert_eq!(again.errors(), []);
    let durations: Vec<_> = again
        .root()
        .descendants()
        .filter(|n| n.local_name() == "duration")
        .map(|n| n.namespace())
        .collect();
    assert_eq!(durations, [Some(itunes), Some("urn:mine")]);
    // The output is a fixpoint.
    assert_eq!(again.to_xml(), text);
}

/// Each well-known prefix, used undeclared on an element and an
/// attribute: both are in its registered namespace (and reported), the
/// output declares it once on the element and reads back without errors
/// to the same names; with the option, the placeholder as before.
#[test]
fn every_well_known_prefix_is_bound_declared_and_read_back() {
    assert_eq!(WELL_KNOWN_NAMESPACES.len(), 18);
    for &(prefix, uri) in WELL_KNOWN_NAMESPACES {
        let source = format!("<r><{prefix}:e {prefix}:a='1'/></r>");
        let doc = Document::parse(&source);
        let codes: Vec<_> = doc.errors().iter().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, ["unbound-namespace-prefix"; 2], "{source}");
        let e = doc.root_element().unwrap().first_child().unwrap();
        assert_eq!(e.namespace(), Some(uri), "{source}");
        assert_eq!(e.attribute_ns(uri, "a"), Some("1"), "{source}");
        let written = doc.to_xml();
        assert_eq!(
            written,
            format!("<r><{prefix}:e xmlns:{prefix}=\"{uri}\" {prefix}:a='1'/></r>")
        );
        let again = Document::parse(&written);
        assert_eq!(again.errors(), [], "{written}");
        let e = again.root_element().unwrap().first_child().unwrap();
        assert_eq!(e.namespace(), Some(uri), "{written}");
        assert_eq!(e.attribute_ns(uri, "a"), Some("1"), "{written}");

        let (text, _) = repairs_with_placeholders(&source);
        let placeholder = xml5dom::undeclared_namespace(prefix);
        assert_eq!(
            text,
            format!("<r><{prefix}:e xmlns:{prefix}=\"{placeholder}\" {prefix}:a='1'/></r>")
        );
    }
    // Prefixes are case-sensitive: `DC` is not `dc`.
    let doc = Document::parse("<DC:creator/>");
    let creator = doc.root_element().unwrap();
    assert_eq!(creator.namespace(), Some("urn:xml5dom:undeclared:DC"));
}

/// A PI XML cannot carry keeps its text and is renamed: a misplaced XML
/// declaration, a target that is not a name.
#[test]
fn a_misplaced_declaration_is_renamed() {
    let (text, kinds) = repairs("<a><?xml version='1.0'?><?1st data ?></a>");
    assert_eq!(text, "<a><?_xml version='1.0'?><?_1st data ?></a>");
    assert_eq!(kinds, [RepairKind::InvalidName, RepairKind::InvalidName]);
}

#[test]
fn a_document_without_a_root_gets_one() {
    // The text outside the root goes, and with it the rest of its line.
    let (text, kinds) = repairs("<!--only a comment--> text");
    assert_eq!(text, "<!--only a comment--><root/>");
    assert_eq!(
        kinds,
        [RepairKind::MarkupDropped, RepairKind::MissingRootElement]
    );
}

#[test]
fn an_invalid_namespace_declaration_is_renamed() {
    let (text, kinds) = repairs("<a xmlns:xml='urn:wrong' x='1'/>");
    assert_eq!(text, "<a _xmlns_xml='urn:wrong' x='1'/>");
    assert_eq!(kinds, [RepairKind::InvalidName]);
}

// ----- Pretty printing -----------------------------------------------------

#[test]
fn pretty_printing_indents_element_only_content() {
    let xml = "<?xml version=\"1.0\"?><!--c--><a><b x='1'><c/></b><d>text</d></a>";
    assert_eq!(
        pretty(xml, 2),
        "<?xml version=\"1.0\"?>\n<!--c-->\n<a>\n  <b x='1'>\n    <c/>\n  </b>\n  <d>text</d>\n</a>\n"
    );
}

#[test]
fn pretty_printing_replaces_existing_indentation() {
    let xml = "<a>\n\t<b>\n\t\t\t<c/>\n</b>   </a>";
    assert_eq!(
        pretty(xml, 4),
        "<a>\n    <b>\n        <c/>\n    </b>\n</a>\n"
    );
}

#[test]
fn pretty_printing_leaves_mixed_content_alone() {
    let xml = "<a><p>Some <b>bold</b> and <i><x/><y/></i> text.</p></a>";
    assert_eq!(
        pretty(xml, 2),
        "<a>\n  <p>Some <b>bold</b> and <i><x/><y/></i> text.</p>\n</a>\n"
    );
}

#[test]
fn pretty_printing_respects_xml_space_preserve() {
    let xml = "<a><pre xml:space='preserve'><x/> <y/></pre><b><c/></b></a>";
    assert_eq!(
        pretty(xml, 2),
        "<a>\n  <pre xml:space='preserve'><x/> <y/></pre>\n  <b>\n    <c/>\n  </b>\n</a>\n"
    );
}

#[test]
fn pretty_output_parses_to_the_same_elements_and_text() {
    let xml = "<r><a>1</a><b><c>2</c><d/></b><!--x--><?p q?></r>";
    let out = pretty(xml, 3);
    let again = Document::parse(&out);
    assert!(again.errors().is_empty(), "{:?}", again.errors());
    let names = |doc: &Document| -> Vec<String> {
        doc.root()
            .descendants()
            .filter(|n| !n.is_text() || !n.text().unwrap().trim().is_empty())
            // Kind, name and text: positions differ, the output's lines
            // being the pretty printer's.
            .map(|n| format!("{:?} {} {:?}", n.node_type(), n.name(), n.text()))
            .collect()
    };
    assert_eq!(names(&again), names(&Document::parse(xml)));
}

/// Output written a piece at a time (`write_xml`, `write_canonical`,
/// `write_tree_dump`, the token JSON) is the same as output made whole,
/// across piece boundaries: long documents, broken ones (repairs), pretty
/// printing, and encodings that keep state between characters.
#[test]
fn streamed_output_is_the_output_made_whole() {
    use xml5dom::tokenizer::{tokenize, SuiteJson, SuiteJsonWriter};
    use xml5dom::{canonicalize, write_canonical, CanonicalForm, Encoding, OutputEncoding};

    let mut text = String::from("<?xml version='1.0'?>\n<root xmlns:p='urn:p'>\n");
    for i in 0..3_000 {
        // `]]` at the end of one text and `>` at the start of the next
        // join into `]]>`, which must be escaped whatever piece each is in.
        text.push_str(&format!(
            "  <p:item n='{i}'>日本 & {i}]]<![CDATA[>]]><b/>\r\n</p:item>\n"
        ));
    }
    text.push_str("</root>\n");
    for source in [text.clone(), text.replace("</root>\n", "")] {
        let doc = Document::parse(&source);
        for pretty in [None, Some(2)] {
            for encoding in [
                OutputEncoding::Utf8,
                OutputEncoding::Other(Encoding::for_label("iso-2022-jp").unwrap()),
                OutputEncoding::Other(Encoding::for_label("utf-16le").unwrap()),
                OutputEncoding::Other(Encoding::for_label("cp850").unwrap()),
            ] {
                let options = SerializeOptions { pretty, encoding };
                let (whole, repairs) = doc.to_bytes(&options);
                let mut streamed = Vec::new();
                let streamed_repairs = doc.write_xml(&mut streamed, &options).unwrap();
                assert!(whole.len() > 1 << 17, "long enough for several pieces");
                assert!(whole == streamed, "{pretty:?} {encoding:?}");
                assert_eq!(repairs, streamed_repairs);
            }
        }
        let mut streamed = Vec::new();
        write_canonical(&doc, CanonicalForm::C14n, &mut streamed).unwrap();
        assert!(streamed == canonicalize(&doc, CanonicalForm::C14n).into_bytes());
        let mut streamed = Vec::new();
        doc.write_tree_dump(&mut streamed).unwrap();
        assert!(streamed == doc.to_tree_dump().into_bytes());
        let whole = tokenize(&source, SuiteJson::default()).finish();
        let streamed = tokenize(&source, SuiteJsonWriter::new(Vec::new()))
            .finish()
            .unwrap();
        assert!(streamed == whole.into_bytes());
    }
}

/// Pretty printing indents the first `PRETTY_DEPTH` levels and writes
/// deeper content as the tree has it, so output stays in proportion to the
/// input at any depth.
#[test]
fn pretty_printing_stops_indenting_past_its_depth_cap() {
    let depth = 10_000;
    let source = "<a>".repeat(depth) + &"</a>".repeat(depth);
    let doc = Document::parse(&source);
    let out = doc
        .serialize(&SerializeOptions {
            pretty: Some(2),
            ..Default::default()
        })
        .text;
    let widest = out.lines().map(|l| l.len() - l.trim_start().len()).max();
    assert_eq!(widest, Some(2 * xml5dom::PRETTY_DEPTH));
    assert!(out.len() < 2 * source.len(), "{} bytes", out.len());
    // The first levels are indented as usual.
    assert!(out.starts_with("<a>\n  <a>\n    <a>\n"));
    // It reads back, well-formed, with every element.
    let back = Document::parse(&out);
    assert!(back.errors().is_empty());
    assert_eq!(
        back.root().descendants().filter(|n| n.is_element()).count(),
        depth
    );
}
