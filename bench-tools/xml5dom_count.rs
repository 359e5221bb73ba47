//! The DOM side of `bench-tools/whole_process.rs`, beside `roxmltree_count`:
//! reads the file named on its command line into a `Document` and prints
//! the number of elements. (Since issue 19 `xml5dom check` streams and
//! builds no tree, so it no longer measures the DOM.)
//!
//! With `--errors` it prints the document's parse errors instead, one JSON
//! line each, as `xml5dom check --format json` prints them: for holding
//! the streamed `check` to the DOM's errors on a large file. With `--tree`
//! it prints the tree dump (`Document::write_tree_dump`), what `xml5dom
//! tree` prints: the library's cost of that output, for holding the
//! command to it (issue 37).
//!
//! ```sh
//! cargo build --release && cargo build --release -p bench-tools --bin xml5dom_count
//! target/release/xml5dom_count /tmp/feed.xml
//! target/release/xml5dom_count --errors /tmp/damaged.xml > dom.jsonl
//! target/release/xml5dom check --format json /tmp/damaged.xml > stream.jsonl
//! cmp dom.jsonl stream.jsonl
//! target/release/xml5dom_count --tree /tmp/feed.xml | cmp - <(target/release/xml5dom tree /tmp/feed.xml)
//! ```
//!
//! Exits 2 on a usage or read error.

use xml5dom::{Document, ErrorCode};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (flag, path) = match args.as_slice() {
        [flag, path] if flag == "--errors" || flag == "--tree" => (Some(flag.as_str()), path),
        [path] => (None, path),
        _ => {
            eprintln!("usage: xml5dom_count [--errors | --tree] FILE");
            std::process::exit(2);
        }
    };
    let doc = match Document::from_file(path) {
        Ok(doc) => doc,
        Err(error) => {
            eprintln!("xml5dom_count: {error}");
            std::process::exit(2);
        }
    };
    if flag == Some("--tree") {
        if let Err(error) = doc.write_tree_dump(std::io::stdout().lock()) {
            eprintln!("xml5dom_count: {error}");
            std::process::exit(2);
        }
        return;
    }
    if flag.is_none() {
        let elements = doc.root().descendants().filter(|n| n.is_element()).count();
        println!("{elements}");
        return;
    }
    let label = doc.xml_declaration().and_then(|d| d.encoding.as_deref());
    let mut out = String::new();
    for (index, error) in doc.errors().iter().enumerate() {
        let context = doc.error_context(index);
        let message = match (error.code, label, context) {
            (_, _, Some(context)) => context.message(),
            (ErrorCode::UnknownEncoding, Some(label), _) => {
                format!("the declared encoding {label:?} is not known; read as UTF-8")
            }
            (code, _, _) => code.message().to_owned(),
        };
        out.push_str("{\"file\": ");
        xml5dom::tokenizer::push_json_string(&mut out, path);
        out.push_str(&format!(
            ", \"line\": {}, \"column\": {}, \"offset\": {}, \"code\": ",
            error.line, error.column, error.offset
        ));
        xml5dom::tokenizer::push_json_string(&mut out, error.code.as_str());
        out.push_str(", \"severity\": ");
        xml5dom::tokenizer::push_json_string(&mut out, error.severity().as_str());
        out.push_str(", \"message\": ");
        xml5dom::tokenizer::push_json_string(&mut out, &message);
        if let Some(context) = context {
            out.push_str(", \"end_tag\": ");
            xml5dom::tokenizer::push_json_string(&mut out, &context.end_tag);
            out.push_str(&format!(", \"implied_closes\": {}", context.implied_closes));
            if let Some(open) = &context.open {
                out.push_str(", \"open\": {\"name\": ");
                xml5dom::tokenizer::push_json_string(&mut out, &open.name);
                out.push_str(&format!(
                    ", \"line\": {}, \"column\": {}, \"offset\": {}}}",
                    open.line, open.column, open.offset
                ));
            }
        }
        out.push_str("}\n");
        if out.len() > 1 << 16 {
            print!("{out}");
            out.clear();
        }
    }
    print!("{out}");
}
