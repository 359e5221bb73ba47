//! The W3C XML Conformance Test Suite's canonical outputs: every case that
//! has one, needs no file but its own and may be copied (183 of the 301 that
//! need no other file; James Clark's 118 may not be, and
//! tools/vendor_xmlconf.py `--check` runs all 301 from the suite's package).
//! tests/xmlconf/cases.tsv, written by that script, says which and why.
//!
//! Each input is parsed from its bytes (the suite has documents in UTF-16,
//! ISO-8859-1 and more) and written in the canonical form its output is
//! in, both from the document and from a stream; the bytes must be the
//! output's. The few cases held to `differs` are those docs/conformance.md
//! explains ("The W3C suite's canonical outputs"): they must still differ,
//! so that the list cannot hide a change.

use std::path::Path;

use pretty_assertions::assert_eq;
use xml5dom::events::write_canonical_reader;
use xml5dom::{write_canonical, CanonicalForm, Document};

struct Case {
    id: String,
    input: String,
    output: String,
    form: CanonicalForm,
    same: bool,
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/xmlconf");
    let manifest =
        std::fs::read_to_string(root.join("cases.tsv")).expect("tests/xmlconf/cases.tsv");
    manifest
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let [id, input, output, form, held] = fields[..] else {
                panic!("a manifest line of five fields: {line}");
            };
            let form = match form {
                "xmltest" => CanonicalForm::XmlTest,
                "xmltest2" => CanonicalForm::XmlTestSecond,
                other => panic!("{id}: unknown form {other}"),
            };
            Case {
                id: id.to_owned(),
                input: root.join(input).display().to_string(),
                output: root.join(output).display().to_string(),
                form,
                same: held == "same",
            }
        })
        .collect()
}

#[test]
fn canonical_outputs_of_the_w3c_suite() {
    let cases = cases();
    assert_eq!(cases.len(), 183);
    let mut same = 0;
    for case in &cases {
        let bytes = std::fs::read(&case.input).expect("the input");
        let expected = std::fs::read(&case.output).expect("the output");
        let doc = Document::parse_bytes(&bytes);
        let mut written = Vec::new();
        write_canonical(&doc, case.form, &mut written).expect("written to memory");
        let mut streamed = Vec::new();
        write_canonical_reader(&bytes[..], case.form, &mut streamed).expect("written to memory");
        assert_eq!(
            String::from_utf8_lossy(&streamed),
            String::from_utf8_lossy(&written),
            "{}: the stream writes what the document writes",
            case.id
        );
        if case.same {
            assert_eq!(
                String::from_utf8_lossy(&written),
                String::from_utf8_lossy(&expected),
                "{} ({})",
                case.id,
                case.input
            );
            same += 1;
        } else {
            assert_ne!(
                written, expected,
                "{} now passes: hold it to `same`",
                case.id
            );
        }
    }
    println!(
        "W3C canonical outputs: {same} of {} cases give the suite's bytes",
        cases.len()
    );
}
