//! Elements (XML5 §1.5): "create an element for the token", the stack of
//! open elements, and the limits on both.
//!
//! The phases (`phases.rs`) call [`TreeBuilder::create_element_for_token`]
//! for a start or empty tag: past `max_element_depth` the tag is dropped
//! (with the content's end tags); otherwise its names are interned (cut to
//! `max_name_length`, attributes past `max_attributes` dropped), checked
//! against XML 1.0, resolved (`namespaces.rs`), completed from the
//! attribute-list declarations (`attribute_lists.rs`), and the element is
//! reported to the sink. The stack of open elements is pushed and popped
//! here, with a count per name so that "an element in scope" costs no walk
//! of the stack.

use std::borrow::Cow;

use crate::dom::QNameId;
use crate::dtd::AttributeType;
use crate::error::{ElementStart, ErrorCode, ErrorContext};
use crate::span::Span;
use crate::tokenizer::Tag;

use super::attribute_lists::{self, Declared};
use super::sink;
use super::{Open, ParsedAttribute, Phase, StartElement, TreeBuilder, TreeSink};

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// §1.5 "Create an element for the token" (which the spec leaves to be
    /// defined), for a start tag or, `empty`, an empty tag: the element is
    /// reported to the sink; returns its name with the binding-log mark to
    /// unwind to when it closes. `None` when the tag is dropped past
    /// `max_element_depth` (docs/robustness.md).
    #[inline]
    pub(super) fn create_element_for_token(
        &mut self,
        tag: &Tag<'_>,
        empty: bool,
    ) -> Option<(QNameId, usize)> {
        if self.past_depth_limit(tag.span.start) {
            if self.in_source() {
                self.sink.depth_dropped(tag.span, self.dropped_depth > 0);
            }
            self.dropped_depth += usize::from(!empty);
            return None;
        }
        let kept = self.kept_attributes(tag);
        self.intern_tag_names(tag, kept);
        if self.in_source() {
            self.checker.tag(tag, self.sink.names(), &self.tag_qnames);
            self.report_checks();
        }
        Some(self.create_element(tag, empty))
    }

    /// `name` cut to `max_name_length` bytes (on a character boundary),
    /// reporting `name-length-limit` at `offset` when it had to be.
    #[inline]
    pub(super) fn limited_name<'n>(&mut self, name: &'n str, offset: usize) -> &'n str {
        if name.len() <= self.limits.max_name_length {
            return name;
        }
        self.cut_name(name, offset)
    }

    /// [`limited_name`](Self::limited_name) of a name past the limit.
    #[cold]
    #[inline(never)]
    fn cut_name<'n>(&mut self, name: &'n str, offset: usize) -> &'n str {
        let max = self.limits.max_name_length;
        self.error(ErrorCode::NameLengthLimit, offset);
        let mut end = max;
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        &name[..end]
    }

    /// Whether a start tag at `offset` would nest deeper than
    /// `max_element_depth` (reported the first time).
    fn past_depth_limit(&mut self, offset: usize) -> bool {
        let Some(max) = self.limits.max_element_depth else {
            return false;
        };
        if self.stack.len() < max && self.dropped_depth == 0 {
            return false;
        }
        if !self.depth_reported {
            self.depth_reported = true;
            self.error(ErrorCode::ElementDepthLimit, offset);
        }
        true
    }

    /// How many of a tag's attributes are kept: all, up to
    /// `max_attributes` (reporting `attribute-limit` at the first dropped).
    fn kept_attributes(&mut self, tag: &Tag<'_>) -> usize {
        let count = tag.attributes.len();
        let max = self.limits.max_attributes;
        if count > max {
            let (span, _) = self.attribute_spans(tag, max);
            self.error(ErrorCode::AttributeLimit, span.start);
            return max;
        }
        count
    }

    /// The spans of a tag's attribute: in the source, or the reference's
    /// for a tag from a replacement text.
    fn attribute_spans(&self, tag: &Tag<'_>, index: usize) -> (Span, Option<Span>) {
        match self.reference_span() {
            Some(reference) => (reference, None),
            None => tag.attributes.spans_at(index),
        }
    }

    /// Interns the names of a start or empty tag into `tag_qnames`, for its
    /// first `kept` attributes.
    fn intern_tag_names(&mut self, tag: &Tag<'_>, kept: usize) {
        self.tag_qnames.clear();
        self.tag_declares = false;
        let name = self.limited_name(tag.name, tag.span.start + 1);
        let qname = self.sink.names_mut().qname(name);
        self.tag_qnames.push(qname);
        for index in 0..kept {
            let mut name = tag.attributes.name_at(index);
            if name.len() > self.limits.max_name_length {
                let offset = self.attribute_spans(tag, index).0.start;
                name = self.limited_name(name, offset);
            }
            self.tag_declares |= name.starts_with("xmlns");
            let qname = self.sink.names_mut().qname(name);
            self.tag_qnames.push(qname);
        }
    }

    /// Creates the element for a start or empty tag (whose names
    /// [`intern_tag_names`](Self::intern_tag_names) interned) and reports it
    /// to the sink; returns its name with the binding-log mark to unwind
    /// to.
    fn create_element(&mut self, tag: &Tag<'_>, empty: bool) -> (QNameId, usize) {
        // Text before the tag goes to the current node, before this
        // element's declarations come into scope.
        self.flush_text();
        let mark = self.scopes.mark();
        let kept = self.tag_qnames.len() - 1;
        let lists = self.attribute_lists_of(tag, kept);
        let defaults = lists.as_ref().map_or(&[][..], |d| &d.defaults[..]);
        // Declarations first: they apply to the element's own names.
        self.bind_declarations(tag, kept, defaults);

        let qname = self.tag_qnames[0];
        let namespace = self.resolve(qname, true, tag.span.start);
        let name = self.sink.names_mut().name(qname, namespace);

        let mut attributes = sink::recycle(std::mem::take(&mut self.tag_attributes));
        self.seen_attributes.clear();
        let types = lists.as_ref().map(|d| &d.types[..]);
        self.push_written_attributes(tag, kept, types, &mut attributes);
        if let Some(lists) = &lists {
            self.push_defaults(&mut attributes, &lists.defaults, tag.span.start);
        }
        self.sink.start_element(&StartElement {
            name,
            attributes: &attributes,
            span: tag.span,
            empty,
        });
        self.tag_attributes = sink::recycle(attributes);
        (qname, mark)
    }

    /// The attribute-list declarations that apply to the tag being built,
    /// if the internal subset has any.
    #[inline]
    fn attribute_lists_of(&mut self, tag: &Tag<'_>, kept: usize) -> Option<Declared> {
        match &self.declarations {
            Some(declarations) if declarations.has_attribute_lists() => {
                let element = self
                    .sink
                    .names()
                    .qname_data(self.tag_qnames[0])
                    .text
                    .clone();
                self.declared_attributes(&element, tag, kept)
            }
            _ => None,
        }
    }

    /// Resolves the first `kept` attributes of `tag` (their declarations
    /// already bound) and adds them to `attributes`, leaving out a second
    /// one of an expanded name; `types` are their declared types.
    fn push_written_attributes<'a>(
        &mut self,
        tag: &Tag<'a>,
        kept: usize,
        types: Option<&[Option<AttributeType>]>,
        attributes: &mut Vec<ParsedAttribute<'a>>,
    ) {
        for index in 0..kept {
            let (span, value_span) = self.attribute_spans(tag, index);
            let value = tag.attributes.value_at(index);
            let qname = self.tag_qnames[index + 1];
            let namespace = self.attribute_namespace(index, qname, value, span.start);
            if let Some(ns) = namespace {
                if self.is_duplicate(attributes, ns, qname) {
                    self.error(ErrorCode::DuplicateNamespacedAttribute, span.start);
                    continue;
                }
            }
            let name = self.sink.names_mut().name(qname, namespace);
            let kind = types.and_then(|types| types[index]);
            let collapsed = kind
                .filter(|kind| kind.is_tokenized())
                .and_then(|_| attribute_lists::collapse_spaces(value));
            let value_at = value_span
                .filter(|at| collapsed.is_none() && self.checker.source.is_at(value, at.start))
                .map(|at| at.start);
            attributes.push(ParsedAttribute {
                name,
                value: collapsed.map_or(Cow::Borrowed(value), Cow::Owned),
                span: Some(span),
                value_span,
                value_at,
                is_id: kind == Some(AttributeType::Id),
            });
        }
    }

    /// Adds the attributes the declared defaults supply to those of the
    /// tag.
    fn push_defaults<'a>(
        &mut self,
        attributes: &mut Vec<ParsedAttribute<'a>>,
        defaults: &'a [(Box<str>, String, AttributeType)],
        offset: usize,
    ) {
        for (name, value, kind) in defaults {
            let qname = self.sink.names_mut().qname(name);
            let namespace = self.default_attribute_namespace(name, value, qname, offset);
            if let Some(ns) = namespace {
                if self.is_duplicate(attributes, ns, qname) {
                    self.error(ErrorCode::DuplicateNamespacedAttribute, offset);
                    continue;
                }
            }
            let name = self.sink.names_mut().name(qname, namespace);
            attributes.push(ParsedAttribute {
                name,
                value: Cow::Borrowed(value),
                span: None,
                value_span: None,
                value_at: None,
                is_id: *kind == AttributeType::Id,
            });
        }
    }

    /// Pushes an element onto the stack of open elements (§1.5 "insert an
    /// element"), with the binding-log mark its close unwinds to.
    #[inline]
    pub(super) fn push_open(&mut self, qname: QNameId, bindings: usize) {
        let index = qname.0 as usize;
        if self.open_counts.len() <= index {
            self.open_counts.resize(index + 1, 0);
        }
        self.open_counts[index] += 1;
        let bindings = u32::try_from(bindings).unwrap_or(u32::MAX);
        self.stack.push(Open { qname, bindings });
    }

    /// Pops the current element; its span now ends at `end`, and
    /// `end_tag` is the end tag that closed it, if one did. Popping the last
    /// open element switches to the end phase (§1.5 Main phase: "If there
    /// are no more elements on the stack of open elements switch to the end
    /// phase"), but not in a fragment, whose context element stays open.
    pub(super) fn pop(&mut self, end: usize, end_tag: Option<Span>) {
        self.flush_text();
        self.note_pop();
        if let Some(open) = self.stack.pop() {
            self.open_counts[open.qname.0 as usize] -= 1;
            self.scopes.unwind(open.bindings as usize);
            self.sink.end_element(end, end_tag);
        }
        if self.stack.is_empty() && !self.fragment {
            self.phase = Phase::End;
        }
    }

    /// Checks an end tag's name. Most end tags close the current element:
    /// their name is its qualified name, checked when it was interned, so
    /// only the others are read again.
    pub(super) fn check_end_tag(&mut self, name: &str, span: Span) {
        let current = self
            .stack
            .last()
            .map(|open| self.sink.names().qname_data(open.qname));
        match current {
            Some(data) if crate::dom::same_text(&data.text, name) => {
                let xmlns_prefix = data.colon.is_some_and(|c| &data.text[..c] == "xmlns");
                let (is_name, bad_qname) = (data.is_name, data.bad_colon || xmlns_prefix);
                self.checker.end_tag_known(is_name, bad_qname, span);
            }
            _ => self.checker.end_tag(name, span),
        }
        self.report_checks();
    }

    /// Reports an end tag that does not close the current element, naming
    /// that element.
    #[cold]
    pub(super) fn end_tag_error(
        &mut self,
        code: ErrorCode,
        name: &str,
        span: Span,
        implied_closes: usize,
    ) {
        let context = ErrorContext {
            end_tag: name.to_owned(),
            open: self.current_element_start(),
            implied_closes,
            external: None,
            unread: None,
        };
        let error = self.located(code, span.start);
        self.sink.error_with_context(error, context);
    }

    /// The current element where it starts (line and column 0 unless the
    /// sink counts them), for an end tag that does not close it.
    #[cold]
    fn current_element_start(&mut self) -> Option<ElementStart> {
        let qname = self.stack.last()?.qname;
        let (offset, line, column) = self.sink.open_element_start(&mut self.checker.source)?;
        Some(ElementStart {
            name: self.sink.names().qname_data(qname).text.to_string(),
            offset,
            line,
            column,
        })
    }
}
