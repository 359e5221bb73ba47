//! `check` and `stats` stream their input: on a damaged file of many
//! pieces (the reader takes 64 KiB at a time), with long lines and errors
//! at random places, they report exactly what the document of the whole
//! file has, and `check` shows the same source lines as it would with the
//! whole source in hand (the snippet code as it was before `check`
//! streamed is the oracle here).

use std::path::PathBuf;
use std::process::Command;

use pretty_assertions::assert_eq;
use serde_json::Value;
use xml5dom::{Document, EncodingSource, ParseError};

const BIN: &str = env!("CARGO_BIN_EXE_xml5dom");

/// A damaged records file: long and short lines, text with references,
/// CDATA, comments, and damage every few hundred bytes.
fn damaged_records(seed: u64, records: usize) -> String {
    let mut state = seed | 1;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut out = String::from("<?xml version=\"1.0\"?>\n<records xmlns:x=\"urn:x\">\n");
    for i in 0..records {
        let mut record = format!(
            "<record id=\"{i}\" x:kind='k{}'><name>N&amp;{i} caf\u{e9}</name><!-- c {i} --><v><![CDATA[a<b]]>{}</v></record>",
            i % 7,
            "word ".repeat(next(40))
        );
        // Most records on their own line; some lines run on for long.
        if next(50) != 0 {
            record.push('\n');
        }
        if next(4) == 0 {
            let at = next(record.len());
            let at = (0..=at)
                .rev()
                .find(|&a| record.is_char_boundary(a))
                .unwrap_or(0);
            let damage = [
                "<", "&", "</x>", "\"", "<!", "]]>", "\u{1}", "&bogus;", "<a b=c>",
            ][next(9)];
            record.insert_str(at, damage);
        }
        out.push_str(&record);
    }
    out.push_str("</records>\n");
    out
}

struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("xml5dom-stream-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("a writable temporary directory");
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn run(args: &[&str], file: &TempFile) -> String {
    let output = Command::new(BIN)
        .args(args)
        .arg(&file.0)
        .output()
        .expect("the binary runs");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn check_streams_the_errors_of_the_whole_document() {
    for seed in [1, 2] {
        let text = damaged_records(seed, 12_000);
        assert!(text.len() > 1 << 20, "{} bytes", text.len());
        let file = TempFile::new(&format!("check-{seed}.xml"), &text);
        let doc = Document::parse(&text);
        assert!(doc.errors().len() > 1000, "{} errors", doc.errors().len());
        let with_context = (0..doc.errors().len())
            .filter(|&i| doc.error_context(i).is_some())
            .count();
        assert!(with_context > 100, "{with_context} errors with context");
        let json = run(&["check", "--format", "json"], &file);
        let got: Vec<Value> = json
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect();
        // The document's errors as `check` writes them (without the file).
        let expected: Vec<Value> = doc
            .errors()
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let mut v = serde_json::json!({
                    "line": e.line,
                    "column": e.column,
                    "offset": e.offset,
                    "code": e.code.as_str(),
                    "severity": e.severity().as_str(),
                    "message": e.code.message(),
                });
                if let Some(context) = doc.error_context(i) {
                    v["message"] = context.message().into();
                    v["end_tag"] = context.end_tag.clone().into();
                    v["implied_closes"] = context.implied_closes.into();
                    if let Some(open) = &context.open {
                        v["open"] = serde_json::json!({
                            "name": open.name,
                            "line": open.line,
                            "column": open.column,
                            "offset": open.offset,
                        });
                    }
                }
                v
            })
            .collect();
        let got: Vec<Value> = got
            .into_iter()
            .map(|mut v| {
                if let Some(object) = v.as_object_mut() {
                    object.remove("file");
                }
                v
            })
            .collect();
        assert!(
            got == expected,
            "check --format json differs from the document's errors"
        );

        let human = run(&["check", "--color", "never"], &file);
        let path = file.0.display().to_string();
        let mut expected = String::new();
        for (i, error) in doc.errors().iter().enumerate() {
            let message = match doc.error_context(i) {
                Some(context) => context.message(),
                None => error.code.message().to_owned(),
            };
            expected.push_str(&format!(
                "{path}:{}:{}: {}: {}: {message}\n",
                error.line,
                error.column,
                error.severity(),
                error.code,
            ));
            whole_source_snippet(
                &mut expected,
                doc.source(),
                error.offset,
                error.line,
                "",
                "",
            );
        }
        let errors = doc.errors().iter().filter(|e| e.is_error()).count();
        let warnings = doc.errors().len() - errors;
        expected.push_str(&format!(
            "{path}: {errors} error{}, {warnings} warning{}\n",
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" }
        ));
        if human != expected {
            let first = human
                .lines()
                .zip(expected.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            let show = |s: &str| {
                s.lines()
                    .skip(first.saturating_sub(3))
                    .take(8)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            panic!(
                "check differs at line {first}:\n{}\n--- expected ---\n{}",
                show(&human),
                show(&expected)
            );
        }
    }
}

#[test]
fn stats_streams_the_counts_of_the_whole_document() {
    let text = damaged_records(3, 6_000);
    let file = TempFile::new("stats.xml", &text);
    let doc = Document::parse(&text);
    let got = run(&["stats"], &file);
    let count = |what: &str| -> u64 {
        got.lines()
            .find_map(|line| line.trim().strip_prefix(what))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(u64::MAX)
    };
    let root = doc.root();
    let elements = root.descendants().filter(|n| n.is_element()).count() as u64;
    let texts = root.descendants().filter(|n| n.is_text()).count() as u64;
    let attributes: usize = root.descendants().map(|n| n.attributes().len()).sum();
    assert_eq!(count("elements:"), elements);
    assert_eq!(count("text nodes:"), texts);
    assert_eq!(count("attributes:"), attributes as u64);
    let errors = doc
        .errors()
        .iter()
        .filter(|e: &&ParseError| e.is_error())
        .count() as u64;
    assert_eq!(count("errors:"), errors);
    assert_eq!(doc.encoding_source(), EncodingSource::Default);
    assert!(got.contains("  encoding: UTF-8 (default)"), "{got}");
}

#[test]
fn canon_and_tokens_stream_what_the_whole_input_gives() {
    use xml5dom::serializer::{canonicalize, CanonicalForm};
    use xml5dom::tokenizer::{tokenize, SuiteJson};

    let text = damaged_records(4, 8_000);
    let file = TempFile::new("canon.xml", &text);
    let doc = Document::parse(&text);
    for (form, args) in [
        (CanonicalForm::C14n, &["canon"][..]),
        (
            CanonicalForm::C14nWithComments,
            &["canon", "--form", "c14n-comments"][..],
        ),
        (CanonicalForm::XmlTest, &["canon", "--form", "xmltest"][..]),
        (
            CanonicalForm::XmlTestSecond,
            &["canon", "--form", "xmltest2"][..],
        ),
    ] {
        let got = run(args, &file);
        assert!(
            got == canonicalize(&doc, form),
            "{args:?} differs from the document's canonical form"
        );
    }
    let tokens = run(&["tokens"], &file);
    let expected = tokenize(&text, SuiteJson::default()).finish() + "\n";
    assert!(tokens == expected, "tokens differ from the whole text's");
}

fn whole_source_snippet(
    out: &mut String,
    source: &str,
    offset: usize,
    line: u32,
    red: &str,
    reset: &str,
) {
    use std::fmt::Write as _;

    const WIDTH: usize = 100;
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    // Only a window around the offset is looked at (a character is at most
    // four bytes), so that many errors on one long line cost what they
    // show, not a scan of the line each.
    let mut from = offset.saturating_sub(4 * WIDTH);
    while !source.is_char_boundary(from) {
        from += 1;
    }
    let mut to = (offset + 4 * WIDTH).min(source.len());
    while !source.is_char_boundary(to) {
        to -= 1;
    }
    let start = source[from..offset]
        .rfind(['\n', '\r'])
        .map_or(from, |i| from + i + 1);
    let end = source[offset..to]
        .find(['\n', '\r'])
        .map_or(to, |i| offset + i);
    let cut_before = start == from && from > 0;
    let cut_after = end == to && to < source.len();
    let before: Vec<char> = source[start..offset].chars().collect();
    let after: Vec<char> = source[offset..end].chars().collect();
    // At most WIDTH characters: the caret's context on both sides.
    let mut skip = before.len().saturating_sub(WIDTH / 2);
    if cut_before && skip == 0 {
        skip = before.len().min(1);
    }
    let keep_after = WIDTH.saturating_sub(before.len() - skip);
    let shown = |c: &char| {
        if c.is_control() && *c != '\t' {
            ' '
        } else {
            *c
        }
    };
    let mut text: String = before[skip..].iter().map(shown).collect();
    let mut caret: String = before[skip..]
        .iter()
        .map(|&c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    if skip > 0 {
        text.insert(0, '…');
        caret.insert(0, ' ');
    }
    text.extend(after.iter().take(keep_after).map(shown));
    if after.len() > keep_after || cut_after {
        text.push('…');
    }
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    let _ = writeln!(out, "{gutter} |");
    let _ = writeln!(out, "{number} | {text}");
    let _ = writeln!(out, "{gutter} | {caret}{red}^{reset}");
}

/// `check --format json` streams the file, `Document::from_file` reads it
/// whole: on inputs that reach each limit (set by the same flags as the
/// options), they report the same errors at the same places, the limit
/// included. (The expansion budget was taken from the whole length in the
/// document and not in the stream: on the unbalanced entity below the
/// document went on for thousands of references after `check` stopped.)
#[test]
fn check_streams_the_errors_of_documents_that_reach_each_limit() {
    use xml5dom::{ErrorCode, ParseOptions};

    let unbalanced =
        "<!DOCTYPE r [<!ENTITY e \"<a>\">]>\n<r>".to_owned() + &"&e;".repeat(60_000) + "</r>";
    let padded = unbalanced.replace("<r>", &format!("<!--{}--><r>", "p".repeat(150_000)));
    let mut laughs = String::from("<!DOCTYPE l [<!ENTITY l0 'lol'>");
    for level in 1..10 {
        let references = format!("&l{};", level - 1).repeat(10);
        laughs.push_str(&format!("<!ENTITY l{level} '{references}'>"));
    }
    laughs.push_str("]>\n<l a='&l9;'>&l9;</l>");
    let mut deep = damaged_records(5, 400);
    deep.insert_str(deep.find("<records").unwrap(), "<x><y><z>");
    let cases: Vec<(&str, String, Vec<&str>, ErrorCode)> =
        vec![
        ("unbalanced", unbalanced, vec![], ErrorCode::EntityExpansionLimit),
        ("padded", padded, vec![], ErrorCode::EntityExpansionLimit),
        ("laughs", laughs, vec![], ErrorCode::EntityExpansionLimit),
        (
            "depth",
            deep.clone(),
            vec!["--max-element-depth", "3"],
            ErrorCode::ElementDepthLimit,
        ),
        (
            "attributes",
            deep.clone(),
            vec!["--max-attributes", "1"],
            ErrorCode::AttributeLimit,
        ),
        (
            "names",
            deep.clone(),
            vec!["--max-name-length", "4"],
            ErrorCode::NameLengthLimit,
        ),
        (
            "entities",
            "<!DOCTYPE r [<!ENTITY a 'x'><!ENTITY b '&a;'><!ENTITY c '<c>&b;</c>'>]><r>&c;&b;</r>"
                .to_owned(),
            vec!["--max-entity-depth", "2"],
            ErrorCode::EntityDepthLimit,
        ),
        (
            "input",
            deep,
            vec!["--max-input-bytes", "30000"],
            ErrorCode::InputSizeLimit,
        ),
    ];
    for (what, text, flags, code) in cases {
        let file = TempFile::new(&format!("limit-{what}.xml"), &text);
        let mut options = ParseOptions::default();
        match flags.first().copied() {
            Some("--max-element-depth") => options.limits.max_element_depth = Some(3),
            Some("--max-attributes") => options.limits.max_attributes = 1,
            Some("--max-name-length") => options.limits.max_name_length = 4,
            Some("--max-entity-depth") => options.limits.max_entity_depth = 2,
            Some("--max-input-bytes") => options.limits.max_input_bytes = 30_000,
            _ => {}
        }
        let doc = Document::from_file_with(&file.0, &options).expect("a readable file");
        assert!(
            doc.errors().iter().any(|e| e.code == code),
            "{what}: {code:?} not reached"
        );
        let mut args = vec!["check", "--format", "json"];
        args.extend(flags.iter().copied());
        let json = run(&args, &file);
        let got: Vec<Value> = json
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect();
        let place = |v: &Value| {
            (
                v["line"].as_u64(),
                v["column"].as_u64(),
                v["offset"].as_u64(),
                v["code"].as_str().map(str::to_owned),
                v["severity"].as_str().map(str::to_owned),
            )
        };
        let expected: Vec<_> = doc
            .errors()
            .iter()
            .map(|e| {
                (
                    Some(u64::from(e.line)),
                    Some(u64::from(e.column)),
                    Some(e.offset as u64),
                    Some(e.code.as_str().to_owned()),
                    Some(e.severity().as_str().to_owned()),
                )
            })
            .collect();
        let got_places: Vec<_> = got.iter().map(place).collect();
        if let Some(at) =
            (0..got_places.len().min(expected.len())).find(|&i| got_places[i] != expected[i])
        {
            panic!(
                "{what}: error {at} differs: {:?} streamed, {:?} whole",
                got_places[at], expected[at]
            );
        }
        assert_eq!(got_places.len(), expected.len(), "{what}: how many errors");
        // A limit's message names the flag that raises it.
        for line in got.iter().filter(|v| v["severity"] == "limit") {
            let message = line["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("raise it with --max-"),
                "{what}: {message}"
            );
        }
    }
}
