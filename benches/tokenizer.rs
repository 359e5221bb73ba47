//! Tokenizer throughput, with the standard library only.
//!
//! Three generated inputs of about 20 MB each (deterministic: a fixed-seed
//! xorshift, nothing downloaded):
//!
//! * `records`: a data dump, many small elements with 2–5 attributes;
//! * `prose`: paragraphs with inline markup, character references
//!   (`&amp;`, `&lt;`, `&#233;`, `&eacute;`), comments and CDATA sections;
//! * `records-crlf`: the same records with CR LF line ends, which the
//!   tokenizer normalizes.
//!
//! Each is tokenized two ways into a sink that only counts: the whole input
//! at once ([`tokenize`]), and through [`Tokenizer::feed`] in 64 KiB chunks
//! cut on character boundaries. After one warm-up run, each path runs
//! `XML5DOM_BENCH_ITERS` times (default 5); the best and median throughput
//! are printed in MB/s (1 MB = 10^6 bytes of input), one line per input and
//! path. A third line per input times the whole pipeline, `Document::parse`
//! (tokenizer, tree builder, namespaces, DOM), for comparison.
//!
//! Run with `cargo bench --bench tokenizer`. Run any other way (for example
//! by `cargo test --benches`, which does not pass `--bench`) it only checks
//! that everything works, on small inputs and one iteration.

use std::hint::black_box;
use std::time::{Duration, Instant};

use xml5dom::tokenizer::{tokenize, Token, TokenSink, Tokenizer};
use xml5dom::{Document, ParseError};

/// Size of each generated input, in bytes, when benchmarking.
const INPUT_SIZE: usize = 20_000_000;

/// Size of each generated input in the quick check.
const SMOKE_SIZE: usize = 200_000;

/// Chunk size for the incremental path.
const CHUNK_SIZE: usize = 64 * 1024;

/// Iterations per input and path unless `XML5DOM_BENCH_ITERS` says otherwise.
const DEFAULT_ITERS: usize = 5;

// ---------------------------------------------------------------------------
// The sink
// ---------------------------------------------------------------------------

/// Counts tokens, parse errors and the bytes of data the tokens carry, so
/// that every string the tokenizer hands out is looked at.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counter {
    tokens: usize,
    errors: usize,
    bytes: usize,
}

impl TokenSink for Counter {
    fn process_token(&mut self, token: Token<'_>) {
        self.tokens += 1;
        let bytes = match token {
            Token::Text(text) => text.data.len(),
            Token::StartTag(tag) | Token::EmptyTag(tag) => {
                tag.name.len()
                    + tag
                        .attributes
                        .iter()
                        .map(|a| a.name.len() + a.value.len())
                        .sum::<usize>()
            }
            Token::EndTag(tag) => tag.name.len(),
            Token::ShortEndTag(_) | Token::EndOfFile(_) => 0,
            Token::Comment(comment) => comment.data.len(),
            Token::ProcessingInstruction(pi) => pi.target.len() + pi.data.len(),
            Token::XmlDeclaration(declaration) => declaration.data.len(),
            Token::Doctype(doctype) => [
                doctype.name,
                doctype.public_id,
                doctype.system_id,
                doctype.internal_subset,
            ]
            .iter()
            .flatten()
            .map(|s| s.len())
            .sum(),
        };
        self.bytes += black_box(bytes);
    }

    fn parse_error(&mut self, error: ParseError) {
        black_box(error);
        self.errors += 1;
    }
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

/// A xorshift64 generator: deterministic, good enough for test data.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "parser",
    "markup",
    "element",
    "recovers",
    "quickly",
    "from",
    "broken",
    "input",
    "while",
    "every",
    "token",
    "keeps",
    "its",
    "source",
    "span",
    "document",
    "river",
    "mountain",
    "lantern",
    "quiet",
    "harbour",
    "signal",
    "between",
    "under",
    "over",
    "window",
    "garden",
    "naïve",
    "café",
    "résumé",
    "Zürich",
    "façade",
    "coöperate",
];

const FIELDS: &[&str] = &[
    "id", "user", "ts", "score", "lang", "status", "ref", "kind", "region", "version",
];

const STATUSES: &[&str] = &["active", "closed", "pending", "archived", "deleted"];

/// A data dump: `<dump>` holding records of 2–5 attributes, some empty
/// elements and some with a short text child, one per line.
fn records(size: usize) -> String {
    let mut rng = Rng::new(0x5EED_0001);
    let mut out = String::with_capacity(size + 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dump source=\"bench\">\n");
    let mut id = 0u64;
    while out.len() < size {
        id += 1;
        let tag = if rng.below(3) == 0 { "entry" } else { "row" };
        out.push_str("  <");
        out.push_str(tag);
        out.push_str(&format!(" id=\"{id}\""));
        let extra = 1 + rng.below(4); // 2–5 attributes in all
        let first = rng.below(FIELDS.len() - 1) + 1;
        for field in FIELDS[first..].iter().chain(&FIELDS[1..first]).take(extra) {
            let value = match *field {
                "score" => format!("{}.{:02}", rng.below(100), rng.below(100)),
                "ts" => format!(
                    "2024-{:02}-{:02}T{:02}:{:02}:00Z",
                    1 + rng.below(12),
                    1 + rng.below(28),
                    rng.below(24),
                    rng.below(60)
                ),
                "status" => rng.pick(STATUSES).to_owned(),
                _ => format!("{}{}", rng.pick(WORDS), rng.below(1000)),
            };
            let quote = if rng.below(4) == 0 { '\'' } else { '"' };
            out.push_str(&format!(" {field}={quote}{value}{quote}"));
        }
        if rng.below(2) == 0 {
            out.push_str("/>");
        } else {
            out.push('>');
            for i in 0..1 + rng.below(4) {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(rng.pick(WORDS));
            }
            out.push_str("</");
            out.push_str(tag);
            out.push('>');
        }
        out.push('\n');
    }
    out.push_str("</dump>\n");
    out
}

/// Prose: sections of paragraphs with inline elements, references, comments
/// and CDATA sections.
fn prose(size: usize) -> String {
    const REFS: &[&str] = &["&amp;", "&lt;", "&#233;", "&eacute;", "&gt;", "&#x2014;"];
    let mut rng = Rng::new(0x5EED_0002);
    let mut out = String::with_capacity(size + 4096);
    out.push_str("<?xml version=\"1.0\"?>\n<book xml:lang=\"en\">\n");
    let mut section = 0;
    while out.len() < size {
        section += 1;
        out.push_str(&format!(
            "<section id=\"s{section}\">\n<title>Section {section}</title>\n"
        ));
        if rng.below(2) == 0 {
            out.push_str("<!-- editorial note: check the figures in this section -->\n");
        }
        for _ in 0..3 + rng.below(5) {
            out.push_str("<p>");
            for w in 0..40 + rng.below(80) {
                if w > 0 {
                    out.push(' ');
                }
                match rng.below(40) {
                    0 => out.push_str(&format!("<em>{}</em>", rng.pick(WORDS))),
                    1 => out.push_str(&format!(
                        "<a href=\"https://example.org/{}?q={}&amp;n={}\">{}</a>",
                        rng.pick(WORDS),
                        rng.pick(WORDS),
                        rng.below(100),
                        rng.pick(WORDS)
                    )),
                    2 => out.push_str(rng.pick(REFS)),
                    3 => out.push_str(&format!("<code>a &lt; b &amp;&amp; {}</code>", w)),
                    4 => out.push_str("<!-- aside -->"),
                    _ => out.push_str(rng.pick(WORDS)),
                }
            }
            out.push_str(".</p>\n");
        }
        if rng.below(3) == 0 {
            out.push_str(
                "<example><![CDATA[if (a < b && c > d) { print(\"<tag>\"); }\n\
                 for x in xs { y &= x; }]]></example>\n",
            );
        }
        out.push_str("</section>\n");
    }
    out.push_str("</book>\n");
    out
}

/// Cuts `input` into chunks of about `size` bytes, on character boundaries.
fn chunks(input: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::with_capacity(input.len() / size + 1);
    let mut rest = input;
    while !rest.is_empty() {
        let mut at = size.min(rest.len());
        while !rest.is_char_boundary(at) {
            at += 1;
        }
        let (chunk, tail) = rest.split_at(at);
        out.push(chunk);
        rest = tail;
    }
    out
}

// ---------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------

fn run_whole(input: &str) -> Counter {
    tokenize(black_box(input), Counter::default())
}

fn run_chunked(chunks: &[&str]) -> Counter {
    let mut tokenizer = Tokenizer::new(Counter::default());
    for chunk in chunks {
        tokenizer.feed(black_box(chunk));
    }
    tokenizer.finish()
}

/// Runs `f` once to warm up, then `iters` times; returns the last count and
/// the times sorted from fastest.
fn measure(iters: usize, mut f: impl FnMut() -> Counter) -> (Counter, Vec<Duration>) {
    let mut count = black_box(f());
    let mut times = Vec::with_capacity(iters);
    for _ in 0..iters {
        let start = Instant::now();
        count = black_box(f());
        times.push(start.elapsed());
    }
    times.sort();
    (count, times)
}

fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64()
}

fn iterations() -> usize {
    match std::env::var("XML5DOM_BENCH_ITERS") {
        Err(_) => DEFAULT_ITERS,
        Ok(text) => match text.trim().parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("XML5DOM_BENCH_ITERS must be a whole number of at least 1, not {text:?}");
                std::process::exit(2);
            }
        },
    }
}

fn main() {
    // `cargo bench` passes `--bench`; anything else is a quick check.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let (size, iters) = if benchmarking {
        (INPUT_SIZE, iterations())
    } else {
        (SMOKE_SIZE, 1)
    };

    let records = records(size);
    let records_crlf = records.replace('\n', "\r\n");
    let inputs = [
        ("records", records),
        ("prose", prose(size)),
        ("records-crlf", records_crlf),
    ];
    for (name, input) in &inputs {
        let pieces = chunks(input, CHUNK_SIZE);
        let (whole, whole_times) = measure(iters, || run_whole(input));
        let (chunked, chunked_times) = measure(iters, || run_chunked(&pieces));

        // Text may be delivered in more pieces when chunks cut it, but the
        // data and the errors must be the same.
        assert_eq!(
            (whole.bytes, whole.errors),
            (chunked.bytes, chunked.errors),
            "{name}: feeding in chunks changed the output"
        );
        assert_eq!(whole.errors, 0, "{name}: the generated input has errors");

        let mb = input.len() as f64 / 1e6;
        for (path, count, times) in [
            ("tokenize", whole, &whole_times),
            ("feed 64K", chunked, &chunked_times),
        ] {
            println!(
                "{name:<13} {mb:5.1} MB  {path:<9} best {:7.1} MB/s  median {:7.1} MB/s  \
                 ({} tokens, {} data bytes)",
                mb_per_s(input.len(), times[0]),
                mb_per_s(input.len(), times[times.len() / 2]),
                count.tokens,
                count.bytes,
            );
        }

        // The whole pipeline to a DOM, for comparison with the tokenizer.
        let mut nodes = 0;
        let mut parse_times = Vec::with_capacity(iters);
        black_box(Document::parse(input));
        for _ in 0..iters {
            let start = Instant::now();
            let doc = Document::parse(black_box(input));
            parse_times.push(start.elapsed());
            nodes = doc.root().descendants().count();
            assert!(
                doc.errors().is_empty(),
                "{name}: the generated input has errors"
            );
            drop(doc);
        }
        parse_times.sort();
        println!(
            "{name:<13} {mb:5.1} MB  {:<9} best {:7.1} MB/s  median {:7.1} MB/s  ({nodes} nodes)",
            "DOM",
            mb_per_s(input.len(), parse_times[0]),
            mb_per_s(input.len(), parse_times[parse_times.len() / 2]),
        );
    }
    if benchmarking {
        println!(
            "`cargo bench --bench tokenizer`: best and median of {iters} runs after one \
             warm-up (set XML5DOM_BENCH_ITERS to change); 1 MB = 10^6 bytes of input."
        );
    } else {
        println!("quick check only; run `cargo bench --bench tokenizer` to benchmark.");
    }
}
