//! Layer 6, the top of the pipeline: where the stages are wired together
//! (the feeding itself is `driver.rs`'s). Text goes
//! to the tree builder ([`Document::parse`], [`Document::parse_string`]);
//! bytes are decoded first ([`Document::parse_bytes`],
//! [`Document::parse_vec`], [`Document::from_file`],
//! [`Document::from_reader`], the push [`Parser`]), and the decoding's
//! errors and encoding join the document. Nothing below imports this
//! module: the DOM knows nothing of parsing.
//!
//! A document keeps its source text. Given a `&str` (or bytes it can only
//! borrow), it copies it; given a `String`, or a `Vec<u8>` of valid UTF-8,
//! it takes that buffer as it is, and text decoded from another encoding
//! is moved in too: no second copy of the input. Given [`SharedText`]
//! (text its caller owns, such as a Python `bytes` object), it keeps a
//! reference to it.
//!
//! Every entry point ends in [`parse_text`], which takes at most
//! `Limits::max_input_bytes` of the text (source offsets are 32-bit).

use std::borrow::Cow;
use std::sync::Arc;

use crate::decoding::{
    decode, decode_str, decode_vec, ByteStream, Decoded, EncodingSource, InputMap, ParseOptions,
};
use crate::dom::{Document, SharedText, SourceText};
use crate::error::{Error, ErrorCode, ParseError};
use crate::tree_builder::DocumentSink;

mod driver;

pub(crate) use driver::{build_fragment, parse_into, Pieces};

impl Document {
    /// Parses `text` with the XML5 rules. Never fails. The document keeps a
    /// copy of `text` as its source; [`Document::parse_string`] takes a
    /// `String` instead.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::parse("<a><b>unclosed</a>");
    /// assert_eq!(doc.errors().len(), 1);
    /// assert_eq!(doc.root_element().unwrap().text_content(), "unclosed");
    /// ```
    pub fn parse(text: &str) -> Document {
        Document::parse_with(text, &ParseOptions::default())
    }

    /// Parses `text` with options (the [`Limits`](crate::limits::Limits); the
    /// encoding option is for bytes). Never fails.
    ///
    /// ```
    /// use xml5dom::{Document, ErrorCode, ParseOptions};
    /// let mut options = ParseOptions::default();
    /// options.limits.max_attributes = 1;
    /// let doc = Document::parse_with("<a x='1' y='2'/>", &options);
    /// assert_eq!(doc.errors()[0].code, ErrorCode::AttributeLimit);
    /// assert_eq!(doc.root_element().unwrap().attributes().count(), 1);
    /// ```
    pub fn parse_with(text: &str, options: &ParseOptions) -> Document {
        parse_text(Input::Borrowed(text), options)
    }

    /// Parses `text` with the XML5 rules, taking it as the document's
    /// source: the same document as [`Document::parse`] makes, without
    /// copying the text (the document keeps the `String`'s buffer as it
    /// is, spare capacity included). Never fails.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let text = String::from("<a><b>unclosed</a>");
    /// let buffer = text.as_ptr();
    /// let doc = Document::parse_string(text);
    /// assert_eq!(doc.errors().len(), 1);
    /// assert_eq!(doc.root_element().unwrap().text_content(), "unclosed");
    /// assert_eq!(doc.source().as_ptr(), buffer); // not copied
    /// ```
    pub fn parse_string(text: String) -> Document {
        Document::parse_string_with(text, &ParseOptions::default())
    }

    /// Parses `text` with options, taking it as the document's source (see
    /// [`Document::parse_string`]; the encoding option is for bytes). Never
    /// fails.
    ///
    /// ```
    /// use xml5dom::{Document, ErrorCode, ParseOptions};
    /// let mut options = ParseOptions::default();
    /// options.limits.max_attributes = 1;
    /// let doc = Document::parse_string_with("<a x='1' y='2'/>".to_owned(), &options);
    /// assert_eq!(doc.errors()[0].code, ErrorCode::AttributeLimit);
    /// assert_eq!(doc.source(), "<a x='1' y='2'/>");
    /// ```
    pub fn parse_string_with(text: String, options: &ParseOptions) -> Document {
        parse_text(Input::Given(SourceText::Owned(text)), options)
    }

    /// Parses text its caller shares with the document (see
    /// [`SharedText`]), as [`Document::parse_string_with`] parses a
    /// `String`: the document keeps `text` as its source, without a copy
    /// (unless the input-size limit cuts it, when it copies what it keeps).
    /// For text whose owner is not a Rust `String` (a Python `str`, a
    /// memory map), whose copy would cost time and memory. Never fails.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xml5dom::{Document, ParseOptions, SharedText};
    /// let owner = String::from("<a><b>unclosed</a>"); // or any `AsRef<str>`
    /// let buffer = owner.as_ptr();
    /// let text: SharedText = Arc::new(owner);
    /// let doc = Document::parse_shared_with(text, &ParseOptions::default());
    /// assert_eq!(doc.errors().len(), 1);
    /// assert_eq!(doc.source().as_ptr(), buffer); // not copied
    /// ```
    pub fn parse_shared_with(text: SharedText, options: &ParseOptions) -> Document {
        parse_text(Input::Given(SourceText::Shared(text)), options)
    }

    /// Parses bytes that are valid UTF-8, shared with the document as
    /// [`SharedText`], as [`Document::parse_bytes_with`] parses bytes: the
    /// encoding is sniffed (a byte-order mark, the declaration, the
    /// options' encoding), and when it is UTF-8 the document keeps `text`
    /// as its source without a copy (after a byte-order mark, or cut by the
    /// input-size limit, it copies what it keeps); in another encoding the
    /// bytes are decoded into new text. Same document, errors, encoding and
    /// input offsets as `parse_bytes_with` gives. Never fails.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xml5dom::{Document, ParseOptions, SharedText};
    /// let owner = String::from("<?xml version='1.0' encoding='UTF-8'?><a>caf\u{e9}</a>");
    /// let buffer = owner.as_ptr();
    /// let text: SharedText = Arc::new(owner);
    /// let doc = Document::parse_shared_bytes_with(text, &ParseOptions::default());
    /// assert_eq!(doc.root_element().unwrap().text_content(), "caf\u{e9}");
    /// assert_eq!(doc.source().as_ptr(), buffer); // not copied
    ///
    /// // Declared Latin-1: its bytes are read as Latin-1, as `parse_bytes` reads them.
    /// let text: SharedText = Arc::new("<?xml version='1.0' encoding='ISO-8859-1'?><a>\u{e9}</a>");
    /// let doc = Document::parse_shared_bytes_with(text, &ParseOptions::default());
    /// assert_eq!(doc.root_element().unwrap().text_content(), "\u{c3}\u{a9}");
    /// ```
    pub fn parse_shared_bytes_with(text: SharedText, options: &ParseOptions) -> Document {
        let shared: &str = (*text).as_ref();
        let mut decoded = decode_str(shared, options);
        let whole = matches!(&decoded.text, Cow::Borrowed(kept) if kept.len() == shared.len());
        if !whole {
            return build(decoded, options);
        }
        decoded.text = Cow::Borrowed("");
        build_input(
            Input::Given(SourceText::Shared(Arc::clone(&text))),
            decoded,
            options,
        )
    }

    /// Parses bytes in any encoding xml5dom reads ([`Encoding`](crate::decoding::Encoding)), found by
    /// sniffing.
    /// Never fails. The document keeps a copy of the text (of the bytes
    /// themselves when they are UTF-8); [`Document::parse_vec`] takes a
    /// `Vec` instead.
    ///
    /// ```
    /// use xml5dom::{Document, EncodingSource};
    /// let mut bytes = vec![0xFF, 0xFE]; // UTF-16LE with a BOM
    /// for unit in "<a>\u{e9}</a>".encode_utf16() {
    ///     bytes.extend(unit.to_le_bytes());
    /// }
    /// let doc = Document::parse_bytes(&bytes);
    /// assert_eq!(doc.root_element().unwrap().text_content(), "\u{e9}");
    /// assert_eq!(doc.encoding_source(), EncodingSource::ByteOrderMark);
    /// ```
    pub fn parse_bytes(bytes: &[u8]) -> Document {
        Document::parse_bytes_with(bytes, &ParseOptions::default())
    }

    /// Parses bytes with options.
    pub fn parse_bytes_with(bytes: &[u8], options: &ParseOptions) -> Document {
        build(decode(bytes, options), options)
    }

    /// Parses bytes handed over as a `Vec`, as [`Document::parse_bytes`]
    /// does (same document, errors, encoding and input offsets). When the
    /// bytes are UTF-8 (sniffing finds no other encoding) and valid, the
    /// `Vec` becomes the document's source without a copy (a UTF-8
    /// byte-order mark is first drained off in place, moving the bytes
    /// down); otherwise they are decoded into new text, which the
    /// document takes. Never fails.
    ///
    /// ```
    /// use xml5dom::{Document, EncodingSource};
    /// let bytes = b"<a>caf\xC3\xA9</a>".to_vec();
    /// let buffer = bytes.as_ptr();
    /// let doc = Document::parse_vec(bytes);
    /// assert_eq!(doc.root_element().unwrap().text_content(), "caf\u{e9}");
    /// assert_eq!(doc.source().as_ptr(), buffer); // not copied
    ///
    /// // With a byte-order mark: drained off, offsets in the input 3 on.
    /// let bytes = b"\xEF\xBB\xBF<a>x</a>".to_vec();
    /// let buffer = bytes.as_ptr();
    /// let doc = Document::parse_vec(bytes);
    /// assert_eq!(doc.source(), "<a>x</a>");
    /// assert_eq!(doc.source().as_ptr(), buffer);
    /// assert_eq!(doc.encoding_source(), EncodingSource::ByteOrderMark);
    /// assert_eq!(doc.input_offset(3), Some(6));
    /// ```
    pub fn parse_vec(bytes: Vec<u8>) -> Document {
        Document::parse_vec_with(bytes, &ParseOptions::default())
    }

    /// Parses bytes handed over as a `Vec`, with options (see
    /// [`Document::parse_vec`]). Never fails.
    ///
    /// ```
    /// use xml5dom::{Document, EncodingSource, ParseOptions};
    /// let bytes = b"<p>caf\xe9</p>".to_vec(); // Latin-1, undeclared
    /// let options = ParseOptions::default().encoding_label("iso-8859-1").unwrap();
    /// let doc = Document::parse_vec_with(bytes, &options); // decoded into new text
    /// assert_eq!(doc.root_element().unwrap().text_content(), "caf\u{e9}");
    /// assert_eq!(doc.encoding_source(), EncodingSource::Caller);
    /// ```
    pub fn parse_vec_with(bytes: Vec<u8>, options: &ParseOptions) -> Document {
        build(decode_vec(bytes, options), options)
    }

    /// Reads everything from `reader` and parses it, with the default
    /// options (the encoding sniffed as [`Document::parse_bytes`] does).
    /// Only reading can fail.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::from_reader(&b"<a/>"[..]).unwrap();
    /// assert_eq!(doc.root_element().unwrap().name(), "a");
    /// ```
    pub fn from_reader<R: std::io::Read>(reader: R) -> Result<Document, Error> {
        Document::from_reader_with(reader, &ParseOptions::default())
    }

    /// Reads everything from `reader` and parses it with options (limits,
    /// the encoding). Only reading can fail.
    ///
    /// ```
    /// use xml5dom::{Document, ParseOptions};
    /// let options = ParseOptions::default().encoding_label("iso-8859-1").unwrap();
    /// let doc = Document::from_reader_with(&b"<a>caf\xe9</a>"[..], &options).unwrap();
    /// assert_eq!(doc.root_element().unwrap().text_content(), "caf\u{e9}");
    /// ```
    pub fn from_reader_with<R: std::io::Read>(
        mut reader: R,
        options: &ParseOptions,
    ) -> Result<Document, Error> {
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .map_err(|source| Error::Read {
                path: "input".to_owned(),
                source,
            })?;
        // Reading may have left the buffer room to spare, which the
        // document would keep.
        bytes.shrink_to_fit();
        Ok(Document::parse_vec_with(bytes, options))
    }

    /// Reads the file at `path` and parses it, with the default options
    /// (the encoding sniffed as [`Document::parse_bytes`] does). Only
    /// reading can fail.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let doc = Document::from_file("examples/data/feed.xml").unwrap();
    /// assert_eq!(doc.root_element().unwrap().name(), "rss");
    /// assert!(Document::from_file("no/such/file.xml").is_err());
    /// ```
    pub fn from_file<P: AsRef<std::path::Path>>(path: P) -> Result<Document, Error> {
        Document::from_file_with(path, &ParseOptions::default())
    }

    /// Reads the file at `path` and parses it with options (limits, the
    /// encoding). Only reading can fail.
    ///
    /// ```
    /// use xml5dom::{Document, ErrorCode, ParseOptions};
    /// let mut options = ParseOptions::default();
    /// options.limits.max_attributes = 1;
    /// let doc = Document::from_file_with("examples/data/feed.xml", &options).unwrap();
    /// assert!(doc.errors().iter().any(|e| e.code == ErrorCode::AttributeLimit));
    /// ```
    pub fn from_file_with<P: AsRef<std::path::Path>>(
        path: P,
        options: &ParseOptions,
    ) -> Result<Document, Error> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| Error::Read {
            path: path.display().to_string(),
            source,
        })?;
        Ok(Document::parse_vec_with(bytes, options))
    }
}

/// A push parser: feed it bytes in chunks cut anywhere (inside a character,
/// inside a byte-order mark), then finish.
///
/// It sniffs the encoding as soon as the bytes seen can tell, decodes as
/// bytes arrive, and builds the tree as it goes: each chunk's text joins
/// the document's source and each node it completes is in the tree when
/// [`feed`](Parser::feed) returns, so that what it holds is the document
/// (its source, tree and errors) and a chunk, and [`finish`](Parser::finish)
/// has only the end of the input left to do. The document and its errors
/// are the same however the input was cut, and the same as
/// [`Document::parse_bytes`] makes of all of it.
///
/// ```
/// use xml5dom::Parser;
/// let bytes = "<?xml version='1.0' encoding='Shift_JIS'?><a>\u{65e5}</a>";
/// let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(bytes);
/// let mut parser = Parser::new();
/// for byte in sjis.iter() {
///     parser.feed(std::slice::from_ref(byte));
/// }
/// let doc = parser.finish();
/// assert_eq!(doc.root_element().unwrap().text_content(), "\u{65e5}");
/// assert_eq!(doc.encoding().name(), "Shift_JIS");
/// ```
pub struct Parser {
    bytes: ByteStream,
    /// The tokenizer and the tree builder, whose source (all of the text
    /// so far: it is never let go) becomes the document's.
    pieces: Pieces<DocumentSink<'static>>,
    /// Text decoded and not yet fed (kept for its allocation).
    piece: String,
    /// The decoding errors so far.
    decoding_errors: Vec<(ErrorCode, usize)>,
}

// The push parser of documents may move to another thread.
const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<Parser>();
};

impl Default for Parser {
    fn default() -> Parser {
        Parser::new()
    }
}

impl Parser {
    /// A parser with the default options.
    ///
    /// ```
    /// use xml5dom::Parser;
    /// let mut parser = Parser::new();
    /// parser.feed(b"<a>x</");
    /// parser.feed(b"a>");
    /// assert_eq!(parser.finish().to_xml(), "<a>x</a>");
    /// ```
    pub fn new() -> Parser {
        Parser::with_options(&ParseOptions::default())
    }

    /// A parser with options (limits, the encoding).
    ///
    /// ```
    /// use xml5dom::{ErrorCode, ParseOptions, Parser};
    /// let mut options = ParseOptions::default();
    /// options.limits.max_attributes = 1;
    /// let mut parser = Parser::with_options(&options);
    /// parser.feed(b"<a x='1' y='2'/>");
    /// assert_eq!(parser.finish().errors()[0].code, ErrorCode::AttributeLimit);
    /// ```
    pub fn with_options(options: &ParseOptions) -> Parser {
        let options = options.clone();
        let limit = Some(options.limits.input_bytes());
        Parser {
            bytes: ByteStream::new(options.clone()),
            pieces: Pieces::new(&options, limit, DocumentSink::growing()),
            piece: String::new(),
            decoding_errors: Vec::new(),
        }
    }

    /// Takes the next chunk of input.
    pub fn feed(&mut self, bytes: &[u8]) {
        if !self.pieces.is_cut() {
            self.bytes.feed(bytes);
            self.feed_decoded();
        }
    }

    /// Feeds the text decoded so far, up to the input-size limit.
    fn feed_decoded(&mut self) {
        let mut piece = std::mem::take(&mut self.piece);
        self.bytes
            .take_decoded(&mut piece, &mut self.decoding_errors);
        let kept = self.pieces.kept_of(&piece);
        self.pieces.feed(&piece[..kept]);
        piece.clear();
        self.piece = piece;
    }

    /// Ends the input: the document.
    pub fn finish(mut self) -> Document {
        if !self.pieces.is_cut() {
            self.bytes.end();
            self.feed_decoded();
        }
        let cut = self.pieces.is_cut();
        let mut builder = self.pieces.finish();
        let text = builder.source_mut().take_text();
        let mut doc = builder.finish();
        doc.give_grown_source(text);
        // The builder's errors wait for their lines and columns until the
        // whole source is there.
        doc.count_error_positions();
        doc.count_context_positions_in_source();
        let kept = doc.source().len();
        if cut {
            cut_at(&mut doc, kept);
        }
        let errors = std::mem::take(&mut self.decoding_errors);
        let found = self.bytes.finish_taken(doc.source(), errors);
        // What decoding found, apart from the text (the document's now);
        // not what it found in text the limit cut off.
        let mut found = Decoded {
            text: Cow::Borrowed(""),
            errors: found.errors,
            anchors: found.anchors,
            ..found
        };
        if cut {
            found.errors.retain(|&(_, offset)| offset < kept);
        }
        add_decoding(&mut doc, &found);
        doc
    }
}

/// Builds the document from decoded text: parses it, adds the decoding
/// errors, records the encoding, and checks the declaration against a BOM
/// or detected UTF-16.
fn build(decoded: Decoded<'_>, options: &ParseOptions) -> Document {
    let mut decoded = decoded;
    let text = match std::mem::take(&mut decoded.text) {
        Cow::Borrowed(text) => Input::Borrowed(text),
        Cow::Owned(text) => Input::Given(SourceText::Owned(text)),
    };
    build_input(text, decoded, options)
}

/// [`build`] of `text`, the text `decoded` stood for.
fn build_input(text: Input<'_>, decoded: Decoded<'_>, options: &ParseOptions) -> Document {
    let mut decoded = decoded;
    let decoded_len = text.as_str().len();
    let mut doc = parse_text(text, options);
    // Decoding errors in text the input-size limit cut off are not the
    // document's.
    let kept = doc.source().len();
    if kept < decoded_len {
        decoded.errors.retain(|&(_, offset)| offset < kept);
    }
    add_decoding(&mut doc, &decoded);
    doc
}

/// Adds what decoding found to a document parsed from its text: the
/// decoding errors, a declaration that disagrees with a byte-order mark or
/// detected UTF-16, the encoding, and the map back to the input.
fn add_decoding(doc: &mut Document, decoded: &Decoded<'_>) {
    for &(code, offset) in &decoded.errors {
        doc.add_error(code, offset);
    }
    if matches!(
        decoded.source,
        EncodingSource::ByteOrderMark | EncodingSource::Detection
    ) {
        let mismatch = doc.xml_declaration().and_then(|declaration| {
            let label = declaration.encoding.as_deref()?;
            (!decoded.encoding.agrees_with(label)).then_some(declaration.span.start)
        });
        if let Some(at) = mismatch {
            doc.add_error(ErrorCode::EncodingMismatch, at);
        }
    }
    doc.sort_errors();
    let input_map = InputMap::new(decoded.anchors.clone(), decoded.linear);
    doc.set_decoding(decoded.encoding, decoded.source, decoded.bom, input_map);
}

/// Parses text into a document: the one path every entry point takes (text
/// given as `&str` or `String`, bytes once decoded, the push [`Parser`]).
///
/// The text is cut to at most `Limits::max_input_bytes` bytes (never more
/// than `u32::MAX`: the document keeps 32-bit source offsets), on a
/// character boundary; the document is built from what is kept, and
/// `input-size-limit` is reported where the input was cut. A `String` is
/// truncated in place, not copied.
/// Text to parse: borrowed (the document copies it), handed over, or
/// shared.
enum Input<'a> {
    Borrowed(&'a str),
    Given(SourceText),
}

impl Input<'_> {
    fn as_str(&self) -> &str {
        match self {
            Input::Borrowed(text) => text,
            Input::Given(text) => text,
        }
    }
}

fn parse_text(text: Input<'_>, options: &ParseOptions) -> Document {
    let len = text.as_str().len();
    let kept = options.limits.input_kept(text.as_str());
    let mut doc = match text {
        Input::Borrowed(text) => driver::build(&text[..kept], options),
        Input::Given(SourceText::Owned(mut text)) => {
            text.truncate(kept);
            driver::build_owned(SourceText::Owned(text), options)
        }
        Input::Given(text) if kept == len => driver::build_owned(text, options),
        // Shared text is not cut in place: what is kept is copied.
        Input::Given(text) => driver::build(&text[..kept], options),
    };
    if kept < len {
        cut_at(&mut doc, kept);
    }
    doc
}

/// Reports `input-size-limit` where the input was cut (first of the errors
/// at that offset: it is why the input ends there).
fn cut_at(doc: &mut Document, kept: usize) {
    let (line, column) = doc.position(kept);
    let at = doc.errors().partition_point(|e| e.offset < kept);
    doc.insert_error(
        at,
        ParseError {
            code: ErrorCode::InputSizeLimit,
            offset: kept,
            line,
            column,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The push parser builds as the input arrives: half-way through, half
    /// of the tree is there.
    #[test]
    fn the_push_parser_builds_as_chunks_arrive() {
        let mut text = String::from("<list>");
        for i in 0..20_000 {
            text.push_str(&format!("<item n='{i}'>{i}</item>\n"));
        }
        text.push_str("</list>");
        let mut parser = Parser::new();
        let (first, second) = text.as_bytes().split_at(text.len() / 2);
        for chunk in first.chunks(4096) {
            parser.feed(chunk);
        }
        let built = parser.pieces.builder().sink().nodes_so_far();
        // Two nodes an item (the element and its text), a line break
        // between: about 30,000 of 60,000 half-way.
        assert!((25_000..35_000).contains(&built), "{built} nodes half-way");
        for chunk in second.chunks(4096) {
            parser.feed(chunk);
        }
        let doc = parser.finish();
        let whole = Document::parse(&text);
        assert_eq!(doc.to_tree_dump(), whole.to_tree_dump());
        assert_eq!(doc.source(), text);
        assert_eq!(doc.to_xml(), text);
    }
}
