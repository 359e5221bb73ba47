//! Events and DOM agree: replaying the events of a parse into the sink that
//! builds documents gives exactly the document `Document::parse` gives
//! (tree, errors with their positions, and the serialized output), on every
//! tree case of the suites, every document of the corpus, inputs that
//! reach each kind of event, and inputs that reach each of the limits.

use std::path::Path;

use super::{parse_with, Event, Reader};
use crate::decoding::ParseOptions;
use crate::dom::Document;
use crate::error::ParseError;
use crate::serializer::SerializeOptions;
use crate::test_inputs::{files, tree_case_inputs};
use crate::tree_builder::{DocumentSink, TreeSink};

/// The document the events of parsing `text` with `options` build, and
/// the errors in the order the events gave them.
fn replayed(text: &str, options: &ParseOptions) -> (Document, Vec<ParseError>) {
    let kept = options.limits.input_kept(text);
    let mut sink = DocumentSink::new(&text[..kept]);
    let mut errors = Vec::new();
    parse_with(text, options, |event| {
        if let Event::Error(error) = event {
            errors.push(error);
        }
        replay(&mut sink, event);
    });
    (sink.finish(), errors)
}

/// Input that arrives in pieces of random sizes (a fixed-seed generator):
/// mostly a few bytes, now and then a few thousand.
pub(super) struct Chunked<'a> {
    bytes: &'a [u8],
    state: u64,
}

impl<'a> Chunked<'a> {
    pub(super) fn new(bytes: &'a [u8], seed: u64) -> Chunked<'a> {
        Chunked {
            bytes,
            state: seed | 1,
        }
    }
}

impl std::io::Read for Chunked<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        let most = if self.state.is_multiple_of(8) {
            4096
        } else {
            17
        };
        let size = (1 + (self.state >> 8) as usize % most)
            .min(buffer.len())
            .min(self.bytes.len());
        buffer[..size].copy_from_slice(&self.bytes[..size]);
        self.bytes = &self.bytes[size..];
        Ok(size)
    }
}

/// What [`replayed`] gives, from the events of the pull reader over
/// `input` cut into random pieces: text (UTF-8, not sniffed) or bytes.
fn replayed_streamed(
    input: &[u8],
    source: &str,
    text: bool,
    options: &ParseOptions,
    seed: u64,
) -> (Document, Vec<ParseError>) {
    let mut sink = DocumentSink::new(source);
    let mut errors = Vec::new();
    let mut reader = Reader::make(Chunked::new(input, seed), options, text);
    while let Some(event) = reader.next_event().expect("reading a slice") {
        if let Event::Error(error) = event {
            errors.push(error);
        }
        replay(&mut sink, event);
    }
    (sink.finish(), errors)
}

fn replay(sink: &mut DocumentSink<'_>, event: Event<'_>) {
    super::replay::replay(sink, "", event, 0);
}

/// Checks that the events of `text` replay into the document of `text`,
/// whether the text is given whole or read in pieces.
fn check(text: &str, options: &ParseOptions, what: &str) {
    let expected = Document::parse_with(text, options);
    let (got, errors) = replayed(text, options);
    compare(&expected, &got, &errors, text, what);
    let kept = options.limits.input_kept(text);
    let seed = text.len() as u64 ^ 0x19;
    let (got, errors) = replayed_streamed(text.as_bytes(), &text[..kept], true, options, seed);
    compare(
        &expected,
        &got,
        &errors,
        text,
        &format!("{what} (read in pieces)"),
    );
}

/// Checks that the events of the bytes `input`, read in pieces, replay
/// into the document `Document::parse_bytes` makes of them (decoding
/// errors and all).
fn check_bytes(input: &[u8], what: &str) {
    check_bytes_with(input, &ParseOptions::default(), input.len() as u64, what);
}

/// [`check_bytes`] with options, the pieces cut as `seed` says.
fn check_bytes_with(input: &[u8], options: &ParseOptions, seed: u64, what: &str) {
    let expected = Document::parse_bytes_with(input, options);
    let (mut got, errors) = replayed_streamed(input, expected.source(), false, options, seed);
    // What the document knows of its encoding the events do not carry.
    // (The replayed document's map back to the input is the default one,
    // as it was built; the serializer does not read it.)
    let source = got.encoding_source();
    let map = crate::decoding::InputMap::default();
    got.set_decoding(
        expected.encoding(),
        source,
        expected.had_byte_order_mark(),
        map,
    );
    let text = expected.source().to_owned();
    compare(&expected, &got, &errors, &text, &format!("{what} (bytes)"));
}

fn compare(expected: &Document, got: &Document, errors: &[ParseError], text: &str, what: &str) {
    // In source order as they come (the document sorts its own).
    if let Some(at) =
        (0..errors.len().min(expected.errors().len())).find(|&i| errors[i] != expected.errors()[i])
    {
        eprintln!(
            "first difference at {at}: {:?} vs {:?}",
            &errors[at.saturating_sub(2)..(at + 3).min(errors.len())],
            &expected.errors()[at.saturating_sub(2)..(at + 3).min(expected.errors().len())]
        );
    }
    assert_eq!(
        errors,
        expected.errors(),
        "{what}: error events of {text:?}"
    );
    assert_eq!(got.source(), expected.source(), "{what}: source");
    assert_eq!(
        got.to_tree_dump(),
        expected.to_tree_dump(),
        "{what}: tree of {text:?}"
    );
    assert_eq!(
        got.errors(),
        expected.errors(),
        "{what}: errors of {text:?}"
    );
    // Node by node, what the dump does not show: spans (an expansion's
    // nodes carry the reference's) and CDATA parts.
    let nodes = |doc: &Document| -> Vec<_> {
        doc.root()
            .descendants()
            .map(|n| {
                (
                    n.node_type(),
                    n.span(),
                    n.cdata_ranges(),
                    n.entity().map(str::to_owned),
                )
            })
            .collect()
    };
    assert_eq!(nodes(got), nodes(expected), "{what}: nodes of {text:?}");
    // As written (copied from the source where it is as parsed) and
    // pretty-printed (written anew from the tree: CDATA parts, entity
    // records and dropped markup all show).
    for pretty in [None, Some(2)] {
        let options = SerializeOptions {
            pretty,
            ..SerializeOptions::default()
        };
        let write = |doc: &Document| {
            let mut out = Vec::new();
            let repairs = doc.write_xml(&mut out, &options);
            (out, repairs.map(|r| r.len()).ok())
        };
        assert_eq!(
            write(got),
            write(expected),
            "{what}: output ({pretty:?}) of {text:?}"
        );
    }
}

#[test]
fn events_replay_into_the_document_of_every_tree_case() {
    for (path, input) in tree_case_inputs() {
        check(
            &input,
            &ParseOptions::default(),
            &path.display().to_string(),
        );
    }
}

#[test]
fn events_replay_into_the_document_of_every_corpus_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    let mut documents = 0;
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        // The events take text: the corpus's other encodings are decoded
        // first, as a document's bytes are.
        let text = Document::parse_bytes(&bytes).source().to_owned();
        check(&text, &ParseOptions::default(), &path.display().to_string());
        check_bytes(&bytes, &path.display().to_string());
        documents += 1;
    }
    assert!(documents > 50, "only {documents} corpus documents found");
}

#[test]
fn events_replay_expansions_limits_and_dropped_markup() {
    let inputs = [
        // Entities with markup, balanced and not; nested; unexpanded.
        "<!DOCTYPE r [<!ENTITY e 'x<b>y</b>z'><!ENTITY f '<c>'><!ENTITY g '&e;&e;'>]>\
         <r>a&e;b&f;c</c>&g;&undeclared;</r>",
        // Attribute defaults, ID types, namespace declarations by default.
        "<!DOCTYPE r [<!ATTLIST r xmlns:p CDATA 'urn:p' id ID #IMPLIED t NMTOKENS ' a  b '>]>\
         <r id=' x ' t='c  d'><p:x/></r>",
        // Stray end tags, misplaced DOCTYPE, elements and text after the root.
        "</x><!DOCTYPE a><a></b><!DOCTYPE b></a><c/> text\n <?pi?>",
        // CDATA, references, CR LF, outside-root text.
        "x\r\n<a><![CDATA[1<2]]>&amp;&#x41;\r\n<![CDATA[]]></a>\r\ny",
        // Unclosed everything.
        "<a><b x='1' x='2' y=z><c>text<!-- c",
    ];
    for input in inputs {
        check(input, &ParseOptions::default(), "hand-written");
    }
    let mut options = ParseOptions::default();
    options.limits.max_element_depth = Some(2);
    options.limits.max_attributes = 1;
    options.limits.max_name_length = 3;
    options.limits.max_input_bytes = 40;
    for input in inputs {
        check(input, &options, "small limits");
    }
    check("<a><b><c><d>deep</d></c>x</b></a>", &options, "depth limit");
}

/// The billion laughs: `levels` entities of ten references each to the
/// one below, the last referred to by `use_it` (which names it `&top;`).
fn laughs(levels: usize, use_it: &str) -> String {
    let mut text = String::from("<!DOCTYPE r [\n<!ENTITY l0 \"lol\">\n");
    for level in 1..=levels {
        let references = format!("&l{};", level - 1).repeat(10);
        text.push_str(&format!("<!ENTITY l{level} \"{references}\">\n"));
    }
    let top = format!("&l{levels};");
    text.push_str(&use_it.replace("&top;", &top));
    text
}

/// Inputs that reach each of the six limits (with the options that make
/// them reach it), in text, in attribute values and defaults, in markup
/// from entities and at the budget's edge: the events of each, given whole
/// and read in pieces of random sizes (as text, and as bytes decoded as
/// they come), replay into the document of the whole input, errors and
/// all. The entity budget grows with the input read up to each reference,
/// so a stream, which never knows the input's length, runs out of it
/// where the whole input does.
#[test]
fn events_replay_inputs_that_reach_each_limit() {
    use crate::error::ErrorCode::{self, *};

    let with = |change: &dyn Fn(&mut crate::limits::Limits)| {
        let mut options = ParseOptions::default();
        change(&mut options.limits);
        options
    };
    let default = ParseOptions::default();
    let mut cases: Vec<(String, ParseOptions, ErrorCode, &str)> = Vec::new();
    // Expansion: the billion laughs in text, in a value, in a default, in
    // markup (at most 100 KB: a debug build expands 1 MiB in seconds).
    let small = with(&|l| l.max_entity_expansion_bytes = 100_000);
    cases.push((
        laughs(9, "]>\n<r>a&top;b</r>"),
        small.clone(),
        EntityExpansionLimit,
        "laughs in text",
    ));
    cases.push((
        laughs(9, "]>\n<r a='&top;'/>"),
        small.clone(),
        EntityExpansionLimit,
        "laughs in a value",
    ));
    cases.push((
        laughs(9, "<!ATTLIST r a CDATA '&top;'>]>\n<r><r/></r>"),
        small.clone(),
        EntityExpansionLimit,
        "laughs in a default",
    ));
    cases.push((
        laughs(4, "<!ENTITY m '<l>&top;</l>'>]>\n<r>&m;&m;&m;&m;&m;</r>"),
        small.clone(),
        EntityExpansionLimit,
        "laughs in markup",
    ));
    // An entity with unbalanced markup, used many times: each use opens an
    // element; the 1 MiB floor runs out after some thousands. (120 KB of
    // input: a budget taken from the whole length, as the document's was,
    // was 1.2 MB, and the stream's 1 MiB.)
    let unbalanced =
        "<!DOCTYPE r [<!ENTITY e \"<a>\">]>\n<r>".to_owned() + &"&e;".repeat(40_000) + "</r>";
    cases.push((
        unbalanced.clone(),
        default.clone(),
        EntityExpansionLimit,
        "unbalanced",
    ));
    // The same after 120 KB of comment: the budget is ten times the input
    // read so far, above the floor.
    let padded = unbalanced.replace("<r>", &format!("<!--{}--><r>", "p".repeat(120_000)));
    cases.push((
        padded,
        default.clone(),
        EntityExpansionLimit,
        "unbalanced after a comment",
    ));
    // Text between the references: the budget grows as they are read.
    let mut growing = String::from("<!DOCTYPE r [<!ENTITY e '");
    growing.push_str(&"x".repeat(5_000));
    growing.push_str("'>]><r>");
    for i in 0..2_000 {
        growing.push_str(&"t".repeat(i % 800));
        growing.push_str(if i % 3 == 0 { "<s a='&e;'/>" } else { "&e;" });
    }
    growing.push_str("</r>");
    cases.push((
        growing,
        default.clone(),
        EntityExpansionLimit,
        "growing with the text read",
    ));
    // At the edge: 100 bytes allowed, ten references of ten bytes fit, the
    // eleventh does not.
    let edge = "<!DOCTYPE r [<!ENTITY e '0123456789'>]><r>".to_owned();
    let at_most_100 = with(&|l| l.max_entity_expansion_bytes = 100);
    cases.push((
        edge.clone() + &"&e;".repeat(11) + "</r>",
        at_most_100.clone(),
        EntityExpansionLimit,
        "at the edge",
    ));
    cases.push((
        edge.clone() + "<r a='" + &"&e;".repeat(11) + "'/></r>",
        at_most_100.clone(),
        EntityExpansionLimit,
        "at the edge, in a value",
    ));
    // Parameter entities in the subset.
    let mut parameters = String::from("<!DOCTYPE r [<!ENTITY % p0 'xxxxxxxxxx'>");
    for level in 1..9 {
        let references = format!("%p{};", level - 1).repeat(10);
        parameters.push_str(&format!("<!ENTITY % p{level} '{references}'>"));
    }
    parameters.push_str("<!ENTITY e '%p8;'>]><r>&e;</r>");
    cases.push((
        parameters,
        default.clone(),
        EntityExpansionLimit,
        "parameter entities",
    ));
    // Entity depth, in text, in a value, with markup.
    let mut nested = String::from("<!DOCTYPE r [<!ENTITY n0 '<b>x</b>'>");
    for level in 1..30 {
        nested.push_str(&format!("<!ENTITY n{level} '<c>&n{};</c>'>", level - 1));
    }
    nested.push_str("<!ENTITY t0 'y'>");
    for level in 1..30 {
        nested.push_str(&format!("<!ENTITY t{level} '&t{};'>", level - 1));
    }
    nested.push_str("]><r a='&t29;'>&n29;&t29;&n3;</r>");
    cases.push((
        nested.clone(),
        default.clone(),
        EntityDepthLimit,
        "entity depth",
    ));
    cases.push((
        nested,
        with(&|l| l.max_entity_depth = 3),
        EntityDepthLimit,
        "entity depth 3",
    ));
    // Element depth, with elements from entities too, and damage.
    let deep =
        "<!DOCTYPE r [<!ENTITY d '<d><d>x</d></d>'>]><r><a><b>&d;<c></b>t</a>&d;</r><e><f/></e>";
    cases.push((
        deep.to_owned(),
        with(&|l| l.max_element_depth = Some(3)),
        ElementDepthLimit,
        "element depth",
    ));
    cases.push((
        deep.repeat(3),
        with(&|l| l.max_element_depth = Some(1)),
        ElementDepthLimit,
        "element depth 1",
    ));
    // Attributes: written, and added by defaults.
    let attributes = "<!DOCTYPE r [<!ATTLIST r d1 CDATA 'x' d2 CDATA 'y' d3 CDATA 'z'>]>\
                      <r a='1' b='2'><r/><r a='1' b='2' c='3' d='4'/></r>";
    cases.push((
        attributes.to_owned(),
        with(&|l| l.max_attributes = 3),
        AttributeLimit,
        "attributes",
    ));
    // Names of elements, attributes, PI targets, entities.
    let names = "<!DOCTYPE r [<!ENTITY longentity 'v'>]><longroot longattr='&longentity;'>\
                 <?longtarget x?></longroot>";
    cases.push((
        names.to_owned(),
        with(&|l| l.max_name_length = 4),
        NameLengthLimit,
        "names",
    ));
    // The input cut: inside a reference, a tag, an expansion's source.
    let cut_in = laughs(2, "]><r a='&top;'>&l1;&top;</r>");
    for at in [
        cut_in.find("&l1").unwrap() + 2,
        cut_in.find("<r").unwrap() + 4,
        cut_in.len() - 3,
        20,
    ] {
        cases.push((
            cut_in.clone(),
            with(&|l| l.max_input_bytes = at),
            InputSizeLimit,
            "input size",
        ));
    }

    for (i, (text, options, code, what)) in cases.iter().enumerate() {
        let doc = Document::parse_with(text, options);
        assert!(
            doc.errors().iter().any(|e| e.code == *code),
            "{what}: {code:?} not reached: {:?}",
            &doc.errors()[..doc.errors().len().min(5)]
        );
        check(text, options, what);
        for seed in [0x5EED, i as u64] {
            let kept = &text[..options.limits.input_kept(text)];
            let (got, errors) = replayed_streamed(text.as_bytes(), kept, true, options, seed);
            compare(&doc, &got, &errors, what, &format!("{what} (seed {seed})"));
            check_bytes_with(text.as_bytes(), options, seed, what);
        }
    }
}

/// Damaged copies of the corpus: bytes deleted, markup characters put in,
/// the end cut off, at places chosen by a fixed-seed generator.
#[test]
fn events_replay_into_the_document_of_damaged_corpus_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    paths.sort();
    let mut state: u64 = 0x5EED_0019;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let mut damaged = 0;
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = Document::parse_bytes(&bytes).source().to_owned();
        let chars: Vec<char> = text.chars().take(20_000).collect();
        if chars.is_empty() {
            continue;
        }
        for _ in 0..4 {
            let mut copy = chars.clone();
            for _ in 0..1 + below(6) {
                let at = below(copy.len());
                match below(4) {
                    0 => {
                        let end = (at + 1 + below(20)).min(copy.len());
                        copy.drain(at..end);
                    }
                    1 => copy.insert(at, ['<', '&', '>', '"', '/', ']'][below(6)]),
                    2 => copy.truncate(at),
                    _ => copy.insert(at, ' '),
                }
                if copy.is_empty() {
                    break;
                }
            }
            let input: String = copy.into_iter().collect();
            check(
                &input,
                &ParseOptions::default(),
                &path.display().to_string(),
            );
            damaged += 1;
        }
    }
    assert!(damaged > 200, "only {damaged} damaged documents");
}

/// Subtrees come as the documents of their elements' text, whatever the
/// pieces the input arrives in, with the namespaces of their ancestors.
#[test]
fn subtrees_are_the_documents_of_their_elements() {
    let mut feed = String::from("<?xml version='1.0'?>\n<feed xmlns='urn:f' xmlns:x='urn:x'>\n");
    for i in 0..300 {
        feed.push_str(&format!(
            "  <entry n='{i}'><x:id>{i}</x:id><title>T &amp; {i}<![CDATA[<c>]]></title></entry>\n"
        ));
    }
    feed.push_str("  <entry n='last'><broken></feed>\n");
    for seed in [1, 2, 3] {
        let reader = Reader::make(
            Chunked::new(feed.as_bytes(), seed),
            &ParseOptions::default(),
            false,
        );
        let errors = std::rc::Rc::new(std::cell::Cell::new(0));
        let counted = errors.clone();
        let subtrees = super::Subtrees::new(reader, |open: &[super::OpenElement]| {
            open.last().is_some_and(|e| e.local_name() == "entry")
        })
        .on_error(move |_| counted.set(counted.get() + 1));
        let mut n = 0;
        for subtree in subtrees {
            let subtree = subtree.expect("reading a slice");
            let doc = subtree.document();
            let root = doc.root_element().expect("a root element");
            assert_eq!(root.namespace(), Some("urn:f"));
            assert_eq!(subtree.ancestors().len(), 1);
            assert_eq!(subtree.ancestors()[0].name(), "feed");
            if n < 300 {
                // The start tag as written, the declarations it inherits
                // added.
                let expected = format!(
                    "<entry n='{n}' xmlns=\"urn:f\" xmlns:x=\"urn:x\"><x:id>{n}</x:id><title>T &amp; {n}<![CDATA[<c>]]></title></entry>"
                );
                let written = doc.to_xml();
                assert_eq!(written, expected);
                assert_eq!(&feed[subtree.offset()..][..8], "<entry n");
                assert_eq!(xpath_string(doc, "string(/*/x:id)"), n.to_string());
                assert_eq!(xpath_string(doc, "namespace-uri(/*/*[1])"), "urn:x");
                // Alone, it parses to the same tree.
                let alone = Document::parse(&written);
                assert!(alone.errors().is_empty(), "{:?}", alone.errors());
                assert_eq!(alone.to_tree_dump(), doc.to_tree_dump());
            }
            n += 1;
        }
        assert_eq!(n, 301);
        assert!(errors.get() > 0);
    }
}

fn xpath_string(doc: &Document, expression: &str) -> String {
    let xpath = crate::query::XPath::compile(expression).expect("an XPath");
    xpath
        .evaluate(doc.root())
        .expect("a value")
        .to_xpath_string()
}

/// Bytes that are not valid in their encoding: the decoding errors come
/// in order among the parse's, however the input is cut.
#[test]
fn decoding_errors_come_in_order_among_the_parse_errors() {
    let mut input = Vec::new();
    for i in 0..2_000 {
        input.extend_from_slice(format!("<r{i} a='\u{e9}'>x").as_bytes());
        input.push(0xFF);
        input.extend_from_slice(b"y & z</r");
        input.push(0xC3);
        input.extend_from_slice(format!("{i}>\n").as_bytes());
    }
    check_bytes(&input, "invalid UTF-8");
    let mut latin = b"<?xml version='1.0' encoding='utf-16'?><a>".to_vec();
    latin.extend(std::iter::repeat_n(b'&', 3000));
    check_bytes(&latin, "UTF-16 declared in 8-bit bytes");
}

/// What [`super::DocumentBuilder`] builds of `input` read in pieces, and
/// the errors as the events gave them.
fn built(input: &[u8], text: bool, seed: u64) -> (Document, Vec<ParseError>) {
    let mut builder = super::DocumentBuilder::new();
    let mut errors = Vec::new();
    let options = ParseOptions::default();
    let mut reader = Reader::make(Chunked::new(input, seed), &options, text);
    while let Some(event) = reader.next_event().expect("reading a slice") {
        if let Event::Error(error) = event {
            errors.push(error);
        }
        builder.push(event);
    }
    (builder.finish(), errors)
}

/// The document builder builds the tree the parse builds (with no source:
/// no spans, and written anew from the tree, which reads back as the same
/// tree) from every tree case and corpus document, read in pieces.
#[test]
fn the_document_builder_builds_the_tree_of_every_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    let corpus = paths
        .iter()
        .filter_map(|path| Some((path.clone(), std::fs::read(path).ok()?)));
    let cases = tree_case_inputs()
        .into_iter()
        .map(|(path, text)| (path, text.into_bytes()));
    let mut documents = 0;
    for (path, bytes) in cases.chain(corpus) {
        let what = path.display().to_string();
        let expected = Document::parse_bytes(&bytes);
        let (got, errors) = built(&bytes, false, bytes.len() as u64);
        assert_eq!(errors, expected.errors(), "{what}: error events");
        assert_eq!(got.errors(), expected.errors(), "{what}: errors");
        assert_eq!(got.to_tree_dump(), expected.to_tree_dump(), "{what}: tree");
        assert!(
            got.root().descendants().all(|n| n.span().is_none()),
            "{what}"
        );
        if expected.root_element().is_some() && expected.is_well_formed() {
            let written = got.to_xml();
            let again = Document::parse(&written);
            assert_eq!(
                again.to_tree_dump(),
                expected.to_tree_dump(),
                "{what}: written"
            );
        }
        documents += 1;
    }
    assert!(documents > 500, "only {documents} inputs");
}

/// Edits between events: each element read is removed (lxml's `iterparse`
/// idiom), an open element is removed (what it would have held is lost
/// with it, and the elements still pair up), and nothing panics.
#[test]
fn the_document_builder_takes_edits_between_events() {
    let text = "<r><a><b>x</b><c/>y</a><d>z<e></e></d></r>";
    let mut builder = super::DocumentBuilder::new();
    let mut ends = Vec::new();
    super::parse(text, |event| {
        let start_of_b = matches!(&event, Event::StartElement(s) if s.name.local == "b");
        let end = matches!(event, Event::EndElement(_));
        let made = builder.push(event);
        let doc = builder.document_mut();
        if start_of_b {
            // `a`, open, goes with `b` in it: `x` goes into a stand-in
            // for `b`, `c` and `y` into one for `a`.
            let a = doc.root_element().unwrap().first_child().unwrap().id();
            doc.remove(a).unwrap();
        }
        if let Some(element) = made.filter(|_| end) {
            let node = doc.node(element).unwrap();
            ends.push(node.local_name().to_owned());
            if node.local_name() == "e" {
                doc.remove(element).unwrap();
            }
        }
    });
    assert_eq!(ends, ["e", "d", "r"], "the stand-ins are not handed out");
    let doc = builder.finish();
    assert_eq!(doc.to_xml(), "<r><d>z</d></r>");
}

/// What the builder says each event made: the element a start tag opened
/// (empty or not), the node a text, comment or PI made, the element an
/// end tag closed.
#[test]
fn the_document_builder_names_what_each_event_made() {
    let mut builder = super::DocumentBuilder::new();
    let mut made = Vec::new();
    super::parse("<r><a/><b>t<!--c--><?p d?></b></r>", |event| {
        let id = builder.push(event);
        let doc = builder.document();
        made.push(id.and_then(|id| doc.node(id)).map(|n| match n.node_type() {
            crate::dom::NodeType::Element => n.local_name().to_owned(),
            _ => n.text().unwrap_or_default().to_owned(),
        }));
    });
    let made: Vec<_> = made.iter().map(|m| m.as_deref().unwrap_or("-")).collect();
    assert_eq!(made, ["r", "a", "b", "t", "c", "d", "b", "r"]);
}
