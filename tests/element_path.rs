//! ElementPath against Python: every call of tests/element_path/cases.txt
//! (paths written by hand) and fuzz.txt (random short paths), with the
//! results Python 3.11's `xml.etree.ElementTree` gave
//! (tools/gen_element_path_cases.py), run through xml5dom and compared.
//! Calls without a namespace map go through the `Node` methods, as Python's
//! `Element` methods; calls with one through `ElementPath::compile_with`.
//! Every call without a map also runs through `ElementPath::compile`, which
//! must agree except where it rejects a path that CPython's `find`,
//! `findall` and `findtext` never parse.
//!
//! Then two checks of our own: a query over a document 1,000,000 deep on a
//! 4 MiB stack, and thousands of random malformed paths that must never
//! panic.
//!
//! Runs without libtest (`harness = false` in Cargo.toml) so that the
//! summary lines are always shown; exits non-zero with a diff of every
//! mismatch.

use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;

use xml5dom::query::element_path::{ElementPath, ElementPathError};
use xml5dom::{Document, Node};

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/element_path");

/// One call and what Python gave.
struct Case {
    /// Where the call is, as `file:line`.
    origin: String,
    document: String,
    namespaces: Option<Vec<(String, String)>>,
    /// The context element's position (`/1` is the root element).
    context: String,
    function: String,
    path: String,
    expected: Vec<String>,
}

/// A path or URI as the files spell it: bare, or a JSON string.
fn read_arg(text: &str) -> String {
    if text.starts_with('"') {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("bad JSON string {text}: {e}"))
    } else {
        text.to_string()
    }
}

/// The first argument of `rest` (a bare word or a JSON string) and the
/// rest.
fn split_word(rest: &str) -> (String, &str) {
    if rest.starts_with('"') {
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<String>();
        let word = stream
            .next()
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("bad JSON string in {rest}"));
        let after = &rest[stream.byte_offset()..];
        (word, after.trim_start_matches(' '))
    } else {
        let (word, after) = rest.split_once(' ').unwrap_or((rest, ""));
        (word.to_string(), after)
    }
}

fn load_cases(file: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(Path::new(SUITE).join(file))
        .unwrap_or_else(|e| panic!("read {file}: {e}"));
    let mut cases: Vec<Case> = Vec::new();
    let (mut document, mut context) = (String::new(), "/1".to_string());
    let mut namespaces: Option<Vec<(String, String)>> = None;
    for (index, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(' ').unwrap_or((line, ""));
        match keyword {
            "document" => {
                document = rest.to_string();
                context = "/1".to_string();
                namespaces = None;
            }
            "namespaces" => namespaces = (rest == "{}").then(Vec::new),
            "ns" => {
                let (prefix, uri) = split_word(rest);
                namespaces
                    .get_or_insert_with(Vec::new)
                    .push((prefix, read_arg(uri)));
            }
            "context" => context = rest.split(' ').next().unwrap_or("/1").to_string(),
            "call" => {
                let (function, path) = rest.split_once(' ').unwrap_or((rest, ""));
                cases.push(Case {
                    origin: format!("{file}:{}", index + 1),
                    document: document.clone(),
                    namespaces: namespaces.clone(),
                    context: context.clone(),
                    function: function.to_string(),
                    path: read_arg(path),
                    expected: Vec::new(),
                });
            }
            _ => match cases.last_mut() {
                Some(case) => case.expected.push(line.to_string()),
                None => panic!("{file}:{}: a result before any call", index + 1),
            },
        }
    }
    cases
}

/// `/1` for the root element, then 1-based positions among element
/// children.
fn position(node: Node<'_>) -> String {
    let mut steps = Vec::new();
    let mut at = node;
    while let Some(parent) = at.parent() {
        steps.push(at.preceding_sibling_elements().count() + 1);
        at = parent;
    }
    let steps: Vec<String> = steps.iter().rev().map(|n| n.to_string()).collect();
    format!("/{}", steps.join("/"))
}

fn element_at<'a>(doc: &'a Document, position: &str) -> Node<'a> {
    let mut node = doc.root();
    for step in position.trim_start_matches('/').split('/') {
        let n: usize = step.parse().expect("a position");
        node = node
            .child_elements()
            .nth(n - 1)
            .unwrap_or_else(|| panic!("no element at {position}"));
    }
    node
}

/// What a call gave, in the files' format.
type Outcome = Result<Vec<String>, ElementPathError>;

fn list<'a>(nodes: impl IntoIterator<Item = Node<'a>>) -> Vec<String> {
    let lines: Vec<String> = nodes
        .into_iter()
        .map(|n| format!("  {}", position(n)))
        .collect();
    std::iter::once(format!("result {}", lines.len()))
        .chain(lines)
        .collect()
}

fn element(found: Option<Node<'_>>) -> Vec<String> {
    vec![found.map_or("none".into(), |n| format!("element {}", position(n)))]
}

fn text(found: Option<String>) -> Vec<String> {
    vec![found.map_or("none".into(), |t| {
        format!("text {}", serde_json::to_string(&t).expect("JSON"))
    })]
}

fn run_node(context: Node<'_>, function: &str, path: &str) -> Outcome {
    Ok(match function {
        "find" => element(context.find(path)?),
        "findall" => list(context.findall(path)?),
        "iterfind" => list(context.iterfind(path)?),
        "findtext" => text(context.findtext(path)?),
        other => panic!("unknown function {other}"),
    })
}

fn run_compiled(context: Node<'_>, function: &str, compiled: &ElementPath) -> Vec<String> {
    match function {
        "find" => element(compiled.find(context)),
        "findall" => list(compiled.findall(context)),
        "iterfind" => list(compiled.iterfind(context)),
        "findtext" => text(compiled.findtext(context)),
        other => panic!("unknown function {other}"),
    }
}

/// Whether our error is the one Python raised: the same kind, and for a
/// Python `SyntaxError`, Python's message within ours. (Python's
/// `KeyError`s and `TypeError`s are its parser tripping over the path.)
fn same_error(python: &str, ours: &ElementPathError) -> bool {
    let Some(message) = python.strip_prefix("error SyntaxError: ") else {
        return matches!(ours, ElementPathError::Syntax { .. });
    };
    let kind_agrees = if message.starts_with("prefix ") {
        matches!(ours, ElementPathError::UnboundPrefix { .. })
    } else if message.starts_with("unsupported ") {
        matches!(ours, ElementPathError::Unsupported { .. })
    } else {
        matches!(ours, ElementPathError::Syntax { .. })
    };
    kind_agrees && ours.to_string().contains(message)
}

/// Our outcome in the files' format: an error that agrees with Python's is
/// written as Python's, so that only disagreements show in the diff.
fn lines(outcome: Outcome, expected: &[String]) -> Vec<String> {
    match outcome {
        Ok(lines) => lines,
        Err(error) => match expected {
            [python] if same_error(python, &error) => vec![python.clone()],
            _ => vec![format!("error (ours) {error:?}: {error}")],
        },
    }
}

struct Tally {
    passed: usize,
    failed: usize,
    expected: String,
    actual: String,
    /// Paths `ElementPath::compile` rejects that CPython's find, findall and
    /// findtext compare with tags without parsing.
    rejected_by_compile: usize,
    compiled_mismatches: Vec<String>,
}

fn run_file(file: &str, documents: &mut HashMap<String, Document>) -> Tally {
    let mut tally = Tally {
        passed: 0,
        failed: 0,
        expected: String::new(),
        actual: String::new(),
        rejected_by_compile: 0,
        compiled_mismatches: Vec::new(),
    };
    for case in load_cases(file) {
        let doc = documents.entry(case.document.clone()).or_insert_with(|| {
            let path = Path::new(SUITE).join("documents").join(&case.document);
            let source = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
            Document::parse(&source)
        });
        let context = element_at(doc, &case.context);
        let outcome = match &case.namespaces {
            None => run_node(context, &case.function, &case.path),
            Some(map) => {
                let map: Vec<(&str, &str)> =
                    map.iter().map(|(p, u)| (p.as_str(), u.as_str())).collect();
                ElementPath::compile_with(&case.path, &map)
                    .map(|compiled| run_compiled(context, &case.function, &compiled))
            }
        };
        let node_errored = outcome.is_err();
        let actual = lines(outcome, &case.expected);
        if actual == case.expected {
            tally.passed += 1;
        } else {
            tally.failed += 1;
            let heading = format!(
                "{} {} {:?} (context {}, namespaces {:?})\n",
                case.origin, case.function, case.path, case.context, case.namespaces
            );
            tally.expected.push_str(&heading);
            tally.actual.push_str(&heading);
            for line in &case.expected {
                tally.expected.push_str(&format!("{line}\n"));
            }
            for line in &actual {
                tally.actual.push_str(&format!("{line}\n"));
            }
        }
        if case.namespaces.is_none() {
            match ElementPath::compile(&case.path) {
                Ok(compiled) => {
                    let once = run_compiled(context, &case.function, &compiled);
                    if once != actual {
                        tally.compiled_mismatches.push(format!(
                            "{} {} {:?}: compiled {once:?}, on the node {actual:?}",
                            case.origin, case.function, case.path
                        ));
                    }
                }
                Err(_) if node_errored => {}
                Err(_) => tally.rejected_by_compile += 1,
            }
        }
    }
    tally
}

/// Queries over a document nested 1,000,000 deep, on a 4 MiB stack.
fn deep_query() {
    const DEPTH: usize = 1_000_000;
    std::thread::Builder::new()
        .stack_size(4 * 1024 * 1024)
        .spawn(|| {
            let mut xml = String::with_capacity(DEPTH * 7 + 16);
            for _ in 0..DEPTH {
                xml.push_str("<a>");
            }
            xml.push_str("<x>leaf</x>");
            for _ in 0..DEPTH {
                xml.push_str("</a>");
            }
            let doc = Document::parse(&xml);
            let root = doc.root_element().expect("a root");
            let found = root.findall(".//x").expect("a path");
            assert_eq!(found.len(), 1);
            assert_eq!(
                root.findtext(".//x").expect("a path").as_deref(),
                Some("leaf")
            );
            let parent = root.find(".//x/..").expect("a path").expect("x's parent");
            assert_eq!(parent.ancestors().count(), DEPTH);
            assert_eq!(root.iterfind(".//a[1]").expect("a path").count(), DEPTH - 1);
            assert_eq!(root.findall(".[.='leaf']").expect("a path").len(), 1);
            assert_eq!(root.findall(".//x/../../..").expect("a path").len(), 1);
            // A path as long as the document is deep: steps are not
            // recursion either.
            let long = format!("{}x", "a/".repeat(DEPTH - 1));
            let found = root.find(&long).expect("a path").expect("the x");
            assert_eq!(found.name(), "x");
        })
        .expect("spawn a thread")
        .join()
        .expect("no stack overflow or panic");
}

/// Random short paths from a small alphabet: compiling and running them
/// must never panic, and error positions lie within the path.
fn random_paths() -> usize {
    const ALPHABET: &[&str] = &[
        "a", "b", "p:", ":", "/", "//", ".", "..", "*", "[", "]", "@", "=", "!", "'", "\"", "(",
        ")", "-", "1", "0", "last", " ", "{", "}", "{*}", "{}", "\t", "é",
    ];
    let doc = Document::parse(
        "<r xmlns:p='urn:p' id='1'><a x='1'>t<b/>u</a><p:a p:x='2'><b>v</b></p:a><a/></r>",
    );
    let root = doc.root_element().expect("a root");
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        // xorshift64
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let count = 5000;
    for _ in 0..count {
        let len = (next() % 10) as usize;
        let path: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        for compiled in [
            ElementPath::compile(&path),
            ElementPath::compile_with(&path, &[("p", "urn:p"), ("", "urn:d")]),
        ] {
            match compiled {
                Ok(compiled) => {
                    compiled.findall(root);
                    compiled.findtext(root);
                    compiled.iterfind(doc.root()).count();
                }
                Err(error) => assert!(error.position() <= path.len(), "{path:?}: {error}"),
            }
        }
        let _ = root.find(&path);
        let _ = root.findall(&path);
        let _ = root.findtext(&path);
        let _ = root.iterfind(&path).map(Iterator::count);
    }
    count
}

fn main() -> ExitCode {
    let mut documents = HashMap::new();
    let mut failed = false;
    for (file, label) in [
        ("cases.txt", "element_path"),
        ("fuzz.txt", "element_path, random paths"),
    ] {
        let tally = run_file(file, &mut documents);
        println!("{label}: {} passed, {} failed", tally.passed, tally.failed);
        println!(
            "{label}, compiled once: {} mismatches; {} paths rejected by compile that \
             CPython's find, findall and findtext compare with tags unparsed",
            tally.compiled_mismatches.len(),
            tally.rejected_by_compile
        );
        for mismatch in &tally.compiled_mismatches {
            println!("  {mismatch}");
        }
        if tally.failed > 0 {
            // Panics with a diff of every mismatch, expected (Python) first.
            let result = std::panic::catch_unwind(|| {
                pretty_assertions::assert_eq!(tally.expected, tally.actual)
            });
            failed |= result.is_err();
        }
        failed |= !tally.compiled_mismatches.is_empty();
    }
    deep_query();
    println!("element_path: .//x on a document 1,000,000 deep, on a 4 MiB stack: ok");
    let count = random_paths();
    println!("element_path: {count} random malformed paths, none panicked");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
