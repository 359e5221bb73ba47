//! `find`, `findall`, `iterfind`, `findtext` (the library's ElementPath)
//! and `xpath` (XPath 1.0), with `namespaces=` mappings.

use pyo3::exceptions::{PySyntaxError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyList, PyString};
use xml5dom::query::element_path::ElementPath;
use xml5dom::query::{Bindings, Value, XNode};
use xml5dom::{NodeId, XPath};

use crate::element::Element;
use crate::log::xpath_error;
use crate::nodes::is_item;
use crate::{read, Shared};

/// The `(prefix, uri)` pairs of a `namespaces=` mapping (`None` or `''`
/// for the default namespace).
pub(crate) fn namespace_pairs(
    namespaces: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(String, String)>> {
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

pub(crate) fn element_path(
    path: &str,
    namespaces: Option<&Bound<'_, PyAny>>,
) -> PyResult<ElementPath> {
    let pairs = namespace_pairs(namespaces)?;
    let borrowed: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(p, u)| (p.as_str(), u.as_str()))
        .collect();
    ElementPath::compile_with(path, &borrowed)
        .map_err(|err| PySyntaxError::new_err(err.to_string()))
}

pub(crate) fn xpath(
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
                        list.append(Py::new(py, Element::new(shared.clone(), node.id()))?)?;
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
    /// The first element the ElementPath `path` finds, or `None`.
    #[pyo3(signature = (path, namespaces=None))]
    pub(crate) fn find(
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
    pub(crate) fn findall(
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
    pub(crate) fn iterfind<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.findall(py, path, namespaces)?)?.try_iter()
    }

    /// The text of the first element `path` finds (`''` if it has none), or
    /// `default` if it finds none.
    #[pyo3(signature = (path, default=None, namespaces=None))]
    pub(crate) fn findtext(
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
    pub(crate) fn xpath(
        &self,
        py: Python<'_>,
        expression: &str,
        namespaces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let here = self.here();
        xpath(py, &here.doc, here.id, expression, namespaces)
    }
}
