//! Parse errors (values in the output, never failures) and caller errors.
//!
//! Parsing never fails: every input gives a result plus a list of
//! [`ParseError`]s, each with an [`ErrorCode`], a byte offset and a 1-based
//! line and column. The codes are the XML5 spec's §1.2 names where it has
//! one, and otherwise the names HTML's tokenizer uses for the same
//! situation; `docs/conformance.md` lists them all.
//!
//! [`Error`] is for the caller's mistakes and the outside world (a file that
//! cannot be read), never for the document's.

use std::fmt;

/// What went wrong in the input, by its spec name.
///
/// [`ErrorCode::as_str`] gives the kebab-case name used in messages and JSON;
/// [`ErrorCode::message`] a sentence for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorCode {
    // --- Named in the XML5 spec, §1.2 ---
    /// `<!-->` or `<!--->`: an empty comment closed too early.
    AbruptClosingOfEmptyComment,
    /// `<?xml version="1?>`: a declaration value left open by `?`.
    AbruptClosingXmlDeclaration,
    /// `<a :b>`: an attribute name that starts with a colon.
    ColonBeforeAttr,
    /// End of input inside `<![CDATA[`.
    EofInCdata,
    /// End of input inside a comment.
    EofInComment,
    /// End of input inside a DOCTYPE.
    EofInDoctype,
    /// End of input inside a start or end tag.
    EofInTag,
    /// End of input inside an XML declaration.
    EofInXmlDeclaration,
    /// `<!` not followed by `--`, `DOCTYPE` or `[CDATA[`.
    IncorrectlyOpenedComment,
    /// An XML declaration that does not follow its grammar.
    InvalidXmlDeclaration,
    /// `<!DOCTYPEname`: no whitespace after the keyword.
    MissingWhitespaceBeforeDoctypeName,
    /// `<!DOCTYPE>`: no name.
    MissingDoctypeName,

    // --- Input stream (named as in HTML) ---
    /// A control character XML 1.0 does not allow (U+0001–U+0008, U+000B,
    /// U+000C, U+000E–U+001F).
    ControlCharacterInInputStream,
    /// DEL (U+007F): XML 1.0 allows it but discourages it (§2.2); a
    /// warning.
    DiscouragedCharacterInInputStream,
    /// A Unicode noncharacter XML 1.0 allows (U+FDD0–U+FDEF, U+1FFFE,
    /// U+1FFFF, ... U+10FFFF); a warning.
    NoncharacterInInputStream,
    /// U+FFFE or U+FFFF, which XML 1.0 does not allow.
    IllegalCharacterInInputStream,
    /// U+0000, which XML cannot carry; it is replaced by U+FFFD.
    UnexpectedNullCharacter,

    // --- Tags ---
    /// `<` or `</` followed by something that cannot start a name; the
    /// characters are kept as text.
    InvalidFirstCharacterOfTagName,
    /// `<` or `</` at the end of the input.
    EofBeforeTagName,
    /// A `/` inside a tag that is not part of `/>`.
    UnexpectedSolidusInTag,
    /// Something other than whitespace after an end tag's name.
    UnexpectedCharacterAfterEndTagName,
    /// A second attribute with the same name; it is dropped.
    DuplicateAttribute,

    // --- Processing instructions ---
    /// `<?` followed by whitespace or the end of the input; read as a bogus
    /// comment.
    MissingProcessingInstructionTarget,
    /// End of input inside a processing instruction. (The spec's §1.4.26
    /// calls this `eof-in-cdata`, a copying slip; see docs/conformance.md.)
    EofInProcessingInstruction,

    // --- Comments ---
    /// `<!--` inside a comment.
    NestedComment,
    /// A comment closed by `--!>`.
    IncorrectlyClosedComment,

    // --- Character references ---
    /// A reference not closed by `;`.
    MissingSemicolonAfterCharacterReference,
    /// `&#` or `&#x` with no digits; kept as text.
    AbsenceOfDigitsInNumericCharacterReference,
    /// `&#0;`.
    NullCharacterReference,
    /// A numeric reference above U+10FFFF.
    CharacterReferenceOutsideUnicodeRange,
    /// A numeric reference to a surrogate (U+D800–U+DFFF).
    SurrogateCharacterReference,
    /// A numeric reference to a noncharacter XML 1.0 allows; a warning.
    NoncharacterCharacterReference,
    /// A numeric reference to CR, DEL or a C1 control (XML 1.0 allows them;
    /// U+0080–U+009F are remapped as Windows-1252, as the suite requires);
    /// a warning.
    ControlCharacterReference,
    /// A numeric reference to a character XML 1.0 does not allow, even as a
    /// reference (U+0001–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE,
    /// U+FFFF).
    IllegalCharacterReference,
    /// `&#X41;`: HTML takes an uppercase `X`, XML only `&#x` (§4.1).
    UppercaseHexadecimalReference,
    /// `&name;` where `name` is not a known reference; kept as text.
    UnknownNamedCharacterReference,

    // --- DOCTYPE (named as in HTML) ---
    /// Something other than `PUBLIC`, `SYSTEM`, `[` or `>` after the name.
    InvalidCharacterSequenceAfterDoctypeName,
    /// `PUBLIC"...`: no whitespace after the keyword.
    MissingWhitespaceAfterDoctypePublicKeyword,
    /// `SYSTEM"...`: no whitespace after the keyword.
    MissingWhitespaceAfterDoctypeSystemKeyword,
    /// `PUBLIC>`: the public identifier is missing.
    MissingDoctypePublicIdentifier,
    /// `SYSTEM>`: the system identifier is missing.
    MissingDoctypeSystemIdentifier,
    /// The public identifier does not start with a quote.
    MissingQuoteBeforeDoctypePublicIdentifier,
    /// The system identifier does not start with a quote.
    MissingQuoteBeforeDoctypeSystemIdentifier,
    /// `>` inside the quoted public identifier.
    AbruptDoctypePublicIdentifier,
    /// `>` inside the quoted system identifier.
    AbruptDoctypeSystemIdentifier,
    /// The public and system identifiers are not separated by whitespace.
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
    /// Something other than whitespace, `[` or `>` after the system
    /// identifier.
    UnexpectedCharacterAfterDoctypeSystemIdentifier,
    /// Something other than whitespace or `>` after the internal subset's `]`.
    UnexpectedCharacterAfterDoctypeInternalSubset,
    /// Markup that cannot belong to an internal subset (`<name`) before its
    /// closing `]`: the DOCTYPE ends there and the markup is read as content.
    UnterminatedDoctypeInternalSubset,

    // --- Internal-subset declarations and entities (XML 1.0 §2.8, §4) ---
    /// A markup declaration in the DTD (the internal subset, or a file read
    /// through the resolver) that does not follow its grammar; skipped up
    /// to its `>`.
    MalformedDeclaration,
    /// `<!ELEMENT a FOO>`: an element declaration whose content is not
    /// `EMPTY`, `ANY` or a parenthesized model (XML 1.0 §3.2 `contentspec`);
    /// skipped.
    InvalidContentSpecification,
    /// `(b,c|d)`: `,` and `|` in one group of a content model (XML 1.0
    /// §3.2.1 `choice`, `seq`); the declaration is skipped.
    MixedSeparatorsInContentModel,
    /// `(#PCDATA|b)`: mixed content that names elements without the `*`
    /// that must follow its `)` (XML 1.0 §3.2.2 `Mixed`); skipped.
    MissingStarAfterMixedContent,
    /// `(b|#PCDATA)*`: `#PCDATA` anywhere but first in the outermost group
    /// of a content model (XML 1.0 §3.2.2); skipped.
    MisplacedPcdata,
    /// `(b *)`, `(b)**`, `(#PCDATA)+`: `?`, `*` or `+` where the content
    /// model allows none (XML 1.0 §3.2.1, §3.2.2); skipped.
    InvalidOccurrenceIndicator,
    /// `()`, `(b,)`: no element name or group where a content model needs
    /// one (XML 1.0 §3.2.1 `cp`); skipped.
    MissingContentParticle,
    /// `((b)>`: a content model's group not closed before the
    /// declaration's `>`, the next `<` or the end of the subset; skipped.
    UnclosedContentModel,
    /// `(b c)`: something other than `,`, `|` or `)` after a particle of a
    /// content model; skipped.
    InvalidContentModel,
    /// A second `<!NOTATION>` for a name; the first is kept. A warning:
    /// XML 1.0 makes it a validity constraint ("Unique Notation Name").
    DuplicateNotationDeclaration,
    /// A parameter-entity reference inside a markup declaration of the
    /// internal subset, which XML 1.0 §2.8 forbids ("PEs in Internal
    /// Subset"); it is still included.
    ParameterEntityInDeclaration,
    /// A parameter-entity reference (`%name;`) to an external or undeclared
    /// entity: never read, and the entity and attribute-list declarations
    /// after it are not processed (XML 1.0 §5.1).
    UnreadParameterEntity,
    /// A reference in content to an external parsed entity (`SYSTEM` /
    /// `PUBLIC`): never fetched, the reference is kept as written; a
    /// warning (XML 1.0 §4.4.3 lets a non-validating processor skip it).
    ExternalEntityReference,
    /// An external DTD subset or entity that the caller's resolver
    /// (`ParseOptions::external`) refused or did not find: not read,
    /// references to it kept as written; a warning, as when nothing is
    /// resolved.
    ExternalResourceUnavailable,
    /// A reference to an external entity in an attribute value (XML 1.0
    /// WFC "No External Entity References"); kept as written.
    ExternalEntityInAttributeValue,
    /// A reference to an unparsed (`NDATA`) entity (XML 1.0 WFC "Parsed
    /// Entity"); kept as written.
    UnparsedEntityReference,
    /// An entity reference whose replacement text does not match up with
    /// the content around it: it closes an element opened outside it,
    /// leaves one open, or ends the document (XML 1.0 §4.3.2); parsed as it
    /// comes.
    UnbalancedEntityReference,
    /// An entity that refers to itself, directly or through others; the
    /// recursive reference is left unexpanded.
    RecursiveEntityReference,

    // --- Limits (the Limits of the parse options; Severity::Limit) ---
    /// Entity expansion reached its byte budget; no further reference is
    /// expanded.
    EntityExpansionLimit,
    /// Entities nested deeper than the limit; the deeper reference is left
    /// unexpanded.
    EntityDepthLimit,
    /// Elements nested deeper than the limit; deeper tags are dropped.
    ElementDepthLimit,
    /// More attributes on one element than the limit; the rest are dropped.
    AttributeLimit,
    /// A name longer than the limit; it is cut.
    NameLengthLimit,
    /// An input longer than the limit (`max_input_bytes`, at most
    /// `u32::MAX` bytes: offsets are 32-bit); it is cut there, on a
    /// character boundary, and the document is built from what comes
    /// before.
    InputSizeLimit,

    // --- Tree construction (§1.5) ---
    /// Text, a reference or CDATA before or after the root element; dropped.
    TextOutsideRootElement,
    /// A reference to an entity with markup before or after the root
    /// element, where XML allows no reference; its expansion is kept.
    ReferenceOutsideRootElement,
    /// An end tag before or after the root element; ignored.
    EndTagOutsideRootElement,
    /// A start or empty tag after the root element; ignored.
    ElementAfterRootElement,
    /// A DOCTYPE after the first one or after the root started; ignored.
    MisplacedDoctype,
    /// An XML declaration that is not at the very start; kept as a PI.
    MisplacedXmlDeclaration,
    /// The input has no root element.
    MissingRootElement,
    /// An end tag that closes more than the current element.
    MismatchedEndTag,
    /// An end tag with no open element of that name; ignored.
    StrayEndTag,
    /// The end of the input with elements still open.
    EofInElement,

    // --- Namespaces ---
    /// A prefix with no namespace bound to it. The name is put in the
    /// prefix's placeholder namespace (`urn:xml5dom:undeclared:PREFIX`), or
    /// in its registered namespace if it is a well-known prefix
    /// (`WELL_KNOWN_NAMESPACES`).
    UnboundNamespacePrefix,
    /// A namespace declaration that Namespaces in XML forbids.
    InvalidNamespaceDeclaration,
    /// A name with a colon that is not a valid qualified name.
    InvalidQualifiedName,
    /// Two attributes with the same namespace and local name; the second is
    /// dropped.
    DuplicateNamespacedAttribute,
    /// `xmlns:p=""`: Namespaces in XML 1.1 undeclares `p` (and so does
    /// xml5dom, as the suite requires), 1.0 does not allow it.
    PrefixUndeclared,

    // --- XML 1.0 well-formedness that XML5 tolerates silently ---
    /// An element, attribute or PI target name that is not an XML `Name`.
    InvalidName,
    /// An attribute not preceded by whitespace (`<a x="1"y="2">`).
    MissingWhitespaceBeforeAttribute,
    /// An attribute without `=value`.
    MissingAttributeValue,
    /// An attribute value without quotes.
    UnquotedAttributeValue,
    /// A literal `<` in an attribute value.
    LessThanInAttributeValue,
    /// An entity reference XML does not predefine (`&eacute;`): resolved from
    /// the HTML table, but not declared.
    UndeclaredEntity,
    /// An entity reference the internal subset does not declare, in a
    /// document with an external DTD (or unread parameter entities) that
    /// may declare it, and not `standalone="yes"`: never read, so resolved
    /// from the HTML table or kept as written; a warning (XML 1.0 WFC
    /// "Entity Declared" does not apply).
    EntityInExternalSubset,
    /// An `&` that does not start a reference.
    BareAmpersand,
    /// `]]>` in text outside a CDATA section.
    CdataEndInText,
    /// `--` inside a comment, or a comment ending in `-`.
    DoubleHyphenInComment,
    /// A PI named `xml` (in any case) that is not the XML declaration.
    ReservedProcessingInstructionTarget,
    /// A public identifier with characters XML does not allow there.
    InvalidPublicIdentifier,
    /// `</>`, which closes the current element in XML5 but is not XML.
    ShortEndTag,

    // --- Decoding ---
    /// A byte sequence that is not valid in the document's encoding; it is
    /// replaced by U+FFFD.
    InvalidByteSequence,
    /// Bytes that are not UTF-8 in a document read as UTF-8; each is read
    /// as its windows-1252 character, so none is lost (a windows-1252 file
    /// labelled UTF-8, or UTF-8 with windows-1252 bytes pasted in).
    /// Repaired output writes those characters in UTF-8.
    Windows1252InUtf8,
    /// The XML declaration names an encoding that is not known; UTF-8 is
    /// used (IBM037 in EBCDIC). Repaired output names the encoding it is
    /// written in.
    UnknownEncoding,
    /// The XML declaration names an encoding other than the one the
    /// byte-order mark or the first bytes show; those win. Repaired output
    /// names the encoding it is written in.
    EncodingMismatch,
}

impl ErrorCode {
    /// The kebab-case name of the error, as used in `xml5dom check` output
    /// and in `docs/conformance.md`.
    ///
    /// ```
    /// use xml5dom::ErrorCode;
    /// assert_eq!(ErrorCode::EofInTag.as_str(), "eof-in-tag");
    /// ```
    pub fn as_str(self) -> &'static str {
        self.describe().0
    }

    /// A one-line explanation for people.
    ///
    /// ```
    /// use xml5dom::ErrorCode;
    /// assert!(ErrorCode::DuplicateAttribute.message().contains("dropped"));
    /// ```
    pub fn message(self) -> &'static str {
        self.describe().1
    }

    /// Whether the code is a well-formedness violation (XML 1.0 with
    /// Namespaces rejects the input), a limit the parse reached (the tree
    /// is not all of the document), or a warning (XML allows it; XML5 or
    /// xml5dom still flags it). A warning never changes a byte of output.
    ///
    /// ```
    /// use xml5dom::{ErrorCode, Severity};
    /// assert_eq!(ErrorCode::BareAmpersand.severity(), Severity::Error);
    /// // `&#13;`: XML5 reports it, XML allows it.
    /// assert_eq!(ErrorCode::ControlCharacterReference.severity(), Severity::Warning);
    /// assert_eq!(ErrorCode::InputSizeLimit.severity(), Severity::Limit);
    /// ```
    pub fn severity(self) -> Severity {
        use ErrorCode::*;
        match self {
            // XML 1.0 allows these characters (§2.2), as references too.
            DiscouragedCharacterInInputStream
            | NoncharacterInInputStream
            | NoncharacterCharacterReference
            | ControlCharacterReference
            // A non-validating processor need not read external entities
            // (§4.4.3, §5.1), nor know what an unread DTD declares.
            | ExternalEntityReference
            | UnreadParameterEntity
            | ExternalResourceUnavailable
            | EntityInExternalSubset
            // Invalid, but well-formed: only a validating processor
            // rejects it.
            | DuplicateNotationDeclaration => Severity::Warning,
            // The caller's limits: what the author wrote may be fine, but
            // the tree is not all of it.
            EntityExpansionLimit
            | EntityDepthLimit
            | ElementDepthLimit
            | AttributeLimit
            | NameLengthLimit
            | InputSizeLimit => Severity::Limit,
            // `unknown-encoding` and `encoding-mismatch` are errors: XML 1.0
            // §4.3.3 makes an encoding the processor cannot read, and a
            // declaration that names another encoding than the entity is
            // in, fatal (repaired output names the encoding written).
            _ => Severity::Error,
        }
    }

    /// `self.severity() == Severity::Error`: a well-formedness violation
    /// (not a warning, nor a limit reached).
    pub fn is_error(self) -> bool {
        self.severity() == Severity::Error
    }

    /// `self.severity() == Severity::Limit`: one of the parse's limits
    /// (the parse options' `Limits`) was reached, so the tree is not all
    /// of the document.
    ///
    /// ```
    /// use xml5dom::ErrorCode;
    /// assert!(ErrorCode::EntityExpansionLimit.is_limit());
    /// assert!(!ErrorCode::EntityExpansionLimit.is_error());
    /// ```
    pub fn is_limit(self) -> bool {
        self.severity() == Severity::Limit
    }

    fn describe(self) -> (&'static str, &'static str) {
        use ErrorCode::*;
        match self {
            AbruptClosingOfEmptyComment => (
                "abrupt-closing-of-empty-comment",
                "empty comment closed by `>` too early",
            ),
            AbruptClosingXmlDeclaration => (
                "abrupt-closing-xml-declaration",
                "XML declaration value not closed before `?`",
            ),
            ColonBeforeAttr => (
                "colon-before-attr",
                "colon before an attribute name; it is ignored",
            ),
            EofInCdata => ("eof-in-cdata", "end of input inside a CDATA section"),
            EofInComment => ("eof-in-comment", "end of input inside a comment"),
            EofInDoctype => ("eof-in-doctype", "end of input inside a DOCTYPE"),
            EofInTag => ("eof-in-tag", "end of input inside a tag"),
            EofInXmlDeclaration => (
                "eof-in-xml-declaration",
                "end of input inside the XML declaration",
            ),
            IncorrectlyOpenedComment => (
                "incorrectly-opened-comment",
                "`<!` not followed by `--`, `DOCTYPE` or `[CDATA[`; read as a comment",
            ),
            InvalidXmlDeclaration => ("invalid-xml-declaration", "malformed XML declaration"),
            MissingWhitespaceBeforeDoctypeName => (
                "missing-whitespace-before-doctype-name",
                "no whitespace between `DOCTYPE` and the name",
            ),
            MissingDoctypeName => ("missing-doctype-name", "DOCTYPE without a name"),
            ControlCharacterInInputStream => (
                "control-character-in-input-stream",
                "control character XML does not allow (U+0001-U+001F but tab, LF and CR)",
            ),
            DiscouragedCharacterInInputStream => (
                "discouraged-character-in-input-stream",
                "DEL character (XML allows it, but discourages it)",
            ),
            NoncharacterInInputStream => (
                "noncharacter-in-input-stream",
                "Unicode noncharacter in the input (XML allows it, but discourages it)",
            ),
            IllegalCharacterInInputStream => (
                "illegal-character-in-input-stream",
                "U+FFFE or U+FFFF, which XML does not allow",
            ),
            UnexpectedNullCharacter => (
                "unexpected-null-character",
                "NUL character; replaced by U+FFFD",
            ),
            InvalidFirstCharacterOfTagName => (
                "invalid-first-character-of-tag-name",
                "`<` not followed by a tag name; kept as text",
            ),
            EofBeforeTagName => (
                "eof-before-tag-name",
                "end of input right after `<`; kept as text",
            ),
            UnexpectedSolidusInTag => (
                "unexpected-solidus-in-tag",
                "`/` inside a tag that is not part of `/>`",
            ),
            UnexpectedCharacterAfterEndTagName => (
                "unexpected-character-after-end-tag-name",
                "end tags take no attributes; ignored",
            ),
            DuplicateAttribute => (
                "duplicate-attribute",
                "attribute given twice; the second one is dropped",
            ),
            MissingProcessingInstructionTarget => (
                "missing-processing-instruction-target",
                "`<?` without a target; read as a comment",
            ),
            EofInProcessingInstruction => (
                "eof-in-processing-instruction",
                "end of input inside a processing instruction",
            ),
            NestedComment => ("nested-comment", "`<!--` inside a comment"),
            IncorrectlyClosedComment => ("incorrectly-closed-comment", "comment closed by `--!>`"),
            MissingSemicolonAfterCharacterReference => (
                "missing-semicolon-after-character-reference",
                "character reference without a closing `;`",
            ),
            AbsenceOfDigitsInNumericCharacterReference => (
                "absence-of-digits-in-numeric-character-reference",
                "`&#` without digits; kept as text",
            ),
            NullCharacterReference => (
                "null-character-reference",
                "reference to U+0000; replaced by U+FFFD",
            ),
            CharacterReferenceOutsideUnicodeRange => (
                "character-reference-outside-unicode-range",
                "reference above U+10FFFF; replaced by U+FFFD",
            ),
            SurrogateCharacterReference => (
                "surrogate-character-reference",
                "reference to a surrogate; replaced by U+FFFD",
            ),
            NoncharacterCharacterReference => (
                "noncharacter-character-reference",
                "reference to a Unicode noncharacter (XML allows it)",
            ),
            ControlCharacterReference => (
                "control-character-reference",
                "reference to CR, DEL or a C1 control (XML allows it; U+0080-U+009F read as Windows-1252)",
            ),
            IllegalCharacterReference => (
                "illegal-character-reference",
                "reference to a character XML does not allow",
            ),
            UppercaseHexadecimalReference => (
                "uppercase-hexadecimal-reference",
                "`&#X`: XML writes a hexadecimal reference `&#x`",
            ),
            UnknownNamedCharacterReference => (
                "unknown-named-character-reference",
                "unknown entity reference; kept as text",
            ),
            InvalidCharacterSequenceAfterDoctypeName => (
                "invalid-character-sequence-after-doctype-name",
                "expected `PUBLIC`, `SYSTEM`, `[` or `>` after the DOCTYPE name",
            ),
            MissingWhitespaceAfterDoctypePublicKeyword => (
                "missing-whitespace-after-doctype-public-keyword",
                "no whitespace after `PUBLIC`",
            ),
            MissingWhitespaceAfterDoctypeSystemKeyword => (
                "missing-whitespace-after-doctype-system-keyword",
                "no whitespace after `SYSTEM`",
            ),
            MissingDoctypePublicIdentifier => (
                "missing-doctype-public-identifier",
                "`PUBLIC` without a public identifier",
            ),
            MissingDoctypeSystemIdentifier => (
                "missing-doctype-system-identifier",
                "`SYSTEM` without a system identifier",
            ),
            MissingQuoteBeforeDoctypePublicIdentifier => (
                "missing-quote-before-doctype-public-identifier",
                "public identifier not quoted",
            ),
            MissingQuoteBeforeDoctypeSystemIdentifier => (
                "missing-quote-before-doctype-system-identifier",
                "system identifier not quoted",
            ),
            AbruptDoctypePublicIdentifier => (
                "abrupt-doctype-public-identifier",
                "`>` inside the public identifier",
            ),
            AbruptDoctypeSystemIdentifier => (
                "abrupt-doctype-system-identifier",
                "`>` inside the system identifier",
            ),
            MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => (
                "missing-whitespace-between-doctype-public-and-system-identifiers",
                "no whitespace between the public and system identifiers",
            ),
            UnexpectedCharacterAfterDoctypeSystemIdentifier => (
                "unexpected-character-after-doctype-system-identifier",
                "unexpected character after the system identifier; ignored",
            ),
            UnexpectedCharacterAfterDoctypeInternalSubset => (
                "unexpected-character-after-doctype-internal-subset",
                "unexpected character after the internal subset; ignored",
            ),
            UnterminatedDoctypeInternalSubset => (
                "unterminated-doctype-internal-subset",
                "internal subset not closed by `]>` before content",
            ),
            MalformedDeclaration => (
                "malformed-declaration",
                "markup declaration in the DTD that does not follow its grammar; skipped",
            ),
            InvalidContentSpecification => (
                "invalid-content-specification",
                "element declaration whose content is not `EMPTY`, `ANY` or `(...)`; skipped",
            ),
            MixedSeparatorsInContentModel => (
                "mixed-separators-in-content-model",
                "`,` and `|` in one group of a content model; the declaration is skipped",
            ),
            MissingStarAfterMixedContent => (
                "missing-star-after-mixed-content",
                "mixed content naming elements must end with `)*`; the declaration is skipped",
            ),
            MisplacedPcdata => (
                "misplaced-pcdata",
                "`#PCDATA` not first in a content model; the declaration is skipped",
            ),
            InvalidOccurrenceIndicator => (
                "invalid-occurrence-indicator",
                "`?`, `*` or `+` where the content model allows none; the declaration is skipped",
            ),
            MissingContentParticle => (
                "missing-content-particle",
                "no element name or group where the content model needs one; the declaration is skipped",
            ),
            UnclosedContentModel => (
                "unclosed-content-model",
                "content model group not closed before `>`; the declaration is skipped",
            ),
            InvalidContentModel => (
                "invalid-content-model",
                "expected `,`, `|` or `)` in the content model; the declaration is skipped",
            ),
            DuplicateNotationDeclaration => (
                "duplicate-notation-declaration",
                "notation declared twice; the first declaration is kept",
            ),
            ParameterEntityInDeclaration => (
                "parameter-entity-in-declaration",
                "parameter-entity reference inside a declaration of the internal subset; included",
            ),
            UnreadParameterEntity => (
                "unread-parameter-entity",
                "parameter entity not read; later entity and attribute-list declarations are not processed",
            ),
            ExternalEntityReference => (
                "external-entity-reference",
                "reference to an external entity; never fetched, kept as written",
            ),
            ExternalResourceUnavailable => (
                "external-resource-unavailable",
                "external DTD or entity not read: the resolver refused it or found nothing; kept as written",
            ),
            ExternalEntityInAttributeValue => (
                "external-entity-in-attribute-value",
                "reference to an external entity in an attribute value; kept as written",
            ),
            UnparsedEntityReference => (
                "unparsed-entity-reference",
                "reference to an unparsed (NDATA) entity; kept as written",
            ),
            UnbalancedEntityReference => (
                "unbalanced-entity-reference",
                "entity whose markup does not match up with the content around it",
            ),
            RecursiveEntityReference => (
                "recursive-entity-reference",
                "entity refers to itself; the recursive reference is not expanded",
            ),
            EntityExpansionLimit => (
                "entity-expansion-limit",
                "entity expansion reached its limit; further references are not expanded",
            ),
            EntityDepthLimit => (
                "entity-depth-limit",
                "entities nested deeper than the limit; the deeper reference is not expanded",
            ),
            ElementDepthLimit => (
                "element-depth-limit",
                "elements nested deeper than the limit; deeper tags are dropped",
            ),
            AttributeLimit => (
                "attribute-limit",
                "more attributes than the limit; the rest are dropped",
            ),
            NameLengthLimit => ("name-length-limit", "name longer than the limit; cut"),
            InputSizeLimit => (
                "input-size-limit",
                "input longer than the limit; the rest is not parsed",
            ),
            TextOutsideRootElement => (
                "text-outside-root-element",
                "text outside the root element; dropped",
            ),
            ReferenceOutsideRootElement => (
                "reference-outside-root-element",
                "entity reference outside the root element; what it stands for is kept",
            ),
            EndTagOutsideRootElement => (
                "end-tag-outside-root-element",
                "end tag outside the root element; ignored",
            ),
            ElementAfterRootElement => (
                "element-after-root-element",
                "element after the root element; ignored",
            ),
            MisplacedDoctype => ("misplaced-doctype", "DOCTYPE not before the root; ignored"),
            MisplacedXmlDeclaration => (
                "misplaced-xml-declaration",
                "XML declaration not at the start; kept as a processing instruction",
            ),
            MissingRootElement => ("missing-root-element", "no root element"),
            MismatchedEndTag => (
                "mismatched-end-tag",
                "end tag does not match the current element; the elements inside it are closed",
            ),
            StrayEndTag => (
                "stray-end-tag",
                "end tag for an element that is not open; ignored",
            ),
            EofInElement => (
                "eof-in-element",
                "end of input with elements still open; they are closed",
            ),
            UnboundNamespacePrefix => (
                "unbound-namespace-prefix",
                "namespace prefix not declared; the name is put in the registered namespace of a well-known prefix, else in the placeholder namespace urn:xml5dom:undeclared:PREFIX",
            ),
            InvalidNamespaceDeclaration => (
                "invalid-namespace-declaration",
                "forbidden namespace declaration; kept as a plain attribute",
            ),
            InvalidQualifiedName => (
                "invalid-qualified-name",
                "name with a misplaced colon; not namespace-resolved",
            ),
            DuplicateNamespacedAttribute => (
                "duplicate-namespaced-attribute",
                "attribute repeats another's namespace and local name; dropped",
            ),
            PrefixUndeclared => (
                "prefix-undeclared",
                "`xmlns:p=\"\"` undeclares a prefix, which only Namespaces 1.1 allows",
            ),
            InvalidName => ("invalid-name", "not an XML name"),
            MissingWhitespaceBeforeAttribute => (
                "missing-whitespace-before-attribute",
                "attributes must be separated by whitespace",
            ),
            MissingAttributeValue => (
                "missing-attribute-value",
                "attribute without a value; read as empty",
            ),
            UnquotedAttributeValue => {
                ("unquoted-attribute-value", "attribute value without quotes")
            }
            LessThanInAttributeValue => {
                ("less-than-in-attribute-value", "`<` in an attribute value")
            }
            UndeclaredEntity => (
                "undeclared-entity",
                "entity not predefined in XML; resolved from the HTML table",
            ),
            EntityInExternalSubset => (
                "entity-in-external-subset",
                "entity not declared in the internal subset, so perhaps in the external DTD (never read)",
            ),
            BareAmpersand => (
                "bare-ampersand",
                "`&` that starts no reference; kept as text",
            ),
            CdataEndInText => ("cdata-end-in-text", "`]]>` in text"),
            DoubleHyphenInComment => (
                "double-hyphen-in-comment",
                "`--` inside a comment or `-` at its end",
            ),
            ReservedProcessingInstructionTarget => (
                "reserved-processing-instruction-target",
                "processing instruction named `xml` that is not the declaration",
            ),
            InvalidPublicIdentifier => (
                "invalid-public-identifier",
                "character not allowed in a public identifier",
            ),
            ShortEndTag => (
                "short-end-tag",
                "`</>` is not XML; it closes the current element",
            ),
            InvalidByteSequence => (
                "invalid-byte-sequence",
                "bytes not valid in the document's encoding; replaced by U+FFFD",
            ),
            Windows1252InUtf8 => (
                "windows-1252-in-utf-8",
                "bytes not valid UTF-8; each read as its windows-1252 character",
            ),
            UnknownEncoding => (
                "unknown-encoding",
                "the declared encoding is not known; read as UTF-8",
            ),
            EncodingMismatch => (
                "encoding-mismatch",
                "the declared encoding contradicts the byte-order mark or the first bytes; those win",
            ),
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How serious a [`ParseError`] is: a well-formedness violation, a limit
/// the parse reached, or a warning about input XML allows.
///
/// A document is well-formed (the DOM's `Document::is_well_formed`) only
/// with neither an error nor a limit: a document a limit cut short or
/// changed is not the document its author wrote, whether or not that one
/// was well-formed (docs/conformance.md, "Errors, limits and warnings").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The input is not well-formed XML 1.0 with namespaces here; the
    /// serializer repairs it.
    Error,
    /// One of the parse's limits (`Limits`) was reached (the six
    /// `*-limit` codes): the input there was cut, dropped or left
    /// unexpanded, so the tree is not all of the document. Not the
    /// author's mistake, so the serializer repairs nothing for it (what a
    /// limit left as written is written as it is); raising the limit reads
    /// the document whole.
    Limit,
    /// XML allows the input, but XML5 or xml5dom flags it (`&#13;`, an
    /// external entity never fetched). Output is never changed for a
    /// warning.
    Warning,
}

impl Severity {
    /// `error`, `limit` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Limit => "limit",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parse error: what ([`ErrorCode`]) and where.
///
/// Its `Display` is `line:column: code: message` with the code's generic
/// message; [`Diagnostic`] says it with what the parser knew more (the
/// element a mismatched end tag leaves open, the encoding label), as
/// `xml5dom check` prints it.
///
/// `offset` is a byte offset into the text that was parsed; `line` and
/// `column` are 1-based, with the column counted in characters (Unicode
/// scalar values) and CR LF, lone CR and LF each ending one line.
///
/// ```
/// use xml5dom::tokenizer::{tokenize, TokenList};
/// use xml5dom::ErrorCode;
///
/// let out = tokenize("<a>\r\n<b x='1' x='2'>", TokenList::default());
/// let err = out.errors().next().unwrap();
/// assert_eq!(err.code, ErrorCode::DuplicateAttribute);
/// assert_eq!((err.offset, err.line, err.column), (14, 2, 10));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// What went wrong.
    pub code: ErrorCode,
    /// Byte offset of the offending input (or its end, at end of input).
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

impl ParseError {
    /// The severity of its code.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// Whether it is a well-formedness violation (not a warning, nor a
    /// limit reached).
    pub fn is_error(&self) -> bool {
        self.code.is_error()
    }

    /// Whether it says a limit was reached ([`Severity::Limit`]).
    pub fn is_limit(&self) -> bool {
        self.code.is_limit()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.line,
            self.column,
            self.code.as_str(),
            self.code.message()
        )
    }
}

/// What the parser knew about an end tag that did not close the current
/// element, beyond its code and place: the element that was open (as
/// xmllint's "Opening and ending tag mismatch: key line 4 and schema"
/// names it) and how many elements the end tag closed without theirs.
///
/// Given for `mismatched-end-tag` and `stray-end-tag`, by
/// `Document::error_context` (`xml5dom::dom`, a stage above) and, in a
/// stream, by the `Event::ErrorContext` (`xml5dom::events`, a stage above
/// this one) that follows the error's event. It is kept beside the errors, not in
/// [`ParseError`]: that type is `Copy`, and its fields are public, so a new
/// field would break every caller that builds or destructures one; and an
/// error without context (almost all of them) costs nothing more.
///
/// ```
/// use xml5dom::{Document, ErrorCode};
///
/// let doc = Document::parse("<a>\n  <key>x</a>");
/// assert_eq!(doc.errors()[0].code, ErrorCode::MismatchedEndTag);
/// let context = doc.error_context(0).unwrap();
/// assert_eq!(context.end_tag, "a");
/// let open = context.open.as_ref().unwrap();
/// assert_eq!((open.name.as_str(), open.line, open.column), ("key", 2, 3));
/// assert_eq!(context.implied_closes, 1);
/// assert_eq!(
///     context.message(),
///     "end tag </a> does not match the open element <key> (line 2, column 3); <key> is closed",
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ErrorContext {
    /// The end tag's name as written (cut to the name-length limit).
    pub end_tag: String,
    /// The element that was current when the end tag came: for
    /// `mismatched-end-tag` the innermost of those it closes, for
    /// `stray-end-tag` the one it leaves open.
    pub open: Option<ElementStart>,
    /// How many elements the end tag closed without their own end tags:
    /// for `mismatched-end-tag` the open element and every element between
    /// it and the one the end tag names (at least 1); 0 for
    /// `stray-end-tag`, which closes nothing.
    pub implied_closes: usize,
    /// For an error inside a file read through the caller's resolver (an
    /// external DTD or entity): where in it. The error's own offset is
    /// the reference that read the file. (The fields above are empty then.)
    pub external: Option<ExternalPosition>,
    /// For an external file not read (`external-resource-unavailable`,
    /// `input-size-limit`): which, and why (the resolver's reason).
    pub unread: Option<String>,
}

/// A place in a file read through the caller's resolver.
///
/// ```
/// use std::sync::Arc;
/// use xml5dom::external::{ExternalRequest, Refusal, Resolved, Resolver};
/// use xml5dom::{Document, ParseOptions};
///
/// #[derive(Debug)]
/// struct One;
/// impl Resolver for One {
///     fn resolve(&self, _: &ExternalRequest<'_>) -> Result<Resolved, Refusal> {
///         let bytes = b"<!ENTITY ok 'fine'>\n  <!ENTITY broken>".to_vec();
///         Ok(Resolved { uri: "decls.ent".into(), bytes })
///     }
/// }
///
/// let mut options = ParseOptions::default();
/// options.external.resolver = Some(Arc::new(One));
/// let doc = Document::parse_with("<!DOCTYPE d [<!ENTITY % e SYSTEM 'x'>%e;]><d/>", &options);
/// let said = doc.diagnostic(0).unwrap();
/// assert_eq!(said.to_string(), "1:38: error: malformed-declaration: \
///     markup declaration in the DTD that does not follow its grammar; skipped \
///     (in decls.ent, line 2, column 3)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ExternalPosition {
    /// The file's URI, as the resolver gave it.
    pub uri: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

impl ExternalPosition {
    /// `line` and `column` in the file at `uri`.
    pub fn new(uri: &str, line: u32, column: u32) -> ExternalPosition {
        ExternalPosition {
            uri: uri.to_owned(),
            line,
            column,
        }
    }
}

/// An element where it starts: its name and the `<` of its start tag (of
/// the entity reference, for an element an expansion made).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ElementStart {
    /// Its qualified name as written.
    pub name: String,
    /// Byte offset of its start tag.
    pub offset: usize,
    /// 1-based line of its start tag.
    pub line: u32,
    /// 1-based column of its start tag, in characters.
    pub column: u32,
}

impl ErrorContext {
    /// The context of an error inside a file read through the resolver.
    pub fn external(position: ExternalPosition) -> ErrorContext {
        ErrorContext {
            end_tag: String::new(),
            open: None,
            implied_closes: 0,
            external: Some(position),
            unread: None,
        }
    }

    /// The context of an error inside a file read through the resolver
    /// (`position`), or about a file not read (`unread`), if either.
    pub fn in_external(
        position: Option<ExternalPosition>,
        unread: Option<String>,
    ) -> Option<ErrorContext> {
        if position.is_none() && unread.is_none() {
            return None;
        }
        Some(ErrorContext {
            external: position,
            unread,
            ..ErrorContext::external(ExternalPosition::new("", 0, 0))
        })
    }

    /// Whether this is the context of an error about external files (not
    /// of an end tag).
    fn is_external(&self) -> bool {
        self.end_tag.is_empty() && (self.external.is_some() || self.unread.is_some())
    }

    /// The context said for people, as `xml5dom check` says it in place of
    /// the code's own [message](ErrorCode::message) (the message of the
    /// error's [`Diagnostic`]).
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<a><b></x></b></a>");
    /// assert_eq!(
    ///     doc.error_context(0).unwrap().message(),
    ///     "end tag </x> matches no open element (the current one is <b>, line 1, column 4); ignored",
    /// );
    /// ```
    pub fn message(&self) -> String {
        if self.is_external() {
            let at = self
                .external
                .as_ref()
                .map(|at| format!("in {}, line {}, column {}", at.uri, at.line, at.column));
            return match (&self.unread, at) {
                (Some(why), Some(at)) => format!("{why}; {at}"),
                (Some(why), None) => why.clone(),
                (None, at) => at.unwrap_or_default(),
            };
        }
        let end_tag = &self.end_tag;
        let open = |open: &ElementStart| {
            format!(
                "<{}> (line {}, column {})",
                open.name, open.line, open.column
            )
        };
        match (&self.open, self.implied_closes) {
            (None, _) => format!("end tag </{end_tag}> matches no open element; ignored"),
            (Some(current), 0) => format!(
                "end tag </{end_tag}> matches no open element (the current one is <{}>, \
                 line {}, column {}); ignored",
                current.name, current.line, current.column
            ),
            (Some(current), 1) => format!(
                "end tag </{end_tag}> does not match the open element {}; <{}> is closed",
                open(current),
                current.name
            ),
            (Some(current), n) => format!(
                "end tag </{end_tag}> does not match the open element {}; <{}> and {} more \
                 element{} inside <{end_tag}> are closed",
                open(current),
                current.name,
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        }
    }
}

/// A parse error said for people with everything the parser knew about
/// it: the message `xml5dom check` prints, where [`ParseError`]'s own
/// `Display` has only its code's generic sentence.
///
/// Its `Display` is the line `check` prints without the path in front
/// (`line:column: severity: code: message`), and [`message`](Self::message)
/// the text alone (the `message` of `check --format json`): for an end
/// tag that does not close the current element, what its
/// [`ErrorContext`] says (the element open and where it starts); for an
/// unknown encoding, the label the XML declaration gave; otherwise the
/// code's [message](ErrorCode::message). (`check` adds, for a limit
/// reached, the command-line flag that raises it.)
///
/// A document gives them by the index of its errors
/// (`Document::diagnostic`, `Document::diagnostics` in `xml5dom::dom`, a
/// stage above); a stream of events builds one from an `Event::Error`, the
/// `Event::ErrorContext` that may follow it and the XML declaration's
/// encoding label ([`Diagnostic::new`]).
///
/// ```
/// use xml5dom::Document;
///
/// let doc = Document::parse("<a>\n  <key>x</a>");
/// let error = doc.errors()[0];
/// assert_eq!(
///     error.to_string(),
///     "2:9: mismatched-end-tag: end tag does not match the current element; \
///      the elements inside it are closed"
/// );
/// let diagnostic = doc.diagnostic(0).unwrap();
/// assert_eq!(
///     diagnostic.to_string(),
///     "2:9: error: mismatched-end-tag: end tag </a> does not match the open element <key> \
///      (line 2, column 3); <key> is closed"
/// );
/// assert_eq!(diagnostic.error(), error);
/// assert!(diagnostic.message().starts_with("end tag </a>"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnostic<'a> {
    error: ParseError,
    context: Option<&'a ErrorContext>,
    declared_encoding: Option<&'a str>,
}

impl<'a> Diagnostic<'a> {
    /// `error` with the context that came with it, if any (in a stream,
    /// the `Event::ErrorContext` right after its `Event::Error`).
    ///
    /// ```
    /// use xml5dom::events::{self, Event};
    /// use xml5dom::{Diagnostic, Document};
    ///
    /// let text = "<list><item>one<item>two</list>";
    /// let mut said = Vec::new();
    /// let mut waiting = None;
    /// events::parse(text, |event| match event {
    ///     Event::Error(error) => {
    ///         if let Some(error) = waiting.replace(error) {
    ///             said.push(Diagnostic::new(error, None).to_string());
    ///         }
    ///     }
    ///     Event::ErrorContext(context) => {
    ///         if let Some(error) = waiting.take() {
    ///             said.push(Diagnostic::new(error, Some(context)).to_string());
    ///         }
    ///     }
    ///     _ => {}
    /// });
    /// said.extend(waiting.map(|error| Diagnostic::new(error, None).to_string()));
    /// // What the document says of the same errors.
    /// let doc = Document::parse(text);
    /// let from_doc: Vec<String> = doc.diagnostics().map(|d| d.to_string()).collect();
    /// assert_eq!(said, from_doc);
    /// ```
    pub fn new(error: ParseError, context: Option<&'a ErrorContext>) -> Diagnostic<'a> {
        Diagnostic {
            error,
            context,
            declared_encoding: None,
        }
    }

    /// The encoding label the XML declaration gave, which the message of
    /// an `unknown-encoding` error names.
    ///
    /// ```
    /// use xml5dom::{Diagnostic, Document};
    ///
    /// let doc = Document::parse_bytes(b"<?xml version='1.0' encoding='klingon'?><a/>");
    /// let error = doc.errors()[0];
    /// let said = Diagnostic::new(error, None).declared_encoding(Some("klingon"));
    /// assert_eq!(said.message(), "the declared encoding \"klingon\" is not known; read as UTF-8");
    /// assert_eq!(said, doc.diagnostic(0).unwrap());
    /// ```
    pub fn declared_encoding(mut self, label: Option<&'a str>) -> Diagnostic<'a> {
        self.declared_encoding = label;
        self
    }

    /// The error: its code and place.
    pub fn error(&self) -> ParseError {
        self.error
    }

    /// What the parser knew more about it, if anything.
    pub fn context(&self) -> Option<&'a ErrorContext> {
        self.context
    }

    /// The message alone, without the place, severity and code (the
    /// `message` of `xml5dom check --format json`).
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<a x=1></a>");
    /// let said = doc.diagnostic(0).unwrap();
    /// assert_eq!(said.message(), "attribute value without quotes");
    /// ```
    pub fn message(&self) -> std::borrow::Cow<'static, str> {
        if let Some(context) = self.context {
            if context.is_external() {
                let message = self.error.code.message();
                return format!("{message} ({})", context.message()).into();
            }
            return context.message().into();
        }
        match (self.error.code, self.declared_encoding) {
            (ErrorCode::UnknownEncoding, Some(label)) => {
                format!("the declared encoding {label:?} is not known; read as UTF-8").into()
            }
            (code, _) => code.message().into(),
        }
    }
}

impl fmt::Display for Diagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let error = &self.error;
        write!(
            f,
            "{}:{}: {}: {}: {}",
            error.line,
            error.column,
            error.severity(),
            error.code.as_str(),
            self.message()
        )
    }
}

/// A caller error: an unreadable input, an unknown encoding, an edit that
/// cannot be done. Never raised for the
/// content of a document.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading an input failed.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path, or `-` for standard input.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Writing output failed.
    #[error("cannot write output: {0}")]
    Write(#[from] std::io::Error),
    /// An encoding label that the WHATWG Encoding Standard does not know.
    #[error("unknown encoding: {0:?}")]
    UnknownEncoding(String),
    /// A tree edit that cannot be done: the node was removed, the edit would
    /// make a cycle, the node cannot hold (or be) what was asked, or the
    /// document written out would not read back as the tree is.
    #[error("invalid edit: {0}")]
    InvalidEdit(String),
}
