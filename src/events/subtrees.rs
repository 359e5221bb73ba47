//! Subtrees one at a time, in the manner of lxml's `iterparse`: each
//! element the caller selects comes as its own small [`Document`], built
//! from the events of the stream while the rest of the input passes by.
//!
//! While an element is collected its events are queued and the stream
//! keeps its source (the window is pinned at its start tag); when it
//! closes, the events are replayed into a document whose source is the
//! element's text, spans moved to match. The namespace declarations its
//! ancestors made are added to its root element, so it serializes alone
//! and answers XPath with the names it had in the stream. Memory is the
//! subtree being collected and the open ancestors, never the document.

use std::io::Read;

use crate::decoding::ParseOptions;
use crate::dom::{Document, SourceText, XMLNS_NAMESPACE};
use crate::error::{Error, ParseError};
use crate::tree_builder::{DocumentSink, TreeSink};

use super::reader::Queue;
use super::replay::replay;
use super::sink::Handler;
use super::{Event, Reader, StartElement};

/// An open element above the subtrees, as [`Subtrees`] keeps it: its name
/// and attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenElement {
    name: String,
    /// Where the local name starts in `name`.
    local: usize,
    namespace: Option<String>,
    attributes: Vec<OpenAttribute>,
}

/// An attribute of an [`OpenElement`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenAttribute {
    /// The qualified name, as written.
    pub name: String,
    /// Its namespace, if any (namespace declarations are in the xmlns
    /// namespace).
    pub namespace: Option<String>,
    /// The value, as the DOM keeps it.
    pub value: String,
}

impl OpenElement {
    fn of(start: &StartElement<'_>) -> OpenElement {
        let name = start.name;
        OpenElement {
            name: name.qualified.to_owned(),
            local: name.qualified.len() - name.local.len(),
            namespace: name.namespace.map(str::to_owned),
            attributes: start
                .attributes
                .iter()
                .map(|a| OpenAttribute {
                    name: a.name.qualified.to_owned(),
                    namespace: a.name.namespace.map(str::to_owned),
                    value: a.value.to_owned(),
                })
                .collect(),
        }
    }

    /// The qualified name, as written.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The local name.
    pub fn local_name(&self) -> &str {
        self.name.get(self.local..).unwrap_or_default()
    }

    /// The namespace, if any.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// The attributes, in order (namespace declarations among them).
    pub fn attributes(&self) -> &[OpenAttribute] {
        &self.attributes
    }

    /// The value of the attribute with this qualified name.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.value.as_str())
    }

    /// The namespace declarations it makes: (prefix, or `""` for the
    /// default namespace; URI, `""` where it undeclares).
    fn declarations(&self) -> impl Iterator<Item = (&str, &str)> {
        self.attributes
            .iter()
            .filter(|a| a.namespace.as_deref() == Some(XMLNS_NAMESPACE))
            .map(|a| {
                (
                    a.name.strip_prefix("xmlns:").unwrap_or(""),
                    a.value.as_str(),
                )
            })
    }

    /// Whether it has this name: `{namespace}local` (the namespace, maybe
    /// empty, in braces) or the qualified name as written.
    fn is(&self, name: &str) -> bool {
        match name.strip_prefix('{').and_then(|rest| rest.split_once('}')) {
            Some((namespace, local)) => {
                self.namespace().unwrap_or_default() == namespace && self.local_name() == local
            }
            None => self.name == name,
        }
    }
}

/// A subtree [`Subtrees`] hands over: the element as a document of its
/// own, and the elements it was inside.
#[derive(Debug)]
pub struct Subtree {
    document: Document,
    ancestors: Vec<OpenElement>,
    offset: usize,
}

impl Subtree {
    /// The element as a document: its root element is the element, its
    /// source the element's text in the stream (with the namespace
    /// declarations of its ancestors added to the root element). Parse
    /// errors are not in it: [`Subtrees::on_error`] sees them all.
    pub fn document(&self) -> &Document {
        &self.document
    }

    /// The document, to keep or edit.
    pub fn into_document(self) -> Document {
        self.document
    }

    /// The open elements it was inside, outermost first.
    pub fn ancestors(&self) -> &[OpenElement] {
        &self.ancestors
    }

    /// Where its start tag begins in the stream's text: offsets in the
    /// document are from there.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// What [`Subtrees`] selects with: given the open elements, outermost
/// first and the element just opened last, whether that element is one.
type Select = Box<dyn FnMut(&[OpenElement]) -> bool>;

/// What [`Subtrees::on_error`] is given.
type ErrorHandler = Box<dyn FnMut(&ParseError)>;

/// The subtree being collected.
struct Collecting {
    start: usize,
    /// Its elements still open, itself included.
    depth: usize,
    events: Queue,
}

/// Each selected element of a stream as its own [`Document`], one at a
/// time (an iterator), in memory bounded by the largest of them and the
/// depth above them. Elements inside a selected one are part of it, not
/// selected again.
///
/// ```
/// use xml5dom::events::Subtrees;
/// use xml5dom::query::XPath;
///
/// let id = XPath::compile("string(/*/*[local-name()='id'])").unwrap();
/// let feed = "<feed xmlns='urn:f'><entry><id>1</id></entry>\
///             <entry><id>2<title>broken</entry></feed>";
/// let mut ids = Vec::new();
/// for entry in Subtrees::named(feed.as_bytes(), "entry") {
///     let entry = entry.unwrap();
///     let doc = entry.document();
///     let root = doc.root_element().unwrap();
///     assert_eq!(root.namespace(), Some("urn:f"));
///     ids.push(id.evaluate(doc.root()).unwrap().to_xpath_string());
///     assert_eq!(entry.ancestors()[0].local_name(), "feed");
/// }
/// assert_eq!(ids, ["1", "2broken"]);
/// ```
pub struct Subtrees<R> {
    reader: Reader<R>,
    select: Select,
    on_error: Option<ErrorHandler>,
    /// The open elements above (and, until it closes, of) the subtree
    /// being collected.
    open: Vec<OpenElement>,
    collecting: Option<Collecting>,
}

impl<R: Read> Subtrees<R> {
    /// The elements of `input`'s bytes with this name: `{namespace}local`
    /// or a qualified name as written.
    pub fn named(input: R, name: &str) -> Subtrees<R> {
        Subtrees::named_with(input, name, &ParseOptions::default())
    }

    /// [`Subtrees::named`] with options (limits, the encoding).
    ///
    /// ```
    /// use xml5dom::events::Subtrees;
    /// use xml5dom::ParseOptions;
    ///
    /// let options = ParseOptions::default().encoding_label("iso-8859-1").unwrap();
    /// let input = &b"<feed><entry>caf\xe9</entry></feed>"[..];
    /// let entry = Subtrees::named_with(input, "entry", &options).next().unwrap().unwrap();
    /// assert_eq!(entry.document().root_element().unwrap().text_content(), "caf\u{e9}");
    /// ```
    pub fn named_with(input: R, name: &str, options: &ParseOptions) -> Subtrees<R> {
        let name = name.to_owned();
        let reader = Reader::with_options(input, options);
        Subtrees::new(reader, move |open: &[OpenElement]| {
            open.last().is_some_and(|element| element.is(&name))
        })
    }

    /// The elements of `reader`'s stream that `select` chooses: it is
    /// given the open elements, outermost first, the element just opened
    /// last.
    pub fn new(
        reader: Reader<R>,
        select: impl FnMut(&[OpenElement]) -> bool + 'static,
    ) -> Subtrees<R> {
        Subtrees {
            reader,
            select: Box::new(select),
            on_error: None,
            open: Vec::new(),
            collecting: None,
        }
    }

    /// Calls `handler` with each parse error of the stream, in source order.
    pub fn on_error(mut self, handler: impl FnMut(&ParseError) + 'static) -> Subtrees<R> {
        self.on_error = Some(Box::new(handler));
        self
    }

    /// How many bytes were read from the input so far.
    pub fn bytes_read(&self) -> u64 {
        self.reader.bytes_read()
    }

    /// The next subtree, if the stream has one more.
    fn next_subtree(&mut self) -> Result<Option<Subtree>, Error> {
        loop {
            let Some(event) = self.reader.next_event()? else {
                return Ok(None);
            };
            match &event {
                Event::Error(error) => {
                    if let Some(handler) = &mut self.on_error {
                        handler(error);
                    }
                    continue;
                }
                // (A subtree's document has no errors to give it to.)
                Event::ErrorContext(_) => continue,
                _ => {}
            }
            let complete = match (&mut self.collecting, event) {
                (Some(collecting), event) => {
                    match event {
                        Event::StartElement(start) if !start.empty => collecting.depth += 1,
                        Event::EndElement(_) => collecting.depth -= 1,
                        _ => {}
                    }
                    collecting.events.event(event);
                    (collecting.depth == 0).then_some(event_end(&event))
                }
                (None, Event::StartElement(start)) => {
                    self.open.push(OpenElement::of(&start));
                    if (self.select)(&self.open) {
                        let mut events = Queue::default();
                        events.event(event);
                        self.collecting = Some(Collecting {
                            start: start.span.start,
                            depth: usize::from(!start.empty),
                            events,
                        });
                        start.empty.then_some(start.span.end)
                    } else {
                        if start.empty {
                            self.open.pop();
                        }
                        None
                    }
                }
                (None, Event::EndElement(_)) => {
                    self.open.pop();
                    None
                }
                (None, _) => None,
            };
            if let Some(collecting) = &self.collecting {
                // The stream keeps the subtree's source from its start tag.
                self.reader.hold(Some(collecting.start));
            }
            if let Some(end) = complete {
                return Ok(Some(self.build(end)));
            }
        }
    }

    /// The subtree collected, which ends at `end`.
    fn build(&mut self, end: usize) -> Subtree {
        let collecting = self.collecting.take();
        let subtree_root = self.open.pop();
        let Some(collecting) = collecting else {
            return Subtree {
                document: Document::parse(""),
                ancestors: self.open.clone(),
                offset: end,
            };
        };
        let start = collecting.start;
        let source = self
            .reader
            .source(start, end)
            .unwrap_or_default()
            .to_owned();
        self.reader.hold(None);
        let names = self.reader.names();
        let mut sink = DocumentSink::without_copy(&source);
        let queue = &collecting.events;
        for queued in &queue.events {
            replay(&mut sink, &source, queue.view(queued, names), start);
        }
        let mut document = sink.finish();
        document.give_source(SourceText::Owned(source));
        self.declare_ancestors_namespaces(&mut document, subtree_root.as_ref());
        Subtree {
            document,
            ancestors: self.open.clone(),
            offset: start,
        }
    }

    /// Declares on the subtree's root element the namespaces its
    /// ancestors declared and it does not, nearest first.
    fn declare_ancestors_namespaces(&self, document: &mut Document, root: Option<&OpenElement>) {
        let Some(element) = document.root_element().map(|e| e.id()) else {
            return;
        };
        // The prefixes settled so far (a set: an ancestor may declare many).
        let mut declared: std::collections::HashSet<&str> = root
            .map(|root| root.declarations().map(|(prefix, _)| prefix).collect())
            .unwrap_or_default();
        for ancestor in self.open.iter().rev() {
            for (prefix, uri) in ancestor.declarations() {
                if !declared.insert(prefix) {
                    continue;
                }
                if uri.is_empty() && !prefix.is_empty() {
                    continue;
                }
                let name = match prefix {
                    "" => "xmlns".to_owned(),
                    prefix => format!("xmlns:{prefix}"),
                };
                // One that would change a name's namespace is left out:
                // the names keep the namespaces they had in the stream.
                let _ = document.set_attribute(element, &name, uri);
            }
        }
    }
}

/// Where an event that closes a subtree ends it.
fn event_end(event: &Event<'_>) -> usize {
    match event {
        Event::EndElement(end) => end.end,
        Event::StartElement(start) => start.span.end,
        _ => 0,
    }
}

impl<R: Read> Iterator for Subtrees<R> {
    type Item = Result<Subtree, Error>;

    fn next(&mut self) -> Option<Result<Subtree, Error>> {
        self.next_subtree().transpose()
    }
}
