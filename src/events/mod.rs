//! Layer 7: the tree builder's output as events, without a tree, the
//! first part of streaming (docs/streaming.md).
//!
//! [`parse`] runs the whole pipeline (tokenizer, XML5 tree construction,
//! namespaces, entity expansion, the well-formedness checks) and hands each
//! thing built to a handler as an [`Event`], in document order, instead of
//! making a [`Document`](crate::dom::Document) of it: what the handler keeps is
//! all the memory the events cost. The events are the tree, exactly:
//! replaying them builds the document [`Document::parse`] builds (this
//! module's tests do that for every tree case of the suites and every
//! document of the corpus).
//!
//! Names come resolved, attribute values and text with references
//! expanded and line ends normalized, text merged as the DOM merges it.
//! Parse errors come in source order (as a document lists them), each as
//! soon as no earlier one can come: shortly after the events around it.
//!
//! ```
//! use xml5dom::events::{self, Event};
//!
//! let mut names = Vec::new();
//! let mut errors = 0;
//! events::parse("<feed xmlns='urn:f'><entry>1<entry>2</feed>", |event| match event {
//!     Event::StartElement(start) => names.push(start.name.local.to_owned()),
//!     Event::Error(_) => errors += 1,
//!     _ => {}
//! });
//! assert_eq!(names, ["feed", "entry", "entry"]);
//! assert_eq!(errors, 1); // `</feed>` closes two `entry` elements
//! ```
//!
//! [`Document::parse`]: crate::dom::Document::parse

mod builder;
mod canonical;
mod event;
mod parser;
mod reader;
mod replay;
#[cfg(test)]
mod replay_tests;
mod sink;
mod stream;
mod subtrees;

use crate::decoding::ParseOptions;
use crate::error::ErrorCode;
use crate::parse::parse_into;

pub use builder::DocumentBuilder;
pub use canonical::{
    write_canonical_reader, write_canonical_reader_reporting, write_canonical_reader_with,
};
pub(crate) use event::{name_of, AttributeList, QueuedAttribute};
pub use event::{Attribute, Attributes, AttributesIter, EndElement, Event, Name, StartElement};
pub use parser::Parser;
pub use reader::Reader;

use sink::{ErrorClass, EventSink};

pub use subtrees::{OpenAttribute, OpenElement, Subtree, Subtrees};

/// Parses `text` with the XML5 rules, handing each thing built to
/// `handler` (see the module documentation).
pub fn parse(text: &str, handler: impl FnMut(Event<'_>)) {
    parse_with(text, &ParseOptions::default(), handler);
}

/// [`parse`] with options (the limits; an encoding given in them does not
/// apply to text).
///
/// ```
/// use xml5dom::events::{self, Event};
/// use xml5dom::{ErrorCode, ParseOptions};
///
/// let mut options = ParseOptions::default();
/// options.limits.max_attributes = 1;
/// let mut codes = Vec::new();
/// events::parse_with("<a x='1' y='2'/>", &options, |event| {
///     if let Event::Error(error) = event {
///         codes.push(error.code);
///     }
/// });
/// assert_eq!(codes, [ErrorCode::AttributeLimit]);
/// ```
pub fn parse_with(text: &str, options: &ParseOptions, handler: impl FnMut(Event<'_>)) {
    let limits = &options.limits;
    let kept = limits.input_kept(text);
    let (whole, text) = (text.len(), &text[..kept]);
    let mut sink = EventSink::new(handler);
    if kept < whole {
        // First among the errors at the end of the text (as a document
        // lists it): the input ends there.
        sink.classed_error(ErrorCode::InputSizeLimit, kept, ErrorClass::InputCut);
    }
    parse_into(text, options, sink);
}

/// Parses what `reader` gives, with the default options, in memory bounded by the largest token and
/// the depth of the document, not its size: the bytes are decoded as they
/// come (the encoding sniffed as [`Document::parse_bytes`] does), and what
/// the parse no longer needs is let go. The events are those [`parse`]
/// gives for the decoded text. Only reading can fail.
///
/// A stream keeps no source offsets in 32 bits, as a document does, so
/// [`Limits::max_input_bytes`] applies to it only when set below its
/// default ([`MAX_INPUT_BYTES`]): a stream of any size is read to its end.
///
/// ```
/// use xml5dom::events::{self, Event};
///
/// let feed = "<feed><entry>1</entry><entry>2</entry></feed>";
/// let mut entries = 0;
/// events::parse_reader(feed.as_bytes(), |event| {
///     if let Event::EndElement(end) = event {
///         entries += usize::from(end.name.local == "entry");
///     }
/// })
/// .unwrap();
/// assert_eq!(entries, 2);
/// ```
///
/// [`Document::parse_bytes`]: crate::dom::Document::parse_bytes
/// [`Limits::max_input_bytes`]: crate::limits::Limits::max_input_bytes
/// [`MAX_INPUT_BYTES`]: crate::limits::MAX_INPUT_BYTES
pub fn parse_reader<R: std::io::Read>(
    reader: R,
    handler: impl FnMut(Event<'_>),
) -> Result<(), crate::error::Error> {
    parse_reader_with(reader, &ParseOptions::default(), handler)
}

/// [`parse_reader`] with options (limits, the encoding).
///
/// ```
/// use xml5dom::events::{self, Event};
/// use xml5dom::ParseOptions;
///
/// let options = ParseOptions::default().encoding_label("iso-8859-1").unwrap();
/// let mut text = String::new();
/// events::parse_reader_with(&b"<a>caf\xe9</a>"[..], &options, |event| {
///     if let Event::Text { text: piece, .. } = event {
///         text.push_str(piece);
///     }
/// })
/// .unwrap();
/// assert_eq!(text, "caf\u{e9}");
/// ```
pub fn parse_reader_with<R: std::io::Read>(
    mut reader: R,
    options: &ParseOptions,
    handler: impl FnMut(Event<'_>),
) -> Result<(), crate::error::Error> {
    let mut parser = Parser::with_options(options, handler);
    let mut buffer = vec![0; stream::READ_SIZE];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => parser.feed(&buffer[..read]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(source) => {
                return Err(crate::error::Error::Read {
                    path: "input".to_owned(),
                    source,
                })
            }
        }
        if parser.is_cut() {
            break;
        }
    }
    parser.finish();
    Ok(())
}
