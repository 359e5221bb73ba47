//! Where an identifier points: URI references read as RFC 3986 reads them
//! (a scheme, resolution against a base, dot segments), `file:` URIs and
//! paths turned into each other, and the normalizations XML Catalogs
//! compares identifiers after (§6.2 public identifiers, §6.3 system
//! identifiers, §6.4 `urn:publicid:`). Pure functions over strings and
//! paths: nothing here touches the file system. A leaf of `resolve`.

use std::path::{Component, Path, PathBuf};

use crate::uri::UriParts;

/// What an identifier points at, as far as reading goes.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// A local file: a path (relative ones are relative to the base), or a
    /// `file:` URI's path.
    Local(PathBuf),
    /// Anything with another scheme (`http:`, `ftp:`, `urn:`, ...), or a
    /// `file:` URI naming another host: never read.
    Elsewhere(String),
}

/// The scheme of a URI reference (`http` of `http://x`), if it has one
/// (RFC 3986 §3.1; a one-letter one on Windows is a drive).
pub fn scheme(reference: &str) -> Option<&str> {
    crate::uri::scheme(reference)
}

/// What the system identifier `id` points at: a `file:` URI's path, a
/// path (percent escapes decoded: a system identifier is a URI
/// reference), or somewhere else. The fragment, if any, is dropped.
pub fn target(id: &str) -> Target {
    let id = id.split('#').next().unwrap_or_default();
    match scheme(id) {
        Some(name) if name.eq_ignore_ascii_case("file") => match file_uri_path(id) {
            Some(path) => Target::Local(path),
            None => Target::Elsewhere(id.to_owned()),
        },
        Some(_) => Target::Elsewhere(id.to_owned()),
        None => Target::Local(path_of(&percent_decode(id))),
    }
}

/// The path of a `file:` URI: `file:///a/b`, `file://localhost/a/b` and
/// `file:/a/b` are `/a/b`; `None` for a URI naming another host (a network
/// share).
pub fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let rest = &uri[5..]; // past `file:`
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let path = match rest.strip_prefix("//") {
        Some(after) => {
            let slash = after.find('/').unwrap_or(after.len());
            let host = &after[..slash];
            if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
                return None;
            }
            &after[slash..]
        }
        None => rest,
    };
    let decoded = percent_decode(path);
    // `/C:/dtd` is the Windows path `C:/dtd`.
    if cfg!(windows) {
        let bytes = decoded.as_slice();
        if bytes.len() >= 3 && bytes[0] == b'/' && bytes[2] == b':' {
            return Some(path_of(&decoded[1..]));
        }
    }
    Some(path_of(&decoded))
}

/// A path from the bytes of a decoded URI path.
fn path_of(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// `%HH` escapes turned into their bytes; a `%` that starts none is kept.
pub fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escaped = (bytes[at] == b'%')
            .then(|| bytes.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                at += 3;
            }
            None => {
                out.push(bytes[at]);
                at += 1;
            }
        }
    }
    out
}

/// The `file:` URI of an absolute path: `/a b/c.xml` is
/// `file:///a%20b/c.xml`.
pub fn file_uri(path: &Path) -> String {
    let text = path.to_string_lossy();
    let text = text.replace('\\', "/");
    let mut uri = String::from("file://");
    if !text.starts_with('/') {
        uri.push('/');
    }
    for &byte in text.as_bytes() {
        let plain = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&byte);
        match plain {
            true => uri.push(char::from(byte)),
            false => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

/// The folder a base names: a path or `file:` URI of a file, whose name
/// is dropped (a base that ends in `/` is the folder itself). `None` for a
/// base with another scheme: nothing local is relative to it.
pub fn base_folder(base: &str) -> Option<PathBuf> {
    let path = match target(base) {
        Target::Local(_) if scheme(base).is_none() => PathBuf::from(base),
        Target::Local(path) => path,
        Target::Elsewhere(_) => return None,
    };
    if base.ends_with('/') || (cfg!(windows) && base.ends_with('\\')) {
        return Some(path);
    }
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => Some(parent.to_path_buf()),
        _ => Some(PathBuf::from(".")),
    }
}

/// `path` with `.` dropped and each `..` taking off the component before
/// it, without asking the file system (so a `..` after a symbolic link is
/// not where the system would go: only for telling where a path that does
/// not exist would have been).
pub fn lexically_normal(path: &Path) -> PathBuf {
    let mut kept: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match kept.last() {
                Some(Component::Normal(_)) => {
                    kept.pop();
                }
                // `/..` is `/`.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => kept.push(component),
            },
            other => kept.push(other),
        }
    }
    kept.iter().collect()
}

/// The last segment of an identifier's path (`book.dtd` of
/// `dtd/book.dtd`), when it is a plain file name.
pub fn last_segment(path: &Path) -> Option<&Path> {
    match path.components().next_back()? {
        Component::Normal(name) => Some(Path::new(name)),
        _ => None,
    }
}

/// RFC 3986 §5.2.4: `.` and `..` segments removed.
fn remove_dot_segments(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut segments: Vec<&str> = Vec::new();
    let parts: Vec<&str> = path.split('/').collect();
    let last = parts.len().saturating_sub(1);
    // A path that ends in `.` or `..` ends in a folder: `/a/b/..` is `/a/`.
    let mut ends_in_folder = false;
    for (index, segment) in parts.iter().enumerate() {
        if index == 0 && absolute {
            continue;
        }
        match *segment {
            "." => ends_in_folder = index == last,
            ".." => {
                segments.pop();
                ends_in_folder = index == last;
            }
            other => {
                segments.push(other);
                ends_in_folder = false;
            }
        }
    }
    let mut out = String::with_capacity(path.len());
    if absolute {
        out.push('/');
    }
    out.push_str(&segments.join("/"));
    if ends_in_folder && !segments.is_empty() {
        out.push('/');
    }
    out
}

/// `reference` resolved against `base` (RFC 3986 §5.2.2): a reference
/// with a scheme stands alone, one without takes what it lacks from the
/// base.
pub fn resolve_reference(base: &str, reference: &str) -> String {
    let r = UriParts::split(reference);
    let b = UriParts::split(base);
    let (scheme, authority, path, query) = if r.scheme.is_some() {
        (r.scheme, r.authority, remove_dot_segments(r.path), r.query)
    } else if r.authority.is_some() {
        (b.scheme, r.authority, remove_dot_segments(r.path), r.query)
    } else if r.path.is_empty() {
        (
            b.scheme,
            b.authority,
            b.path.to_owned(),
            r.query.or(b.query),
        )
    } else if r.path.starts_with('/') {
        (b.scheme, b.authority, remove_dot_segments(r.path), r.query)
    } else {
        // §5.2.3: merged with the base's path up to its last `/`.
        let merged = match (b.authority.is_some(), b.path.is_empty()) {
            (true, true) => format!("/{}", r.path),
            _ => match b.path.rfind('/') {
                Some(slash) => format!("{}{}", &b.path[..=slash], r.path),
                None => r.path.to_owned(),
            },
        };
        (b.scheme, b.authority, remove_dot_segments(&merged), r.query)
    };
    UriParts {
        scheme,
        authority,
        path: &path,
        query,
        fragment: r.fragment,
    }
    .join()
}

/// XML Catalogs §6.2: runs of white space made one space, none at either
/// end.
pub fn normalize_public(id: &str) -> String {
    id.split([' ', '\t', '\r', '\n'])
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// XML Catalogs §6.3: the characters a URI may not hold (controls, space,
/// `"` `<` `>` `\` `^` `` ` `` `{` `|` `}`, DEL and everything beyond ASCII)
/// written as `%HH` of their UTF-8 bytes, so that identifiers compare
/// alike however they were written; the rest is kept (so normalizing
/// twice changes nothing).
pub fn normalize_system(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for &byte in id.as_bytes() {
        let disallowed = byte <= 0x20 || byte >= 0x7F || b"\"<>\\^`{|}".contains(&byte);
        match disallowed {
            true => out.push_str(&format!("%{byte:02X}")),
            false => out.push(char::from(byte)),
        }
    }
    out
}

/// XML Catalogs §6.4: the public identifier a `urn:publicid:` URN wraps
/// (`urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN` is `-//OASIS//DTD
/// DocBook XML V4.1.2//EN`); `None` for any other identifier.
pub fn unwrap_urn(id: &str) -> Option<String> {
    const PREFIX: &str = "urn:publicid:";
    let head = id.get(..PREFIX.len())?;
    if !head.eq_ignore_ascii_case(PREFIX) {
        return None;
    }
    let urn = &id[PREFIX.len()..];
    let mut out = String::with_capacity(urn.len());
    let mut rest = urn;
    while let Some(c) = rest.chars().next() {
        let (text, taken) = match c {
            '+' => (" ", 1),
            ':' => ("//", 1),
            ';' => ("::", 1),
            '%' => match rest.get(1..3).map(str::to_ascii_uppercase).as_deref() {
                Some("2B") => ("+", 3),
                Some("3A") => (":", 3),
                Some("2F") => ("/", 3),
                Some("3B") => (";", 3),
                Some("27") => ("'", 3),
                Some("3F") => ("?", 3),
                Some("23") => ("#", 3),
                Some("25") => ("%", 3),
                _ => ("%", 1),
            },
            _ => (&rest[..c.len_utf8()], c.len_utf8()),
        };
        out.push_str(text);
        rest = &rest[taken..];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_are_found_as_rfc_3986_has_them() {
        assert_eq!(scheme("http://x/y"), Some("http"));
        assert_eq!(scheme("file:///etc/passwd"), Some("file"));
        assert_eq!(scheme("urn:publicid:x"), Some("urn"));
        assert_eq!(scheme("svn+ssh://x"), Some("svn+ssh"));
        assert_eq!(scheme("book.dtd"), None);
        assert_eq!(scheme("a/b:c"), None);
        assert_eq!(scheme("1x:y"), None);
        assert_eq!(scheme(":x"), None);
    }

    #[test]
    fn targets_are_local_only_for_paths_and_local_file_uris() {
        let local = |p: &str| Target::Local(PathBuf::from(p));
        assert_eq!(target("book.dtd"), local("book.dtd"));
        assert_eq!(target("my%20book.dtd#frag"), local("my book.dtd"));
        assert_eq!(target("/etc/passwd"), local("/etc/passwd"));
        assert_eq!(target("file:///etc/passwd"), local("/etc/passwd"));
        assert_eq!(target("FILE://localhost/a/b"), local("/a/b"));
        assert_eq!(target("file:/a/b"), local("/a/b"));
        for elsewhere in [
            "http://x/a.dtd",
            "https://x",
            "ftp://x/y",
            "file://host/x",
            "jar:x",
        ] {
            assert_eq!(target(elsewhere), Target::Elsewhere(elsewhere.into()));
        }
    }

    #[test]
    fn file_uris_and_paths_go_both_ways() {
        let path = Path::new("/a b/c%d/é.xml");
        let uri = file_uri(path);
        assert_eq!(uri, "file:///a%20b/c%25d/%C3%A9.xml");
        assert_eq!(file_uri_path(&uri).as_deref(), Some(path));
    }

    #[test]
    fn a_base_names_a_file_whose_folder_is_used() {
        assert_eq!(base_folder("/a/b/doc.xml"), Some(PathBuf::from("/a/b")));
        assert_eq!(base_folder("/a/b/"), Some(PathBuf::from("/a/b/")));
        assert_eq!(base_folder("doc.xml"), Some(PathBuf::from(".")));
        assert_eq!(base_folder("file:///a/doc.xml"), Some(PathBuf::from("/a")));
        assert_eq!(base_folder("http://x/doc.xml"), None);
    }

    #[test]
    fn references_resolve_as_rfc_3986_section_5_4_says() {
        // RFC 3986 §5.4.1 and §5.4.2, against its base.
        let base = "http://a/b/c/d;p?q";
        for (reference, want) in [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
        ] {
            assert_eq!(resolve_reference(base, reference), want, "{reference:?}");
        }
        assert_eq!(
            resolve_reference("file:///cat/catalog.xml", "dtd/a.dtd"),
            "file:///cat/dtd/a.dtd"
        );
    }

    #[test]
    fn identifiers_are_normalized_as_xml_catalogs_section_6_says() {
        assert_eq!(
            normalize_public("  -//A//DTD\t\nB  C//EN "),
            "-//A//DTD B C//EN"
        );
        assert_eq!(normalize_system("a b/é{x}"), "a%20b/%C3%A9%7Bx%7D");
        let once = normalize_system("a b");
        assert_eq!(normalize_system(&once), once);
        assert_eq!(
            unwrap_urn("urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN").as_deref(),
            Some("-//OASIS//DTD DocBook XML V4.1.2//EN")
        );
        assert_eq!(
            unwrap_urn("URN:PUBLICID:a;b%2Bc%3a%25").as_deref(),
            Some("a::b+c:%")
        );
        assert_eq!(unwrap_urn("urn:isbn:1"), None);
    }

    #[test]
    fn lexical_normalization_takes_dots_out() {
        assert_eq!(
            lexically_normal(Path::new("/a/b/../c/./d")),
            Path::new("/a/c/d")
        );
        assert_eq!(
            lexically_normal(Path::new("/a/../../etc")),
            Path::new("/etc")
        );
        assert_eq!(
            last_segment(Path::new("x/y/book.dtd")),
            Some(Path::new("book.dtd"))
        );
        assert_eq!(last_segment(Path::new("x/..")), None);
    }
}
