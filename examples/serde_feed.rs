//! A broken podcast feed read straight into Rust structs with
//! `xml5dom::de` (feature `serde`, docs/serde.md): the items, then what
//! was wrong with the input, then what quick-xml's serde support makes of
//! the same text.
//!
//! ```sh
//! cargo run --features serde --example serde_feed
//! ```

use serde::Deserialize;

/// An RSS 2.0 podcast feed as a hand-rolled exporter writes it: a bare `&`
/// in a URL, HTML entities (`&nbsp;`, `&eacute;`) no DTD declares, the
/// iTunes prefix used but never declared, an unquoted attribute value, and
/// the last `<item>` never closed.
pub const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Fish&nbsp;Talk</title>
    <link>https://example.org/podcast?lang=en&page=1</link>
    <item>
      <title>Caf&eacute; society</title>
      <link>https://example.org/podcast/3</link>
      <guid>fish-talk-3</guid>
      <pubDate>Mon, 06 May 2024 08:00:00 GMT</pubDate>
      <itunes:duration>41:05</itunes:duration>
      <enclosure url="https://example.org/3.mp3" length=39512346 type="audio/mpeg"/>
    </item>
    <item>
      <title>Salt and vinegar</title>
      <link>https://example.org/podcast/2</link>
      <guid>fish-talk-2</guid>
      <itunes:duration>38:12</itunes:duration>
    </item>
    <item>
      <title>Pilot</title>
      <link>https://example.org/podcast/1</link>
      <guid>fish-talk-1</guid>
      <pubDate>Mon, 22 Apr 2024 08:00:00 GMT</pubDate>
      <enclosure url="https://example.org/1.mp3" length="12000000" type="audio/mpeg"/>
  </channel>
</rss>
"#;

#[derive(Debug, PartialEq, Deserialize)]
pub struct Rss {
    pub channel: Channel,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Channel {
    pub title: String,
    pub link: String,
    #[serde(rename = "item", default)]
    pub items: Vec<Item>,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Item {
    pub title: String,
    pub link: String,
    pub guid: String,
    #[serde(rename = "pubDate")]
    pub pub_date: Option<String>,
    /// Matched by expanded name: `itunes:` here is undeclared, and
    /// xml5dom binds it to the namespace everyone means by it.
    #[serde(rename = "{http://www.itunes.com/dtds/podcast-1.0.dtd}duration")]
    pub duration: Option<String>,
    pub enclosure: Option<Enclosure>,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Enclosure {
    #[serde(rename = "@url")]
    pub url: String,
    #[serde(rename = "@length")]
    pub length: u64,
    #[serde(rename = "@type")]
    pub media_type: String,
}

#[allow(dead_code)] // tests/serde_feed_example.rs includes this file without it.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let read = xml5dom::de::from_str::<Rss>(FEED)?;
    let channel = &read.value.channel;
    println!("{} <{}>", channel.title, channel.link);
    for item in &channel.items {
        println!("- {} ({})", item.title, item.guid);
        println!("  link:      {}", item.link);
        println!("  published: {}", item.pub_date.as_deref().unwrap_or("-"));
        println!("  duration:  {}", item.duration.as_deref().unwrap_or("-"));
        match &item.enclosure {
            Some(enclosure) => println!(
                "  audio:     {} ({}, {} bytes)",
                enclosure.url, enclosure.media_type, enclosure.length
            ),
            None => println!("  audio:     -"),
        }
    }

    println!("\n{} parse errors:", read.errors.len());
    for error in &read.errors {
        println!("  {}:{} {}", error.line, error.column, error.code.as_str());
    }

    // quick-xml stops at the first thing it cannot read.
    match quick_xml::de::from_str::<Rss>(FEED) {
        Ok(_) => println!("\nquick-xml: read it"),
        Err(error) => println!("\nquick-xml: {error}"),
    }
    Ok(())
}
