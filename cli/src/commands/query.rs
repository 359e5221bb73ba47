//! `xml5dom query`: an XPath 1.0 expression evaluated against each
//! document: the nodes it selects, one a line (as XML, `name="value"` or
//! text), or its value; in JSON, one object a result. Exit status 1 when
//! every result was an empty node-set, as grep's.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use xml5dom::query::{Value, XNode, XPath, XPathError};
use xml5dom::serializer::SerializeOptions;

use crate::context::Context;
use crate::options::{bindings, parse_binding, Error, Format};
use crate::runner::{Layout, Outcome, Task};

/// Evaluate an XPath 1.0 expression against each document.
///
/// A node-set prints one node per line: elements (and comments, PIs)
/// as XML, attributes as `name="value"`, text as the text itself (a
/// run of adjacent text, one text node in XPath, as one line). Any
/// other result prints its value. With several files, each line starts
/// with the file's path and `: `. Prefixes declared on the document
/// element are bound unless `--ns` binds them otherwise.
///
/// Exits, as grep does, with status 0 when the expression found
/// something in some file: a node-set with a node, or any number,
/// boolean or string (even `0`, `false` or an empty string: a value is
/// a result); 1 when every result was an empty node-set (xmllint's
/// "XPath set is empty"), printing nothing; 2 when the expression does
/// not compile, cannot be evaluated (an unbound prefix), or a file
/// cannot be read.
#[derive(Args, Debug)]
#[command(
    after_help = "Example: xml5dom query '//item[@id]/title' data.xml\n         \
                        xml5dom query 'count(//item)' data.xml\n         \
                        xml5dom query --format json '//item/@id' data.xml\n         \
                        xml5dom query --ns a=http://www.w3.org/2005/Atom '//a:entry/a:title' feed.xml"
)]
pub struct Query {
    /// Bind a namespace prefix for the expression, as PREFIX=URI
    /// (repeatable). Example: `--ns a=http://www.w3.org/2005/Atom`.
    #[arg(long = "ns", value_name = "PREFIX=URI", value_parser = parse_binding)]
    namespaces: Vec<(String, String)>,
    /// `human` for people; `json` for tools: one JSON object per
    /// result and line: file, type (element, attribute, text, comment,
    /// processing-instruction, namespace, document, doctype; or number,
    /// boolean, string), value (the string-value; a number as a JSON
    /// number, NaN and the infinities as strings; a boolean as one),
    /// and for a node name (where it has one), xml (the line the human
    /// format prints), and line, column, offset (where it was read from
    /// the source). Example: `--format json`.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// The XPath 1.0 expression. Example: `'//item[@id]/title'`.
    expression: String,
    /// Files, directories (with `-r`) or `-` for standard input.
    /// Example: `data.xml`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

impl Query {
    /// Evaluates the expression against every file (compiled once: an
    /// expression that does not compile is an error before any file).
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let xpath = XPath::compile(&self.expression)?;
        let task = Task {
            search: true,
            judges: true,
            ..Task::new("query", "query", Layout::Plain)
        };
        context.batch(&self.paths, task, &|path, opened, many, out| {
            let doc = match context.read_document(opened) {
                Ok(doc) => doc,
                Err(outcome) => return Ok(outcome),
            };
            let bindings = bindings(&self.namespaces);
            let prefix = if many {
                format!("{}: ", path.display())
            } else {
                String::new()
            };
            let shown = path.display().to_string();
            let matched = match xpath.evaluate_with(doc.root(), &bindings) {
                Ok(Value::NodeSet(nodes)) if self.format == Format::Json => {
                    let found = !nodes.is_empty();
                    for node in nodes {
                        out.write_all(json_node(&shown, node)?.as_bytes())?;
                    }
                    found
                }
                Ok(Value::NodeSet(nodes)) => {
                    let found = !nodes.is_empty();
                    for node in nodes {
                        out.write_all(prefix.as_bytes())?;
                        write_node(node, out)?;
                        out.write_all(b"\n")?;
                    }
                    found
                }
                // A number, boolean or string is a result, even
                // `0`, `false` or "".
                Ok(other) if self.format == Format::Json => {
                    out.write_all(json_value(&shown, &other).as_bytes())?;
                    true
                }
                Ok(other) => {
                    writeln!(out, "{prefix}{}", other.to_xpath_string())?;
                    true
                }
                Err(error) if many => {
                    let message = query_error(&error);
                    return Ok(Outcome::failed(format!("{}: {message}", path.display())));
                }
                Err(error) => return Ok(Outcome::failed(query_error(&error))),
            };
            Ok(Outcome {
                matched,
                notes: context.read_as_cut(path, &doc),
                ..Outcome::default()
            })
        })
    }
}

/// An XPath error as `query` says it: for a prefix the document uses
/// undeclared, with the `--ns` that selects its names.
fn query_error(error: &XPathError) -> String {
    match error {
        XPathError::UnboundPrefix {
            prefix,
            column,
            undeclared_namespace: Some(uri),
            ..
        } => format!(
            "the namespace prefix `{prefix}` at column {column} is not bound; the document \
             uses `{prefix}` without declaring it: select its names with --ns {prefix}={uri}"
        ),
        other => other.to_string(),
    }
}

/// One node of a query's result as a line of JSON: `file`, `type`,
/// `name` (where it has one), `value` (its string-value), `xml` (as the
/// human format prints it), and `line`, `column`, `offset` where it was
/// read from the source.
fn json_node(path: &str, node: XNode<'_>) -> io::Result<String> {
    use std::fmt::Write as _;
    use xml5dom::tokenizer::push_json_string;
    use xml5dom::NodeType;

    let (kind, name, span, doc) = match node {
        XNode::Node(n) => {
            let kind = match n.node_type() {
                NodeType::Document => "document",
                NodeType::Doctype => "doctype",
                NodeType::Element => "element",
                NodeType::Text => "text",
                NodeType::Comment => "comment",
                NodeType::ProcessingInstruction => "processing-instruction",
            };
            let name = Some(n.name()).filter(|name| !name.is_empty());
            (kind, name, n.span(), n.document())
        }
        XNode::Attribute(a) => {
            let attribute = a.attribute();
            (
                "attribute",
                Some(attribute.name()),
                attribute.span(),
                a.element().document(),
            )
        }
        XNode::Namespace(ns) => (
            "namespace",
            Some(ns.prefix()),
            None,
            ns.element().document(),
        ),
    };
    let mut xml = Vec::new();
    write_node(node, &mut xml)?;
    let mut out = String::from("{\"file\": ");
    push_json_string(&mut out, path);
    out.push_str(", \"type\": ");
    push_json_string(&mut out, kind);
    if let Some(name) = name {
        out.push_str(", \"name\": ");
        push_json_string(&mut out, name);
    }
    out.push_str(", \"value\": ");
    push_json_string(&mut out, &node.string_value());
    out.push_str(", \"xml\": ");
    push_json_string(&mut out, &String::from_utf8_lossy(&xml));
    if let Some(span) = span {
        let (line, column) = doc.position(span.start);
        let _ = write!(
            out,
            ", \"line\": {line}, \"column\": {column}, \"offset\": {}",
            span.start
        );
    }
    out.push_str("}\n");
    Ok(out)
}

/// A query's number, boolean or string as a line of JSON: `file`, `type`
/// and `value` (a JSON number, boolean or string; NaN and the infinities,
/// which JSON has no numbers for, as the strings XPath writes).
fn json_value(path: &str, value: &Value) -> String {
    use xml5dom::tokenizer::push_json_string;

    let mut out = String::from("{\"file\": ");
    push_json_string(&mut out, path);
    let (kind, json) = match value {
        Value::Number(n) if n.is_finite() => ("number", n.to_string()),
        Value::Number(_) => {
            let mut text = String::new();
            push_json_string(&mut text, &value.to_xpath_string());
            ("number", text)
        }
        Value::Boolean(b) => ("boolean", b.to_string()),
        _ => {
            let mut text = String::new();
            push_json_string(&mut text, &value.to_xpath_string());
            ("string", text)
        }
    };
    out.push_str(", \"type\": ");
    push_json_string(&mut out, kind);
    out.push_str(", \"value\": ");
    out.push_str(&json);
    out.push_str("}\n");
    out
}

/// Writes one node of a query's result as `query` prints it. A text node
/// is the whole run of adjacent text it stands for in XPath, as
/// `xmllint --noent --xpath` prints the one text node libxml2 keeps.
fn write_node(node: XNode<'_>, out: &mut dyn Write) -> io::Result<()> {
    match node {
        XNode::Node(n) if n.is_text() => out.write_all(node.string_value().as_bytes()),
        XNode::Node(n) if n.is_document() => n
            .document()
            .write_xml(out, &SerializeOptions::default())
            .map(drop),
        XNode::Node(n) => n.write_xml(out),
        XNode::Attribute(a) => {
            let attribute = a.attribute();
            let value = escape_value(attribute.value());
            write!(out, "{}=\"{value}\"", attribute.name())
        }
        XNode::Namespace(ns) if ns.prefix().is_empty() => {
            write!(out, "xmlns=\"{}\"", escape_value(ns.uri()))
        }
        XNode::Namespace(ns) => {
            write!(out, "xmlns:{}=\"{}\"", ns.prefix(), escape_value(ns.uri()))
        }
    }
}

/// An attribute value fit to sit between double quotes.
fn escape_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}
