//! Counts the records of a generated multi-gigabyte file through the
//! subtree API ([`Subtrees`]): each record comes as a small `Document` of
//! its own, read, then dropped. Prints the count, the speed and the peak
//! memory of the process (`VmHWM`), which stays that of one record and a
//! window of the input, not of the file (issue 19).
//!
//! ```sh
//! cargo run --release -p bench-tools --bin stream_records            # 1000 MB
//! cargo run --release -p bench-tools --bin stream_records -- 4000    # 4 GB
//! ```
//!
//! The file is the `records` shape of `benches/inputs.rs` (a dump of
//! `<row>` and `<entry>` elements with attributes and text), its body
//! written again and again to the size asked for, into the system's
//! temporary directory, and removed afterwards. Generating it takes a
//! few megabytes, so the peak is the parse's. (A record left open by
//! damage holds every record after it, as XML5 nests them: a subtree is as
//! large as the element it is, so the damaged shape is `xml5dom check`'s
//! test, not this one's.)

use std::io::{BufWriter, Write};
use std::time::Instant;

use xml5dom::events::{OpenElement, Reader, Subtrees};

#[path = "../benches/inputs.rs"]
mod inputs;

fn main() {
    let mut args = std::env::args().skip(1);
    let megabytes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let path = std::env::temp_dir().join(format!(
        "xml5dom-records-{megabytes}MB-{}.xml",
        std::process::id()
    ));
    let written = match write_file(&path, megabytes * 1_000_000) {
        Ok(written) => written,
        Err(error) => {
            eprintln!("stream_records: cannot write {}: {error}", path.display());
            std::process::exit(2);
        }
    };
    let generated_peak = peak_kb();
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(error) => {
            eprintln!("stream_records: cannot open {}: {error}", path.display());
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let errors = std::rc::Rc::new(std::cell::Cell::new(0u64));
    let counted = errors.clone();
    // The records are the children of the root element.
    let records = Subtrees::new(Reader::new(file), |open: &[OpenElement]| open.len() == 2)
        .on_error(move |_| counted.set(counted.get() + 1));
    let (mut count, mut attributes, mut with_text) = (0u64, 0u64, 0u64);
    for record in records {
        let record = match record {
            Ok(record) => record,
            Err(error) => {
                eprintln!("stream_records: {error}");
                std::process::exit(2);
            }
        };
        let Some(root) = record.document().root_element() else {
            continue;
        };
        count += 1;
        attributes += root.attributes().len() as u64;
        with_text += u64::from(root.children().any(|child| child.is_text()));
    }
    let seconds = start.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&path);
    println!(
        "{} MB: {count} records ({attributes} attributes, {with_text} with text, {} parse errors) \
         in {seconds:.1} s, {:.0} MB/s",
        written / 1_000_000,
        errors.get(),
        written as f64 / 1e6 / seconds
    );
    println!(
        "peak memory (VmHWM): {:.1} MB (after writing the file: {:.1} MB)",
        peak_kb() as f64 / 1000.0,
        generated_peak as f64 / 1000.0
    );
}

/// Writes a records file of about `size` bytes; returns its size.
fn write_file(path: &std::path::Path, size: u64) -> std::io::Result<u64> {
    let block = inputs::records(4_000_000);
    // The records between the root's start tag and its end.
    let body_start = block
        .find("<dump")
        .and_then(|at| block[at..].find('\n').map(|n| at + n + 1));
    let body_end = block.rfind("</dump>").unwrap_or(block.len());
    let body = &block[body_start.unwrap_or(0)..body_end.max(body_start.unwrap_or(0))];
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dump source=\"bench\">\n";
    out.write_all(head.as_bytes())?;
    let mut written = head.len() as u64;
    while written < size {
        out.write_all(body.as_bytes())?;
        written += body.len() as u64;
    }
    out.write_all(b"</dump>\n")?;
    out.flush()?;
    Ok(written + 8)
}

/// The process's peak resident set size in kB (Linux), 0 where unknown.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}
