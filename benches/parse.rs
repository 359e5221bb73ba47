//! Parse-to-tree throughput of xml5dom and its peers, in one run, on the
//! same in-memory inputs (`benches/inputs.rs`): xml5dom from `&str` and from
//! `&[u8]`, roxmltree (DTD allowed), xml5ever with `markup5ever_rcdom`, and
//! quick-xml's `Reader` consuming every event (a streaming upper bound);
//! plus xml5dom's tokenizer alone and its serialization (round trip and
//! pretty), and XPath queries over the parsed records. Throughput is
//! reported in MB/s (10^6 bytes).
//!
//! `cargo bench --bench parse` runs it on inputs of about 20 MB. Without
//! `--bench` (as `cargo test` runs it) it is a quick check: 50 KB inputs,
//! one iteration each. The ratio table of docs/performance.md comes from
//! `cargo run --release -p bench-tools --bin perf_table`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput};
use xml5dom::query::{ElementPath, XPath};
use xml5dom::tokenizer::tokenize;
use xml5dom::{Document, SerializeOptions};

#[path = "inputs.rs"]
mod inputs;
#[path = "peers.rs"]
mod peers;

use peers::{quick_xml, quick_xml_ns, roxmltree, xml5dom_events, xml5ever, Count};

fn bench(c: &mut Criterion, full: bool) {
    let size = if full { 20_000_000 } else { 50_000 };
    let mut inputs = inputs::shapes(size);
    inputs.push(("damaged", inputs::damaged(size)));
    for (shape, text) in &inputs {
        let mut group = c.benchmark_group(*shape);
        group.throughput(Throughput::BytesDecimal(text.len() as u64));
        if full {
            group.sample_size(10);
        }
        let bytes = text.as_bytes();
        group.bench_function("xml5dom &str", |b| {
            b.iter(|| Document::parse(black_box(text)))
        });
        group.bench_function("xml5dom &[u8]", |b| {
            b.iter(|| Document::parse_bytes(black_box(bytes)))
        });
        group.bench_function("xml5dom tokenizer", |b| {
            b.iter(|| tokenize(black_box(text), Count::default()).0)
        });
        match roxmltree(text) {
            Ok(_) => {
                group.bench_function("roxmltree", |b| b.iter(|| roxmltree(black_box(text))));
            }
            Err(e) => println!("{shape}: roxmltree rejects the input ({e})"),
        }
        group.bench_function("xml5ever rcdom", |b| b.iter(|| xml5ever(black_box(text))));
        match quick_xml(text) {
            Ok(_) => {
                group.bench_function("quick-xml events", |b| {
                    b.iter(|| quick_xml(black_box(text)))
                });
            }
            Err(e) => println!("{shape}: quick-xml rejects the input ({e})"),
        }
        group.bench_function("xml5dom events", |b| {
            b.iter(|| xml5dom_events(black_box(text)))
        });
        match quick_xml_ns(text) {
            Ok(_) => {
                group.bench_function("quick-xml NsReader", |b| {
                    b.iter(|| quick_xml_ns(black_box(text)))
                });
            }
            Err(e) => println!("{shape}: quick-xml's NsReader rejects the input ({e})"),
        }
        let doc = Document::parse(text);
        group.bench_function("xml5dom serialize", |b| b.iter(|| black_box(&doc).to_xml()));
        let pretty = SerializeOptions {
            pretty: Some(2),
            ..SerializeOptions::default()
        };
        group.bench_function("xml5dom serialize pretty", |b| {
            b.iter(|| black_box(&doc).serialize(&pretty))
        });
        group.finish();
    }

    // Queries over the parsed records: an attribute match (the document's
    // middle record), a count, and the same match as a hand-written loop
    // over xml5dom's and roxmltree's trees, for scale.
    let records = &inputs[0].1;
    let doc = Document::parse(records);
    let rox = roxmltree::Document::parse(records).expect("records are well-formed");
    let rows: Vec<_> = doc
        .root_element()
        .map(|root| {
            root.child_elements()
                .filter(|e| e.name() == "row")
                .collect()
        })
        .unwrap_or_default();
    let middle = rows
        .get(rows.len() / 2)
        .and_then(|row| row.attribute("id"))
        .unwrap_or("1")
        .to_owned();
    let by_id = XPath::compile(&format!("//row[@id='{middle}']")).expect("valid XPath");
    let count = XPath::compile("count(//entry)").expect("valid XPath");
    let mut group = c.benchmark_group("query records");
    group.throughput(Throughput::BytesDecimal(records.len() as u64));
    if full {
        group.sample_size(20);
    }
    group.bench_function("xpath //row[@id=...]", |b| {
        b.iter(|| by_id.select(black_box(&doc).root()))
    });
    group.bench_function("xpath count(//entry)", |b| {
        b.iter(|| count.evaluate(black_box(&doc).root()))
    });
    let by_id_path = ElementPath::compile(&format!(".//row[@id='{middle}']")).expect("valid path");
    let root = doc.root_element().expect("a root element");
    group.bench_function("elementpath .//row[@id=...]", |b| {
        b.iter(|| by_id_path.findall(black_box(root)))
    });
    group.bench_function("xml5dom descendants loop", |b| {
        b.iter(|| {
            black_box(&doc)
                .root()
                .descendants()
                .filter(|n| n.is_element() && n.name() == "row")
                .filter(|n| n.attribute("id") == Some(middle.as_str()))
                .count()
        })
    });
    group.bench_function("roxmltree descendants loop", |b| {
        b.iter(|| {
            black_box(&rox)
                .descendants()
                .filter(|n| n.has_tag_name("row"))
                .filter(|n| n.attribute("id") == Some(middle.as_str()))
                .count()
        })
    });
    group.finish();

    let depth = if full { 100_000 } else { 1_000 };
    let deep = inputs::deep(depth);
    let mut group = c.benchmark_group("deep");
    group.throughput(Throughput::BytesDecimal(deep.len() as u64));
    group.bench_function(BenchmarkId::new("xml5dom &str", depth), |b| {
        b.iter(|| Document::parse(black_box(&deep)))
    });
    group.bench_function(BenchmarkId::new("roxmltree", depth), |b| {
        b.iter(|| roxmltree(black_box(&deep)))
    });
    group.finish();
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let mut criterion = Criterion::default().configure_from_args();
    if !full {
        println!("quick check (cargo test); `cargo bench --bench parse` runs the full benchmark");
    }
    bench(&mut criterion, full);
    criterion.final_summary();
}
