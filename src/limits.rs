//! Resource limits: how much a document may make the parser do.
//!
//! A lenient parser is pointed at whatever arrives, including input built to
//! hurt it. Every limit here has a default that no real document we know of
//! reaches; reaching one is a parse error (`ParseError`) with its own
//! code, after which parsing goes on and still finishes with a document.
//! `docs/robustness.md` explains each default.
//!
//! ```
//! use xml5dom::{Document, ErrorCode, ParseOptions};
//! let mut options = ParseOptions::default();
//! options.limits.max_element_depth = Some(2);
//! let doc = Document::parse_with("<a><b><c>deep</c></b></a>", &options);
//! assert_eq!(doc.errors()[0].code, ErrorCode::ElementDepthLimit);
//! assert_eq!(doc.root_element().unwrap().text_content(), "deep");
//! ```

/// The limits of one parse (part of the parse options, `ParseOptions`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Limits {
    /// Entity expansion may produce at most this many bytes per byte of
    /// input read so far (text and markup alike, up to the end of the
    /// reference being expanded; the first [`ENTITY_EXPANSION_FLOOR`]
    /// bytes are always allowed). Default 10. Past it:
    /// `entity-expansion-limit`, and no further reference is expanded.
    ///
    /// The input read so far, not the whole input, as libxml2 counts it:
    /// a stream cannot know the length of what is still to come, and so
    /// that a stream and a whole input run out at the same reference, the
    /// whole input is counted the same way.
    pub max_entity_expansion_ratio: u32,
    /// Entity expansion may produce at most this many bytes in all, whatever
    /// the input size. Default 64 MiB.
    pub max_entity_expansion_bytes: usize,
    /// Entities may refer to entities this deep (a reference in the document
    /// is depth 1). Default 16, and never more than 64 whatever is set
    /// (expanding an entity with markup nests a tokenizer per level). Past
    /// it: `entity-depth-limit`, and the deeper reference is left
    /// unexpanded.
    pub max_entity_depth: usize,
    /// Elements may nest this deep; `None` (the default) is unlimited, and
    /// any depth works without recursion. Past it: `element-depth-limit`;
    /// deeper start and end tags are dropped and their content goes to the
    /// deepest element kept.
    pub max_element_depth: Option<usize>,
    /// An element keeps at most this many attributes. Default 10,000 (as
    /// JAXP's `elementAttributeLimit`). Past it: `attribute-limit`, and the
    /// further attributes are dropped.
    pub max_attributes: usize,
    /// A name (of an element, attribute, processing-instruction target or
    /// entity) keeps at most this many bytes. Default 10,000 (JAXP's
    /// `maxXMLNameLimit` is 1,000). Past it: `name-length-limit`, and the
    /// name is cut at the limit (on a character boundary).
    pub max_name_length: usize,
    /// The input is parsed up to this many bytes of text (UTF-8, after
    /// decoding). Default, and ceiling whatever is set, [`MAX_INPUT_BYTES`]
    /// (`u32::MAX`, 4 GiB less a byte): a document keeps its source offsets
    /// in 32 bits, so a larger value counts as the ceiling, and
    /// [`Limits::none`] keeps it too. Past it: `input-size-limit`, at the
    /// offset where the input is cut (the last character boundary at or
    /// before the limit); the document is built from the input up to there
    /// (it ends there, as a document whose input ended there would, and
    /// its source is that much).
    pub max_input_bytes: usize,
}

/// The most bytes of text a document is parsed from: source offsets are
/// 32-bit. (`usize` is at least 32 bits wide on every target the standard
/// library supports, so the conversion loses nothing.)
pub const MAX_INPUT_BYTES: usize = u32::MAX as usize;

/// Expansion up to this many bytes is allowed whatever the ratio says, so a
/// small document may still use its entities freely (1 MiB).
pub const ENTITY_EXPANSION_FLOOR: usize = 1 << 20;

/// How many bytes of `piece`, the text that follows the `fed` bytes taken
/// so far, a limit of `limit` bytes of text takes: all of it, or up to the
/// last character boundary at or before the limit.
pub(crate) fn piece_kept(limit: usize, fed: usize, piece: &str) -> usize {
    let mut kept = limit.saturating_sub(fed);
    if piece.len() <= kept {
        return piece.len();
    }
    while !piece.is_char_boundary(kept) {
        kept -= 1;
    }
    kept
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_entity_expansion_ratio: 10,
            max_entity_expansion_bytes: 64 << 20,
            max_entity_depth: 16,
            max_element_depth: None,
            max_attributes: 10_000,
            max_name_length: 10_000,
            max_input_bytes: MAX_INPUT_BYTES,
        }
    }
}

impl Limits {
    /// No limits but the entity rules that keep expansion finite (depth and
    /// recursion): for trusted input that needs more than the defaults.
    ///
    /// ```
    /// use xml5dom::Limits;
    /// assert_eq!(Limits::none().max_element_depth, None);
    /// ```
    pub fn none() -> Limits {
        Limits {
            max_entity_expansion_ratio: u32::MAX,
            max_entity_expansion_bytes: usize::MAX,
            max_entity_depth: 64,
            max_element_depth: None,
            max_attributes: usize::MAX,
            max_name_length: usize::MAX,
            max_input_bytes: MAX_INPUT_BYTES,
        }
    }

    /// How many bytes of an input the parse takes: [`max_input_bytes`],
    /// at most [`MAX_INPUT_BYTES`].
    ///
    /// [`max_input_bytes`]: Limits::max_input_bytes
    ///
    /// ```
    /// use xml5dom::{Document, ErrorCode, Limits, ParseOptions, MAX_INPUT_BYTES};
    /// let mut limits = Limits::none();
    /// assert_eq!(limits.input_bytes(), MAX_INPUT_BYTES);
    /// limits.max_input_bytes = usize::MAX;
    /// assert_eq!(limits.input_bytes(), MAX_INPUT_BYTES);
    ///
    /// let mut options = ParseOptions::default();
    /// options.limits.max_input_bytes = 7;
    /// let doc = Document::parse_with("<a>caf\u{e9}</a>", &options);
    /// assert_eq!(doc.source(), "<a>caf"); // not half of the `\u{e9}`
    /// assert_eq!(doc.errors()[0].code, ErrorCode::InputSizeLimit);
    /// assert_eq!(doc.errors()[0].offset, 6);
    /// assert_eq!(doc.root_element().unwrap().text_content(), "caf");
    /// ```
    pub fn input_bytes(&self) -> usize {
        self.max_input_bytes.min(MAX_INPUT_BYTES)
    }

    /// How many bytes of `text` these limits let a parse take: all of it,
    /// or up to the last character boundary within
    /// [`input_bytes`](Self::input_bytes).
    pub(crate) fn input_kept(&self, text: &str) -> usize {
        piece_kept(self.input_bytes(), 0, text)
    }

    /// How many bytes entity expansion may have produced in all once the
    /// parse has read `input_read` bytes of input (the text up to the end
    /// of the reference being expanded).
    ///
    /// ```
    /// use xml5dom::Limits;
    /// let limits = Limits::default();
    /// assert_eq!(limits.entity_expansion_budget(100), 1 << 20);
    /// assert_eq!(limits.entity_expansion_budget(1 << 20), 10 << 20);
    /// assert_eq!(limits.entity_expansion_budget(10 << 20), 64 << 20);
    /// ```
    pub fn entity_expansion_budget(&self, input_read: usize) -> usize {
        let ratio = (self.max_entity_expansion_ratio as usize).saturating_mul(input_read);
        ratio
            .max(ENTITY_EXPANSION_FLOOR)
            .min(self.max_entity_expansion_bytes)
    }
}
