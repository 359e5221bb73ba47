//! A target for profilers: parses one generated input shape a number of
//! times (or only tokenizes it), and prints the throughput. Instruction
//! counts for one parse, as docs/performance.md quotes them, are the
//! difference between one iteration and none (which only generates):
//!
//! ```sh
//! cargo build --release -p bench-tools --bin profile
//! valgrind --tool=callgrind target/release/profile records 1
//! valgrind --tool=callgrind target/release/profile records 0
//! perf record -g target/release/profile atom 20
//! target/release/profile prose 20 tokenize
//! ```
//!
//! Arguments: shape (`records`, `prose`, `svg`, `atom`, `damaged`), number of
//! parses (default 20), and `tokenize` to run the tokenizer alone,
//! `events` to run the pipeline into events (`xml5dom::events`) instead of
//! a document, or `roxmltree` to parse with roxmltree instead (for its
//! instruction counts). The input
//! size is `XML5DOM_PERF_SIZE` bytes (default 5,000,000).

use std::hint::black_box;
use std::time::Instant;

use xml5dom::tokenizer::tokenize;
use xml5dom::Document;

#[path = "../benches/inputs.rs"]
mod inputs;
#[path = "../benches/peers.rs"]
mod peers;

use peers::Count;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shape = args.first().map_or("records", String::as_str);
    let iterations: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(20);
    let mode = args.get(2).map_or("parse", String::as_str);
    let size = std::env::var("XML5DOM_PERF_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000_000);
    let text = match shape {
        "prose" => inputs::prose(size),
        "svg" => inputs::svg(size),
        "atom" => inputs::atom(size),
        "damaged" => inputs::damaged(size),
        _ => inputs::records(size),
    };
    let start = Instant::now();
    for _ in 0..iterations {
        match mode {
            "tokenize" => drop(black_box(tokenize(&text, Count::default()).0)),
            "roxmltree" => drop(black_box(peers::roxmltree(&text))),
            "events" => {
                let mut count = 0usize;
                xml5dom::events::parse(&text, |_| count += 1);
                black_box(count);
            }
            _ => drop(black_box(Document::parse(&text))),
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if iterations > 0 {
        let mb = (text.len() * iterations) as f64 / 1e6;
        println!("{shape}: {:.0} MB/s over {iterations} parses", mb / seconds);
    }
}
