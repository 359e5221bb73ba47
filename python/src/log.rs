//! The error log: every error and warning of a parse with its position
//! and what recovery did about it (`error_log` on a tree and on
//! `XMLSyntaxError`), the repairs a write made (the log of the
//! `XMLRepairWarning` that `tostring` and `write` issue), and the
//! exceptions the pure-Python module `xml5dom/_errors.py` defines.

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use xml5dom::{Document, Repair, RepairKind};

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

/// One entry of an error log: a parse error, or a repair of a write, with
/// its position.
#[pyclass(frozen, get_all, module = "xml5dom._xml5dom", name = "_LogEntry")]
pub(crate) struct LogEntry {
    /// 1-based line (0 for a repair of a node that has no source).
    line: u32,
    /// 1-based column, in characters (0 as `line`).
    column: u32,
    /// Byte offset in the decoded text (`None` for a repair of a node
    /// that has no source).
    offset: Option<usize>,
    /// The error code, e.g. `bare-ampersand`, or the repair's kind, e.g.
    /// `comment-text`.
    code: &'static str,
    /// The same code (lxml's name for it).
    type_name: &'static str,
    /// `error`, `warning` or `limit`; a repair of a write is a `warning`.
    severity: &'static str,
    /// lxml's level: `ERROR`, `WARNING` or `FATAL` (a limit cut the parse).
    level_name: &'static str,
    /// lxml's numeric level: 1 warning, 2 error, 3 fatal.
    level: u8,
    /// lxml's domain: `PARSER` for the parse, `OUTPUT` for a write.
    domain_name: &'static str,
    /// lxml's file name: `None`, as xml5dom keeps no path.
    filename: Option<String>,
    /// What went wrong, said as `xml5dom check` says it: with context
    /// (what was closed, what was replaced) and what recovery did.
    message: String,
    /// What recovery did about it, e.g. `kept as text`, `<key> is
    /// closed` (the clause of `message` after its last `; `), or what the
    /// write changed; `None` where the message says no more than the code.
    repair: Option<String>,
}

#[pymethods]
impl LogEntry {
    pub(crate) fn __repr__(&self) -> String {
        format!(
            "<string>:{}:{}:{}:{}:{}: {}",
            self.line, self.column, self.level_name, self.domain_name, self.code, self.message
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

/// What recovery did, as the message says it after its last `; `.
fn recovery(message: &str) -> Option<String> {
    message.rsplit_once("; ").map(|(_, done)| done.to_string())
}

/// The log of `entries`, made into Python objects: with no document lock
/// held (making an object may run Python code, which may edit).
pub(crate) fn log_of(py: Python<'_>, entries: Vec<LogEntry>) -> PyResult<ErrorLog> {
    let entries = entries
        .into_iter()
        .map(|entry| Py::new(py, entry))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(ErrorLog { entries })
}

pub(crate) fn error_log(py: Python<'_>, doc: &Document) -> PyResult<ErrorLog> {
    log_of(py, parse_entries(doc))
}

/// The entries of the parse's errors and warnings, in document order.
pub(crate) fn parse_entries(doc: &Document) -> Vec<LogEntry> {
    (0..doc.errors().len())
        .filter_map(|index| parse_entry(doc, index))
        .collect()
}

/// The entry of the parse's error `index`.
pub(crate) fn parse_entry(doc: &Document, index: usize) -> Option<LogEntry> {
    let error = *doc.errors().get(index)?;
    let message = doc
        .diagnostic(index)
        .map(|d| d.message().into_owned())
        .unwrap_or_else(|| error.code.message().to_string());
    let severity = error.severity().as_str();
    let (level_name, level) = if error.is_limit() {
        ("FATAL", 3)
    } else if error.is_error() {
        ("ERROR", 2)
    } else {
        ("WARNING", 1)
    };
    Some(LogEntry {
        line: error.line,
        column: error.column,
        offset: Some(error.offset),
        code: error.code.as_str(),
        type_name: error.code.as_str(),
        severity,
        level_name,
        level,
        domain_name: "PARSER",
        filename: None,
        repair: recovery(&message),
        message,
    })
}

/// What a repair of a write changed, for people (docs/serialization.md
/// has the rules).
fn repair_message(kind: RepairKind) -> &'static str {
    match kind {
        RepairKind::ForbiddenCharacter => {
            "a character XML 1.0 cannot carry, even as a reference, was written as U+FFFD"
        }
        RepairKind::CommentText => "`--` in a comment was written `- -` (a final `-` as `- `)",
        RepairKind::InvalidName => "a name that is not an XML name had its bad characters written as `_`",
        RepairKind::UndeclaredPrefix => {
            "a prefix nothing declared was declared with its namespace (its placeholder, or a well-known prefix's registered one)"
        }
        RepairKind::DuplicateAttribute => "an attribute that repeated another was left out",
        RepairKind::ProcessingInstructionAsComment => {
            "a processing instruction XML cannot carry was written as a comment"
        }
        RepairKind::MissingRootElement => "the document has no root element: `<root/>` was written",
        RepairKind::DeclarationDropped => "a declaration of the internal subset with an error was left out",
        RepairKind::Escaped => "a `&`, `<` or `>` that would read as markup was escaped",
        RepairKind::ReferenceReplaced => {
            "a reference XML does not accept was written as the characters it stands for"
        }
        RepairKind::AttributeRewritten => "an attribute was written anew (quoted, `=\"\"` added, or its value rewritten)",
        RepairKind::MarkupRewritten => "markup was written anew around what it holds",
        RepairKind::EndTagAdded => "an end tag was added where the element closes",
        RepairKind::MarkupDropped => "markup the tree leaves out (a stray end tag, a misplaced DOCTYPE, content after the root) was left out",
        RepairKind::EntityExpanded => "an entity reference was written as the nodes its expansion made",
        RepairKind::Closed => "a comment, CDATA section or processing instruction cut off by the end of the input was closed",
        RepairKind::DoctypeChanged => "a DOCTYPE XML cannot carry was left out or lost its identifiers",
        RepairKind::XmlDeclarationChanged => "the XML declaration's values were made valid",
        _ => "the output was changed so that XML can carry it",
    }
}

/// The repairs a write made, as entries of an error log: each at the
/// line and column of its offset in the source.
pub(crate) fn repair_entries(doc: &Document, repairs: Vec<Repair>) -> Vec<LogEntry> {
    repairs
        .into_iter()
        .map(|repair| {
            let (line, column) = repair.offset.map_or((0, 0), |at| doc.position(at));
            let message = repair_message(repair.kind).to_string();
            LogEntry {
                line,
                column,
                offset: repair.offset,
                code: repair.kind.as_str(),
                type_name: repair.kind.as_str(),
                severity: "warning",
                level_name: "WARNING",
                level: 1,
                domain_name: "OUTPUT",
                filename: None,
                repair: Some(message.clone()),
                message,
            }
        })
        .collect()
}

/// `recover=False`: the first error (not a warning) as `XMLSyntaxError`.
pub(crate) fn refuse_errors(py: Python<'_>, doc: &Document) -> PyResult<()> {
    refuse_errors_from(py, doc, 0)
}

/// [`refuse_errors`] of the errors from index `from` on (a stream checks
/// the errors each piece brought).
pub(crate) fn refuse_errors_from(py: Python<'_>, doc: &Document, from: usize) -> PyResult<()> {
    let Some(index) = doc
        .errors()
        .iter()
        .skip(from)
        .position(|error| error.is_error() || error.is_limit())
        .map(|found| from + found)
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
