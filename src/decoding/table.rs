//! The shape of a generated single-byte table: what `code_pages.rs` holds
//! and `encoding.rs` reads (apart from both, so that neither imports the
//! other back).

/// A single-byte encoding, both ways.
pub(crate) struct Table {
    pub(crate) name: &'static str,
    /// The Windows code page number, or 0.
    pub(crate) code_page: u16,
    pub(crate) labels: &'static [&'static str],
    /// Byte to UTF-16 code unit; 0xFFFF where the byte means nothing.
    pub(crate) decode: [u16; 256],
    /// Code unit to byte, sorted by code unit.
    pub(crate) encode: &'static [(u16, u8)],
}
