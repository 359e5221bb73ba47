//! What the tree builder reports: the [`TreeSink`] trait.
//!
//! The tree builder decides what the tree is (the
//! phases of §1.5, namespaces, implied end tags, entity expansion, the
//! limits); a sink receives the result, one call per thing built, in
//! document order. Building a [`Document`](crate::dom::Document) is one sink
//! (`DocumentSink`, of `document_sink.rs`, which implements this file's
//! trait and so is not named from here); handing events
//! to a caller (`events`, a layer above) is another, and so can be anything
//! that takes subtrees one at a time. The builder is generic over
//! its sink (static dispatch), so the DOM path pays for no indirection.

use std::borrow::Cow;

use crate::dom::{LineIndex, NameId, Names};
use crate::error::{ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{Doctype, XmlDecl};

use super::Source;

/// Receives what the tree builder builds, in document order.
///
/// Nesting is implied by the order of the calls: a node goes into the
/// element last opened and not yet closed (the document outside the root).
/// Every call carries the source span it came from; a node made by an
/// entity expansion carries the reference's span, and comes between
/// [`begin_expansion`](Self::begin_expansion) and
/// [`end_expansion`](Self::end_expansion).
///
/// Names come as [`NameId`]s of the interning table the sink owns
/// ([`names`](Self::names)): the builder interns into it as it goes (it
/// needs the ids itself), so a sink that keeps names, as a document does,
/// gets them without a copy, and one that does not resolves them there.
pub(crate) trait TreeSink {
    /// What [`finish`](Self::finish) hands back.
    type Output;

    /// The interning table of qualified names, resolved names and
    /// namespace URIs, which the builder fills and resolves names with.
    fn names(&self) -> &Names;

    /// The same, to intern into.
    fn names_mut(&mut self) -> &mut Names;

    /// The index of the source's lines that the builder counts its errors'
    /// lines and columns with (a document keeps it for
    /// [`Document::position`](crate::dom::Document::position)).
    fn lines(&self) -> &LineIndex;

    /// The XML declaration at the start of the document (a misplaced one
    /// is a [`processing_instruction`](Self::processing_instruction)).
    fn xml_declaration(&mut self, declaration: &XmlDecl<'_>);

    /// The document type declaration (the first before the root element;
    /// others are [`dropped`](Self::dropped)), with what its internal subset
    /// declared.
    fn doctype(&mut self, doctype: &Doctype<'_>);

    /// An element opens: written as a start tag or an empty-element tag.
    /// An empty one is complete (no [`end_element`](Self::end_element)
    /// follows); any other is open until `end_element`.
    fn start_element(&mut self, element: &StartElement<'_>);

    /// The element last opened closes, its source now ending at `end`:
    /// by `end_tag` (`</name>` or `</>`) where one was written, else by an
    /// implied end tag (a mismatched end tag that closes an ancestor, the
    /// end of the input).
    fn end_element(&mut self, end: usize, end_tag: Option<Span>);

    /// Where the builder merges character data that is not one slice of
    /// the source, appending to it (never changing what is there); the
    /// merged text then comes to [`text`](Self::text) as
    /// [`Chars::Stored`]. A document lends its own string storage, so the
    /// text is copied once however many runs it is merged from. Once that
    /// text has come to [`text`](Self::text), the builder refers to
    /// nothing in the storage, so a sink that keeps no tree may empty it.
    fn text_storage(&mut self) -> &mut String;

    /// Character data: consecutive runs merged into one text node's worth
    /// (plain text, references, CDATA sections), `cdata` the byte ranges of
    /// the text that were CDATA sections. Outside the root element only the
    /// whitespace XML allows there comes (without CDATA parts).
    fn text(&mut self, text: Chars<'_>, cdata: &[(usize, usize)], span: Span);

    /// A comment (also what recovery makes of bogus markup like `<!x>`).
    fn comment(&mut self, data: &str, span: Span);

    /// A processing instruction, its target cut to the name-length limit.
    fn processing_instruction(&mut self, target: &str, data: &str, span: Span);

    /// An outermost reference to an entity whose replacement text holds
    /// markup starts being expanded: what comes until
    /// [`end_expansion`](Self::end_expansion) was made by it (references
    /// to character data only are [`text`](Self::text)).
    fn begin_expansion(&mut self, name: &str, reference: Span);

    /// The expansion begun last ends; `balanced`: it closed every element it
    /// opened and no other (if not, an error follows).
    fn end_expansion(&mut self, balanced: bool);

    /// Markup the tree leaves out (a stray end tag, a misplaced DOCTYPE, an
    /// element after the root), outside entity expansions.
    fn dropped(&mut self, span: Span);

    /// A tag past the element-depth limit, left out with everything up to
    /// the end tag that closes it: `continues` when the run of markup
    /// dropped so far goes on with it, else it starts a new one.
    fn depth_dropped(&mut self, span: Span, continues: bool);

    /// An end tag closes a tag dropped past the depth limit: the run of
    /// dropped markup now ends at `end`.
    fn depth_dropped_end(&mut self, end: usize);

    /// A parse error (the tokenizer's or the builder's), as found: not
    /// sorted by offset.
    fn error(&mut self, error: ParseError);

    /// A parse error the builder knows more of (a mismatched or stray end
    /// tag: the element that was open), which the sink hands on with it.
    /// The context's element position is the sink's to count, as the
    /// error's own is for a sink that orders errors: the builder leaves
    /// line and column 0 there.
    fn error_with_context(&mut self, error: ParseError, context: ErrorContext);

    /// Where the element last opened and not yet closed starts: its start
    /// tag's offset (the reference's, for one an expansion made), and its
    /// line and column where the sink counts them itself (one that
    /// [orders errors](Self::ORDERS_ERRORS)), else 0 and 0. `source`
    /// holds every offset from the earliest the stream still reads.
    fn open_element_start(&mut self, source: &mut Source<'_>) -> Option<(usize, u32, u32)>;

    /// A stream is about to let go of the source before `offset`: a sink
    /// that needs positions there counts them now.
    #[inline]
    fn before_release(&mut self, offset: usize, source: &mut Source<'_>) {
        let _ = (offset, source);
    }

    /// Whether the sink hands errors on in source order, and so wants
    /// [`errors_settled`](Self::errors_settled) (a constant, so that a sink
    /// that sorts at the end pays nothing for it).
    const ORDERS_ERRORS: bool = false;

    /// No error at an offset before `offset` will be reported any more
    /// (errors come near the token being read, and the text waiting to
    /// become a node): a sink that hands errors on in source order may
    /// hand on those before it. Said before each token of the source, and
    /// with `usize::MAX` when the input has ended, to a sink that
    /// [orders errors](Self::ORDERS_ERRORS). Such a sink also counts the
    /// errors' lines and columns (the builder leaves them 0), from
    /// `source`, which holds every offset from `offset` on.
    #[inline]
    fn errors_settled(&mut self, offset: usize, source: &mut Source<'_>) {
        let _ = (offset, source);
    }

    /// The input ended, everything open was closed.
    fn finish(self) -> Self::Output;
}

/// Character data as [`TreeSink::text`] gets it.
pub(crate) enum Chars<'a> {
    /// A string: a slice of the source, or one made for the call.
    Str(&'a str),
    /// The source from the offset on (a sink that keeps the source keeps
    /// the range, even where the string is not a slice of its copy).
    InSource(&'a str, usize),
    /// Bytes `start..end` of the sink's
    /// [`text_storage`](TreeSink::text_storage).
    Stored(usize, usize),
}

/// An element as [`TreeSink::start_element`] gets it.
pub(crate) struct StartElement<'a> {
    /// Its resolved name: qualified name as written (prefix and local
    /// name) and namespace.
    pub(crate) name: NameId,
    /// Its attributes in source order, then those that attribute-list
    /// defaults supply; duplicates and those past the attribute limit left
    /// out.
    pub(crate) attributes: &'a [ParsedAttribute<'a>],
    /// The start tag, from `<` to `>`.
    pub(crate) span: Span,
    /// Written as an empty-element tag (`<a/>`): complete.
    pub(crate) empty: bool,
}

/// One attribute of a [`StartElement`].
pub(crate) struct ParsedAttribute<'a> {
    /// Its resolved name. The valid namespace declarations (`xmlns`,
    /// `xmlns:p`, written or supplied by a default) are the attributes in
    /// the xmlns namespace (`XMLNS_NS`), and only they are: a sink needs
    /// no other sign of them.
    pub(crate) name: NameId,
    /// The value: references resolved, whitespace normalized, collapsed
    /// for a declared tokenized type.
    pub(crate) value: Cow<'a, str>,
    /// Where it was written; `None` for one an attribute-list default
    /// supplies.
    pub(crate) span: Option<Span>,
    /// Where its value was written (`None` also for `name` without `=`).
    pub(crate) value_span: Option<Span>,
    /// Where the value is in the source, when it is the source there (as
    /// written: no reference, nothing normalized).
    pub(crate) value_at: Option<usize>,
    /// Declared of type `ID` by an attribute-list declaration.
    pub(crate) is_id: bool,
}

/// The builder's list of attributes for one tag, reused for the next with
/// another lifetime: the collect runs in place, so no tag allocates it anew
/// (the list is emptied first, so nothing is converted).
pub(super) fn recycle<'a, 'b>(mut list: Vec<ParsedAttribute<'a>>) -> Vec<ParsedAttribute<'b>> {
    list.clear();
    // A `filter` would keep the lifetime: the map to `None` changes it.
    #[allow(clippy::unnecessary_filter_map)]
    list.into_iter().filter_map(|_| None).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recycling_keeps_the_allocation() {
        let list: Vec<ParsedAttribute<'static>> = Vec::with_capacity(8);
        let at = list.as_ptr() as usize;
        let value = String::from("v");
        let mut reused: Vec<ParsedAttribute<'_>> = recycle(list);
        assert_eq!(reused.as_ptr() as usize, at);
        assert!(reused.capacity() >= 8);
        reused.push(ParsedAttribute {
            name: NameId(0),
            value: Cow::Borrowed(&value),
            span: None,
            value_span: None,
            value_at: None,
            is_id: false,
        });
        let back: Vec<ParsedAttribute<'static>> = recycle(reused);
        assert!(back.is_empty());
        assert_eq!(back.as_ptr() as usize, at);
    }
}
