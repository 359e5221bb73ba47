//! XML 1.0 well-formedness rules that XML5's tokenizer lets pass silently:
//! unquoted or missing attribute values, attributes run together, bare `&`,
//! HTML-only entity names, names that are not XML names, `--` in comments,
//! `</>`, `]]>` in text, form feeds, and the XML declaration's values.
//!
//! The tree is not changed by any of them; they are reported, so that "no
//! parse errors" means the input was well-formed XML (which the serializer
//! relies on: it copies such input byte for byte, and repairs the rest).
//! Every check reads the source, so positions are exact.

use crate::chars::{
    is_name, is_name_char, is_predefined_entity, is_pubid_char, starts_predefined_reference,
};
use crate::dom::{Names, QNameId};
use crate::error::ErrorCode;
use crate::span::Span;
use crate::tokenizer::{Tag, Text, TextKind};

use super::Source;

/// Whether each pseudo-attribute of an XML declaration (`raw`, from
/// `<?xml` to `?>`) has whitespace before it, as `S` in XML 1.0 §2.8's
/// grammar requires (`version="1.0"encoding="x"` is not well-formed). Other
/// faults of its grammar are the tokenizer's to report; at one, this stops.
fn pseudo_attributes_spaced(raw: &str) -> bool {
    let is_s = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let bytes = raw.as_bytes();
    let mut at = "<?xml".len();
    loop {
        let spaces = bytes[at.min(bytes.len())..]
            .iter()
            .take_while(|&&b| is_s(b))
            .count();
        at += spaces;
        let Some(&first) = bytes.get(at) else {
            return true;
        };
        if !first.is_ascii_alphabetic() {
            return true; // `?>`, or something the tokenizer reported
        }
        if spaces == 0 {
            return false;
        }
        at += bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        at += bytes[at..].iter().take_while(|&&b| is_s(b)).count();
        if bytes.get(at) != Some(&b'=') {
            return true;
        }
        at += 1;
        at += bytes[at..].iter().take_while(|&&b| is_s(b)).count();
        let Some(&quote @ (b'"' | b'\'')) = bytes.get(at) else {
            return true;
        };
        match memchr::memchr(quote, &bytes[at + 1..]) {
            Some(len) => at += len + 2,
            None => return true,
        }
    }
}

/// Collects the errors found by the checks.
pub(crate) struct Checker<'a> {
    /// The source the checks read (the builder's: see [`Source`]).
    pub(crate) source: Source<'a>,
    pub(crate) errors: Vec<(ErrorCode, usize)>,
    /// What the internal subset declared: its entities are not undeclared.
    pub(crate) declarations: Option<crate::dtd::Declarations>,
    /// The document is XML 1.1: NEL and LINE SEPARATOR are whitespace (line
    /// ends) in its tags.
    pub(crate) xml11: bool,
}

impl<'a> Checker<'a> {
    fn report(&mut self, code: ErrorCode, offset: usize) {
        self.errors.push((code, offset));
    }

    /// Whether NEL or LINE SEPARATOR ends right before `at` in an XML 1.1
    /// document.
    fn line_end_11_before(&self, at: usize) -> bool {
        self.xml11
            && (self.source.bytes(at.saturating_sub(2), at) == b"\xC2\x85"
                || self.source.bytes(at.saturating_sub(3), at) == b"\xE2\x80\xA8")
    }

    /// A start or empty tag: its names, and for each attribute whitespace
    /// before it, a quoted value, and the value's `<` and `&`.
    ///
    /// `qnames` are the interned names of the tag, then of its attributes
    /// (whose validity as XML names was found when they were interned).
    pub(crate) fn tag(&mut self, tag: &Tag<'_>, names: &Names, qnames: &[QNameId]) {
        let valid_name = |i: usize| qnames.get(i).is_some_and(|&q| names.qname_data(q).is_name);
        // The attributes kept (`qnames` stops at the attribute limit).
        let kept = tag.attributes.len().min(qnames.len().saturating_sub(1));
        self.tag_with(tag, kept, valid_name);
    }

    /// [`tag`](Self::tag) for the first `kept` attributes, `valid_name(0)`
    /// saying whether the tag's name is a name and `valid_name(i)` the
    /// `i`th attribute's.
    pub(crate) fn tag_with(
        &mut self,
        tag: &Tag<'_>,
        kept: usize,
        valid_name: impl Fn(usize) -> bool,
    ) {
        if !valid_name(0) {
            self.errors
                .push((ErrorCode::InvalidName, tag.span.start + 1));
        }
        for index in 0..kept {
            let (span, value_span) = tag.attributes.spans_at(index);
            let start = span.start;
            // After a `:` the tokenizer skipped (`colon-before-attr`), the
            // missing space is already reported.
            let before = self.source.byte(start.wrapping_sub(1)).unwrap_or(b' ');
            if !matches!(before, b' ' | b'\t' | b'\n' | b'\r' | b':')
                && !self.line_end_11_before(start)
            {
                self.errors
                    .push((ErrorCode::MissingWhitespaceBeforeAttribute, start));
            }
            if !valid_name(index + 1) {
                self.errors.push((ErrorCode::InvalidName, start));
            }
            let Some(value) = value_span else {
                self.errors.push((ErrorCode::MissingAttributeValue, start));
                continue;
            };
            let quoted = matches!(
                self.source.byte(value.start.wrapping_sub(1)),
                Some(b'"' | b'\'')
            );
            if !quoted {
                self.errors
                    .push((ErrorCode::UnquotedAttributeValue, value.start));
            }
            if !tag.attributes.plain_at(index) {
                self.raw_text(value, b'<');
            }
        }
    }

    /// The `&`s and form feeds of a raw stretch of source, and each `<`
    /// (in an attribute value) or `]]>` (in text), as `special` is `<` or
    /// `]`: one scan for all three, which usually finds nothing. (Each is
    /// reported: the repair changes each, where `check` shows it.)
    fn raw_text(&mut self, span: Span, special: u8) {
        let bytes = self.source.bytes(span.start, span.end);
        // Most runs are short (whitespace between tags, a word): a plain
        // loop beats setting up a vector search for them.
        if bytes.len() < 32
            && !bytes
                .iter()
                .any(|&b| b == b'&' || b == b'\x0C' || b == special)
        {
            return;
        }
        let mut from = 0;
        loop {
            // Found again each time: `reference` reads the source too.
            let bytes = self.source.bytes(span.start, span.end);
            let Some(found) = memchr::memchr3(b'&', b'\x0C', special, &bytes[from..]) else {
                return;
            };
            let at = from + found;
            from = at + 1;
            let offset = span.start + at;
            match bytes[at] {
                b'&' => self.reference(span, at),
                b'\x0C' => self.report(ErrorCode::ControlCharacterInInputStream, offset),
                b'<' => self.report(ErrorCode::LessThanInAttributeValue, offset),
                b']' if bytes[at..].starts_with(b"]]>") => {
                    self.report(ErrorCode::CdataEndInText, offset);
                }
                _ => {}
            }
        }
    }

    /// The `&` at `at` in `span`: it must start `&#...;` or one of XML's
    /// five predefined entities.
    fn reference(&mut self, span: Span, at: usize) {
        let Some(rest) = self.source.get(span.start + at + 1, span.end) else {
            return;
        };
        // The predefined entities, most references, are well-formed as
        // they stand.
        if starts_predefined_reference(rest.as_bytes()) {
            return;
        }
        if let Some(number) = rest.strip_prefix('#') {
            // Numeric: the tokenizer checked it, but for form feed, which
            // HTML takes as whitespace and XML does not allow, and `&#X`.
            if number.starts_with('X') {
                self.errors
                    .push((ErrorCode::UppercaseHexadecimalReference, span.start + at));
            }
            let (digits, radix) = match number.strip_prefix(['x', 'X']) {
                Some(hex) => (hex, 16),
                None => (number, 10),
            };
            let end = digits
                .bytes()
                .position(|b| !b.is_ascii_hexdigit())
                .unwrap_or(digits.len());
            let value = u32::from_str_radix(&digits[..end], radix);
            // (XML 1.1 allows the controls by reference.)
            if digits[end..].starts_with(';') && value == Ok(0x0C) && !self.xml11 {
                self.errors
                    .push((ErrorCode::IllegalCharacterReference, span.start + at));
            }
            return;
        }
        // ASCII name characters byte by byte; from the first other byte on,
        // character by character.
        let ascii = rest
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b':')))
            .unwrap_or(rest.len());
        let name_len = if rest.as_bytes().get(ascii).is_some_and(|b| !b.is_ascii()) {
            rest[ascii..]
                .char_indices()
                .find(|&(_, c)| !is_name_char(c))
                .map_or(rest.len(), |(i, _)| ascii + i)
        } else {
            ascii
        };
        let offset = span.start + at;
        if name_len > 0 && rest[name_len..].starts_with(';') {
            let name = &rest[..name_len];
            let declared = self
                .declarations
                .as_ref()
                .is_some_and(|d| d.is_declared(name));
            if !is_predefined_entity(name) && !declared {
                self.errors.push((ErrorCode::UndeclaredEntity, offset));
            }
        } else {
            // Not followed by `name;`: not a reference in XML. (The tree
            // builder drops this where the tokenizer already reported a
            // reference error at the same `&`.)
            self.errors.push((ErrorCode::BareAmpersand, offset));
        }
    }

    fn form_feeds(&mut self, span: Span) {
        for at in memchr::memchr_iter(b'\x0C', self.source.bytes(span.start, span.end)) {
            self.errors
                .push((ErrorCode::ControlCharacterInInputStream, span.start + at));
        }
    }

    /// One run of character data.
    pub(crate) fn text(&mut self, piece: &Text<'_>) {
        match piece.kind {
            TextKind::Plain if piece.needs_check => self.raw_text(piece.span, b']'),
            TextKind::Plain => {}
            // The `&` of the reference, checked by name.
            TextKind::CharRef => self.reference(piece.span, 0),
            TextKind::Cdata => self.form_feeds(piece.span),
            // Checked where it was declared.
            TextKind::Entity => {}
        }
    }

    /// A comment: no `--` inside and no `-` at the end. Each run of
    /// hyphens that breaks the rule is reported once, at its first, also in
    /// a comment the end of the input cut off (where the repair must change
    /// them too).
    pub(crate) fn comment(&mut self, data: &str, span: Span) {
        let raw = self.source.slice(span.start, span.end);
        if !raw.starts_with("<!--") {
            // A bogus comment (`<!x ...>`, already an error at its start)
            // is written as a comment too: hyphens in its data that a
            // comment cannot hold are errors where they are.
            let end = span.end - usize::from(raw.ends_with('>'));
            let body = Span::new(end.saturating_sub(data.len()).max(span.start), end);
            if self.source.get(body.start, body.end) == Some(data) {
                self.hyphens(body, true);
            }
            return;
        }
        let closer = if raw.len() >= 7 && raw.ends_with("-->") {
            3
        } else if raw.len() >= 8 && raw.ends_with("--!>") {
            4 // `incorrectly-closed-comment` says it
        } else {
            0
        };
        let closed = closer > 0;
        let mut body_end = span.end - closer;
        if !closed {
            // The end of the input drops a pending `-` or `--` (the start
            // of a closer) from the comment's data.
            let dashes = raw.len() - raw.trim_end_matches('-').len();
            body_end -= dashes.min(2);
        }
        let body = Span::new(span.start + 4, body_end.max(span.start + 4));
        self.hyphens(body, closed && data.ends_with('-'));
        self.form_feeds(body);
    }

    /// Reports each run of hyphens in a comment's `body` that is a `--`,
    /// and the last `-` if `ends_badly` (before the closing `-->`).
    fn hyphens(&mut self, body: Span, ends_badly: bool) {
        let text = self.source.bytes(body.start, body.end);
        let mut at = 0;
        while let Some(i) = memchr::memmem::find(&text[at..], b"--") {
            let start = at + i;
            self.errors
                .push((ErrorCode::DoubleHyphenInComment, body.start + start));
            at = start + text[start..].iter().take_while(|&&b| b == b'-').count();
        }
        if ends_badly && text.ends_with(b"-") && !text.ends_with(b"--") {
            self.errors
                .push((ErrorCode::DoubleHyphenInComment, body.end - 1));
        }
    }

    /// An end tag: a name that is an XML name and a qualified name, as the
    /// start tag's must be (`</1a>`, `</a:b:c>`, `</xmlns:a>`).
    pub(crate) fn end_tag(&mut self, name: &str, span: Span) {
        let valid = is_name(name);
        let bad_qname = valid && {
            let colon = crate::dom::qname_colon(name);
            match colon {
                Some(c) => !is_name(&name[c + 1..]) || &name[..c] == "xmlns",
                None => name.contains(':'),
            }
        };
        self.end_tag_known(valid, bad_qname, span);
    }

    /// [`end_tag`](Self::end_tag) of a name already known to be an XML
    /// name (`is_name`) and a qualified name that is not
    /// (`bad_qname`: `a:b:c`, `a:1`, `xmlns:a`).
    pub(crate) fn end_tag_known(&mut self, is_name: bool, bad_qname: bool, span: Span) {
        if !is_name {
            self.errors.push((ErrorCode::InvalidName, span.start + 2));
        } else if bad_qname {
            self.errors
                .push((ErrorCode::InvalidQualifiedName, span.start));
        }
    }

    /// A PI: a name for a target, and not `xml` in any case.
    pub(crate) fn processing_instruction(&mut self, target: &str, span: Span) {
        if !is_name(target) {
            self.errors.push((ErrorCode::InvalidName, span.start + 2));
        } else if target.eq_ignore_ascii_case("xml") {
            self.report(
                ErrorCode::ReservedProcessingInstructionTarget,
                span.start + 2,
            );
        }
        self.form_feeds(span);
    }

    /// The values of the XML declaration (XML 1.0 §2.8, §4.3.3).
    pub(crate) fn declaration(
        &mut self,
        version: Option<&str>,
        encoding: Option<&str>,
        standalone: Option<&str>,
        span: Span,
    ) {
        let version_ok = version.is_none_or(|v| {
            v.strip_prefix("1.")
                .is_some_and(|minor| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()))
        });
        let encoding_ok = encoding.is_none_or(|e| {
            let mut bytes = e.bytes();
            bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
                && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        });
        let standalone_ok = standalone.is_none_or(|s| s == "yes" || s == "no");
        let spaced = self
            .source
            .get(span.start, span.end)
            .is_none_or(pseudo_attributes_spaced);
        if !(version_ok && encoding_ok && standalone_ok && spaced) {
            self.errors
                .push((ErrorCode::InvalidXmlDeclaration, span.start));
        }
    }

    /// A DOCTYPE's identifiers: XML wants a system identifier after a public
    /// one, and public identifiers of `PubidChar`s only.
    pub(crate) fn doctype(
        &mut self,
        name: Option<&str>,
        public_id: Option<&str>,
        system_id: Option<&str>,
        span: Span,
    ) {
        // NUL and form feed, which the tokenizer takes silently in a
        // DOCTYPE (as the suite requires), are not XML characters.
        let raw = self.source.slice(span.start, span.end);
        for (at, byte) in raw.bytes().enumerate() {
            match byte {
                0 => self
                    .errors
                    .push((ErrorCode::UnexpectedNullCharacter, span.start + at)),
                0x0C => self
                    .errors
                    .push((ErrorCode::ControlCharacterInInputStream, span.start + at)),
                _ => {}
            }
        }
        if let Some(name) = name {
            if !is_name(name) {
                let keyword = "<!DOCTYPE".len().min(raw.len());
                let spaces = raw[keyword..]
                    .bytes()
                    .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0C))
                    .count();
                self.errors
                    .push((ErrorCode::InvalidName, span.start + keyword + spaces));
            }
        }
        if let Some(public) = public_id {
            if !public.chars().all(is_pubid_char) {
                // At each character in the literal as written, so that a
                // repair can mend the literal where it stands.
                match public_literal(raw) {
                    Some(literal) => {
                        let start =
                            span.start + (literal.as_ptr() as usize - raw.as_ptr() as usize);
                        for (at, c) in literal.char_indices() {
                            if !is_pubid_char(c) {
                                self.errors
                                    .push((ErrorCode::InvalidPublicIdentifier, start + at));
                            }
                        }
                    }
                    None => self
                        .errors
                        .push((ErrorCode::InvalidPublicIdentifier, span.start)),
                }
            }
            if system_id.is_none() {
                self.errors
                    .push((ErrorCode::MissingDoctypeSystemIdentifier, span.start));
            }
        }
    }
}

/// The text between the quotes of a DOCTYPE's public literal, as written
/// in `raw` (`<!DOCTYPE name PUBLIC "…"`), if it is written that way.
fn public_literal(raw: &str) -> Option<&str> {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let rest = raw.strip_prefix("<!DOCTYPE")?.trim_start_matches(is_space);
    let rest = rest.trim_start_matches(|c: char| !is_space(c) && c != '>');
    let rest = rest.trim_start_matches(is_space);
    let keyword = rest.get(..6)?;
    let rest = rest[6..].trim_start_matches(is_space);
    let quote = rest.chars().next().filter(|&q| q == '"' || q == '\'')?;
    let body = &rest[1..];
    let end = body.find(quote)?;
    keyword
        .eq_ignore_ascii_case("PUBLIC")
        .then_some(&body[..end])
}
