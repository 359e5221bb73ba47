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

//!
//! The files, by concern: `tree` (parsing, `_ElementTree`, `DocInfo`),
//! `element` (what a proxy reads), `edit` (what it changes), `query`
//! (ElementPath and XPath), `write` (serializing and Canonical XML), `log`
//! (the error log and the exceptions), `nodes` (how lxml sees the
//! library's nodes: items, text runs, Clark names).

mod edit;
mod element;
mod log;
mod nodes;
mod query;
mod tree;
mod write;

use edit::sub_element;
use element::{Element, ElementIterator};
use log::{ErrorLog, LogEntry};
use tree::{_parse_file, _parse_text, DocInfo, ElementTree};

use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use xml5dom::Document;

/// What an edit of the library returns.
pub(crate) type EditResult<T> = Result<T, xml5dom::Error>;

/// A parsed document, shared by its tree and element proxies.
pub(crate) type Shared = Arc<RwLock<Document>>;

pub(crate) fn read(doc: &Shared) -> PyResult<RwLockReadGuard<'_, Document>> {
    doc.read()
        .map_err(|_| PyRuntimeError::new_err("the document's lock was poisoned"))
}

pub(crate) fn write(doc: &Shared) -> PyResult<RwLockWriteGuard<'_, Document>> {
    doc.write()
        .map_err(|_| PyRuntimeError::new_err("the document's lock was poisoned"))
}

/// A refused edit as Python's `ValueError`, with the library's message.
pub(crate) fn edit_error(err: xml5dom::Error) -> PyErr {
    match err {
        xml5dom::Error::InvalidEdit(why) => PyValueError::new_err(why),
        other => PyValueError::new_err(other.to_string()),
    }
}

#[pymodule]
pub(crate) fn _xml5dom(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Element>()?;
    module.add_class::<ElementIterator>()?;
    module.add_class::<ElementTree>()?;
    module.add_class::<DocInfo>()?;
    module.add_class::<ErrorLog>()?;
    module.add_class::<LogEntry>()?;
    module.add_function(wrap_pyfunction!(_parse_text, module)?)?;
    module.add_function(wrap_pyfunction!(_parse_file, module)?)?;
    module.add_function(wrap_pyfunction!(sub_element, module)?)?;
    Ok(())
}
