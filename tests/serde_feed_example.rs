//! `examples/serde_feed.rs`: the broken podcast feed reads into the structs
//! a person would expect, with each fault of the input reported where it
//! stands, and quick-xml stops at the first.

#[path = "../examples/serde_feed.rs"]
mod serde_feed;

use serde_feed::{Channel, Enclosure, Item, Rss, FEED};

fn enclosure(url: &str, length: u64) -> Option<Enclosure> {
    Some(Enclosure {
        url: url.to_owned(),
        length,
        media_type: "audio/mpeg".to_owned(),
    })
}

/// Read by hand from the feed: the HTML entities expand to their
/// characters, the bare `&` is kept, the undeclared `itunes:` is the
/// iTunes namespace, the unquoted length is read, and the last item,
/// never closed, ends where its channel does.
#[test]
fn the_broken_feed_reads_as_a_person_would_read_it() {
    let read = xml5dom::de::from_str::<Rss>(FEED).expect("the feed fits the types");
    let expected = Rss {
        channel: Channel {
            title: "Fish\u{a0}Talk".to_owned(),
            link: "https://example.org/podcast?lang=en&page=1".to_owned(),
            items: vec![
                Item {
                    title: "Café society".to_owned(),
                    link: "https://example.org/podcast/3".to_owned(),
                    guid: "fish-talk-3".to_owned(),
                    pub_date: Some("Mon, 06 May 2024 08:00:00 GMT".to_owned()),
                    duration: Some("41:05".to_owned()),
                    enclosure: enclosure("https://example.org/3.mp3", 39512346),
                },
                Item {
                    title: "Salt and vinegar".to_owned(),
                    link: "https://example.org/podcast/2".to_owned(),
                    guid: "fish-talk-2".to_owned(),
                    pub_date: None,
                    duration: Some("38:12".to_owned()),
                    enclosure: None,
                },
                Item {
                    title: "Pilot".to_owned(),
                    link: "https://example.org/podcast/1".to_owned(),
                    guid: "fish-talk-1".to_owned(),
                    pub_date: Some("Mon, 22 Apr 2024 08:00:00 GMT".to_owned()),
                    duration: None,
                    enclosure: enclosure("https://example.org/1.mp3", 12000000),
                },
            ],
        },
    };
    assert_eq!(read.value, expected);
}

/// Each error, its line and column, and what its offset points at in the
/// feed.
#[test]
fn the_feed_errors_point_at_each_fault() {
    let read = xml5dom::de::from_str::<Rss>(FEED).expect("the feed fits the types");
    let found: Vec<(&str, u32, u32, &str)> = read
        .errors
        .iter()
        .map(|error| {
            let at = &FEED[error.offset..];
            let word = &at[..at.find([';', '=', ' ', '>']).unwrap_or(at.len())];
            (error.code.as_str(), error.line, error.column, word)
        })
        .collect();
    assert_eq!(
        found,
        [
            ("undeclared-entity", 4, 16, "&nbsp"),
            ("bare-ampersand", 5, 46, "&page"),
            ("undeclared-entity", 7, 17, "&eacute"),
            ("unbound-namespace-prefix", 11, 7, "<itunes:duration"),
            ("unquoted-attribute-value", 12, 57, "39512346"),
            ("unbound-namespace-prefix", 18, 7, "<itunes:duration"),
            ("mismatched-end-tag", 26, 3, "</channel"),
        ]
    );
}

/// quick-xml, given the same text and types, stops at the first entity
/// it does not know.
#[test]
fn quick_xml_refuses_the_feed() {
    let error = quick_xml::de::from_str::<Rss>(FEED).expect_err("quick-xml stops");
    assert!(error.to_string().contains("nbsp"), "{error}");
}
