//! XPath 1.0 against libxml2: every case under `tests/xpath/cases/`.
//!
//! The expected results of the well-formed documents were generated once
//! with libxml2 (through lxml, `tools/gen_xpath_cases.py`); those of the
//! malformed documents were worked out by hand on the tree xml5dom builds,
//! with the reasoning beside each case. `tests/xpath/README.md` describes
//! the format. Prints one summary line and exits non-zero on any mismatch.
//!
//! Runs without libtest (`harness = false`) so the summary is always shown.

use std::path::Path;
use std::process::ExitCode;

use xml5dom::query::{Bindings, Value, XNode, XPath};
use xml5dom::{Document, Node, NodeType};

fn main() -> ExitCode {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/xpath");
    let mut files: Vec<_> = std::fs::read_dir(dir.join("cases"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let (mut passed, mut failures, mut documents) = (0, Vec::new(), 0);
    for file in &files {
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let text = std::fs::read_to_string(file).expect("case file is UTF-8");
        let bytes = std::fs::read(dir.join("documents").join(format!("{stem}.xml")))
            .unwrap_or_else(|e| panic!("document for {stem}: {e}"));
        let doc = Document::parse_bytes(&bytes);
        documents += 1;
        for (case, outcome) in run_file(&doc, &text) {
            match outcome {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{stem}: {case}\n{why}")),
            }
        }
    }
    println!(
        "xpath: {passed} passed, {} failed ({} documents)",
        failures.len(),
        documents
    );
    for failure in failures.iter().take(40) {
        println!("\n{failure}");
    }
    if failures.is_empty() && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A case as the file gives it.
struct Case {
    context: Option<String>,
    expr: String,
    expected: Vec<String>,
}

fn run_file(doc: &Document, text: &str) -> Vec<(String, Result<(), String>)> {
    let mut bindings = Bindings::new();
    // libxml2 binds no prefix the caller did not; neither do the cases.
    bindings.document_prefixes(false);
    let mut cases = Vec::new();
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .peekable();
    let mut context = None;
    while let Some(line) = lines.next() {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "ns" => {
                let (prefix, uri) = rest.split_once(' ').expect("ns PREFIX URI");
                bindings.namespace(prefix, uri);
            }
            "var" => {
                let mut parts = rest.splitn(3, ' ');
                let (name, kind, value) = (
                    parts.next().unwrap_or(""),
                    parts.next().unwrap_or(""),
                    parts.next().unwrap_or(""),
                );
                let value = match kind {
                    "number" => Value::Number(parse_number(value)),
                    "string" => Value::String(serde_json::from_str(value).expect("JSON string")),
                    "boolean" => Value::Boolean(value == "true"),
                    _ => {
                        let xpath = XPath::compile(value).expect("variable expression");
                        xpath
                            .evaluate_with(doc.root(), &bindings)
                            .expect("variable value")
                    }
                };
                bindings.variable(name, value);
            }
            "context" => context = Some(rest.to_owned()),
            "expr" => {
                let mut expected = Vec::new();
                if let Some(result) = lines.next() {
                    expected.push(result.to_owned());
                    if let Some(n) = result.strip_prefix("nodeset ") {
                        for _ in 0..n.parse::<usize>().expect("node count") {
                            expected.push(lines.next().unwrap_or("").trim().to_owned());
                        }
                    }
                }
                cases.push(Case {
                    context: context.take(),
                    expr: rest.to_owned(),
                    expected,
                });
            }
            other => panic!("unknown line kind {other:?}: {line}"),
        }
    }
    cases
        .into_iter()
        .map(|case| {
            let name = match &case.context {
                Some(c) => format!("context {c}\nexpr {}", case.expr),
                None => format!("expr {}", case.expr),
            };
            (name, check(doc, &bindings, &case))
        })
        .collect()
}

fn check(doc: &Document, bindings: &Bindings<'_>, case: &Case) -> Result<(), String> {
    let context = match &case.context {
        None => doc.root(),
        Some(expr) => {
            let nodes = XPath::compile(expr)
                .and_then(|x| x.select_with(doc.root(), bindings))
                .map_err(|e| format!("context failed: {e}"))?;
            nodes
                .first()
                .and_then(XNode::as_node)
                .ok_or("empty context")?
        }
    };
    let got = XPath::compile(&case.expr).and_then(|x| x.evaluate_with(context, bindings));
    let expected = case.expected.first().map(String::as_str).unwrap_or("");
    let got_lines = match &got {
        Err(e) => {
            if expected.starts_with("error") {
                return Ok(());
            }
            vec![format!("error {e}")]
        }
        Ok(value) => describe(value),
    };
    if let (Some(want), Ok(Value::Number(n))) = (expected.strip_prefix("number "), &got) {
        let want = parse_number(want);
        let same = (want.is_nan() && n.is_nan())
            || (want == *n && want.is_sign_negative() == n.is_sign_negative());
        return if same {
            Ok(())
        } else {
            Err(format!(
                "  expected: number {want:?}\n  got:      number {n:?}"
            ))
        };
    }
    if got_lines == case.expected {
        Ok(())
    } else {
        Err(format!(
            "  expected: {}\n  got:      {}",
            case.expected.join("\n            "),
            got_lines.join("\n            ")
        ))
    }
}

/// Python's `repr(float)`: `inf`, `-inf`, `nan`, `1e+21`, `-0.0`.
fn parse_number(text: &str) -> f64 {
    text.parse().unwrap_or_else(|_| panic!("number {text:?}"))
}

fn describe(value: &Value<'_>) -> Vec<String> {
    match value {
        Value::Boolean(b) => vec![format!("boolean {b}")],
        Value::Number(n) => vec![format!("number {n:?}")],
        Value::String(s) => vec![format!(
            "string {}",
            serde_json::to_string(s).unwrap_or_default()
        )],
        Value::NodeSet(nodes) => {
            let mut lines = vec![format!("nodeset {}", nodes.len())];
            // The file's node lines are trimmed (an empty URI leaves none).
            lines.extend(nodes.iter().map(|n| describe_node(n).trim_end().to_owned()));
            lines
        }
    }
}

fn describe_node(node: &XNode<'_>) -> String {
    match node {
        XNode::Node(n) => match n.node_type() {
            NodeType::Document => "root".to_owned(),
            NodeType::Element => format!("element {} {}", path(*n), n.name()),
            NodeType::Text => format!("text {}", path(*n)),
            NodeType::Comment => format!("comment {}", path(*n)),
            NodeType::ProcessingInstruction => format!("pi {} {}", path(*n), n.name()),
            NodeType::Doctype => "doctype".to_owned(),
        },
        XNode::Attribute(a) => {
            let attribute = a.attribute();
            let name = match attribute.namespace() {
                Some(uri) => format!("{{{uri}}}{}", attribute.local_name()),
                None => attribute.local_name().to_owned(),
            };
            format!("attribute {} {name}", path(a.element()))
        }
        XNode::Namespace(ns) => {
            let prefix = if ns.prefix().is_empty() {
                "-"
            } else {
                ns.prefix()
            };
            format!("namespace {prefix} {}", ns.uri())
        }
    }
}

/// Whether XPath sees the node as a node of its own: no DOCTYPE, no text
/// outside the root, and of a run of adjacent text siblings (which the DOM
/// may keep apart, as around an entity's markup) only the first, standing
/// for the run as libxml2's one text node does.
fn visible(node: Node<'_>) -> bool {
    match node.node_type() {
        NodeType::Doctype => false,
        NodeType::Text => {
            !node.parent().is_some_and(|p| p.is_document())
                && !node.prev_sibling().is_some_and(|p| p.is_text())
        }
        _ => true,
    }
}

/// `/i/j/k`: 1-based positions among the XPath-visible siblings.
fn path(node: Node<'_>) -> String {
    let mut steps = Vec::new();
    for n in std::iter::once(node).chain(node.ancestors()) {
        if n.is_document() {
            break;
        }
        let position = 1 + n.preceding_siblings().filter(|s| visible(*s)).count();
        steps.push(position.to_string());
    }
    steps.reverse();
    format!("/{}", steps.join("/"))
}
