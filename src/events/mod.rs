//! The tree builder's output as events, without a tree: the first part of
//! streaming (docs/streaming.md).
//!
//! [`parse`] runs the whole pipeline (tokenizer, XML5 tree construction,
//! namespaces, entity expansion, the well-formedness checks) and hands each
//! thing built to a handler as an [`Event`], in document order, instead of
//! making a [`Document`](crate::Document) of it: what the handler keeps is
//! all the memory the events cost. The events are the tree, exactly:
//! replaying them builds the document [`Document::parse`] builds (this
//! module's tests do that for every tree case of the suites and every
//! document of the corpus).
//!
//! Names come resolved, attribute values and text with references
//! expanded and line ends normalized, text merged as the DOM merges it.
//! Parse errors come in source order (as a document lists them), each as
//! soon as no earlier one can come: shortly after the events around it.
//!
//! ```
//! use xml5dom::events::{self, Event};
//!
//! let mut names = Vec::new();
//! let mut errors = 0;
//! events::parse("<feed xmlns='urn:f'><entry>1<entry>2</feed>", |event| match event {
//!     Event::StartElement(start) => names.push(start.name.local.to_owned()),
//!     Event::Error(_) => errors += 1,
//!     _ => {}
//! });
//! assert_eq!(names, ["feed", "entry", "entry"]);
//! assert_eq!(errors, 1); // `</feed>` closes two `entry` elements
//! ```
//!
//! [`Document::parse`]: crate::Document::parse

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::decoding::ParseOptions;
use crate::dom::{LineIndex, NameId, Names};
use crate::error::{ErrorCode, ParseError};
use crate::span::Span;
use crate::tokenizer::{self, Doctype, XmlDecl};
use crate::tree_builder::{self, Chars, ParsedAttribute, TreeBuilder, TreeSink};

/// One thing the tree builder built, in document order.
///
/// Nesting is the order: an event after a [`StartElement`](Event::StartElement)
/// that is not `empty` is inside that element until its
/// [`EndElement`](Event::EndElement).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Event<'e> {
    /// The XML declaration at the start of the document (a misplaced one
    /// is a [`ProcessingInstruction`](Event::ProcessingInstruction)).
    XmlDeclaration(&'e XmlDecl<'e>),
    /// The document type declaration (the first before the root element;
    /// others are [`Dropped`](Event::Dropped)), with what its internal
    /// subset declares.
    Doctype(&'e Doctype<'e>),
    /// An element opens.
    StartElement(StartElement<'e>),
    /// The element opened last closes.
    EndElement(EndElement<'e>),
    /// Character data: one text node's worth.
    Text {
        /// The characters, references expanded.
        text: &'e str,
        /// The byte ranges of `text` that were CDATA sections.
        cdata: &'e [(usize, usize)],
        /// The source it was read from.
        span: Span,
    },
    /// A comment (also what recovery makes of bogus markup like `<!x>`).
    Comment {
        /// Between `<!--` and `-->`.
        data: &'e str,
        /// The source it was read from.
        span: Span,
    },
    /// A processing instruction.
    ProcessingInstruction {
        /// Its target.
        target: &'e str,
        /// What follows the target.
        data: &'e str,
        /// The source it was read from.
        span: Span,
    },
    /// A reference to an entity whose replacement text holds markup begins
    /// its expansion: what comes until
    /// [`EndExpansion`](Event::EndExpansion) was made by it, and carries
    /// the reference's span.
    BeginExpansion {
        /// The entity.
        name: &'e str,
        /// The reference, `&name;`.
        reference: Span,
    },
    /// The expansion begun last ends.
    EndExpansion {
        /// It closed every element it opened and no other.
        balanced: bool,
    },
    /// Markup the tree leaves out: a stray end tag, a misplaced DOCTYPE,
    /// an element after the root element.
    Dropped {
        /// The markup.
        span: Span,
    },
    /// A tag past the element-depth limit, left out with everything up to
    /// the end tag that closes it.
    DepthDropped {
        /// The tag.
        span: Span,
        /// It continues the run of markup dropped so far.
        continues: bool,
    },
    /// An end tag closes a tag dropped past the depth limit.
    DepthDroppedEnd {
        /// Where the run of dropped markup now ends.
        end: usize,
    },
    /// A parse error; they come in source order.
    Error(ParseError),
}

/// A resolved name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name<'e> {
    /// As written: `prefix:local` or `local`.
    pub qualified: &'e str,
    /// The prefix, for a valid prefixed name.
    pub prefix: Option<&'e str>,
    /// After the prefix's colon, or all of the name.
    pub local: &'e str,
    /// The namespace it resolved to, if any.
    pub namespace: Option<&'e str>,
}

/// An element as [`Event::StartElement`] gives it.
#[derive(Clone, Copy, Debug)]
pub struct StartElement<'e> {
    /// Its name.
    pub name: Name<'e>,
    /// Its attributes in source order, then those attribute-list defaults
    /// supply; duplicates and those past the attribute limit left out.
    pub attributes: &'e [Attribute<'e>],
    /// The start tag, from `<` to `>`.
    pub span: Span,
    /// Written as an empty-element tag: no
    /// [`EndElement`](Event::EndElement) follows.
    pub empty: bool,
}

/// One attribute of a [`StartElement`].
#[derive(Clone, Copy, Debug)]
pub struct Attribute<'e> {
    /// Its name; namespace declarations (`xmlns`, `xmlns:p`) are the
    /// attributes in the xmlns namespace.
    pub name: Name<'e>,
    /// Its value, references expanded and whitespace normalized.
    pub value: &'e str,
    /// Where it was written; `None` for one a default supplies.
    pub span: Option<Span>,
    /// Where its value was written.
    pub value_span: Option<Span>,
    /// Declared of type `ID` by an attribute-list declaration.
    pub is_id: bool,
}

impl Attribute<'_> {
    /// Whether it declares a namespace.
    pub fn is_namespace_declaration(&self) -> bool {
        self.name.namespace == Some(crate::dom::XMLNS_NAMESPACE)
    }
}

/// An element's end as [`Event::EndElement`] gives it.
#[derive(Clone, Copy, Debug)]
pub struct EndElement<'e> {
    /// The name of the element that closes.
    pub name: Name<'e>,
    /// Where its source ends now.
    pub end: usize,
    /// The end tag that closed it (`</name>` or `</>`), where one was
    /// written; `None` where the end was implied (by the end tag of an
    /// ancestor, or the end of the input).
    pub end_tag: Option<Span>,
}

/// Parses `text` with the XML5 rules, handing each thing built to
/// `handler` (see the module documentation).
pub fn parse(text: &str, handler: impl FnMut(Event<'_>)) {
    parse_with(text, &ParseOptions::default(), handler);
}

/// [`parse`] with options (the limits; an encoding given in them does not
/// apply to text).
///
/// ```
/// use xml5dom::events::{self, Event};
/// use xml5dom::{ErrorCode, ParseOptions};
///
/// let mut options = ParseOptions::default();
/// options.limits.max_attributes = 1;
/// let mut codes = Vec::new();
/// events::parse_with("<a x='1' y='2'/>", &options, |event| {
///     if let Event::Error(error) = event {
///         codes.push(error.code);
///     }
/// });
/// assert_eq!(codes, [ErrorCode::AttributeLimit]);
/// ```
pub fn parse_with(text: &str, options: &ParseOptions, handler: impl FnMut(Event<'_>)) {
    let limits = &options.limits;
    let kept = limits.input_kept(text);
    let (whole, text) = (text.len(), &text[..kept]);
    let mut sink = EventSink::new(handler);
    if kept < whole {
        // Found before anything else, so first among the errors at the end
        // of the text (as a document lists it): the input ends there.
        let (line, column) = sink.lines.position_from_line_start(text, kept);
        sink.error(ParseError {
            code: ErrorCode::InputSizeLimit,
            offset: kept,
            line,
            column,
        });
    }
    let builder = TreeBuilder::new(text, limits.clone(), sink);
    tokenizer::tokenize_with(text, builder, limits).finish();
}

/// The sink that turns what the builder reports into events.
struct EventSink<F> {
    handler: F,
    names: Names,
    lines: LineIndex,
    /// The builder's storage for text it merges (emptied after each text
    /// event: the builder keeps nothing in it across text nodes).
    storage: String,
    /// The names of the open elements, innermost last.
    open: Vec<NameId>,
    /// The attribute list handed over with each start (reused).
    attributes: Vec<Attribute<'static>>,
    /// Errors found and not yet handed on, earliest first (by offset, then
    /// as found): they go in source order once the builder says no earlier
    /// one can come.
    errors: BinaryHeap<Reverse<PendingError>>,
    /// How many errors were found: the order among errors at one offset.
    found: u64,
}

/// An error waiting in [`EventSink::errors`].
struct PendingError {
    error: ParseError,
    found: u64,
}

impl PendingError {
    fn key(&self) -> (usize, u64) {
        (self.error.offset, self.found)
    }
}

impl PartialEq for PendingError {
    fn eq(&self, other: &PendingError) -> bool {
        self.key() == other.key()
    }
}

impl Eq for PendingError {}

impl PartialOrd for PendingError {
    fn partial_cmp(&self, other: &PendingError) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PendingError {
    fn cmp(&self, other: &PendingError) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl<F: FnMut(Event<'_>)> EventSink<F> {
    fn new(handler: F) -> EventSink<F> {
        EventSink {
            handler,
            names: Names::new(),
            lines: LineIndex::default(),
            storage: String::new(),
            open: Vec::new(),
            attributes: Vec::new(),
            errors: BinaryHeap::new(),
            found: 0,
        }
    }

    /// Hands on the errors before `offset` (all of them for `usize::MAX`).
    fn hand_on_errors(&mut self, offset: usize) {
        while self
            .errors
            .peek()
            .is_some_and(|Reverse(e)| e.error.offset < offset || offset == usize::MAX)
        {
            if let Some(Reverse(pending)) = self.errors.pop() {
                (self.handler)(Event::Error(pending.error));
            }
        }
    }
}

/// A name of `names` as an event gives it.
fn name_of(names: &Names, id: NameId) -> Name<'_> {
    let (qualified, prefix, local, namespace) = names.parts(id);
    Name {
        qualified,
        prefix,
        local,
        namespace,
    }
}

/// The attribute list for one start, reused for the next with another
/// lifetime (emptied first, so nothing is converted).
fn recycle<'a, 'b>(mut list: Vec<Attribute<'a>>) -> Vec<Attribute<'b>> {
    list.clear();
    #[allow(clippy::unnecessary_filter_map)]
    list.into_iter().filter_map(|_| None).collect()
}

impl<F: FnMut(Event<'_>)> TreeSink for EventSink<F> {
    type Output = ();

    fn names(&self) -> &Names {
        &self.names
    }

    fn names_mut(&mut self) -> &mut Names {
        &mut self.names
    }

    fn lines(&self) -> &LineIndex {
        &self.lines
    }

    fn xml_declaration(&mut self, declaration: &XmlDecl<'_>) {
        (self.handler)(Event::XmlDeclaration(declaration));
    }

    fn doctype(&mut self, doctype: &Doctype<'_>) {
        (self.handler)(Event::Doctype(doctype));
    }

    fn start_element(&mut self, element: &tree_builder::StartElement<'_>) {
        let sink = self;
        let mut attributes = recycle(std::mem::take(&mut sink.attributes));
        attributes.extend(
            element
                .attributes
                .iter()
                .map(|a: &ParsedAttribute<'_>| Attribute {
                    name: name_of(&sink.names, a.name),
                    value: &a.value,
                    span: a.span,
                    value_span: a.value_span,
                    is_id: a.is_id,
                }),
        );
        (sink.handler)(Event::StartElement(StartElement {
            name: name_of(&sink.names, element.name),
            attributes: &attributes,
            span: element.span,
            empty: element.empty,
        }));
        sink.attributes = recycle(attributes);
        if !element.empty {
            sink.open.push(element.name);
        }
    }

    fn end_element(&mut self, end: usize, end_tag: Option<Span>) {
        let sink = self;
        if let Some(name) = sink.open.pop() {
            (sink.handler)(Event::EndElement(EndElement {
                name: name_of(&sink.names, name),
                end,
                end_tag,
            }));
        }
    }

    fn text_storage(&mut self) -> &mut String {
        &mut self.storage
    }

    fn text(&mut self, text: Chars<'_>, cdata: &[(usize, usize)], span: Span) {
        let sink = self;
        let text = match text {
            Chars::Str(text) => text,
            Chars::Stored(start, end) => sink.storage.get(start..end).unwrap_or_default(),
        };
        (sink.handler)(Event::Text { text, cdata, span });
        sink.storage.clear();
    }

    fn comment(&mut self, data: &str, span: Span) {
        (self.handler)(Event::Comment { data, span });
    }

    fn processing_instruction(&mut self, target: &str, data: &str, span: Span) {
        (self.handler)(Event::ProcessingInstruction { target, data, span });
    }

    fn begin_expansion(&mut self, name: &str, reference: Span) {
        (self.handler)(Event::BeginExpansion { name, reference });
    }

    fn end_expansion(&mut self, balanced: bool) {
        (self.handler)(Event::EndExpansion { balanced });
    }

    fn dropped(&mut self, span: Span) {
        (self.handler)(Event::Dropped { span });
    }

    fn depth_dropped(&mut self, span: Span, continues: bool) {
        (self.handler)(Event::DepthDropped { span, continues });
    }

    fn depth_dropped_end(&mut self, end: usize) {
        (self.handler)(Event::DepthDroppedEnd { end });
    }

    fn error(&mut self, error: ParseError) {
        self.errors.push(Reverse(PendingError {
            error,
            found: self.found,
        }));
        self.found += 1;
    }

    const ORDERS_ERRORS: bool = true;

    fn errors_settled(&mut self, offset: usize) {
        self.hand_on_errors(offset);
    }

    fn finish(mut self) {
        self.hand_on_errors(usize::MAX);
    }
}

#[cfg(test)]
mod replay_tests;
