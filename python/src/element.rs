//! `_Element`: the proxy of an element, comment or processing
//! instruction, and what it reads (name, namespaces, attributes, text,
//! children, neighbours, iteration).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyIterator, PyList, PySlice, PyString, PyTuple};
use xml5dom::{Document, Node, NodeId, NodeType};

use crate::attrib::Attrib;
use crate::nodes::{
    clark_string, is_item, split_clark, start_tag_end, tag_matches, text_nodes, text_run,
};
use crate::tree::ElementTree;
use crate::{edit_error, read, write, EditResult, Shared};

/// An attribute's Clark name and value, as Python strings.
pub(crate) type AttributePair<'py> = (Bound<'py, PyString>, Bound<'py, PyString>);

/// An element, comment or processing instruction of a document.
#[pyclass(frozen, module = "xml5dom._xml5dom", name = "_Element")]
pub(crate) struct Element {
    pub(crate) doc: Shared,
    pub(crate) id: NodeId,
    /// It counts in its (streamed) document's `Held`.
    counted: bool,
}

impl Element {
    /// The proxy of `id` in `doc` (which, if streamed, counts it as held).
    pub(crate) fn new(doc: Shared, id: NodeId) -> Element {
        let counted = match doc.held.as_ref().map(|h| h.lock()) {
            Some(Ok(mut held)) => {
                held.hold(id);
                true
            }
            _ => false,
        };
        Element { doc, id, counted }
    }

    /// The proxy of `id` in the streamed `doc`, taking over a hold already
    /// counted for it (an event's, handed out as this proxy).
    pub(crate) fn taking_hold(doc: Shared, id: NodeId) -> Element {
        let counted = doc.held.is_some();
        Element { doc, id, counted }
    }

    /// A stand-in for this proxy for the length of one call (`here`):
    /// the proxy holds the node meanwhile, so it need not count.
    fn transient(&self) -> Element {
        Element {
            doc: self.doc.clone(),
            id: self.id,
            counted: false,
        }
    }
}

impl Drop for Element {
    fn drop(&mut self) {
        if !self.counted {
            return;
        }
        if let Some(Ok(mut held)) = self.doc.held.as_ref().map(|h| h.lock()) {
            held.release(self.id);
        }
    }
}

/// `ids[index]` as a proxy, or `ids[slice]` as a list of proxies, with
/// Python's rules for negative indices and slices.
fn pick(
    py: Python<'_>,
    doc: &Shared,
    ids: &[NodeId],
    index: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let proxy = |id: NodeId| Element::new(doc.clone(), id);
    if let Ok(slice) = index.cast::<PySlice>() {
        let indices = slice.indices(ids.len() as isize)?;
        let mut picked = Vec::new();
        let mut at = indices.start;
        while (indices.step > 0 && at < indices.stop) || (indices.step < 0 && at > indices.stop) {
            if let Some(id) = ids.get(at as usize) {
                picked.push(Py::new(py, proxy(*id))?);
            }
            at += indices.step;
        }
        return Ok(PyList::new(py, picked)?.into_any().unbind());
    }
    let index: isize = index
        .extract()
        .map_err(|_| PyTypeError::new_err("element indices must be integers or slices"))?;
    let len = ids.len() as isize;
    let at = if index < 0 { index + len } else { index };
    if at < 0 || at >= len {
        return Err(PyIndexError::new_err("list index out of range"));
    }
    Ok(Py::new(py, proxy(ids[at as usize]))?.into_any())
}

/// What `iter()` returns: the nodes it found when it was called, handed out
/// one proxy at a time as the loop asks (lxml's `iter()` is an iterator
/// too), so a walk holds one proxy at a time rather than a list of them
/// all (a walk over a 20 MB Atom feed peaked 34 MB higher with the list:
/// docs/performance.md). It also answers `len()` and indexing over all
/// the nodes it found, as the list it replaced did. The nodes are fixed
/// when `iter()` is called: edits during the walk neither add nor skip any.
#[pyclass(frozen, module = "xml5dom._xml5dom", name = "_ElementIterator")]
pub(crate) struct ElementIterator {
    doc: Shared,
    ids: Vec<NodeId>,
    /// The position of the next node to hand out.
    next: AtomicUsize,
}

impl ElementIterator {
    pub(crate) fn new(doc: Shared, ids: Vec<NodeId>) -> ElementIterator {
        ElementIterator {
            doc,
            ids,
            next: AtomicUsize::new(0),
        }
    }
}

#[pymethods]
impl ElementIterator {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__(&self) -> Option<Element> {
        let len = self.ids.len();
        let at = self
            .next
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |at| {
                (at < len).then_some(at + 1)
            })
            .ok()?;
        Some(Element::new(self.doc.clone(), self.ids[at]))
    }

    /// How many nodes `iter()` found (those already handed out included).
    fn __len__(&self) -> usize {
        self.ids.len()
    }

    /// The node at `index` of those `iter()` found, or a list for a slice.
    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        pick(py, &self.doc, &self.ids, index)
    }
}

impl Element {
    /// Reads the node. A proxy reads its own place; only when its node is
    /// not there (it moved into another document, or was removed) does it
    /// look where the node went, so reads pay nothing for moves.
    pub(crate) fn with<R>(&self, f: impl FnOnce(Node<'_>) -> PyResult<R>) -> PyResult<R> {
        let doc = read(&self.doc)?;
        if let Some(node) = doc.node(self.id) {
            return f(node);
        }
        drop(doc);
        match self.moved() {
            Some(moved) => moved.with(f),
            None => Err(PyValueError::new_err(
                "the node was removed from its document",
            )),
        }
    }

    /// An iterator over the nodes `candidates` gives that match `tag` and
    /// `tags` (any of them: a Clark name, `*`, `{uri}*`, `{*}local`), or are
    /// items when no tag is given, read where the node is now.
    fn select(
        &self,
        tag: Option<&Bound<'_, PyAny>>,
        tags: &Bound<'_, PyTuple>,
        candidates: impl FnOnce(Node<'_>) -> Vec<Node<'_>>,
    ) -> PyResult<ElementIterator> {
        let mut filters: Vec<String> = Vec::new();
        let given = tag.cloned().into_iter().chain(tags.iter());
        for given in given {
            if given.is_none() {
                continue;
            }
            filters.push(
                given
                    .extract()
                    .map_err(|_| PyTypeError::new_err("tag must be a string or None"))?,
            );
        }
        let here = self.here();
        let ids = here.with(|node| {
            Ok(candidates(node)
                .into_iter()
                .filter(|n| {
                    if filters.is_empty() {
                        is_item(*n)
                    } else {
                        filters.iter().any(|filter| tag_matches(*n, filter))
                    }
                })
                .map(|n| n.id())
                .collect())
        })?;
        Ok(ElementIterator::new(here.doc.clone(), ids))
    }

    /// Where the node is now if it moved into another document (following
    /// each move), else `None`.
    pub(crate) fn moved(&self) -> Option<Element> {
        if !self.doc.moved_out.load(Ordering::Acquire) {
            return None;
        }
        let mut now: Option<(Shared, NodeId)> = None;
        // Each move gives the node a new id, so the chain ends; the bound
        // only guards against ids reused after their stamps wrapped.
        for _ in 0..1_000_000 {
            let (doc, id) = match &now {
                Some((doc, id)) => (doc, *id),
                None => (&self.doc, self.id),
            };
            let next = doc.moves.lock().ok()?.get(&id).cloned();
            match next {
                Some(next) => now = Some(next),
                None => break,
            }
        }
        now.map(|(doc, id)| Element::new(doc, id))
    }

    /// This proxy at the node's place now: itself, or where it moved.
    pub(crate) fn here(&self) -> Element {
        self.moved().unwrap_or_else(|| self.transient())
    }

    /// Runs an edit under the write lock; a refused edit is a `ValueError`.
    /// (Call it on `here()`: the ids it edits are of that document.)
    pub(crate) fn edit<R>(&self, f: impl FnOnce(&mut Document) -> EditResult<R>) -> PyResult<R> {
        let mut doc = write(&self.doc)?;
        f(&mut doc).map_err(edit_error)
    }

    /// Puts `child` (with its tail, as lxml moves it) where `place` says in
    /// this proxy's document (`place` gets the document and the node to
    /// put); a node of another document moves over (`crate::transfer`).
    pub(crate) fn move_with_tail(
        &self,
        child: &Element,
        place: impl FnOnce(&mut Document, NodeId) -> EditResult<()>,
    ) -> PyResult<()> {
        let child = child.here();
        if !Arc::ptr_eq(&self.doc, &child.doc) {
            return crate::transfer::move_between(self, &child, place);
        }
        let child = child.id;
        self.edit(|doc| {
            let node = doc
                .node(child)
                .ok_or_else(|| xml5dom::Error::InvalidEdit("the node was removed".into()))?;
            let top = node.parent().is_none_or(|p| p.is_document());
            let tail = if top {
                Vec::new()
            } else {
                text_nodes(node.next_sibling())
            };
            place(doc, child)?;
            let mut after = child;
            for text in tail {
                doc.insert_after(after, text)?;
                after = text;
            }
            Ok(())
        })
    }

    /// A proxy of the node `id` of this proxy's document (where it is now).
    pub(crate) fn proxy(&self, id: NodeId) -> Element {
        let doc = match self.moved() {
            Some(moved) => moved.doc.clone(),
            None => self.doc.clone(),
        };
        Element::new(doc, id)
    }

    /// The child (element, comment or PI) at `index`, counted from the
    /// end if negative: a walk from that end to it, as lxml's (reading
    /// the first child of an element with many is as quick as of one
    /// with few).
    pub(crate) fn child_at(&self, index: isize) -> PyResult<NodeId> {
        let found = self.with(|node| {
            Ok(match usize::try_from(index) {
                Ok(at) => node.children().filter(|n| is_item(*n)).nth(at),
                Err(_) => {
                    let back = index.unsigned_abs() - 1;
                    let last = node.last_child();
                    let before = std::iter::successors(last, |n| n.prev_sibling());
                    before.filter(|n| is_item(*n)).nth(back)
                }
            }
            .map(|n| n.id()))
        })?;
        found.ok_or_else(|| PyIndexError::new_err("list index out of range"))
    }

    pub(crate) fn children(&self) -> PyResult<Vec<NodeId>> {
        self.with(|node| {
            Ok(node
                .children()
                .filter(|n| is_item(*n))
                .map(|n| n.id())
                .collect())
        })
    }

    /// The value of the attribute named `key` (a Clark name), if any.
    pub(crate) fn value(&self, key: &str) -> PyResult<Option<String>> {
        let (uri, local) = split_clark(key);
        self.with(|node| {
            Ok(node
                .attributes()
                .find(|a| {
                    a.declared_prefix().is_none() && a.local_name() == local && a.namespace() == uri
                })
                .map(|a| a.value().to_string()))
        })
    }

    pub(crate) fn proxies(&self, py: Python<'_>, ids: Vec<NodeId>) -> PyResult<Vec<Py<PyAny>>> {
        // Where this node is now, once for all of them.
        let doc = self.here().doc.clone();
        ids.into_iter()
            .map(|id| {
                let doc = doc.clone();
                Ok(Py::new(py, Element::new(doc, id))?.into_any())
            })
            .collect()
    }
}

#[pymethods]
impl Element {
    /// The name in Clark notation (`{uri}local`); for a comment or a
    /// processing instruction, the `Comment` or `ProcessingInstruction`
    /// factory, as in lxml.
    #[getter]
    pub(crate) fn tag(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        // The factories, looked up once (a comment-heavy walk spent more
        // on the import than on the rest).
        static COMMENT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        static PROCESSING_INSTRUCTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let name = self.with(|node| {
            Ok(match node.node_type() {
                NodeType::Comment => Err((&COMMENT, "Comment")),
                NodeType::ProcessingInstruction => {
                    Err((&PROCESSING_INSTRUCTION, "ProcessingInstruction"))
                }
                _ => Ok(clark_string(py, node.namespace(), node.local_name())),
            })
        })?;
        match name {
            Ok(name) => Ok(name.into_any().unbind()),
            Err((factory, attribute)) => Ok(factory
                .import(py, "xml5dom.etree", attribute)?
                .clone()
                .unbind()),
        }
    }

    /// The prefix of the name as written, or `None`.
    #[getter]
    pub(crate) fn prefix(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            Ok(if node.is_element() {
                node.prefix().map(str::to_string)
            } else {
                None
            })
        })
    }

    /// A processing instruction's target, else `None`.
    #[getter]
    pub(crate) fn target(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            Ok(node
                .is_processing_instruction()
                .then(|| node.name().to_string()))
        })
    }

    /// The namespaces in scope: prefix (`None` for the default) to URI.
    #[getter]
    pub(crate) fn nsmap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pairs = self.with(|node| {
            let mut seen: Vec<(Option<String>, String)> = Vec::new();
            let start = if node.is_element() {
                Some(node)
            } else {
                node.parent()
            };
            let mut element = start;
            while let Some(current) = element {
                if !current.is_element() {
                    break;
                }
                for attribute in current.attributes() {
                    if let Some(prefix) = attribute.declared_prefix() {
                        let prefix = prefix.map(str::to_string);
                        if !seen.iter().any(|(p, _)| *p == prefix) {
                            seen.push((prefix, attribute.value().to_string()));
                        }
                    }
                }
                element = current.parent();
            }
            Ok(seen)
        })?;
        let dict = PyDict::new(py);
        for (prefix, uri) in pairs.into_iter().rev() {
            dict.set_item(prefix, uri)?;
        }
        Ok(dict)
    }

    /// The attributes (namespace declarations excluded), by Clark name: a
    /// live mapping that reads and edits this element.
    #[getter]
    pub(crate) fn attrib(&self) -> Attrib {
        Attrib::of(self)
    }

    /// The value of the attribute named `key` (a Clark name), or `default`.
    #[pyo3(signature = (key, default=None))]
    pub(crate) fn get(
        &self,
        py: Python<'_>,
        key: &str,
        default: Option<Py<PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        Ok(match self.value(key)? {
            Some(value) => Some(PyString::new(py, &value).into_any().unbind()),
            None => default,
        })
    }

    /// The attribute names, in document order.
    pub(crate) fn keys<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        Ok(self.items(py)?.into_iter().map(|(name, _)| name).collect())
    }

    /// The attribute values, in document order.
    pub(crate) fn values<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        Ok(self
            .items(py)?
            .into_iter()
            .map(|(_, value)| value)
            .collect())
    }

    /// `(name, value)` pairs, in document order.
    pub(crate) fn items<'py>(&self, py: Python<'py>) -> PyResult<Vec<AttributePair<'py>>> {
        // The strings are made under the read lock (making a `str` runs no
        // Python code); the tuples and the list, which may start the
        // garbage collector, after it.
        self.with(|node| {
            if !node.is_element() {
                return Ok(Vec::new());
            }
            Ok(node
                .attributes()
                .filter(|a| a.declared_prefix().is_none())
                .map(|a| {
                    (
                        clark_string(py, a.namespace(), a.local_name()),
                        PyString::new(py, a.value()),
                    )
                })
                .collect())
        })
    }

    /// The text before the first child, or `None`; a comment's or a
    /// processing instruction's data.
    #[getter]
    pub(crate) fn text(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            Ok(match node.node_type() {
                NodeType::Element => text_run(node.first_child()),
                // lxml says `None` for an empty comment or instruction.
                _ => node.text().filter(|t| !t.is_empty()).map(str::to_string),
            })
        })
    }

    /// The text after the end tag up to the next sibling, or `None`.
    #[getter]
    pub(crate) fn tail(&self) -> PyResult<Option<String>> {
        self.with(|node| {
            let top = node.parent().is_none_or(|p| p.is_document());
            Ok(if top {
                None
            } else {
                text_run(node.next_sibling())
            })
        })
    }

    /// The line in the source, or `None` for a created node: as in lxml
    /// (libxml2), the line where the start tag, comment or processing
    /// instruction ends.
    #[getter]
    pub(crate) fn sourceline(&self) -> PyResult<Option<u32>> {
        self.with(|node| {
            let Some(span) = node.span() else {
                return Ok(None);
            };
            let last = if node.is_element() {
                start_tag_end(node, span)
            } else {
                span.end.saturating_sub(1).max(span.start)
            };
            Ok(Some(node.document().position(last).0))
        })
    }

    pub(crate) fn __len__(&self) -> PyResult<usize> {
        Ok(self.children()?.len())
    }

    pub(crate) fn __bool__(&self) -> PyResult<bool> {
        Ok(!self.children()?.is_empty())
    }

    pub(crate) fn __getitem__(
        &self,
        py: Python<'_>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let here = self.here();
        if let Ok(at) = index.extract::<isize>() {
            let id = here.child_at(at)?;
            return Ok(Py::new(py, here.proxy(id))?.into_any());
        }
        let children = here.children()?;
        pick(py, &here.doc, &children, index)
    }

    pub(crate) fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let children = self.children()?;
        PyList::new(py, self.proxies(py, children)?)?.try_iter()
    }

    pub(crate) fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Element>() {
            Ok(other) => {
                let (this, other) = (self.here(), other.get().here());
                Arc::ptr_eq(&this.doc, &other.doc) && this.id == other.id
            }
            Err(_) => false,
        }
    }

    pub(crate) fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let this = self.here();
        (Arc::as_ptr(&this.doc) as usize).hash(&mut hasher);
        this.id.hash(&mut hasher);
        hasher.finish()
    }

    pub(crate) fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        // Comments and processing instructions as lxml shows them: as
        // written.
        let written = self.with(|node| {
            Ok(match node.node_type() {
                NodeType::Comment => Some(format!("<!--{}-->", node.text().unwrap_or(""))),
                NodeType::ProcessingInstruction => match node.text().unwrap_or("") {
                    "" => Some(format!("<?{}?>", node.name())),
                    data => Some(format!("<?{} {}?>", node.name(), data)),
                },
                _ => None,
            })
        })?;
        if let Some(written) = written {
            return Ok(written);
        }
        let tag = self.tag(py)?;
        Ok(format!(
            "<Element {} at {:#x}>",
            tag.bind(py).str()?,
            self as *const Element as usize
        ))
    }

    /// The parent element, or `None` at the top.
    pub(crate) fn getparent(&self) -> PyResult<Option<Element>> {
        let parent =
            self.with(|node| Ok(node.parent().filter(|p| p.is_element()).map(|p| p.id())))?;
        Ok(parent.map(|id| self.proxy(id)))
    }

    /// The next element, comment or processing instruction, or `None`.
    pub(crate) fn getnext(&self) -> PyResult<Option<Element>> {
        let next = self.with(|node| {
            Ok(node
                .following_siblings()
                .find(|n| is_item(*n))
                .map(|n| n.id()))
        })?;
        Ok(next.map(|id| self.proxy(id)))
    }

    /// The previous element, comment or processing instruction, or `None`.
    pub(crate) fn getprevious(&self) -> PyResult<Option<Element>> {
        let previous = self.with(|node| {
            Ok(node
                .preceding_siblings()
                .find(|n| is_item(*n))
                .map(|n| n.id()))
        })?;
        Ok(previous.map(|id| self.proxy(id)))
    }

    /// The tree this element belongs to.
    pub(crate) fn getroottree(&self) -> ElementTree {
        ElementTree {
            doc: self.here().doc.clone(),
        }
    }

    /// This element and its descendants in document order (comments and
    /// processing instructions too when no tag is given), filtered by tag:
    /// a Clark name, `*`, `{uri}*` or `{*}local`.
    #[pyo3(signature = (tag=None))]
    pub(crate) fn iter(&self, tag: Option<&Bound<'_, PyAny>>) -> PyResult<ElementIterator> {
        let filter: Option<String> = match tag {
            Some(tag) if !tag.is_none() => Some(
                tag.extract()
                    .map_err(|_| PyTypeError::new_err("tag must be a string or None"))?,
            ),
            _ => None,
        };
        let here = self.here();
        let ids = here.with(|node| {
            Ok(std::iter::once(node)
                .chain(node.descendants())
                .filter(|n| match &filter {
                    Some(filter) => tag_matches(*n, filter),
                    None => is_item(*n),
                })
                .map(|n| n.id())
                .collect())
        })?;
        Ok(ElementIterator::new(here.doc.clone(), ids))
    }

    /// The children (elements, comments, processing instructions) that
    /// match the tags given (any of them; every item without one), last
    /// first with `reversed=True`.
    #[pyo3(signature = (tag=None, *tags, reversed=false))]
    pub(crate) fn iterchildren(
        &self,
        tag: Option<&Bound<'_, PyAny>>,
        tags: &Bound<'_, PyTuple>,
        reversed: bool,
    ) -> PyResult<ElementIterator> {
        self.select(tag, tags, |node| {
            let children = node.children();
            if reversed {
                children.rev().collect()
            } else {
                children.collect()
            }
        })
    }

    /// The siblings after this node (before it, nearest first, with
    /// `preceding=True`) that match the tags given.
    #[pyo3(signature = (tag=None, *tags, preceding=false))]
    pub(crate) fn itersiblings(
        &self,
        tag: Option<&Bound<'_, PyAny>>,
        tags: &Bound<'_, PyTuple>,
        preceding: bool,
    ) -> PyResult<ElementIterator> {
        self.select(tag, tags, |node| {
            if preceding {
                node.preceding_siblings().collect()
            } else {
                node.following_siblings().collect()
            }
        })
    }

    /// The ancestor elements, parent first, that match the tags given.
    #[pyo3(signature = (tag=None, *tags))]
    pub(crate) fn iterancestors(
        &self,
        tag: Option<&Bound<'_, PyAny>>,
        tags: &Bound<'_, PyTuple>,
    ) -> PyResult<ElementIterator> {
        self.select(tag, tags, |node| {
            node.ancestors().take_while(|n| n.is_element()).collect()
        })
    }

    /// The descendants (not this node) in document order that match the
    /// tags given.
    #[pyo3(signature = (tag=None, *tags))]
    pub(crate) fn iterdescendants(
        &self,
        tag: Option<&Bound<'_, PyAny>>,
        tags: &Bound<'_, PyTuple>,
    ) -> PyResult<ElementIterator> {
        self.select(tag, tags, |node| node.descendants().collect())
    }

    /// The text of the subtree (text and tails), in document order.
    pub(crate) fn itertext(&self) -> PyResult<Vec<String>> {
        self.with(|node| {
            let mut texts: Vec<String> = Vec::new();
            for descendant in node.descendants() {
                if descendant.node_type() != NodeType::Text {
                    continue;
                }
                let text = descendant.text().unwrap_or("");
                // Adjacent text nodes are one text, as lxml has them.
                let joins = descendant
                    .prev_sibling()
                    .is_some_and(|p| p.node_type() == NodeType::Text);
                match texts.last_mut() {
                    Some(last) if joins => last.push_str(text),
                    _ => texts.push(text.to_string()),
                }
            }
            Ok(texts)
        })
    }
}
