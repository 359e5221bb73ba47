//! The XML declaration and the DOCTYPE written out. The declaration is
//! made to name the output's encoding, its values mended; the DOCTYPE is
//! copied where it may be, and else written anew from its name, identifiers
//! and internal subset (less the declarations the repairs drop), without
//! what XML cannot carry.

use crate::chars::{is_name, is_xml_space};
use crate::dom::Node;
use crate::error::ErrorCode;
use crate::serializer::escape::{
    push_quoted, quotable, repaired_name, repaired_qname, replace_forbidden,
};
use crate::serializer::options::{Repair, RepairKind};
use crate::serializer::repair;
use crate::span::Span;

use super::Writer;

impl<'d> Writer<'d> {
    pub(super) fn declaration(&mut self) {
        // A byte-order mark in the text goes back out as it came in.
        if self.source().starts_with('\u{FEFF}') {
            self.out.push('\u{FEFF}');
        }
        let target = self.target;
        let Some(declaration) = self.doc.xml_declaration() else {
            // Without a declaration a reader assumes UTF-8 or UTF-16 (or
            // what it detects, as for UTF-32); a document written back in
            // the encoding it was read in stays as it was.
            if needs_declaration(target) && target != self.doc.encoding() {
                self.out.push_str("<?xml version=\"1.0\" encoding=\"");
                self.out.push_str(target.declared_name());
                self.out.push_str("\"?>");
            }
            return;
        };
        let span = declaration.span;
        let clean = self.clean(span.start, span.end);
        if clean || self.only_label_broken(span) {
            // A label the input could not be read by is mended in place:
            // the output names the encoding it is written in.
            let text = &self.doc.source()[span.range()];
            let label = declaration.encoding.as_deref();
            let written = declaration_for(text, label, target, target == self.doc.encoding());
            if !clean && written != text {
                self.repairs.push(Repair {
                    kind: RepairKind::XmlDeclarationChanged,
                    offset: Some(span.start),
                });
            }
            self.out.push_str(&written);
            return;
        }
        let version_ok = declaration.version.as_deref().is_some_and(|v| {
            v.strip_prefix("1.")
                .is_some_and(|m| !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit()))
        });
        let version = if version_ok {
            declaration.version.as_deref().unwrap_or("1.0")
        } else {
            "1.0"
        };
        let standalone = declaration
            .standalone
            .as_deref()
            .filter(|s| *s == "yes" || *s == "no");
        let encoding_changed = self.label_broken(span)
            || declaration
                .encoding
                .as_deref()
                .is_some_and(|e| crate::decoding::Encoding::for_label(e).is_none());
        if !version_ok
            || encoding_changed
            || standalone.is_none() != declaration.standalone.is_none()
        {
            self.repairs.push(Repair {
                kind: RepairKind::XmlDeclarationChanged,
                offset: Some(declaration.span.start),
            });
        }
        self.out.push_str("<?xml version=\"");
        self.out.push_str(version);
        self.out.push('"');
        if declaration.encoding.is_some() || needs_declaration(target) {
            self.out.push_str(" encoding=\"");
            self.out.push_str(target.declared_name());
            self.out.push('"');
        }
        if let Some(standalone) = standalone {
            self.out.push_str(" standalone=\"");
            self.out.push_str(standalone);
            self.out.push('"');
        }
        self.out.push_str("?>");
    }

    /// Whether the XML declaration at `span` has an error about its
    /// encoding label (`unknown-encoding`, `encoding-mismatch`).
    fn label_broken(&self, span: Span) -> bool {
        self.repair
            && self
                .broken
                .within(span.start, span.end)
                .iter()
                .any(|&(_, code)| is_label_error(code))
    }

    /// Whether the XML declaration at `span` has errors, all of them
    /// about its encoding label: then only the label is mended.
    fn only_label_broken(&self, span: Span) -> bool {
        let errors = self.broken.within(span.start, span.end);
        self.repair && !errors.is_empty() && errors.iter().all(|&(_, code)| is_label_error(code))
    }

    pub(super) fn doctype(&mut self, node: Node<'_>) {
        let data = self.doc.data(node.id().0);
        let Some(index) = data.doctype_index() else {
            return;
        };
        let fields = &self.doc.doctype_records()[index];
        let subset = fields.subset_span;
        if let (Some(span), None, false) = (self.source_span(node), subset, data.edited()) {
            // As written, or with only a forbidden character replaced.
            if let Some(text) = self.characters_replaced(node, span.start, span.end) {
                self.report_doctype_characters(node, span.start, span.end, &text);
                self.out.push_str(&text);
                return;
            }
        }
        // The internal subset as written, less its broken declarations.
        let kept_subset = match (self.source_span(node), subset) {
            (Some(_), Some(subset)) if self.repair => {
                let mut made = Vec::new();
                let text =
                    repair::kept_subset(&self.broken, subset, &fields.subset_items, &mut made);
                for (kind, at) in made {
                    self.report_at(kind, at);
                }
                Some(text)
            }
            (Some(_), Some(subset)) => Some(self.source()[subset.range()].to_owned()),
            _ => None,
        };
        // The part before the subset, if it is well-formed as written.
        if let (Some(span), Some(subset), Some(kept)) =
            (self.source_span(node), subset, &kept_subset)
        {
            let head = match data.edited() {
                false => self.characters_replaced(node, span.start, subset.start),
                true => None,
            };
            if let Some(head) = head {
                self.report_doctype_characters(node, span.start, subset.start, &head);
                let source = self.source();
                self.out.push_str(&head);
                self.out.push_str(kept);
                let tail = &source[subset.end..span.end];
                if self
                    .characters_replaced(node, subset.end, span.end)
                    .as_deref()
                    == Some(tail)
                    && tail.starts_with(']')
                    && tail.ends_with('>')
                {
                    self.out.push_str(tail);
                } else {
                    self.report(RepairKind::Closed, node);
                    self.out.push_str("]>");
                }
                return;
            }
        }
        // Stray characters after the identifiers (`"x.dtd"<>`): the header
        // up to its last identifier is copied, the rest written anew.
        if let (Some(span), false) = (self.source_span(node), data.edited()) {
            let head_end = subset.map_or(span.end, |subset| subset.start);
            let end = self.doctype_identifiers_end(node, span.start, head_end);
            if let Some(end) = end.filter(|&end| self.clean(span.start, end)) {
                self.report(RepairKind::MarkupRewritten, node);
                let source = self.source();
                self.out.push_str(&source[span.start..end]);
                if let Some(kept) = kept_subset {
                    self.out.push_str(" [");
                    self.out.push_str(&kept);
                    self.out.push(']');
                }
                self.out.push('>');
                return;
            }
        }
        let reported = self.repairs.len();
        let mut name = self.doctype_name(node);
        if !is_name(&name) {
            // Without a subset, a DOCTYPE without a valid name says nothing
            // XML needs; with one, it keeps its declarations under a name.
            self.report(RepairKind::DoctypeChanged, node);
            if kept_subset.is_none() {
                return;
            }
            name = match self.doc.root_element() {
                Some(root) if name.is_empty() => repaired_qname(root.name()),
                _ => repaired_name(&name),
            };
        }
        self.out.push_str("<!DOCTYPE ");
        self.out.push_str(&name);
        match (node.public_id(), node.system_id()) {
            (Some(public), Some(system)) if quotable(system) => {
                self.out.push_str(" PUBLIC ");
                if public.chars().all(crate::chars::is_pubid_char) {
                    push_quoted(&mut self.out, public);
                } else {
                    // Characters outside `PubidChar` left out, whitespace
                    // a space.
                    self.report(RepairKind::DoctypeChanged, node);
                    let public: String = public
                        .chars()
                        .filter_map(|c| match c {
                            _ if crate::chars::is_pubid_char(c) => Some(c),
                            _ if c.is_whitespace() => Some(' '),
                            _ => None,
                        })
                        .collect();
                    push_quoted(&mut self.out, &public);
                }
                self.out.push(' ');
                let mut forbidden = false;
                let system = replace_forbidden(system, &mut forbidden);
                if forbidden {
                    self.report(RepairKind::ForbiddenCharacter, node);
                }
                push_quoted(&mut self.out, &system);
            }
            (None, Some(system)) if quotable(system) => {
                self.out.push_str(" SYSTEM ");
                let mut forbidden = false;
                let system = replace_forbidden(system, &mut forbidden);
                if forbidden {
                    self.report(RepairKind::ForbiddenCharacter, node);
                }
                push_quoted(&mut self.out, &system);
            }
            (None, None) => {}
            _ => self.report(RepairKind::DoctypeChanged, node),
        }
        if let Some(kept) = kept_subset {
            self.out.push_str(" [");
            self.out.push_str(&kept);
            self.out.push(']');
        }
        self.out.push('>');
        // Written anew from the tree, which left out what XML5's recovery
        // skipped (`<!DOCTYPE a PUB&LIC "...">` keeps no identifiers).
        if let (Some(span), false) = (self.source_span(node), data.edited()) {
            let head_end = subset.map_or(span.end, |subset| subset.start);
            if self.repairs.len() == reported && !self.clean(span.start, head_end) {
                self.report(RepairKind::DoctypeChanged, node);
            }
        }
    }

    /// The source `start..end` of a DOCTYPE with forbidden characters
    /// replaced, if those are its only errors.
    fn characters_replaced(&self, node: Node<'_>, start: usize, end: usize) -> Option<String> {
        if !self.repair {
            return Some(self.source().get(start..end)?.to_owned());
        }
        let name = self.mended_doctype_name(node);
        let name = name.as_ref().map(|(span, name)| (*span, name.as_str()));
        self.broken.with_characters_replaced(start, end, name)
    }

    /// Where a DOCTYPE's name that is not a name is written, and the name
    /// it becomes.
    fn mended_doctype_name(&self, node: Node<'_>) -> Option<(Span, String)> {
        let name = node.name();
        if name.is_empty() || is_name(name) {
            return None;
        }
        let span = self.source_span(node)?;
        let raw = self.source().get(span.range())?;
        let after = raw
            .get("<!DOCTYPE".len()..)?
            .trim_start_matches([' ', '\t', '\n', '\r']);
        let start = span.start + raw.len() - after.len();
        let written = after.get(..name.len())?;
        let next = after[name.len()..].chars().next();
        let ends = matches!(next, Some(' ' | '\t' | '\n' | '\r' | '>' | '['));
        (ends && written.eq_ignore_ascii_case(name)).then(|| {
            (
                Span::new(start, start + name.len()),
                repaired_qname(written),
            )
        })
    }

    /// Reports what [`characters_replaced`](Self::characters_replaced)
    /// changed in a DOCTYPE's `start..end`, written as `text`.
    fn report_doctype_characters(&mut self, node: Node<'_>, start: usize, end: usize, text: &str) {
        if !self.repair || text == &self.source()[start..end] {
            return;
        }
        if self.broken.public_identifier_broken(start, end) {
            self.report(RepairKind::DoctypeChanged, node);
        }
        if let Some((span, _)) = self.mended_doctype_name(node) {
            if (start..end).contains(&span.start) {
                self.report_at(RepairKind::InvalidName, span.start);
            }
        }
        let replacements = |s: &str| s.matches('\u{FFFD}').count();
        if replacements(text) > replacements(&self.source()[start..end]) {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
    }

    /// Where a DOCTYPE's last identifier (or, without one, its name) ends
    /// in its header `start..end`, if the tree holds it as written there.
    fn doctype_identifiers_end(&self, node: Node<'_>, start: usize, end: usize) -> Option<usize> {
        let head = self.source().get(start..end)?;
        match node.system_id().or(node.public_id()) {
            Some(last) => ['"', '\'']
                .iter()
                .filter_map(|&quote| {
                    let quoted = format!("{quote}{last}{quote}");
                    head.rfind(&quoted).map(|at| start + at + quoted.len())
                })
                .max(),
            None => {
                let name = self.doctype_name(node);
                let rest = head.strip_prefix("<!DOCTYPE")?;
                let after_space = rest.trim_start_matches([' ', '\t', '\n', '\r']);
                let spaced = after_space.len() < rest.len();
                (spaced && is_name(&name) && after_space.starts_with(&*name))
                    .then(|| end - after_space.len() + name.len())
            }
        }
    }

    /// A DOCTYPE's name as written: the tree holds it lowercased (as XML5
    /// says), the source as the author wrote it, which the root element's
    /// name usually repeats.
    fn doctype_name(&self, node: Node<'_>) -> String {
        let name = node.name();
        if let Some(span) = self.source_span(node) {
            let raw = self.source()[span.range()]
                .get("<!DOCTYPE".len()..)
                .unwrap_or_default()
                .trim_start_matches([' ', '\t', '\n', '\r', '\u{C}']);
            let written = raw.get(..name.len()).unwrap_or_default();
            if written.eq_ignore_ascii_case(name) && is_name(written) {
                return written.to_owned();
            }
        }
        name.to_owned()
    }
}

/// The source text of an XML declaration, with its encoding made to say
/// `target`: the label replaced if it names another encoding, added after
/// the version if there is none and `target` needs one.
fn declaration_for(
    text: &str,
    label: Option<&str>,
    target: crate::decoding::Encoding,
    own: bool,
) -> String {
    match label {
        // (A label no table knows agrees with nothing: no reader could
        // read the output by it.)
        Some(label) if target.agrees_with(label) => text.to_owned(),
        Some(_) => match label_range(text) {
            Some(range) => format!(
                "{}{}{}",
                &text[..range.start],
                target.declared_name(),
                &text[range.end..]
            ),
            None => text.to_owned(),
        },
        // Written back in its own encoding, a declaration without a label
        // stays as it was.
        None if own || !needs_declaration(target) => text.to_owned(),
        None => {
            // After the version's closing quote.
            let version_end = text
                .find("version")
                .and_then(|v| {
                    let rest = &text[v..];
                    let open = rest.find(['"', '\''])?;
                    let quote = rest.as_bytes()[open] as char;
                    let close = rest[open + 1..].find(quote)?;
                    Some(v + open + 1 + close + 1)
                })
                .unwrap_or(5);
            format!(
                "{} encoding=\"{}\"{}",
                &text[..version_end],
                target.declared_name(),
                &text[version_end..]
            )
        }
    }
}

/// Where the value of the `encoding` pseudo-attribute is in the text of
/// an XML declaration: between the quotes after `encoding`, `=` and any
/// whitespace.
fn label_range(text: &str) -> Option<std::ops::Range<usize>> {
    let after_name = text.find("encoding")? + "encoding".len();
    let rest = text[after_name..].trim_start_matches(is_xml_space);
    let rest = rest.strip_prefix('=')?.trim_start_matches(is_xml_space);
    let quote = rest.chars().next().filter(|&q| q == '"' || q == '\'')?;
    let start = text.len() - rest.len() + 1;
    let len = text[start..].find(quote)?;
    Some(start..start + len)
}

/// The errors about an XML declaration's encoding label, which mending the
/// label repairs.
fn is_label_error(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::UnknownEncoding | ErrorCode::EncodingMismatch
    )
}

/// Whether a document in `encoding` needs an XML declaration to say so
/// (XML 1.0 §4.3.3: a reader assumes UTF-8 or UTF-16 without one).
fn needs_declaration(encoding: crate::decoding::Encoding) -> bool {
    encoding != crate::decoding::Encoding::UTF_8 && !encoding.is_utf16()
}
