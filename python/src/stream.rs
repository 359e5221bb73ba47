//! Streaming (issue 33): the engine of `iterparse` and `XMLPullParser`
//! (`xml5dom/etree.py`), over the library's push parser of events and its
//! document builder.
//!
//! Bytes are fed to an `events::Parser`; each event it hands on is added
//! to the document by an `events::DocumentBuilder` and, if the caller asked
//! for its kind, queued as the node it made. The queue is turned into
//! Python objects only as it is read. The document lives in the `DocCell`
//! Python's proxies share, and is lent to the builder for each feed (under
//! the write lock, so no proxy reads it meanwhile). The document is a
//! streamed one (`share_streamed`): what the caller takes out of the tree
//! and nothing holds is freed, so lxml's idiom (clear each element once
//! read) keeps memory bounded.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::exceptions::{PyLookupError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use xml5dom::events::{DocumentBuilder, Event, Parser};
use xml5dom::{Document, Encoding, NodeId, ParseOptions, XMLNS_NAMESPACE};

use crate::element::Element;
use crate::log::{log_of, parse_entries, parse_entry, refuse_errors_from, ErrorLog, LogEntry};
use crate::nodes::name_matches;
use crate::{read, share_streamed, write, Shared};

const START: u8 = 1;
const END: u8 = 2;
const START_NS: u8 = 4;
const END_NS: u8 = 8;
const COMMENT: u8 = 16;
const PI: u8 = 32;
const ERROR: u8 = 64;

/// The flag of an event name lxml knows (and `error`, ours).
fn event_flag(name: &str) -> Option<u8> {
    Some(match name {
        "start" => START,
        "end" => END,
        "start-ns" => START_NS,
        "end-ns" => END_NS,
        "comment" => COMMENT,
        "pi" => PI,
        "error" => ERROR,
        _ => return None,
    })
}

/// An event waiting to be read.
enum Queued {
    Start(NodeId),
    End(NodeId),
    StartNs(String, String),
    EndNs,
    Comment(NodeId),
    Pi(NodeId),
    /// The index of the error in the document's errors.
    Error(usize),
}

impl Queued {
    fn node(&self) -> Option<NodeId> {
        match *self {
            Queued::Start(id) | Queued::End(id) | Queued::Comment(id) | Queued::Pi(id) => Some(id),
            _ => None,
        }
    }
}

/// What the event handler keeps: the builder and what it queued.
struct State {
    builder: DocumentBuilder,
    wanted: u8,
    /// The `tag=` filters (`nodes::name_matches`), if any.
    tags: Option<Vec<String>>,
    /// Each waiting event with where it is in the source.
    queue: VecDeque<(usize, Queued)>,
    /// Where the event being taken is in the source.
    at: usize,
    /// What `__next__` may hand out: the events before this offset (where
    /// the piece fed last began), so that the errors the stream settles a
    /// little after their events still come before them.
    release_before: usize,
    /// Each open element: whether it was selected, and how many namespace
    /// declarations it made (an `end-ns` each when it closes).
    open: Vec<(bool, u32)>,
    root: Option<NodeId>,
    /// The proxies' cell, whose `Held` counts queued nodes.
    cell: Shared,
    /// Events since the kept subtrees were last swept, and what the sweep
    /// walked then (a sweep waits until as many events came).
    since_sweep: usize,
    sweep_cost: usize,
}

impl State {
    fn push(&mut self, item: Queued) {
        if let (Some(id), Some(Ok(mut held))) =
            (item.node(), self.cell.held.as_ref().map(|h| h.lock()))
        {
            held.hold(id);
        }
        self.queue.push_back((self.at, item));
    }

    /// Queues an error before the waiting events from where it is on: the
    /// stream settles an error a little after the events around it (once
    /// no earlier one can come), and the caller sees it where it occurred,
    /// before the `end` of the element whose end tag it is about.
    fn push_error(&mut self, offset: usize, index: usize) {
        let mut at = self.queue.len();
        // (Errors stay in the order they came: source order.)
        while at > 0
            && self.queue[at - 1].0 >= offset
            && !matches!(self.queue[at - 1].1, Queued::Error(_))
        {
            at -= 1;
        }
        self.queue.insert(at, (offset, Queued::Error(index)));
    }

    fn selects(&self, namespace: Option<&str>, local: &str) -> bool {
        self.tags
            .as_ref()
            .is_none_or(|tags| tags.iter().any(|t| name_matches(namespace, local, t)))
    }

    /// Builds what `event` makes and queues what the caller asked for.
    fn take(&mut self, event: Event<'_>) {
        self.since_sweep += 1;
        match event {
            Event::StartElement(start) => {
                self.at = start.span.start;
                let mut declared = 0;
                if self.wanted & (START_NS | END_NS) != 0 {
                    for attribute in start.attributes.iter() {
                        let qualified = attribute.name.qualified;
                        let prefix = qualified.strip_prefix("xmlns:").unwrap_or("");
                        // `xmlns:xml` binds what is bound anyway: lxml
                        // hands out nothing for it.
                        if attribute.name.namespace != Some(XMLNS_NAMESPACE) || prefix == "xml" {
                            continue;
                        }
                        declared += 1;
                        if self.wanted & START_NS != 0 {
                            self.push(Queued::StartNs(
                                prefix.to_string(),
                                attribute.value.to_string(),
                            ));
                        }
                    }
                }
                let selected = self.selects(start.name.namespace, start.name.local);
                let top = self.open.is_empty();
                let made = self.builder.push(event);
                if let Some(id) = made {
                    if top && self.root.is_none() {
                        self.root = Some(id);
                    }
                    if selected && self.wanted & START != 0 {
                        self.push(Queued::Start(id));
                    }
                }
                if start.empty {
                    self.close(made, selected, declared);
                } else {
                    self.open.push((selected, declared));
                }
            }
            Event::EndElement(end) => {
                self.at = end.end_tag.map_or(end.end, |tag| tag.start);
                let closed = self.builder.push(event);
                if let Some((selected, declared)) = self.open.pop() {
                    self.close(closed, selected, declared);
                }
            }
            Event::Comment { span, .. } => {
                self.at = span.start;
                let made = self.builder.push(event);
                if let Some(id) = made.filter(|_| self.wanted & COMMENT != 0) {
                    self.push(Queued::Comment(id));
                }
            }
            Event::ProcessingInstruction { span, .. } => {
                self.at = span.start;
                let made = self.builder.push(event);
                if let Some(id) = made.filter(|_| self.wanted & PI != 0) {
                    self.push(Queued::Pi(id));
                }
            }
            Event::Error(error) => {
                self.builder.push(event);
                if self.wanted & ERROR != 0 {
                    let index = self.builder.document().errors().len().saturating_sub(1);
                    self.push_error(error.offset, index);
                }
            }
            _ => {
                self.builder.push(event);
            }
        }
    }

    /// An element closes: its `end`, then an `end-ns` for each namespace
    /// it declared.
    fn close(&mut self, element: Option<NodeId>, selected: bool, declared: u32) {
        if let Some(id) = element.filter(|_| selected && self.wanted & END != 0) {
            self.push(Queued::End(id));
        }
        if self.wanted & END_NS != 0 {
            for _ in 0..declared {
                self.push(Queued::EndNs);
            }
        }
    }
}

type Handler = Box<dyn FnMut(Event<'_>) + Send>;

/// The engine of one streamed parse: the parser (made at the first feed,
/// when it is known whether text or bytes come), the handler's state, the
/// document's cell.
struct Engine {
    parser: Option<Parser<Handler>>,
    /// The options (an encoding the caller named) the parser is made with.
    options: ParseOptions,
    closed: bool,
    /// A `recover=False` parse met an error: it stops there.
    failed: bool,
    /// The errors a `recover=False` parse looked at already.
    checked: usize,
    recover: bool,
    state: Arc<Mutex<State>>,
    cell: Shared,
}

fn lock<T>(mutex: &Mutex<T>) -> PyResult<MutexGuard<'_, T>> {
    mutex
        .lock()
        .map_err(|_| PyRuntimeError::new_err("the parser's lock was poisoned"))
}

impl EventStream {
    /// The next waiting event as `(name, value)`; with `released_only`,
    /// only one `__next__` may hand out yet (see `State::release_before`).
    fn pop_event(
        &self,
        py: Python<'_>,
        released_only: bool,
    ) -> PyResult<Option<(Py<PyAny>, Py<PyAny>)>> {
        // No lock of ours is held while Python objects are made.
        let (item, cell) = {
            let engine = lock(&self.engine)?;
            let mut state = lock(&engine.state)?;
            let limit = match released_only && !engine.closed {
                true => state.release_before,
                false => usize::MAX,
            };
            let item = match state.queue.front() {
                Some(&(at, _)) if at < limit => state.queue.pop_front().map(|(_, item)| item),
                _ => None,
            };
            (item, engine.cell.clone())
        };
        let Some(item) = item else {
            return Ok(None);
        };
        let cell = &cell;
        let name = |n: &Bound<'_, PyString>| n.clone().into_any().unbind();
        // The queue's hold on the node becomes the proxy's.
        let proxy = |id: NodeId| -> PyResult<Py<PyAny>> {
            Ok(Py::new(py, Element::taking_hold(cell.clone(), id))?.into_any())
        };
        Ok(Some(match item {
            Queued::Start(id) => (name(intern!(py, "start")), proxy(id)?),
            Queued::End(id) => (name(intern!(py, "end")), proxy(id)?),
            Queued::Comment(id) => (name(intern!(py, "comment")), proxy(id)?),
            Queued::Pi(id) => (name(intern!(py, "pi")), proxy(id)?),
            Queued::StartNs(prefix, uri) => (
                name(intern!(py, "start-ns")),
                (prefix, uri).into_pyobject(py)?.into_any().unbind(),
            ),
            Queued::EndNs => (name(intern!(py, "end-ns")), py.None()),
            Queued::Error(index) => {
                let entry: Option<LogEntry> = parse_entry(&*read(cell)?, index);
                let value = match entry {
                    Some(entry) => Py::new(py, entry)?.into_any(),
                    None => py.None(),
                };
                (name(intern!(py, "error")), value)
            }
        }))
    }

    /// The input read to its end: lets the file go (closing it if the
    /// stream opened it).
    fn end_source(&self, py: Python<'_>) -> PyResult<()> {
        let source = lock(&self.source)?.take();
        match source {
            Some(Source { file, close: true }) => file.call_method0(py, "close").map(drop),
            _ => Ok(()),
        }
    }
}

impl Engine {
    /// Makes the parser at the first feed (or the close of an input that
    /// had none): of text (`is_text`, decoded already, so a declaration's
    /// encoding does not apply) or of bytes.
    fn start(&mut self, is_text: bool) {
        if self.parser.is_some() {
            return;
        }
        let mut options = self.options.clone();
        if is_text {
            options.encoding = Some(Encoding::UTF_8);
        }
        let state = self.state.clone();
        let handler: Handler = Box::new(move |event| {
            if let Ok(mut state) = state.lock() {
                state.take(event);
            }
        });
        self.parser = Some(Parser::with_options(&options, handler));
    }

    /// Runs `f` on the parser with the document lent to the builder, then
    /// frees what the caller took out and nothing holds now.
    fn run(&mut self, f: impl FnOnce(&mut Parser<Handler>)) -> PyResult<()> {
        let Some(parser) = self.parser.as_mut() else {
            return Ok(());
        };
        let mut doc = write(&self.cell)?;
        std::mem::swap(&mut *doc, lock(&self.state)?.builder.document_mut());
        f(parser);
        let mut state = lock(&self.state)?;
        std::mem::swap(&mut *doc, state.builder.document_mut());
        if let Some(held) = &self.cell.held {
            let mut held = lock(held)?;
            if !held.kept.is_empty() && state.since_sweep > 4096 + state.sweep_cost {
                state.sweep_cost = held.sweep(&mut doc);
                state.since_sweep = 0;
            }
        }
        Ok(())
    }

    /// With `recover=False`, the first error stops the parse (looked for
    /// among the errors since the last check, not all of them each feed).
    fn check(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.recover {
            return Ok(());
        }
        let doc = read(&self.cell)?;
        let result = refuse_errors_from(py, &doc, self.checked);
        match result {
            Ok(()) => self.checked = doc.errors().len(),
            Err(_) => self.failed = true,
        }
        result
    }
}

/// A streamed parse, read as events: `iterparse` and `XMLPullParser` are
/// this in Python.
#[pyclass(module = "xml5dom._xml5dom", name = "_EventStream")]
pub(crate) struct EventStream {
    engine: Mutex<Engine>,
    /// What `iterparse` reads from, when the stream reads its input
    /// itself (`read_from`).
    source: Mutex<Option<Source>>,
}

/// A file object the stream reads, and whether to close it at the end.
struct Source {
    file: Py<PyAny>,
    close: bool,
}

/// How much the stream reads from a file object at a time.
const CHUNK: usize = 16 * 1024;

#[pymethods]
impl EventStream {
    /// A parse handing out `events` (lxml's names, and `error`), `start`
    /// and `end` only for elements `tag` selects.
    #[new]
    #[pyo3(signature = (events, tag=None, recover=true, encoding=None))]
    fn new(
        events: Vec<String>,
        tag: Option<Vec<String>>,
        recover: bool,
        encoding: Option<&str>,
    ) -> PyResult<EventStream> {
        let options = match encoding {
            None => ParseOptions::default(),
            Some(label) => ParseOptions::default()
                .encoding_label(label.trim())
                .map_err(|_| PyLookupError::new_err(format!("unknown encoding: {label:?}")))?,
        };
        let mut wanted = 0;
        for name in &events {
            wanted |= event_flag(name)
                .ok_or_else(|| PyValueError::new_err(format!("invalid event name '{name}'")))?;
        }
        // The document goes to the proxies' cell; the builder holds a
        // stand-in between feeds (see `Engine::run`).
        let mut builder = DocumentBuilder::new();
        let document = std::mem::replace(builder.document_mut(), Document::parse(""));
        let cell = share_streamed(document);
        let state = State {
            builder,
            wanted,
            tags: tag,
            queue: VecDeque::new(),
            at: 0,
            release_before: 0,
            open: Vec::new(),
            root: None,
            cell: cell.clone(),
            since_sweep: 0,
            sweep_cost: 0,
        };
        Ok(EventStream {
            source: Mutex::new(None),
            engine: Mutex::new(Engine {
                parser: None,
                options,
                closed: false,
                failed: false,
                checked: 0,
                recover,
                state: Arc::new(Mutex::new(state)),
                cell,
            }),
        })
    }

    /// Parses the next piece of input: `bytes` (the encoding sniffed from
    /// the first) or `str` (then all of it is text).
    fn feed(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let text;
        let owned;
        let (bytes, is_text): (&[u8], bool) = if let Ok(string) = data.cast::<PyString>() {
            text = string.extract::<String>()?;
            (text.as_bytes(), true)
        } else if let Ok(bytes) = data.cast::<PyBytes>() {
            (bytes.as_bytes(), false)
        } else if let Ok(bytes) = data.extract::<Vec<u8>>() {
            owned = bytes;
            (&owned, false)
        } else {
            return Err(PyTypeError::new_err("can only parse strings or bytes"));
        };
        let mut engine = lock(&self.engine)?;
        if engine.closed {
            return Err(PyValueError::new_err("the parser was closed"));
        }
        if engine.failed {
            return engine.check(py);
        }
        engine.start(is_text);
        engine.run(|parser| parser.feed(bytes))?;
        engine.check(py)
    }

    /// Ends the input: what it leaves open is closed.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let mut engine = lock(&self.engine)?;
        if engine.closed || engine.failed {
            return Ok(());
        }
        // (No input at all: the events of an empty document.)
        engine.start(false);
        engine.run(|parser| parser.end())?;
        engine.closed = true;
        engine.check(py)
    }

    /// The next event as `(name, value)`, or `None` if none is waiting.
    fn next_event(&self, py: Python<'_>) -> PyResult<Option<(Py<PyAny>, Py<PyAny>)>> {
        self.pop_event(py, false)
    }

    /// Reads the input from `file` (an object with `read(size)`) as the
    /// events are asked for (`__next__`); closes it at the end if `close`.
    fn read_from(&self, file: Py<PyAny>, close: bool) -> PyResult<()> {
        *lock(&self.source)? = Some(Source { file, close });
        Ok(())
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next event, reading more of the input as needed (`iterparse`'s
    /// loop, here so that no Python frame runs per event).
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<(Py<PyAny>, Py<PyAny>)>> {
        loop {
            if let Some(event) = self.pop_event(py, true)? {
                return Ok(Some(event));
            }
            let Some(file) = lock(&self.source)?.as_ref().map(|s| s.file.clone_ref(py)) else {
                return self.pop_event(py, false);
            };
            {
                // What comes before the piece read now may be handed out
                // once it is fed.
                let engine = lock(&self.engine)?;
                let fed = engine.parser.as_ref().map_or(0, |p| p.text_read());
                lock(&engine.state)?.release_before = fed;
            }
            // One piece, or the end: whether the input ended.
            let step = || -> PyResult<bool> {
                let data = file.call_method1(py, "read", (CHUNK,))?.into_bound(py);
                if data.len()? == 0 {
                    self.close(py)?;
                    return Ok(true);
                }
                self.feed(py, &data)?;
                Ok(false)
            };
            match step() {
                Ok(false) => {}
                Ok(true) => self.end_source(py)?,
                Err(error) => {
                    let _ = self.end_source(py);
                    return Err(error);
                }
            }
        }
    }

    /// The root element once the input is read and its events handed out
    /// (as lxml's `iterparse` says it: `None` until then).
    #[getter]
    fn root(&self) -> PyResult<Option<Element>> {
        let done = {
            let engine = lock(&self.engine)?;
            engine.closed && lock(&engine.state)?.queue.is_empty()
        };
        match done {
            true => self.root_element(),
            false => Ok(None),
        }
    }

    /// The root element, once its start tag was read.
    fn root_element(&self) -> PyResult<Option<Element>> {
        let engine = lock(&self.engine)?;
        let root = lock(&engine.state)?.root;
        let doc = read(&engine.cell)?;
        Ok(root
            .filter(|&id| doc.node(id).is_some())
            .map(|id| Element::new(engine.cell.clone(), id)))
    }

    /// Every error and warning so far, in source order.
    #[getter]
    fn error_log(&self, py: Python<'_>) -> PyResult<ErrorLog> {
        let cell = lock(&self.engine)?.cell.clone();
        let entries = parse_entries(&*read(&cell)?);
        log_of(py, entries)
    }
}
