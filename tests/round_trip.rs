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
