//! Moving a node into another document, as lxml moves it: the node, its
//! subtree and its tail leave their document and land in the other, and
//! the proxies of the moved nodes follow them.
//!
//! A document is one arena, so a node cannot change documents: the
//! subtree is imported into the target (`Document::import`, which keeps
//! every name in its namespace and checks the copy where it lands), put in
//! place, and removed from its source; the source then records, for each
//! moved element, comment and processing instruction, its document and id
//! now (`DocCell::moves`), where a proxy of the old node finds it
//! (`Element::moved`). Either all of it happens or none.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use xml5dom::{Document, NodeId};

use crate::element::Element;
use crate::nodes::{is_item, text_nodes};
use crate::{edit_error, write, EditResult};

/// Moves `child`'s node (with its tail) from its document into `target`'s,
/// where `place` puts it. Both proxies are where their nodes are now
/// (`Element::here`), in two documents.
pub(crate) fn move_between(
    target: &Element,
    child: &Element,
    place: impl FnOnce(&mut Document, NodeId) -> EditResult<()>,
) -> PyResult<()> {
    // The two write locks in address order, so that two moves the other
    // way round cannot wait for each other.
    let target_first = Arc::as_ptr(&target.doc) < Arc::as_ptr(&child.doc);
    let (mut into, mut from) = if target_first {
        let into = write(&target.doc)?;
        (into, write(&child.doc)?)
    } else {
        let from = write(&child.doc)?;
        (write(&target.doc)?, from)
    };
    let moved = transplant(&mut into, &mut from, child.id, place).map_err(edit_error)?;
    // Recorded before the locks go, so no reader sees the node gone from
    // its source and not yet recorded.
    let mut moves = child
        .doc
        .moves
        .lock()
        .map_err(|_| PyRuntimeError::new_err("the document's lock was poisoned"))?;
    for (old, new) in moved {
        moves.insert(old, (target.doc.clone(), new));
    }
    child.doc.moved_out.store(true, Ordering::Release);
    Ok(())
}

/// Imports `node` of `from` and the text after it (its tail, unless it is
/// at the top) into `into`, puts the copy where `place` says with the tail
/// after it, then removes them from `from`. Returns each moved item's old
/// and new id. Refused, changing neither document, if the copy cannot land.
fn transplant(
    into: &mut Document,
    from: &mut Document,
    node: NodeId,
    place: impl FnOnce(&mut Document, NodeId) -> EditResult<()>,
) -> EditResult<Vec<(NodeId, NodeId)>> {
    let source = from
        .node(node)
        .ok_or_else(|| refused("the node was removed"))?;
    let top = source.parent().is_none_or(|p| p.is_document());
    let root_element = source.is_element() && source.parent().is_some_and(|p| p.is_document());
    let tail = if top {
        Vec::new()
    } else {
        text_nodes(source.next_sibling())
    };
    let copy = into.import(from, node)?;
    let mut made = vec![copy];
    let landed = (|| {
        let mut after = Vec::with_capacity(tail.len());
        for &text in &tail {
            let text = into.import(from, text)?;
            made.push(text);
            after.push(text);
        }
        place(into, copy)?;
        let mut last = copy;
        for text in after {
            into.insert_after(last, text)?;
            last = text;
        }
        Ok(())
    })();
    if let Err(error) = landed {
        undo(into, &made);
        return Err(error);
    }
    // The copy has the source's shape: the same walk pairs them.
    let (Some(old), Some(new)) = (from.node(node), into.node(copy)) else {
        undo(into, &made);
        return Err(refused("the node was removed"));
    };
    let pairs: Vec<(NodeId, NodeId)> = std::iter::once(old)
        .chain(old.descendants())
        .zip(std::iter::once(new).chain(new.descendants()))
        .filter(|(old, _)| is_item(*old))
        .map(|(old, new)| (old.id(), new.id()))
        .collect();
    if root_element {
        // A document keeps its root element, so the one that moved out
        // leaves its document empty (docs/python.md: lxml's tree keeps
        // answering the moved element).
        *from = crate::edit::blank(false);
    } else {
        let removed = std::iter::once(node)
            .chain(tail)
            .try_for_each(|id| from.remove(id));
        if let Err(error) = removed {
            undo(into, &made);
            return Err(error);
        }
    }
    Ok(pairs)
}

/// Takes out what a refused move had put into the target.
fn undo(into: &mut Document, made: &[NodeId]) {
    for &id in made.iter().rev() {
        // Each is attached in an element or detached: removable.
        let _ = into.remove(id);
    }
}

fn refused(why: &str) -> xml5dom::Error {
    xml5dom::Error::InvalidEdit(why.to_string())
}
