//! Deserializing a records file into Rust structs (issue 36):
//! `xml5dom::de::from_str` against `quick_xml::de::from_str`, in one run,
//! on the same well-formed input. Both read the same types; the run first
//! checks that they give equal values. Throughput in MB/s (10^6 bytes).
//!
//! `cargo bench --features serde --bench serde` runs it on about 20 MB.
//! Without `--bench` (as `cargo test --features serde` runs it) it is a
//! quick check: 50 KB, one iteration each.
//!
//! The records are generated here, not taken from `benches/inputs.rs`:
//! its records carry their fields as attributes only, and interleave two
//! element names (`row`, `entry`), which quick-xml reads into one `Vec`
//! only with its `overlapped-lists` feature. These have the same kind of
//! content (ids, scores, timestamps, statuses, words with non-ASCII
//! letters, some `&amp;`) as attributes and as child elements, and use
//! the shared generator (`inputs::Rng`) for determinism.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use serde::Deserialize;

#[path = "inputs.rs"]
mod inputs;

use inputs::Rng;

#[derive(Debug, PartialEq, Deserialize)]
struct Dump {
    #[serde(rename = "@source")]
    source: String,
    #[serde(rename = "record", default)]
    records: Vec<Record>,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Record {
    #[serde(rename = "@id")]
    id: u64,
    #[serde(rename = "@status")]
    status: Status,
    #[serde(rename = "@lang")]
    lang: Option<String>,
    user: String,
    ts: String,
    score: f64,
    count: u32,
    active: bool,
    #[serde(rename = "tag", default)]
    tags: Vec<String>,
    note: Option<Note>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Closed,
    Pending,
    Archived,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Note {
    #[serde(rename = "@kind")]
    kind: String,
    #[serde(rename = "$text")]
    text: String,
}

const WORDS: &[&str] = &[
    "parser",
    "markup",
    "element",
    "river",
    "lantern",
    "harbour",
    "signal",
    "window",
    "garden",
    "naïve",
    "café",
    "résumé",
    "Zürich",
    "façade",
    "日本語",
    "fish",
    "chips",
];

const STATUSES: &[&str] = &["active", "closed", "pending", "archived"];

/// About `size` bytes of `<record>`s, each with two or three attributes,
/// five to eight child elements, numbers, a boolean and text.
fn records(size: usize) -> String {
    let mut rng = Rng::new(0x5EED_0036);
    let mut out = String::with_capacity(size + 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dump source=\"bench\">\n");
    let mut id = 0u64;
    while out.len() < size {
        id += 1;
        out.push_str(&format!(
            "  <record id=\"{id}\" status=\"{}\"",
            rng.pick(STATUSES)
        ));
        if rng.below(3) == 0 {
            out.push_str(" lang=\"en\"");
        }
        out.push_str(">\n");
        out.push_str(&format!(
            "    <user>{}{}</user>\n",
            rng.pick(WORDS),
            rng.below(10_000)
        ));
        out.push_str(&format!(
            "    <ts>2024-{:02}-{:02}T{:02}:{:02}:00Z</ts>\n",
            1 + rng.below(12),
            1 + rng.below(28),
            rng.below(24),
            rng.below(60)
        ));
        out.push_str(&format!(
            "    <score>{}.{:02}</score>\n",
            rng.below(100),
            rng.below(100)
        ));
        out.push_str(&format!("    <count>{}</count>\n", rng.below(100_000)));
        out.push_str(&format!("    <active>{}</active>\n", rng.below(2) == 0));
        for _ in 0..rng.below(4) {
            out.push_str(&format!("    <tag>{}</tag>\n", rng.pick(WORDS)));
        }
        if rng.below(2) == 0 {
            out.push_str(&format!("    <note kind=\"{}\">", rng.pick(WORDS)));
            for i in 0..1 + rng.below(6) {
                if i > 0 {
                    out.push_str(if rng.below(5) == 0 { " &amp; " } else { " " });
                }
                out.push_str(rng.pick(WORDS));
            }
            out.push_str("</note>\n");
        }
        out.push_str("  </record>\n");
    }
    out.push_str("</dump>\n");
    out
}

fn xml5dom(text: &str) -> Dump {
    let read = xml5dom::de::from_str::<Dump>(text).expect("the records fit the types");
    assert!(read.errors.is_empty(), "the records are well-formed");
    read.value
}

fn quick_xml(text: &str) -> Dump {
    quick_xml::de::from_str(text).expect("the records fit the types")
}

fn bench(c: &mut Criterion, full: bool) {
    let size = if full { 20_000_000 } else { 50_000 };
    let text = records(size);
    let ours = xml5dom(&text);
    assert!(ours.records.len() > size / 400, "every record read");
    assert!(
        ours == quick_xml(&text),
        "xml5dom and quick-xml read the records alike"
    );
    println!(
        "records: {} bytes, {} records",
        text.len(),
        ours.records.len()
    );
    drop(ours);

    let mut group = c.benchmark_group("serde records");
    group.throughput(Throughput::BytesDecimal(text.len() as u64));
    if full {
        group.sample_size(10);
    }
    group.bench_function("xml5dom::de::from_str", |b| {
        b.iter(|| xml5dom(black_box(&text)))
    });
    group.bench_function("quick_xml::de::from_str", |b| {
        b.iter(|| quick_xml(black_box(&text)))
    });
    // How much of xml5dom's time is the parse to a tree, for scale.
    group.bench_function("xml5dom Document::parse", |b| {
        b.iter(|| xml5dom::Document::parse(black_box(&text)))
    });
    group.finish();
    if full {
        alternating(&text, 11);
    }
}

/// `pairs` runs of each reader, alternating, and the median of the
/// per-pair ratios (quick-xml's time over xml5dom's: above 1 is faster):
/// robust to the load of a shared machine drifting between criterion's
/// groups, which run one after the other. On Linux, the ratio of the CPU
/// time the thread spent (user and system, page faults included) too,
/// which other processes on a busy machine disturb less than wall time.
fn alternating(text: &str, pairs: usize) {
    let time = |read: &dyn Fn(&str) -> Dump| {
        let (start, cpu_start) = (std::time::Instant::now(), thread_cpu_ticks());
        black_box(read(black_box(text)));
        let cpu = thread_cpu_ticks()
            .zip(cpu_start)
            .map(|(end, start)| (end - start) as f64);
        (start.elapsed().as_secs_f64(), cpu)
    };
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..pairs {
        let (quick, quick_cpu) = time(&quick_xml);
        let (ours, ours_cpu) = time(&xml5dom);
        wall.push(quick / ours);
        if let (Some(quick), Some(ours)) = (quick_cpu, ours_cpu) {
            cpu.push(quick / ours.max(1.0));
        }
    }
    let median = |ratios: &mut Vec<f64>| {
        ratios.sort_by(f64::total_cmp);
        (
            ratios[ratios.len() / 2],
            ratios[0],
            ratios[ratios.len() - 1],
        )
    };
    let (m, low, high) = median(&mut wall);
    println!("alternating, {pairs} pairs: xml5dom::de at {m:.2}x quick-xml's speed in wall time (median of per-pair ratios; range {low:.2}-{high:.2})");
    if cpu.len() == pairs {
        let (m, low, high) = median(&mut cpu);
        println!("  and {m:.2}x in the thread's CPU time (range {low:.2}-{high:.2})");
    }
}

/// The CPU time this thread has used (user and system), in clock ticks,
/// from `/proc/thread-self/stat` (Linux; `None` elsewhere).
fn thread_cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command (which is in parentheses): utime is
    // the 14th field of the line, stime the 15th.
    let after_command = &stat[stat.rfind(')')? + 2..];
    let mut fields = after_command.split(' ').skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let mut criterion = Criterion::default().configure_from_args();
    if !full {
        println!("quick check (cargo test); `cargo bench --features serde --bench serde` runs the full benchmark");
    }
    bench(&mut criterion, full);
    criterion.final_summary();
}
