//! Layer 1: URI references, split into their parts as RFC 3986 §3 (and
//! appendix B) reads them, and joined again: what resolving a reference
//! against a base works on. Canonical XML's `xml:base` fixup and the
//! catalog resolver each resolve by their own rules (libxml2's and RFC
//! 3986 §5.2's), over these parts. A leaf: it names nothing of the crate.

/// The parts of a URI reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UriParts<'a> {
    pub(crate) scheme: Option<&'a str>,
    pub(crate) authority: Option<&'a str>,
    pub(crate) path: &'a str,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
}

impl<'a> UriParts<'a> {
    /// Splits `reference`: `scheme:`, `//authority`, the path, `?query`,
    /// `#fragment`, each but the path there or not.
    pub(crate) fn split(reference: &'a str) -> UriParts<'a> {
        let (rest, fragment) = match reference.split_once('#') {
            Some((rest, fragment)) => (rest, Some(fragment)),
            None => (reference, None),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((rest, query)) => (rest, Some(query)),
            None => (rest, None),
        };
        let scheme = scheme(rest);
        let rest = match scheme {
            Some(name) => &rest[name.len() + 1..],
            None => rest,
        };
        let (authority, path) = match rest.strip_prefix("//") {
            Some(after) => {
                let end = after.find('/').unwrap_or(after.len());
                (Some(&after[..end]), &after[end..])
            }
            None => (None, rest),
        };
        UriParts {
            scheme,
            authority,
            path,
            query,
            fragment,
        }
    }

    /// The reference these parts make.
    pub(crate) fn join(&self) -> String {
        let mut out = String::new();
        if let Some(scheme) = self.scheme {
            out.push_str(scheme);
            out.push(':');
        }
        if let Some(authority) = self.authority {
            out.push_str("//");
            out.push_str(authority);
        }
        out.push_str(self.path);
        if let Some(query) = self.query {
            out.push('?');
            out.push_str(query);
        }
        if let Some(fragment) = self.fragment {
            out.push('#');
            out.push_str(fragment);
        }
        out
    }
}

/// The scheme of a URI reference (`http` of `http://x`), if it has one:
/// letters, digits, `+`, `-` and `.` after a letter, then `:` (RFC 3986
/// §3.1). A one-letter scheme on Windows is a drive (`C:\dtd`).
pub(crate) fn scheme(reference: &str) -> Option<&str> {
    let colon = reference.find(':')?;
    let name = &reference[..colon];
    let mut chars = name.chars();
    let starts_with_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_fits = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let is_drive = cfg!(windows) && name.len() == 1;
    (starts_with_letter && rest_fits && !is_drive).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_splits_into_its_parts_and_joins_back() {
        for reference in [
            "http://e.org/a/b?q=1#f",
            "file:///etc/x.dtd",
            "../b/c.ent",
            "//host/p",
            "urn:publicid:-:x",
            "a#b:c",
            "",
        ] {
            assert_eq!(UriParts::split(reference).join(), reference);
        }
        let parts = UriParts::split("http://e.org/a/b?q=1#f");
        assert_eq!(
            (
                parts.scheme,
                parts.authority,
                parts.path,
                parts.query,
                parts.fragment
            ),
            (Some("http"), Some("e.org"), "/a/b", Some("q=1"), Some("f"))
        );
        assert_eq!(UriParts::split("a#b:c").scheme, None);
        assert_eq!(scheme("1x:y"), None);
    }
}
