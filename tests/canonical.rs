//! The canonical forms of `serializer::canonical`.
//!
//! - xmltest form: hand-worked examples, one or more per rule.
//! - Canonical XML 1.0: hand-worked examples, then every document of
//!   `tests/c14n/input/` against the outputs libxml2 gave for it
//!   (`tests/c14n/expected/`, generated once by `tests/c14n/generate.py`).
//! - Exclusive XML Canonicalization 1.0 and Canonical XML 1.1: the same
//!   documents, from the tree and streamed; the InclusiveNamespaces
//!   PrefixList cases of `tests/c14n/inclusive-ns/`; the document subsets of
//!   `tests/c14n/subset/` (a document and an XPath expression each) in all
//!   six forms. Their expected outputs come from libxml2's C14N code itself
//!   (`tests/c14n/generate_libxml2.py`, through ctypes).

use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;
use xml5dom::events::write_canonical_reader_with;
use xml5dom::query::{XNode, XPath};
use xml5dom::serializer::canonical::{canonicalize, CanonicalForm};
use xml5dom::{canonicalize_with, CanonicalOptions, Document, InclusiveNamespaces, ParseOptions};

fn xmltest(source: &str) -> String {
    canonicalize(&Document::parse(source), CanonicalForm::XmlTest)
}

fn c14n(source: &str) -> String {
    canonicalize(&Document::parse(source), CanonicalForm::C14n)
}

fn c14n_comments(source: &str) -> String {
    canonicalize(&Document::parse(source), CanonicalForm::C14nWithComments)
}

// ----- xmltest: elements ---------------------------------------------------

#[test]
fn xmltest_empty_element_tag_becomes_start_end_pair() {
    assert_eq!(xmltest("<doc/>"), "<doc></doc>");
}

#[test]
fn xmltest_nested_empty_elements() {
    assert_eq!(
        xmltest("<a><b/><c></c><d><e/></d></a>"),
        "<a><b></b><c></c><d><e></e></d></a>"
    );
}

#[test]
fn xmltest_whitespace_inside_tags_dropped() {
    assert_eq!(
        xmltest("<doc  a = '1'\n\tb=\"2\"  ><e\n/></doc >"),
        r#"<doc a="1" b="2"><e></e></doc>"#
    );
}

#[test]
fn xmltest_prefixed_element_name_kept_as_written() {
    assert_eq!(
        xmltest("<p:doc xmlns:p='urn:p'><p:e/></p:doc>"),
        r#"<p:doc xmlns:p="urn:p"><p:e></p:e></p:doc>"#
    );
}

// ----- xmltest: text escapes -------------------------------------------------

#[test]
fn xmltest_text_ampersand() {
    assert_eq!(xmltest("<doc>a&amp;b</doc>"), "<doc>a&amp;b</doc>");
}

#[test]
fn xmltest_text_less_than() {
    assert_eq!(xmltest("<doc>a&lt;b</doc>"), "<doc>a&lt;b</doc>");
}

#[test]
fn xmltest_text_greater_than_literal_and_reference() {
    assert_eq!(xmltest("<doc>a>b&gt;c</doc>"), "<doc>a&gt;b&gt;c</doc>");
}

#[test]
fn xmltest_text_double_quote() {
    assert_eq!(
        xmltest("<doc>\"q\"&quot;</doc>"),
        "<doc>&quot;q&quot;&quot;</doc>"
    );
}

#[test]
fn xmltest_text_apostrophe_not_escaped() {
    assert_eq!(xmltest("<doc>it's&apos;</doc>"), "<doc>it's'</doc>");
}

#[test]
fn xmltest_text_tab() {
    assert_eq!(xmltest("<doc>a\tb&#9;c</doc>"), "<doc>a&#9;b&#9;c</doc>");
}

#[test]
fn xmltest_text_line_feed() {
    assert_eq!(xmltest("<doc>a\nb&#10;c</doc>"), "<doc>a&#10;b&#10;c</doc>");
}

#[test]
fn xmltest_text_carriage_return_reference() {
    assert_eq!(
        xmltest("<doc>a&#13;b&#xD;c</doc>"),
        "<doc>a&#13;b&#13;c</doc>"
    );
}

#[test]
fn xmltest_text_literal_line_ends_normalized_to_line_feed() {
    assert_eq!(
        xmltest("<doc>a\r\nb\rc\r\r\nd</doc>"),
        "<doc>a&#10;b&#10;c&#10;&#10;d</doc>"
    );
}

#[test]
fn xmltest_text_non_ascii_unescaped() {
    assert_eq!(
        xmltest("<doc>é €&#x1F600;日本</doc>"),
        "<doc>é €\u{1F600}日本</doc>"
    );
}

// ----- xmltest: attributes ---------------------------------------------------

#[test]
fn xmltest_attributes_sorted_by_name() {
    assert_eq!(
        xmltest("<doc c='3' a='1' b='2'/>"),
        r#"<doc a="1" b="2" c="3"></doc>"#
    );
}

#[test]
fn xmltest_attributes_sorted_by_code_point() {
    assert_eq!(
        xmltest("<doc b='' a='' B='' _='' a1='' é='' A=''/>"),
        r#"<doc A="" B="" _="" a="" a1="" b="" é=""></doc>"#
    );
}

#[test]
fn xmltest_attribute_shorter_name_sorts_first() {
    assert_eq!(
        xmltest("<doc abc='3' ab='2' a='1'/>"),
        r#"<doc a="1" ab="2" abc="3"></doc>"#
    );
}

#[test]
fn xmltest_attribute_values_in_double_quotes() {
    assert_eq!(
        xmltest("<doc a='single' b=\"double\"/>"),
        r#"<doc a="single" b="double"></doc>"#
    );
}

#[test]
fn xmltest_attribute_escapes() {
    assert_eq!(
        xmltest(r#"<doc a="&amp;&lt;&gt;>&quot;'" b='"'/>"#),
        r#"<doc a="&amp;&lt;&gt;&gt;&quot;'" b="&quot;"></doc>"#
    );
}

#[test]
fn xmltest_attribute_whitespace_references() {
    assert_eq!(
        xmltest("<doc a='&#9;&#10;&#13;'/>"),
        r#"<doc a="&#9;&#10;&#13;"></doc>"#
    );
}

#[test]
fn xmltest_attribute_literal_whitespace_normalized_to_spaces() {
    assert_eq!(
        xmltest("<doc a='x\ty\nz\r\nw'/>"),
        r#"<doc a="x y z w"></doc>"#
    );
}

#[test]
fn xmltest_attribute_empty_value() {
    assert_eq!(xmltest("<doc a=''/>"), r#"<doc a=""></doc>"#);
}

// ----- xmltest: namespaces are plain attributes ------------------------------

#[test]
fn xmltest_namespace_declarations_sorted_with_attributes_by_qualified_name() {
    assert_eq!(
        xmltest("<doc z='1' xmlns:p='urn:p' p:a='2' xmlns='urn:d' a='3'/>"),
        r#"<doc a="3" p:a="2" xmlns="urn:d" xmlns:p="urn:p" z="1"></doc>"#
    );
}

#[test]
fn xmltest_redundant_namespace_declarations_kept() {
    assert_eq!(
        xmltest("<a xmlns='urn:a'><b xmlns='urn:a'/><c xmlns=''/></a>"),
        r#"<a xmlns="urn:a"><b xmlns="urn:a"></b><c xmlns=""></c></a>"#
    );
}

#[test]
fn xmltest_no_namespace_declarations_added() {
    assert_eq!(
        xmltest("<a xmlns:p='urn:p'><p:b/></a>"),
        r#"<a xmlns:p="urn:p"><p:b></p:b></a>"#
    );
}

#[test]
fn xmltest_xml_attributes_sorted_by_qualified_name() {
    assert_eq!(
        xmltest("<doc xml:lang='en' z='1' a='2' xml:space='preserve'/>"),
        r#"<doc a="2" xml:lang="en" xml:space="preserve" z="1"></doc>"#
    );
}

// ----- xmltest: processing instructions --------------------------------------

#[test]
fn xmltest_pi_before_root() {
    assert_eq!(xmltest("<?pi data?>\n<doc/>"), "<?pi data?><doc></doc>");
}

#[test]
fn xmltest_pi_after_root() {
    assert_eq!(xmltest("<doc/>\n<?pi data?>\n"), "<doc></doc><?pi data?>");
}

#[test]
fn xmltest_pi_inside_root() {
    assert_eq!(
        xmltest("<doc>a<?pi data?>b</doc>"),
        "<doc>a<?pi data?>b</doc>"
    );
}

#[test]
fn xmltest_pi_without_data_keeps_space() {
    assert_eq!(
        xmltest("<?a?><doc><?b?></doc><?c?>"),
        "<?a ?><doc><?b ?></doc><?c ?>"
    );
}

#[test]
fn xmltest_pi_with_only_whitespace_keeps_one_space() {
    assert_eq!(xmltest("<doc><?pi   \t\n?></doc>"), "<doc><?pi ?></doc>");
}

#[test]
fn xmltest_pi_leading_whitespace_collapsed_trailing_kept() {
    assert_eq!(
        xmltest("<doc><?pi \t  data  ?></doc>"),
        "<doc><?pi data  ?></doc>"
    );
}

#[test]
fn xmltest_pi_data_not_escaped() {
    assert_eq!(
        xmltest("<doc><?pi a<b & \"c\"\td?></doc>"),
        "<doc><?pi a<b & \"c\"\td?></doc>"
    );
}

#[test]
fn xmltest_several_pis_around_root_without_separators() {
    assert_eq!(
        xmltest("<?a 1?>\n<?b 2?>\n<doc/>\n<?c 3?>\n<?d 4?>\n"),
        "<?a 1?><?b 2?><doc></doc><?c 3?><?d 4?>"
    );
}

// ----- xmltest: dropped ------------------------------------------------------

#[test]
fn xmltest_comments_dropped_everywhere() {
    assert_eq!(
        xmltest("<!--a--><doc>x<!--b-->y</doc><!--c-->"),
        "<doc>xy</doc>"
    );
}

#[test]
fn xmltest_comment_between_text_joins_text() {
    assert_eq!(
        xmltest("<doc>a<!--c-->&amp;<!--d-->b</doc>"),
        "<doc>a&amp;b</doc>"
    );
}

#[test]
fn xmltest_doctype_dropped() {
    assert_eq!(xmltest("<!DOCTYPE doc>\n<doc/>"), "<doc></doc>");
}

#[test]
fn xmltest_doctype_with_internal_subset_dropped() {
    assert_eq!(
        xmltest("<!DOCTYPE doc [<!ELEMENT doc ANY>]>\n<doc/>"),
        "<doc></doc>"
    );
}

#[test]
fn xmltest_xml_declaration_dropped() {
    assert_eq!(
        xmltest("<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\n<doc/>"),
        "<doc></doc>"
    );
}

#[test]
fn xmltest_whitespace_outside_root_dropped() {
    assert_eq!(
        xmltest("\n \t<!--x-->\n<doc>\n</doc>\r\n\n"),
        "<doc>&#10;</doc>"
    );
}

// ----- xmltest: CDATA and references -----------------------------------------

#[test]
fn xmltest_cdata_written_as_escaped_text() {
    assert_eq!(
        xmltest("<doc><![CDATA[<a href=\"x\">&amp;</a>]]></doc>"),
        "<doc>&lt;a href=&quot;x&quot;&gt;&amp;amp;&lt;/a&gt;</doc>"
    );
}

#[test]
fn xmltest_cdata_merged_with_surrounding_text() {
    assert_eq!(
        xmltest("<doc>a<![CDATA[b]]>c<![CDATA[]]>d</doc>"),
        "<doc>abcd</doc>"
    );
}

#[test]
fn xmltest_cdata_line_ends() {
    assert_eq!(
        xmltest("<doc><![CDATA[a\r\nb\tc]]></doc>"),
        "<doc>a&#10;b&#9;c</doc>"
    );
}

#[test]
fn xmltest_character_references_resolved() {
    assert_eq!(
        xmltest("<doc>&#65;&#x42;&#x43; &#x3C;&#38;</doc>"),
        "<doc>ABC &lt;&amp;</doc>"
    );
}

#[test]
fn xmltest_predefined_entities_resolved() {
    assert_eq!(
        xmltest("<doc a='&apos;&quot;'>&apos;&quot;&amp;&lt;&gt;</doc>"),
        r#"<doc a="'&quot;">'&quot;&amp;&lt;&gt;</doc>"#
    );
}

// ----- xmltest: a whole document ---------------------------------------------

#[test]
fn xmltest_whole_document() {
    let source = "<?xml version='1.0'?>\n\
                  <!DOCTYPE doc>\n\
                  <!-- header -->\n\
                  <?xml-stylesheet href='s.css'?>\n\
                  <doc b='2' a='1'>\n  \
                  <e/>\n  \
                  <t>x &lt; y</t><?pi?>\n\
                  </doc>\n\
                  <!-- footer -->\n";
    assert_eq!(
        xmltest(source),
        "<?xml-stylesheet href='s.css'?><doc a=\"1\" b=\"2\">&#10;  <e></e>&#10;  \
         <t>x &lt; y</t><?pi ?>&#10;</doc>"
    );
}

// ----- xmltest: input with parse errors --------------------------------------

#[test]
fn xmltest_recovered_tree_written_as_is() {
    assert_eq!(xmltest("<a><b>text</a>"), "<a><b>text</b></a>");
}

#[test]
fn xmltest_no_root_gives_pis_only() {
    assert_eq!(xmltest("<?a?><!--c--><?b x?>"), "<?a ?><?b x?>");
}

#[test]
fn xmltest_empty_input() {
    assert_eq!(xmltest(""), "");
}

#[test]
fn xmltest_unquoted_attribute_and_unclosed_root() {
    assert_eq!(
        xmltest("<a x=1 y=\"<\">&"),
        r#"<a x="1" y="&lt;">&amp;</a>"#
    );
}

// ----- Canonical XML: hand-worked --------------------------------------------

#[test]
fn c14n_document_level_line_feeds() {
    let source = "<?a?><!--b--><r/><!--c--><?d?>";
    assert_eq!(c14n(source), "<?a?>\n<r></r>\n<?d?>");
    assert_eq!(
        c14n_comments(source),
        "<?a?>\n<!--b-->\n<r></r>\n<!--c-->\n<?d?>"
    );
}

#[test]
fn c14n_comments_inside_root_without_line_feeds() {
    assert_eq!(c14n_comments("<r>a<!--b-->c</r>"), "<r>a<!--b-->c</r>");
    assert_eq!(c14n("<r>a<!--b-->c</r>"), "<r>ac</r>");
}

#[test]
fn c14n_pi_without_data_has_no_space() {
    assert_eq!(c14n("<r><?pi?><?pj   ?></r>"), "<r><?pi?><?pj?></r>");
}

#[test]
fn c14n_text_escapes() {
    assert_eq!(
        c14n("<r>&amp;&lt;&gt;>\"'&#13;&#9;&#10;</r>"),
        "<r>&amp;&lt;&gt;&gt;\"'&#xD;\t\n</r>"
    );
}

#[test]
fn c14n_attribute_escapes() {
    assert_eq!(
        c14n("<r a='&amp;&lt;&gt;>&quot;&apos;&#9;&#10;&#13;'/>"),
        "<r a=\"&amp;&lt;>>&quot;'&#x9;&#xA;&#xD;\"></r>"
    );
}

#[test]
fn c14n_namespace_declarations_first_default_first() {
    assert_eq!(
        c14n("<r b='1' xmlns:z='urn:z' a='2' xmlns='urn:d' xmlns:a='urn:a'/>"),
        r#"<r xmlns="urn:d" xmlns:a="urn:a" xmlns:z="urn:z" a="2" b="1"></r>"#
    );
}

#[test]
fn c14n_attributes_sorted_by_namespace_then_local_name() {
    assert_eq!(
        c14n("<r xmlns:x='urn:b' xmlns:y='urn:a' x:a='1' y:b='2' y:a='3' c='4'/>"),
        r#"<r xmlns:x="urn:b" xmlns:y="urn:a" c="4" y:a="3" y:b="2" x:a="1"></r>"#
    );
}

#[test]
fn c14n_redundant_declarations_dropped() {
    assert_eq!(
        c14n("<a xmlns='urn:a' xmlns:p='urn:p'><b xmlns='urn:a' xmlns:p='urn:p'/></a>"),
        r#"<a xmlns="urn:a" xmlns:p="urn:p"><b></b></a>"#
    );
}

#[test]
fn c14n_empty_default_only_when_undeclaring() {
    assert_eq!(
        c14n("<a xmlns=''><b xmlns='urn:b'><c xmlns=''><d xmlns=''/></c></b></a>"),
        r#"<a><b xmlns="urn:b"><c xmlns=""><d></d></c></b></a>"#
    );
}

#[test]
fn c14n_namespace_scope_ends_with_its_element() {
    assert_eq!(
        c14n("<r><a xmlns:p='urn:p'/><b xmlns:p='urn:p'/></r>"),
        r#"<r><a xmlns:p="urn:p"></a><b xmlns:p="urn:p"></b></r>"#
    );
}

#[test]
fn c14n_xml_prefix_declaration_never_written() {
    assert_eq!(
        c14n("<r xmlns:xml='http://www.w3.org/XML/1998/namespace' xml:lang='en'/>"),
        r#"<r xml:lang="en"></r>"#
    );
}

#[test]
fn c14n_prefix_undeclaration_writes_nothing() {
    // Namespaces 1.1 `xmlns:p=""` leaves no namespace node for `p`; a later
    // declaration of `p` is written again.
    assert_eq!(
        c14n("<a xmlns:p='urn:p'><b xmlns:p=''><c xmlns:p='urn:p'/></b></a>"),
        r#"<a xmlns:p="urn:p"><b><c xmlns:p="urn:p"></c></b></a>"#
    );
}

#[test]
fn c14n_namespace_uri_escaped_like_attribute_values() {
    assert_eq!(
        c14n("<r xmlns:p='urn:a&quot;b&lt;c&#9;d'/>"),
        r#"<r xmlns:p="urn:a&quot;b&lt;c&#x9;d"></r>"#
    );
}

#[test]
fn c14n_no_root_gives_pis_and_comments_each_followed_by_line_feed() {
    let source = "<?a?><!--b--><?c d?>";
    assert_eq!(c14n(source), "<?a?>\n<?c d?>\n");
    assert_eq!(c14n_comments(source), "<?a?>\n<!--b-->\n<?c d?>\n");
}

/// Names with a prefix nothing declares are in the prefix's placeholder
/// namespace (docs/conformance.md): their attributes sort by it, and the
/// placeholder is declared as the repaired document declares it.
#[test]
fn c14n_unbound_prefix_attributes_sort_by_their_placeholder_namespaces() {
    assert_eq!(
        c14n("<r q:a='1' b='2' p:c='3'/>"),
        r#"<r xmlns:p="urn:xml5dom:undeclared:p" xmlns:q="urn:xml5dom:undeclared:q" b="2" p:c="3" q:a="1"></r>"#
    );
}

#[test]
fn c14n_recovered_tree_written_as_is() {
    assert_eq!(
        c14n_comments("<a xmlns='urn:a'><b>x<!--c--></a>trailing"),
        r#"<a xmlns="urn:a"><b>x<!--c--></b></a>"#
    );
}

#[test]
fn c14n_million_deep_document() {
    let depth = 1_000_000;
    let source = "<a xmlns='urn:a'>".repeat(depth);
    let out = c14n(&source);
    let expected = format!(
        "<a xmlns=\"urn:a\">{}{}",
        "<a>".repeat(depth - 1),
        "</a>".repeat(depth)
    );
    assert!(out == expected, "million-deep output differs");
}

#[test]
fn xmltest_million_deep_document() {
    let depth = 1_000_000;
    let source = "<a>".repeat(depth);
    let out = xmltest(&source);
    assert!(out == format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth)));
}

// ----- Canonical XML: the libxml2 corpus -------------------------------------

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c14n")
}

fn corpus_inputs() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join("input"))
        .expect("tests/c14n/input")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "xml"))
        .collect();
    inputs.sort();
    inputs
}

/// Compares every input with libxml2's output in `form`; reports all the
/// differences at once.
fn check_corpus(form: CanonicalForm, extension: &str) {
    let inputs = corpus_inputs();
    assert!(
        inputs.len() >= 100,
        "expected at least 100 inputs in tests/c14n/input, found {}",
        inputs.len()
    );
    let mut failures = Vec::new();
    for input in &inputs {
        let name = input.file_stem().unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(input).expect("input");
        let expected_path = corpus_dir()
            .join("expected")
            .join(format!("{name}.{extension}"));
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        let actual = canonicalize(&Document::parse(&source), form);
        if actual != expected {
            failures.push(format!(
                "{name}.{extension}\n--- expected\n{expected}\n--- actual\n{actual}\n"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs differ:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn c14n_corpus_matches_libxml2() {
    check_corpus(CanonicalForm::C14n, "c14n");
}

#[test]
fn c14n_with_comments_corpus_matches_libxml2() {
    check_corpus(CanonicalForm::C14nWithComments, "c14n-comments");
}

#[test]
fn c14n_corpus_inputs_parse_without_errors() {
    // The corpus is well-formed XML: an error would mean xml5dom's tree may
    // not be the one libxml2 canonicalized. Two documented exceptions
    // (docs/conformance.md, "Character references") keep the character XML
    // gives, with an error as in the XML5 suite: `&#13;` (CR) and references
    // to noncharacters such as `&#x10FFFF;`.
    for input in corpus_inputs() {
        let source = std::fs::read_to_string(&input).expect("input");
        let doc = Document::parse(&source);
        let unexpected: Vec<_> = doc
            .errors()
            .iter()
            .filter(|e| match e.code.as_str() {
                "control-character-reference" => {
                    let at = &source[e.offset..];
                    !(at.starts_with("&#13;") || at.starts_with("&#xD;"))
                }
                "noncharacter-character-reference" => false,
                _ => true,
            })
            .collect();
        assert!(
            unexpected.is_empty(),
            "{}: {:?}",
            input.display(),
            unexpected
        );
    }
}

// ----- Exclusive XML Canonicalization 1.0 and Canonical XML 1.1 ------------

#[test]
fn exc_c14n_corpus_matches_libxml2() {
    check_corpus(CanonicalForm::ExcC14n, "exc-c14n");
}

#[test]
fn exc_c14n_with_comments_corpus_matches_libxml2() {
    check_corpus(CanonicalForm::ExcC14nWithComments, "exc-c14n-comments");
}

#[test]
fn c14n11_corpus_matches_libxml2() {
    check_corpus(CanonicalForm::C14n11, "c14n11");
}

#[test]
fn c14n11_with_comments_corpus_matches_libxml2() {
    check_corpus(CanonicalForm::C14n11WithComments, "c14n11-comments");
}

/// The forms with their file extensions (as generate_libxml2.py names them).
const FORMS: [(CanonicalForm, &str); 6] = [
    (CanonicalForm::C14n, "c14n"),
    (CanonicalForm::C14nWithComments, "c14n-comments"),
    (CanonicalForm::ExcC14n, "exc-c14n"),
    (CanonicalForm::ExcC14nWithComments, "exc-c14n-comments"),
    (CanonicalForm::C14n11, "c14n11"),
    (CanonicalForm::C14n11WithComments, "c14n11-comments"),
];

fn streamed(source: &str, form: CanonicalForm, inclusive: &InclusiveNamespaces) -> String {
    let mut out = Vec::new();
    write_canonical_reader_with(
        source.as_bytes(),
        &ParseOptions::default(),
        form,
        inclusive,
        &mut out,
    )
    .expect("streamed canonical form");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn streamed_forms_match_libxml2_on_the_corpus() {
    let mut failures = Vec::new();
    let none = InclusiveNamespaces::default();
    for input in corpus_inputs() {
        let name = input.file_stem().unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(&input).expect("input");
        for (form, extension) in FORMS {
            let expected = read_expected(&corpus_dir().join("expected"), name, extension);
            let actual = streamed(&source, form, &none);
            if actual != expected {
                failures.push(format!("{name}.{extension}\n{expected}\n{actual}\n"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn read_expected(dir: &Path, name: &str, extension: &str) -> String {
    let path = dir.join(format!("{name}.{extension}"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `.xml` files of a directory of `tests/c14n`, sorted.
fn cases(directory: &str, at_least: usize) -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join(directory))
        .expect("case directory")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "xml"))
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= at_least,
        "expected at least {at_least} cases in tests/c14n/{directory}"
    );
    inputs
}

/// The PrefixList beside a case, if it has one.
fn prefixes_of(input: &Path) -> InclusiveNamespaces {
    std::fs::read_to_string(input.with_extension("prefixes"))
        .map(|list| InclusiveNamespaces::parse(&list))
        .unwrap_or_default()
}

#[test]
fn inclusive_namespaces_cases_match_libxml2() {
    let mut failures = Vec::new();
    for input in cases("inclusive-ns", 8) {
        let name = input.file_stem().unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(&input).expect("input");
        let doc = Document::parse(&source);
        let options = CanonicalOptions {
            inclusive_namespaces: prefixes_of(&input),
            ..CanonicalOptions::default()
        };
        assert!(
            !options.inclusive_namespaces.is_empty(),
            "{name}: no prefixes"
        );
        for (form, extension) in &FORMS[2..4] {
            let expected =
                read_expected(&corpus_dir().join("inclusive-ns/expected"), name, extension);
            let from_tree = canonicalize_with(&doc, *form, &options);
            let from_stream = streamed(&source, *form, &options.inclusive_namespaces);
            if from_tree != expected || from_stream != expected {
                failures.push(format!(
                    "{name}.{extension}\n--- expected\n{expected}\n--- tree\n{from_tree}\n--- stream\n{from_stream}\n"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn document_subsets_match_libxml2() {
    let mut failures = Vec::new();
    for input in cases("subset", 15) {
        let name = input.file_stem().unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(&input).expect("input");
        let expression = std::fs::read_to_string(input.with_extension("xpath")).expect("xpath");
        let doc = Document::parse(&source);
        let nodes = XPath::compile(expression.trim())
            .and_then(|xpath| xpath.select(doc.root()))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let prefixes = prefixes_of(&input);
        for (form, extension) in FORMS {
            let options = CanonicalOptions {
                inclusive_namespaces: prefixes.clone(),
                subset: Some(&nodes),
            };
            let expected = read_expected(&corpus_dir().join("subset/expected"), name, extension);
            let actual = canonicalize_with(&doc, form, &options);
            if actual != expected {
                failures.push(format!(
                    "{name}.{extension}\n--- expected\n{expected}\n--- actual\n{actual}\n"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn whole_document_as_a_node_set_equals_the_document() {
    // Canonical XML defines the whole document as the node-set of
    // `(//. | //@* | //namespace::*)`: both paths must agree.
    for input in corpus_inputs() {
        let source = std::fs::read_to_string(&input).expect("input");
        let doc = Document::parse(&source);
        let nodes = XPath::compile("(//. | //@* | //namespace::*)")
            .unwrap()
            .select(doc.root())
            .unwrap();
        for (form, extension) in FORMS {
            let whole = canonicalize(&doc, form);
            let options = CanonicalOptions {
                subset: Some(&nodes),
                ..CanonicalOptions::default()
            };
            assert_eq!(
                canonicalize_with(&doc, form, &options),
                whole,
                "{}.{extension}",
                input.display()
            );
        }
    }
}

#[test]
fn subset_of_a_million_deep_document() {
    let depth = 1_000_000;
    let source = format!(
        "{}{}",
        "<a xml:lang='x'>".repeat(depth),
        "</a>".repeat(depth)
    );
    let doc = Document::parse(&source);
    // Every other element (no attribute nodes): each one written inherits
    // xml:lang from the parent left out, in 1.1 as in 1.0.
    let nodes: Vec<XNode<'_>> = doc
        .root()
        .descendants()
        .filter(|node| node.is_element())
        .step_by(2)
        .map(XNode::Node)
        .collect();
    let out = xml5dom::canonicalize_subset(&doc, CanonicalForm::C14n11, &nodes);
    let expected = format!(
        "{}{}",
        "<a xml:lang=\"x\">".repeat(depth / 2),
        "</a>".repeat(depth / 2)
    );
    assert!(out == expected, "million-deep subset differs");
}

// ----- The InclusiveNamespaces PrefixList ------------------------------------

#[test]
fn prefix_list_separators_are_whitespace_and_commas() {
    let list = InclusiveNamespaces::parse("a,b c\td\ne , ,f");
    assert_eq!(
        list.prefixes().collect::<Vec<_>>(),
        ["a", "b", "c", "d", "e", "f"]
    );
    assert!(!list.contains_default());
}

#[test]
fn prefix_list_default_and_duplicates() {
    let list = InclusiveNamespaces::parse("#default p #default p");
    assert!(list.contains_default());
    assert_eq!(list.prefixes().collect::<Vec<_>>(), ["p"]);
    assert_eq!(list, InclusiveNamespaces::parse("p,#default"));
}

#[test]
fn prefix_list_empty() {
    for text in ["", "  ", ",,", "\n"] {
        assert!(InclusiveNamespaces::parse(text).is_empty(), "{text:?}");
    }
    assert!(!InclusiveNamespaces::parse("#default").is_empty());
}

fn exclusive(source: &str, list: &str) -> String {
    let options = CanonicalOptions {
        inclusive_namespaces: InclusiveNamespaces::parse(list),
        ..CanonicalOptions::default()
    };
    canonicalize_with(&Document::parse(source), CanonicalForm::ExcC14n, &options)
}

#[test]
fn prefix_list_only_changes_the_exclusive_forms() {
    let source = "<r xmlns:a='urn:a' xmlns:b='urn:b'><a:e/></r>";
    assert_eq!(
        exclusive(source, ""),
        r#"<r><a:e xmlns:a="urn:a"></a:e></r>"#
    );
    assert_eq!(
        exclusive(source, "b"),
        r#"<r xmlns:b="urn:b"><a:e xmlns:a="urn:a"></a:e></r>"#
    );
    let options = CanonicalOptions {
        inclusive_namespaces: InclusiveNamespaces::parse("b"),
        ..CanonicalOptions::default()
    };
    let doc = Document::parse(source);
    assert_eq!(
        canonicalize_with(&doc, CanonicalForm::C14n11, &options),
        canonicalize(&doc, CanonicalForm::C14n11)
    );
}

#[test]
fn prefix_list_names_out_of_scope_or_xml_write_nothing() {
    let source = "<r xml:lang='en'><e/></r>";
    let plain = exclusive(source, "");
    assert_eq!(plain, r#"<r xml:lang="en"><e></e></r>"#);
    assert_eq!(exclusive(source, "zz xml xmlns"), plain);
}

#[test]
fn prefix_list_default_undeclares_where_the_default_changes() {
    assert_eq!(
        exclusive(
            "<r xmlns='urn:d'><p:e xmlns:p='urn:p'><f xmlns=''/></p:e></r>",
            "#default"
        ),
        r#"<r xmlns="urn:d"><p:e xmlns:p="urn:p"><f xmlns=""></f></p:e></r>"#
    );
}

#[test]
fn exclusive_and_1_1_million_deep_documents() {
    let depth = 1_000_000;
    // Every level redeclares `p` alternately: Exclusive writes it on each
    // element (the binding changes each time), 1.0 and 1.1 too.
    let mut source = String::new();
    for level in 0..depth {
        source.push_str(if level % 2 == 0 {
            "<p:a xmlns:p='urn:0'>"
        } else {
            "<p:a xmlns:p='urn:1'>"
        });
    }
    source.push_str(&"</p:a>".repeat(depth));
    let doc = Document::parse(&source);
    let mut expected = String::new();
    for level in 0..depth {
        expected.push_str(if level % 2 == 0 {
            "<p:a xmlns:p=\"urn:0\">"
        } else {
            "<p:a xmlns:p=\"urn:1\">"
        });
    }
    expected.push_str(&"</p:a>".repeat(depth));
    for form in [CanonicalForm::ExcC14n, CanonicalForm::C14n11] {
        assert!(canonicalize(&doc, form) == expected, "{form:?} differs");
    }
    // Streamed (1.1 streams as 1.0 does, whose deep case is the events'):
    // the exclusive bookkeeping, with a PrefixList.
    let streamed = streamed(
        &source,
        CanonicalForm::ExcC14n,
        &InclusiveNamespaces::parse("p"),
    );
    assert!(streamed == expected, "streamed exclusive form differs");
}
