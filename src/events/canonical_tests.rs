//! The streaming canonical writer writes, in every form, the bytes the DOM
//! writer writes for the document of the same input: on every tree case of
//! the suites, every document of the corpus, damaged copies of the corpus,
//! and hand-written inputs aimed at what the forms do (namespace scope,
//! defaults, expansions, top-level markup, escaping, depth). Input comes in
//! random pieces, so tokens and characters are cut anywhere.

use std::cell::Cell;
use std::io::{self, Read, Write};
use std::path::Path;
use std::rc::Rc;

use super::super::replay_tests::Chunked;
use super::{write_canonical_reader, write_canonical_reader_with, CanonicalWriter, NamespaceScope};
use crate::decoding::ParseOptions;
use crate::dom::Document;
use crate::error::Error;
use crate::serializer::canonical::{write_canonical, CanonicalForm};
use crate::serializer::InclusiveNamespaces;
use crate::test_inputs::{files, tree_case_inputs};

const FORMS: [CanonicalForm; 4] = [
    CanonicalForm::C14n,
    CanonicalForm::C14nWithComments,
    CanonicalForm::XmlTest,
    CanonicalForm::XmlTestSecond,
];

/// What the DOM writer writes for the document of `bytes`.
fn from_document(bytes: &[u8], options: &ParseOptions, form: CanonicalForm) -> Vec<u8> {
    let doc = Document::parse_bytes_with(bytes, options);
    let mut out = Vec::new();
    write_canonical(&doc, form, &mut out).expect("writing to a Vec");
    out
}

/// What the streaming writer writes for what `reader` gives.
fn streamed(reader: impl Read, options: &ParseOptions, form: CanonicalForm) -> Vec<u8> {
    let mut out = Vec::new();
    write_canonical_reader_with(
        reader,
        options,
        form,
        &InclusiveNamespaces::default(),
        &mut out,
    )
    .expect("reading a slice");
    out
}

/// Fails with where the two outputs first differ, and a little around it
/// (the outputs of corpus files are too long to show whole).
fn assert_same(expected: &[u8], got: &[u8], what: &str) {
    if expected == got {
        return;
    }
    let at = expected
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(got.len()));
    let around = |bytes: &[u8]| {
        let start = at.saturating_sub(60);
        let end = (at + 60).min(bytes.len());
        String::from_utf8_lossy(&bytes[start.min(end)..end]).into_owned()
    };
    panic!(
        "{what}: outputs differ at byte {at} (lengths {} and {}):\n DOM:       {:?}\n streamed:  {:?}",
        expected.len(),
        got.len(),
        around(expected),
        around(got),
    );
}

/// Checks all three forms for `bytes`, read in random pieces (`seed`) and
/// in the reader's own pieces; returns the DOM writer's outputs.
fn check(bytes: &[u8], options: &ParseOptions, seed: u64, what: &str) -> [Vec<u8>; FORMS.len()] {
    FORMS.map(|form| {
        let expected = from_document(bytes, options, form);
        let pieces = streamed(Chunked::new(bytes, seed), options, form);
        assert_same(&expected, &pieces, &format!("{what} ({form:?}, in pieces)"));
        let whole = streamed(bytes, options, form);
        assert_same(&expected, &whole, &format!("{what} ({form:?}, whole)"));
        expected
    })
}

fn check_str(text: &str, what: &str) -> [String; FORMS.len()] {
    check(
        text.as_bytes(),
        &ParseOptions::default(),
        text.len() as u64,
        what,
    )
    .map(|out| String::from_utf8(out).expect("canonical output is UTF-8"))
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"),
        &mut paths,
    );
    paths.sort();
    paths
}

#[test]
fn streamed_canonical_forms_of_every_tree_case() {
    for (case, (path, input)) in tree_case_inputs().into_iter().enumerate() {
        let what = format!("{} case {input:?}", path.display());
        check(
            input.as_bytes(),
            &ParseOptions::default(),
            case as u64,
            &what,
        );
    }
}

#[test]
fn streamed_canonical_forms_of_every_corpus_file() {
    let mut documents = 0;
    for path in corpus_files() {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        check(
            &bytes,
            &ParseOptions::default(),
            bytes.len() as u64,
            &path.display().to_string(),
        );
        documents += 1;
    }
    assert!(documents > 300, "only {documents} corpus documents found");
}

/// Damaged copies of the corpus files' bytes (so the other encodings are
/// damaged too, and bytes no encoding reads come in): runs deleted, markup
/// characters, CR, stray bytes and spaces put in, the end cut off, at
/// places a fixed-seed generator chooses.
#[test]
fn streamed_canonical_forms_of_damaged_corpus_files() {
    let mut state: u64 = 0xCA40_0019;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let mut damaged = 0;
    for path in corpus_files() {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let bytes = &bytes[..bytes.len().min(20_000)];
        if bytes.is_empty() {
            continue;
        }
        for copy_number in 0..3 {
            let mut copy = bytes.to_vec();
            for _ in 0..1 + below(6) {
                let at = below(copy.len());
                match below(5) {
                    0 => {
                        let end = (at + 1 + below(20)).min(copy.len());
                        copy.drain(at..end);
                    }
                    1 => copy.insert(at, b"<&>\"/]\r\xFF"[below(8)]),
                    2 => copy.truncate(at),
                    3 => {
                        let markup: [&[u8]; 4] = [b" xmlns='u'", b"<!--", b"<?", b"</"];
                        copy.splice(at..at, markup[below(4)].iter().copied());
                    }
                    _ => copy.insert(at, b' '),
                };
                if copy.is_empty() {
                    break;
                }
            }
            let what = format!("{} (damaged copy {copy_number})", path.display());
            check(&copy, &ParseOptions::default(), damaged, &what);
            damaged += 1;
        }
    }
    assert!(damaged > 900, "only {damaged} damaged documents");
}

/// Inputs aimed at each thing the forms do; the expected outputs of a few
/// are spelled out, so that a writer and DOM that agreed on something
/// wrong would still be caught.
const HAND_WRITTEN: &[&str] = &[
    // Declarations at several depths: repeated (not written again),
    // changed, undeclared with `xmlns=""`, and on empty elements whose
    // siblings must not inherit them.
    "<r xmlns='urn:d' xmlns:p='urn:p'>\
       <p:a xmlns:p='urn:p' xmlns:q='urn:q' q:z='0' p:y='1' y='2'>\
         <b xmlns=''><c xmlns='urn:d'/><d xmlns:p='urn:p2' p:x='1' q:x='2' x='3'/>\
           <e xmlns=''/></b>\
       </p:a><f xmlns='urn:d'/><p:g xmlns:p='urn:p3'/><p:h/></r>",
    // `xmlns=""` with no default to undeclare; `xmlns:p=""` (1.1).
    "<r xmlns=''><a xmlns:p='urn:p'><b xmlns:p=''><c xmlns:p='urn:p'/></b></a></r>",
    // The `xml` prefix, declared and used.
    "<r xmlns:xml='http://www.w3.org/XML/1998/namespace' xml:lang='en' xml:space='preserve'/>",
    // Forbidden declarations are plain attributes.
    "<r xmlns:xmlns='urn:x' xmlns:xml='urn:wrong' xmlns:p='http://www.w3.org/2000/xmlns/'/>",
    // Unbound prefixes sort as written.
    "<r p:b='1' a='2' q:a='3' xmlns:z='urn:a' z:a='4'/>",
    // Defaults from an ATTLIST, declarations among them.
    "<!DOCTYPE r [<!ATTLIST r xmlns:p CDATA 'urn:p' a CDATA 'd' b CDATA #IMPLIED>\
       <!ATTLIST e xmlns CDATA 'urn:e' t NMTOKENS ' x  y '>]>\
     <r b='1'><e/><e xmlns='urn:e'/><p:x><e t='z'/></p:x></r>",
    // Expansions with markup: in content, at the document level, nested,
    // unbalanced, undeclared.
    "<!DOCTYPE r [<!ENTITY e '<b xmlns=\"urn:b\" a=\"&#9;\">x<?pi d?><!--c--></b>'>\
       <!ENTITY top '<?tp?><!--tc-->'><!ENTITY f '<c>'><!ENTITY g '&e;&e;'>]>\
     &top;<r>a&e;&g;b&f;c</c>&undeclared;</r>&top;",
    // PIs and comments before and after the root element, a misplaced XML
    // declaration, whitespace around.
    "<?xml version='1.0'?>\n<?a?><!--b-->\n<?c d ?>\n<r><?in?><!--in--></r>\n<?e?>\n<!--f-->\n<?xml version='1.0'?>",
    // CDATA sections, with what each form escapes.
    "<r><![CDATA[<&>\"'\r\n\t]]]><![CDATA[]]>x]]&gt;</r>",
    // CR, LF and tab in attribute values and text, literal and referenced.
    "<r a='x\ty\nz\r\nw\rv' b=\"&#9;&#10;&#13;&#x20;&#xD;&#xA;\" c='\"&apos;&lt;>&amp;'>t\r\nu\rv&#13;&#9;&#10;\"'&gt;</r>",
    // Text and PIs with nothing in them.
    "<?p?><r><?q?></r><?x    ?>",
    // No root element.
    "<?pi?><!--c-->",
    "",
    "text only",
    "<!DOCTYPE r>",
    // Damage: duplicates, unquoted, unclosed; stray and misplaced markup;
    // elements after the root.
    "<a><b x='1' x='2' y=z><c>text<!-- c",
    "</x><!DOCTYPE a><a></b><!DOCTYPE b></a><c/> text\n <?pi?><!--after-->",
    "<a xmlns:p='urn:p'><p:b></a><p:c/>",
    "<a:b:c x:y:z='1'/><d:/><:e/>",
];

#[test]
fn streamed_canonical_forms_of_hand_written_cases() {
    for (n, input) in HAND_WRITTEN.iter().enumerate() {
        check_str(input, &format!("hand-written case {n}"));
    }
    let mut limited = ParseOptions::default();
    limited.limits.max_element_depth = Some(2);
    limited.limits.max_attributes = 2;
    limited.limits.max_name_length = 3;
    limited.limits.max_input_bytes = 60;
    for (n, input) in HAND_WRITTEN.iter().enumerate() {
        check(
            input.as_bytes(),
            &limited,
            n as u64,
            &format!("hand-written case {n}, small limits"),
        );
    }
}

#[test]
fn streamed_canonical_forms_spelled_out() {
    let [c14n, with_comments, xmltest, ..] = check_str(HAND_WRITTEN[0], "namespaces");
    assert_eq!(
        c14n,
        "<r xmlns=\"urn:d\" xmlns:p=\"urn:p\">\
         <p:a xmlns:q=\"urn:q\" y=\"2\" p:y=\"1\" q:z=\"0\">\
         <b xmlns=\"\"><c xmlns=\"urn:d\"></c><d xmlns:p=\"urn:p2\" x=\"3\" p:x=\"1\" q:x=\"2\"></d>\
         <e></e></b>\
         </p:a><f></f><p:g xmlns:p=\"urn:p3\"></p:g><p:h></p:h></r>"
    );
    assert_eq!(with_comments, c14n);
    assert_eq!(
        xmltest,
        "<r xmlns=\"urn:d\" xmlns:p=\"urn:p\">\
         <p:a p:y=\"1\" q:z=\"0\" xmlns:p=\"urn:p\" xmlns:q=\"urn:q\" y=\"2\">\
         <b xmlns=\"\"><c xmlns=\"urn:d\"></c><d p:x=\"1\" q:x=\"2\" x=\"3\" xmlns:p=\"urn:p2\"></d>\
         <e xmlns=\"\"></e></b>\
         </p:a><f xmlns=\"urn:d\"></f><p:g xmlns:p=\"urn:p3\"></p:g><p:h></p:h></r>"
    );

    let [c14n, with_comments, xmltest, ..] = check_str(HAND_WRITTEN[7], "top-level markup");
    assert_eq!(
        c14n,
        "<?a?>\n<?c d ?>\n<r><?in?></r>\n<?e?>\n<?xml version='1.0'?>"
    );
    assert_eq!(
        with_comments,
        "<?a?>\n<!--b-->\n<?c d ?>\n<r><?in?><!--in--></r>\n<?e?>\n<!--f-->\n<?xml version='1.0'?>"
    );
    assert_eq!(
        xmltest,
        "<?a ?><?c d ?><r><?in ?></r><?e ?><?xml version='1.0'?>"
    );

    let [c14n, _, xmltest, ..] = check_str(HAND_WRITTEN[9], "whitespace escapes");
    assert_eq!(
        c14n,
        "<r a=\"x y z w v\" b=\"&#x9;&#xA;&#xD; &#xD;&#xA;\" c=\"&quot;'&lt;>&amp;\">\
         t\nu\nv&#xD;\t\n\"'&gt;</r>"
    );
    assert_eq!(
        xmltest,
        "<r a=\"x y z w v\" b=\"&#9;&#10;&#13; &#13;&#10;\" c=\"&quot;'&lt;&gt;&amp;\">\
         t&#10;u&#10;v&#13;&#9;&#10;&quot;'&gt;</r>"
    );

    // The `&#9;` is a tab in the replacement text, a space once the
    // attribute value is normalized.
    let [_, with_comments, ..] = check_str(HAND_WRITTEN[6], "expansions");
    let b = "<b xmlns=\"urn:b\" a=\" \">x<?pi d?><!--c--></b>";
    assert_eq!(
        with_comments,
        format!("<?tp?>\n<!--tc-->\n<r>a{b}{b}{b}b<c>c</c>&amp;undeclared;</r>\n<?tp?>\n<!--tc-->")
    );
}

/// Other encodings, sniffed from a byte-order mark, declared, or given in
/// the options, and bytes no encoding reads.
#[test]
fn streamed_canonical_forms_of_other_encodings() {
    let utf16: Vec<u8> = "\u{feff}<r a='\u{e9}'>\u{1F600}<?p \u{e8}?></r>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    check(&utf16, &ParseOptions::default(), 3, "UTF-16LE");
    let latin1 = b"<?xml version='1.0' encoding='iso-8859-1'?><r a='\xe9'>caf\xe9</r>";
    check(latin1, &ParseOptions::default(), 5, "Latin-1, declared");
    let options = ParseOptions::default()
        .encoding_label("windows-1252")
        .expect("a known label");
    check(b"<r>\x80\x93</r>", &options, 7, "windows-1252, given");
    check(
        b"<r a='\xff\xfe'>\xc3(\xe2\x82</r>\xf0",
        &ParseOptions::default(),
        9,
        "bad UTF-8",
    );
}

/// 10,000 elements deep, declarations and text at several depths; the
/// writer's state is empty again at the end.
#[test]
fn streamed_canonical_forms_of_deep_nesting() {
    let depth = 10_000;
    let mut input = String::from("<?top?><r xmlns='urn:0'>");
    for level in 1..depth {
        match level % 4 {
            0 => input.push_str(&format!(
                "<e xmlns:p{}='urn:{level}' a='{level}'>",
                level % 7
            )),
            1 => input.push_str("<p1:e xmlns=''>t\r"),
            2 => input.push_str(&format!("<e xmlns='urn:{}'>", level % 3)),
            _ => input.push_str("<e><!--c-->"),
        }
    }
    for level in (1..depth).rev() {
        input.push_str(if level % 4 == 1 { "</p1:e>" } else { "</e>" });
    }
    input.push_str("</r><!--end-->");
    let [c14n, ..] = check_str(&input, "deep nesting");
    assert_eq!(
        c14n.matches("</e>").count() + c14n.matches("</p1:e>").count(),
        depth - 1
    );

    // Unclosed: the end of input closes all of them.
    let cut = &input[..input.len() / 2];
    check_str(cut, "deep nesting, unclosed");

    let mut out = Vec::new();
    let writer = CanonicalWriter::new(CanonicalForm::C14n, &mut out);
    let mut stream = super::Stream::new(writer, &ParseOptions::default(), false);
    stream.feed_bytes(input.as_bytes());
    let writer = stream.finish();
    assert_eq!(writer.depth, 0);
    assert!(writer.scope.is_empty());
}

/// A prefix no longer in scope is forgotten: siblings that each declare
/// their own leave nothing behind.
#[test]
fn namespace_scope_forgets_prefixes_out_of_scope() {
    let mut scope = NamespaceScope::default();
    scope.open();
    scope.bind(None, "urn:d");
    for n in 0..1000 {
        scope.open();
        let prefix = format!("p{n}");
        assert_eq!(scope.get(Some(&prefix)), "");
        scope.bind(Some(&prefix), "urn:p");
        scope.bind(None, "");
        assert_eq!(scope.get(Some(&prefix)), "urn:p");
        assert_eq!(scope.get(None), "");
        scope.close();
        assert_eq!(scope.prefixes(), 1, "the default namespace's alone");
        assert_eq!(scope.get(None), "urn:d");
    }
    scope.close();
    assert!(scope.is_empty());
    // Closing more than was opened undoes everything, and no more.
    scope.close();
    assert_eq!(scope.get(None), "");
}

/// Input made as it is read: a root element, then records (never closed),
/// `total` bytes in all; `made` counts what has been read so far.
struct Records {
    made: Rc<Cell<usize>>,
    total: usize,
}

impl Records {
    fn new(total: usize) -> Records {
        Records {
            made: Rc::default(),
            total,
        }
    }
}

impl Read for Records {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let made = self.made.get();
        if made >= self.total {
            return Ok(0);
        }
        let record: &[u8] = if made == 0 {
            b"<r xmlns='urn:r'>"
        } else {
            b"<e b='2' a='1'>text &amp; more</e>\n"
        };
        // Whole records only (the buffer holds many).
        let Some(into) = buffer.get_mut(..record.len()) else {
            return Ok(0);
        };
        into.copy_from_slice(record);
        self.made.set(made + record.len());
        Ok(record.len())
    }
}

/// A writer that notes how much input had been read at its first write.
struct Watch {
    made: Rc<Cell<usize>>,
    made_at_first_write: Option<usize>,
    written: usize,
}

impl Write for Watch {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.made_at_first_write.get_or_insert(self.made.get());
        self.written += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Output is written while input is still being read: the writer does not
/// wait for the end of the document.
#[test]
fn output_is_written_as_input_is_read() {
    let total = 4 << 20;
    let records = Records::new(total);
    let mut watch = Watch {
        made: records.made.clone(),
        made_at_first_write: None,
        written: 0,
    };
    write_canonical_reader(records, CanonicalForm::C14n, &mut watch).expect("no failure");
    let at = watch.made_at_first_write.expect("something written");
    assert!(at < total / 8, "first output after {at} of {total} bytes");
    assert!(watch.written > total, "{} bytes written", watch.written);
}

/// A writer that fails after `room` bytes.
struct Full {
    room: usize,
}

impl Write for Full {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "full"));
        }
        let size = bytes.len().min(self.room);
        self.room -= size;
        Ok(size)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_write_stops_the_reading() {
    let total = 64 << 20;
    let records = Records::new(total);
    let made = records.made.clone();
    let result = write_canonical_reader(records, CanonicalForm::XmlTest, &mut Full { room: 1000 });
    assert!(matches!(result, Err(Error::Write(_))), "{result:?}");
    assert!(made.get() < total / 16, "read {} of {total}", made.get());

    // Failing only at the end, in what is left to write.
    let result = write_canonical_reader(
        &b"<r>text</r>"[..],
        CanonicalForm::C14n,
        &mut Full { room: 3 },
    );
    assert!(matches!(result, Err(Error::Write(_))), "{result:?}");
}

#[test]
fn a_failed_read_is_a_read_error() {
    struct Broken(bool);
    impl Read for Broken {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            if std::mem::replace(&mut self.0, true) {
                return Err(io::Error::other("broken"));
            }
            buffer[..3].copy_from_slice(b"<r>");
            Ok(3)
        }
    }
    let mut out = Vec::new();
    let result = write_canonical_reader(Broken(false), CanonicalForm::C14n, &mut out);
    assert!(matches!(result, Err(Error::Read { .. })), "{result:?}");
}

/// Exclusive XML Canonicalization (without and with a PrefixList) and
/// Canonical XML 1.1: the forms the DOM writes through the general C14N
/// writer, which the stream follows with every node visible.
#[test]
fn streamed_exclusive_and_1_1_forms_match_the_dom() {
    use crate::serializer::canonical::{write_canonical_with, CanonicalOptions};
    use crate::serializer::InclusiveNamespaces;

    let forms = [
        CanonicalForm::ExcC14n,
        CanonicalForm::ExcC14nWithComments,
        CanonicalForm::C14n11,
        CanonicalForm::C14n11WithComments,
    ];
    let lists = ["", "p q #default", "a b c d e f g h x y z"];
    let mut inputs: Vec<(String, Vec<u8>)> = tree_case_inputs()
        .into_iter()
        .map(|(path, input)| (path.display().to_string(), input.into_bytes()))
        .collect();
    for path in corpus_files() {
        if let Ok(bytes) = std::fs::read(&path) {
            inputs.push((path.display().to_string(), bytes));
        }
    }
    inputs.extend(
        HAND_WRITTEN
            .iter()
            .enumerate()
            .map(|(n, input)| (format!("hand-written case {n}"), input.as_bytes().to_vec())),
    );
    let options = ParseOptions::default();
    for (case, (what, bytes)) in inputs.iter().enumerate() {
        let doc = Document::parse_bytes_with(bytes, &options);
        for form in forms {
            for list in lists {
                let canonical = CanonicalOptions {
                    inclusive_namespaces: InclusiveNamespaces::parse(list),
                    subset: None,
                };
                let mut expected = Vec::new();
                write_canonical_with(&doc, form, &canonical, &mut expected).expect("a Vec");
                let mut got = Vec::new();
                super::write_canonical_reader_with(
                    Chunked::new(bytes, case as u64),
                    &options,
                    form,
                    &canonical.inclusive_namespaces,
                    &mut got,
                )
                .expect("reading a slice");
                assert_same(&expected, &got, &format!("{what} ({form:?}, {list:?})"));
            }
        }
    }
}

/// A prefix used undeclared is in its placeholder namespace (or, a
/// well-known one, in its registered namespace), which the repaired
/// document declares: Canonical XML, streamed or from the tree, is the
/// canonical form of the repaired document (it declares the namespace
/// where it is not in scope, as `fmt` does, and a declaration of the
/// prefix wins in its scope).
#[test]
fn canonical_forms_of_undeclared_prefixes_are_those_of_the_repaired_document() {
    let input = "<rss><dc:creator a='1' it:b='2'><dc:x it:c='3'/></dc:creator><dc:y/>\
                 <p xmlns:dc='urn:real'><dc:z/></p></rss>";
    let placeholders = ParseOptions {
        placeholder_for_well_known_prefixes: true,
        ..ParseOptions::default()
    };
    let dc = "http://purl.org/dc/elements/1.1/";
    for (options, dc) in [
        (ParseOptions::default(), dc),
        (placeholders, "urn:xml5dom:undeclared:dc"),
    ] {
        let streamed_forms = check(input.as_bytes(), &options, 7, "undeclared prefixes")
            .map(|out| String::from_utf8(out).expect("canonical output is UTF-8"));
        let repaired = Document::parse_with(input, &options).to_xml();
        assert!(Document::parse(&repaired).errors().is_empty(), "{repaired}");
        // The xmltest forms write declarations as attributes, the tree's,
        // and add none.
        for (form, streamed) in FORMS.iter().zip(&streamed_forms).take(2) {
            let expected = from_document(repaired.as_bytes(), &options, *form);
            assert_same(&expected, streamed.as_bytes(), &format!("{form:?}"));
        }
        assert_eq!(
            streamed_forms[0],
            format!(
                "<rss><dc:creator xmlns:dc=\"{dc}\" \
                 xmlns:it=\"urn:xml5dom:undeclared:it\" a=\"1\" it:b=\"2\">\
                 <dc:x it:c=\"3\"></dc:x></dc:creator>\
                 <dc:y xmlns:dc=\"{dc}\"></dc:y>\
                 <p xmlns:dc=\"urn:real\"><dc:z></dc:z></p></rss>"
            )
        );
    }
}
