//! `_ElementTree` and `DocInfo`, and the parse functions that make a tree.

use pyo3::exceptions::{PyLookupError, PyTypeError, PyValueError};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyString};
use xml5dom::{Document, ParseOptions, SharedText};

use crate::element::{Element, ElementIterator};
use crate::log::{log_of, parse_entries, refuse_errors, ErrorLog};
use crate::query::xpath;
use crate::{read, share, Shared};

/// A document: its root element, its declaration and DOCTYPE, its errors.
#[pyclass(frozen, module = "xml5dom._xml5dom", name = "_ElementTree")]
pub(crate) struct ElementTree {
    pub(crate) doc: Shared,
}

/// What the XML declaration and the DOCTYPE say.
#[pyclass(frozen, get_all, module = "xml5dom._xml5dom", name = "DocInfo")]
pub(crate) struct DocInfo {
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

pub(crate) fn doc_info(doc: &Document) -> DocInfo {
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
        // As written: XML5 lowercases the DOCTYPE's name, lxml (XML) keeps it.
        let name = node
            .doctype_name_as_written()
            .unwrap_or_default()
            .to_string();
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
    pub(crate) fn getroot(&self) -> PyResult<Option<Element>> {
        let doc = read(&self.doc)?;
        Ok(doc
            .root_element()
            .map(|root| Element::new(self.doc.clone(), root.id())))
    }

    /// The XML declaration's and the DOCTYPE's information.
    #[getter]
    pub(crate) fn docinfo(&self) -> PyResult<DocInfo> {
        let doc = read(&self.doc)?;
        Ok(doc_info(&doc))
    }

    /// Every error and warning of the parse, with its position.
    #[getter]
    pub(crate) fn error_log(&self, py: Python<'_>) -> PyResult<ErrorLog> {
        let entries = parse_entries(&*read(&self.doc)?);
        log_of(py, entries)
    }

    /// Whether the input was well-formed XML (no error, no limit reached).
    #[getter]
    pub(crate) fn is_well_formed(&self) -> PyResult<bool> {
        Ok(read(&self.doc)?.is_well_formed())
    }

    /// The first element `path` (ElementPath) finds from the root, or
    /// `None`.
    #[pyo3(signature = (path, namespaces=None))]
    pub(crate) fn find(
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

    /// Every element `path` (ElementPath) finds from the root.
    #[pyo3(signature = (path, namespaces=None))]
    pub(crate) fn findall(
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
    pub(crate) fn findtext(
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
    pub(crate) fn iter(&self, tag: Option<&Bound<'_, PyAny>>) -> PyResult<ElementIterator> {
        match self.root_or_none()? {
            Some(root) => root.iter(tag),
            None => Ok(ElementIterator::new(self.doc.clone(), Vec::new())),
        }
    }

    /// XPath 1.0 with the root element as the context node, as lxml's
    /// `ElementTree.xpath` (`.` is the root element, `a` its children); the
    /// document node where there is no root element.
    #[pyo3(signature = (expression, namespaces=None))]
    pub(crate) fn xpath(
        &self,
        py: Python<'_>,
        expression: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let doc = read(&self.doc)?;
        let context = doc.root_element().map_or(doc.root().id(), |root| root.id());
        drop(doc);
        xpath(py, &self.doc, context, expression, namespaces)
    }
}

impl ElementTree {
    pub(crate) fn root_or_none(&self) -> PyResult<Option<Element>> {
        self.getroot()
    }
}

pub(crate) fn finish(py: Python<'_>, doc: Document, recover: bool) -> PyResult<ElementTree> {
    if !recover {
        refuse_errors(py, &doc)?;
    }
    Ok(ElementTree { doc: share(doc) })
}

/// The options of a parse: the encoding the caller names (lxml's
/// `XMLParser(encoding=...)`), which wins over what the bytes say.
fn parse_options(encoding: Option<&str>) -> PyResult<ParseOptions> {
    match encoding {
        None => Ok(ParseOptions::default()),
        Some(label) => ParseOptions::default()
            .encoding_label(label.trim())
            .map_err(|_| PyLookupError::new_err(format!("unknown encoding: {label:?}"))),
    }
}

/// Parses `text` (a `str`, or `bytes` in any encoding, or in `encoding`
/// if given) into an `ElementTree`.
#[pyfunction]
#[pyo3(signature = (text, recover=true, encoding=None))]
pub(crate) fn _parse_text(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    recover: bool,
    encoding: Option<&str>,
) -> PyResult<ElementTree> {
    let options = parse_options(encoding)?;
    let doc = if let Ok(string) = text.cast::<PyString>() {
        // Text is decoded already: no encoding applies. Its UTF-8 (which
        // Python keeps with the string) is the document's source.
        let shared: SharedText = Arc::new(string.extract::<PyBackedStr>()?);
        py.detach(move || Document::parse_shared_with(shared, &ParseOptions::default()))
    } else if let Ok(bytes) = text.cast::<PyBytes>() {
        match shared_utf8(bytes) {
            Some(shared) => py.detach(move || Document::parse_shared_bytes_with(shared, &options)),
            None => {
                let owned = bytes.as_bytes().to_vec();
                py.detach(move || Document::parse_vec_with(owned, &options))
            }
        }
    } else if let Ok(owned) = text.extract::<Vec<u8>>() {
        py.detach(move || Document::parse_vec_with(owned, &options))
    } else {
        return Err(PyTypeError::new_err("can only parse strings or bytes"));
    };
    finish(py, doc, recover)
}

/// A `bytes` object that is valid UTF-8, as text the document may keep as
/// its source: the object itself, kept alive by the document, instead of a
/// copy of it (20 MB copied take some 15 ms and 20 MB more memory). Bytes
/// that are not UTF-8 are copied and decoded.
fn shared_utf8(bytes: &Bound<'_, PyBytes>) -> Option<SharedText> {
    let text = Utf8Bytes::new(PyBackedBytes::from(bytes.clone()))?;
    Some(Arc::new(text))
}

/// The bytes of a Python `bytes` object, known to be valid UTF-8.
struct Utf8Bytes(PyBackedBytes);

impl Utf8Bytes {
    /// The bytes, if they are valid UTF-8.
    fn new(bytes: PyBackedBytes) -> Option<Utf8Bytes> {
        simdutf8::basic::from_utf8(&bytes).ok()?;
        Some(Utf8Bytes(bytes))
    }
}

impl AsRef<str> for Utf8Bytes {
    fn as_ref(&self) -> &str {
        // SAFETY: `new` checked that the bytes are UTF-8, and they cannot
        // change: a `bytes` object is immutable, and `PyBackedBytes` holds
        // a reference to it, so its buffer lives (and stays put) as long
        // as this does.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

/// Parses the file at `path` (in `encoding` if given) into an
/// `ElementTree`.
#[pyfunction]
#[pyo3(signature = (path, recover=true, encoding=None))]
pub(crate) fn _parse_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    recover: bool,
    encoding: Option<&str>,
) -> PyResult<ElementTree> {
    let options = parse_options(encoding)?;
    let doc = py
        .detach(move || Document::from_file_with(&path, &options))
        .map_err(|err| match err {
            xml5dom::Error::Read { source, .. } => PyErr::from(source),
            other => PyValueError::new_err(other.to_string()),
        })?;
    finish(py, doc, recover)
}
