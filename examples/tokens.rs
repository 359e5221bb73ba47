//! Tokenizes a broken document and prints each token and each parse error
//! with its line and column.
//!
//! ```sh
//! cargo run --example tokens -- examples/data/feed.xml
//! ```

use xml5dom::tokenizer::{tokenize, Event, OwnedToken, TokenList};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/data/feed.xml".to_owned());
    let text = std::fs::read_to_string(&path)?;
    let out = tokenize(&text, TokenList::default());
    for event in &out.events {
        match event {
            Event::Error(error) => println!(
                "{path}:{}:{}: {}: {}",
                error.line,
                error.column,
                error.code,
                error.code.message()
            ),
            Event::Token(OwnedToken::Text { data, .. }) if data.trim().is_empty() => {}
            Event::Token(OwnedToken::EndOfFile { .. }) => {}
            Event::Token(token) => {
                let span = token.span();
                println!("{:>5}..{:<5} {}", span.start, span.end, &text[span.range()]);
            }
        }
    }
    Ok(())
}
