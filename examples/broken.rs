//! Loads a broken document leniently and prints its structure and its parse
//! errors with line and column.
//!
//! ```sh
//! cargo run --example broken                 # the built-in sample
//! cargo run --example broken -- FILE.xml     # any file
//! ```

use xml5dom::{Document, Edge, NodeType};

/// Missing end tags, a bare `&`, unquoted attributes, a stray end tag.
const SAMPLE: &str = r#"<inventory updated=2024-05-01>
  <item sku=A-1 qty=3>Bolts & nuts
  <item sku="B-2">Washers</item>
  </shelf>
  <note>Check <b>both</note>
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (name, text) = match std::env::args().nth(1) {
        Some(path) => (path.clone(), std::fs::read_to_string(path)?),
        None => ("sample".to_owned(), SAMPLE.to_owned()),
    };
    let doc = Document::parse(&text);

    println!("structure:");
    let mut depth = 0;
    for edge in doc.root().traverse() {
        match edge {
            Edge::Open(node) | Edge::Close(node) if node.is_document() => {}
            Edge::Open(node) => {
                let indent = "  ".repeat(depth);
                match node.node_type() {
                    NodeType::Element => {
                        let attributes: Vec<String> = node
                            .attributes()
                            .map(|a| format!(" {}={:?}", a.name(), a.value()))
                            .collect();
                        println!("{indent}<{}{}>", node.name(), attributes.concat());
                    }
                    NodeType::Text => {
                        let text = node.text().unwrap_or("").trim();
                        if !text.is_empty() {
                            println!("{indent}{text:?}");
                        }
                    }
                    NodeType::Comment => println!("{indent}<!--{}-->", node.text().unwrap_or("")),
                    _ => {}
                }
                depth += 1;
            }
            Edge::Close(_) => depth -= 1,
        }
    }

    println!("\n{} parse errors:", doc.errors().len());
    for error in doc.errors() {
        println!(
            "{name}:{}:{}: {}: {}",
            error.line,
            error.column,
            error.code,
            error.code.message()
        );
    }
    Ok(())
}
