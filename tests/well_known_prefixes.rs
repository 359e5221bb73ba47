//! Well-known prefixes used undeclared (issue 35): a feed that uses
//! `itunes:`, `podcast:` or `googleplay:` without declaring them has those
//! names in the prefixes' registered namespaces, in the tree and the
//! events alike, still reported as `unbound-namespace-prefix`; repaired
//! and canonical output declare the registered namespace where the name
//! needs it; `ParseOptions::placeholder_for_well_known_prefixes` gives the
//! placeholder namespaces instead, as any other undeclared prefix has.
//! The fixture is `tests/well_known_prefixes/podcast-undeclared.xml`.

use pretty_assertions::assert_eq;
use xml5dom::events::{self, write_canonical_reader_with, Event};
use xml5dom::query::{Bindings, XPath};
use xml5dom::{write_canonical, CanonicalForm, Document, InclusiveNamespaces, ParseOptions};

const FEED: &str = include_str!("well_known_prefixes/podcast-undeclared.xml");

const ITUNES: &str = "http://www.itunes.com/dtds/podcast-1.0.dtd";
const PODCAST: &str = "https://podcastindex.org/namespace/1.0";
const GOOGLEPLAY: &str = "http://www.google.com/schemas/play-podcasts/1.0";
/// What the second item declares `itunes` as: it wins in its scope.
const DECLARED_ITUNES: &str = "urn:example:not-itunes";

fn placeholders() -> ParseOptions {
    let mut options = ParseOptions::default();
    options.placeholder_for_well_known_prefixes = true;
    options
}

/// The namespaces of the elements named `local`, in document order.
fn namespaces_of<'d>(doc: &'d Document, local: &str) -> Vec<Option<&'d str>> {
    doc.root()
        .descendants()
        .filter(|n| n.is_element() && n.local_name() == local)
        .map(|n| n.namespace())
        .collect()
}

/// Every element and attribute name of `doc`, as `{namespace}qualified`,
/// in document order (an element's name before its attributes'); the
/// namespace declarations left out.
fn dom_names(doc: &Document) -> Vec<String> {
    let show = |qualified: &str, namespace: Option<&str>| {
        format!("{{{}}}{qualified}", namespace.unwrap_or(""))
    };
    let mut names = Vec::new();
    for node in doc.root().descendants().filter(|n| n.is_element()) {
        names.push(show(node.name(), node.namespace()));
        for attribute in node.attributes() {
            if attribute.declared_prefix().is_none() {
                names.push(show(attribute.name(), attribute.namespace()));
            }
        }
    }
    names
}

/// The same, from the events of a parse of `text` with `options`, the
/// namespace declarations kept.
fn event_names(text: &str, options: &ParseOptions) -> Vec<String> {
    let mut names = Vec::new();
    events::parse_with(text, options, |event| {
        if let Event::StartElement(start) = event {
            let show = |name: events::Name<'_>| {
                format!("{{{}}}{}", name.namespace.unwrap_or(""), name.qualified)
            };
            names.push(show(start.name));
            for attribute in start.attributes {
                names.push(show(attribute.name));
            }
        }
    });
    names
}

#[test]
fn an_undeclared_well_known_prefix_is_in_its_registered_namespace() {
    let doc = Document::parse(FEED);
    assert_eq!(
        namespaces_of(&doc, "duration"),
        [Some(ITUNES), Some(DECLARED_ITUNES)]
    );
    assert_eq!(namespaces_of(&doc, "author"), [Some(ITUNES)]);
    assert_eq!(namespaces_of(&doc, "locked"), [Some(PODCAST)]);
    assert_eq!(namespaces_of(&doc, "transcript"), [Some(PODCAST)]);
    assert_eq!(namespaces_of(&doc, "block"), [Some(GOOGLEPLAY)]);
    // Still not well-formed: each undeclared use is the same error as
    // before, where the name starts.
    let errors: Vec<_> = doc
        .errors()
        .iter()
        .map(|e| {
            let at = &FEED[e.offset..];
            (
                e.code.as_str(),
                &at[..at.find([' ', '>']).unwrap_or(at.len())],
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            ("unbound-namespace-prefix", "<itunes:author"),
            ("unbound-namespace-prefix", "<itunes:category"),
            ("unbound-namespace-prefix", "<googleplay:block"),
            ("unbound-namespace-prefix", "<podcast:locked"),
            ("unbound-namespace-prefix", "<itunes:duration"),
            ("unbound-namespace-prefix", "<podcast:transcript"),
        ]
    );
    assert!(!doc.is_well_formed());
}

#[test]
fn xpath_finds_it_with_the_registered_namespace_bound() {
    let doc = Document::parse(FEED);
    let mut bindings = Bindings::new();
    bindings.namespace("it", ITUNES);
    let durations = XPath::compile("//it:duration").unwrap();
    let found = durations.select_with(doc.root(), &bindings).unwrap();
    let texts: Vec<_> = found.iter().map(|n| n.string_value()).collect();
    assert_eq!(texts, ["12:34"]);
    let all = XPath::compile("count(//it:*)").unwrap();
    let count = all.evaluate_with(doc.root(), &bindings).unwrap();
    assert_eq!(count.to_number(), 3.0);
    // With the option, the placeholder selects them, and the registered
    // namespace nothing.
    let doc = Document::parse_with(FEED, &placeholders());
    assert!(durations
        .select_with(doc.root(), &bindings)
        .unwrap()
        .is_empty());
    bindings.namespace("it", "urn:xml5dom:undeclared:itunes");
    let found = durations.select_with(doc.root(), &bindings).unwrap();
    assert_eq!(found.len(), 1);
}

#[test]
fn events_give_the_names_the_tree_has() {
    for options in [ParseOptions::default(), placeholders()] {
        let doc = Document::parse_with(FEED, &options);
        let mut names = event_names(FEED, &options);
        names.retain(|name| !name.starts_with("{http://www.w3.org/2000/xmlns/}"));
        assert_eq!(names, dom_names(&doc));
    }
    let names = event_names(FEED, &ParseOptions::default());
    assert!(names.contains(&format!("{{{ITUNES}}}itunes:duration")));
    let names = event_names(FEED, &placeholders());
    assert!(names.contains(&"{urn:xml5dom:undeclared:itunes}itunes:duration".to_owned()));
    assert!(!names.iter().any(|name| name.contains(ITUNES)));
}

/// The repaired document adds only the declarations, each where an
/// undeclared prefix is first used in its scope, and reads back without
/// an error to the same names.
#[test]
fn repaired_output_declares_the_registered_namespace_where_it_is_used() {
    for (options, itunes, podcast, googleplay) in [
        (ParseOptions::default(), ITUNES, PODCAST, GOOGLEPLAY),
        (
            placeholders(),
            "urn:xml5dom:undeclared:itunes",
            "urn:xml5dom:undeclared:podcast",
            "urn:xml5dom:undeclared:googleplay",
        ),
    ] {
        let doc = Document::parse_with(FEED, &options);
        let written = doc.to_xml();
        let declare = |prefix: &str, uri: &str| format!(" xmlns:{prefix}=\"{uri}\"");
        let expected = FEED
            .replace(
                "<itunes:author>",
                &format!("<itunes:author{}>", declare("itunes", itunes)),
            )
            .replace(
                "<itunes:category ",
                &format!("<itunes:category{} ", declare("itunes", itunes)),
            )
            .replace(
                "<googleplay:block>",
                &format!("<googleplay:block{}>", declare("googleplay", googleplay)),
            )
            .replace(
                "<podcast:locked>",
                &format!("<podcast:locked{}>", declare("podcast", podcast)),
            )
            .replace(
                "<itunes:duration>12:34",
                &format!("<itunes:duration{}>12:34", declare("itunes", itunes)),
            )
            .replace(
                "<podcast:transcript ",
                &format!("<podcast:transcript{} ", declare("podcast", podcast)),
            );
        assert_eq!(written, expected);
        let again = Document::parse_with(&written, &options);
        assert_eq!(again.errors(), []);
        assert_eq!(dom_names(&again), dom_names(&doc));
        // Read back, it writes itself: unedited and well-formed.
        assert_eq!(again.to_xml(), written);
    }
}

#[test]
fn canonical_output_declares_it_from_the_tree_and_streamed() {
    let forms = [
        CanonicalForm::C14n,
        CanonicalForm::C14n11,
        CanonicalForm::ExcC14n,
    ];
    for form in forms {
        let doc = Document::parse(FEED);
        let mut from_tree = Vec::new();
        write_canonical(&doc, form, &mut from_tree).unwrap();
        let mut streamed = Vec::new();
        let inclusive = InclusiveNamespaces::default();
        let options = ParseOptions::default();
        write_canonical_reader_with(FEED.as_bytes(), &options, form, &inclusive, &mut streamed)
            .unwrap();
        let from_tree = String::from_utf8(from_tree).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), from_tree, "{form:?}");
        let declared = format!("<itunes:duration xmlns:itunes=\"{ITUNES}\">12:34");
        assert!(from_tree.contains(&declared), "{form:?}: {from_tree}");
        // The second item's declaration wins in its scope (Exclusive
        // canonicalization writes it where it is used).
        let declaration = format!(" xmlns:itunes=\"{DECLARED_ITUNES}\"");
        let (on_item, on_duration) = match form {
            CanonicalForm::ExcC14n => ("", declaration.as_str()),
            _ => (declaration.as_str(), ""),
        };
        let second = format!(
            "<item{on_item}>\n      <title>Episode 2</title>\n      \
             <itunes:duration{on_duration}>45:00"
        );
        assert!(from_tree.contains(&second), "{form:?}: {from_tree}");
        // It is the canonical form of the repaired document.
        let repaired = Document::parse(&doc.to_xml());
        let mut of_repaired = Vec::new();
        write_canonical(&repaired, form, &mut of_repaired).unwrap();
        assert_eq!(
            String::from_utf8(of_repaired).unwrap(),
            from_tree,
            "{form:?}"
        );
    }
}

/// With the option, the tree is the one every other undeclared prefix
/// gives: the same dump as the default parse of the feed with each
/// well-known prefix renamed to one outside the list, renamed back.
#[test]
fn the_option_gives_the_placeholder_tree() {
    let renamed = FEED
        .replace("itunes:", "itunesx:")
        .replace("podcast:", "podcastx:")
        .replace("googleplay:", "googleplayx:")
        .replace("xmlns:itunesx=", "xmlns:itunes=")
        .replace(
            "<itunesx:duration>45:00</itunesx:duration>",
            "<itunes:duration>45:00</itunes:duration>",
        );
    let other = Document::parse(&renamed).to_tree_dump();
    let expected = other
        .replace("itunesx", "itunes")
        .replace("podcastx", "podcast")
        .replace("googleplayx", "googleplay");
    let with_option = Document::parse_with(FEED, &placeholders());
    assert_eq!(with_option.to_tree_dump(), expected);
    // The same errors as without the option.
    assert_eq!(with_option.errors(), Document::parse(FEED).errors());
}

/// A prefix the document declares means what its declaration says, on
/// the element or an ancestor, whether or not it is a well-known one; a
/// well-formed document is the same tree with the option or without.
#[test]
fn a_declared_well_known_prefix_keeps_its_declaration() {
    let text = "<rss xmlns:dc='urn:custom'><channel><dc:creator>A</dc:creator>\
                <item xmlns:media='http://search.yahoo.com/mrss/'><media:title>T</media:title></item>\
                </channel></rss>";
    let doc = Document::parse(text);
    assert_eq!(doc.errors(), []);
    assert_eq!(namespaces_of(&doc, "creator"), [Some("urn:custom")]);
    assert_eq!(
        namespaces_of(&doc, "title"),
        [Some("http://search.yahoo.com/mrss/")]
    );
    assert_eq!(doc.to_xml(), text);
    let with_option = Document::parse_with(text, &placeholders());
    assert_eq!(with_option.to_tree_dump(), doc.to_tree_dump());
}
