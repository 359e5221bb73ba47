//! `_Attrib`: an element's attributes as a live mapping (lxml's `attrib`),
//! by Clark name, namespace declarations excluded. It holds the element,
//! not a copy: every read reads the element now, every write is an edit
//! through the checked edit API (a refusal is a `ValueError` and changes
//! nothing; a write of several attributes is undone whole).

use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyList, PyString, PyTuple};
use std::sync::atomic::AtomicUsize;

use xml5dom::{Document, NodeId};

use crate::edit::{remove_attribute, set_attribute};
use crate::element::{AttributePair, Element};
use crate::EditResult;

/// The attributes of an element, as a mapping that reads and writes the
/// element.
#[pyclass(frozen, mapping, module = "xml5dom._xml5dom", name = "_Attrib")]
pub(crate) struct Attrib {
    element: Element,
}

impl Attrib {
    pub(crate) fn of(element: &Element) -> Attrib {
        Attrib {
            element: Element::new(element.doc.clone(), element.id),
        }
    }

    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.element.items(py)? {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// Sets and removes (`None`) attributes in one edit, all or none.
    fn change(&self, changes: Vec<(String, Option<String>)>) -> PyResult<()> {
        let here = self.element.here();
        let id = here.id;
        let prefixes = &here.doc.fresh_prefixes;
        here.edit(|doc| change_all(doc, id, &changes, prefixes))
    }
}

/// Puts back what `undo` recorded, last change first.
fn restore(
    doc: &mut Document,
    id: NodeId,
    undo: Vec<(String, Option<String>)>,
    prefixes: &AtomicUsize,
) {
    for (name, value) in undo.into_iter().rev() {
        // What was there before was accepted: putting it back is too.
        let _ = match value {
            Some(value) => set_attribute(doc, id, None, &name, &value, prefixes),
            None => remove_attribute(doc, id, &name).map(|_| ()),
        };
    }
}

fn value_of(doc: &Document, id: NodeId, name: &str) -> Option<String> {
    let (uri, local) = crate::nodes::split_clark(name);
    let uri = uri.filter(|u| !u.is_empty());
    doc.node(id)?
        .attributes()
        .find(|a| a.declared_prefix().is_none() && a.local_name() == local && a.namespace() == uri)
        .map(|a| a.value().to_string())
}

/// Applies `changes` to element `id`, undoing them all if one is refused.
pub(crate) fn change_all(
    doc: &mut Document,
    id: NodeId,
    changes: &[(String, Option<String>)],
    prefixes: &AtomicUsize,
) -> EditResult<()> {
    let mut undo: Vec<(String, Option<String>)> = Vec::new();
    for (name, value) in changes {
        let before = value_of(doc, id, name);
        let done = match value {
            Some(value) => set_attribute(doc, id, None, name, value, prefixes),
            None => remove_attribute(doc, id, name).map(|_| ()),
        };
        if let Err(error) = done {
            restore(doc, id, undo, prefixes);
            return Err(error);
        }
        undo.push((name.clone(), before));
    }
    Ok(())
}

/// The `(name, value)` pairs of `other`: a mapping (with `keys()`) or an
/// iterable of pairs, as `dict.update` takes them.
fn pairs_of(other: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    if let Ok(attrib) = other.cast::<Attrib>() {
        let items = attrib.get().element.items(other.py())?;
        return Ok(items
            .into_iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect());
    }
    if other.hasattr("keys")? {
        for key in other.call_method0("keys")?.try_iter()? {
            let key = key?;
            let value = other.get_item(&key)?;
            pairs.push((key.extract()?, value.extract()?));
        }
        return Ok(pairs);
    }
    for pair in other.try_iter()? {
        let pair = pair?;
        let (name, value): (String, String) = pair
            .extract()
            .map_err(|_| PyTypeError::new_err("update() takes a mapping or (name, value) pairs"))?;
        pairs.push((name, value));
    }
    Ok(pairs)
}

#[pymethods]
impl Attrib {
    fn __getitem__(&self, key: &str) -> PyResult<String> {
        self.element
            .value(key)?
            .ok_or_else(|| PyKeyError::new_err(key.to_string()))
    }

    fn __setitem__(&self, key: &str, value: &str) -> PyResult<()> {
        self.element.set(key, value)
    }

    fn __delitem__(&self, key: &str) -> PyResult<()> {
        if self.element.value(key)?.is_none() {
            return Err(PyKeyError::new_err(key.to_string()));
        }
        self.change(vec![(key.to_string(), None)])
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.element.items(py)?.len())
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.__len__(py)? > 0)
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        match key.extract::<String>() {
            Ok(key) => Ok(self.element.value(&key)?.is_some()),
            Err(_) => Ok(false),
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.element.keys(py)?)?.try_iter()
    }

    /// Equal to a mapping (a dict, another `attrib`) with the same items.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let ours = self.dict(py)?;
        match other.cast::<Attrib>() {
            Ok(theirs) => ours.eq(theirs.get().dict(py)?),
            Err(_) if other.hasattr("keys")? => ours.eq(py.get_type::<PyDict>().call1((other,))?),
            Err(_) => Ok(false),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.dict(py)?.repr()?.to_string())
    }

    /// The value of `key`, or `default`.
    #[pyo3(signature = (key, default=None))]
    fn get(
        &self,
        py: Python<'_>,
        key: &str,
        default: Option<Py<PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        self.element.get(py, key, default)
    }

    /// The names, in document order.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        self.element.keys(py)
    }

    /// The values, in document order.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        self.element.values(py)
    }

    /// `(name, value)` pairs, in document order.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Vec<AttributePair<'py>>> {
        self.element.items(py)
    }

    /// A dict of the attributes as they are now.
    fn copy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }

    /// Sets the attributes of `other` (a mapping or pairs) and `extra`, all
    /// or none.
    #[pyo3(signature = (other=None, **extra))]
    fn update(
        &self,
        other: Option<&Bound<'_, PyAny>>,
        extra: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let mut pairs = match other {
            Some(other) if !other.is_none() => pairs_of(other)?,
            _ => Vec::new(),
        };
        if let Some(extra) = extra {
            pairs.extend(pairs_of(extra.as_any())?);
        }
        self.change(pairs.into_iter().map(|(k, v)| (k, Some(v))).collect())
    }

    /// Removes `key` and returns its value; `default` if it is not there
    /// (`KeyError` without one).
    #[pyo3(signature = (key, *default))]
    fn pop(&self, py: Python<'_>, key: &str, default: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        if default.len() > 1 {
            return Err(PyTypeError::new_err(format!(
                "pop expected at most 2 arguments, got {}",
                default.len() + 1
            )));
        }
        match self.element.value(key)? {
            Some(value) => {
                self.change(vec![(key.to_string(), None)])?;
                Ok(value.into_pyobject(py)?.into_any().unbind())
            }
            None => match default.get_item(0) {
                Ok(default) => Ok(default.unbind()),
                Err(_) => Err(PyKeyError::new_err(key.to_string())),
            },
        }
    }

    /// Removes every attribute (namespace declarations stay), all or none.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        // Last first, so that a refusal puts back the last ones, in order.
        let names = self.element.keys(py)?;
        self.change(
            names
                .into_iter()
                .rev()
                .map(|k| (k.to_string(), None))
                .collect(),
        )
    }
}
