//! Owned copies of tokens, and [`TokenList`], the sink that keeps them.

use super::token::{TextKind, Token};
use super::TokenSink;
use crate::error::ParseError;
use crate::span::Span;

/// An attribute of an [`OwnedToken`] tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedAttribute {
    /// The name as written.
    pub name: String,
    /// The normalized value.
    pub value: String,
    /// The whole attribute in the source.
    pub span: Span,
    /// The raw value in the source, if there was one.
    pub value_span: Option<Span>,
}

/// A [`Token`] that owns its strings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // The fields are those of the borrowed token types.
pub enum OwnedToken {
    Text {
        data: String,
        kind: TextKind,
        span: Span,
    },
    StartTag {
        name: String,
        attributes: Vec<OwnedAttribute>,
        span: Span,
    },
    EmptyTag {
        name: String,
        attributes: Vec<OwnedAttribute>,
        span: Span,
    },
    EndTag {
        name: String,
        span: Span,
    },
    ShortEndTag {
        span: Span,
    },
    Comment {
        data: String,
        span: Span,
    },
    ProcessingInstruction {
        target: String,
        data: String,
        span: Span,
    },
    XmlDeclaration {
        version: Option<String>,
        encoding: Option<String>,
        standalone: Option<String>,
        data: String,
        span: Span,
    },
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        internal_subset: Option<String>,
        span: Span,
    },
    EntityReference {
        name: String,
        span: Span,
    },
    EndOfFile {
        offset: usize,
    },
}

impl OwnedToken {
    /// The source span of the token.
    ///
    /// ```
    /// use xml5dom::tokenizer::{tokenize, TokenList};
    /// let out = tokenize("<!--x-->", TokenList::default());
    /// let comment = out.tokens().next().unwrap();
    /// assert_eq!(comment.span(), xml5dom::Span::new(0, 8));
    /// ```
    pub fn span(&self) -> Span {
        match self {
            OwnedToken::Text { span, .. }
            | OwnedToken::StartTag { span, .. }
            | OwnedToken::EmptyTag { span, .. }
            | OwnedToken::EndTag { span, .. }
            | OwnedToken::ShortEndTag { span }
            | OwnedToken::Comment { span, .. }
            | OwnedToken::ProcessingInstruction { span, .. }
            | OwnedToken::XmlDeclaration { span, .. }
            | OwnedToken::Doctype { span, .. }
            | OwnedToken::EntityReference { span, .. } => *span,
            OwnedToken::EndOfFile { offset } => Span::new(*offset, *offset),
        }
    }
}

impl From<Token<'_>> for OwnedToken {
    fn from(token: Token<'_>) -> OwnedToken {
        let string = |s: &str| s.to_owned();
        let option = |s: Option<&str>| s.map(str::to_owned);
        let attributes = |tag: &super::Tag<'_>| {
            tag.attributes
                .iter()
                .map(|a| OwnedAttribute {
                    name: string(a.name),
                    value: string(a.value),
                    span: a.span,
                    value_span: a.value_span,
                })
                .collect()
        };
        match token {
            Token::Text(t) => OwnedToken::Text {
                data: string(t.data),
                kind: t.kind,
                span: t.span,
            },
            Token::StartTag(t) => OwnedToken::StartTag {
                name: string(t.name),
                attributes: attributes(&t),
                span: t.span,
            },
            Token::EmptyTag(t) => OwnedToken::EmptyTag {
                name: string(t.name),
                attributes: attributes(&t),
                span: t.span,
            },
            Token::EndTag(t) => OwnedToken::EndTag {
                name: string(t.name),
                span: t.span,
            },
            Token::ShortEndTag(span) => OwnedToken::ShortEndTag { span },
            Token::Comment(c) => OwnedToken::Comment {
                data: string(c.data),
                span: c.span,
            },
            Token::ProcessingInstruction(p) => OwnedToken::ProcessingInstruction {
                target: string(p.target),
                data: string(p.data),
                span: p.span,
            },
            Token::XmlDeclaration(d) => OwnedToken::XmlDeclaration {
                version: option(d.version),
                encoding: option(d.encoding),
                standalone: option(d.standalone),
                data: string(d.data),
                span: d.span,
            },
            Token::Doctype(d) => OwnedToken::Doctype {
                name: option(d.name),
                public_id: option(d.public_id),
                system_id: option(d.system_id),
                internal_subset: option(d.internal_subset),
                span: d.span,
            },
            Token::EntityReference(r) => OwnedToken::EntityReference {
                name: string(r.name),
                span: r.span,
            },
            Token::EndOfFile(offset) => OwnedToken::EndOfFile { offset },
        }
    }
}

/// A token or a parse error, in the order the tokenizer produced them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A token.
    Token(OwnedToken),
    /// A parse error.
    Error(ParseError),
}

/// A [`TokenSink`] that keeps everything, in order.
///
/// ```
/// use xml5dom::tokenizer::{tokenize, TokenList, OwnedToken};
/// let out = tokenize("<a b='1' b='2'/>", TokenList::default());
/// assert_eq!(out.errors().count(), 1);
/// let Some(OwnedToken::EmptyTag { attributes, .. }) = out.tokens().next() else { panic!() };
/// assert_eq!(attributes.len(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenList {
    /// Tokens and errors, in order.
    pub events: Vec<Event>,
}

impl TokenList {
    /// The tokens, in order.
    pub fn tokens(&self) -> impl Iterator<Item = &OwnedToken> {
        self.events.iter().filter_map(|e| match e {
            Event::Token(t) => Some(t),
            Event::Error(_) => None,
        })
    }

    /// The parse errors, in order.
    pub fn errors(&self) -> impl Iterator<Item = &ParseError> {
        self.events.iter().filter_map(|e| match e {
            Event::Error(e) => Some(e),
            Event::Token(_) => None,
        })
    }
}

impl TokenSink for TokenList {
    fn process_token(&mut self, token: Token<'_>) {
        self.events.push(Event::Token(token.into()));
    }

    fn parse_error(&mut self, error: ParseError) {
        self.events.push(Event::Error(error));
    }
}
