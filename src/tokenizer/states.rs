//! The tokenizer's states, named after the sections of the XML5 spec
//! (`docs/spec/xml5-parsing-spec.txt`, §1.4) that define them. The
//! DOCTYPE identifier states, which XML5 leaves unfinished, are HTML's
//! (W3C 2012 text, `html5-tokenization-charrefs.txt` §8.2.4.56–66) as the
//! suite requires; the internal-subset states are XML5's bracket counting
//! (§1.4.48) made to respect quotes and comments. `docs/conformance.md`
//! records every place where the code departs from the text.

/// A state of the tokenizer's state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// §1.4.1 Data state.
    Data,
    /// §1.4.2 Character reference in data state.
    CharacterReferenceInData,
    /// §1.4.3 Tag open state.
    TagOpen,
    /// §1.4.4 End tag open state.
    EndTagOpen,
    /// §1.4.5 End tag name state.
    EndTagName,
    /// §1.4.6 End tag name after state.
    EndTagNameAfter,
    /// §1.4.7 Tag name state.
    TagName,
    /// §1.4.8 Empty tag state.
    EmptyTag,
    /// §1.4.9 Tag attribute name before state.
    TagAttributeNameBefore,
    /// §1.4.10 Tag attribute name state.
    TagAttributeName,
    /// §1.4.11 Tag attribute name after state.
    TagAttributeNameAfter,
    /// §1.4.12 Tag attribute value before state.
    TagAttributeValueBefore,
    /// §1.4.13 Tag attribute value double quoted state.
    TagAttributeValueDoubleQuoted,
    /// §1.4.14 Tag attribute value single quoted state.
    TagAttributeValueSingleQuoted,
    /// §1.4.15 Tag attribute value unquoted state.
    TagAttributeValueUnquoted,
    /// §1.4.16 Pi state.
    Pi,
    /// §1.4.17 XML declaration state.
    XmlDeclaration,
    /// §1.4.18 XML declaration attribute name state.
    XmlDeclarationAttributeName,
    /// §1.4.19 XML declaration attribute name after.
    XmlDeclarationAttributeNameAfter,
    /// §1.4.20 XML declaration attribute before value state.
    XmlDeclarationAttributeValueBefore,
    /// §1.4.21 XML declaration attribute value (single-quoted) state, and
    /// §1.4.22 its double-quoted twin; the field is the quote.
    XmlDeclarationAttributeValueQuoted(u8),
    /// §1.4.23 XML declaration after state.
    XmlDeclarationAfter,
    /// §1.4.24 Pi target state.
    PiTarget,
    /// §1.4.25 Pi target after state.
    PiTargetAfter,
    /// §1.4.26 Pi data state.
    PiData,
    /// §1.4.27 Pi after state.
    PiAfter,
    /// §1.4.28 Markup declaration state.
    MarkupDeclaration,
    /// §1.4.29 Comment start state.
    CommentStart,
    /// §1.4.30 Comment start dash state.
    CommentStartDash,
    /// §1.4.31 Comment state.
    Comment,
    /// §1.4.32 Comment less-than sign state.
    CommentLessThanSign,
    /// §1.4.33 Comment less-than sign bang state.
    CommentLessThanSignBang,
    /// §1.4.34 Comment less-than sign bang dash state.
    CommentLessThanSignBangDash,
    /// §1.4.35 Comment less-than sign bang dash dash state.
    CommentLessThanSignBangDashDash,
    /// §1.4.36 Comment end dash state.
    CommentEndDash,
    /// §1.4.37 Comment end state.
    CommentEnd,
    /// §1.4.38 Comment end bang state.
    CommentEndBang,
    /// §1.4.39 CDATA state.
    Cdata,
    /// §1.4.40 CDATA bracket state.
    CdataBracket,
    /// §1.4.41 CDATA end state.
    CdataEnd,
    /// §1.4.42 Character reference in attribute value state; the field is
    /// the attribute value state to return to.
    CharacterReferenceInAttributeValue(AttributeValueState),
    /// §1.4.43 Bogus comment state.
    BogusComment,
    /// §1.4.45 DOCTYPE state.
    Doctype,
    /// §1.4.46 Before DOCTYPE name state.
    BeforeDoctypeName,
    /// §1.4.47 DOCTYPE name state.
    DoctypeName,
    /// §1.4.48 After DOCTYPE name state.
    AfterDoctypeName,
    /// HTML §8.2.4.56 After DOCTYPE public keyword state.
    AfterDoctypePublicKeyword,
    /// HTML §8.2.4.57 Before DOCTYPE public identifier state.
    BeforeDoctypePublicIdentifier,
    /// HTML §8.2.4.58–59 DOCTYPE public identifier (double- and
    /// single-quoted) states; the field is the quote.
    DoctypePublicIdentifierQuoted(u8),
    /// HTML §8.2.4.60 After DOCTYPE public identifier state.
    AfterDoctypePublicIdentifier,
    /// HTML §8.2.4.61 Between DOCTYPE public and system identifiers state.
    BetweenDoctypePublicAndSystemIdentifiers,
    /// HTML §8.2.4.62 After DOCTYPE system keyword state.
    AfterDoctypeSystemKeyword,
    /// HTML §8.2.4.63 Before DOCTYPE system identifier state.
    BeforeDoctypeSystemIdentifier,
    /// HTML §8.2.4.64–65 DOCTYPE system identifier (double- and
    /// single-quoted) states; the field is the quote.
    DoctypeSystemIdentifierQuoted(u8),
    /// HTML §8.2.4.66 After DOCTYPE system identifier state.
    AfterDoctypeSystemIdentifier,
    /// The internal subset, between `[` and its `]` (XML5 §1.4.48 counts
    /// brackets; this also skips quoted literals, comments and PIs).
    DoctypeInternalSubset(Subset),
    /// After the internal subset's closing `]`.
    AfterDoctypeInternalSubset,
    /// §1.4.49 Bogus DOCTYPE state.
    BogusDoctype,
}

/// The attribute value states a character reference returns to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttributeValueState {
    DoubleQuoted,
    SingleQuoted,
    Unquoted,
}

impl AttributeValueState {
    pub(crate) fn state(self) -> State {
        match self {
            AttributeValueState::DoubleQuoted => State::TagAttributeValueDoubleQuoted,
            AttributeValueState::SingleQuoted => State::TagAttributeValueSingleQuoted,
            AttributeValueState::Unquoted => State::TagAttributeValueUnquoted,
        }
    }

    /// The spec's "additional allowed character" for references in values of
    /// this kind.
    pub(crate) fn additional_allowed(self) -> u8 {
        match self {
            AttributeValueState::DoubleQuoted => b'"',
            AttributeValueState::SingleQuoted => b'\'',
            AttributeValueState::Unquoted => b'>',
        }
    }
}

/// Where the internal subset scanner is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Subset {
    /// Between declarations; `depth` counts open `[` of conditional sections.
    Between { depth: u32 },
    /// Inside a `<!...>` declaration.
    Declaration { depth: u32 },
    /// Inside a quoted literal of a declaration.
    Literal { depth: u32, quote: u8 },
    /// Inside `<!-- ... -->`.
    Comment { depth: u32 },
    /// Inside `<? ... ?>`.
    Pi { depth: u32 },
}
