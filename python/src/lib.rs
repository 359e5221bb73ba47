//! The extension module `xml5dom._xml5dom`: the lxml/ElementTree surface of
//! the Python package over the library's public API (issue 32).
//!
//! How Python objects hold a document: one [`Shared`] (`Arc<RwLock<Document>>`)
//! per parsed document, and a `NodeId` per element proxy. Proxies are
//! `frozen` pyclasses (immutable, so `Send + Sync`); reads take the read
//! lock, so one document may be read from several threads at once; edits
//! take the write lock. No Python code runs while a lock is held (no
//! Python object is made under the write lock), and parsing and serializing
//! run with the GIL released (`Python::detach`) and let go of the lock
//! before they take the GIL back, so a thread that waits for the lock while
//! holding the GIL never waits for itself.
//!
//! No panic crosses into Python: every library error becomes a Python
//! exception (`XMLSyntaxError`, `ValueError`, `OSError`, `SyntaxError`,
//! `XPathEvalError`), and a poisoned lock a `RuntimeError`.

use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use xml5dom::query::element_path::ElementPath;
use xml5dom::query::{Bindings, Value, XNode};
use xml5dom::{
    canonicalize, canonicalize_with, CanonicalForm, CanonicalOptions, Document, Encoding, Node,
    NodeId, NodeType, OutputEncoding, SerializeOptions, XPath,
};

/// What an edit of the library returns.
type EditResult<T> = Result<T, xml5dom::Error>;

/// A parsed document, shared by its tree and element proxies.
type Shared = Arc<RwLock<Document>>;

fn read(doc: &Shared) -> PyResult<RwLockReadGuard<'_, Document>> {
    doc.read()
        .map_err(|_| PyRuntimeError::new_err("the document's lock was poisoned"))
}

fn write(doc: &Shared) -> PyResult<RwLockWriteGuard<'_, Document>> {
    doc.write()
        .map_err(|_| PyRuntimeError::new_err("the document's lock was poisoned"))
}

/// A refused edit as Python's `ValueError`, with the library's message.
fn edit_error(err: xml5dom::Error) -> PyErr {
    match err {
        xml5dom::Error::InvalidEdit(why) => PyValueError::new_err(why),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// The text nodes of the run starting at `first`.
fn text_nodes(first: Option<Node<'_>>) -> Vec<NodeId> {
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
fn replace_text_run(
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

/// The exception classes live in pure Python (`xml5dom/_errors.py`), for
/// their multiple bases (`XMLSyntaxError` is both lxml's `LxmlError` and
/// Python's `SyntaxError`).
fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("xml5dom._errors")?.getattr(name)
}

fn xpath_error(py: Python<'_>, message: String) -> PyErr {
    match error_class(py, "XPathEvalError") {
        Ok(class) => match class.call1((message,)) {
            Ok(value) => PyErr::from_value(value),
            Err(err) => err,
        },
        Err(err) => err,
    }
}

/// Whether lxml shows the node as an item of its parent: elements, comments
/// and processing instructions (text is `.text` and `.tail`).
fn is_item(node: Node<'_>) -> bool {
    matches!(
        node.node_type(),
        NodeType::Element | NodeType::Comment | NodeType::ProcessingInstruction
    )
}

/// The text of the run of text nodes starting at `first`, if there is one.
fn text_run(first: Option<Node<'_>>) -> Option<String> {
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

fn clark(namespace: Option<&str>, local: &str) -> String {
    match namespace {
        Some(uri) => format!("{{{uri}}}{local}"),
        None => local.to_string(),
    }
}

/// `{uri}local` or `local` split into its namespace and local name.
fn split_clark(name: &str) -> (Option<&str>, &str) {
    if let Some(rest) = name.strip_prefix('{') {
        if let Some((uri, local)) = rest.split_once('}') {
            return (Some(uri), local);
        }
    }
    (None, name)
}

/// Whether an element matches an `iter()` tag filter: a Clark name, `*`,
/// `{uri}*`, `{*}local` or `{}local`.
fn tag_matches(node: Node<'_>, filter: &str) -> bool {
    if !node.is_element() {
        return false;
    }
    if filter == "*" {
        return true;
    }
    let (uri, local) = split_clark(filter);
    let local_ok = local == "*" || local == node.local_name();
    let uri_ok = match uri {
        Some("*") => true,
        Some("") => node.namespace().is_none(),
        Some(uri) => node.namespace() == Some(uri),
        None => node.namespace().is_none() || filter == "*",
    };
    local_ok && uri_ok
}

/// The offset of the `>` that ends an element's start tag: the first `>`
/// after its name and its last attribute (an attribute value may hold `>`).
fn start_tag_end(node: Node<'_>, span: xml5dom::Span) -> usize {
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

fn escape_text(text: &str) -> String {
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

/// An `encoding=` argument: `None` for text (`"unicode"` or `str`), else
/// the encoding named.
enum Target {
    Text,
    Bytes(Option<Encoding>),
}

fn target(encoding: Option<&Bound<'_, PyAny>>) -> PyResult<Target> {
    let Some(encoding) = encoding else {
        return Ok(Target::Bytes(None));
    };
    if encoding.is_none() {
        return Ok(Target::Bytes(None));
    }
    if encoding.is(encoding.py().get_type::<PyString>()) {
        return Ok(Target::Text);
    }
    let label: String = encoding
        .extract()
        .map_err(|_| PyTypeError::new_err("encoding must be a string, str or None"))?;
    if label.eq_ignore_ascii_case("unicode") {
        return Ok(Target::Text);
    }
    match Encoding::for_label(label.trim()) {
        Some(found) => Ok(Target::Bytes(Some(found))),
        None => Err(PyValueError::new_err(format!(
            "unknown encoding: {label:?}"
        ))),
    }
}

/// One entry of an error log: a parse error with its position.
#[pyclass(frozen, get_all, module = "xml5dom._xml5dom", name = "_LogEntry")]
struct LogEntry {
    /// 1-based line.
    line: u32,
    /// 1-based column, in characters.
    column: u32,
    /// Byte offset in the decoded text.
    offset: usize,
    /// The error code, e.g. `bare-ampersand`.
    code: &'static str,
    /// The same code (lxml's name for it).
    type_name: &'static str,
    /// `error`, `warning` or `limit`.
    severity: &'static str,
    /// lxml's level: `ERROR`, `WARNING` or `FATAL` (a limit cut the parse).
    level_name: &'static str,
    /// What went wrong, said as `xml5dom check` says it.
    message: String,
}

#[pymethods]
impl LogEntry {
    fn __repr__(&self) -> String {
        format!(
            "<string>:{}:{}:{}:{}: {}",
            self.line, self.column, self.level_name, self.code, self.message
        )
    }
}

/// The errors and warnings of a parse, in document order.
#[pyclass(frozen, sequence, module = "xml5dom._xml5dom", name = "_ErrorLog")]
struct ErrorLog {
    entries: Vec<Py<LogEntry>>,
}

#[pymethods]
impl ErrorLog {
    fn __len__(&self) -> usize {
        self.entries.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Py<LogEntry>> {
        let len = self.entries.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if at < 0 || at >= len {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "log index out of range",
            ));
        }
        Ok(self.entries[at as usize].clone_ref(py))
    }

    /// The last entry, or `None`.
    #[getter]
    fn last_error(&self, py: Python<'_>) -> Option<Py<LogEntry>> {
        self.entries.last().map(|entry| entry.clone_ref(py))
    }

    fn __repr__(&self) -> String {
        self.entries
            .iter()
            .map(|entry| entry.get().__repr__())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn error_log(py: Python<'_>, doc: &Document) -> PyResult<ErrorLog> {
    let mut entries = Vec::with_capacity(doc.errors().len());
    for (index, error) in doc.errors().iter().enumerate() {
        let message = doc
            .diagnostic(index)
            .map(|d| d.message().into_owned())
            .unwrap_or_else(|| error.code.message().to_string());
        let severity = error.severity().as_str();
        let level_name = if error.is_limit() {
            "FATAL"
        } else if error.is_error() {
            "ERROR"
        } else {
            "WARNING"
        };
        let entry = LogEntry {
            line: error.line,
            column: error.column,
            offset: error.offset,
            code: error.code.as_str(),
            type_name: error.code.as_str(),
            severity,
            level_name,
            message,
        };
        entries.push(Py::new(py, entry)?);
    }
    Ok(ErrorLog { entries })
}

/// `recover=False`: the first error (not a warning) as `XMLSyntaxError`.
fn refuse_errors(py: Python<'_>, doc: &Document) -> PyResult<()> {
    let Some(index) = doc
        .errors()
        .iter()
        .position(|error| error.is_error() || error.is_limit())
    else {
        return Ok(());
    };
    let error = doc.errors()[index];
    let message = doc
        .diagnostic(index)
        .map(|d| d.message().into_owned())
        .unwrap_or_else(|| error.code.message().to_string());
    let text = format!(
        "{}, line {}, column {} ({})",
        message,
        error.line,
        error.column,
        error.code.as_str()
    );
    let value = error_class(py, "XMLSyntaxError")?.call1((text.clone(),))?;
    value.setattr("lineno", error.line)?;
    value.setattr("offset", error.column)?;
    value.setattr("position", (error.line, error.column))?;
    value.setattr("code", error.code.as_str())?;
    value.setattr("msg", text)?;
    value.setattr("error_log", Py::new(py, error_log(py, doc)?)?)?;
    Err(PyErr::from_value(value))
}

/// A document: its root element, its declaration and DOCTYPE, its errors.
#[pyclass(frozen, module = "xml5dom._xml5dom", name = "_ElementTree")]
struct ElementTree {
    doc: Shared,
}

/// What the XML declaration and the DOCTYPE say.
#[pyclass(frozen, get_all, module = "xml5dom._xml5dom", name = "DocInfo")]
struct DocInfo {
    /// The declared encoding, else the encoding the bytes were read in.
    encoding: String,
    /// The declared version, else `1.0`.
    xml_version: String,
    /// `standalone`, if declared (`True`/`False`), else `None`.
    standalone: Option<bool>,
    /// The DOCTYPE as lxml writes it, or `''`.
    doctype: String,
    /// The DOCTYPE's name, or `None`.
    root_name: Option<String>,
    /// The DOCTYPE's public id, or `None`.
    public_id: Option<String>,
    /// The DOCTYPE's system id, or `None`.
    system_url: Option<String>,
}

fn doc_info(doc: &Document) -> DocInfo {
    let declaration = doc.xml_declaration();
    let encoding = declaration
        .and_then(|d| d.encoding.clone())
        .unwrap_or_else(|| doc.encoding().name().to_string());
    let xml_version = declaration
        .and_then(|d| d.version.clone())
        .unwrap_or_else(|| "1.0".to_string());
    let standalone = declaration
        .and_then(|d| d.standalone.as_deref())
        .map(|s| s == "yes");
    let doctype = doc.root().children().find(|n| n.is_doctype());
    let (mut text, mut root_name, mut public_id, mut system_url) =
        (String::new(), None, None, None);
    if let Some(node) = doctype {
        let name = node.name().to_string();
        public_id = node.public_id().map(str::to_string);
        system_url = node.system_id().map(str::to_string);
        text = match (&public_id, &system_url) {
            (Some(public), Some(system)) => {
                format!("<!DOCTYPE {name} PUBLIC \"{public}\" \"{system}\">")
            }
            (Some(public), None) => format!("<!DOCTYPE {name} PUBLIC \"{public}\">"),
            (None, Some(system)) => format!("<!DOCTYPE {name} SYSTEM \"{system}\">"),
            (None, None) => format!("<!DOCTYPE {name}>"),
        };
        root_name = Some(name);
    }
    DocInfo {
        encoding,
        xml_version,
        standalone,
        doctype: text,
        root_name,
        public_id,
        system_url,
    }
}

#[pymethods]
impl ElementTree {
    /// The root element, or `None` if the document has none.
    fn getroot(&self) -> PyResult<Option<Element>> {
        let doc = read(&self.doc)?;
        Ok(doc.root_element().map(|root| Element {
            doc: self.doc.clone(),
            id: root.id(),
        }))
    }

    /// The XML declaration's and the DOCTYPE's information.
    #[getter]
    fn docinfo(&self) -> PyResult<DocInfo> {
        let doc = read(&self.doc)?;
        Ok(doc_info(&doc))
    }

    /// Every error and warning of the parse, with its position.
    #[getter]
    fn error_log(&self, py: Python<'_>) -> PyResult<ErrorLog> {
        let doc = read(&self.doc)?;
        error_log(py, &doc)
    }

    /// Whether the input was well-formed XML (no error, no limit reached).
    #[getter]
    fn is_well_formed(&self) -> PyResult<bool> {
        Ok(read(&self.doc)?.is_well_formed())
    }

    fn find(
        &self,
        py: Python<'_>,
        path: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let root = self.root_or_none()?;
        match root {
            Some(root) => root.find(py, path, namespaces),
            None => Ok(None),
        }
    }

    fn findall(
        &self,
        py: Python<'_>,
        path: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        match self.root_or_none()? {
            Some(root) => root.findall(py, path, namespaces),
            None => Ok(Vec::new()),
        }
    }

    #[pyo3(signature = (path, default=None, namespaces=None))]
    fn findtext(
        &self,
        py: Python<'_>,
        path: &str,
        default: Option<Py<PyAny>>,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        match self.root_or_none()? {
            Some(root) => root.findtext(py, path, default, namespaces),
            None => Ok(default),
        }
    }

    #[pyo3(signature = (tag=None))]
    fn iter(&self, py: Python<'_>, tag: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyAny>>> {
        match self.root_or_none()? {
            Some(root) => root.iter(py, tag),
            None => Ok(Vec::new()),
        }
    }

    /// XPath 1.0 with the document node as the context.
    #[pyo3(signature = (expression, namespaces=None))]
    fn xpath(
        &self,
        py: Python<'_>,
        expression: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let doc = read(&self.doc)?;
        let root = doc.root().id();
        drop(doc);
        xpath(py, &self.doc, root, expression, namespaces)
    }

    /// Writes the document to `file`, a path or an object with `write()`,
    /// as `tostring(tree, ...)` serializes it.
    #[pyo3(signature = (file, encoding=None, pretty_print=false, xml_declaration=None))]
    fn write(
        &self,
        py: Python<'_>,
        file: &Bound<'_, PyAny>,
        encoding: Option<&Bound<'_, PyAny>>,
        pretty_print: bool,
        xml_declaration: Option<bool>,
    ) -> PyResult<()> {
        let data = serialize_document(
            py,
            &self.doc,
            target(encoding)?,
            pretty_print,
            xml_declaration,
        )?;
        if file.hasattr("write")? {
            file.call_method1("write", (data,))?;
            return Ok(());
        }
        let path: std::path::PathBuf = file
            .extract()
            .map_err(|_| PyTypeError::new_err("write() needs a path or a file object"))?;
        let data = data.bind(py);
        let bytes: Vec<u8> = match data.cast::<PyString>() {
            Ok(text) => text.extract::<String>()?.into_bytes(),
            Err(_) => data.extract()?,
        };
        py.detach(move || std::fs::write(path, bytes))
            .map_err(PyErr::from)
    }

    /// The document in Canonical XML 1.0 (`tostring(method="c14n")`).
    #[pyo3(signature = (exclusive=false, with_comments=true))]
    fn _canonical(
        &self,
        py: Python<'_>,
        exclusive: bool,
        with_comments: bool,
    ) -> PyResult<Py<PyAny>> {
        canonical_bytes(
            py,
            &self.doc,
            None,
            canonical_form(exclusive, with_comments),
        )
    }

    /// The document serialized: see `tostring`.
    #[pyo3(signature = (encoding=None, pretty_print=false, xml_declaration=None))]
    fn _serialize(
        &self,
        py: Python<'_>,
        encoding: Option<&Bound<'_, PyAny>>,
        pretty_print: bool,
        xml_declaration: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        serialize_document(
            py,
            &self.doc,
            target(encoding)?,
            pretty_print,
            xml_declaration,
        )
    }
}

impl ElementTree {
    fn root_or_none(&self) -> PyResult<Option<Element>> {
        self.getroot()
    }
}

/// The whole document written out. With no `encoding` (and no pretty
/// printing) an unedited document comes back byte for byte, in its own
/// encoding, with its own XML declaration.
fn serialize_document(
    py: Python<'_>,
    shared: &Shared,
    target: Target,
    pretty_print: bool,
    xml_declaration: Option<bool>,
) -> PyResult<Py<PyAny>> {
    let pretty = pretty_print.then_some(2);
    let (text, bytes) = py.detach(|| -> PyResult<(Option<String>, Option<Vec<u8>>)> {
        let doc = read(shared)?;
        let has_declaration = doc.xml_declaration().is_some();
        let adjust = |text: String| -> String {
            match xml_declaration {
                Some(false) if has_declaration && text.starts_with("<?xml") => {
                    match text.find("?>") {
                        Some(end) => text[end + 2..].trim_start_matches(['\r', '\n']).to_string(),
                        None => text,
                    }
                }
                _ => text,
            }
        };
        match target {
            Target::Text => {
                // A `str` of the document: its declaration as written
                // (the text no longer has an encoding of its own).
                let out = doc.serialize(&SerializeOptions {
                    pretty,
                    encoding: OutputEncoding::Original,
                });
                Ok((Some(adjust(out.text)), None))
            }
            Target::Bytes(encoding) => {
                let encoding = match encoding {
                    None => OutputEncoding::Original,
                    Some(e) if e == doc.encoding() => OutputEncoding::Original,
                    Some(e) => OutputEncoding::Other(e),
                };
                if xml_declaration == Some(false) {
                    let out = doc.serialize(&SerializeOptions { pretty, encoding });
                    let chosen = match encoding {
                        OutputEncoding::Other(e) => e,
                        _ => doc.encoding(),
                    };
                    return Ok((None, Some(chosen.encode(&adjust(out.text)))));
                }
                let (bytes, _) = doc.to_bytes(&SerializeOptions { pretty, encoding });
                Ok((None, Some(bytes)))
            }
        }
    })?;
    let declaration = xml_declaration == Some(true) && read(shared)?.xml_declaration().is_none();
    match (text, bytes) {
        (Some(text), _) => {
            let text = if declaration {
                format!("<?xml version='1.0'?>\n{text}")
            } else {
                text
            };
            Ok(PyString::new(py, &text).into_any().unbind())
        }
        (None, Some(bytes)) => {
            let bytes = if declaration {
                let encoding = read(shared)?.encoding();
                let mut with =
                    format!("<?xml version='1.0' encoding='{}'?>\n", encoding.name()).into_bytes();
                with.extend_from_slice(&bytes);
                with
            } else {
                bytes
            };
            Ok(PyBytes::new(py, &bytes).into_any().unbind())
        }
        (None, None) => Err(PyRuntimeError::new_err("nothing was serialized")),
    }
}

/// The Canonical XML 1.0 form lxml's `method="c14n"` writes: inclusive or
/// Exclusive, with comments or without.
fn canonical_form(exclusive: bool, with_comments: bool) -> CanonicalForm {
    match (exclusive, with_comments) {
        (false, true) => CanonicalForm::C14nWithComments,
        (false, false) => CanonicalForm::C14n,
        (true, true) => CanonicalForm::ExcC14nWithComments,
        (true, false) => CanonicalForm::ExcC14n,
    }
}

/// The canonical form of the document, or of the subtree of `subtree`
/// (the element, its descendants, their attributes and the namespaces in
/// scope), as UTF-8 bytes.
fn canonical_bytes(
    py: Python<'_>,
    shared: &Shared,
    subtree: Option<NodeId>,
    form: CanonicalForm,
) -> PyResult<Py<PyAny>> {
    let text = py.detach(|| -> PyResult<String> {
        let doc = read(shared)?;
        let Some(id) = subtree else {
            return Ok(canonicalize(&doc, form));
        };
        let node = doc
            .node(id)
            .ok_or_else(|| PyValueError::new_err("the node was removed from its document"))?;
        let subset = XPath::compile(
            "descendant-or-self::node() | descendant-or-self::*/@* \
             | descendant-or-self::*/namespace::*",
        )
        .and_then(|path| path.select(node))
        .map_err(|err| PyRuntimeError::new_err(err.to_string()))?;
        let options = CanonicalOptions {
            subset: Some(&subset),
            ..CanonicalOptions::default()
        };
        Ok(canonicalize_with(&doc, form, &options))
    })?;
    Ok(PyBytes::new(py, text.as_bytes()).into_any().unbind())
}

/// An element, comment or processing instruction of a document.
#[pyclass(frozen, module = "xml5dom._xml5dom", name = "_Element")]
struct Element {
    doc: Shared,
    id: NodeId,
}

impl Element {
    fn with<R>(&self, f: impl FnOnce(Node<'_>) -> PyResult<R>) -> PyResult<R> {
        let doc = read(&self.doc)?;
        let node = doc
            .node(self.id)
            .ok_or_else(|| PyValueError::new_err("the node was removed from its document"))?;
        f(node)
    }

    /// Runs an edit under the write lock; a refused edit is a `ValueError`.
    fn edit<R>(&self, f: impl FnOnce(&mut Document) -> EditResult<R>) -> PyResult<R> {
        let mut doc = write(&self.doc)?;
        f(&mut doc).map_err(edit_error)
    }

    /// The node of another proxy, which must be of the same document.
    fn same_document(&self, other: &Element) -> PyResult<NodeId> {
        if Arc::ptr_eq(&self.doc, &other.doc) {
            Ok(other.id)
        } else {
            Err(PyValueError::new_err(
                "moving an element between documents is not supported yet",
            ))
        }
    }

    /// Puts `child` (with its tail, as lxml moves it) where `place` says.
    fn move_with_tail(
        &self,
        child: &Element,
        place: impl FnOnce(&mut Document, NodeId) -> EditResult<()>,
    ) -> PyResult<()> {
        let child = self.same_document(child)?;
        self.edit(|doc| {
            let node = doc
                .node(child)
                .ok_or_else(|| xml5dom::Error::InvalidEdit("the node was removed".into()))?;
            let top = node.parent().is_none_or(|p| p.is_document());
            let tail = if top {
                Vec::new()
            } else {
                text_nodes(node.next_sibling())
            };
            place(doc, child)?;
            let mut after = child;
            for text in tail {
                doc.insert_after(after, text)?;
                after = text;
            }
            Ok(())
        })
    }

    fn proxy(&self, id: NodeId) -> Element {
        Element {
            doc: self.doc.clone(),
            id,
        }
    }

    fn children(&self) -> PyResult<Vec<NodeId>> {
        self.with(|node| {
            Ok(node
                .children()
                .filter(|n| is_item(*n))
                .map(|n| n.id())
                .collect())
        })
    }

    fn proxies(&self, py: Python<'_>, ids: Vec<NodeId>) -> PyResult<Vec<Py<PyAny>>> {
        ids.into_iter()
            .map(|id| Ok(Py::new(py, self.proxy(id))?.into_any()))
            .collect()
    }
}

/// The `(prefix, uri)` pairs of a `namespaces=` mapping (`None` or `''`
/// for the default namespace).
fn namespace_pairs(namespaces: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    let Some(mapping) = namespaces else {
        return Ok(pairs);
    };
    if mapping.is_none() {
        return Ok(pairs);
    }
    let dict = mapping
        .cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err("namespaces must be a dict"))?;
    for (key, value) in dict.iter() {
        let prefix: Option<String> = key.extract()?;
        let uri: String = value.extract()?;
        pairs.push((prefix.unwrap_or_default(), uri));
    }
    Ok(pairs)
}

fn element_path(path: &str, namespaces: Option<&Bound<'_, PyAny>>) -> PyResult<ElementPath> {
    let pairs = namespace_pairs(namespaces)?;
    let borrowed: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(p, u)| (p.as_str(), u.as_str()))
        .collect();
    ElementPath::compile_with(path, &borrowed)
        .map_err(|err| pyo3::exceptions::PySyntaxError::new_err(err.to_string()))
}

fn xpath(
    py: Python<'_>,
    shared: &Shared,
    context: NodeId,
    expression: &str,
    namespaces: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let compiled = XPath::compile(expression).map_err(|err| xpath_error(py, err.to_string()))?;
    let pairs = namespace_pairs(namespaces)?;
    let doc = read(shared)?;
    let node = doc
        .node(context)
        .ok_or_else(|| PyValueError::new_err("the node was removed from its document"))?;
    let mut bindings = Bindings::new();
    for (prefix, uri) in &pairs {
        bindings.namespace(prefix, uri);
    }
    let value = compiled
        .evaluate_with(node, &bindings)
        .map_err(|err| xpath_error(py, err.to_string()))?;
    let object = match value {
        Value::Boolean(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => n.into_pyobject(py)?.into_any().unbind(),
        Value::String(s) => PyString::new(py, &s).into_any().unbind(),
        Value::NodeSet(nodes) => {
            let list = PyList::empty(py);
            for found in nodes {
                match found {
                    XNode::Node(node) if is_item(node) => {
                        list.append(Py::new(
                            py,
                            Element {
                                doc: shared.clone(),
                                id: node.id(),
                            },
                        )?)?;
                    }
                    // lxml leaves the document node out of results.
                    XNode::Node(node) if node.is_document() => {}
                    XNode::Node(_) => list.append(found.string_value())?,
                    XNode::Attribute(attribute) => list.append(attribute.attribute().value())?,
                    XNode::Namespace(namespace) => {
                        let prefix = Some(namespace.prefix()).filter(|p| !p.is_empty());
                        list.append((prefix, namespace.uri()))?;
                    }
                }
            }
            list.into_any().unbind()
        }
    };
    Ok(object)
}

#[pymethods]
impl Element {
    /// The name in Clark notation (`{uri}local`); for a comment or a
    /// processing instruction, the `Comment` or `ProcessingInstruction`
    /// factory, as in lxml.
    #[getter]
    fn tag(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let (kind, name) =
            self.with(|node| Ok((node.node_type(), clark(node.namespace(), node.local_name()))))?;
        let etree = || py.import("xml5dom.etree");
        match kind {
            NodeType::Comment => Ok(etree()?.getattr("Comment")?.unbind()),
            NodeType::ProcessingInstruction => {
                Ok(etree()?.getattr("ProcessingInstruction")?.unbind())
            }
            _ => Ok(PyString::new(py, &name).into_any().unbind()),
        }
    }

    /// The prefix of the name as written, or `None`.
    #[getter]
    fn prefix(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            Ok(if node.is_element() {
                node.prefix().map(str::to_string)
            } else {
                None
            })
        })
    }

    /// A processing instruction's target, else `None`.
    #[getter]
    fn target(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            Ok(node
                .is_processing_instruction()
                .then(|| node.name().to_string()))
        })
    }

    /// The namespaces in scope: prefix (`None` for the default) to URI.
    #[getter]
    fn nsmap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pairs = self.with(|node| {
            let mut seen: Vec<(Option<String>, String)> = Vec::new();
            let start = if node.is_element() {
                Some(node)
            } else {
                node.parent()
            };
            let mut element = start;
            while let Some(current) = element {
                if !current.is_element() {
                    break;
                }
                for attribute in current.attributes() {
                    if let Some(prefix) = attribute.declared_prefix() {
                        let prefix = prefix.map(str::to_string);
                        if !seen.iter().any(|(p, _)| *p == prefix) {
                            seen.push((prefix, attribute.value().to_string()));
                        }
                    }
                }
                element = current.parent();
            }
            Ok(seen)
        })?;
        let dict = PyDict::new(py);
        for (prefix, uri) in pairs.into_iter().rev() {
            dict.set_item(prefix, uri)?;
        }
        Ok(dict)
    }

    /// The attributes (namespace declarations excluded), by Clark name, as
    /// a new dict.
    #[getter]
    fn attrib<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.items()? {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The value of the attribute named `key` (a Clark name), or `default`.
    #[pyo3(signature = (key, default=None))]
    fn get(
        &self,
        py: Python<'_>,
        key: &str,
        default: Option<Py<PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let (uri, local) = split_clark(key);
        let found = self.with(|node| {
            Ok(node
                .attributes()
                .find(|a| {
                    a.declared_prefix().is_none() && a.local_name() == local && a.namespace() == uri
                })
                .map(|a| a.value().to_string()))
        })?;
        Ok(match found {
            Some(value) => Some(PyString::new(py, &value).into_any().unbind()),
            None => default,
        })
    }

    /// The attribute names, in document order.
    fn keys(&self) -> PyResult<Vec<String>> {
        Ok(self.items()?.into_iter().map(|(name, _)| name).collect())
    }

    /// The attribute values, in document order.
    fn values(&self) -> PyResult<Vec<String>> {
        Ok(self.items()?.into_iter().map(|(_, value)| value).collect())
    }

    /// `(name, value)` pairs, in document order.
    fn items(&self) -> PyResult<Vec<(String, String)>> {
        self.with(|node| {
            if !node.is_element() {
                return Ok(Vec::new());
            }
            Ok(node
                .attributes()
                .filter(|a| a.declared_prefix().is_none())
                .map(|a| (clark(a.namespace(), a.local_name()), a.value().to_string()))
                .collect())
        })
    }

    /// The text before the first child, or `None`; a comment's or a
    /// processing instruction's data.
    #[getter]
    fn text(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            Ok(match node.node_type() {
                NodeType::Element => text_run(node.first_child()),
                // lxml says `None` for an empty comment or instruction.
                _ => node.text().filter(|t| !t.is_empty()).map(str::to_string),
            })
        })
    }

    /// The text after the end tag up to the next sibling, or `None`.
    #[getter]
    fn tail(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            let top = node.parent().is_none_or(|p| p.is_document());
            Ok(if top {
                None
            } else {
                text_run(node.next_sibling())
            })
        })
    }

    /// The line in the source, or `None` for a created node: as in lxml
    /// (libxml2), the line where the start tag, comment or processing
    /// instruction ends.
    #[getter]
    fn sourceline(&self) -> PyResult<Option<u32>> {
        self.with(|node| {
            let Some(span) = node.span() else {
                return Ok(None);
            };
            let last = if node.is_element() {
                start_tag_end(node, span)
            } else {
                span.end.saturating_sub(1).max(span.start)
            };
            Ok(Some(node.document().position(last).0))
        })
    }

    fn __len__(&self) -> PyResult<usize> {
        Ok(self.children()?.len())
    }

    fn __bool__(&self) -> PyResult<bool> {
        Ok(!self.children()?.is_empty())
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let children = self.children()?;
        if let Ok(slice) = index.cast::<pyo3::types::PySlice>() {
            let indices = slice.indices(children.len() as isize)?;
            let mut picked = Vec::new();
            let mut at = indices.start;
            while (indices.step > 0 && at < indices.stop) || (indices.step < 0 && at > indices.stop)
            {
                if let Some(id) = children.get(at as usize) {
                    picked.push(*id);
                }
                at += indices.step;
            }
            return Ok(PyList::new(py, self.proxies(py, picked)?)?
                .into_any()
                .unbind());
        }
        let index: isize = index
            .extract()
            .map_err(|_| PyTypeError::new_err("element indices must be integers or slices"))?;
        let len = children.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if at < 0 || at >= len {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "list index out of range",
            ));
        }
        Ok(Py::new(py, self.proxy(children[at as usize]))?.into_any())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        let children = self.children()?;
        PyList::new(py, self.proxies(py, children)?)?.try_iter()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Element>() {
            Ok(other) => {
                let other = other.get();
                Arc::ptr_eq(&self.doc, &other.doc) && self.id == other.id
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (Arc::as_ptr(&self.doc) as usize).hash(&mut hasher);
        self.id.hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let tag = self.tag(py)?;
        Ok(format!(
            "<Element {} at {:#x}>",
            tag.bind(py).str()?,
            self as *const Element as usize
        ))
    }

    /// Sets the text before the first child (`None` removes it).
    #[setter]
    fn set_text(&self, value: Option<String>) -> PyResult<()> {
        let id = self.id;
        self.edit(|doc| {
            let node = doc
                .node(id)
                .ok_or_else(|| xml5dom::Error::InvalidEdit("the node was removed".into()))?;
            if !node.is_element() {
                return doc.set_text(id, value.as_deref().unwrap_or(""));
            }
            let run = text_nodes(node.first_child());
            replace_text_run(doc, run, value.as_deref(), |doc, text| {
                doc.prepend(id, text)
            })
        })
    }

    /// Sets the text after the end tag (`None` removes it).
    #[setter]
    fn set_tail(&self, value: Option<String>) -> PyResult<()> {
        let id = self.id;
        self.edit(|doc| {
            let node = doc
                .node(id)
                .ok_or_else(|| xml5dom::Error::InvalidEdit("the node was removed".into()))?;
            if node.parent().is_none_or(|p| p.is_document()) {
                return Err(xml5dom::Error::InvalidEdit(
                    "an element at the top of the document has no tail".into(),
                ));
            }
            let run = text_nodes(node.next_sibling());
            replace_text_run(doc, run, value.as_deref(), |doc, text| {
                doc.insert_after(id, text)
            })
        })
    }

    /// Sets the attribute `key` (a Clark name) to `value`.
    fn set(&self, key: &str, value: &str) -> PyResult<()> {
        let id = self.id;
        let (uri, local) = split_clark(key);
        self.edit(|doc| match uri {
            Some(uri) if !uri.is_empty() => doc.set_attribute_ns(id, uri, local, value),
            _ => doc.set_attribute(id, local, value),
        })
    }

    /// Appends `child` (an element of this document, moved with its tail).
    fn append(&self, child: &Bound<'_, Element>) -> PyResult<()> {
        let parent = self.id;
        self.move_with_tail(child.get(), |doc, node| doc.append(parent, node))
    }

    /// Appends each element of `children`.
    fn extend(&self, children: &Bound<'_, PyAny>) -> PyResult<()> {
        for child in children.try_iter()? {
            let child = child?;
            let child = child
                .cast::<Element>()
                .map_err(|_| PyTypeError::new_err("extend() takes elements"))?;
            self.append(child)?;
        }
        Ok(())
    }

    /// Inserts `child` before the item at `index` (as `list.insert`).
    fn insert(&self, index: isize, child: &Bound<'_, Element>) -> PyResult<()> {
        let children = self.children()?;
        let len = children.len() as isize;
        let at = if index < 0 {
            (index + len).max(0)
        } else {
            index
        };
        let parent = self.id;
        match children.get(at as usize) {
            Some(&sibling) if at < len => {
                self.move_with_tail(child.get(), |doc, node| doc.insert_before(sibling, node))
            }
            _ => self.move_with_tail(child.get(), |doc, node| doc.append(parent, node)),
        }
    }

    /// Takes `child` (and its tail) out of this element; the proxy stays
    /// usable, detached.
    fn remove(&self, child: &Bound<'_, Element>) -> PyResult<()> {
        let child = self.same_document(child.get())?;
        let parent = self.id;
        self.edit(|doc| {
            let node = doc
                .node(child)
                .filter(|n| n.parent().map(|p| p.id()) == Some(parent))
                .ok_or_else(|| {
                    xml5dom::Error::InvalidEdit("the element is not a child of this node".into())
                })?;
            let tail = text_nodes(node.next_sibling());
            doc.detach(child)?;
            for text in tail {
                doc.remove(text)?;
            }
            Ok(())
        })
    }

    /// The parent element, or `None` at the top.
    fn getparent(&self) -> PyResult<Option<Element>> {
        let parent =
            self.with(|node| Ok(node.parent().filter(|p| p.is_element()).map(|p| p.id())))?;
        Ok(parent.map(|id| self.proxy(id)))
    }

    /// The next element, comment or processing instruction, or `None`.
    fn getnext(&self) -> PyResult<Option<Element>> {
        let next = self.with(|node| {
            Ok(node
                .following_siblings()
                .skip(1)
                .find(|n| is_item(*n))
                .map(|n| n.id()))
        })?;
        Ok(next.map(|id| self.proxy(id)))
    }

    /// The previous element, comment or processing instruction, or `None`.
    fn getprevious(&self) -> PyResult<Option<Element>> {
        let previous = self.with(|node| {
            Ok(node
                .preceding_siblings()
                .skip(1)
                .find(|n| is_item(*n))
                .map(|n| n.id()))
        })?;
        Ok(previous.map(|id| self.proxy(id)))
    }

    /// The tree this element belongs to.
    fn getroottree(&self) -> ElementTree {
        ElementTree {
            doc: self.doc.clone(),
        }
    }

    /// This element and its descendants in document order (comments and
    /// processing instructions too when no tag is given), filtered by tag:
    /// a Clark name, `*`, `{uri}*` or `{*}local`.
    #[pyo3(signature = (tag=None))]
    fn iter(&self, py: Python<'_>, tag: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyAny>>> {
        let filter: Option<String> = match tag {
            Some(tag) if !tag.is_none() => Some(
                tag.extract()
                    .map_err(|_| PyTypeError::new_err("tag must be a string or None"))?,
            ),
            _ => None,
        };
        let ids = self.with(|node| {
            Ok(std::iter::once(node)
                .chain(node.descendants())
                .filter(|n| match &filter {
                    Some(filter) => tag_matches(*n, filter),
                    None => is_item(*n),
                })
                .map(|n| n.id())
                .collect())
        })?;
        self.proxies(py, ids)
    }

    /// The text of the subtree (text and tails), in document order.
    fn itertext(&self) -> PyResult<Vec<String>> {
        self.with(|node| {
            let mut texts: Vec<String> = Vec::new();
            for descendant in node.descendants() {
                if descendant.node_type() != NodeType::Text {
                    continue;
                }
                let text = descendant.text().unwrap_or("");
                // Adjacent text nodes are one text, as lxml has them.
                let joins = descendant
                    .prev_sibling()
                    .is_some_and(|p| p.node_type() == NodeType::Text);
                match texts.last_mut() {
                    Some(last) if joins => last.push_str(text),
                    _ => texts.push(text.to_string()),
                }
            }
            Ok(texts)
        })
    }

    /// The first element the ElementPath `path` finds, or `None`.
    #[pyo3(signature = (path, namespaces=None))]
    fn find(
        &self,
        py: Python<'_>,
        path: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let compiled = element_path(path, namespaces)?;
        let found = self.with(|node| Ok(compiled.find(node).map(|n| n.id())))?;
        found
            .map(|id| Ok(Py::new(py, self.proxy(id))?.into_any()))
            .transpose()
    }

    /// Every element the ElementPath `path` finds, in document order.
    #[pyo3(signature = (path, namespaces=None))]
    fn findall(
        &self,
        py: Python<'_>,
        path: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let compiled = element_path(path, namespaces)?;
        let ids =
            self.with(|node| Ok(compiled.findall(node).into_iter().map(|n| n.id()).collect()))?;
        self.proxies(py, ids)
    }

    /// An iterator over `findall`'s elements.
    #[pyo3(signature = (path, namespaces=None))]
    fn iterfind<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        PyList::new(py, self.findall(py, path, namespaces)?)?.try_iter()
    }

    /// The text of the first element `path` finds (`''` if it has none), or
    /// `default` if it finds none.
    #[pyo3(signature = (path, default=None, namespaces=None))]
    fn findtext(
        &self,
        py: Python<'_>,
        path: &str,
        default: Option<Py<PyAny>>,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let compiled = element_path(path, namespaces)?;
        let found = self.with(|node| Ok(compiled.findtext(node)))?;
        Ok(match found {
            Some(text) => Some(PyString::new(py, &text).into_any().unbind()),
            None => default,
        })
    }

    /// XPath 1.0 with this element as the context: a list of elements,
    /// strings (text and attribute values) and `(prefix, uri)` tuples, or a
    /// float, a bool or a string.
    #[pyo3(signature = (expression, namespaces=None))]
    fn xpath(
        &self,
        py: Python<'_>,
        expression: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        xpath(py, &self.doc, self.id, expression, namespaces)
    }

    /// The subtree in Canonical XML 1.0 (`tostring(method="c14n")`).
    #[pyo3(signature = (exclusive=false, with_comments=true))]
    fn _canonical(
        &self,
        py: Python<'_>,
        exclusive: bool,
        with_comments: bool,
    ) -> PyResult<Py<PyAny>> {
        canonical_bytes(
            py,
            &self.doc,
            Some(self.id),
            canonical_form(exclusive, with_comments),
        )
    }

    /// The subtree serialized: see `tostring`.
    #[pyo3(signature = (encoding=None, pretty_print=false, xml_declaration=None, with_tail=true))]
    fn _serialize(
        &self,
        py: Python<'_>,
        encoding: Option<&Bound<'_, PyAny>>,
        pretty_print: bool,
        xml_declaration: Option<bool>,
        with_tail: bool,
    ) -> PyResult<Py<PyAny>> {
        let target = target(encoding)?;
        if pretty_print {
            return Err(PyNotImplementedError::new_err(
                "pretty_print of a subtree is not supported yet; serialize the ElementTree",
            ));
        }
        let shared = self.doc.clone();
        let id = self.id;
        let text = py.detach(move || -> PyResult<String> {
            let doc = read(&shared)?;
            let node = doc
                .node(id)
                .ok_or_else(|| PyValueError::new_err("the node was removed from its document"))?;
            let mut text = node.to_xml();
            let top = node.parent().is_none_or(|p| p.is_document());
            if with_tail && !top {
                if let Some(tail) = text_run(node.next_sibling()) {
                    text.push_str(&escape_text(&tail));
                }
            }
            Ok(text)
        })?;
        match target {
            Target::Text => {
                let text = if xml_declaration == Some(true) {
                    format!("<?xml version='1.0'?>\n{text}")
                } else {
                    text
                };
                Ok(PyString::new(py, &text).into_any().unbind())
            }
            Target::Bytes(encoding) => {
                let encoding = encoding.unwrap_or(Encoding::UTF_8);
                let mut bytes = Vec::new();
                if xml_declaration == Some(true) {
                    bytes.extend_from_slice(
                        format!("<?xml version='1.0' encoding='{}'?>\n", encoding.name())
                            .as_bytes(),
                    );
                }
                bytes.extend_from_slice(&encoding.encode(&text));
                Ok(PyBytes::new(py, &bytes).into_any().unbind())
            }
        }
    }
}

/// Makes an element named `tag` (a Clark name) with `attrib` and appends
/// it to `parent`. The element is made and given its attributes detached,
/// so a refused name or value changes nothing.
#[pyfunction]
#[pyo3(name = "SubElement", signature = (parent, tag, attrib=None))]
fn sub_element(
    parent: &Bound<'_, Element>,
    tag: &str,
    attrib: Option<Vec<(String, String)>>,
) -> PyResult<Element> {
    let parent = parent.get();
    let (uri, local) = split_clark(tag);
    let at = parent.id;
    let id = parent.edit(|doc| {
        // A prefix in scope at the parent names the element, as lxml does;
        // else the library declares the namespace.
        let in_scope = uri.and_then(|uri| {
            doc.node(at)
                .and_then(|p| p.lookup_prefix(uri))
                .map(|prefix| match prefix {
                    "" => local.to_string(),
                    prefix => format!("{prefix}:{local}"),
                })
        });
        let element = match (uri, in_scope) {
            (Some(uri), Some(name)) if !uri.is_empty() => doc.create_element_ns(uri, &name),
            (Some(uri), None) if !uri.is_empty() => doc.create_element_ns(uri, local),
            _ => doc.create_element(local),
        };
        for (name, value) in attrib.iter().flatten() {
            let (uri, local) = split_clark(name);
            match uri {
                Some(uri) if !uri.is_empty() => doc.set_attribute_ns(element, uri, local, value)?,
                _ => doc.set_attribute(element, local, value)?,
            }
        }
        doc.append(at, element)?;
        Ok(element)
    })?;
    Ok(parent.proxy(id))
}

fn finish(py: Python<'_>, doc: Document, recover: bool) -> PyResult<ElementTree> {
    if !recover {
        refuse_errors(py, &doc)?;
    }
    Ok(ElementTree {
        doc: Arc::new(RwLock::new(doc)),
    })
}

/// Parses `text` (a `str`, or `bytes` in any encoding) into an `ElementTree`.
#[pyfunction]
#[pyo3(signature = (text, recover=true))]
fn _parse_text(py: Python<'_>, text: &Bound<'_, PyAny>, recover: bool) -> PyResult<ElementTree> {
    let doc = if let Ok(string) = text.cast::<PyString>() {
        let owned: String = string.extract()?;
        py.detach(move || Document::parse_string(owned))
    } else if let Ok(bytes) = text.cast::<PyBytes>() {
        let owned = bytes.as_bytes().to_vec();
        py.detach(move || Document::parse_vec(owned))
    } else if let Ok(owned) = text.extract::<Vec<u8>>() {
        py.detach(move || Document::parse_vec(owned))
    } else {
        return Err(PyTypeError::new_err("can only parse strings or bytes"));
    };
    finish(py, doc, recover)
}

/// Parses the file at `path` into an `ElementTree`.
#[pyfunction]
#[pyo3(signature = (path, recover=true))]
fn _parse_file(py: Python<'_>, path: std::path::PathBuf, recover: bool) -> PyResult<ElementTree> {
    let doc = py
        .detach(move || Document::from_file(&path))
        .map_err(|err| match err {
            xml5dom::Error::Read { source, .. } => PyErr::from(source),
            other => PyValueError::new_err(other.to_string()),
        })?;
    finish(py, doc, recover)
}

#[pymodule]
fn _xml5dom(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Element>()?;
    module.add_class::<ElementTree>()?;
    module.add_class::<DocInfo>()?;
    module.add_class::<ErrorLog>()?;
    module.add_class::<LogEntry>()?;
    module.add_function(wrap_pyfunction!(_parse_text, module)?)?;
    module.add_function(wrap_pyfunction!(_parse_file, module)?)?;
    module.add_function(wrap_pyfunction!(sub_element, module)?)?;
    Ok(())
}
