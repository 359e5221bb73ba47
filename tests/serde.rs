//! `xml5dom::de` (feature `serde`, issue 36): documents into structs by
//! quick-xml's conventions. Well-formed inputs are read with quick-xml's
//! serde support too, as the oracle: the same value. Broken inputs give the
//! values a person would expect, with the parse errors beside them; what a
//! streaming deserializer cannot do (interleaved repeated elements,
//! namespaces by expanded name) is shown against quick-xml.

use serde::Deserialize;
use xml5dom::de::{from_slice, from_str};

/// The same value from quick-xml and from xml5dom, with no parse error.
fn both<T>(xml: &str) -> T
where
    T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let ours = from_str::<T>(xml).unwrap_or_else(|e| panic!("xml5dom: {e}"));
    assert_eq!(ours.errors, [], "{xml}");
    let theirs: T = quick_xml::de::from_str(xml).unwrap_or_else(|e| panic!("quick-xml: {e}"));
    assert_eq!(ours.value, theirs, "{xml}");
    ours.value
}

#[derive(Deserialize, Debug, PartialEq)]
struct Item {
    #[serde(rename = "@id")]
    id: u32,
    title: String,
    #[serde(default)]
    tag: Vec<String>,
    price: Option<f64>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Channel {
    title: String,
    #[serde(rename = "item", default)]
    items: Vec<Item>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Rss {
    #[serde(rename = "@version")]
    version: String,
    channel: Channel,
}

#[test]
fn attributes_elements_repeated_and_absent_ones_as_quick_xml_reads_them() {
    let rss: Rss = both(
        "<rss version='2.0'><channel><title>News</title>\
         <item id='1'><title>One</title><tag>a</tag><tag>b</tag><price>2.5</price></item>\
         <item id='2'><title>Two</title></item></channel></rss>",
    );
    assert_eq!(rss.channel.items.len(), 2);
    assert_eq!(rss.channel.items[0].tag, ["a", "b"]);
    assert_eq!(rss.channel.items[1].price, None);
}

#[derive(Deserialize, Debug, PartialEq)]
struct Note {
    #[serde(rename = "@lang")]
    lang: String,
    #[serde(rename = "$text")]
    text: String,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Notes {
    note: Vec<Note>,
    count: u8,
    done: bool,
}

#[test]
fn text_content_numbers_and_booleans_as_quick_xml_reads_them() {
    let notes: Notes = both(
        "<notes><note lang='en'>Hello</note><note lang='fr'>Bonjour</note>\
         <count> 2 </count><done>true</done></notes>",
    );
    assert_eq!(notes.note[1].text, "Bonjour");
    assert_eq!(notes.count, 2);
}

#[test]
fn broken_input_gives_the_expected_values_and_its_errors() {
    // Unquoted attribute, bare `&`, an HTML entity, an item never closed,
    // the channel closed by the end of input.
    let read = from_str::<Rss>(
        "<rss version=2.0><channel><title>Fish & chips&nbsp;daily</title>\
         <item id='1'><title>One</title><item id=2><title>Two</title></item>",
    )
    .unwrap();
    let codes: Vec<&str> = read.errors.iter().map(|e| e.code.as_str()).collect();
    assert!(codes.contains(&"unquoted-attribute-value"), "{codes:?}");
    assert!(codes.contains(&"bare-ampersand"), "{codes:?}");
    assert_eq!(read.value.version, "2.0");
    assert_eq!(read.value.channel.title, "Fish & chips\u{a0}daily");
    // The second item ended up inside the first, as XML5 recovers.
    assert_eq!(read.value.channel.items.len(), 1);
    assert_eq!(read.value.channel.items[0].title, "One");
    // quick-xml stops at the first error.
    assert!(quick_xml::de::from_str::<Rss>("<rss version=2.0><channel/></rss>").is_err());
}

#[derive(Deserialize, Debug, PartialEq)]
struct Mixed {
    a: Vec<u8>,
    b: String,
}

/// quick-xml needs its `overlapped-lists` feature for this; without it the
/// second run of `<a>` is a duplicate field.
#[test]
fn interleaved_repeated_elements_are_collected_into_one_vec() {
    let xml = "<r><a>1</a><b>x</b><a>2</a><a>3</a></r>";
    let read = from_str::<Mixed>(xml).unwrap();
    assert_eq!(
        read.value,
        Mixed {
            a: vec![1, 2, 3],
            b: "x".into()
        }
    );
    assert!(quick_xml::de::from_str::<Mixed>(xml).is_err());
}

#[derive(Deserialize, Debug, PartialEq)]
struct Episode {
    title: String,
    #[serde(rename = "{http://www.itunes.com/dtds/podcast-1.0.dtd}duration")]
    duration: String,
}

/// A field named by expanded name matches whatever prefix the document
/// used, or none declared at all (a well-known prefix).
#[test]
fn namespaces_match_by_expanded_name() {
    for xml in [
        "<item xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd'><title>T</title><itunes:duration>12:00</itunes:duration></item>",
        "<item xmlns:i='http://www.itunes.com/dtds/podcast-1.0.dtd'><title>T</title><i:duration>12:00</i:duration></item>",
        "<item><title>T</title><itunes:duration>12:00</itunes:duration></item>",
    ] {
        let read = from_str::<Episode>(xml).unwrap_or_else(|e| panic!("{xml}: {e}"));
        assert_eq!(read.value.duration, "12:00", "{xml}");
    }
    let xml = "<item xmlns:i='http://www.itunes.com/dtds/podcast-1.0.dtd'><title>T</title><i:duration>12:00</i:duration></item>";
    assert!(quick_xml::de::from_str::<Episode>(xml).is_err());
}

#[test]
fn a_value_that_does_not_fit_names_its_path_line_and_column() {
    let xml = "<rss version='2.0'>\n<channel><title>N</title>\n<item id='1'><title>a</title></item>\n<item id='2'><title>b</title></item>\n<item id='3'><title>c</title>\n  <price>cheap</price></item></channel></rss>";
    let error = from_str::<Rss>(xml).unwrap_err();
    assert_eq!(
        error.to_string(),
        "/rss/channel/item[3]/price at 6:3: expected a number, found \"cheap\""
    );
    assert_eq!(error.path(), Some("/rss/channel/item[3]/price"));
    let error = from_str::<Rss>("<rss version='2.0'><channel/></rss>").unwrap_err();
    assert_eq!(
        error.to_string(),
        "/rss/channel at 1:20: missing field `title`"
    );
}

#[test]
fn bytes_in_any_encoding() {
    let read = from_slice::<Note>(
        b"<?xml version='1.0' encoding='iso-8859-1'?><note lang='fr'>caf\xe9</note>",
    )
    .unwrap();
    assert_eq!(read.value.text, "caf\u{e9}");
}

#[derive(Deserialize, Debug)]
struct Nested {
    #[allow(dead_code)]
    n: Option<Box<Nested>>,
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let depth = 100_000;
    let xml = format!("{}{}", "<n>".repeat(depth), "</n>".repeat(depth));
    let error = from_str::<Nested>(&xml).unwrap_err();
    assert_eq!(error.message(), "elements nested deeper than 128");
    assert_eq!(error.position(), Some((1, 1 + 3 * 128)));
    // As deep as the bound: read.
    let depth = xml5dom::de::MAX_DEPTH;
    let xml = format!("{}{}", "<n>".repeat(depth), "</n>".repeat(depth));
    assert!(from_str::<Nested>(&xml).is_ok());
}
