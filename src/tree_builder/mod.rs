//! Stage 3 of the pipeline: tree construction (XML5 spec §1.5).
//!
//! The [`TreeBuilder`] is the tokenizer's [`TokenSink`]: it takes tokens and
//! parse errors and builds the tree through the start, main and end phases
//! of §1.5, resolving namespaces on the way (a prefix bound to nothing
//! gives its placeholder namespace, `urn:xml5dom:undeclared:PREFIX`, in a
//! document; in a fragment, none). What it builds it reports, in
//! document order, to a [`TreeSink`] (its errors and the tokenizer's too);
//! [`DocumentSink`] makes a [`Document`] of it, whose errors are in source
//! order.
//!
//! Cost per token never grows with depth: the open elements are a stack,
//! "is an element with this name open?" is a count per interned name, and
//! namespace bindings are a stack per prefix, so a document nested
//! 1,000,000 deep builds in linear time, without recursion.

mod attribute_lists;
mod document_sink;
mod entities;
mod namespaces;
#[cfg(test)]
mod recorder_tests;
mod sink;
mod source;
mod text;
mod well_formed;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::chars::is_name;

use crate::dom::{Document, NsId, QNameId, SourceText};
use crate::dtd::AttributeType;
use crate::error::{ElementStart, ErrorCode, ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{self, Tag, Text, TextKind, Token, TokenSink};

pub(crate) use document_sink::DocumentSink;
use namespaces::{DeclarationKind, Scopes};
pub(crate) use sink::{Chars, ParsedAttribute, StartElement, TreeSink};
pub(crate) use source::Source;
use text::PendingText;

/// Parses `text` into a document, which keeps a copy of it.
pub(crate) fn build(text: &str, options: &crate::decoding::ParseOptions) -> Document {
    let builder = TreeBuilder::new(text, options.limits.clone(), DocumentSink::new(text));
    tokenizer::tokenize_with(text, builder, &options.limits).finish()
}

/// Parses `text` as the content of an element whose namespace `bindings`
/// are in scope (see [`TreeBuilder::for_fragment`]): a document whose root
/// element stands for that element and holds what `text` makes, and whose
/// errors are the fragment's.
pub(crate) fn build_fragment(
    text: &str,
    bindings: &[(String, String)],
    dtd: Option<FragmentDtd<'_>>,
    options: &crate::decoding::ParseOptions,
) -> Document {
    let sink = DocumentSink::for_fragment(text);
    let mut builder = TreeBuilder::for_fragment(text, options.limits.clone(), sink, bindings);
    let declarations = dtd.as_ref().map(|dtd| builder.fragment_dtd(dtd));
    let xml11 = dtd.is_some_and(|dtd| dtd.xml11);
    tokenizer::tokenize_fragment(text, builder, &options.limits, declarations, xml11).finish()
}

/// The DOCTYPE of the document a fragment is parsed into: its entities
/// are expanded and its attribute defaults supplied in the fragment.
pub(crate) struct FragmentDtd<'a> {
    /// The internal subset's text.
    pub(crate) subset: &'a str,
    /// The DOCTYPE's name.
    pub(crate) name: &'a str,
    /// It names an external DTD.
    pub(crate) external: bool,
    /// The document is XML 1.1.
    pub(crate) xml11: bool,
    /// The document said `standalone="yes"`.
    pub(crate) standalone: bool,
}

/// Parses `text` into a document, which takes `text` itself as its source
/// (no copy): the same document as [`build`] makes.
pub(crate) fn build_owned(text: SourceText, options: &crate::decoding::ParseOptions) -> Document {
    let builder = TreeBuilder::new(
        &text,
        options.limits.clone(),
        DocumentSink::without_copy(&text),
    );
    let mut doc = tokenizer::tokenize_with(&text, builder, &options.limits).finish();
    doc.give_source(text);
    doc
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the root element.
    Start,
    /// Inside the root element.
    Main,
    /// After the root element.
    End,
}

/// An element on the stack of open elements.
///
/// Eight bytes: a stream's memory grows with its depth by this much (and
/// the event sink's four), so a damaged file that leaves a million
/// elements open costs megabytes, not tens of them.
struct Open {
    qname: QNameId,
    /// The length of the namespace binding log before this element's
    /// declarations (32 bits: more than 4 billion declarations in scope
    /// at once would take the log itself 32 GB).
    bindings: u32,
}

const _: () = assert!(std::mem::size_of::<Open>() == 8);

/// Builds a tree from tokens (§1.5), reporting it to a [`TreeSink`].
pub(crate) struct TreeBuilder<'i, S: TreeSink> {
    /// Where the last error's position was found (errors mostly come in
    /// order: the next is counted on from there, with the sink's line
    /// index).
    position: crate::dom::PositionCursor,
    limits: crate::limits::Limits,
    /// Start tags dropped past `max_element_depth` and not yet closed.
    dropped_depth: usize,
    /// `element-depth-limit` was reported (it is reported once).
    depth_reported: bool,
    /// What the internal subset declared.
    declarations: Option<crate::dtd::Declarations>,
    /// The names of the entities being expanded, outermost first, with
    /// their replacement texts.
    entity_stack: Vec<(Box<str>, Box<str>)>,
    /// The outermost reference being expanded.
    outer_reference: Span,
    /// The outermost expansion with markup, while it runs.
    expansion: Option<entities::ActiveExpansion>,
    /// Attribute defaults, normalized once: by element name, then index in
    /// its list; `None` where the budget ran out.
    default_values: HashMap<Box<str>, HashMap<usize, Option<String>>>,
    /// Where what is built goes; it owns the interning table.
    sink: S,
    /// The XML declaration said `standalone="yes"`.
    standalone: bool,
    /// The XML declaration said `version="1.1"`: Namespaces 1.1 applies
    /// (`xmlns:p=""` undeclares `p` without an error).
    xml11: bool,
    phase: Phase,
    stack: Vec<Open>,
    /// How many open elements have each qualified name, by `QNameId`.
    open_counts: Vec<u32>,
    scopes: Scopes,
    text: PendingText,
    seen_token: bool,
    seen_doctype: bool,
    seen_attributes: HashSet<(NsId, Box<str>)>,
    /// The interned names of the tag being built: its own, then its
    /// attributes'.
    tag_qnames: Vec<QNameId>,
    /// Some attribute of the tag being built may be a namespace declaration.
    tag_declares: bool,
    /// What each written attribute of the tag being built is to namespace
    /// processing (empty when none may be a declaration).
    tag_declarations: Vec<DeclarationKind>,
    /// The attributes of the tag being built (empty between tags: only the
    /// allocation is kept, see [`sink::recycle`]).
    tag_attributes: Vec<ParsedAttribute<'static>>,
    /// By `QNameId`: the scope stack of the name's prefix, once known
    /// (`u32::MAX` before), so resolving a name does not hash its prefix.
    prefix_slots: Vec<u32>,
    /// By `QNameId`: the placeholder namespace of the name's prefix, once
    /// interned, so that a document using a prefix undeclared a million
    /// times formats and hashes its URI once.
    undeclared_namespaces: Vec<Option<NsId>>,
    checker: well_formed::Checker<'i>,
    /// Offsets of `&`s the tokenizer already reported.
    reference_errors: HashSet<usize>,
    /// The DOCTYPE names an external DTD or the internal subset refers to
    /// parameter entities, and the document is not `standalone="yes"`: an
    /// entity the internal subset does not declare may be declared where
    /// xml5dom does not read, so it is a warning (XML 1.0 WFC "Entity
    /// Declared").
    entities_may_be_external: bool,
    /// Where the last token of the source ended.
    last_token_end: usize,
    /// Parsing a fragment: the content of an element outside the parse
    /// (the sink's context element), which stays open whatever comes.
    fragment: bool,
}

impl<'i, S: TreeSink> TreeBuilder<'i, S> {
    pub(crate) fn new(
        input: &'i str,
        limits: crate::limits::Limits,
        sink: S,
    ) -> TreeBuilder<'i, S> {
        TreeBuilder::with_source(Source::whole(input), limits, sink)
    }

    /// A builder reading `source`: all of the input, or a window of it
    /// that the caller [pushes](Self::source_mut) to as the input streams.
    pub(crate) fn with_source(
        source: Source<'i>,
        limits: crate::limits::Limits,
        sink: S,
    ) -> TreeBuilder<'i, S> {
        TreeBuilder {
            position: Default::default(),
            limits,
            dropped_depth: 0,
            depth_reported: false,
            declarations: None,
            entity_stack: Vec::new(),
            outer_reference: Span::default(),
            expansion: None,
            default_values: HashMap::new(),
            sink,
            standalone: false,
            xml11: false,
            phase: Phase::Start,
            stack: Vec::new(),
            open_counts: Vec::new(),
            scopes: Scopes::default(),
            text: PendingText::default(),
            seen_token: false,
            seen_doctype: false,
            seen_attributes: HashSet::new(),
            tag_qnames: Vec::new(),
            tag_declares: false,
            tag_declarations: Vec::new(),
            tag_attributes: Vec::new(),
            prefix_slots: Vec::new(),
            undeclared_namespaces: Vec::new(),
            checker: well_formed::Checker {
                source,
                errors: Vec::new(),
                declarations: None,
                xml11: false,
            },
            reference_errors: HashSet::new(),
            entities_may_be_external: false,
            last_token_end: 0,
            fragment: false,
        }
    }

    /// A builder for a fragment of content (`input`) of an element outside
    /// the parse, in scope of its namespace `bindings` (prefix, `""` for the
    /// default, and URI): it starts in the main phase with no element of
    /// its own open, as if inside the root element, and no end tag, `</>`
    /// or the end of input closes what is outside (an end tag that matches
    /// nothing open in the fragment is stray). The sink's nodes go to its
    /// context element.
    pub(crate) fn for_fragment(
        input: &'i str,
        limits: crate::limits::Limits,
        sink: S,
        bindings: &[(String, String)],
    ) -> TreeBuilder<'i, S> {
        let mut builder = TreeBuilder::new(input, limits, sink);
        builder.fragment = true;
        builder.phase = Phase::Main;
        // An XML declaration is not at the start of a document here.
        builder.seen_token = true;
        for (prefix, uri) in bindings {
            if prefix != "xml" && !uri.is_empty() {
                let namespace = builder.sink.names_mut().namespace(uri);
                builder.scopes.bind(prefix, Some(namespace));
            }
        }
        builder
    }

    /// Reads the declarations of the document a fragment is parsed into,
    /// as the DOCTYPE token would have given them; returns them for the
    /// tokenizer.
    fn fragment_dtd(&mut self, dtd: &FragmentDtd<'_>) -> crate::dtd::Declarations {
        let declarations =
            crate::dtd::Declarations::parse(dtd.subset, 0, &self.limits, dtd.name, dtd.xml11);
        self.standalone = dtd.standalone;
        self.xml11 = dtd.xml11;
        self.checker.xml11 = dtd.xml11;
        self.entities_may_be_external =
            !dtd.standalone && (dtd.external || declarations.has_parameter_references());
        self.set_declarations(&declarations);
        self.checker.declarations = Some(declarations.clone());
        declarations
    }

    /// `code`, or the warning that replaces it where the entity may be
    /// declared outside what xml5dom reads.
    fn entity_code(&self, code: ErrorCode) -> ErrorCode {
        match code {
            ErrorCode::UndeclaredEntity | ErrorCode::UnknownNamedCharacterReference
                if self.entities_may_be_external =>
            {
                ErrorCode::EntityInExternalSubset
            }
            code => code,
        }
    }

    /// Checks a token of the replacement text being expanded, as the source
    /// is checked (its spans are still in that text), and reports what is
    /// found at the outermost reference.
    fn check_replacement_token(&mut self, token: &Token<'_>) {
        // The replacement text came with the entity onto the stack: looked
        // up by name here, the name (as long as the reference) would be
        // hashed for every token.
        let (Some(declarations), Some((_, text))) = (&self.declarations, self.entity_stack.last())
        else {
            return;
        };
        let mut checker = well_formed::Checker {
            source: Source::whole(text),
            errors: Vec::new(),
            declarations: Some(declarations.clone()),
            xml11: false,
        };
        match token {
            Token::Text(piece) => checker.text(piece),
            Token::StartTag(tag) | Token::EmptyTag(tag) => {
                let kept = tag.attributes.len().min(self.limits.max_attributes);
                checker.tag_with(tag, kept, |i| match i {
                    0 => is_name(tag.name),
                    i => is_name(tag.attributes.name_at(i - 1)),
                });
            }
            Token::EndTag(tag) => checker.end_tag(tag.name, tag.span),
            Token::Comment(comment) => checker.comment(comment.data, comment.span),
            Token::ProcessingInstruction(pi) => {
                checker.processing_instruction(pi.target, pi.span);
            }
            _ => {}
        }
        let errors = checker.errors;
        let reference = self.outer_reference.start;
        for (code, _) in errors {
            let reported = matches!(code, ErrorCode::BareAmpersand | ErrorCode::UndeclaredEntity)
                && self.reference_errors.contains(&reference);
            if !reported {
                self.error(self.entity_code(code), reference);
            }
        }
    }

    /// Reports what the well-formedness checker found, except references the
    /// tokenizer already reported.
    #[inline]
    fn report_checks(&mut self) {
        // Called after every check, and almost always with nothing found.
        if !self.checker.errors.is_empty() {
            self.report_found_checks();
        }
    }

    #[cold]
    #[inline(never)]
    fn report_found_checks(&mut self) {
        let found = std::mem::take(&mut self.checker.errors);
        for &(code, offset) in &found {
            let reference = matches!(code, ErrorCode::BareAmpersand | ErrorCode::UndeclaredEntity);
            if !(reference && self.reference_errors.contains(&offset)) {
                self.error(self.entity_code(code), offset);
            }
        }
        self.checker.errors = found;
        self.checker.errors.clear();
    }

    /// Checks an end tag's name. Most end tags close the current element:
    /// their name is its qualified name, checked when it was interned, so
    /// only the others are read again.
    fn check_end_tag(&mut self, name: &str, span: Span) {
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

    /// The token being built is from the source, not from a replacement
    /// text being expanded.
    #[inline]
    fn in_source(&self) -> bool {
        self.entity_stack.is_empty()
    }

    /// What the sink makes of what was built (the input has ended).
    pub(crate) fn finish(mut self) -> S::Output {
        self.settle_all();
        self.sink.finish()
    }

    /// The input has ended: a sink that orders errors hands on the rest.
    pub(crate) fn settle_all(&mut self) {
        if S::ORDERS_ERRORS {
            self.sink
                .errors_settled(usize::MAX, &mut self.checker.source);
        }
    }

    /// The source the builder reads, to push the next piece of a stream
    /// to and release what is no longer needed.
    pub(crate) fn source_mut(&mut self) -> &mut Source<'i> {
        &mut self.checker.source
    }

    /// Lets the source go of what lies before `offset` (a stream's window),
    /// once the sink has counted what it needs there.
    pub(crate) fn release_before(&mut self, offset: usize) {
        self.sink.before_release(offset, &mut self.checker.source);
        self.checker.source.release_before(offset);
    }

    /// The sink.
    pub(crate) fn sink(&self) -> &S {
        &self.sink
    }

    /// The sink, mutably.
    pub(crate) fn sink_mut(&mut self) -> &mut S {
        &mut self.sink
    }

    /// The earliest offset of the source the builder may still read: the
    /// text waiting to become a node, and what follows the last token
    /// (where an empty CDATA section outside the root is looked for).
    /// Errors before it are settled too.
    pub(crate) fn needed_from(&self) -> usize {
        match self.text.active {
            true => self.text.span.start.min(self.last_token_end),
            false => self.last_token_end,
        }
    }

    /// The line and column of `offset` in the source; `(0, 0)` where the
    /// source is not all there: for a sink that orders errors (it counts
    /// them as it hands them on, in order, which a stream's window can
    /// serve) and for a document built as its input arrives (counted once
    /// it has all of it).
    fn position(&mut self, offset: usize) -> (u32, u32) {
        let input = match self.checker.source.borrowed() {
            Some(input) if !S::ORDERS_ERRORS => input,
            _ => return (0, 0),
        };
        self.sink
            .lines()
            .position_after(input, &mut self.position, offset)
    }

    fn error(&mut self, code: ErrorCode, offset: usize) {
        let error = self.located(code, offset);
        self.sink.error(error);
    }

    /// An error at `offset`, or at the reference while an entity is
    /// expanded (every error is there then).
    fn located(&mut self, code: ErrorCode, offset: usize) -> ParseError {
        let offset = self.reference_span().map_or(offset, |r| r.start);
        let (line, column) = self.position(offset);
        ParseError {
            code,
            offset,
            line,
            column,
        }
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

    // ----- Elements ------------------------------------------------------

    /// `name` cut to `max_name_length` bytes (on a character boundary),
    /// reporting `name-length-limit` at `offset` when it had to be.
    #[inline]
    fn limited_name<'n>(&mut self, name: &'n str, offset: usize) -> &'n str {
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
    fn attribute_lists_of(
        &mut self,
        tag: &Tag<'_>,
        kept: usize,
    ) -> Option<attribute_lists::Declared> {
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

    fn push_open(&mut self, qname: QNameId, bindings: usize) {
        let index = qname.0 as usize;
        if self.open_counts.len() <= index {
            self.open_counts.resize(index + 1, 0);
        }
        self.open_counts[index] += 1;
        let bindings = u32::try_from(bindings).unwrap_or(u32::MAX);
        self.stack.push(Open { qname, bindings });
    }

    /// Pops the current element; its span now ends at `end`, and
    /// `end_tag` is the end tag that closed it, if one did.
    fn pop(&mut self, end: usize, end_tag: Option<Span>) {
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

    fn end_tag(&mut self, name: &str, span: Span) {
        let current = self.stack.last().map(|open| open.qname);
        let current_name = current.map(|q| &*self.sink.names().qname_data(q).text);
        if current_name.is_some_and(|current| crate::dom::same_text(current, name)) {
            self.pop(span.end, Some(span));
            return;
        }
        let open = self
            .sink
            .names()
            .find_qname(name)
            .filter(|q| self.open_counts.get(q.0 as usize).is_some_and(|&n| n > 0));
        match open {
            Some(target) => {
                // The elements inside the innermost open `target`.
                let implied_closes = self
                    .stack
                    .iter()
                    .rev()
                    .position(|open| open.qname == target)
                    .unwrap_or(0);
                self.end_tag_error(ErrorCode::MismatchedEndTag, name, span, implied_closes);
                while let Some(top) = self.stack.last().map(|open| open.qname) {
                    if top == target {
                        self.pop(span.end, Some(span));
                        break;
                    }
                    self.pop(span.start, None);
                }
            }
            None => {
                self.end_tag_error(ErrorCode::StrayEndTag, name, span, 0);
                self.dropped(span);
            }
        }
    }

    /// Reports an end tag that does not close the current element, naming
    /// that element.
    #[cold]
    fn end_tag_error(&mut self, code: ErrorCode, name: &str, span: Span, implied_closes: usize) {
        let context = ErrorContext {
            end_tag: name.to_owned(),
            open: self.current_element_start(),
            implied_closes,
        };
        let error = self.located(code, span.start);
        self.sink.error_with_context(error, context);
    }

    /// An empty CDATA section makes no token; outside the root element it
    /// is not XML (`Misc` holds no CDATA), so it is reported, at its `<`,
    /// when the token after it comes.
    fn empty_cdata_outside_root(&mut self, token: &Token<'_>) {
        let span = token.span();
        let start = match token {
            // A CDATA piece's span leaves out its `<![CDATA[`.
            Token::Text(text) if text.kind == TextKind::Cdata => {
                span.start.saturating_sub("<![CDATA[".len())
            }
            _ => span.start,
        };
        if self.phase != Phase::Main && start > self.last_token_end {
            let between = self.checker.source.bytes(self.last_token_end, start);
            if let Some(at) = memchr::memmem::find(between, b"<![CDATA[") {
                self.error(ErrorCode::TextOutsideRootElement, self.last_token_end + at);
            }
        }
        self.last_token_end = self.last_token_end.max(span.end);
    }

    /// Records markup the tree leaves out, so that repaired output leaves
    /// it out too (not inside an expansion: those nodes are written anew).
    fn dropped(&mut self, span: Span) {
        if self.reference_span().is_none() {
            self.sink.dropped(span);
        }
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

    fn processing_instruction(&mut self, target: &str, data: &str, span: Span) {
        let target = self.limited_name(target, span.start + 2);
        self.flush_text();
        self.sink.processing_instruction(target, data, span);
    }
}

/// A token from a replacement text, moved to the reference's span.
fn at_reference(token: Token<'_>, reference: Span) -> Token<'_> {
    match token {
        Token::Text(text) => Token::Text(Text {
            span: reference,
            ..text
        }),
        Token::StartTag(tag) => Token::StartTag(Tag {
            span: reference,
            ..tag
        }),
        Token::EmptyTag(tag) => Token::EmptyTag(Tag {
            span: reference,
            ..tag
        }),
        Token::EndTag(tag) => Token::EndTag(tokenizer::EndTag {
            span: reference,
            ..tag
        }),
        Token::ShortEndTag(_) => Token::ShortEndTag(reference),
        Token::Comment(comment) => Token::Comment(tokenizer::Comment {
            span: reference,
            ..comment
        }),
        Token::ProcessingInstruction(pi) => {
            Token::ProcessingInstruction(tokenizer::ProcessingInstruction {
                span: reference,
                ..pi
            })
        }
        // A declaration inside an entity is a misplaced one: a PI.
        Token::XmlDeclaration(declaration) => {
            Token::ProcessingInstruction(tokenizer::ProcessingInstruction {
                target: "xml",
                data: declaration.data,
                span: reference,
            })
        }
        // A DOCTYPE there is misplaced: reported at the reference (as every
        // error while an expansion runs) and dropped, whatever its span.
        Token::Doctype(doctype) => Token::Doctype(doctype),
        Token::EntityReference(r) => Token::EntityReference(tokenizer::EntityReference {
            span: reference,
            ..r
        }),
        Token::EndOfFile(_) => Token::EndOfFile(reference.end),
    }
}

impl<S: TreeSink> TokenSink for TreeBuilder<'_, S> {
    // Text is checked in the source (`well_formed::Checker::text`), and
    // piece by piece made into one node: a reference needs no piece of
    // its own.
    const REFERENCES_IN_TEXT: bool = true;

    fn process_token(&mut self, token: Token<'_>) {
        let from_source = self.reference_span().is_none();
        self.process(token);
        if from_source && !self.reference_errors.is_empty() {
            // The references the tokenizer reported before this token were
            // in it, and it is done with: the set holds one token's worth
            // (not every bare `&` of a damaged multi-gigabyte stream).
            self.reference_errors.clear();
        }
    }

    fn parse_error(&mut self, mut error: ParseError) {
        use ErrorCode::*;
        if let Some(reference) = self.reference_span() {
            // An error in a replacement text: at the reference (counted on
            // from the last error's position, not from the line's start:
            // many errors from references on one long line stay linear).
            let (line, column) = self.position(reference.start);
            error = ParseError {
                offset: reference.start,
                line,
                column,
                ..error
            };
        }
        if matches!(
            error.code,
            MissingSemicolonAfterCharacterReference
                | AbsenceOfDigitsInNumericCharacterReference
                | UnknownNamedCharacterReference
        ) {
            self.reference_errors.insert(error.offset);
        }
        error.code = self.entity_code(error.code);
        self.sink.error(error);
    }
}

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// Builds from one token (of the source or of a replacement text).
    fn process(&mut self, token: Token<'_>) {
        // Tokens of a replacement text: at the reference, not checked
        // against the source (which holds the reference), and the end of
        // the replacement text ends nothing.
        let expanding = self.reference_span();
        if expanding.is_some() {
            self.check_replacement_token(&token);
        }
        let token = match expanding {
            Some(_) if matches!(token, Token::EndOfFile(_)) => return,
            Some(reference) => at_reference(token, reference),
            None => token,
        };
        let checking = expanding.is_none();
        if checking {
            if S::ORDERS_ERRORS {
                // What is reported from here on is in this token, the text
                // still waiting, or (an empty CDATA section, below) after
                // the token before.
                let settled = self.needed_from();
                self.sink.errors_settled(settled, &mut self.checker.source);
            }
            self.empty_cdata_outside_root(&token);
        }
        if let Token::Text(text) = token {
            self.seen_token = true;
            self.character_token(text);
            return;
        }
        // Pending text becomes a node only when the tree changes (a node is
        // appended, an element closes, the input ends): a token ignored
        // between two runs of text leaves them one text node, as §1.5
        // collects "all subsequent consecutive characters that would be
        // appended to that node".
        let first = !self.seen_token;
        self.seen_token = true;
        match token {
            Token::Text(_) => {}
            Token::StartTag(tag) | Token::EmptyTag(tag) => {
                let empty = matches!(token, Token::EmptyTag(_));
                if self.phase == Phase::End {
                    self.error(ErrorCode::ElementAfterRootElement, tag.span.start);
                    self.dropped(tag.span);
                    return;
                }
                if self.past_depth_limit(tag.span.start) {
                    if self.reference_span().is_none() {
                        self.sink.depth_dropped(tag.span, self.dropped_depth > 0);
                    }
                    self.dropped_depth += usize::from(!empty);
                    return;
                }
                let kept = self.kept_attributes(&tag);
                self.intern_tag_names(&tag, kept);
                if checking {
                    self.checker.tag(&tag, self.sink.names(), &self.tag_qnames);
                    self.report_checks();
                }
                let (qname, mark) = self.create_element(&tag, empty);
                if empty {
                    self.scopes.unwind(mark);
                    if self.phase == Phase::Start {
                        self.phase = Phase::End;
                    }
                } else {
                    self.push_open(qname, mark);
                    self.phase = Phase::Main;
                }
            }
            Token::EndTag(_) | Token::ShortEndTag(_) if self.dropped_depth > 0 => {
                // Closes a start tag dropped past the depth limit.
                self.dropped_depth -= 1;
                if self.reference_span().is_none() {
                    self.sink.depth_dropped_end(token.span().end);
                }
            }
            Token::EndTag(tag) => match self.phase {
                Phase::Main => {
                    if checking {
                        self.check_end_tag(tag.name, tag.span);
                    }
                    let name = self.limited_name(tag.name, tag.span.start + 2);
                    self.end_tag(name, tag.span);
                }
                _ => {
                    self.error(ErrorCode::EndTagOutsideRootElement, tag.span.start);
                    self.dropped(tag.span);
                }
            },
            Token::ShortEndTag(span) => match self.phase {
                Phase::Main if self.stack.is_empty() => {
                    // In a fragment: `</>` would close the element outside.
                    self.error(ErrorCode::StrayEndTag, span.start);
                    self.dropped(span);
                }
                Phase::Main => {
                    self.error(ErrorCode::ShortEndTag, span.start);
                    self.pop(span.end, Some(span));
                }
                _ => {
                    self.error(ErrorCode::EndTagOutsideRootElement, span.start);
                    self.dropped(span);
                }
            },
            Token::Comment(comment) => {
                if checking {
                    self.checker.comment(comment.data, comment.span);
                    self.report_checks();
                }
                self.flush_text();
                self.sink.comment(comment.data, comment.span);
            }
            Token::ProcessingInstruction(pi) => {
                if checking {
                    self.checker.processing_instruction(pi.target, pi.span);
                    self.report_checks();
                }
                self.processing_instruction(pi.target, pi.data, pi.span);
            }
            Token::XmlDeclaration(declaration) => {
                if first {
                    self.checker.declaration(
                        declaration.version,
                        declaration.encoding,
                        declaration.standalone,
                        declaration.span,
                    );
                    self.report_checks();
                    self.standalone = declaration.standalone == Some("yes");
                    self.xml11 = declaration.version == Some("1.1");
                    self.checker.xml11 = self.xml11;
                    self.sink.xml_declaration(&declaration);
                } else {
                    self.error(ErrorCode::MisplacedXmlDeclaration, declaration.span.start);
                    let at = declaration.span.start;
                    let target = self.checker.source.slice(at + 2, at + 5).to_owned();
                    self.processing_instruction(&target, declaration.data, declaration.span);
                }
            }
            Token::Doctype(doctype) => {
                if self.phase != Phase::Start || self.seen_doctype || !checking {
                    self.error(ErrorCode::MisplacedDoctype, doctype.span.start);
                    self.dropped(doctype.span);
                    return;
                }
                self.seen_doctype = true;
                let standalone = self.standalone;
                let parameter_references = doctype
                    .declarations
                    .is_some_and(|d| d.has_parameter_references());
                self.entities_may_be_external =
                    !standalone && (doctype.system_id.is_some() || parameter_references);
                if let Some(declarations) = doctype.declarations {
                    self.set_declarations(declarations);
                    self.checker.declarations = Some(declarations.clone());
                }
                self.checker.doctype(
                    doctype.name,
                    doctype.public_id,
                    doctype.system_id,
                    doctype.span,
                );
                self.report_checks();
                self.flush_text();
                self.sink.doctype(doctype);
            }
            Token::EntityReference(reference) => {
                self.entity_reference(reference.name, reference.span);
            }
            Token::EndOfFile(offset) => match self.phase {
                _ if self.text.active => {
                    self.flush_text();
                    self.process_token(token);
                }
                Phase::Start => {
                    self.error(ErrorCode::MissingRootElement, offset);
                    self.phase = Phase::End;
                }
                Phase::Main => {
                    if !self.stack.is_empty() {
                        self.error(ErrorCode::EofInElement, offset);
                    }
                    while !self.stack.is_empty() {
                        self.pop(offset, None);
                    }
                }
                Phase::End => {}
            },
        }
    }
}
