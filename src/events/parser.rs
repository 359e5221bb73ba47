//! The push parser of events: the caller feeds bytes as it gets them, and
//! the events each piece completes go to a handler before `feed` returns.

use crate::decoding::{Encoding, EncodingSource, ParseOptions};

use super::stream::Stream;
use super::Event;

/// A push parser of XML5 events: [`feed`](Parser::feed) it bytes in pieces
/// cut anywhere, and each event goes to the handler as soon as the input
/// so far decides it, in the bounded memory of
/// [`parse_reader`](super::parse_reader) (which is this parser reading a
/// `Read`). Where [`Reader`](super::Reader) keeps the events of a piece
/// until they are asked for, this parser keeps none: the end of the input
/// closing a million open elements is a million calls, not a million
/// events held. It is `Send` when its handler is.
///
/// ```
/// use xml5dom::events::{Event, Parser};
///
/// let mut ends = 0;
/// let mut parser = Parser::new(|event| {
///     ends += usize::from(matches!(event, Event::EndElement(_)));
/// });
/// for piece in [&b"<a><b>x</b"[..], b"><c>", b"y"] {
///     parser.feed(piece);
/// }
/// parser.finish();
/// assert_eq!(ends, 3); // </b>, then <c> and <a> where the input ends
/// ```
pub struct Parser<F: FnMut(Event<'_>)> {
    stream: Stream<F>,
}

impl<F: FnMut(Event<'_>)> Parser<F> {
    /// A parser of bytes (the encoding sniffed as
    /// [`Document::parse_bytes`](crate::dom::Document::parse_bytes) does),
    /// handing its events to `handler`, with the default options.
    pub fn new(handler: F) -> Parser<F> {
        Parser::with_options(&ParseOptions::default(), handler)
    }

    /// A parser of bytes with options (limits, the encoding), handing its
    /// events to `handler`.
    ///
    /// ```
    /// use xml5dom::events::{Event, Parser};
    /// use xml5dom::{ErrorCode, ParseOptions};
    ///
    /// let mut options = ParseOptions::default();
    /// options.limits.max_element_depth = Some(1);
    /// let mut codes = Vec::new();
    /// let mut parser = Parser::with_options(&options, |event| {
    ///     if let Event::Error(error) = event {
    ///         codes.push(error.code);
    ///     }
    /// });
    /// parser.feed(b"<a><b/></a>");
    /// parser.finish();
    /// assert_eq!(codes, [ErrorCode::ElementDepthLimit]);
    /// ```
    pub fn with_options(options: &ParseOptions, handler: F) -> Parser<F> {
        Parser {
            stream: Stream::new(handler, options, false),
        }
    }

    /// Takes the next piece of input.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.stream.feed_bytes(bytes);
    }

    /// The input was cut at the input-size limit: more is ignored.
    pub fn is_cut(&self) -> bool {
        self.stream.ended()
    }

    /// Ends the input: what it leaves open is closed and the last errors
    /// handed on. The parser still answers [`source`](Self::source).
    pub fn end(&mut self) {
        self.stream.end();
    }

    /// Ends the input (if [`end`](Self::end) was not called) and gives the
    /// handler back.
    pub fn finish(self) -> F {
        self.stream.finish()
    }

    /// How many bytes of text (decoded) were parsed so far.
    pub fn text_read(&self) -> usize {
        self.stream.text_fed()
    }

    /// The encoding the input is read in and how it was found, once
    /// sniffing could tell.
    pub fn encoding(&self) -> Option<(Encoding, EncodingSource)> {
        self.stream.encoding()
    }

    /// The text between two offsets, if the parser still holds it (see
    /// [`Reader::source`](super::Reader::source)).
    pub fn source(&mut self, start: usize, end: usize) -> Option<&str> {
        self.stream.source(start, end)
    }

    /// Keeps `bytes` of text before any error still to come (see
    /// [`Reader::keep_context`](super::Reader::keep_context)).
    pub fn keep_context(&mut self, bytes: usize) {
        self.stream.keep_behind(bytes);
    }

    /// Keeps the text from `offset` on until held elsewhere or let go with
    /// `None` (see [`Reader::hold`](super::Reader::hold)).
    pub fn hold(&mut self, offset: Option<usize>) {
        self.stream.pin(offset);
    }
}

// A push parser may move to another thread (a task of an async runtime, a
// Python object any thread may call) when its handler may.
const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<Parser<fn(Event<'_>)>>();
};
