//! What a document refers to outside itself, read through the caller's
//! resolver (issue 35): external general entities in content, external
//! parameter entities, the external DTD subset with its conditional
//! sections; limits across files; and nothing read without a resolver.
//! The resolver here serves files from memory, so that what is asked for
//! is what the test says.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use xml5dom::events::{parse_with, Event};
use xml5dom::external::{ExternalKind, ExternalRequest, Refusal, Resolved, Resolver};
use xml5dom::{write_canonical, CanonicalForm, Document, ParseOptions};

/// Files by system id; every request is logged.
#[derive(Debug, Default)]
struct Memory {
    files: HashMap<&'static str, &'static str>,
    asked: Mutex<Vec<(ExternalKind, String, Option<String>)>>,
}

impl Memory {
    fn with(files: &[(&'static str, &'static str)]) -> Arc<Memory> {
        Arc::new(Memory {
            files: files.iter().copied().collect(),
            ..Memory::default()
        })
    }

    fn asked(&self) -> Vec<(ExternalKind, String, Option<String>)> {
        self.asked.lock().unwrap().clone()
    }
}

impl Resolver for Memory {
    fn resolve(&self, request: &ExternalRequest<'_>) -> Result<Resolved, Refusal> {
        self.asked.lock().unwrap().push((
            request.kind,
            request.system_id.to_owned(),
            request.base.map(str::to_owned),
        ));
        let text = self
            .files
            .get(request.system_id)
            .ok_or_else(|| Refusal::NotFound(request.system_id.into()))?;
        Ok(Resolved {
            uri: format!("mem:/{}", request.system_id),
            bytes: text.as_bytes().to_vec(),
        })
    }
}

fn options(resolver: &Arc<Memory>, load_dtd: bool) -> ParseOptions {
    let mut options = ParseOptions::default();
    options.external.resolver = Some(resolver.clone());
    options.external.load_dtd = load_dtd;
    options
}

fn codes(doc: &Document) -> Vec<&'static str> {
    doc.errors().iter().map(|e| e.code.as_str()).collect()
}

fn canonical(doc: &Document) -> String {
    let mut out = Vec::new();
    write_canonical(doc, CanonicalForm::XmlTest, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn an_external_general_entity_is_read_into_content_and_written_back_as_a_reference() {
    let files = Memory::with(&[(
        "ch1.xml",
        "<?xml encoding='UTF-8'?><p>One &amp; <b>two</b></p>",
    )]);
    let source = "<!DOCTYPE d [<!ENTITY ch1 SYSTEM 'ch1.xml'>]><d>&ch1;</d>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert_eq!(codes(&doc), Vec::<&str>::new());
    let d = doc.root_element().unwrap();
    assert_eq!(d.text_content(), "One & two");
    assert_eq!(d.first_element_child().unwrap().name(), "p");
    // Unedited: the reference, as written.
    assert_eq!(doc.to_xml(), source);
    assert_eq!(canonical(&doc), "<d><p>One &amp; <b>two</b></p></d>");
    assert_eq!(
        files.asked(),
        [(ExternalKind::GeneralEntity, "ch1.xml".into(), None)]
    );
}

#[test]
fn without_a_resolver_nothing_is_asked_and_the_reference_stays() {
    let source = "<!DOCTYPE d [<!ENTITY ch1 SYSTEM 'ch1.xml'>]><d>&ch1;</d>";
    let doc = Document::parse(source);
    assert_eq!(codes(&doc), ["external-entity-reference"]);
    assert_eq!(doc.root_element().unwrap().text_content(), "&ch1;");
}

#[test]
fn a_missing_file_is_a_warning_and_the_rest_goes_on() {
    let files = Memory::with(&[]);
    let source = "<!DOCTYPE d [<!ENTITY gone SYSTEM 'gone.xml'>]><d>a&gone;b</d>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert_eq!(codes(&doc), ["external-resource-unavailable"]);
    assert_eq!(doc.errors()[0].offset, source.find("&gone;").unwrap());
    assert!(doc.is_well_formed(), "a warning: {:?}", codes(&doc));
    assert_eq!(doc.root_element().unwrap().text_content(), "a&gone;b");
    // The warning names the file and says why.
    let said = doc.diagnostic(0).unwrap().to_string();
    assert!(
        said.ends_with("kept as written (\"gone.xml\": not found: gone.xml)"),
        "{said}"
    );
    // So for a parameter entity and the DTD.
    let source = "<!DOCTYPE d SYSTEM 'no.dtd' [<!ENTITY % p SYSTEM 'no.ent'>%p;]><d/>";
    let doc = Document::parse_with(source, &options(&files, true));
    let said: Vec<String> = doc.diagnostics().map(|d| d.to_string()).collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].contains("(\"no.ent\": not found: no.ent)"),
        "{said:?}"
    );
    assert!(
        said[1].contains("(\"no.dtd\": not found: no.dtd)"),
        "{said:?}"
    );
}

#[test]
fn an_external_parameter_entity_declares_entities_for_the_document() {
    // DocBook XSL's way: the entities come from a file the subset reads.
    let files = Memory::with(&[(
        "../common/entities.ent",
        "<!ENTITY primary 'normalize-space(concat(primary/@sortas, \" \"))'>\n<!ENTITY lowercase 'abc'>",
    )]);
    let source = "<!DOCTYPE xsl:stylesheet [\n<!ENTITY % common.entities SYSTEM '../common/entities.ent'>\n%common.entities;\n]>\n<x a='&lowercase;'>&primary;</x>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert!(
        !codes(&doc).contains(&"undeclared-entity"),
        "{:?}",
        codes(&doc)
    );
    assert!(
        !codes(&doc).contains(&"unread-parameter-entity"),
        "{:?}",
        codes(&doc)
    );
    let x = doc.root_element().unwrap();
    assert_eq!(x.attribute("a"), Some("abc"));
    assert_eq!(
        x.text_content(),
        "normalize-space(concat(primary/@sortas, \" \"))"
    );
    assert_eq!(doc.to_xml(), source);
    // Without the resolver: today's reading.
    let unread = Document::parse(source);
    assert!(codes(&unread).contains(&"unread-parameter-entity"));
    assert_eq!(unread.root_element().unwrap().text_content(), "&primary;");
}

#[test]
fn the_external_subset_gives_defaults_and_entities_when_asked_for() {
    let files = Memory::with(&[(
        "book.dtd",
        "<?xml version='1.0' encoding='UTF-8'?>\n<!ATTLIST chapter status CDATA 'draft'>\n<!ENTITY product 'xml5dom'>\n<!ENTITY % extra SYSTEM 'sub/extra.ent'>%extra;",
    ), ("sub/extra.ent", "<!ENTITY version '1.0'>")]);
    let source = "<!DOCTYPE book SYSTEM 'book.dtd' [<!ENTITY product 'internal wins'>]><book><chapter>&product; &version;</chapter></book>";
    let doc = Document::parse_with(source, &options(&files, true));
    assert_eq!(codes(&doc), Vec::<&str>::new());
    let chapter = doc.root_element().unwrap().first_element_child().unwrap();
    assert_eq!(chapter.attribute("status"), Some("draft"));
    assert_eq!(chapter.text_content(), "internal wins 1.0");
    assert_eq!(doc.to_xml(), source);
    // The parameter entity in the DTD is resolved from the DTD's URI.
    assert_eq!(
        files.asked(),
        [
            (ExternalKind::Dtd, "book.dtd".into(), None),
            (
                ExternalKind::ParameterEntity,
                "sub/extra.ent".into(),
                Some("mem:/book.dtd".into())
            ),
        ]
    );
    // `load_dtd` off: the DTD is not asked for.
    let files = Memory::with(&[]);
    let doc = Document::parse_with(source, &options(&files, false));
    assert_eq!(files.asked(), []);
    let chapter = doc.root_element().unwrap().first_element_child().unwrap();
    assert_eq!(chapter.attribute("status"), None);
}

#[test]
fn conditional_sections_in_external_text() {
    let files = Memory::with(&[(
        "c.dtd",
        "<!ENTITY % draft 'INCLUDE'><!ENTITY % final 'IGNORE'>\n<![%draft;[<!ENTITY state 'draft'>]]>\n<![%final;[<!ENTITY state 'final'> <![INCLUDE[ <!ENTITY x 'no'> ]]> ]]>\n<![ IGNORE [ <!ENTITY y 'no'> ]]><![INCLUDE[<![INCLUDE[<!ENTITY y 'yes'>]]>]]>",
    )]);
    let source = "<!DOCTYPE d SYSTEM 'c.dtd'><d>&state; &y;</d>";
    let doc = Document::parse_with(source, &options(&files, true));
    assert_eq!(codes(&doc), Vec::<&str>::new());
    assert_eq!(doc.root_element().unwrap().text_content(), "draft yes");
    // In the internal subset a conditional section stays an error.
    let doc = Document::parse("<!DOCTYPE d [<![INCLUDE[<!ENTITY a 'x'>]]>]><d/>");
    assert_eq!(codes(&doc), ["malformed-declaration"]);
}

#[test]
fn a_loop_between_files_is_an_error_and_stops() {
    let files = Memory::with(&[
        ("a.ent", "<!ENTITY % b SYSTEM 'b.ent'>%b;"),
        ("b.ent", "<!ENTITY % a SYSTEM 'a.ent'>%a;"),
    ]);
    let source = "<!DOCTYPE d [<!ENTITY % a SYSTEM 'a.ent'>%a;]><d/>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert!(
        codes(&doc).contains(&"recursive-entity-reference"),
        "{:?}",
        codes(&doc)
    );
    // General entities that include each other across files.
    let files = Memory::with(&[("x.xml", "<x>&y;</x>"), ("y.xml", "<y>&x;</y>")]);
    let source = "<!DOCTYPE d [<!ENTITY x SYSTEM 'x.xml'><!ENTITY y SYSTEM 'y.xml'>]><d>&x;</d>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert!(
        codes(&doc).contains(&"recursive-entity-reference"),
        "{:?}",
        codes(&doc)
    );
}

#[test]
fn a_billion_laughs_split_over_files_stops_at_the_budget() {
    let level = |n: usize| {
        let next = format!("&l{};", n - 1).repeat(10);
        format!("<!ENTITY l{n} '{next}'>")
    };
    let mut dtd = String::from("<!ENTITY l0 'ha'>");
    for n in 1..=4 {
        dtd.push_str(&level(n));
    }
    let deeper: String = (5..=9).map(level).collect();
    let files = Memory::with(&[
        ("one.ent", Box::leak(dtd.into_boxed_str())),
        ("two.ent", Box::leak(deeper.into_boxed_str())),
    ]);
    let source = "<!DOCTYPE d [<!ENTITY % one SYSTEM 'one.ent'>%one;<!ENTITY % two SYSTEM 'two.ent'>%two;]><d>&l9;</d>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert!(
        codes(&doc).contains(&"entity-expansion-limit"),
        "{:?}",
        codes(&doc)
    );
    assert!(doc.root_element().unwrap().text_content().len() < 2_000_000);
    assert!(!doc.is_well_formed());
}

#[test]
fn events_read_the_same_entities_as_the_document() {
    let files = Memory::with(&[
        ("ch1.xml", "<p>One</p>"),
        ("d.dtd", "<!ATTLIST p n CDATA '1'>"),
    ]);
    let source = "<!DOCTYPE d SYSTEM 'd.dtd' [<!ENTITY ch1 SYSTEM 'ch1.xml'>]><d>&ch1;</d>";
    let options = options(&files, true);
    let mut names = Vec::new();
    parse_with(source, &options, |event| {
        if let Event::StartElement(start) = event {
            let attributes: Vec<String> = start
                .attributes
                .iter()
                .map(|a| format!("{}={}", a.name.qualified, a.value))
                .collect();
            names.push(format!("{} {attributes:?}", start.name.qualified));
        }
    });
    assert_eq!(names, ["d []", "p [\"n=1\"]"]);
    let doc = Document::parse_with(source, &options);
    let p = doc.root_element().unwrap().first_element_child().unwrap();
    assert_eq!(p.attribute("n"), Some("1"));
}

#[test]
fn parameter_entities_between_the_tokens_of_a_declaration_in_external_text() {
    let files = Memory::with(&[(
        "p.dtd",
        "<!ENTITY % value \"'v1'\">\n<!ENTITY % e1 'do'><!ENTITY % e2 'c'><!ENTITY % name '%e1;%e2;'>\n<!ATTLIST %name; a1 CDATA %value;>\n<!ENTITY % open 'INCLUDE['>\n<![ %open; <!ATTLIST doc a2 CDATA 'v2'> ]]>",
    )]);
    let doc = Document::parse_with(
        "<!DOCTYPE doc SYSTEM 'p.dtd'><doc/>",
        &options(&files, true),
    );
    assert_eq!(codes(&doc), Vec::<&str>::new());
    let root = doc.root_element().unwrap();
    assert_eq!(
        (root.attribute("a1"), root.attribute("a2")),
        (Some("v1"), Some("v2"))
    );
    // In the internal subset the same declaration is malformed.
    let source = "<!DOCTYPE doc [<!ENTITY % value \"'v1'\"><!ATTLIST doc a1 CDATA %value;>]><doc/>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert_eq!(codes(&doc), ["malformed-declaration"]);
    assert_eq!(doc.root_element().unwrap().attribute("a1"), None);
}

#[test]
fn a_byte_order_mark_goes_with_decoding_and_a_second_one_is_a_character() {
    let files = Memory::with(&[("bom.xml", "\u{FEFF}\u{FEFF}<f/>")]);
    let source = "<!DOCTYPE root [<!ENTITY e SYSTEM 'bom.xml'>]><root>&e;</root>";
    let doc = Document::parse_with(source, &options(&files, false));
    assert_eq!(canonical(&doc), "<root>\u{FEFF}<f></f></root>");
}

#[test]
fn files_read_are_input_a_large_dtd_is_no_expansion_and_the_input_limit_holds() {
    // A publishing DTD can be megabytes of declarations for a small
    // document: read, it is input, not expansion.
    let mut dtd = String::new();
    for n in 0..40_000 {
        dtd.push_str(&format!("<!ENTITY e{n} 'entity number {n}'>\n"));
    }
    let big: &'static str = Box::leak(dtd.into_boxed_str());
    assert!(big.len() > 1 << 20);
    let files = Memory::with(&[("big.dtd", big)]);
    let source = "<!DOCTYPE d SYSTEM 'big.dtd'><d>&e39999;</d>";
    let doc = Document::parse_with(source, &options(&files, true));
    assert_eq!(codes(&doc), Vec::<&str>::new());
    assert_eq!(
        doc.root_element().unwrap().text_content(),
        "entity number 39999"
    );
    // Within the input-size limit, the document and its files together.
    let mut limited = options(&files, true);
    limited.limits.max_input_bytes = 1 << 20;
    let doc = Document::parse_with(source, &limited);
    assert!(
        codes(&doc).contains(&"input-size-limit"),
        "{:?}",
        codes(&doc)
    );
    assert!(!doc.is_well_formed());
}

#[test]
fn an_error_inside_a_file_read_names_the_file_line_and_column() {
    let files = Memory::with(&[
        ("decls.ent", "<!ENTITY ok 'fine'>\n\n   <!ENTITY broken>\n"),
        ("chapter.xml", "<p>one</p>\n<p>two &amp three</p>"),
        (
            "book.dtd",
            "<!ATTLIST p n CDATA '1'>\n<!ELEMENT p (#PCDATA>",
        ),
    ]);
    let source = "<!DOCTYPE d SYSTEM 'book.dtd' [<!ENTITY % e SYSTEM 'decls.ent'>%e;<!ENTITY ch SYSTEM 'chapter.xml'>]>\n<d>&ok; &ch;</d>";
    let doc = Document::parse_with(source, &options(&files, true));
    let said: Vec<String> = doc.diagnostics().map(|d| d.to_string()).collect();
    let at = |needle: &str| {
        let offset = source.find(needle).unwrap();
        (1 + source[..offset].matches('\n').count(), offset)
    };
    let (_, percent) = at("%e;");
    let (_, amp) = at("&ch;");
    assert_eq!(doc.errors().len(), 3, "{said:?}");
    // The parameter entity's error at its reference, in decls.ent line 3.
    assert_eq!(doc.errors()[0].offset, percent);
    assert!(
        said[0].ends_with("(in mem:/decls.ent, line 3, column 4)"),
        "{said:?}"
    );
    // The DTD's at the end of the internal subset, in book.dtd line 2.
    assert!(
        said[1].ends_with("(in mem:/book.dtd, line 2, column 1)"),
        "{said:?}"
    );
    // The entity's at its reference, in chapter.xml line 2.
    assert_eq!(doc.errors()[2].offset, amp);
    assert!(
        said[2].contains("mem:/chapter.xml, line 2, column 8"),
        "{said:?}"
    );
}
