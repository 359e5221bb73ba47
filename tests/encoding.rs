//! Bytes in: one document in many encodings parses to the same tree,
//! however the bytes are cut into chunks; sniffing conflicts, unknown
//! labels and malformed bytes are reported where they are; non-UTF-8 input
//! goes back out byte for byte in its own encoding.
//!
//! The encoded inputs are made with `encoding_rs`'s own encoders (UTF-16 by
//! hand), so they agree with the decoder on every mapping (some other tools'
//! Big5, for one, maps characters differently).

use encoding_rs::Encoding;
use pretty_assertions::assert_eq;
use xml5dom::{
    Document, EncodingSource, OutputEncoding, ParseOptions, Parser, RepairKind, SerializeOptions,
};

const ASCII: &str = "Plain ASCII & <escaped> text";
const LATIN: &str = "Déjà vu, naïve façade, Straße";
const JAPANESE: &str = "日本語のテキスト、カタカナ";
const CHINESE_SIMPLIFIED: &str = "简体中文文本";
const CHINESE_TRADITIONAL: &str = "繁體中文文本";
const CYRILLIC: &str = "Привет, мир";
const EMOJI: &str = "😀🎉";

/// The document, with the XML declaration naming `label` (if any) and the
/// given lines of text in elements and an attribute.
fn document(label: Option<&str>, lines: &[&str]) -> String {
    let mut xml = String::new();
    match label {
        Some(label) => xml.push_str(&format!("<?xml version=\"1.0\" encoding=\"{label}\"?>\n")),
        None => xml.push_str("<?xml version=\"1.0\"?>\n"),
    }
    xml.push_str(&format!("<doc title=\"{}\">\n", lines[lines.len() - 1]));
    for line in lines {
        let escaped = line
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        xml.push_str(&format!("  <p>{escaped}</p>\n"));
    }
    xml.push_str("  <!-- comment -->\n</doc>\n");
    xml
}

fn utf16(text: &str, little: bool, bom: bool) -> Vec<u8> {
    let units = bom
        .then_some(0xFEFF_u16)
        .into_iter()
        .chain(text.encode_utf16());
    units
        .flat_map(|u| {
            if little {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            }
        })
        .collect()
}

fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    let (bytes, used, unmappable) = encoding.encode(text);
    assert_eq!(used, encoding);
    assert!(
        !unmappable,
        "{} cannot carry the test text",
        encoding.name()
    );
    bytes.into_owned()
}

/// `(name, bytes, the same document as text, expected encoding)` for every
/// encoding the issue lists.
fn samples() -> Vec<(&'static str, Vec<u8>, String, &'static Encoding)> {
    let all = [ASCII, LATIN, JAPANESE, CHINESE_SIMPLIFIED, EMOJI];
    let mut samples = Vec::new();
    let utf8 = document(Some("UTF-8"), &all);
    samples.push((
        "UTF-8",
        utf8.clone().into_bytes(),
        utf8.clone(),
        encoding_rs::UTF_8,
    ));
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(utf8.as_bytes());
    samples.push(("UTF-8 with BOM", with_bom, utf8, encoding_rs::UTF_8));
    let utf16_text = document(Some("UTF-16"), &all);
    for (name, little, bom) in [
        ("UTF-16LE with BOM", true, true),
        ("UTF-16LE without BOM", true, false),
        ("UTF-16BE with BOM", false, true),
        ("UTF-16BE without BOM", false, false),
    ] {
        let expected = if little {
            encoding_rs::UTF_16LE
        } else {
            encoding_rs::UTF_16BE
        };
        samples.push((
            name,
            utf16(&utf16_text, little, bom),
            utf16_text.clone(),
            expected,
        ));
    }
    // ISO-8859-1 is not encoding_rs's: `iso_8859_1_labels_give_c1_controls`.
    let table: [(&str, &[&str]); 9] = [
        ("windows-1252", &[ASCII, LATIN, "€ “quotes”"]),
        ("Shift_JIS", &[ASCII, JAPANESE]),
        ("EUC-JP", &[ASCII, JAPANESE]),
        ("ISO-2022-JP", &[ASCII, JAPANESE]),
        ("GB18030", &[ASCII, LATIN, CHINESE_SIMPLIFIED, EMOJI]),
        ("Big5", &[ASCII, CHINESE_TRADITIONAL]),
        ("KOI8-R", &[ASCII, CYRILLIC]),
        ("EUC-KR", &[ASCII, "한국어 텍스트"]),
        ("windows-1251", &[ASCII, CYRILLIC]),
    ];
    for (label, lines) in table {
        let encoding = Encoding::for_label(label.as_bytes()).expect("a known label");
        let text = document(Some(label), lines);
        samples.push((label, encode(&text, encoding), text, encoding));
    }
    samples
}

fn errors(doc: &Document) -> Vec<(String, usize)> {
    doc.errors()
        .iter()
        .map(|e| (e.code.to_string(), e.offset))
        .collect()
}

#[test]
fn one_document_in_every_encoding_parses_to_the_same_tree() {
    for (name, bytes, text, encoding) in samples() {
        let doc = Document::parse_bytes(&bytes);
        let expected = Document::parse(&text);
        assert_eq!(errors(&doc), [], "{name}");
        assert_eq!(doc.encoding(), encoding, "{name}");
        assert_eq!(doc.to_tree_dump(), expected.to_tree_dump(), "{name}");
        assert!(doc.root_element().is_some(), "{name}");
    }
}

#[test]
fn the_encoding_source_is_recorded() {
    let sources: Vec<(&str, EncodingSource)> = samples()
        .iter()
        .map(|(name, bytes, _, _)| (*name, Document::parse_bytes(bytes).encoding_source()))
        .collect();
    for (name, source) in sources {
        let expected = if name.ends_with("with BOM") {
            EncodingSource::ByteOrderMark
        } else if name.ends_with("without BOM") {
            EncodingSource::Detection
        } else {
            EncodingSource::Declaration
        };
        assert_eq!(source, expected, "{name}");
    }
    let doc = Document::parse_bytes(b"<a/>");
    assert_eq!(doc.encoding_source(), EncodingSource::Default);
    let options = ParseOptions::default().encoding_label("koi8-r").unwrap();
    let doc = Document::parse_bytes_with(b"<a/>", &options);
    assert_eq!(doc.encoding_source(), EncodingSource::Caller);
    assert_eq!(doc.encoding(), encoding_rs::KOI8_R);
}

fn parse_chunks<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> Document {
    let mut parser = Parser::new();
    for chunk in chunks {
        parser.feed(chunk);
    }
    parser.finish()
}

#[test]
fn chunks_cut_at_every_byte_give_the_same_tree_and_errors() {
    // A damaged tail adds errors, so that those are compared too.
    for (name, mut bytes, _, encoding) in samples() {
        if encoding.is_ascii_compatible() {
            bytes.extend_from_slice(b"<x y=1>\xFF");
        }
        let whole = Document::parse_bytes(&bytes);
        for at in 0..=bytes.len() {
            let doc = parse_chunks([&bytes[..at], &bytes[at..]]);
            assert_eq!(
                doc.to_tree_dump(),
                whole.to_tree_dump(),
                "{name} cut at {at}"
            );
            assert_eq!(errors(&doc), errors(&whole), "{name} cut at {at}");
        }
        let doc = parse_chunks(bytes.chunks(1));
        assert_eq!(
            doc.to_tree_dump(),
            whole.to_tree_dump(),
            "{name} byte by byte"
        );
        assert_eq!(errors(&doc), errors(&whole), "{name} byte by byte");
        assert_eq!(doc.encoding(), whole.encoding(), "{name}");
    }
}

#[test]
fn a_declaration_that_contradicts_the_byte_order_mark_loses() {
    let text = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>é</a>";
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(text.as_bytes());
    let doc = Document::parse_bytes(&bytes);
    assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    assert_eq!(doc.root_element().unwrap().text_content(), "é");
    assert_eq!(errors(&doc), [("encoding-mismatch".to_owned(), 0)]);

    // Detected UTF-16 against a declared single-byte encoding.
    let doc = Document::parse_bytes(&utf16(text, true, false));
    assert_eq!(doc.encoding(), encoding_rs::UTF_16LE);
    assert_eq!(doc.root_element().unwrap().text_content(), "é");
    assert_eq!(errors(&doc), [("encoding-mismatch".to_owned(), 0)]);

    // "UTF-16" agrees with either byte order.
    let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>";
    assert_eq!(
        errors(&Document::parse_bytes(&utf16(text, false, true))),
        []
    );
}

#[test]
fn a_declaration_that_says_utf16_in_single_bytes_is_a_mismatch() {
    let doc = Document::parse_bytes(b"<?xml version='1.0' encoding='UTF-16'?><a>x</a>");
    assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    assert_eq!(errors(&doc), [("encoding-mismatch".to_owned(), 30)]);
}

#[test]
fn an_unknown_label_is_an_error_and_utf8_is_used() {
    let doc =
        Document::parse_bytes("<?xml version='1.0' encoding='x-klingon'?><a>é</a>".as_bytes());
    assert_eq!(doc.encoding(), encoding_rs::UTF_8);
    assert_eq!(doc.encoding_source(), EncodingSource::Default);
    assert_eq!(doc.root_element().unwrap().text_content(), "é");
    assert_eq!(errors(&doc), [("unknown-encoding".to_owned(), 30)]);
}

#[test]
fn bytes_not_utf8_are_read_as_their_windows_1252_characters() {
    // A windows-1252 file that claims to be UTF-8: every character kept.
    let bytes = b"<?xml version='1.0' encoding='UTF-8'?><a>caf\xe9 cr\xe8me \x93q\x94</a>";
    let doc = Document::parse_bytes(bytes);
    assert_eq!(
        doc.root_element().unwrap().text_content(),
        "caf\u{e9} cr\u{e8}me \u{201C}q\u{201D}"
    );
    let found: Vec<_> = doc
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.offset, doc.input_offset(e.offset)))
        .collect();
    assert_eq!(
        found,
        [
            ("windows-1252-in-utf-8", 44, Some(44)),
            ("windows-1252-in-utf-8", 49, Some(48)),
            ("windows-1252-in-utf-8", 54, Some(52)),
            ("windows-1252-in-utf-8", 58, Some(54)),
        ]
    );
    // Written out, the characters are UTF-8, as the label says.
    let (out, _) = doc.to_bytes(&SerializeOptions::default());
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "<?xml version='1.0' encoding='UTF-8'?><a>caf\u{e9} cr\u{e8}me \u{201C}q\u{201D}</a>"
    );
    // UTF-8 with a windows-1252 byte pasted in keeps its UTF-8.
    let doc = Document::parse_bytes(
        "<a>日本 \u{e9}t\u{e9} "
            .as_bytes()
            .iter()
            .copied()
            .chain(*b"\x92s</a>")
            .collect::<Vec<u8>>()
            .as_slice(),
    );
    assert_eq!(
        doc.root_element().unwrap().text_content(),
        "日本 été \u{2019}s"
    );
    // In another encoding a malformed sequence is still U+FFFD: an invalid
    // Shift_JIS lead byte.
    let mut sjis = encode("<a>日本", encoding_rs::SHIFT_JIS);
    sjis.extend_from_slice(b"\xA0x</a>");
    let options = ParseOptions::default().encoding_label("shift_jis").unwrap();
    let doc = Document::parse_bytes_with(&sjis, &options);
    assert_eq!(doc.root_element().unwrap().text_content(), "日本\u{FFFD}x");
    let error = doc.errors()[0];
    assert_eq!(error.code.as_str(), "invalid-byte-sequence");
    assert_eq!(doc.input_offset(error.offset), Some(7));
}

#[test]
fn every_byte_not_utf8_is_read_reversibly() {
    // Each of the 128 high bytes alone in a UTF-8 document (0x80-0xBF are
    // stray continuation bytes, 0xC0-0xFF leads without their tail) is one
    // character, and windows-1252 gives the byte back: nothing is lost.
    for byte in 0x80..=0xFFu8 {
        let bytes = [b'<', b'a', b'>', byte, b'<', b'/', b'a', b'>'];
        let doc = Document::parse_bytes(&bytes);
        let text = doc.root_element().unwrap().text_content();
        assert_eq!(text.chars().count(), 1, "byte {byte:#x}: {text:?}");
        let (back, _, lossy) = encoding_rs::WINDOWS_1252.encode(&text);
        assert!(!lossy, "byte {byte:#x}");
        assert_eq!(&*back, [byte], "byte {byte:#x}");
        assert_eq!(errors(&doc), [("windows-1252-in-utf-8".to_owned(), 3)]);
    }
}

#[test]
fn a_malformed_sequence_cut_between_chunks_is_read_alike() {
    // A lead byte whose sequence breaks off, and a lone surrogate's three
    // bytes, at every cut of the input.
    let bytes = b"<a>x\xe2\x82y \xed\xa0\x80 \xf0\x9f\x98</a>";
    let whole = Document::parse_bytes(bytes);
    assert_eq!(
        whole.root_element().unwrap().text_content(),
        "x\u{e2}\u{201A}y \u{ed}\u{a0}\u{20AC} \u{f0}\u{178}\u{2DC}"
    );
    for size in 1..bytes.len() {
        let chunked = parse_chunks(bytes.chunks(size));
        assert_eq!(chunked.source(), whole.source(), "chunks of {size}");
        assert_eq!(errors(&chunked), errors(&whole), "chunks of {size}");
    }
}

#[test]
fn a_truncated_multibyte_sequence_at_the_end_is_reported() {
    let mut bytes = "<a>日本".as_bytes().to_vec();
    bytes.extend_from_slice(&"語".as_bytes()[..2]);
    let doc = Document::parse_bytes(&bytes);
    // 語 is E8 AA 9E: its first two bytes, as windows-1252 characters.
    assert_eq!(
        doc.root_element().unwrap().text_content(),
        "日本\u{e8}\u{aa}"
    );
    let codes: Vec<_> = doc
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.offset))
        .collect();
    assert_eq!(
        codes,
        [("windows-1252-in-utf-8", 9), ("eof-in-element", 13)]
    );
    assert_eq!(doc.input_offset(9), Some(9));
    assert_eq!(doc.input_offset(11), Some(10));
    // The same when fed one byte at a time.
    let chunked = parse_chunks(bytes.chunks(1));
    assert_eq!(errors(&chunked), errors(&doc));
    // And in UTF-16: a lone high surrogate and an odd byte at the end.
    let mut utf16le = utf16("<a>x", true, true);
    utf16le.extend_from_slice(&[0x3D, 0xD8, 0x41]);
    let doc = Document::parse_bytes(&utf16le);
    assert_eq!(doc.root_element().unwrap().text_content(), "x\u{FFFD}");
    assert_eq!(doc.errors()[0].code.as_str(), "invalid-byte-sequence");
}

#[test]
fn a_declaration_beyond_the_first_chunk_is_still_read() {
    let text = "<?xml version=\"1.0\"    encoding=\"EUC-JP\"?><a>日本</a>";
    let bytes = encode(text, encoding_rs::EUC_JP);
    // The first chunk ends before the label.
    let doc = parse_chunks([&bytes[..10], &bytes[10..25], &bytes[25..]]);
    assert_eq!(doc.encoding(), encoding_rs::EUC_JP);
    assert_eq!(doc.encoding_source(), EncodingSource::Declaration);
    assert_eq!(doc.root_element().unwrap().text_content(), "日本");
    assert_eq!(errors(&doc), []);
}

#[test]
fn an_empty_input_and_a_lone_bom_parse_to_empty_documents() {
    for bytes in [&b""[..], b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF"] {
        let doc = Document::parse_bytes(bytes);
        assert_eq!(doc.root().children().count(), 0, "{bytes:?}");
        assert_eq!(
            errors(&doc),
            [("missing-root-element".to_owned(), 0)],
            "{bytes:?}"
        );
        let chunked = parse_chunks(bytes.chunks(1));
        assert_eq!(errors(&chunked), errors(&doc), "{bytes:?}");
    }
    assert_eq!(
        Document::parse_bytes(b"\xFE\xFF").encoding(),
        encoding_rs::UTF_16BE
    );
    assert!(Document::parse_bytes(b"\xEF\xBB\xBF").had_byte_order_mark());
}

fn own_encoding(doc: &Document) -> Vec<u8> {
    doc.to_bytes(&SerializeOptions {
        encoding: OutputEncoding::Original,
        ..Default::default()
    })
    .0
}

#[test]
fn shift_jis_and_utf16le_documents_go_back_byte_for_byte() {
    let sjis = encode(
        &document(Some("Shift_JIS"), &[ASCII, JAPANESE]),
        encoding_rs::SHIFT_JIS,
    );
    let doc = Document::parse_bytes(&sjis);
    assert_eq!(errors(&doc), []);
    assert_eq!(own_encoding(&doc), sjis);

    for bom in [true, false] {
        let bytes = utf16(
            &document(Some("UTF-16"), &[ASCII, LATIN, JAPANESE, EMOJI]),
            true,
            bom,
        );
        let doc = Document::parse_bytes(&bytes);
        assert_eq!(errors(&doc), []);
        assert_eq!(own_encoding(&doc), bytes, "bom: {bom}");
    }
}

#[test]
fn every_sample_goes_back_byte_for_byte_in_its_own_encoding() {
    for (name, bytes, _, _) in samples() {
        assert_eq!(
            own_encoding(&Document::parse_bytes(&bytes)),
            bytes,
            "{name}"
        );
    }
}

#[test]
fn writing_in_another_encoding_updates_the_declaration() {
    let sjis = encode(
        &document(Some("Shift_JIS"), &[JAPANESE]),
        encoding_rs::SHIFT_JIS,
    );
    let doc = Document::parse_bytes(&sjis);
    let (utf8, _) = doc.to_bytes(&SerializeOptions::default());
    let utf8 = String::from_utf8(utf8).unwrap();
    assert!(
        utf8.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
        "{utf8}"
    );
    assert_eq!(
        Document::parse_bytes(utf8.as_bytes()).to_tree_dump(),
        doc.to_tree_dump()
    );

    // To an encoding that cannot carry everything: character references.
    let (latin1, _) = doc.to_bytes(&SerializeOptions {
        encoding: OutputEncoding::Other(encoding_rs::WINDOWS_1252.into()),
        ..Default::default()
    });
    let again = Document::parse_bytes(&latin1);
    assert_eq!(again.encoding(), encoding_rs::WINDOWS_1252);
    assert_eq!(again.to_tree_dump(), doc.to_tree_dump());

    // A document without a declaration gets one when its encoding needs it.
    let doc = Document::parse("<a>é</a>");
    let (bytes, _) = doc.to_bytes(&SerializeOptions {
        encoding: OutputEncoding::Other(encoding_rs::WINDOWS_1252.into()),
        ..Default::default()
    });
    assert_eq!(
        bytes,
        b"<?xml version=\"1.0\" encoding=\"windows-1252\"?><a>\xe9</a>"
    );
    // And UTF-16 output has a byte-order mark.
    let (bytes, _) = doc.to_bytes(&SerializeOptions {
        encoding: OutputEncoding::Other(encoding_rs::UTF_16BE.into()),
        ..Default::default()
    });
    assert_eq!(&bytes[..2], b"\xFE\xFF");
    assert_eq!(
        Document::parse_bytes(&bytes).to_tree_dump(),
        doc.to_tree_dump()
    );
}

// ----- Beyond the Encoding Standard (issue 14) -----------------------------

fn utf32(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    bom.then_some('\u{FEFF}')
        .into_iter()
        .chain(text.chars())
        .flat_map(|c| {
            let unit = u32::from(c);
            if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            }
        })
        .collect()
}

/// UTF-32 (UCS-4) in both byte orders, with and without a byte-order mark
/// (XML 1.0 Appendix F: `00 00 00 3C` and `3C 00 00 00`), declared or not:
/// the same tree as from UTF-8, in chunks of any size, and back byte for
/// byte in its own encoding.
#[test]
fn utf32_in_both_byte_orders_with_and_without_a_bom() {
    let lines = [ASCII, LATIN, JAPANESE, CYRILLIC, EMOJI];
    let reference = Document::parse(&document(None, &lines)).to_tree_dump();
    for big_endian in [true, false] {
        for bom in [true, false] {
            for label in [None, Some("UTF-32"), Some("ISO-10646-UCS-4")] {
                let text = document(label, &lines);
                let bytes = utf32(&text, big_endian, bom);
                let what = format!("big-endian {big_endian}, bom {bom}, label {label:?}");
                let doc = Document::parse_bytes(&bytes);
                let expected = if big_endian {
                    xml5dom::Encoding::UTF_32BE
                } else {
                    xml5dom::Encoding::UTF_32LE
                };
                assert_eq!(doc.encoding(), expected, "{what}");
                assert_eq!(doc.errors(), &[], "{what}");
                assert_eq!(doc.to_tree_dump(), reference, "{what}");
                assert_eq!(doc.had_byte_order_mark(), bom, "{what}");
                assert_eq!(own_encoding(&doc), bytes, "{what}");
                // One byte at a time.
                let chunked = parse_chunks(bytes.chunks(1));
                assert_eq!(
                    chunked.to_tree_dump(),
                    reference,
                    "{what}, one byte at a time"
                );
                // Written as UTF-8, the declaration says so.
                let utf8 = doc.to_xml();
                assert_eq!(Document::parse(&utf8).to_tree_dump(), reference, "{what}");
            }
        }
    }
}

#[test]
fn malformed_utf32_units_are_reported() {
    // A surrogate, a value above U+10FFFF, and a unit cut off at the end.
    let mut bytes = utf32("<a>x", true, true);
    bytes.extend([0x00, 0x00, 0xD8, 0x00]);
    bytes.extend([0x00, 0x11, 0x00, 0x00]);
    bytes.extend(utf32("y</a>", true, false));
    bytes.extend([0x00, 0x00]);
    let doc = Document::parse_bytes(&bytes);
    assert_eq!(
        doc.root_element().unwrap().text_content(),
        "x\u{FFFD}\u{FFFD}y"
    );
    let malformed = errors(&doc)
        .into_iter()
        .filter(|(code, _)| code == "invalid-byte-sequence")
        .count();
    assert_eq!(malformed, 3, "{:?}", errors(&doc));
}

/// Writing UTF-32 from UTF-8: a byte-order mark, and the declaration says
/// UTF-32.
#[test]
fn writing_utf32_adds_a_bom_and_says_so() {
    let doc = Document::parse("<?xml version='1.0'?><a>é😀</a>");
    let (bytes, _) = doc.to_bytes(&SerializeOptions {
        encoding: OutputEncoding::Other(xml5dom::Encoding::UTF_32LE),
        ..Default::default()
    });
    assert_eq!(
        bytes,
        utf32(
            "<?xml version='1.0' encoding=\"UTF-32\"?><a>é😀</a>",
            false,
            true
        )
    );
    let again = Document::parse_bytes(&bytes);
    assert!(again.errors().is_empty(), "{:?}", again.errors());
    assert_eq!(again.root_element().unwrap().text_content(), "é😀");
}

/// Labels in common use outside the Encoding Standard name the encodings
/// they mean, read and written back byte for byte.
#[test]
fn code_pages_and_labels_from_the_wild_round_trip() {
    // (label in the declaration, the text, how Python's codecs encode it)
    let cases: &[(&str, &str, &[u8])] = &[
        ("cp850", "Déjà vu", b"D\x82j\x85 vu"),
        ("IBM437", "½ ≤ π", b"\xAB \xF3 \xE3"),
        ("ibm862", "שלום", b"\x99\x8C\x85\x8D"),
        ("cp874", "ไทย", b"\xE4\xB7\xC2"),
        ("macroman", "Café", b"Caf\x8E"),
        ("MacCyrillic", "Привет", b"\x8F\xF0\xE8\xE2\xE5\xF2"),
        ("maccentraleurope", "Łódź", b"\xFC\x97d\x90"),
        ("ms-ansi", "naïve", b"na\xEFve"),
        ("ms-cyrl", "мир", b"\xEC\xE8\xF0"),
        ("koi8-t", "Ӯ", b"\xA2"),
        ("viscii", "Việt", b"Vi\xAEt"),
        // Vietnamese with a combining mark, as windows-1258 writes it.
        ("windows-1258", "Tiê\u{301}ng", b"Ti\xEA\xECng"),
    ];
    for &(label, text, encoded) in cases {
        let head = format!("<?xml version=\"1.0\" encoding=\"{label}\"?><a>");
        let mut bytes = head.clone().into_bytes();
        bytes.extend_from_slice(encoded);
        bytes.extend_from_slice(b"</a>");
        let doc = Document::parse_bytes(&bytes);
        assert_eq!(doc.errors(), &[], "{label}");
        assert_eq!(
            doc.encoding_source(),
            EncodingSource::Declaration,
            "{label}"
        );
        assert_eq!(doc.root_element().unwrap().text_content(), text, "{label}");
        assert_eq!(own_encoding(&doc), bytes, "{label}");
    }
}

/// EBCDIC (IBM037, 500, 1047, 1140), recognised from `<?xm` and its
/// declaration read in EBCDIC (XML 1.0 Appendix F), and written back.
#[test]
fn ebcdic_documents_are_recognised_and_round_trip() {
    for label in ["IBM037", "IBM500", "IBM1047", "IBM01140"] {
        let encoding = xml5dom::Encoding::for_label(label).unwrap();
        let text =
            format!("<?xml version=\"1.0\" encoding=\"{label}\"?>\n<a b=\"[x]\">Grüße! |</a>");
        let bytes = encoding.encode(&text);
        assert_eq!(&bytes[..4], b"\x4C\x6F\xA7\x94", "{label}");
        let doc = Document::parse_bytes(&bytes);
        assert_eq!(doc.errors(), &[], "{label}");
        assert_eq!(doc.encoding(), encoding, "{label}");
        let a = doc.root_element().unwrap();
        assert_eq!(a.text_content(), "Grüße! |", "{label}");
        assert_eq!(a.attribute("b"), Some("[x]"), "{label}");
        assert_eq!(own_encoding(&doc), bytes, "{label}");
    }
    // Without a label: IBM037.
    let ibm037 = xml5dom::Encoding::for_label("ibm037").unwrap();
    let doc = Document::parse_bytes(&ibm037.encode("<?xml version=\"1.0\"?><a>x</a>"));
    assert_eq!(doc.encoding(), ibm037);
    assert_eq!(doc.encoding_source(), EncodingSource::Detection);
}

/// The encoding the caller names wins over everything the bytes say, as on
/// the command line's `--input-encoding`.
#[test]
fn the_callers_label_can_be_one_from_the_wild() {
    let options = ParseOptions::default().encoding_label("cp866").unwrap();
    let doc = Document::parse_bytes_with(b"<a>\x8F\xE0\xA8\xA2\xA5\xE2</a>", &options);
    assert_eq!(doc.root_element().unwrap().text_content(), "Привет");
    assert!(matches!(
        ParseOptions::default().encoding_label("MacKlingon"),
        Err(xml5dom::Error::UnknownEncoding(label)) if label == "MacKlingon"
    ));
}

/// ISO-8859-1 is read as XML parsers read it: bytes 0x80-0x9F are the C1
/// controls, not windows-1252's `€` and quotes (which `windows-1252` still
/// gives), under every label of the encoding.
#[test]
fn iso_8859_1_labels_give_c1_controls() {
    for label in [
        "ISO-8859-1",
        "iso8859-1",
        "latin1",
        "Latin-1",
        "l1",
        "cp819",
        "ISO_8859-1",
    ] {
        let bytes = format!("<?xml version=\"1.0\" encoding=\"{label}\"?><a>x</a>").into_bytes();
        let bytes = [&bytes[..bytes.len() - 4], b"\x80\x85\x9f\xe9</a>"].concat();
        let doc = Document::parse_bytes(&bytes);
        assert_eq!(doc.encoding().name(), "ISO-8859-1", "{label}");
        let root = doc.root_element().expect("a root");
        assert_eq!(root.text_content(), "x\u{80}\u{85}\u{9f}\u{e9}", "{label}");
        assert!(doc.errors().is_empty(), "{label}: {:?}", doc.errors());
    }
    // The sample text, one byte a character.
    let text = document(Some("ISO-8859-1"), &[ASCII, LATIN]);
    let bytes: Vec<u8> = text
        .chars()
        .map(|c| u8::try_from(c).expect("Latin-1"))
        .collect();
    let doc = Document::parse_bytes(&bytes);
    assert_eq!(doc.to_tree_dump(), Document::parse(&text).to_tree_dump());
    let doc =
        Document::parse_bytes(b"<?xml version=\"1.0\" encoding=\"windows-1252\"?><a>\x80\x93</a>");
    assert_eq!(
        doc.root_element().expect("a root").text_content(),
        "\u{20ac}\u{201c}"
    );
}

// ----- Labels the input cannot be read by (issue 30) -------------------------

/// `to_bytes` with `encoding`, and its repairs as `(kind, offset)`.
fn written(doc: &Document, encoding: OutputEncoding) -> (Vec<u8>, Vec<(RepairKind, usize)>) {
    let (bytes, repairs) = doc.to_bytes(&SerializeOptions {
        encoding,
        ..Default::default()
    });
    let repairs = repairs
        .iter()
        .map(|r| (r.kind, r.offset.expect("at the declaration")))
        .collect();
    (bytes, repairs)
}

fn latin1() -> OutputEncoding {
    OutputEncoding::Other(xml5dom::Encoding::for_label("iso-8859-1").unwrap())
}

/// The input with the XML declaration's label, quoted with `'` between
/// odd spaces, as `label`; and `é` in the content as UTF-8.
fn labelled(label: &str) -> Vec<u8> {
    format!("<?xml version='1.0'  encoding = '{label}' ?>\n<a>é</a>\n").into_bytes()
}

/// XML 1.0 §4.3.3: an encoding the processor cannot read is a fatal error,
/// and so is an encoding declaration that names another encoding than the
/// entity is in. Both decode (the label is not followed), and both are
/// errors: the document is not well-formed.
#[test]
fn unknown_labels_and_mismatched_labels_are_errors() {
    let ebcdic = xml5dom::Encoding::for_label("ibm037").unwrap();
    let mut utf8_bom_latin1 = b"\xEF\xBB\xBF".to_vec();
    utf8_bom_latin1.extend(labelled("iso-8859-1"));
    let mut utf8_bom_unknown = b"\xEF\xBB\xBF".to_vec();
    utf8_bom_unknown.extend(labelled("bogus"));
    let cases: [(&str, Vec<u8>, &str); 7] = [
        ("unknown", labelled("bogus"), "unknown-encoding"),
        ("DBCS", labelled("dbcs"), "unknown-encoding"),
        // The first bytes or a byte-order mark chose the encoding: a label
        // that does not name it, known or not, is a mismatch.
        (
            "unknown in EBCDIC",
            ebcdic.encode("<?xml version='1.0' encoding='x-klingon'?><a/>"),
            "encoding-mismatch",
        ),
        ("UTF-8 BOM, unknown", utf8_bom_unknown, "encoding-mismatch"),
        ("UTF-8 BOM, Latin-1", utf8_bom_latin1, "encoding-mismatch"),
        (
            "UTF-16 BOM, UTF-8",
            utf16("<?xml version='1.0' encoding='UTF-8'?><a/>", true, true),
            "encoding-mismatch",
        ),
        ("8-bit, UTF-16", labelled("UTF-16"), "encoding-mismatch"),
    ];
    for (name, bytes, code) in cases {
        let doc = Document::parse_bytes(&bytes);
        let codes: Vec<&str> = doc.errors().iter().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, [code], "{name}");
        assert!(doc.errors()[0].is_error(), "{name}");
        assert!(!doc.is_well_formed(), "{name}");
    }
}

/// The repair of an unknown label writes the label of the encoding the text
/// was read as (UTF-8, or IBM037 for EBCDIC), in place: the rest of the
/// declaration, its quotes and spaces, stays as it was.
#[test]
fn an_unknown_label_is_repaired_to_the_encoding_the_text_was_read_as() {
    for label in ["bogus", "dbcs", "x-klingon"] {
        let doc = Document::parse_bytes(&labelled(label));
        assert_eq!(doc.encoding().name(), "UTF-8");
        let expected = labelled("UTF-8");
        for encoding in [OutputEncoding::Original, OutputEncoding::Utf8] {
            let (bytes, repairs) = written(&doc, encoding);
            assert_eq!(
                String::from_utf8_lossy(&bytes),
                String::from_utf8_lossy(&expected),
                "{label}"
            );
            assert_eq!(repairs, [(RepairKind::XmlDeclarationChanged, 0)], "{label}");
            let again = Document::parse_bytes(&bytes);
            assert_eq!(again.errors(), [], "{label}");
            assert_eq!(again.to_tree_dump(), doc.to_tree_dump(), "{label}");
        }
    }
    // The label's letters inside `encoding` are not taken for it (they
    // were: `encodISO-8859-1g="in"`).
    let doc = Document::parse_bytes(b"<?xml version=\"1.0\" encoding=\"in\"?><a/>");
    assert_eq!(
        written(&doc, OutputEncoding::Original).0,
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>"
    );
    assert_eq!(
        written(&doc, latin1()).0,
        b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>"
    );
    // With the declaration's other errors too, it is written anew, and
    // names UTF-8 all the same.
    let doc = Document::parse_bytes(b"<?xml version='2.0' encoding='bogus'?><a/>");
    assert_eq!(
        written(&doc, OutputEncoding::Original),
        (
            b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>".to_vec(),
            vec![(RepairKind::XmlDeclarationChanged, 0)]
        )
    );
    // EBCDIC with a label no table knows was read as IBM037.
    let ibm037 = xml5dom::Encoding::for_label("ibm037").unwrap();
    let doc =
        Document::parse_bytes(&ibm037.encode("<?xml version='1.0' encoding='x-klingon'?><a/>"));
    assert_eq!(doc.encoding(), ibm037);
    let (bytes, _) = written(&doc, OutputEncoding::Original);
    assert_eq!(
        bytes,
        ibm037.encode("<?xml version='1.0' encoding='IBM037'?><a/>")
    );
    assert_eq!(Document::parse_bytes(&bytes).errors(), []);
}

/// A label that contradicts the byte-order mark or the bytes is repaired
/// the same way: to the encoding they said, which the text was read as.
#[test]
fn a_mismatched_label_is_repaired_to_the_encoding_the_text_was_read_as() {
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(labelled("iso-8859-1"));
    let doc = Document::parse_bytes(&bom);
    let (bytes, repairs) = written(&doc, OutputEncoding::Original);
    let mut expected = b"\xEF\xBB\xBF".to_vec();
    expected.extend(labelled("UTF-8"));
    assert_eq!(bytes, expected);
    assert_eq!(repairs, [(RepairKind::XmlDeclarationChanged, 0)]);

    let text = "<?xml version='1.0' encoding='UTF-8'?><a>é</a>";
    let doc = Document::parse_bytes(&utf16(text, true, true));
    let (bytes, _) = written(&doc, OutputEncoding::Original);
    assert_eq!(bytes, utf16(&text.replace("UTF-8", "UTF-16"), true, true));
    assert_eq!(Document::parse_bytes(&bytes).errors(), []);

    let doc = Document::parse_bytes(&labelled("UTF-16"));
    assert_eq!(written(&doc, OutputEncoding::Original).0, labelled("UTF-8"));
}

/// An output encoding the caller asks for is what the declaration names,
/// whatever the input said: an unknown label, a mismatched one, a known
/// one. A label that already names it is kept as the author wrote it.
#[test]
fn an_output_encoding_asked_for_is_named_whatever_the_input_said() {
    let latin1_text = |label: &str| {
        let text = String::from_utf8(labelled(label)).unwrap();
        text.chars().map(|c| c as u8).collect::<Vec<u8>>()
    };
    let mut bom_mismatch = b"\xEF\xBB\xBF".to_vec();
    bom_mismatch.extend(labelled("windows-1251"));
    let windows_1252 = encode(
        "<?xml version='1.0'  encoding = 'windows-1252' ?>\n<a>é</a>\n",
        encoding_rs::WINDOWS_1252,
    );
    for (name, input) in [
        ("unknown", labelled("bogus")),
        ("mismatched", bom_mismatch),
        ("windows-1252", windows_1252),
    ] {
        let doc = Document::parse_bytes(&input);
        assert_eq!(
            written(&doc, latin1()).0,
            latin1_text("ISO-8859-1"),
            "{name}"
        );
        // (UTF-8 output keeps the UTF-8 input's byte-order mark.)
        let bom: &[u8] = match doc.had_byte_order_mark() {
            true => b"\xEF\xBB\xBF",
            false => b"",
        };
        assert_eq!(
            written(&doc, OutputEncoding::Utf8).0,
            [bom, &labelled("UTF-8")].concat(),
            "{name}"
        );
    }
    // Another label of ISO-8859-1 names it already.
    let doc = Document::parse_bytes(&latin1_text("latin1"));
    assert_eq!(doc.errors(), []);
    assert_eq!(written(&doc, latin1()), (latin1_text("latin1"), vec![]));
}

/// A known label, read by it, is the author's: the round trip is byte for
/// byte, in any spelling of it (no error, nothing to mend).
#[test]
fn a_known_label_goes_back_as_written() {
    for label in [
        "utf-8",
        "UTF8",
        "unicode-1-1-utf-8",
        "latin1",
        "cp1252",
        "sjis",
    ] {
        let bytes = format!("<?xml version='1.0' encoding='{label}'?><a>x</a>").into_bytes();
        let doc = Document::parse_bytes(&bytes);
        assert_eq!(doc.errors(), [], "{label}");
        assert_eq!(
            written(&doc, OutputEncoding::Original),
            (bytes, vec![]),
            "{label}"
        );
    }
}

/// With the caller's encoding (`--input-encoding`), the bytes are read by
/// it whatever the label says, without an error; written in that encoding,
/// the declaration names it (a label no table knows cannot be kept: no
/// reader would read the output by it).
#[test]
fn with_the_callers_encoding_the_declaration_names_it() {
    let options = ParseOptions::default()
        .encoding_label("windows-1251")
        .unwrap();
    let input =
        b"<?xml version='1.0' encoding='x-cyrillic-of-mine'?><a>\xcf\xf0\xe8\xe2\xe5\xf2</a>";
    let doc = Document::parse_bytes_with(input, &options);
    assert_eq!(doc.errors(), []);
    let (bytes, repairs) = written(&doc, OutputEncoding::Original);
    assert_eq!(
        bytes,
        b"<?xml version='1.0' encoding='windows-1251'?><a>\xcf\xf0\xe8\xe2\xe5\xf2</a>"
    );
    assert_eq!(repairs, []);
}
