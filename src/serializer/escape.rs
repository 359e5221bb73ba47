//! What XML can carry, character by character: text and attribute values
//! escaped, characters XML forbids replaced by U+FFFD, comment text without
//! `--`, names made XML names, values quoted.
//!
//! Functions of strings alone: the leaf of the serializer, which the writer,
//! namespace fixup and the repairs use, and which uses none of them.

use std::fmt::Write;

use crate::chars::{is_forbidden_char, is_name, is_reference_only_11};

/// Whether the output follows XML 1.1's rules for characters (its XML
/// declaration says `version="1.1"`): then the characters 1.1 carries only
/// as references are written as references.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) enum Version {
    #[default]
    V10,
    V11,
}

impl Version {
    /// Writes `c` as a character reference if this version carries it only
    /// so; returns whether it did.
    fn reference(self, out: &mut String, c: char) -> bool {
        if self == Version::V11 && is_reference_only_11(c) {
            // Writing to a `String` cannot fail.
            let _ = write!(out, "&#{};", u32::from(c));
            return true;
        }
        false
    }

    /// Whether `c` can be written as itself where no reference is read (a
    /// CDATA section, a comment, a PI).
    pub(super) fn literal(self, c: char) -> bool {
        let reference_only = self == Version::V11 && is_reference_only_11(c);
        !(is_forbidden_char(c) || reference_only)
    }
}

/// Text content, escaped; forbidden characters become U+FFFD.
pub(super) fn push_text(out: &mut String, text: &str, version: Version, forbidden: &mut bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c if version.reference(out, c) => {}
            c if is_forbidden_char(c) => {
                *forbidden = true;
                out.push('\u{FFFD}');
            }
            c => out.push(c),
        }
    }
}

/// An attribute value for the quote `quote`, escaped so that attribute-value
/// normalization gives it back.
pub(super) fn push_attribute_value(
    out: &mut String,
    value: &str,
    quote: u8,
    version: Version,
    forbidden: &mut bool,
) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' if quote == b'"' => out.push_str("&quot;"),
            '\'' if quote == b'\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if version.reference(out, c) => {}
            c if is_forbidden_char(c) => {
                *forbidden = true;
                out.push('\u{FFFD}');
            }
            c => out.push(c),
        }
    }
}

pub(super) fn replace_forbidden(text: &str, forbidden: &mut bool) -> String {
    if text.chars().any(is_forbidden_char) {
        *forbidden = true;
        text.chars()
            .map(|c| if is_forbidden_char(c) { '\u{FFFD}' } else { c })
            .collect()
    } else {
        text.to_owned()
    }
}

/// Comment text XML can carry: no `--`, no final `-`, no forbidden
/// characters. Returns whether it changed.
pub(super) fn comment_text(text: &str) -> (String, bool) {
    let mut forbidden = false;
    let mut out = replace_forbidden(text, &mut forbidden);
    let mut changed = forbidden;
    while out.contains("--") {
        out = out.replace("--", "- -");
        changed = true;
    }
    if out.ends_with('-') {
        out.push(' ');
        changed = true;
    }
    (out, changed)
}

/// Whether `s` can be quoted: it does not hold both quotes.
pub(super) fn quotable(s: &str) -> bool {
    !(s.contains('"') && s.contains('\''))
}

/// `s` quoted with `"`, or `'` when it contains `"`.
pub(super) fn push_quoted(out: &mut String, s: &str) {
    let quote = if s.contains('"') { '\'' } else { '"' };
    out.push(quote);
    out.push_str(s);
    out.push(quote);
}

/// A name with the characters an XML name (without colons) cannot have
/// replaced by `_`, and a `_` in front if it cannot start one.
pub(super) fn repaired_name(name: &str) -> String {
    use crate::chars::{is_name_char, is_name_start_char};
    if is_name(name) && !name.contains(':') && !name.chars().any(is_forbidden_char) {
        return name.to_owned();
    }
    let mut out = String::with_capacity(name.len() + 1);
    for (i, c) in name.chars().enumerate() {
        // Noncharacters are name characters to XML, but xml5dom reports them.
        let ok = c != ':'
            && !is_forbidden_char(c)
            && if i == 0 {
                is_name_start_char(c)
            } else {
                is_name_char(c)
            };
        if i == 0 && !ok && c != ':' && is_name_char(c) && !is_forbidden_char(c) {
            out.push('_');
            out.push(c);
        } else {
            out.push(if ok { c } else { '_' });
        }
    }
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// A qualified name as it can be written: each part of a valid `p:l`
/// repaired, anything else repaired as one name.
pub(super) fn repaired_qname(name: &str) -> String {
    match crate::dom::qname_colon(name) {
        Some(colon) => {
            let prefix = repaired_name(&name[..colon]);
            let local = repaired_name(&name[colon + 1..]);
            format!("{prefix}:{local}")
        }
        None => repaired_name(name),
    }
}

/// An element's name as it can be written: as an attribute's, and an
/// element may not have the prefix `xmlns` (Namespaces in XML 1.0 §3).
/// `prefixed` says whether the tree has a prefix for it: a name whose colon
/// made no prefix (`a:0b`) is repaired as one name, so that the output does
/// not gain a prefix to bind.
pub(super) fn written_element_name(name: &str, prefixed: bool) -> String {
    if name.starts_with("xmlns:") || !prefixed {
        repaired_name(name)
    } else {
        repaired_qname(name)
    }
}
