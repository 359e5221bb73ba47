//! The pull reader: events one call at a time, from any `io::Read`.
//!
//! The stream driver pushes events; the reader feeds it a piece of input
//! whenever its queue runs dry, and keeps the events a piece made in a
//! [`Queue`]: each a small record whose strings are ranges of one string
//! storage and whose names are ids of the parse's table of names. The
//! storage is emptied when the queue is, so it holds one piece's events.

use std::collections::VecDeque;
use std::io::Read;

use crate::decoding::ParseOptions;
use crate::dom::{NameId, Names};
use crate::dtd::Declarations;
use crate::error::{Error, ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{Doctype, XmlDecl};

use super::sink::Handler;
use super::stream::{Stream, READ_SIZE};
use super::{name_of, AttributeList, Attributes, EndElement, Event, QueuedAttribute, StartElement};

/// A range of a queue's string storage.
type Range = (usize, usize);

/// An event as a queue keeps it.
#[derive(Debug)]
pub(crate) enum Queued {
    XmlDeclaration(Box<OwnedXmlDecl>),
    Doctype(Box<OwnedDoctype>),
    Start {
        name: NameId,
        attributes: Range,
        span: Span,
        empty: bool,
    },
    End {
        name: NameId,
        end: usize,
        end_tag: Option<Span>,
    },
    Text {
        text: Range,
        cdata: Range,
        span: Span,
    },
    Comment {
        data: Range,
        span: Span,
    },
    ProcessingInstruction {
        target: Range,
        data: Range,
        span: Span,
    },
    BeginExpansion {
        name: Range,
        reference: Span,
    },
    EndExpansion {
        balanced: bool,
    },
    Dropped {
        span: Span,
    },
    DepthDropped {
        span: Span,
        continues: bool,
    },
    DepthDroppedEnd {
        end: usize,
    },
    Error(ParseError),
    ErrorContext(Box<ErrorContext>),
}

/// An XML declaration a queue keeps.
#[derive(Debug)]
pub(crate) struct OwnedXmlDecl {
    version: Option<String>,
    encoding: Option<String>,
    standalone: Option<String>,
    data: String,
    span: Span,
}

/// A DOCTYPE a queue keeps.
pub(crate) struct OwnedDoctype {
    name: Option<String>,
    public_id: Option<String>,
    system_id: Option<String>,
    internal_subset: Option<String>,
    subset_span: Option<Span>,
    subset_items: Vec<Span>,
    subset_entities: Vec<(usize, Box<str>)>,
    declarations: Option<Declarations>,
    span: Span,
}

impl std::fmt::Debug for OwnedDoctype {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnedDoctype")
            .field("name", &self.name)
            .field("span", &self.span)
            .finish_non_exhaustive()
    }
}

/// Events kept between the parse that made them and the caller that reads
/// them.
#[derive(Default)]
pub(crate) struct Queue {
    pub(crate) events: VecDeque<Queued>,
    strings: String,
    attributes: Vec<QueuedAttribute>,
    cdata: Vec<Range>,
}

impl Queue {
    fn string(&mut self, s: &str) -> Range {
        let start = self.strings.len();
        self.strings.push_str(s);
        (start, self.strings.len())
    }

    /// Empties the queue and its storage (keeping their allocations).
    pub(crate) fn clear(&mut self) {
        self.events.clear();
        self.strings.clear();
        self.attributes.clear();
        self.cdata.clear();
    }

    /// The event `queued` (of this queue) as [`Event`] gives it.
    pub(crate) fn view<'e>(&'e self, queued: &'e Queued, names: &'e Names) -> Event<'e> {
        let s = |(start, end): Range| self.strings.get(start..end).unwrap_or_default();
        match queued {
            Queued::XmlDeclaration(d) => Event::XmlDeclaration(XmlDecl {
                version: d.version.as_deref(),
                encoding: d.encoding.as_deref(),
                standalone: d.standalone.as_deref(),
                data: &d.data,
                span: d.span,
            }),
            Queued::Doctype(d) => Event::Doctype(Doctype {
                name: d.name.as_deref(),
                public_id: d.public_id.as_deref(),
                system_id: d.system_id.as_deref(),
                internal_subset: d.internal_subset.as_deref(),
                subset_span: d.subset_span,
                subset_items: &d.subset_items,
                subset_entities: &d.subset_entities,
                declarations: d.declarations.as_ref(),
                span: d.span,
            }),
            &Queued::Start {
                name,
                attributes: (first, end),
                span,
                empty,
            } => Event::StartElement(StartElement {
                name: name_of(names, name),
                attributes: Attributes {
                    list: AttributeList::Queued(
                        self.attributes.get(first..end).unwrap_or_default(),
                        &self.strings,
                    ),
                    names,
                },
                span,
                empty,
            }),
            &Queued::End { name, end, end_tag } => Event::EndElement(EndElement {
                name: name_of(names, name),
                end,
                end_tag,
            }),
            &Queued::Text {
                text,
                cdata: (first, end),
                span,
            } => Event::Text {
                text: s(text),
                cdata: self.cdata.get(first..end).unwrap_or_default(),
                span,
            },
            &Queued::Comment { data, span } => Event::Comment {
                data: s(data),
                span,
            },
            &Queued::ProcessingInstruction { target, data, span } => Event::ProcessingInstruction {
                target: s(target),
                data: s(data),
                span,
            },
            &Queued::BeginExpansion { name, reference } => Event::BeginExpansion {
                name: s(name),
                reference,
            },
            &Queued::EndExpansion { balanced } => Event::EndExpansion { balanced },
            &Queued::Dropped { span } => Event::Dropped { span },
            &Queued::DepthDropped { span, continues } => Event::DepthDropped { span, continues },
            &Queued::DepthDroppedEnd { end } => Event::DepthDroppedEnd { end },
            &Queued::Error(error) => Event::Error(error),
            Queued::ErrorContext(context) => Event::ErrorContext(context),
        }
    }
}

impl Handler for Queue {
    fn event(&mut self, event: Event<'_>) {
        let queued = match event {
            Event::XmlDeclaration(d) => Queued::XmlDeclaration(Box::new(OwnedXmlDecl {
                version: d.version.map(str::to_owned),
                encoding: d.encoding.map(str::to_owned),
                standalone: d.standalone.map(str::to_owned),
                data: d.data.to_owned(),
                span: d.span,
            })),
            Event::Doctype(d) => Queued::Doctype(Box::new(OwnedDoctype {
                name: d.name.map(str::to_owned),
                public_id: d.public_id.map(str::to_owned),
                system_id: d.system_id.map(str::to_owned),
                internal_subset: d.internal_subset.map(str::to_owned),
                subset_span: d.subset_span,
                subset_items: d.subset_items.to_vec(),
                subset_entities: d.subset_entities.to_vec(),
                declarations: d.declarations.cloned(),
                span: d.span,
            })),
            Event::StartElement(start) => {
                let first = self.attributes.len();
                for attribute in start.attributes {
                    let value = self.string(attribute.value);
                    self.attributes.push(QueuedAttribute {
                        name: attribute.name.id,
                        value,
                        span: attribute.span,
                        value_span: attribute.value_span,
                        is_id: attribute.is_id,
                    });
                }
                Queued::Start {
                    name: start.name.id,
                    attributes: (first, self.attributes.len()),
                    span: start.span,
                    empty: start.empty,
                }
            }
            Event::EndElement(end) => Queued::End {
                name: end.name.id,
                end: end.end,
                end_tag: end.end_tag,
            },
            Event::Text { text, cdata, span } => {
                let first = self.cdata.len();
                self.cdata.extend_from_slice(cdata);
                Queued::Text {
                    text: self.string(text),
                    cdata: (first, self.cdata.len()),
                    span,
                }
            }
            Event::Comment { data, span } => Queued::Comment {
                data: self.string(data),
                span,
            },
            Event::ProcessingInstruction { target, data, span } => Queued::ProcessingInstruction {
                target: self.string(target),
                data: self.string(data),
                span,
            },
            Event::BeginExpansion { name, reference } => Queued::BeginExpansion {
                name: self.string(name),
                reference,
            },
            Event::EndExpansion { balanced } => Queued::EndExpansion { balanced },
            Event::Dropped { span } => Queued::Dropped { span },
            Event::DepthDropped { span, continues } => Queued::DepthDropped { span, continues },
            Event::DepthDroppedEnd { end } => Queued::DepthDroppedEnd { end },
            Event::Error(error) => Queued::Error(error),
            Event::ErrorContext(context) => Queued::ErrorContext(Box::new(context.clone())),
        };
        self.events.push_back(queued);
    }
}

/// A pull reader of XML5 events: what [`parse_reader`](super::parse_reader)
/// hands a closure, one [`next_event`](Reader::next_event) at a time, in
/// the same bounded memory (the input read in pieces of 64 KiB, and the
/// events of one piece kept until they are read).
///
/// ```
/// use xml5dom::events::{Event, Reader};
///
/// let mut reader = Reader::new("<list><item>1<item>2</list>".as_bytes());
/// let mut items = Vec::new();
/// let mut errors = 0;
/// while let Some(event) = reader.next_event().unwrap() {
///     match event {
///         Event::Text { text, .. } => items.push(text.to_owned()),
///         Event::Error(_) => errors += 1,
///         _ => {}
///     }
/// }
/// assert_eq!(items, ["1", "2"]);
/// assert_eq!(errors, 1); // `</list>` closes both items
/// ```
pub struct Reader<R> {
    input: R,
    stream: Stream<Queue>,
    buffer: Vec<u8>,
    /// The event handed out last.
    current: Option<Queued>,
    /// Bytes read from the input.
    read: u64,
    /// The input ended and the parse finished.
    done: bool,
}

impl<R: Read> Reader<R> {
    /// A reader of `input`'s bytes, with the default options (the encoding
    /// sniffed as [`Document::parse_bytes`](crate::dom::Document::parse_bytes)
    /// does).
    pub fn new(input: R) -> Reader<R> {
        Reader::with_options(input, &ParseOptions::default())
    }

    /// A reader with options (limits, the encoding).
    pub fn with_options(input: R, options: &ParseOptions) -> Reader<R> {
        Reader::make(input, options, false)
    }

    pub(crate) fn make(input: R, options: &ParseOptions, text: bool) -> Reader<R> {
        Reader {
            input,
            stream: Stream::new(Queue::default(), options, text).queued(),
            buffer: vec![0; READ_SIZE],
            current: None,
            read: 0,
            done: false,
        }
    }

    /// How many bytes were read from the input so far.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }

    /// The next event, or `None` once the input has ended and every event
    /// was read. Only reading the input can fail.
    pub fn next_event(&mut self) -> Result<Option<Event<'_>>, Error> {
        loop {
            if let Some(queued) = self.stream.handler_mut().events.pop_front() {
                self.current = Some(queued);
                break;
            }
            if self.done {
                return Ok(None);
            }
            // The events of the last piece were all read.
            self.current = None;
            self.stream.handler_mut().clear();
            self.read_more()?;
        }
        let (queue, names) = self.stream.handler_and_names();
        let queue: &Queue = queue;
        Ok(self
            .current
            .as_ref()
            .map(|queued| queue.view(queued, names)))
    }

    /// Feeds the next piece of input, or ends the parse where the input
    /// ends.
    fn read_more(&mut self) -> Result<(), Error> {
        let read = loop {
            match self.input.read(&mut self.buffer) {
                Ok(read) => break read,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(Error::Read {
                        path: "input".to_owned(),
                        source,
                    })
                }
            }
        };
        self.read += read as u64;
        // The events read so far are done with: their source may go.
        self.stream.release();
        if read == 0 || self.stream.ended() {
            self.stream.end();
            self.done = true;
        } else {
            self.stream.feed_bytes(&self.buffer[..read]);
        }
        Ok(())
    }

    /// The encoding the input is read in and how it was found, once
    /// sniffing could tell (for text: UTF-8, [`EncodingSource::Default`]).
    ///
    /// [`EncodingSource::Default`]: crate::decoding::EncodingSource::Default
    pub fn encoding(&self) -> Option<(crate::decoding::Encoding, crate::decoding::EncodingSource)> {
        self.stream.encoding()
    }

    /// How many bytes of text (decoded) were parsed so far: the events
    /// read are of text before it.
    pub fn text_read(&self) -> usize {
        self.stream.text_fed()
    }

    /// The text between two offsets, if the reader still holds it. It
    /// holds the text from where its unfinished token (or the text of the
    /// node being built) starts, the last piece read, and anything after
    /// an offset [held](Self::hold).
    pub fn source(&mut self, start: usize, end: usize) -> Option<&str> {
        self.stream.source(start, end)
    }

    /// Keeps `bytes` of text (for [`source`](Self::source)) before any
    /// error still to come: a tool that shows an error's line can find
    /// the text before it.
    pub fn keep_context(&mut self, bytes: usize) {
        self.stream.keep_behind(bytes);
    }

    /// Keeps the text from `offset` on (for [`source`](Self::source)) until
    /// held elsewhere or let go with `None`: for a tool that shows the
    /// source around an error it has not yet shown, say.
    ///
    /// ```
    /// use xml5dom::events::{Event, Reader};
    ///
    /// let text = "<a>".to_owned() + &"<b>x</b>".repeat(20_000) + "</c></a>";
    /// let mut reader = Reader::from_str(&text);
    /// reader.hold(Some(0));
    /// while let Some(event) = reader.next_event().unwrap() {
    ///     if let Event::Error(error) = event {
    ///         let at = error.offset;
    ///         assert_eq!(reader.source(at, at + 4), Some("</c>"));
    ///         break;
    ///     }
    /// }
    /// assert_eq!(reader.source(0, 3), Some("<a>"));
    /// ```
    pub fn hold(&mut self, offset: Option<usize>) {
        self.stream.pin(offset);
    }

    /// The table of names of the events' names.
    pub(crate) fn names(&self) -> &Names {
        self.stream.names()
    }
}

impl<'a> Reader<&'a [u8]> {
    /// A reader of text (no sniffing: it is text already).
    ///
    /// ```
    /// use xml5dom::events::{Event, Reader};
    /// let mut reader = Reader::from_str("<a>caf\u{e9}</a>");
    /// let mut text = String::new();
    /// while let Some(event) = reader.next_event().unwrap() {
    ///     if let Event::Text { text: t, .. } = event {
    ///         text.push_str(t);
    ///     }
    /// }
    /// assert_eq!(text, "caf\u{e9}");
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &'a str) -> Reader<&'a [u8]> {
        Reader::from_str_with(text, &ParseOptions::default())
    }

    /// [`from_str`](Self::from_str) with options (the limits).
    pub fn from_str_with(text: &'a str, options: &ParseOptions) -> Reader<&'a [u8]> {
        Reader::make(text.as_bytes(), options, true)
    }
}
