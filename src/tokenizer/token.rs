//! The tokens the tokenizer hands to its token sink.
//!
//! Tokens borrow: their strings point into the input where the text is
//! exactly the source, and into the tokenizer's scratch buffers where it was
//! normalized. They live for one call of the sink; a sink that keeps them
//! copies what it needs. Every token carries the [`Span`] of source it came
//! from.

use super::input::{StrBuf, Window};
use crate::span::Span;

/// One token of the XML5 tokenizer (§1.4).
#[derive(Clone, Copy, Debug)]
pub enum Token<'t> {
    /// Character data: plain text, a resolved reference, or CDATA content.
    Text(Text<'t>),
    /// `<name attr="value">`.
    StartTag(Tag<'t>),
    /// `<name attr="value"/>`.
    EmptyTag(Tag<'t>),
    /// `</name>`.
    EndTag(EndTag<'t>),
    /// `</>`, which closes the current element.
    ShortEndTag(Span),
    /// `<!--data-->`, and the bogus comments that recovery makes.
    Comment(Comment<'t>),
    /// `<?target data?>`.
    ProcessingInstruction(ProcessingInstruction<'t>),
    /// `<?xml version="1.0" encoding="..." standalone="..."?>`.
    XmlDeclaration(XmlDecl<'t>),
    /// `<!DOCTYPE name PUBLIC "..." "..." [ internal subset ]>`. (Borrowed:
    /// it is the largest token by far, and every token is moved on its way
    /// to the sink.)
    Doctype(&'t Doctype<'t>),
    /// `&name;` in content, for an entity the internal subset declared
    /// (the tree builder expands it; references in attribute values are
    /// expanded by the tokenizer).
    EntityReference(EntityReference<'t>),
    /// The end of the input; always the last token.
    EndOfFile(usize),
}

impl Token<'_> {
    /// The source span of the token (empty at the end of the input).
    ///
    /// ```
    /// use xml5dom::tokenizer::{tokenize, TokenList, OwnedToken};
    /// let out = tokenize("ab<c/>", TokenList::default());
    /// assert_eq!(out.tokens().nth(1).unwrap().span(), xml5dom::Span::new(2, 6));
    /// ```
    pub fn span(&self) -> Span {
        match self {
            Token::Text(t) => t.span,
            Token::StartTag(t) | Token::EmptyTag(t) => t.span,
            Token::EndTag(t) => t.span,
            Token::ShortEndTag(span) => *span,
            Token::Comment(c) => c.span,
            Token::ProcessingInstruction(p) => p.span,
            Token::XmlDeclaration(d) => d.span,
            Token::Doctype(d) => d.span,
            Token::EntityReference(r) => r.span,
            Token::EndOfFile(at) => Span::new(*at, *at),
        }
    }
}

/// Where a run of character data came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextKind {
    /// Plain text, with line ends normalized to LF.
    Plain,
    /// A resolved character reference (`&amp;`, `&#x41;`); the span covers
    /// the reference as written.
    CharRef,
    /// The content of a CDATA section; the span covers the content only,
    /// without `<![CDATA[` and `]]>`.
    Cdata,
    /// The replacement text of a declared entity that holds no markup; the
    /// span covers the reference as written.
    Entity,
}

/// Character data.
#[derive(Clone, Copy, Debug)]
pub struct Text<'t> {
    /// The characters.
    pub data: &'t str,
    /// Where they came from.
    pub kind: TextKind,
    /// The source they were read from.
    pub span: Span,
    /// False only when the tokenizer read all of it in bulk past bytes
    /// that include `&`, `]` and the control characters: then it holds
    /// none of what XML forbids in character data, and the tree builder's
    /// well-formedness check of it would find nothing.
    pub(crate) needs_check: bool,
}

/// A start or empty-element tag.
#[derive(Clone, Copy, Debug)]
pub struct Tag<'t> {
    /// The tag name as written (XML5 does not change case).
    pub name: &'t str,
    /// The attributes, in source order, duplicates dropped.
    pub attributes: TagAttributes<'t>,
    /// From `<` to `>` (or the end of the input).
    pub span: Span,
}

/// An end tag.
#[derive(Clone, Copy, Debug)]
pub struct EndTag<'t> {
    /// The tag name.
    pub name: &'t str,
    /// From `<` to `>`.
    pub span: Span,
}

/// A comment.
#[derive(Clone, Copy, Debug)]
pub struct Comment<'t> {
    /// The text between the delimiters.
    pub data: &'t str,
    /// From `<` to `>`.
    pub span: Span,
}

/// A processing instruction.
#[derive(Clone, Copy, Debug)]
pub struct ProcessingInstruction<'t> {
    /// The target, the name after `<?`.
    pub target: &'t str,
    /// Everything after the target and the whitespace that follows it, up to
    /// `?>`.
    pub data: &'t str,
    /// From `<?` to `?>`.
    pub span: Span,
}

/// The XML declaration (production `XMLDecl` of XML 1.0), with its
/// pseudo-attributes parsed.
#[derive(Clone, Copy, Debug)]
pub struct XmlDecl<'t> {
    /// The `version` value, if given.
    pub version: Option<&'t str>,
    /// The `encoding` value, if given.
    pub encoding: Option<&'t str>,
    /// The `standalone` value, if given.
    pub standalone: Option<&'t str>,
    /// The declaration's content as a PI would see it: everything after
    /// `<?xml` and its whitespace, up to `?>`.
    pub data: &'t str,
    /// From `<?` to `?>`.
    pub span: Span,
}

/// A document type declaration.
#[derive(Clone, Copy, Debug)]
pub struct Doctype<'t> {
    /// The name (ASCII-lowercased, as the spec says), if there was one.
    pub name: Option<&'t str>,
    /// The public identifier, if there was one.
    pub public_id: Option<&'t str>,
    /// The system identifier, if there was one.
    pub system_id: Option<&'t str>,
    /// The internal subset between `[` and `]`, unparsed, if there was one.
    pub internal_subset: Option<&'t str>,
    /// Where the internal subset is in the source: from after its `[` to
    /// its `]` (or to where the DOCTYPE was cut short).
    pub subset_span: Option<Span>,
    /// The internal subset's declarations, comments, PIs and references,
    /// one span each, in order (for the first DOCTYPE, whose subset is
    /// read; empty for others).
    pub subset_items: &'t [Span],
    /// The general entities the subset declared, each with the source
    /// offset of its declaration (or of the parameter-entity reference
    /// whose text declared it), in source order.
    pub subset_entities: &'t [(usize, Box<str>)],
    /// What the internal subset declares, read (for the first DOCTYPE before
    /// the root element only).
    pub declarations: Option<&'t crate::dtd::Declarations>,
    /// From `<!DOCTYPE` to `>`.
    pub span: Span,
}

/// A reference to a declared entity in content.
#[derive(Clone, Copy, Debug)]
pub struct EntityReference<'t> {
    /// The entity's name.
    pub name: &'t str,
    /// From `&` to `;`.
    pub span: Span,
}

/// An attribute of a start or empty tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagAttribute<'t> {
    /// The name as written.
    pub name: &'t str,
    /// The value, references resolved and whitespace normalized (literal
    /// tab, LF and CR become spaces, XML 1.0 §3.3.3).
    pub value: &'t str,
    /// From the first character of the name to the end of the value
    /// (closing quote included).
    pub span: Span,
    /// The raw value between the quotes, or the unquoted value; `None` for an
    /// attribute written without `=`.
    pub value_span: Option<Span>,
}

/// The attributes of a tag: a borrowed view, in source order.
#[derive(Clone, Copy)]
pub struct TagAttributes<'t> {
    pub(crate) list: &'t [AttributeBuffer],
    pub(crate) window: Window<'t>,
}

impl<'t> TagAttributes<'t> {
    /// How many there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The attribute at `index`.
    pub fn get(&self, index: usize) -> Option<TagAttribute<'t>> {
        self.list.get(index).map(|a| a.view(self.window))
    }

    /// The value of the attribute named `name`.
    pub fn value(&self, name: &str) -> Option<&'t str> {
        self.iter().find(|a| a.name == name).map(|a| a.value)
    }

    /// The name of the attribute at `index` (for callers that need only
    /// that: cheaper than [`get`](Self::get)).
    pub(crate) fn name_at(&self, index: usize) -> &'t str {
        self.list
            .get(index)
            .map_or("", |a| a.name.as_str(&self.window))
    }

    /// The value of the attribute at `index`.
    pub(crate) fn value_at(&self, index: usize) -> &'t str {
        self.list
            .get(index)
            .map_or("", |a| a.value.as_str(&self.window))
    }

    /// Whether the attribute at `index` has a plain value (see
    /// `AttributeBuffer::plain`), which well-formedness checks can skip.
    pub(crate) fn plain_at(&self, index: usize) -> bool {
        self.list.get(index).is_some_and(|a| a.plain)
    }

    /// The spans of the attribute at `index` and of its value.
    pub(crate) fn spans_at(&self, index: usize) -> (Span, Option<Span>) {
        self.list.get(index).map_or((Span::default(), None), |a| {
            (Span::new(a.start, a.end), a.value_span)
        })
    }

    /// The attributes in source order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = TagAttribute<'t>> + 't {
        let window = self.window;
        self.list.iter().map(move |a| a.view(window))
    }
}

impl std::fmt::Debug for TagAttributes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An attribute under construction, kept between tags for its allocations.
#[derive(Default, Debug)]
pub(crate) struct AttributeBuffer {
    pub(crate) name: StrBuf,
    pub(crate) value: StrBuf,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) value_span: Option<Span>,
    /// The value was read whole by the tokenizer's fast path: quoted, with
    /// no reference, `<`, or character that needs a check or normalizing.
    pub(crate) plain: bool,
}

impl AttributeBuffer {
    fn view<'t>(&'t self, window: Window<'t>) -> TagAttribute<'t> {
        TagAttribute {
            name: self.name.as_str(&window),
            value: self.value.as_str(&window),
            span: Span::new(self.start, self.end),
            value_span: self.value_span,
        }
    }
}
