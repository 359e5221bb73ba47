//! The vendored xml5lib-tests tokenizer suite, loaded and normalized once for
//! every test target that runs it (`tests/xml5lib.rs`, `cli/tests/cli.rs`).

// Each target uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

pub mod diff;
pub mod entities;
pub mod invariants;
pub mod shapes;

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

/// The repository's root: the library's manifest directory, which is the
/// parent of the command line's (`cli/`, whose tests use this module too).
pub fn repository() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    if manifest.join("tests/common").is_dir() {
        manifest
    } else {
        manifest.parent().unwrap_or(manifest)
    }
}

fn suite_dir() -> PathBuf {
    repository().join("tests/xml5lib-tests/tokenizer")
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

/// One case of a tree-construction `.dat` file.
pub struct TreeCase {
    /// The file it comes from, e.g. `namespace.dat`.
    pub file: String,
    /// Its 1-based line in the file.
    pub line: usize,
    pub data: String,
    /// The `#errors` lines, when the case has that section (the suite's own
    /// files do not).
    pub errors: Option<Vec<String>>,
    /// The `#document` section, each line ending in a newline.
    pub document: String,
}

/// The cases of every `.dat` file in `dir` (relative to the repository), in
/// file order.
pub fn load_tree_cases(dir: &str) -> Vec<TreeCase> {
    let dir = repository().join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory").path())
        .filter(|path| path.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("readable .dat file");
        cases.extend(parse_dat(&file, &text));
    }
    cases
}

/// Splits a `.dat` file into cases: `#data` lines up to `#errors` or
/// `#document`, error lines up to `#document`, then dump lines up to a blank
/// line followed by `#data` (or the end of the file).
pub fn parse_dat(file: &str, text: &str) -> Vec<TreeCase> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "#data" {
            i += 1;
            continue;
        }
        let line = i + 1;
        i += 1;
        let mut data = Vec::new();
        while i < lines.len() && lines[i] != "#errors" && lines[i] != "#document" {
            data.push(lines[i]);
            i += 1;
        }
        let mut errors = None;
        if i < lines.len() && lines[i] == "#errors" {
            i += 1;
            let mut list = Vec::new();
            while i < lines.len() && lines[i] != "#document" {
                if !lines[i].is_empty() {
                    list.push(lines[i].to_owned());
                }
                i += 1;
            }
            errors = Some(list);
        }
        assert!(i < lines.len(), "{file}:{line}: no #document section");
        i += 1;
        let mut document = Vec::new();
        while i < lines.len() && !(lines[i].is_empty() && lines.get(i + 1) == Some(&"#data")) {
            document.push(lines[i]);
            i += 1;
        }
        while document.last() == Some(&"") {
            document.pop();
        }
        let mut dump = document.join("\n");
        if !dump.is_empty() {
            dump.push('\n');
        }
        cases.push(TreeCase {
            file: file.to_owned(),
            line,
            data: data.join("\n"),
            errors,
            document: dump,
        });
    }
    cases
}

/// The errors of a parse in the `.dat` `#errors` form, `OFFSET: code`.
pub fn error_lines(errors: &[xml5dom::ParseError]) -> Vec<String> {
    errors
        .iter()
        .map(|e| format!("{}: {}", e.offset, e.code))
        .collect()
}

/// xorshift64*: a small deterministic generator, so that generated test
/// inputs reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// The generator for case `index` of a run seeded with `seed`: each case
    /// gets its own, so that one failing case reproduces alone.
    pub fn for_case(seed: u64, index: u64) -> Rng {
        // splitmix64 of the pair: well spread, and never 0 (xorshift's
        // fixed point) in practice; 0 is mapped away anyway.
        let mut z = seed.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)).max(1))
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    /// One of `items` (which must not be empty).
    pub fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
}

/// A dump as the suite writes a name whose prefix nothing declares: with
/// no namespace (`<n1:c>`, `namespace.dat` a4 to a7), the only way its
/// format has to say that the prefix is bound to nothing. xml5dom puts
/// such a name in the placeholder namespace of its prefix,
/// `{urn:xml5dom:undeclared:n1}n1:c` (docs/conformance.md, Namespaces), so
/// that the tree, the written output and queries agree on it; that
/// namespace, followed by a name with its own prefix, is what the suite
/// writes without one.
pub fn in_suite_notation(dump: &str) -> String {
    const OPEN: &str = "{urn:xml5dom:undeclared:";
    let mut out = String::with_capacity(dump.len());
    let mut rest = dump;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + OPEN.len()..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let (prefix, name) = (&after[..close], &after[close + 1..]);
        let own_prefix = name
            .strip_prefix(prefix)
            .is_some_and(|n| n.starts_with(':'));
        if own_prefix {
            rest = name;
        } else {
            out.push_str(OPEN);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}
