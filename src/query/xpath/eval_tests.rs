//! The evaluator's tests: runs of text, document order and the axes,
//! through whole expressions (`XPath`) and the evaluator's helpers.

use super::*;
use crate::query::xpath::value::{in_content, run_text};
use crate::query::XPath;

/// `<r>` + `pieces` as separate text children + the rest (built by
/// edits, which put text next to text without merging it).
fn runs(before: &str, pieces: &[&str], after: &str) -> Document {
    let mut doc = Document::parse(&format!("<r>{before}<m/>{after}</r>"));
    let Some(marker) = doc.root_element().and_then(|r| {
        r.children()
            .find(|c| c.is_element() && c.name() == "m")
            .map(|m| m.id())
    }) else {
        panic!("no marker");
    };
    for piece in pieces {
        let text = doc.create_text(piece);
        doc.insert_before(marker, text).expect("insert");
    }
    doc.remove(marker).expect("remove");
    doc
}

fn eval<'a>(doc: &'a Document, expr: &str) -> Value<'a> {
    XPath::compile(expr)
        .and_then(|x| x.evaluate(doc.root()))
        .expect("evaluates")
}

fn string(doc: &Document, expr: &str) -> String {
    eval(doc, expr).to_xpath_string()
}

fn number(doc: &Document, expr: &str) -> f64 {
    eval(doc, expr).to_number()
}

#[test]
fn the_dom_keeps_the_pieces_apart() {
    let doc = runs("<a/>", &["x", "y", "z"], "<b/>");
    let r = doc.root_element().expect("root");
    assert_eq!(r.children().count(), 5);
    let texts: Vec<_> = r.children().filter(|c| c.is_text()).collect();
    assert!(visible(texts[0]));
    assert!(!visible(texts[1]) && !visible(texts[2]));
    assert!(texts.iter().all(|&t| in_content(t)));
    assert!(texts.iter().all(|&t| run_start(t) == texts[0]));
    assert_eq!(run_text(texts[0]), "xyz");
    assert!(matches!(run_text(texts[0]), Cow::Owned(_)));
    assert_eq!(run_text(texts[2]), "z");
}

#[test]
fn a_run_of_one_is_borrowed() {
    let doc = Document::parse("<r>alone<a/></r>");
    let text = doc
        .root_element()
        .and_then(|r| r.first_child())
        .expect("text");
    assert!(matches!(run_text(text), Cow::Borrowed("alone")));
    assert_eq!(run_start(text), text);
}

#[test]
fn a_run_counts_once() {
    let doc = runs("<a/>", &["x", "y", "z"], "<b/>");
    assert_eq!(number(&doc, "count(/r/text())"), 1.0);
    assert_eq!(number(&doc, "count(/r/node())"), 3.0);
    assert_eq!(number(&doc, "count(//text())"), 1.0);
    assert_eq!(number(&doc, "count(/r/node()[last()])"), 1.0);
    assert_eq!(string(&doc, "name(/r/node()[3])"), "b");
    assert_eq!(number(&doc, "count(/r/a/following-sibling::node())"), 2.0);
    assert_eq!(number(&doc, "count(/r/b/preceding-sibling::node())"), 2.0);
    assert_eq!(number(&doc, "count(/r/a/following::node())"), 2.0);
    assert_eq!(number(&doc, "count(/r/b/preceding::node())"), 2.0);
    assert_eq!(number(&doc, "count(/r/b/preceding::text())"), 1.0);
    assert_eq!(number(&doc, "count(/r/text()/following-sibling::*)"), 1.0);
    assert_eq!(number(&doc, "count(/r/text()/preceding-sibling::*)"), 1.0);
    assert_eq!(number(&doc, "count(/descendant::node())"), 4.0);
    assert_eq!(string(&doc, "/r/text()"), "xyz");
    assert_eq!(string(&doc, "/r"), "xyz");
    assert_eq!(
        eval(&doc, "/r/text() = 'xyz'"),
        Value::Boolean(true),
        "comparisons see the whole run"
    );
    assert_eq!(number(&doc, "string-length(/r/node()[2])"), 3.0);
}

#[test]
fn the_first_node_of_a_run_is_handed_back() {
    let doc = runs("", &["x", "y"], "");
    let found = XPath::compile("/r/node()")
        .and_then(|x| x.select(doc.root()))
        .expect("selects");
    assert_eq!(found.len(), 1);
    let first = found[0].as_node().expect("a tree node");
    assert_eq!(first.text(), Some("x"));
    assert_eq!(first.prev_sibling(), None);
    assert_eq!(found[0].string_value(), "xy");
    let pieces: Vec<_> = found[0].text_run().filter_map(|n| n.text()).collect();
    assert_eq!(pieces, ["x", "y"]);
}

#[test]
fn runs_at_the_start_and_the_end() {
    let doc = runs("", &["a", "b"], "<e/>");
    assert_eq!(string(&doc, "/r/node()[1]"), "ab");
    assert_eq!(string(&doc, "name(/r/node()[2])"), "e");
    let doc = runs("<e/>", &["a", "b"], "");
    assert_eq!(string(&doc, "/r/node()[2]"), "ab");
    assert_eq!(number(&doc, "count(/r/node())"), 2.0);
    assert_eq!(string(&doc, "/r/node()[last()]"), "ab");
}

#[test]
fn a_parsed_text_node_joins_the_edited_ones() {
    // "a" comes from the parser, "b" and "c" from edits, "d" parsed.
    let doc = runs("a", &["b", "c"], "d<e/>f");
    assert_eq!(number(&doc, "count(/r/text())"), 2.0);
    assert_eq!(string(&doc, "/r/text()[1]"), "abcd");
    assert_eq!(string(&doc, "/r/text()[2]"), "f");
    assert_eq!(string(&doc, "/r/e/preceding-sibling::node()[1]"), "abcd");
}

#[test]
fn a_later_node_of_a_run_as_the_context_is_the_run() {
    let doc = runs("<a/>", &["x", "y", "z"], "");
    let Some(later) = doc.root_element().and_then(|r| r.last_child()) else {
        panic!("no text");
    };
    assert_eq!(later.text(), Some("z"));
    let at = |expr: &str| {
        XPath::compile(expr)
            .and_then(|x| x.evaluate(later))
            .expect("evaluates")
    };
    assert_eq!(at("string(.)").to_xpath_string(), "xyz");
    assert_eq!(at("count(preceding-sibling::node())").to_number(), 1.0);
    let Value::NodeSet(own) = at("self::text()") else {
        panic!("not a node-set");
    };
    assert_eq!(own.len(), 1);
    assert_eq!(own[0].as_node().and_then(|n| n.text()), Some("x"));
    assert_eq!(XNode::Node(later).string_value(), "xyz");
    assert_eq!(XNode::Node(later).text_run().count(), 3);
}

#[test]
fn later_nodes_of_a_run_in_a_variable_are_the_run() {
    let doc = runs("<a/>", &["x", "y", "z"], "<b/>");
    let Some(r) = doc.root_element() else {
        panic!("no root");
    };
    let all: Vec<XNode<'_>> = r.children().map(XNode::Node).collect();
    let mut bindings = crate::query::Bindings::new();
    bindings.variable("all", Value::NodeSet(all));
    let at = |expr: &str| {
        XPath::compile(expr)
            .and_then(|x| x.evaluate_with(doc.root(), &bindings))
            .expect("evaluates")
    };
    assert_eq!(at("count($all)").to_number(), 3.0);
    assert_eq!(at("string($all[2])").to_xpath_string(), "xyz");
    assert_eq!(at("count($all | /r/text())").to_number(), 3.0);
}

#[test]
fn text_outside_the_root_element_stays_out() {
    let doc = Document::parse("<r>a</r>\n");
    assert_eq!(number(&doc, "count(/node())"), 1.0);
    assert_eq!(string(&doc, "/"), "a");
}

/// `count()` of a path counts its last step's nodes as the axis finds
/// them (from one node, without predicates) instead of collecting them:
/// the same number as the node-set has, over every kind of node and the
/// steps that take the shortcut and those that do not.
#[test]
fn count_of_a_path_is_the_size_of_its_node_set() {
    let mut doc = Document::parse(
        "<?pi x?><!DOCTYPE r [<!ENTITY e 'E'>]><!--c--><r xmlns:p='urn:p' a='1' \
         p:b='2'>t1<p:x xml:id='i'>t2<!--c2--><y/>&e;</p:x><?q?><y a='3'><z/>t3</y>t4</r><!--after-->",
    );
    // A run of three text nodes, one in XPath.
    let y = doc
        .root_element()
        .and_then(|r| r.last_child())
        .map(|t| t.id());
    for piece in ["u", "v"] {
        let text = doc.create_text(piece);
        doc.insert_after(y.expect("text"), text).expect("insert");
    }
    let expressions = [
        "//*",
        "//node()",
        "//text()",
        "//comment()",
        "//processing-instruction()",
        "//@*",
        "//namespace::*",
        "/*",
        "/node()",
        "/descendant::node()",
        "/descendant-or-self::node()",
        "//*[@a]",
        "//*[1]",
        "//*[last()]",
        "//y/z",
        "//*/@a",
        "/*/*",
        "/*/node()",
        "//z/ancestor::*",
        "//z/ancestor-or-self::node()",
        "//z/preceding::node()",
        "//p:x/following::node()",
        "//z/following-sibling::node()",
        "//y/preceding-sibling::node()",
        "/r/y/..",
        "//@a/..",
        "//@a/ancestor::node()",
        "//*[@xml:id='i']/self::*",
        "/r/y/z/following::text()",
        "/r/text()",
        "//p:*",
        "(//y)[2]/z",
        "id('i')/node()",
        "/r/@p:b",
        "/r/namespace::p",
        "//z/parent::*",
    ];
    let mut bindings = crate::query::Bindings::new();
    bindings.namespace("p", "urn:p");
    // From the document, and from an element inside it (the relative
    // paths mean something there).
    let x = doc
        .root_element()
        .and_then(|r| r.children().find(|n| n.is_element()))
        .expect("p:x");
    for (context, expression) in expressions.iter().map(|e| (doc.root(), *e)).chain(
        [
            ".//node()",
            "node()",
            "..",
            "ancestor::node()",
            "*",
            "y/../node()",
        ]
        .map(|e| (x, e)),
    ) {
        let count = XPath::compile(&format!("count({expression})"))
            .and_then(|x| x.evaluate_with(context, &bindings))
            .expect("evaluates");
        let nodes = XPath::compile(expression)
            .and_then(|x| x.evaluate_with(context, &bindings))
            .expect("evaluates");
        let Value::NodeSet(nodes) = nodes else {
            panic!("{expression}: not a node-set");
        };
        assert!(
            !nodes.is_empty() || expression == "//processing-instruction()",
            "{expression}"
        );
        assert_eq!(count.to_number(), nodes.len() as f64, "{expression}");
    }
}
