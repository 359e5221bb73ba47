//! Which errors repaired output mends, and how: one table, [`mend`], with
//! an arm for every [`ErrorCode`] and no catch-all, so that a new code does
//! not compile until it is given its repair (docs/serialization.md,
//! "Repairs"). The walks of `repair.rs` and the writer go by it where an
//! error's code decides what they do: what a `&` becomes, which
//! characters are mended in place, which markup was left out.

use crate::error::ErrorCode;

/// How repaired output mends the spot an error points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mend {
    /// Not a well-formedness error (a warning, or a limit the parse
    /// reached): nothing to mend; the output is the tree's.
    Nothing,
    /// At a `&` XML reads no reference at (and neither did the tree):
    /// written `&amp;`.
    EscapeAmpersand,
    /// At a reference XML does not accept as written: written as the
    /// characters it stood for.
    ResolveReference,
    /// A character XML cannot carry (or bytes that did not decode, U+FFFD
    /// or windows-1252 characters already): mended in place, the rest of
    /// the piece copied as written.
    ReplaceCharacter,
    /// Markup the parse left out of the tree: left out of the output too.
    DropMarkup,
    /// Anything else: the piece that holds it (a tag, a comment, a
    /// DOCTYPE, a declaration, a run of text) is written anew from the
    /// tree. Where the fault is one character of text or of a value (a
    /// `<` that starts no tag, `]]>`), the walk escapes that character
    /// and copies the rest as written.
    Rewrite,
}

/// The table: each [`Mend`] with the codes it serves. The macro makes
/// [`mend`], a `match` with an arm per code and no catch-all (so a code
/// left out does not compile, and one listed twice is an unreachable
/// pattern, which the lints refuse), and, for the tests, the list of every
/// code.
macro_rules! repairs {
    ($($how:ident: [$($code:ident,)*],)*) => {
        /// How repaired output mends an error of code `code`.
        pub(super) fn mend(code: ErrorCode) -> Mend {
            match code {
                $($(ErrorCode::$code)|* => Mend::$how,)*
            }
        }

        /// Every code, in the table's order.
        #[cfg(test)]
        const EVERY_CODE: &[ErrorCode] = &[$($(ErrorCode::$code,)*)*];
    };
}

repairs! {
    // XML allows these (warnings), or the tree is not all of the
    // document (limits): no byte of output changes for them.
    Nothing: [
        DiscouragedCharacterInInputStream, NoncharacterInInputStream,
        NoncharacterCharacterReference, ControlCharacterReference, ExternalEntityReference,
        UnreadParameterEntity, ExternalResourceUnavailable, EntityInExternalSubset,
        DuplicateNotationDeclaration,
        EntityExpansionLimit, EntityDepthLimit, ElementDepthLimit, AttributeLimit, NameLengthLimit,
        InputSizeLimit,
    ],
    EscapeAmpersand: [
        BareAmpersand, UnknownNamedCharacterReference, AbsenceOfDigitsInNumericCharacterReference,
        ExternalEntityInAttributeValue, UnparsedEntityReference,
    ],
    ResolveReference: [
        MissingSemicolonAfterCharacterReference, NullCharacterReference,
        CharacterReferenceOutsideUnicodeRange, SurrogateCharacterReference,
        IllegalCharacterReference, UppercaseHexadecimalReference, UndeclaredEntity,
    ],
    ReplaceCharacter: [
        InvalidByteSequence, Windows1252InUtf8, ControlCharacterInInputStream,
        IllegalCharacterInInputStream, UnexpectedNullCharacter,
    ],
    DropMarkup: [
        StrayEndTag, EndTagOutsideRootElement, ElementAfterRootElement, MisplacedDoctype,
        TextOutsideRootElement,
    ],
    Rewrite: [
        // Comments and processing instructions: their delimiters and text mended.
        AbruptClosingOfEmptyComment, IncorrectlyOpenedComment, NestedComment,
        IncorrectlyClosedComment, DoubleHyphenInComment, EofInComment,
        MissingProcessingInstructionTarget, EofInProcessingInstruction,
        ReservedProcessingInstructionTarget,
        // The XML declaration: its version, encoding label and `standalone`.
        AbruptClosingXmlDeclaration, EofInXmlDeclaration, InvalidXmlDeclaration,
        MisplacedXmlDeclaration, UnknownEncoding, EncodingMismatch,
        // Tags, attributes, CDATA sections and where elements end.
        ColonBeforeAttr, EofInTag, InvalidFirstCharacterOfTagName, EofBeforeTagName,
        UnexpectedSolidusInTag, UnexpectedCharacterAfterEndTagName, DuplicateAttribute,
        MissingWhitespaceBeforeAttribute, MissingAttributeValue, UnquotedAttributeValue,
        LessThanInAttributeValue, ShortEndTag, MismatchedEndTag, EofInElement, EofInCdata,
        CdataEndInText,
        // Names and namespaces.
        UnboundNamespacePrefix, InvalidNamespaceDeclaration, InvalidQualifiedName,
        DuplicateNamespacedAttribute, PrefixUndeclared, InvalidName,
        // The DOCTYPE and the declarations of its internal subset.
        EofInDoctype, MissingWhitespaceBeforeDoctypeName, MissingDoctypeName,
        InvalidCharacterSequenceAfterDoctypeName, MissingWhitespaceAfterDoctypePublicKeyword,
        MissingWhitespaceAfterDoctypeSystemKeyword, MissingDoctypePublicIdentifier,
        MissingDoctypeSystemIdentifier, MissingQuoteBeforeDoctypePublicIdentifier,
        MissingQuoteBeforeDoctypeSystemIdentifier, AbruptDoctypePublicIdentifier,
        AbruptDoctypeSystemIdentifier, MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
        UnexpectedCharacterAfterDoctypeSystemIdentifier,
        UnexpectedCharacterAfterDoctypeInternalSubset, UnterminatedDoctypeInternalSubset,
        InvalidPublicIdentifier, MalformedDeclaration, InvalidContentSpecification,
        MixedSeparatorsInContentModel, MissingStarAfterMixedContent, MisplacedPcdata,
        InvalidOccurrenceIndicator, MissingContentParticle, UnclosedContentModel,
        InvalidContentModel, ParameterEntityInDeclaration,
        // Entities whose expansion is at fault, and the document as a whole.
        UnbalancedEntityReference, RecursiveEntityReference, ReferenceOutsideRootElement,
        MissingRootElement,
    ],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_and_only_errors_are_mended() {
        for &code in EVERY_CODE {
            assert_eq!(mend(code) == Mend::Nothing, !code.is_error(), "{code:?}");
        }
    }

    #[test]
    fn the_table_lists_every_code_once() {
        let mut codes = EVERY_CODE.to_vec();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), EVERY_CODE.len());
    }
}
