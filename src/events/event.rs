//! The events themselves: what the tree builder built, one thing at a
//! time, as [`Event`]s with resolved [`Name`]s and lazily read
//! [`Attributes`]. A leaf of `events`: the readers, sinks and writers of
//! the stage name these types, and this file names none of them.

use crate::dom::{NameId, Names};
use crate::error::{ErrorContext, ParseError};
use crate::span::Span;
use crate::tokenizer::{Doctype, XmlDecl};
use crate::tree_builder::ParsedAttribute;

/// One thing the tree builder built, in document order.
///
/// Nesting is the order: an event after a [`StartElement`](Event::StartElement)
/// that is not `empty` is inside that element until its
/// [`EndElement`](Event::EndElement).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Event<'e> {
    /// The XML declaration at the start of the document (a misplaced one
    /// is a [`ProcessingInstruction`](Event::ProcessingInstruction)).
    XmlDeclaration(XmlDecl<'e>),
    /// The document type declaration (the first before the root element;
    /// others are [`Dropped`](Event::Dropped)), with what its internal
    /// subset declares.
    Doctype(Doctype<'e>),
    /// An element opens.
    StartElement(StartElement<'e>),
    /// The element opened last closes.
    EndElement(EndElement<'e>),
    /// Character data: one text node's worth.
    Text {
        /// The characters, references expanded.
        text: &'e str,
        /// The byte ranges of `text` that were CDATA sections.
        cdata: &'e [(usize, usize)],
        /// The source it was read from.
        span: Span,
    },
    /// A comment (also what recovery makes of bogus markup like `<!x>`).
    Comment {
        /// Between `<!--` and `-->`.
        data: &'e str,
        /// The source it was read from.
        span: Span,
    },
    /// A processing instruction.
    ProcessingInstruction {
        /// Its target.
        target: &'e str,
        /// What follows the target.
        data: &'e str,
        /// The source it was read from.
        span: Span,
    },
    /// A reference to an entity whose replacement text holds markup begins
    /// its expansion: what comes until
    /// [`EndExpansion`](Event::EndExpansion) was made by it, and carries
    /// the reference's span.
    BeginExpansion {
        /// The entity.
        name: &'e str,
        /// The reference, `&name;`.
        reference: Span,
    },
    /// The expansion begun last ends.
    EndExpansion {
        /// It closed every element it opened and no other.
        balanced: bool,
    },
    /// Markup the tree leaves out: a stray end tag, a misplaced DOCTYPE,
    /// an element after the root element.
    Dropped {
        /// The markup.
        span: Span,
    },
    /// A tag past the element-depth limit, left out with everything up to
    /// the end tag that closes it.
    DepthDropped {
        /// The tag.
        span: Span,
        /// It continues the run of markup dropped so far.
        continues: bool,
    },
    /// An end tag closes a tag dropped past the depth limit.
    DepthDroppedEnd {
        /// Where the run of dropped markup now ends.
        end: usize,
    },
    /// A parse error; they come in source order.
    Error(ParseError),
    /// What the parser knew more about the error just before (the
    /// [`Error`](Event::Error) event this one follows at once): for
    /// `mismatched-end-tag` and `stray-end-tag`, the element that was open
    /// and where it starts, as
    /// [`Document::error_context`](crate::dom::Document::error_context) has it.
    ///
    /// ```
    /// use xml5dom::events::{self, Event};
    ///
    /// let mut said = Vec::new();
    /// events::parse("<a>\n<key>x</a>", |event| {
    ///     if let Event::ErrorContext(context) = event {
    ///         said.push(context.message());
    ///     }
    /// });
    /// assert_eq!(
    ///     said,
    ///     ["end tag </a> does not match the open element <key> (line 2, column 1); <key> is closed"],
    /// );
    /// ```
    ErrorContext(&'e ErrorContext),
}

/// A resolved name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Name<'e> {
    /// As written: `prefix:local` or `local`.
    pub qualified: &'e str,
    /// The prefix, for a valid prefixed name.
    pub prefix: Option<&'e str>,
    /// After the prefix's colon, or all of the name.
    pub local: &'e str,
    /// The namespace it resolved to, if any.
    pub namespace: Option<&'e str>,
    /// Its id in the parse's table of names (a queue of events keeps
    /// that, not the strings).
    pub(crate) id: NameId,
}

/// An element as [`Event::StartElement`] gives it.
#[derive(Clone, Copy, Debug)]
pub struct StartElement<'e> {
    /// Its name.
    pub name: Name<'e>,
    /// Its attributes in source order, then those attribute-list defaults
    /// supply; duplicates and those past the attribute limit left out.
    pub attributes: Attributes<'e>,
    /// The start tag, from `<` to `>`.
    pub span: Span,
    /// Written as an empty-element tag: no
    /// [`EndElement`](Event::EndElement) follows.
    pub empty: bool,
}

/// One attribute of a [`StartElement`].
#[derive(Clone, Copy, Debug)]
pub struct Attribute<'e> {
    /// Its name; namespace declarations (`xmlns`, `xmlns:p`) are the
    /// attributes in the xmlns namespace.
    pub name: Name<'e>,
    /// Its value, references expanded and whitespace normalized.
    pub value: &'e str,
    /// Where it was written; `None` for one a default supplies.
    pub span: Option<Span>,
    /// Where its value was written.
    pub value_span: Option<Span>,
    /// Declared of type `ID` by an attribute-list declaration.
    pub is_id: bool,
}

impl Attribute<'_> {
    /// Whether it declares a namespace.
    pub fn is_namespace_declaration(&self) -> bool {
        self.name.namespace == Some(crate::dom::XMLNS_NAMESPACE)
    }
}

/// The attributes of a [`StartElement`], read where the parse keeps them
/// (each [`Attribute`] is put together when asked for).
///
/// ```
/// use xml5dom::events::{self, Event};
///
/// let mut seen = Vec::new();
/// events::parse("<a x='1' xmlns:p='urn:p' p:y='2'/>", |event| {
///     if let Event::StartElement(start) = event {
///         for attribute in start.attributes {
///             let name = attribute.name;
///             seen.push((name.local.to_owned(), name.namespace.map(str::to_owned)));
///         }
///         assert_eq!(start.attributes.value("p:y"), Some("2"));
///     }
/// });
/// assert_eq!(seen.len(), 3);
/// assert_eq!(seen[2], ("y".to_owned(), Some("urn:p".to_owned())));
/// ```
#[derive(Clone, Copy)]
pub struct Attributes<'e> {
    pub(crate) list: AttributeList<'e>,
    pub(crate) names: &'e Names,
}

#[derive(Clone, Copy)]
pub(crate) enum AttributeList<'e> {
    /// As the tree builder made them.
    Parsed(&'e [ParsedAttribute<'e>]),
    /// As a queue of events keeps them: values in its string storage.
    Queued(&'e [QueuedAttribute], &'e str),
}

impl<'e> Attributes<'e> {
    /// How many there are.
    pub fn len(&self) -> usize {
        match self.list {
            AttributeList::Parsed(list) => list.len(),
            AttributeList::Queued(list, _) => list.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The attribute at `index`, in order.
    pub fn get(&self, index: usize) -> Option<Attribute<'e>> {
        let names = self.names;
        match self.list {
            AttributeList::Parsed(list) => list.get(index).map(|a| Attribute {
                name: name_of(names, a.name),
                value: &a.value,
                span: a.span,
                value_span: a.value_span,
                is_id: a.is_id,
            }),
            AttributeList::Queued(list, strings) => {
                list.get(index).map(|a| a.attribute(names, strings))
            }
        }
    }

    /// The value of the attribute with this qualified name, if there is one.
    pub fn value(&self, qualified: &str) -> Option<&'e str> {
        self.iter()
            .find(|a| a.name.qualified == qualified)
            .map(|a| a.value)
    }

    /// The attributes in order.
    pub fn iter(&self) -> AttributesIter<'e> {
        self.into_iter()
    }
}

impl<'e> IntoIterator for Attributes<'e> {
    type Item = Attribute<'e>;
    type IntoIter = AttributesIter<'e>;

    fn into_iter(self) -> AttributesIter<'e> {
        AttributesIter {
            attributes: self,
            next: 0,
        }
    }
}

/// The attributes of a [`StartElement`] in order.
#[derive(Clone)]
pub struct AttributesIter<'e> {
    attributes: Attributes<'e>,
    next: usize,
}

impl<'e> Iterator for AttributesIter<'e> {
    type Item = Attribute<'e>;

    fn next(&mut self) -> Option<Attribute<'e>> {
        let attribute = self.attributes.get(self.next)?;
        self.next += 1;
        Some(attribute)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.attributes.len() - self.next.min(self.attributes.len());
        (left, Some(left))
    }
}

impl ExactSizeIterator for AttributesIter<'_> {}

impl std::fmt::Debug for Attributes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

/// An element's end as [`Event::EndElement`] gives it.
#[derive(Clone, Copy, Debug)]
pub struct EndElement<'e> {
    /// The name of the element that closes.
    pub name: Name<'e>,
    /// Where its source ends now.
    pub end: usize,
    /// The end tag that closed it (`</name>` or `</>`), where one was
    /// written; `None` where the end was implied (by the end tag of an
    /// ancestor, or the end of the input).
    pub end_tag: Option<Span>,
}

/// A name of `names` as an event gives it.
pub(crate) fn name_of(names: &Names, id: NameId) -> Name<'_> {
    let (qualified, prefix, local, namespace) = names.parts(id);
    Name {
        qualified,
        prefix,
        local,
        namespace,
        id,
    }
}

/// An attribute as a queue keeps it.
#[derive(Clone, Debug)]
pub(crate) struct QueuedAttribute {
    pub(crate) name: NameId,
    /// Where its value is in the queue's strings.
    pub(crate) value: (usize, usize),
    pub(crate) span: Option<Span>,
    pub(crate) value_span: Option<Span>,
    pub(crate) is_id: bool,
}

impl QueuedAttribute {
    pub(crate) fn attribute<'e>(&self, names: &'e Names, strings: &'e str) -> Attribute<'e> {
        Attribute {
            name: name_of(names, self.name),
            value: strings.get(self.value.0..self.value.1).unwrap_or_default(),
            span: self.span,
            value_span: self.value_span,
            is_id: self.is_id,
        }
    }
}
