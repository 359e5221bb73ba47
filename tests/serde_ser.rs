//! `xml5dom::ser` (issue 36): the same strings as quick-xml's serializer
//! where the conventions agree, output that xml5dom and roxmltree both
//! read as well-formed, escaping that brings every character back,
//! refusals of what XML cannot carry (named by field, nothing broken
//! written), namespaces read back by `xml5dom::de`, and a property test:
//! arbitrary values written and read back through `xml5dom::de` come back
//! equal, or are refused when they hold a character XML cannot carry.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use xml5dom::ser::{to_string, to_string_with_root, to_writer};
use xml5dom::Document;

/// Asserts that `xml` is one well-formed document: no error from
/// xml5dom's parser (warnings, such as the one for `&#13;`, are not
/// errors) and none from roxmltree.
fn assert_well_formed(xml: &str) {
    let doc = Document::parse(xml);
    let errors: Vec<String> = doc
        .errors()
        .iter()
        .filter(|e| e.is_error())
        .map(|e| format!("{}:{}: {}", e.line, e.column, e.code.as_str()))
        .collect();
    assert!(errors.is_empty(), "{xml:?}: {errors:?}");
    if let Err(e) = roxmltree::Document::parse(xml) {
        panic!("{xml:?}: roxmltree: {e}");
    }
}

/// `value` written by xml5dom, checked well-formed.
fn write<T: Serialize>(value: &T) -> String {
    let xml = to_string(value).unwrap_or_else(|e| panic!("{e}"));
    assert_well_formed(&xml);
    xml
}

/// `value` written by xml5dom and by quick-xml: the same string.
fn same_as_quick_xml<T: Serialize>(value: &T) -> String {
    let ours = write(value);
    let theirs = quick_xml::se::to_string(value).expect("quick-xml writes it");
    assert_eq!(ours, theirs);
    ours
}

/// Reads `xml` back with `xml5dom::de`, asserting it parsed without error.
fn read_back<T: serde::de::DeserializeOwned>(xml: &str) -> T {
    let read = xml5dom::de::from_str::<T>(xml).unwrap_or_else(|e| panic!("{xml:?}: {e}"));
    assert!(
        read.errors.iter().all(|e| !e.is_error()),
        "{xml:?}: {:?}",
        read.errors
    );
    read.value
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
enum Status {
    Active,
    Retired,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "item")]
struct Item {
    #[serde(rename = "@id")]
    id: u32,
    #[serde(rename = "@status")]
    status: Status,
    title: String,
    price: f64,
    #[serde(rename = "tag", default)]
    tags: Vec<String>,
    stocked: bool,
    state: Status,
    letter: char,
}

fn item() -> Item {
    Item {
        id: 7,
        status: Status::Active,
        title: "Fish & chips <large> \"hot\" 'now'".into(),
        price: -12.5,
        tags: vec!["food".into(), String::new(), "x > y".into()],
        stocked: true,
        state: Status::Retired,
        letter: 'é',
    }
}

#[test]
fn a_struct_is_written_as_quick_xml_writes_it() {
    let xml = same_as_quick_xml(&item());
    assert_eq!(
        xml,
        "<item id=\"7\" status=\"Active\"><title>Fish &amp; chips &lt;large&gt; \"hot\" 'now'</title>\
         <price>-12.5</price><tag>food</tag><tag/><tag>x &gt; y</tag><stocked>true</stocked>\
         <state>Retired</state><letter>é</letter></item>"
    );
    assert_eq!(read_back::<Item>(&xml), item());
    assert_eq!(quick_xml::de::from_str::<Item>(&xml).unwrap(), item());
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Paragraph {
    #[serde(rename = "@lang")]
    lang: String,
    #[serde(rename = "$text")]
    text: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Article {
    title: String,
    #[serde(rename = "p")]
    paragraphs: Vec<Paragraph>,
    #[serde(rename = "@draft")]
    draft: bool,
}

#[test]
fn text_and_attributes_after_elements_are_written_as_quick_xml_writes_them() {
    // `@draft` comes after the elements among the fields: it is still in
    // the start tag.
    let article = Article {
        title: "On & off".into(),
        paragraphs: vec![
            Paragraph {
                lang: "en".into(),
                text: " one\r\ntwo ".into(),
            },
            Paragraph {
                lang: "a\"b\tc".into(),
                text: String::new(),
            },
        ],
        draft: false,
    };
    let xml = same_as_quick_xml(&article);
    assert_eq!(
        xml,
        "<Article draft=\"false\"><title>On &amp; off</title>\
         <p lang=\"en\"> one&#13;\ntwo </p><p lang=\"a&quot;b&#9;c\"/></Article>"
    );
    assert_eq!(read_back::<Article>(&xml), article);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Circle {
        #[serde(rename = "@r")]
        radius: u32,
    },
    Square(u32),
    Dot,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Drawing {
    #[serde(rename = "@name")]
    name: String,
    #[serde(rename = "$value")]
    shapes: Vec<Shape>,
}

#[test]
fn value_fields_and_enums_by_element_name_are_written_as_quick_xml_writes_them() {
    let drawing = Drawing {
        name: "d".into(),
        shapes: vec![Shape::Circle { radius: 3 }, Shape::Square(2), Shape::Dot],
    };
    let xml = same_as_quick_xml(&drawing);
    assert_eq!(
        xml,
        "<Drawing name=\"d\"><Circle r=\"3\"/><Square>2</Square><Dot/></Drawing>"
    );
    assert_eq!(read_back::<Drawing>(&xml), drawing);
    let shape = Shape::Circle { radius: 5 };
    assert_eq!(read_back::<Shape>(&same_as_quick_xml(&shape)), shape);
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Meters(f32);

#[test]
fn roots_are_named_as_quick_xml_names_them() {
    assert_eq!(same_as_quick_xml(&Unit), "<Unit/>");
    assert_eq!(same_as_quick_xml(&Meters(1.5)), "<Meters>1.5</Meters>");
    for (root, value) in [("n", 42.to_string()), ("s", "a<b".to_owned())] {
        let ours = to_string_with_root(root, &value).unwrap();
        assert_eq!(
            ours,
            quick_xml::se::to_string_with_root(root, &value).unwrap()
        );
        assert_well_formed(&ours);
    }
    let map = BTreeMap::from([("@lang", "en"), ("b", "2"), ("a", "1"), ("$text", "t")]);
    let ours = to_string_with_root("m", &map).unwrap();
    assert_eq!(ours, quick_xml::se::to_string_with_root("m", &map).unwrap());
    assert_eq!(ours, "<m lang=\"en\">t<a>1</a><b>2</b></m>");
    assert_well_formed(&ours);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Episode {
    #[serde(rename = "@xmlns:itunes")]
    itunes: String,
    #[serde(rename = "itunes:duration")]
    duration: String,
}

#[test]
fn prefixes_the_type_declares_are_written_as_quick_xml_writes_them() {
    let episode = Episode {
        itunes: "http://www.itunes.com/dtds/podcast-1.0.dtd".into(),
        duration: "3:00".into(),
    };
    let xml = same_as_quick_xml(&episode);
    assert_eq!(
        xml,
        "<Episode xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">\
         <itunes:duration>3:00</itunes:duration></Episode>"
    );
    assert_eq!(read_back::<Episode>(&xml), episode);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Podcast {
    #[serde(rename = "@id")]
    id: u32,
    title: String,
    #[serde(rename = "{http://www.itunes.com/dtds/podcast-1.0.dtd}duration")]
    duration: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "channel")]
struct Channel {
    #[serde(rename = "item")]
    items: Vec<Podcast>,
}

#[test]
fn the_example_of_docs_serde_ser_is_written_as_shown() {
    let channel = Channel {
        items: vec![Podcast {
            id: 7,
            title: "Fish & chips".into(),
            duration: Some("3:00".into()),
        }],
    };
    let xml = write(&channel);
    assert_eq!(
        xml,
        "<channel><item id=\"7\"><title>Fish &amp; chips</title>\
         <ns1:duration xmlns:ns1=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">3:00</ns1:duration>\
         </item></channel>"
    );
    assert_eq!(read_back::<Channel>(&xml), channel);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Maybe {
    #[serde(rename = "@a")]
    attribute: Option<String>,
    element: Option<String>,
    number: Option<u8>,
}

#[test]
fn none_is_omitted_where_quick_xml_writes_an_empty_element() {
    let nothing = Maybe {
        attribute: None,
        element: None,
        number: None,
    };
    // quick-xml's `a=""` and `<element/>` would read back as `Some("")`.
    assert_eq!(
        quick_xml::se::to_string(&nothing).unwrap(),
        "<Maybe a=\"\"><element/><number/></Maybe>"
    );
    let xml = write(&nothing);
    assert_eq!(xml, "<Maybe/>");
    assert_eq!(read_back::<Maybe>(&xml), nothing);
    let empty = Maybe {
        attribute: Some(String::new()),
        element: Some(String::new()),
        number: Some(0),
    };
    let xml = same_as_quick_xml(&empty);
    assert_eq!(xml, "<Maybe a=\"\"><element/><number>0</number></Maybe>");
    assert_eq!(read_back::<Maybe>(&xml), empty);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Texts {
    #[serde(rename = "@value")]
    attribute: String,
    element: String,
}

#[test]
fn escaping_brings_every_character_back() {
    let hard = " \t<a href=\"x\">&amp; ]]> 'q' \r\n\r end\n\t ";
    let texts = Texts {
        attribute: hard.into(),
        element: hard.into(),
    };
    let xml = write(&texts);
    assert_eq!(
        xml,
        "<Texts value=\" &#9;&lt;a href=&quot;x&quot;&gt;&amp;amp; ]]&gt; 'q' &#13;&#10;&#13; \
         end&#10;&#9; \"><element> \t&lt;a href=\"x\"&gt;&amp;amp; ]]&gt; 'q' &#13;\n&#13; \
         end\n\t </element></Texts>"
    );
    assert_eq!(read_back::<Texts>(&xml), texts);
    let tree = roxmltree::Document::parse(&xml).unwrap();
    let root = tree.root_element();
    assert_eq!(root.attribute("value"), Some(hard));
    assert_eq!(root.first_element_child().unwrap().text(), Some(hard));
    assert_eq!(quick_xml::de::from_str::<Texts>(&xml).unwrap(), texts);
}

#[derive(Serialize)]
struct Named<'a> {
    #[serde(rename = "@id")]
    id: &'a str,
    title: &'a str,
}

#[test]
fn characters_xml_cannot_carry_are_refused_by_field() {
    for refused in [
        '\0', '\u{1}', '\u{8}', '\u{B}', '\u{C}', '\u{1F}', '\u{FFFE}', '\u{FFFF}',
    ] {
        let text = format!("a{refused}b");
        let in_element = Named {
            id: "1",
            title: &text,
        };
        let e = to_string(&in_element).unwrap_err();
        let code = format!("U+{:04X}", u32::from(refused));
        assert_eq!(e.path(), Some("/Named/title"));
        assert_eq!(
            e.to_string(),
            format!("/Named/title: {code} is a character XML cannot carry")
        );
        let in_attribute = Named {
            id: &text,
            title: "t",
        };
        let e = to_string(&in_attribute).unwrap_err();
        assert_eq!(e.path(), Some("/Named/@id"), "{e}");
        assert!(e.message().starts_with(&code), "{e}");
        // What a writer was given before the refusal holds nothing of it.
        let mut out = String::new();
        assert!(to_writer(&mut out, &in_element).is_err());
        assert_eq!(out, "<Named id=\"1\"");
    }
    // Characters XML allows, however rare, are written as they are.
    for allowed in [
        '\u{7F}', '\u{85}', '\u{9F}', '\u{D7FF}', '\u{E000}', '\u{FDD0}', '\u{FFFD}',
    ] {
        let text = format!("a{allowed}b");
        let xml = write(&Named {
            id: &text,
            title: &text,
        });
        assert!(xml.contains(allowed), "{xml:?}");
    }
}

#[derive(Serialize)]
struct Spaced {
    #[serde(rename = "a b")]
    field: u8,
}

#[derive(Serialize)]
struct BadAttribute {
    #[serde(rename = "@1x")]
    field: u8,
}

#[derive(Serialize)]
struct Undeclared {
    #[serde(rename = "p:x")]
    field: u8,
}

#[derive(Serialize)]
struct WithMap {
    entries: BTreeMap<String, u8>,
}

#[derive(Serialize)]
struct Twice {
    #[serde(rename = "@a")]
    first: u8,
    #[serde(rename = "@a")]
    second: u8,
}

#[test]
fn names_that_are_not_xml_names_are_refused() {
    let e = to_string(&Spaced { field: 1 }).unwrap_err();
    assert_eq!(e.to_string(), "/Spaced/a b: `a b` is not an XML name");
    let e = to_string(&BadAttribute { field: 1 }).unwrap_err();
    assert_eq!(e.to_string(), "/BadAttribute/@1x: `1x` is not an XML name");
    let e = to_string(&Undeclared { field: 1 }).unwrap_err();
    assert_eq!(e.path(), Some("/Undeclared/p:x"));
    assert!(e.message().contains("prefix `p`"), "{e}");
    let entries = BTreeMap::from([("ok".to_owned(), 1), ("1x".to_owned(), 2)]);
    let e = to_string(&WithMap { entries }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "/WithMap/entries/1x: `1x` is not an XML name"
    );
    let e = to_string(&Twice {
        first: 1,
        second: 2,
    })
    .unwrap_err();
    assert!(e.message().contains("written twice"), "{e}");
    for root in ["1x", "a b", "", "a:b:c", "{urn:x}a:b", "xmlns:a"] {
        assert!(to_string_with_root(root, &1).is_err(), "{root:?}");
    }
}

#[test]
fn what_has_no_document_form_is_refused() {
    let e = to_string(&"text").unwrap_err();
    assert!(e.message().contains("needs a root element name"), "{e}");
    assert!(to_string_with_root("r", &vec![1, 2]).is_err());
    assert!(to_string_with_root("r", &None::<u8>).is_err());
    #[derive(Serialize)]
    struct StructText {
        #[serde(rename = "$text")]
        text: Unit,
        #[serde(rename = "$text")]
        inner: Item,
    }
    assert!(to_string(&StructText {
        text: Unit,
        inner: item()
    })
    .is_err());
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Duration {
    #[serde(rename = "@unit")]
    unit: String,
    #[serde(rename = "{http://www.itunes.com/dtds/podcast-1.0.dtd}seconds")]
    seconds: u32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "rss")]
struct Feed {
    title: String,
    #[serde(rename = "{http://www.itunes.com/dtds/podcast-1.0.dtd}duration")]
    duration: Vec<Duration>,
    #[serde(rename = "{urn:other}note")]
    note: Option<String>,
}

#[test]
fn expanded_names_are_written_in_their_namespace_and_read_back() {
    let feed = Feed {
        title: "t".into(),
        duration: vec![
            Duration {
                unit: "s".into(),
                seconds: 180,
            },
            Duration {
                unit: "m".into(),
                seconds: 60,
            },
        ],
        note: Some("n".into()),
    };
    let xml = write(&feed);
    // A prefix is declared on the element that first needs it, and used
    // again below it.
    assert_eq!(
        xml,
        "<rss><title>t</title>\
         <ns1:duration xmlns:ns1=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" unit=\"s\">\
         <ns1:seconds>180</ns1:seconds></ns1:duration>\
         <ns1:duration xmlns:ns1=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" unit=\"m\">\
         <ns1:seconds>60</ns1:seconds></ns1:duration>\
         <ns1:note xmlns:ns1=\"urn:other\">n</ns1:note></rss>"
    );
    let doc = Document::parse(&xml);
    let names: Vec<(Option<String>, String)> = doc
        .root_element()
        .unwrap()
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| (n.namespace().map(str::to_owned), n.local_name().to_owned()))
        .collect();
    let itunes = Some("http://www.itunes.com/dtds/podcast-1.0.dtd".to_owned());
    assert_eq!(
        names[1..5],
        [
            (itunes.clone(), "duration".to_owned()),
            (itunes.clone(), "seconds".to_owned()),
            (itunes.clone(), "duration".to_owned()),
            (itunes, "seconds".to_owned()),
        ]
    );
    assert_eq!(names[5], (Some("urn:other".to_owned()), "note".to_owned()));
    assert_eq!(read_back::<Feed>(&xml), feed);
}

#[derive(Serialize)]
struct Nested {
    #[serde(rename = "{urn:a}x")]
    x: Inner,
}

#[derive(Serialize)]
struct Inner {
    #[serde(rename = "@{urn:b}attr")]
    attr: u8,
    #[serde(rename = "@{http://www.w3.org/XML/1998/namespace}lang")]
    lang: &'static str,
    #[serde(rename = "{urn:a}y")]
    y: u8,
    #[serde(rename = "{urn:b}z")]
    z: u8,
}

#[test]
fn namespaced_attributes_and_nested_prefixes_are_declared_where_needed() {
    let xml = write(&Nested {
        x: Inner {
            attr: 1,
            lang: "en",
            y: 2,
            z: 3,
        },
    });
    assert_eq!(
        xml,
        "<Nested><ns1:x xmlns:ns1=\"urn:a\" xmlns:ns2=\"urn:b\" ns2:attr=\"1\" xml:lang=\"en\">\
         <ns1:y>2</ns1:y><ns2:z>3</ns2:z></ns1:x></Nested>"
    );
}

/// Strings drawn from every class of character: markup, whitespace (at
/// the ends too), DEL and C1 controls, letters of every plane, the edges
/// of the surrogate gap, noncharacters; and, in one string of 40, a
/// control XML refuses (rarer, so that most documents hold none and are
/// written).
fn any_text() -> impl Strategy<Value = String> {
    let character = prop_oneof![
        4 => prop::sample::select(vec!['a', 'Z', '0', ' ', '<', '>', '&', '"', '\'', ']', ';', '#']),
        2 => prop::sample::select(vec![' ', '\t', '\n', '\r']),
        1 => prop::sample::select(vec!['\u{7F}', '\u{80}', '\u{85}', '\u{9F}', '\u{A0}', '\u{2028}']),
        2 => prop::sample::select(vec!['é', 'ß', 'ж', '中', '\u{D7FF}', '\u{E000}', '\u{FDD0}', '\u{FFFD}', '\u{1F600}', '\u{10FFFF}']),
    ];
    let refused = prop::sample::select(vec![
        '\0', '\u{1}', '\u{8}', '\u{B}', '\u{C}', '\u{1F}', '\u{FFFE}', '\u{FFFF}',
    ]);
    let clean = prop::collection::vec(character, 0..8);
    prop_oneof![
        39 => clean.clone().prop_map(|chars| chars.into_iter().collect()),
        1 => (clean, refused, any::<prop::sample::Index>()).prop_map(|(mut chars, c, at)| {
            chars.insert(at.index(chars.len() + 1), c);
            chars.into_iter().collect()
        }),
    ]
}

/// Any character: `xml5dom::de` reads a text of one character as it is,
/// whitespace included.
fn any_char() -> impl Strategy<Value = char> {
    any::<char>()
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Colour {
    Red,
    Green,
    #[serde(rename = "blue-ish")]
    Blue,
}

fn any_colour() -> impl Strategy<Value = Colour> {
    prop_oneof![Just(Colour::Red), Just(Colour::Green), Just(Colour::Blue)]
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Leaf {
    #[serde(rename = "@name")]
    name: String,
    #[serde(rename = "$text")]
    text: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Entry {
    #[serde(rename = "@id")]
    id: u32,
    #[serde(rename = "@label")]
    label: Option<String>,
    #[serde(rename = "@colour")]
    colour: Colour,
    title: String,
    count: i64,
    ratio: f64,
    flag: bool,
    note: Option<String>,
    #[serde(rename = "leaf", default)]
    leaves: Vec<Leaf>,
    #[serde(rename = "word", default)]
    words: Vec<String>,
    letter: char,
    shade: Colour,
    #[serde(rename = "{http://example.com/ns}extra")]
    extra: Option<Leaf>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename = "doc")]
struct Doc {
    #[serde(rename = "@version")]
    version: u8,
    #[serde(rename = "entry", default)]
    entries: Vec<Entry>,
    #[serde(rename = "$text")]
    text: String,
    #[serde(rename = "{http://example.com/ns}tail")]
    tail: Option<String>,
}

fn any_leaf() -> impl Strategy<Value = Leaf> {
    (any_text(), any_text()).prop_map(|(name, text)| Leaf { name, text })
}

fn any_entry() -> impl Strategy<Value = Entry> {
    (
        (
            any::<u32>(),
            prop::option::of(any_text()),
            any_colour(),
            any_text(),
        ),
        (
            any::<i64>(),
            any::<f64>().prop_filter("NaN is not equal to itself", |f| !f.is_nan()),
        ),
        (any::<bool>(), prop::option::of(any_text())),
        prop::collection::vec(any_leaf(), 0..3),
        prop::collection::vec(any_text(), 0..3),
        (any_char(), any_colour(), prop::option::of(any_leaf())),
    )
        .prop_map(
            |((id, label, colour, title), (count, ratio), (flag, note), leaves, words, rest)| {
                let (letter, shade, extra) = rest;
                Entry {
                    id,
                    label,
                    colour,
                    title,
                    count,
                    ratio,
                    flag,
                    note,
                    leaves,
                    words,
                    letter,
                    shade,
                    extra,
                }
            },
        )
}

fn any_doc() -> impl Strategy<Value = Doc> {
    (
        any::<u8>(),
        prop::collection::vec(any_entry(), 0..4),
        any_text(),
        prop::option::of(any_text()),
    )
        .prop_map(|(version, entries, text, tail)| Doc {
            version,
            entries,
            text,
            tail,
        })
}

/// Whether any string of `doc` holds a character XML cannot carry.
fn carries_refused(doc: &Doc) -> bool {
    let refused = |text: &str| {
        text.chars().any(|c| {
            matches!(c, '\0'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}')
        })
    };
    let leaf = |leaf: &Leaf| refused(&leaf.name) || refused(&leaf.text);
    refused(&doc.text)
        || doc.tail.as_deref().is_some_and(refused)
        || doc.entries.iter().any(|entry| {
            entry.label.as_deref().is_some_and(refused)
                || refused(&entry.title)
                || entry.note.as_deref().is_some_and(refused)
                || entry.leaves.iter().any(leaf)
                || entry.words.iter().any(|word| refused(word))
                || refused(&entry.letter.to_string())
                || entry.extra.as_ref().is_some_and(leaf)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn values_come_back_through_de_or_are_refused(doc in any_doc()) {
        match to_string(&doc) {
            Ok(xml) => {
                prop_assert!(!carries_refused(&doc), "written: {xml:?}");
                assert_well_formed(&xml);
                let read: Doc = read_back(&xml);
                prop_assert_eq!(read, doc, "{:?}", xml);
            }
            Err(e) => {
                prop_assert!(carries_refused(&doc), "refused: {}", e);
                prop_assert!(e.message().ends_with("is a character XML cannot carry"), "{}", e);
                prop_assert!(e.path().is_some_and(|path| path.starts_with("/doc")), "{}", e);
            }
        }
    }
}
