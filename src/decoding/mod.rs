//! Layer 2: bytes to text.
//!
//! It owns the encodings ([`Encoding`], in `encoding.rs`, with the
//! generated tables of `code_pages.rs`), finding the encoding (sniffing)
//! and decoding, and hands UTF-8 text, plus the decoding errors and what it
//! found out about the encoding, to the tokenizer and tree builder.
//!
//! Sniffing, in this order (XML 1.0 Appendix F): the caller's encoding
//! ([`ParseOptions`]); a byte-order mark (UTF-32BE/LE, UTF-8, UTF-16LE/BE);
//! UTF-32 or UTF-16 without a BOM, recognised from `<` or `<?` in the first
//! four bytes, or EBCDIC from `<?xm` (its declaration then read in EBCDIC);
//! the `encoding` of the XML declaration, read from the raw bytes;
//! otherwise UTF-8. Decoding replaces each malformed byte sequence with
//! U+FFFD and reports it, but in UTF-8, where each byte of a malformed
//! sequence is read as its windows-1252 character (docs/encodings.md, "Bytes
//! that are not UTF-8"). Valid UTF-8 is only validated.
//!
//! **Offsets.** Every offset xml5dom reports (spans, parse errors) is a byte
//! offset into the decoded UTF-8 text, the document's `source()`. For input
//! that is valid UTF-8 that is the input itself. Its `input_offset` maps
//! an offset back to the input's bytes where that is exact: everywhere for
//! UTF-8 input, and at decoding errors in other encodings. Lines and columns
//! are counted in the text and so are right for every encoding.

mod code_pages;
mod encoding;
mod table;

pub use encoding::Encoding;
pub(crate) use encoding::PieceEncoder;

use std::borrow::Cow;

use encoding_rs::DecoderResult;

use crate::error::{Error, ErrorCode};
use encoding::Engine;

/// How to parse: the one place for parse options.
///
/// ```
/// use xml5dom::{Document, ParseOptions};
/// let bytes = b"<p>caf\xe9</p>"; // Latin-1, undeclared
/// let options = ParseOptions::default().encoding_label("iso-8859-1").unwrap();
/// let doc = Document::parse_bytes_with(bytes, &options);
/// assert_eq!(doc.root_element().unwrap().text_content(), "café");
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ParseOptions {
    /// The encoding to use, whatever the input says about itself.
    pub encoding: Option<Encoding>,
    /// How much the document may make the parser do.
    pub limits: crate::limits::Limits,
    /// What it may read beyond its input: nothing by default (see
    /// [`External`](crate::external::External)).
    pub external: crate::external::External,
    /// Puts names whose prefix nothing declares in the prefix's placeholder
    /// namespace even where the prefix is a well-known one
    /// (`WELL_KNOWN_NAMESPACES`: `itunes`, `dc`, `media`, ...), which by
    /// default binds it to its registered namespace (still reporting
    /// `unbound-namespace-prefix`; docs/conformance.md, "Well-known
    /// prefixes").
    /// Named so that `false`, the default `derive(Default)` gives, is the
    /// binding: the options keep the derived `Default`, which a field
    /// whose default is `true` would need written by hand.
    pub placeholder_for_well_known_prefixes: bool,
    /// Leaves text of XML whitespace only (no CDATA) that follows an
    /// element out of the document: the indentation between elements, for
    /// the crate's own readers that skip it anyway and never write the
    /// document back (`de`), whose trees are then a third smaller on
    /// indented data. Not public: such a document does not round-trip.
    pub(crate) skip_blank_text: bool,
}

impl ParseOptions {
    /// Uses the encoding with this label (see [`Encoding::for_label`]: the
    /// WHATWG Encoding Standard's labels, such as `"shift_jis"` or
    /// `"latin1"`, and the ones XML files use, such as `"cp850"`,
    /// `"macroman"` or `"ucs-4"`).
    ///
    /// ```
    /// use xml5dom::ParseOptions;
    /// assert!(ParseOptions::default().encoding_label("sjis").is_ok());
    /// assert!(ParseOptions::default().encoding_label("ibm037").is_ok());
    /// assert!(ParseOptions::default().encoding_label("klingon").is_err());
    /// ```
    pub fn encoding_label(mut self, label: &str) -> Result<ParseOptions, Error> {
        let encoding =
            Encoding::for_label(label).ok_or_else(|| Error::UnknownEncoding(label.to_owned()))?;
        self.encoding = Some(encoding);
        Ok(self)
    }
}

/// How the encoding of a document was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodingSource {
    /// The caller gave it ([`ParseOptions::encoding`]).
    Caller,
    /// A byte-order mark.
    ByteOrderMark,
    /// Recognised from the first bytes without a BOM: UTF-16 (`<?`),
    /// UTF-32 (`<`), EBCDIC (`<?xm`, its declaration saying which one).
    Detection,
    /// The `encoding` of the XML declaration.
    Declaration,
    /// Nothing said otherwise: UTF-8. (Also the text given as `&str`.)
    Default,
}

/// What sniffing found, once it had enough bytes.
#[derive(Clone, Copy, Debug)]
struct Sniffed {
    encoding: Encoding,
    source: EncodingSource,
    /// Length of the byte-order mark to skip.
    bom: usize,
    /// An unknown label in the declaration: its offset in the input
    /// (nothing more is known); reported once the text exists.
    unknown_label: Option<usize>,
    /// A declaration that says UTF-16 in a document that is not.
    declared_utf16_in_8_bit: Option<usize>,
}

/// How many bytes sniffing may look at for the XML declaration.
const DECLARATION_LIMIT: usize = 1024;

/// Sniffs the encoding from the first bytes; `None` means more bytes are
/// needed to tell (never when `complete`).
fn sniff(bytes: &[u8], complete: bool, options: &ParseOptions) -> Option<Sniffed> {
    let mut found = Sniffed {
        encoding: Encoding::UTF_8,
        source: EncodingSource::Default,
        bom: 0,
        unknown_label: None,
        declared_utf16_in_8_bit: None,
    };
    // A BOM needs up to four bytes to be recognised (UTF-32LE's begins
    // like UTF-16LE's).
    let boms: [(&[u8], Encoding); 5] = [
        (b"\x00\x00\xFE\xFF", Encoding::UTF_32BE),
        (b"\xFF\xFE\x00\x00", Encoding::UTF_32LE),
        (b"\xEF\xBB\xBF", Encoding::UTF_8),
        (b"\xFF\xFE", Encoding::UTF_16LE),
        (b"\xFE\xFF", Encoding::UTF_16BE),
    ];
    for (bom, encoding) in boms {
        if !complete && bytes.len() < bom.len() && bom.starts_with(bytes) {
            return None;
        }
        if bytes.starts_with(bom) {
            found.bom = bom.len();
            found.encoding = encoding;
            found.source = EncodingSource::ByteOrderMark;
            break;
        }
    }
    if let Some(encoding) = options.encoding {
        // The caller's encoding wins; a BOM is skipped only if it agrees.
        if found.encoding != encoding {
            found.bom = 0;
        }
        found.encoding = encoding;
        found.source = EncodingSource::Caller;
        return Some(found);
    }
    if found.source == EncodingSource::ByteOrderMark {
        return Some(found);
    }
    // Without a BOM: the first four bytes of `<?xm` (or of `<` for
    // UTF-32) in each family (XML 1.0 Appendix F).
    let patterns: [(&[u8], Encoding); 4] = [
        (b"\x00\x00\x00<", Encoding::UTF_32BE),
        (b"<\x00\x00\x00", Encoding::UTF_32LE),
        (b"<\x00?\x00", Encoding::UTF_16LE),
        (b"\x00<\x00?", Encoding::UTF_16BE),
    ];
    const EBCDIC: &[u8] = b"\x4C\x6F\xA7\x94";
    if !complete
        && bytes.len() < 4
        && (patterns.iter().any(|(p, _)| p.starts_with(bytes)) || EBCDIC.starts_with(bytes))
    {
        return None;
    }
    if let Some(&(_, encoding)) = patterns.iter().find(|(p, _)| bytes.starts_with(p)) {
        found.encoding = encoding;
        found.source = EncodingSource::Detection;
        return Some(found);
    }
    if bytes.starts_with(EBCDIC) {
        return ebcdic(bytes, complete, found);
    }
    // The declaration, read as ASCII from the raw bytes.
    match declared_label(bytes, complete) {
        Declared::NeedMore => None,
        Declared::None => Some(found),
        Declared::Label(at, label) => {
            match Encoding::for_label(label) {
                Some(encoding) if encoding.is_utf16() || encoding.is_utf32() => {
                    found.declared_utf16_in_8_bit = Some(at);
                }
                Some(encoding) => {
                    found.encoding = encoding;
                    found.source = EncodingSource::Declaration;
                }
                None => found.unknown_label = Some(at),
            }
            Some(found)
        }
    }
}

/// EBCDIC, recognised from `<?xm`: the declaration, read in IBM037 (whose
/// characters for it every EBCDIC code page shares), says which code page.
fn ebcdic(bytes: &[u8], complete: bool, mut found: Sniffed) -> Option<Sniffed> {
    let ibm037 = Encoding::for_code_page(37)?;
    let window = &bytes[..bytes.len().min(DECLARATION_LIMIT)];
    let ascii: Vec<u8> = window
        .iter()
        .map(|&b| match ibm037.decode_byte(b) {
            Some(c) if c.is_ascii() => c as u8,
            _ => b'?',
        })
        .collect();
    found.encoding = ibm037;
    found.source = EncodingSource::Detection;
    match declared_label(&ascii, complete) {
        Declared::NeedMore => return None,
        Declared::None => {}
        Declared::Label(at, label) => match Encoding::for_label(label) {
            // An EBCDIC code page: `<` is 0x4C.
            Some(encoding) if encoding.decode_byte(0x4C) == Some('<') => {
                found.encoding = encoding;
                found.source = EncodingSource::Declaration;
            }
            Some(_) => found.declared_utf16_in_8_bit = Some(at),
            // The first bytes chose the encoding: a label that does not
            // name it is `encoding-mismatch`, once the declaration is
            // parsed (as with a byte-order mark).
            None => {}
        },
    }
    Some(found)
}

enum Declared<'a> {
    NeedMore,
    None,
    /// The label, and its offset.
    Label(usize, &'a [u8]),
}

/// The `encoding` pseudo-attribute of an XML declaration at the start of
/// `bytes`, read as ASCII.
fn declared_label(bytes: &[u8], complete: bool) -> Declared<'_> {
    let prefix = b"<?xml";
    if bytes.len() < prefix.len() + 1 {
        return if !complete && prefix.starts_with(&bytes[..bytes.len().min(prefix.len())]) {
            Declared::NeedMore
        } else {
            Declared::None
        };
    }
    if !bytes.starts_with(prefix) || !matches!(bytes[5], b' ' | b'\t' | b'\r' | b'\n') {
        return Declared::None;
    }
    let window = &bytes[..bytes.len().min(DECLARATION_LIMIT)];
    let end = match memchr::memmem::find(window, b"?>") {
        Some(end) => end,
        None if !complete && bytes.len() < DECLARATION_LIMIT => return Declared::NeedMore,
        None => window.len(),
    };
    let declaration = &window[..end];
    let Some(at) = memchr::memmem::find(declaration, b"encoding") else {
        return Declared::None;
    };
    let mut i = at + "encoding".len();
    let skip_space = |i: &mut usize| {
        while declaration
            .get(*i)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            *i += 1;
        }
    };
    skip_space(&mut i);
    if declaration.get(i) != Some(&b'=') {
        return Declared::None;
    }
    i += 1;
    skip_space(&mut i);
    let Some(&quote) = declaration.get(i).filter(|q| matches!(q, b'"' | b'\'')) else {
        return Declared::None;
    };
    let start = i + 1;
    match declaration[start..].iter().position(|&b| b == quote) {
        Some(len) => Declared::Label(start, &declaration[start..start + len]),
        None => Declared::None,
    }
}

/// Decoded text and what decoding found.
pub(crate) struct Decoded<'a> {
    pub(crate) text: Cow<'a, str>,
    pub(crate) encoding: Encoding,
    pub(crate) source: EncodingSource,
    pub(crate) bom: bool,
    /// Errors found before parsing: `(code, text offset)`.
    pub(crate) errors: Vec<(ErrorCode, usize)>,
    /// Points where text and input offsets are known to match:
    /// `(text offset, input offset)`, in order; between two of them the
    /// mapping is linear when `linear` is set.
    pub(crate) anchors: Vec<(usize, usize)>,
    pub(crate) linear: bool,
}

/// A decoder of a byte stream, fed in chunks.
struct StreamDecoder {
    engine: Decoder,
    out: Output,
}

/// What decoding has made so far.
struct Output {
    text: String,
    /// The text offset of `text`'s first byte (text taken away as it is
    /// decoded, by a stream, moves it on).
    taken: usize,
    /// Input bytes consumed so far.
    input_pos: usize,
    errors: Vec<(ErrorCode, usize)>,
    anchors: Vec<(usize, usize)>,
    /// Whether `anchors` are kept (a stream maps no offsets back).
    keep_anchors: bool,
    /// The last bytes fed (at most three, the longest malformed UTF-8
    /// sequence), for a malformed sequence that began in an earlier chunk.
    recent: Vec<u8>,
}

impl Output {
    /// Records a malformed sequence of input `input_at..end`, replaced by
    /// U+FFFD at the end of the text.
    fn malformed(&mut self, input_at: usize, end: usize) {
        let text_at = self.taken + self.text.len();
        self.errors.push((ErrorCode::InvalidByteSequence, text_at));
        self.text.push('\u{FFFD}');
        if self.keep_anchors {
            self.anchors.push((text_at, input_at));
            // After the replacement, text and input line up again where
            // the malformed bytes end.
            self.anchors.push((text_at + '\u{FFFD}'.len_utf8(), end));
        }
    }
}

impl Output {
    /// Records a malformed UTF-8 sequence, `bytes` at `input_at`, read as
    /// the windows-1252 characters of its bytes (docs/encodings.md, "Bytes
    /// that are not UTF-8"): a file in windows-1252 labelled UTF-8, or UTF-8 with
    /// a few windows-1252 bytes pasted in, keeps every character, and the
    /// reading is reversible (windows-1252 as the Encoding Standard has it
    /// gives each of the 128 high bytes its own character).
    fn windows_1252_in_utf8(&mut self, input_at: usize, bytes: &[u8]) {
        let text_at = self.taken + self.text.len();
        self.errors.push((ErrorCode::Windows1252InUtf8, text_at));
        for (i, &byte) in bytes.iter().enumerate() {
            if self.keep_anchors {
                self.anchors
                    .push((self.taken + self.text.len(), input_at + i));
            }
            self.text.push(windows_1252_character(byte));
        }
        if self.keep_anchors {
            self.anchors
                .push((self.taken + self.text.len(), input_at + bytes.len()));
        }
    }
}

/// The character windows-1252 (the Encoding Standard's, which maps every
/// byte) gives `byte`.
fn windows_1252_character(byte: u8) -> char {
    let mut decoder = encoding_rs::WINDOWS_1252.new_decoder_without_bom_handling();
    let mut buffer = [0u8; 4];
    let (_, _, written) = decoder.decode_to_utf8_without_replacement(&[byte], &mut buffer, true);
    std::str::from_utf8(&buffer[..written])
        .ok()
        .and_then(|text| text.chars().next())
        .unwrap_or('\u{FFFD}')
}

/// The decoding machinery of one encoding family.
enum Decoder {
    Standard(encoding_rs::Decoder),
    /// UTF-32, and the bytes of a unit cut by a chunk's end.
    Utf32 {
        big_endian: bool,
        carry: Vec<u8>,
    },
    SingleByte(Box<[Option<char>; 256]>),
}

impl StreamDecoder {
    fn new(encoding: Encoding, input_pos: usize) -> StreamDecoder {
        let engine = match encoding.engine() {
            Engine::Standard(encoding) => {
                Decoder::Standard(encoding.new_decoder_without_bom_handling())
            }
            Engine::Utf32 { big_endian } => Decoder::Utf32 {
                big_endian,
                carry: Vec::with_capacity(4),
            },
            Engine::SingleByte(table) => Decoder::SingleByte(table),
        };
        StreamDecoder {
            engine,
            out: Output {
                text: String::new(),
                taken: 0,
                input_pos,
                errors: Vec::new(),
                anchors: vec![(0, input_pos)],
                keep_anchors: true,
                recent: Vec::new(),
            },
        }
    }

    /// The text decoded (all of the input fed) and what decoding found.
    fn finish(self, sniffed: Sniffed) -> Decoded<'static> {
        let mut out = self.out;
        // Decoding reserved room for the worst case, and a document keeps
        // the text it is given: give back the rest (in place, with the
        // usual allocators).
        out.text.shrink_to_fit();
        finish_decoded(Cow::Owned(out.text), sniffed, out.errors, out.anchors)
    }

    fn feed(&mut self, bytes: &[u8], last: bool) {
        let out = &mut self.out;
        match &mut self.engine {
            Decoder::Standard(decoder) => feed_standard(decoder, out, bytes, last),
            Decoder::Utf32 { big_endian, carry } => {
                feed_utf32(*big_endian, carry, out, bytes, last);
            }
            Decoder::SingleByte(table) => feed_single_byte(table, out, bytes),
        }
    }
}

fn feed_standard(
    decoder: &mut encoding_rs::Decoder,
    out: &mut Output,
    mut bytes: &[u8],
    last: bool,
) {
    let utf8 = decoder.encoding() == encoding_rs::UTF_8;
    let (fed, fed_at) = (bytes, out.input_pos);
    loop {
        let needed = decoder
            .max_utf8_buffer_length_without_replacement(bytes.len())
            .unwrap_or(bytes.len().saturating_mul(3))
            .max(4);
        out.text.reserve(needed);
        let (result, read) =
            decoder.decode_to_string_without_replacement(bytes, &mut out.text, last);
        let chunk_start = out.input_pos;
        out.input_pos += read;
        bytes = &bytes[read..];
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(length, consumed_after) => {
                let end = chunk_start + read - consumed_after as usize;
                let start = end.saturating_sub(length as usize);
                match malformed_bytes(out, fed, fed_at, start, end).filter(|_| utf8) {
                    Some(malformed) => out.windows_1252_in_utf8(start, &malformed),
                    None => out.malformed(start, end),
                }
            }
        }
    }
    if utf8 {
        // Keep the last three bytes seen, across chunks however short.
        out.recent
            .extend_from_slice(&fed[fed.len().saturating_sub(3)..]);
        let excess = out.recent.len().saturating_sub(3);
        out.recent.drain(..excess);
    }
}

/// The input bytes `start..end`, from the bytes `fed` at `fed_at` or, for
/// those before it, the last bytes of the chunk before.
fn malformed_bytes(
    out: &Output,
    fed: &[u8],
    fed_at: usize,
    start: usize,
    end: usize,
) -> Option<Vec<u8>> {
    (start..end)
        .map(|at| match at.checked_sub(fed_at) {
            Some(index) => fed.get(index).copied(),
            None => {
                let back = fed_at - at;
                out.recent
                    .len()
                    .checked_sub(back)
                    .and_then(|index| out.recent.get(index).copied())
            }
        })
        .collect()
}

/// UTF-32: four bytes a character; a unit that is no character (a
/// surrogate, or above U+10FFFF) or is cut off by the end is malformed.
fn feed_utf32(big_endian: bool, carry: &mut Vec<u8>, out: &mut Output, bytes: &[u8], last: bool) {
    let mut units = std::mem::take(carry);
    // The input offset of `units[0]` (a carried unit's bytes are not
    // counted as consumed yet).
    let start = out.input_pos;
    units.extend_from_slice(bytes);
    out.text.reserve(units.len());
    let mut chunks = units.chunks_exact(4);
    for (i, unit) in chunks.by_ref().enumerate() {
        let unit = [unit[0], unit[1], unit[2], unit[3]];
        let value = if big_endian {
            u32::from_be_bytes(unit)
        } else {
            u32::from_le_bytes(unit)
        };
        match char::from_u32(value) {
            Some(c) => out.text.push(c),
            None => out.malformed(start + 4 * i, start + 4 * i + 4),
        }
    }
    let rest = chunks.remainder().to_vec();
    out.input_pos = start + units.len() - rest.len();
    if last && !rest.is_empty() {
        out.malformed(out.input_pos, out.input_pos + rest.len());
        out.input_pos += rest.len();
    } else {
        *carry = rest;
    }
}

fn feed_single_byte(table: &[Option<char>; 256], out: &mut Output, bytes: &[u8]) {
    out.text.reserve(bytes.len());
    for (i, &byte) in bytes.iter().enumerate() {
        match table[usize::from(byte)] {
            Some(c) => out.text.push(c),
            None => {
                let at = out.input_pos + i;
                out.malformed(at, at + 1);
            }
        }
    }
    out.input_pos += bytes.len();
}

/// Sniffs a whole input: UTF-8 where nothing says otherwise.
fn sniff_whole(bytes: &[u8], options: &ParseOptions) -> Sniffed {
    sniff(bytes, true, options).unwrap_or(Sniffed {
        encoding: Encoding::UTF_8,
        source: EncodingSource::Default,
        bom: 0,
        unknown_label: None,
        declared_utf16_in_8_bit: None,
    })
}

/// Decodes a whole input to text as parsing does: the encoding found as
/// the input says (sniffed as `Document::parse_bytes` does), the
/// byte-order mark dropped, each malformed sequence replaced with U+FFFD.
/// Valid UTF-8 is borrowed.
///
/// ```
/// use xml5dom::decoding::decode_text;
/// let text = decode_text(b"\xEF\xBB\xBF<a>caf\xC3\xA9</a>");
/// assert_eq!(text, "<a>caf\u{e9}</a>");
/// ```
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    decode_text_with(bytes, &ParseOptions::default())
}

/// [`decode_text`] with options: the encoding found as [`ParseOptions`]
/// and the input say.
///
/// ```
/// use xml5dom::decoding::decode_text_with;
/// use xml5dom::ParseOptions;
/// let options = ParseOptions::default().encoding_label("iso-8859-1").unwrap();
/// assert_eq!(decode_text_with(b"<a>caf\xe9</a>", &options), "<a>caf\u{e9}</a>");
/// ```
pub fn decode_text_with<'a>(bytes: &'a [u8], options: &ParseOptions) -> Cow<'a, str> {
    decode(bytes, options).text
}

/// Decodes a whole input.
pub(crate) fn decode<'a>(bytes: &'a [u8], options: &ParseOptions) -> Decoded<'a> {
    let sniffed = sniff_whole(bytes, options);
    let body = &bytes[sniffed.bom..];
    // Valid UTF-8 is only validated.
    if sniffed.encoding == Encoding::UTF_8 {
        if let Ok(text) = std::str::from_utf8(body) {
            return finish_decoded(
                Cow::Borrowed(text),
                sniffed,
                Vec::new(),
                vec![(0, sniffed.bom)],
            );
        }
    }
    decode_body(body, sniffed)
}

/// Decodes a whole input known to be valid UTF-8 (held as `str`), as
/// [`decode`] does its bytes, without validating them again: read as UTF-8
/// it is the text itself (after a UTF-8 byte-order mark), borrowed.
pub(crate) fn decode_str<'a>(text: &'a str, options: &ParseOptions) -> Decoded<'a> {
    let sniffed = sniff_whole(text.as_bytes(), options);
    match text.get(sniffed.bom..) {
        Some(body) if sniffed.encoding == Encoding::UTF_8 => finish_decoded(
            Cow::Borrowed(body),
            sniffed,
            Vec::new(),
            vec![(0, sniffed.bom)],
        ),
        _ => decode_body(
            text.as_bytes().get(sniffed.bom..).unwrap_or_default(),
            sniffed,
        ),
    }
}

/// Decodes a whole input handed over as a `Vec`, as [`decode`] does: valid
/// UTF-8 becomes the text itself, without a copy (a UTF-8 byte-order mark
/// is drained off in place, which moves the bytes but allocates nothing).
pub(crate) fn decode_vec(mut bytes: Vec<u8>, options: &ParseOptions) -> Decoded<'static> {
    let sniffed = sniff_whole(&bytes, options);
    if sniffed.encoding != Encoding::UTF_8 {
        return decode_body(&bytes[sniffed.bom..], sniffed);
    }
    // (Sniffing keeps a BOM only when it is UTF-8's, within the bytes.)
    bytes.drain(..sniffed.bom.min(bytes.len()));
    match String::from_utf8(bytes) {
        Ok(text) => finish_decoded(
            Cow::Owned(text),
            sniffed,
            Vec::new(),
            vec![(0, sniffed.bom)],
        ),
        // The BOM is off already: the decoder starts at its end anyway.
        Err(error) => decode_body(error.as_bytes(), sniffed),
    }
}

/// Decodes `body`, the input after the byte-order mark sniffing found.
fn decode_body(body: &[u8], sniffed: Sniffed) -> Decoded<'static> {
    let mut decoder = StreamDecoder::new(sniffed.encoding, sniffed.bom);
    decoder.feed(body, true);
    decoder.finish(sniffed)
}

/// The errors sniffing found (an unknown label, UTF-16 declared in an 8-bit
/// document) at their offsets in `text`, the text decoded from the input
/// (at least up to the declaration's end), whose `anchors` map it to the
/// input.
fn sniffing_errors(
    sniffed: &Sniffed,
    text: &str,
    anchors: &[(usize, usize)],
) -> Vec<(ErrorCode, usize)> {
    // Labels were read from the raw bytes. The declaration is ASCII, so its
    // offset in the text is its offset in the input moved as far as the
    // last decoding error before it moved things (each malformed sequence
    // became a three-byte U+FFFD), and at most a character boundary.
    let in_text = |at: usize| {
        let (text_at, input_at) = anchors
            .iter()
            .rev()
            .find(|&&(_, input_at)| input_at <= at)
            .copied()
            .unwrap_or((0, sniffed.bom));
        let mut offset = (text_at + (at - input_at)).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    };
    let mut errors = Vec::new();
    if let Some(at) = sniffed.unknown_label {
        errors.push((ErrorCode::UnknownEncoding, in_text(at)));
    }
    if let Some(at) = sniffed.declared_utf16_in_8_bit {
        errors.push((ErrorCode::EncodingMismatch, in_text(at)));
    }
    errors
}

fn finish_decoded(
    text: Cow<'_, str>,
    sniffed: Sniffed,
    mut errors: Vec<(ErrorCode, usize)>,
    anchors: Vec<(usize, usize)>,
) -> Decoded<'_> {
    errors.extend(sniffing_errors(&sniffed, &text, &anchors));
    Decoded {
        text,
        encoding: sniffed.encoding,
        source: sniffed.source,
        bom: sniffed.bom > 0,
        errors,
        anchors,
        linear: sniffed.encoding == Encoding::UTF_8,
    }
}

/// Maps offsets in the text back to the input's bytes.
#[derive(Clone, Debug, Default)]
pub(crate) struct InputMap {
    anchors: Vec<(usize, usize)>,
    linear: bool,
}

impl InputMap {
    pub(crate) fn new(anchors: Vec<(usize, usize)>, linear: bool) -> InputMap {
        InputMap { anchors, linear }
    }

    pub(crate) fn input_offset(&self, offset: usize) -> Option<usize> {
        if self.anchors.is_empty() {
            return Some(offset);
        }
        let index = self.anchors.partition_point(|&(text, _)| text <= offset);
        let (text, input) = *self.anchors.get(index.checked_sub(1)?)?;
        if text == offset {
            Some(input)
        } else if self.linear {
            Some(input + (offset - text))
        } else {
            None
        }
    }
}

/// Bytes decoded as they arrive in chunks cut anywhere (inside a
/// character, inside a byte-order mark): the encoding is sniffed as soon as
/// the bytes seen can tell. The push `Parser` of the parse driver
/// reads through it.
pub(crate) struct ByteStream {
    options: ParseOptions,
    /// Bytes held back until sniffing can tell.
    pending: Vec<u8>,
    state: Option<(Sniffed, StreamDecoder)>,
    /// The errors sniffing found, at their offsets in the text (known once
    /// the bytes it read are decoded).
    sniffing_errors: Vec<(ErrorCode, usize)>,
    /// Offsets are mapped back to the input (a document's `input_offset`);
    /// a stream of events maps none, and keeps no anchors for it.
    map_input: bool,
}

impl ByteStream {
    pub(crate) fn new(options: ParseOptions) -> ByteStream {
        ByteStream {
            options,
            pending: Vec::new(),
            state: None,
            sniffing_errors: Vec::new(),
            map_input: true,
        }
    }

    /// A byte stream that maps no offsets back to the input.
    pub(crate) fn unmapped(options: ParseOptions) -> ByteStream {
        ByteStream {
            map_input: false,
            ..ByteStream::new(options)
        }
    }

    /// Takes the next chunk of input.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        match &mut self.state {
            Some((_, decoder)) => decoder.feed(bytes, false),
            None => {
                self.pending.extend_from_slice(bytes);
                if let Some(sniffed) = sniff(&self.pending, false, &self.options) {
                    self.start(sniffed);
                }
            }
        }
    }

    fn start(&mut self, sniffed: Sniffed) {
        let mut decoder = StreamDecoder::new(sniffed.encoding, sniffed.bom);
        let pending = std::mem::take(&mut self.pending);
        // The bytes sniffing read hold the declaration: decoded with their
        // anchors, they say where its label is in the text, as for a whole
        // input.
        decoder.feed(&pending[sniffed.bom.min(pending.len())..], false);
        self.sniffing_errors = sniffing_errors(&sniffed, &decoder.out.text, &decoder.out.anchors);
        decoder.out.keep_anchors = self.map_input;
        if !self.map_input {
            decoder.out.anchors.clear();
        }
        self.state = Some((sniffed, decoder));
    }

    /// Moves the text decoded so far to the end of `text`, and the
    /// decoding errors found in it to `errors` (their offsets count all the
    /// text decoded, taken or not): for a stream, which keeps only what it
    /// is working on.
    pub(crate) fn take_decoded(&mut self, text: &mut String, errors: &mut Vec<(ErrorCode, usize)>) {
        if let Some((_, decoder)) = &mut self.state {
            let out = &mut decoder.out;
            out.taken += out.text.len();
            text.push_str(&out.text);
            out.text.clear();
            errors.append(&mut out.errors);
        }
    }

    /// Ends the input (what is left is then [taken](Self::take_decoded)),
    /// and says how the encoding was found, with the errors sniffing found
    /// (at offsets in the text).
    pub(crate) fn end(&mut self) -> StreamEncoding {
        if self.state.is_none() {
            let sniffed = sniff(&self.pending, true, &self.options).unwrap_or_else(default_sniffed);
            self.start(sniffed);
        }
        if let Some((_, decoder)) = &mut self.state {
            decoder.feed(&[], true);
        }
        self.found().unwrap_or(StreamEncoding {
            encoding: Encoding::UTF_8,
            source: EncodingSource::Default,
            errors: Vec::new(),
        })
    }

    /// How the encoding was found, once sniffing could tell.
    pub(crate) fn found(&self) -> Option<StreamEncoding> {
        self.state.as_ref().map(|(sniffed, _)| StreamEncoding {
            encoding: sniffed.encoding,
            source: sniffed.source,
            errors: self.sniffing_errors.clone(),
        })
    }

    /// What decoding found, for the whole `text` it decoded (all of it
    /// [taken](Self::take_decoded) after [`end`](Self::end)) and the
    /// decoding `errors` taken with it: as [`finish`](Self::finish) gives
    /// it, the text borrowed.
    pub(crate) fn finish_taken(self, text: &str, errors: Vec<(ErrorCode, usize)>) -> Decoded<'_> {
        let (sniffed, anchors) = match self.state {
            Some((sniffed, decoder)) => (sniffed, decoder.out.anchors),
            None => (default_sniffed(), Vec::new()),
        };
        finish_decoded(Cow::Borrowed(text), sniffed, errors, anchors)
    }
}

/// UTF-8, nothing having said otherwise.
fn default_sniffed() -> Sniffed {
    Sniffed {
        encoding: Encoding::UTF_8,
        source: EncodingSource::Default,
        bom: 0,
        unknown_label: None,
        declared_utf16_in_8_bit: None,
    }
}

/// What a stream learns of its encoding once sniffing can tell.
#[derive(Clone, Debug)]
pub(crate) struct StreamEncoding {
    pub(crate) encoding: Encoding,
    pub(crate) source: EncodingSource,
    /// The errors sniffing found (an unknown label, UTF-16 declared in an
    /// 8-bit document), at their offsets in the text, where a document
    /// made of the same bytes has them.
    pub(crate) errors: Vec<(ErrorCode, usize)>,
}
