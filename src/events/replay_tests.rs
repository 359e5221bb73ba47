//! Events and DOM agree: replaying the events of a parse into the sink that
//! builds documents gives exactly the document `Document::parse` gives
//! (tree, errors with their positions, and the serialized output), on every
//! tree case of the suites, every document of the corpus, and inputs that
//! reach each kind of event.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::{parse_with, Event};
use crate::decoding::ParseOptions;
use crate::dom::Document;
use crate::error::ParseError;
use crate::serializer::SerializeOptions;
use crate::tree_builder::{Chars, DocumentSink, ParsedAttribute, StartElement, TreeSink};

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

fn replay(sink: &mut DocumentSink<'_>, event: Event<'_>) {
    let name = |sink: &mut DocumentSink<'_>, name: super::Name<'_>| {
        let names = sink.names_mut();
        let qname = names.qname(name.qualified);
        let namespace = name.namespace.map(|uri| names.namespace(uri));
        names.name(qname, namespace)
    };
    match event {
        Event::XmlDeclaration(declaration) => sink.xml_declaration(declaration),
        Event::Doctype(doctype) => sink.doctype(doctype),
        Event::StartElement(start) => {
            let mut attributes = Vec::new();
            for a in start.attributes {
                attributes.push(ParsedAttribute {
                    name: name(sink, a.name),
                    value: Cow::Borrowed(a.value),
                    span: a.span,
                    value_span: a.value_span,
                    is_id: a.is_id,
                });
            }
            let element = StartElement {
                name: name(sink, start.name),
                attributes: &attributes,
                span: start.span,
                empty: start.empty,
            };
            sink.start_element(&element);
        }
        Event::EndElement(end) => sink.end_element(end.end, end.end_tag),
        Event::Text { text, cdata, span } => sink.text(Chars::Str(text), cdata, span),
        Event::Comment { data, span } => sink.comment(data, span),
        Event::ProcessingInstruction { target, data, span } => {
            sink.processing_instruction(target, data, span);
        }
        Event::BeginExpansion { name, reference } => sink.begin_expansion(name, reference),
        Event::EndExpansion { balanced } => sink.end_expansion(balanced),
        Event::Dropped { span } => sink.dropped(span),
        Event::DepthDropped { span, continues } => sink.depth_dropped(span, continues),
        Event::DepthDroppedEnd { end } => sink.depth_dropped_end(end),
        Event::Error(error) => sink.error(error),
    }
}

/// Checks that the events of `text` replay into the document of `text`.
fn check(text: &str, options: &ParseOptions, what: &str) {
    let expected = Document::parse_with(text, options);
    let (got, errors) = replayed(text, options);
    // In source order as they come (the document sorts its own).
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
    assert_eq!(nodes(&got), nodes(&expected), "{what}: nodes of {text:?}");
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
            write(&got),
            write(&expected),
            "{what}: output ({pretty:?}) of {text:?}"
        );
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The `#data` sections of a tree-construction file.
fn dat_inputs(text: &str) -> Vec<String> {
    text.split("#data\n")
        .skip(1)
        .filter_map(|case| {
            let end = ["\n#errors", "\n#document"]
                .iter()
                .filter_map(|marker| case.find(marker))
                .min()?;
            Some(case[..end].to_owned())
        })
        .collect()
}

#[test]
fn events_replay_into_the_document_of_every_tree_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut paths = Vec::new();
    files(&root.join("xml5lib-tests/tree-construction"), &mut paths);
    files(&root.join("tree-construction"), &mut paths);
    let mut cases = 0;
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
    {
        let text = std::fs::read_to_string(path).expect("a readable case file");
        for input in dat_inputs(&text) {
            check(
                &input,
                &ParseOptions::default(),
                &path.display().to_string(),
            );
            cases += 1;
        }
    }
    assert!(cases > 300, "only {cases} tree cases found");
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
