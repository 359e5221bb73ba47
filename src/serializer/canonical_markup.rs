//! The markup every canonical writer writes the same way: the escapes of
//! Canonical XML, its attribute order, start tags with their namespace
//! declarations, comments and PIs at the document level, and the
//! InclusiveNamespaces prefix list the Exclusive forms take. The writers
//! are the whole-document Canonical XML 1.0 and xmltest of
//! `canonical.rs`, the general C14N writer of `c14n.rs` and the streaming
//! one of the events stage; all take these from here, so that the output
//! of one is the output of the others byte for byte. A leaf of the
//! serializer: `canonical.rs` hands the general forms to `c14n.rs`, which
//! would otherwise have to name it back for these.

use crate::dom::is_namespace_of_undeclared;

/// The InclusiveNamespaces PrefixList of Exclusive XML Canonicalization:
/// prefixes whose namespace declarations are written as Canonical XML 1.0
/// writes them (wherever they are in scope and not yet written by an output
/// ancestor) instead of only where they are used. `#default` stands for the
/// default namespace.
///
/// ```
/// use xml5dom::InclusiveNamespaces;
/// let list = InclusiveNamespaces::parse("soap, #default ds");
/// assert!(list.contains_default());
/// assert_eq!(list.prefixes().collect::<Vec<_>>(), ["soap", "ds"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InclusiveNamespaces {
    prefixes: Vec<String>,
    default: bool,
}

impl InclusiveNamespaces {
    /// Reads a prefix list: prefixes separated by whitespace (as in the
    /// `PrefixList` attribute) or commas; `#default` (or an empty prefix
    /// between commas is not one: empty items are skipped) stands for the
    /// default namespace. A prefix given twice counts once.
    ///
    /// ```
    /// use xml5dom::InclusiveNamespaces;
    /// assert_eq!(InclusiveNamespaces::parse(" a,,b a "), InclusiveNamespaces::parse("a b"));
    /// assert!(InclusiveNamespaces::parse("").is_empty());
    /// ```
    pub fn parse(list: &str) -> InclusiveNamespaces {
        let mut parsed = InclusiveNamespaces::default();
        for item in list.split(|c: char| c == ',' || c.is_ascii_whitespace()) {
            match item {
                "" => {}
                "#default" => parsed.default = true,
                prefix => {
                    if !parsed.prefixes.iter().any(|p| p == prefix) {
                        parsed.prefixes.push(prefix.to_owned());
                    }
                }
            }
        }
        parsed
    }

    /// Whether the list has no prefix and not `#default`.
    ///
    /// ```
    /// assert!(xml5dom::InclusiveNamespaces::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.prefixes.is_empty() && !self.default
    }

    /// Whether `#default` is in the list.
    ///
    /// ```
    /// assert!(xml5dom::InclusiveNamespaces::parse("#default").contains_default());
    /// ```
    pub fn contains_default(&self) -> bool {
        self.default
    }

    /// The prefixes in the list (not `#default`), in the order given.
    ///
    /// ```
    /// let list = xml5dom::InclusiveNamespaces::parse("b a");
    /// assert_eq!(list.prefixes().collect::<Vec<_>>(), ["b", "a"]);
    /// ```
    pub fn prefixes(&self) -> impl Iterator<Item = &str> {
        self.prefixes.iter().map(String::as_str)
    }

    /// The namespaces to look up: the prefixes, then the default (`None`).
    pub(crate) fn lookups(&self) -> Vec<Option<&str>> {
        let mut lookups: Vec<Option<&str>> = self.prefixes().map(Some).collect();
        if self.default {
            lookups.push(None);
        }
        lookups
    }
}
/// Canonical XML's part of the repair of names whose prefix nothing
/// declares (they are in the prefix's placeholder namespace,
/// `crate::dom::undeclared_namespace`, or in the registered namespace of a
/// well-known prefix, `crate::dom::well_known_namespace`): each such
/// namespace is declared where it is not in scope, as the writer of the
/// repaired document declares it; a declaration of the prefix in the
/// document wins in its scope, where the names are in its namespace. `rebinds(prefix, uri)` binds the prefix in the canonical writer's
/// scope and says whether that changed what is in scope.
pub(crate) fn declare_undeclared<'a>(
    names: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
    mut rebinds: impl FnMut(&'a str, &'a str) -> bool,
    declarations: &mut Vec<(Option<&'a str>, &'a str)>,
) {
    for (prefix, uri) in names {
        let (Some(prefix), Some(uri)) = (prefix, uri) else {
            continue;
        };
        if is_namespace_of_undeclared(prefix, uri) && rebinds(prefix, uri) {
            declarations.push((Some(prefix), uri));
        }
    }
}

/// Writes a C14N start tag: the name, the namespace declarations in the
/// order given (`None`: the default namespace), then the attributes
/// (qualified name and value) in the order given.
pub(crate) fn write_c14n_start_tag<'a>(
    name: &str,
    declarations: &[(Option<&str>, &str)],
    attributes: impl Iterator<Item = (&'a str, &'a str)>,
    out: &mut String,
) {
    out.push('<');
    out.push_str(name);
    for &(prefix, uri) in declarations {
        match prefix {
            Some(prefix) => {
                out.push_str(" xmlns:");
                out.push_str(prefix);
            }
            None => out.push_str(" xmlns"),
        }
        out.push_str("=\"");
        escape_c14n_attribute(uri, out);
        out.push('"');
    }
    for (name, value) in attributes {
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        escape_c14n_attribute(value, out);
        out.push('"');
    }
    out.push('>');
}

/// Writes a comment or PI with `write`, and at the document level the line
/// feed that separates it from the root element.
pub(crate) fn document_level(
    depth: usize,
    after_root: bool,
    out: &mut String,
    write: impl FnOnce(&mut String),
) {
    if depth > 0 {
        write(out);
    } else if after_root {
        out.push('\n');
        write(out);
    } else {
        write(out);
        out.push('\n');
    }
}

/// The key of an attribute in Canonical XML's order, from the parts of its
/// name (the streaming writer has no DOM attribute): by namespace URI (no
/// namespace first), then by local name. An attribute in no namespace is
/// keyed by its qualified name, which is its local name in a
/// namespace-well-formed document; a name with an unbound prefix (`p:x`)
/// then sorts as written, as libxml2 does.
pub(crate) fn c14n_order<'a>(
    namespace: Option<&'a str>,
    local: &'a str,
    qualified: &'a str,
) -> (&'a str, &'a str) {
    match namespace {
        Some(uri) => (uri, local),
        None => ("", qualified),
    }
}

/// Text: `&`, `<`, `>` and CR escaped.
pub(crate) fn escape_c14n_text(text: &str, out: &mut String) {
    escape_ascii(text, out, |c| match c {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        b'\r' => Some("&#xD;"),
        _ => None,
    });
}

/// Attribute values: `&`, `<`, `"`, tab, LF and CR escaped.
fn escape_c14n_attribute(value: &str, out: &mut String) {
    escape_ascii(value, out, |c| match c {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'"' => Some("&quot;"),
        b'\t' => Some("&#x9;"),
        b'\n' => Some("&#xA;"),
        b'\r' => Some("&#xD;"),
        _ => None,
    });
}

/// `<?target data?>`; with `always_space`, `<?target ?>` for empty data
/// (xmltest), else `<?target?>` (Canonical XML).
pub(crate) fn write_pi(target: &str, data: &str, always_space: bool, out: &mut String) {
    out.push_str("<?");
    out.push_str(target);
    if always_space || !data.is_empty() {
        out.push(' ');
    }
    out.push_str(data);
    out.push_str("?>");
}

/// Copies `text` to `out`, replacing the ASCII bytes `replacement` maps.
pub(super) fn escape_ascii(
    text: &str,
    out: &mut String,
    replacement: impl Fn(u8) -> Option<&'static str>,
) {
    let mut start = 0;
    for (i, &byte) in text.as_bytes().iter().enumerate() {
        // Only ASCII bytes are replaced, so `i` is a char boundary.
        if let Some(escaped) = replacement(byte) {
            out.push_str(&text[start..i]);
            out.push_str(escaped);
            start = i + 1;
        }
    }
    out.push_str(&text[start..]);
}
