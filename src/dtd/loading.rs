//! Reading what the DTD refers to outside the document, through the
//! caller's resolver ([`External`]): the external DTD subset, external
//! parameter entities and external parsed general entities.
//!
//! Text comes back decoded (by its byte-order mark or its text
//! declaration's `encoding`, XML 1.0 §4.3.3), without the text declaration
//! (§4.3.1), its line ends normalized (§2.11), with the URI it was read
//! from: the base of the references inside it. Without a resolver nothing
//! is read; a refusal is the warning `external-resource-unavailable`, and
//! the parse goes on without the text.

use std::sync::Arc;

use crate::error::ErrorCode;
use crate::external::{External, ExternalKind, ExternalRequest};

/// Text read from outside the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Loaded {
    /// The replacement text (for a parameter entity or the DTD subset:
    /// the declarations to read).
    pub(crate) text: Arc<str>,
    /// Where it was read from.
    pub(crate) uri: Arc<str>,
}

/// Why a reference was not read: the error to report, and what to say of
/// it (the system identifier, and the resolver's reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unread {
    pub(crate) code: ErrorCode,
    pub(crate) why: String,
}

/// One external reference: what it names and where it was written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reference<'a> {
    pub(crate) kind: ExternalKind,
    pub(crate) name: Option<&'a str>,
    pub(crate) public_id: Option<&'a str>,
    pub(crate) system_id: &'a str,
    /// The URI of the text the reference was declared in; `None` for the
    /// document itself (its base is `External::base`).
    pub(crate) base: Option<&'a str>,
}

/// Reads `reference` through the resolver, at most `max_bytes` of it.
/// `None` without a resolver (nothing is ever read then); the error to
/// report when the resolver refused it, or `input-size-limit` when it was
/// longer.
pub(crate) fn load(
    external: &External,
    reference: Reference<'_>,
    max_bytes: usize,
    xml11: bool,
) -> Option<Result<Loaded, Unread>> {
    let resolver = external.resolver.as_ref()?;
    let request = ExternalRequest {
        name: reference.name,
        public_id: reference.public_id,
        base: reference.base.or(external.base.as_deref()),
        ..ExternalRequest::new(reference.kind, reference.system_id)
    };
    let id = reference.system_id;
    let resolved = match resolver.resolve(&request) {
        Ok(resolved) => resolved,
        Err(refusal) => {
            return Some(Err(Unread {
                code: ErrorCode::ExternalResourceUnavailable,
                why: format!("{id:?}: {refusal}"),
            }))
        }
    };
    if resolved.bytes.len() > max_bytes {
        return Some(Err(Unread {
            code: ErrorCode::InputSizeLimit,
            why: format!(
                "{id:?}: {} bytes, more than the input limit leaves",
                resolved.bytes.len()
            ),
        }));
    }
    let decoded = crate::decoding::decode_text(&resolved.bytes);
    let text = without_text_declaration(&decoded);
    Some(Ok(Loaded {
        text: Arc::from(normalize_line_ends(text, xml11)),
        uri: Arc::from(resolved.uri),
    }))
}

/// `text` after its text declaration (`<?xml version? encoding?>`, XML 1.0
/// §4.3.1), if it starts with one.
fn without_text_declaration(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("<?xml") else {
        return text;
    };
    if !rest.starts_with([' ', '\t', '\r', '\n']) {
        return text; // `<?xml-stylesheet ...?>`, a PI of its own
    }
    match rest.find("?>") {
        Some(end) => &rest[end + 2..],
        None => text,
    }
}

/// CR LF and lone CR become LF (XML 1.0 §2.11); with `xml11` also CR NEL,
/// NEL and LINE SEPARATOR (XML 1.1 §2.11).
pub(super) fn normalize_line_ends(text: &str, xml11: bool) -> Box<str> {
    let text: std::borrow::Cow<'_, str> = if xml11 && text.contains(['\u{85}', '\u{2028}']) {
        text.replace("\r\u{85}", "\n")
            .replace(['\u{85}', '\u{2028}'], "\n")
            .into()
    } else {
        text.into()
    };
    if !text.contains('\r') {
        return text.into();
    }
    text.replace("\r\n", "\n").replace('\r', "\n").into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::{Refusal, Resolved, Resolver};

    #[derive(Debug)]
    struct Files(Vec<(&'static str, &'static [u8])>);

    impl Resolver for Files {
        fn resolve(&self, request: &ExternalRequest<'_>) -> Result<Resolved, Refusal> {
            let (uri, bytes) = self
                .0
                .iter()
                .find(|(uri, _)| *uri == request.system_id)
                .ok_or_else(|| Refusal::NotFound(request.system_id.into()))?;
            Ok(Resolved {
                uri: format!("mem:{uri}"),
                bytes: bytes.to_vec(),
            })
        }
    }

    fn reference(system_id: &str) -> Reference<'_> {
        Reference {
            kind: ExternalKind::GeneralEntity,
            name: Some("e"),
            public_id: None,
            system_id,
            base: None,
        }
    }

    fn external(files: Files) -> External {
        External {
            resolver: Some(Arc::new(files)),
            ..External::default()
        }
    }

    #[test]
    fn nothing_is_read_without_a_resolver() {
        assert_eq!(load(&External::default(), reference("a"), 100, false), None);
    }

    #[test]
    fn the_text_declaration_goes_and_the_encoding_it_names_is_used() {
        let files = Files(vec![
            ("latin", b"<?xml encoding='iso-8859-1'?>caf\xe9\r\n"),
            ("plain", b"<?xml-stylesheet href='s'?>x"),
            ("utf16", b"\xff\xfe<\0?\0x\0m\0l\0 \0?\0>\0y\0"),
        ]);
        let external = external(files);
        let text = |id| load(&external, reference(id), 100, false).unwrap().unwrap();
        assert_eq!(&*text("latin").text, "caf\u{e9}\n");
        assert_eq!(&*text("latin").uri, "mem:latin");
        assert_eq!(&*text("plain").text, "<?xml-stylesheet href='s'?>x");
        assert_eq!(&*text("utf16").text, "y");
    }

    #[test]
    fn refusals_and_files_too_long_are_errors() {
        let external = external(Files(vec![("long", b"0123456789")]));
        let load = |id, max| load(&external, reference(id), max, false).unwrap();
        let unread = load("none", 100).unwrap_err();
        assert_eq!(unread.code, ErrorCode::ExternalResourceUnavailable);
        assert_eq!(unread.why, "\"none\": not found: none");
        assert_eq!(load("long", 9).unwrap_err().code, ErrorCode::InputSizeLimit);
        assert!(load("long", 10).is_ok());
    }
}
