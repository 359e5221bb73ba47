//! The lossless round trip over the corpus in `tests/corpus` (well-formed
//! documents of many dialects, original test data): each parses without
//! errors and serializes to exactly its bytes. The same documents also
//! pretty-print into output that parses without errors to the same
//! elements and non-whitespace text.

use std::path::{Path, PathBuf};

use xml5dom::{Document, SerializeOptions};

fn corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("the corpus is present") {
            let path = entry.expect("a readable directory").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "xml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_corpus_document_serializes_to_its_own_bytes() {
    let files = corpus();
    assert!(files.len() >= 200, "only {} corpus documents", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("UTF-8 corpus documents");
        let doc = Document::parse(&text);
        if !doc.errors().is_empty() {
            failures.push(format!(
                "{}: parse errors {:?}",
                path.display(),
                doc.errors()
            ));
        } else if doc.to_xml() != text {
            failures.push(format!("{}: not byte-identical", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!("round trip: {} documents, all byte-identical", files.len());
}

/// Elements (by expanded name) and the text that is not only whitespace.
fn content(doc: &Document) -> Vec<String> {
    doc.root()
        .descendants()
        .filter_map(|node| {
            if node.is_element() {
                Some(format!(
                    "<{{{}}}{}>",
                    node.namespace().unwrap_or(""),
                    node.local_name()
                ))
            } else if node.is_text() && !node.text().unwrap_or("").trim().is_empty() {
                Some(node.text().unwrap_or("").to_owned())
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn every_corpus_document_pretty_prints_to_the_same_content() {
    for path in corpus() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus documents");
        let doc = Document::parse(&text);
        let pretty = doc.serialize(&SerializeOptions {
            pretty: Some(2),
            ..Default::default()
        });
        assert!(pretty.repairs.is_empty(), "{}", path.display());
        let again = Document::parse(&pretty.text);
        assert!(
            again.errors().is_empty(),
            "{}: {:?}",
            path.display(),
            again.errors()
        );
        assert_eq!(content(&again), content(&doc), "{}", path.display());
    }
}

/// One broken spot in each corpus document (a bare `&` in its first run of
/// plain text, an unquoted value, `--` in a comment) changes the output at
/// that spot only: everything else (DOCTYPEs and their subsets,
/// references, CDATA, quotes, spacing, line ends) comes back byte for byte
/// (issue 14: "a user repairing a file wants `git diff` to show the
/// repairs and nothing else").
#[test]
fn one_broken_spot_in_a_corpus_document_is_the_only_change() {
    use xml5dom::RepairKind;
    let files = corpus();
    let mut failures = Vec::new();
    let mut tried = [0usize; 3];
    for path in &files {
        let text = std::fs::read_to_string(path).expect("UTF-8 corpus documents");
        let doc = Document::parse(&text);
        let mut cases: Vec<(usize, String, String, RepairKind)> = Vec::new();
        // A bare `&` where the first text that is exactly its source starts.
        let plain = doc.root().descendants().find(|n| {
            n.is_text()
                && n.span().is_some_and(|s| {
                    let source = &text[s.range()];
                    n.text() == Some(source) && source.trim().len() > 2
                })
        });
        if let Some(node) = plain {
            let at = node.span().unwrap().start;
            let broken = format!("{}& {}", &text[..at], &text[at..]);
            let mended = format!("{}&amp; {}", &text[..at], &text[at..]);
            cases.push((0, broken, mended, RepairKind::Escaped));
        }
        // The first value of letters and digits, unquoted.
        let tag = doc.root().descendants().find_map(|n| {
            let span = n.span().filter(|_| n.is_element())?;
            let tag = &text[span.start..];
            let tag = &tag[..tag.find('>')?];
            let at = tag.find("=\"")?;
            let value = &tag[at + 2..];
            let len = value.find('"')?;
            // (Not before `/`: XML5 reads `x=1/>` as the value `1/`.)
            let simple = len > 0
                && value[..len].bytes().all(|b| b.is_ascii_alphanumeric())
                && !value[len + 1..].trim_start().starts_with('/');
            simple.then(|| (span.start + at + 1, len))
        });
        if let Some((at, len)) = tag {
            let value = &text[at + 1..at + 1 + len];
            let broken = format!("{}{value}{}", &text[..at], &text[at + len + 2..]);
            cases.push((1, broken, text.clone(), RepairKind::AttributeRewritten));
        }
        // `--` inside the first comment.
        let comment = doc.root().descendants().find(|n| n.is_comment());
        if let Some(span) = comment.and_then(|c| c.span()) {
            let at = span.start + "<!--".len();
            let broken = format!("{}a--b{}", &text[..at], &text[at..]);
            let mended = format!("{}a- -b{}", &text[..at], &text[at..]);
            cases.push((2, broken, mended, RepairKind::CommentText));
        }
        for (kind, broken, mended, repair) in cases {
            tried[kind] += 1;
            let out = Document::parse(&broken).serialize(&SerializeOptions::default());
            let repairs: Vec<_> = out.repairs.iter().map(|r| r.kind).collect();
            if out.text != mended || repairs != [repair] {
                failures.push(format!(
                    "{} ({repair}): repairs {repairs:?}, output differs: {}",
                    path.display(),
                    out.text != mended
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        tried[0] >= 200 && tried[1] >= 200 && tried[2] >= 20,
        "{tried:?}"
    );
    eprintln!(
        "one broken spot: {} bare &, {} unquoted values, {} comments, each the only change",
        tried[0], tried[1], tried[2]
    );
}
