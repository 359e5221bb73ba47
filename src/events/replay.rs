//! Events back into a tree: replaying them into the sink that builds
//! documents gives the document the parse would have built. The subtree
//! reader builds each subtree so (its spans moved to the subtree's own
//! source); the replay tests check the whole of a parse so.

use std::borrow::Cow;

use crate::dom::NameId;
use crate::span::Span;
use crate::tree_builder::{Chars, DocumentSink, ParsedAttribute, StartElement, TreeSink};

use super::{Event, Name};

/// Replays `event` into `sink`, every offset moved back by `shift` (the
/// offset in the stream of the sink's source). Strings that are the source
/// at their span are taken from there, so the document keeps them as
/// ranges of its source, not copies.
pub(crate) fn replay(sink: &mut DocumentSink<'_>, source: &str, event: Event<'_>, shift: usize) {
    let at = |offset: usize| offset.saturating_sub(shift);
    let span = |s: Span| Span::new(at(s.start), at(s.end));
    // `s` as the same text in `source` where it is that, so it is kept
    // as a range of the source.
    let in_source = |s: &str, written: Option<Span>| -> Option<&str> {
        let written = span(written?);
        source.get(written.range()).filter(|found| *found == s)
    };
    match event {
        Event::XmlDeclaration(declaration) => sink.xml_declaration(&declaration),
        Event::Doctype(doctype) => sink.doctype(&doctype),
        Event::StartElement(start) => {
            let mut attributes = Vec::with_capacity(start.attributes.len());
            for a in start.attributes {
                let value = in_source(a.value, a.value_span).unwrap_or(a.value);
                attributes.push(ParsedAttribute {
                    name: name_id(sink, a.name),
                    value: Cow::Borrowed(value),
                    span: a.span.map(span),
                    value_span: a.value_span.map(span),
                    value_at: None,
                    is_id: a.is_id,
                });
            }
            let element = StartElement {
                name: name_id(sink, start.name),
                attributes: &attributes,
                span: span(start.span),
                empty: start.empty,
            };
            sink.start_element(&element);
        }
        Event::EndElement(end) => sink.end_element(at(end.end), end.end_tag.map(span)),
        Event::Text {
            text,
            cdata,
            span: written,
        } => {
            let text = match cdata.is_empty() {
                true => in_source(text, Some(written)).unwrap_or(text),
                false => text,
            };
            sink.text(Chars::Str(text), cdata, span(written));
        }
        Event::Comment { data, span: s } => sink.comment(data, span(s)),
        Event::ProcessingInstruction {
            target,
            data,
            span: s,
        } => sink.processing_instruction(target, data, span(s)),
        Event::BeginExpansion { name, reference } => sink.begin_expansion(name, span(reference)),
        Event::EndExpansion { balanced } => sink.end_expansion(balanced),
        Event::Dropped { span: s } => sink.dropped(span(s)),
        Event::DepthDropped { span: s, continues } => sink.depth_dropped(span(s), continues),
        Event::DepthDroppedEnd { end } => sink.depth_dropped_end(at(end)),
        Event::Error(mut error) => {
            error.offset = at(error.offset);
            sink.error(error);
        }
        Event::ErrorContext(context) => {
            let mut context = context.clone();
            if let Some(open) = &mut context.open {
                open.offset = at(open.offset);
            }
            sink.error_context(context);
        }
    }
}

/// `name` interned in the sink's table.
fn name_id(sink: &mut DocumentSink<'_>, name: Name<'_>) -> NameId {
    let names = sink.names_mut();
    let qname = names.qname(name.qualified);
    let namespace = name.namespace.map(|uri| names.namespace(uri));
    names.name(qname, namespace)
}
