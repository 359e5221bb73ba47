//! Tokenizer tests of our own, for behaviour the xml5lib suite does not
//! cover: the XML declaration, positions, spans, line-end and attribute-value
//! normalization, long runs, non-ASCII names, character references, CDATA,
//! the internal subset, NUL and control characters, duplicate attributes,
//! error codes and offsets, and chunk independence.
//!
//! Every expectation here was worked out by hand from the XML5 spec and the
//! design decisions in `docs/conformance.md`, not copied from the output.

use pretty_assertions::assert_eq;
use xml5dom::tokenizer::{
    tokenize, OwnedAttribute, OwnedToken, SuiteJson, TextKind, Token, TokenList, TokenSink,
    Tokenizer,
};
use xml5dom::{ParseError, Span};

// ----- Helpers -------------------------------------------------------------

/// A token or an error (code and byte offset), in output order.
#[derive(Debug, PartialEq)]
enum Ev {
    T(OwnedToken),
    E(&'static str, usize),
}

fn run(input: &str) -> TokenList {
    tokenize(input, TokenList::default())
}

fn events(input: &str) -> Vec<Ev> {
    use xml5dom::tokenizer::Event;
    run(input)
        .events
        .into_iter()
        .map(|e| match e {
            Event::Token(t) => Ev::T(t),
            Event::Error(e) => Ev::E(e.code.as_str(), e.offset),
        })
        .collect()
}

fn tokens(input: &str) -> Vec<OwnedToken> {
    run(input).tokens().cloned().collect()
}

fn errors(input: &str) -> Vec<(&'static str, usize)> {
    run(input)
        .errors()
        .map(|e| (e.code.as_str(), e.offset))
        .collect()
}

/// Errors with their line and column: (code, offset, line, column).
fn positions(input: &str) -> Vec<(&'static str, usize, u32, u32)> {
    run(input)
        .errors()
        .map(|e| (e.code.as_str(), e.offset, e.line, e.column))
        .collect()
}

fn json(input: &str) -> String {
    tokenize(input, SuiteJson::default()).finish()
}

fn feed<'a>(chunks: impl IntoIterator<Item = &'a str>) -> TokenList {
    let mut tokenizer = Tokenizer::new(TokenList::default());
    for chunk in chunks {
        tokenizer.feed(chunk);
    }
    tokenizer.finish()
}

fn sp(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

fn text(data: &str, kind: TextKind, start: usize, end: usize) -> OwnedToken {
    OwnedToken::Text {
        data: data.to_owned(),
        kind,
        span: sp(start, end),
    }
}

fn plain(data: &str, start: usize, end: usize) -> OwnedToken {
    text(data, TextKind::Plain, start, end)
}

fn char_ref(data: &str, start: usize, end: usize) -> OwnedToken {
    text(data, TextKind::CharRef, start, end)
}

fn cdata(data: &str, start: usize, end: usize) -> OwnedToken {
    text(data, TextKind::Cdata, start, end)
}

fn eof(offset: usize) -> OwnedToken {
    OwnedToken::EndOfFile { offset }
}

fn attr(name: &str, value: &str, span: Span, value_span: Option<Span>) -> OwnedAttribute {
    OwnedAttribute {
        name: name.to_owned(),
        value: value.to_owned(),
        span,
        value_span,
    }
}

fn start_tag(name: &str, attributes: Vec<OwnedAttribute>, start: usize, end: usize) -> OwnedToken {
    OwnedToken::StartTag {
        name: name.to_owned(),
        attributes,
        span: sp(start, end),
    }
}

fn empty_tag(name: &str, attributes: Vec<OwnedAttribute>, start: usize, end: usize) -> OwnedToken {
    OwnedToken::EmptyTag {
        name: name.to_owned(),
        attributes,
        span: sp(start, end),
    }
}

fn end_tag(name: &str, start: usize, end: usize) -> OwnedToken {
    OwnedToken::EndTag {
        name: name.to_owned(),
        span: sp(start, end),
    }
}

fn comment(data: &str, start: usize, end: usize) -> OwnedToken {
    OwnedToken::Comment {
        data: data.to_owned(),
        span: sp(start, end),
    }
}

fn pi(target: &str, data: &str, start: usize, end: usize) -> OwnedToken {
    OwnedToken::ProcessingInstruction {
        target: target.to_owned(),
        data: data.to_owned(),
        span: sp(start, end),
    }
}

fn decl(
    version: Option<&str>,
    encoding: Option<&str>,
    standalone: Option<&str>,
    data: &str,
    span: Span,
) -> OwnedToken {
    OwnedToken::XmlDeclaration {
        version: version.map(str::to_owned),
        encoding: encoding.map(str::to_owned),
        standalone: standalone.map(str::to_owned),
        data: data.to_owned(),
        span,
    }
}

/// A DOCTYPE: name, public id, system id, internal subset.
fn doctype(ids: [Option<&str>; 4], start: usize, end: usize) -> OwnedToken {
    let [name, public_id, system_id, internal_subset] = ids.map(|s| s.map(str::to_owned));
    OwnedToken::Doctype {
        name,
        public_id,
        system_id,
        internal_subset,
        span: sp(start, end),
    }
}

/// The attributes of the first token, which must be a start or empty tag.
fn first_attributes(input: &str) -> Vec<OwnedAttribute> {
    match tokens(input).into_iter().next() {
        Some(OwnedToken::StartTag { attributes, .. } | OwnedToken::EmptyTag { attributes, .. }) => {
            attributes
        }
        other => panic!("expected a tag, got {other:?}"),
    }
}

/// The only attribute value of the first tag.
fn only_value(input: &str) -> String {
    let attributes = first_attributes(input);
    assert_eq!(attributes.len(), 1, "{input:?}");
    attributes[0].value.clone()
}

/// The data, kind and span of a text token.
fn text_parts(token: &OwnedToken) -> (&str, TextKind, Span) {
    match token {
        OwnedToken::Text { data, kind, span } => (data, *kind, *span),
        other => panic!("expected text, got {other:?}"),
    }
}

// ----- XML declaration -----------------------------------------------------

#[test]
fn xml_declaration_full() {
    let input = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#;
    let data = r#"version="1.0" encoding="UTF-8" standalone="yes""#;
    assert_eq!(
        events(input),
        vec![
            Ev::T(decl(
                Some("1.0"),
                Some("UTF-8"),
                Some("yes"),
                data,
                sp(0, 55)
            )),
            Ev::T(eof(55)),
        ]
    );
}

#[test]
fn xml_declaration_minimal() {
    let input = r#"<?xml version="1.0"?>"#;
    assert_eq!(
        events(input),
        vec![
            Ev::T(decl(Some("1.0"), None, None, r#"version="1.0""#, sp(0, 21))),
            Ev::T(eof(21)),
        ]
    );
}

#[test]
fn xml_declaration_single_quotes() {
    let input = "<?xml version='1.0' encoding='utf-8' standalone='no'?>";
    let data = "version='1.0' encoding='utf-8' standalone='no'";
    assert_eq!(
        events(input),
        vec![
            Ev::T(decl(
                Some("1.0"),
                Some("utf-8"),
                Some("no"),
                data,
                sp(0, 54)
            )),
            Ev::T(eof(54)),
        ]
    );
}

#[test]
fn xml_declaration_whitespace_around_equals_and_before_close() {
    let input = "<?xml  version = '1.0'  ?>";
    assert_eq!(
        events(input),
        vec![
            Ev::T(decl(
                Some("1.0"),
                None,
                None,
                "version = '1.0'  ",
                sp(0, 26)
            )),
            Ev::T(eof(26)),
        ]
    );
}

#[test]
fn xml_declaration_line_ends_are_normalized_in_data() {
    let input = "<?xml version=\"1.0\"\r\nencoding=\"UTF-8\"?>";
    assert_eq!(
        events(input),
        vec![
            Ev::T(decl(
                Some("1.0"),
                Some("UTF-8"),
                None,
                "version=\"1.0\"\nencoding=\"UTF-8\"",
                sp(0, 39),
            )),
            Ev::T(eof(39)),
        ]
    );
}

#[test]
fn xml_declaration_after_tab_and_crlf() {
    let tab = "<?xml\tversion=\"1.0\"?>";
    assert_eq!(
        tokens(tab)[0],
        decl(Some("1.0"), None, None, "version=\"1.0\"", sp(0, 21))
    );
    let crlf = "<?xml\r\nversion=\"1.0\"?>";
    assert_eq!(
        tokens(crlf)[0],
        decl(Some("1.0"), None, None, "version=\"1.0\"", sp(0, 22))
    );
    assert_eq!(errors(tab), vec![]);
    assert_eq!(errors(crlf), vec![]);
}

#[test]
fn xml_declaration_not_at_start_is_still_a_declaration() {
    let input = r#"<a/><?xml version="1.0"?>"#;
    assert_eq!(
        events(input),
        vec![
            Ev::T(empty_tag("a", vec![], 0, 4)),
            Ev::T(decl(Some("1.0"), None, None, r#"version="1.0""#, sp(4, 25))),
            Ev::T(eof(25)),
        ]
    );
}

#[test]
fn xml_declaration_prints_as_pi_in_suite_json() {
    assert_eq!(
        json(r#"<?xml version="1.0" encoding="UTF-8"?><a/>"#),
        r#"[["PI", "xml", "version=\"1.0\" encoding=\"UTF-8\""], ["EmptyTag", "a", {}]]"#
    );
}

#[test]
fn xml_stylesheet_is_an_ordinary_pi() {
    let input = r#"<?xml-stylesheet type="text/xsl" href="s.xsl"?>"#;
    assert_eq!(
        events(input),
        vec![
            Ev::T(pi(
                "xml-stylesheet",
                r#"type="text/xsl" href="s.xsl""#,
                0,
                47
            )),
            Ev::T(eof(47)),
        ]
    );
}

#[test]
fn pi_targets_starting_with_xml_are_ordinary_pis() {
    assert_eq!(
        events("<?xmlfoo bar?>"),
        vec![Ev::T(pi("xmlfoo", "bar", 0, 14)), Ev::T(eof(14))]
    );
    // "xml" is matched case-sensitively.
    assert_eq!(
        events(r#"<?XML version="1.0"?>"#),
        vec![Ev::T(pi("XML", r#"version="1.0""#, 0, 21)), Ev::T(eof(21))]
    );
}

#[test]
fn xml_declaration_without_pseudo_attribute_is_silently_a_pi() {
    assert_eq!(
        events("<?xml foo?>"),
        vec![Ev::T(pi("xml", "foo", 0, 11)), Ev::T(eof(11))]
    );
    assert_eq!(
        events("<?xml?>"),
        vec![Ev::T(pi("xml", "", 0, 7)), Ev::T(eof(7))]
    );
    assert_eq!(
        events("<?xml ?>"),
        vec![Ev::T(pi("xml", "", 0, 8)), Ev::T(eof(8))]
    );
    // `vers` is not a pseudo-attribute name, so nothing was recognized.
    assert_eq!(
        events(r#"<?xml vers="1"?>"#),
        vec![Ev::T(pi("xml", r#"vers="1""#, 0, 16)), Ev::T(eof(16))]
    );
}

#[test]
fn xml_declaration_unquoted_value_falls_back_to_pi() {
    assert_eq!(
        events("<?xml version=1.0?>"),
        vec![
            Ev::E("invalid-xml-declaration", 14),
            Ev::T(pi("xml", "version=1.0", 0, 19)),
            Ev::T(eof(19)),
        ]
    );
}

#[test]
fn xml_declaration_missing_equals_falls_back_to_pi() {
    assert_eq!(
        events(r#"<?xml version "1.0"?>"#),
        vec![
            Ev::E("invalid-xml-declaration", 14),
            Ev::T(pi("xml", r#"version "1.0""#, 0, 21)),
            Ev::T(eof(21)),
        ]
    );
}

#[test]
fn xml_declaration_unknown_pseudo_attribute_falls_back_to_pi() {
    let input = r#"<?xml version="1.0" foo="bar"?>"#;
    assert_eq!(
        events(input),
        vec![
            Ev::E("invalid-xml-declaration", 20),
            Ev::T(pi("xml", r#"version="1.0" foo="bar""#, 0, 31)),
            Ev::T(eof(31)),
        ]
    );
}

#[test]
fn xml_declaration_keeps_a_stray_question_mark_when_it_falls_back() {
    // Once `version` is recognized, nothing of the text is lost: the `?`
    // that did not close the declaration is PI data.
    assert_eq!(
        events(r#"<?xml version="1.0"?x?>"#),
        vec![
            Ev::E("invalid-xml-declaration", 20),
            Ev::T(pi("xml", r#"version="1.0"?x"#, 0, 23)),
            Ev::T(eof(23)),
        ]
    );
    assert_eq!(
        events(r#"<?xml version="1.0"??>"#),
        vec![
            Ev::E("invalid-xml-declaration", 20),
            Ev::T(pi("xml", r#"version="1.0"?"#, 0, 22)),
            Ev::T(eof(22)),
        ]
    );
}

#[test]
fn xml_declaration_missing_version_is_still_a_declaration() {
    let input = r#"<?xml encoding="UTF-8"?>"#;
    let list = run(input);
    let codes: Vec<_> = list.errors().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, vec!["invalid-xml-declaration"]);
    let tokens: Vec<_> = list.tokens().cloned().collect();
    assert_eq!(
        tokens,
        vec![
            decl(None, Some("UTF-8"), None, r#"encoding="UTF-8""#, sp(0, 24)),
            eof(24),
        ]
    );
    // The error belongs to the declaration, so it comes before it.
    assert_eq!(
        json(input),
        r#"["ParseError", ["PI", "xml", "encoding=\"UTF-8\""]]"#
    );
}

#[test]
fn xml_declaration_out_of_order_is_invalid() {
    let input = r#"<?xml encoding="UTF-8" version="1.0"?>"#;
    assert_eq!(errors(input), vec![("invalid-xml-declaration", 23)]);
    assert_eq!(
        tokens(input),
        vec![
            decl(
                Some("1.0"),
                Some("UTF-8"),
                None,
                r#"encoding="UTF-8" version="1.0""#,
                sp(0, 38)
            ),
            eof(38),
        ]
    );
}

#[test]
fn xml_declaration_repeated_pseudo_attribute_is_invalid() {
    let input = r#"<?xml version="1.0" version="1.1"?>"#;
    assert_eq!(errors(input), vec![("invalid-xml-declaration", 20)]);
    assert_eq!(
        json(input),
        r#"["ParseError", ["PI", "xml", "version=\"1.0\" version=\"1.1\""]]"#
    );
}

#[test]
fn xml_declaration_question_mark_in_value_closes_it_abruptly() {
    assert_eq!(
        events(r#"<?xml version="1?>"#),
        vec![
            Ev::E("abrupt-closing-xml-declaration", 16),
            Ev::T(decl(Some("1"), None, None, r#"version="1"#, sp(0, 18))),
            Ev::T(eof(18)),
        ]
    );
}

#[test]
fn xml_declaration_at_end_of_input() {
    assert_eq!(errors("<?xml"), vec![("eof-in-xml-declaration", 5)]);
    assert_eq!(json("<?xml"), r#"["ParseError", ["PI", "xml", ""]]"#);
    let input = r#"<?xml version="1.0""#;
    assert_eq!(errors(input), vec![("eof-in-xml-declaration", 19)]);
    assert_eq!(
        json(input),
        r#"["ParseError", ["PI", "xml", "version=\"1.0\""]]"#
    );
    assert_eq!(tokens(input).last(), Some(&eof(19)));
}

// ----- Processing instructions ---------------------------------------------

#[test]
fn pi_question_mark_not_followed_by_gt_is_data() {
    assert_eq!(
        events("<?t a?b?>"),
        vec![Ev::T(pi("t", "a?b", 0, 9)), Ev::T(eof(9))]
    );
    assert_eq!(
        events("<?t a??>"),
        vec![Ev::T(pi("t", "a?", 0, 8)), Ev::T(eof(8))]
    );
}

#[test]
fn pi_empty_data_and_whitespace() {
    assert_eq!(
        events("<?t?>"),
        vec![Ev::T(pi("t", "", 0, 5)), Ev::T(eof(5))]
    );
    // Whitespace after the target is skipped; trailing whitespace is data.
    assert_eq!(
        events("<?t \r\n x  ?>"),
        vec![Ev::T(pi("t", "x  ", 0, 12)), Ev::T(eof(12))]
    );
}

#[test]
fn pi_at_end_of_input() {
    assert_eq!(
        events("<?a b"),
        vec![
            Ev::E("eof-in-processing-instruction", 5),
            Ev::T(pi("a", "b", 0, 5)),
            Ev::T(eof(5)),
        ]
    );
}

#[test]
fn pi_without_target_is_a_bogus_comment() {
    assert_eq!(
        events("<? x?>"),
        vec![
            Ev::E("missing-processing-instruction-target", 2),
            Ev::T(comment(" x?", 0, 6)),
            Ev::T(eof(6)),
        ]
    );
}

// ----- Positions -----------------------------------------------------------

#[test]
fn error_position_after_crlf() {
    assert_eq!(
        positions("ab\r\ncd\u{1}"),
        vec![("control-character-in-input-stream", 6, 2, 3)]
    );
}

#[test]
fn error_position_after_lone_cr() {
    assert_eq!(
        positions("ab\rcd\u{1}"),
        vec![("control-character-in-input-stream", 5, 2, 3)]
    );
}

#[test]
fn error_position_after_lf() {
    assert_eq!(
        positions("ab\ncd\u{1}"),
        vec![("control-character-in-input-stream", 5, 2, 3)]
    );
}

#[test]
fn error_position_after_mixed_line_ends() {
    // a CRLF CR b LF -> lines 1, 2, 3, 4, 5.
    assert_eq!(
        positions("a\r\n\r\rb\n\u{1}"),
        vec![("control-character-in-input-stream", 7, 5, 1)]
    );
    // LF CR is two line ends.
    assert_eq!(
        positions("a\n\rb\u{1}"),
        vec![("control-character-in-input-stream", 4, 3, 2)]
    );
}

#[test]
fn error_column_counts_characters() {
    // é is 2 bytes, € 3, 😀 4.
    assert_eq!(
        positions("é€😀\u{1}"),
        vec![("control-character-in-input-stream", 9, 1, 4)]
    );
    assert_eq!(
        positions("日本\r\n語\u{1}"),
        vec![("control-character-in-input-stream", 11, 2, 2)]
    );
    assert_eq!(
        positions("ü&#;"),
        vec![("absence-of-digits-in-numeric-character-reference", 2, 1, 2)]
    );
}

#[test]
fn error_position_at_end_of_input() {
    assert_eq!(positions("<a\r\nb='x'"), vec![("eof-in-tag", 9, 2, 6)]);
    assert_eq!(positions("<!--é"), vec![("eof-in-comment", 6, 1, 6)]);
}

#[test]
fn error_positions_of_several_errors() {
    let input = "<a x='1' x='2'>\r\n  &bogus;\r<b\0/>";
    assert_eq!(
        positions(input),
        vec![
            ("duplicate-attribute", 9, 1, 10),
            ("unknown-named-character-reference", 19, 2, 3),
            ("unexpected-null-character", 29, 3, 3),
        ]
    );
}

#[test]
fn error_positions_inside_a_duplicate_name() {
    // The control characters are reported as they are read; the duplicate
    // when its name ends, so its error comes last although it is earlier.
    assert_eq!(
        positions("\r\n<a é\u{1} é\u{1}>"),
        vec![
            ("control-character-in-input-stream", 7, 2, 5),
            ("control-character-in-input-stream", 11, 2, 8),
            ("duplicate-attribute", 9, 2, 7),
        ]
    );
}

#[test]
fn error_on_line_1000() {
    let mut input = "line\r\n".repeat(999);
    input.push_str("é<a x='1' x='2'/>");
    let list = run(&input);
    let errors: Vec<ParseError> = list.errors().copied().collect();
    assert_eq!(errors.len(), 1);
    let error = errors[0];
    assert_eq!(error.code.as_str(), "duplicate-attribute");
    assert_eq!(error.offset, 999 * 6 + 11);
    assert_eq!((error.line, error.column), (1000, 11));
}

#[test]
fn error_on_line_1000_when_fed_in_chunks() {
    let mut input = "line\r\n".repeat(999);
    input.push_str("é<a x='1' x='2'/>");
    // Chunks of 7 bytes cut every CR LF in a different place; the input is
    // ASCII apart from the last line, so cut only where a char starts.
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let mut end = (start + 7).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        chunks.push(&input[start..end]);
        start = end;
    }
    let list = feed(chunks);
    let error = *list.errors().next().unwrap();
    assert_eq!(
        (error.offset, error.line, error.column),
        (5994 + 11, 1000, 11)
    );
}

// ----- Spans ---------------------------------------------------------------

#[test]
fn spans_of_every_token_kind() {
    let input = concat!(
        r#"<?xml version="1.0"?>"#,
        r#"<!DOCTYPE r SYSTEM "r.dtd">"#,
        r#"<r a="1" b='2' c=3 d>"#,
        "t&amp;<![CDATA[c]]><!--k--><?p d?><e/></r></>",
    );
    let list = run(input);
    assert_eq!(list.errors().count(), 0);
    let raw: Vec<&str> = list.tokens().map(|t| &input[t.span().range()]).collect();
    assert_eq!(
        raw,
        vec![
            r#"<?xml version="1.0"?>"#,
            r#"<!DOCTYPE r SYSTEM "r.dtd">"#,
            r#"<r a="1" b='2' c=3 d>"#,
            "t",
            "&amp;",
            "c",
            "<!--k-->",
            "<?p d?>",
            "<e/>",
            "</r>",
            "</>",
            "",
        ]
    );
    assert_eq!(list.tokens().last(), Some(&eof(input.len())));
}

#[test]
fn attribute_spans_slice_the_input() {
    let input = r#"<r a="1" b='2' c=3 d>"#;
    let attributes = first_attributes(input);
    let spans: Vec<&str> = attributes.iter().map(|a| &input[a.span.range()]).collect();
    assert_eq!(spans, vec![r#"a="1""#, "b='2'", "c=3", "d"]);
    let values: Vec<Option<&str>> = attributes
        .iter()
        .map(|a| a.value_span.map(|s| &input[s.range()]))
        .collect();
    assert_eq!(values, vec![Some("1"), Some("2"), Some("3"), None]);
}

#[test]
fn attribute_spans_exact() {
    assert_eq!(
        tokens(r#"<a x = "v" y="">"#),
        vec![
            start_tag(
                "a",
                vec![
                    attr("x", "v", sp(3, 10), Some(sp(8, 9))),
                    attr("y", "", sp(11, 15), Some(sp(14, 14))),
                ],
                0,
                16
            ),
            eof(16),
        ]
    );
}

#[test]
fn attribute_value_span_is_raw() {
    let input = "<a x=\"a&amp;b\r\nc\" y=p&lt;q>";
    let attributes = first_attributes(input);
    assert_eq!(attributes[0].value, "a&b c");
    assert_eq!(&input[attributes[0].span.range()], "x=\"a&amp;b\r\nc\"");
    assert_eq!(
        &input[attributes[0].value_span.unwrap().range()],
        "a&amp;b\r\nc"
    );
    assert_eq!(attributes[1].value, "p<q");
    assert_eq!(&input[attributes[1].span.range()], "y=p&lt;q");
    assert_eq!(&input[attributes[1].value_span.unwrap().range()], "p&lt;q");
}

#[test]
fn unquoted_value_takes_the_solidus() {
    // The unquoted value state ends only at whitespace, `&` or `>`.
    assert_eq!(
        tokens("<a x=v/>"),
        vec![
            start_tag("a", vec![attr("x", "v/", sp(3, 7), Some(sp(5, 7)))], 0, 8),
            eof(8),
        ]
    );
}

#[test]
fn spans_keep_raw_line_ends() {
    let input = "a\r\nb<x\r\ny='1'\r/>c\rd";
    assert_eq!(
        tokens(input),
        vec![
            plain("a\nb", 0, 4),
            empty_tag(
                "x",
                vec![attr("y", "1", sp(8, 13), Some(sp(11, 12)))],
                4,
                16
            ),
            plain("c\nd", 16, 19),
            eof(19),
        ]
    );
}

#[test]
fn short_end_tag_and_end_tag_spans() {
    assert_eq!(
        events("<a></ a ></>"),
        vec![
            Ev::T(start_tag("a", vec![], 0, 3)),
            Ev::E("invalid-first-character-of-tag-name", 5),
            Ev::T(plain("</ a >", 3, 9)),
            Ev::T(OwnedToken::ShortEndTag { span: sp(9, 12) }),
            Ev::T(eof(12)),
        ]
    );
}

#[test]
fn borrowed_tokens_agree_with_owned_ones() {
    #[derive(Default)]
    struct Spans {
        spans: Vec<Span>,
        x_values: Vec<Option<String>>,
    }
    impl TokenSink for Spans {
        fn process_token(&mut self, token: Token<'_>) {
            self.spans.push(token.span());
            if let Token::StartTag(tag) | Token::EmptyTag(tag) = token {
                self.x_values
                    .push(tag.attributes.value("x").map(str::to_owned));
                assert_eq!(tag.attributes.len(), tag.attributes.iter().len());
                assert_eq!(tag.attributes.is_empty(), tag.attributes.get(0).is_none());
            }
        }
        fn parse_error(&mut self, _: ParseError) {}
    }
    let input = "<a x='1'>t<b/><c y='&lt;' x='&#x32;'/>";
    let sink = tokenize(input, Spans::default());
    let owned: Vec<Span> = run(input).tokens().map(|t| t.span()).collect();
    assert_eq!(sink.spans, owned);
    assert_eq!(
        sink.x_values,
        vec![Some("1".to_owned()), None, Some("2".to_owned())]
    );
}

// ----- Line-end normalization ----------------------------------------------

#[test]
fn line_ends_in_text() {
    assert_eq!(
        tokens("a\r\nb\rc\nd\r"),
        vec![plain("a\nb\nc\nd\n", 0, 9), eof(9)]
    );
    assert_eq!(tokens("\r\r\n\n"), vec![plain("\n\n\n", 0, 4), eof(4)]);
}

#[test]
fn line_ends_in_comment() {
    assert_eq!(
        tokens("<!--a\r\nb\rc-->"),
        vec![comment("a\nb\nc", 0, 13), eof(13)]
    );
}

#[test]
fn line_ends_in_pi() {
    assert_eq!(
        tokens("<?p a\r\nb\r?>"),
        vec![pi("p", "a\nb\n", 0, 11), eof(11)]
    );
}

#[test]
fn line_ends_in_cdata() {
    assert_eq!(
        tokens("<![CDATA[a\r\nb\rc]]>"),
        vec![cdata("a\nb\nc", 9, 15), eof(18)]
    );
}

#[test]
fn line_ends_in_doctype() {
    let input = "<!DOCTYPE a SYSTEM \"x\r\ny\" [\r\n<!ENTITY e \"v\">\r]>";
    assert_eq!(
        events(input),
        vec![
            Ev::T(doctype(
                [Some("a"), None, Some("x\ny"), Some("\n<!ENTITY e \"v\">\n")],
                0,
                47
            )),
            Ev::T(eof(47)),
        ]
    );
}

#[test]
fn line_ends_separate_tag_parts() {
    // CR alone is a line end, so it separates like LF does.
    assert_eq!(
        tokens("<a\rb=1\rc=2\r/>"),
        vec![
            empty_tag(
                "a",
                vec![
                    attr("b", "1", sp(3, 6), Some(sp(5, 6))),
                    attr("c", "2", sp(7, 10), Some(sp(9, 10))),
                ],
                0,
                13
            ),
            eof(13),
        ]
    );
}

#[test]
fn char_ref_cr_is_a_real_cr() {
    assert_eq!(
        events("a&#13;b"),
        vec![
            Ev::T(plain("a", 0, 1)),
            Ev::E("control-character-reference", 1),
            Ev::T(char_ref("\r", 1, 6)),
            Ev::T(plain("b", 6, 7)),
            Ev::T(eof(7)),
        ]
    );
}

// ----- Attribute-value normalization ---------------------------------------

#[test]
fn attribute_value_whitespace_becomes_spaces() {
    assert_eq!(only_value("<a x=\"a\tb\nc\r\nd\re\">"), "a b c d e");
    assert_eq!(only_value("<a x='a\tb\nc\r\nd\re'>"), "a b c d e");
}

#[test]
fn attribute_value_crlf_is_one_space() {
    assert_eq!(only_value("<a x=\"\r\n\">"), " ");
    assert_eq!(only_value("<a x=\" \r\n \">"), "   ");
    assert_eq!(only_value("<a x=\"\r\r\n\n\">"), "   ");
}

#[test]
fn attribute_value_is_not_trimmed_or_collapsed() {
    assert_eq!(only_value("<a x=\"  a  b  \">"), "  a  b  ");
}

#[test]
fn attribute_value_references_keep_whitespace() {
    let input = "<a x=\"&#10;&#9;&#13;&#32;&#xA;\">";
    assert_eq!(only_value(input), "\n\t\r \n");
    assert_eq!(
        positions(input),
        vec![("control-character-reference", 15, 1, 16)]
    );
}

// ----- Long runs -----------------------------------------------------------

#[test]
fn ten_megabytes_of_text_is_one_token() {
    let body = "abcdefghij".repeat(1 << 20);
    let input = format!("<a>{body}</a>");
    let tokens = tokens(&input);
    assert_eq!(tokens.len(), 4);
    assert_eq!(tokens[0], start_tag("a", vec![], 0, 3));
    let (data, kind, span) = text_parts(&tokens[1]);
    assert_eq!((kind, span), (TextKind::Plain, sp(3, 3 + body.len())));
    assert_eq!(data.len(), 10 << 20);
    assert!(data == body);
    let end = 3 + body.len();
    assert_eq!(tokens[2], end_tag("a", end, end + 4));
    assert_eq!(tokens[3], eof(end + 4));
}

#[test]
fn ten_megabytes_of_text_fed_in_chunks_is_one_token() {
    let body = "0123456789".repeat(1 << 20);
    let input = format!("<a>{body}</a>");
    let whole = run(&input);
    let chunked = feed(
        input
            .as_bytes()
            .chunks(8191)
            .map(|c| std::str::from_utf8(c).unwrap()),
    );
    assert!(chunked.events == whole.events);
    assert_eq!(chunked.tokens().count(), 4);
    let (data, _, span) = text_parts(chunked.tokens().nth(1).unwrap());
    assert_eq!(span, sp(3, 3 + (10 << 20)));
    assert!(data == body);
}

#[test]
fn many_line_ends_in_one_text_token() {
    let input = "a\r\n".repeat(300_000);
    let tokens = tokens(&input);
    assert_eq!(tokens.len(), 2);
    let (data, kind, span) = text_parts(&tokens[0]);
    assert_eq!((kind, span), (TextKind::Plain, sp(0, 900_000)));
    assert!(data == "a\n".repeat(300_000));
}

#[test]
fn one_megabyte_attribute_value() {
    let value = "v".repeat(1 << 20);
    let input = format!("<a v=\"{value}\"/>");
    let list = run(&input);
    assert_eq!(list.errors().count(), 0);
    let attributes = first_attributes(&input);
    assert_eq!(attributes.len(), 1);
    assert_eq!(attributes[0].value.len(), 1 << 20);
    assert!(attributes[0].value == value);
    assert_eq!(attributes[0].span, sp(3, 6 + (1 << 20) + 1));
    assert_eq!(attributes[0].value_span, Some(sp(6, 6 + (1 << 20))));
}

#[test]
fn one_megabyte_attribute_value_with_line_ends() {
    let input = format!("<a v='{}'/>", "ab\r\n".repeat(1 << 18));
    assert!(only_value(&input) == "ab ".repeat(1 << 18));
}

#[test]
fn one_megabyte_comment() {
    let body = "comment ".repeat(1 << 17);
    let input = format!("<!--{body}-->");
    let tokens = tokens(&input);
    assert_eq!(tokens.len(), 2);
    match &tokens[0] {
        OwnedToken::Comment { data, span } => {
            assert_eq!(data.len(), 1 << 20);
            assert!(*data == body);
            assert_eq!(*span, sp(0, input.len()));
        }
        other => panic!("expected a comment, got {other:?}"),
    }
}

#[test]
fn one_megabyte_cdata_and_pi() {
    let body = "x]y".repeat(1 << 18);
    let input = format!("<![CDATA[{body}]]><?t {body}?>");
    let tokens = tokens(&input);
    assert_eq!(tokens.len(), 3);
    let (data, kind, span) = text_parts(&tokens[0]);
    assert_eq!((kind, span), (TextKind::Cdata, sp(9, 9 + body.len())));
    assert!(data == body);
    match &tokens[1] {
        OwnedToken::ProcessingInstruction { target, data, .. } => {
            assert_eq!(target, "t");
            assert!(*data == body);
        }
        other => panic!("expected a PI, got {other:?}"),
    }
}

// ----- Non-ASCII names -----------------------------------------------------

#[test]
fn non_ascii_tag_and_attribute_names() {
    // "données" is 8 bytes, "clé" 4, "é" 2.
    assert_eq!(
        events("<données clé=\"é\">"),
        vec![
            Ev::T(start_tag(
                "données",
                vec![attr("clé", "é", sp(10, 19), Some(sp(16, 18)))],
                0,
                20
            )),
            Ev::T(eof(20)),
        ]
    );
}

#[test]
fn cjk_names() {
    // Every CJK character here is 3 bytes.
    assert_eq!(
        events("<要素 属性='値'/></要素>"),
        vec![
            Ev::T(empty_tag(
                "要素",
                vec![attr("属性", "値", sp(8, 20), Some(sp(16, 19)))],
                0,
                22
            )),
            Ev::T(end_tag("要素", 22, 31)),
            Ev::T(eof(31)),
        ]
    );
}

#[test]
fn emoji_names() {
    // Every emoji here is 4 bytes.
    assert_eq!(
        events("<😀 🎉=🎈>x</😀>"),
        vec![
            Ev::T(start_tag(
                "😀",
                vec![attr("🎉", "🎈", sp(6, 15), Some(sp(11, 15)))],
                0,
                16
            )),
            Ev::T(plain("x", 16, 17)),
            Ev::T(end_tag("😀", 17, 24)),
            Ev::T(eof(24)),
        ]
    );
}

// ----- Character references ------------------------------------------------

#[test]
fn char_ref_in_text_is_its_own_token() {
    assert_eq!(
        events("a&amp;b"),
        vec![
            Ev::T(plain("a", 0, 1)),
            Ev::T(char_ref("&", 1, 6)),
            Ev::T(plain("b", 6, 7)),
            Ev::T(eof(7)),
        ]
    );
}

#[test]
fn numeric_char_refs() {
    assert_eq!(
        events("&#65;&#x42;&#X43;"),
        vec![
            Ev::T(char_ref("A", 0, 5)),
            Ev::T(char_ref("B", 5, 11)),
            Ev::T(char_ref("C", 11, 17)),
            Ev::T(eof(17)),
        ]
    );
}

#[test]
fn named_char_ref_with_two_code_points() {
    assert_eq!(
        events("&NotEqualTilde;"),
        vec![Ev::T(char_ref("\u{2242}\u{338}", 0, 15)), Ev::T(eof(15))]
    );
}

#[test]
fn legacy_amp_without_semicolon_in_text() {
    assert_eq!(
        events("a&amp b"),
        vec![
            Ev::T(plain("a", 0, 1)),
            Ev::E("missing-semicolon-after-character-reference", 1),
            Ev::T(char_ref("&", 1, 5)),
            Ev::T(plain(" b", 5, 7)),
            Ev::T(eof(7)),
        ]
    );
    assert_eq!(
        events("&amp"),
        vec![
            Ev::E("missing-semicolon-after-character-reference", 0),
            Ev::T(char_ref("&", 0, 4)),
            Ev::T(eof(4)),
        ]
    );
}

#[test]
fn notit_in_text_is_not_plus_text() {
    assert_eq!(
        events("&notit;"),
        vec![
            Ev::E("missing-semicolon-after-character-reference", 0),
            Ev::T(char_ref("¬", 0, 4)),
            Ev::T(plain("it;", 4, 7)),
            Ev::T(eof(7)),
        ]
    );
    // The full name wins over the legacy prefix.
    assert_eq!(
        events("x&notin;"),
        vec![
            Ev::T(plain("x", 0, 1)),
            Ev::T(char_ref("∉", 1, 8)),
            Ev::T(eof(8))
        ]
    );
}

#[test]
fn notit_in_attribute_is_kept_as_written() {
    let input = "<a x=\"&notit;\">";
    assert_eq!(only_value(input), "&notit;");
    assert_eq!(errors(input), vec![]);
    assert_eq!(only_value("<a x=\"&amp=\">"), "&amp=");
    assert_eq!(errors("<a x=\"&amp=\">"), vec![]);
}

#[test]
fn legacy_ref_in_attribute_before_space() {
    let input = "<a x=\"&amp y\">";
    assert_eq!(only_value(input), "& y");
    assert_eq!(
        errors(input),
        vec![("missing-semicolon-after-character-reference", 6)]
    );
}

#[test]
fn unknown_named_ref_in_text() {
    assert_eq!(
        events("a&bogus;b"),
        vec![
            Ev::T(plain("a", 0, 1)),
            Ev::E("unknown-named-character-reference", 1),
            Ev::T(plain("&bogus;b", 1, 9)),
            Ev::T(eof(9)),
        ]
    );
}

#[test]
fn ampersand_that_is_not_a_reference() {
    assert_eq!(
        events("a & b"),
        vec![Ev::T(plain("a & b", 0, 5)), Ev::T(eof(5))]
    );
    assert_eq!(events("a&"), vec![Ev::T(plain("a&", 0, 2)), Ev::T(eof(2))]);
    assert_eq!(
        events("&<a>"),
        vec![
            Ev::T(plain("&", 0, 1)),
            Ev::T(start_tag("a", vec![], 1, 4)),
            Ev::T(eof(4)),
        ]
    );
}

#[test]
fn numeric_ref_errors() {
    assert_eq!(
        events("&#;"),
        vec![
            Ev::E("absence-of-digits-in-numeric-character-reference", 0),
            Ev::T(plain("&#;", 0, 3)),
            Ev::T(eof(3)),
        ]
    );
    assert_eq!(
        events("&#x;"),
        vec![
            Ev::E("absence-of-digits-in-numeric-character-reference", 0),
            Ev::T(plain("&#x;", 0, 4)),
            Ev::T(eof(4)),
        ]
    );
    let one = |input: &str, code: &'static str, data: &str| {
        assert_eq!(
            events(input),
            vec![
                Ev::E(code, 0),
                Ev::T(char_ref(data, 0, input.len())),
                Ev::T(eof(input.len())),
            ],
            "{input:?}"
        );
    };
    one("&#0;", "null-character-reference", "\u{FFFD}");
    one("&#xD800;", "surrogate-character-reference", "\u{FFFD}");
    one(
        "&#x110000;",
        "character-reference-outside-unicode-range",
        "\u{FFFD}",
    );
    one("&#128;", "control-character-reference", "€");
    one("&#x1;", "illegal-character-reference", "\u{1}");
    one("&#x7F;", "control-character-reference", "\u{7F}");
    one("&#13;", "control-character-reference", "\r");
    one("&#xFFFF;", "illegal-character-reference", "\u{FFFF}");
    one("&#xFDD0;", "noncharacter-character-reference", "\u{FDD0}");
    one("&#x1FFFE;", "noncharacter-character-reference", "\u{1FFFE}");
    one("&#65", "missing-semicolon-after-character-reference", "A");
}

#[test]
fn numeric_ref_without_semicolon_before_text() {
    assert_eq!(
        events("&#x41g"),
        vec![
            Ev::E("missing-semicolon-after-character-reference", 0),
            Ev::T(char_ref("A", 0, 5)),
            Ev::T(plain("g", 5, 6)),
            Ev::T(eof(6)),
        ]
    );
}

#[test]
fn text_before_a_reference_error_comes_first() {
    assert_eq!(
        events("abc&#0;def"),
        vec![
            Ev::T(plain("abc", 0, 3)),
            Ev::E("null-character-reference", 3),
            Ev::T(char_ref("\u{FFFD}", 3, 7)),
            Ev::T(plain("def", 7, 10)),
            Ev::T(eof(10)),
        ]
    );
}

#[test]
fn char_refs_in_attribute_values() {
    assert_eq!(only_value("<a x=\"a&lt;b&#x41;&#65;\">"), "a<bAA");
    assert_eq!(only_value("<a x='&apos;&quot;'>"), "'\"");
    assert_eq!(only_value("<a x=\"&not;\">"), "¬");
    assert_eq!(only_value("<a x=a&amp;b>"), "a&b");
    assert_eq!(only_value("<a x=\"&\">"), "&");
    assert_eq!(only_value("<a x='&'>"), "&");
    assert_eq!(errors("<a x=\"&\"><b y='&'>"), vec![]);
}

#[test]
fn bare_ampersand_as_unquoted_value() {
    assert_eq!(
        events("<a x=&>"),
        vec![
            Ev::T(start_tag(
                "a",
                vec![attr("x", "&", sp(3, 6), Some(sp(5, 6)))],
                0,
                7
            )),
            Ev::T(eof(7)),
        ]
    );
    assert_eq!(only_value("<a x=b&>"), "b&");
}

#[test]
fn char_refs_coalesce_in_suite_json() {
    assert_eq!(json("a&amp;b&#x43;"), r#"[["Character", "a&bC"]]"#);
}

/// A sink that takes references to the predefined entities inside runs of
/// text (`TokenSink::REFERENCES_IN_TEXT`), as the tree builder does.
#[derive(Default)]
struct Joining(TokenList);

impl TokenSink for Joining {
    const REFERENCES_IN_TEXT: bool = true;

    fn process_token(&mut self, token: Token<'_>) {
        self.0.process_token(token);
    }

    fn parse_error(&mut self, error: ParseError) {
        self.0.parse_error(error);
    }
}

fn joined(input: &str) -> TokenList {
    tokenize(input, Joining::default()).0
}

#[test]
fn predefined_references_join_the_text_for_a_sink_that_asks() {
    // <p> 0..3, "a " 3..5, &amp; 5..10, " b " 10..13, &lt; 13..17, "c"
    // 17..18, &#233; 18..24, &nbsp; 24..30, "d" 30..31, </p> 31..35.
    let input = "<p>a &amp; b &lt;c&#233;&nbsp;d</p>";
    let end_tag = |start| OwnedToken::EndTag {
        name: "p".to_owned(),
        span: sp(start, start + 4),
    };
    assert_eq!(
        joined(input).tokens().cloned().collect::<Vec<_>>(),
        vec![
            start_tag("p", vec![], 0, 3),
            // The five predefined entities only: a numeric reference and
            // an HTML name (which XML does not know) stay pieces of their
            // own, for the tree builder to check.
            text("a & b <c", TextKind::Plain, 3, 18),
            text("\u{e9}", TextKind::CharRef, 18, 24),
            text("\u{a0}", TextKind::CharRef, 24, 30),
            text("d", TextKind::Plain, 30, 31),
            end_tag(31),
            eof(35),
        ]
    );
    // Other sinks get every reference as a piece.
    assert_eq!(
        tokens(input),
        vec![
            start_tag("p", vec![], 0, 3),
            text("a ", TextKind::Plain, 3, 5),
            text("&", TextKind::CharRef, 5, 10),
            text(" b ", TextKind::Plain, 10, 13),
            text("<", TextKind::CharRef, 13, 17),
            text("c", TextKind::Plain, 17, 18),
            text("\u{e9}", TextKind::CharRef, 18, 24),
            text("\u{a0}", TextKind::CharRef, 24, 30),
            text("d", TextKind::Plain, 30, 31),
            end_tag(31),
            eof(35),
        ]
    );
    // A reference with an error (no `;`) stays a piece, with its error.
    let input = "<p>a &amp b</p>";
    let list = joined(input);
    assert_eq!(
        list.tokens().nth(2),
        Some(&text("&", TextKind::CharRef, 5, 9))
    );
    assert_eq!(
        list.errors()
            .map(|e| (e.code.as_str(), e.offset))
            .collect::<Vec<_>>(),
        errors(input)
    );
}

#[test]
fn long_text_with_references_goes_to_a_joining_sink_in_pieces() {
    // 1.1 MB of one text node: the tokenizer's copy of text with references
    // resolved in it is cut into pieces of about 64 KiB, which tile the
    // text, whole or fed in chunks.
    let line = "x &amp; y &lt;\n";
    let body = line.repeat(75_000);
    let input = format!("<p>{body}</p>");
    let expected = "x & y <\n".repeat(75_000);
    let whole = joined(&input);
    let mut chunked = Tokenizer::new(Joining::default());
    for chunk in input.as_bytes().chunks(8191) {
        chunked.feed(std::str::from_utf8(chunk).expect("ASCII"));
    }
    let chunked = chunked.finish().0;
    for list in [&whole, &chunked] {
        let pieces: Vec<_> = list
            .tokens()
            .filter(|t| matches!(t, OwnedToken::Text { .. }))
            .map(text_parts)
            .collect();
        assert!(pieces.len() >= 9, "{} pieces", pieces.len());
        let mut at = 3;
        let mut data = String::new();
        for (piece, kind, span) in pieces {
            assert_eq!((kind, span.start), (TextKind::Plain, at));
            assert!(piece.len() <= 2 * 64 * 1024, "a piece of {}", piece.len());
            at = span.end;
            data.push_str(piece);
        }
        assert_eq!(at, 3 + body.len());
        assert!(data == expected);
        assert_eq!(list.errors().count(), 0);
    }
}

#[test]
fn predefined_references_in_attribute_values() {
    // The fast path of attributes reads them too: the values, spans and
    // errors (none) are the value states'. `href` 3..26 (its value 9..25:
    // `?q=1` 9..13, `&amp;` 13..18, `n=2` 18..21, `&lt;` 21..25), `t`
    // 27..44 (its value 30..43).
    let input = r#"<a href="?q=1&amp;n=2&lt;" t='&quot;x&apos;'>"#;
    assert_eq!(
        events(input),
        vec![
            Ev::T(start_tag(
                "a",
                vec![
                    attr("href", "?q=1&n=2<", sp(3, 26), Some(sp(9, 25))),
                    attr("t", "\"x'", sp(27, 44), Some(sp(30, 43))),
                ],
                0,
                45
            )),
            Ev::T(eof(45)),
        ]
    );
    // A reference of another kind after one: the value state goes on.
    assert_eq!(only_value("<a x='&amp;&#65;&nbsp;b'>"), "&A\u{a0}b");
    assert_eq!(only_value("<a x='&amp;&amp'>"), "&&");
}

// ----- CDATA ---------------------------------------------------------------

#[test]
fn cdata_is_its_own_kind_and_span_excludes_delimiters() {
    assert_eq!(
        events("a<![CDATA[b]]>c"),
        vec![
            Ev::T(plain("a", 0, 1)),
            Ev::T(cdata("b", 10, 11)),
            Ev::T(plain("c", 14, 15)),
            Ev::T(eof(15)),
        ]
    );
}

#[test]
fn cdata_does_not_resolve_references_or_tags() {
    assert_eq!(
        events("<![CDATA[x<y&amp;]]>"),
        vec![Ev::T(cdata("x<y&amp;", 9, 17)), Ev::T(eof(20))]
    );
}

#[test]
fn cdata_brackets() {
    assert_eq!(
        events("<![CDATA[a]b]]c]]]>"),
        vec![Ev::T(cdata("a]b]]c]", 9, 16)), Ev::T(eof(19))]
    );
}

#[test]
fn cdata_empty_gives_no_text() {
    assert_eq!(events("<![CDATA[]]>"), vec![Ev::T(eof(12))]);
}

#[test]
fn cdata_at_end_of_input() {
    assert_eq!(
        events("<![CDATA[abc"),
        vec![
            Ev::T(cdata("abc", 9, 12)),
            Ev::E("eof-in-cdata", 12),
            Ev::T(eof(12)),
        ]
    );
}

#[test]
fn cdata_is_case_sensitive() {
    assert_eq!(
        events("<![cdata[x]]>"),
        vec![
            Ev::E("incorrectly-opened-comment", 2),
            Ev::T(comment("[cdata[x]]", 0, 13)),
            Ev::T(eof(13)),
        ]
    );
}

// ----- DOCTYPE and the internal subset -------------------------------------

#[test]
fn doctype_public_and_system() {
    let input = r#"<!DOCTYPE a PUBLIC "p" 's'>"#;
    assert_eq!(
        events(input),
        vec![
            Ev::T(doctype([Some("a"), Some("p"), Some("s"), None], 0, 27)),
            Ev::T(eof(27)),
        ]
    );
}

#[test]
fn internal_subset_with_bracket_gt_in_literal() {
    let input = r#"<!DOCTYPE a [<!ENTITY x "]>">]>"#;
    assert_eq!(
        events(input),
        vec![
            Ev::T(doctype(
                [Some("a"), None, None, Some(r#"<!ENTITY x "]>">"#)],
                0,
                31
            )),
            Ev::T(eof(31)),
        ]
    );
    let single = "<!DOCTYPE a [<!ENTITY x ']>'>]>";
    assert_eq!(
        tokens(single)[0],
        doctype([Some("a"), None, None, Some("<!ENTITY x ']>'>")], 0, 31)
    );
}

#[test]
fn internal_subset_without_space_after_name() {
    let input = "<!DOCTYPE a[<!ELEMENT a ANY>]>";
    assert_eq!(
        events(input),
        vec![
            Ev::T(doctype(
                [Some("a"), None, None, Some("<!ELEMENT a ANY>")],
                0,
                30
            )),
            Ev::T(eof(30)),
        ]
    );
}

#[test]
fn internal_subset_skips_comments_and_pis() {
    let input = "<!DOCTYPE a [<!-- ]> --><?p ]> ?>]><a/>";
    assert_eq!(
        events(input),
        vec![
            Ev::T(doctype(
                [Some("a"), None, None, Some("<!-- ]> --><?p ]> ?>")],
                0,
                35
            )),
            Ev::T(empty_tag("a", vec![], 35, 39)),
            Ev::T(eof(39)),
        ]
    );
}

#[test]
fn internal_subset_counts_brackets() {
    let subset = "<![INCLUDE[<!ELEMENT a ANY>]]>";
    let input = format!("<!DOCTYPE a [{subset}]>");
    assert_eq!(
        events(&input),
        vec![
            // XML allows conditional sections only in the external subset.
            Ev::E("malformed-declaration", 13),
            Ev::T(doctype(
                [Some("a"), None, None, Some(subset)],
                0,
                input.len()
            )),
            Ev::T(eof(input.len())),
        ]
    );
}

#[test]
fn internal_subset_after_ids() {
    let public = "-//W3C//DTD XHTML 1.0 Strict//EN";
    let system = "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd";
    let input = format!("<!DOCTYPE html PUBLIC \"{public}\" \"{system}\" [<!ENTITY e \"v\">]>");
    assert_eq!(
        events(&input),
        vec![
            Ev::T(doctype(
                [
                    Some("html"),
                    Some(public),
                    Some(system),
                    Some("<!ENTITY e \"v\">")
                ],
                0,
                input.len()
            )),
            Ev::T(eof(input.len())),
        ]
    );
    let input = "<!DOCTYPE a SYSTEM \"a.dtd\"[<!ENTITY e 'v'>]>";
    assert_eq!(
        tokens(input)[0],
        doctype(
            [Some("a"), None, Some("a.dtd"), Some("<!ENTITY e 'v'>")],
            0,
            44
        )
    );
}

#[test]
fn internal_subset_cut_short_by_content() {
    let input = "<!DOCTYPE a [<!ENTITY e \"v\"><a>t</a>";
    assert_eq!(
        events(input),
        vec![
            Ev::E("unterminated-doctype-internal-subset", 28),
            Ev::T(doctype(
                [Some("a"), None, None, Some("<!ENTITY e \"v\">")],
                0,
                28
            )),
            Ev::T(start_tag("a", vec![], 28, 31)),
            Ev::T(plain("t", 31, 32)),
            Ev::T(end_tag("a", 32, 36)),
            Ev::T(eof(36)),
        ]
    );
}

#[test]
fn internal_subset_cut_short_by_non_ascii_tag() {
    assert_eq!(
        events("<!DOCTYPE a [ <é/>"),
        vec![
            Ev::E("unterminated-doctype-internal-subset", 14),
            Ev::T(doctype([Some("a"), None, None, Some(" ")], 0, 14)),
            Ev::T(empty_tag("é", vec![], 14, 19)),
            Ev::T(eof(19)),
        ]
    );
}

#[test]
fn internal_subset_at_end_of_input() {
    assert_eq!(
        events("<!DOCTYPE a [<!ENTITY"),
        vec![
            Ev::E("eof-in-doctype", 21),
            // The declarations are read when the DOCTYPE ends.
            Ev::E("malformed-declaration", 13),
            Ev::T(doctype([Some("a"), None, None, Some("<!ENTITY")], 0, 21)),
            Ev::T(eof(21)),
        ]
    );
}

#[test]
fn text_after_internal_subset() {
    assert_eq!(
        events("<!DOCTYPE a [] x>"),
        vec![
            Ev::E("unexpected-character-after-doctype-internal-subset", 15),
            Ev::T(doctype([Some("a"), None, None, Some("")], 0, 17)),
            Ev::T(eof(17)),
        ]
    );
}

#[test]
fn doctype_name_is_ascii_lowercased() {
    assert_eq!(
        tokens("<!DOCTYPE Svg:SVG>")[0],
        doctype([Some("svg:svg"), None, None, None], 0, 18)
    );
    // Only ASCII letters are lowercased; "É" is 2 bytes.
    assert_eq!(
        tokens("<!DOCTYPE ÉA>")[0],
        doctype([Some("Éa"), None, None, None], 0, 14)
    );
}

#[test]
fn doctype_keywords_are_case_sensitive() {
    assert_eq!(
        events(r#"<!DOCTYPE HTML public "x">"#),
        vec![
            Ev::E("invalid-character-sequence-after-doctype-name", 15),
            Ev::T(doctype([Some("html"), None, None, None], 0, 26)),
            Ev::T(eof(26)),
        ]
    );
    assert_eq!(
        errors(r#"<!DOCTYPE a System "x">"#),
        vec![("invalid-character-sequence-after-doctype-name", 12)]
    );
}

#[test]
fn doctype_missing_whitespace_before_name() {
    assert_eq!(
        events("<!DOCTYPEa>"),
        vec![
            Ev::E("missing-whitespace-before-doctype-name", 9),
            Ev::T(doctype([Some("a"), None, None, None], 0, 11)),
            Ev::T(eof(11)),
        ]
    );
}

#[test]
fn doctype_nul_is_replaced_silently() {
    let input = "<!DOCTYPE a\0b SYSTEM \"x\0y\" [\0]>";
    assert_eq!(
        events(input),
        vec![
            // Not NUL (the well-formedness checks report that): what is
            // left of it is no declaration.
            Ev::E("malformed-declaration", 28),
            Ev::T(doctype(
                [
                    Some("a\u{FFFD}b"),
                    None,
                    Some("x\u{FFFD}y"),
                    Some("\u{FFFD}")
                ],
                0,
                31
            )),
            Ev::T(eof(31)),
        ]
    );
}

#[test]
fn doctype_control_character_is_still_reported() {
    assert_eq!(
        events("<!DOCTYPE a [\u{1}]>"),
        vec![
            Ev::E("control-character-in-input-stream", 13),
            Ev::E("malformed-declaration", 13),
            Ev::T(doctype([Some("a"), None, None, Some("\u{1}")], 0, 16)),
            Ev::T(eof(16)),
        ]
    );
}

// ----- NUL, control characters and noncharacters ---------------------------

#[test]
fn nul_in_text() {
    assert_eq!(
        events("a\0b"),
        vec![
            Ev::T(plain("a", 0, 1)),
            Ev::E("unexpected-null-character", 1),
            Ev::T(plain("\u{FFFD}b", 1, 3)),
            Ev::T(eof(3)),
        ]
    );
}

#[test]
fn nul_in_tag_and_attribute() {
    assert_eq!(
        events("<a\0b \0=\"\0\"/>"),
        vec![
            Ev::E("unexpected-null-character", 2),
            Ev::E("unexpected-null-character", 5),
            Ev::E("unexpected-null-character", 8),
            Ev::T(empty_tag(
                "a\u{FFFD}b",
                vec![attr("\u{FFFD}", "\u{FFFD}", sp(5, 10), Some(sp(8, 9)))],
                0,
                12
            )),
            Ev::T(eof(12)),
        ]
    );
}

#[test]
fn nul_in_end_tag_comment_pi_cdata() {
    assert_eq!(
        events("</a\0>"),
        vec![
            Ev::E("unexpected-null-character", 3),
            Ev::T(end_tag("a\u{FFFD}", 0, 5)),
            Ev::T(eof(5)),
        ]
    );
    assert_eq!(
        events("<!--\0-->"),
        vec![
            Ev::E("unexpected-null-character", 4),
            Ev::T(comment("\u{FFFD}", 0, 8)),
            Ev::T(eof(8)),
        ]
    );
    assert_eq!(
        events("<?a\0 b\0?>"),
        vec![
            Ev::E("unexpected-null-character", 3),
            Ev::E("unexpected-null-character", 6),
            Ev::T(pi("a\u{FFFD}", "b\u{FFFD}", 0, 9)),
            Ev::T(eof(9)),
        ]
    );
    assert_eq!(
        events("<![CDATA[\0]]>"),
        vec![
            Ev::E("unexpected-null-character", 9),
            Ev::T(cdata("\u{FFFD}", 9, 10)),
            Ev::T(eof(13)),
        ]
    );
}

#[test]
fn control_characters_are_reported_and_kept() {
    for (c, code) in [
        ('\u{1}', "control-character-in-input-stream"),
        ('\u{8}', "control-character-in-input-stream"),
        ('\u{B}', "control-character-in-input-stream"),
        ('\u{E}', "control-character-in-input-stream"),
        ('\u{1F}', "control-character-in-input-stream"),
        // XML allows DEL, and discourages it: a warning of its own.
        ('\u{7F}', "discouraged-character-in-input-stream"),
    ] {
        let input = format!("a{c}");
        assert_eq!(
            events(&input),
            vec![
                Ev::T(plain("a", 0, 1)),
                Ev::E(code, 1),
                Ev::T(plain(&c.to_string(), 1, 2)),
                Ev::T(eof(2)),
            ],
            "U+{:04X}",
            c as u32
        );
    }
}

#[test]
fn noncharacters_are_reported_and_kept() {
    for (c, code) in [
        ('\u{FDD0}', "noncharacter-in-input-stream"),
        ('\u{FDEF}', "noncharacter-in-input-stream"),
        // Not XML characters at all.
        ('\u{FFFE}', "illegal-character-in-input-stream"),
        ('\u{FFFF}', "illegal-character-in-input-stream"),
        ('\u{1FFFE}', "noncharacter-in-input-stream"),
        ('\u{10FFFF}', "noncharacter-in-input-stream"),
    ] {
        let input = c.to_string();
        assert_eq!(
            events(&input),
            vec![
                Ev::E(code, 0),
                Ev::T(plain(&input, 0, input.len())),
                Ev::T(eof(input.len())),
            ],
            "U+{:04X}",
            c as u32
        );
    }
}

#[test]
fn allowed_characters_are_not_errors() {
    // Tab, LF, CR, form feed, C1 controls, the neighbours of the
    // noncharacter ranges.
    let input = "\t\n\r\u{C}\u{80}\u{9F}\u{FDCF}\u{FDF0}\u{FFFD}\u{10FFFD}";
    assert_eq!(errors(input), vec![]);
    assert_eq!(tokens(input).len(), 2);
}

#[test]
fn control_characters_in_markup() {
    assert_eq!(
        errors("<a x=\"\u{7}\"><!--\u{FFFE}-->"),
        vec![
            ("control-character-in-input-stream", 6),
            ("illegal-character-in-input-stream", 13),
        ]
    );
    assert_eq!(only_value("<a x=\"\u{7}\">"), "\u{7}");
}

// ----- Duplicate attributes ------------------------------------------------

#[test]
fn duplicate_attribute_is_dropped() {
    assert_eq!(
        events("<a x=\"1\" x=\"2\" y=\"3\">"),
        vec![
            Ev::E("duplicate-attribute", 9),
            Ev::T(start_tag(
                "a",
                vec![
                    attr("x", "1", sp(3, 8), Some(sp(6, 7))),
                    attr("y", "3", sp(15, 20), Some(sp(18, 19))),
                ],
                0,
                21
            )),
            Ev::T(eof(21)),
        ]
    );
}

#[test]
fn duplicate_attribute_without_value() {
    assert_eq!(
        events("<a x x/>"),
        vec![
            Ev::E("duplicate-attribute", 5),
            Ev::T(empty_tag("a", vec![attr("x", "", sp(3, 4), None)], 0, 8)),
            Ev::T(eof(8)),
        ]
    );
}

#[test]
fn duplicate_attributes_among_hundreds() {
    let mut input = String::from("<a");
    for i in 0..300 {
        input.push_str(&format!(" a{i}=\"{i}\""));
    }
    let dup_early = input.len() + 1;
    input.push_str(" a5=\"x\"");
    let dup_late = input.len() + 1;
    input.push_str(" a299=\"y\"");
    let dup_dup = input.len() + 1;
    input.push_str(" a5=\"z\"/>");
    assert_eq!(
        errors(&input),
        vec![
            ("duplicate-attribute", dup_early),
            ("duplicate-attribute", dup_late),
            ("duplicate-attribute", dup_dup),
        ]
    );
    let attributes = first_attributes(&input);
    assert_eq!(attributes.len(), 300);
    for (i, a) in attributes.iter().enumerate() {
        assert_eq!(
            (a.name.as_str(), a.value.as_str()),
            (&*format!("a{i}"), &*i.to_string())
        );
    }
}

#[test]
fn distinct_attributes_after_many_are_kept() {
    let mut input = String::from("<a");
    for i in 0..1000 {
        input.push_str(&format!(" n{i}='{i}'"));
    }
    input.push('>');
    assert_eq!(errors(&input), vec![]);
    assert_eq!(first_attributes(&input).len(), 1000);
}

// ----- Error codes and offsets ---------------------------------------------

#[test]
fn colon_before_attribute_name() {
    assert_eq!(
        events("<a :b=\"1\">"),
        vec![
            Ev::E("colon-before-attr", 3),
            Ev::T(start_tag(
                "a",
                vec![attr("b", "1", sp(4, 9), Some(sp(7, 8)))],
                0,
                10
            )),
            Ev::T(eof(10)),
        ]
    );
}

#[test]
fn eof_in_tag() {
    assert_eq!(errors("<a b=\"c"), vec![("eof-in-tag", 7)]);
    assert_eq!(errors("<a"), vec![("eof-in-tag", 2)]);
    assert_eq!(errors("<a b"), vec![("eof-in-tag", 4)]);
    assert_eq!(errors("</a "), vec![("eof-in-tag", 4)]);
    assert_eq!(tokens("<a b=\"c").last(), Some(&eof(7)));
}

#[test]
fn comment_errors() {
    assert_eq!(
        events("<!--abc"),
        vec![
            Ev::E("eof-in-comment", 7),
            Ev::T(comment("abc", 0, 7)),
            Ev::T(eof(7)),
        ]
    );
    assert_eq!(
        events("<!-- <!-- x -->"),
        vec![
            Ev::E("nested-comment", 9),
            Ev::T(comment(" <!-- x ", 0, 15)),
            Ev::T(eof(15)),
        ]
    );
    assert_eq!(
        events("<!--a--!>"),
        vec![
            Ev::E("incorrectly-closed-comment", 8),
            Ev::T(comment("a", 0, 9)),
            Ev::T(eof(9)),
        ]
    );
    assert_eq!(
        events("<!-->"),
        vec![
            Ev::E("abrupt-closing-of-empty-comment", 4),
            Ev::T(comment("", 0, 5)),
            Ev::T(eof(5)),
        ]
    );
    assert_eq!(
        events("<!x>"),
        vec![
            Ev::E("incorrectly-opened-comment", 2),
            Ev::T(comment("x", 0, 4)),
            Ev::T(eof(4)),
        ]
    );
    // `--` inside a comment is fine.
    assert_eq!(
        events("<!--a--b-->"),
        vec![Ev::T(comment("a--b", 0, 11)), Ev::T(eof(11))]
    );
}

#[test]
fn invalid_first_character_of_tag_name() {
    assert_eq!(
        events("a < b"),
        vec![
            Ev::T(plain("a ", 0, 2)),
            Ev::E("invalid-first-character-of-tag-name", 3),
            Ev::T(plain("< b", 2, 5)),
            Ev::T(eof(5)),
        ]
    );
    assert_eq!(
        events("<>"),
        vec![
            Ev::E("invalid-first-character-of-tag-name", 1),
            Ev::T(plain("<>", 0, 2)),
            Ev::T(eof(2)),
        ]
    );
}

#[test]
fn eof_before_tag_name() {
    assert_eq!(
        events("a<"),
        vec![
            Ev::T(plain("a", 0, 1)),
            Ev::E("eof-before-tag-name", 2),
            Ev::T(plain("<", 1, 2)),
            Ev::T(eof(2)),
        ]
    );
    assert_eq!(
        events("</"),
        vec![
            Ev::E("eof-before-tag-name", 2),
            Ev::T(plain("</", 0, 2)),
            Ev::T(eof(2)),
        ]
    );
}

#[test]
fn end_tag_errors() {
    assert_eq!(
        events("</a/>"),
        vec![
            Ev::E("unexpected-solidus-in-tag", 3),
            Ev::T(end_tag("a", 0, 5)),
            Ev::T(eof(5)),
        ]
    );
    assert_eq!(
        events("</a b>"),
        vec![
            Ev::E("unexpected-character-after-end-tag-name", 4),
            Ev::T(end_tag("a", 0, 6)),
            Ev::T(eof(6)),
        ]
    );
}

#[test]
fn solidus_in_start_tag() {
    let list = run("<a / b>");
    let codes: Vec<_> = list.errors().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, vec!["unexpected-solidus-in-tag"]);
}

#[test]
fn empty_input() {
    assert_eq!(events(""), vec![Ev::T(eof(0))]);
    assert_eq!(feed([]).events, run("").events);
    assert_eq!(feed(["", "", ""]).events, run("").events);
}

// ----- Chunk independence --------------------------------------------------

/// Feeding `input` split in two at every character boundary, one character
/// at a time, and with empty chunks in between gives exactly the events of
/// `tokenize`.
fn assert_chunk_independent(input: &str) {
    let whole = run(input);
    for (i, _) in input.char_indices().skip(1) {
        let (a, b) = input.split_at(i);
        assert_eq!(
            feed([a, b]).events,
            whole.events,
            "split at byte {i} of {input:?}"
        );
    }
    let chars: Vec<String> = input.chars().map(String::from).collect();
    let one_by_one = feed(chars.iter().flat_map(|c| [c.as_str(), ""]));
    assert_eq!(
        one_by_one.events, whole.events,
        "one char at a time: {input:?}"
    );
    assert_eq!(feed([input]).events, whole.events, "one chunk: {input:?}");
}

#[test]
fn chunks_xml_document_with_crlf() {
    assert_chunk_independent(
        "<?xml version=\"1.0\" encoding='UTF-8' standalone=\"yes\"?>\r\n<root>\r\n  text &amp; more\r\n</root>\r\n",
    );
}

#[test]
fn chunks_line_ends() {
    assert_chunk_independent("a\r\nb\rc\r\n\r\n\r\rd\n\r");
    assert_chunk_independent("\r\n<a\r\nb='\r\n'\r\n/>\r<!--\r\n-->\r<?p\r\nq\r\n?>\r");
}

#[test]
fn chunks_references() {
    assert_chunk_independent("&amp;&#x41;&#65;&notit;&bogus;&amp &#;&#x;&#0;&NotEqualTilde;&");
    assert_chunk_independent("<a x='&amp;&#x41;&notit;&amp y&#10;&' y=&lt;&>&#x1F600;z&#128512");
}

#[test]
fn chunks_multibyte() {
    assert_chunk_independent(
        "<données clé=\"é&#233;\">日本語 😀\u{1}\u{FFFE}</données><😀 🎉='🎈'/>",
    );
}

#[test]
fn chunks_internal_subset() {
    assert_chunk_independent(
        "<!DOCTYPE a [<!ENTITY x \"]>\"><!-- ]> --><?p ]>?><![INCLUDE[<!ELEMENT a ANY>]]>\r\n]><a/>",
    );
    assert_chunk_independent("<!DOCTYPE a [<!ENTITY e 'v'><é>t</é>");
    assert_chunk_independent("<!DOCTYPE HTML PUBLIC \"p\"'s'[]><!DOCTYPEb SYSTEM>");
}

#[test]
fn chunks_cdata() {
    assert_chunk_independent("<![CDATA[a]]b]]]>c<![CDATA[\r\n]]><![CDATA[x]y]]");
}

#[test]
fn chunks_comments() {
    assert_chunk_independent("<!--a--!><!-- <!-- --><!---><!--><!-- - -- --->x<!x><!--");
}

#[test]
fn chunks_attributes() {
    assert_chunk_independent("<a x=\"1\" x='2' y=z&amp; :w\r\nv=\"\t\r\n\" u=v/>");
}

#[test]
fn chunks_xml_declarations() {
    assert_chunk_independent(
        "<?xml-stylesheet href='a'?><?xmlfoo?><?xml?><?xml foo?><?xml version=\"1?><?xml version=1?>",
    );
    assert_chunk_independent(
        "<?xml encoding='x' version='1' standalone='no' ?><?xml version=\"1.0\"?x?>",
    );
    assert_chunk_independent("<?xml version=\"1.0\" encoding=\"x\" standalone=\"no\"");
    assert_chunk_independent("<?xml");
    assert_chunk_independent("<?xm");
}

#[test]
fn chunks_nul_and_controls() {
    assert_chunk_independent("\0\u{1}\u{FFFE}\u{FDD0}<a\0 b\0='\0'>\u{7F}\u{C}<!DOCTYPE \0>");
}

#[test]
fn chunks_error_soup() {
    assert_chunk_independent("</><a/></a b></a/><a / b>< a></ <? x><?t a?b??></");
}

#[test]
fn chunks_errors_after_line_ends() {
    assert_chunk_independent(
        "a\r\n\u{1}\r\u{1}\n\u{1}\r\r\n\u{1}é\u{1}\r\n<a x='\r\n' x=''/>\r&#;\r\n\0",
    );
}

#[test]
fn chunks_long_mixed_text() {
    let mut input = String::new();
    for i in 0..100 {
        input.push_str(&format!("line {i} é\r\n"));
        if i % 7 == 0 {
            input.push_str("&amp;<b/>\r");
        }
    }
    assert_chunk_independent(&input);
}

#[test]
fn internal_subset_errors_are_at_their_source_offsets() {
    // The subset is read normalized (CR LF one LF, NUL three bytes of
    // U+FFFD); its errors still point into the source, at the `<!` of each
    // malformed declaration (and at the NULs, stray text), with the
    // positions of those offsets.
    let input = "<!DOCTYPE a [\r\n<!x>\r<!y>\0\0<!z>]><a/>";
    let out = tokenize(input, TokenList::default());
    let malformed: Vec<(usize, u32, u32)> = out
        .errors()
        .filter(|e| e.code.as_str() == "malformed-declaration")
        .map(|e| (e.offset, e.line, e.column))
        .collect();
    let at = |s: &str| input.find(s).unwrap();
    assert_eq!(
        malformed,
        [
            (at("<!x"), 2, 1),
            (at("<!y"), 3, 1),
            (at("\0"), 3, 5),
            (at("<!z"), 3, 7)
        ]
    );
}
