//! The parsers under comparison, each as one call that parses a whole input
//! and keeps nothing (`black_box` stops the work being optimized away), plus
//! the counting sink that times xml5dom's tokenizer alone. Shared by
//! `benches/parse.rs` and the `perf_table`, `memory` and `profile` examples
//! (included with `#[path]`), so that every figure times the same work.

#![allow(dead_code)]

use std::hint::black_box;

use xml5dom::tokenizer::{Token, TokenSink};
use xml5dom::ParseError;
use xml5ever::tendril::TendrilSink;

/// A token sink that only counts tokens.
#[derive(Default)]
pub struct Count(pub usize);

impl TokenSink for Count {
    fn process_token(&mut self, token: Token<'_>) {
        self.0 += 1;
        black_box(&token);
    }

    fn parse_error(&mut self, error: ParseError) {
        black_box(error);
    }
}

/// roxmltree with DTDs allowed; `Err` when it rejects the input.
pub fn roxmltree(text: &str) -> Result<(), String> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    match roxmltree::Document::parse_with_options(text, options) {
        Ok(doc) => {
            black_box(doc);
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

/// xml5ever building a `markup5ever_rcdom` tree (it accepts everything).
pub fn xml5ever(text: &str) {
    let dom = xml5ever::driver::parse_document(
        markup5ever_rcdom::RcDom::default(),
        xml5ever::driver::XmlParseOpts::default(),
    )
    .one(text);
    black_box(dom);
}

/// quick-xml's `Reader` consuming every event; the number of events, or
/// `Err` when it rejects the input.
/// xml5dom's whole pipeline into events (`xml5dom::events`), counting
/// them.
pub fn xml5dom_events(text: &str) -> usize {
    let mut events = 0;
    xml5dom::events::parse(text, |event| {
        events += 1;
        black_box(event);
    });
    events
}

/// quick-xml's namespace-resolving reader: each event, with the element
/// names resolved (`read_resolved_event`); `Err` when it rejects the input.
pub fn quick_xml_ns(text: &str) -> Result<usize, String> {
    let mut reader = quick_xml::NsReader::from_str(text);
    let mut events = 0;
    loop {
        match reader.read_resolved_event() {
            Ok((_, quick_xml::events::Event::Eof)) => return Ok(events),
            Ok(resolved) => {
                events += 1;
                black_box(resolved);
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

pub fn quick_xml(text: &str) -> Result<usize, String> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut events = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => return Ok(events),
            Ok(event) => {
                events += 1;
                black_box(event);
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}
