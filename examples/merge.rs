//! Merges the entries of two broken Atom feeds into one well-formed feed
//! and prints it: each feed is loaded leniently, the second feed's entries
//! are imported into the first (skipping those it has already), named
//! with the first feed's prefixes, and all entries are put newest first.
//!
//! The feeds in `examples/data/` are broken as feeds in the wild are (bare
//! ampersands, unquoted attributes, unclosed elements) and disagree on
//! prefixes: Atom is the default namespace in one and `atom:` in the
//! other, Dublin Core is `dc:` in one and `x:` in the other, where `dc:`
//! means another vocabulary. Every name keeps its namespace in the output.
//!
//! ```sh
//! cargo run --example merge                      # the two sample feeds
//! cargo run --example merge -- BASE.xml OTHER.xml
//! ```

use std::collections::HashSet;

use xml5dom::{Document, NodeId, SerializeOptions};

/// The Atom namespace.
pub const ATOM: &str = "http://www.w3.org/2005/Atom";

/// The sample feeds.
pub const ALPHA: &str = include_str!("data/feed-alpha.xml");
pub const BETA: &str = include_str!("data/feed-beta.xml");

/// The text of the Atom child `name` of `entry` in `doc`, if it has one.
fn child_text(doc: &Document, entry: NodeId, name: &str) -> String {
    doc.node(entry)
        .and_then(|e| e.child_elements().find(|c| c.has_name(Some(ATOM), name)))
        .map(|c| c.text_content().trim().to_owned())
        .unwrap_or_default()
}

/// The Atom entries directly under the root element of `doc`.
fn entries(doc: &Document) -> Vec<NodeId> {
    doc.root_element()
        .map(|feed| {
            feed.child_elements()
                .filter(|e| e.has_name(Some(ATOM), "entry"))
                .map(|e| e.id())
                .collect()
        })
        .unwrap_or_default()
}

/// `base` with the entries of `other` it lacks (by `<id>`), all entries
/// newest first (by `<updated>`), written pretty-printed.
pub fn merge(base: &str, other: &str) -> Result<String, Box<dyn std::error::Error>> {
    let mut doc = Document::parse(base);
    let other = Document::parse(other);
    let feed = doc
        .root_element()
        .ok_or("the base feed has no root element")?;
    let feed = feed.id();

    let known: HashSet<String> = entries(&doc)
        .into_iter()
        .map(|entry| child_text(&doc, entry, "id"))
        .collect();
    for entry in entries(&other) {
        if known.contains(&child_text(&other, entry, "id")) {
            continue;
        }
        let copy = doc.import(&other, entry)?;
        // The copy keeps its names' namespaces; where the base feed has a
        // prefix (or the default) for one, take that instead of the
        // other feed's.
        let elements: Vec<NodeId> = std::iter::once(copy)
            .chain(
                doc.node(copy)
                    .into_iter()
                    .flat_map(|c| c.descendants())
                    .map(|n| n.id()),
            )
            .filter(|&id| doc.node(id).is_some_and(|n| n.is_element()))
            .collect();
        for id in elements {
            let Some(node) = doc.node(id) else { continue };
            let (Some(uri), local) = (node.namespace(), node.local_name()) else {
                continue;
            };
            let (uri, local) = (uri.to_owned(), local.to_owned());
            let prefix = doc.node(feed).and_then(|f| f.lookup_prefix(&uri));
            let name = match prefix {
                Some("") => local,
                Some(prefix) => format!("{prefix}:{local}"),
                None => continue,
            };
            doc.rename_ns(id, &uri, &name)?;
        }
        doc.append(feed, copy)?;
    }

    // Newest first: appending each entry in that order moves it to the end.
    let mut sorted: Vec<(String, NodeId)> = entries(&doc)
        .into_iter()
        .map(|entry| (child_text(&doc, entry, "updated"), entry))
        .collect();
    sorted.sort_by(|a, b| b.0.cmp(&a.0));
    let mut handle = doc.node_mut(feed).ok_or("the feed went away")?;
    for (_, entry) in sorted {
        handle.append(entry)?;
    }
    handle.append_comment(" merged by xml5dom ")?;

    let options = SerializeOptions {
        pretty: Some(2),
        ..Default::default()
    };
    Ok(doc.serialize(&options).text)
}

#[allow(dead_code)] // (tests/merge_example.rs includes this file for `merge`.)
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (base, other) = match &args[..] {
        [base, other] => (
            std::fs::read_to_string(base)?,
            std::fs::read_to_string(other)?,
        ),
        [] => (ALPHA.to_owned(), BETA.to_owned()),
        _ => return Err("usage: merge [BASE.xml OTHER.xml]".into()),
    };
    print!("{}", merge(&base, &other)?);
    Ok(())
}
