//! Stage 2 of the pipeline: the XML5 tokenizer (spec §1.4).
//!
//! It owns the state machine that turns text into [`Token`]s and
//! [`ParseError`]s, and hands both, in order, to a [`TokenSink`] (the tree
//! builder, or [`TokenList`] and [`SuiteJson`] for tools and tests). It takes
//! text that is already decoded; bytes and encodings are the decoding stage's
//! business.
//!
//! Every state of §1.4 is a variant of `State` in `states.rs`, named after
//! its section; the code for a state is the arm of the same name in
//! [`Tokenizer`]'s `step`. Where the spec is unfinished the conformance
//! suite decides, and `docs/conformance.md` says where and why.
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

mod input;
#[cfg(feature = "suite-json")]
mod json;
mod owned;
mod states;
mod token;

#[cfg(feature = "suite-json")]
pub use json::{push_json_string, SuiteJson, SuiteJsonWriter};
pub use owned::{Event, OwnedAttribute, OwnedToken, TokenList};
pub use token::{
    Attribute, Attributes, Comment, Doctype, EndTag, EntityReference, ProcessingInstruction, Tag,
    Text, TextKind, Token, XmlDeclaration,
};

use crate::char_refs::{self, CharRef, Replacement};
use crate::dtd::{Declarations, EntityLookup, ExpansionMode};
use crate::error::{ErrorCode, ParseError};
use crate::limits::Limits;
use crate::span::Span;
use input::{input_char_error, scan, scan_long, stop_table, Locator, StrBuf, Window};
use states::{AttributeValueState, State, Subset};
use token::AttributeBuffer;

/// Receives the tokenizer's output, in order.
///
/// Errors arrive at the point the spec raises them: a run of text before an
/// error is delivered before it, and errors inside a tag, comment or other
/// markup arrive before that token.
pub trait TokenSink {
    /// One token. Its strings live only for this call.
    fn process_token(&mut self, token: Token<'_>);
    /// One parse error.
    fn parse_error(&mut self, error: ParseError);
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
    fn process_token(&mut self, token: Token<'_>) {
        (**self).process_token(token);
    }

    fn parse_error(&mut self, error: ParseError) {
        (**self).parse_error(error);
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

/// [`tokenize`] with limits (those on entity expansion apply here).
pub fn tokenize_with<S: TokenSink>(input: &str, sink: S, limits: &Limits) -> S {
    let mut tokenizer = Tokenizer::with_limits(sink, limits.clone());
    tokenizer.input_len = Some(input.len());
    let window = Window {
        text: input,
        base: 0,
    };
    tokenizer.run(&window, true);
    tokenizer.sink
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

    comment: StrBuf,
    pi_target: StrBuf,
    pi_data: StrBuf,
    declaration: DeclarationBuilder,
    doctype: DoctypeBuilder,

    limits: Limits,
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
    /// The whole input's length, when it came in one piece.
    input_len: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagKind {
    Start,
    Empty,
    End,
}

/// The XML declaration being read.
#[derive(Default)]
struct DeclarationBuilder {
    /// `version`, `encoding`, `standalone`.
    values: [StrBuf; 3],
    present: [bool; 3],
    /// Which pseudo-attribute is being read.
    current: usize,
    /// A pseudo-attribute name has been recognized: from here on this is a
    /// declaration, not a PI that happens to be called `xml`.
    started: bool,
    /// Offset of the first non-whitespace character after `<?xml`.
    content_start: Option<usize>,
    /// Offset of the `?` that may close the declaration.
    question_mark: usize,
    data: StrBuf,
}

const DECLARATION_NAMES: [&str; 3] = ["version", "encoding", "standalone"];

#[derive(Default)]
struct DoctypeBuilder {
    name: Option<StrBuf>,
    public_id: Option<StrBuf>,
    system_id: Option<StrBuf>,
    internal_subset: Option<StrBuf>,
    /// Where the internal subset's text starts, and ends (its `]`, or where
    /// the DOCTYPE was cut short).
    subset_start: usize,
    subset_end: usize,
    spare: Vec<StrBuf>,
}

impl DoctypeBuilder {
    fn reset(&mut self) {
        for slot in [
            &mut self.name,
            &mut self.public_id,
            &mut self.system_id,
            &mut self.internal_subset,
        ] {
            if let Some(mut buf) = slot.take() {
                buf.clear();
                self.spare.push(buf);
            }
        }
    }

    fn fresh(spare: &mut Vec<StrBuf>) -> StrBuf {
        spare.pop().unwrap_or_default()
    }
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

// Bytes that end a bulk run, per state (see `input::stop_table` for the
// bytes every table includes).
static DATA_STOP: [bool; 256] = stop_table(b"<&");
static NAME_STOP: [bool; 256] = stop_table(b"\t\n />=");
static DOUBLE_QUOTED_STOP: [bool; 256] = stop_table(b"\"&\t\n");
static SINGLE_QUOTED_STOP: [bool; 256] = stop_table(b"'&\t\n");
/// The fast path's value tables also stop at `<`, so that a value it reads
/// whole needs no check at all.
static PLAIN_DOUBLE_QUOTED_STOP: [bool; 256] = stop_table(b"\"&\t\n<");
static PLAIN_SINGLE_QUOTED_STOP: [bool; 256] = stop_table(b"'&\t\n<");
static UNQUOTED_STOP: [bool; 256] = stop_table(b"\t\n &>");
static COMMENT_STOP: [bool; 256] = stop_table(b"-<");
static CDATA_STOP: [bool; 256] = stop_table(b"]");
static PI_DATA_STOP: [bool; 256] = stop_table(b"?");
static PI_TARGET_STOP: [bool; 256] = stop_table(b"\t\n ?");
static BOGUS_COMMENT_STOP: [bool; 256] = stop_table(b">");
static SUBSET_BETWEEN_STOP: [bool; 256] = stop_table(b"[]<");
static SUBSET_DECLARATION_STOP: [bool; 256] = stop_table(b"\"'<>[]");
static SUBSET_DOUBLE_QUOTED_STOP: [bool; 256] = stop_table(b"\"");
static SUBSET_SINGLE_QUOTED_STOP: [bool; 256] = stop_table(b"'");
static SUBSET_COMMENT_STOP: [bool; 256] = stop_table(b"-");
static SUBSET_PI_STOP: [bool; 256] = stop_table(b"?");

/// Whitespace in DOCTYPEs, which (as in HTML, and as the suite requires)
/// also includes form feed.
fn is_doctype_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | ' ')
}

impl<S: TokenSink> Tokenizer<S> {
    /// A tokenizer that sends its output to `sink`.
    pub fn new(sink: S) -> Tokenizer<S> {
        Tokenizer::with_limits(sink, Limits::default())
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
            comment: StrBuf::default(),
            pi_target: StrBuf::default(),
            pi_data: StrBuf::default(),
            declaration: DeclarationBuilder::default(),
            doctype: DoctypeBuilder::default(),
            limits,
            declarations: None,
            declarations_closed: false,
            subset_items: Vec::new(),
            subset_entities: Vec::new(),
            input_len: None,
        }
    }

    /// A tokenizer for the replacement text of an entity: it knows the
    /// document's declarations.
    pub(crate) fn for_entity(sink: S, declarations: Declarations) -> Tokenizer<S> {
        let mut tokenizer = Tokenizer::with_limits(sink, declarations.limits().clone());
        tokenizer.declarations = Some(declarations);
        tokenizer.declarations_closed = true;
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
        if !self.finished {
            let buffer = std::mem::take(&mut self.pending);
            let window = Window {
                text: &buffer,
                base: self.pending_base,
            };
            self.run(&window, true);
        }
        self.sink
    }

    fn run(&mut self, w: &Window<'_>, eof: bool) {
        // A byte-order mark is not part of the document (XML 1.0 §4.3.3):
        // skip it, keeping offsets those of the text as given.
        if self.pos == 0 && w.text.starts_with('\u{FEFF}') {
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
        if let Some(code) = input_char_error(c) {
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
        let n = scan(w.bytes_from(self.pos), table);
        if n > 0 {
            let start = self.pos;
            self.pos += n;
            select(self).push_span(w, start, start + n);
        }
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

    // ----- Output --------------------------------------------------------

    /// Reports a parse error at `offset`, after any text that precedes it.
    fn error_at(&mut self, w: &Window<'_>, code: ErrorCode, offset: usize) {
        self.emit_text(w);
        let position = self.locator.locate(w, offset);
        self.sink.parse_error(ParseError {
            code,
            offset,
            line: position.line,
            column: position.column,
        });
    }

    /// Reports an error at the character consumed last.
    fn error(&mut self, w: &Window<'_>, code: ErrorCode) {
        let at = self.current_start();
        self.error_at(w, code, at);
    }

    /// Appends source text `start..end` to the pending character data.
    #[inline]
    fn text_push_span(&mut self, w: &Window<'_>, start: usize, end: usize) {
        if self.text.is_empty() {
            self.text_start = start;
        }
        self.text.push_span(w, start, end);
        self.text_end = end;
    }

    /// Appends the character consumed last, normalized as `c`.
    #[inline]
    fn text_push_current(&mut self, w: &Window<'_>, c: char) {
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
        });
        self.sink.process_token(token);
        self.text.clear();
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
                    attributes: Attributes {
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
        self.sink.process_token(Token::Doctype(Doctype {
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

    /// Reads the declarations of the first DOCTYPE's internal subset and
    /// reports what was wrong in them.
    fn read_declarations(&mut self, w: &Window<'_>) {
        let Some(subset) = &self.doctype.internal_subset else {
            return;
        };
        let start = self.doctype.subset_start;
        let declarations = Declarations::parse(subset.as_str(w), start, &self.limits);
        if let Some(len) = self.input_len {
            declarations.set_input_len(len);
        }
        // The subset parser counted offsets in the normalized subset (CR LF
        // and CR made LF, NUL made U+FFFD); map them back to the source in
        // one walk over it.
        let raw = w.slice(start, self.pos);
        let mut wanted: Vec<usize> = declarations
            .errors()
            .iter()
            .map(|&(_, at)| at)
            .chain(declarations.items().iter().flat_map(|&(a, b)| [a, b]))
            .chain(declarations.entity_offsets().map(|(_, at)| at))
            .map(|at| at.saturating_sub(start))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut mapped = Vec::with_capacity(wanted.len());
        let (mut normalized, mut next) = (0, 0);
        let mut chars = raw.char_indices().peekable();
        while let Some(&at) = wanted.get(next) {
            match chars.peek().copied() {
                Some((_, c)) if normalized < at => {
                    chars.next();
                    normalized += match c {
                        '\r' if chars.peek().is_some_and(|&(_, n)| n == '\n') => {
                            chars.next();
                            1
                        }
                        '\r' => 1,
                        '\0' => '\u{FFFD}'.len_utf8(),
                        c => c.len_utf8(),
                    };
                }
                Some((raw_at, _)) => {
                    mapped.push((at, start + raw_at));
                    next += 1;
                }
                None => {
                    mapped.push((at, start + raw.len()));
                    next += 1;
                }
            }
        }
        let to_source = |offset: usize| {
            let relative = offset.saturating_sub(start);
            mapped
                .binary_search_by_key(&relative, |&(at, _)| at)
                .map_or(start, |i| mapped[i].1)
        };
        self.subset_items = declarations
            .items()
            .iter()
            .map(|&(a, b)| Span::new(to_source(a), to_source(b)))
            .collect();
        self.subset_entities = declarations
            .entity_offsets()
            .map(|(name, at)| (to_source(at), name.into()))
            .collect();
        self.subset_entities.sort_unstable();
        for &(code, offset) in declarations.errors() {
            self.error_at(w, code, to_source(offset));
        }
        self.declarations = Some(declarations);
    }

    /// Whether the name or number after the `&` at `self.amp` ends inside
    /// the window (or the input is complete), so that the matchers below
    /// can decide without more input. Until then they would suspend, and
    /// run again over the whole name at every chunk: a long name arriving
    /// in small chunks would cost its length squared. How far the name is
    /// known to go is kept, so each byte is looked at once.
    fn reference_run_complete(&mut self, w: &Window<'_>, eof: bool) -> bool {
        if eof {
            return true;
        }
        // The HTML names and numbers go on over ASCII letters and digits (and
        // `#`); a declared entity's name also over `-._:` and non-ASCII
        // bytes, but no further than the longest declared name and one.
        let declared_end = match &self.declarations {
            Some(d) if d.has_entities() => self.pos.saturating_add(d.longest_name() + 1),
            _ => self.pos,
        };
        let from = self.reference_scanned.max(self.pos).min(w.end());
        for (at, &b) in (from..).zip(w.bytes_from(from)) {
            let html = b.is_ascii_alphanumeric() || b == b'#';
            let declared =
                at < declared_end && (matches!(b, b'-' | b'.' | b'_' | b':') || b >= 0x80);
            if !(html || declared) {
                return true;
            }
        }
        self.reference_scanned = w.end();
        false
    }

    /// After `&` in content: a reference to a declared entity becomes an
    /// [`Token::EntityReference`]. `None` when more input is needed, else
    /// whether it was one.
    fn declared_reference_in_data(&mut self, w: &Window<'_>, eof: bool) -> Option<bool> {
        let Some(declarations) = &self.declarations else {
            return Some(false);
        };
        if !declarations.has_entities() {
            return Some(false);
        }
        let Some(n) = declarations.match_reference(w.bytes_from(self.pos), eof)? else {
            return Some(false);
        };
        self.emit_text(w);
        let name = w.slice(self.pos, self.pos + n);
        self.pos += n + 1;
        self.sink
            .process_token(Token::EntityReference(EntityReference {
                name,
                span: Span::new(self.amp, self.pos),
            }));
        Some(true)
    }

    /// After `&` in an attribute value: a reference to a declared entity is
    /// expanded into the value. `None` when more input is needed, else
    /// whether it was one.
    fn declared_reference_in_attribute(&mut self, w: &Window<'_>, eof: bool) -> Option<bool> {
        let Some(declarations) = self.declarations.clone() else {
            return Some(false);
        };
        if !declarations.has_entities() {
            return Some(false);
        }
        let Some(n) = declarations.match_reference(w.bytes_from(self.pos), eof)? else {
            return Some(false);
        };
        let name = w.slice(self.pos, self.pos + n);
        let reference = w.slice(self.amp, self.pos + n + 1);
        let mut value = String::new();
        let mut errors = Vec::new();
        match declarations.lookup(name) {
            EntityLookup::Internal(text) if declarations.max_depth() > 0 => {
                let expanded = declarations.expand(
                    text,
                    Some(name),
                    0,
                    ExpansionMode::Attribute,
                    &mut value,
                    &mut errors,
                );
                if expanded.is_err() {
                    // Out of budget: the reference stays as written.
                    value.clear();
                    value.push_str(reference);
                }
            }
            EntityLookup::Internal(_) => {
                errors.push(ErrorCode::EntityDepthLimit);
                value.push_str(reference);
            }
            EntityLookup::External => {
                errors.push(ErrorCode::ExternalEntityInAttributeValue);
                value.push_str(reference);
            }
            EntityLookup::Unparsed => {
                errors.push(ErrorCode::UnparsedEntityReference);
                value.push_str(reference);
            }
            EntityLookup::Undeclared => {
                errors.push(ErrorCode::UndeclaredEntity);
                value.push_str(reference);
            }
        }
        for code in errors {
            self.error_at(w, code, self.amp);
        }
        self.pos += n + 1;
        self.current_attribute().value.push_str(w, &value);
        Some(true)
    }

    // ----- Tags ----------------------------------------------------------

    fn start_tag(&mut self, kind: TagKind) {
        self.tag_name.clear();
        self.tag_kind = kind;
        self.attribute_count = 0;
        self.attribute_dropped = false;
        if !self.attribute_names.is_empty() {
            self.attribute_names.clear();
        }
    }

    /// Starts a new attribute whose name begins with the character consumed
    /// last.
    fn start_attribute(&mut self, w: &Window<'_>, c: char) {
        let (start, pos) = (self.current_start(), self.pos);
        self.new_attribute(start, pos);
        let c = self.replace_null(w, c);
        push_consumed(&mut self.current_attribute().name, w, start, pos, c);
    }

    /// Adds an empty attribute whose name starts at `start` (its span ends at
    /// `end` for now), reusing a buffer of an earlier tag.
    #[inline]
    fn new_attribute(&mut self, start: usize, end: usize) {
        self.finish_attribute();
        if self.attribute_count == self.attributes.len() {
            self.attributes.push(AttributeBuffer::default());
        }
        let attribute = &mut self.attributes[self.attribute_count];
        attribute.name.clear();
        attribute.value.clear();
        attribute.start = start;
        attribute.end = end;
        attribute.value_span = None;
        attribute.plain = false;
        self.attribute_count += 1;
    }

    /// The usual case of the tag open, end tag open and tag name states
    /// without a step per character: `<` or `</`, then a name of plain
    /// characters, then `>`, whitespace, or (in a start tag) `/>`. It stops
    /// at anything else, and at the end of the window, leaving the machine
    /// where stepping would have: in the tag open state (nothing consumed),
    /// or in a tag name state with the name read.
    #[inline]
    fn tag_name_fast(&mut self, w: &Window<'_>) {
        let bytes = w.bytes_from(self.pos);
        let (kind, offset) = match bytes.first() {
            Some(b'/') => (TagKind::End, 1),
            _ => (TagKind::Start, 0),
        };
        match bytes.get(offset) {
            Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
            _ => return,
        }
        let name_len = scan(&bytes[offset..], &NAME_STOP);
        let after = offset + name_len;
        let Some(&next) = bytes.get(after) else {
            return;
        };
        self.start_tag(kind);
        let name_start = self.pos + offset;
        self.tag_name
            .push_span(w, name_start, name_start + name_len);
        self.pos = name_start + name_len;
        self.state = match kind {
            TagKind::End => State::EndTagName,
            _ => State::TagName,
        };
        match next {
            b'>' => {
                self.pos += 1;
                self.emit_tag(w);
            }
            b' ' | b'\t' | b'\n' => {
                self.pos += 1;
                self.state = match kind {
                    TagKind::End => State::EndTagNameAfter,
                    _ => State::TagAttributeNameBefore,
                };
            }
            _ => {}
        }
    }

    /// The usual case of the attribute states without a step per
    /// character: whitespace, then `name="value"` with a plain name and a
    /// value that needs no reference, normalization or check, as often as it
    /// comes, and the tag's `>` or `/>`. It stops at anything else, and at
    /// the end of the window, leaving the machine exactly where stepping
    /// would have: in the attribute name before state, or in a quoted value
    /// state. Returns whether it left the attribute name before state.
    #[inline]
    fn attributes_fast(&mut self, w: &Window<'_>) -> bool {
        loop {
            let bytes = w.bytes_from(self.pos);
            let spaces = bytes
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t' | b'\n'))
                .unwrap_or(bytes.len());
            // Skipping whitespace is all the state does with it.
            self.pos += spaces;
            let bytes = &bytes[spaces..];
            match bytes.first() {
                Some(b'>') => {
                    self.pos += 1;
                    self.emit_tag(w);
                    return true;
                }
                Some(b'/') if bytes.get(1) == Some(&b'>') => {
                    self.pos += 2;
                    self.tag_kind = TagKind::Empty;
                    self.emit_tag(w);
                    return true;
                }
                Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
                _ => return false,
            }
            let name_len = scan(bytes, &NAME_STOP);
            let (quote, table, value_state) = match bytes.get(name_len..name_len + 2) {
                Some(b"=\"") => (
                    b'"',
                    &PLAIN_DOUBLE_QUOTED_STOP,
                    State::TagAttributeValueDoubleQuoted,
                ),
                Some(b"='") => (
                    b'\'',
                    &PLAIN_SINGLE_QUOTED_STOP,
                    State::TagAttributeValueSingleQuoted,
                ),
                _ => return false,
            };
            let value_len = scan_long(&bytes[name_len + 2..], table, [quote, b'&', b'<']);

            // The attribute name state's work, then the value's.
            let name_start = self.pos;
            let name_end = name_start + name_len;
            self.new_attribute(name_start, name_end);
            self.current_attribute()
                .name
                .push_span(w, name_start, name_end);
            self.check_duplicate_attribute(w, name_end);
            let value_start = name_end + 2;
            let value_end = value_start + value_len;
            let attribute = self.current_attribute();
            attribute.value_span = Some(Span::new(value_start, value_start));
            attribute.value.push_span(w, value_start, value_end);
            if bytes.get(name_len + 2 + value_len) == Some(&quote) {
                self.pos = value_end + 1;
                self.end_attribute_value(value_end, value_end + 1);
                self.current_attribute().plain = true;
            } else {
                // A reference, a character to normalize or check, or the
                // end of the window: the value state goes on from here.
                self.pos = value_end;
                self.state = value_state;
                return true;
            }
        }
    }

    fn current_attribute(&mut self) -> &mut AttributeBuffer {
        &mut self.attributes[self.attribute_count - 1]
    }

    /// Drops the attribute just read if it was a duplicate.
    fn finish_attribute(&mut self) {
        if self.attribute_dropped {
            self.attribute_count -= 1;
            self.attribute_dropped = false;
        }
    }

    /// On leaving the attribute name state: a name already on the tag is a
    /// parse error and the new attribute is dropped (§1.4.10).
    fn check_duplicate_attribute(&mut self, w: &Window<'_>, name_end: usize) {
        let index = self.attribute_count - 1;
        let current = &mut self.attributes[index];
        current.end = name_end;
        let name = current.name.as_bytes(w);
        current.key = match (name.first(), name.last()) {
            (Some(&first), Some(&last)) => {
                (name.len() as u32) << 16 | u32::from(first) << 8 | u32::from(last)
            }
            _ => 0,
        };
        let (earlier, rest) = self.attributes.split_at(index);
        let duplicate = if index < 32 {
            let (key, name) = (rest[0].key, rest[0].name.as_bytes(w));
            earlier
                .iter()
                .any(|a| a.key == key && a.name.as_bytes(w) == name)
        } else {
            let name = rest[0].name.as_bytes(w);
            let names = &mut self.attribute_names;
            if names.is_empty() {
                for (i, attribute) in earlier.iter().enumerate() {
                    names.insert(attribute.name.as_bytes(w), i, |_| false);
                }
            }
            let same = |i: usize| earlier.get(i).map(|a| a.name.as_bytes(w)) == Some(name);
            !names.insert(name, index, same)
        };
        if duplicate {
            let start = rest[0].start;
            self.attribute_dropped = true;
            self.error_at(w, ErrorCode::DuplicateAttribute, start);
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

    // ----- XML declaration ----------------------------------------------

    /// Gives up on the XML declaration: it becomes a PI named `xml` whose
    /// data is the source from the first non-space character up to `upto`,
    /// and the PI data state takes over.
    fn declaration_to_pi(&mut self, w: &Window<'_>, upto: usize) {
        self.pi_target.clear();
        self.pi_target
            .push_span(w, self.token_start + 2, self.token_start + 5);
        self.pi_data.clear();
        if let Some(start) = self.declaration.content_start {
            push_source(&mut self.pi_data, w, start, upto.max(start));
        }
        self.state = State::PiData;
    }

    /// An error that turns a started declaration into a PI.
    fn declaration_error(&mut self, w: &Window<'_>, upto: usize) {
        if self.declaration.started {
            self.error(w, ErrorCode::InvalidXmlDeclaration);
        }
        self.declaration_to_pi(w, upto);
        self.reconsume();
    }

    fn emit_declaration(&mut self, w: &Window<'_>, content_end: usize) {
        if !self.declaration.started {
            self.declaration_to_pi(w, content_end);
            self.emit_pi(w);
            return;
        }
        if !self.declaration.present[0] {
            self.error_at(w, ErrorCode::InvalidXmlDeclaration, self.token_start);
        }
        let d = &mut self.declaration;
        d.data.clear();
        if let Some(start) = d.content_start {
            push_source(&mut d.data, w, start, content_end.max(start));
        }
        let d = &self.declaration;
        let value = |i: usize| d.present[i].then(|| d.values[i].as_str(w));
        let token = Token::XmlDeclaration(XmlDeclaration {
            version: value(0),
            encoding: value(1),
            standalone: value(2),
            data: d.data.as_str(w),
            span: Span::new(self.token_start, self.pos),
        });
        self.sink.process_token(token);
        self.state = State::Data;
    }

    // ----- The state machine --------------------------------------------

    fn step(&mut self, w: &Window<'_>, eof: bool) -> Flow {
        macro_rules! next {
            () => {
                match self.next_input(w, eof) {
                    Input::Char(c) => Some(c),
                    Input::Eof => None,
                    Input::Suspend => return Flow::Suspend,
                }
            };
        }
        match self.state {
            State::Data => {
                if self.text.is_empty() {
                    self.mark = self.pos;
                }
                let start = self.pos;
                let n = scan(w.bytes_from(start), &DATA_STOP);
                if n > 0 {
                    self.pos += n;
                    self.text_push_span(w, start, start + n);
                }
                match w.byte(self.pos) {
                    Some(b'<') => {
                        self.emit_text(w);
                        self.token_start = self.pos;
                        self.pos += 1;
                        self.state = State::TagOpen;
                        self.tag_name_fast(w);
                    }
                    Some(b'&') => {
                        self.amp = self.pos;
                        self.pos += 1;
                        self.state = State::CharacterReferenceInData;
                    }
                    _ => match next!() {
                        None => {
                            self.emit_text(w);
                            self.sink.process_token(Token::EndOfFile(self.pos));
                            self.finished = true;
                            return Flow::Done;
                        }
                        Some(c) => {
                            let c = self.replace_null(w, c);
                            self.text_push_current(w, c);
                        }
                    },
                }
            }
            State::CharacterReferenceInData => {
                if !self.reference_run_complete(w, eof) {
                    return Flow::Suspend;
                }
                match self.declared_reference_in_data(w, eof) {
                    None => return Flow::Suspend,
                    Some(true) => {
                        self.state = State::Data;
                        return Flow::Continue;
                    }
                    Some(false) => {}
                }
                match char_refs::consume(w.bytes_from(self.pos), eof, false, None) {
                    CharRef::NeedMore => return Flow::Suspend,
                    CharRef::NotARef { error } => {
                        if let Some(code) = error {
                            self.error_at(w, code, self.amp);
                        }
                        self.text_push_span(w, self.amp, self.amp + 1);
                    }
                    CharRef::Ref {
                        consumed,
                        text,
                        errors,
                    } => {
                        for code in errors.iter() {
                            self.error_at(w, code, self.amp);
                        }
                        self.pos += consumed;
                        self.emit_char_ref(w, text, self.pos);
                    }
                }
                self.state = State::Data;
            }
            State::TagOpen => match next!() {
                Some('/') => self.state = State::EndTagOpen,
                Some('?') => self.state = State::Pi,
                Some('!') => self.state = State::MarkupDeclaration,
                Some('\t' | '\n' | ' ' | ':' | '<' | '>') => {
                    self.error(w, ErrorCode::InvalidFirstCharacterOfTagName);
                    self.text_push_span(w, self.token_start, self.token_start + 1);
                    self.reconsume();
                    self.state = State::Data;
                }
                None => {
                    self.error_at(w, ErrorCode::EofBeforeTagName, self.pos);
                    self.text_push_span(w, self.token_start, self.token_start + 1);
                    self.state = State::Data;
                }
                Some(c) => {
                    self.start_tag(TagKind::Start);
                    let c = self.replace_null(w, c);
                    let start = self.current_start();
                    push_consumed(&mut self.tag_name, w, start, self.pos, c);
                    self.state = State::TagName;
                }
            },
            State::EndTagOpen => match next!() {
                Some('>') => {
                    self.sink.process_token(Token::ShortEndTag(self.span()));
                    self.state = State::Data;
                }
                Some('\t' | '\n' | ' ' | '<' | ':') => {
                    self.error(w, ErrorCode::InvalidFirstCharacterOfTagName);
                    self.text_push_span(w, self.token_start, self.token_start + 2);
                    self.reconsume();
                    self.state = State::Data;
                }
                None => {
                    self.error_at(w, ErrorCode::EofBeforeTagName, self.pos);
                    self.text_push_span(w, self.token_start, self.token_start + 2);
                    self.state = State::Data;
                }
                Some(c) => {
                    self.start_tag(TagKind::End);
                    let c = self.replace_null(w, c);
                    let start = self.current_start();
                    push_consumed(&mut self.tag_name, w, start, self.pos, c);
                    self.state = State::EndTagName;
                }
            },
            State::EndTagName => {
                self.bulk(w, &NAME_STOP, |t| &mut t.tag_name);
                match next!() {
                    Some('\t' | '\n' | ' ') => self.state = State::EndTagNameAfter,
                    Some('/') => {
                        self.error(w, ErrorCode::UnexpectedSolidusInTag);
                        self.state = State::EndTagNameAfter;
                    }
                    Some('>') => self.emit_tag(w),
                    None => {
                        self.error_at(w, ErrorCode::EofInTag, self.pos);
                        self.emit_tag(w);
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let start = self.current_start();
                        push_consumed(&mut self.tag_name, w, start, self.pos, c);
                    }
                }
            }
            State::EndTagNameAfter => match next!() {
                Some('>') => self.emit_tag(w),
                Some('\t' | '\n' | ' ') => {}
                None => {
                    self.error_at(w, ErrorCode::EofInTag, self.pos);
                    self.emit_tag(w);
                }
                Some(_) => self.error(w, ErrorCode::UnexpectedCharacterAfterEndTagName),
            },
            State::TagName => {
                self.bulk(w, &NAME_STOP, |t| &mut t.tag_name);
                match next!() {
                    Some('\t' | '\n' | ' ') => self.state = State::TagAttributeNameBefore,
                    Some('>') => self.emit_tag(w),
                    None => {
                        self.error_at(w, ErrorCode::EofInTag, self.pos);
                        self.emit_tag(w);
                    }
                    Some('/') => {
                        self.tag_kind = TagKind::Empty;
                        self.state = State::EmptyTag;
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let start = self.current_start();
                        push_consumed(&mut self.tag_name, w, start, self.pos, c);
                    }
                }
            }
            State::EmptyTag => match next!() {
                Some('>') => self.emit_tag(w),
                other => {
                    // The spec says "reconsume in tag attribute value before
                    // state", a slip for "name before"; the suite's
                    // `<a x=test /` wants the parse error (see
                    // docs/conformance.md).
                    let at = if other.is_some() {
                        self.current_start()
                    } else {
                        self.pos
                    };
                    self.error_at(w, ErrorCode::UnexpectedSolidusInTag, at);
                    self.reconsume();
                    self.state = State::TagAttributeNameBefore;
                }
            },
            State::TagAttributeNameBefore => {
                if self.attributes_fast(w) {
                    return Flow::Continue;
                }
                match next!() {
                    Some('\t' | '\n' | ' ') => {}
                    Some('>') => self.emit_tag(w),
                    Some('/') => {
                        self.tag_kind = TagKind::Empty;
                        self.state = State::EmptyTag;
                    }
                    Some(':') => self.error(w, ErrorCode::ColonBeforeAttr),
                    None => {
                        self.error_at(w, ErrorCode::EofInTag, self.pos);
                        self.emit_tag(w);
                    }
                    Some(c) => {
                        self.start_attribute(w, c);
                        self.state = State::TagAttributeName;
                    }
                }
            }
            State::TagAttributeName => {
                self.bulk(w, &NAME_STOP, |t| &mut t.current_attribute().name);
                match next!() {
                    Some('=') => {
                        let at = self.current_start();
                        self.check_duplicate_attribute(w, at);
                        self.state = State::TagAttributeValueBefore;
                    }
                    Some('>') => {
                        let at = self.current_start();
                        self.check_duplicate_attribute(w, at);
                        self.emit_tag(w);
                    }
                    Some('\t' | '\n' | ' ') => {
                        let at = self.current_start();
                        self.check_duplicate_attribute(w, at);
                        self.state = State::TagAttributeNameAfter;
                    }
                    Some('/') => {
                        let at = self.current_start();
                        self.check_duplicate_attribute(w, at);
                        self.tag_kind = TagKind::Empty;
                        self.state = State::EmptyTag;
                    }
                    None => {
                        self.check_duplicate_attribute(w, self.pos);
                        self.error_at(w, ErrorCode::EofInTag, self.pos);
                        self.emit_tag(w);
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let (start, end) = (self.current_start(), self.pos);
                        push_consumed(&mut self.current_attribute().name, w, start, end, c);
                    }
                }
            }
            State::TagAttributeNameAfter => match next!() {
                Some('\t' | '\n' | ' ') => {}
                Some('=') => self.state = State::TagAttributeValueBefore,
                Some('>') => self.emit_tag(w),
                Some('/') => {
                    self.tag_kind = TagKind::Empty;
                    self.state = State::EmptyTag;
                }
                None => {
                    self.error_at(w, ErrorCode::EofInTag, self.pos);
                    self.emit_tag(w);
                }
                Some(c) => {
                    self.start_attribute(w, c);
                    self.state = State::TagAttributeName;
                }
            },
            State::TagAttributeValueBefore => match next!() {
                Some('\t' | '\n' | ' ') => {}
                Some('"') => {
                    let pos = self.pos;
                    self.current_attribute().value_span = Some(Span::new(pos, pos));
                    self.state = State::TagAttributeValueDoubleQuoted;
                }
                Some('\'') => {
                    let pos = self.pos;
                    self.current_attribute().value_span = Some(Span::new(pos, pos));
                    self.state = State::TagAttributeValueSingleQuoted;
                }
                Some('&') => {
                    self.reconsume();
                    let pos = self.pos;
                    self.current_attribute().value_span = Some(Span::new(pos, pos));
                    self.state = State::TagAttributeValueUnquoted;
                }
                Some('>') => self.emit_tag(w),
                None => {
                    self.error_at(w, ErrorCode::EofInTag, self.pos);
                    self.emit_tag(w);
                }
                Some(c) => {
                    let c = self.replace_null(w, c);
                    let (start, end) = (self.current_start(), self.pos);
                    let attribute = self.current_attribute();
                    attribute.value_span = Some(Span::new(start, end));
                    push_consumed(&mut attribute.value, w, start, end, c);
                    self.state = State::TagAttributeValueUnquoted;
                }
            },
            State::TagAttributeValueDoubleQuoted => {
                return self.attribute_value_quoted(
                    w,
                    eof,
                    &DOUBLE_QUOTED_STOP,
                    AttributeValueState::DoubleQuoted,
                )
            }
            State::TagAttributeValueSingleQuoted => {
                return self.attribute_value_quoted(
                    w,
                    eof,
                    &SINGLE_QUOTED_STOP,
                    AttributeValueState::SingleQuoted,
                )
            }
            State::TagAttributeValueUnquoted => {
                self.bulk(w, &UNQUOTED_STOP, |t| &mut t.current_attribute().value);
                match next!() {
                    Some('\t' | '\n' | ' ') => {
                        let at = self.current_start();
                        self.end_attribute_value(at, at);
                        self.state = State::TagAttributeNameBefore;
                    }
                    Some('&') => {
                        self.amp = self.current_start();
                        self.state = State::CharacterReferenceInAttributeValue(
                            AttributeValueState::Unquoted,
                        );
                    }
                    Some('>') => {
                        let at = self.current_start();
                        self.end_attribute_value(at, at);
                        self.emit_tag(w);
                    }
                    None => {
                        self.error_at(w, ErrorCode::EofInTag, self.pos);
                        self.end_attribute_value(self.pos, self.pos);
                        self.emit_tag(w);
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let (start, end) = (self.current_start(), self.pos);
                        push_consumed(&mut self.current_attribute().value, w, start, end, c);
                    }
                }
            }
            State::CharacterReferenceInAttributeValue(value_state) => {
                if !self.reference_run_complete(w, eof) {
                    return Flow::Suspend;
                }
                match self.declared_reference_in_attribute(w, eof) {
                    None => return Flow::Suspend,
                    Some(true) => {
                        self.state = value_state.state();
                        return Flow::Continue;
                    }
                    Some(false) => {}
                }
                let outcome = char_refs::consume(
                    w.bytes_from(self.pos),
                    eof,
                    true,
                    Some(value_state.additional_allowed()),
                );
                match outcome {
                    CharRef::NeedMore => return Flow::Suspend,
                    CharRef::NotARef { error } => {
                        if let Some(code) = error {
                            self.error_at(w, code, self.amp);
                        }
                        let amp = self.amp;
                        self.current_attribute().value.push_span(w, amp, amp + 1);
                    }
                    CharRef::Ref {
                        consumed,
                        text,
                        errors,
                    } => {
                        for code in errors.iter() {
                            self.error_at(w, code, self.amp);
                        }
                        self.pos += consumed;
                        let value = &mut self.current_attribute().value;
                        match text {
                            Replacement::Char(c) => value.push_char(w, c),
                            Replacement::Str(s) => value.push_str(w, s),
                        }
                    }
                }
                self.state = value_state.state();
            }
            State::Pi => {
                // `<?xml` followed by whitespace, `?` or the end of the input
                // starts the XML declaration; `<?xml-stylesheet` does not.
                let bytes = w.bytes_from(self.pos);
                match self.lookahead(w, eof, b"xml") {
                    None => return Flow::Suspend,
                    Some(true) => match bytes.get(3) {
                        None if !eof => return Flow::Suspend,
                        None | Some(b'\t' | b'\n' | b'\r' | b' ' | b'?') => {
                            self.pos += 3;
                            self.start_declaration();
                            self.state = State::XmlDeclaration;
                            return Flow::Continue;
                        }
                        Some(_) => {}
                    },
                    Some(false) => {}
                }
                match next!() {
                    c @ (None | Some('\t' | '\n' | ' ')) => {
                        let at = if c.is_some() {
                            self.current_start()
                        } else {
                            self.pos
                        };
                        self.error_at(w, ErrorCode::MissingProcessingInstructionTarget, at);
                        self.comment.clear();
                        self.reconsume();
                        self.state = State::BogusComment;
                    }
                    Some(c) => {
                        self.pi_target.clear();
                        self.pi_data.clear();
                        let c = self.replace_null(w, c);
                        let start = self.current_start();
                        push_consumed(&mut self.pi_target, w, start, self.pos, c);
                        self.state = State::PiTarget;
                    }
                }
            }
            State::XmlDeclaration => match next!() {
                Some('\t' | '\n' | ' ') => {}
                Some('v' | 'e' | 's') => {
                    let at = self.current_start();
                    self.declaration.content_start.get_or_insert(at);
                    self.reconsume();
                    self.state = State::XmlDeclarationAttributeName;
                }
                Some('?') => {
                    let at = self.current_start();
                    self.declaration.content_start.get_or_insert(at);
                    self.declaration.question_mark = at;
                    self.state = State::XmlDeclarationAfter;
                }
                None => {
                    self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                    self.emit_declaration(w, self.pos);
                }
                Some(_) => {
                    let at = self.current_start();
                    self.declaration.content_start.get_or_insert(at);
                    self.declaration_error(w, at);
                }
            },
            State::XmlDeclarationAttributeName => {
                let bytes = w.bytes_from(self.pos);
                let found = DECLARATION_NAMES
                    .iter()
                    .position(|name| bytes.starts_with(name.as_bytes()));
                if let Some(index) = found {
                    let at = self.pos;
                    self.pos += DECLARATION_NAMES[index].len();
                    let d = &mut self.declaration;
                    // Each at most once, in the order of the grammar.
                    let misplaced = d.present[index..].iter().any(|&p| p);
                    d.started = true;
                    d.current = index;
                    d.values[index].clear();
                    d.present[index] = false;
                    if misplaced {
                        self.error_at(w, ErrorCode::InvalidXmlDeclaration, at);
                    }
                    self.state = State::XmlDeclarationAttributeNameAfter;
                } else if !eof
                    && DECLARATION_NAMES
                        .iter()
                        .any(|name| bytes.len() < name.len() && name.as_bytes().starts_with(bytes))
                {
                    return Flow::Suspend;
                } else {
                    // Consume one character so that the error points at it,
                    // then hand it to the PI data state.
                    next!();
                    let at = self.current_start();
                    self.declaration_error(w, at);
                }
            }
            State::XmlDeclarationAttributeNameAfter => match next!() {
                Some('\t' | '\n' | ' ') => {}
                Some('=') => self.state = State::XmlDeclarationAttributeValueBefore,
                None => {
                    self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                    self.emit_declaration(w, self.pos);
                }
                Some(_) => {
                    let at = self.current_start();
                    self.declaration_error(w, at);
                }
            },
            State::XmlDeclarationAttributeValueBefore => match next!() {
                Some('\t' | '\n' | ' ') => {}
                Some(quote @ ('"' | '\'')) => {
                    self.state = State::XmlDeclarationAttributeValueQuoted(quote as u8);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                    self.emit_declaration(w, self.pos);
                }
                Some(_) => {
                    let at = self.current_start();
                    self.declaration_error(w, at);
                }
            },
            State::XmlDeclarationAttributeValueQuoted(quote) => {
                let c = next!();
                let index = self.declaration.current;
                match c {
                    Some(c) if c as u32 == quote as u32 => {
                        self.declaration.present[index] = true;
                        self.state = State::XmlDeclaration;
                    }
                    Some('?') => {
                        self.error(w, ErrorCode::AbruptClosingXmlDeclaration);
                        self.declaration.present[index] = true;
                        self.declaration.question_mark = self.current_start();
                        self.state = State::XmlDeclarationAfter;
                    }
                    None => {
                        self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                        self.declaration.present[index] = true;
                        self.emit_declaration(w, self.pos);
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let (start, end) = (self.current_start(), self.pos);
                        push_consumed(&mut self.declaration.values[index], w, start, end, c);
                    }
                }
            }
            State::XmlDeclarationAfter => match next!() {
                Some('>') => {
                    let end = self.declaration.question_mark;
                    self.emit_declaration(w, end);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInXmlDeclaration, self.pos);
                    let end = self.declaration.question_mark;
                    self.emit_declaration(w, end);
                }
                Some(_) => {
                    // Spec: reprocess in the PI data state, dropping the `?`
                    // (the suite's `<?xml ?m?>` gives data "m"). Once a
                    // declaration has started, its fallback PI keeps all of
                    // its text, the `?` included.
                    let question_mark = self.declaration.question_mark;
                    let end = if self.declaration.started {
                        question_mark + 1
                    } else {
                        question_mark
                    };
                    self.declaration_error(w, end);
                }
            },
            State::PiTarget => {
                self.bulk(w, &PI_TARGET_STOP, |t| &mut t.pi_target);
                match next!() {
                    Some('\t' | '\n' | ' ') => self.state = State::PiTargetAfter,
                    None => {
                        self.error_at(w, ErrorCode::EofInProcessingInstruction, self.pos);
                        self.emit_pi(w);
                    }
                    Some('?') => self.state = State::PiAfter,
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let start = self.current_start();
                        push_consumed(&mut self.pi_target, w, start, self.pos, c);
                    }
                }
            }
            State::PiTargetAfter => match next!() {
                Some('\t' | '\n' | ' ') => {}
                _ => {
                    self.reconsume();
                    self.state = State::PiData;
                }
            },
            State::PiData => {
                self.bulk(w, &PI_DATA_STOP, |t| &mut t.pi_data);
                match next!() {
                    Some('?') => self.state = State::PiAfter,
                    None => {
                        self.error_at(w, ErrorCode::EofInProcessingInstruction, self.pos);
                        self.emit_pi(w);
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let start = self.current_start();
                        push_consumed(&mut self.pi_data, w, start, self.pos, c);
                    }
                }
            }
            State::PiAfter => {
                let c = next!();
                // The `?` that brought us here is data unless `>` follows:
                // the spec drops it, which would read `<?t a?b?>` as "ab"
                // where XML gives "a?b" (docs/conformance.md).
                let question_mark = if c.is_some() {
                    self.current_start() - 1
                } else {
                    self.pos - 1
                };
                match c {
                    Some('>') => self.emit_pi(w),
                    Some('?') => {
                        self.pi_data.push_span(w, question_mark, question_mark + 1);
                    }
                    _ => {
                        self.pi_data.push_span(w, question_mark, question_mark + 1);
                        self.reconsume();
                        self.state = State::PiData;
                    }
                }
            }
            State::MarkupDeclaration => {
                for (word, next_state) in [
                    (&b"--"[..], State::CommentStart),
                    (b"DOCTYPE", State::Doctype),
                    (b"[CDATA[", State::Cdata),
                ] {
                    match self.lookahead(w, eof, word) {
                        None => return Flow::Suspend,
                        Some(true) => {
                            self.pos += word.len();
                            match next_state {
                                State::CommentStart => self.comment.clear(),
                                State::Doctype => self.doctype.reset(),
                                _ => self.text_kind = TextKind::Cdata,
                            }
                            self.state = next_state;
                            return Flow::Continue;
                        }
                        Some(false) => {}
                    }
                }
                self.error_at(w, ErrorCode::IncorrectlyOpenedComment, self.pos);
                self.comment.clear();
                self.state = State::BogusComment;
            }
            State::CommentStart => match next!() {
                Some('-') => self.state = State::CommentStartDash,
                Some('>') => {
                    self.error(w, ErrorCode::AbruptClosingOfEmptyComment);
                    self.emit_comment(w);
                }
                _ => {
                    self.reconsume();
                    self.state = State::Comment;
                }
            },
            State::CommentStartDash => match next!() {
                Some('-') => self.state = State::CommentEnd,
                Some('>') => {
                    self.error(w, ErrorCode::AbruptClosingOfEmptyComment);
                    self.emit_comment(w);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInComment, self.pos);
                    self.emit_comment(w);
                }
                Some(_) => {
                    let dash = self.current_start() - 1;
                    self.comment.push_span(w, dash, dash + 1);
                    self.reconsume();
                    self.state = State::Comment;
                }
            },
            State::Comment => {
                self.bulk(w, &COMMENT_STOP, |t| &mut t.comment);
                match next!() {
                    Some('<') => {
                        let start = self.current_start();
                        self.comment.push_span(w, start, self.pos);
                        self.state = State::CommentLessThanSign;
                    }
                    Some('-') => self.state = State::CommentEndDash,
                    None => {
                        self.error_at(w, ErrorCode::EofInComment, self.pos);
                        self.emit_comment(w);
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let start = self.current_start();
                        push_consumed(&mut self.comment, w, start, self.pos, c);
                    }
                }
            }
            State::CommentLessThanSign => match next!() {
                Some('!') => {
                    let start = self.current_start();
                    self.comment.push_span(w, start, self.pos);
                    self.state = State::CommentLessThanSignBang;
                }
                Some('<') => {
                    let start = self.current_start();
                    self.comment.push_span(w, start, self.pos);
                }
                _ => {
                    self.reconsume();
                    self.state = State::Comment;
                }
            },
            State::CommentLessThanSignBang => match next!() {
                Some('-') => self.state = State::CommentLessThanSignBangDash,
                _ => {
                    self.reconsume();
                    self.state = State::Comment;
                }
            },
            State::CommentLessThanSignBangDash => match next!() {
                Some('-') => self.state = State::CommentLessThanSignBangDashDash,
                _ => {
                    self.reconsume();
                    self.state = State::CommentEndDash;
                }
            },
            State::CommentLessThanSignBangDashDash => match next!() {
                None | Some('>') => {
                    self.reconsume();
                    self.state = State::CommentEnd;
                }
                Some(_) => {
                    self.error(w, ErrorCode::NestedComment);
                    self.reconsume();
                    self.state = State::CommentEnd;
                }
            },
            State::CommentEndDash => match next!() {
                Some('-') => self.state = State::CommentEnd,
                None => {
                    self.error_at(w, ErrorCode::EofInComment, self.pos);
                    self.emit_comment(w);
                }
                Some(_) => {
                    let dash = self.current_start() - 1;
                    self.comment.push_span(w, dash, dash + 1);
                    self.reconsume();
                    self.state = State::Comment;
                }
            },
            State::CommentEnd => match next!() {
                Some('>') => self.emit_comment(w),
                Some('!') => self.state = State::CommentEndBang,
                Some('-') => {
                    let dash = self.current_start() - 2;
                    self.comment.push_span(w, dash, dash + 1);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInComment, self.pos);
                    self.emit_comment(w);
                }
                Some(_) => {
                    let start = self.current_start();
                    self.comment.push_span(w, start - 2, start);
                    self.reconsume();
                    self.state = State::Comment;
                }
            },
            State::CommentEndBang => match next!() {
                Some('-') => {
                    let start = self.current_start();
                    self.comment.push_span(w, start - 3, start);
                    self.state = State::CommentEndDash;
                }
                Some('>') => {
                    self.error(w, ErrorCode::IncorrectlyClosedComment);
                    self.emit_comment(w);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInComment, self.pos);
                    self.emit_comment(w);
                }
                Some(_) => {
                    let start = self.current_start();
                    self.comment.push_span(w, start - 3, start);
                    self.reconsume();
                    self.state = State::Comment;
                }
            },
            State::Cdata => {
                let start = self.pos;
                let n = scan(w.bytes_from(start), &CDATA_STOP);
                if n > 0 {
                    self.pos += n;
                    self.text_push_span(w, start, start + n);
                }
                match next!() {
                    Some(']') => self.state = State::CdataBracket,
                    None => {
                        self.error_at(w, ErrorCode::EofInCdata, self.pos);
                        self.leave_cdata(w);
                    }
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        self.text_push_current(w, c);
                    }
                }
            }
            State::CdataBracket => match next!() {
                Some(']') => self.state = State::CdataEnd,
                None => {
                    self.error_at(w, ErrorCode::EofInCdata, self.pos);
                    self.leave_cdata(w);
                }
                Some(_) => {
                    // The spec says to stay in the bracket state, which
                    // would read `]a]b` wrongly; the suite's "CDATA bracket
                    // text state" case wants the CDATA state.
                    let bracket = self.current_start() - 1;
                    self.text_push_span(w, bracket, bracket + 1);
                    self.reconsume();
                    self.state = State::Cdata;
                }
            },
            State::CdataEnd => match next!() {
                Some('>') => self.leave_cdata(w),
                Some(']') => {
                    let bracket = self.current_start() - 2;
                    self.text_push_span(w, bracket, bracket + 1);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInCdata, self.pos);
                    self.leave_cdata(w);
                }
                Some(_) => {
                    let start = self.current_start();
                    self.text_push_span(w, start - 2, start);
                    self.reconsume();
                    self.state = State::Cdata;
                }
            },
            State::BogusComment => {
                self.bulk(w, &BOGUS_COMMENT_STOP, |t| &mut t.comment);
                match next!() {
                    Some('>') | None => self.emit_comment(w),
                    Some(c) => {
                        let c = self.replace_null(w, c);
                        let start = self.current_start();
                        push_consumed(&mut self.comment, w, start, self.pos, c);
                    }
                }
            }
            // DOCTYPE states. NUL becomes U+FFFD here without an error, as
            // the suite's doctype.test requires.
            State::Doctype => match next!() {
                Some(c) if is_doctype_space(c) => self.state = State::BeforeDoctypeName,
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(_) => {
                    self.error(w, ErrorCode::MissingWhitespaceBeforeDoctypeName);
                    self.reconsume();
                    self.state = State::BeforeDoctypeName;
                }
            },
            State::BeforeDoctypeName => match next!() {
                Some(c) if is_doctype_space(c) => {}
                Some('>') => {
                    self.error(w, ErrorCode::MissingDoctypeName);
                    self.emit_doctype(w);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(c) => {
                    let mut name = DoctypeBuilder::fresh(&mut self.doctype.spare);
                    self.doctype_name_push(w, &mut name, c);
                    self.doctype.name = Some(name);
                    self.state = State::DoctypeName;
                }
            },
            State::DoctypeName => match next!() {
                Some(c) if is_doctype_space(c) => self.state = State::AfterDoctypeName,
                Some('>') => self.emit_doctype(w),
                Some('[') => self.start_internal_subset(),
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(c) => {
                    let mut name = self.doctype.name.take().unwrap_or_default();
                    self.doctype_name_push(w, &mut name, c);
                    self.doctype.name = Some(name);
                }
            },
            State::AfterDoctypeName => match next!() {
                Some(c) if is_doctype_space(c) => {}
                Some('>') => self.emit_doctype(w),
                Some('[') => self.start_internal_subset(),
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(_) => {
                    self.reconsume();
                    let public = self.lookahead(w, eof, b"PUBLIC");
                    let system = self.lookahead(w, eof, b"SYSTEM");
                    match (public, system) {
                        (Some(true), _) => {
                            self.pos += 6;
                            self.state = State::AfterDoctypePublicKeyword;
                        }
                        (_, Some(true)) => {
                            self.pos += 6;
                            self.state = State::AfterDoctypeSystemKeyword;
                        }
                        (None, _) | (_, None) => return Flow::Suspend,
                        (Some(false), Some(false)) => {
                            next!();
                            self.error(w, ErrorCode::InvalidCharacterSequenceAfterDoctypeName);
                            self.state = State::BogusDoctype;
                        }
                    }
                }
            },
            State::AfterDoctypePublicKeyword => match next!() {
                Some(c) if is_doctype_space(c) => self.state = State::BeforeDoctypePublicIdentifier,
                Some(quote @ ('"' | '\'')) => {
                    self.error(w, ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword);
                    self.start_public_id(quote);
                }
                other => self.doctype_identifier_missing(w, other, true),
            },
            State::BeforeDoctypePublicIdentifier => match next!() {
                Some(c) if is_doctype_space(c) => {}
                Some(quote @ ('"' | '\'')) => self.start_public_id(quote),
                other => self.doctype_identifier_missing(w, other, true),
            },
            State::DoctypePublicIdentifierQuoted(quote) => {
                return self.doctype_identifier_quoted(w, eof, quote, true)
            }
            State::AfterDoctypePublicIdentifier => match next!() {
                Some(c) if is_doctype_space(c) => {
                    self.state = State::BetweenDoctypePublicAndSystemIdentifiers
                }
                Some('>') => self.emit_doctype(w),
                Some('[') => self.start_internal_subset(),
                Some(quote @ ('"' | '\'')) => {
                    self.error(
                        w,
                        ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                    );
                    self.start_system_id(quote);
                }
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(_) => {
                    self.error(w, ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                    self.state = State::BogusDoctype;
                }
            },
            State::BetweenDoctypePublicAndSystemIdentifiers => match next!() {
                Some(c) if is_doctype_space(c) => {}
                Some('>') => self.emit_doctype(w),
                Some('[') => self.start_internal_subset(),
                Some(quote @ ('"' | '\'')) => self.start_system_id(quote),
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(_) => {
                    self.error(w, ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                    self.state = State::BogusDoctype;
                }
            },
            State::AfterDoctypeSystemKeyword => match next!() {
                Some(c) if is_doctype_space(c) => self.state = State::BeforeDoctypeSystemIdentifier,
                Some(quote @ ('"' | '\'')) => {
                    self.error(w, ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword);
                    self.start_system_id(quote);
                }
                other => self.doctype_identifier_missing(w, other, false),
            },
            State::BeforeDoctypeSystemIdentifier => match next!() {
                Some(c) if is_doctype_space(c) => {}
                Some(quote @ ('"' | '\'')) => self.start_system_id(quote),
                other => self.doctype_identifier_missing(w, other, false),
            },
            State::DoctypeSystemIdentifierQuoted(quote) => {
                return self.doctype_identifier_quoted(w, eof, quote, false)
            }
            State::AfterDoctypeSystemIdentifier => match next!() {
                Some(c) if is_doctype_space(c) => {}
                Some('>') => self.emit_doctype(w),
                Some('[') => self.start_internal_subset(),
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(_) => {
                    self.error(
                        w,
                        ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
                    );
                    self.state = State::BogusDoctype;
                }
            },
            State::DoctypeInternalSubset(subset) => return self.internal_subset(w, eof, subset),
            State::AfterDoctypeInternalSubset => match next!() {
                Some(c) if is_doctype_space(c) => {}
                Some('>') => self.emit_doctype(w),
                None => {
                    self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                    self.emit_doctype(w);
                }
                Some(_) => {
                    self.error(w, ErrorCode::UnexpectedCharacterAfterDoctypeInternalSubset);
                    self.state = State::BogusDoctype;
                }
            },
            State::BogusDoctype => {
                self.pos += scan(w.bytes_from(self.pos), &BOGUS_COMMENT_STOP);
                match next!() {
                    Some('>') | None => self.emit_doctype(w),
                    Some(_) => {}
                }
            }
        }
        Flow::Continue
    }

    /// §1.4.13 and §1.4.14: the quoted attribute value states.
    #[inline]
    fn attribute_value_quoted(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        table: &[bool; 256],
        value_state: AttributeValueState,
    ) -> Flow {
        self.bulk(w, table, |t| &mut t.current_attribute().value);
        let c = match self.next_input(w, eof) {
            Input::Char(c) => Some(c),
            Input::Eof => None,
            Input::Suspend => return Flow::Suspend,
        };
        match c {
            Some(c) if c as u32 == value_state.additional_allowed() as u32 => {
                let at = self.current_start();
                self.end_attribute_value(at, self.pos);
                self.state = State::TagAttributeNameBefore;
            }
            Some('&') => {
                self.amp = self.current_start();
                self.state = State::CharacterReferenceInAttributeValue(value_state);
            }
            None => {
                self.error_at(w, ErrorCode::EofInTag, self.pos);
                self.end_attribute_value(self.pos, self.pos);
                self.emit_tag(w);
            }
            // Attribute-value normalization (XML 1.0 §3.3.3).
            Some('\t' | '\n') => self.current_attribute().value.push_char(w, ' '),
            Some(c) => {
                let c = self.replace_null(w, c);
                let (start, end) = (self.current_start(), self.pos);
                push_consumed(&mut self.current_attribute().value, w, start, end, c);
            }
        }
        Flow::Continue
    }

    /// Records where the current attribute's value ends (`value_end`,
    /// exclusive of a closing quote) and where the whole attribute ends.
    fn end_attribute_value(&mut self, value_end: usize, attribute_end: usize) {
        let attribute = self.current_attribute();
        if let Some(span) = &mut attribute.value_span {
            span.end = value_end;
        }
        attribute.end = attribute_end;
    }

    fn leave_cdata(&mut self, w: &Window<'_>) {
        self.emit_text(w);
        self.text_kind = TextKind::Plain;
        self.state = State::Data;
    }

    fn start_declaration(&mut self) {
        let d = &mut self.declaration;
        for value in &mut d.values {
            value.clear();
        }
        d.present = [false; 3];
        d.started = false;
        d.content_start = None;
    }

    fn doctype_name_push(&mut self, w: &Window<'_>, name: &mut StrBuf, c: char) {
        let start = self.current_start();
        match c {
            'A'..='Z' => name.push_char(w, c.to_ascii_lowercase()),
            '\0' => name.push_char(w, '\u{FFFD}'),
            _ => push_consumed(name, w, start, self.pos, c),
        }
    }

    fn start_public_id(&mut self, quote: char) {
        self.doctype.public_id = Some(DoctypeBuilder::fresh(&mut self.doctype.spare));
        self.state = State::DoctypePublicIdentifierQuoted(quote as u8);
    }

    fn start_system_id(&mut self, quote: char) {
        self.doctype.system_id = Some(DoctypeBuilder::fresh(&mut self.doctype.spare));
        self.state = State::DoctypeSystemIdentifierQuoted(quote as u8);
    }

    /// After `PUBLIC` or `SYSTEM`, anything but whitespace or a quote.
    fn doctype_identifier_missing(&mut self, w: &Window<'_>, c: Option<char>, public: bool) {
        match c {
            Some('>') => {
                let code = if public {
                    ErrorCode::MissingDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingDoctypeSystemIdentifier
                };
                self.error(w, code);
                self.emit_doctype(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(_) => {
                let code = if public {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                };
                self.error(w, code);
                self.state = State::BogusDoctype;
            }
        }
    }

    /// The quoted public and system identifier states.
    fn doctype_identifier_quoted(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        quote: u8,
        public: bool,
    ) -> Flow {
        let c = match self.next_input(w, eof) {
            Input::Char(c) => Some(c),
            Input::Eof => None,
            Input::Suspend => return Flow::Suspend,
        };
        match c {
            Some(c) if c as u32 == quote as u32 => {
                self.state = if public {
                    State::AfterDoctypePublicIdentifier
                } else {
                    State::AfterDoctypeSystemIdentifier
                };
            }
            Some('>') => {
                let code = if public {
                    ErrorCode::AbruptDoctypePublicIdentifier
                } else {
                    ErrorCode::AbruptDoctypeSystemIdentifier
                };
                self.error(w, code);
                self.emit_doctype(w);
            }
            None => {
                self.error_at(w, ErrorCode::EofInDoctype, self.pos);
                self.emit_doctype(w);
            }
            Some(c) => {
                let start = self.current_start();
                let end = self.pos;
                let field = if public {
                    &mut self.doctype.public_id
                } else {
                    &mut self.doctype.system_id
                };
                let buf = field.get_or_insert_with(StrBuf::default);
                let c = if c == '\0' { '\u{FFFD}' } else { c };
                push_consumed(buf, w, start, end, c);
            }
        }
        Flow::Continue
    }

    fn start_internal_subset(&mut self) {
        self.doctype.internal_subset = Some(DoctypeBuilder::fresh(&mut self.doctype.spare));
        self.doctype.subset_start = self.pos;
        self.doctype.subset_end = self.pos;
        self.state = State::DoctypeInternalSubset(Subset::Between { depth: 0 });
    }

    /// The internal subset: kept raw for later stages, read only far enough
    /// to find its closing `]` (brackets of conditional sections counted,
    /// literals, comments and PIs skipped).
    fn internal_subset(&mut self, w: &Window<'_>, eof: bool, subset: Subset) -> Flow {
        let table = match subset {
            Subset::Between { .. } => &SUBSET_BETWEEN_STOP,
            Subset::Declaration { .. } => &SUBSET_DECLARATION_STOP,
            Subset::Literal { quote: b'"', .. } => &SUBSET_DOUBLE_QUOTED_STOP,
            Subset::Literal { .. } => &SUBSET_SINGLE_QUOTED_STOP,
            Subset::Comment { .. } => &SUBSET_COMMENT_STOP,
            Subset::Pi { .. } => &SUBSET_PI_STOP,
        };
        let start = self.pos;
        let n = scan(w.bytes_from(start), table);
        self.pos += n;
        let Some(buf) = self.doctype.internal_subset.as_mut() else {
            self.state = State::BogusDoctype;
            return Flow::Continue;
        };
        buf.push_span(w, start, start + n);
        let at = self.pos;
        let keep = |t: &mut Self, len: usize| {
            if let Some(buf) = t.doctype.internal_subset.as_mut() {
                buf.push_span(w, at, at + len);
            }
            t.pos = at + len;
        };
        let set = |t: &mut Self, s: Subset| t.state = State::DoctypeInternalSubset(s);
        let byte = w.byte(at);
        match (subset, byte) {
            (_, None) if !eof => return Flow::Suspend,
            (_, None) => {
                self.error_at(w, ErrorCode::EofInDoctype, at);
                self.doctype.subset_end = at;
                self.emit_doctype(w);
            }
            (_, Some(b'\r' | b'\0')) | (_, Some(0x01..=0x1F | 0x7F | 0xEF..=0xF4)) => {
                // Line ends, NUL and characters that need a check.
                let c = match self.next_input(w, eof) {
                    Input::Char(c) => c,
                    Input::Eof => return Flow::Continue,
                    Input::Suspend => return Flow::Suspend,
                };
                let c = if c == '\0' { '\u{FFFD}' } else { c };
                let end = self.pos;
                if let Some(buf) = self.doctype.internal_subset.as_mut() {
                    push_consumed(buf, w, at, end, c);
                }
            }
            (Subset::Between { depth } | Subset::Declaration { depth }, Some(b']')) => {
                if depth == 0 {
                    self.doctype.subset_end = at;
                    self.pos = at + 1;
                    self.state = State::AfterDoctypeInternalSubset;
                } else {
                    keep(self, 1);
                    set(self, Subset::Between { depth: depth - 1 });
                }
            }
            (Subset::Between { depth } | Subset::Declaration { depth }, Some(b'[')) => {
                keep(self, 1);
                set(self, Subset::Between { depth: depth + 1 });
            }
            (Subset::Between { depth }, Some(b'<')) => {
                let rest = w.bytes_from(at);
                if rest.starts_with(b"<!--") {
                    keep(self, 4);
                    set(self, Subset::Comment { depth });
                } else if rest.starts_with(b"<?") {
                    keep(self, 2);
                    set(self, Subset::Pi { depth });
                } else if rest.starts_with(b"<!") && (rest.len() >= 4 || eof) {
                    keep(self, 2);
                    set(self, Subset::Declaration { depth });
                } else if rest.len() < 4 && !eof {
                    return Flow::Suspend;
                } else if rest
                    .get(1)
                    .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b >= 0x80)
                {
                    // Content markup: the author forgot `]>`. End the
                    // DOCTYPE here and read the markup as content.
                    self.error_at(w, ErrorCode::UnterminatedDoctypeInternalSubset, at);
                    self.doctype.subset_end = at;
                    self.emit_doctype(w);
                } else {
                    keep(self, 1);
                }
            }
            (Subset::Declaration { depth }, Some(quote @ (b'"' | b'\''))) => {
                keep(self, 1);
                set(self, Subset::Literal { depth, quote });
            }
            (Subset::Declaration { depth }, Some(b'>')) => {
                keep(self, 1);
                set(self, Subset::Between { depth });
            }
            (Subset::Literal { depth, quote }, Some(b)) if b == quote => {
                keep(self, 1);
                set(self, Subset::Declaration { depth });
            }
            (Subset::Comment { depth }, Some(b'-')) => match self.lookahead(w, eof, b"-->") {
                None => return Flow::Suspend,
                Some(true) => {
                    keep(self, 3);
                    set(self, Subset::Between { depth });
                }
                Some(false) => keep(self, 1),
            },
            (Subset::Pi { depth }, Some(b'?')) => match self.lookahead(w, eof, b"?>") {
                None => return Flow::Suspend,
                Some(true) => {
                    keep(self, 2);
                    set(self, Subset::Between { depth });
                }
                Some(false) => keep(self, 1),
            },
            (_, Some(_)) => {
                // A byte some table stops at but this sub-state ignores.
                let len = utf8_len(w, at);
                keep(self, len);
            }
        }
        Flow::Continue
    }
}

/// Appends the character just consumed (`start..end` in the source) to
/// `buf`, as `c`: borrowed when `c` is exactly the source text, copied when
/// normalization changed it (CR, CR LF, NUL).
#[inline]
fn push_consumed(buf: &mut StrBuf, w: &Window<'_>, start: usize, end: usize, c: char) {
    match w.byte(start) {
        Some(b'\r' | 0) => buf.push_char(w, c),
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

/// The length of the UTF-8 sequence starting at `at`.
fn utf8_len(w: &Window<'_>, at: usize) -> usize {
    w.char_at(at).len_utf8()
}

/// The names of a tag's attributes once it has more than a few, to find a
/// duplicate in constant time: each name's hash and the index of the first
/// attribute with it (no copy of the name; names whose hashes collide, which
/// is all but never, are kept in a list beside).
#[derive(Default)]
struct AttributeNames {
    hasher: std::hash::RandomState,
    first: std::collections::HashMap<u64, usize>,
    colliding: Vec<(u64, usize)>,
}

impl AttributeNames {
    fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    fn clear(&mut self) {
        self.first.clear();
        self.colliding.clear();
    }

    /// Notes the attribute `index` called `name`; `false` if an earlier one
    /// had that name (`same(i)`: attribute `i` is called `name` too).
    fn insert(&mut self, name: &[u8], index: usize, same: impl Fn(usize) -> bool) -> bool {
        use std::hash::BuildHasher;

        let hash = self.hasher.hash_one(name);
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(index);
                true
            }
            std::collections::hash_map::Entry::Occupied(entry) => {
                if same(*entry.get()) {
                    return false;
                }
                let earlier = self.colliding.iter().any(|&(h, i)| h == hash && same(i));
                if !earlier {
                    self.colliding.push((hash, index));
                }
                !earlier
            }
        }
    }
}
