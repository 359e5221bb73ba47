//! Queries over a shop's product feed (Atom with a namespace of its own):
//! select entries, count and sum with XPath, mark the matches by editing
//! them, and write the document back (only the edited tags change). Then
//! the same queries on a feed that no strict parser would load.
//!
//! ```sh
//! cargo run --example query
//! ```

use xml5dom::query::{Bindings, Value, XNode, XPath};
use xml5dom::Document;

const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0">
  <title>Corner Shop</title>
  <entry>
    <title>Tea, green</title>
    <g:price currency="EUR">4.50</g:price>
    <g:availability>in stock</g:availability>
  </entry>
  <entry>
    <title>Coffee beans</title>
    <g:price currency="EUR">12.90</g:price>
    <g:availability>out of stock</g:availability>
  </entry>
  <entry>
    <title>Honey</title>
    <g:price currency="EUR">7.25</g:price>
    <g:availability>in stock</g:availability>
  </entry>
</feed>
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut doc = Document::parse(FEED);
    // The feed's default namespace has no prefix to write in XPath: bind
    // one. `g` is declared on the document element, so it is bound already.
    let mut bindings = Bindings::new();
    bindings.namespace("a", "http://www.w3.org/2005/Atom");

    // Select: the titles of what is in stock.
    let in_stock = XPath::compile("//a:entry[g:availability = 'in stock']/a:title")?;
    for title in in_stock.select_with(doc.root(), &bindings)? {
        println!("in stock: {}", title.string_value());
    }

    // Count and sum: numbers come back as `Value::Number`.
    let count = XPath::compile("count(//a:entry)")?;
    let total = XPath::compile("sum(//g:price)")?;
    let cheap = XPath::compile("count(//a:entry[g:price < 10])")?;
    for (label, xpath) in [("entries", &count), ("total", &total), ("under 10", &cheap)] {
        let value = xpath.evaluate_with(doc.root(), &bindings)?;
        println!("{label}: {}", value.to_xpath_string());
    }

    // Edit the matches: a query gives node handles; their ids outlive the
    // borrow, so collect them, then edit.
    let sold_out: Vec<_> = XPath::compile("//a:entry[g:availability = 'out of stock']")?
        .select_with(doc.root(), &bindings)?
        .iter()
        .filter_map(XNode::as_node)
        .map(|entry| entry.id())
        .collect();
    for entry in sold_out {
        doc.set_attribute(entry, "hidden", "true")?;
    }
    let prices: Vec<_> = XPath::compile("//g:price[. > 10]/@currency")?
        .select_with(doc.root(), &bindings)?
        .iter()
        .filter_map(|node| match node {
            XNode::Attribute(attribute) => Some(attribute.element().id()),
            _ => None,
        })
        .collect();
    for price in prices {
        doc.set_attribute(price, "note", "premium")?;
    }

    // Write it back: everything not edited is copied from the source.
    println!("\n{}", doc.to_xml());

    // The same tools on a broken export (bare `&`, a duplicate attribute,
    // an unquoted value, an `<item>` never closed): xml5dom repairs it the
    // XML5 way and the queries run on what it built.
    let broken = Document::parse(include_str!("data/feed.xml"));
    println!("broken feed: {} parse errors", broken.errors().len());
    let items = XPath::compile("count(//item)")?.evaluate(broken.root())?;
    let titles = XPath::compile("//item/title")?.select(broken.root())?;
    let channel = XPath::compile("normalize-space(/rss/channel/title)")?;
    if let Value::String(title) = channel.evaluate(broken.root())? {
        println!("channel: {title}");
    }
    println!("items: {}", items.to_xpath_string());
    for title in titles {
        println!("item title: {:?}", title.string_value().trim());
    }
    Ok(())
}
