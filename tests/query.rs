//! XPath beyond the libxml2 cases of `tests/xpath.rs`: errors (kind and
//! position), hostile expressions, documents a million levels deep, and
//! editing what a query found.

use pretty_assertions::assert_eq;
use xml5dom::query::{Bindings, Value, XNode, XPath, XPathError};
use xml5dom::Document;

fn compile_error(expression: &str) -> XPathError {
    match XPath::compile(expression) {
        Ok(_) => panic!("{expression:?} compiled"),
        Err(error) => error,
    }
}

#[test]
fn syntax_errors_point_at_the_offending_character() {
    // (expression, byte offset, message)
    let cases = [
        (
            "",
            0,
            "an expression was expected, but the expression ended",
        ),
        (
            "1 +",
            3,
            "an expression was expected, but the expression ended",
        ),
        (
            "//a[",
            4,
            "an expression was expected, but the expression ended",
        ),
        ("//a[1", 5, "`]` was expected, but the expression ended"),
        ("//a]", 3, "unexpected text after the expression"),
        ("(1", 2, "`)` was expected, but the expression ended"),
        ("'open", 0, "a string literal is not closed"),
        (
            "a b",
            2,
            "an operator (`and`, `or`, `mod`, `div`) was expected here",
        ),
        (
            "//",
            2,
            "a node test was expected, but the expression ended",
        ),
        ("@", 1, "a node test was expected, but the expression ended"),
        (
            "a/",
            2,
            "a node test was expected, but the expression ended",
        ),
        ("foo::a", 0, "there is no axis of that name"),
        (
            "child::",
            7,
            "a node test was expected, but the expression ended",
        ),
        (".[1]", 1, "unexpected text after the expression"),
        ("#", 0, "unexpected character"),
        ("$", 1, "a variable name must follow `$`"),
        ("p:", 2, "a local name must follow `prefix:`"),
        ("1 = = 2", 4, "an expression was expected here"),
        ("processing-instruction(a)", 23, "`)` was expected here"),
        ("text(1)", 5, "`)` was expected here"),
        ("concat(1,)", 9, "an expression was expected here"),
        ("concat(1 2)", 9, "`,` or `)` was expected here"),
        ("'é' = ]", 7, "an expression was expected here"),
    ];
    for (expression, offset, message) in cases {
        match compile_error(expression) {
            XPathError::Syntax {
                message: got,
                offset: at,
                ..
            } => {
                assert_eq!((at, got.as_str()), (offset, message), "{expression:?}");
            }
            other => panic!("{expression:?}: {other:?}"),
        }
    }
    // Columns count characters: `é` is two bytes, one column.
    let error = compile_error("'é' = ]");
    assert_eq!((error.offset(), error.column()), (7, 7));
    assert_eq!(
        error.to_string(),
        "XPath syntax error at column 7: an expression was expected here"
    );
    let error = compile_error("'éé' = ]");
    assert_eq!((error.offset(), error.column()), (9, 8));
}

#[test]
fn unknown_functions_and_wrong_argument_counts_are_compile_errors() {
    assert_eq!(
        compile_error("count(//a) + frob(1)"),
        XPathError::UnknownFunction {
            name: "frob".into(),
            offset: 13,
            column: 14
        }
    );
    assert_eq!(
        compile_error("ext:f()"),
        XPathError::UnknownFunction {
            name: "ext:f".into(),
            offset: 0,
            column: 1
        }
    );
    let error = compile_error("  substring('abc')");
    assert_eq!(
        error.to_string(),
        "the XPath function `substring` at column 3 takes 2 to 3 argument(s), not 1"
    );
    assert!(matches!(
        compile_error("concat('a')"),
        XPathError::ArgumentCount { given: 1, .. }
    ));
    assert!(matches!(
        compile_error("true(1)"),
        XPathError::ArgumentCount { given: 1, .. }
    ));
    assert!(matches!(
        compile_error("count()"),
        XPathError::ArgumentCount { given: 0, .. }
    ));
}

#[test]
fn unbound_prefixes_and_variables_are_evaluation_errors() {
    let doc = Document::parse("<r xmlns:d='urn:d'><d:a/></r>");
    // Numbers only: a value may borrow the document, a number does not.
    let evaluate = |expression: &str, bindings: &Bindings| {
        XPath::compile(expression)
            .unwrap()
            .evaluate_with(doc.root(), bindings)
            .map(|value| value.to_number())
    };
    let none = Bindings::new();
    assert_eq!(
        evaluate("count(//q:a)", &none).unwrap_err(),
        XPathError::UnboundPrefix {
            prefix: "q".into(),
            offset: 8,
            column: 9,
            undeclared_namespace: None,
        }
    );
    assert_eq!(
        evaluate("//a[@x = $want]", &none).unwrap_err(),
        XPathError::UnboundVariable {
            name: "want".into(),
            offset: 9,
            column: 10
        }
    );
    // The document element's prefixes are bound unless turned off.
    assert_eq!(evaluate("count(//d:a)", &none), Ok(1.0));
    let mut strict = Bindings::new();
    strict.document_prefixes(false);
    assert!(matches!(
        evaluate("count(//d:a)", &strict),
        Err(XPathError::UnboundPrefix { .. })
    ));
    strict.namespace("d", "urn:d");
    assert_eq!(evaluate("count(//d:a)", &strict), Ok(1.0));
    // A caller binding wins over the document's.
    let mut other = Bindings::new();
    other.namespace("d", "urn:other");
    assert_eq!(evaluate("count(//d:a)", &other), Ok(0.0));
}

#[test]
fn values_that_are_not_node_sets_are_refused_where_node_sets_are_needed() {
    let doc = Document::parse("<a><b/></a>");
    for (expression, offset) in [("1/b", 1), ("'x'[1]", 3), ("count(1)", 0), ("b | 1", 2)] {
        let error = XPath::compile(expression)
            .unwrap()
            .evaluate(doc.root())
            .unwrap_err();
        assert!(
            matches!(error, XPathError::NotANodeSet { .. }),
            "{expression}: {error:?}"
        );
        assert_eq!(error.offset(), offset, "{expression}");
    }
}

#[test]
fn nesting_beyond_the_limit_is_an_error_not_a_stack_overflow() {
    let deep_parens = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(matches!(
        compile_error(&deep_parens),
        XPathError::TooDeep { limit: 64, .. }
    ));
    let long_sum = vec!["1"; 100_000].join("+");
    assert!(matches!(
        compile_error(&long_sum),
        XPathError::TooDeep { limit: 256, .. }
    ));
    let predicates = format!("{}1{}", "a[".repeat(5_000), "]".repeat(5_000));
    assert!(matches!(
        compile_error(&predicates),
        XPathError::TooDeep { .. }
    ));
    // Within the limit, all is well; unary minus signs cancel in pairs.
    let doc = Document::parse("<a/>");
    let fine = format!("{}1{}", "(".repeat(60), ")".repeat(60));
    assert_eq!(
        XPath::compile(&fine).unwrap().evaluate(doc.root()),
        Ok(Value::Number(1.0))
    );
    let sum = vec!["1"; 250].join("+");
    assert_eq!(
        XPath::compile(&sum).unwrap().evaluate(doc.root()),
        Ok(Value::Number(250.0))
    );
    let minuses = format!("{}1", "-".repeat(100_001));
    assert_eq!(
        XPath::compile(&minuses).unwrap().evaluate(doc.root()),
        Ok(Value::Number(-1.0))
    );
}

/// A small deterministic generator (xorshift), so the cases are the same
/// on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn random_expressions_never_panic() {
    let doc = Document::parse(
        "<r xmlns:p='urn:p' a='1'><p:x b='2'>t<y/>3<!--c--><?pi d?></p:x>\
         <y xml:lang='en-GB'>4.5</y><z/></r>",
    );
    let pieces = [
        "/",
        "//",
        ".",
        "..",
        "@",
        "*",
        "p:*",
        "p:x",
        "x",
        "y",
        "(",
        ")",
        "[",
        "]",
        ",",
        "|",
        "+",
        "-",
        "=",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        " and ",
        " or ",
        " div ",
        " mod ",
        "1",
        "0.5",
        "'s'",
        "\"t\"",
        "$v",
        "node()",
        "text()",
        "comment()",
        "processing-instruction('pi')",
        "count(",
        "sum(",
        "last()",
        "position()",
        "name(",
        "string(",
        "concat(",
        "substring(",
        "round(",
        "lang(",
        "id(",
        "translate(",
        "child::",
        "ancestor::",
        "following::",
        "preceding::",
        "namespace::",
        "attribute::",
        "self::",
        "descendant-or-self::",
        " ",
        "é",
        "::",
        ":",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut bindings = Bindings::new();
    bindings.variable("v", Value::Number(2.0));
    let (mut compiled, mut evaluated) = (0, 0);
    for _ in 0..20_000 {
        let len = 1 + rng.next() % 8;
        let expression: String = (0..len).map(|_| rng.pick(&pieces)).collect();
        if let Ok(xpath) = XPath::compile(&expression) {
            compiled += 1;
            if xpath.evaluate_with(doc.root(), &bindings).is_ok() {
                evaluated += 1;
            }
            // Evaluating from every node exercises every axis from every
            // kind of context.
            for node in doc.root().descendants() {
                let _ = xpath.evaluate_with(node, &bindings);
            }
        }
    }
    // The generator must actually reach the evaluator.
    assert!(compiled > 1_000, "{compiled} compiled");
    assert!(evaluated > 500, "{evaluated} evaluated of {compiled}");
}

#[test]
fn a_million_levels_deep_work_on_a_small_stack() {
    let depth = 1_000_000;
    let text = format!("{}<leaf/>{}", "<d>".repeat(depth), "</d>".repeat(depth));
    let result = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let doc = Document::parse(&text);
            let run = |expression: &str| {
                XPath::compile(expression)
                    .unwrap()
                    .evaluate(doc.root())
                    .unwrap()
                    .to_number()
            };
            [
                run("count(//d)"),
                run("count(//leaf/ancestor::*)"),
                run("count(//leaf/preceding::node())"),
                run("count(/d/following::node())"),
                run("count((//d)[last()]/leaf)"),
                run("string-length(string(/))"),
            ]
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(result, [1_000_000.0, 1_000_000.0, 0.0, 0.0, 1.0, 0.0]);
}

#[test]
fn query_results_can_be_edited() {
    let mut doc = Document::parse(
        "<catalog><book price='10'><title>A</title></book>\
         <book price='25'><title>B</title></book></catalog>",
    );
    let expensive: Vec<_> = XPath::compile("//book[@price > 20]")
        .unwrap()
        .select(doc.root())
        .unwrap()
        .iter()
        .filter_map(XNode::as_node)
        .map(|n| n.id())
        .collect();
    let prices: Vec<_> = XPath::compile("//@price")
        .unwrap()
        .select(doc.root())
        .unwrap()
        .iter()
        .filter_map(|n| match n {
            XNode::Attribute(a) => Some(a.element().id()),
            _ => None,
        })
        .collect();
    for id in expensive {
        doc.set_attribute(id, "sale", "yes").unwrap();
    }
    for id in prices {
        doc.set_attribute(id, "currency", "EUR").unwrap();
    }
    assert_eq!(
        doc.to_xml(),
        "<catalog><book price='10' currency=\"EUR\"><title>A</title></book>\
         <book price='25' sale=\"yes\" currency=\"EUR\"><title>B</title></book></catalog>"
    );
    // The same compiled expression, evaluated again on the edited tree.
    let on_sale = XPath::compile("string(//book[@sale='yes']/title)").unwrap();
    assert_eq!(on_sale.evaluate(doc.root()), Ok(Value::String("B".into())));
}

#[test]
fn the_xpath_data_model_leaves_out_doctypes_and_text_outside_the_root() {
    let doc = Document::parse("<!DOCTYPE r>\n<!--c-->\n<r>x</r>\n<?pi?>\n");
    let run = |expression: &str| XPath::compile(expression).unwrap().evaluate(doc.root());
    assert_eq!(run("count(/node())"), Ok(Value::Number(3.0)));
    assert_eq!(run("count(//text())"), Ok(Value::Number(1.0)));
    assert_eq!(run("string(/)"), Ok(Value::String("x".into())));
    assert_eq!(
        run("count(/r/preceding-sibling::node())"),
        Ok(Value::Number(1.0))
    );
}

#[test]
fn broken_documents_are_queried_as_xml5dom_repaired_them() {
    // `<item>` is never closed: the XML5 rules nest the second item in the
    // first, and the bare `&` stays text.
    let doc = Document::parse("<list><item>one<item>two & three</list>");
    let run = |expression: &str| XPath::compile(expression).unwrap().evaluate(doc.root());
    assert_eq!(run("count(//item)"), Ok(Value::Number(2.0)));
    assert_eq!(run("count(/list/item)"), Ok(Value::Number(1.0)));
    assert_eq!(
        run("string(//item/item)"),
        Ok(Value::String("two & three".into()))
    );
    assert_eq!(run("name(//item[2]/..)"), Ok(Value::String(String::new())));
    assert_eq!(
        run("name((//item)[2]/..)"),
        Ok(Value::String("item".into()))
    );
}
