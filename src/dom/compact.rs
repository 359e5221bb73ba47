//! Giving back the storage of removed nodes.
//!
//! Removing a node frees its arena slot (indextree reuses it) but not the
//! strings, attributes and CDATA parts it kept in the document's side
//! vectors, which only grow as nodes are made. A document that is built and
//! cut down at once, as lxml's `iterparse` idiom does (each record cleared
//! once read), would so hold all it ever parsed. [`Document::remove`] calls
//! [`Document::compact_if_wasteful`]: when the side storage has grown to
//! twice what the live nodes used at the last compaction (and by a slack
//! and a share per arena slot besides), it is rebuilt with what the live
//! nodes use. Each compaction walks the arena and copies what the live
//! nodes hold, and comes only after at least as much was added, so the
//! work stays linear in what was ever stored (a large document edited a
//! little at a time does not walk its arena per 64 KiB of edits), and the
//! storage within about twice what the live nodes use plus a slot's share.
//!
//! Node ids do not change: only the ranges inside nodes move.

use super::{
    attribute_run, AttributeData, Document, NodeData, NodeKind, StrRange, TextRef, NO_ATTRIBUTES,
    STORED,
};

/// What storage may grow by past twice the live size before it is
/// compacted: small documents never compact.
const COMPACT_SLACK: usize = 64 << 10;

/// Bytes of storage added that pay for walking one arena slot.
const SLOT_SHARE: usize = 16;

impl Document {
    /// Bytes of side storage: stored strings, attributes, CDATA parts,
    /// wide string ranges.
    fn storage_size(&self) -> usize {
        self.stored.len()
            + self.attributes.len() * std::mem::size_of::<AttributeData>()
            + (self.cdata.len() + self.cdata_runs.len()) * std::mem::size_of::<(usize, usize)>()
            + self.wide_ranges.len() * std::mem::size_of::<StrRange>()
    }

    /// Compacts the side storage if it holds more than twice what the live
    /// nodes used at the last compaction (see the module doc).
    pub(crate) fn compact_if_wasteful(&mut self) {
        // The walk costs a slot's worth per arena slot, live or free.
        let walk = self.arena.len() * SLOT_SHARE;
        if self.storage_size() > 2 * self.compacted_size + COMPACT_SLACK + walk {
            self.compact(None);
        }
    }

    /// Rebuilds the stored strings, attributes and CDATA parts with what
    /// the nodes in the arena (attached or not) use, in arena order; the
    /// attributes of `last`, if given, end the attribute storage (an edit
    /// appends to them next).
    pub(crate) fn compact(&mut self, last: Option<indextree::NodeId>) {
        let old = Storage {
            stored: std::mem::take(&mut self.stored),
            attributes: std::mem::take(&mut self.attributes),
            cdata: std::mem::take(&mut self.cdata),
            cdata_runs: std::mem::take(&mut self.cdata_runs),
            wide_ranges: std::mem::take(&mut self.wide_ranges),
        };
        let mut new = Storage::default();
        // `last`'s attributes wait out the walk (it sees the element with
        // none), then go at the end.
        let last = last.and_then(|id| {
            let data = self.arena.get_mut(id)?.get_mut();
            let first = data.first_attribute()?;
            data.words[1] = NO_ATTRIBUTES;
            Some((id, first))
        });
        for node in self.arena.iter_mut().filter(|node| !node.is_removed()) {
            new.keep_node(&old, node.get_mut());
        }
        if let Some((id, first)) = last {
            let data = self.arena[id].get_mut();
            data.words[1] = u32::try_from(first).unwrap_or(NO_ATTRIBUTES);
            new.keep_node(&old, data);
        }
        // DOCTYPE data stays (a document has one or none); its strings move.
        for doctype in &mut self.doctypes {
            for range in [
                &mut doctype.name,
                &mut doctype.public_id,
                &mut doctype.system_id,
                &mut doctype.internal_subset,
            ]
            .into_iter()
            .flatten()
            {
                *range = new.string(&old, *range);
            }
        }
        new.stored.shrink_to_fit();
        new.attributes.shrink_to_fit();
        self.stored = new.stored;
        self.attributes = new.attributes;
        self.cdata = new.cdata;
        self.cdata_runs = new.cdata_runs;
        self.wide_ranges = new.wide_ranges;
        self.compacted_size = self.storage_size();
    }
}

/// A document's side storage, as compaction takes it apart and rebuilds it.
#[derive(Default)]
struct Storage {
    stored: String,
    attributes: Vec<AttributeData>,
    cdata: Vec<(usize, usize)>,
    cdata_runs: Vec<(usize, usize)>,
    wide_ranges: Vec<StrRange>,
}

impl Storage {
    /// `range` of `old` kept here: a stored string is copied, a range of
    /// the source stays as it is.
    fn string(&mut self, old: &Storage, range: StrRange) -> StrRange {
        if range.start & STORED == 0 {
            return range;
        }
        let text = old
            .stored
            .get(range.start & !STORED..range.end & !STORED)
            .unwrap_or_default();
        let start = self.stored.len();
        self.stored.push_str(text);
        StrRange::new(STORED | start, STORED | self.stored.len())
    }

    /// [`string`](Self::string) of a node's or attribute's text.
    fn text(&mut self, old: &Storage, text: TextRef) -> TextRef {
        let range = self.string(old, text.range(&old.wide_ranges));
        TextRef::new(range, &mut self.wide_ranges)
    }

    /// What the node `data` holds in `old`, kept here, its ranges moved.
    fn keep_node(&mut self, old: &Storage, data: &mut NodeData) {
        match data.kind() {
            NodeKind::Element { .. } => {
                let first = self.attributes.len();
                let own = attribute_run(&old.attributes, data.first_attribute());
                let own = old.attributes.get(own.range()).unwrap_or_default();
                for attribute in own {
                    // (The last keeps its mark.)
                    let value = self.text(old, attribute.value);
                    self.attributes.push(AttributeData {
                        value,
                        ..*attribute
                    });
                }
                // Fits: the runs (disjoint) hold no more attributes than
                // the storage they were in, which never passes `u32::MAX`.
                data.words[1] = match own.is_empty() {
                    true => NO_ATTRIBUTES,
                    false => u32::try_from(first).unwrap_or(NO_ATTRIBUTES),
                };
            }
            NodeKind::Text { text, cdata } => {
                let text = self.text(old, text);
                let parts = (cdata as usize)
                    .checked_sub(1)
                    .and_then(|run| old.cdata_runs.get(run))
                    .and_then(|&(start, end)| old.cdata.get(start..end))
                    .filter(|parts| !parts.is_empty());
                let cdata = match parts {
                    Some(parts) => {
                        let start = self.cdata.len();
                        self.cdata.extend_from_slice(parts);
                        self.cdata_runs.push((start, self.cdata.len()));
                        u32::try_from(self.cdata_runs.len()).unwrap_or(0)
                    }
                    None => 0,
                };
                data.set_kind(NodeKind::Text { text, cdata });
            }
            NodeKind::Comment(text) => data.set_kind(NodeKind::Comment(self.text(old, text))),
            NodeKind::ProcessingInstruction { target, data: text } => {
                let text = self.text(old, text);
                data.set_kind(NodeKind::ProcessingInstruction { target, data: text });
            }
            NodeKind::Document | NodeKind::Doctype(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dom::Document;

    /// A document cut down as it grows, lxml's `iterparse` idiom, keeps
    /// storage in proportion to what is left, and reads the same.
    #[test]
    fn removing_nodes_gives_their_storage_back() {
        let mut doc = Document::parse("<records/>");
        let root = doc.root_element().unwrap().id();
        let note = "a note with an escaped <, & and a CDATA part ".repeat(20);
        for i in 0..20_000 {
            let record = doc.create_element("record");
            doc.set_attribute(record, "id", &format!("r{i}")).unwrap();
            doc.set_attribute(record, "kind", "k").unwrap();
            let text = doc.create_text(&note);
            doc.append(record, text).unwrap();
            let comment = doc.create_comment("c");
            doc.append(record, comment).unwrap();
            doc.append(root, record).unwrap();
            if i % 10 != 9 {
                doc.remove(record).unwrap();
            }
        }
        // 2,000 records of about 1 KB are left; 20 MB were stored.
        assert!(doc.storage_size() < 2 * 2_000 * 1_200 + 2 * super::COMPACT_SLACK);
        let root = doc.node(root).unwrap();
        assert_eq!(root.children().count(), 2_000);
        for (n, record) in root.children().enumerate() {
            assert_eq!(record.attribute("id"), Some(&*format!("r{}", n * 10 + 9)));
            assert_eq!(record.attribute("kind"), Some("k"));
            assert_eq!(record.first_child().unwrap().text(), Some(&*note));
            assert_eq!(record.last_child().unwrap().text(), Some("c"));
        }
    }

    /// CDATA parts and parsed attributes survive a compaction.
    #[test]
    fn compaction_keeps_cdata_and_parsed_strings() {
        let source =
            "<a x='1&amp;2'><![CDATA[<x>]]> &amp; <b y='&lt;'>t&gt;</b><!--c--><?p d?></a>";
        let mut doc = Document::parse(source);
        let before = doc.to_xml();
        let extra = doc.create_text(&"x".repeat(3 << 20));
        let root = doc.root_element().unwrap().id();
        doc.append(root, extra).unwrap();
        doc.remove(extra).unwrap();
        assert!(doc.storage_size() < super::COMPACT_SLACK);
        assert_eq!(doc.to_xml(), before);
        assert_eq!(doc.to_xml(), source);
    }
}
