//! The performance table of docs/performance.md: for each generated input,
//! the median throughput of each parser and the median of the per-run
//! ratios to roxmltree (and xml5dom to xml5ever, tokenizer to quick-xml),
//! all measured in one run, parsers interleaved so that noise hits all; then
//! a second table from the same runs for the pipeline into events
//! (`xml5dom::events`) against quick-xml's namespace-resolving `NsReader`
//! and roxmltree.
//!
//! ```sh
//! cargo run --release -p bench-tools --bin perf_table            # about 20 MB per input, 7 runs
//! XML5DOM_PERF_RUNS=3 XML5DOM_PERF_SIZE=2000000 cargo run --release -p bench-tools --bin perf_table
//! ```

use std::hint::black_box;
use std::time::Instant;

use xml5dom::tokenizer::tokenize;
use xml5dom::Document;

#[path = "../benches/inputs.rs"]
mod inputs;
#[path = "../benches/peers.rs"]
mod peers;

use peers::{quick_xml, quick_xml_ns, roxmltree, xml5dom_events, xml5ever, Count};

fn seconds(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const PARSERS: [&str; 8] = [
    "xml5dom &str",
    "xml5dom &[u8]",
    "xml5dom tokenizer",
    "roxmltree",
    "xml5ever rcdom",
    "quick-xml events",
    "xml5dom events",
    "quick-xml NsReader",
];

fn main() {
    let runs = env("XML5DOM_PERF_RUNS", 7).max(1);
    let size = env("XML5DOM_PERF_SIZE", 20_000_000);
    let mut inputs = inputs::shapes(size);
    inputs.push(("damaged", inputs::damaged(size)));
    println!(
        "{runs} runs per parser and input; MB/s are medians; ratios are medians of per-run ratios"
    );
    println!(
        "| input | MB | xml5dom &str | xml5dom &[u8] | tokenizer | roxmltree | xml5ever | quick-xml | xml5dom / roxmltree | xml5dom / xml5ever | tokenizer / quick-xml | serialize (round trip) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut events_rows = Vec::new();
    for (name, text) in &inputs {
        let mb = text.len() as f64 / 1e6;
        let accepts_rox = roxmltree(text).is_ok();
        let accepts_qx = quick_xml(text).is_ok();
        let accepts_qx_ns = quick_xml_ns(text).is_ok();
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); PARSERS.len()];
        for _ in 0..runs {
            times[0].push(seconds(|| drop(black_box(Document::parse(text)))));
            times[1].push(seconds(|| {
                drop(black_box(Document::parse_bytes(text.as_bytes())))
            }));
            times[2].push(seconds(|| {
                black_box(tokenize(text, Count::default()).0);
            }));
            if accepts_rox {
                times[3].push(seconds(|| drop(roxmltree(text))));
            }
            times[4].push(seconds(|| xml5ever(text)));
            if accepts_qx {
                times[5].push(seconds(|| drop(quick_xml(text))));
            }
            times[6].push(seconds(|| {
                black_box(xml5dom_events(text));
            }));
            if accepts_qx_ns {
                times[7].push(seconds(|| drop(quick_xml_ns(text))));
            }
        }
        let doc = Document::parse(text);
        let mut serialize: Vec<f64> = (0..runs)
            .map(|_| seconds(|| drop(black_box(doc.to_xml()))))
            .collect();
        let ratio = |a: usize, b: usize| -> String {
            if times[a].is_empty() || times[b].is_empty() {
                return "rejects".to_owned();
            }
            let mut ratios: Vec<f64> = times[a].iter().zip(&times[b]).map(|(x, y)| y / x).collect();
            format!("{:.2}x", median(&mut ratios))
        };
        let speed = |i: usize| -> String {
            if times[i].is_empty() {
                return "rejects".to_owned();
            }
            let mut t = times[i].clone();
            format!("{:.0}", mb / median(&mut t))
        };
        println!(
            "| {name} | {mb:.1} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
            speed(0),
            speed(1),
            speed(2),
            speed(3),
            speed(4),
            speed(5),
            ratio(0, 3),
            ratio(0, 4),
            ratio(2, 5),
            mb / median(&mut serialize),
        );
        events_rows.push(format!(
            "| {name} | {mb:.1} | {} | {} | {} | {} | {} |",
            speed(6),
            speed(7),
            speed(3),
            ratio(6, 7),
            ratio(6, 3),
        ));
    }
    println!("\nEvents (`xml5dom::events`), same runs:");
    println!(
        "| input | MB | xml5dom events | quick-xml NsReader | roxmltree | events / quick-xml NsReader | events / roxmltree |"
    );
    println!("|---|---|---|---|---|---|---|");
    for row in &events_rows {
        println!("{row}");
    }
    // Time linear in size at any depth.
    let depth = env("XML5DOM_PERF_DEPTH", 100_000);
    let deep = inputs::deep(depth);
    let mut ratios = Vec::new();
    let mut ours = Vec::new();
    for _ in 0..runs {
        let x = seconds(|| drop(black_box(Document::parse(&deep))));
        let r = seconds(|| drop(roxmltree(&deep)));
        ours.push(x);
        ratios.push(x / r);
    }
    println!(
        "\ndeep ({depth} levels, {:.1} MB): xml5dom {:.1} ms, {:.2}x roxmltree's time (median)",
        deep.len() as f64 / 1e6,
        median(&mut ours) * 1e3,
        median(&mut ratios)
    );
}
