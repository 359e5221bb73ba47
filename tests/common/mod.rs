//! The vendored xml5lib-tests tokenizer suite, loaded and normalized once for
//! every test target that runs it (`tests/xml5lib.rs`, `tests/cli.rs`).

// Each target uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Cases the suite gets wrong for XML, with the output xml5dom gives
/// instead: (file, input, xml5dom's output). Each is explained in
/// docs/conformance.md ("Allow-list"); the tests check that xml5dom still
/// gives exactly the output listed here, so the list cannot hide a
/// regression.
pub const ALLOW_LIST: &[(&str, &str, &str)] = &[
    (
        "doctype.test",
        "<!DOCTYPE a[",
        r#"["ParseError", ["DOCTYPE", "a", null, null]]"#,
    ),
    (
        "doctype.test",
        "<!DOCTYPEa[",
        r#"["ParseError", "ParseError", ["DOCTYPE", "a", null, null]]"#,
    ),
];

/// One tokenizer case.
pub struct Case {
    /// The suite file it comes from, e.g. `doctype.test`.
    pub file: String,
    pub description: String,
    pub input: String,
    /// The expected output, normalized; the allow-list's for its cases.
    pub expected: Value,
    /// Whether the case is on the allow-list.
    pub allowed: bool,
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/xml5lib-tests/tokenizer")
}

/// Every case of every `*.test` file, in file order.
pub fn load_cases() -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir(suite_dir())
        .expect("the vendored suite is present")
        .map(|entry| entry.expect("readable directory").path())
        .filter(|path| path.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("readable suite file");
        let json: Value = serde_json::from_str(&text).expect("valid JSON");
        for test in json["tests"].as_array().expect("a tests array") {
            let input = test["input"].as_str().expect("string input").to_owned();
            let listed = ALLOW_LIST
                .iter()
                .find(|(f, i, _)| *f == file && *i == input);
            let expected = match listed {
                Some((_, _, ours)) => serde_json::from_str(ours).expect("valid allow-list JSON"),
                None => normalize(&test["output"]),
            };
            cases.push(Case {
                file: file.clone(),
                description: test["description"].as_str().unwrap_or("").to_owned(),
                input,
                expected,
                allowed: listed.is_some(),
            });
        }
    }
    cases
}

/// Drops the fifth DOCTYPE field (HTML's quirks flag; see
/// docs/conformance.md) and coalesces adjacent character tokens.
pub fn normalize(output: &Value) -> Value {
    let mut tokens: Vec<Value> = Vec::new();
    for token in output.as_array().expect("an output array") {
        let mut token = token.clone();
        if let Some(fields) = token.as_array_mut() {
            if fields[0] == "DOCTYPE" && fields.len() == 5 {
                fields.pop();
            }
            if fields[0] == "Character" {
                if let Some(previous) = tokens.last_mut().and_then(Value::as_array_mut) {
                    if previous[0] == "Character" {
                        let joined = format!(
                            "{}{}",
                            previous[1].as_str().unwrap_or(""),
                            fields[1].as_str().unwrap_or("")
                        );
                        previous[1] = Value::String(joined);
                        continue;
                    }
                }
            }
        }
        tokens.push(token);
    }
    Value::Array(tokens)
}
