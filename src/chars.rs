//! XML's character classes and the predefined entities: the leaf every
//! stage reads them from (nothing here imports anything of the crate).
//! Productions are those of XML 1.0 (fifth edition) and Namespaces 1.0.

/// `S` (production 3): space, tab, LF, CR. It is also the only whitespace
/// XPath knows (`ExprWhitespace`, `normalize-space()`).
pub(crate) fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// [`is_xml_space`] for a byte.
pub(crate) fn is_xml_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// `Char` (production 2): what a document, or a character reference, may
/// hold.
pub(crate) fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Characters XML 1.0 cannot carry at all, not even as references (the
/// serializer's repairs replace them).
pub(crate) fn is_forbidden_char(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}')
}

/// Characters an XML 1.1 document carries only as character references:
/// `RestrictedChar` (XML 1.1 §2.2: the C0 controls but tab, LF and CR,
/// DEL and the C1 controls), NEL (U+0085, a line end in 1.1, §2.11, that
/// a reference keeps) and LINE SEPARATOR (U+2028, likewise).
pub(crate) fn is_reference_only_11(c: char) -> bool {
    matches!(
        c,
        '\u{1}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{7F}'..='\u{9F}' | '\u{2028}'
    )
}

/// `NameStartChar` (production 4).
pub(crate) fn is_name_start_char(c: char) -> bool {
    c == ':' || is_ncname_start_char(c)
}

/// `NameChar` (production 4a).
pub(crate) fn is_name_char(c: char) -> bool {
    c == ':' || is_ncname_char(c)
}

/// `NameStartChar` without the colon (Namespaces 1.0 `NCName`).
pub(crate) fn is_ncname_start_char(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// `NameChar` without the colon.
pub(crate) fn is_ncname_char(c: char) -> bool {
    is_ncname_start_char(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// `Name` (production 5).
pub(crate) fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}

/// `PubidChar` (production 13).
pub(crate) fn is_pubid_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || " \r\n-'()+,./:=?;!*#@$_%".contains(c)
}

/// The five entities XML predefines (§4.6), with the text each stands for.
pub(crate) const PREDEFINED_ENTITIES: [(&str, &str); 5] = [
    ("amp", "&"),
    ("lt", "<"),
    ("gt", ">"),
    ("apos", "'"),
    ("quot", "\""),
];

/// Whether `name` is one of the [`PREDEFINED_ENTITIES`].
pub(crate) fn is_predefined_entity(name: &str) -> bool {
    PREDEFINED_ENTITIES.iter().any(|&(n, _)| n == name)
}

/// Whether the bytes after a `&` start a reference to one of the
/// [`PREDEFINED_ENTITIES`], `;` included (`amp;` and the rest): a
/// reference well-formed in every document, that needs no further check.
#[inline]
pub(crate) fn starts_predefined_reference(after_amp: &[u8]) -> bool {
    predefined_reference(after_amp).is_some()
}

/// The reference to a predefined entity the bytes after a `&` start: its
/// length after the `&` (`;` included), and the text it stands for.
#[inline]
pub(crate) fn predefined_reference(after_amp: &[u8]) -> Option<(usize, &'static str)> {
    match after_amp {
        [b'a', b'm', b'p', b';', ..] => Some((4, "&")),
        [b'l', b't', b';', ..] => Some((3, "<")),
        [b'g', b't', b';', ..] => Some((3, ">")),
        [b'q', b'u', b'o', b't', b';', ..] => Some((5, "\"")),
        [b'a', b'p', b'o', b's', b';', ..] => Some((5, "'")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ncnames_differ_by_the_colon_only() {
        for c in ['a', ':', '-', '1', '\u{B7}', '\u{300}', ' ', '\u{10000}'] {
            assert_eq!(is_name_char(c), c == ':' || is_ncname_char(c), "{c:?}");
        }
        assert!(is_name("p:a") && is_name(":a") && !is_name("1a") && !is_name(""));
        assert!(is_ncname_start_char('_') && !is_ncname_start_char(':'));
    }

    #[test]
    fn character_classes() {
        assert!(is_xml_space('\r') && !is_xml_space('\u{A0}'));
        assert!(is_forbidden_char('\u{1}') && !is_forbidden_char('\t'));
        assert!(is_xml_char('\u{10FFFF}') && !is_xml_char('\u{FFFE}'));
        assert!(is_pubid_char('%') && !is_pubid_char('"'));
        assert!(is_predefined_entity("quot") && !is_predefined_entity("nbsp"));
    }
}
