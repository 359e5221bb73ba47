//! Faithful output (issue 14): well-formed documents come back byte for
//! byte whatever xml5dom warns about, repairs stay where the input is
//! broken, and no character the tree holds is lost.
//!
//! Each case was worked out by hand from XML 1.0 (what is well-formed) and
//! docs/serialization.md (what each repair rule writes).

use pretty_assertions::assert_eq;
use xml5dom::{Document, ErrorCode, Severity};

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
