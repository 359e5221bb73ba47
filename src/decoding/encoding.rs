//! The character encodings xml5dom reads and writes, and their labels.
//!
//! Four families, behind one [`Encoding`] type:
//!
//! * every encoding of the WHATWG Encoding Standard, through `encoding_rs`;
//! * UTF-32 (UCS-4) in both byte orders (XML 1.0 Appendix F), by hand;
//! * the DOS/OEM code pages (437, 720, 737, 775, 850, 852, 855, 857, 858,
//!   860–865, 869), through `oem_cp`;
//! * single-byte encodings no crate carries (ISO-8859-1 itself, which the
//!   Encoding Standard reads as windows-1252; the Mac encodings beyond Roman
//!   and Cyrillic, KOI8-T, VISCII, TCVN 5712, EBCDIC 037, 500, 1047 and
//!   1140), from the tables of `code_pages.rs`, which
//!   `tools/gen_code_pages.py` generates.
//!
//! Labels are looked up the way XML files in the wild spell them:
//! xml5dom's own aliases first (`utf_16`, `ucs-4`, `macroman`, `ms-ansi`,
//! `maccentraleurope`, `ibm037`, ...), then the Encoding Standard's labels,
//! then the same with `_` read as `-`, then a code page number after a
//! prefix (`cp850`, `ibm862`, `windows-874`, `dos-720`), through the
//! `codepage` crate where `encoding_rs` has the encoding.

use std::fmt;

use super::code_pages::TABLES;

/// A character encoding xml5dom reads and writes.
///
/// ```
/// use xml5dom::Encoding;
/// assert_eq!(Encoding::for_label("ms-ansi").unwrap().name(), "windows-1252");
/// assert_eq!(Encoding::for_label("cp850").unwrap().name(), "IBM850");
/// assert_eq!(Encoding::for_label("MacCentralEurope").unwrap().name(), "x-mac-ce");
/// assert_eq!(Encoding::for_label("ucs-4").unwrap(), Encoding::UTF_32BE);
/// assert!(Encoding::for_label("klingon").is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoding(Kind);

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// An encoding of the WHATWG Encoding Standard.
    Standard(&'static encoding_rs::Encoding),
    /// UTF-32 in either byte order.
    Utf32 { big_endian: bool },
    /// A DOS/OEM code page `oem_cp` has: ASCII, then a table.
    Oem(u16),
    /// One of the generated tables, by index.
    Table(usize),
}

/// The code pages `oem_cp` has that `encoding_rs` has not, with their
/// names (866 and 874 are in the Encoding Standard: IBM866, windows-874).
const OEM_NAMES: &[(u16, &str)] = &[
    (437, "IBM437"),
    (720, "DOS-720"),
    (737, "IBM737"),
    (775, "IBM775"),
    (850, "IBM850"),
    (852, "IBM852"),
    (855, "IBM855"),
    (857, "IBM857"),
    (858, "IBM00858"),
    (860, "IBM860"),
    (861, "IBM861"),
    (862, "IBM862"),
    (863, "IBM863"),
    (864, "IBM864"),
    (865, "IBM865"),
    (869, "IBM869"),
];

/// Labels XML files use that the Encoding Standard does not know, for
/// encodings it has (or for UTF-16, which its decoder handles).
const STANDARD_ALIASES: &[(&str, &str)] = &[
    ("utf16", "utf-16le"),
    ("utf-16", "utf-16le"),
    ("ucs-2", "utf-16le"),
    ("ucs2", "utf-16le"),
    ("iso-10646-ucs-2", "utf-16le"),
    ("csunicode", "utf-16le"),
    ("unicode", "utf-16le"),
    ("unicodelittleunmarked", "utf-16le"),
    ("unicodebigunmarked", "utf-16be"),
    ("utf8", "utf-8"),
    ("macroman", "macintosh"),
    ("mac-roman", "macintosh"),
    ("mac_roman", "macintosh"),
    ("maccyrillic", "x-mac-cyrillic"),
    ("mac-cyrillic", "x-mac-cyrillic"),
    ("mac_cyrillic", "x-mac-cyrillic"),
    ("macukrainian", "x-mac-ukrainian"),
    ("ms-ansi", "windows-1252"),
    ("ms-ee", "windows-1250"),
    ("ms-cyrl", "windows-1251"),
    ("ms-greek", "windows-1253"),
    ("ms-turk", "windows-1254"),
    ("ms-hebr", "windows-1255"),
    ("ms-arab", "windows-1256"),
    ("winbaltrim", "windows-1257"),
    ("ms-baltic", "windows-1257"),
    ("ms-vietnamese", "windows-1258"),
    ("ms_kanji", "shift_jis"),
    ("ms-kanji", "shift_jis"),
    ("x-mac-japanese", "shift_jis"),
];

impl Encoding {
    /// UTF-8.
    pub const UTF_8: Encoding = Encoding(Kind::Standard(encoding_rs::UTF_8));
    /// UTF-16, little-endian.
    pub const UTF_16LE: Encoding = Encoding(Kind::Standard(encoding_rs::UTF_16LE));
    /// UTF-16, big-endian.
    pub const UTF_16BE: Encoding = Encoding(Kind::Standard(encoding_rs::UTF_16BE));
    /// UTF-32 (UCS-4), little-endian.
    pub const UTF_32LE: Encoding = Encoding(Kind::Utf32 { big_endian: false });
    /// UTF-32 (UCS-4), big-endian.
    pub const UTF_32BE: Encoding = Encoding(Kind::Utf32 { big_endian: true });

    /// The encoding a label names (case and surrounding space ignored), if
    /// xml5dom knows it.
    pub fn for_label<L: AsRef<[u8]>>(label: L) -> Option<Encoding> {
        let label = std::str::from_utf8(label.as_ref()).ok()?;
        let label = label.trim().to_ascii_lowercase();
        if let Some(utf32) = utf32_for_label(&label) {
            return Some(utf32);
        }
        if let Some(&(_, standard)) = STANDARD_ALIASES.iter().find(|(alias, _)| *alias == label) {
            return encoding_rs::Encoding::for_label(standard.as_bytes()).map(Encoding::from);
        }
        if let Some(index) = TABLES
            .iter()
            .position(|t| t.labels.contains(&label.as_str()))
        {
            return Some(Encoding(Kind::Table(index)));
        }
        let standard = encoding_rs::Encoding::for_label(label.as_bytes())
            .or_else(|| encoding_rs::Encoding::for_label(label.replace('_', "-").as_bytes()));
        if let Some(standard) = standard.filter(|e| *e != encoding_rs::REPLACEMENT) {
            return Some(Encoding::from(standard));
        }
        code_page_number(&label).and_then(Encoding::for_code_page)
    }

    /// The encoding of a Windows code page number (`850`, `1252`, `10029`,
    /// `12000`), if xml5dom knows it.
    ///
    /// ```
    /// use xml5dom::Encoding;
    /// assert_eq!(Encoding::for_code_page(1252).unwrap().name(), "windows-1252");
    /// assert_eq!(Encoding::for_code_page(37).unwrap().name(), "IBM037");
    /// ```
    pub fn for_code_page(code_page: u16) -> Option<Encoding> {
        match code_page {
            12000 => return Some(Encoding::UTF_32LE),
            12001 => return Some(Encoding::UTF_32BE),
            _ => {}
        }
        if let Some(index) = TABLES.iter().position(|t| t.code_page == code_page) {
            return Some(Encoding(Kind::Table(index)));
        }
        if OEM_NAMES.iter().any(|&(n, _)| n == code_page) {
            return Some(Encoding(Kind::Oem(code_page)));
        }
        codepage::to_encoding_no_replacement(code_page).map(Encoding::from)
    }

    /// The encoding's name: the Encoding Standard's for its encodings,
    /// else the IANA name (`UTF-32LE`, `IBM850`, `IBM037`).
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Standard(encoding) => encoding.name(),
            Kind::Utf32 { big_endian: true } => "UTF-32BE",
            Kind::Utf32 { big_endian: false } => "UTF-32LE",
            Kind::Oem(code_page) => OEM_NAMES
                .iter()
                .find(|&&(n, _)| n == code_page)
                .map_or("IBM437", |&(_, name)| name),
            Kind::Table(index) => TABLES.get(index).map_or("", |t| t.name),
        }
    }

    /// The `encoding_rs` encoding this is, for the Encoding Standard's.
    pub fn standard(self) -> Option<&'static encoding_rs::Encoding> {
        match self.0 {
            Kind::Standard(encoding) => Some(encoding),
            _ => None,
        }
    }

    /// UTF-16 in either byte order.
    pub(crate) fn is_utf16(self) -> bool {
        self == Encoding::UTF_16LE || self == Encoding::UTF_16BE
    }

    /// UTF-32 in either byte order.
    pub(crate) fn is_utf32(self) -> bool {
        matches!(self.0, Kind::Utf32 { .. })
    }

    /// The name to write in an XML declaration: `UTF-16` and `UTF-32` for
    /// either byte order (the byte-order mark says which).
    pub(crate) fn declared_name(self) -> &'static str {
        if self.is_utf16() {
            "UTF-16"
        } else if self.is_utf32() {
            "UTF-32"
        } else {
            self.name()
        }
    }

    /// Whether a declared `label` names this encoding (`UTF-16` and
    /// `UTF-32` agree with either byte order).
    pub(crate) fn agrees_with(self, label: &str) -> bool {
        match Encoding::for_label(label) {
            Some(declared) if declared == self => true,
            Some(declared) => {
                (declared.is_utf16() && self.is_utf16()) || (declared.is_utf32() && self.is_utf32())
            }
            None => false,
        }
    }

    /// How a decoder reads this encoding.
    pub(crate) fn engine(self) -> Engine {
        match self.0 {
            Kind::Standard(encoding) => Engine::Standard(encoding),
            Kind::Utf32 { big_endian } => Engine::Utf32 { big_endian },
            Kind::Oem(_) | Kind::Table(_) => {
                // Looked up once, not per byte.
                let mut table = Box::new([None; 256]);
                for (byte, slot) in (0..=255u8).zip(table.iter_mut()) {
                    *slot = self.decode_byte(byte);
                }
                Engine::SingleByte(table)
            }
        }
    }

    /// The character a byte stands for, in a single-byte encoding.
    pub(crate) fn decode_byte(self, byte: u8) -> Option<char> {
        match self.0 {
            Kind::Oem(_) if byte < 0x80 => Some(char::from(byte)),
            Kind::Oem(code_page) => {
                use oem_cp::code_table_type::TableType;
                match oem_cp::code_table::DECODING_TABLE_CP_MAP.get(&code_page)? {
                    TableType::Complete(table) => Some(table[usize::from(byte - 0x80)]),
                    TableType::Incomplete(table) => table[usize::from(byte - 0x80)],
                }
            }
            Kind::Table(index) => {
                let unit = TABLES.get(index)?.decode[usize::from(byte)];
                (unit != 0xFFFF)
                    .then(|| char::from_u32(u32::from(unit)))
                    .flatten()
            }
            Kind::Standard(_) | Kind::Utf32 { .. } => None,
        }
    }

    /// The byte a character is, in a single-byte encoding.
    fn encode_char(self, c: char) -> Option<u8> {
        match self.0 {
            Kind::Oem(_) if c.is_ascii() => Some(c as u8),
            Kind::Oem(code_page) => oem_cp::code_table::ENCODING_TABLE_CP_MAP
                .get(&code_page)?
                .get(&c)
                .copied(),
            Kind::Table(index) => {
                let unit = u16::try_from(u32::from(c)).ok()?;
                let table = TABLES.get(index)?.encode;
                let at = table.binary_search_by_key(&unit, |&(u, _)| u).ok()?;
                Some(table[at].1)
            }
            Kind::Standard(_) | Kind::Utf32 { .. } => None,
        }
    }

    /// `text` in this encoding, without a byte-order mark. A character the
    /// encoding cannot carry becomes a decimal character reference, as
    /// `encoding_rs` does for its own.
    ///
    /// ```
    /// use xml5dom::Encoding;
    /// let cp850 = Encoding::for_label("cp850").unwrap();
    /// assert_eq!(cp850.encode("é€"), b"\x82&#8364;");
    /// ```
    pub fn encode(self, text: &str) -> Vec<u8> {
        self.encode_with_bom(text, false)
    }

    /// [`encode`](Self::encode), with a byte-order mark first if `bom`
    /// (for the Unicode encodings).
    pub(crate) fn encode_with_bom(self, text: &str, bom: bool) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(text.len() + 4);
        match self.0 {
            Kind::Standard(encoding) if self.is_utf16() => {
                let little = encoding == encoding_rs::UTF_16LE;
                let units = bom.then_some(0xFEFF).into_iter().chain(text.encode_utf16());
                for unit in units {
                    bytes.extend(if little {
                        unit.to_le_bytes()
                    } else {
                        unit.to_be_bytes()
                    });
                }
            }
            Kind::Standard(encoding) => {
                if bom && encoding == encoding_rs::UTF_8 {
                    bytes.extend_from_slice(b"\xEF\xBB\xBF");
                }
                let (encoded, _, _) = encoding.encode(text);
                bytes.extend_from_slice(&encoded);
            }
            Kind::Utf32 { big_endian } => {
                let chars = bom.then_some('\u{FEFF}').into_iter().chain(text.chars());
                for c in chars {
                    let unit = u32::from(c);
                    bytes.extend(if big_endian {
                        unit.to_be_bytes()
                    } else {
                        unit.to_le_bytes()
                    });
                }
            }
            Kind::Oem(_) | Kind::Table(_) => {
                for c in text.chars() {
                    match self.encode_char(c) {
                        Some(byte) => bytes.push(byte),
                        None => {
                            // As a reference, in this encoding's own digits.
                            let reference = format!("&#{};", u32::from(c));
                            for r in reference.chars() {
                                bytes.push(self.encode_char(r).unwrap_or(b'?'));
                            }
                        }
                    }
                }
            }
        }
        bytes
    }
}

/// Text encoded piece by piece, into the bytes
/// [`Encoding::encode_with_bom`] gives for the whole (a stateful encoding
/// such as ISO-2022-JP keeps its state from one piece to the next), so that
/// output can be written as it is made.
pub(crate) struct PieceEncoder {
    encoding: Encoding,
    /// A byte-order mark is still to be written.
    bom: bool,
    /// `encoding_rs`'s encoder, for its encodings other than UTF-8 and
    /// UTF-16 (which may carry state between pieces).
    standard: Option<encoding_rs::Encoder>,
}

impl PieceEncoder {
    pub(crate) fn new(encoding: Encoding, bom: bool) -> PieceEncoder {
        let standard = match encoding.0 {
            Kind::Standard(standard) if standard != encoding_rs::UTF_8 && !encoding.is_utf16() => {
                Some(standard.new_encoder())
            }
            _ => None,
        };
        PieceEncoder {
            encoding,
            bom,
            standard,
        }
    }

    /// The bytes of text are its UTF-8 bytes as they are (UTF-8, with no
    /// byte-order mark still to write).
    pub(crate) fn passes_through(&self) -> bool {
        self.encoding == Encoding::UTF_8 && !self.bom
    }

    /// Appends the bytes of `text` to `out`; `last` for the last piece
    /// (which may be empty), so that a stateful encoding ends in its
    /// initial state.
    pub(crate) fn encode(&mut self, text: &str, last: bool, out: &mut Vec<u8>) {
        let Some(encoder) = &mut self.standard else {
            out.extend(
                self.encoding
                    .encode_with_bom(text, std::mem::take(&mut self.bom)),
            );
            return;
        };
        let mut rest = text;
        loop {
            let room = encoder
                .max_buffer_length_from_utf8_if_no_unmappables(rest.len())
                .unwrap_or(rest.len());
            // (Room for a character reference, if the next one needs it.)
            out.reserve(room.max(16));
            let (result, read, _) = encoder.encode_from_utf8_to_vec(rest, out, last);
            rest = &rest[read..];
            if result == encoding_rs::CoderResult::InputEmpty {
                return;
            }
        }
    }
}

/// How bytes of an encoding turn into characters.
pub(crate) enum Engine {
    Standard(&'static encoding_rs::Encoding),
    Utf32 {
        big_endian: bool,
    },
    /// The character of each byte; `None` where it means nothing.
    SingleByte(Box<[Option<char>; 256]>),
}

/// UTF-32 by its labels: the byte order is the label's, big-endian when it
/// does not say (the byte-order mark says otherwise where there is one).
fn utf32_for_label(label: &str) -> Option<Encoding> {
    match label {
        "utf-32" | "utf32" | "utf_32" | "ucs-4" | "ucs4" | "iso-10646-ucs-4" | "csucs4"
        | "10646-1:1993" | "utf-32be" | "utf32be" | "utf_32_be" | "ucs-4be" | "ucs4be" => {
            Some(Encoding::UTF_32BE)
        }
        "utf-32le" | "utf32le" | "utf_32_le" | "ucs-4le" | "ucs4le" => Some(Encoding::UTF_32LE),
        _ => None,
    }
}

/// The code page number in a label like `cp850`, `ibm-862`, `windows-874`,
/// `dos-720`, `x-ibm437`, `csibm037`, `ms932`, `oem850`, or bare digits.
fn code_page_number(label: &str) -> Option<u16> {
    const PREFIXES: &[&str] = &[
        "x-ibm",
        "csibm",
        "cspc",
        "ibm-",
        "ibm",
        "cp-",
        "cp",
        "windows-",
        "win-",
        "dos-",
        "ms-",
        "ms",
        "oem",
        "code-page-",
        "",
    ];
    PREFIXES.iter().find_map(|prefix| {
        let digits = label.strip_prefix(prefix)?;
        let digits = digits.trim_start_matches('0');
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
    })
}

impl From<&'static encoding_rs::Encoding> for Encoding {
    fn from(encoding: &'static encoding_rs::Encoding) -> Encoding {
        Encoding(Kind::Standard(encoding))
    }
}

impl PartialEq<&'static encoding_rs::Encoding> for Encoding {
    fn eq(&self, other: &&'static encoding_rs::Encoding) -> bool {
        self.0 == Kind::Standard(other)
    }
}

impl fmt::Debug for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Encoding({})", self.name())
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_from_the_wild() {
        for (label, name) in [
            ("utf_16", "UTF-16LE"),
            ("ISO-10646-UCS-2", "UTF-16LE"),
            ("ucs-4", "UTF-32BE"),
            ("UTF-32LE", "UTF-32LE"),
            ("macroman", "macintosh"),
            ("MacCyrillic", "x-mac-cyrillic"),
            ("ms-ansi", "windows-1252"),
            ("ms-cyrl", "windows-1251"),
            ("cp874", "windows-874"),
            ("cp850", "IBM850"),
            ("ibm862", "IBM862"),
            ("IBM-437", "IBM437"),
            ("maccentraleurope", "x-mac-ce"),
            ("koi8-t", "KOI8-T"),
            ("viscii", "VISCII"),
            ("tcvn", "TCVN5712-1"),
            ("cp500", "IBM500"),
            ("ibm037", "IBM037"),
            ("EBCDIC-CP-US", "IBM037"),
            ("cp1047", "IBM1047"),
            ("iso_8859_2", "ISO-8859-2"),
            ("shift_jis", "Shift_JIS"),
            ("windows-1258", "windows-1258"),
            ("cp10029", "x-mac-ce"),
        ] {
            let encoding = Encoding::for_label(label).unwrap_or_else(|| panic!("{label}"));
            assert_eq!(encoding.name(), name, "{label}");
        }
        for unknown in ["klingon", "", "cp99999", "utf-7x", "replacement"] {
            assert_eq!(Encoding::for_label(unknown), None, "{unknown}");
        }
    }

    #[test]
    fn single_byte_tables_round_trip() {
        for label in [
            "ibm037", "cp500", "cp1047", "x-mac-ce", "viscii", "cp850", "cp437",
        ] {
            let encoding = Encoding::for_label(label).unwrap();
            for byte in 0..=255u8 {
                if let Some(c) = encoding.decode_byte(byte) {
                    assert_eq!(encoding.encode_char(c), Some(byte), "{label} {byte:#04x}");
                }
            }
        }
        // EBCDIC: `<` is 0x4C, `a` is 0x81.
        let ebcdic = Encoding::for_label("ibm037").unwrap();
        assert_eq!(ebcdic.encode("<a/>"), [0x4C, 0x81, 0x61, 0x6E]);
    }
}
