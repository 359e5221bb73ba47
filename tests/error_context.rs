//! The context of mismatched and stray end tags (issue 21): the element
//! that was open, where it starts, and how many elements the end tag
//! closed without theirs; the same from a document, a push-parsed
//! document and a stream cut into pieces anywhere.

use xml5dom::events::{self, Event};
use xml5dom::{Document, ErrorCode, ErrorContext, Limits, ParseError, ParseOptions};

/// Every error of the document with its context.
fn with_contexts(doc: &Document) -> Vec<(ParseError, Option<ErrorContext>)> {
    (0..doc.errors().len())
        .map(|i| (doc.errors()[i], doc.error_context(i).cloned()))
        .collect()
}

/// Every error of a stream fed in pieces of `piece` bytes, with the
/// context that follows it.
fn streamed(text: &str, piece: usize) -> Vec<(ParseError, Option<ErrorContext>)> {
    let mut found: Vec<(ParseError, Option<ErrorContext>)> = Vec::new();
    let mut context_without_error = false;
    let mut parser = events::Parser::new(|event| match event {
        Event::Error(error) => found.push((error, None)),
        Event::ErrorContext(context) => match found.last_mut() {
            Some((_, slot @ None)) => *slot = Some(context.clone()),
            _ => context_without_error = true,
        },
        _ => {}
    });
    for chunk in text.as_bytes().chunks(piece) {
        parser.feed(chunk);
    }
    let _ = parser.finish();
    assert!(!context_without_error, "a context came without its error");
    found
}

/// The open element of a context: name, offset, line and column.
fn open(context: &ErrorContext) -> Option<(&str, usize, u32, u32)> {
    let open = context.open.as_ref()?;
    Some((open.name.as_str(), open.offset, open.line, open.column))
}

#[test]
fn a_mismatch_names_the_element_open_and_where_it_starts() {
    let doc = Document::parse("<a><key>x</a>");
    assert_eq!(doc.errors().len(), 1);
    assert_eq!(doc.errors()[0].code, ErrorCode::MismatchedEndTag);
    let context = doc.error_context(0).expect("a context");
    assert_eq!(context.end_tag, "a");
    assert_eq!(open(context), Some(("key", 3, 1, 4)));
    assert_eq!(context.implied_closes, 1);
    assert_eq!(
        context.message(),
        "end tag </a> does not match the open element <key> (line 1, column 4); <key> is closed"
    );
}

#[test]
fn as_xmllint_says_it() {
    // xmllint: "Opening and ending tag mismatch: key line 4 and schema".
    let text = "<r>\n<schema>\n  <x/>\n  <key>\n</schema>\n</r>";
    let doc = Document::parse(text);
    let context = doc.error_context(0).expect("a context");
    assert_eq!(open(context), Some(("key", 22, 4, 3)));
    assert_eq!(context.end_tag, "schema");
}

#[test]
fn a_mismatch_counts_every_element_it_closes() {
    let doc = Document::parse("<r><a><b><c></a></r>");
    let context = doc.error_context(0).expect("a context");
    assert_eq!(open(context), Some(("c", 9, 1, 10)));
    assert_eq!(context.implied_closes, 2);
    assert_eq!(
        context.message(),
        "end tag </a> does not match the open element <c> (line 1, column 10); \
         <c> and 1 more element inside <a> are closed"
    );
    let doc = Document::parse("<r><a><b><c><d></a></r>");
    assert!(doc
        .error_context(0)
        .expect("a context")
        .message()
        .ends_with("<d> and 2 more elements inside <a> are closed"));
}

#[test]
fn a_stray_end_tag_names_the_current_element() {
    let doc = Document::parse("<r>\n  <p:b xmlns:p='u'></x></p:b></r>");
    assert_eq!(doc.errors()[0].code, ErrorCode::StrayEndTag);
    let context = doc.error_context(0).expect("a context");
    assert_eq!(context.end_tag, "x");
    assert_eq!(open(context), Some(("p:b", 6, 2, 3)));
    assert_eq!(context.implied_closes, 0);
    assert_eq!(
        context.message(),
        "end tag </x> matches no open element (the current one is <p:b>, line 2, column 3); ignored"
    );
}

#[test]
fn only_end_tags_have_context() {
    let doc = Document::parse("<r a=1 a=2>&bogus; & <b></r>");
    let codes: Vec<_> = doc.errors().iter().map(|e| e.code).collect();
    assert!(codes.contains(&ErrorCode::MismatchedEndTag), "{codes:?}");
    for (i, error) in doc.errors().iter().enumerate() {
        let end_tag = matches!(
            error.code,
            ErrorCode::MismatchedEndTag | ErrorCode::StrayEndTag
        );
        assert_eq!(doc.error_context(i).is_some(), end_tag, "{error:?}");
    }
    let clean = Document::parse("<r><a/>&amp;</r>");
    assert!(clean.errors().is_empty());
    assert!(clean.error_context(0).is_none());
}

#[test]
fn contexts_follow_their_errors_into_source_order() {
    // Errors found out of order (the end of an unquoted value after the
    // tag's), decoding errors added after the parse, the input cut by a
    // limit: each context stays with its error.
    let text = b"<r><a x=1 x=2></b>\xff</r><c></x>";
    let doc = Document::parse_bytes(text);
    let mut offsets: Vec<usize> = doc.errors().iter().map(|e| e.offset).collect();
    offsets.sort();
    assert_eq!(
        offsets,
        doc.errors().iter().map(|e| e.offset).collect::<Vec<_>>()
    );
    for (i, error) in doc.errors().iter().enumerate() {
        if let Some(context) = doc.error_context(i) {
            let tag = &doc.source()[error.offset..];
            assert!(
                tag.starts_with(&format!("</{}>", context.end_tag)),
                "{error:?} {context:?}"
            );
        }
    }
    let mut options = ParseOptions::default();
    let mut limits = Limits::default();
    limits.max_input_bytes = 20;
    options.limits = limits;
    let cut = Document::parse_with("<r><a><b></a></x>.......", &options);
    let codes: Vec<_> = cut.errors().iter().map(|e| e.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "mismatched-end-tag",
            "stray-end-tag",
            "input-size-limit",
            "eof-in-element"
        ]
    );
    assert_eq!(cut.error_context(0).map(|c| c.end_tag.as_str()), Some("a"));
    assert_eq!(cut.error_context(1).map(|c| c.end_tag.as_str()), Some("x"));
    assert!(cut.error_context(2).is_none() && cut.error_context(3).is_none());
}

#[test]
fn an_element_an_expansion_made_starts_at_the_reference() {
    let text = "<!DOCTYPE r [<!ENTITY open '<u>'>]>\n<r>&open;</r>";
    let doc = Document::parse(text);
    let context = with_contexts(&doc)
        .into_iter()
        .find(|(e, _)| e.code == ErrorCode::MismatchedEndTag)
        .and_then(|(_, c)| c)
        .expect("a mismatch with context");
    let reference = text.find("&open;").unwrap_or(0);
    assert_eq!(open(&context), Some(("u", reference, 2, 4)));
}

/// A damaged document: records on lines of every length, end tags
/// dropped, doubled and misspelled, so that many end tags do not close the
/// current element.
fn damaged(seed: u64, records: usize) -> String {
    let mut state = seed | 1;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut out = String::from("<?xml version=\"1.0\"?>\n<records>\n");
    for i in 0..records {
        let filler = "caf\u{e9} ".repeat(next(30));
        let ends = [
            "</name>",
            "</v>",
            "</record>",
            "</x>",
            "</record></record>",
            "",
        ];
        let record = format!(
            "<record id='{i}'><name>N{i} {filler}{}<v>{}</v>{}{}",
            ends[next(ends.len())],
            "w ".repeat(next(20)),
            ends[next(ends.len())],
            if next(3) == 0 { "\n" } else { "" },
        );
        out.push_str(&record);
    }
    out.push_str("</records>\n");
    out
}

#[test]
fn each_context_names_the_element_the_tree_has_there() {
    let text = damaged(7, 3_000);
    let doc = Document::parse(&text);
    let mut seen = 0;
    for (i, error) in doc.errors().iter().enumerate() {
        let Some(context) = doc.error_context(i) else {
            continue;
        };
        let Some(open) = &context.open else {
            panic!("no open element for {error:?}");
        };
        seen += 1;
        // The element the tree has at that offset, by that name.
        let element = doc
            .root()
            .descendants()
            .find(|n| n.is_element() && n.span().map(|s| s.start) == Some(open.offset))
            .expect("an element starts there");
        assert_eq!(element.name(), open.name);
        assert_eq!(doc.position(open.offset), (open.line, open.column));
        assert!(open.offset < error.offset);
    }
    assert!(seen > 500, "{seen} contexts");
}

#[test]
fn a_stream_gives_the_documents_contexts_however_it_is_cut() {
    for seed in [1, 2, 3] {
        let text = damaged(seed, 2_000);
        let expected = with_contexts(&Document::parse(&text));
        assert!(expected.iter().filter(|(_, c)| c.is_some()).count() > 300);
        for piece in [1, 7, 4096, 1 << 16] {
            let got = streamed(&text, piece);
            assert!(
                got == expected,
                "seed {seed}, pieces of {piece}: the stream's errors and contexts differ"
            );
        }
        // The push parser of documents too.
        let mut parser = xml5dom::Parser::new();
        for chunk in text.as_bytes().chunks(333) {
            parser.feed(chunk);
        }
        assert!(
            with_contexts(&parser.finish()) == expected,
            "seed {seed}: push parser"
        );
    }
}

#[test]
fn the_pull_reader_keeps_contexts_in_its_queue() {
    let text = damaged(5, 500);
    let expected = with_contexts(&Document::parse(&text));
    let mut reader = events::Reader::new(text.as_bytes());
    let mut got: Vec<(ParseError, Option<ErrorContext>)> = Vec::new();
    while let Some(event) = reader.next_event().expect("no read error") {
        match event {
            Event::Error(error) => got.push((error, None)),
            Event::ErrorContext(context) => {
                if let Some((_, slot)) = got.last_mut() {
                    *slot = Some(context.clone());
                }
            }
            _ => {}
        }
    }
    assert!(got == expected);
}

#[test]
fn a_stream_names_elements_whose_start_it_has_let_go_of() {
    // The open element started long before the end tag (a megabyte of
    // comments and elements on many lines, and on one long line): the
    // stream no longer holds its start tag, and says where it was.
    for line_end in ["\n", "\r\n", ""] {
        let mut text = String::from("<r>\n <outer>\n  <a>");
        for i in 0..20_000 {
            text.push_str(&format!("<!-- {i} caf\u{e9} --><b>{i}</b>{line_end}"));
        }
        text.push_str("</x></r>\n");
        let expected = with_contexts(&Document::parse(&text));
        let contexts: Vec<_> = expected.iter().filter_map(|(_, c)| c.as_ref()).collect();
        assert_eq!(contexts.len(), 2);
        assert_eq!(open(contexts[0]), Some(("a", 15, 3, 3)));
        assert_eq!(open(contexts[1]), Some(("a", 15, 3, 3)));
        for piece in [13, 1 << 16] {
            assert!(
                streamed(&text, piece) == expected,
                "pieces of {piece}, lines ending {line_end:?}"
            );
        }
    }
}

/// libxml2's first error on each document of tests/error_context/libxml2.txt
/// (written by its generate.py through lxml) is "Opening and ending tag
/// mismatch: NAME line N and END": xml5dom's first error context names the
/// same element (libxml2 gives its local name), on the same line, for the
/// same end tag. (libxml2 recovers otherwise after that, so only the first
/// is compared.)
#[test]
fn the_first_context_names_what_libxml2_names() {
    let cases = include_str!("error_context/libxml2.txt");
    let mut compared = 0;
    for case in cases.lines() {
        let fields: Vec<&str> = case.splitn(4, '\t').collect();
        let [name, line, end_tag, document] = fields[..] else {
            panic!("a malformed line: {case:?}");
        };
        let document = document.replace("\\n", "\n").replace("\\r", "\r");
        let doc = Document::parse(&document);
        let context = (0..doc.errors().len())
            .find_map(|i| doc.error_context(i))
            .unwrap_or_else(|| panic!("no context for {document:?}"));
        let (open_name, _, open_line, _) = open(context).expect("an open element");
        let local = open_name.rsplit(':').next().unwrap_or(open_name);
        assert_eq!(
            (
                local,
                open_line.to_string().as_str(),
                context.end_tag.as_str()
            ),
            (name, line, end_tag),
            "{document:?}"
        );
        compared += 1;
    }
    assert_eq!(compared, 12);
}

/// A hang detector, as tests/linear_audit.rs's: a hundred thousand stray
/// end tags on one line of a megabyte, each naming an element that starts
/// on that line (counted from the line's start each, its column would take
/// minutes), and one mismatch closing a hundred thousand elements.
#[test]
fn contexts_cost_what_the_input_does() {
    use std::time::{Duration, Instant};

    let n = 100_000;
    let text = format!("<r>{}</r>", "<a></x></a>".repeat(n));
    let deep = format!("<r>{}</r>", "<a></x>".repeat(n));
    for text in [&text, &deep] {
        let started = Instant::now();
        let expected = with_contexts(&Document::parse(text));
        let got = streamed(text, 1 << 16);
        let elapsed = started.elapsed();
        assert!(
            elapsed < Duration::from_secs(60),
            "{elapsed:?}: some step grows with more than the input"
        );
        assert!(got == expected);
        let strays = expected
            .iter()
            .filter(|(e, _)| e.code == ErrorCode::StrayEndTag);
        assert_eq!(strays.count(), n);
        let (_, last) = expected
            .iter()
            .rev()
            .find(|(e, _)| e.code == ErrorCode::StrayEndTag)
            .expect("a stray end tag");
        let last = last.as_ref().expect("a context");
        // The last `<a>` starts one unit before the end.
        let unit = (text.len() - "<r></r>".len()) / n;
        let column = 4 + (n - 1) * unit;
        assert_eq!(open(last), Some(("a", column - 1, 1, column as u32)));
    }
    let deep_mismatch = with_contexts(&Document::parse(&deep))
        .into_iter()
        .find_map(|(e, c)| (e.code == ErrorCode::MismatchedEndTag).then_some(c))
        .flatten()
        .expect("`</r>` closes every `a`");
    assert_eq!(deep_mismatch.implied_closes, n);
}
