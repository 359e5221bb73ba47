//! Regression tests for inputs found by fuzzing (`fuzz/`, docs/robustness.md).
//!
//! Each input that once crashed a fuzz target is kept, minimized, as
//! `tests/regressions/<name>.bin`. `every_saved_input_passes_every_fuzz_check`
//! runs every fuzz check on every such file, with the very assertions of
//! the fuzz targets (`tests/common/fuzz_checks.rs`, which the fuzz crate
//! includes), so a new crash input needs only its file. A crash worth its own
//! name also gets a test here, named after what it exercises, that reads its
//! file (or holds its bytes inline) and runs the target's check. The
//! `events_equal_dom` check also runs on every corpus document up to 64 KiB
//! (`the_corpus_passes_the_events_check`).
//!
//! A crash not fixed yet would be listed in [`OPEN`] (its test ignored, its
//! file skipped by the sweep) until it is; none is open now.

#[path = "common/fuzz_checks.rs"]
mod fuzz_checks;

use std::path::{Path, PathBuf};

use xml5dom::{Document, ErrorCode};

/// A fuzz check: arbitrary bytes in, a panic if a promise does not hold.
type Check = fn(&[u8]);

/// Every fuzz target's check, by target name.
const CHECKS: [(&str, Check); 6] = [
    ("parse_bytes", fuzz_checks::parse_bytes),
    ("random_chunks", fuzz_checks::random_chunks),
    ("fixpoint", fuzz_checks::fixpoint),
    ("xpath", fuzz_checks::xpath),
    ("events_equal_dom", fuzz_checks::events_equal_dom),
    ("edits", fuzz_checks::edit_checks::edits),
];

/// Saved inputs of crashes that are not fixed yet (file names without
/// `.bin`), each with an ignored test below.
const OPEN: &[&str] = &[];

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions")
}

/// The saved inputs but the open ones, sorted by name.
fn saved_inputs() -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(regressions_dir()) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable directory").path())
        .filter(|path| path.extension().is_some_and(|e| e == "bin"))
        .filter(|path| {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            !OPEN.contains(&stem)
        })
        .collect();
    paths.sort();
    paths
}

/// Runs one check and names the file and check if it panics.
fn run(path: &Path, name: &str, check: Check, data: &[u8]) {
    let outcome = std::panic::catch_unwind(|| check(data));
    if let Err(panic) = outcome {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        panic!("{}: the {name} check failed: {message}", path.display());
    }
}

#[test]
fn every_saved_input_passes_every_fuzz_check() {
    let inputs = saved_inputs();
    for path in &inputs {
        let data = std::fs::read(path).expect("readable input");
        for (name, check) in CHECKS {
            run(path, name, check, &data);
        }
    }
    eprintln!(
        "regressions: {} saved inputs, each through the {} fuzz checks",
        inputs.len(),
        CHECKS.len()
    );
}

/// The checks hold on the inputs the fuzz seeds start from, so a seed that
/// fails is caught here before a fuzz run reports it as a crash.
#[test]
fn the_fuzz_seeds_pass_their_checks() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (name, check) in CHECKS {
        let Ok(entries) = std::fs::read_dir(seeds.join(name)) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("readable directory").path();
            let data = std::fs::read(&path).expect("readable seed");
            run(&path, name, check, &data);
        }
    }
}

/// The events-equal-DOM check on every corpus document (tests/corpus) up to
/// the fuzzer's 64 KiB, cut into one to four pieces, with the default
/// limits and with every limit small. (The sixteen larger documents take
/// longer than the rest together, in a debug build; the events and the DOM
/// agree on them in `src/events/replay_tests.rs`.)
#[test]
fn the_corpus_passes_the_events_check() {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"),
        &mut paths,
    );
    paths.retain(|path| path.extension().is_some_and(|e| e == "xml"));
    paths.sort();
    let mut checked = 0;
    for path in &paths {
        let document = std::fs::read(path).expect("readable corpus document");
        if document.len() > 64 << 10 {
            continue;
        }
        for limits in [0x00, 0x3F] {
            // 0xFF: a few cuts anywhere, for the push and the pull parsers.
            let mut data = vec![0xFF, limits];
            data.extend_from_slice(&document);
            run(
                path,
                "events_equal_dom",
                fuzz_checks::events_equal_dom,
                &data,
            );
        }
        checked += 1;
    }
    assert!(checked > 300, "only {checked} corpus documents");
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("readable directory").path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The bytes of `tests/regressions/<name>.bin`.
fn saved(name: &str) -> (PathBuf, Vec<u8>) {
    let path = regressions_dir().join(format!("{name}.bin"));
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (path, data)
}

/// Runs the check of `target` on the saved input `name`.
fn check_saved(name: &str, target: &str) {
    let (path, data) = saved(name);
    let (_, check) = CHECKS
        .iter()
        .find(|(t, _)| *t == target)
        .expect("a fuzz target");
    run(&path, target, *check, &data);
}

/// The error with `code` must point at the encoding label in the decoded
/// text (`label` then its closing quote).
fn points_at_label(name: &str, code: ErrorCode, label: &str) {
    let (_, data) = saved(name);
    let doc = Document::parse_bytes(&data);
    let error = doc
        .errors()
        .iter()
        .find(|e| e.code == code)
        .unwrap_or_else(|| panic!("no {code} error in {:?}", doc.errors()));
    let at = doc.source().get(error.offset..);
    assert!(
        at.is_some_and(|rest| rest.starts_with(&format!("{label}\""))),
        "{error:?} does not point at the label in {:?}",
        doc.source()
    );
}

// ----- Crashes found by the validation runs of 2026-11-21, all fixed --------

/// Found by `parse_bytes`: an unknown label in the XML declaration was
/// reported at its offset in the raw bytes, which is not its offset in the
/// decoded text once invalid bytes before it became U+FFFD (three bytes
/// each); it fell inside a U+FFFD. Now it is moved with the decoding.
#[test]
fn unknown_encoding_label_after_invalid_bytes_is_reported_at_its_text_offset() {
    check_saved("unknown-encoding-label-after-invalid-bytes", "parse_bytes");
    points_at_label(
        "unknown-encoding-label-after-invalid-bytes",
        ErrorCode::UnknownEncoding,
        "x",
    );
}

/// Found by `parse_bytes`: the same for a declaration that says UTF-16 in
/// a document that is not (`encoding-mismatch`).
#[test]
fn utf16_label_after_invalid_bytes_is_reported_at_its_text_offset() {
    check_saved("utf16-label-after-invalid-bytes", "parse_bytes");
    points_at_label(
        "utf16-label-after-invalid-bytes",
        ErrorCode::EncodingMismatch,
        "UTF-16",
    );
}

/// Found by `fixpoint`: DEL (U+007F) was written as it is, and the parser
/// reported it when the output was read again. XML allows DEL, so it is
/// now a warning (`discouraged-character-in-input-stream`) and the output
/// keeps it (issue 14: no repair changes a character XML can carry).
#[test]
fn del_character_is_kept_with_a_warning() {
    check_saved("del-character-written-raw", "fixpoint");
    let doc = Document::parse("<a>\u{7F}</a>");
    assert!(doc.is_well_formed());
    assert_eq!(doc.to_xml(), "<a>\u{7F}</a>");
}

/// Found by `fixpoint`: a noncharacter (U+FDD0 here; also U+1FFFE and the
/// like) was written as it is, and the parser reported it when the output
/// was read again. XML allows them, so they are now warnings and kept.
#[test]
fn noncharacter_is_kept_with_a_warning() {
    check_saved("noncharacter-written-raw", "fixpoint");
}

/// Found by `fixpoint` (from `<a>&#xD`): a CR in text was written as
/// `&#13;`, which the parser reports as `control-character-reference` (as
/// the suite requires, though XML 1.0 allows it). It was then repaired to a
/// line feed, which broke XML signatures; now the reference is a warning
/// and the output keeps `&#13;` (issue 14).
#[test]
fn cr_character_reference_is_kept_as_a_reference() {
    check_saved("cr-character-reference-reported-as-control", "fixpoint");
}

/// Found by `fixpoint`: the invalid-name repair of an attribute named
/// `xmlns:b:"c` gave `_xmlns_b_"c`, keeping the `"` (also `<`, `&`, `?`,
/// controls), so the output was not well-formed.
#[test]
fn repaired_attribute_names_are_names() {
    check_saved("attribute-name-repair-keeps-quote", "fixpoint");
}

/// Found by `fixpoint`: under `xmlns:p=""`, `<p:a>` was written with a new
/// prefix (`<ns1:a ... xmlns:ns1="urn:xml5dom:undeclared:p">`) but its end
/// tag as `</p:a>`: the output was not well-formed.
#[test]
fn undeclared_prefix_repair_renames_the_end_tag_too() {
    check_saved("undeclared-prefix-repair-end-tag", "fixpoint");
}

/// Found by `fixpoint`: an element named `xmlns:a` was written as it is;
/// the prefix `xmlns` must not be used on elements, and the parser reports
/// `invalid-qualified-name` when the output is read again.
#[test]
fn xmlns_prefixed_element_names_are_repaired() {
    check_saved("xmlns-prefixed-element-name", "fixpoint");
}

/// Found by `fixpoint`: a control character in a DOCTYPE's system
/// identifier was written as it is, and the parser reports it
/// (`control-character-in-input-stream`) when the output is read again.
#[test]
fn doctype_system_identifier_control_characters_are_repaired() {
    check_saved("doctype-system-id-control-character", "fixpoint");
}

// ----- Found by the long runs of 2026-11-21 ------------------------------------

/// Found by `parse_bytes`: an error in an internal subset with CR LF line
/// ends (and NULs) was reported at its offset in the normalized subset,
/// which here fell between a CR and its LF, where the tokenizer and
/// `Document::position` count lines differently. Subset errors are now
/// mapped back to the source.
#[test]
fn internal_subset_errors_between_cr_and_lf_keep_their_positions() {
    check_saved("subset-error-between-cr-and-lf", "parse_bytes");
}

/// Found by `fixpoint` (in a long run, as `<two-b[CDATA[日本語 \u{1FFFF}`
/// read as attribute names): a noncharacter is a name character to XML,
/// and reading the output again reported it (`noncharacter-in-input-stream`).
/// That is a warning now, and the name keeps it, as XML allows.
#[test]
fn noncharacters_in_names_are_kept() {
    check_saved("noncharacter-in-attribute-name", "fixpoint");
    let (_, data) = saved("noncharacter-in-attribute-name");
    let doc = Document::parse_bytes(&data);
    assert_eq!(doc.to_xml(), "<a b\u{1FFFF}=\"\"/>");
}

// ----- Found by the events_equal_dom seeds and first run (issue 30) -----------

/// The error events of parsing `bytes` as a stream.
fn error_events(bytes: &[u8]) -> Vec<xml5dom::ParseError> {
    let mut errors = Vec::new();
    xml5dom::events::parse_reader(bytes, |event| {
        if let xml5dom::events::Event::Error(error) = event {
            errors.push(error);
        }
    })
    .expect("reading a slice");
    errors
}

/// Found by `events_equal_dom` on its seed made of the input of A
/// (`utf16-label-after-invalid-bytes`): a stream's sniffing reported
/// `unknown-encoding` and `encoding-mismatch` at the label's offset in the
/// input less the byte-order mark, as a document did before A was fixed;
/// after invalid bytes (each a three-byte U+FFFD in the text) that is not
/// the label, and may fall inside a U+FFFD. The events now have them where
/// the document does (`src/decoding/mod.rs`, `sniffing_errors`).
#[test]
fn encoding_labels_after_invalid_bytes_are_where_the_document_has_them_in_a_stream() {
    check_saved(
        "encoding-label-after-invalid-bytes-in-a-stream",
        "events_equal_dom",
    );
    for (label, code) in [
        ("x", ErrorCode::UnknownEncoding),
        ("UTF-16", ErrorCode::EncodingMismatch),
    ] {
        let mut bytes = b"<?xml \xFF encoding=\"".to_vec();
        bytes.extend_from_slice(label.as_bytes());
        bytes.extend_from_slice(b"\"?><a/>");
        let errors = error_events(&bytes);
        // `<?xml `, U+00FF (0xFF read as windows-1252), ` encoding="`:
        // the label is at 19.
        let at: Vec<usize> = errors
            .iter()
            .filter(|e| e.code == code)
            .map(|e| e.offset)
            .collect();
        assert_eq!(at, [19], "{code} in {bytes:?}");
        assert_eq!(errors, Document::parse_bytes(&bytes).errors());
    }
}

/// Found by the first `events_equal_dom` run: an encoding label that
/// starts with an invalid byte has `invalid-byte-sequence` (now
/// `windows-1252-in-utf-8`) and `unknown-encoding` at one offset. A document lists what decoding found
/// first, a stream listed what sniffing found first; now it lists them as
/// the document does (`src/events/stream.rs`, `feed_decoded`).
#[test]
fn an_invalid_byte_starting_an_encoding_label_comes_first_in_a_stream_too() {
    check_saved(
        "invalid-byte-starting-an-encoding-label",
        "events_equal_dom",
    );
    let bytes = b"<?xml version=\"1.0\" encoding=\"\xAEx\"?><a/>";
    let doc = Document::parse_bytes(bytes);
    let codes: Vec<ErrorCode> = doc.errors().iter().map(|e| e.code).collect();
    assert_eq!(
        codes,
        [
            ErrorCode::InvalidXmlDeclaration,
            ErrorCode::Windows1252InUtf8,
            ErrorCode::UnknownEncoding
        ]
    );
    assert_eq!(error_events(bytes), doc.errors());
}
