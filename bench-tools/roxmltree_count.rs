//! The peer binary of `bench-tools/whole_process.rs`: reads the file named on
//! its command line, parses it with roxmltree (DTDs allowed, as far as
//! roxmltree allows them) and prints the number of elements. What a user of
//! a roxmltree-based tool waits for: reading, UTF-8 validation, parsing,
//! one walk, and freeing at exit.
//!
//! ```sh
//! cargo build --release -p bench-tools --bin roxmltree_count
//! target/release/roxmltree_count /tmp/feed.xml
//! ```
//!
//! Exits 1 when roxmltree rejects the file, 2 on a usage or read error.

fn main() {
    let mut args = std::env::args_os().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: roxmltree_count FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("roxmltree_count: {}: {error}", path.to_string_lossy());
            std::process::exit(2);
        }
    };
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    match roxmltree::Document::parse_with_options(&text, options) {
        Ok(doc) => {
            let elements = doc.descendants().filter(|n| n.is_element()).count();
            println!("{elements}");
        }
        Err(error) => {
            eprintln!("roxmltree_count: {}: {error}", path.to_string_lossy());
            std::process::exit(1);
        }
    }
}
