//! The edits of `_Element` and `SubElement`, through the library's
//! checked edit API: a refused edit is a `ValueError` and changes nothing.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::element::Element;
use crate::nodes::{replace_text_run, split_clark, text_nodes};

#[pymethods]
impl Element {
    /// Sets the text before the first child (`None` removes it).
    #[setter]
    pub(crate) fn set_text(&self, value: Option<String>) -> PyResult<()> {
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
    pub(crate) fn set_tail(&self, value: Option<String>) -> PyResult<()> {
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
    pub(crate) fn set(&self, key: &str, value: &str) -> PyResult<()> {
        let id = self.id;
        let (uri, local) = split_clark(key);
        self.edit(|doc| match uri {
            Some(uri) if !uri.is_empty() => doc.set_attribute_ns(id, uri, local, value),
            _ => doc.set_attribute(id, local, value),
        })
    }

    /// Appends `child` (an element of this document, moved with its tail).
    pub(crate) fn append(&self, child: &Bound<'_, Element>) -> PyResult<()> {
        let parent = self.id;
        self.move_with_tail(child.get(), |doc, node| doc.append(parent, node))
    }

    /// Appends each element of `children`.
    pub(crate) fn extend(&self, children: &Bound<'_, PyAny>) -> PyResult<()> {
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
    pub(crate) fn insert(&self, index: isize, child: &Bound<'_, Element>) -> PyResult<()> {
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
    pub(crate) fn remove(&self, child: &Bound<'_, Element>) -> PyResult<()> {
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
}

/// Makes an element named `tag` (a Clark name) with `attrib` and appends
/// it to `parent`. The element is made and given its attributes detached,
/// so a refused name or value changes nothing.
#[pyfunction]
#[pyo3(name = "SubElement", signature = (parent, tag, attrib=None))]
pub(crate) fn sub_element(
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
