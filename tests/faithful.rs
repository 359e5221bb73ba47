//! Faithful output (issue 14): well-formed documents come back byte for
//! byte whatever xml5dom warns about, repairs stay where the input is
//! broken, and no character the tree holds is lost.
//!
//! Each case was worked out by hand from XML 1.0 (what is well-formed) and
//! docs/serialization.md (what each repair rule writes).

use pretty_assertions::assert_eq;
use xml5dom::{Document, ErrorCode, RepairKind, Severity};

fn codes(doc: &Document) -> Vec<(ErrorCode, Severity)> {
    doc.errors()
        .iter()
        .map(|e| (e.code, e.severity()))
        .collect()
}

// ----- Severity --------------------------------------------------------------

/// What XML allows is a warning, the document is well-formed, and it is
/// written back as it was.
#[test]
fn warnings_never_change_a_byte() {
    use ErrorCode::*;
    use Severity::Warning;
    let cases: &[(&str, &[(ErrorCode, Severity)])] = &[
        // XML signatures and .NET output carry CR as a reference.
        (
            "<a b=\"1&#13;2\">x&#13;y&#xD;</a>",
            &[
                (ControlCharacterReference, Warning),
                (ControlCharacterReference, Warning),
                (ControlCharacterReference, Warning),
            ],
        ),
        // Windows-1252 punctuation written as C1 references.
        ("<p>It&#146;s</p>", &[(ControlCharacterReference, Warning)]),
        (
            "<p>\u{7F}</p>",
            &[(DiscouragedCharacterInInputStream, Warning)],
        ),
        (
            "<p>\u{FDD0}&#x1FFFE;</p>",
            &[
                (NoncharacterInInputStream, Warning),
                (NoncharacterCharacterReference, Warning),
            ],
        ),
        // An external parsed entity in content: never fetched.
        (
            "<!DOCTYPE r [<!ENTITY chap SYSTEM 'chap.xml'>]><r>&chap;</r>",
            &[(ExternalEntityReference, Warning)],
        ),
        // XHTML with its DTD named: `&nbsp;` may be declared there.
        (
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \
             \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">\
             <html xmlns=\"http://www.w3.org/1999/xhtml\"><p>a&nbsp;b&unknown;</p></html>",
            &[
                (EntityInExternalSubset, Warning),
                (EntityInExternalSubset, Warning),
            ],
        ),
    ];
    for &(input, expected) in cases {
        let doc = Document::parse(input);
        assert_eq!(codes(&doc), expected, "{input:?}");
        assert!(doc.is_well_formed(), "{input:?}");
        let out = doc.serialize(&Default::default());
        assert_eq!(out.text, input);
        assert!(out.repairs.is_empty(), "{input:?}: {:?}", out.repairs);
    }
}

/// The tree keeps what the references say: CR, and U+2019 for `&#146;`
/// (the Windows-1252 reading the suite requires).
#[test]
fn warnings_keep_their_characters_in_the_tree() {
    let doc = Document::parse("<a b=\"1&#13;2\">x&#13;y&#146;</a>");
    let a = doc.root_element().unwrap();
    assert_eq!(a.attribute("b"), Some("1\r2"));
    assert_eq!(a.text_content(), "x\ry\u{2019}");
}

/// What XML does not allow stays an error, also where the same situation
/// is a warning elsewhere.
#[test]
fn what_xml_forbids_stays_an_error() {
    use ErrorCode::*;
    use Severity::Error;
    let cases: &[(&str, &[(ErrorCode, Severity)])] = &[
        ("<a>&#1;</a>", &[(IllegalCharacterReference, Error)]),
        ("<a>&#xFFFF;</a>", &[(IllegalCharacterReference, Error)]),
        // HTML takes form feed as whitespace; XML does not allow it.
        ("<a>&#12;</a>", &[(IllegalCharacterReference, Error)]),
        ("<a b='&#x0C;'/>", &[(IllegalCharacterReference, Error)]),
        ("<a>\u{1}</a>", &[(ControlCharacterInInputStream, Error)]),
        ("<a>\u{FFFE}</a>", &[(IllegalCharacterInInputStream, Error)]),
        // Without an external DTD, an undeclared entity is an error.
        ("<a>&nbsp;</a>", &[(UndeclaredEntity, Error)]),
        // ... and with one, under standalone="yes".
        (
            "<?xml version='1.0' standalone='yes'?><!DOCTYPE a SYSTEM 'a.dtd'><a>&nbsp;</a>",
            &[(UndeclaredEntity, Error)],
        ),
        (
            "<!DOCTYPE r [<!ENTITY e SYSTEM 'e.xml'>]><r a='&e;'/>",
            &[(ExternalEntityInAttributeValue, Error)],
        ),
        (
            "<!DOCTYPE r [<!NOTATION png SYSTEM 'png'><!ENTITY i SYSTEM 'i.png' NDATA png>]><r>&i;</r>",
            &[(UnparsedEntityReference, Error)],
        ),
        // HTML reads `&#X41;`; XML only `&#x41;` (libxml2 agrees).
        ("<a>&#X41;</a>", &[(UppercaseHexadecimalReference, Error)]),
        ("<a b='&#X41;'/>", &[(UppercaseHexadecimalReference, Error)]),
        // `]]>` in content, also from a replacement text.
        ("<a>]]></a>", &[(CdataEndInText, Error)]),
        (
            "<!DOCTYPE a [<!ENTITY e 'x]]>'>]><a>&e;</a>",
            &[(CdataEndInText, Error)],
        ),
        (
            "<!DOCTYPE a [<!ENTITY e '<b>]]></b>'>]><a>&e;</a>",
            &[(CdataEndInText, Error)],
        ),
    ];
    for &(input, expected) in cases {
        let doc = Document::parse(input);
        assert_eq!(codes(&doc), expected, "{input:?}");
        assert!(!doc.is_well_formed(), "{input:?}");
    }
}

/// A parameter-entity reference in the internal subset also means an
/// undeclared entity may be declared where xml5dom does not read
/// (XML 1.0 WFC "Entity Declared").
#[test]
fn parameter_entity_references_make_undeclared_entities_warnings() {
    let input = "<!DOCTYPE r [<!ENTITY % p '<!ENTITY x \"1\">'> %p;]><r>&x;&y;</r>";
    let doc = Document::parse(input);
    assert_eq!(
        codes(&doc),
        [(ErrorCode::EntityInExternalSubset, Severity::Warning)]
    );
    assert_eq!(doc.root_element().unwrap().text_content(), "1&y;");
    assert_eq!(doc.to_xml(), input);
}

// ----- Minimal-diff repair ---------------------------------------------------

/// A well-formed context full of what writing anew would change: the XML
/// declaration's quotes, a DOCTYPE with an internal subset, references as
/// written, CDATA, spacing inside tags, `<a></a>`, comments, PIs, CR LF.
const BEFORE: &str = "<?xml version='1.0' encoding=\"UTF-8\"?>\r\n\
<!DOCTYPE book [\r\n  <!ENTITY co \"ACME &#38;#38; Co\">\r\n  <!ATTLIST para role CDATA 'body'>\r\n]>\r\n\
<book  lang = 'en' >\r\n  <title>&co; &#169; 2024</title>\r\n  <para></para>\r\n  \
<code><![CDATA[if (a < b && c) { go(); }]]></code>\r\n  <!-- keep -->\r\n  <?hint fast ?>\r\n  <para>";
const AFTER: &str = "</para>\r\n  <empty/>\r\n  <q a=\"&quot;x&quot;\" b='&apos;'>&lt;&gt;&amp;</q >\r\n</book>\r\n";

/// `BEFORE + broken + AFTER` comes out as `BEFORE + mended + AFTER`, the
/// output is well-formed and writes back as itself, and the repairs are
/// `kinds`, each at the offset (in the input) of an error `check` reports.
#[track_caller]
fn mended_in_context(broken: &str, mended: &str, kinds: &[RepairKind]) {
    let input = format!("{BEFORE}{broken}{AFTER}");
    let doc = Document::parse(&input);
    assert!(
        !doc.is_well_formed(),
        "{broken:?} should not be well-formed"
    );
    let out = doc.serialize(&Default::default());
    assert_eq!(out.text, format!("{BEFORE}{mended}{AFTER}"), "{broken:?}");
    let found: Vec<_> = out.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(found, kinds, "{broken:?}");
    for repair in &out.repairs {
        let at = repair
            .offset
            .expect("a repair of parsed input has an offset");
        assert!(
            doc.errors().iter().any(|e| e.offset == at && e.is_error()),
            "{broken:?}: {repair:?} is not where an error is: {:?}",
            doc.errors()
        );
    }
    let again = Document::parse(&out.text);
    assert!(again.is_well_formed(), "{:?}", again.errors());
    assert_eq!(again.to_xml(), out.text);
}

#[test]
fn each_repair_rule_changes_only_its_spot() {
    use RepairKind::*;
    // A bare `&`; `&` followed by no name; an unknown name.
    mended_in_context("Tom & Jerry", "Tom &amp; Jerry", &[Escaped]);
    mended_in_context("a=1&b=2", "a=1&amp;b=2", &[Escaped]);
    mended_in_context("&bogus; x", "&amp;bogus; x", &[Escaped]);
    // An entity XML does not predefine: what HTML's table says it is.
    mended_in_context("caf&eacute;", "caf&#xE9;", &[ReferenceReplaced]);
    mended_in_context("Jerry&rsquo;s", "Jerry&#x2019;s", &[ReferenceReplaced]);
    // A reference without `;`.
    mended_in_context("&#65 b", "A b", &[ReferenceReplaced]);
    // A `<` that starts no tag; `]]>` outside CDATA.
    mended_in_context("a < b", "a &lt; b", &[Escaped]);
    mended_in_context("x]]>y", "x]]&gt;y", &[Escaped]);
    // Characters XML cannot carry, literal or as references.
    mended_in_context("a\u{1}b", "a\u{FFFD}b", &[ForbiddenCharacter]);
    mended_in_context("a&#1;b", "a\u{FFFD}b", &[ForbiddenCharacter]);
    // An attribute: quotes added, `=""` added, a `<` or `&` escaped, the
    // second of two dropped with the space before it, a space added.
    mended_in_context("<x id=1 />", "<x id=\"1\" />", &[AttributeRewritten]);
    mended_in_context("<x checked/>", "<x checked=\"\"/>", &[AttributeRewritten]);
    mended_in_context("<x a='1<2'/>", "<x a='1&lt;2'/>", &[Escaped]);
    mended_in_context(
        "<x href=\"?a=1&b=2\"/>",
        "<x href=\"?a=1&amp;b=2\"/>",
        &[Escaped],
    );
    mended_in_context(
        "<x a='1' a='2' b='3'/>",
        "<x a='1' b='3'/>",
        &[MarkupDropped],
    );
    mended_in_context("<x a='1'b='2'/>", "<x a='1' b='2'/>", &[MarkupRewritten]);
    // An end tag with attributes; `</>`.
    mended_in_context("<x>1</x y>", "<x>1</x>", &[MarkupRewritten]);
    mended_in_context("<x>1</>", "<x>1</x>", &[MarkupRewritten]);
    // A missing end tag: added where the element now closes.
    mended_in_context("<i>both<b>x</b>", "<i>both<b>x</b></i>", &[EndTagAdded]);
    // A stray end tag: left out.
    mended_in_context("one</em>two", "onetwo", &[MarkupDropped]);
    // `--` in a comment.
    mended_in_context("<!-- a -- b -->", "<!-- a - - b -->", &[CommentText]);
    // A name that is not a name, with its end tag.
    mended_in_context("<1st>x</1st>", "<_1st>x</_1st>", &[InvalidName]);
    mended_in_context("<x 1a\n =\n 'v'/>", "<x _1a\n =\n 'v'/>", &[InvalidName]);
    // A prefix nothing declares: its placeholder namespace declared, or,
    // a well-known prefix, its registered one.
    mended_in_context(
        "<my:creator>J</my:creator>",
        "<my:creator xmlns:my=\"urn:xml5dom:undeclared:my\">J</my:creator>",
        &[UndeclaredPrefix],
    );
    mended_in_context(
        "<dc:creator>J</dc:creator>",
        "<dc:creator xmlns:dc=\"http://purl.org/dc/elements/1.1/\">J</dc:creator>",
        &[UndeclaredPrefix],
    );
    mended_in_context(
        "<a itunes:x='1' dc:y='2'/>",
        "<a xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" itunes:x='1' \
         xmlns:dc=\"http://purl.org/dc/elements/1.1/\" dc:y='2'/>",
        &[UndeclaredPrefix, UndeclaredPrefix],
    );
}

/// A value over several lines keeps its line ends when one spot in it is
/// mended (written anew, it would become one line: the tree holds spaces).
#[test]
fn a_multi_line_value_keeps_its_lines() {
    mended_in_context(
        "<path d=\"M 0 0\r\n   L 10 10 & more\r\n   Z\"/>",
        "<path d=\"M 0 0\r\n   L 10 10 &amp; more\r\n   Z\"/>",
        &[RepairKind::Escaped],
    );
}

/// Each error's code, line and column.
fn error_positions(doc: &Document) -> Vec<(ErrorCode, u32, u32)> {
    doc.errors()
        .iter()
        .map(|e| (e.code, e.line, e.column))
        .collect()
}

/// `input` is not well-formed; its output is `expected`, well-formed, and
/// writes back as itself.
#[track_caller]
fn repaired_as(input: &str, expected: &str) {
    let doc = Document::parse(input);
    assert!(!doc.is_well_formed(), "{input:?} should not be well-formed");
    let out = doc.to_xml();
    assert_eq!(out, expected, "{input:?}");
    let again = Document::parse(&out);
    assert!(again.is_well_formed(), "{:?}", again.errors());
    assert_eq!(again.to_xml(), out);
}

/// Outside the root element, what XML does not allow there goes with the
/// rest of its line, each such line is an error, and the line breaks stay; a DOCTYPE whose only fault is a forbidden
/// character keeps its own line breaks; a bogus comment's `--` is an error
/// where it is, since the comment it is written as must change it there.
#[test]
fn document_level_repairs_keep_the_lines() {
    let doc = Document::parse("<c/>\none\n  two &amp; x\n\nthree four");
    let lines = error_positions(&doc);
    let outside = ErrorCode::TextOutsideRootElement;
    assert_eq!(lines, [(outside, 2, 1), (outside, 3, 3), (outside, 5, 1)]);
    assert_eq!(doc.to_xml(), "<c/>\n\n\n\n");
    repaired_as(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE c>\n\u{1}\n<c/>\n x \n  \n<!--e-->\n",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE c>\n\n<c/>\n\n  \n<!--e-->\n",
    );
    repaired_as(
        "<!DOCTYPE c PUBLIC\n \"-//A//DTD C//EN\"\n \"c\u{1}.dtd\">--\n<c/>",
        "<!DOCTYPE c PUBLIC\n \"-//A//DTD C//EN\"\n \"c\u{FFFD}.dtd\">\n<c/>",
    );
    let input = "<!-x- one\n two --><c/>";
    let doc = Document::parse(input);
    let hyphens: Vec<usize> = doc
        .errors()
        .iter()
        .filter(|e| e.code == ErrorCode::DoubleHyphenInComment)
        .map(|e| e.offset)
        .collect();
    assert_eq!(hyphens, [input.find("--").unwrap()]);
    repaired_as(input, "<!---x- one\n two - - --><c/>");
}

/// Stray characters after a DOCTYPE's identifiers (XML5 skips them) go,
/// and the header keeps its lines; a comment in the internal subset keeps
/// its text, its `--` mended as in content.
#[test]
fn a_doctype_keeps_what_it_can() {
    repaired_as(
        "<!DOCTYPE c PUBLIC\n \"-//A//DTD C//EN\"\n \"c.dtd\"<>\n<c/>",
        "<!DOCTYPE c PUBLIC\n \"-//A//DTD C//EN\"\n \"c.dtd\">\n<c/>",
    );
    repaired_as("<!DOCTYPE c x y>\n<c/>", "<!DOCTYPE c>\n<c/>");
    // A public identifier's characters outside `PubidChar` are errors
    // where they are, and go (whitespace becomes a space).
    let input = "<!DOCTYPE c PUBLIC\n \"-//A//DTD\tC<//EN\"\n \"c.dtd\">\n<c/>";
    let doc = Document::parse(input);
    let errors = error_positions(&doc);
    let public = ErrorCode::InvalidPublicIdentifier;
    assert_eq!(errors, [(public, 2, 12), (public, 2, 14)]);
    repaired_as(
        input,
        "<!DOCTYPE c PUBLIC\n \"-//A//DTD C//EN\"\n \"c.dtd\">\n<c/>",
    );
    repaired_as(
        "<!DOCTYPE c PUBLIC '{x}' 'c.dtd' x>\n<c/>",
        "<!DOCTYPE c PUBLIC \"x\" \"c.dtd\">\n<c/>",
    );
    // A name that is not a name is mended where it stands.
    repaired_as(
        "<!DOCTYPE h&c PUBLIC\n \"-//A//DTD C//EN\"\n \"c.dtd\">\n<c/>",
        "<!DOCTYPE h_c PUBLIC\n \"-//A//DTD C//EN\"\n \"c.dtd\">\n<c/>",
    );
    repaired_as(
        "<!DOCTYPE 1c [\n<!ENTITY e 'v'>\n]><c>&e;</c>",
        "<!DOCTYPE _1c [\n<!ENTITY e 'v'>\n]><c>&e;</c>",
    );
    let input = "<!DOCTYPE c [\n<!-- one -- two\n three -->\n<!ENTITY e 'v'>\n]><c>&e;</c>";
    let doc = Document::parse(input);
    let errors = error_positions(&doc);
    assert_eq!(errors, [(ErrorCode::MalformedDeclaration, 2, 10)]);
    repaired_as(
        input,
        "<!DOCTYPE c [\n<!-- one - - two\n three -->\n<!ENTITY e 'v'>\n]><c>&e;</c>",
    );
}

/// A subset the end of the input cut off keeps its complete declarations.
#[test]
fn a_cut_off_subset_keeps_its_declarations() {
    repaired_as(
        "<!DOCTYPE a [<!ENTITY e \"x\">",
        "<!DOCTYPE a [<!ENTITY e \"x\">]><root/>",
    );
}

/// The issue's example: one bad spot in an internal subset drops that
/// declaration only, and the references to the others still resolve.
#[test]
fn a_broken_declaration_is_dropped_alone() {
    let input = "<!DOCTYPE x [\n  <!ENTITY e \"kept\">\n  <!ENTITY broken no quotes>\n  \
                 <!ELEMENT x (#PCDATA)>\n]>\n<x a='&e;'>&e;</x>\n";
    let doc = Document::parse(input);
    assert_eq!(
        codes(&doc),
        [(ErrorCode::MalformedDeclaration, Severity::Error)]
    );
    let out = doc.serialize(&Default::default());
    assert_eq!(
        out.text,
        "<!DOCTYPE x [\n  <!ENTITY e \"kept\">\n  \n  <!ELEMENT x (#PCDATA)>\n]>\n<x a='&e;'>&e;</x>\n"
    );
    assert_eq!(out.repairs.len(), 1);
    assert_eq!(out.repairs[0].kind, RepairKind::DeclarationDropped);
    assert_eq!(out.repairs[0].offset, input.find("<!ENTITY broken"));
    let again = Document::parse(&out.text);
    assert!(again.is_well_formed(), "{:?}", again.errors());
    assert_eq!(again.root_element().unwrap().text_content(), "kept");
}

/// An error elsewhere keeps the internal subset, and the references to
/// what it declares are written back (they were expanded, and the subset
/// dropped, before).
#[test]
fn an_error_outside_the_subset_keeps_it() {
    let input = "<!DOCTYPE x [<!ENTITY e \"v\"><!ENTITY m \"<b>bold</b>\">\
                 <!ATTLIST x d CDATA 'dflt'>]><x a=1>&e; &m; &</x>";
    let out = Document::parse(input).to_xml();
    assert_eq!(
        out,
        "<!DOCTYPE x [<!ENTITY e \"v\"><!ENTITY m \"<b>bold</b>\">\
         <!ATTLIST x d CDATA 'dflt'>]><x a=\"1\">&e; &m; &amp;</x>"
    );
}

/// The unbalanced entities of the issue: errors at the reference, and the
/// output writes their nodes (well-formed) instead of the reference.
#[test]
fn unbalanced_entities_are_errors_and_written_out() {
    let cases = [
        (
            "<!DOCTYPE r [<!ENTITY p '</p>'>]><r><p>&p;</r>",
            "<!DOCTYPE r [<!ENTITY p '</p>'>]><r><p></p></r>",
        ),
        (
            "<!DOCTYPE r [<!ENTITY p '</b><b>'>]><r><b>x&p;y</b></r>",
            "<!DOCTYPE r [<!ENTITY p '</b><b>'>]><r><b>x</b><b>y</b></r>",
        ),
        (
            "<!DOCTYPE r [<!ENTITY p '</r>'>]><r>&p;</r>",
            "<!DOCTYPE r [<!ENTITY p '</r>'>]><r></r>",
        ),
        (
            "<!DOCTYPE r [<!ENTITY p '<p>'>]><r>&p;x</r>",
            "<!DOCTYPE r [<!ENTITY p '<p>'>]><r><p>x</p></r>",
        ),
        // Balanced overall, but not each entity on its own.
        (
            "<!DOCTYPE r [<!ENTITY a '<b>'><!ENTITY c '</b>'><!ENTITY o '&a;x&c;'>]><r>&o;</r>",
            "<!DOCTYPE r [<!ENTITY a '<b>'><!ENTITY c '</b>'><!ENTITY o '&a;x&c;'>]><r><b>x</b></r>",
        ),
    ];
    for (input, expected) in cases {
        let doc = Document::parse(input);
        let reference = input.rfind("><r>").unwrap() + 4;
        let reference = reference + input[reference..].find('&').unwrap();
        assert!(
            doc.errors()
                .iter()
                .any(|e| e.code == ErrorCode::UnbalancedEntityReference && e.offset == reference),
            "{input}: {:?}",
            doc.errors()
        );
        assert_eq!(doc.to_xml(), expected, "{input}");
        assert!(Document::parse(expected).is_well_formed());
    }
    // A balanced entity with markup stays a reference, without errors.
    let fine = "<!DOCTYPE r [<!ENTITY e '<b>x</b>'>]><r>&e;</r>";
    assert!(Document::parse(fine).errors().is_empty());
    assert_eq!(Document::parse(fine).to_xml(), fine);
}

/// Repairs are reported where `check` reports the problem: the issue's
/// example puts the forbidden reference at 2:7, not at the text's start.
#[test]
fn repairs_report_where_the_problem_is() {
    let doc = Document::parse("<a>hello\nworld &#1; x</a>");
    let out = doc.serialize(&Default::default());
    assert_eq!(out.text, "<a>hello\nworld \u{FFFD} x</a>");
    assert_eq!(out.repairs.len(), 1);
    let at = out.repairs[0].offset.unwrap();
    assert_eq!(doc.position(at), (2, 7));
    assert_eq!((doc.errors()[0].line, doc.errors()[0].column), (2, 7));
}

/// The W3C Canonical XML 1.0 example `inC14N4.xml` (§3.4, character
/// modifications and references): well-formed, four `&#13;`-like
/// references (warnings), written back byte for byte, its DTD kept.
#[test]
fn the_c14n_character_reference_example_comes_back_whole() {
    let input = r#"<!DOCTYPE doc [<!ATTLIST normId id ID #IMPLIED>
<!ATTLIST normNames attr NMTOKENS #IMPLIED>]>
<doc>
   <text>First line&#x0d;&#10;Second line</text>
   <value>&#x32;</value>
   <compute><![CDATA[value>"0" && value<"10" ?"valid":"error"]]></compute>
   <compute expr='value>"0" &amp;&amp; value&lt;"10" ?"valid":"error"'>valid</compute>
   <norm attr=' &apos;   &#x20;&#13;&#xa;&#9;   &apos; '/>
   <normNames attr='   A   &#x20;&#13;&#xa;&#9;   B   '/>
   <normId id=' &apos;   &#x20;&#13;&#xa;&#9;   &apos; '/>
</doc>"#;
    let doc = Document::parse(input);
    assert!(doc.is_well_formed(), "{:?}", doc.errors());
    assert_eq!(doc.errors().len(), 4);
    assert!(doc
        .errors()
        .iter()
        .all(|e| e.code == ErrorCode::ControlCharacterReference));
    let out = doc.serialize(&Default::default());
    assert_eq!(out.text, input);
    assert!(out.repairs.is_empty());
}

/// Edits on a repaired document: the edit and the local repairs, nothing
/// else.
#[test]
fn edits_on_a_repaired_document_stay_minimal() {
    let input = "<r  x = 'keep'>\n  <a id=1>Tom & Jerry</a>\n  <b   y=\"2\" >text</b>\n</r>";
    let mut doc = Document::parse(input);
    let b = doc
        .root_element()
        .unwrap()
        .child_elements()
        .nth(1)
        .unwrap()
        .id();
    doc.set_attribute(b, "y", "3").unwrap();
    assert_eq!(
        doc.to_xml(),
        "<r  x = 'keep'>\n  <a id=\"1\">Tom &amp; Jerry</a>\n  <b   y=\"3\" >text</b>\n</r>"
    );
}
