//! How lxml sees the library's nodes: items (elements, comments,
//! processing instructions) and the text runs that are `.text` and
//! `.tail`, Clark names (and the Python strings made of them) and
//! `iter()` filters, source lines.

use std::collections::HashMap;
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyString;
use xml5dom::{Document, Node, NodeId, NodeType};

use crate::EditResult;

/// The text nodes of the run starting at `first`.
pub(crate) fn text_nodes(first: Option<Node<'_>>) -> Vec<NodeId> {
    let mut ids = Vec::new();
    let mut next = first;
    while let Some(node) = next.filter(|n| n.node_type() == NodeType::Text) {
        ids.push(node.id());
        next = node.next_sibling();
    }
    ids
}

/// Makes the run of text nodes `run` say `value` (`None` or `''`: no text):
/// the first node takes the text, the others go; with no run, a new text
/// node goes where `place` puts it. The one edit that can be refused (the
/// text itself) comes first, so a refusal changes nothing.
pub(crate) fn replace_text_run(
    doc: &mut Document,
    run: Vec<NodeId>,
    value: Option<&str>,
    place: impl FnOnce(&mut Document, NodeId) -> EditResult<()>,
) -> EditResult<()> {
    let value = value.filter(|v| !v.is_empty());
    let mut rest = run.into_iter();
    match (rest.next(), value) {
        (Some(first), Some(text)) => doc.set_text(first, text)?,
        (Some(first), None) => doc.remove(first)?,
        (None, Some(text)) => {
            let node = doc.create_text(text);
            place(doc, node)?;
        }
        (None, None) => {}
    }
    for node in rest {
        doc.remove(node)?;
    }
    Ok(())
}

/// Whether lxml shows the node as an item of its parent: elements, comments
/// and processing instructions (text is `.text` and `.tail`).
pub(crate) fn is_item(node: Node<'_>) -> bool {
    matches!(
        node.node_type(),
        NodeType::Element | NodeType::Comment | NodeType::ProcessingInstruction
    )
}

/// The text of the run of text nodes starting at `first`, if there is one.
pub(crate) fn text_run(first: Option<Node<'_>>) -> Option<String> {
    let mut run: Option<String> = None;
    let mut next = first;
    while let Some(node) = next {
        if node.node_type() != NodeType::Text {
            break;
        }
        run.get_or_insert_with(String::new)
            .push_str(node.text().unwrap_or(""));
        next = node.next_sibling();
    }
    run
}

pub(crate) fn clark(namespace: Option<&str>, local: &str) -> String {
    match namespace {
        Some(uri) => format!("{{{uri}}}{local}"),
        None => local.to_string(),
    }
}

/// The Python strings of the Clark names handed out (`tag`, attribute
/// names), made once and shared: a walk over a million elements reads a
/// handful of distinct names, and a new `str` per read was a fifth of its
/// time. Keyed by the name's text, so it serves every document; bounded so
/// it never holds memory out of proportion: names longer than
/// `LONGEST_CACHED` are made afresh each time, and the cache starts over
/// when it holds `MOST_CACHED` names.
struct NameStrings {
    /// The Clark name being looked up, built here to look up without an
    /// allocation.
    scratch: String,
    strings: HashMap<Box<str>, Py<PyString>, foldhash::fast::RandomState>,
}

const LONGEST_CACHED: usize = 256;
const MOST_CACHED: usize = 4096;

static NAME_STRINGS: Mutex<Option<NameStrings>> = Mutex::new(None);

/// The Clark name (`{uri}local`, or `local`) as a Python string. Makes no
/// Python call beyond creating the string, so it may run under the
/// document's read lock.
pub(crate) fn clark_string<'py>(
    py: Python<'py>,
    namespace: Option<&str>,
    local: &str,
) -> Bound<'py, PyString> {
    let Ok(mut guard) = NAME_STRINGS.lock() else {
        // Poisoned by a panic elsewhere: no cache, the same string.
        return PyString::new(py, &clark(namespace, local));
    };
    let cache = guard.get_or_insert_with(|| NameStrings {
        scratch: String::new(),
        strings: HashMap::default(),
    });
    cache.scratch.clear();
    if let Some(uri) = namespace {
        cache.scratch.push('{');
        cache.scratch.push_str(uri);
        cache.scratch.push('}');
    }
    cache.scratch.push_str(local);
    if let Some(string) = cache.strings.get(cache.scratch.as_str()) {
        return string.bind(py).clone();
    }
    let string = PyString::new(py, &cache.scratch);
    if cache.scratch.len() <= LONGEST_CACHED {
        if cache.strings.len() >= MOST_CACHED {
            cache.strings.clear();
        }
        cache
            .strings
            .insert(cache.scratch.as_str().into(), string.clone().unbind());
    }
    string
}

/// `{uri}local` or `local` split into its namespace and local name.
pub(crate) fn split_clark(name: &str) -> (Option<&str>, &str) {
    if let Some(rest) = name.strip_prefix('{') {
        if let Some((uri, local)) = rest.split_once('}') {
            return (Some(uri), local);
        }
    }
    (None, name)
}

/// Whether an element matches an `iter()` tag filter: a Clark name, `*`,
/// `{uri}*`, `{*}local` or `{}local`.
pub(crate) fn tag_matches(node: Node<'_>, filter: &str) -> bool {
    node.is_element() && name_matches(node.namespace(), node.local_name(), filter)
}

/// Whether an element named `local` in `namespace` matches a tag filter
/// (see [`tag_matches`]; a bare `local` is in no namespace, as lxml reads
/// it).
pub(crate) fn name_matches(namespace: Option<&str>, local: &str, filter: &str) -> bool {
    if filter == "*" {
        return true;
    }
    let (uri, wanted) = split_clark(filter);
    let local_ok = wanted == "*" || wanted == local;
    let uri_ok = match uri {
        Some("*") => true,
        Some("") | None => namespace.is_none(),
        Some(uri) => namespace == Some(uri),
    };
    local_ok && uri_ok
}

/// The offset of the `>` that ends an element's start tag: the first `>`
/// after its name and its last attribute (an attribute value may hold `>`).
pub(crate) fn start_tag_end(node: Node<'_>, span: xml5dom::Span) -> usize {
    let after_attributes = node
        .attributes()
        .filter_map(|a| a.span())
        .map(|a| a.end)
        .max()
        .unwrap_or(span.start)
        .max(span.start);
    let source = node.document().source();
    source
        .get(after_attributes..span.end)
        .and_then(|tag| tag.find('>'))
        .map_or(span.start, |at| after_attributes + at)
}

pub(crate) fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}
