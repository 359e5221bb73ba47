//! Issue 18, "no second copy of the input": a document handed its input
//! (`Document::parse_string`, `Document::parse_vec`, and `from_file` /
//! `from_reader`, which read into a `Vec`) or sharing it
//! (`Document::parse_shared_with`, `Document::parse_shared_bytes_with`,
//! which the Python package uses for `str` and `bytes`) is the very
//! document the borrowing entry points make (tree, spans, errors and their
//! positions, encoding, input offsets, what it writes back), and it keeps
//! the buffer it was handed instead of a copy.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use xml5dom::decoding::decode_text_with;
use xml5dom::{
    Document, Encoding, EncodingSource, OutputEncoding, ParseOptions, SerializeOptions, SharedText,
};

/// Everything a document says of itself that the way it was made could
/// change.
fn describe(doc: &Document) -> String {
    let mut out = String::new();
    out.push_str(&doc.to_tree_dump());
    out.push_str(&format!(
        "\nencoding {:?} from {:?}, BOM {}, well-formed {}\n",
        doc.encoding(),
        doc.encoding_source(),
        doc.had_byte_order_mark(),
        doc.is_well_formed()
    ));
    for error in doc.errors() {
        out.push_str(&format!(
            "{error:?} at {:?}, input {:?}\n",
            doc.position(error.offset),
            doc.input_offset(error.offset)
        ));
    }
    for node in doc.root().descendants() {
        out.push_str(&format!(
            "{:?} {:?} {:?} {:?}\n",
            node.node_type(),
            node.span(),
            node.text(),
            node.entity()
        ));
        for attribute in node.attributes() {
            out.push_str(&format!(
                "  {}={:?} {:?} {:?}\n",
                attribute.name(),
                attribute.value(),
                attribute.span(),
                attribute.value_span()
            ));
        }
    }
    if let Some(declaration) = doc.xml_declaration() {
        out.push_str(&format!("{declaration:?}\n"));
    }
    // Input offsets and positions at some offsets through the source.
    let len = doc.source().len();
    let step = (len / 61).max(1);
    for offset in (0..=len).step_by(step).chain([len]) {
        out.push_str(&format!(
            "@{offset}: {:?} {:?}\n",
            doc.input_offset(offset),
            doc.position(offset)
        ));
    }
    out
}

/// Asserts that two documents are the same document.
fn assert_same(what: &str, expected: &Document, actual: &Document) {
    assert_eq!(expected.source(), actual.source(), "{what}: source");
    assert_eq!(expected.errors(), actual.errors(), "{what}: errors");
    assert_eq!(describe(expected), describe(actual), "{what}: document");
    assert_eq!(expected.to_xml(), actual.to_xml(), "{what}: to_xml");
    // The round trip in the input's own encoding, and pretty printed.
    for options in [
        SerializeOptions {
            encoding: OutputEncoding::Original,
            ..SerializeOptions::default()
        },
        SerializeOptions {
            pretty: Some(2),
            ..SerializeOptions::default()
        },
    ] {
        assert_eq!(
            expected.to_bytes(&options),
            actual.to_bytes(&options),
            "{what}: to_bytes"
        );
    }
}

/// Checks every owned entry point against its borrowing counterpart on
/// `bytes`, with `options` (the entry points without options when they
/// are the default ones).
fn check(what: &str, bytes: &[u8], options: &ParseOptions) {
    let default = options.encoding.is_none() && options.limits == ParseOptions::default().limits;
    let (borrowed, owned) = if default {
        (
            Document::parse_bytes(bytes),
            Document::parse_vec(bytes.to_vec()),
        )
    } else {
        (
            Document::parse_bytes_with(bytes, options),
            Document::parse_vec_with(bytes.to_vec(), options),
        )
    };
    assert_same(&format!("{what}: parse_vec"), &borrowed, &owned);
    let read = Document::from_reader_with(bytes, options).expect("reading a slice");
    assert_same(&format!("{what}: from_reader"), &borrowed, &read);
    // Bytes that are UTF-8, shared as text: read as bytes are.
    if let Ok(text) = std::str::from_utf8(bytes) {
        let shared: SharedText = Arc::new(text.to_owned());
        let doc = Document::parse_shared_bytes_with(shared, options);
        assert_same(&format!("{what}: parse_shared_bytes"), &borrowed, &doc);
    }
    // The text as text: parse_string against parse.
    let text = decode_text_with(bytes, options);
    let (borrowed, owned) = if default {
        (
            Document::parse(&text),
            Document::parse_string(text.clone().into_owned()),
        )
    } else {
        (
            Document::parse_with(&text, options),
            Document::parse_string_with(text.clone().into_owned(), options),
        )
    };
    assert_same(&format!("{what}: parse_string"), &borrowed, &owned);
    let shared: SharedText = Arc::new(text.into_owned());
    let doc = Document::parse_shared_with(shared, options);
    assert_same(&format!("{what}: parse_shared"), &borrowed, &doc);
}

fn utf16le(text: &str, bom: bool) -> Vec<u8> {
    let mut bytes = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
    for unit in text.encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    bytes
}

fn utf16be(text: &str, bom: bool) -> Vec<u8> {
    let mut bytes = if bom { vec![0xFE, 0xFF] } else { Vec::new() };
    for unit in text.encode_utf16() {
        bytes.extend(unit.to_be_bytes());
    }
    bytes
}

fn utf32le(text: &str) -> Vec<u8> {
    text.chars()
        .flat_map(|c| u32::from(c).to_le_bytes())
        .collect()
}

/// Inputs written for this test: well-formed, broken, non-ASCII, with
/// entities (with markup too), in several encodings.
fn handwritten() -> Vec<(&'static str, Vec<u8>)> {
    let entities = "<!DOCTYPE r [\n  <!ENTITY e 'plain'>\n  <!ENTITY m '<b>bold</b> &e;'>\n  \
                    <!ATTLIST r d CDATA 'dflt' id ID #IMPLIED>\n]>\n\
                    <r id='x'>&e; &m; &lt;&#233;&#x1F600; &undeclared;</r>";
    let mut cases: Vec<(&'static str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        (
            "well-formed",
            b"<?xml version='1.0'?>\n<a x='1'><b>t</b><!--c--><?p d?></a>\n".to_vec(),
        ),
        (
            "broken",
            b"<a><b>unclosed</a>< stray & <c x=1 x=2></d>".to_vec(),
        ),
        (
            "non-ASCII UTF-8",
            "<caf\u{e9} \u{65e5}='\u{672c}'>\u{1F600}\r\n\u{e9}</caf\u{e9}>"
                .as_bytes()
                .to_vec(),
        ),
        ("entities", entities.as_bytes().to_vec()),
        (
            "CDATA and text outside the root",
            b" x <a><![CDATA[<raw>]]>t</a> y <b/>".to_vec(),
        ),
        (
            "namespaces",
            b"<p:a xmlns:p='urn:p' xmlns='urn:d'><b p:x='1'/><q:c/></p:a>".to_vec(),
        ),
        ("U+FEFF as text", "\u{feff}<a/>".as_bytes().to_vec()),
        ("CR LF lines", b"<a>\r\n<b>\r\r\n</c>\n</a>".to_vec()),
        ("truncated", b"<a><b x='".to_vec()),
    ];
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice("<a>caf\u{e9}</b>".as_bytes());
    cases.push(("UTF-8 BOM", with_bom));
    cases.push(("only a UTF-8 BOM", b"\xEF\xBB\xBF".to_vec()));
    cases.push(("a cut UTF-8 BOM", b"\xEF\xBB<a/>".to_vec()));
    cases.push(("invalid UTF-8", b"<a>x\xff\xfey\xC3</a>".to_vec()));
    cases.push((
        "invalid UTF-8 after a BOM",
        b"\xEF\xBB\xBF<a>x\xffy</a>\xE2\x82".to_vec(),
    ));
    cases.push((
        "Latin-1 declared",
        b"<?xml version='1.0' encoding='iso-8859-1'?><p>caf\xe9</p>".to_vec(),
    ));
    cases.push((
        "unknown label",
        b"<?xml version='1.0' encoding='klingon'?><p>caf\xc3\xa9</p>".to_vec(),
    ));
    cases.push((
        "UTF-16 declared in 8 bits",
        b"<?xml version='1.0' encoding='UTF-16'?><p/>".to_vec(),
    ));
    cases.push(("UTF-16LE BOM", utf16le("<a>\u{e9}<b/></c>", true)));
    cases.push((
        "UTF-16BE BOM, wrong declaration",
        utf16be(
            "<?xml version='1.0' encoding='iso-8859-1'?><a>\u{65e5}</a>",
            true,
        ),
    ));
    cases.push((
        "UTF-16LE detected",
        utf16le("<?xml version='1.0'?><a>\u{e9}</a>", false),
    ));
    cases.push(("UTF-32LE detected", utf32le("<a>\u{1F600}</a>")));
    let (sjis, _, _) = encoding_rs::SHIFT_JIS
        .encode("<?xml version='1.0' encoding='Shift_JIS'?><a>\u{65e5}\u{672c}</a>");
    cases.push(("Shift_JIS declared", sjis.into_owned()));
    // IBM037: `<?xml version='1.0'?><a/>`.
    let ebcdic = Encoding::for_label("ibm037").expect("IBM037");
    cases.push((
        "EBCDIC detected",
        ebcdic.encode("<?xml version='1.0'?><a>x</a>"),
    ));
    cases
}

/// The corpus documents and the saved fuzz inputs.
fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("tests/corpus"), root.join("tests/regressions")];
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("test data directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn owned_inputs_make_the_same_documents_as_borrowed_ones() {
    let default = ParseOptions::default();
    for (what, bytes) in handwritten() {
        check(what, &bytes, &default);
    }
}

#[test]
fn owned_inputs_make_the_same_documents_with_options() {
    let latin1 = ParseOptions::default()
        .encoding_label("iso-8859-1")
        .expect("a known label");
    let utf8 = ParseOptions::default()
        .encoding_label("utf-8")
        .expect("a known label");
    let mut limited = ParseOptions::default();
    limited.limits.max_attributes = 1;
    limited.limits.max_element_depth = Some(2);
    for (what, bytes) in handwritten() {
        check(&format!("{what} (Latin-1)"), &bytes, &latin1);
        check(&format!("{what} (UTF-8 said)"), &bytes, &utf8);
        check(&format!("{what} (limits)"), &bytes, &limited);
    }
}

#[test]
fn the_corpus_and_the_fuzz_inputs_make_the_same_documents() {
    let files = files();
    assert!(files.len() > 300, "the corpus is there");
    for path in files {
        let bytes = std::fs::read(&path).expect("a test file");
        let what = path.display().to_string();
        check(&what, &bytes, &ParseOptions::default());
        let read = Document::from_file(&path).expect("a test file");
        assert_same(
            &format!("{what}: from_file"),
            &Document::parse_bytes(&bytes),
            &read,
        );
    }
}

#[test]
fn parse_string_keeps_the_strings_buffer() {
    let text = String::from("<a x='1'>caf\u{e9} &amp; <b/></a>");
    let buffer = text.as_ptr();
    let doc = Document::parse_string(text);
    assert_eq!(doc.source().as_ptr(), buffer);
    assert_eq!(
        doc.root_element().map(|a| a.text_content()).as_deref(),
        Some("caf\u{e9} & ")
    );
    // With room to spare, and with options.
    let mut text = String::with_capacity(4096);
    text.push_str("<a><b>unclosed</a>");
    let buffer = text.as_ptr();
    let doc = Document::parse_string_with(text, &ParseOptions::default());
    assert_eq!(doc.source().as_ptr(), buffer);
    assert_eq!(doc.errors().len(), 1);
}

#[test]
fn shared_text_is_kept_not_copied() {
    let owner = String::from("<a x='1'>caf\u{e9} &amp; <b/></a>");
    let buffer = owner.as_ptr();
    let shared: SharedText = Arc::new(owner);
    let doc = Document::parse_shared_with(Arc::clone(&shared), &ParseOptions::default());
    assert_eq!(doc.source().as_ptr(), buffer);
    // The document holds the text: it outlives the caller's reference, and
    // a copy of the document shares it too.
    drop(shared);
    let copy = doc.clone();
    drop(doc);
    assert_eq!(copy.source().as_ptr(), buffer);
    assert_eq!(
        copy.root_element().map(|a| a.text_content()).as_deref(),
        Some("caf\u{e9} & ")
    );
    // As bytes: kept when read as UTF-8 from the first byte (sniffed,
    // declared, or the caller's encoding)...
    for (text, label) in [
        ("<a>caf\u{e9}</a>", None),
        ("<?xml version='1.0' encoding='utf-8'?><a/>", None),
        ("<a/>", Some("utf-8")),
    ] {
        let options = match label {
            Some(label) => ParseOptions::default()
                .encoding_label(label)
                .expect("a known label"),
            None => ParseOptions::default(),
        };
        let owner = String::from(text);
        let buffer = owner.as_ptr();
        let doc = Document::parse_shared_bytes_with(Arc::new(owner), &options);
        assert_eq!(doc.source().as_ptr(), buffer, "{text}");
    }
    // ...and read anew otherwise: after a byte-order mark (whose offsets
    // into the input stay three bytes on), in another encoding, or cut by
    // the input-size limit.
    let doc =
        Document::parse_shared_bytes_with(Arc::new("\u{feff}<a>x</a>"), &ParseOptions::default());
    assert_eq!(doc.source(), "<a>x</a>");
    assert!(doc.had_byte_order_mark());
    assert_eq!(doc.input_offset(3), Some(6));
    let doc = Document::parse_shared_bytes_with(
        Arc::new("<?xml version='1.0' encoding='iso-8859-1'?><a>\u{e9}</a>"),
        &ParseOptions::default(),
    );
    assert_eq!(
        doc.root_element().map(|a| a.text_content()).as_deref(),
        Some("\u{c3}\u{a9}")
    );
    let mut limited = ParseOptions::default();
    limited.limits.max_input_bytes = 5;
    let doc = Document::parse_shared_with(Arc::new("<a>xyz</a>"), &limited);
    assert_eq!(doc.source(), "<a>xy");
    assert_eq!(doc.errors()[0].code.as_str(), "input-size-limit");
}

#[test]
fn parse_vec_keeps_the_vecs_buffer_when_it_is_utf8() {
    let bytes = "<a>caf\u{e9}</a>".as_bytes().to_vec();
    let buffer = bytes.as_ptr();
    let doc = Document::parse_vec(bytes);
    assert_eq!(doc.source().as_ptr(), buffer);
    assert_eq!(doc.encoding_source(), EncodingSource::Default);
    // A UTF-8 BOM is drained off in place: the same buffer, offsets into
    // the input three bytes on.
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(b"<a>x</a>");
    let buffer = bytes.as_ptr();
    let doc = Document::parse_vec(bytes);
    assert_eq!(doc.source().as_ptr(), buffer);
    assert_eq!(doc.source(), "<a>x</a>");
    assert!(doc.had_byte_order_mark());
    assert_eq!(doc.encoding_source(), EncodingSource::ByteOrderMark);
    assert_eq!(doc.input_offset(3), Some(6));
    // Declared UTF-8, and UTF-8 the caller says.
    let bytes = b"<?xml version='1.0' encoding='utf-8'?><a/>".to_vec();
    let buffer = bytes.as_ptr();
    let doc = Document::parse_vec(bytes);
    assert_eq!(doc.source().as_ptr(), buffer);
    assert_eq!(doc.encoding_source(), EncodingSource::Declaration);
    let options = ParseOptions::default()
        .encoding_label("utf-8")
        .expect("a known label");
    let bytes = b"<a/>".to_vec();
    let buffer = bytes.as_ptr();
    let doc = Document::parse_vec_with(bytes, &options);
    assert_eq!(doc.source().as_ptr(), buffer);
    assert_eq!(doc.encoding_source(), EncodingSource::Caller);
}

#[test]
fn parse_vec_decodes_other_input_as_parse_bytes_does() {
    // Invalid UTF-8: decoded with the bytes read as windows-1252, as from
    // a slice.
    let bytes = b"\xEF\xBB\xBF<a>x\xffy</a>".to_vec();
    let doc = Document::parse_vec(bytes.clone());
    assert_eq!(doc.source(), "<a>x\u{ff}y</a>");
    let error = doc.errors()[0];
    assert_eq!(error.code.as_str(), "windows-1252-in-utf-8");
    assert_eq!(doc.input_offset(error.offset), Some(7));
    assert!(doc.had_byte_order_mark());
    assert_same("invalid UTF-8", &Document::parse_bytes(&bytes), &doc);
    // UTF-16.
    let bytes = utf16le("<a>\u{e9}</a>", true);
    let doc = Document::parse_vec(bytes.clone());
    assert_eq!(doc.source(), "<a>\u{e9}</a>");
    assert_eq!(doc.encoding(), Encoding::UTF_16LE);
    assert_same("UTF-16", &Document::parse_bytes(&bytes), &doc);
}

#[test]
fn owned_documents_edit_and_write_back_as_borrowed_ones() {
    let text = "<r><a x='1'>one</a><!--c--><b>two &amp; more</b></r>";
    let mut docs = [
        Document::parse(text),
        Document::parse_string(text.to_owned()),
    ];
    for doc in &mut docs {
        let root = doc.root_element().expect("a root").id();
        let a = doc
            .root_element()
            .and_then(|r| r.first_element_child())
            .expect("a")
            .id();
        doc.set_attribute(a, "y", "new & quoted")
            .expect("set_attribute");
        let c = doc.create_element("c");
        let t = doc.create_text("added <text>");
        doc.append(c, t).expect("append");
        doc.append(root, c).expect("append");
    }
    let [borrowed, owned] = &docs;
    assert_eq!(borrowed.to_xml(), owned.to_xml());
    assert_eq!(borrowed.to_tree_dump(), owned.to_tree_dump());
}
