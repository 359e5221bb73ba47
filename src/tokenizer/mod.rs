//! Layer 4: the XML5 tokenizer (spec §1.4).
//!
//! It owns the state machine that turns text into [`Token`]s and
//! [`ParseError`]s, and hands both, in order, to a [`TokenSink`] (the tree
//! builder, or [`TokenList`] and [`SuiteJson`] for tools and tests). It takes
//! text that is already decoded; bytes and encodings are the decoding stage's
//! business.
//!
//! Every state of §1.4 is a variant of `State` in `states.rs`, named after
//! its section, and has a method of the same name in snake case
//! (`State::TagOpen`, `tag_open_state`) whose doc starts with the section
//! (`grep "1.4.3 "` finds both); `Tokenizer`'s `step` only dispatches to
//! them. The methods are grouped by what they read:
//!
//! * `data.rs`: text and CDATA sections;
//! * `references.rs`: character references, and entities the internal
//!   subset declared;
//! * `tags.rs` and `attributes.rs`: start, end and empty tags;
//! * `fast_paths.rs`: the usual tag and attribute, read in bulk;
//! * `markup.rs`: comments, processing instructions and what follows `<!`;
//! * `xml_declaration.rs`: `<?xml ...?>`;
//! * `doctype.rs` and `internal_subset.rs`: the DOCTYPE.
//!
//! This file has the machine itself: its input, its output, and the
//! dispatch. Where the spec is unfinished the conformance suite decides,
//! and `docs/conformance.md` says where and why.
//!
//! Properties the rest of the crate relies on:
//!
//! * Every input tokenizes to the end: there is no error return, only
//!   parse errors, and the last token is always [`Token::EndOfFile`].
//! * Line ends are normalized (CR LF and lone CR become LF) as the input is
//!   read; attribute values also turn literal tab and LF into spaces.
//!   [`Span`]s keep the raw source reachable.
//! * Input may come in chunks cut anywhere ([`Tokenizer::feed`]); the tokens
//!   and errors are the same however it was cut, because a state that needs
//!   to see further than the input goes waits for more instead of guessing.
//! * Plain runs (text, attribute values, comment, CDATA and PI bodies, names)
//!   are consumed in bulk, and token strings borrow the input unless
//!   normalization changed them.
//!
//! ```
//! use xml5dom::tokenizer::{tokenize, TokenList, OwnedToken};
//!
//! let out = tokenize("<p class=x>Hi &amp; bye</p>", TokenList::default());
//! assert!(out.errors().next().is_none());
//! let names: Vec<_> = out.tokens().map(|t| format!("{t:?}")).collect();
//! assert!(names[0].starts_with("StartTag"));
//! ```

/// Consumes the next input character in a state method (`$t` is `self`):
/// `Some(c)`, or `None` at the end of the input. When the input so far
/// ends but more may come, it returns `Flow::Suspend` from the method.
macro_rules! next {
    ($t:ident, $w:ident, $eof:ident) => {
        match $t.next_input($w, $eof) {
            $crate::tokenizer::Input::Char(c) => Some(c),
            $crate::tokenizer::Input::Eof => None,
            $crate::tokenizer::Input::Suspend => return $crate::tokenizer::Flow::Suspend,
        }
    };
}

mod attributes;
mod buffers;
mod data;
mod doctype;
mod fast_paths;
mod input;
mod internal_subset;
#[cfg(feature = "suite-json")]
mod json;
mod markup;
mod owned;
mod references;
mod states;
mod tags;
mod token;
mod xml_declaration;

#[cfg(feature = "suite-json")]
pub use json::{push_json_string, SuiteJson, SuiteJsonWriter};
pub use owned::{Event, OwnedAttribute, OwnedToken, TokenList};
pub use token::{
    Comment, Doctype, EndTag, EntityReference, ProcessingInstruction, Tag, TagAttribute,
    TagAttributes, Text, TextKind, Token, XmlDecl,
};

use crate::char_refs::Replacement;
use crate::chars::starts_predefined_reference;
use crate::dtd::Declarations;
use crate::error::{ErrorCode, ErrorContext, ParseError};
use crate::external::External;
use crate::limits::Limits;
use crate::span::Span;
use buffers::{AttributeNames, DeclarationBuilder, DoctypeBuilder};
use input::{input_char_error, scan, xml11_cut, Locator, StrBuf, Window};
use states::State;
use token::AttributeBuffer;

/// Up to this many attributes a tag's duplicate check compares packed keys
/// one by one; past it, a tag's names are hashed (`AttributeNames`).
const LINEAR_DUPLICATE_CHECK: usize = 32;

/// How long a run of text with references resolved in it (a copy of the
/// source) grows before it goes as a piece to a sink that takes references
/// in text ([`TokenSink::REFERENCES_IN_TEXT`]), so that the tokenizer's
/// copy stays small however long the text.
const TEXT_PIECE: usize = 64 << 10;

/// Receives the tokenizer's output, in order.
///
/// Errors arrive at the point the spec raises them: a run of text before an
/// error is delivered before it, and errors inside a tag, comment or other
/// markup arrive before that token.
pub trait TokenSink {
    /// Whether a reference to one of XML's five predefined entities in
    /// text (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`: well-formed
    /// anywhere) may come resolved inside the run of [`TextKind::Plain`]
    /// text around it, instead of as a [`TextKind::CharRef`] piece of its
    /// own between two plain pieces. Off unless a sink asks for it: then a
    /// plain piece's data may differ from its source (its span still covers
    /// exactly what it was read from). The tree builder asks for it: a
    /// paragraph with references in it is one token instead of several,
    /// for the same node.
    const REFERENCES_IN_TEXT: bool = false;
    /// One token. Its strings live only for this call.
    fn process_token(&mut self, token: Token<'_>);
    /// One parse error.
    fn parse_error(&mut self, error: ParseError);
    /// One parse error with what the parser knew more about it (for an
    /// error inside a file read through the resolver, where in it). By
    /// default the error alone.
    fn parse_error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        let _ = context;
        self.parse_error(error);
    }
}

/// Tokenizes a whole input in one go, without copying it, and returns the
/// sink.
///
/// ```
/// use xml5dom::tokenizer::{tokenize, OwnedToken, TokenList};
/// let list = tokenize("<a>1 &lt; 2</a>", TokenList::default());
/// let tokens: Vec<&OwnedToken> = list.tokens().collect();
/// assert!(matches!(tokens[0], OwnedToken::StartTag { name, .. } if name == "a"));
/// assert!(list.errors().next().is_none());
/// ```
pub fn tokenize<S: TokenSink>(input: &str, sink: S) -> S {
    tokenize_with(input, sink, &Limits::default())
}

impl<S: TokenSink + ?Sized> TokenSink for &mut S {
    const REFERENCES_IN_TEXT: bool = S::REFERENCES_IN_TEXT;

    fn process_token(&mut self, token: Token<'_>) {
        (**self).process_token(token);
    }

    fn parse_error(&mut self, error: ParseError) {
        (**self).parse_error(error);
    }

    fn parse_error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        (**self).parse_error_with_context(error, context);
    }
}

/// Tokenizes the replacement text of an entity, with the document's
/// declarations (the tree builder expands references in content with it).
pub(crate) fn tokenize_entity<S: TokenSink>(text: &str, sink: S, declarations: Declarations) -> S {
    let mut tokenizer = Tokenizer::for_entity(sink, declarations);
    let window = Window { text, base: 0 };
    tokenizer.run(&window, true);
    tokenizer.sink
}

/// Tokenizes a fragment of content (see `parse::build_fragment`)
/// with the declarations of the document it goes into, if it has any:
/// references to its entities are recognized as in the document.
pub(crate) fn tokenize_fragment<S: TokenSink>(
    input: &str,
    sink: S,
    limits: &Limits,
    declarations: Option<Declarations>,
    xml11: bool,
) -> S {
    let mut tokenizer = Tokenizer::with_limits(sink, limits.clone());
    tokenizer.declarations = declarations;
    tokenizer.declarations_closed = true;
    tokenizer.xml11 = xml11;
    let window = Window {
        text: input,
        base: 0,
    };
    tokenizer.run(&window, true);
    tokenizer.sink
}

/// [`tokenize`] with limits (those on entity expansion apply here).
pub fn tokenize_with<S: TokenSink>(input: &str, sink: S, limits: &Limits) -> S {
    Tokenizer::with_limits(sink, limits.clone()).run_whole(input)
}

/// Tokenizes what `reader` gives, in memory bounded by the longest token:
/// the bytes are decoded as they arrive (the encoding sniffed as
/// [`Document::parse_bytes`](crate::dom::Document::parse_bytes) does; bytes not
/// valid in it become U+FFFD) and fed to a [`Tokenizer`] piece by piece.
/// The tokens and errors are those of [`tokenize`] on the decoded
/// text. Only reading can fail.
///
/// ```
/// use xml5dom::tokenizer::{tokenize_reader, TokenList};
///
/// let list = tokenize_reader(&b"<a>caf\xC3\xA9</a>"[..], TokenList::default()).unwrap();
/// assert_eq!(list.tokens().count(), 4); // <a>, text, </a>, end of file
/// ```
pub fn tokenize_reader<R: std::io::Read, S: TokenSink>(
    reader: R,
    sink: S,
) -> Result<S, crate::error::Error> {
    tokenize_reader_with(reader, sink, &crate::decoding::ParseOptions::default())
}

/// [`tokenize_reader`] with options (the limits, the encoding): the tokens
/// and errors are those of [`tokenize_with`] on the decoded text.
///
/// ```
/// use xml5dom::tokenizer::{tokenize_reader_with, TokenList};
/// use xml5dom::ParseOptions;
///
/// let options = ParseOptions::default().encoding_label("iso-8859-1").unwrap();
/// let list = tokenize_reader_with(&b"<a>caf\xe9</a>"[..], TokenList::default(), &options).unwrap();
/// assert_eq!(list.tokens().count(), 4);
/// ```
pub fn tokenize_reader_with<R: std::io::Read, S: TokenSink>(
    mut reader: R,
    sink: S,
    options: &crate::decoding::ParseOptions,
) -> Result<S, crate::error::Error> {
    let mut bytes = crate::decoding::ByteStream::unmapped(options.clone());
    let mut tokenizer = Tokenizer::with_limits(sink, options.limits.clone());
    let mut buffer = vec![0; 64 << 10];
    let (mut text, mut errors) = (String::new(), Vec::new());
    loop {
        let read = match reader.read(&mut buffer) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(crate::error::Error::Read {
                    path: "input".to_owned(),
                    source,
                })
            }
        };
        if read == 0 {
            bytes.end();
        } else {
            bytes.feed(&buffer[..read]);
        }
        // Decoding errors are not the tokenizer's (as with `decode_text`).
        bytes.take_decoded(&mut text, &mut errors);
        errors.clear();
        tokenizer.feed(&text);
        text.clear();
        if read == 0 {
            return Ok(tokenizer.finish());
        }
    }
}

/// The XML5 tokenizer, for input that arrives in pieces.
///
/// Feed it text with [`feed`](Tokenizer::feed) in chunks of any size, then
/// call [`finish`](Tokenizer::finish). Only the unfinished token at the end
/// of a chunk is kept between calls; everything before it has already gone
/// to the sink. For a whole input at once, [`tokenize`] avoids even that
/// copy.
///
/// ```
/// use xml5dom::tokenizer::{tokenize, SuiteJson, Tokenizer};
///
/// let whole = tokenize("<a href='x'>t</a>", SuiteJson::default()).finish();
/// let mut t = Tokenizer::new(SuiteJson::default());
/// for chunk in ["<a hr", "ef='", "x'>", "t</", "a>"] {
///     t.feed(chunk);
/// }
/// assert_eq!(t.finish().finish(), whole);
/// ```
pub struct Tokenizer<S: TokenSink> {
    sink: S,
    state: State,
    /// Absolute offset of the next input character.
    pos: usize,
    /// Byte length of the character consumed last (for reconsuming).
    last_len: usize,
    /// Absolute offset at which the current token began.
    token_start: usize,
    /// The earliest absolute offset still needed: the tail of the input from
    /// here on is kept when a chunk ends.
    mark: usize,
    /// Input-stream errors have been reported for every character before
    /// this offset (so a reconsumed character is not reported twice).
    checked_upto: usize,
    locator: Locator,
    /// Unconsumed input kept between chunks, and its absolute offset.
    pending: String,
    pending_base: usize,
    finished: bool,

    // Character data waiting to be emitted.
    text: StrBuf,
    text_kind: TextKind,
    /// Something other than a bulk read of the data state went into the
    /// pending text (see `Text::needs_check`).
    text_needs_check: bool,
    text_start: usize,
    text_end: usize,
    /// Offset of the `&` of the reference being read.
    amp: usize,
    /// How far the name or number after that `&` is known to run on,
    /// while the chunks so far end inside it (see
    /// [`reference_run_complete`](Self::reference_run_complete)).
    reference_scanned: usize,

    // The tag being built.
    tag_name: StrBuf,
    tag_kind: TagKind,
    attributes: Vec<AttributeBuffer>,
    attribute_count: usize,
    attribute_dropped: bool,
    /// Names seen in this tag, once it has too many attributes for a linear
    /// duplicate check.
    attribute_names: AttributeNames,
    /// Until then, each attribute's name's length and first and last bytes,
    /// packed: attributes with different keys have different names, so the
    /// duplicate check compares names only when keys match.
    attribute_keys: [u32; LINEAR_DUPLICATE_CHECK],

    comment: StrBuf,
    pi_target: StrBuf,
    pi_data: StrBuf,
    declaration: DeclarationBuilder,
    doctype: DoctypeBuilder,

    limits: Limits,
    /// What the DTD may read beyond the input (nothing by default).
    external: External,
    /// The text is a replacement text, not a document: a U+FEFF at its
    /// start is a character of it (an external entity's byte-order mark
    /// went with its decoding).
    replacement: bool,
    /// What the internal subset declared, once read.
    declarations: Option<Declarations>,
    /// A DOCTYPE or a start tag was emitted: no later DOCTYPE declares
    /// anything (the tree builder ignores it).
    declarations_closed: bool,
    /// The items of the internal subset that declared `declarations`, as
    /// source spans (see [`Doctype::subset_items`]).
    subset_items: Vec<Span>,
    /// The general entities it declared, by where each declaration starts
    /// in the source (see [`Doctype::subset_entities`]).
    subset_entities: Vec<(usize, Box<str>)>,
    /// The XML declaration said `version="1.1"`: NEL and LINE SEPARATOR
    /// end lines, C1 controls are references only, and C0 and C1 controls
    /// may be referred to (XML 1.1 §2.2, §2.11, §4.1).
    xml11: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagKind {
    Start,
    Empty,
    End,
}

/// The next input character, after line-end normalization.
enum Input {
    Char(char),
    Eof,
    /// The input so far ends here but more may come.
    Suspend,
}

/// What the run loop does after a step.
enum Flow {
    Continue,
    Suspend,
    Done,
}

impl<S: TokenSink> Tokenizer<S> {
    /// A tokenizer that sends its output to `sink`.
    pub fn new(sink: S) -> Tokenizer<S> {
        Tokenizer::with_limits(sink, Limits::default())
    }

    /// Lets the DTD read what `external`'s resolver gives (the external
    /// subset, external entities); before any input.
    pub(crate) fn set_external(&mut self, external: External) {
        self.external = external;
    }

    /// Tokenizes `input`, all of the input, and gives the sink back.
    pub(crate) fn run_whole(mut self, input: &str) -> S {
        let window = Window {
            text: input,
            base: 0,
        };
        self.run(&window, true);
        self.sink
    }

    /// A tokenizer with limits (those on entity expansion apply here).
    pub fn with_limits(sink: S, limits: Limits) -> Tokenizer<S> {
        Tokenizer {
            sink,
            state: State::Data,
            pos: 0,
            last_len: 0,
            token_start: 0,
            mark: 0,
            checked_upto: 0,
            locator: Locator::default(),
            pending: String::new(),
            pending_base: 0,
            finished: false,
            text: StrBuf::default(),
            text_kind: TextKind::Plain,
            text_needs_check: false,
            text_start: 0,
            text_end: 0,
            amp: 0,
            reference_scanned: 0,
            tag_name: StrBuf::default(),
            tag_kind: TagKind::Start,
            attributes: Vec::new(),
            attribute_count: 0,
            attribute_dropped: false,
            attribute_names: AttributeNames::default(),
            attribute_keys: [0; LINEAR_DUPLICATE_CHECK],
            comment: StrBuf::default(),
            pi_target: StrBuf::default(),
            pi_data: StrBuf::default(),
            declaration: DeclarationBuilder::default(),
            doctype: DoctypeBuilder::default(),
            limits,
            external: External::default(),
            replacement: false,
            declarations: None,
            declarations_closed: false,
            subset_items: Vec::new(),
            subset_entities: Vec::new(),
            xml11: false,
        }
    }

    /// A tokenizer for the replacement text of an entity: it knows the
    /// document's declarations.
    pub(crate) fn for_entity(sink: S, declarations: Declarations) -> Tokenizer<S> {
        let mut tokenizer = Tokenizer::with_limits(sink, declarations.limits().clone());
        tokenizer.declarations = Some(declarations);
        tokenizer.declarations_closed = true;
        tokenizer.replacement = true;
        tokenizer
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The sink, mutably.
    pub fn sink_mut(&mut self) -> &mut S {
        &mut self.sink
    }

    /// The offset of the first character the tokenizer keeps between
    /// chunks (where its unfinished token starts): everything before it
    /// has gone to the sink.
    pub(crate) fn kept_from(&self) -> usize {
        self.pending_base
    }

    /// Tokenizes as much of `chunk` (after what came before) as can be
    /// tokenized without seeing further.
    pub fn feed(&mut self, chunk: &str) {
        if self.finished || chunk.is_empty() {
            return;
        }
        let mut buffer = std::mem::take(&mut self.pending);
        if buffer.is_empty() {
            // Nothing carried over: read the chunk in place and keep only the
            // unfinished tail.
            let window = Window {
                text: chunk,
                base: self.pending_base,
            };
            self.run(&window, false);
            self.locator.move_anchor(&window, self.mark);
            buffer.push_str(window.slice(self.mark, window.end()));
        } else {
            buffer.push_str(chunk);
            let window = Window {
                text: &buffer,
                base: self.pending_base,
            };
            self.run(&window, false);
            self.locator.move_anchor(&window, self.mark);
            let consumed = self.mark - self.pending_base;
            buffer.drain(..consumed);
        }
        self.pending_base = self.mark;
        self.pending = buffer;
    }

    /// Tokenizes the rest of the input, emits [`Token::EndOfFile`] and
    /// returns the sink.
    pub fn finish(mut self) -> S {
        self.end();
        self.sink
    }

    /// [`finish`](Self::finish), keeping the tokenizer (and its sink).
    pub(crate) fn end(&mut self) {
        if !self.finished {
            let buffer = std::mem::take(&mut self.pending);
            let window = Window {
                text: &buffer,
                base: self.pending_base,
            };
            self.run(&window, true);
        }
    }

    fn run(&mut self, w: &Window<'_>, eof: bool) {
        // A byte-order mark is not part of the document (XML 1.0 §4.3.3):
        // skip it, keeping offsets those of the text as given.
        if self.pos == 0 && !self.replacement && w.text.starts_with('\u{FEFF}') {
            self.pos = '\u{FEFF}'.len_utf8();
            self.mark = self.pos;
        }
        loop {
            match self.step(w, eof) {
                Flow::Continue => {}
                Flow::Suspend | Flow::Done => return,
            }
        }
    }

    // ----- Reading input -------------------------------------------------

    /// Consumes the next character (CR LF and CR read as LF), reporting the
    /// input-stream error it carries the first time it is consumed.
    #[inline]
    fn next_input(&mut self, w: &Window<'_>, eof: bool) -> Input {
        let start = self.pos;
        let c = match w.byte(start) {
            None => {
                self.last_len = 0;
                return if eof { Input::Eof } else { Input::Suspend };
            }
            Some(b'\r') => {
                let len = match w.byte(start + 1) {
                    None if !eof => return Input::Suspend,
                    Some(b'\n') => 2,
                    // CR NEL is one line end in XML 1.1.
                    Some(0xC2) if self.xml11 && w.byte(start + 2) == Some(0x85) => 3,
                    _ => 1,
                };
                self.pos += len;
                self.last_len = len;
                return Input::Char('\n');
            }
            Some(b) if b < 0x80 => b as char,
            Some(_) => w.char_at(start),
        };
        let len = c.len_utf8();
        self.pos += len;
        self.last_len = len;
        if self.xml11 && matches!(c, '\u{85}' | '\u{2028}') {
            return Input::Char('\n');
        }
        let error = match c {
            '\u{7F}'..='\u{9F}' if self.xml11 => Some(ErrorCode::ControlCharacterInInputStream),
            _ => input_char_error(c),
        };
        if let Some(code) = error {
            if start >= self.checked_upto {
                self.checked_upto = start + len;
                self.error_at(w, code, start);
            }
        }
        Input::Char(c)
    }

    /// Offset of the character consumed last.
    #[inline]
    fn current_start(&self) -> usize {
        self.pos - self.last_len
    }

    /// Steps back over the character consumed last ("reconsume").
    #[inline]
    fn reconsume(&mut self) {
        self.pos -= self.last_len;
        self.last_len = 0;
    }

    /// Consumes a bulk run of bytes not in `table`, appending it to the
    /// buffer that `select` picks.
    #[inline]
    fn bulk(&mut self, w: &Window<'_>, table: &[bool; 256], select: fn(&mut Self) -> &mut StrBuf) {
        let n = self.scan_run(w, self.pos, table);
        if n > 0 {
            let start = self.pos;
            self.pos += n;
            select(self).push_span(w, start, start + n);
        }
    }

    /// The length of the bulk run from `from`: up to the first byte in
    /// `table` (and, in an XML 1.1 document, the first NEL, LINE SEPARATOR
    /// or C1 control).
    #[inline(always)]
    fn scan_run(&self, w: &Window<'_>, from: usize, table: &[bool; 256]) -> usize {
        let bytes = w.bytes_from(from);
        let n = scan(bytes, table);
        if self.xml11 {
            xml11_cut(bytes, n)
        } else {
            n
        }
    }

    /// Appends the character consumed last, normalized as `c` (NUL
    /// replaced, and reported), to the buffer `select` picks: what every
    /// state does with a character its rules do not name.
    #[inline]
    fn push_current(
        &mut self,
        w: &Window<'_>,
        c: char,
        select: impl FnOnce(&mut Self) -> &mut StrBuf,
    ) {
        let c = self.replace_null(w, c);
        let (start, end) = (self.current_start(), self.pos);
        push_consumed(select(self), w, start, end, c);
    }

    /// Reports whether the input at `pos` starts with `word`: `None` when
    /// more input is needed to tell.
    fn lookahead(&self, w: &Window<'_>, eof: bool, word: &[u8]) -> Option<bool> {
        let bytes = w.bytes_from(self.pos);
        let n = bytes.len().min(word.len());
        if bytes[..n] != word[..n] {
            Some(false)
        } else if n < word.len() {
            if eof {
                Some(false)
            } else {
                None
            }
        } else {
            Some(true)
        }
    }

    /// NUL is replaced by U+FFFD, with an error outside DOCTYPEs.
    fn replace_null(&mut self, w: &Window<'_>, c: char) -> char {
        if c == '\0' {
            self.error(w, ErrorCode::UnexpectedNullCharacter);
            '\u{FFFD}'
        } else {
            c
        }
    }

    // ----- Output --------------------------------------------------------

    /// Reports a parse error at `offset`, after any text that precedes it.
    fn error_at(&mut self, w: &Window<'_>, code: ErrorCode, offset: usize) {
        let error = self.located(w, code, offset);
        self.sink.parse_error(error);
    }

    /// [`error_at`](Self::error_at), with a context.
    fn error_at_with_context(
        &mut self,
        w: &Window<'_>,
        code: ErrorCode,
        offset: usize,
        context: ErrorContext,
    ) {
        let error = self.located(w, code, offset);
        self.sink.parse_error_with_context(error, context);
    }

    /// An error at `offset`, with its line and column, after any text
    /// that precedes it is emitted.
    fn located(&mut self, w: &Window<'_>, code: ErrorCode, offset: usize) -> ParseError {
        self.emit_text(w);
        let position = self.locator.locate(w, offset);
        ParseError {
            code,
            offset,
            line: position.line,
            column: position.column,
        }
    }

    /// Reports an error at the character consumed last.
    fn error(&mut self, w: &Window<'_>, code: ErrorCode) {
        let at = self.current_start();
        self.error_at(w, code, at);
    }

    /// Appends source text `start..end` to the pending character data.
    #[inline]
    fn text_push_span(&mut self, w: &Window<'_>, start: usize, end: usize) {
        self.text_needs_check = true;
        self.text_push_scanned(w, start, end);
    }

    /// [`text_push_span`](Self::text_push_span) for a run the data state
    /// read in bulk (past none of the bytes `Text::needs_check` is about).
    #[inline]
    fn text_push_scanned(&mut self, w: &Window<'_>, start: usize, end: usize) {
        if S::REFERENCES_IN_TEXT
            && self.text.is_owned()
            && self.text.len() + (end - start) > TEXT_PIECE
            && self.text_kind == TextKind::Plain
        {
            // Text with references resolved in it is a copy: for a sink
            // that joins pieces anyway, a long run goes on as a piece of
            // its own instead of growing the copy.
            self.emit_text(w);
        }
        if self.text.is_empty() {
            self.text_start = start;
        }
        self.text.push_span(w, start, end);
        self.text_end = end;
    }

    /// Appends the character consumed last, normalized as `c`.
    #[inline]
    fn text_push_current(&mut self, w: &Window<'_>, c: char) {
        self.text_needs_check = true;
        let start = self.current_start();
        if self.text.is_empty() {
            self.text_start = start;
        }
        push_consumed(&mut self.text, w, start, self.pos, c);
        self.text_end = self.pos;
    }

    fn emit_text(&mut self, w: &Window<'_>) {
        if self.text.is_empty() {
            return;
        }
        let token = Token::Text(Text {
            data: self.text.as_str(w),
            kind: self.text_kind,
            span: Span::new(self.text_start, self.text_end),
            needs_check: self.text_needs_check,
        });
        self.sink.process_token(token);
        self.text.clear();
        self.text_needs_check = false;
    }

    /// A character reference read without an error, `self.amp..end`,
    /// resolved to `replacement`: one to a predefined entity into the text
    /// run for a sink that takes them there
    /// ([`TokenSink::REFERENCES_IN_TEXT`]; it needs no check, so the run
    /// needs none for it), else a piece of its own.
    fn char_ref(&mut self, w: &Window<'_>, replacement: Replacement, end: usize) {
        let in_text = S::REFERENCES_IN_TEXT
            && self.text_kind == TextKind::Plain
            && starts_predefined_reference(w.bytes_from(self.amp + 1));
        if !in_text {
            self.emit_char_ref(w, replacement, end);
            return;
        }
        if self.text.len() >= TEXT_PIECE {
            self.emit_text(w);
        }
        if self.text.is_empty() {
            self.text_start = self.amp;
        }
        match replacement {
            Replacement::Char(c) => self.text.push_char(w, c),
            Replacement::Str(s) => self.text.push_str(w, s),
        }
        self.text_end = end;
    }

    fn emit_char_ref(&mut self, w: &Window<'_>, replacement: Replacement, end: usize) {
        let mut utf8 = [0; 4];
        let data = match replacement {
            Replacement::Char(c) => &*c.encode_utf8(&mut utf8),
            Replacement::Str(s) => s,
        };
        self.emit_text(w);
        self.sink.process_token(Token::Text(Text {
            data,
            kind: TextKind::CharRef,
            span: Span::new(self.amp, end),
            needs_check: true,
        }));
    }

    fn span(&self) -> Span {
        Span::new(self.token_start, self.pos)
    }

    fn emit_tag(&mut self, w: &Window<'_>) {
        self.finish_attribute();
        if self.tag_kind != TagKind::End {
            self.declarations_closed = true;
        }
        let span = self.span();
        let name = self.tag_name.as_str(w);
        let token = match self.tag_kind {
            TagKind::End => Token::EndTag(EndTag { name, span }),
            kind => {
                let tag = Tag {
                    name,
                    attributes: TagAttributes {
                        list: &self.attributes[..self.attribute_count],
                        window: *w,
                    },
                    span,
                };
                if kind == TagKind::Empty {
                    Token::EmptyTag(tag)
                } else {
                    Token::StartTag(tag)
                }
            }
        };
        self.sink.process_token(token);
        self.state = State::Data;
    }

    fn emit_comment(&mut self, w: &Window<'_>) {
        let span = self.span();
        self.sink.process_token(Token::Comment(Comment {
            data: self.comment.as_str(w),
            span,
        }));
        self.state = State::Data;
    }

    fn emit_pi(&mut self, w: &Window<'_>) {
        let span = self.span();
        self.sink
            .process_token(Token::ProcessingInstruction(ProcessingInstruction {
                target: self.pi_target.as_str(w),
                data: self.pi_data.as_str(w),
                span,
            }));
        self.state = State::Data;
    }

    fn emit_doctype(&mut self, w: &Window<'_>) {
        let span = self.span();
        let declaring = !self.declarations_closed;
        if declaring {
            self.declarations_closed = true;
            self.read_declarations(w);
        }
        let d = &self.doctype;
        fn get<'a>(field: &'a Option<StrBuf>, w: &Window<'a>) -> Option<&'a str> {
            field.as_ref().map(|buf| buf.as_str(w))
        }
        let subset_span = d
            .internal_subset
            .as_ref()
            .map(|_| Span::new(d.subset_start, d.subset_end.max(d.subset_start)));
        let subset_items: &[Span] = if declaring { &self.subset_items } else { &[] };
        let subset_entities: &[(usize, Box<str>)] = if declaring {
            &self.subset_entities
        } else {
            &[]
        };
        self.sink.process_token(Token::Doctype(&Doctype {
            name: get(&d.name, w),
            public_id: get(&d.public_id, w),
            system_id: get(&d.system_id, w),
            internal_subset: get(&d.internal_subset, w),
            subset_span,
            subset_items,
            subset_entities,
            declarations: self.declarations.as_ref(),
            span,
        }));
        self.state = State::Data;
    }

    // ----- The state machine --------------------------------------------

    /// One step of the machine: the current state's method, which consumes
    /// what it needs and sets the next state.
    fn step(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        match self.state {
            State::Data => self.data_state(w, eof),
            State::CharacterReferenceInData => self.character_reference_in_data_state(w, eof),
            State::TagOpen => self.tag_open_state(w, eof),
            State::EndTagOpen => self.end_tag_open_state(w, eof),
            State::EndTagName => self.end_tag_name_state(w, eof),
            State::EndTagNameAfter => self.end_tag_name_after_state(w, eof),
            State::TagName => self.tag_name_state(w, eof),
            State::EmptyTag => self.empty_tag_state(w, eof),
            State::TagAttributeNameBefore => self.tag_attribute_name_before_state(w, eof),
            State::TagAttributeName => self.tag_attribute_name_state(w, eof),
            State::TagAttributeNameAfter => self.tag_attribute_name_after_state(w, eof),
            State::TagAttributeValueBefore => self.tag_attribute_value_before_state(w, eof),
            State::TagAttributeValueDoubleQuoted => {
                self.tag_attribute_value_double_quoted_state(w, eof)
            }
            State::TagAttributeValueSingleQuoted => {
                self.tag_attribute_value_single_quoted_state(w, eof)
            }
            State::TagAttributeValueUnquoted => self.tag_attribute_value_unquoted_state(w, eof),
            State::CharacterReferenceInAttributeValue(value_state) => {
                self.character_reference_in_attribute_value_state(w, eof, value_state)
            }
            State::Pi => self.pi_state(w, eof),
            State::XmlDeclaration => self.xml_declaration_state(w, eof),
            State::XmlDeclarationAttributeName => self.xml_declaration_attribute_name_state(w, eof),
            State::XmlDeclarationAttributeNameAfter => {
                self.xml_declaration_attribute_name_after_state(w, eof)
            }
            State::XmlDeclarationAttributeValueBefore => {
                self.xml_declaration_attribute_value_before_state(w, eof)
            }
            State::XmlDeclarationAttributeValueQuoted(quote) => {
                self.xml_declaration_attribute_value_quoted_state(w, eof, quote)
            }
            State::XmlDeclarationAfter => self.xml_declaration_after_state(w, eof),
            State::PiTarget => self.pi_target_state(w, eof),
            State::PiTargetAfter => self.pi_target_after_state(w, eof),
            State::PiData => self.pi_data_state(w, eof),
            State::PiAfter => self.pi_after_state(w, eof),
            State::MarkupDeclaration => self.markup_declaration_state(w, eof),
            State::CommentStart => self.comment_start_state(w, eof),
            State::CommentStartDash => self.comment_start_dash_state(w, eof),
            State::Comment => self.comment_state(w, eof),
            State::CommentLessThanSign => self.comment_less_than_sign_state(w, eof),
            State::CommentLessThanSignBang => self.comment_less_than_sign_bang_state(w, eof),
            State::CommentLessThanSignBangDash => {
                self.comment_less_than_sign_bang_dash_state(w, eof)
            }
            State::CommentLessThanSignBangDashDash => {
                self.comment_less_than_sign_bang_dash_dash_state(w, eof)
            }
            State::CommentEndDash => self.comment_end_dash_state(w, eof),
            State::CommentEnd => self.comment_end_state(w, eof),
            State::CommentEndBang => self.comment_end_bang_state(w, eof),
            State::Cdata => self.cdata_state(w, eof),
            State::CdataBracket => self.cdata_bracket_state(w, eof),
            State::CdataEnd => self.cdata_end_state(w, eof),
            State::BogusComment => self.bogus_comment_state(w, eof),
            State::Doctype => self.doctype_state(w, eof),
            State::BeforeDoctypeName => self.before_doctype_name_state(w, eof),
            State::DoctypeName => self.doctype_name_state(w, eof),
            State::AfterDoctypeName => self.after_doctype_name_state(w, eof),
            State::AfterDoctypePublicKeyword => self.after_doctype_public_keyword_state(w, eof),
            State::BeforeDoctypePublicIdentifier => {
                self.before_doctype_public_identifier_state(w, eof)
            }
            State::DoctypePublicIdentifierQuoted(quote) => {
                self.doctype_public_identifier_quoted_state(w, eof, quote)
            }
            State::AfterDoctypePublicIdentifier => {
                self.after_doctype_public_identifier_state(w, eof)
            }
            State::BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state(w, eof)
            }
            State::AfterDoctypeSystemKeyword => self.after_doctype_system_keyword_state(w, eof),
            State::BeforeDoctypeSystemIdentifier => {
                self.before_doctype_system_identifier_state(w, eof)
            }
            State::DoctypeSystemIdentifierQuoted(quote) => {
                self.doctype_system_identifier_quoted_state(w, eof, quote)
            }
            State::AfterDoctypeSystemIdentifier => {
                self.after_doctype_system_identifier_state(w, eof)
            }
            State::DoctypeInternalSubset(subset) => {
                self.doctype_internal_subset_state(w, eof, subset)
            }
            State::AfterDoctypeInternalSubset => self.after_doctype_internal_subset_state(w, eof),
            State::BogusDoctype => self.bogus_doctype_state(w, eof),
        }
    }
}

/// Appends the character just consumed (`start..end` in the source) to
/// `buf`, as `c`: borrowed when `c` is exactly the source text, copied when
/// normalization changed it (CR, CR LF, NUL).
#[inline]
fn push_consumed(buf: &mut StrBuf, w: &Window<'_>, start: usize, end: usize, c: char) {
    match w.byte(start) {
        Some(b'\r' | 0) => buf.push_char(w, c),
        // NEL or LINE SEPARATOR read as a line end (XML 1.1).
        Some(0xC2 | 0xE2) if c == '\n' => buf.push_char(w, c),
        _ => buf.push_span(w, start, end),
    }
}

/// Appends the source text `start..end` with line ends normalized and NUL
/// replaced.
fn push_source(buf: &mut StrBuf, w: &Window<'_>, start: usize, end: usize) {
    let text = w.slice(start, end);
    let mut from = start;
    let mut bytes = text.bytes().enumerate().peekable();
    while let Some((i, b)) = bytes.next() {
        let at = start + i;
        match b {
            b'\r' => {
                buf.push_span(w, from, at);
                buf.push_char(w, '\n');
                if bytes.peek().map(|&(_, b)| b) == Some(b'\n') {
                    bytes.next();
                    from = at + 2;
                } else {
                    from = at + 1;
                }
            }
            0 => {
                buf.push_span(w, from, at);
                buf.push_char(w, '\u{FFFD}');
                from = at + 1;
            }
            _ => {}
        }
    }
    buf.push_span(w, from, end);
}
