//! XML 1.1 documents (`<?xml version="1.1"?>`): what changes from 1.0, and
//! that nothing changes for 1.0 documents.
//!
//! XML 1.1 §2.11: NEL (U+0085), CR NEL and LINE SEPARATOR (U+2028) end
//! lines as CR LF and CR do. §2.2: the C0 controls may be written as
//! references, and the C1 controls other than NEL only as references.
//! Namespaces 1.1 §5: `xmlns:p=""` undeclares `p`. The W3C suite's
//! canonical form of a 1.1 document starts with `<?xml version="1.1"?>` and
//! writes those controls as references (`tests/xmlconf.rs` holds the
//! suite's own cases).

use pretty_assertions::assert_eq;
use xml5dom::events::{self, Event};
use xml5dom::{canonicalize, CanonicalForm, Document, ErrorCode};

const V11: &str = "<?xml version=\"1.1\"?>";
const V10: &str = "<?xml version=\"1.0\"?>";

fn codes(doc: &Document) -> Vec<ErrorCode> {
    doc.errors().iter().map(|e| e.code).collect()
}

fn root_text(doc: &Document) -> String {
    doc.root_element().expect("a root element").text_content()
}

#[test]
fn nel_and_line_separator_end_lines_in_text() {
    for (written, read) in [
        ("a\u{85}b", "a\nb"),
        ("a\r\u{85}b", "a\nb"),
        ("a\u{2028}b", "a\nb"),
        ("a\r\u{2028}b", "a\n\nb"),
        ("a\r\nb\rc\u{85}\u{85}d", "a\nb\nc\n\nd"),
        // Other characters with the same lead bytes are left alone.
        (
            "\u{a0}\u{a9}\u{2014}\u{2029}",
            "\u{a0}\u{a9}\u{2014}\u{2029}",
        ),
    ] {
        let doc = Document::parse(&format!("{V11}<r>{written}</r>"));
        assert_eq!(root_text(&doc), read, "{written:?}");
        assert_eq!(codes(&doc), [], "{written:?}");
        // In XML 1.0 they are characters like any other.
        let doc = Document::parse(&format!("{V10}<r>{written}</r>"));
        let crlf_only = written.replace("\r\n", "\n").replace('\r', "\n");
        assert_eq!(root_text(&doc), crlf_only, "{written:?}");
    }
}

#[test]
fn line_ends_in_cdata_comments_and_attribute_values() {
    let doc = Document::parse(&format!(
        "{V11}<r a='x\u{85}y' b=\"x\u{2028}y\"><![CDATA[p\u{85}q]]><!--c\u{2028}d--></r>"
    ));
    let root = doc.root_element().unwrap();
    // A line end in an attribute value is a space once normalized (§3.3.3).
    assert_eq!(root.attribute("a"), Some("x y"));
    assert_eq!(root.attribute("b"), Some("x y"));
    let children: Vec<_> = root.children().collect();
    assert_eq!(children[0].text(), Some("p\nq"));
    assert_eq!(children[1].text(), Some("c\nd"));
    assert_eq!(codes(&doc), []);
}

#[test]
fn a_nel_in_a_tag_is_whitespace() {
    let doc = Document::parse(&format!("{V11}<r\u{85}a='1'\u{2028}b='2'\u{85}/>"));
    let root = doc.root_element().unwrap();
    assert_eq!(root.attribute("a"), Some("1"));
    assert_eq!(root.attribute("b"), Some("2"));
    assert_eq!(codes(&doc), []);
}

#[test]
fn an_unedited_document_comes_back_byte_for_byte() {
    for text in [
        format!("{V11}\u{85}<r a='x\u{85}y'>a\r\u{85}b\u{2028}<![CDATA[\u{85}]]></r>\u{85}"),
        format!("{V11}<r>&#x1;&#x85;&#x9F;\u{2028}</r>"),
        format!("{V10}<r>\u{85}\u{2028}</r>"),
    ] {
        let doc = Document::parse(&text);
        assert_eq!(doc.to_xml(), text);
    }
}

#[test]
fn controls_by_reference() {
    // XML 1.1: C0 and C1 controls may be referred to, and give themselves.
    let doc = Document::parse(&format!("{V11}<r>&#x1;&#x1F;&#x7F;&#x80;&#x85;&#x9F;</r>"));
    assert_eq!(root_text(&doc), "\u{1}\u{1f}\u{7f}\u{80}\u{85}\u{9f}");
    assert_eq!(codes(&doc), []);
    let doc = Document::parse(&format!("{V11}<r a='&#x2;&#x8c;'/>"));
    assert_eq!(
        doc.root_element().unwrap().attribute("a"),
        Some("\u{2}\u{8c}")
    );
    assert_eq!(codes(&doc), []);
    // NUL is never a character.
    let doc = Document::parse(&format!("{V11}<r>&#0;</r>"));
    assert_eq!(codes(&doc), [ErrorCode::NullCharacterReference]);

    // XML 1.0: a C0 control is not allowed even as a reference, and
    // `&#x80;`-`&#x9F;` follow the suite (windows-1252; docs/conformance.md).
    let doc = Document::parse(&format!("{V10}<r>&#x1;</r>"));
    assert_eq!(codes(&doc), [ErrorCode::IllegalCharacterReference]);
    let doc = Document::parse(&format!("{V10}<r>&#x8c;</r>"));
    assert_eq!(root_text(&doc), "\u{152}");
    // Without a declaration a document is XML 1.0.
    let doc = Document::parse("<r>&#x1;</r>");
    assert_eq!(codes(&doc), [ErrorCode::IllegalCharacterReference]);
}

#[test]
fn c1_controls_are_references_only_in_xml11() {
    let doc = Document::parse(&format!("{V11}<r>a\u{80}b\u{9f}c\u{7f}</r>"));
    assert_eq!(root_text(&doc), "a\u{80}b\u{9f}c\u{7f}");
    assert_eq!(
        codes(&doc),
        [ErrorCode::ControlCharacterInInputStream; 3],
        "each is reported, and kept"
    );
    // XML 1.0 allows them (DEL is discouraged: a warning).
    let doc = Document::parse(&format!("{V10}<r>a\u{80}b\u{9f}</r>"));
    assert_eq!(codes(&doc), []);
}

#[test]
fn only_the_documents_own_declaration_says_1_1() {
    // A declaration that is not at the start is a misplaced PI-like thing.
    let doc = Document::parse(&format!(" {V11}<r>a\u{85}b</r>"));
    assert_eq!(root_text(&doc), "a\u{85}b");
    // After a byte-order mark it is the document's.
    let doc = Document::parse_bytes(format!("\u{feff}{V11}<r>a\u{85}b</r>").as_bytes());
    assert_eq!(root_text(&doc), "a\nb");
}

#[test]
fn undeclaring_a_prefix_is_namespaces_1_1() {
    let input = "<a xmlns:p='u'><b xmlns:p=''/></a>";
    let doc = Document::parse(&format!("{V11}{input}"));
    assert_eq!(codes(&doc), []);
    let doc = Document::parse(&format!("{V10}{input}"));
    assert_eq!(codes(&doc), [ErrorCode::PrefixUndeclared]);
    // Undeclared, the prefix is unbound in 1.1 too.
    let doc = Document::parse(&format!("{V11}<a xmlns:p='u'><b xmlns:p=''><p:c/></b></a>"));
    assert_eq!(codes(&doc), [ErrorCode::UnboundNamespacePrefix]);
}

#[test]
fn the_xmltest_form_of_an_xml11_document() {
    let doc = Document::parse(&format!(
        "{V11}<r b='x&#x85;y' a='1'>&#xC;&#133;\u{85}&#x1F;\u{e9}</r>"
    ));
    assert_eq!(
        canonicalize(&doc, CanonicalForm::XmlTest),
        "<?xml version=\"1.1\"?><r a=\"1\" b=\"x&#133;y\">&#12;&#133;&#10;&#31;\u{e9}</r>"
    );
    // The same from a stream.
    let mut out = Vec::new();
    events::write_canonical_reader(doc.source().as_bytes(), CanonicalForm::XmlTest, &mut out)
        .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        canonicalize(&doc, CanonicalForm::XmlTest)
    );
    // XML 1.0 documents have no such line, and their C1 characters are
    // written as they are.
    let doc = Document::parse(&format!("{V10}<r>\u{85}</r>"));
    assert_eq!(canonicalize(&doc, CanonicalForm::XmlTest), "<r>\u{85}</r>");
}

#[test]
fn line_ends_split_across_chunks() {
    // CR at the end of one piece and NEL at the start of the next are one
    // line end; events read in pieces of every size agree with the DOM.
    let text = format!("{V11}<r a='1\r\u{85}2'>x\r\u{85}y\u{2028}z\r</r>");
    let doc = Document::parse(&text);
    assert_eq!(root_text(&doc), "x\ny\nz\n");
    for size in 1..8 {
        let mut reader = events::Reader::new(Chunks(text.as_bytes(), size));
        let mut texts = String::new();
        let mut value = None;
        while let Some(event) = reader.next_event().unwrap() {
            match event {
                Event::Text { text, .. } => texts.push_str(text),
                Event::StartElement(start) => {
                    value = start.attributes.iter().next().map(|a| a.value.to_string());
                }
                _ => {}
            }
        }
        assert_eq!(texts, "x\ny\nz\n", "pieces of {size}");
        assert_eq!(value.as_deref(), Some("1 2"), "pieces of {size}");
    }
}

/// Gives its bytes `size` at a time.
struct Chunks<'a>(&'a [u8], usize);

impl std::io::Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn the_internal_subset_of_an_xml11_document() {
    // Line ends in an entity's literal value are normalized; a reference to
    // NEL is not a line end; controls may be referred to.
    let doc = Document::parse(&format!(
        "{V11}<!DOCTYPE r [<!ENTITY e \"a\u{85}b\r\u{85}c\u{2028}d&#x85;&#x1;\"><!ATTLIST r x CDATA \"1\u{85}2\">]><r>&e;</r>"
    ));
    assert_eq!(root_text(&doc), "a\nb\nc\nd\u{85}\u{1}");
    assert_eq!(doc.root_element().unwrap().attribute("x"), Some("1 2"));
    assert_eq!(codes(&doc), []);
    // In XML 1.0 the same characters are data, and `&#x1;` is not allowed.
    let doc = Document::parse(&format!(
        "{V10}<!DOCTYPE r [<!ENTITY e \"a\u{85}b\">]><r>&e;</r>"
    ));
    assert_eq!(root_text(&doc), "a\u{85}b");
    let doc = Document::parse(&format!(
        "{V10}<!DOCTYPE r [<!ENTITY e \"&#x1;\">]><r>&e;</r>"
    ));
    assert!(codes(&doc).contains(&ErrorCode::MalformedDeclaration));
}

/// What an edit or a copy writes anew in an XML 1.1 document follows 1.1's
/// rules: DEL, the C1 controls, NEL and LINE SEPARATOR (and the C0
/// controls a reference gave) are written as references, so the output
/// reads back to the same text, and a comment or PI, which reads no
/// references, refuses them.
#[test]
fn text_written_anew_in_an_xml11_document_reads_back() {
    let text = "a\u{7F}b\u{85}c\u{2028}d\u{9F}e";
    let mut doc = Document::parse(&format!("{V11}<r><s>&#x1;</s><t/></r>"));
    let r = doc.root_element().unwrap().id();
    let t = doc.create_text(text);
    doc.append(r, t).unwrap();
    let s = doc.root_element().unwrap().first_child().unwrap().id();
    let copy = doc.deep_copy(s).unwrap();
    doc.append(r, copy).unwrap();
    let t_element = doc.node(r).unwrap().children().nth(1).unwrap().id();
    doc.set_attribute(t_element, "v", text).unwrap();
    let out = doc.to_xml();
    assert_eq!(
        out,
        format!(
            "{V11}<r><s>&#x1;</s><t v=\"a&#127;b&#133;c&#8232;d&#159;e\"/>a&#127;b&#133;c&#8232;d&#159;e<s>&#1;</s></r>"
        )
    );
    let again = Document::parse(&out);
    assert_eq!(codes(&again), []);
    let root = again.root_element().unwrap();
    assert_eq!(root.text_content(), format!("\u{1}{text}\u{1}"));
    assert_eq!(root.children().nth(1).unwrap().attribute("v"), Some(text));

    let c = doc.create_comment("x\u{85}y");
    assert!(doc.append(r, c).is_err(), "NEL would end a line");
    let pi = doc.create_processing_instruction("p", "\u{80}");
    assert!(doc.append(r, pi).is_err());
    // In XML 1.0 they are characters like any other.
    let mut doc = Document::parse(&format!("{V10}<r/>"));
    let r = doc.root_element().unwrap().id();
    let c = doc.create_comment("x\u{85}y\u{80}");
    doc.append(r, c).unwrap();
    let t = doc.create_text(text);
    doc.append(r, t).unwrap();
    assert_eq!(
        doc.to_xml(),
        format!("{V10}<r><!--x\u{85}y\u{80}-->{text}</r>")
    );
}

/// An element of an XML 1.1 document written alone starts with
/// `<?xml version="1.1"?>`: its NEL ends a line and its references to
/// controls are allowed only so, and without the declaration it would read
/// back otherwise (or not at all).
#[test]
fn an_element_of_an_xml11_document_written_alone_says_so() {
    let doc = Document::parse(&format!("{V11}<r><s a='x\u{85}y'>a\u{85}b&#x1;</s></r>"));
    let s = doc.root_element().unwrap().first_child().unwrap();
    let alone = s.to_xml();
    assert_eq!(alone, format!("{V11}<s a='x\u{85}y'>a\u{85}b&#x1;</s>"));
    let again = Document::parse(&alone);
    assert_eq!(codes(&again), []);
    let read = again.root_element().unwrap();
    assert_eq!(read.text_content(), s.text_content());
    assert_eq!(read.attribute("a"), s.attribute("a"));
    let mut out = Vec::new();
    s.write_xml(&mut out).unwrap();
    assert_eq!(out, alone.as_bytes());
    // A 1.0 document's element has none.
    let doc = Document::parse(&format!("{V10}<r><s/></r>"));
    let s = doc.root_element().unwrap().first_child().unwrap();
    assert_eq!(s.to_xml(), "<s/>");
}
