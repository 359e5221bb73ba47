//! The canonical forms written from a stream: what
//! [`write_canonical`](crate::serializer::canonical::write_canonical) writes
//! for the document of some bytes, written from their events instead, so
//! that no document is built.
//!
//! This module owns the per-element state the canonical forms need and a
//! document does not keep for them: the depth (text outside the root
//! element is not written), whether the root element has been seen (the
//! line feeds around top-level comments and PIs) and, for Canonical XML,
//! the namespace bindings in scope at each open element (a declaration is
//! written only where it changes them). Memory is that state, bounded by
//! the depth and the declarations in scope, plus the stream's window and
//! one piece of output; never the document.
//!
//! What is written, and how, is the DOM writer's: the escaping, the
//! ordering key of attributes and the writing of start tags, PIs and
//! top-level markup are the serializer's `canonical_markup.rs`, shared, and
//! the rest follows its walk step for step,
//! so that both write the same bytes for every input (this module's tests
//! compare them on the suites' tree cases, the corpus and damaged copies of
//! it).

use std::io::{self, Read, Write};

use crate::decoding::ParseOptions;
use crate::dom::XML_NAMESPACE;
use crate::error::Error;
use crate::output::PIECE;
use crate::scope::ElementScopes;
use crate::serializer::canonical::{
    escape_xmltest, is_xml11, write_second_form_doctype, CanonicalForm, XMLTEST_1_1_DECLARATION,
};
use crate::serializer::canonical_markup::{
    c14n_order, declare_undeclared, document_level, escape_c14n_text, write_c14n_start_tag,
    write_pi, InclusiveNamespaces,
};

use super::sink::Handler;
use super::stream::{Stream, READ_SIZE};
use super::{Attribute, Event, StartElement};
use crate::tokenizer::Doctype;

/// Writes the canonical form `form` of what `reader` gives, in bounded
/// memory: the bytes `write_canonical` writes for
/// `Document::parse_bytes(&bytes)`, where `bytes` is all `reader` gives, without building the document. Memory is bounded by the
/// largest token and the depth of the document (with the namespace
/// declarations in scope), not its size.
///
/// The output goes to `out` in pieces of 64 KiB, and `out` is flushed at
/// the end. Reading stops at the first write that fails
/// ([`Error::Write`]); a read that fails gives [`Error::Read`].
///
/// Like [`parse_reader`](super::parse_reader), it reads a stream of any
/// size to its end: only past 4 GiB of text, where a document is cut
/// ([`MAX_INPUT_BYTES`](crate::limits::MAX_INPUT_BYTES)), does its output
/// go on where the document's stops.
///
/// ```
/// use xml5dom::events::write_canonical_reader;
/// use xml5dom::CanonicalForm;
///
/// let input = "<?xml version='1.0'?>\n<a xmlns='urn:a' b='1' a='2'><e/><!--c--></a>";
/// let mut out = Vec::new();
/// write_canonical_reader(input.as_bytes(), CanonicalForm::C14n, &mut out).unwrap();
/// assert_eq!(out, br#"<a xmlns="urn:a" a="2" b="1"><e></e></a>"#);
/// ```
pub fn write_canonical_reader<R: Read, W: Write>(
    reader: R,
    form: CanonicalForm,
    out: &mut W,
) -> Result<(), Error> {
    let (options, inclusive) = (ParseOptions::default(), InclusiveNamespaces::default());
    write_canonical_reader_with(reader, &options, form, &inclusive, out)
}

/// [`write_canonical_reader`] with the parse options (limits, the
/// encoding: the output is that of
/// `Document::parse_bytes_with(&bytes, options)`) and the
/// InclusiveNamespaces PrefixList of the Exclusive forms (the other forms
/// ignore it): what
/// [`write_canonical_with`](crate::serializer::canonical::write_canonical_with)
/// writes for the whole document, streamed.
///
/// ```
/// use xml5dom::events::write_canonical_reader_with;
/// use xml5dom::{CanonicalForm, InclusiveNamespaces, ParseOptions};
///
/// let input = "<r xmlns:a='urn:a' xmlns:b='urn:b'><a:e/></r>";
/// let mut out = Vec::new();
/// let inclusive = InclusiveNamespaces::parse("b");
/// write_canonical_reader_with(input.as_bytes(), &ParseOptions::default(), CanonicalForm::ExcC14n, &inclusive, &mut out)
///     .unwrap();
/// assert_eq!(out, br#"<r xmlns:b="urn:b"><a:e xmlns:a="urn:a"></a:e></r>"#);
/// ```
pub fn write_canonical_reader_with<R: Read, W: Write>(
    reader: R,
    options: &ParseOptions,
    form: CanonicalForm,
    inclusive: &InclusiveNamespaces,
    out: &mut W,
) -> Result<(), Error> {
    write_canonical_reader_reporting(reader, options, form, inclusive, out, |_| {})
}

/// [`write_canonical_reader_with`], handing each
/// [`Error`](Event::Error) and [`ErrorContext`](Event::ErrorContext) event
/// of the parse to `errors` as it comes: the errors the document of the
/// same bytes lists, so that a caller can tell (at the end, since they
/// come as the input is read) whether what was written is the canonical
/// form of a well-formed document, or of what recovery made of a broken
/// one, or of a document a limit cut short.
///
/// ```
/// use xml5dom::events::{write_canonical_reader_reporting, Event};
/// use xml5dom::{CanonicalForm, InclusiveNamespaces, ParseOptions};
///
/// let mut out = Vec::new();
/// let mut codes = Vec::new();
/// write_canonical_reader_reporting(
///     "<a x=1>fish & chips</a>".as_bytes(),
///     &ParseOptions::default(),
///     CanonicalForm::C14n,
///     &InclusiveNamespaces::default(),
///     &mut out,
///     |event| {
///         if let Event::Error(error) = event {
///             codes.push(error.code.as_str());
///         }
///     },
/// )
/// .unwrap();
/// assert_eq!(out, br#"<a x="1">fish &amp; chips</a>"#);
/// assert_eq!(codes, ["unquoted-attribute-value", "bare-ampersand"]);
/// ```
pub fn write_canonical_reader_reporting<R: Read, W: Write>(
    mut reader: R,
    options: &ParseOptions,
    form: CanonicalForm,
    inclusive: &InclusiveNamespaces,
    out: &mut W,
    mut errors: impl FnMut(Event<'_>),
) -> Result<(), Error> {
    let mut writer = CanonicalWriter::new(form, out);
    writer.errors = Some(&mut errors);
    if matches!(
        form,
        CanonicalForm::ExcC14n | CanonicalForm::ExcC14nWithComments
    ) {
        writer.inclusive = inclusive.clone();
    }
    let mut stream = Stream::new(writer, options, false);
    let mut buffer = vec![0; READ_SIZE];
    loop {
        // Nothing more can be written: reading on would be wasted.
        if let Some(error) = stream.handler_mut().failed.take() {
            return Err(Error::Write(error));
        }
        match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => stream.feed_bytes(&buffer[..read]),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(source) => {
                return Err(Error::Read {
                    path: "input".to_owned(),
                    source,
                })
            }
        }
        if stream.ended() {
            break;
        }
    }
    stream.finish().finish().map_err(Error::Write)
}

/// Turns events into one canonical form, as the DOM writer turns a tree's
/// nodes.
struct CanonicalWriter<'w, W: Write> {
    form: CanonicalForm,
    out: &'w mut W,
    /// Output made and not yet written.
    text: String,
    /// The first write that failed; nothing is written after it.
    failed: Option<io::Error>,
    /// Open elements; 0 at the document level.
    depth: usize,
    /// An element has been written at the document level: comments and
    /// PIs are now preceded by a line feed, not followed by one.
    after_root: bool,
    /// Canonical XML only: the bindings in scope as written.
    scope: NamespaceScope,
    /// The document is XML 1.1 (the xmltest form writes it differently).
    xml11: bool,
    /// Exclusive only: the bindings in scope as declared.
    declared: NamespaceScope,
    /// Exclusive only: the InclusiveNamespaces PrefixList.
    inclusive: InclusiveNamespaces,
    /// Where the parse's errors go, if anywhere.
    errors: Option<&'w mut dyn FnMut(Event<'_>)>,
}

impl<'w, W: Write> CanonicalWriter<'w, W> {
    fn new(form: CanonicalForm, out: &'w mut W) -> CanonicalWriter<'w, W> {
        CanonicalWriter {
            form,
            out,
            text: String::new(),
            failed: None,
            depth: 0,
            after_root: false,
            scope: ElementScopes::default(),
            xml11: false,
            declared: ElementScopes::default(),
            inclusive: InclusiveNamespaces::default(),
            errors: None,
        }
    }

    fn start_element(&mut self, start: &StartElement<'_>) {
        if self.depth == 0 {
            self.after_root = true;
        }
        match self.form {
            CanonicalForm::XmlTest | CanonicalForm::XmlTestSecond => {
                self.write_xmltest_start_tag(start);
            }
            CanonicalForm::C14n
            | CanonicalForm::C14nWithComments
            | CanonicalForm::C14n11
            | CanonicalForm::C14n11WithComments => {
                self.scope.open();
                self.write_c14n_start_tag(start);
            }
            CanonicalForm::ExcC14n | CanonicalForm::ExcC14nWithComments => {
                self.scope.open();
                self.declared.open();
                self.write_exclusive_start_tag(start);
            }
        }
        if start.empty {
            // No end event follows: the element closes now.
            self.end_element(start.name.qualified);
        } else {
            self.depth += 1;
        }
    }

    /// As the DOM writer: the declarations that change what is in scope,
    /// sorted by prefix, then the other attributes in Canonical XML's order.
    fn write_c14n_start_tag(&mut self, start: &StartElement<'_>) {
        let mut declarations: Vec<(Option<&str>, &str)> = Vec::new();
        let mut attributes: Vec<Attribute<'_>> = Vec::new();
        // Canonical XML 1.1 leaves out an empty xml:base, as libxml2 does
        // (its xml:base fix-up drops an empty result).
        let c14n11 = matches!(
            self.form,
            CanonicalForm::C14n11 | CanonicalForm::C14n11WithComments
        );
        for attribute in start.attributes {
            if !attribute.is_namespace_declaration() {
                let name = attribute.name;
                let empty_base = name.namespace == Some(XML_NAMESPACE)
                    && name.local == "base"
                    && attribute.value.is_empty();
                if !(c14n11 && empty_base) {
                    attributes.push(attribute);
                }
                continue;
            }
            let name = attribute.name;
            let prefix = name.prefix.map(|_| name.local);
            // `xml` is always bound, never written.
            if prefix == Some("xml") {
                continue;
            }
            let uri = attribute.value;
            if self.scope.declare(prefix, uri) {
                // `xmlns:p=""` leaves no namespace node to write;
                // `xmlns=""` is written when it undeclares a default.
                if prefix.is_none() || !uri.is_empty() {
                    declarations.push((prefix, uri));
                }
            }
        }
        // A prefix used undeclared is declared where the repaired document
        // declares it, as the DOM writer does.
        let names = std::iter::once(start.name)
            .chain(attributes.iter().map(|a| a.name))
            .map(|name| (name.prefix, name.namespace));
        let scope = &mut self.scope;
        declare_undeclared(
            names,
            |p, uri| scope.declare(Some(p), uri),
            &mut declarations,
        );
        // The same sorts as the DOM writer's on the same sequences, so ties
        // (if any) fall the same way.
        declarations.sort_unstable_by_key(|&(prefix, _)| prefix);
        attributes.sort_unstable_by(|a, b| c14n_key(a).cmp(&c14n_key(b)));

        let attributes = attributes.iter().map(|a| (a.name.qualified, a.value));
        write_c14n_start_tag(
            start.name.qualified,
            &declarations,
            attributes,
            &mut self.text,
        );
    }

    /// Exclusive XML Canonicalization, as the DOM writer with every node
    /// visible: the namespaces the element and its attributes use, and
    /// those of the InclusiveNamespaces PrefixList, each written where the
    /// output does not have it bound yet. `xmlns=""` is written where the
    /// element (in no namespace) or the list's `#default` needs the
    /// default namespace undeclared.
    fn write_exclusive_start_tag(&mut self, start: &StartElement<'_>) {
        let mut attributes: Vec<Attribute<'_>> = Vec::new();
        for attribute in start.attributes {
            if !attribute.is_namespace_declaration() {
                attributes.push(attribute);
                continue;
            }
            let name = attribute.name;
            let prefix = name.prefix.map(|_| name.local);
            // libxml2 rejects `xmlns:p=""` and keeps the binding it had.
            if prefix != Some("xml") && (prefix.is_none() || !attribute.value.is_empty()) {
                self.declared.bind(prefix, attribute.value);
            }
        }

        // (prefix, URI) written, owned: the scope they come from changes.
        let mut declarations: Vec<(Option<String>, String)> = Vec::new();
        let mut consider = |scope: &mut NamespaceScope, prefix: Option<&str>, uri: &str| {
            if scope.declare(prefix, uri) {
                declarations.push((prefix.map(str::to_owned), uri.to_owned()));
            }
        };
        let mut lookups: Vec<Option<&str>> = self.inclusive.prefixes().map(Some).collect();
        if self.inclusive.contains_default() {
            lookups.push(None);
        }
        for prefix in lookups {
            let uri = self.declared.get(prefix);
            if prefix != Some("xml") && !uri.is_empty() {
                consider(&mut self.scope, prefix, uri);
            }
        }
        let name = start.name;
        match name.namespace {
            Some(uri) => {
                if name.prefix != Some("xml") {
                    consider(&mut self.scope, name.prefix, uri);
                }
            }
            None => {
                let uri = self.declared.get(None);
                if !uri.is_empty() {
                    consider(&mut self.scope, None, uri);
                }
            }
        }
        for attribute in &attributes {
            let name = attribute.name;
            if let Some(uri) = name.namespace {
                if uri != XML_NAMESPACE {
                    consider(&mut self.scope, name.prefix, uri);
                }
            }
        }
        let needs_default = name.namespace.is_none() || self.inclusive.contains_default();
        if needs_default && self.declared.get(None).is_empty() {
            consider(&mut self.scope, None, "");
        }

        declarations.sort_by(|a, b| a.0.cmp(&b.0));
        attributes.sort_unstable_by(|a, b| c14n_key(a).cmp(&c14n_key(b)));
        let declarations: Vec<(Option<&str>, &str)> = declarations
            .iter()
            .map(|(prefix, uri)| (prefix.as_deref(), uri.as_str()))
            .collect();
        let attributes = attributes.iter().map(|a| (a.name.qualified, a.value));
        write_c14n_start_tag(name.qualified, &declarations, attributes, &mut self.text);
    }

    /// All attributes, declarations too, sorted by qualified name.
    fn write_xmltest_start_tag(&mut self, start: &StartElement<'_>) {
        let mut attributes: Vec<Attribute<'_>> = start.attributes.iter().collect();
        attributes.sort_unstable_by_key(|attribute| attribute.name.qualified);
        let out = &mut self.text;
        out.push('<');
        out.push_str(start.name.qualified);
        for attribute in &attributes {
            out.push(' ');
            out.push_str(attribute.name.qualified);
            out.push_str("=\"");
            escape_xmltest(attribute.value, self.xml11, out);
            out.push('"');
        }
        out.push('>');
    }

    fn end_element(&mut self, qualified: &str) {
        self.text.push_str("</");
        self.text.push_str(qualified);
        self.text.push('>');
        match self.form {
            // No namespace scope is kept for xmltest's forms.
            CanonicalForm::XmlTest | CanonicalForm::XmlTestSecond => {}
            CanonicalForm::ExcC14n | CanonicalForm::ExcC14nWithComments => {
                self.scope.close();
                self.declared.close();
            }
            _ => self.scope.close(),
        }
    }

    fn text(&mut self, text: &str) {
        // Outside the root element text is whitespace the forms leave out.
        if self.depth == 0 {
            return;
        }
        match self.form {
            CanonicalForm::XmlTest | CanonicalForm::XmlTestSecond => {
                escape_xmltest(text, self.xml11, &mut self.text);
            }
            _ => escape_c14n_text(text, &mut self.text),
        }
    }

    fn comment(&mut self, data: &str) {
        if !matches!(
            self.form,
            CanonicalForm::C14nWithComments
                | CanonicalForm::ExcC14nWithComments
                | CanonicalForm::C14n11WithComments
        ) {
            return;
        }
        document_level(self.depth, self.after_root, &mut self.text, |out| {
            out.push_str("<!--");
            out.push_str(data);
            out.push_str("-->");
        });
    }

    fn processing_instruction(&mut self, target: &str, data: &str) {
        match self.form {
            CanonicalForm::XmlTest | CanonicalForm::XmlTestSecond => {
                write_pi(target, data, true, &mut self.text);
            }
            _ => {
                document_level(self.depth, self.after_root, &mut self.text, |out| {
                    write_pi(target, data, false, out);
                });
            }
        }
    }

    /// The second xmltest form writes the first DOCTYPE's subset PIs and
    /// notations, as the DOM writer does (the name as written, which the
    /// declarations keep: the event's is lowercased).
    fn doctype(&mut self, doctype: &Doctype<'_>) {
        if self.form != CanonicalForm::XmlTestSecond {
            return;
        }
        if let Some(declarations) = doctype.declarations {
            write_second_form_doctype(
                declarations.doctype_name(),
                declarations.notations(),
                declarations.processing_instructions(),
                &mut self.text,
            );
        }
    }

    /// Writes the output made so far once there is a piece of it.
    fn send_some(&mut self) {
        if self.text.len() >= PIECE {
            self.send();
        }
    }

    fn send(&mut self) {
        if self.failed.is_none() {
            self.failed = self.out.write_all(self.text.as_bytes()).err();
        }
        self.text.clear();
    }

    /// Writes the rest and flushes; the first write error, if any.
    fn finish(mut self) -> io::Result<()> {
        self.send();
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        self.out.flush()
    }
}

impl<W: Write> Handler for CanonicalWriter<'_, W> {
    fn event(&mut self, event: Event<'_>) {
        if let (Event::Error(_) | Event::ErrorContext(_), Some(errors)) = (&event, &mut self.errors)
        {
            errors(event);
            return;
        }
        if self.failed.is_some() {
            return;
        }
        match event {
            Event::StartElement(start) => self.start_element(&start),
            Event::EndElement(end) => {
                self.depth = self.depth.saturating_sub(1);
                self.end_element(end.name.qualified);
            }
            Event::Text { text, .. } => self.text(text),
            Event::Comment { data, .. } => self.comment(data),
            Event::ProcessingInstruction { target, data, .. } => {
                self.processing_instruction(target, data);
            }
            // The xmltest forms of an XML 1.1 document start with a
            // declaration saying so.
            Event::XmlDeclaration(declaration) => {
                self.xml11 = is_xml11(declaration.version);
                let xmltest = matches!(
                    self.form,
                    CanonicalForm::XmlTest | CanonicalForm::XmlTestSecond
                );
                if self.xml11 && xmltest {
                    self.text.push_str(XMLTEST_1_1_DECLARATION);
                }
            }
            Event::Doctype(doctype) => self.doctype(&doctype),
            // Not in any canonical form: an expansion's nodes are written as
            // nodes, dropped markup is not in the tree, errors change
            // nothing written.
            Event::BeginExpansion { .. }
            | Event::EndExpansion { .. }
            | Event::Dropped { .. }
            | Event::DepthDropped { .. }
            | Event::DepthDroppedEnd { .. }
            | Event::Error(_)
            | Event::ErrorContext(_) => {}
        }
        self.send_some();
    }
}

/// The order of attributes in Canonical XML (the DOM writer's).
fn c14n_key<'a>(attribute: &Attribute<'a>) -> (&'a str, &'a str) {
    let name = attribute.name;
    c14n_order(name.namespace, name.local, name.qualified)
}

/// The bindings in scope at the element being written, as the DOM writer
/// keeps them (only declarations are recorded: the prefix `xml` is always
/// bound, and a prefix bound to `""` is unbound), owned: the events'
/// strings last only as long as the event.
type NamespaceScope = ElementScopes<Box<str>>;

#[cfg(test)]
#[path = "canonical_tests.rs"]
mod tests;
