//! The [`TreeSink`] that turns what the tree builder reports into events,
//! handing errors on in source order with their lines and columns.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::decoding::Encoding;
use crate::dom::{LineIndex, NameId, Names};
use crate::error::{ErrorCode, ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{Doctype, XmlDecl};
use crate::tree_builder::{self, Chars, Source, TreeSink};

use super::{name_of, AttributeList, Attributes, EndElement, Event, StartElement};

/// What receives the events: a closure, or a queue (the pull reader's).
pub(crate) trait Handler {
    fn event(&mut self, event: Event<'_>);
}

impl<F: FnMut(Event<'_>)> Handler for F {
    #[inline]
    fn event(&mut self, event: Event<'_>) {
        self(event);
    }
}

/// Where an error stands among others at its offset, as a document lists
/// them: the cut of the input first (it is why the input ends there),
/// then what parsing found, then what decoding found, then a declaration
/// that disagrees with a byte-order mark (checked after the parse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ErrorClass {
    InputCut,
    Parse,
    Decoding,
    Declaration,
}

/// The sink that turns what the builder reports into events.
pub(crate) struct EventSink<H> {
    pub(crate) handler: H,
    pub(crate) names: Names,
    /// Unused: the builder leaves positions to a sink that orders errors.
    lines: LineIndex,
    /// The builder's storage for text it merges (emptied after each text
    /// event: the builder keeps nothing in it across text nodes).
    storage: String,
    /// The open elements, innermost last.
    open: Vec<OpenAt>,
    /// How many of the open elements, outermost first, have their line
    /// and column counted (the others' start tags are still in the window).
    positioned: usize,
    /// Errors found and not yet handed on, earliest first (by offset,
    /// class, then as found): they go in source order once the builder
    /// says no earlier one can come.
    errors: BinaryHeap<Reverse<PendingError>>,
    /// How many errors were found: the order among errors at one offset.
    found: u64,
    /// The encoding a byte-order mark or the first bytes gave, which the
    /// XML declaration's label must agree with.
    pub(crate) encoding_found: Option<Encoding>,
    /// The offset of the earliest error handed on since the stream last
    /// asked (its text may be wanted for a while: see `Stream::release`).
    pub(crate) handed_from: Option<usize>,
}

/// An open element: its name and where its start tag is, for an end tag
/// that does not close it (`ErrorContext::open`). The line and column are
/// counted only for a mismatch, or before the stream lets go of the start
/// tag's text; 20 bytes (the offset in two halves, not a `u64`, which would
/// pad it to 24): a stream's memory grows by this much with its depth.
struct OpenAt {
    name: NameId,
    line: u32,
    column: u32,
    start: [u32; 2],
}

const _: () = assert!(std::mem::size_of::<OpenAt>() == 20);

impl OpenAt {
    fn new(name: NameId, start: usize) -> OpenAt {
        let start = start as u64;
        OpenAt {
            name,
            line: 0,
            column: 0,
            start: [start as u32, (start >> 32) as u32],
        }
    }

    fn start(&self) -> usize {
        let start = u64::from(self.start[0]) | (u64::from(self.start[1]) << 32);
        usize::try_from(start).unwrap_or(usize::MAX)
    }
}

/// An error waiting in [`EventSink::errors`].
struct PendingError {
    error: ParseError,
    class: ErrorClass,
    found: u64,
    /// What the builder knew more (boxed: most errors have none).
    context: Option<Box<ErrorContext>>,
}

impl PendingError {
    fn key(&self) -> (usize, ErrorClass, u64) {
        (self.error.offset, self.class, self.found)
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

impl<H: Handler> EventSink<H> {
    pub(crate) fn new(handler: H) -> EventSink<H> {
        EventSink {
            handler,
            names: Names::new(),
            lines: LineIndex::default(),
            storage: String::new(),
            open: Vec::new(),
            positioned: 0,
            errors: BinaryHeap::new(),
            found: 0,
            encoding_found: None,
            handed_from: None,
        }
    }

    /// An error found outside the builder (its position is counted when it
    /// is handed on).
    pub(crate) fn classed_error(&mut self, code: ErrorCode, offset: usize, class: ErrorClass) {
        let error = ParseError {
            code,
            offset,
            line: 0,
            column: 0,
        };
        self.errors.push(Reverse(PendingError {
            error,
            class,
            found: self.found,
            context: None,
        }));
        self.found += 1;
    }

    /// Counts the lines and columns of the open elements whose start tags
    /// are before `offset` (in order: each open element starts after the
    /// one outside it, and after every element counted before it).
    fn position_open_elements(&mut self, offset: usize, source: &mut Source<'_>) {
        while let Some(open) = self.open.get_mut(self.positioned) {
            let start = open.start();
            if start >= offset {
                break;
            }
            (open.line, open.column) = source.position_in_order(start);
            self.positioned += 1;
        }
    }

    /// The offset of the earliest error waiting to be handed on (the
    /// source from there on is needed to count its line and column).
    pub(crate) fn waiting_from(&self) -> Option<usize> {
        self.errors.peek().map(|Reverse(e)| e.error.offset)
    }

    /// Hands on the errors before `offset` (all of them for `usize::MAX`),
    /// counting the lines and columns of those that have none yet.
    fn hand_on_errors(&mut self, offset: usize, source: &mut Source<'_>) {
        while self
            .errors
            .peek()
            .is_some_and(|Reverse(e)| e.error.offset < offset || offset == usize::MAX)
        {
            if let Some(Reverse(pending)) = self.errors.pop() {
                let mut error = pending.error;
                if self.handed_from.is_none() {
                    self.handed_from = Some(error.offset);
                }
                let (line, column) = source.position(error.offset);
                if error.line == 0 {
                    (error.line, error.column) = (line, column);
                }
                self.handler.event(Event::Error(error));
                if let Some(context) = &pending.context {
                    self.handler.event(Event::ErrorContext(context));
                }
            }
        }
    }
}

impl<H: Handler> TreeSink for EventSink<H> {
    type Output = H;

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
        if let (Some(encoding), Some(label)) = (self.encoding_found, declaration.encoding) {
            if !encoding.agrees_with(label) {
                let at = declaration.span.start;
                self.classed_error(ErrorCode::EncodingMismatch, at, ErrorClass::Declaration);
            }
        }
        self.handler.event(Event::XmlDeclaration(*declaration));
    }

    fn doctype(&mut self, doctype: &Doctype<'_>) {
        self.handler.event(Event::Doctype(*doctype));
    }

    #[inline]
    fn start_element(&mut self, element: &tree_builder::StartElement<'_>) {
        let attributes = Attributes {
            list: AttributeList::Parsed(element.attributes),
            names: &self.names,
        };
        self.handler.event(Event::StartElement(StartElement {
            name: name_of(&self.names, element.name),
            attributes,
            span: element.span,
            empty: element.empty,
        }));
        if !element.empty {
            self.open
                .push(OpenAt::new(element.name, element.span.start));
        }
    }

    #[inline]
    fn end_element(&mut self, end: usize, end_tag: Option<Span>) {
        if let Some(open) = self.open.pop() {
            self.positioned = self.positioned.min(self.open.len());
            self.handler.event(Event::EndElement(EndElement {
                name: name_of(&self.names, open.name),
                end,
                end_tag,
            }));
        }
    }

    fn text_storage(&mut self) -> &mut String {
        &mut self.storage
    }

    #[inline]
    fn text(&mut self, text: Chars<'_>, cdata: &[(usize, usize)], span: Span) {
        let text = match text {
            Chars::Str(text) | Chars::InSource(text, _) => text,
            Chars::Stored(start, end) => self.storage.get(start..end).unwrap_or_default(),
        };
        self.handler.event(Event::Text { text, cdata, span });
        self.storage.clear();
    }

    fn comment(&mut self, data: &str, span: Span) {
        self.handler.event(Event::Comment { data, span });
    }

    fn processing_instruction(&mut self, target: &str, data: &str, span: Span) {
        self.handler
            .event(Event::ProcessingInstruction { target, data, span });
    }

    fn begin_expansion(&mut self, name: &str, reference: Span) {
        self.handler
            .event(Event::BeginExpansion { name, reference });
    }

    fn end_expansion(&mut self, balanced: bool) {
        self.handler.event(Event::EndExpansion { balanced });
    }

    fn dropped(&mut self, span: Span) {
        self.handler.event(Event::Dropped { span });
    }

    fn depth_dropped(&mut self, span: Span, continues: bool) {
        self.handler.event(Event::DepthDropped { span, continues });
    }

    fn depth_dropped_end(&mut self, end: usize) {
        self.handler.event(Event::DepthDroppedEnd { end });
    }

    fn error(&mut self, error: ParseError) {
        self.errors.push(Reverse(PendingError {
            error,
            class: ErrorClass::Parse,
            found: self.found,
            context: None,
        }));
        self.found += 1;
    }

    fn error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        self.errors.push(Reverse(PendingError {
            error,
            class: ErrorClass::Parse,
            found: self.found,
            context: Some(Box::new(context)),
        }));
        self.found += 1;
    }

    fn open_element_start(&mut self, source: &mut Source<'_>) -> Option<(usize, u32, u32)> {
        self.position_open_elements(usize::MAX, source);
        let open = self.open.last()?;
        Some((open.start(), open.line, open.column))
    }

    fn before_release(&mut self, offset: usize, source: &mut Source<'_>) {
        self.position_open_elements(offset, source);
    }

    const ORDERS_ERRORS: bool = true;

    fn errors_settled(&mut self, offset: usize, source: &mut Source<'_>) {
        self.hand_on_errors(offset, source);
    }

    fn finish(self) -> H {
        self.handler
    }
}
