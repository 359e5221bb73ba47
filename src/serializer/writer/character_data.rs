//! Text, comments and processing instructions written out. Text is copied
//! from its source where it may be, mended where its errors are, or else
//! escaped (its CDATA sections kept where XML can carry them), and a `]]>`
//! or CR LF across the join of two texts an edit brought together is
//! escaped; a comment loses its `--`, a processing instruction a target XML
//! cannot carry.

use crate::chars::{is_forbidden_char, is_name, is_xml_space};
use crate::dom::Node;
use crate::serializer::escape::{comment_text, push_text, repaired_name, replace_forbidden};
use crate::serializer::options::RepairKind;
use crate::serializer::repair;

use super::Writer;

impl<'d> Writer<'d> {
    pub(super) fn text(&mut self, node: Node<'_>) {
        let mark = self.out.len();
        self.text_node(node);
        // (Outside the root only whitespace is written, and its line ends
        // are not part of the tree.)
        if node.parent().is_some_and(|p| p.is_element()) {
            self.escape_joined_cdata_end(mark);
        }
    }

    /// Text written from `mark` on, after text that ended in `]` or `]]`
    /// (an edit took away what stood between): a `]]>` across the join
    /// gets its `>` escaped, and a line feed after a raw CR is written as a
    /// reference.
    fn escape_joined_cdata_end(&mut self, mark: usize) {
        // Likewise a raw CR then LF, which would read back as one line end.
        if mark > 0 && self.out[..mark].ends_with('\r') && self.out[mark..].starts_with('\n') {
            self.out.replace_range(mark..mark + 1, "&#10;");
        }
        let from = mark.saturating_sub(2);
        let Some(window) = self.out.get(from..(mark + 2).min(self.out.len())) else {
            return;
        };
        if let Some(i) = window.find("]]>") {
            let gt = from + i + 2;
            if gt >= mark && from + i < mark {
                self.out.replace_range(gt..gt + 1, "&gt;");
            }
        }
    }

    fn text_node(&mut self, node: Node<'_>) {
        let top_level = node.parent().is_some_and(|p| p.is_document());
        let verbatim = self
            .verbatim(node)
            .filter(|span| !(top_level && self.source()[span.range()].contains(['&', '<'])));
        if let Some(span) = verbatim {
            self.push_source(span);
            return;
        }
        let data = self.doc.data(node.id().0);
        if node.parent().is_some_and(|p| p.is_document()) {
            // Outside the root only whitespace can be; the tree keeps only
            // that of broken text, and it is written as it is in the source.
            let (written, from_source) = match (self.source_span(node), data.edited()) {
                // (Not a reference or CDATA: a node moved here from content.)
                (Some(span), false) if !self.source()[span.range()].contains(['&', '<']) => {
                    (&self.source()[span.range()], true)
                }
                _ => (node.text().unwrap_or(""), false),
            };
            let whitespace = if written.chars().all(is_xml_space) {
                written.to_owned()
            } else {
                crate::dom::kept_outside_root(written)
            };
            self.out.push_str(&whitespace);
            if !from_source && whitespace.len() != written.len() {
                // (Dropped source text was reported with its error.)
                self.report(RepairKind::MarkupDropped, node);
            }
            return;
        }
        let span = self
            .source_span(node)
            .filter(|span| !self.refers_to_undeclared(span.start, span.end));
        if let (Some(span), false) = (span, data.edited()) {
            // Broken text: its source, mended where the errors are.
            if self.copy_repaired(span, repair::Context::Text).is_ok() {
                return;
            }
            // Not mendable in place only for a reference whose replacement
            // text is at fault: it is written as what it stands for.
            if self.repair {
                self.report(RepairKind::EntityExpanded, node);
            }
        }
        let text = node.text().unwrap_or("");
        let mut forbidden = false;
        let mut at = 0;
        for range in node.cdata_ranges() {
            push_text(
                &mut self.out,
                &text[at..range.start],
                self.version,
                &mut forbidden,
            );
            let cdata = &text[range.clone()];
            let writable = !cdata.contains("]]>")
                && !cdata.contains('\r')
                && cdata.chars().all(|c| self.version.literal(c));
            if writable {
                self.out.push_str("<![CDATA[");
                self.out.push_str(cdata);
                self.out.push_str("]]>");
            } else {
                push_text(&mut self.out, cdata, self.version, &mut forbidden);
            }
            at = range.end;
        }
        push_text(&mut self.out, &text[at..], self.version, &mut forbidden);
        if forbidden {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
    }

    pub(super) fn comment(&mut self, node: Node<'_>) {
        if let Some(span) = self.verbatim(node) {
            self.out.push_str(&self.source()[span.range()]);
            return;
        }
        // The text as written where it is the tree's (its line ends kept),
        // else the tree's.
        let data = node.text().unwrap_or("");
        let written = self
            .source_span(node)
            .filter(|_| !self.doc.data(node.id().0).edited())
            .and_then(|span| comment_source(&self.source()[span.range()], data))
            .unwrap_or(data);
        let (text, changed) = comment_text(written);
        if changed {
            self.report(RepairKind::CommentText, node);
        } else {
            self.report_rewritten(node);
        }
        self.out.push_str("<!--");
        self.out.push_str(&text);
        self.out.push_str("-->");
    }

    /// Reports why a comment or PI of a repaired document was written anew,
    /// when its text did not change: it was cut off by the end of the input,
    /// or its delimiters were not XML's.
    fn report_rewritten(&mut self, node: Node<'_>) {
        let Some(span) = self.source_span(node).filter(|_| self.repair) else {
            return;
        };
        let errors = self.broken.within(span.start, span.end);
        let kind = if errors.iter().any(|&(_, code)| {
            matches!(
                code,
                crate::error::ErrorCode::EofInComment
                    | crate::error::ErrorCode::EofInProcessingInstruction
            )
        }) {
            RepairKind::Closed
        } else {
            RepairKind::MarkupRewritten
        };
        if !errors.is_empty() {
            self.report(kind, node);
        }
    }

    pub(super) fn processing_instruction(&mut self, node: Node<'_>) {
        if let Some(span) = self.verbatim(node) {
            self.out.push_str(&self.source()[span.range()]);
            return;
        }
        let target = node.name();
        let data = node.text().unwrap_or("");
        if data.contains("?>") {
            // Only an edit can put it there: XML has no way to write it.
            self.report(RepairKind::ProcessingInstructionAsComment, node);
            let (text, _) = comment_text(&format!("?{target} {data}?"));
            self.out.push_str("<!--");
            self.out.push_str(&text);
            self.out.push_str("-->");
            return;
        }
        // The target as written, if the PI was parsed (the tree's may be
        // cut by a limit), and the rest after it: only what XML cannot
        // carry changes there.
        let data_node = self.doc.data(node.id().0);
        let source = self
            .source_span(node)
            .filter(|_| !data_node.edited())
            .and_then(|span| {
                let text = self.source()[span.range()].get(2..)?;
                let end = text
                    .find([' ', '\t', '\n', '\r', '?'])
                    .unwrap_or(text.len());
                Some((&text[..end], &text[end..]))
            })
            .filter(|(written, _)| written.starts_with(target));
        let target = source.map_or(target, |(written, _)| written);
        let rest = source.map(|(_, rest)| rest);
        // A target that is not a name, or is `xml` (a misplaced or broken
        // XML declaration): renamed, so the PI stays a PI. (A colon in a
        // name the parse took is kept: docs/conformance.md, "Namespaces".)
        let written = if target.eq_ignore_ascii_case("xml") {
            format!("_{target}")
        } else if is_name(target) && target.chars().all(|c| !is_forbidden_char(c)) {
            target.to_owned()
        } else {
            repaired_name(target)
        };
        if written != target {
            self.report(RepairKind::InvalidName, node);
        }
        self.out.push_str("<?");
        self.out.push_str(&written);
        let mut forbidden = false;
        match rest {
            Some(rest) => {
                let closed = rest.ends_with("?>");
                let rest = rest
                    .strip_suffix("?>")
                    .unwrap_or(rest.strip_suffix('?').unwrap_or(rest));
                let rest = replace_forbidden(rest, &mut forbidden);
                self.out.push_str(&rest);
                if !closed {
                    self.report(RepairKind::Closed, node);
                }
            }
            None => {
                let data = replace_forbidden(data, &mut forbidden);
                if !data.is_empty() {
                    self.out.push(' ');
                    self.out.push_str(&data);
                }
            }
        }
        if forbidden {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
        self.out.push_str("?>");
    }
}

/// The text between a comment's delimiters in its source `raw`, if it is
/// the comment's `data` as written (line ends aside): for a comment closed
/// by `-->` or `--!>`, or cut off by the end of the input (which drops a
/// pending `-` or `--`).
fn comment_source<'r>(raw: &'r str, data: &str) -> Option<&'r str> {
    let body = raw.strip_prefix("<!--")?;
    let body = body
        .strip_suffix("-->")
        .or_else(|| body.strip_suffix("--!>"))
        .unwrap_or_else(|| {
            let dashes = body.len() - body.trim_end_matches('-').len();
            &body[..body.len() - dashes.min(2)]
        });
    let normalized = body
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}");
    (normalized == data).then_some(body)
}
