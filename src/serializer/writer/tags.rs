//! Start and end tags written out. An unedited start tag is copied, with
//! the namespace declarations it needs added before its end; an edited or
//! broken one is patched around its attributes (each one kept keeps its
//! text, mended if broken, and the space before it); a new one is written
//! fresh. An end tag is copied, or written where the element now closes,
//! with the name its start tag was written with.

use std::collections::HashMap;

use crate::chars::is_xml_space;
use crate::dom::{is_namespace_of_undeclared, Attribute, Node};
use crate::serializer::escape::{
    push_attribute_value, repaired_name, repaired_qname, written_element_name,
};
use crate::serializer::namespaces::{
    forbidden_declaration, push_declarations, undeclares_prefix, Fixup,
};
use crate::serializer::options::RepairKind;
use crate::serializer::repair;
use crate::span::Span;

use super::Writer;

impl<'d> Writer<'d> {
    /// Writes an element's start tag (as an empty-element tag if it has no
    /// children and was written that way, or is new).
    pub(super) fn start_tag(&mut self, node: Node<'d>, has_children: bool) {
        let data = self.doc.data(node.id().0);
        let Some(tag_end) = data.element_tag_end() else {
            return;
        };
        let source_tag = self.source_span(node);
        let fixup = self.scopes.fixup(node);
        for _ in 0..fixup.undeclared {
            self.report(RepairKind::UndeclaredPrefix, node);
        }
        self.renamed = fixup.element_name.clone();
        let defaults_to_write = node
            .attributes()
            .any(|a| a.is_defaulted() && !self.default_only(node, a));
        match source_tag {
            Some(span)
                if !data.self_edited()
                    && fixup.renames_nothing()
                    && self.clean(span.start, tag_end)
                    && !defaults_to_write =>
            {
                // The original start tag, with declarations added before its
                // end, and turned from `<a/>` into `<a>` if it gained
                // children.
                let tag = &self.source()[span.start..tag_end];
                let self_closing = tag.ends_with("/>");
                let body = if self_closing {
                    &tag[..tag.len() - 2]
                } else {
                    &tag[..tag.len() - 1]
                };
                self.out.push_str(body);
                push_declarations(&mut self.out, &fixup.declarations, self.version);
                if self_closing && !has_children {
                    self.out.push_str("/>");
                } else {
                    self.out.push('>');
                    if !has_children {
                        self.empty_content(node);
                        self.end_tag(node);
                    }
                }
            }
            Some(span) => self.patched_start_tag(node, span, tag_end, has_children, &fixup),
            None => self.fresh_start_tag(node, has_children, &fixup),
        }
    }

    /// An element's name in the output ([`written_element_name`]),
    /// reporting the repair.
    fn writable_element_name(&mut self, node: Node<'_>) -> String {
        let written = written_element_name(node.name(), node.prefix().is_some());
        if written != node.name() {
            self.report(RepairKind::InvalidName, node);
        }
        written
    }

    /// An attribute's name in the output.
    fn attribute_name(
        &mut self,
        node: Node<'_>,
        fixup: &Fixup,
        index: usize,
        attribute: Attribute<'_>,
    ) -> String {
        let name = attribute.name();
        if let Some(renamed) = fixup.attribute_name(index) {
            return renamed.to_owned();
        }
        let report = |writer: &mut Self| match attribute.source_span() {
            Some(span) => writer.report_at(RepairKind::InvalidName, span.start),
            None => writer.report(RepairKind::InvalidName, node),
        };
        if (attribute.declared_prefix().is_none() && forbidden_declaration(name))
            || undeclares_prefix(attribute)
        {
            // A declaration XML forbids stays an ordinary attribute.
            report(self);
            return repaired_name(&format!("_{name}"));
        }
        let repaired = if attribute.prefix().is_some() {
            repaired_qname(name)
        } else {
            repaired_name(name)
        };
        if repaired != name {
            report(self);
        }
        repaired
    }

    /// A start tag written from scratch.
    fn fresh_start_tag(&mut self, node: Node<'d>, has_children: bool, fixup: &Fixup) {
        let name = match &fixup.element_name {
            Some(name) => name.clone(),
            None => self.writable_element_name(node),
        };
        self.out.push('<');
        self.out.push_str(&name);
        let mut written: Vec<String> = Vec::new();
        for (index, attribute) in node.attributes().enumerate() {
            if self.default_only(node, attribute) {
                continue;
            }
            let attribute_name = self.attribute_name(node, fixup, index, attribute);
            if written.contains(&attribute_name) {
                self.report(RepairKind::DuplicateAttribute, node);
                continue;
            }
            self.push_attribute(node, &attribute_name, attribute.value());
            written.push(attribute_name);
        }
        push_declarations(&mut self.out, &fixup.declarations, self.version);
        self.out.push_str(if has_children { ">" } else { "/>" });
    }

    /// Whether `attribute` of `node` is one the DTD written out supplies:
    /// defaulted, unchanged, its declaration kept, and the element still of
    /// the name it declares it for (unedited, or its source name kept).
    /// The output keeps the DTD, which supplies it again; repaired output
    /// drops the internal subset, so it writes the attribute.
    fn default_only(&self, node: Node<'_>, attribute: Attribute<'_>) -> bool {
        let renamed = self.doc.data(node.id().0).self_edited()
            && !self
                .source_span(node)
                .is_some_and(|span| self.renamed_none(node, span));
        attribute.is_defaulted() && !attribute.is_modified() && !self.attlists_dropped && !renamed
    }

    fn push_attribute(&mut self, node: Node<'_>, name: &str, value: &str) {
        self.out.push(' ');
        self.push_name_and_value(node, name, value, b'"');
    }

    fn push_name_and_value(&mut self, node: Node<'_>, name: &str, value: &str, quote: u8) {
        self.out.push_str(name);
        self.out.push('=');
        self.out.push(quote as char);
        let mut forbidden = false;
        push_attribute_value(&mut self.out, value, quote, self.version, &mut forbidden);
        if forbidden {
            self.report(RepairKind::ForbiddenCharacter, node);
        }
        self.out.push(quote as char);
    }

    /// An edited or broken start tag: each original attribute still present
    /// keeps its place and the whitespace before it (and its source text if
    /// it did not change and is well-formed as written; a broken one is
    /// mended in place), removed ones disappear with the whitespace before
    /// them, new ones go after the others, and the tag ends as it did.
    /// Anything else in the source tag (stray characters) is left out.
    fn patched_start_tag(
        &mut self,
        node: Node<'d>,
        span: Span,
        tag_end: usize,
        has_children: bool,
        fixup: &Fixup,
    ) {
        let source = self.source();
        let tag = &source[span.start..tag_end];
        self.out.push('<');
        match &fixup.element_name {
            Some(name) => self.out.push_str(name),
            None => {
                let name = self.writable_element_name(node);
                self.out.push_str(&name);
            }
        }
        // A prefix no one declared gets its declaration (its placeholder,
        // or the registered namespace of a well-known prefix) where it is
        // first used (where `check` reports it): after the name, or before
        // the attribute.
        // (Each taken out once it is written; found by prefix, since a
        // broken tag may have thousands.)
        let mut placeholders: Vec<Option<(String, String)>> = fixup
            .declarations
            .iter()
            .filter(|(prefix, uri)| is_namespace_of_undeclared(prefix, uri))
            .cloned()
            .map(Some)
            .collect();
        let mut placeholder_at: HashMap<String, usize> = HashMap::new();
        for (i, declaration) in placeholders.iter().enumerate().rev() {
            if let Some((prefix, _)) = declaration {
                placeholder_at.insert(prefix.clone(), i);
            }
        }
        let mut place = |writer: &mut Self, prefix: Option<&str>| {
            // The fixup declared the prefix as it can be written.
            let Some(prefix) = prefix.map(repaired_name) else {
                return;
            };
            let at = placeholder_at.remove(&prefix);
            if let Some(declaration) = at.and_then(|i| placeholders[i].take()) {
                push_declarations(
                    &mut writer.out,
                    std::slice::from_ref(&declaration),
                    writer.version,
                );
            }
        };
        place(self, node.prefix());
        // Where the text between attributes starts: after the name, then
        // after each attribute.
        let mut gap_start = span.start + 1 + original_name(&tag[1..]).len();
        // The names written so far, where repairs may make two the same.
        let mut written = std::collections::HashSet::new();
        for (index, attribute) in node.attributes().enumerate() {
            if attribute.source_span().is_none() && self.default_only(node, attribute) {
                continue;
            }
            place(self, attribute.prefix());
            let renamed = fixup.attribute_name(index).is_some();
            let rewrite = attribute.is_modified() || renamed;
            let copy = attribute
                .source_span()
                .filter(|o| !rewrite && self.clean(o.start, o.end));
            let name = match copy {
                Some(_) => attribute.name().to_owned(),
                None => self.attribute_name(node, fixup, index, attribute),
            };
            if self.repair && !written.insert(name.clone()) {
                self.report(RepairKind::DuplicateAttribute, node);
                if let Some(original) = attribute.source_span() {
                    gap_start = original.end;
                }
                continue;
            }
            match attribute.source_span() {
                Some(original) => {
                    let gap = gap_start.min(original.start);
                    let before = &source[gap..original.start];
                    let space = &before[before.trim_end_matches(is_xml_space).len()..];
                    if self.repair {
                        self.report_gap(gap, original.start, before.len() - space.len());
                        if space.is_empty() {
                            self.report_at(RepairKind::MarkupRewritten, original.start);
                        }
                    }
                    self.out
                        .push_str(if space.is_empty() { " " } else { space });
                    gap_start = original.end;
                    if copy.is_some() {
                        self.out.push_str(&source[original.range()]);
                    } else if rewrite || self.refers_to_undeclared(original.start, original.end) {
                        let quote = attribute.source_quote().unwrap_or(b'"');
                        self.push_name_and_value(node, &name, attribute.value(), quote);
                    } else {
                        self.repaired_attribute(node, &name, attribute, original);
                    }
                }
                None => {
                    self.out.push(' ');
                    self.push_name_and_value(node, &name, attribute.value(), b'"');
                }
            }
        }
        let mut rest: Vec<(String, String)> = fixup
            .declarations
            .iter()
            .filter(|(prefix, uri)| !is_namespace_of_undeclared(prefix, uri))
            .cloned()
            .collect();
        rest.extend(placeholders.into_iter().flatten());
        push_declarations(&mut self.out, &rest, self.version);
        // The original end of the tag: the space before `>` or `/>` (a tag
        // cut off by the end of the input has neither).
        let (self_closing, closer) = if tag.ends_with("/>") {
            (true, 2)
        } else if tag.ends_with('>') {
            (false, 1)
        } else {
            (false, 0)
        };
        let body = &tag[..tag.len() - closer];
        let trailing = &body[body.trim_end_matches(is_xml_space).len()..];
        let last_gap = body.get(gap_start - span.start..).unwrap_or_default();
        if self.repair {
            let dropped = last_gap.len().saturating_sub(trailing.len());
            self.report_gap(gap_start, span.start + body.len(), dropped);
        }
        if self.repair && closer == 0 {
            self.report(RepairKind::Closed, node);
        }
        self.out.push_str(trailing);
        if has_children || !self_closing {
            self.out.push('>');
            if !has_children {
                self.empty_content(node);
                self.end_tag(node);
            }
        } else {
            self.out.push_str("/>");
        }
    }

    /// Reports what a start tag's output leaves out of `start..end`, the
    /// text between two attributes (or after the last) less the whitespace
    /// kept: `dropped` bytes, the attributes the tree dropped as duplicates
    /// and stray characters.
    fn report_gap(&mut self, start: usize, end: usize, dropped: usize) {
        use crate::error::ErrorCode::{DuplicateAttribute, DuplicateNamespacedAttribute};
        if dropped == 0 {
            return;
        }
        let errors: Vec<_> = self.broken.within(start, end).to_vec();
        for &(at, code) in &errors {
            let kind = match code {
                DuplicateAttribute | DuplicateNamespacedAttribute => RepairKind::MarkupDropped,
                _ => RepairKind::MarkupRewritten,
            };
            self.report_at(kind, at);
        }
        if errors.is_empty() {
            self.report_at(RepairKind::MarkupRewritten, start);
        }
    }

    /// An attribute with an error in it, written with its name as it can
    /// be written, `=`, and its value copied with each broken spot mended,
    /// in its quotes (an unquoted value gets `"`, or `'` if it holds `"`).
    fn repaired_attribute(
        &mut self,
        node: Node<'_>,
        name: &str,
        attribute: Attribute<'_>,
        original: Span,
    ) {
        let source = self.source();
        let Some(value) = attribute.source_value_span() else {
            // `<a x>`: the tree holds an empty value.
            self.report_at(RepairKind::AttributeRewritten, original.start);
            self.out.push_str(name);
            self.out.push_str("=\"\"");
            return;
        };
        let quoted = attribute.source_quote();
        let raw = &source[value.range()];
        let quote = quoted.unwrap_or(if raw.contains('"') && !raw.contains('\'') {
            b'\''
        } else {
            b'"'
        });
        if quoted.is_none() {
            self.report_at(RepairKind::AttributeRewritten, value.start);
        }
        // The name and `=` as written, if the name is.
        if name == attribute.name() && self.clean(original.start, value.start) {
            let head = &source[original.start..value.start];
            let head = head.strip_suffix(['"', '\'']).unwrap_or(head);
            self.out.push_str(head);
        } else {
            // A name written anew keeps the spacing around its `=`.
            let head = &source[original.start..value.start];
            let head = head.strip_suffix(['"', '\'']).unwrap_or(head);
            let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
            let equals = head
                .rfind('=')
                .map(|at| &head[head[..at].trim_end_matches(space).len()..])
                .filter(|equals| equals.chars().all(|c| c == '=' || space(c)));
            self.out.push_str(name);
            self.out.push_str(
                equals
                    .filter(|e| e.matches('=').count() == 1)
                    .unwrap_or("="),
            );
        }
        self.out.push(quote as char);
        let context = repair::Context::Value { quote };
        if self.copy_repaired(value, context).is_err() {
            self.report_at(RepairKind::AttributeRewritten, value.start);
            let mut forbidden = false;
            push_attribute_value(
                &mut self.out,
                attribute.value(),
                quote,
                self.version,
                &mut forbidden,
            );
            if forbidden {
                self.report(RepairKind::ForbiddenCharacter, node);
            }
        }
        self.out.push(quote as char);
    }

    pub(super) fn end_tag(&mut self, node: Node<'_>) {
        if let Some(name) = self.renamed.take() {
            self.out.push_str("</");
            self.out.push_str(&name);
            self.out.push('>');
            return;
        }
        let data = self.doc.data(node.id().0);
        if let Some(span) = self.source_span(node) {
            match self.doc.end_tag(node.id().0) {
                Some(end) if self.renamed_none(node, span) => {
                    // A `mismatched-end-tag` there is about the elements it
                    // closes, not about the tag.
                    let broken = self
                        .broken
                        .within(end.start, end.end)
                        .iter()
                        .find(|&&(_, code)| code != crate::error::ErrorCode::MismatchedEndTag)
                        .copied();
                    let Some((at, code)) = broken else {
                        self.out.push_str(&self.source()[end.range()]);
                        return;
                    };
                    // `</a x>`, `</>`: the name alone; or an end tag an
                    // entity's replacement text held, written out.
                    let kind = if code == crate::error::ErrorCode::UnbalancedEntityReference {
                        RepairKind::EntityExpanded
                    } else {
                        RepairKind::MarkupRewritten
                    };
                    self.report_at(kind, at);
                }
                Some(_) => {}
                // Closed by another element's end tag, or by the end of the
                // input: the end tag goes where the element now ends.
                None if self.repair && !data.self_edited() => {
                    self.report_at(RepairKind::EndTagAdded, span.end);
                }
                None => {}
            }
        }
        self.fresh_end_tag(node);
    }

    /// Whether an element's name is still the one its start tag has in the
    /// source (an edit may have renamed it).
    fn renamed_none(&self, node: Node<'_>, span: Span) -> bool {
        let name = node.name();
        original_name(&self.source()[span.start + 1..]) == name
            && written_element_name(name, node.prefix().is_some()) == name
    }

    fn fresh_end_tag(&mut self, node: Node<'_>) {
        let name = written_element_name(node.name(), node.prefix().is_some());
        self.out.push_str("</");
        self.out.push_str(&name);
        self.out.push('>');
    }
}

/// The element name at the start of a tag's source (after its `<`).
fn original_name(after_lt: &str) -> &str {
    let end = after_lt
        .find([' ', '\t', '\n', '\r', '/', '>'])
        .unwrap_or(after_lt.len());
    &after_lt[..end]
}
