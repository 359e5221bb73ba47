//! Hang detectors for steps that run per node, per error, per attribute or
//! per level of depth (issue 16's audit): each test builds a shape where
//! such a step once did work that grew with something else, at a size
//! where that work took a minute or more in a debug build (measured with
//! the code before the fix; where the standard library's optimized code
//! did the inner loop, the shape is sized for it), and the linear work
//! takes well under a second. The guard is generous: it turns a hang into
//! a failure, it does not measure speed.
//!
//! Each test also checks the answer, so that a shortcut that made the work
//! linear did not change what comes out.

use std::time::{Duration, Instant};

use xml5dom::query::element_path::ElementPath;
use xml5dom::query::{Bindings, Value, XNode, XPath};
use xml5dom::tokenizer::{Token, TokenSink, Tokenizer};
use xml5dom::{Document, ErrorCode, Limits, ParseError, ParseOptions};

/// Runs `f`, failing if it takes longer than a linear run ever could.
fn linear<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = f();
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_secs(30),
        "{what} took {elapsed:?}: some step grows with more than the input"
    );
    out
}

fn parse_unlimited(text: &str) -> Document {
    let mut options = ParseOptions::default();
    options.limits = Limits::none();
    Document::parse_with(text, &options)
}

fn count_errors(doc: &Document, code: ErrorCode) -> usize {
    doc.errors().iter().filter(|e| e.code == code).count()
}

/// The value of an XPath expression from the document node.
fn evaluate<'a>(doc: &'a Document, expression: &str) -> Value<'a> {
    let xpath = XPath::compile(expression).expect("the expression compiles");
    linear(expression, || xpath.evaluate(doc.root())).expect("the expression evaluates")
}

fn number(doc: &Document, expression: &str) -> f64 {
    evaluate(doc, expression).to_number()
}

fn boolean(doc: &Document, expression: &str) -> bool {
    evaluate(doc, expression).to_boolean()
}

// ----- Parsing ---------------------------------------------------------------

/// Each bare `&` in an expanded replacement text looked at the whole rest
/// of the text (to validate it as UTF-8) to tell `undeclared-entity` from
/// `bare-ampersand`. (The same function reads attribute defaults.) Text
/// that is not ASCII takes that check many times longer than ASCII.
#[test]
fn bare_ampersands_in_a_replacement_text() {
    let (n, tail) = (100_000, "\u{4E2D}".repeat(500_000));
    let text = format!(
        "<!DOCTYPE r [<!ENTITY e \"{}{tail}\">]><r>&e;</r>",
        "&#38; ".repeat(n)
    );
    let doc = linear("parse", || parse_unlimited(&text));
    assert_eq!(count_errors(&doc, ErrorCode::BareAmpersand), n);
}

/// The errors of a replacement text are reported at the reference: each
/// found its column by counting from the start of the reference's line.
#[test]
fn errors_of_many_references_on_one_long_line() {
    // Each reference makes 49 `duplicate-attribute` errors.
    let (n, per_reference) = (5_000, 49);
    let attributes: String = (0..=per_reference).map(|_| " b='1'").collect();
    let text = format!(
        "<!DOCTYPE r [<!ENTITY e \"<a{attributes}/>\">]><r>{}{}</r>",
        "x".repeat(5_000_000),
        "&e;".repeat(n)
    );
    let doc = linear("parse", || parse_unlimited(&text));
    let duplicates: Vec<&ParseError> = doc
        .errors()
        .iter()
        .filter(|e| e.code == ErrorCode::DuplicateAttribute)
        .collect();
    assert_eq!(duplicates.len(), n * per_reference);
    let last = duplicates[duplicates.len() - 1];
    let column = u32::try_from(text.find("&e;").unwrap_or(0) + 3 * (n - 1) + 1).unwrap_or(0);
    assert_eq!((last.line, last.column), (1, column));
}

/// Each token of a replacement text being expanded looked the entity up
/// by its name (as long as the reference), copying and hashing it.
#[test]
fn tokens_of_an_entity_with_a_long_name() {
    let (name, tokens) = ("e".repeat(500_000), 100_000);
    let text = format!(
        "<!DOCTYPE r [<!ENTITY {name} \"{}\">]><r>&{name};</r>",
        "<a/>".repeat(tokens)
    );
    let doc = linear("parse", || parse_unlimited(&text));
    let r = doc.root_element().expect("a root element");
    assert_eq!(r.children().count(), tokens);
    assert!(doc.errors().is_empty(), "{:?}", &doc.errors()[..1]);
}

/// An element with a long name and many attributes the DTD declares: each
/// attribute looked its declaration up by the element's name, each
/// default was cached under a copy of it, and the document kept a copy of
/// it for every attribute with a default.
#[test]
fn declared_attributes_of_an_element_with_a_long_name() {
    let (name, n) = ("e".repeat(200_000), 20_000);
    let declared: String = (0..n).map(|i| format!(" a{i} CDATA 'v'")).collect();
    let written: String = (0..n / 2).map(|i| format!(" a{i}='w'")).collect();
    let text = format!("<!DOCTYPE {name} [<!ATTLIST {name}{declared}>]><{name}{written}/>");
    let doc = linear("parse", || parse_unlimited(&text));
    let element = doc.root_element().expect("a root element");
    assert_eq!(element.attributes().count(), n);
    assert_eq!(
        element.attributes().filter(|a| a.is_defaulted()).count(),
        n / 2
    );
    assert_eq!(element.attribute("a0"), Some("w"));
    assert_eq!(element.attribute(&format!("a{}", n - 1)), Some("v"));
}

/// A counting sink for the streaming tokenizer.
#[derive(Default)]
struct Counts {
    tokens: usize,
    errors: Vec<ErrorCode>,
}

impl TokenSink for Counts {
    fn process_token(&mut self, _: Token<'_>) {
        self.tokens += 1;
    }

    fn parse_error(&mut self, error: ParseError) {
        self.errors.push(error.code);
    }
}

/// A reference whose name is still going on when a chunk ends was read
/// again from its `&` at every chunk.
#[test]
fn a_long_reference_name_in_small_chunks() {
    let n = 150_000;
    for (what, text) in [
        ("a name", format!("<r>&{};</r>", "a".repeat(n))),
        ("a number", format!("<r>&#{};</r>", "1".repeat(n))),
        ("a name in a value", format!("<r a='&{};'/>", "a".repeat(n))),
        (
            "a declared name",
            format!(
                "<!DOCTYPE r [<!ENTITY {0} 'x'>]><r>&{0};</r>",
                "a".repeat(n)
            ),
        ),
    ] {
        let counts = linear(what, || {
            let mut tokenizer = Tokenizer::new(Counts::default());
            for chunk in text.as_bytes().chunks(4) {
                tokenizer.feed(std::str::from_utf8(chunk).unwrap_or_default());
            }
            tokenizer.finish()
        });
        let whole = xml5dom::tokenizer::tokenize(&text, Counts::default());
        assert_eq!(counts.tokens, whole.tokens, "{what}");
        assert_eq!(counts.errors, whole.errors, "{what}");
    }
}

// ----- Namespaces in the DOM -------------------------------------------------

/// `lookup_prefix` looked each candidate's prefix up again from the node,
/// through the declarations nearer it.
#[test]
fn lookup_prefix_past_many_shadowed_declarations() {
    // The outer element binds `p0`...`pn` to `urn:u`, the inner one binds
    // each again, to something else.
    let n = 25_000;
    let declarations =
        |uri: &str| -> String { (0..n).map(|i| format!(" xmlns:p{i}='{uri}'")).collect() };
    let text = format!(
        "<e{}><e{}/></e>",
        declarations("urn:u"),
        declarations("urn:other")
    );
    let doc = parse_unlimited(&text);
    let deepest = doc
        .root()
        .descendants()
        .last()
        .expect("the document has elements");
    assert_eq!(linear("shadowed", || deepest.lookup_prefix("urn:u")), None);
    assert_eq!(
        linear("found", || deepest.lookup_prefix("urn:other")),
        Some("p0")
    );
}

// ----- XPath -----------------------------------------------------------------

/// `<r><a/><b/>...</r>` with `n` of each, attributes on the last.
fn wide(n: usize) -> Document {
    let mut text = String::from("<r>");
    for _ in 1..n {
        text.push_str("<a>1</a><b>2</b>");
    }
    text.push_str("<a y='1'>1</a><b y='1'>2</b></r>");
    Document::parse(&text)
}

/// `<r xml:lang='en'><a x='1'><a>...<b/>...</a></a></r>`, `n` `a`s deep,
/// the outermost with an attribute.
fn deep(n: usize) -> Document {
    let text = format!(
        "<r xml:lang='en'><a x='1'>{}<b/>{}</a></r>",
        "<a>".repeat(n - 1),
        "</a>".repeat(n)
    );
    parse_unlimited(&text)
}

/// A positional first predicate took the whole axis from each node, and
/// picked one node of it.
#[test]
fn xpath_axes_cut_short_by_a_position() {
    let n = 10_000;
    let doc = wide(n);
    let nf = n as f64;
    assert_eq!(number(&doc, "count(//a/following::*[1])"), nf);
    assert_eq!(number(&doc, "count(//a/following-sibling::*[1])"), nf);
    assert_eq!(number(&doc, "count(//b/preceding-sibling::*[1])"), nf);
    assert_eq!(number(&doc, "count(//b/preceding::*[1])"), nf);
    assert_eq!(number(&doc, "count(//a/following-sibling::b[2])"), nf - 1.0);
    let doc = deep(25_000);
    assert_eq!(number(&doc, "count(//a/descendant::*[1])"), 25_000.0);
}

/// From many context nodes, axes that overlap (nested nodes' ancestors and
/// descendants, siblings' siblings, `following` and `preceding`) were
/// walked whole from each node.
#[test]
fn xpath_overlapping_axes_from_many_nodes() {
    let doc = deep(25_000);
    // Only the outermost `a` has `x`; only the innermost `a` has a `b`.
    assert_eq!(number(&doc, "count(//a/ancestor::*[@x])"), 1.0);
    assert_eq!(number(&doc, "count(//a/ancestor-or-self::a[@x])"), 1.0);
    assert_eq!(number(&doc, "count(//b/ancestor::a/@x)"), 1.0);
    assert_eq!(number(&doc, "count(//a//b)"), 1.0);
    assert_eq!(number(&doc, "count(//a/descendant-or-self::b)"), 1.0);
    assert_eq!(number(&doc, "count(//*/following::*)"), 0.0);
    assert_eq!(number(&doc, "count(//*/preceding::*)"), 0.0);
    let doc = wide(10_000);
    // Only the last `a` and the last `b` have `y`.
    assert_eq!(number(&doc, "count(//a/following-sibling::*[@y])"), 2.0);
    assert_eq!(number(&doc, "count(//b/preceding-sibling::*[@y])"), 1.0);
    assert_eq!(number(&doc, "count(//a/following::*[@y])"), 2.0);
    assert_eq!(number(&doc, "count(//b/preceding::*[@y])"), 1.0);
}

/// The same steps with predicates that see positions take the axis of
/// each node apart: the union must be the same set.
#[test]
fn xpath_merged_axes_give_what_separate_axes_give() {
    let text = "<r><a x='1'><b/><a><c y='2'/>t<b/></a></a><b><a><b/></a></b><!--c--><a/></r>";
    let doc = Document::parse(text);
    let axes = [
        "ancestor",
        "ancestor-or-self",
        "descendant",
        "descendant-or-self",
        "following",
        "following-sibling",
        "preceding",
        "preceding-sibling",
        "parent",
        "child",
        "self",
    ];
    for start in ["//a", "//b", "//node()", "//@*", "//*[@x] | //b"] {
        for axis in axes {
            let merged = format!("({start})/{axis}::node()");
            let separate = format!("({start})/{axis}::node()[position() > 0]");
            let (merged, separate) = (evaluate(&doc, &merged), evaluate(&doc, &separate));
            assert_eq!(merged, separate, "{start} / {axis}");
        }
    }
}

/// A run of adjacent text siblings is one XPath text node (issue 20): a
/// test that looked back to the start of the run from each of its nodes,
/// or rebuilt the run's text for each, would grow with the square of the
/// run. Each reference to `e` leaves a text node of its own.
#[test]
fn xpath_a_long_run_of_text_nodes() {
    let n = 100_000;
    let text = format!(
        "<!DOCTYPE r [<!ENTITY e \"x<![CDATA[y]]>\">]><r><a/>{}<b/></r>",
        "&e;".repeat(n)
    );
    let doc = linear("parse", || parse_unlimited(&text));
    let r = doc.root_element().expect("a root element");
    assert_eq!(r.children().count(), n + 2);
    let nf = n as f64;
    assert_eq!(number(&doc, "count(/r/text())"), 1.0);
    assert_eq!(number(&doc, "count(//node())"), 4.0);
    assert_eq!(number(&doc, "count(/r/a/following-sibling::node())"), 2.0);
    assert_eq!(number(&doc, "count(/r/b/preceding::node())"), 2.0);
    assert_eq!(number(&doc, "count(/r/node()[last()])"), 1.0);
    assert_eq!(number(&doc, "string-length(/r/text())"), 2.0 * nf);
    assert_eq!(number(&doc, "string-length(/r)"), 2.0 * nf);
    assert!(boolean(&doc, "//text() = /r"));
    // The caller's node-set holds every node of the run.
    let all: Vec<XNode<'_>> = r.children().map(XNode::Node).collect();
    let mut bindings = Bindings::new();
    bindings.variable("all", Value::NodeSet(all));
    let xpath = XPath::compile("count($all)").expect("compiles");
    let count = linear("count($all)", || xpath.evaluate_with(doc.root(), &bindings));
    assert_eq!(count.map(|v| v.to_number()), Ok(3.0));
}

/// `=` and `!=` between node-sets compared every pair of string-values.
#[test]
fn xpath_node_sets_compared_with_node_sets() {
    // The comparisons that are false (or `!=` between equal strings) tried
    // every pair.
    let doc = Document::parse(&format!("<r>{}</r>", "<a v='1'/><b v='2'/>".repeat(50_000)));
    assert!(!boolean(&doc, "//a/@v = //b/@v"));
    assert!(!boolean(&doc, "//a/@v != //a/@v"));
    assert!(!boolean(&doc, "//a/@v > //b/@v"));
    let doc = Document::parse("<r><a v='1'/><a v='x'/><b v='2'/><b v='1'/><b v='NaN'/></r>");
    assert!(boolean(&doc, "//a/@v = //b/@v"));
    assert!(boolean(&doc, "//a/@v != //a/@v"));
    assert!(boolean(&doc, "//b/@v != (//b/@v)[1]"));
    assert!(!boolean(&doc, "(//b/@v)[1] != (//b/@v)[1]"));
    assert!(boolean(&doc, "//a/@v < //b/@v"));
    assert!(boolean(&doc, "//a/@v <= (//b/@v)[2]"));
    assert!(!boolean(&doc, "//a/@v < (//b/@v)[2]"));
    assert!(boolean(&doc, "//b/@v > //a/@v"));
    assert!(boolean(&doc, "//b/@v >= //b/@v"));
    assert!(!boolean(&doc, "//a/@v > //b/@v"));
}

/// `/`, `id()`, `lang()` and the namespace axis, evaluated from every node
/// of a deep document, each walked up to the root or through the whole
/// document.
#[test]
fn xpath_functions_from_every_node_of_a_deep_document() {
    let doc = deep(25_000);
    let all = 25_002.0;
    assert_eq!(number(&doc, "count(//*[lang('en')])"), all);
    assert_eq!(number(&doc, "count(//*[id('x')])"), 0.0);
    // Every element has the `xml` namespace node only.
    assert_eq!(number(&doc, "count(//*/namespace::*)"), all);
    // A walk up to the root is short per step: deeper.
    let deeper = deep(60_000);
    assert_eq!(number(&deeper, "count(//*[/r])"), 60_002.0);
    // Each `id()` went through the whole document.
    let n = 12_000;
    let ids: String = (0..n)
        .map(|i| format!("<e xml:id='i{i}' ref='i{}'/>", n - 1 - i))
        .collect();
    let doc = Document::parse(&format!("<r>{ids}</r>"));
    assert_eq!(number(&doc, "count(//e[id(@ref)])"), n as f64);
    assert_eq!(number(&doc, "count(id(//e/@ref))"), n as f64);
}

/// `translate()` looked each character up in its second argument.
#[test]
fn xpath_translate_with_a_long_map() {
    // 200,000 different characters (noncharacters left out).
    let text: String = (0x2_0000..0x5_0D40)
        .filter(|c| c & 0xFFFE != 0xFFFE)
        .filter_map(char::from_u32)
        .collect();
    let doc = Document::parse(&format!("<r>{text}</r>"));
    let translated = evaluate(&doc, "translate(/r, /r, '')");
    assert_eq!(translated.to_xpath_string(), "");
}

// ----- ElementPath -----------------------------------------------------------

/// `[1]` and `[last()]` counted the siblings with the same tag before or
/// after each element: all of them, where every tag differs.
#[test]
fn element_path_positions_among_many_different_siblings() {
    let n = 25_000;
    let children: String = (0..n).map(|i| format!("<e{i}/>")).collect();
    let doc = Document::parse(&format!("<r>{children}<e0/></r>"));
    let r = doc.root_element().expect("a root element");
    for (path, found) in [
        ("*[1]", n),
        ("*[last()]", n),
        ("*[2]", 1),
        ("*[last()-1]", 1),
    ] {
        let path = ElementPath::compile(path).expect("the path compiles");
        assert_eq!(linear(path.as_str(), || path.findall(r).len()), found);
    }
}

/// Past 32 attributes the duplicate check goes by hash: it must still drop
/// exactly the later attributes of a name already on the tag (the first
/// 32 among them) and keep every other one, in order.
#[test]
fn duplicates_among_many_attributes_are_found_by_name() {
    let names: Vec<String> = (0..200)
        .map(|i| {
            if i % 3 == 2 {
                format!("a{}", i / 7)
            } else {
                format!("a{i}")
            }
        })
        .collect();
    let attributes: String = names.iter().map(|n| format!(" {n}='{n}'")).collect();
    let doc = Document::parse(&format!("<r{attributes}/>"));
    let mut seen = std::collections::HashSet::new();
    let kept: Vec<&str> = names
        .iter()
        .filter(|n| seen.insert(n.as_str()))
        .map(String::as_str)
        .collect();
    let root = doc.root_element().unwrap();
    let written: Vec<&str> = root.attributes().map(|a| a.name()).collect();
    assert_eq!(written, kept);
    assert_eq!(
        count_errors(&doc, ErrorCode::DuplicateAttribute),
        names.len() - kept.len()
    );
}

// ----- Writing nodes one at a time ---------------------------------------

/// Writes each element named `name` of `doc` alone (`Node::to_xml`, and
/// `Display` for every other one), under one guard: what `xml5dom query`
/// does when it prints the nodes it found.
fn each_written_alone(what: &str, doc: &Document, name: &str) -> Vec<String> {
    linear(what, || {
        doc.root()
            .descendants()
            .filter(|n| n.is_element() && n.name() == name)
            .enumerate()
            .map(|(i, n)| {
                if i % 2 == 0 {
                    n.to_xml()
                } else {
                    n.to_string()
                }
            })
            .collect()
    })
}

/// Each node written alone gathered, sorted and looked through every error
/// of the document (issue 30: `xml5dom query //title` on a feed with a bare
/// `&` in each title took 50 times as long for 8 times the items).
#[test]
fn each_node_of_a_document_with_an_error_in_each() {
    let n = 30_000;
    let items: String = (0..n)
        .map(|i| format!("<item><title>A & B {i}</title></item>"))
        .collect();
    let doc = Document::parse(&format!("<rss><channel>{items}</channel></rss>"));
    assert_eq!(count_errors(&doc, ErrorCode::BareAmpersand), n);
    let titles = each_written_alone("titles", &doc, "title");
    let expected: Vec<String> = (0..n)
        .map(|i| format!("<title>A &amp; B {i}</title>"))
        .collect();
    assert_eq!(titles, expected);
}

/// A document whose errors are all warnings is well-formed: each node
/// written alone looked through every warning to find that out.
#[test]
fn each_node_of_a_document_with_a_warning_in_each() {
    let n = 60_000;
    // DEL is a discouraged character: a warning, written as it is.
    let doc = Document::parse(&format!("<r>{}</r>", "<t>\u{7F}</t>".repeat(n)));
    assert!(doc.is_well_formed());
    assert_eq!(
        count_errors(&doc, ErrorCode::DiscouragedCharacterInInputStream),
        n
    );
    let written = each_written_alone("elements", &doc, "t");
    assert_eq!(written, vec!["<t>\u{7F}</t>".to_owned(); n]);
}

/// References to entities an unread external DTD may declare are warnings;
/// repaired output, which keeps that DTD, keeps them so. Each node written
/// alone decided it again, from every error of the document.
#[test]
fn each_node_of_a_document_that_refers_to_an_external_dtd() {
    let n = 30_000;
    let text = format!(
        "<!DOCTYPE r SYSTEM 'r.dtd'><r>{}</r>",
        "<t>&x; &</t>".repeat(n)
    );
    let doc = Document::parse(&text);
    assert_eq!(count_errors(&doc, ErrorCode::EntityInExternalSubset), n);
    // Written alone, a node has no DTD to declare `x`: the reference is
    // written as the text the tree holds.
    let written = each_written_alone("elements", &doc, "t");
    assert_eq!(written, vec!["<t>&amp;x; &amp;</t>".to_owned(); n]);
}

/// Where repaired output drops an attribute-list declaration (here one a
/// limit left unchecked), the attributes its defaults supplied are
/// written: each node written alone looked through the whole tree for the
/// elements that have them.
#[test]
fn each_node_where_the_output_drops_an_attribute_list_declaration() {
    let n = 30_000;
    let long = "a".repeat(10_001);
    let text = format!(
        "<!DOCTYPE r [<!ATTLIST e {long} CDATA 'x'>]><r>{}&</r>",
        "<e/>".repeat(n)
    );
    let doc = Document::parse(&text);
    assert_eq!(count_errors(&doc, ErrorCode::NameLengthLimit), 1);
    assert!(doc.to_xml().starts_with("<!DOCTYPE r []>"));
    let written = each_written_alone("elements", &doc, "e");
    assert_eq!(written, vec!["<e/>".to_owned(); n]);
}

/// An edited node may hold nodes from anywhere in the source: each one
/// written alone looked through the whole source for references to the
/// entities a DOCTYPE declared (which the node, written alone, is
/// without).
#[test]
fn each_edited_node_of_a_document_with_a_doctype() {
    let n = 30_000;
    let text = format!(
        "<!DOCTYPE r [<!ENTITY e 'v'>]><r>{}</r>",
        "<t>x &e;</t>".repeat(n)
    );
    let mut doc = Document::parse(&text);
    let ts: Vec<_> = doc
        .root()
        .descendants()
        .filter(|n| n.name() == "t")
        .map(|n| n.id())
        .collect();
    for t in ts {
        doc.set_attribute(t, "n", "1").expect("an element");
    }
    let written = each_written_alone("elements", &doc, "t");
    assert_eq!(written, vec!["<t n=\"1\">x v</t>".to_owned(); n]);
}
