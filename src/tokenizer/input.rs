//! The input side of the tokenizer: the window of text it reads, the string
//! accumulator that borrows from it where it can, the byte tables that let
//! the hot states skip plain runs in bulk, and the locator that turns byte
//! offsets into lines and columns.

use crate::error::ErrorCode;

/// The text the state machine can see: a slice of the input stream and the
/// absolute offset of its first byte. In one-shot mode this is the whole
/// input; when fed in chunks it is the unconsumed tail plus the new chunk.
#[derive(Clone, Copy)]
pub(crate) struct Window<'a> {
    pub(crate) text: &'a str,
    pub(crate) base: usize,
}

impl<'a> Window<'a> {
    /// Absolute offset one past the last byte.
    #[inline]
    pub(crate) fn end(&self) -> usize {
        self.base + self.text.len()
    }

    /// The byte at absolute offset `pos`, if the window reaches it.
    #[inline]
    pub(crate) fn byte(&self, pos: usize) -> Option<u8> {
        self.text.as_bytes().get(pos - self.base).copied()
    }

    /// The bytes from absolute offset `pos` to the end of the window.
    #[inline]
    pub(crate) fn bytes_from(&self, pos: usize) -> &'a [u8] {
        &self.text.as_bytes()[pos - self.base..]
    }

    /// The text between two absolute offsets.
    #[inline]
    pub(crate) fn slice(&self, start: usize, end: usize) -> &'a str {
        &self.text[start - self.base..end - self.base]
    }

    /// The character at absolute offset `pos` (which must start one).
    #[inline]
    pub(crate) fn char_at(&self, pos: usize) -> char {
        self.text[pos - self.base..]
            .chars()
            .next()
            .unwrap_or('\u{FFFD}')
    }
}

/// A string under construction. It stays a span of the input for as long as
/// what is pushed is contiguous source text, and turns into an owned string
/// (keeping its allocation for the next token) only when the text differs
/// from the source: a normalized line end, a resolved reference, a
/// lowercased letter.
#[derive(Default, Debug)]
pub(crate) struct StrBuf {
    mode: Mode,
    start: usize,
    end: usize,
    owned: String,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    #[default]
    Empty,
    Span,
    Owned,
}

impl StrBuf {
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.mode = Mode::Empty;
        self.owned.clear();
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        match self.mode {
            Mode::Empty => true,
            Mode::Span => self.start == self.end,
            Mode::Owned => self.owned.is_empty(),
        }
    }

    /// The length of the text so far, in bytes.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self.mode {
            Mode::Empty => 0,
            Mode::Span => self.end - self.start,
            Mode::Owned => self.owned.len(),
        }
    }

    /// Whether the text is a copy (appending to it copies too).
    #[inline]
    pub(crate) fn is_owned(&self) -> bool {
        self.mode == Mode::Owned
    }

    /// Appends the source text `start..end`.
    #[inline]
    pub(crate) fn push_span(&mut self, w: &Window<'_>, start: usize, end: usize) {
        if start == end {
            return;
        }
        match self.mode {
            Mode::Empty => {
                self.mode = Mode::Span;
                self.start = start;
                self.end = end;
            }
            Mode::Span if self.end == start => self.end = end,
            Mode::Span => {
                self.make_owned(w);
                self.owned.push_str(w.slice(start, end));
            }
            Mode::Owned => self.owned.push_str(w.slice(start, end)),
        }
    }

    /// Appends a character that is not (or not exactly) in the source here.
    #[inline]
    pub(crate) fn push_char(&mut self, w: &Window<'_>, c: char) {
        self.make_owned(w);
        self.owned.push(c);
    }

    /// Appends text that is not in the source here.
    #[inline]
    pub(crate) fn push_str(&mut self, w: &Window<'_>, s: &str) {
        if s.is_empty() {
            return;
        }
        self.make_owned(w);
        self.owned.push_str(s);
    }

    fn make_owned(&mut self, w: &Window<'_>) {
        match self.mode {
            Mode::Empty => {
                self.owned.clear();
                self.mode = Mode::Owned;
            }
            Mode::Span => {
                self.owned.clear();
                self.owned.push_str(w.slice(self.start, self.end));
                self.mode = Mode::Owned;
            }
            Mode::Owned => {}
        }
    }

    /// The text so far.
    #[inline]
    pub(crate) fn as_str<'a>(&'a self, w: &Window<'a>) -> &'a str {
        match self.mode {
            Mode::Empty => "",
            Mode::Span => w.slice(self.start, self.end),
            Mode::Owned => &self.owned,
        }
    }

    /// The bytes of the string: like [`as_str`](Self::as_str), without the
    /// character-boundary checks (for comparing).
    #[inline]
    pub(crate) fn as_bytes<'a>(&'a self, w: &Window<'a>) -> &'a [u8] {
        match self.mode {
            Mode::Empty => b"",
            Mode::Span => w
                .text
                .as_bytes()
                .get(self.start - w.base..self.end - w.base)
                .unwrap_or_default(),
            Mode::Owned => self.owned.as_bytes(),
        }
    }

    /// The earliest source offset this buffer borrows, if it borrows any.
    #[cfg(test)]
    pub(crate) fn borrowed_from(&self) -> Option<usize> {
        (self.mode == Mode::Span).then_some(self.start)
    }
}

/// Why a character needs a parse error just for being in the input (the
/// input-stream checks of HTML that XML5 inherits; the suite's
/// `unicodeChars.test` fixes the set). NUL and form feed are not in it: NUL
/// is handled by each state, and form feed is whitespace in DOCTYPEs.
#[inline]
pub(crate) fn input_char_error(c: char) -> Option<ErrorCode> {
    match c as u32 {
        0x01..=0x08 | 0x0B | 0x0E..=0x1F => Some(ErrorCode::ControlCharacterInInputStream),
        0x7F => Some(ErrorCode::DiscouragedCharacterInInputStream),
        0xFFFE | 0xFFFF => Some(ErrorCode::IllegalCharacterInInputStream),
        0xFDD0..=0xFDEF => Some(ErrorCode::NoncharacterInInputStream),
        n if n & 0xFFFE == 0xFFFE => Some(ErrorCode::NoncharacterInInputStream),
        _ => None,
    }
}

/// A table of the bytes at which a bulk scan must stop: the given ASCII
/// delimiters, plus every byte that may need a closer look in any state
/// (control bytes including CR and NUL, DEL, and the UTF-8 lead bytes of the
/// only multi-byte characters that can be noncharacters: `EF` for
/// U+F000–U+FFFF and `F0`–`F4` for the supplementary planes).
pub(crate) const fn stop_table(delimiters: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b != b'\t' as usize && b != b'\n' as usize;
        b += 1;
    }
    table[0x7F] = true;
    table[0xEF] = true;
    let mut lead = 0xF0;
    while lead <= 0xF4 {
        table[lead] = true;
        lead += 1;
    }
    let mut i = 0;
    while i < delimiters.len() {
        table[delimiters[i] as usize] = true;
        i += 1;
    }
    table
}

/// The offset (relative to `bytes`) of the first byte in `table`, or
/// `bytes.len()`.
#[inline]
pub(crate) fn scan(bytes: &[u8], table: &[bool; 256]) -> usize {
    let mut i = 0;
    // Unrolled by four: plain runs are long and the table lookups are
    // independent.
    while i + 4 <= bytes.len() {
        if table[bytes[i] as usize] {
            return i;
        }
        if table[bytes[i + 1] as usize] {
            return i + 1;
        }
        if table[bytes[i + 2] as usize] {
            return i + 2;
        }
        if table[bytes[i + 3] as usize] {
            return i + 3;
        }
        i += 4;
    }
    while i < bytes.len() {
        if table[bytes[i] as usize] {
            return i;
        }
        i += 1;
    }
    bytes.len()
}

/// [`scan`] for runs that may be long (attribute values such as SVG path
/// data; text runs are mostly short, and faster through the table): the first
/// bytes through the table, the rest by a vectorized search for the
/// delimiters (`memchr3`) and a vectorizable check that nothing
/// before the delimiter found is a byte the table would stop at for another
/// reason or might (any control, tab and LF included, DEL, a possible
/// noncharacter's lead byte). When that check finds one, the table decides.
/// The result is always exactly `scan(bytes, table)`.
#[inline]
pub(crate) fn scan_long(bytes: &[u8], table: &[bool; 256], delimiters: [u8; 3]) -> usize {
    const HEAD: usize = 16;
    if bytes.len() <= HEAD {
        return scan(bytes, table);
    }
    let n = scan(&bytes[..HEAD], table);
    if n < HEAD {
        return n;
    }
    let rest = &bytes[HEAD..];
    let [a, b, c] = delimiters;
    let found = memchr::memchr3(a, b, c, rest).unwrap_or(rest.len());
    let special = rest[..found].iter().fold(false, |acc, &b| {
        acc | (b < 0x20) | (b == 0x7F) | (b >= 0xEF)
    });
    if special {
        HEAD + scan(rest, table)
    } else {
        HEAD + found
    }
}

/// In an XML 1.1 document, `n` (the length of a bulk run at the start of
/// `bytes`) cut before the first character the states must read one at a
/// time there: NEL (`C2 85`) and LINE SEPARATOR (`E2 80 A8`), which end
/// lines in 1.1 (XML 1.1 §2.11), and the other C1 controls, which 1.1
/// allows only as references (§2.2, `RestrictedChar`). The stop tables
/// leave these bytes alone, so an XML 1.0 document pays nothing for them.
#[cold]
#[inline(never)]
pub(crate) fn xml11_cut(bytes: &[u8], n: usize) -> usize {
    let run = &bytes[..n.min(bytes.len())];
    for at in memchr::memchr2_iter(0xC2, 0xE2, run) {
        let special = match run[at] {
            0xC2 => matches!(bytes.get(at + 1), Some(0x80..=0x9F)),
            _ => bytes.get(at + 1..at + 3) == Some(&[0x80, 0xA8][..]),
        };
        if special {
            return at;
        }
    }
    run.len()
}

/// A known position: byte offset, 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) offset: usize,
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Position {
    pub(crate) const START: Position = Position {
        offset: 0,
        line: 1,
        column: 1,
    };
}

/// Turns byte offsets into lines and columns lazily, by scanning forward from
/// the last position it computed, so that the hot paths never count lines.
///
/// `anchor` never lies after any offset still to be located (it only moves
/// when the tokenizer drops consumed input); `last` is a cache for the usual
/// case of offsets that grow.
#[derive(Debug)]
pub(crate) struct Locator {
    anchor: Position,
    last: Position,
}

impl Default for Locator {
    fn default() -> Self {
        Locator {
            anchor: Position::START,
            last: Position::START,
        }
    }
}

impl Locator {
    /// The line and column of `offset`, which must lie in the window and not
    /// before the anchor.
    pub(crate) fn locate(&mut self, w: &Window<'_>, offset: usize) -> Position {
        let offset = offset.clamp(self.anchor.offset, w.end());
        let position = if offset >= self.last.offset {
            advance(w, self.last, offset)
        } else {
            let between = w.slice(offset, self.last.offset).as_bytes();
            if memchr::memchr2(b'\n', b'\r', between).is_none() {
                let chars = count_chars(between);
                Position {
                    offset,
                    line: self.last.line,
                    column: self.last.column.saturating_sub(chars).max(1),
                }
            } else {
                advance(w, self.anchor, offset)
            }
        };
        self.last = position;
        position
    }

    /// Moves the anchor to `offset` before the text ahead of it is dropped.
    pub(crate) fn move_anchor(&mut self, w: &Window<'_>, offset: usize) {
        let position = self.locate(w, offset);
        self.anchor = position;
        self.last = position;
    }
}

fn count_chars(bytes: &[u8]) -> u32 {
    let count = bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// The position of `to`, counting from the known position `from`.
fn advance(w: &Window<'_>, from: Position, to: usize) -> Position {
    let bytes = w.slice(from.offset, to).as_bytes();
    let mut line = from.line;
    let mut line_start = 0;
    let mut counted_from_line_start = false;
    let mut i = 0;
    while let Some(found) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
        let at = i + found;
        // CR LF is one line end: the LF after a CR ends no further line.
        let lf_after_cr = bytes[at] == b'\n'
            && if at > 0 {
                bytes[at - 1] == b'\r'
            } else {
                from.offset > w.base && w.byte(from.offset - 1) == Some(b'\r')
            };
        if !lf_after_cr {
            line = line.saturating_add(1);
        }
        line_start = at + 1;
        counted_from_line_start = true;
        i = at + 1;
    }
    let column = if counted_from_line_start {
        1u32.saturating_add(count_chars(&bytes[line_start..]))
    } else {
        from.column.saturating_add(count_chars(bytes))
    };
    Position {
        offset: to,
        line,
        column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(text: &str) -> Window<'_> {
        Window { text, base: 0 }
    }

    #[test]
    fn strbuf_stays_borrowed_while_contiguous() {
        let w = window("abcdef");
        let mut buf = StrBuf::default();
        buf.push_span(&w, 0, 2);
        buf.push_span(&w, 2, 4);
        assert_eq!(buf.borrowed_from(), Some(0));
        assert_eq!(buf.as_str(&w), "abcd");
        buf.push_span(&w, 5, 6);
        assert_eq!(buf.borrowed_from(), None);
        assert_eq!(buf.as_str(&w), "abcdf");
        buf.clear();
        assert!(buf.is_empty());
        buf.push_char(&w, 'x');
        assert_eq!(buf.as_str(&w), "x");
    }

    #[test]
    fn scan_finds_first_stop_byte() {
        let table = stop_table(b"<&");
        assert_eq!(scan(b"hello <world", &table), 6);
        assert_eq!(scan(b"plain text", &table), 10);
        assert_eq!(scan(b"ab\rc", &table), 2);
        assert_eq!(scan(b"tab\tand\nlf", &table), 10);
        assert_eq!(scan("caf\u{e9}\u{FFFF}".as_bytes(), &table), 5);
    }

    #[test]
    fn scan_long_agrees_with_scan() {
        // Every stop byte of the value tables, at every position of runs
        // shorter and longer than the table-scanned head.
        let table = stop_table(b"\"&\t\n<");
        let stops: &[u8] = b"\"&\t\n<\r\x00\x01\x0c\x7f\xef\xf0\xf4";
        for len in [0, 1, 15, 16, 17, 40, 100] {
            for at in 0..=len {
                for &stop in stops {
                    let mut bytes = vec![b'a'; len];
                    if at < len {
                        bytes[at] = stop;
                    }
                    bytes.extend_from_slice(b"x\"y");
                    assert_eq!(
                        scan_long(&bytes, &table, *b"\"&<"),
                        scan(&bytes, &table),
                        "{bytes:?}"
                    );
                }
            }
        }
        // Non-ASCII text that needs no stop: lead bytes below 0xEF.
        let text = "caf\u{e9} \u{3b1}\u{3b2} \u{1F600}".repeat(4) + "\"";
        let table = stop_table(b"\"&\t\n<");
        assert_eq!(
            scan_long(text.as_bytes(), &table, *b"\"&<"),
            scan(text.as_bytes(), &table)
        );
    }

    #[test]
    fn locator_counts_crlf_once_and_columns_in_chars() {
        let text = "ab\r\n\u{e9}\u{e9}x\rq\ny";
        let w = window(text);
        let mut loc = Locator::default();
        let x = text.find('x').unwrap();
        assert_eq!(loc.locate(&w, x).line, 2);
        assert_eq!(loc.locate(&w, x).column, 3);
        let q = text.find('q').unwrap();
        assert_eq!((loc.locate(&w, q).line, loc.locate(&w, q).column), (3, 1));
        let y = text.find('y').unwrap();
        assert_eq!((loc.locate(&w, y).line, loc.locate(&w, y).column), (4, 1));
        // Going back within a line, and across lines.
        assert_eq!(loc.locate(&w, 1).column, 2);
        assert_eq!(loc.locate(&w, x).column, 3);
        assert_eq!(loc.locate(&w, 0).line, 1);
    }
}
