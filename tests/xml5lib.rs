//! The xml5lib-tests conformance suite, vendored under `tests/xml5lib-tests`.
//!
//! Runs every case of every tokenizer file three ways: the whole input at
//! once, split into two chunks at every character boundary, and fed one
//! character at a time. Tokens and parse errors are compared in exact order.
//! Prints one summary line per run and exits non-zero on any failure.
//!
//! This target runs without libtest (`harness = false` in Cargo.toml) so that
//! the summary lines are always shown.

use std::process::ExitCode;

mod common;

use common::{
    error_lines, in_suite_notation, load_cases, load_tree_cases, Case, TreeCase, ALLOW_LIST,
};
use serde_json::Value;
use xml5dom::tokenizer::{tokenize, SuiteJson, Tokenizer};
use xml5dom::Document;

fn parse(json: &str) -> Value {
    serde_json::from_str(json)
        .unwrap_or_else(|e| panic!("xml5dom printed invalid JSON ({e}): {json}"))
}

fn run_whole(input: &str) -> String {
    tokenize(input, SuiteJson::default()).finish()
}

fn run_chunks<'a>(chunks: impl IntoIterator<Item = &'a str>) -> String {
    let mut tokenizer = Tokenizer::new(SuiteJson::default());
    for chunk in chunks {
        tokenizer.feed(chunk);
    }
    tokenizer.finish().finish()
}

fn boundaries(input: &str) -> impl Iterator<Item = usize> + '_ {
    input
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(input.len()))
}

struct Tally {
    passed: usize,
    failed: usize,
    allowed: usize,
    shown: usize,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            passed: 0,
            failed: 0,
            allowed: 0,
            shown: 0,
        }
    }

    fn record(&mut self, case: &Case, how: &str, got: &str) {
        let expected = &case.expected;
        if parse(got) == *expected {
            if case.allowed {
                self.allowed += 1;
            } else {
                self.passed += 1;
            }
            return;
        }
        self.failed += 1;
        if self.shown < 20 {
            self.shown += 1;
            eprintln!(
                "FAIL {} {:?} ({how})\n  input:    {}\n  expected: {}\n  got:      {}",
                case.file,
                case.description,
                serde_json::to_string(&case.input).unwrap(),
                expected,
                got
            );
        }
    }

    fn report(&self, name: &str) -> bool {
        let allowed = if self.allowed > 0 {
            format!(
                " ({} more on the allow-list in docs/conformance.md)",
                self.allowed
            )
        } else {
            String::new()
        };
        println!(
            "{name}: {} passed, {} failed{allowed}",
            self.passed, self.failed
        );
        self.failed == 0
    }
}

fn main() -> ExitCode {
    let cases = load_cases();
    assert_eq!(cases.len(), 5863, "the suite has 5,863 tokenizer cases");
    assert!(
        ALLOW_LIST.len() * 100 < cases.len(),
        "the allow-list must stay under 1% of the suite"
    );

    let mut whole = Tally::new();
    let mut split = Tally::new();
    let mut single = Tally::new();
    for case in &cases {
        whole.record(case, "whole input", &run_whole(&case.input));

        // Split into two chunks at every character boundary: a case passes
        // when every split gives the expected output.
        let mut failure = None;
        for at in boundaries(&case.input) {
            let got = run_chunks([&case.input[..at], &case.input[at..]]);
            if parse(&got) != case.expected {
                failure = Some((at, got));
                break;
            }
        }
        match failure {
            None => split.record(case, "split", &run_whole(&case.input)),
            Some((at, got)) => split.record(case, &format!("split at byte {at}"), &got),
        }

        let chars: Vec<String> = case.input.chars().map(String::from).collect();
        let got = run_chunks(chars.iter().map(String::as_str));
        single.record(case, "one character at a time", &got);
    }

    let suite_trees = load_tree_cases("tests/xml5lib-tests/tree-construction");
    assert_eq!(
        suite_trees.len(),
        36,
        "the suite has 36 tree-construction cases"
    );
    let own_trees = load_tree_cases("tests/tree-construction");
    let (suite_passed, suite_failed) = run_tree_cases(&suite_trees, true);
    let (own_passed, own_failed) = run_tree_cases(&own_trees, false);

    let ok = [
        whole.report("xml5lib tokenizer"),
        split.report("xml5lib tokenizer, split in two at every character boundary"),
        single.report("xml5lib tokenizer, fed one character at a time"),
    ];
    println!("xml5lib tree-construction: {suite_passed} passed, {suite_failed} failed");
    println!(
        "tree-construction, suite and own cases: {} passed, {} failed ({} from the suite, {} of our own in tests/tree-construction)",
        suite_passed + own_passed,
        suite_failed + own_failed,
        suite_trees.len(),
        own_trees.len()
    );
    let ok = [ok[0], ok[1], ok[2], suite_failed == 0, own_failed == 0];
    if ok.iter().all(|&ok| ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Parses each case and compares the `#document` dump and, where the case
/// has an `#errors` section, the errors (`OFFSET: code`, or just `code`).
/// `suite`: the case is the suite's, which writes undeclared prefixes its
/// own way (see [`in_suite_notation`]).
fn run_tree_cases(cases: &[TreeCase], suite: bool) -> (usize, usize) {
    let (mut passed, mut failed) = (0, 0);
    for case in cases {
        let doc = Document::parse(&case.data);
        let mut dump = doc.to_tree_dump();
        if suite {
            dump = in_suite_notation(&dump);
        }
        let got_errors = error_lines(doc.errors());
        let errors_match = case.errors.as_ref().is_none_or(|expected| {
            expected.len() == got_errors.len()
                && expected.iter().zip(&got_errors).all(|(want, got)| {
                    // A bare code checks the code only.
                    want == got || got.split_once(": ").is_some_and(|(_, code)| code == want)
                })
        });
        if dump == case.document && errors_match {
            passed += 1;
            continue;
        }
        failed += 1;
        if failed <= 20 {
            eprintln!(
                "FAIL {}:{}\n  data:\n{}\n  expected document:\n{}  got document:\n{}  expected errors: {:?}\n  got errors:      {:?}",
                case.file, case.line, case.data, case.document, dump, case.errors, got_errors
            );
        }
    }
    (passed, failed)
}
