//! The error log: every error and warning of a parse with its position
//! (`error_log` on a tree and on `XMLSyntaxError`), and the exceptions the
//! pure-Python module `xml5dom/_errors.py` defines.

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use xml5dom::Document;

/// The exception classes live in pure Python (`xml5dom/_errors.py`), for
/// their multiple bases (`XMLSyntaxError` is both lxml's `LxmlError` and
/// Python's `SyntaxError`).
pub(crate) fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("xml5dom._errors")?.getattr(name)
}

pub(crate) fn xpath_error(py: Python<'_>, message: String) -> PyErr {
    match error_class(py, "XPathEvalError") {
        Ok(class) => match class.call1((message,)) {
            Ok(value) => PyErr::from_value(value),
            Err(err) => err,
        },
        Err(err) => err,
    }
}

/// One entry of an error log: a parse error with its position.
#[pyclass(frozen, get_all, module = "xml5dom._xml5dom", name = "_LogEntry")]
pub(crate) struct LogEntry {
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
    pub(crate) fn __repr__(&self) -> String {
        format!(
            "<string>:{}:{}:{}:{}: {}",
            self.line, self.column, self.level_name, self.code, self.message
        )
    }
}

/// The errors and warnings of a parse, in document order.
#[pyclass(frozen, sequence, module = "xml5dom._xml5dom", name = "_ErrorLog")]
pub(crate) struct ErrorLog {
    entries: Vec<Py<LogEntry>>,
}

#[pymethods]
impl ErrorLog {
    pub(crate) fn __len__(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Py<LogEntry>> {
        let len = self.entries.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if at < 0 || at >= len {
            return Err(PyIndexError::new_err("log index out of range"));
        }
        Ok(self.entries[at as usize].clone_ref(py))
    }

    /// The last entry, or `None`.
    #[getter]
    pub(crate) fn last_error(&self, py: Python<'_>) -> Option<Py<LogEntry>> {
        self.entries.last().map(|entry| entry.clone_ref(py))
    }

    pub(crate) fn __repr__(&self) -> String {
        self.entries
            .iter()
            .map(|entry| entry.get().__repr__())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

pub(crate) fn error_log(py: Python<'_>, doc: &Document) -> PyResult<ErrorLog> {
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
pub(crate) fn refuse_errors(py: Python<'_>, doc: &Document) -> PyResult<()> {
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
