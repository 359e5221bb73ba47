//! The stream driver: bytes (or text) in pieces through decoding, the
//! tokenizer and the tree builder into an [`EventSink`], keeping no more
//! of the input than the parse still reads.
//!
//! Each piece is decoded, appended to the builder's window of the source
//! (`tree_builder::Source`) and fed to the tokenizer, which hands on every
//! token the piece completes. Then the window lets go of what lies before
//! both the tokenizer's unfinished token and what the builder still needs
//! (the text waiting to become a node), and before a pin a caller may set
//! (the subtree being collected). Memory is the window, the open elements
//! and the names seen: not the document.

use crate::decoding::{ByteStream, Encoding, EncodingSource, ParseOptions};
use crate::dom::Names;
use crate::error::ErrorCode;
use crate::limits::MAX_INPUT_BYTES;
use crate::parse::Pieces;

use super::sink::{ErrorClass, EventSink, Handler};

/// How many bytes a stream reads at a time.
pub(crate) const READ_SIZE: usize = 64 << 10;

/// A parse fed in pieces, handing events to `H`.
pub(crate) struct Stream<H: Handler> {
    /// The tokenizer and the tree builder, fed the text as it comes.
    pieces: Pieces<EventSink<H>>,
    /// Decoding, for bytes; `None` for text (already decoded).
    bytes: Option<ByteStream>,
    /// Text decoded and not yet fed (kept for its allocation).
    piece: String,
    /// Decoding errors of `piece`.
    decoding_errors: Vec<(ErrorCode, usize)>,
    /// What sniffing found was handed on.
    encoding_reported: bool,
    /// The bytes of a character cut by the end of a piece of text given as
    /// bytes.
    carry: Vec<u8>,
    /// An offset the window keeps the source from.
    pin: Option<usize>,
    /// The input ended.
    finished: bool,
    /// The encoding, once sniffing found it (text given as text: UTF-8).
    encoding: Option<(Encoding, EncodingSource)>,
    /// Events wait in a queue until read: the caller says when the window
    /// may be released.
    queued: bool,
    /// Bytes kept before what the parse still reads (context for errors).
    behind: usize,
}

impl<H: Handler> Stream<H> {
    /// A stream of bytes (decoded as sniffing finds), or of text given as
    /// UTF-8 bytes when `text` (no sniffing).
    pub(crate) fn new(handler: H, options: &ParseOptions, text: bool) -> Stream<H> {
        let limits = options.limits.clone();
        let limit = (limits.max_input_bytes < MAX_INPUT_BYTES).then_some(limits.max_input_bytes);
        Stream {
            pieces: Pieces::new(options, limit, EventSink::new(handler)),
            bytes: (!text).then(|| ByteStream::unmapped(options.clone())),
            piece: String::new(),
            decoding_errors: Vec::new(),
            encoding_reported: false,
            carry: Vec::new(),
            pin: None,
            finished: false,
            encoding: text.then_some((Encoding::UTF_8, EncodingSource::Default)),
            queued: false,
            behind: 0,
        }
    }

    /// The event sink.
    fn sink(&mut self) -> &mut EventSink<H> {
        self.pieces.builder_mut().sink_mut()
    }

    /// The handler.
    pub(crate) fn handler_mut(&mut self) -> &mut H {
        &mut self.sink().handler
    }

    /// The table of names the events' names are in.
    pub(crate) fn names(&self) -> &Names {
        &self.pieces.builder().sink().names
    }

    /// The handler and the table of names together.
    pub(crate) fn handler_and_names(&mut self) -> (&mut H, &Names) {
        let sink = self.sink();
        (&mut sink.handler, &sink.names)
    }

    /// Releases the window only when told ([`release`](Self::release)).
    pub(crate) fn queued(mut self) -> Stream<H> {
        self.queued = true;
        self
    }

    /// Keeps the source from `offset` on (or lets the pin go with `None`).
    pub(crate) fn pin(&mut self, offset: Option<usize>) {
        self.pin = offset;
    }

    /// The source between two offsets, if the window still holds it.
    pub(crate) fn source(&mut self, start: usize, end: usize) -> Option<&str> {
        self.pieces.builder_mut().source_mut().get(start, end)
    }

    /// Keeps `bytes` of text before the earliest offset the parse still
    /// reads (and so before every error still to come).
    pub(crate) fn keep_behind(&mut self, bytes: usize) {
        self.behind = bytes;
    }

    /// The encoding of the input and how it was found, once known.
    pub(crate) fn encoding(&self) -> Option<(Encoding, EncodingSource)> {
        self.encoding
    }

    /// How many bytes of text were fed.
    pub(crate) fn text_fed(&self) -> usize {
        self.pieces.fed()
    }

    /// The input was cut at the limit: the caller may stop reading.
    pub(crate) fn ended(&self) -> bool {
        self.pieces.is_cut()
    }

    /// Takes the next piece of input.
    pub(crate) fn feed_bytes(&mut self, bytes: &[u8]) {
        if self.pieces.is_cut() {
            return;
        }
        match &mut self.bytes {
            Some(stream) => {
                stream.feed(bytes);
                self.feed_decoded();
            }
            None => self.feed_utf8(bytes),
        }
    }

    /// Text given as UTF-8 bytes, cut anywhere.
    fn feed_utf8(&mut self, bytes: &[u8]) {
        let mut piece = std::mem::take(&mut self.carry);
        piece.extend_from_slice(bytes);
        let valid = match std::str::from_utf8(&piece) {
            Ok(_) => piece.len(),
            Err(error) => error.valid_up_to(),
        };
        self.carry = piece.split_off(valid);
        let text = String::from_utf8(piece).unwrap_or_default();
        self.feed_text(&text);
    }

    /// Feeds what decoding has made of the bytes so far.
    fn feed_decoded(&mut self) {
        let Some(stream) = &mut self.bytes else {
            return;
        };
        let mut piece = std::mem::take(&mut self.piece);
        let mut errors = std::mem::take(&mut self.decoding_errors);
        stream.take_decoded(&mut piece, &mut errors);
        if !self.encoding_reported {
            if let Some(found) = stream.found() {
                self.encoding_reported = true;
                self.encoding = Some((found.encoding, found.source));
                let sink = self.sink();
                if matches!(
                    found.source,
                    EncodingSource::ByteOrderMark | EncodingSource::Detection
                ) {
                    sink.encoding_found = Some(found.encoding);
                }
                // After the decoding errors of the bytes sniffing read (at
                // one offset, a document lists them so), and like them
                // only where the input-size limit let the text in.
                errors.extend(found.errors);
            }
        }
        let kept = self.kept_of(&piece);
        // Before the text they are in, so that they are in the heap when
        // the parse settles the errors before them.
        let end = self.pieces.fed() + kept;
        let sink = self.sink();
        for &(code, offset) in &errors {
            // Decoding errors in text the limit cut off are not the parse's.
            if offset < end {
                sink.classed_error(code, offset, ErrorClass::Decoding);
            }
        }
        self.feed_kept(&piece[..kept]);
        piece.clear();
        errors.clear();
        self.piece = piece;
        self.decoding_errors = errors;
    }

    /// Feeds a piece of text, as much as the input-size limit lets in.
    fn feed_text(&mut self, text: &str) {
        let kept = self.kept_of(text);
        self.feed_kept(&text[..kept]);
    }

    /// How much of `text`, the next piece, the input-size limit lets in (on
    /// a character boundary): where it cuts, it reports the cut and ends
    /// the input.
    fn kept_of(&mut self, text: &str) -> usize {
        if self.pieces.is_cut() {
            return 0;
        }
        let keep = self.pieces.kept_of(text);
        if self.pieces.is_cut() {
            let at = self.pieces.fed() + keep;
            self.sink()
                .classed_error(ErrorCode::InputSizeLimit, at, ErrorClass::InputCut);
        }
        keep
    }

    /// Feeds text the limit let in.
    fn feed_kept(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.pieces.feed(text);
        if !self.queued {
            self.release();
        }
    }

    /// Lets the window go of what nobody reads any more. A stream whose
    /// events wait in a queue is told when they were read (the source of
    /// a queued event may be wanted: a subtree's); others release after
    /// each piece.
    pub(crate) fn release(&mut self) {
        let mut keep = self.pieces.tokenizer().kept_from();
        let builder = self.pieces.builder_mut();
        keep = keep.min(builder.needed_from());
        if let Some(waiting) = builder.sink().waiting_from() {
            keep = keep.min(waiting);
        }
        let handed = builder.sink_mut().handed_from.take();
        if self.behind > 0 {
            // The text before the errors handed on during this piece too:
            // the caller learns of them only once the piece is fed.
            keep = keep.min(handed.unwrap_or(usize::MAX));
        }
        keep = keep.saturating_sub(self.behind);
        if let Some(pin) = self.pin {
            keep = keep.min(pin);
        }
        builder.release_before(keep);
    }

    /// Ends the input: the rest is parsed, the errors all handed on.
    pub(crate) fn end(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if let Some(stream) = &mut self.bytes {
            stream.end();
            self.feed_decoded();
        } else if !self.carry.is_empty() {
            // A character cut off by the end of the text: not text.
            let rest = String::from_utf8_lossy(&std::mem::take(&mut self.carry)).into_owned();
            self.feed_text(&rest);
        }
        self.pieces.end();
        self.pieces.builder_mut().settle_all();
    }

    /// [`end`](Self::end), and the handler back.
    pub(crate) fn finish(mut self) -> H {
        self.end();
        self.pieces.finish().finish()
    }
}
