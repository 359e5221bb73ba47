//! The token stream in the JSON format of the xml5lib-tests tokenizer suite,
//! as printed by `xml5dom tokens`.
//!
//! Token kinds are `StartTag`, `EmptyTag`, `EndTag`, `ShortTag`, `Comment`,
//! `Character`, `PI` and `DOCTYPE`, with `"ParseError"` markers in order and
//! adjacent character data coalesced. The XML declaration prints as the PI
//! it looks like (`["PI", "xml", "version=\"1.0\""]`), since the format has
//! no kind for it. DOCTYPEs print four fields; the suite's occasional fifth
//! one is HTML's quirks flag, which XML does not have (docs/conformance.md).
//!
//! The text is laid out as Python's `json.dumps` lays it out (`", "` and
//! `": "` separators, non-ASCII escaped as `\uXXXX`), so that output can be
//! compared with the suite's files as text as well as as JSON.
//!
//! A test format, not a parsing one: it is compiled only with the
//! `suite-json` feature (the command line and this crate's tests turn it
//! on).

use super::token::Token;
use super::TokenSink;
use crate::error::ParseError;

/// A [`TokenSink`] that writes the suite's JSON format into a string.
///
/// ```
/// use xml5dom::tokenizer::{tokenize, SuiteJson};
/// let json = tokenize("<a x='1'>é<!--c--></>", SuiteJson::default()).finish();
/// assert_eq!(
///     json,
///     r#"[["StartTag", "a", {"x": "1"}], ["Character", "\u00e9"], ["Comment", "c"], ["ShortTag", ""]]"#
/// );
/// ```
#[derive(Debug, Default, Clone)]
pub struct SuiteJson {
    out: String,
    /// Character data not yet written, so that adjacent runs coalesce.
    characters: String,
    items: usize,
}

impl SuiteJson {
    /// Closes the array and returns the JSON text.
    pub fn finish(mut self) -> String {
        self.flush_characters();
        let mut out = String::with_capacity(self.out.len() + 2);
        out.push('[');
        out.push_str(&self.out);
        out.push(']');
        out
    }

    fn item(&mut self) -> &mut String {
        if self.items > 0 {
            self.out.push_str(", ");
        }
        self.items += 1;
        &mut self.out
    }

    fn flush_characters(&mut self) {
        if self.characters.is_empty() {
            return;
        }
        let characters = std::mem::take(&mut self.characters);
        let out = self.item();
        out.push_str("[\"Character\", ");
        push_json_string(out, &characters);
        out.push(']');
        self.characters = characters;
        self.characters.clear();
    }
}

impl TokenSink for SuiteJson {
    fn process_token(&mut self, token: Token<'_>) {
        if let Token::Text(text) = token {
            self.characters.push_str(text.data);
            return;
        }
        if let Token::EndOfFile(_) = token {
            return;
        }
        self.flush_characters();
        let out = self.item();
        out.push('[');
        match token {
            Token::StartTag(tag) | Token::EmptyTag(tag) => {
                let kind = if matches!(token, Token::StartTag(_)) {
                    "\"StartTag\", "
                } else {
                    "\"EmptyTag\", "
                };
                out.push_str(kind);
                push_json_string(out, tag.name);
                out.push_str(", {");
                for (i, attribute) in tag.attributes.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    push_json_string(out, attribute.name);
                    out.push_str(": ");
                    push_json_string(out, attribute.value);
                }
                out.push('}');
            }
            Token::EndTag(tag) => {
                out.push_str("\"EndTag\", ");
                push_json_string(out, tag.name);
            }
            Token::ShortEndTag(_) => out.push_str("\"ShortTag\", \"\""),
            Token::Comment(comment) => {
                out.push_str("\"Comment\", ");
                push_json_string(out, comment.data);
            }
            Token::ProcessingInstruction(pi) => {
                out.push_str("\"PI\", ");
                push_json_string(out, pi.target);
                out.push_str(", ");
                push_json_string(out, pi.data);
            }
            Token::XmlDeclaration(declaration) => {
                out.push_str("\"PI\", \"xml\", ");
                push_json_string(out, declaration.data);
            }
            Token::EntityReference(reference) => {
                out.push_str("\"EntityReference\", ");
                push_json_string(out, reference.name);
            }
            Token::Doctype(doctype) => {
                out.push_str("\"DOCTYPE\"");
                for field in [doctype.name, doctype.public_id, doctype.system_id] {
                    out.push_str(", ");
                    match field {
                        Some(value) => push_json_string(out, value),
                        None => out.push_str("null"),
                    }
                }
            }
            Token::Text(_) | Token::EndOfFile(_) => {}
        }
        out.push(']');
    }

    fn parse_error(&mut self, _: ParseError) {
        self.flush_characters();
        self.item().push_str("\"ParseError\"");
    }
}

/// [`SuiteJson`]'s text written to an [`io::Write`](std::io::Write) as the
/// tokens come, so that a large document's tokens need little memory.
///
/// ```
/// use xml5dom::tokenizer::{tokenize, SuiteJsonWriter};
/// let out = tokenize("<a>x</a>", SuiteJsonWriter::new(Vec::new())).finish().unwrap();
/// assert_eq!(out, br#"[["StartTag", "a", {}], ["Character", "x"], ["EndTag", "a"]]"#);
/// ```
#[derive(Debug)]
pub struct SuiteJsonWriter<W: std::io::Write> {
    json: SuiteJson,
    writer: W,
    /// The opening `[` is written.
    opened: bool,
    /// The first write that failed; nothing more is written after it.
    failed: Option<std::io::Error>,
}

impl<W: std::io::Write> SuiteJsonWriter<W> {
    /// Writes the tokens to `writer`.
    pub fn new(writer: W) -> SuiteJsonWriter<W> {
        SuiteJsonWriter {
            json: SuiteJson::default(),
            writer,
            opened: false,
            failed: None,
        }
    }

    /// Writes what is left and the closing `]`; returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.json.flush_characters();
        self.send();
        if let Some(error) = self.failed {
            return Err(error);
        }
        self.writer.write_all(b"]")?;
        Ok(self.writer)
    }

    fn send(&mut self) {
        if self.failed.is_none() {
            let opening: &[u8] = if self.opened { b"" } else { b"[" };
            self.opened = true;
            self.failed = self
                .writer
                .write_all(opening)
                .and_then(|()| self.writer.write_all(self.json.out.as_bytes()))
                .err();
        }
        self.json.out.clear();
    }

    fn send_some(&mut self) {
        if self.json.out.len() >= crate::output::PIECE {
            self.send();
        }
    }
}

impl<W: std::io::Write> TokenSink for SuiteJsonWriter<W> {
    fn process_token(&mut self, token: Token<'_>) {
        self.json.process_token(token);
        self.send_some();
    }

    fn parse_error(&mut self, error: ParseError) {
        self.json.parse_error(error);
        self.send_some();
    }
}

/// Appends `s` as a JSON string literal, escaped as Python's `json.dumps`
/// escapes it by default.
pub fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='\u{7e}' | '\u{7f}' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::push_json_string;

    #[test]
    fn escapes_like_python() {
        let mut out = String::new();
        push_json_string(&mut out, "a\"\\\n\u{1}\u{e9}\u{1D504}\u{7f}");
        assert_eq!(out, "\"a\\\"\\\\\\n\\u0001\\u00e9\\ud835\\udd04\u{7f}\"");
    }
}
