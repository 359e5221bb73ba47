//! Internal-subset declarations: general entities expanded in text and in
//! attribute values (also entities with markup, nested entities, entities
//! used before their declaration), attribute-list defaults and tokenized
//! types, external entities never read, the limits on expansion, and the
//! byte-identical round trip of every such document.
//!
//! The expected trees are XML 1.0's (§3.3.3, §4.4, §4.5); for the
//! well-formed documents they are what libxml2 gives with entity
//! substitution and attribute defaults on (checked once with lxml), except
//! where docs/conformance.md ("Entities") says otherwise: the text at the
//! edges of an entity with markup is a text node of its own.

mod common;

use common::entities::entity_chain;
use pretty_assertions::assert_eq;
use xml5dom::query::XPath;
use xml5dom::{Document, ErrorCode, Limits, Node, ParseOptions};

// ----- Helpers -------------------------------------------------------------

fn codes(doc: &Document) -> Vec<&'static str> {
    doc.errors().iter().map(|e| e.code.as_str()).collect()
}

/// Parses a document that must be well-formed: no errors, and written back
/// byte for byte.
fn well_formed(text: &str) -> Document {
    let doc = Document::parse(text);
    assert_eq!(codes(&doc), Vec::<&str>::new(), "errors in {text}");
    assert_eq!(doc.to_xml(), text, "round trip");
    doc
}

fn root(doc: &Document) -> Node<'_> {
    doc.root_element().expect("a root element")
}

/// The children of `node` as short labels: `'text'` or `<name>`.
fn children(node: Node<'_>) -> Vec<String> {
    node.children()
        .map(|c| match c.text() {
            Some(text) if c.is_text() => format!("'{text}'"),
            _ => format!("<{}>", c.name()),
        })
        .collect()
}

// ----- Entities in text and attributes --------------------------------------

#[test]
fn entity_in_text_merges_with_the_text_around_it() {
    let doc = well_formed("<!DOCTYPE r [<!ENTITY co \"ACME &#38;amp; Co\">]>\n<r>Hi &co;!</r>");
    assert_eq!(children(root(&doc)), ["'Hi ACME & Co!'"]);
}

#[test]
fn entity_in_attribute_value() {
    let doc = well_formed("<!DOCTYPE r [<!ENTITY co 'ACME &#38;amp; Co'>]><r t=\"a&co;b\"/>");
    assert_eq!(root(&doc).attribute("t"), Some("aACME & Cob"));
}

#[test]
fn whitespace_in_replacement_text_is_normalized_in_attributes_only() {
    // `&#9;` is expanded when the entity is declared; the tab it leaves in
    // the replacement text is literal whitespace, which an attribute value
    // turns into a space (XML 1.0 §3.3.3) and text keeps.
    let doc = well_formed("<!DOCTYPE r [<!ENTITY ws \"x&#9;y\nz\">]><r a=\"&ws;\">&ws;</r>");
    assert_eq!(root(&doc).attribute("a"), Some("x y z"));
    assert_eq!(root(&doc).text_content(), "x\ty\nz");
}

#[test]
fn declared_entities_win_over_the_html_table() {
    let doc = well_formed("<!DOCTYPE r [<!ENTITY nbsp \"[sp]\">]><r a='&nbsp;'>&nbsp;</r>");
    assert_eq!(root(&doc).text_content(), "[sp]");
    assert_eq!(root(&doc).attribute("a"), Some("[sp]"));
}

#[test]
fn undeclared_names_still_follow_the_xml5_rules() {
    // `&eacute;` is not declared: resolved from the HTML table, reported.
    let doc = Document::parse("<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;&eacute;</r>");
    assert_eq!(root(&doc).text_content(), "x\u{e9}");
    assert_eq!(codes(&doc), ["undeclared-entity"]);
}

#[test]
fn predefined_entities_cannot_be_redeclared() {
    // The declaration XML 1.0 §4.6 recommends for `lt`: ignored, and
    // `&lt;` stays the built-in one. `&x;` stands for `&lt;`, which is
    // character data in text and in values.
    let doc = well_formed(
        "<!DOCTYPE r [<!ENTITY lt \"&#38;#60;\"><!ENTITY x \"&lt;\">]><r a=\"&x;\">&lt;&x;</r>",
    );
    assert_eq!(root(&doc).text_content(), "<<");
    assert_eq!(root(&doc).attribute("a"), Some("<"));
}

// ----- Entities with markup ---------------------------------------------------

const SIGNATURE: &str = "<!DOCTYPE r [\n\
    <!ENTITY co \"ACME &#38;amp; Co\">\n\
    <!ENTITY sig \"<b>Best</b>, &co;\">\n\
    ]>\n<r x=\"1\">Hi &sig;!</r>";

#[test]
fn entity_with_markup_becomes_nodes() {
    let doc = well_formed(SIGNATURE);
    let r = root(&doc);
    assert_eq!(children(r), ["'Hi '", "<b>", "', ACME & Co'", "'!'"]);
    let b = r.children().nth(1).unwrap();
    assert_eq!(b.entity(), Some("sig"));
    assert_eq!(b.text_content(), "Best");
    // Its span is the reference's; the text before it is the source's.
    assert_eq!(&doc.source()[b.span().unwrap().range()], "&sig;");
    assert_eq!(r.first_child().unwrap().entity(), None);
    assert_eq!(r.text_content(), "Hi Best, ACME & Co!");
}

#[test]
fn expanded_nodes_written_alone_are_written_as_nodes() {
    let doc = Document::parse(SIGNATURE);
    let b = root(&doc).children().nth(1).unwrap();
    assert_eq!(b.to_xml(), "<b>Best</b>");
    let found = XPath::compile("//b").unwrap().select(doc.root()).unwrap();
    assert_eq!(found[0].as_node().unwrap().to_xml(), "<b>Best</b>");
}

#[test]
fn edits_elsewhere_keep_the_reference() {
    let mut doc = Document::parse(SIGNATURE);
    let r = root(&doc).id();
    doc.set_attribute(r, "x", "2").unwrap();
    assert_eq!(doc.to_xml(), SIGNATURE.replace("x=\"1\"", "x=\"2\""));
}

#[test]
fn editing_expanded_nodes_writes_them_out() {
    let mut doc = Document::parse(SIGNATURE);
    let best = root(&doc)
        .children()
        .nth(1)
        .unwrap()
        .first_child()
        .unwrap()
        .id();
    doc.set_text(best, "Worst").unwrap();
    let out = doc.to_xml();
    assert!(
        out.ends_with("<r x=\"1\">Hi <b>Worst</b>, ACME &amp; Co!</r>"),
        "{out}"
    );
    // The DTD is still there, and the output means the same tree.
    let again = Document::parse(&out);
    assert_eq!(root(&again).text_content(), "Hi Worst, ACME & Co!");
    assert!(again.errors().is_empty());
}

#[test]
fn removing_an_expanded_node_writes_the_rest_out() {
    let mut doc = Document::parse(SIGNATURE);
    let b = root(&doc).children().nth(1).unwrap().id();
    doc.remove(b).unwrap();
    assert!(doc.to_xml().ends_with("<r x=\"1\">Hi , ACME &amp; Co!</r>"));
}

#[test]
fn nested_entities_with_markup() {
    let doc = well_formed(
        "<!DOCTYPE r [<!ENTITY a \"<x>&b;</x>\"><!ENTITY b \"<y>&c;</y>\"><!ENTITY c \"deep\">]><r>&a;&a;</r>",
    );
    let r = root(&doc);
    assert_eq!(children(r), ["<x>", "<x>"]);
    let y = r.first_child().unwrap().first_child().unwrap();
    assert_eq!((y.name(), y.text_content().as_str()), ("y", "deep"));
    assert_eq!(y.entity(), Some("a"));
}

#[test]
fn entities_used_before_they_are_declared() {
    // Replacement text is read when the entity is used, so `a` may refer
    // to `b` declared after it.
    let doc = well_formed("<!DOCTYPE r [<!ENTITY a \"&b;!\"><!ENTITY b \"B\">]><r a='&a;'>&a;</r>");
    assert_eq!(root(&doc).text_content(), "B!");
    assert_eq!(root(&doc).attribute("a"), Some("B!"));
}

#[test]
fn first_declaration_wins() {
    let doc = well_formed("<!DOCTYPE r [<!ENTITY e \"one\"><!ENTITY e \"two\">]><r>&e;</r>");
    assert_eq!(root(&doc).text_content(), "one");
}

#[test]
fn root_element_from_an_entity() {
    // XML refers to entities in content only (libxml2: "Start tag
    // expected"): an error, but XML5 builds the root from it, and the
    // output writes the root instead of the reference.
    let doc = Document::parse("<!DOCTYPE r [<!ENTITY doc \"<r>x</r>\">]>&doc;");
    assert_eq!(codes(&doc), ["reference-outside-root-element"]);
    assert_eq!(root(&doc).name(), "r");
    assert_eq!(root(&doc).entity(), Some("doc"));
    assert_eq!(
        doc.to_xml(),
        "<!DOCTYPE r [<!ENTITY doc \"<r>x</r>\">]><r>x</r>"
    );
}

#[test]
fn entity_with_an_unclosed_element() {
    // Not well-formed (XML 1.0 §4.3.2), and reported at the reference, but
    // parsed: the element stays open after the reference, and the output
    // writes it out.
    let doc = Document::parse("<!DOCTYPE r [<!ENTITY open \"<b>\">]><r>&open;x</r>");
    assert_eq!(children(root(&doc)), ["<b>"]);
    assert_eq!(root(&doc).text_content(), "x");
    assert_eq!(
        codes(&doc),
        ["unbalanced-entity-reference", "mismatched-end-tag"]
    );
    let out = doc.to_xml();
    assert!(out.ends_with("<r><b>x</b></r>"), "{out}");
}

#[test]
fn only_the_first_doctype_declares() {
    let doc = Document::parse(
        "<!DOCTYPE r [<!ENTITY a \"1\">]><!DOCTYPE r [<!ENTITY b \"2\">]><r>&a;&b;</r>",
    );
    assert_eq!(root(&doc).text_content(), "1&b;");
    assert_eq!(
        codes(&doc),
        ["misplaced-doctype", "unknown-named-character-reference"]
    );
}

// ----- An Illustrator export ------------------------------------------------------

const ILLUSTRATOR: &str = r##"<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 16.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
	<!ENTITY ns_extend "http://ns.adobe.com/Extensibility/1.0/">
	<!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/">
	<!ENTITY ns_graphs "http://ns.adobe.com/Graphs/1.0/">
	<!ENTITY ns_vars "http://ns.adobe.com/Variables/1.0/">
	<!ENTITY ns_imrep "http://ns.adobe.com/ImageReplacement/1.0/">
	<!ENTITY ns_sfw "http://ns.adobe.com/SaveForWeb/1.0/">
	<!ENTITY ns_custom "http://ns.adobe.com/GenericCustomNamespace/1.0/">
	<!ENTITY ns_adobe_xpath "http://ns.adobe.com/XPath/1.0/">
]>
<svg version="1.1" id="Layer_1" xmlns:x="&ns_extend;" xmlns:i="&ns_ai;" xmlns:graph="&ns_graphs;"
	 xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
	 width="100px" height="100px" viewBox="0 0 100 100" enable-background="new 0 0 100 100" xml:space="preserve">
<switch>
	<foreignObject requiredExtensions="&ns_ai;" x="0" y="0" width="1" height="1">
		<i:pgfRef  xlink:href="#adobe_illustrator_pgf">
		</i:pgfRef>
	</foreignObject>
	<g i:extraneous="self">
		<circle fill="#ED1C24" cx="50" cy="50" r="40"/>
	</g>
</switch>
<i:pgf  id="adobe_illustrator_pgf">
	<![CDATA[
	eJzdvet2HEeSJvifz5C7P0pkzuqmDm5xDqnZ6Zn5kSy7gMbg7atWjqBNfWL
	]]>
</i:pgf>
<x:sfw><x:foo/></x:sfw>
</svg>
"##;

#[test]
fn illustrator_svg_namespaces_come_from_entities() {
    let doc = well_formed(ILLUSTRATOR);
    let svg = root(&doc);
    assert_eq!(svg.namespace(), Some("http://www.w3.org/2000/svg"));
    let pgf = XPath::compile("//i:pgfRef").unwrap();
    let found = pgf.select(svg).unwrap();
    assert_eq!(found.len(), 1);
    let pgf_ref = found[0].as_node().unwrap();
    assert_eq!(
        pgf_ref.namespace(),
        Some("http://ns.adobe.com/AdobeIllustrator/10.0/")
    );
    let foo = svg.descendants().find(|n| n.name() == "x:foo").unwrap();
    assert_eq!(
        foo.namespace(),
        Some("http://ns.adobe.com/Extensibility/1.0/")
    );
    let object = svg
        .descendants()
        .find(|n| n.name() == "foreignObject")
        .unwrap();
    assert_eq!(
        object.attribute("requiredExtensions"),
        Some("http://ns.adobe.com/AdobeIllustrator/10.0/")
    );
    let g = svg.descendants().find(|n| n.name() == "g").unwrap();
    assert_eq!(
        g.attribute_ns("http://ns.adobe.com/AdobeIllustrator/10.0/", "extraneous"),
        Some("self")
    );
}

#[test]
fn illustrator_svg_edited_keeps_its_references() {
    let mut doc = Document::parse(ILLUSTRATOR);
    let circle = root(&doc)
        .descendants()
        .find(|n| n.name() == "circle")
        .unwrap()
        .id();
    doc.set_attribute(circle, "r", "45").unwrap();
    assert_eq!(doc.to_xml(), ILLUSTRATOR.replace("r=\"40\"", "r=\"45\""));
}

// ----- Attribute lists ------------------------------------------------------------

const ATTLIST: &str = "<!DOCTYPE list [\n\
    <!ATTLIST item status (new|old) \"new\"\n\
                   code NMTOKENS #IMPLIED\n\
                   key ID #IMPLIED\n\
                   note CDATA \" a  b \">\n\
    <!ATTLIST list xmlns:p CDATA #FIXED \"urn:p\">\n\
    ]>\n<list><item code=\"  a   b \" key=\" k1 \"/><item status=\"old\" note=\"n\"/><p:x/></list>";

#[test]
fn attribute_defaults_and_tokenized_types() {
    let doc = well_formed(ATTLIST);
    let list = root(&doc);
    let items: Vec<Node<'_>> = list.children().filter(|n| n.name() == "item").collect();
    let first: Vec<(&str, &str, bool)> = items[0]
        .attributes()
        .map(|a| (a.name(), a.value(), a.is_defaulted()))
        .collect();
    assert_eq!(
        first,
        [
            ("code", "a b", false),
            ("key", "k1", false),
            ("status", "new", true),
            ("note", " a  b ", true),
        ]
    );
    let second: Vec<(&str, &str, bool)> = items[1]
        .attributes()
        .map(|a| (a.name(), a.value(), a.is_defaulted()))
        .collect();
    assert_eq!(second, [("status", "old", false), ("note", "n", false)]);
    // A defaulted namespace declaration declares.
    let x = list.children().find(|n| n.name() == "p:x").unwrap();
    assert_eq!(x.namespace(), Some("urn:p"));
}

#[test]
fn defaulted_attributes_are_not_written_back() {
    let mut doc = Document::parse(ATTLIST);
    let item = root(&doc).first_child().unwrap().id();
    doc.set_attribute(item, "code", "c").unwrap();
    let out = doc.to_xml();
    assert!(out.contains("<item code=\"c\" key=\" k1 \"/>"), "{out}");
    // Unless an edit set them.
    doc.set_attribute(item, "status", "old").unwrap();
    assert!(doc
        .to_xml()
        .contains("<item code=\"c\" key=\" k1 \" status=\"old\"/>"));
}

#[test]
fn xpath_id_uses_declared_id_attributes() {
    let doc = well_formed(ATTLIST);
    let found = XPath::compile("id('k1 nothing')")
        .unwrap()
        .select(doc.root())
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].as_node().unwrap().name(), "item");
}

#[test]
fn attribute_default_with_entity_reference() {
    let doc = well_formed(
        "<!DOCTYPE r [<!ENTITY t \"&#x20;sp&#x20;\"><!ATTLIST r c NMTOKENS \"&t;x\">]><r/>",
    );
    assert_eq!(root(&doc).attribute("c"), Some("sp x"));
}

// ----- External entities and DTDs: never read ---------------------------------------

#[test]
fn external_entities_are_reported_and_kept_as_written() {
    let dir = std::env::temp_dir().join(format!("xml5dom-entities-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "SECRET").unwrap();
    let text = format!(
        "<!DOCTYPE r [<!ENTITY ext SYSTEM \"{0}\"><!ENTITY pub PUBLIC \"-//X//Y\" \"{0}\"><!ENTITY img SYSTEM \"a.png\" NDATA png>]>\
         <r a=\"&ext;\">&ext;&pub;&img;</r>",
        secret.display()
    );
    let doc = Document::parse(&text);
    assert_eq!(root(&doc).text_content(), "&ext;&pub;&img;");
    assert_eq!(root(&doc).attribute("a"), Some("&ext;"));
    // In content, an external parsed entity may be left unread (a
    // warning); in an attribute value, or unparsed, it is an error.
    assert_eq!(
        codes(&doc),
        [
            "external-entity-in-attribute-value",
            "external-entity-reference",
            "external-entity-reference",
            "unparsed-entity-reference"
        ],
        "{:?}",
        doc.errors()
    );
    let severities: Vec<_> = doc.errors().iter().map(|e| e.is_error()).collect();
    assert_eq!(severities, [true, false, false, true]);
    assert!(!doc.to_xml().contains("SECRET"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn external_dtd_is_never_read() {
    let dir = std::env::temp_dir().join(format!("xml5dom-dtd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dtd = dir.join("r.dtd");
    std::fs::write(
        &dtd,
        "<!ENTITY e \"FROM THE DTD\"><!ATTLIST r d CDATA \"FROM THE DTD\">",
    )
    .unwrap();
    let text = format!("<!DOCTYPE r SYSTEM \"{}\"><r>&e;</r>", dtd.display());
    let doc = Document::parse(&text);
    assert_eq!(root(&doc).text_content(), "&e;");
    assert_eq!(root(&doc).attribute("d"), None);
    // The DTD may declare `e`: a warning, and the document is written
    // back as it is.
    assert_eq!(codes(&doc), ["entity-in-external-subset"]);
    assert!(doc.is_well_formed());
    assert_eq!(doc.to_xml(), text);
    // Nor an external parameter entity, and what follows it is not
    // processed (XML 1.0 §5.1).
    let text = format!(
        "<!DOCTYPE r [<!ENTITY % ext SYSTEM \"{}\"> %ext; <!ENTITY after \"no\">]><r>&after;</r>",
        dtd.display()
    );
    let doc = Document::parse(&text);
    assert_eq!(root(&doc).text_content(), "&after;");
    assert_eq!(
        codes(&doc),
        ["unread-parameter-entity", "entity-in-external-subset"]
    );
    assert!(doc.is_well_formed());
    std::fs::remove_dir_all(&dir).ok();
}

// ----- Limits --------------------------------------------------------------------

#[test]
fn recursive_entities_are_detected() {
    let doc = Document::parse(
        "<!DOCTYPE r [<!ENTITY a \"x&b;\"><!ENTITY b \"y&a;\"><!ENTITY m \"<i>&m;</i>\">]><r t='&a;'>&a;&m;</r>",
    );
    assert_eq!(root(&doc).attribute("t"), Some("xy&a;"));
    assert_eq!(root(&doc).text_content(), "xy&a;&m;");
    assert_eq!(codes(&doc), ["recursive-entity-reference"; 3]);
}

#[test]
fn entity_depth_limit() {
    // e0 .. e15 are 16 levels: allowed by default; e16 would be the 17th.
    let doc = Document::parse(&entity_chain(15));
    assert_eq!(root(&doc).text_content(), "end");
    assert!(doc.errors().is_empty());
    let doc = Document::parse(&entity_chain(16));
    assert_eq!(root(&doc).text_content(), "&e16;");
    assert_eq!(codes(&doc), ["entity-depth-limit"]);
    let mut options = ParseOptions::default();
    options.limits.max_entity_depth = 2;
    let doc = Document::parse_with(&entity_chain(15), &options);
    assert_eq!(codes(&doc), ["entity-depth-limit"]);
    assert_eq!(root(&doc).text_content(), "&e2;");
}

#[test]
fn entity_depth_counts_through_markup_and_text_entities_alike() {
    // `m` (depth 1) holds markup; `t1` (depth 2) and `t2` (depth 3) are
    // text, expanded another way, but their depth counts from `m`'s.
    let text = "<!DOCTYPE r [<!ENTITY m \"<b>&t1;</b>\"><!ENTITY t1 \"&t2;\"><!ENTITY t2 \"x\">]><r>&m;</r>";
    let mut options = ParseOptions::default();
    options.limits.max_entity_depth = 2;
    let doc = Document::parse_with(text, &options);
    assert_eq!(codes(&doc), ["entity-depth-limit"]);
    assert_eq!(root(&doc).text_content(), "&t2;");
    options.limits.max_entity_depth = 3;
    let doc = Document::parse_with(text, &options);
    assert!(doc.errors().is_empty());
    assert_eq!(root(&doc).text_content(), "x");
}

#[test]
fn expansion_limit_stops_billion_laughs() {
    let mut text = String::from("<!DOCTYPE lolz [<!ENTITY lol \"lol\">");
    text.push_str("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">");
    for i in 2..=9 {
        let refs = format!("&lol{};", i - 1).repeat(10);
        text.push_str(&format!("<!ENTITY lol{i} \"{refs}\">"));
    }
    text.push_str("]><lolz a='&lol9;'>&lol9;</lolz>");
    let doc = Document::parse(&text);
    assert_eq!(codes(&doc), ["entity-expansion-limit"]);
    let expanded = root(&doc).text_content().len() + root(&doc).attribute("a").unwrap().len();
    assert!(
        expanded <= xml5dom::ENTITY_EXPANSION_FLOOR + 100,
        "{expanded}"
    );
}

/// Bytes cut into pieces of random sizes (a fixed-seed generator): mostly
/// a few bytes, now and then a few thousand.
fn pieces(bytes: &[u8], seed: u64) -> Vec<&[u8]> {
    let mut state = seed | 1;
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let most = if state.is_multiple_of(8) { 4096 } else { 17 };
        let size = (1 + (state >> 8) as usize % most).min(rest.len());
        out.push(&rest[..size]);
        rest = &rest[size..];
    }
    out
}

/// The expansion budget grows with the input read up to each reference,
/// so the push parser and the events, fed in pieces, run out of it at the
/// reference where the whole input does. (Counted against the whole
/// input's length, as it was, a file over 100 KB expanded more whole than
/// in pieces: the push parser and `check` stopped thousands of references
/// earlier.)
#[test]
fn the_budget_runs_out_at_the_same_reference_however_the_input_arrives() {
    use xml5dom::events::{self, Event};
    use xml5dom::{ParseError, Parser};

    let unbalanced =
        "<!DOCTYPE r [<!ENTITY e \"<a>\">]>\n<r>".to_owned() + &"&e;".repeat(40_000) + "</r>";
    let padded = unbalanced.replace("<r>", &format!("<!--{}--><r>", "p".repeat(120_000)));
    let mut text_between = String::from("<!DOCTYPE r [<!ENTITY e '");
    text_between.push_str(&"x".repeat(5_000));
    text_between.push_str("'>]><r>");
    for i in 0..2_000 {
        text_between.push_str(&"t".repeat(i % 800));
        text_between.push_str(if i % 3 == 0 { "<s a='&e;'/>" } else { "&e;" });
    }
    text_between.push_str("</r>");
    for (what, text) in [
        ("unbalanced", &unbalanced),
        ("after a comment", &padded),
        ("text between", &text_between),
    ] {
        let options = ParseOptions::default();
        let whole = Document::parse_bytes(text.as_bytes());
        let limit = whole
            .errors()
            .iter()
            .find(|e| e.code == ErrorCode::EntityExpansionLimit)
            .unwrap_or_else(|| panic!("{what}: no limit reached"));
        assert!(limit.offset > 1000, "{what}: {limit:?}");
        for seed in [1, 0x5EED] {
            let mut parser = Parser::with_options(&options);
            for piece in pieces(text.as_bytes(), seed) {
                parser.feed(piece);
            }
            let pushed = parser.finish();
            assert!(
                pushed.errors() == whole.errors(),
                "{what}: push parser, seed {seed}"
            );
            assert!(
                pushed.to_tree_dump() == whole.to_tree_dump(),
                "{what}: tree, seed {seed}"
            );
            let mut streamed: Vec<ParseError> = Vec::new();
            let mut stream = events::Parser::with_options(&options, |event| {
                if let Event::Error(error) = event {
                    streamed.push(error);
                }
            });
            for piece in pieces(text.as_bytes(), seed) {
                stream.feed(piece);
            }
            stream.end();
            drop(stream);
            assert!(streamed == whole.errors(), "{what}: events, seed {seed}");
        }
    }
}

/// A document a limit cut short or changed is never taken for well-formed:
/// each of the six limits, on an input that is well-formed whole.
#[test]
fn a_document_a_limit_reached_is_not_well_formed() {
    use xml5dom::Severity;

    /// A well-formed input, how to set the limit it reaches, and its code.
    type Case = (&'static str, fn(&mut Limits), ErrorCode);
    let cases: [Case; 6] = [
        (
            "<!DOCTYPE r [<!ENTITY e '0123456789'>]><r>&e;&e;</r>",
            |l| l.max_entity_expansion_bytes = 15,
            ErrorCode::EntityExpansionLimit,
        ),
        (
            "<!DOCTYPE r [<!ENTITY e 'x'><!ENTITY f '&e;'>]><r>&f;</r>",
            |l| l.max_entity_depth = 1,
            ErrorCode::EntityDepthLimit,
        ),
        (
            "<r><s><t/></s></r>",
            |l| l.max_element_depth = Some(2),
            ErrorCode::ElementDepthLimit,
        ),
        (
            "<r a='1' b='2'/>",
            |l| l.max_attributes = 1,
            ErrorCode::AttributeLimit,
        ),
        (
            "<root/>",
            |l| l.max_name_length = 2,
            ErrorCode::NameLengthLimit,
        ),
        (
            "<r>text</r>",
            |l| l.max_input_bytes = 5,
            ErrorCode::InputSizeLimit,
        ),
    ];
    for (text, limit, code) in cases {
        assert!(Document::parse(text).is_well_formed(), "{text}");
        assert_eq!(Document::parse(text).limit_reached(), None);
        let mut options = ParseOptions::default();
        limit(&mut options.limits);
        let doc = Document::parse_with(text, &options);
        // (An input cut short also leaves its root element open.)
        assert_eq!(codes(&doc)[0], code.as_str(), "{text}");
        let error = doc.limit_reached().expect("a limit reached");
        assert_eq!(error.code, code);
        assert_eq!(error.severity(), Severity::Limit);
        assert_eq!(code.severity().as_str(), "limit");
        assert!(error.is_limit() && !error.is_error(), "{code:?}");
        assert!(!doc.is_well_formed(), "{text} with {code:?}");
    }
}

#[test]
fn expansion_limit_follows_the_options() {
    let text = "<!DOCTYPE r [<!ENTITY e \"0123456789\">]><r>&e;&e;&e;</r>";
    let mut options = ParseOptions::default();
    options.limits = Limits::default();
    options.limits.max_entity_expansion_bytes = 25;
    let doc = Document::parse_with(text, &options);
    assert_eq!(root(&doc).text_content(), "01234567890123456789&e;");
    assert_eq!(doc.errors()[0].code, ErrorCode::EntityExpansionLimit);
    // The error is at the reference that did not fit.
    assert_eq!(doc.errors()[0].offset, text.rfind("&e;").unwrap());
}

#[test]
fn errors_inside_expansions_are_at_the_reference() {
    // A name too long, an attribute limit and a stray end tag, all inside
    // an entity whose name is not ASCII: each at the reference's `&`.
    let text = "<!DOCTYPE r [<!ENTITY é \"<abcdef x='1' y='2'/></zz>\">]><r>&é;</r>";
    let mut options = ParseOptions::default();
    options.limits.max_name_length = 3;
    options.limits.max_attributes = 1;
    let doc = Document::parse_with(text, &options);
    let at = text.find("&é;").unwrap();
    let errors: Vec<(&str, usize)> = doc
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.offset))
        .collect();
    assert_eq!(
        errors,
        [
            ("attribute-limit", at),
            ("name-length-limit", at),
            ("stray-end-tag", at)
        ]
    );
    assert_eq!(root(&doc).first_child().unwrap().name(), "abc");
}
