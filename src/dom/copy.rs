//! Copying: a whole document ([`Clone`]), a subtree within a document
//! ([`Document::deep_copy`]) and a subtree from another document
//! ([`Document::import`]).
//!
//! A copied subtree is made of new, detached nodes, written anew by the
//! serializer (they have no source). Names keep their namespace URIs: the
//! serializer declares whatever prefixes they need where the copy lands,
//! as it does for moved nodes, so a copy under an element that binds its
//! prefix to another namespace still reads back in its own. Nothing here
//! recurses: a subtree is walked with the arena's links.

use std::collections::HashMap;
use std::sync::Mutex;

use super::{
    AttributeData, Document, ItemRange, NameId, NodeData, NodeId, NodeKind, PositionCursor, QNameId,
};
use crate::error::Error;

type Result<T> = std::result::Result<T, Error>;

fn refused(why: &str) -> Error {
    Error::InvalidEdit(why.to_owned())
}

/// A document's attributes end at most here (see `ItemRange`).
const MAX_ATTRIBUTE_END: usize = u32::MAX as usize;

/// A deep, independent copy: the arena, the source, the stored strings,
/// the interned names and everything else are copied, nothing is shared.
/// Node ids of the original name the same nodes in the copy.
///
/// Cloning costs a copy of the document's vectors (node data holds no
/// heap memory of its own).
///
/// ```
/// use xml5dom::Document;
/// let original = Document::parse("<a><b/></a>");
/// let b = original.root_element().unwrap().first_child().unwrap().id();
/// let mut copy = original.clone();
/// copy.set_attribute(b, "x", "1").unwrap();
/// assert_eq!(copy.to_xml(), "<a><b x=\"1\"/></a>");
/// assert_eq!(original.to_xml(), "<a><b/></a>");
/// ```
impl Clone for Document {
    fn clone(&self) -> Document {
        Document {
            arena: self.arena.clone(),
            root: self.root,
            text: self.text.clone(),
            source_len: self.source_len,
            stored: self.stored.clone(),
            compacted_size: self.compacted_size,
            names: self.names.clone(),
            attributes: self.attributes.clone(),
            cdata: self.cdata.clone(),
            cdata_runs: self.cdata_runs.clone(),
            doctypes: self.doctypes.clone(),
            declaration: self.declaration.clone(),
            errors: self.errors.clone(),
            verdict: self.verdict.clone(),
            error_contexts: self.error_contexts.clone(),
            edited: self.edited,
            unchecked: self.unchecked,
            attribute_defaults: self.attribute_defaults.clone(),
            encoding: self.encoding,
            encoding_source: self.encoding_source,
            bom: self.bom,
            input_map: self.input_map.clone(),
            lines: self.lines.clone(),
            // A cache of where positions were last asked: a fresh one
            // answers the same.
            last_position: Mutex::new(PositionCursor::default()),
            entity_expansions: self.entity_expansions.clone(),
            dropped: self.dropped.clone(),
            depth_dropped: self.depth_dropped.clone(),
            expansions: self.expansions.clone(),
            long_end_tags: self.long_end_tags.clone(),
            wide_ranges: self.wide_ranges.clone(),
        }
    }
}

/// Where the nodes of a copy come from.
enum From<'o> {
    /// This document: names, strings and CDATA runs are shared.
    Same,
    /// Another document: names are interned again, strings stored again.
    Other {
        doc: &'o Document,
        names: HashMap<NameId, NameId>,
        /// Its DTD is this document's (a fragment parsed for it): the
        /// attributes it supplied, and its IDs, stay so.
        same_dtd: bool,
    },
}

impl Document {
    /// A detached copy of `node` and all its descendants, attributes and
    /// namespace declarations, ready to be inserted (with
    /// [`append`](Self::append) and the like). Elements, text, comments and
    /// processing instructions can be copied; the document node and a
    /// DOCTYPE cannot.
    ///
    /// The copy is written anew by the serializer, with the namespace
    /// declarations its names need where it lands.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<list><item n='1'>one</item></list>");
    /// let list = doc.root_element().unwrap().id();
    /// let item = doc.root_element().unwrap().first_child().unwrap().id();
    /// let copy = doc.deep_copy(item).unwrap();
    /// doc.set_attribute(copy, "n", "2").unwrap();
    /// doc.append(list, copy).unwrap();
    /// assert_eq!(doc.to_xml(), "<list><item n='1'>one</item><item n=\"2\">one</item></list>");
    /// ```
    pub fn deep_copy(&mut self, node: NodeId) -> Result<NodeId> {
        self.copy_subtree(From::Same, node)
    }

    /// A detached copy in this document of `node` of `other` and all its
    /// descendants, attributes and namespace declarations, ready to be
    /// inserted. Names keep their namespace URIs: inserted where a prefix
    /// means another namespace, the copy is written with declarations (or
    /// other prefixes) that keep every name in its own.
    ///
    /// The copy is checked where it lands like a node created by an edit
    /// (docs/editing.md): what the output could not carry as it is (a
    /// prefix bound to nothing in `other`, text XML cannot hold) is
    /// refused there.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let other = Document::parse("<feed xmlns:a='urn:A'><a:entry a:id='1'>hi</a:entry></feed>");
    /// let entry = other.root_element().unwrap().first_child().unwrap().id();
    ///
    /// let mut doc = Document::parse("<feed xmlns:a='urn:B'/>");
    /// let feed = doc.root_element().unwrap().id();
    /// let copy = doc.import(&other, entry).unwrap();
    /// doc.append(feed, copy).unwrap();
    /// // `a` means urn:B here: the copy declares it again for its names.
    /// assert_eq!(
    ///     doc.to_xml(),
    ///     "<feed xmlns:a='urn:B'><a:entry a:id=\"1\" xmlns:a=\"urn:A\">hi</a:entry></feed>"
    /// );
    /// ```
    pub fn import(&mut self, other: &Document, node: NodeId) -> Result<NodeId> {
        let from = From::Other {
            doc: other,
            names: HashMap::new(),
            same_dtd: false,
        };
        self.copy_subtree(from, node)
    }

    /// [`import`](Self::import) of a node of a fragment parsed with this
    /// document's DTD: attributes its defaults supplied stay defaulted (the
    /// DTD written out supplies them again), IDs stay IDs.
    pub(crate) fn import_fragment_node(
        &mut self,
        fragment: &Document,
        node: NodeId,
    ) -> Result<NodeId> {
        let from = From::Other {
            doc: fragment,
            names: HashMap::new(),
            same_dtd: true,
        };
        self.copy_subtree(from, node)
    }

    fn copy_subtree(&mut self, mut from: From<'_>, node: NodeId) -> Result<NodeId> {
        let source = match &from {
            From::Same => &*self,
            From::Other { doc, .. } => *doc,
        };
        let top = source.live(node)?;
        if matches!(
            source.arena[top].get().kind(),
            NodeKind::Document | NodeKind::Doctype(_)
        ) {
            return Err(refused(
                "only elements, text, comments and processing instructions can be copied",
            ));
        }
        // The source's nodes in tree order, each with how many levels to
        // climb before it (a copy of this document's nodes cannot walk the
        // arena it grows).
        let mut order = Vec::new();
        let mut climb = 0usize;
        for edge in top.traverse(&source.arena) {
            match edge {
                indextree::NodeEdge::Start(id) => {
                    order.push((id, climb));
                    climb = 0;
                }
                indextree::NodeEdge::End(_) => climb += 1,
            }
        }
        let mut parents: Vec<indextree::NodeId> = Vec::new();
        let mut copy_top = None;
        for (id, climb) in order {
            for _ in 0..climb {
                parents.pop();
            }
            let made = self.copy_node(&mut from, id);
            let data = match made {
                Ok(data) => data,
                Err(error) => {
                    if let Some(copy) = copy_top {
                        self.drop_copy(copy);
                    }
                    return Err(error);
                }
            };
            let new = match parents.last() {
                Some(&parent) => parent.append_value(data, &mut self.arena),
                None => self.arena.new_node(data),
            };
            copy_top.get_or_insert(new);
            parents.push(new);
        }
        copy_top
            .map(NodeId)
            .ok_or_else(|| refused("the node was removed"))
    }

    /// Removes a copy that could not be finished.
    fn drop_copy(&mut self, copy: indextree::NodeId) {
        let unchecked = copy
            .descendants(&self.arena)
            .filter(|&id| self.arena[id].get().unchecked())
            .count();
        self.unchecked = self.unchecked.saturating_sub(unchecked);
        copy.remove_subtree(&mut self.arena);
    }

    /// The data of a copy of `id` (of this document or `from`'s).
    fn copy_node(&mut self, from: &mut From<'_>, id: indextree::NodeId) -> Result<NodeData> {
        let (mut data, unchecked) = match from {
            From::Same => {
                let data = self.arena[id].get();
                let (kind, unchecked) = (data.kind(), data.unchecked());
                let kind = match kind {
                    NodeKind::Element { name } => {
                        // Attributes are edited in place: the copy's are its
                        // own.
                        let element = self.names.qualified(name);
                        let own: Vec<AttributeData> = self
                            .own_attributes(id)
                            .iter()
                            .map(|a| {
                                // A default the DTD still supplies stays one
                                // (not once the element is renamed).
                                let supplied = self
                                    .defaults_for(element)
                                    .any(|d| d == self.names.qualified(a.name));
                                if a.is_defaulted() && !a.modified() && supplied {
                                    let mut copy = AttributeData::defaulted(a.name, a.value);
                                    if a.is_id() {
                                        copy.set_id();
                                    }
                                    copy
                                } else {
                                    copied_attribute(a.name, a.value, a.is_id())
                                }
                            })
                            .collect();
                        self.element_copy(name, &own)?
                    }
                    other => NodeData::created(other),
                };
                (kind, unchecked)
            }
            From::Other {
                doc,
                names,
                same_dtd,
            } => {
                let kind = match doc.arena[id].get().kind() {
                    NodeKind::Element { name } => {
                        let name = self.imported_name(doc, names, name);
                        let theirs = doc.own_attributes(id);
                        let mut own = Vec::with_capacity(theirs.len());
                        for a in theirs {
                            let supplied = self
                                .defaults_for(self.names.qualified(name))
                                .any(|d| d == doc.names.qualified(a.name));
                            let name = self.imported_name(doc, names, a.name);
                            let value = self.store_ref(doc.text_of(a.value));
                            // Whether it is an ID or a default is the
                            // DTD's say.
                            own.push(match *same_dtd {
                                true if a.is_defaulted() && !a.modified() && supplied => {
                                    let mut copy = AttributeData::defaulted(name, value);
                                    if a.is_id() {
                                        copy.set_id();
                                    }
                                    copy
                                }
                                true => copied_attribute(name, value, a.is_id()),
                                false => copied_attribute(name, value, false),
                            });
                        }
                        self.element_copy(name, &own)?
                    }
                    NodeKind::Text { text, cdata } => {
                        let text = self.store_ref(doc.text_of(text));
                        let cdata = self.add_cdata(doc.cdata_parts(cdata));
                        NodeData::created(NodeKind::Text { text, cdata })
                    }
                    NodeKind::Comment(text) => {
                        NodeData::created(NodeKind::Comment(self.store_ref(doc.text_of(text))))
                    }
                    NodeKind::ProcessingInstruction { target, data } => {
                        NodeData::created(NodeKind::ProcessingInstruction {
                            target: self.imported_qname(doc, target),
                            data: self.store_ref(doc.text_of(data)),
                        })
                    }
                    NodeKind::Document | NodeKind::Doctype(_) => {
                        return Err(refused("a DOCTYPE cannot be copied"))
                    }
                };
                // Checked where it lands, as a created node is.
                (kind, true)
            }
        };
        if unchecked {
            data.set_unchecked(true);
            self.unchecked += 1;
        }
        Ok(data)
    }

    /// An element named `name` holding the attributes `own`, appended to
    /// the attribute storage.
    fn element_copy(&mut self, name: NameId, own: &[AttributeData]) -> Result<NodeData> {
        let start = self.attributes.len();
        if start + own.len() > MAX_ATTRIBUTE_END {
            return Err(refused(
                "the document holds as many attributes as it can (4,294,967,295)",
            ));
        }
        let attributes = ItemRange::new(start, own.len())
            .ok_or_else(|| refused("the document holds as many attributes as it can"))?;
        self.attributes.extend_from_slice(own);
        let mut data = NodeData::created(NodeKind::Element { name });
        if let Some(last) = attributes.range().last() {
            self.attributes[last].set_last(true);
            data.words[1] = attributes.start;
        }
        Ok(data)
    }

    /// `other`'s name `name`, interned here with the same qualified name
    /// and namespace URI; but a name `other` has in the placeholder
    /// namespace of its prefix (the source used the prefix undeclared)
    /// comes without one: it waits, as a created name does, to resolve
    /// where it lands.
    fn imported_name(
        &mut self,
        other: &Document,
        seen: &mut HashMap<NameId, NameId>,
        name: NameId,
    ) -> NameId {
        if let Some(&known) = seen.get(&name) {
            return known;
        }
        let (qualified, prefix, _, namespace) = other.names.parts(name);
        let qname = self.names.qname(qualified);
        let undeclared = prefix
            .zip(namespace)
            .is_some_and(|(p, uri)| super::is_undeclared_namespace(p, uri));
        let namespace = namespace
            .filter(|_| !undeclared)
            .map(|uri| self.names.namespace(uri));
        let new = self.names.name(qname, namespace);
        seen.insert(name, new);
        new
    }

    fn imported_qname(&mut self, other: &Document, qname: QNameId) -> QNameId {
        let text = &other.names.qname_data(qname).text;
        self.names.qname(text)
    }
}

/// A copied attribute named `name` with the value `value`, as an edit
/// creates one (written out).
fn copied_attribute(name: NameId, value: super::TextRef, is_id: bool) -> AttributeData {
    let mut copy = AttributeData::created(name, value);
    if is_id {
        copy.set_id();
    }
    copy
}
