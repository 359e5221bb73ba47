//! Byte spans into the parsed text.

use std::fmt;
use std::ops::Range;

/// A half-open range of byte offsets, `start..end`, into the text that was
/// parsed. Every token and node keeps the span of the source it came from,
/// so the original text (quotes, references as written, line ends) stays
/// reachable after normalization.
///
/// ```
/// use xml5dom::Span;
/// let source = "<a>text</a>";
/// let span = Span::new(3, 7);
/// assert_eq!(&source[span.range()], "text");
/// assert_eq!(span.len(), 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span as a range, for slicing the source.
    #[inline]
    pub const fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// Its length in bytes.
    #[inline]
    pub const fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether it covers no bytes.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<Span> for Range<usize> {
    fn from(span: Span) -> Range<usize> {
        span.range()
    }
}
