//! The DOCTYPE's internal subset, between `[` and its `]`: kept raw for
//! the tree builder and read only far enough to find its end (XML5 §1.4.48
//! counts brackets; this also skips quoted literals, comments and PIs, so
//! that a `]` inside them does not end it). When the DOCTYPE is emitted,
//! `read_declarations` has the DTD reader (`crate::dtd`) parse the
//! declarations, and maps what it reports back to the source.

use super::buffers::DoctypeBuilder;
use super::input::{scan, stop_table, Window};
use super::states::{State, Subset};
use super::{push_consumed, Flow, Input, TokenSink, Tokenizer};
use crate::dtd::{Declarations, ExternalSubset};
use crate::error::{ErrorCode, ErrorContext};
use crate::span::Span;

// Bytes that end a bulk run, per sub-state (see `input::stop_table` for the
// bytes every table includes).
static SUBSET_BETWEEN_STOP: [bool; 256] = stop_table(b"[]<");
static SUBSET_DECLARATION_STOP: [bool; 256] = stop_table(b"\"'<>[]");
static SUBSET_DOUBLE_QUOTED_STOP: [bool; 256] = stop_table(b"\"");
static SUBSET_SINGLE_QUOTED_STOP: [bool; 256] = stop_table(b"'");
static SUBSET_COMMENT_STOP: [bool; 256] = stop_table(b"-");
static SUBSET_PI_STOP: [bool; 256] = stop_table(b"?");

impl<S: TokenSink> Tokenizer<S> {
    /// Starts the internal subset, after its `[`.
    pub(super) fn start_internal_subset(&mut self) {
        self.doctype.internal_subset = Some(DoctypeBuilder::fresh(&mut self.doctype.spare));
        self.doctype.subset_start = self.pos;
        self.doctype.subset_end = self.pos;
        self.state = State::DoctypeInternalSubset(Subset::Between { depth: 0 });
    }

    /// The internal subset, between `[` and its `]` (XML5 §1.4.48 counts
    /// brackets; this also skips quoted literals, comments and PIs): kept
    /// raw for later stages, read only far enough to find its closing `]`.
    /// `subset` is where in it the machine is.
    pub(super) fn doctype_internal_subset_state(
        &mut self,
        w: &Window<'_>,
        eof: bool,
        subset: Subset,
    ) -> Flow {
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
                    self.keep_subset(w, 1, Subset::Between { depth: depth - 1 });
                }
            }
            (Subset::Between { depth } | Subset::Declaration { depth }, Some(b'[')) => {
                self.keep_subset(w, 1, Subset::Between { depth: depth + 1 })
            }
            (Subset::Between { depth }, Some(b'<')) => {
                return self.subset_markup_open(w, eof, depth)
            }
            (Subset::Declaration { depth }, Some(quote @ (b'"' | b'\''))) => {
                self.keep_subset(w, 1, Subset::Literal { depth, quote })
            }
            (Subset::Declaration { depth }, Some(b'>')) => {
                self.keep_subset(w, 1, Subset::Between { depth })
            }
            (Subset::Literal { depth, quote }, Some(b)) if b == quote => {
                self.keep_subset(w, 1, Subset::Declaration { depth })
            }
            (Subset::Comment { depth }, Some(b'-')) => match self.lookahead(w, eof, b"-->") {
                None => return Flow::Suspend,
                Some(true) => self.keep_subset(w, 3, Subset::Between { depth }),
                Some(false) => self.keep_subset(w, 1, subset),
            },
            (Subset::Pi { depth }, Some(b'?')) => match self.lookahead(w, eof, b"?>") {
                None => return Flow::Suspend,
                Some(true) => self.keep_subset(w, 2, Subset::Between { depth }),
                Some(false) => self.keep_subset(w, 1, subset),
            },
            (_, Some(_)) => {
                // A byte some table stops at but this sub-state ignores.
                let len = utf8_len(w, at);
                self.keep_subset(w, len, subset);
            }
        }
        Flow::Continue
    }

    /// `<` between declarations: a comment, a PI or a declaration starts;
    /// or content markup (`<` and a name) ends a subset that the author
    /// forgot to close.
    fn subset_markup_open(&mut self, w: &Window<'_>, eof: bool, depth: u32) -> Flow {
        let at = self.pos;
        let rest = w.bytes_from(at);
        if rest.starts_with(b"<!--") {
            self.keep_subset(w, 4, Subset::Comment { depth });
        } else if rest.starts_with(b"<?") {
            self.keep_subset(w, 2, Subset::Pi { depth });
        } else if rest.starts_with(b"<!") && (rest.len() >= 4 || eof) {
            self.keep_subset(w, 2, Subset::Declaration { depth });
        } else if rest.len() < 4 && !eof {
            return Flow::Suspend;
        } else if rest
            .get(1)
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b >= 0x80)
        {
            // Content markup: the author forgot `]>`. End the DOCTYPE here
            // and read the markup as content.
            self.error_at(w, ErrorCode::UnterminatedDoctypeInternalSubset, at);
            self.doctype.subset_end = at;
            self.emit_doctype(w);
        } else {
            self.keep_subset(w, 1, Subset::Between { depth });
        }
        Flow::Continue
    }

    /// Keeps the next `len` bytes of the subset as they are, and goes on in
    /// the sub-state `next`.
    fn keep_subset(&mut self, w: &Window<'_>, len: usize, next: Subset) {
        let at = self.pos;
        if let Some(buf) = self.doctype.internal_subset.as_mut() {
            buf.push_span(w, at, at + len);
        }
        self.pos = at + len;
        self.state = State::DoctypeInternalSubset(next);
    }

    /// Reads the declarations of the first DOCTYPE's internal subset and
    /// reports what was wrong in them.
    pub(super) fn read_declarations(&mut self, w: &Window<'_>) {
        // The external subset, when it is to be read: after the internal
        // one, or alone.
        let dtd = match &self.doctype.system_id {
            Some(system_id) if self.external.load_dtd && self.external.resolves() => {
                Some(ExternalSubset {
                    public_id: self.doctype.public_id.as_ref().map(|id| id.as_str(w)),
                    system_id: system_id.as_str(w),
                })
            }
            _ => None,
        };
        let (subset, start) = match &self.doctype.internal_subset {
            Some(subset) => (subset.as_str(w), self.doctype.subset_start),
            None if dtd.is_some() => ("", self.pos),
            None => return,
        };
        let lowered = self.doctype.name.as_ref().map_or("", |name| name.as_str(w));
        let head = w
            .text
            .get(self.token_start.saturating_sub(w.base)..start.saturating_sub(w.base))
            .unwrap_or_default();
        let name = written_doctype_name(head, lowered);
        let declarations = Declarations::parse_with(
            subset,
            start,
            &self.limits,
            name,
            self.xml11,
            &self.external,
            dtd,
        );
        // The subset parser counted offsets in the normalized subset (CR LF
        // and CR made LF, NUL made U+FFFD); map them back to the source.
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
        let mapped = source_offsets(w.slice(start, self.pos), start, &wanted);
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
        for (i, &(code, offset)) in declarations.errors().iter().enumerate() {
            let position = declarations.error_position(i).cloned();
            let note = declarations.error_note(i).map(str::to_owned);
            match ErrorContext::in_external(position, note) {
                Some(context) => self.error_at_with_context(w, code, to_source(offset), context),
                None => self.error_at(w, code, to_source(offset)),
            }
        }
        self.declarations = Some(declarations);
    }
}

/// The DOCTYPE's name as written, from `head`, its source up to the
/// subset: the token's name is ASCII-lowercased (`lowered`), and writers
/// that show the declarations need the name XML sees. When the source does
/// not give it back (a NUL in it, say), `lowered` it is.
fn written_doctype_name<'a>(head: &'a str, lowered: &'a str) -> &'a str {
    const SPACE: [char; 5] = [' ', '\t', '\n', '\r', '\x0C'];
    let after_keyword = head.get("<!DOCTYPE".len()..).unwrap_or_default();
    let name = after_keyword.trim_start_matches(SPACE);
    let end = name
        .find(|c| SPACE.contains(&c) || c == '[' || c == '>')
        .unwrap_or(name.len());
    let name = &name[..end];
    if name.len() == lowered.len() && name.eq_ignore_ascii_case(lowered) {
        name
    } else {
        lowered
    }
}

/// The length of the UTF-8 sequence starting at `at`.
fn utf8_len(w: &Window<'_>, at: usize) -> usize {
    w.char_at(at).len_utf8()
}

/// Maps offsets in the normalized text of the subset, which starts at
/// `start` in the source and reads `raw` there, back to the source in one
/// walk over `raw`. `wanted` are the offsets relative to `start`, sorted
/// and without duplicates; each comes back with its source offset.
fn source_offsets(raw: &str, start: usize, wanted: &[usize]) -> Vec<(usize, usize)> {
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
    mapped
}
