//! The edits of `_Element`, and the factories that make nodes (`Element`,
//! `SubElement`, `Comment`, `ProcessingInstruction`), through the library's
//! checked edit API: a refused edit is a `ValueError` and changes nothing,
//! an argument of the wrong type a `TypeError`.
//!
//! Every edit works on the node where it is now (`Element::here`): a proxy
//! whose node moved into another document edits it there.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySlice};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use xml5dom::{Document, Node, NodeId, NodeType};

use crate::element::Element;

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
use crate::nodes::{is_item, replace_text_run, split_clark, text_nodes};
use crate::{edit_error, let_go, share, DocCell, EditResult};

fn refused(why: impl Into<String>) -> xml5dom::Error {
    xml5dom::Error::InvalidEdit(why.into())
}

fn removed() -> xml5dom::Error {
    refused("the node was removed")
}

/// Whether `node` is at the top of its document (or detached): it has no
/// tail there.
fn at_top(node: Node<'_>) -> bool {
    node.parent().is_none_or(|p| p.is_document())
}

/// The text nodes of `node`'s tail (none at the top).
fn tail_of(node: Node<'_>) -> Vec<NodeId> {
    if at_top(node) {
        Vec::new()
    } else {
        text_nodes(node.next_sibling())
    }
}

/// Takes `child` out of its parent, keeping it (detached) for the proxies
/// that hold it, and removes its tail, as `remove` does.
fn take_out(cell: &DocCell, doc: &mut Document, child: NodeId) -> EditResult<()> {
    let node = doc.node(child).ok_or_else(removed)?;
    let tail = tail_of(node);
    doc.detach(child)?;
    for text in tail {
        doc.remove(text)?;
    }
    let_go(cell, doc, child);
    Ok(())
}

/// A Clark name's local part checked as lxml checks a tag or an attribute
/// name before the library checks it as an XML name: not empty, no `:`
/// (a prefix is chosen, not given).
fn check_local(local: &str, what: &str, name: &str) -> EditResult<()> {
    if local.is_empty() {
        return Err(refused(format!("Empty {what} name")));
    }
    if local.contains(':') || (what == "attribute" && local == "xmlns") {
        return Err(refused(format!("Invalid {what} name {name:?}")));
    }
    Ok(())
}

/// A new `nsN` prefix that `taken` does not reject, from the document's
/// count (`DocCell::fresh_prefixes`), as lxml numbers them.
fn fresh_prefix(prefixes: &AtomicUsize, taken: impl Fn(&str) -> bool) -> String {
    loop {
        let prefix = format!("ns{}", prefixes.fetch_add(1, Ordering::Relaxed));
        if !taken(&prefix) {
            return prefix;
        }
    }
}

/// Sets the attribute named `name` (a Clark name) on `element`, which
/// lands under `scope` if it is given (it is detached, being made); a
/// prefix made up for its namespace is numbered from `prefixes`.
pub(crate) fn set_attribute(
    doc: &mut Document,
    element: NodeId,
    scope: Option<NodeId>,
    name: &str,
    value: &str,
    prefixes: &AtomicUsize,
) -> EditResult<()> {
    let (uri, local) = split_clark(name);
    check_local(local, "attribute", name)?;
    let Some(uri) = uri.filter(|u| !u.is_empty()) else {
        return doc.set_attribute(element, local, value);
    };
    let node = doc.node(element).ok_or_else(removed)?;
    if !node.is_element() || uri == XML_NAMESPACE {
        return doc.set_attribute_ns(element, uri, local, value);
    }
    let (prefix, declared) = attribute_prefix(doc, element, scope, uri, prefixes)?;
    let set = doc.set_attribute_ns(element, uri, &format!("{prefix}:{local}"), value);
    if set.is_err() && declared {
        let _ = doc.remove_attribute(element, &format!("xmlns:{prefix}"));
    }
    set
}

/// A prefix (not the default namespace) bound to `uri` at `node`: the
/// nearest declaration of one, else the one the library finds.
fn prefix_for<'a>(node: Node<'a>, uri: &str) -> Option<&'a str> {
    let declared = std::iter::once(node)
        .chain(node.ancestors())
        .filter(|n| n.is_element())
        .flat_map(|n| n.attributes())
        .filter(|a| a.value() == uri)
        .filter_map(|a| a.declared_prefix().flatten())
        .find(|p| node.lookup_namespace_uri(Some(p)) == Some(uri));
    declared.or_else(|| node.lookup_prefix(uri).filter(|p| !p.is_empty()))
}

/// The prefix an attribute in the namespace `uri` takes on `element`, as
/// lxml picks it: one bound to `uri` in scope (the default namespace does
/// not name attributes), else a new `nsN`, declared on the element (then
/// the flag is true).
fn attribute_prefix(
    doc: &mut Document,
    element: NodeId,
    scope: Option<NodeId>,
    uri: &str,
    prefixes: &AtomicUsize,
) -> EditResult<(String, bool)> {
    let node = doc.node(element).ok_or_else(removed)?;
    let scope = scope.and_then(|s| doc.node(s));
    let free_here = |p: &str| node.lookup_namespace_uri(Some(p)).is_none();
    let bound = prefix_for(node, uri)
        .or_else(|| {
            scope
                .and_then(|s| prefix_for(s, uri))
                .filter(|p| free_here(p))
        })
        .map(str::to_string);
    if let Some(prefix) = bound {
        return Ok((prefix, false));
    }
    let fresh = fresh_prefix(prefixes, |p| {
        !free_here(p) || scope.is_some_and(|s| s.lookup_namespace_uri(Some(p)).is_some())
    });
    doc.set_attribute(element, &format!("xmlns:{fresh}"), uri)?;
    Ok((fresh, true))
}

/// Removes the attribute named `name` (a Clark name) from `element`;
/// returns its value, or `None` if it has none.
pub(crate) fn remove_attribute(
    doc: &mut Document,
    element: NodeId,
    name: &str,
) -> EditResult<Option<String>> {
    let (uri, local) = split_clark(name);
    let uri = uri.filter(|u| !u.is_empty());
    let node = doc.node(element).ok_or_else(removed)?;
    let qualified = node
        .attributes()
        .find(|a| a.declared_prefix().is_none() && a.local_name() == local && a.namespace() == uri)
        .map(|a| a.name().to_string());
    match qualified {
        Some(qualified) => doc.remove_attribute(element, &qualified),
        None => Ok(None),
    }
}

/// The element `id` of `doc` cleared as lxml's `clear` does: no
/// attributes (namespace declarations stay), no text, no children (taken
/// out and kept for their proxies), and no tail unless `keep_tail`. The
/// attributes go first: they are what the library may refuse (one a DTD
/// default would bring back).
fn clear_node(cell: &DocCell, doc: &mut Document, id: NodeId, keep_tail: bool) -> EditResult<()> {
    let node = doc.node(id).ok_or_else(removed)?;
    if !node.is_element() {
        return doc.set_text(id, "");
    }
    let tail = !keep_tail && !at_top(node);
    doc.clear_attributes(id)?;
    // First child after first child, nothing collected: a streamed
    // element is cleared once per element read.
    let first_child = |doc: &Document| {
        let child = doc.node(id)?.first_child()?;
        Some((child.id(), is_item(child)))
    };
    while let Some((child, item)) = first_child(doc) {
        if item {
            doc.detach(child)?;
            let_go(cell, doc, child);
        } else {
            doc.remove(child)?;
        }
    }
    let tail_text = |doc: &Document| {
        let next = doc.node(id)?.next_sibling()?;
        (next.node_type() == NodeType::Text).then(|| next.id())
    };
    while let Some(text) = tail_text(doc).filter(|_| tail) {
        doc.remove(text)?;
    }
    Ok(())
}

fn element_arg<'a, 'py>(
    value: &'a Bound<'py, PyAny>,
    what: &str,
) -> PyResult<&'a Bound<'py, Element>> {
    value.cast::<Element>().map_err(|_| {
        PyTypeError::new_err(format!("{what} takes an element, not {}", type_name(value)))
    })
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "this".to_string())
}

/// The elements of an iterable, all checked before anything changes.
fn elements_of(values: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Py<Element>>> {
    let mut elements = Vec::new();
    for value in values
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("{what} takes an iterable of elements")))?
    {
        let value = value?;
        elements.push(element_arg(&value, what)?.clone().unbind());
    }
    Ok(elements)
}

#[pymethods]
impl Element {
    /// Sets the text before the first child (`None` removes it).
    #[setter]
    pub(crate) fn set_text(&self, value: Option<String>) -> PyResult<()> {
        let here = self.here();
        let id = here.id;
        here.edit(|doc| {
            let node = doc.node(id).ok_or_else(removed)?;
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
        let here = self.here();
        let id = here.id;
        here.edit(|doc| {
            let node = doc.node(id).ok_or_else(removed)?;
            if at_top(node) {
                if value.as_deref().is_none_or(str::is_empty) {
                    return Ok(());
                }
                return Err(refused(
                    "an element at the top of the document (or detached) has no tail",
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
        let here = self.here();
        let id = here.id;
        let prefixes = &here.doc.fresh_prefixes;
        here.edit(|doc| set_attribute(doc, id, None, key, value, prefixes))
    }

    /// Appends `child` (moved with its tail, from this document or another).
    pub(crate) fn append(&self, child: &Bound<'_, PyAny>) -> PyResult<()> {
        let child = element_arg(child, "append()")?;
        let here = self.here();
        let parent = here.id;
        here.move_with_tail(child.get(), |doc, node| doc.append(parent, node))
    }

    /// Appends each element of `children` (all checked to be elements
    /// first).
    pub(crate) fn extend(&self, children: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = children.py();
        let children = elements_of(children, "extend()")?;
        self.here().check_no_cycle(py, &children)?;
        for child in children {
            self.append(child.bind(py).as_any())?;
        }
        Ok(())
    }

    /// Inserts `child` before the item at `index` (as `list.insert`).
    pub(crate) fn insert(&self, index: isize, child: &Bound<'_, PyAny>) -> PyResult<()> {
        let child = element_arg(child, "insert()")?;
        let here = self.here();
        let children = here.children()?;
        let len = children.len() as isize;
        let at = if index < 0 {
            (index + len).max(0)
        } else {
            index
        };
        let parent = here.id;
        match children.get(at as usize) {
            Some(&sibling) if at < len => {
                here.move_with_tail(child.get(), |doc, node| doc.insert_before(sibling, node))
            }
            _ => here.move_with_tail(child.get(), |doc, node| doc.append(parent, node)),
        }
    }

    /// Takes `child` (and its tail) out of this element; the proxy stays
    /// usable, detached.
    pub(crate) fn remove(&self, child: &Bound<'_, PyAny>) -> PyResult<()> {
        let child = element_arg(child, "remove()")?.get().here();
        let here = self.here();
        let child = here.child_id(&child)?;
        here.edit(|doc| take_out(&here.doc, doc, child))
    }

    /// Removes the attributes, the text, the children (they stay usable,
    /// detached) and, unless `keep_tail`, the tail; namespace declarations
    /// stay, as in lxml.
    #[pyo3(signature = (keep_tail=false))]
    pub(crate) fn clear(&self, keep_tail: bool) -> PyResult<()> {
        let here = self.here();
        let id = here.id;
        here.edit(|doc| clear_node(&here.doc, doc, id, keep_tail))
    }

    /// Puts `element` (with its tail) right after this node's tail. At the
    /// top of the document only comments and processing instructions can
    /// go (`TypeError` otherwise, as in lxml).
    pub(crate) fn addnext(&self, element: &Bound<'_, PyAny>) -> PyResult<()> {
        let element = element_arg(element, "addnext()")?;
        let here = self.here();
        let id = here.id;
        here.check_sibling(element.get())?;
        here.move_with_tail(element.get(), |doc, node| {
            let anchor = doc
                .node(id)
                .map(|n| tail_of(n).last().copied().unwrap_or(id))
                .ok_or_else(removed)?;
            doc.insert_after(anchor, node)
        })
    }

    /// Puts `element` (with its tail) right before this node.
    pub(crate) fn addprevious(&self, element: &Bound<'_, PyAny>) -> PyResult<()> {
        let element = element_arg(element, "addprevious()")?;
        let here = self.here();
        let id = here.id;
        here.check_sibling(element.get())?;
        here.move_with_tail(element.get(), |doc, node| doc.insert_before(id, node))
    }

    /// Puts `new` (with its tail) where the child `old` is; `old` is taken
    /// out with its tail (the proxy stays usable, detached).
    pub(crate) fn replace(&self, old: &Bound<'_, PyAny>, new: &Bound<'_, PyAny>) -> PyResult<()> {
        let old = element_arg(old, "replace()")?.get().here();
        let new = element_arg(new, "replace()")?;
        let here = self.here();
        let old = here.child_id(&old)?;
        if new.get().here().id == old && here.same_doc(&new.get().here()) {
            return Ok(());
        }
        here.move_with_tail(new.get(), |doc, node| {
            // `old`'s tail as it is before `new` (and its tail) come next
            // to it.
            let tail = tail_of(doc.node(old).ok_or_else(removed)?);
            doc.insert_before(old, node)?;
            doc.detach(old)?;
            tail.into_iter().try_for_each(|text| doc.remove(text))?;
            let_go(&here.doc, doc, old);
            Ok(())
        })
    }

    /// The children (elements, comments, processing instructions), as a
    /// list.
    pub(crate) fn getchildren(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let here = self.here();
        let children = here.children()?;
        here.proxies(py, children)
    }

    /// The position of `child` among the children (from `start`, before
    /// `stop`); `ValueError` if it is not there.
    #[pyo3(signature = (child, start=None, stop=None))]
    pub(crate) fn index(
        &self,
        child: &Bound<'_, PyAny>,
        start: Option<isize>,
        stop: Option<isize>,
    ) -> PyResult<usize> {
        let child = element_arg(child, "index()")?.get().here();
        let here = self.here();
        let children = here.children()?;
        let len = children.len() as isize;
        let bound = |at: Option<isize>, default: isize| {
            let at = at.unwrap_or(default);
            (if at < 0 { at + len } else { at }).clamp(0, len) as usize
        };
        let (start, stop) = (bound(start, 0), bound(stop, len));
        if here.same_doc(&child) {
            if let Some(at) = children
                .iter()
                .enumerate()
                .position(|(i, id)| i >= start && i < stop && *id == child.id)
            {
                return Ok(at);
            }
        }
        Err(PyValueError::new_err(
            "Element is not a child of this node.",
        ))
    }

    /// `element[i] = child` replaces the i-th child; `element[a:b] =
    /// children` replaces a slice (an extended slice with as many).
    pub(crate) fn __setitem__(
        &self,
        index: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let here = self.here();
        let children = here.children()?;
        let py = index.py();
        if let Ok(slice) = index.cast::<PySlice>() {
            let picked = slice_ids(slice, &children)?;
            let new = elements_of(value, "slice assignment")?;
            here.check_no_cycle(py, &new)?;
            let step = slice.indices(children.len() as isize)?.step;
            if step != 1 {
                if picked.len() != new.len() {
                    return Err(PyValueError::new_err(format!(
                        "attempt to assign sequence of size {} to extended slice of size {}",
                        new.len(),
                        picked.len()
                    )));
                }
                for (old, new) in picked.into_iter().zip(new) {
                    here.replace(here.proxy_object(py, old)?.bind(py), new.bind(py).as_any())?;
                }
                return Ok(());
            }
            // Out with the slice, then the new ones in where it was: before
            // the first child after it that stays.
            let start = slice.indices(children.len() as isize)?.start.max(0) as usize;
            let moving: Vec<NodeId> = new
                .iter()
                .map(|n| n.get().here())
                .filter(|n| here.same_doc(n))
                .map(|n| n.id)
                .collect();
            let anchor = children
                .iter()
                .skip(start)
                .find(|id| !picked.contains(id) && !moving.contains(id))
                .copied();
            for old in picked {
                here.edit(|doc| take_out(&here.doc, doc, old))?;
            }
            let parent = here.id;
            for child in new {
                match anchor {
                    Some(sibling) => here.move_with_tail(child.get(), |doc, node| {
                        doc.insert_before(sibling, node)
                    })?,
                    None => {
                        here.move_with_tail(child.get(), |doc, node| doc.append(parent, node))?
                    }
                }
            }
            return Ok(());
        }
        let old = children[item_index(index, children.len())?];
        let new = element_arg(value, "item assignment")?;
        here.replace(here.proxy_object(py, old)?.bind(py), new.as_any())
    }

    /// `del element[i]` and `del element[a:b]`: the children are taken out
    /// with their tails (their proxies stay usable, detached).
    pub(crate) fn __delitem__(&self, index: &Bound<'_, PyAny>) -> PyResult<()> {
        let here = self.here();
        let picked = match index.cast::<PySlice>() {
            Ok(slice) => slice_ids(slice, &here.children()?)?,
            Err(_) => {
                let index: isize = index.extract().map_err(|_| {
                    PyTypeError::new_err("element indices must be integers or slices")
                })?;
                let id = here.child_at(index)?;
                return here.edit(|doc| take_out(&here.doc, doc, id));
            }
        };
        here.edit(|doc| {
            picked
                .into_iter()
                .try_for_each(|id| take_out(&here.doc, doc, id))
        })
    }
}

impl Element {
    /// Whether two proxies (both `here()`) are of one document.
    pub(crate) fn same_doc(&self, other: &Element) -> bool {
        std::sync::Arc::ptr_eq(&self.doc, &other.doc)
    }

    /// `child`'s node if it is a child of this node (`ValueError` if not,
    /// as lxml says).
    fn child_id(&self, child: &Element) -> PyResult<NodeId> {
        let id = child.id;
        let is_child =
            self.same_doc(child) && self.with(|node| Ok(node.children().any(|c| c.id() == id)))?;
        if is_child {
            Ok(id)
        } else {
            Err(PyValueError::new_err(
                "Element is not a child of this node.",
            ))
        }
    }

    /// lxml's rule for a sibling of a node at the top of the document: only
    /// a comment or a processing instruction.
    fn check_sibling(&self, sibling: &Element) -> PyResult<()> {
        let top = self.with(|node| Ok(node.parent().is_some_and(|p| p.is_document())))?;
        if !top {
            return Ok(());
        }
        let kind = sibling.with(|node| Ok(node.node_type()))?;
        if matches!(kind, NodeType::Comment | NodeType::ProcessingInstruction) {
            Ok(())
        } else {
            Err(PyTypeError::new_err(
                "Only processing instructions and comments can be siblings of the root element",
            ))
        }
    }

    /// Refuses, before anything changes, to take in this node or one of
    /// its ancestors (the library refuses each one, but only when its turn
    /// comes, after the ones before it have moved).
    fn check_no_cycle(&self, py: Python<'_>, elements: &[Py<Element>]) -> PyResult<()> {
        let ancestors: Vec<NodeId> = self.with(|node| {
            Ok(std::iter::once(node)
                .chain(node.ancestors())
                .map(|n| n.id())
                .collect())
        })?;
        for element in elements {
            let element = element.bind(py).get().here();
            if self.same_doc(&element) && ancestors.contains(&element.id) {
                return Err(PyValueError::new_err(
                    "a node cannot go inside itself (an element cannot take in its ancestor)",
                ));
            }
        }
        Ok(())
    }

    fn proxy_object(&self, py: Python<'_>, id: NodeId) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, self.proxy(id))?.into_any())
    }
}

fn item_index(index: &Bound<'_, PyAny>, len: usize) -> PyResult<usize> {
    let index: isize = index
        .extract()
        .map_err(|_| PyTypeError::new_err("element indices must be integers or slices"))?;
    let at = if index < 0 {
        index + len as isize
    } else {
        index
    };
    if at < 0 || at >= len as isize {
        return Err(PyIndexError::new_err("list index out of range"));
    }
    Ok(at as usize)
}

fn slice_ids(slice: &Bound<'_, PySlice>, children: &[NodeId]) -> PyResult<Vec<NodeId>> {
    let indices = slice.indices(children.len() as isize)?;
    let mut picked = Vec::new();
    let mut at = indices.start;
    while (indices.step > 0 && at < indices.stop) || (indices.step < 0 && at > indices.stop) {
        if let Some(id) = children.get(at as usize) {
            picked.push(*id);
        }
        at += indices.step;
    }
    Ok(picked)
}

/// The namespace declarations asked for (`nsmap`), checked: a prefix is
/// a name without `:`, `None` the default namespace.
type Declarations = Vec<(Option<String>, String)>;

/// Makes, detached in `doc`, the element named `tag` (a Clark name) with
/// the declarations `nsmap` and the attributes `attrib`, to land under
/// `scope` (if given). The prefix of its name is chosen as lxml chooses
/// it: the first declaration of `nsmap` for its namespace, else a prefix
/// in scope there (the default namespace included), else a new `nsN`
/// declared on it.
fn build_element(
    doc: &mut Document,
    scope: Option<NodeId>,
    tag: &str,
    attrib: &[(String, String)],
    nsmap: &Declarations,
    prefixes: &AtomicUsize,
) -> EditResult<NodeId> {
    let (uri, local) = split_clark(tag);
    check_local(local, "tag", tag)?;
    let mut declarations = nsmap.clone();
    let declared = |prefix: Option<&str>| nsmap.iter().any(|(p, _)| p.as_deref() == prefix);
    let bound_in_scope = |doc: &Document, prefix: &str| {
        scope
            .and_then(|s| doc.node(s))
            .and_then(|s| s.lookup_namespace_uri(Some(prefix)))
            .is_some()
    };
    let name = match uri.filter(|u| !u.is_empty()) {
        None => local.to_string(),
        Some(uri) => {
            let mapped = nsmap.iter().find(|(_, u)| u == uri).map(|(p, _)| p.clone());
            let in_scope = || {
                scope
                    .and_then(|s| doc.node(s))
                    .and_then(|s| s.lookup_prefix(uri))
                    .map(|p| (!p.is_empty()).then(|| p.to_string()))
                    .filter(|p| !declared(p.as_deref()))
            };
            let prefix = match mapped.or_else(in_scope) {
                Some(prefix) => prefix,
                None => {
                    let fresh =
                        fresh_prefix(prefixes, |p| declared(Some(p)) || bound_in_scope(doc, p));
                    declarations.push((Some(fresh.clone()), uri.to_string()));
                    Some(fresh)
                }
            };
            match prefix {
                Some(prefix) => format!("{prefix}:{local}"),
                None => local.to_string(),
            }
        }
    };
    let element = match uri.filter(|u| !u.is_empty()) {
        Some(uri) => doc.create_element_ns(uri, &name),
        None => doc.create_element(&name),
    };
    let built = (|| {
        for (prefix, uri) in &declarations {
            match prefix {
                Some(prefix) => doc.set_attribute(element, &format!("xmlns:{prefix}"), uri)?,
                None => doc.set_attribute(element, "xmlns", uri)?,
            }
        }
        // lxml writes every declaration before the attributes: the
        // prefixes made up for them first.
        for (name, _) in attrib {
            if let (Some(uri), local) = split_clark(name) {
                if !uri.is_empty() && !local.is_empty() && uri != XML_NAMESPACE {
                    attribute_prefix(doc, element, scope, uri, prefixes)?;
                }
            }
        }
        for (name, value) in attrib {
            set_attribute(doc, element, scope, name, value, prefixes)?;
        }
        Ok(())
    })();
    match built {
        Ok(()) => Ok(element),
        Err(error) => {
            let _ = doc.remove(element);
            Err(error)
        }
    }
}

/// `nsmap` checked: each prefix a name without `:` (lxml's rule), each URI
/// not empty for a prefix.
fn declarations(nsmap: Option<Declarations>) -> PyResult<Declarations> {
    let nsmap = nsmap.unwrap_or_default();
    for (prefix, uri) in &nsmap {
        if let Some(prefix) = prefix {
            let name_start = prefix
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
            if !name_start || prefix.contains(':') {
                return Err(PyValueError::new_err(format!(
                    "Invalid namespace prefix {prefix:?}"
                )));
            }
            if uri.is_empty() {
                return Err(PyValueError::new_err(format!(
                    "the prefix {prefix:?} cannot be bound to the empty namespace name"
                )));
            }
        }
    }
    Ok(nsmap)
}

/// A new document holding only `node`, made by `make` (refused: nothing
/// is made).
fn new_document(
    make: impl FnOnce(&mut Document, &AtomicUsize) -> EditResult<NodeId>,
    root_element: bool,
) -> PyResult<Element> {
    // An element takes the place of a placeholder root element (a document
    // keeps one); a comment or a PI goes in an empty document.
    let mut doc = blank(root_element);
    let prefixes = AtomicUsize::new(0);
    let node = make(&mut doc, &prefixes).map_err(edit_error)?;
    let placed = match doc.root_element().map(|r| r.id()) {
        Some(placeholder) if root_element => doc.replace(placeholder, node),
        _ => {
            let top = doc.root().id();
            doc.append(top, node)
        }
    };
    placed.map_err(edit_error)?;
    let doc = share(doc);
    doc.fresh_prefixes
        .store(prefixes.load(Ordering::Relaxed), Ordering::Relaxed);
    Ok(Element::new(doc, node))
}

/// A new document: with the root element `<_/>` (to be replaced), or
/// empty. Each is parsed once and cloned after: a clone copies a few
/// short vectors, a parse sets up a parser.
pub(crate) fn blank(root_element: bool) -> Document {
    static WITH_ROOT: OnceLock<Document> = OnceLock::new();
    static EMPTY: OnceLock<Document> = OnceLock::new();
    if root_element {
        WITH_ROOT.get_or_init(|| Document::parse("<_/>")).clone()
    } else {
        EMPTY.get_or_init(|| Document::parse("")).clone()
    }
}

/// The attributes `attrib` (a mapping, or `None`) and `extra` (keyword
/// arguments) as pairs: the keyword arguments first, then the rest of
/// `attrib`, as lxml sets them.
fn attributes_of(
    attrib: Option<&Bound<'_, PyAny>>,
    extra: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, String)>> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (key, value) in extra.into_iter().flat_map(|extra| extra.iter()) {
        pairs.push((key.extract()?, value.extract()?));
    }
    let keywords = pairs.len();
    let Some(attrib) = attrib.filter(|a| !a.is_none()) else {
        return Ok(pairs);
    };
    if !attrib.hasattr("keys")? {
        return Err(PyTypeError::new_err(format!(
            "attrib must be a dict, not {}",
            type_name(attrib)
        )));
    }
    for key in attrib.call_method0("keys")?.try_iter()? {
        let key = key?;
        let name: String = key.extract()?;
        if pairs[..keywords].iter().all(|(k, _)| *k != name) {
            let value: String = attrib.get_item(&key)?.extract()?;
            pairs.push((name, value));
        }
    }
    Ok(pairs)
}

/// `nsmap` (a mapping of prefix, `None` for the default namespace, to
/// URI, or `None`) as checked declarations.
fn nsmap_of(nsmap: Option<&Bound<'_, PyAny>>) -> PyResult<Declarations> {
    let Some(nsmap) = nsmap.filter(|n| !n.is_none()) else {
        return Ok(Vec::new());
    };
    if !nsmap.hasattr("items")? {
        return Err(PyTypeError::new_err(format!(
            "nsmap must be a dict, not {}",
            type_name(nsmap)
        )));
    }
    let mut pairs = Vec::new();
    for pair in nsmap.call_method0("items")?.try_iter()? {
        pairs.push(pair?.extract()?);
    }
    declarations(Some(pairs))
}

/// A new element named `_tag` (`{uri}local` for a namespace), with the
/// attributes `attrib` and `_extra` and the namespace declarations `nsmap`
/// (prefix, `None` for the default, to URI): the root element of a new
/// document, as in lxml (`getroottree()` is that document).
///
/// Its prefix is the first of `nsmap` declared for its namespace, else a
/// new `ns0`. A name, value or prefix the library refuses raises
/// `ValueError`; an argument of the wrong type `TypeError`.
#[pyfunction]
#[pyo3(name = "Element", signature = (_tag, attrib=None, nsmap=None, **_extra))]
pub(crate) fn new_element(
    _tag: &str,
    attrib: Option<&Bound<'_, PyAny>>,
    nsmap: Option<&Bound<'_, PyAny>>,
    _extra: Option<&Bound<'_, PyDict>>,
) -> PyResult<Element> {
    let attrib = attributes_of(attrib, _extra)?;
    let nsmap = nsmap_of(nsmap)?;
    new_document(
        |doc, prefixes| build_element(doc, None, _tag, &attrib, &nsmap, prefixes),
        true,
    )
}

/// `Comment(text)`: a new comment, alone in a new document.
#[pyfunction]
#[pyo3(name = "_new_comment", signature = (text=None))]
pub(crate) fn new_comment(text: Option<&str>) -> PyResult<Element> {
    new_document(|doc, _| Ok(doc.create_comment(text.unwrap_or(""))), false)
}

/// `ProcessingInstruction(target, text)`: a new processing instruction,
/// alone in a new document.
#[pyfunction]
#[pyo3(name = "_new_pi", signature = (target, text=None))]
pub(crate) fn new_processing_instruction(target: &str, text: Option<&str>) -> PyResult<Element> {
    new_document(
        |doc, _| Ok(doc.create_processing_instruction(target, text.unwrap_or(""))),
        false,
    )
}

/// Makes an element named `_tag` (`{uri}local` for a namespace) with the
/// attributes `attrib` and `_extra` and the namespace declarations `nsmap`,
/// appended to `_parent`.
///
/// Its prefix is the first of `nsmap` declared for its namespace, else the
/// one in scope at the parent (the default namespace too), else a new
/// `nsN`, as lxml picks it. A name, value or prefix the library refuses
/// raises `ValueError` and changes nothing (the element is made and given
/// its attributes detached, then appended).
#[pyfunction]
#[pyo3(name = "SubElement", signature = (_parent, _tag, attrib=None, nsmap=None, **_extra))]
pub(crate) fn sub_element(
    _parent: &Bound<'_, PyAny>,
    _tag: &str,
    attrib: Option<&Bound<'_, PyAny>>,
    nsmap: Option<&Bound<'_, PyAny>>,
    _extra: Option<&Bound<'_, PyDict>>,
) -> PyResult<Element> {
    let parent = element_arg(_parent, "SubElement()")?.get().here();
    let attrib = attributes_of(attrib, _extra)?;
    let nsmap = nsmap_of(nsmap)?;
    let tag = _tag;
    let at = parent.id;
    let prefixes = &parent.doc.fresh_prefixes;
    let id = parent.edit(|doc| {
        let element = build_element(doc, Some(at), tag, &attrib, &nsmap, prefixes)?;
        if let Err(error) = doc.append(at, element) {
            let _ = doc.remove(element);
            return Err(error);
        }
        Ok(element)
    })?;
    Ok(parent.proxy(id))
}
