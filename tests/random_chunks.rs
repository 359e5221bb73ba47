//! Randomized checks of the tokenizer's two promises that no single case can
//! show: any input runs to the end without panicking, with every span inside
//! the input on character boundaries; and feeding the input in chunks cut
//! anywhere gives exactly the events of tokenizing it whole.
//!
//! The inputs are generated from a fixed seed out of markup fragments, so a
//! failure reproduces; the failing input is printed.

mod common;

use common::Rng;
use xml5dom::tokenizer::{tokenize, Event, TokenList, Tokenizer};

const FRAGMENTS: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "<!",
    "<!--",
    "-->",
    "--",
    "-",
    "!",
    "<?",
    "?>",
    "?",
    "<?xml",
    " version=",
    "encoding",
    "'1.0'",
    "\"",
    "'",
    "=",
    "&",
    "&amp;",
    "&amp",
    "&#",
    "&#x",
    "&#1234;",
    "&#x1F600",
    "&notin;",
    "&noti",
    ";",
    "<![CDATA[",
    "]]>",
    "]",
    "[",
    "<!DOCTYPE",
    " PUBLIC ",
    " SYSTEM ",
    "<!ENTITY e \"v\">",
    // Declared entities: references become tokens in content and are
    // expanded in attribute values.
    "<!DOCTYPE r [<!ENTITY m 'x&amp;<b a=\"&t;\"/>'><!ENTITY t \"tt\"><!ENTITY r '&r;'>]>",
    "&m;",
    "&t;",
    "&r;",
    "&t",
    " a=\"&t;&m;&r;\"",
    "a",
    "b:c",
    "xml",
    " ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\u{0}",
    "\u{1}",
    "\u{c}",
    "é",
    "日本",
    "😀",
    "\u{FFFE}",
    "\u{FDD0}",
    "text",
    "x=1",
    ":",
    "%",
];

fn generate(rng: &mut Rng) -> String {
    let pieces = 1 + rng.below(40);
    (0..pieces)
        .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
        .collect()
}

fn chunked(input: &str, cuts: &[usize]) -> TokenList {
    let mut tokenizer = Tokenizer::new(TokenList::default());
    let mut from = 0;
    for &cut in cuts {
        tokenizer.feed(&input[from..cut]);
        from = cut;
    }
    tokenizer.feed(&input[from..]);
    tokenizer.finish()
}

fn check_spans(input: &str, out: &TokenList) {
    let mut saw_end = false;
    for event in &out.events {
        match event {
            Event::Token(token) => {
                assert!(!saw_end, "a token after EndOfFile in {input:?}");
                let span = token.span();
                assert!(
                    span.start <= span.end && span.end <= input.len(),
                    "{span:?} in {input:?}"
                );
                assert!(input.is_char_boundary(span.start) && input.is_char_boundary(span.end));
                saw_end = matches!(token, xml5dom::tokenizer::OwnedToken::EndOfFile { .. });
            }
            Event::Error(error) => {
                assert!(error.offset <= input.len(), "{error:?} in {input:?}");
                assert!(error.line >= 1 && error.column >= 1);
            }
        }
    }
    assert!(saw_end, "no EndOfFile for {input:?}");
}

#[test]
fn random_inputs_tokenize_the_same_in_any_chunks() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let input = generate(&mut rng);
        let whole = tokenize(&input, TokenList::default());
        check_spans(&input, &whole);

        let boundaries: Vec<usize> = input.char_indices().map(|(i, _)| i).skip(1).collect();
        let mut cuts: Vec<usize> = if boundaries.is_empty() {
            Vec::new()
        } else {
            (0..rng.below(6))
                .map(|_| boundaries[rng.below(boundaries.len())])
                .collect()
        };
        cuts.sort_unstable();
        cuts.dedup();
        assert_eq!(
            chunked(&input, &cuts),
            whole,
            "input {input:?} cut at {cuts:?}"
        );
    }
}

#[test]
fn errors_report_the_line_and_column_of_their_offset() {
    let mut rng = Rng(42);
    for _ in 0..5000 {
        let input = generate(&mut rng);
        for error in tokenize(&input, TokenList::default()).errors() {
            let before = &input[..error.offset];
            // CR LF, lone CR and LF each end one line.
            let normalized = before.replace("\r\n", "\n").replace('\r', "\n");
            let line = normalized.matches('\n').count() + 1;
            let column = normalized.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            // An offset between a CR and its LF cannot happen: CR LF is read as one.
            assert_eq!(
                (error.line as usize, error.column as usize),
                (line, column),
                "{error:?} in {input:?}"
            );
        }
    }
}

/// Tags built to hit the tokenizer's fast paths (a plain tag name, plain
/// `name="value"` attributes) and every way out of them: references, line
/// ends, tabs, `<`, NUL, form feeds, non-ASCII, duplicates, odd quoting,
/// whitespace around `=`, `/` and the end of the input. Fed whole (fast
/// paths taken) and one character at a time (the fast paths meet the end of
/// the window constantly and hand over to the states), they must agree.
#[test]
fn generated_tags_tokenize_the_same_whole_and_one_character_at_a_time() {
    const NAMES: &[&str] = &["a", "id", "x:y", "_n", "é", "b-1", "a", "id", ":z", "1x"];
    const VALUES: &[&str] = &[
        "v", "", "1 2", "&amp;", "a&b", "\t", "\n", "\r\n", "<", "\u{0}", "\u{c}", "é", "&#x41;",
        "'", "\"", ">",
    ];
    const SPACES: &[&str] = &[" ", "  ", "\t", "\n", "\r\n", ""];
    const ENDS: &[&str] = &[">", "/>", " />", " >", "/", "", "/x>"];
    let mut rng = Rng(0x5EED_7A65);
    for _ in 0..5_000 {
        let mut input = String::from(if rng.below(5) == 0 { "</" } else { "<" });
        input.push_str(NAMES[rng.below(NAMES.len())]);
        for _ in 0..rng.below(5) {
            input.push_str(SPACES[rng.below(SPACES.len())]);
            input.push_str(NAMES[rng.below(NAMES.len())]);
            if rng.below(6) == 0 {
                continue; // no value
            }
            input.push_str(SPACES[rng.below(4) + 2]);
            input.push('=');
            input.push_str(SPACES[rng.below(4) + 2]);
            let quote = ["\"", "'", ""][rng.below(3)];
            input.push_str(quote);
            for _ in 0..rng.below(3) {
                input.push_str(VALUES[rng.below(VALUES.len())]);
            }
            input.push_str(quote);
        }
        input.push_str(ENDS[rng.below(ENDS.len())]);
        if rng.below(2) == 0 {
            input.push_str("text</a>");
        }
        let whole = tokenize(&input, TokenList::default());
        check_spans(&input, &whole);
        let cuts: Vec<usize> = input.char_indices().map(|(i, _)| i).skip(1).collect();
        assert_eq!(chunked(&input, &cuts), whole, "input {input:?}");
    }
}
