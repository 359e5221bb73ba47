//! A document built from events as they come, which its caller reads and
//! edits between them: the tree of lxml's `iterparse`, where an element
//! handed out at its end may be cleared so that memory stays bounded.
//!
//! Events are replayed into the sink that builds documents, as the replay
//! tests do for whole parses, so the tree is the one the parse builds. The
//! document never has a source (its strings are stored), so the stream can
//! let its text go: its nodes are as edits make them, with no spans, and
//! what only a source can say (the XML declaration as written, dropped
//! markup, where entities were expanded) is not in it. What the caller removes gives its storage back
//! (`Document::remove` compacts), so a caller that removes each record once
//! read holds a few records, whatever the stream's length.

use crate::dom::{Document, NodeId};
use crate::tree_builder::DocumentSink;

use super::replay::replay;
use super::Event;

/// Builds a [`Document`] from [`Event`]s, one at a time, and lets the
/// caller read and edit it between them.
///
/// ```
/// use xml5dom::events::{self, DocumentBuilder, Event};
///
/// let mut builder = DocumentBuilder::new();
/// let mut ids = Vec::new();
/// events::parse("<feed><entry id='1'>a</entry><entry id='2'>b<entry>", |event| {
///     let end = matches!(event, Event::EndElement(_));
///     let made = builder.push(event);
///     if let (true, Some(entry)) = (end, made) {
///         let doc = builder.document_mut();
///         let node = doc.node(entry).unwrap();
///         if node.local_name() == "entry" {
///             ids.push(node.attribute("id").unwrap_or("").to_owned());
///             if node.parent().is_some_and(|p| p.is_element()) {
///                 doc.remove(entry).unwrap(); // read: memory back
///             }
///         }
///     }
/// });
/// assert_eq!(ids, ["1", "", "2"]); // the third entry, inside the second, ends first
/// assert_eq!(builder.finish().root_element().unwrap().children().count(), 0);
/// ```
pub struct DocumentBuilder {
    sink: DocumentSink<'static>,
    /// The detached elements made in place of open elements the caller
    /// removed, innermost last: each is removed when it closes.
    placeholders: Vec<NodeId>,
}

impl Default for DocumentBuilder {
    fn default() -> DocumentBuilder {
        DocumentBuilder::new()
    }
}

impl DocumentBuilder {
    /// A builder of an empty document.
    pub fn new() -> DocumentBuilder {
        DocumentBuilder {
            sink: DocumentSink::sourceless(),
            placeholders: Vec::new(),
        }
    }

    /// Adds what `event` builds to the document. Returns the node it made
    /// (the element a start tag opened, a text, comment or processing
    /// instruction node, a DOCTYPE) or, for an [`EndElement`], the element
    /// it closed; `None` for the other events.
    ///
    /// The document may have been edited since the last event: nodes go
    /// where the parse puts them, into the element opened last. If that
    /// element was removed, they go into a detached element made in its
    /// place (which nothing holds, so they are lost to the caller, as the
    /// element was).
    ///
    /// [`EndElement`]: Event::EndElement
    pub fn push(&mut self, event: Event<'_>) -> Option<NodeId> {
        if let Some(placeholder) = self.sink.mend_parent() {
            self.placeholders.push(NodeId(placeholder));
        }
        match event {
            Event::EndElement(_) => {
                let closed = self.sink.current().map(NodeId);
                replay(&mut self.sink, "", event, 0);
                match closed {
                    Some(id) if self.placeholders.last() == Some(&id) => {
                        self.placeholders.pop();
                        // Detached, so removable; nothing else holds it.
                        let _ = self.sink.document_mut().remove(id);
                        None
                    }
                    closed => closed,
                }
            }
            Event::StartElement(start) if !start.empty => {
                replay(&mut self.sink, "", event, 0);
                self.sink.current().map(NodeId)
            }
            Event::StartElement(_)
            | Event::Text { .. }
            | Event::Comment { .. }
            | Event::ProcessingInstruction { .. }
            | Event::Doctype(_) => {
                replay(&mut self.sink, "", event, 0);
                self.sink.last_child().map(NodeId)
            }
            _ => {
                replay(&mut self.sink, "", event, 0);
                None
            }
        }
    }

    /// The document so far.
    pub fn document(&self) -> &Document {
        self.sink.document()
    }

    /// The document so far, to read or edit.
    pub fn document_mut(&mut self) -> &mut Document {
        self.sink.document_mut()
    }

    /// The element opened last and not yet closed, if any.
    pub fn current_element(&self) -> Option<NodeId> {
        self.sink.current().map(NodeId)
    }

    /// The document, with the errors pushed in source order.
    pub fn finish(self) -> Document {
        use crate::tree_builder::TreeSink;
        self.sink.finish()
    }
}
