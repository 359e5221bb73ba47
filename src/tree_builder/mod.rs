//! Layer 5: tree construction (XML5 spec §1.5).
//!
//! The [`TreeBuilder`] is the tokenizer's [`TokenSink`]: it takes tokens and
//! parse errors and builds the tree through the start, main and end phases
//! of §1.5, resolving namespaces on the way (a prefix bound to nothing
//! gives its placeholder namespace, `urn:xml5dom:undeclared:PREFIX`, in a
//! document, or the registered namespace of a well-known prefix; in a
//! fragment, none). What it builds it reports, in
//! document order, to a [`TreeSink`] (its errors and the tokenizer's too);
//! [`DocumentSink`] makes a [`Document`] of it, whose errors are in source
//! order.
//!
//! The builder reads like the spec, phase first: `process` (`phases.rs`)
//! takes each token through the checks every token meets (`prepare`, in
//! this file), then dispatches on the phase to `start_phase`, `main_phase`
//! or `end_phase`, whose arms are the rules of §1.5, each quoted
//! (`grep "§1.5 Main phase"` finds them). What the rules do is in files by
//! concern:
//!
//! * `phases.rs`: the rules, phase by phase;
//! * `elements.rs`: creating an element for a token, the stack of open
//!   elements, and the limits on both;
//! * `namespaces.rs`: the bindings in scope and the namespace of each name;
//! * `text.rs`: character data waiting to become one text node;
//! * `entities.rs` and `attribute_lists.rs`: what the internal subset
//!   declares (entities expanded in content, attribute defaults and types);
//! * `well_formed.rs`: the XML 1.0 checks that XML5 lets pass;
//! * `source.rs`: the source as the builder reads it (whole, or the window
//!   of a stream);
//! * `sink.rs`: [`TreeSink`], what the builder reports, and
//!   `document_sink.rs`: [`DocumentSink`], the sink that makes a document.
//!
//! This file has the builder's state, its construction, and the checks
//! that run before the phases. Where the builder departs from or goes
//! beyond §1.5, `docs/conformance.md` records it.
//!
//! Cost per token never grows with depth: the open elements are a stack,
//! "is an element with this name open?" is a count per interned name, and
//! namespace bindings are a stack per prefix, so a document nested
//! 1,000,000 deep builds in linear time, without recursion.

mod attribute_lists;
mod document_sink;
mod elements;
mod entities;
mod namespaces;
mod pending;
mod phases;
#[cfg(test)]
mod recorder_tests;
mod sink;
mod source;
mod text;
mod well_formed;

use std::collections::{HashMap, HashSet};

use crate::chars::is_name;
use crate::decoding::ParseOptions;
use crate::dom::{NsId, QNameId};
use crate::error::{ErrorCode, ErrorContext, ExternalPosition, ParseError};
use crate::scope::Scopes;
use crate::span::Span;
use crate::tokenizer::{self, Tag, Text, TextKind, Token, TokenSink};

pub(crate) use document_sink::DocumentSink;
use pending::{ActiveExpansion, DeclarationKind, PendingText};
pub(crate) use sink::{Chars, ParsedAttribute, StartElement, TreeSink};
pub(crate) use source::Source;

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
    /// For errors inside an external entity's text: the entity, and the
    /// offset, line and column counted to so far.
    file_lines: Option<(Box<str>, (usize, u32, u32))>,
    /// The outermost reference being expanded.
    outer_reference: Span,
    /// The outermost expansion with markup, while it runs.
    expansion: Option<ActiveExpansion>,
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
    scopes: Scopes<Option<NsId>>,
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
    /// allocation is kept: `sink.rs`, `recycle`).
    tag_attributes: Vec<ParsedAttribute<'static>>,
    /// By `QNameId`: the scope stack of the name's prefix, once known
    /// (`u32::MAX` before), so resolving a name does not hash its prefix.
    prefix_slots: Vec<u32>,
    /// By `QNameId`: the namespace of the name's prefix where nothing
    /// declares it (its placeholder, or its registered one), once
    /// interned, so that a document using a prefix undeclared a million
    /// times formats and hashes its URI once.
    undeclared_namespaces: Vec<Option<NsId>>,
    /// A well-known prefix nothing declares is in its registered namespace
    /// (`dom::WELL_KNOWN_NAMESPACES`), not its placeholder: the default,
    /// unless `ParseOptions::placeholder_for_well_known_prefixes`.
    well_known_prefixes: bool,
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
    pub(crate) fn new(input: &'i str, options: &ParseOptions, sink: S) -> TreeBuilder<'i, S> {
        TreeBuilder::with_source(Source::whole(input), options, sink)
    }

    /// A builder reading `source`: all of the input, or a window of it
    /// that the caller [pushes](Self::source_mut) to as the input streams.
    /// Of the `options`, it takes the limits and how to resolve a
    /// well-known prefix nothing declares.
    pub(crate) fn with_source(
        source: Source<'i>,
        options: &ParseOptions,
        sink: S,
    ) -> TreeBuilder<'i, S> {
        TreeBuilder {
            position: Default::default(),
            limits: options.limits.clone(),
            dropped_depth: 0,
            depth_reported: false,
            declarations: None,
            entity_stack: Vec::new(),
            file_lines: None,
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
            well_known_prefixes: !options.placeholder_for_well_known_prefixes,
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
        options: &ParseOptions,
        sink: S,
        bindings: &[(String, String)],
    ) -> TreeBuilder<'i, S> {
        let mut builder = TreeBuilder::new(input, options, sink);
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
    pub(crate) fn fragment_dtd(&mut self, dtd: &FragmentDtd<'_>) -> crate::dtd::Declarations {
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

    /// An empty CDATA section makes no token; outside the root element it
    /// is not XML (`Misc` holds no CDATA), so it is reported, at its `<`,
    /// when the token after it comes.
    #[inline(always)]
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

    fn parse_error(&mut self, error: ParseError) {
        let in_file = self.position_in_file(error.offset);
        let error = self.token_error(error);
        match in_file {
            Some(position) => {
                let context = ErrorContext::external(position);
                self.sink.error_with_context(error, context);
            }
            None => self.sink.error(error),
        }
    }

    fn parse_error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        let error = self.token_error(error);
        self.sink.error_with_context(error, context);
    }
}

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// For an error at `offset` of the replacement text being expanded,
    /// when that text is a file read through the resolver: where in it.
    /// Lines are counted on from the last error's, in one pass per
    /// expansion.
    fn position_in_file(&mut self, offset: usize) -> Option<ExternalPosition> {
        let (name, text) = self.entity_stack.last()?;
        let uri = self.declarations.as_ref()?.external_uri(name)?.to_owned();
        let lines = match &mut self.file_lines {
            Some((counted, lines)) if **counted == **name && lines.0 <= offset => lines,
            slot => &mut slot.insert((name.clone(), (0, 1, 1))).1,
        };
        let to = offset.min(text.len());
        for c in text.get(lines.0..to).unwrap_or_default().chars() {
            if c == '\n' {
                (lines.1, lines.2) = (lines.1 + 1, 1);
            } else {
                lines.2 += 1;
            }
        }
        lines.0 = to.max(lines.0);
        Some(ExternalPosition::new(&uri, lines.1, lines.2))
    }

    /// An error the tokenizer found, where it is reported: at the
    /// reference while an entity is expanded, its code the warning that
    /// replaces it where the entity may be declared unread.
    fn token_error(&mut self, mut error: ParseError) -> ParseError {
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
        error
    }
}

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// A token of a replacement text being expanded (`reference` is the
    /// outermost reference's span): checked in that text, then moved to
    /// the reference and built there. The end of the replacement text ends
    /// nothing.
    #[inline(never)]
    fn process_replacement_token(&mut self, token: Token<'_>, reference: Span) {
        self.check_replacement_token(&token);
        if !matches!(token, Token::EndOfFile(_)) {
            self.dispatch(&at_reference(token, reference));
        }
    }

    /// What every token meets before the rules of its phase (`phases.rs`),
    /// none of it from §1.5: errors before a token of the source are
    /// settled; the first XML declaration is the document's; an end tag may
    /// close a start tag dropped past the depth limit; the end of the input
    /// ends the pending text. Returns whether the token goes on to its
    /// phase (`false`: it was dealt with here).
    #[inline(always)]
    fn prepare(&mut self, token: &Token<'_>) -> bool {
        if self.in_source() {
            if S::ORDERS_ERRORS {
                // What is reported from here on is in this token, the text
                // still waiting, or (an empty CDATA section, below) after
                // the token before.
                let settled = self.needed_from();
                self.sink.errors_settled(settled, &mut self.checker.source);
            }
            self.empty_cdata_outside_root(token);
        }
        let first = !std::mem::replace(&mut self.seen_token, true);
        match *token {
            // XML 1.0 §2.8 (§1.5 has no XML declaration token): the very
            // first token's declaration is the document's and makes no node
            // (any other is misplaced, in each phase).
            Token::XmlDeclaration(ref declaration) if first => {
                self.xml_declaration(declaration);
                false
            }
            // Past `max_element_depth` (docs/robustness.md), in any phase:
            // an end tag closes a start tag that was dropped, before it
            // could close anything open.
            Token::EndTag(_) | Token::ShortEndTag(_) if self.dropped_depth > 0 => {
                self.dropped_depth -= 1;
                if self.in_source() {
                    self.sink.depth_dropped_end(token.span().end);
                }
                false
            }
            // The end of the input ends the pending text (§1.5 "insert one
            // Text node"): the text becomes a node, then the token comes
            // again, its errors settled past that text.
            Token::EndOfFile(offset) if self.text.active => {
                self.flush_text();
                self.process_token(Token::EndOfFile(offset));
                false
            }
            _ => true,
        }
    }

    /// The XML declaration at the start of the document: checked, and its
    /// version, encoding and standalone handed to the sink.
    fn xml_declaration(&mut self, declaration: &tokenizer::XmlDecl<'_>) {
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
        self.sink.xml_declaration(declaration);
    }
}
