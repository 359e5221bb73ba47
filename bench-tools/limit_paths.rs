//! Do a whole input and its stream run out of the entity expansion budget
//! at the same place? Generates hostile documents (entities with text,
//! balanced and unbalanced markup, nested references, attribute values
//! and defaults, 0 to 300 KB of comment before the references, random
//! expansion limits) from a fixed seed, and compares the errors of
//! `Document::parse_bytes_with` with those of `events::parse_reader` and
//! the push `Parser` fed the same bytes in random pieces (and the push
//! parser's tree with the document's).
//!
//! `cargo run --release -p bench-tools --bin limit_paths [CASES]`: prints each input
//! whose paths disagree and the count (0 since the budget is counted
//! against the input read up to each reference; 184 of 400 before).

use xml5dom::events::{self, Event};
use xml5dom::{Document, ParseError, ParseOptions, Parser};

/// A fixed-seed generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `bytes` in pieces of random sizes: mostly a few bytes, now and then a
/// few thousand.
fn pieces(bytes: &[u8], rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let most = if rng.below(8) == 0 { 4096 } else { 17 };
        let size = (1 + rng.below(most)).min(rest.len());
        out.push(rest[..size].to_vec());
        rest = &rest[size..];
    }
    out
}

fn generate(rng: &mut Rng) -> (String, ParseOptions) {
    let mut text = String::from("<!DOCTYPE r [\n");
    let entities = 1 + rng.below(5);
    for i in 0..entities {
        let body = match rng.below(6) {
            0 => "x".repeat(1 + rng.below(300)),
            1 => "<a>".to_owned(),
            2 => format!("<b>{}</b>", "y".repeat(rng.below(50))),
            3 if i > 0 => format!("&e{};", rng.below(i)).repeat(1 + rng.below(10)),
            4 if i > 0 => format!("<c>&e{};</c>", rng.below(i)).repeat(1 + rng.below(4)),
            _ => "</a>".to_owned(),
        };
        text.push_str(&format!("<!ENTITY e{i} \"{body}\">\n"));
    }
    if rng.below(3) == 0 {
        text.push_str("<!ATTLIST r d CDATA \"&e0;\">\n<!ATTLIST c d CDATA \"&e0;\">\n");
    }
    text.push_str("]>\n");
    if rng.below(2) == 0 {
        text.push_str(&format!("<!--{}-->", "p".repeat(rng.below(300_000))));
    }
    text.push_str("<r>");
    for _ in 0..rng.below(20_000) {
        match rng.below(10) {
            0 => text.push_str(&format!("<r a='&e{};'/>", rng.below(entities))),
            1 => text.push('t'),
            2 => text.push_str(&"z".repeat(rng.below(200))),
            _ => text.push_str(&format!("&e{};", rng.below(entities))),
        }
    }
    text.push_str("</r>");
    let mut options = ParseOptions::default();
    if rng.below(2) == 0 {
        options.limits.max_entity_expansion_bytes = 1 + rng.below(2_000_000);
    }
    if rng.below(3) == 0 {
        options.limits.max_entity_expansion_ratio = rng.below(40) as u32;
    }
    (text, options)
}

fn main() {
    let cases = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(400);
    let mut rng = Rng(0xABCDEF);
    let mut differ = 0;
    for case in 0..cases {
        let (text, options) = generate(&mut rng);
        let whole = Document::parse_bytes_with(text.as_bytes(), &options);
        let chunks = pieces(text.as_bytes(), &mut rng);
        let mut streamed: Vec<ParseError> = Vec::new();
        let mut stream = events::Parser::with_options(&options, |event| {
            if let Event::Error(error) = event {
                streamed.push(error);
            }
        });
        let mut push = Parser::with_options(&options);
        for chunk in &chunks {
            stream.feed(chunk);
            push.feed(chunk);
        }
        stream.end();
        drop(stream);
        let pushed = push.finish();
        let same = streamed == whole.errors()
            && pushed.errors() == whole.errors()
            && pushed.to_tree_dump() == whole.to_tree_dump();
        if !same {
            differ += 1;
            let first = streamed
                .iter()
                .zip(whole.errors())
                .position(|(a, b)| a != b);
            println!(
                "case {case} ({} bytes): {} errors whole, {} streamed, {} pushed; first difference at {first:?}",
                text.len(),
                whole.errors().len(),
                streamed.len(),
                pushed.errors().len()
            );
        }
    }
    println!("{differ} of {cases} inputs differ");
}
