//! Writing out: `tostring` and `write` of a tree or a subtree, in the
//! document's encoding or another, and Canonical XML (`method="c14n"`).

use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use xml5dom::{
    canonicalize, canonicalize_with, CanonicalForm, CanonicalOptions, Encoding, NodeId,
    OutputEncoding, SerializeOptions, XPath,
};

use crate::element::Element;
use crate::nodes::{escape_text, text_run};
use crate::{read, Shared};

/// An `encoding=` argument: `None` for text (`"unicode"` or `str`), else
/// the encoding named.
pub(crate) enum Target {
    Text,
    Bytes(Option<Encoding>),
}

pub(crate) fn target(encoding: Option<&Bound<'_, PyAny>>) -> PyResult<Target> {
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

/// The whole document written out. With no `encoding` (and no pretty
/// printing) an unedited document comes back byte for byte, in its own
/// encoding, with its own XML declaration.
pub(crate) fn serialize_document(
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
pub(crate) fn canonical_form(exclusive: bool, with_comments: bool) -> CanonicalForm {
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
pub(crate) fn canonical_bytes(
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
#[pymethods]
impl Element {
    /// The subtree in Canonical XML 1.0 (`tostring(method="c14n")`).
    #[pyo3(signature = (exclusive=false, with_comments=true))]
    pub(crate) fn _canonical(
        &self,
        py: Python<'_>,
        exclusive: bool,
        with_comments: bool,
    ) -> PyResult<Py<PyAny>> {
        let here = self.here();
        canonical_bytes(
            py,
            &here.doc,
            Some(here.id),
            canonical_form(exclusive, with_comments),
        )
    }

    /// The subtree serialized: see `tostring`.
    #[pyo3(signature = (encoding=None, pretty_print=false, xml_declaration=None, with_tail=true))]
    pub(crate) fn _serialize(
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
        let Element { doc: shared, id } = self.here();
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
