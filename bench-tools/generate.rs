//! Writes one of the benchmark shapes (records, prose, svg, atom, damaged)
//! at a given size to standard output, for measuring the CLI on large
//! files.
//!
//! ```sh
//! cargo run --release -p bench-tools --bin generate -- atom 200 > /tmp/feed.xml   # 200 MB
//! /usr/bin/time -v target/release/xml5dom fmt /tmp/feed.xml > /dev/null
//! ```

use std::io::Write;

#[path = "../benches/inputs.rs"]
mod inputs;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(shape), Some(megabytes)) = (args.next(), args.next()) else {
        eprintln!("usage: generate SHAPE MEGABYTES   (shapes: records, prose, svg, atom, damaged)");
        std::process::exit(2);
    };
    let Ok(megabytes) = megabytes.parse::<usize>() else {
        eprintln!("generate: {megabytes:?} is not a number of megabytes");
        std::process::exit(2);
    };
    let size = megabytes * 1_000_000;
    let text = match shape.as_str() {
        "records" => inputs::records(size),
        "prose" => inputs::prose(size),
        "svg" => inputs::svg(size),
        "atom" => inputs::atom(size),
        "damaged" => inputs::damaged(size),
        _ => {
            eprintln!("generate: no shape {shape:?} (records, prose, svg, atom, damaged)");
            std::process::exit(2);
        }
    };
    let written = std::io::stdout().lock().write_all(text.as_bytes());
    if let Err(error) = written {
        eprintln!("generate: {error}");
        std::process::exit(1);
    }
}
