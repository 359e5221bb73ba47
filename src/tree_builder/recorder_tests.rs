//! The tree builder with a sink that builds no document: it writes each
//! event as a line, which shows what the builder reports and in what order
//! (and that [`TreeSink`] is usable without a [`Document`](crate::dom::Document)).

use crate::dom::{LineIndex, NameId, Names, XMLNS_NS};
use crate::error::{ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{self, Doctype, XmlDecl};

use super::{Chars, StartElement, TreeBuilder, TreeSink};

/// Records events as lines.
struct Recorder {
    names: Names,
    lines: LineIndex,
    /// Where the builder merges copied text.
    storage: String,
    events: Vec<String>,
    /// The names of the open elements, to say which one an end closes.
    open: Vec<String>,
    /// Where the open elements start.
    starts: Vec<usize>,
}

impl Recorder {
    fn new() -> Recorder {
        Recorder {
            names: Names::new(),
            lines: LineIndex::default(),
            storage: String::new(),
            events: Vec::new(),
            open: Vec::new(),
            starts: Vec::new(),
        }
    }

    /// `{namespace}prefix:local`, `prefix:local` without a namespace.
    fn name(&self, id: NameId) -> String {
        let names = &self.names;
        let qualified = match names.prefix(id) {
            Some(prefix) => format!("{prefix}:{}", names.local(id)),
            None => names.local(id).to_owned(),
        };
        match names.namespace_of(id) {
            Some(uri) => format!("{{{uri}}}{qualified}"),
            None => qualified,
        }
    }
}

impl TreeSink for Recorder {
    type Output = Vec<String>;

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
        let version = declaration.version.unwrap_or("-");
        self.events.push(format!("declaration {version}"));
    }

    fn doctype(&mut self, doctype: &Doctype<'_>) {
        let name = doctype.name.unwrap_or("-");
        self.events.push(format!("doctype {name}"));
    }

    fn start_element(&mut self, element: &StartElement<'_>) {
        let mut line = format!("start {}", self.name(element.name));
        for attribute in element.attributes {
            let declares = self.names.name_data(attribute.name).namespace == Some(XMLNS_NS);
            line.push_str(&format!(
                " {}={:?}{}{}",
                self.name(attribute.name),
                attribute.value,
                if declares { " (declares)" } else { "" },
                if attribute.span.is_none() {
                    " (default)"
                } else {
                    ""
                },
            ));
        }
        let span = element.span;
        line.push_str(&format!(" @{}..{}", span.start, span.end));
        if element.empty {
            line.push_str(" (empty)");
        } else {
            self.open.push(self.name(element.name));
            self.starts.push(span.start);
        }
        self.events.push(line);
    }

    fn end_element(&mut self, end: usize, end_tag: Option<Span>) {
        let name = self.open.pop().unwrap_or_default();
        self.starts.pop();
        let how = match end_tag {
            Some(_) => "",
            None => " (implied)",
        };
        self.events.push(format!("end {name} ..{end}{how}"));
    }

    fn text_storage(&mut self) -> &mut String {
        &mut self.storage
    }

    fn text(&mut self, text: Chars<'_>, cdata: &[(usize, usize)], _span: Span) {
        let text = match text {
            Chars::Str(text) | Chars::InSource(text, _) => text,
            Chars::Stored(start, end) => self.storage.get(start..end).unwrap_or_default(),
        };
        let mut line = format!("text {text:?}");
        for (start, end) in cdata {
            line.push_str(&format!(" cdata {start}..{end}"));
        }
        self.events.push(line);
        // The text is recorded: what the builder merged can go.
        self.storage.clear();
    }

    fn comment(&mut self, data: &str, _span: Span) {
        self.events.push(format!("comment {data:?}"));
    }

    fn processing_instruction(&mut self, target: &str, data: &str, _span: Span) {
        self.events.push(format!("pi {target} {data:?}"));
    }

    fn begin_expansion(&mut self, name: &str, reference: Span) {
        let (start, end) = (reference.start, reference.end);
        self.events.push(format!("expand {name} @{start}..{end}"));
    }

    fn end_expansion(&mut self, balanced: bool) {
        let how = if balanced { "balanced" } else { "unbalanced" };
        self.events.push(format!("expanded {how}"));
    }

    fn dropped(&mut self, span: Span) {
        let (start, end) = (span.start, span.end);
        self.events.push(format!("dropped @{start}..{end}"));
    }

    fn depth_dropped(&mut self, span: Span, continues: bool) {
        let (start, end) = (span.start, span.end);
        self.events
            .push(format!("depth-dropped @{start}..{end} {continues}"));
    }

    fn depth_dropped_end(&mut self, end: usize) {
        self.events.push(format!("depth-dropped ..{end}"));
    }

    fn error(&mut self, error: ParseError) {
        let ParseError {
            code, line, column, ..
        } = error;
        self.events.push(format!("error {code} {line}:{column}"));
    }

    fn error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        self.error(error);
        let open = context
            .open
            .map(|open| format!(" open {}@{}", open.name, open.offset))
            .unwrap_or_default();
        let (end_tag, closes) = (context.end_tag, context.implied_closes);
        self.events
            .push(format!("context </{end_tag}>{open} closes {closes}"));
    }

    fn open_element_start(&mut self, _: &mut super::Source<'_>) -> Option<(usize, u32, u32)> {
        Some((*self.starts.last()?, 0, 0))
    }

    fn finish(self) -> Vec<String> {
        self.events
    }
}

fn record(text: &str) -> Vec<String> {
    let options = crate::decoding::ParseOptions::default();
    let builder = TreeBuilder::new(text, &options, Recorder::new());
    tokenizer::tokenize_with(text, builder, &options.limits).finish()
}

#[test]
fn nested_elements() {
    assert_eq!(
        record("<a><b>x<![CDATA[<y>]]></b><!--c--><c/><?p d?></a>"),
        [
            "start a @0..3",
            "start b @3..6",
            "text \"x<y>\" cdata 1..4",
            "end b ..26",
            "comment \"c\"",
            "start c @34..38 (empty)",
            "pi p \"d\"",
            "end a ..49",
        ]
    );
}

#[test]
fn namespaces_resolved_and_declared() {
    assert_eq!(
        record("<p:a xmlns:p='urn:p' xmlns='urn:d'><b p:x='1' y='2'/></p:a>"),
        [
            "start {urn:p}p:a \
             {http://www.w3.org/2000/xmlns/}xmlns:p=\"urn:p\" (declares) \
             {http://www.w3.org/2000/xmlns/}xmlns=\"urn:d\" (declares) @0..35",
            "start {urn:d}b {urn:p}p:x=\"1\" y=\"2\" @35..53 (empty)",
            "end {urn:p}p:a ..59",
        ]
    );
}

#[test]
fn implied_end_tags_from_broken_input() {
    // `</a>` closes the `b` it finds open first (reported before the text
    // in `b` is flushed: errors come as found, a document sorts them); the
    // end of the input closes what is left.
    assert_eq!(
        record("<r><a><b>t</a>\n<c>"),
        [
            "start r @0..3",
            "start a @3..6",
            "start b @6..9",
            "error mismatched-end-tag 1:11",
            "context </a> open b@6 closes 1",
            "text \"t\"",
            "end b ..10 (implied)",
            "end a ..14",
            "text \"\\n\"",
            "start c @15..18",
            "error eof-in-element 2:4",
            "end c ..18 (implied)",
            "end r ..18 (implied)",
        ]
    );
}

#[test]
fn entity_expansion_and_its_errors() {
    let events = record(
        "<!DOCTYPE r [<!ENTITY e '<i>hi</i>'><!ENTITY open '<u>'>]>\
         <r>&e;&open;</r>",
    );
    assert_eq!(
        events,
        [
            "doctype r",
            "start r @58..61",
            "expand e @61..64",
            "start i @61..64",
            "text \"hi\"",
            "end i ..64",
            "expanded balanced",
            "expand open @64..70",
            "start u @64..70",
            "expanded unbalanced",
            "error unbalanced-entity-reference 1:65",
            "error mismatched-end-tag 1:71",
            "context </r> open u@64 closes 1",
            "end u ..70 (implied)",
            "end r ..74",
        ]
    );
}

#[test]
fn errors_and_dropped_markup() {
    assert_eq!(
        record("<?xml version='1.0'?><a x=1></b></a><z/>"),
        [
            "declaration 1.0",
            "error unquoted-attribute-value 1:27",
            "start a x=\"1\" @21..28",
            "error stray-end-tag 1:29",
            "context </b> open a@21 closes 0",
            "dropped @28..32",
            "end a ..36",
            "error element-after-root-element 1:37",
            "dropped @36..40",
        ]
    );
}
