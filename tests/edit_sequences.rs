//! Random edit sequences on real and generated well-formed documents
//! (issue 15): every edit kind, through the public API, with prefixed and
//! namespaced names, new and existing namespace URIs, moves between
//! differently scoped elements, and text XML must escape or cannot carry;
//! after each sequence the document must write back as docs/editing.md
//! promises (`tests/common/edit_checks.rs`).
//!
//! `XML5DOM_EDIT_SEQUENCES=N` runs N sequences per corpus document and
//! 100 N per shape (default 2);
//! `XML5DOM_SEED` changes the seed.

mod common;
#[allow(dead_code)]
#[path = "common/edit_checks.rs"]
mod edit_checks;

use std::path::Path;

use common::Rng;
use edit_checks::{edit_sequence, edit_sequence_after_binding, Choose, SHAPES, UNDECLARED_SHAPES};

impl Choose for Rng {
    fn below(&mut self, n: usize) -> usize {
        Rng::below(self, n)
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `sequences` sequences on `text`; returns how many ran (none on a
/// document that is not well-formed).
fn run(text: &str, seed: u64, sequences: u64, elements: Option<usize>) -> u64 {
    let mut ran = 0;
    for i in 0..sequences {
        let mut rng = Rng::for_case(seed, i);
        let steps = 1 + rng.below(12);
        ran += u64::from(edit_sequence(text, &mut rng, steps, elements));
    }
    ran
}

#[test]
fn random_edits_on_shapes_write_back() {
    let seed = env_number("XML5DOM_SEED", 15);
    let sequences = env_number("XML5DOM_EDIT_SEQUENCES", 2) * 100;
    let mut ran = 0;
    for (i, text) in SHAPES.iter().enumerate() {
        ran += run(text, seed + i as u64, sequences, None);
    }
    println!(
        "edit sequences on {} shapes: {ran} (seed {seed})",
        SHAPES.len()
    );
}

/// Documents that use prefixes undeclared keep the promise once those are
/// bound (`Document::bind_undeclared_prefix`, issue 31), and after random
/// edits from there.
#[test]
fn random_edits_after_binding_undeclared_prefixes_write_back() {
    let seed = env_number("XML5DOM_SEED", 15);
    let sequences = env_number("XML5DOM_EDIT_SEQUENCES", 2) * 100;
    let mut ran = 0;
    for (i, text) in UNDECLARED_SHAPES.iter().enumerate() {
        for n in 0..sequences {
            let mut rng = Rng::for_case(seed + 1000 + i as u64, n);
            let steps = 1 + rng.below(12);
            ran += u64::from(edit_sequence_after_binding(text, &mut rng, steps, None));
        }
    }
    println!(
        "edit sequences after binding on {} shapes: {ran} (seed {seed})",
        UNDECLARED_SHAPES.len()
    );
    assert!(ran > sequences, "most bindings are accepted");
}

#[test]
fn random_edits_on_the_corpus_write_back() {
    let seed = env_number("XML5DOM_SEED", 15);
    let sequences = env_number("XML5DOM_EDIT_SEQUENCES", 2);
    let mut files = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "xml") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 300, "the corpus is there");
    let mut ran = 0;
    for (i, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        // Big files: fewer sequences, a sample of elements written alone.
        let big = text.len() > 50_000;
        let count = if big { 1 } else { sequences };
        ran += run(&text, seed + i as u64, count, big.then_some(20));
    }
    println!(
        "edit sequences on {} corpus documents: {ran} (seed {seed})",
        files.len()
    );
}
