//! ELEMENT and NOTATION declarations of the internal subset, seen from a
//! whole document: the content-model error codes with their positions, the
//! notations on the DOCTYPE node, and the second canonical form of the W3C
//! XML Conformance Test Suite.
//!
//! The second form is checked here on hand-worked cases; tests/xmlconf.rs
//! holds it (and the first) to the suite's own outputs.

use pretty_assertions::assert_eq;
use xml5dom::events::write_canonical_reader;
use xml5dom::serializer::canonical::{canonicalize, CanonicalForm};
use xml5dom::{Document, ErrorCode, Severity};

// ----- ELEMENT declarations ------------------------------------------------

/// The errors of `source`: code, line and column.
fn errors(source: &str) -> Vec<(ErrorCode, u32, u32)> {
    Document::parse(source)
        .errors()
        .iter()
        .map(|e| (e.code, e.line, e.column))
        .collect()
}

#[test]
fn content_model_errors_are_reported_where_they_are() {
    let source = "<!DOCTYPE a [\n\
                  <!ELEMENT a FOO>\n\
                  <!ELEMENT b (c,d|e)>\n\
                  <!ELEMENT c (#PCDATA|b)>\n\
                  <!ELEMENT aElement (a |b * >\n\
                  <!ELEMENT d (b|#PCDATA)*>\n\
                  <!ELEMENT e ()>\n\
                  <!ELEMENT f (b,)>\n\
                  <!ELEMENT g ((b)>\n\
                  <!ELEMENT h (#PCDATA)+>\n\
                  <!ELEMENT i (b c)>\n\
                  ]><a/>";
    assert_eq!(
        errors(source),
        [
            (ErrorCode::InvalidContentSpecification, 2, 13),
            (ErrorCode::MixedSeparatorsInContentModel, 3, 17),
            (ErrorCode::MissingStarAfterMixedContent, 4, 24),
            (ErrorCode::InvalidOccurrenceIndicator, 5, 26),
            (ErrorCode::MisplacedPcdata, 6, 16),
            (ErrorCode::MissingContentParticle, 7, 14),
            (ErrorCode::MissingContentParticle, 8, 16),
            (ErrorCode::UnclosedContentModel, 9, 17),
            (ErrorCode::InvalidOccurrenceIndicator, 10, 22),
            (ErrorCode::InvalidContentModel, 11, 16),
        ]
    );
    // All well-formedness errors, with a description for people.
    for (code, _, _) in errors(source) {
        assert_eq!(code.severity(), Severity::Error, "{code}");
        assert!(!code.message().is_empty());
    }
}

#[test]
fn declarations_after_a_broken_element_declaration_are_read() {
    let doc = Document::parse(
        "<!DOCTYPE a [<!ELEMENT a (b,c|d)><!ATTLIST a x CDATA 'default'>\
         <!ENTITY e 'entity'>]><a>&e;</a>",
    );
    let codes: Vec<_> = doc.errors().iter().map(|e| e.code).collect();
    assert_eq!(codes, [ErrorCode::MixedSeparatorsInContentModel]);
    let a = doc.root_element().unwrap();
    assert_eq!(a.attribute("x"), Some("default"));
    assert_eq!(a.text_content(), "entity");
}

#[test]
fn content_models_nested_a_thousand_deep_and_more() {
    for depth in [1_000, 200_000] {
        let model = format!("{}b{}", "(".repeat(depth), ")".repeat(depth));
        let doc = Document::parse(&format!("<!DOCTYPE a [<!ELEMENT a {model}>]><a/>"));
        assert_eq!(doc.errors(), [], "{depth}");
        // One `)` short: the group is open at the `>`.
        let model = format!("{}b{}", "(".repeat(depth), ")".repeat(depth - 1));
        let source = format!("<!DOCTYPE a [<!ELEMENT a {model}>]><a/>");
        let doc = Document::parse(&source);
        let found: Vec<_> = doc.errors().iter().map(|e| (e.code, e.offset)).collect();
        let gt = source.find(">]").unwrap();
        assert_eq!(found, [(ErrorCode::UnclosedContentModel, gt)], "{depth}");
    }
}

// ----- NOTATION declarations -----------------------------------------------

#[test]
fn notations_are_on_the_doctype_node() {
    let doc = Document::parse(
        "<!DOCTYPE doc [\n\
         <!NOTATION sys SYSTEM 'viewer.exe'>\n\
         <!NOTATION pub PUBLIC \"-//Pub//NOTATION x//EN\">\n\
         <!NOTATION both PUBLIC '-//Both//EN' \"both.exe\">\n\
         <!NOTATION sys SYSTEM 'again'>\n\
         ]><doc/>",
    );
    let doctype = doc.root().first_child().unwrap();
    let notations: Vec<_> = doctype
        .notations()
        .iter()
        .map(|n| (n.name(), n.public_id(), n.system_id()))
        .collect();
    assert_eq!(
        notations,
        [
            ("sys", None, Some("viewer.exe")),
            ("pub", Some("-//Pub//NOTATION x//EN"), None),
            ("both", Some("-//Both//EN"), Some("both.exe")),
        ]
    );
    // The second `sys` is a warning, at its name; the first is kept.
    let found: Vec<_> = doc
        .errors()
        .iter()
        .map(|e| (e.code, e.severity(), e.line, e.column))
        .collect();
    assert_eq!(
        found,
        [(
            ErrorCode::DuplicateNotationDeclaration,
            Severity::Warning,
            5,
            12
        )]
    );
    // A warning changes nothing written.
    let source = doc.source().to_owned();
    assert_eq!(doc.to_xml(), source);
}

#[test]
fn only_the_doctype_has_notations() {
    let doc = Document::parse("<!DOCTYPE a [<!NOTATION n SYSTEM 's'>]><a/>");
    assert!(doc.root().notations().is_empty());
    assert!(doc.root_element().unwrap().notations().is_empty());
    let doc = Document::parse("<!DOCTYPE a SYSTEM 'a.dtd'><a/>");
    assert!(doc.root().first_child().unwrap().notations().is_empty());
}

// ----- The second canonical form -------------------------------------------

/// The second form from a tree and from a stream, which must agree.
fn second_form(source: &[u8]) -> String {
    let from_tree = canonicalize(&Document::parse_bytes(source), CanonicalForm::XmlTestSecond);
    let mut from_stream = Vec::new();
    write_canonical_reader(source, CanonicalForm::XmlTestSecond, &mut from_stream).unwrap();
    assert_eq!(String::from_utf8(from_stream).unwrap(), from_tree);
    from_tree
}

fn first_form(source: &str) -> String {
    canonicalize(&Document::parse(source), CanonicalForm::XmlTest)
}

#[test]
fn second_form_lists_notations_sorted_by_name() {
    let source = "<!DOCTYPE doc [\n\
                  <!ELEMENT doc (#PCDATA)>\n\
                  <!NOTATION zeta SYSTEM \"http://example.org/z\">\n\
                  <!NOTATION alpha PUBLIC \"-//a\" \"a.exe\">\n\
                  <!NOTATION mid PUBLIC \"-//mid\">\n\
                  ]>\n<doc>x</doc>";
    assert_eq!(
        second_form(source.as_bytes()),
        "<!DOCTYPE doc [\n\
         <!NOTATION alpha PUBLIC '-//a' 'a.exe'>\n\
         <!NOTATION mid PUBLIC '-//mid'>\n\
         <!NOTATION zeta SYSTEM 'http://example.org/z'>\n\
         ]>\n<doc>x</doc>"
    );
    // The first form drops them.
    assert_eq!(first_form(source), "<doc>x</doc>");
}

#[test]
fn second_form_with_an_unparsed_entity_and_its_attribute_default() {
    let source = "<!DOCTYPE doc [\n\
                  <!NOTATION gif SYSTEM 'viewer'>\n\
                  <!ENTITY pic SYSTEM 'pic.gif' NDATA gif>\n\
                  <!ATTLIST doc img ENTITY 'pic' kind NOTATION (gif) #IMPLIED>\n\
                  ]><doc kind='gif'/>";
    assert_eq!(
        second_form(source.as_bytes()),
        "<!DOCTYPE doc [\n<!NOTATION gif SYSTEM 'viewer'>\n]>\n\
         <doc img=\"pic\" kind=\"gif\"></doc>"
    );
}

#[test]
fn second_form_keeps_the_doctype_name_as_written() {
    // The DOCTYPE node's name is lowercased (XML5); XML's is as written.
    let source = "<!DOCTYPE Doc\n[<!NOTATION n SYSTEM 's'>]><Doc/>";
    assert_eq!(
        Document::parse(source).root().first_child().unwrap().name(),
        "doc"
    );
    assert_eq!(
        second_form(source.as_bytes()),
        "<!DOCTYPE Doc [\n<!NOTATION n SYSTEM 's'>\n]>\n<Doc></Doc>"
    );
}

#[test]
fn second_form_writes_subset_pis_where_the_doctype_is() {
    let source = "<?before?><!DOCTYPE d [<?in data  ?><!-- c --><!NOTATION n SYSTEM 's'>\
                  <?in2?>]><?after x?><d><?inside?></d>";
    assert_eq!(
        second_form(source.as_bytes()),
        "<?before ?><?in data  ?><?in2 ?><!DOCTYPE d [\n<!NOTATION n SYSTEM 's'>\n]>\n\
         <?after x?><d><?inside ?></d>"
    );
    // Without notations there is no DOCTYPE, but the subset's PIs are there.
    assert_eq!(second_form(b"<!DOCTYPE d [<?p?>]><d/>"), "<?p ?><d></d>");
    // The first form writes none of them.
    assert_eq!(first_form("<!DOCTYPE d [<?p?>]><d/>"), "<d></d>");
}

#[test]
fn second_form_quotes_a_literal_holding_an_apostrophe_in_double_quotes() {
    assert_eq!(
        second_form(br#"<!DOCTYPE d [<!NOTATION n SYSTEM "it's">]><d/>"#),
        "<!DOCTYPE d [\n<!NOTATION n SYSTEM \"it's\">\n]>\n<d></d>"
    );
}

#[test]
fn second_form_without_declarations_is_the_first_form() {
    for source in [
        "<d a='1'>t<e/></d>",
        "<!DOCTYPE d><d/>",
        "<!DOCTYPE d SYSTEM 'd.dtd'><d/>",
        "<!DOCTYPE d [<!ENTITY e 'x'>]><d>&e;</d>",
        "<?pi?><d><?q r?></d><?z?>",
        "no root <?pi?>",
    ] {
        assert_eq!(
            second_form(source.as_bytes()),
            first_form(source),
            "{source}"
        );
    }
}

/// libxml2's verdict on each ELEMENT and NOTATION declaration of
/// tests/declarations/verdicts.txt (written by its generate.py): xml5dom
/// reports an error for exactly the declarations libxml2 rejects.
#[test]
fn declarations_are_well_formed_where_libxml2_says_so() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/declarations/verdicts.txt"
    );
    let verdicts = std::fs::read_to_string(path).expect("tests/declarations/verdicts.txt");
    let mut checked = 0;
    for line in verdicts.lines() {
        let (verdict, declaration) = line.split_once('\t').expect("verdict, tab, declaration");
        let declaration = declaration.replace("\\n", "\n");
        let doc = Document::parse(&format!("<!DOCTYPE a [{declaration}]><a/>"));
        let errors: Vec<_> = doc
            .errors()
            .iter()
            .filter(|e| e.severity() == Severity::Error)
            .map(|e| e.code)
            .collect();
        match verdict {
            "well-formed" => assert_eq!(errors, [], "{declaration}"),
            "not-well-formed" => assert!(!errors.is_empty(), "{declaration}"),
            other => panic!("unknown verdict {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 38);
}
