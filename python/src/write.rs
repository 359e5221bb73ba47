//! Writing out: `tostring` and `write` of a tree or a subtree, in the
//! document's encoding or another, pretty printed or not, with lxml's
//! `xml_declaration`, `standalone`, `doctype` and `with_tail`; the text
//! content (`method="text"`); Canonical XML 1.0 (`method="c14n"`) and 2.0
//! (`method="c14n2"`, in `c14n2`). Each write hands back, beside the
//! output, the serializer's repairs as an error log (see `log`).

mod c14n2;

use std::collections::HashSet;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use xml5dom::{
    canonicalize, canonicalize_with, CanonicalForm, CanonicalOptions, Document, Encoding, NodeId,
    OutputEncoding, SerializeOptions, XPath,
};

use crate::element::Element;
use crate::log::{log_of, repair_entries, ErrorLog, LogEntry};
use crate::nodes::{escape_text, text_run};
use crate::tree::ElementTree;
use crate::{read, Shared};

/// An `encoding=` argument: `Text` for a `str` (`"unicode"` or `str`),
/// `Ascii` for `"ascii"`/`"us-ascii"` (the Encoding Standard makes that
/// label windows-1252, whose bytes above 0x7F are not ASCII: the output is
/// UTF-8 with every other character as a character reference), else the
/// encoding named (`None`: the default).
pub(crate) enum Target {
    Text,
    Ascii,
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
    if ["ascii", "us-ascii"].contains(&label.trim().to_ascii_lowercase().as_str()) {
        return Ok(Target::Ascii);
    }
    match Encoding::for_label(label.trim()) {
        Some(found) => Ok(Target::Bytes(Some(found))),
        None => Err(PyValueError::new_err(format!(
            "unknown encoding: {label:?}"
        ))),
    }
}

/// What lxml writes before the tree: `xml_declaration` (`None`: lxml's
/// default), `standalone` (a declaration saying it) and `doctype` (a
/// string written as it is, on a line of its own).
pub(crate) struct Prolog {
    pub(crate) xml_declaration: Option<bool>,
    pub(crate) standalone: Option<bool>,
    pub(crate) doctype: Option<String>,
}

impl Prolog {
    /// A `str` has no encoding for a declaration to name: lxml refuses.
    fn check_text(&self) -> PyResult<()> {
        if self.xml_declaration == Some(true) || self.standalone.is_some() {
            return Err(PyValueError::new_err(
                "Serialisation to unicode must not request an XML declaration",
            ));
        }
        Ok(())
    }
}

/// lxml's XML declaration: single quotes, a line of its own.
fn declaration(version: &str, encoding: Option<&str>, standalone: Option<bool>) -> String {
    let mut text = format!("<?xml version='{version}'");
    if let Some(encoding) = encoding {
        text.push_str(&format!(" encoding='{encoding}'"));
    }
    if let Some(standalone) = standalone {
        text.push_str(if standalone {
            " standalone='yes'"
        } else {
            " standalone='no'"
        });
    }
    text.push_str("?>\n");
    text
}

/// `text` without the XML declaration it starts with (and the line ends
/// after it), if `has_declaration`.
fn without_declaration(text: &str, has_declaration: bool) -> &str {
    if !has_declaration || !text.starts_with("<?xml") {
        return text;
    }
    match text.find("?>") {
        Some(end) => text[end + 2..].trim_start_matches(['\r', '\n']),
        None => text,
    }
}

/// `text` with every character outside ASCII as a character reference.
fn ascii_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("&#{};", u32::from(c)));
        }
    }
    out
}

/// `text` in `encoding`, with a byte-order mark if `bom`.
fn encode(encoding: Encoding, text: &str, bom: bool) -> Vec<u8> {
    if bom {
        let mut marked = String::with_capacity(text.len() + 3);
        marked.push('\u{feff}');
        marked.push_str(text);
        return encoding.encode(&marked);
    }
    encoding.encode(text)
}

fn needs_bom(doc: &Document, encoding: Encoding) -> bool {
    if encoding == doc.encoding() {
        return doc.had_byte_order_mark();
    }
    is_unicode_wide(encoding)
}

/// The name a declaration gives `encoding`: `UTF-16` and `UTF-32` for
/// either byte order, which the byte-order mark says (as the library's
/// own declarations name them).
fn declared_name(encoding: Encoding) -> &'static str {
    match encoding.name() {
        name if name.starts_with("UTF-16") => "UTF-16",
        name if name.starts_with("UTF-32") => "UTF-32",
        name => name,
    }
}

/// UTF-16 or UTF-32, in either byte order.
fn is_unicode_wide(encoding: Encoding) -> bool {
    let name = encoding.name();
    name.starts_with("UTF-16") || name.starts_with("UTF-32")
}

/// The output as text or bytes, and the repairs made, under the lock.
type Made = (Option<String>, Option<Vec<u8>>, Vec<LogEntry>);

/// What a write makes: the output (`bytes` or `str`) and the serializer's
/// repairs.
pub(crate) type Written = (Py<PyAny>, ErrorLog);

fn output(py: Python<'_>, text: Option<String>, bytes: Option<Vec<u8>>) -> PyResult<Py<PyAny>> {
    match (text, bytes) {
        (Some(text), _) => Ok(PyString::new(py, &text).into_any().unbind()),
        (None, Some(bytes)) => Ok(PyBytes::new(py, &bytes).into_any().unbind()),
        (None, None) => Err(PyRuntimeError::new_err("nothing was serialized")),
    }
}

/// The whole document written out. With no `encoding`, no pretty printing
/// and no prolog argument an unedited document comes back byte for byte,
/// in its own encoding, with its own XML declaration; an edited one with
/// only the edits written anew; a broken one repaired, the repairs in the
/// log returned.
pub(crate) fn serialize_document(
    py: Python<'_>,
    shared: &Shared,
    target: Target,
    pretty_print: bool,
    prolog: &Prolog,
) -> PyResult<Written> {
    if matches!(target, Target::Text) {
        prolog.check_text()?;
    }
    let pretty = pretty_print.then_some(2);
    let (text, bytes, repairs) = py.detach(|| -> PyResult<Made> {
        let doc = read(shared)?;
        let declared = doc.xml_declaration();
        let has_declaration = declared.is_some();
        let version = declared
            .and_then(|d| d.version.as_deref())
            .unwrap_or("1.0")
            .to_string();
        // The declaration lxml writes replaces the document's when
        // `standalone` is asked for, or when one is asked for and
        // there is none.
        let fresh = prolog.standalone.is_some()
            || (prolog.xml_declaration == Some(true) && !has_declaration);
        let drop_own = fresh || prolog.xml_declaration == Some(false);
        let adjusted = drop_own || prolog.doctype.is_some();
        let assemble = |text: &str, encoding: Option<&str>| -> String {
            let body = if drop_own {
                without_declaration(text, has_declaration)
            } else {
                text
            };
            let mut out = String::with_capacity(body.len() + 80);
            let mut rest = body;
            if fresh {
                out.push_str(&declaration(&version, encoding, prolog.standalone));
            } else if !drop_own && has_declaration && body.starts_with("<?xml") {
                // The document's own declaration stays first.
                if let Some(end) = body.find("?>") {
                    out.push_str(&body[..end + 2]);
                    out.push('\n');
                    rest = body[end + 2..].trim_start_matches(['\r', '\n']);
                }
            }
            if let Some(doctype) = &prolog.doctype {
                out.push_str(doctype);
                out.push('\n');
            }
            out.push_str(rest);
            out
        };
        match target {
            Target::Text => {
                // A `str` of the document: its declaration as written
                // (the text no longer has an encoding of its own).
                let out = doc.serialize(&SerializeOptions {
                    pretty,
                    encoding: OutputEncoding::Original,
                });
                let text = if adjusted {
                    assemble(&out.text, None)
                } else {
                    out.text
                };
                Ok((Some(text), None, repair_entries(&doc, out.repairs)))
            }
            Target::Ascii => {
                // UTF-8 (the declaration says so) of ASCII characters only.
                let encoding = if doc.encoding() == Encoding::UTF_8 {
                    OutputEncoding::Original
                } else {
                    OutputEncoding::Other(Encoding::UTF_8)
                };
                let out = doc.serialize(&SerializeOptions { pretty, encoding });
                let text = if adjusted {
                    assemble(&out.text, Some("UTF-8"))
                } else {
                    out.text
                };
                let bytes = ascii_only(&text).into_bytes();
                Ok((None, Some(bytes), repair_entries(&doc, out.repairs)))
            }
            Target::Bytes(encoding) => {
                let chosen = encoding.unwrap_or(doc.encoding());
                let encoding = if chosen == doc.encoding() {
                    OutputEncoding::Original
                } else {
                    OutputEncoding::Other(chosen)
                };
                let options = SerializeOptions { pretty, encoding };
                if adjusted {
                    let out = doc.serialize(&options);
                    let text = assemble(&out.text, Some(declared_name(chosen)));
                    let bytes = encode(chosen, &text, needs_bom(&doc, chosen));
                    return Ok((None, Some(bytes), repair_entries(&doc, out.repairs)));
                }
                let (bytes, repairs) = doc.to_bytes(&options);
                Ok((None, Some(bytes), repair_entries(&doc, repairs)))
            }
        }
    })?;
    let log = log_of(py, repairs)?;
    Ok((output(py, text, bytes)?, log))
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

/// A set of names (`{uri}local` or `local`) from any iterable of `str`.
fn name_set(names: Option<&Bound<'_, PyAny>>) -> PyResult<HashSet<String>> {
    let mut set = HashSet::new();
    if let Some(names) = names.filter(|n| !n.is_none()) {
        for name in names.try_iter()? {
            set.insert(
                name?
                    .extract::<String>()
                    .map_err(|_| PyTypeError::new_err("QName-aware names must be strings"))?,
            );
        }
    }
    Ok(set)
}

/// Canonical XML 2.0 of the document (`subtree` `None`) or of a subtree,
/// as UTF-8 bytes.
fn c14n2_bytes(
    py: Python<'_>,
    shared: &Shared,
    subtree: Option<NodeId>,
    options: c14n2::C14n2Options,
) -> PyResult<Py<PyAny>> {
    let text = py.detach(|| -> PyResult<String> {
        let doc = read(shared)?;
        let start = match subtree {
            None => doc.root(),
            Some(id) => doc
                .node(id)
                .ok_or_else(|| PyValueError::new_err("the node was removed from its document"))?,
        };
        Ok(c14n2::canonicalize(start, &options))
    })?;
    Ok(PyBytes::new(py, text.as_bytes()).into_any().unbind())
}

/// The names `canonicalize` takes, each `None` or an iterable of names.
struct C14n2Names<'a, 'py> {
    qname_aware_tags: Option<&'a Bound<'py, PyAny>>,
    qname_aware_attrs: Option<&'a Bound<'py, PyAny>>,
    exclude_tags: Option<&'a Bound<'py, PyAny>>,
    exclude_attrs: Option<&'a Bound<'py, PyAny>>,
}

fn c14n2_options(
    with_comments: bool,
    strip_text: bool,
    rewrite_prefixes: bool,
    names: C14n2Names<'_, '_>,
) -> PyResult<c14n2::C14n2Options> {
    Ok(c14n2::C14n2Options {
        with_comments,
        strip_text,
        rewrite_prefixes,
        qname_aware_tags: name_set(names.qname_aware_tags)?,
        qname_aware_attrs: name_set(names.qname_aware_attrs)?,
        exclude_tags: name_set(names.exclude_tags)?,
        exclude_attrs: name_set(names.exclude_attrs)?,
    })
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

    /// The subtree in Canonical XML 2.0 (`tostring(method="c14n2")`,
    /// `canonicalize`).
    #[pyo3(signature = (with_comments=true, strip_text=false, rewrite_prefixes=false,
                        qname_aware_tags=None, qname_aware_attrs=None,
                        exclude_tags=None, exclude_attrs=None))]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn _c14n2(
        &self,
        py: Python<'_>,
        with_comments: bool,
        strip_text: bool,
        rewrite_prefixes: bool,
        qname_aware_tags: Option<&Bound<'_, PyAny>>,
        qname_aware_attrs: Option<&Bound<'_, PyAny>>,
        exclude_tags: Option<&Bound<'_, PyAny>>,
        exclude_attrs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let names = C14n2Names {
            qname_aware_tags,
            qname_aware_attrs,
            exclude_tags,
            exclude_attrs,
        };
        let options = c14n2_options(with_comments, strip_text, rewrite_prefixes, names)?;
        let here = self.here();
        c14n2_bytes(py, &here.doc, Some(here.id), options)
    }

    /// The text content (`tostring(method="text")`): every text below the
    /// element, and its tail with `with_tail`.
    #[pyo3(signature = (with_tail=true))]
    pub(crate) fn _text(&self, with_tail: bool) -> PyResult<String> {
        self.with(|node| {
            let mut text = node.text_content();
            let top = node.parent().is_none_or(|p| p.is_document());
            if with_tail && !top {
                if let Some(tail) = text_run(node.next_sibling()) {
                    text.push_str(&tail);
                }
            }
            Ok(text)
        })
    }

    /// The subtree serialized, and the repairs made: see `tostring`.
    /// `xml_declaration` is what to do, decided by the caller; pretty
    /// printing ends the output with a line break, after the tail, as
    /// lxml's does.
    #[pyo3(signature = (encoding=None, pretty_print=false, xml_declaration=false,
                        with_tail=true, standalone=None, doctype=None))]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn _serialize(
        &self,
        py: Python<'_>,
        encoding: Option<&Bound<'_, PyAny>>,
        pretty_print: bool,
        xml_declaration: bool,
        with_tail: bool,
        standalone: Option<bool>,
        doctype: Option<String>,
    ) -> PyResult<Written> {
        let target = target(encoding)?;
        let prolog = Prolog {
            xml_declaration: Some(xml_declaration),
            standalone,
            doctype,
        };
        if matches!(target, Target::Text) {
            prolog.check_text()?;
        }
        let here = self.here();
        let (shared, id) = (here.doc.clone(), here.id);
        let pretty = pretty_print.then_some(2);
        let (text, repairs, version) = py.detach(move || -> PyResult<_> {
            let doc = read(&shared)?;
            let node = doc
                .node(id)
                .ok_or_else(|| PyValueError::new_err("the node was removed from its document"))?;
            let out = node.serialize(&SerializeOptions {
                pretty,
                ..SerializeOptions::default()
            });
            let mut text = out.text;
            let top = node.parent().is_none_or(|p| p.is_document());
            if with_tail && !top {
                if let Some(tail) = text_run(node.next_sibling()) {
                    text.push_str(&escape_text(&tail));
                }
            }
            if pretty.is_some() && !text.ends_with('\n') {
                text.push('\n');
            }
            let version = if text.starts_with("<?xml version=\"1.1\"?>") {
                "1.1"
            } else {
                "1.0"
            };
            Ok((text, repair_entries(&doc, out.repairs), version))
        })?;
        let log = log_of(py, repairs)?;
        // A subtree of an XML 1.1 document starts with its own declaration.
        let body = match text.strip_prefix("<?xml version=\"1.1\"?>") {
            Some(rest) if xml_declaration => rest,
            _ => &text,
        };
        let mut prefix = String::new();
        let ascii = matches!(target, Target::Ascii);
        let encoding = match target {
            Target::Text => None,
            Target::Ascii => Some(Encoding::UTF_8),
            Target::Bytes(encoding) => Some(encoding.unwrap_or(Encoding::UTF_8)),
        };
        if xml_declaration {
            let name = if ascii {
                Some("ASCII")
            } else {
                encoding.map(declared_name)
            };
            prefix.push_str(&declaration(version, name, prolog.standalone));
        }
        if let Some(doctype) = &prolog.doctype {
            prefix.push_str(doctype);
            prefix.push('\n');
        }
        let mut whole = prefix + body;
        if ascii {
            whole = ascii_only(&whole);
        }
        let data = match encoding {
            None => PyString::new(py, &whole).into_any().unbind(),
            // UTF-16 and UTF-32 start with a byte-order mark (XML 1.0
            // §4.3.3), as lxml's do.
            Some(encoding) => {
                PyBytes::new(py, &encode(encoding, &whole, is_unicode_wide(encoding)))
                    .into_any()
                    .unbind()
            }
        };
        Ok((data, log))
    }
}

#[pymethods]
impl ElementTree {
    /// The document in Canonical XML 1.0 (`tostring(method="c14n")`).
    #[pyo3(signature = (exclusive=false, with_comments=true))]
    pub(crate) fn _canonical(
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

    /// The document in Canonical XML 2.0 (`tostring(method="c14n2")`,
    /// `canonicalize`).
    #[pyo3(signature = (with_comments=true, strip_text=false, rewrite_prefixes=false,
                        qname_aware_tags=None, qname_aware_attrs=None,
                        exclude_tags=None, exclude_attrs=None))]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn _c14n2(
        &self,
        py: Python<'_>,
        with_comments: bool,
        strip_text: bool,
        rewrite_prefixes: bool,
        qname_aware_tags: Option<&Bound<'_, PyAny>>,
        qname_aware_attrs: Option<&Bound<'_, PyAny>>,
        exclude_tags: Option<&Bound<'_, PyAny>>,
        exclude_attrs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let names = C14n2Names {
            qname_aware_tags,
            qname_aware_attrs,
            exclude_tags,
            exclude_attrs,
        };
        let options = c14n2_options(with_comments, strip_text, rewrite_prefixes, names)?;
        c14n2_bytes(py, &self.doc, None, options)
    }

    /// The text content of the root element (`tostring(method="text")`).
    pub(crate) fn _text(&self) -> PyResult<String> {
        let doc = read(&self.doc)?;
        Ok(doc
            .root_element()
            .map(|root| root.text_content())
            .unwrap_or_default())
    }

    /// The document serialized, and the repairs made: see `tostring`.
    #[pyo3(signature = (encoding=None, pretty_print=false, xml_declaration=None,
                        standalone=None, doctype=None))]
    pub(crate) fn _serialize(
        &self,
        py: Python<'_>,
        encoding: Option<&Bound<'_, PyAny>>,
        pretty_print: bool,
        xml_declaration: Option<bool>,
        standalone: Option<bool>,
        doctype: Option<String>,
    ) -> PyResult<Written> {
        let prolog = Prolog {
            xml_declaration,
            standalone,
            doctype,
        };
        serialize_document(py, &self.doc, target(encoding)?, pretty_print, &prolog)
    }
}

#[pymethods]
impl ElementTree {
    /// Writes the document to `file`, a path or an object with `write()`,
    /// as `tostring(tree, ...)` serializes it (the same arguments, lxml's
    /// order).
    #[pyo3(signature = (file, encoding=None, method="xml", pretty_print=false,
                        xml_declaration=None, with_tail=true, standalone=None, doctype=None,
                        exclusive=false, with_comments=true, strip_text=false))]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn write(
        slf: &Bound<'_, Self>,
        file: &Bound<'_, PyAny>,
        encoding: Option<&Bound<'_, PyAny>>,
        method: &str,
        pretty_print: bool,
        xml_declaration: Option<bool>,
        with_tail: bool,
        standalone: Option<bool>,
        doctype: Option<String>,
        exclusive: bool,
        with_comments: bool,
        strip_text: bool,
    ) -> PyResult<()> {
        let py = slf.py();
        let arguments = pyo3::types::PyDict::new(py);
        arguments.set_item("encoding", encoding)?;
        arguments.set_item("method", method)?;
        arguments.set_item("pretty_print", pretty_print)?;
        arguments.set_item("xml_declaration", xml_declaration)?;
        arguments.set_item("with_tail", with_tail)?;
        arguments.set_item("standalone", standalone)?;
        arguments.set_item("doctype", doctype)?;
        arguments.set_item("exclusive", exclusive)?;
        arguments.set_item("with_comments", with_comments)?;
        arguments.set_item("strip_text", strip_text)?;
        // Through `tostring`, which picks the method and reports repairs.
        let data = py
            .import("xml5dom.etree")?
            .getattr("tostring")?
            .call((slf,), Some(&arguments))?;
        if file.hasattr("write")? {
            file.call_method1("write", (data,))?;
            return Ok(());
        }
        let path: std::path::PathBuf = file
            .extract()
            .map_err(|_| PyTypeError::new_err("write() needs a path or a file object"))?;
        let bytes: Vec<u8> = match data.cast::<PyString>() {
            Ok(text) => text.extract::<String>()?.into_bytes(),
            Err(_) => data.extract()?,
        };
        py.detach(move || std::fs::write(path, bytes))
            .map_err(PyErr::from)
    }
}
