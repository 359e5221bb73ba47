//! `xml5dom::de` (feature `serde`, issue 36): documents into structs by
//! quick-xml's conventions. Well-formed inputs are read with quick-xml's
//! serde support too, as the oracle: the same value. Broken inputs give the
//! values a person would expect, with the parse errors beside them; what a
//! streaming deserializer cannot do (interleaved repeated elements,
//! namespaces by expanded name) is shown against quick-xml.

use std::collections::HashMap;

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
    // A value that does not fit keeps the parse errors beside it.
    let error =
        from_str::<Rss>("<rss version=2.0><channel><item id=x></channel></rss>").unwrap_err();
    assert_eq!(error.path(), Some("/rss/channel/item/@id"));
    let codes: Vec<&str> = error
        .parse_errors()
        .iter()
        .map(|e| e.code.as_str())
        .collect();
    assert_eq!(
        codes,
        [
            "unquoted-attribute-value",
            "unquoted-attribute-value",
            "mismatched-end-tag"
        ]
    );
    assert!(
        error
            .to_string()
            .ends_with("found \"x\" (the input has 3 parse errors)"),
        "{error}"
    );
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

#[derive(Deserialize, Debug, PartialEq)]
struct Image {
    #[serde(rename = "@href")]
    href: String,
    #[serde(rename = "@xml:lang")]
    lang: String,
    duration: String,
}

/// Names read as quick-xml reads them: by local name, except namespace
/// declarations and `xml:` attributes.
#[test]
fn prefixed_names_match_by_local_name_as_quick_xml_reads_them() {
    let image: Image = both(
        "<image xmlns:xlink='http://www.w3.org/1999/xlink' xmlns:i='urn:i' \
         xlink:href='a.png' xml:lang='en'><i:duration>3</i:duration></image>",
    );
    assert_eq!(image.href, "a.png");
    assert_eq!(image.lang, "en");
    assert_eq!(image.duration, "3");
}

#[derive(Deserialize, Debug, PartialEq)]
struct Links {
    link: String,
}

#[derive(Deserialize, Debug, PartialEq)]
struct AtomLink {
    #[serde(rename = "@href")]
    href: String,
}

#[derive(Deserialize, Debug, PartialEq)]
struct BothLinks {
    link: String,
    #[serde(rename = "{http://www.w3.org/2005/Atom}link")]
    atom_link: AtomLink,
}

/// RSS channels often hold an `<atom:link>` before their `<link>`: a field
/// `link` asking for one value takes the element named exactly so (quick-xml
/// fails: a duplicate field), and a field by expanded name claims the
/// other.
#[test]
fn a_field_takes_the_element_of_its_exact_name_before_a_prefixed_one() {
    let xml = "<channel xmlns:atom='http://www.w3.org/2005/Atom'>\
               <atom:link href='https://example.org/feed'/><link>https://example.org/</link></channel>";
    let read = from_str::<Links>(xml).unwrap();
    assert_eq!(read.value.link, "https://example.org/");
    assert!(quick_xml::de::from_str::<Links>(xml).is_err());
    let read = from_str::<BothLinks>(xml).unwrap();
    assert_eq!(read.value.link, "https://example.org/");
    assert_eq!(read.value.atom_link.href, "https://example.org/feed");
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
    // An attribute's error is placed at its value.
    let error = from_str::<Item>("<item id='seven'><title/></item>").unwrap_err();
    assert_eq!(
        error.to_string(),
        "/item/@id at 1:11: expected an unsigned integer, found \"seven\""
    );
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

// quick-xml's documented mappings (its `de` module documentation), written
// anew: the same input read by both, the same value.

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Root {
    One {
        #[serde(rename = "@field1")]
        field1: String,
    },
    Two {
        field2: String,
    },
    #[serde(rename = "$text")]
    Text(String),
}

/// An enum at the top: the root element's name chooses the variant.
#[test]
fn a_top_level_enum_is_chosen_by_the_root_name_as_quick_xml_does() {
    assert_eq!(
        both::<Root>("<one field1='a'>ignored</one>"),
        Root::One { field1: "a".into() }
    );
    assert_eq!(
        both::<Root>("<two><field2>b</field2></two>"),
        Root::Two { field2: "b".into() }
    );
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Choice {
    One,
    Two,
    #[serde(rename = "$text")]
    Other(String),
}

#[derive(Deserialize, Debug, PartialEq)]
struct Chosen {
    #[serde(rename = "@field")]
    field: String,
    #[serde(rename = "$value")]
    choice: Choice,
}

#[derive(Deserialize, Debug, PartialEq)]
struct ChosenBeside {
    field: String,
    #[serde(rename = "$value")]
    choice: Choice,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Holder {
    #[serde(rename = "$value")]
    choice: Choice,
}

#[derive(Deserialize, Debug, PartialEq)]
struct HeldChoice {
    #[serde(rename = "@field")]
    field: String,
    choice: Holder,
}

/// `xs:choice`: an enum in a `$value` field, chosen by the element's name
/// (text is the `$text` variant), beside attributes or other elements, or
/// wrapped in an element of its own.
#[test]
fn choices_in_value_fields_as_quick_xml_reads_them() {
    assert_eq!(
        both::<Chosen>("<any field='f'><two/></any>").choice,
        Choice::Two
    );
    assert_eq!(
        both::<Chosen>("<any field='f'>Text <![CDATA[and CDATA]]></any>").choice,
        Choice::Other("Text and CDATA".into())
    );
    assert_eq!(
        both::<ChosenBeside>("<any><two/><field>f</field></any>"),
        ChosenBeside {
            field: "f".into(),
            choice: Choice::Two
        }
    );
    assert_eq!(
        both::<HeldChoice>("<any field='f'><choice><one/></choice></any>")
            .choice
            .choice,
        Choice::One
    );
}

#[derive(Deserialize, Debug, PartialEq)]
struct Choices {
    #[serde(rename = "$value")]
    items: Vec<Choice>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Digits {
    #[serde(rename = "@a")]
    a: String,
    #[serde(rename = "$value")]
    parts: (Number, String, Number),
}

#[derive(Deserialize, Debug, PartialEq)]
struct Number {
    n: i32,
}

/// Sequences in `$value`: elements and text in document order, adjacent
/// text and CDATA joined, whitespace-only text left out.
#[test]
fn sequences_in_value_fields_as_quick_xml_reads_them() {
    let choices = both::<Choices>("<r><one/> text <![CDATA[cd]]> <two/>\n  <one/></r>");
    assert_eq!(
        choices.items,
        [
            Choice::One,
            Choice::Other(" text cd ".into()),
            Choice::Two,
            Choice::One
        ]
    );
    let digits = both::<Digits>("<r a='q'><x><n>1</n></x> mid <y><n>2</n></y></r>");
    assert_eq!(
        digits.parts,
        (Number { n: 1 }, " mid ".into(), Number { n: 2 })
    );
}

#[derive(Deserialize, Debug, PartialEq)]
struct Envelope<T> {
    body: Body<T>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Body<T> {
    #[serde(rename = "$value")]
    inner: T,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Deserialize, Debug, PartialEq)]
struct Units {
    #[serde(rename = "$value", default)]
    units: Vec<Unit>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct ValueText {
    #[serde(rename = "$value")]
    text: String,
}

#[derive(Deserialize, Debug, PartialEq)]
struct ValueNumbers {
    #[serde(rename = "$value")]
    numbers: Vec<usize>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct TextList {
    #[serde(rename = "$text")]
    numbers: Vec<usize>,
    #[serde(rename = "@list")]
    list: Vec<String>,
}

#[test]
fn value_and_text_fields_of_other_types_as_quick_xml_reads_them() {
    // A struct in `$value`: whatever its element is named.
    let envelope: Envelope<Number> =
        both("<Envelope><body><Example><n>42</n></Example></body></Envelope>");
    assert_eq!(envelope.body.inner, Number { n: 42 });
    assert_eq!(both::<Units>("<r><A/><B/><C/></r>").units.len(), 3);
    assert_eq!(both::<Units>("<r/>").units.len(), 0);
    assert_eq!(both::<ValueText>("<r>  content  </r>").text, "  content  ");
    // Text of whitespace only beside elements is no text, as quick-xml
    // skips it; an element's only text is its text, blank or not (where
    // quick-xml finds the field missing).
    assert_eq!(both::<Paragraph>("<p> <b>x</b> y </p>").text, " y ");
    let note = from_str::<Note>("<r lang='en'> \n </r>").unwrap().value;
    assert_eq!(note.text, " \n ");
    assert!(quick_xml::de::from_str::<Note>("<r lang='en'> \n </r>").is_err());
    assert_eq!(from_str::<ValueText>("<r>  </r>").unwrap().value.text, "  ");
    // Written with a reference or in CDATA, blank text is text.
    let read = from_str::<Paragraph>("<p> <b>x</b>&#32;<![CDATA[\t]]>\n</p>").unwrap();
    assert_eq!(read.value.text, " \t\n");
    assert_eq!(both::<ValueNumbers>("<r>123</r>").numbers, [123]);
    // A list in text or an attribute: the values between whitespace.
    let list = both::<TextList>("<r list='a b  c'>1 2 3</r>");
    assert_eq!(
        (list.numbers, list.list),
        (vec![1, 2, 3], vec!["a".into(), "b".into(), "c".into()])
    );
}

#[derive(Deserialize, Debug, PartialEq)]
struct Optional {
    #[serde(rename = "@attribute")]
    attribute: Option<String>,
    element: Option<String>,
    #[serde(rename = "field")]
    choice_in_field: Option<Choice>,
}

#[test]
fn optional_values_nil_elements_and_enums_in_fields_as_quick_xml_reads_them() {
    let none = both::<Optional>("<r/>");
    assert_eq!(
        none,
        Optional {
            attribute: None,
            element: None,
            choice_in_field: None
        }
    );
    let some = both::<Optional>("<r attribute='a'><element>e</element><field>two</field></r>");
    assert_eq!(some.attribute.as_deref(), Some("a"));
    assert_eq!(some.choice_in_field, Some(Choice::Two));
    let nil = both::<Optional>(
        "<r xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'><element xsi:nil='true'>skipped</element></r>",
    );
    assert_eq!(nil.element, None);
}

// What a deserializer over a stream cannot do (see also the interleaved and
// namespace tests above): each shown failing in quick-xml.

#[derive(Deserialize, Debug, PartialEq)]
struct Titled {
    title: String,
    #[serde(default)]
    tag: Vec<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Flattened {
    #[serde(rename = "@id")]
    id: String,
    #[serde(flatten)]
    titled: Titled,
    #[serde(flatten)]
    rest: HashMap<String, String>,
}

#[test]
fn flatten_gathers_fields_of_a_nested_struct_and_the_rest() {
    let xml = "<r id='1'><title>T</title><tag>a</tag><note>n</note><tag>b</tag></r>";
    let read = from_str::<Flattened>(xml).unwrap();
    assert_eq!(read.value.id, "1");
    assert_eq!(
        read.value.titled,
        Titled {
            title: "T".into(),
            tag: vec!["a".into(), "b".into()]
        }
    );
    assert_eq!(
        read.value.rest,
        HashMap::from([("note".to_owned(), "n".to_owned())])
    );
    assert!(quick_xml::de::from_str::<Flattened>(xml).is_err());
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Post {
    Photo {
        #[serde(rename = "@src")]
        src: String,
        caption: String,
    },
    Note(String),
}

#[derive(Deserialize, Debug, PartialEq)]
struct Posts {
    post: Vec<Post>,
}

#[test]
fn untagged_enums_are_told_apart_by_their_content() {
    let xml = "<r><post src='sea.png'><caption>Sea</caption></post><post>hello</post></r>";
    let read = from_str::<Posts>(xml).unwrap();
    assert_eq!(
        read.value.post,
        [
            Post::Photo {
                src: "sea.png".into(),
                caption: "Sea".into()
            },
            Post::Note("hello".into())
        ]
    );
    assert!(quick_xml::de::from_str::<Posts>(xml).is_err());
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "@type")]
enum Shape {
    Circle {
        #[serde(rename = "@r")]
        r: String,
    },
    Square {
        side: String,
    },
}

#[derive(Deserialize, Debug, PartialEq)]
struct Shapes {
    shape: Vec<Shape>,
}

#[test]
fn internally_tagged_enums_are_chosen_by_their_tag() {
    let xml = "<r><shape type='Circle' r='2'/><shape type='Square'><side>3</side></shape></r>";
    let read = from_str::<Shapes>(xml).unwrap();
    assert_eq!(
        read.value.shape,
        [
            Shape::Circle { r: "2".into() },
            Shape::Square { side: "3".into() }
        ]
    );
    assert!(quick_xml::de::from_str::<Shapes>(xml).is_err());
}

#[derive(Deserialize, Debug, PartialEq)]
struct Paragraph {
    #[serde(rename = "$text")]
    text: String,
    #[serde(default)]
    b: Vec<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Numbers {
    #[serde(default)]
    n: Vec<u32>,
}

/// Text between elements is the `$text` (joined) when the type asks for
/// it, else skipped; quick-xml fails on both.
#[test]
fn text_mixed_between_elements_is_kept_or_skipped() {
    let xml = "<p>Hello <b>big</b> world</p>";
    let read = from_str::<Paragraph>(xml).unwrap();
    assert_eq!(
        read.value,
        Paragraph {
            text: "Hello  world".into(),
            b: vec!["big".into()]
        }
    );
    assert!(quick_xml::de::from_str::<Paragraph>(xml).is_err());
    let xml = "<r><n>1</n> text <n>2</n></r>";
    assert_eq!(from_str::<Numbers>(xml).unwrap().value.n, [1, 2]);
    assert!(quick_xml::de::from_str::<Numbers>(xml).is_err());
}

/// Broken input into `$value` choices: an unclosed element and an
/// undeclared prefix, read as XML5 recovers them, the errors beside.
#[test]
fn broken_choices_give_the_expected_values_and_their_errors() {
    let read = from_str::<Choices>("<r><one/>a & b<two><x:three/></r>").unwrap();
    assert_eq!(
        read.value.items,
        [Choice::One, Choice::Other("a & b".into()), Choice::Two]
    );
    let codes: Vec<&str> = read.errors.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "bare-ampersand",
            "unbound-namespace-prefix",
            "mismatched-end-tag"
        ]
    );
}

#[test]
fn an_element_that_names_no_variant_is_an_error_with_its_path() {
    let error = from_str::<Choices>("<r>\n<one/><four/></r>").unwrap_err();
    assert_eq!(error.path(), Some("/r/four"));
    assert_eq!(error.position(), Some((2, 7)));
    assert!(
        error.message().starts_with("unknown variant `four`"),
        "{error}"
    );
}

/// Past a few names, children are grouped through an index: the same
/// groups, every element of a name wherever it stands.
#[test]
fn many_names_interleaved_are_grouped_alike() {
    let names: Vec<String> = (0..20).map(|n| format!("n{n}")).collect();
    let mut xml = String::from("<r>");
    for round in 0..3 {
        for name in &names {
            xml.push_str(&format!("<{name}>{round}</{name}>"));
        }
    }
    xml.push_str("</r>");
    let read = from_str::<HashMap<String, Vec<u8>>>(&xml).unwrap().value;
    assert_eq!(read.len(), 20);
    assert!(read.values().all(|values| values == &[0, 1, 2]), "{read:?}");
}
