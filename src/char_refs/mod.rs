//! Layer 2: §1.4.44 Tokenizing character references.
//!
//! XML5 leaves the algorithm unfinished; the suite's `entities.test`,
//! `namedEntities.test` and `numericEntities.test` follow HTML's version
//! (the 2012 text in `docs/spec/html5-tokenization-charrefs.txt`),
//! which this module implements: numeric references with the Windows-1252
//! remapping table, and named references matched against the HTML table,
//! including the legacy names accepted without `;`.
//!
//! [`consume`] is a pure function of the text after the `&`: it says how
//! much to consume, what to append and which errors to report, or that it
//! needs more input first. The state machine applies the outcome.

mod named;

use crate::error::ErrorCode;
use named::{LONGEST_LEGACY_NAME, NAMED_REFS};

/// What to do with a `&`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CharRef {
    /// The answer depends on input not yet seen.
    NeedMore,
    /// Not a reference: nothing after the `&` is consumed and the `&` is
    /// kept as text. `error` is set for the cases HTML reports (`&#` without
    /// digits, `&unknown;`).
    NotARef { error: Option<ErrorCode> },
    /// A reference: `consumed` bytes after the `&` become `text`.
    Ref {
        consumed: usize,
        text: Replacement,
        errors: Errors,
    },
}

/// The text a reference stands for.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub(crate) enum Replacement {
    Char(char),
    Str(&'static str),
}

/// At most two errors (a missing `;` and a bad code point).
#[derive(Debug, PartialEq, Eq, Default, Clone, Copy)]
pub(crate) struct Errors {
    list: [Option<ErrorCode>; 2],
}

impl Errors {
    fn push(&mut self, code: ErrorCode) {
        if self.list[0].is_none() {
            self.list[0] = Some(code);
        } else {
            self.list[1] = Some(code);
        }
    }

    pub(crate) fn is_empty(self) -> bool {
        self.list[0].is_none()
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = ErrorCode> {
        self.list.into_iter().flatten()
    }
}

/// Reads the reference that starts after a `&`.
///
/// `after` is the text that follows the `&` (as far as the input goes),
/// `eof` says whether more can come, `in_attribute` selects the historical
/// attribute rule, `additional_allowed` is the quote (or `>`) that ends
/// the attribute value, and `xml11` says the document is XML 1.1 (see
/// [`numeric_value`]).
pub(crate) fn consume(
    after: &[u8],
    eof: bool,
    in_attribute: bool,
    additional_allowed: Option<u8>,
    xml11: bool,
) -> CharRef {
    let Some(&first) = after.first() else {
        return if eof {
            CharRef::NotARef { error: None }
        } else {
            CharRef::NeedMore
        };
    };
    if Some(first) == additional_allowed {
        return CharRef::NotARef { error: None };
    }
    match first {
        b'\t' | b'\n' | b'\r' | 0x0C | b' ' | b'<' | b'%' | b'&' => {
            CharRef::NotARef { error: None }
        }
        b'#' => numeric(after, eof, xml11),
        _ => named(after, eof, in_attribute),
    }
}

/// What the tokenizer reads for a `&` followed by `after`, the rest of a
/// complete text: the bytes after the `&` the reference takes and the text
/// it stands for, or `None` if the `&` starts no reference. For the
/// serializer, which writes a reference XML does not accept as what it
/// stood for.
pub(crate) fn resolve(
    after: &str,
    in_attribute: bool,
    quote: Option<u8>,
) -> Option<(usize, String)> {
    match consume(after.as_bytes(), true, in_attribute, quote, false) {
        CharRef::Ref { consumed, text, .. } => {
            let text = match text {
                Replacement::Char(c) => c.to_string(),
                Replacement::Str(s) => s.to_owned(),
            };
            Some((consumed, text))
        }
        CharRef::NotARef { .. } | CharRef::NeedMore => None,
    }
}

fn numeric(after: &[u8], eof: bool, xml11: bool) -> CharRef {
    // after[0] == b'#'
    let Some(&marker) = after.get(1) else {
        return if eof {
            CharRef::NotARef {
                error: Some(ErrorCode::AbsenceOfDigitsInNumericCharacterReference),
            }
        } else {
            CharRef::NeedMore
        };
    };
    let hex = marker == b'x' || marker == b'X';
    let digits_start = if hex { 2 } else { 1 };
    let is_digit = |b: u8| {
        if hex {
            b.is_ascii_hexdigit()
        } else {
            b.is_ascii_digit()
        }
    };
    let digits = after[digits_start.min(after.len())..]
        .iter()
        .take_while(|&&b| is_digit(b))
        .count();
    let digits_end = digits_start + digits;
    if digits_end >= after.len() && !eof {
        return CharRef::NeedMore;
    }
    if digits == 0 {
        return CharRef::NotARef {
            error: Some(ErrorCode::AbsenceOfDigitsInNumericCharacterReference),
        };
    }
    let mut errors = Errors::default();
    let consumed = if after.get(digits_end) == Some(&b';') {
        digits_end + 1
    } else {
        errors.push(ErrorCode::MissingSemicolonAfterCharacterReference);
        digits_end
    };
    // Saturate above the Unicode range so that long numbers cannot overflow.
    let radix = if hex { 16 } else { 10 };
    let mut value: u32 = 0;
    for &b in &after[digits_start..digits_end] {
        let digit = (b as char).to_digit(radix).unwrap_or(0);
        value = value
            .saturating_mul(radix)
            .saturating_add(digit)
            .min(0x11_0000);
    }
    let (c, error) = numeric_value(value, xml11);
    if let Some(code) = error {
        errors.push(code);
    }
    CharRef::Ref {
        consumed,
        text: Replacement::Char(c),
        errors,
    }
}

/// The character a numeric reference stands for, and the error it carries.
///
/// In an XML 1.1 document the C0 and C1 controls are what references are
/// for (§2.2: `RestrictedChar` may appear only as a reference), so they
/// give the control itself without an error; the HTML remapping of
/// `&#x80;`-`&#x9F;` to windows-1252 (which the suite asks for) is for
/// XML 1.0 documents only.
fn numeric_value(value: u32, xml11: bool) -> (char, Option<ErrorCode>) {
    use ErrorCode::*;
    if xml11 && matches!(value, 0x01..=0x0C | 0x0E..=0x1F | 0x7F..=0x9F) {
        if let Some(c) = char::from_u32(value) {
            return (c, None);
        }
    }
    if let Some(c) = windows_1252_remap(value) {
        let code = if value == 0 {
            NullCharacterReference
        } else {
            ControlCharacterReference
        };
        return (c, Some(code));
    }
    if (0xD800..=0xDFFF).contains(&value) {
        return ('\u{FFFD}', Some(SurrogateCharacterReference));
    }
    let Some(c) = char::from_u32(value) else {
        return ('\u{FFFD}', Some(CharacterReferenceOutsideUnicodeRange));
    };
    let error = match value {
        // XML 1.0 allows neither, even as references (WFC: Legal Character).
        0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0xFFFE | 0xFFFF => Some(IllegalCharacterReference),
        0x7F..=0x9F => Some(ControlCharacterReference),
        0xFDD0..=0xFDEF => Some(NoncharacterCharacterReference),
        n if n & 0xFFFE == 0xFFFE => Some(NoncharacterCharacterReference),
        _ => None,
    };
    (c, error)
}

/// The replacement table of the HTML text (NUL, CR and the C1 codes that
/// Windows-1252 uses for printable characters).
fn windows_1252_remap(value: u32) -> Option<char> {
    Some(match value {
        0x00 => '\u{FFFD}',
        0x0D => '\r',
        0x80 => '\u{20AC}',
        0x81 => '\u{0081}',
        0x82 => '\u{201A}',
        0x83 => '\u{0192}',
        0x84 => '\u{201E}',
        0x85 => '\u{2026}',
        0x86 => '\u{2020}',
        0x87 => '\u{2021}',
        0x88 => '\u{02C6}',
        0x89 => '\u{2030}',
        0x8A => '\u{0160}',
        0x8B => '\u{2039}',
        0x8C => '\u{0152}',
        0x8D => '\u{008D}',
        0x8E => '\u{017D}',
        0x8F => '\u{008F}',
        0x90 => '\u{0090}',
        0x91 => '\u{2018}',
        0x92 => '\u{2019}',
        0x93 => '\u{201C}',
        0x94 => '\u{201D}',
        0x95 => '\u{2022}',
        0x96 => '\u{2013}',
        0x97 => '\u{2014}',
        0x98 => '\u{02DC}',
        0x99 => '\u{2122}',
        0x9A => '\u{0161}',
        0x9B => '\u{203A}',
        0x9C => '\u{0153}',
        0x9D => '\u{009D}',
        0x9E => '\u{017E}',
        0x9F => '\u{0178}',
        _ => return None,
    })
}

fn named(after: &[u8], eof: bool, in_attribute: bool) -> CharRef {
    // Every name is ASCII alphanumerics, so the only name that can end in
    // `;` is the whole alphanumeric run; any other match is a legacy name
    // (no `;`) that is a prefix of the run.
    let run = after
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if run == after.len() && !eof {
        return CharRef::NeedMore;
    }
    let next = after.get(run).copied();
    // The run is ASCII, so these slices are valid UTF-8.
    let as_str = |len: usize| std::str::from_utf8(&after[..len]).unwrap_or("");
    if next == Some(b';') {
        // XML's five predefined entities, by far the most common, without
        // hashing (the table has them with the same replacements).
        let predefined = match &after[..run] {
            b"amp" => Some("&"),
            b"lt" => Some("<"),
            b"gt" => Some(">"),
            b"quot" => Some("\""),
            b"apos" => Some("'"),
            _ => None,
        };
        if let Some(text) = predefined.or_else(|| NAMED_REFS.get(as_str(run + 1)).copied()) {
            return CharRef::Ref {
                consumed: run + 1,
                text: Replacement::Str(text),
                errors: Errors::default(),
            };
        }
    }
    let legacy = (1..=run.min(LONGEST_LEGACY_NAME))
        .rev()
        .find_map(|len| NAMED_REFS.get(as_str(len)).map(|&text| (len, text)));
    let Some((len, text)) = legacy else {
        let error =
            (run > 0 && next == Some(b';')).then_some(ErrorCode::UnknownNamedCharacterReference);
        return CharRef::NotARef { error };
    };
    let after_match = after.get(len).copied();
    if in_attribute && matches!(after_match, Some(b) if b == b'=' || b.is_ascii_alphanumeric()) {
        return CharRef::NotARef { error: None };
    }
    let mut errors = Errors::default();
    errors.push(ErrorCode::MissingSemicolonAfterCharacterReference);
    CharRef::Ref {
        consumed: len,
        text: Replacement::Str(text),
        errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ErrorCode::*;

    #[test]
    fn predefined_entities_match_the_table() {
        for name in ["amp", "lt", "gt", "quot", "apos"] {
            let input = format!("{name};");
            let CharRef::Ref {
                consumed,
                text: Replacement::Str(text),
                errors,
            } = named(input.as_bytes(), true, false)
            else {
                panic!("{name} is not a reference");
            };
            assert_eq!(consumed, input.len());
            assert_eq!(Some(&text), NAMED_REFS.get(input.as_str()), "{name}");
            assert!(errors.iter().next().is_none());
        }
    }

    fn one(code: ErrorCode) -> Errors {
        let mut e = Errors::default();
        e.push(code);
        e
    }

    #[test]
    fn named_with_and_without_semicolon() {
        assert_eq!(
            consume(b"amp; x", true, false, None, false),
            CharRef::Ref {
                consumed: 4,
                text: Replacement::Str("&"),
                errors: Errors::default()
            }
        );
        assert_eq!(
            consume(b"notit;", true, false, None, false),
            CharRef::Ref {
                consumed: 3,
                text: Replacement::Str("\u{AC}"),
                errors: one(MissingSemicolonAfterCharacterReference)
            }
        );
        assert_eq!(
            consume(b"notit;", true, true, None, false),
            CharRef::NotARef { error: None }
        );
        assert_eq!(
            consume(b"bogus;", true, false, None, false),
            CharRef::NotARef {
                error: Some(UnknownNamedCharacterReference)
            }
        );
        assert_eq!(consume(b"am", false, false, None, false), CharRef::NeedMore);
    }

    #[test]
    fn numeric_edge_cases() {
        assert_eq!(
            consume(b"#x41;", true, false, None, false),
            CharRef::Ref {
                consumed: 5,
                text: Replacement::Char('A'),
                errors: Errors::default()
            }
        );
        assert_eq!(
            consume(b"#;", true, false, None, false),
            CharRef::NotARef {
                error: Some(AbsenceOfDigitsInNumericCharacterReference)
            }
        );
        let huge = consume(b"#99999999999999999999999", true, false, None, false);
        let CharRef::Ref { text, errors, .. } = huge else {
            panic!("{huge:?}")
        };
        assert_eq!(text, Replacement::Char('\u{FFFD}'));
        assert_eq!(errors.iter().count(), 2);
        assert_eq!(
            consume(b"#12", false, false, None, false),
            CharRef::NeedMore
        );
        assert_eq!(
            consume(b"\"", true, true, Some(b'"'), false),
            CharRef::NotARef { error: None }
        );
    }
}
