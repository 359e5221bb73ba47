//! `examples/merge.rs`: the merge of the two broken sample feeds, exactly,
//! and that it is well-formed with every name in its namespace.

#[path = "../examples/merge.rs"]
mod merge;

use xml5dom::Document;

/// What `cargo run --example merge` prints. Read by hand against the two
/// feeds in examples/data/: Tom's entries and Jerry's new ones, newest
/// first, Jerry's duplicate of urn:alpha:1 left out, his names under Tom's
/// prefixes where Tom's feed has one (Atom as the default, Dublin Core as
/// `dc:`), his `dc:` vocabulary declared again where it is used, and his
/// unprefixed <em> taken out of the Atom namespace with `xmlns=""`.
const MERGED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- Tom's notes, as a broken exporter writes them: bare ampersands,
     unquoted attributes, an element never closed, no </feed>. -->
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <title>Tom &amp; Jerry's notes</title>
  <updated>2024-05-03</updated>
  <entry>
    <id>urn:alpha:2</id>
    <title>Mice, a field guide</title>
    <updated>2024-05-03</updated>
    <link href="https://example.org/mice?page=1&amp;size=2" />
  </entry>
  <entry>
    <id>urn:beta:1</id>
    <title>Traps &amp; how to avoid them</title>
    <updated>2024-05-02</updated>
    <dc:creator>Jerry</dc:creator>
    <dc:mood xmlns:dc="urn:example:moods">smug</dc:mood>
  </entry>
  <entry>
    <id>urn:alpha:1</id>
    <title>Cheese &amp; crackers</title>
    <updated>2024-05-01</updated>
    <dc:creator>Tom</dc:creator>
    <category term="food"></category>
  </entry>
  <entry>
    <id>urn:beta:2</id>
    <title>Holes in the wall</title>
    <updated>2024-04-30</updated>
    <summary>Always <em xmlns="">two</em></summary>
  </entry>
  <!-- merged by xml5dom -->
</feed>
"#;

const DC: &str = "http://purl.org/dc/elements/1.1/";

#[test]
fn the_merged_feed_is_exactly_as_expected_and_well_formed() {
    // Both inputs are broken.
    assert!(!Document::parse(merge::ALPHA).is_well_formed());
    assert!(!Document::parse(merge::BETA).is_well_formed());

    let out = merge::merge(merge::ALPHA, merge::BETA).unwrap();
    assert_eq!(out, MERGED);
    let again = Document::parse(&out);
    assert!(again.errors().is_empty(), "{:?}", again.errors());

    // The names read back in the namespaces they had in their feeds.
    let named = |local: &str| {
        again
            .root()
            .descendants()
            .filter(|n| n.is_element() && n.local_name() == local)
            .map(|n| n.namespace().unwrap_or("").to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(named("entry"), [merge::ATOM; 4]);
    assert_eq!(named("creator"), [DC, DC]);
    assert_eq!(named("mood"), ["urn:example:moods"]);
    assert_eq!(named("em"), [""]);
}

#[test]
fn merging_a_feed_into_itself_adds_nothing() {
    let out = merge::merge(merge::BETA, merge::BETA).unwrap();
    let again = Document::parse(&out);
    assert!(again.errors().is_empty(), "{:?}", again.errors());
    let ids: Vec<String> = again
        .root()
        .descendants()
        .filter(|n| n.is_element() && n.local_name() == "id")
        .map(|n| n.text_content())
        .collect();
    assert_eq!(ids, ["urn:beta:1", "urn:alpha:1", "urn:beta:2"]);
}
