//! The extension module `xml5dom._xml5dom`: the lxml/ElementTree surface of
//! the Python package over the library's public API (issue 32).
//!
//! How Python objects hold a document: one [`Shared`] (`Arc<DocCell>`: the
//! document behind an `RwLock`) per document, and a `NodeId` per element
//! proxy; a proxy whose node moved into another document finds it through
//! the record its old document keeps (`transfer`). Proxies are `frozen`
//! pyclasses (immutable, so `Send + Sync`); reads take the read
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
//! `element` (what a proxy reads), `edit` (what it changes, and the
//! factories of new nodes), `attrib` (the live attribute mapping),
//! `transfer` (moving nodes between documents), `query`
//! (ElementPath and XPath), `write` (serializing and Canonical XML), `log`
//! (the error log and the exceptions), `nodes` (how lxml sees the
//! library's nodes: items, text runs, Clark names).

mod attrib;
mod edit;
mod element;
mod log;
mod nodes;
mod query;
mod stream;
mod transfer;
mod tree;
mod write;

use attrib::Attrib;
use edit::{new_comment, new_element, new_processing_instruction, sub_element};
use element::{Element, ElementIterator};
use log::{ErrorLog, LogEntry};
use stream::EventStream;
use tree::{_parse_file, _parse_text, DocInfo, ElementTree};

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use xml5dom::{Document, NodeId};

/// What an edit of the library returns.
pub(crate) type EditResult<T> = Result<T, xml5dom::Error>;

/// A document, shared by its tree and element proxies.
pub(crate) type Shared = Arc<DocCell>;

/// A document behind its lock, with where its nodes went when they moved
/// into another document (docs/python.md, "How Python objects hold a
/// document"): a proxy of a moved node finds its node there.
pub(crate) struct DocCell {
    document: RwLock<Document>,
    /// Whether any node ever moved out (so `moves` need not be looked at).
    pub(crate) moved_out: AtomicBool,
    /// A node that moved out, by its old id: its document and id now.
    pub(crate) moves: Mutex<HashMap<NodeId, (Shared, NodeId)>>,
    /// The number of the next `nsN` prefix made up for a namespace no
    /// prefix is bound to, counted per document as lxml counts them.
    pub(crate) fresh_prefixes: AtomicUsize,
    /// For a document built as a stream arrives (`stream`): what holds its
    /// nodes, so that what the caller takes out and nothing holds is freed.
    pub(crate) held: Option<Mutex<Held>>,
}

/// What holds the nodes of a streamed document: proxies and events not yet
/// handed out, counted by node; and the subtrees taken out while something
/// held a node in them, to free once nothing does
/// (docs/python.md, "Streaming").
#[derive(Default)]
pub(crate) struct Held {
    counts: HashMap<NodeId, u32, BuildHasherDefault<IdHasher>>,
    /// Detached subtrees kept because something held a node in them.
    pub(crate) kept: Vec<NodeId>,
}

impl Held {
    pub(crate) fn hold(&mut self, id: NodeId) {
        *self.counts.entry(id).or_default() += 1;
    }

    pub(crate) fn release(&mut self, id: NodeId) {
        if let Some(count) = self.counts.get_mut(&id) {
            *count -= 1;
            if *count == 0 {
                self.counts.remove(&id);
            }
        }
    }

    /// Whether anything holds a node of the subtree of `id` (itself
    /// included).
    fn holds_any(&self, doc: &Document, id: NodeId) -> bool {
        !self.counts.is_empty()
            && (self.counts.contains_key(&id)
                || doc.node(id).is_some_and(|node| {
                    node.descendants()
                        .any(|n| self.counts.contains_key(&n.id()))
                }))
    }

    /// Frees each kept subtree nothing holds now (and forgets those put
    /// back in a tree or gone). Returns how many nodes the subtrees still
    /// kept have: what the next sweep will walk.
    pub(crate) fn sweep(&mut self, doc: &mut Document) -> usize {
        let kept = std::mem::take(&mut self.kept);
        let mut size = 0;
        for id in kept {
            match doc.node(id) {
                Some(node) if node.parent().is_none() => {
                    if self.holds_any(doc, id) {
                        size += 1 + node.descendants().count();
                        self.kept.push(id);
                    } else {
                        let _ = doc.remove(id);
                    }
                }
                _ => {}
            }
        }
        size
    }
}

/// Hashes node ids for [`Held`]: arena indices the library hands out, not
/// input an attacker picks, so a multiply-and-fold (a few cycles) stands in
/// for the keyed hasher (most of a streamed element's cost otherwise).
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// After the binding took `id` out of its parent in `doc`: in a streamed
/// document, frees it unless something holds a node in it.
pub(crate) fn let_go(cell: &DocCell, doc: &mut Document, id: NodeId) {
    let Some(held) = &cell.held else {
        return;
    };
    let Ok(mut held) = held.lock() else {
        return;
    };
    if doc.node(id).is_none_or(|node| node.parent().is_some()) {
        return;
    }
    if held.holds_any(doc, id) {
        held.kept.push(id);
    } else {
        let _ = doc.remove(id);
    }
}

/// A new document for Python to hold.
pub(crate) fn share(document: Document) -> Shared {
    cell(document, None)
}

/// A new document, built as a stream arrives, for Python to hold (see
/// [`Held`]).
pub(crate) fn share_streamed(document: Document) -> Shared {
    cell(document, Some(Mutex::new(Held::default())))
}

fn cell(document: Document, held: Option<Mutex<Held>>) -> Shared {
    Arc::new(DocCell {
        document: RwLock::new(document),
        moved_out: AtomicBool::new(false),
        moves: Mutex::new(HashMap::new()),
        fresh_prefixes: AtomicUsize::new(0),
        held,
    })
}

pub(crate) fn read(doc: &Shared) -> PyResult<RwLockReadGuard<'_, Document>> {
    doc.document
        .read()
        .map_err(|_| PyRuntimeError::new_err("the document's lock was poisoned"))
}

pub(crate) fn write(doc: &Shared) -> PyResult<RwLockWriteGuard<'_, Document>> {
    doc.document
        .write()
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
    module.add_class::<Attrib>()?;
    module.add_class::<ElementIterator>()?;
    module.add_class::<ElementTree>()?;
    module.add_class::<DocInfo>()?;
    module.add_class::<ErrorLog>()?;
    module.add_class::<LogEntry>()?;
    module.add_class::<EventStream>()?;
    module.add_function(wrap_pyfunction!(_parse_text, module)?)?;
    module.add_function(wrap_pyfunction!(_parse_file, module)?)?;
    module.add_function(wrap_pyfunction!(sub_element, module)?)?;
    module.add_function(wrap_pyfunction!(new_element, module)?)?;
    module.add_function(wrap_pyfunction!(new_comment, module)?)?;
    module.add_function(wrap_pyfunction!(new_processing_instruction, module)?)?;
    Ok(())
}
