//! `xml5dom check` says each error as the library's `Diagnostic` does: the
//! human line is `path:` followed by `Document::diagnostic(i)`, and the
//! JSON `message` is its `message()`, so that the two cannot drift apart.
//! (For a limit reached, `check` adds the flag that raises it in
//! parentheses.) The inputs: the mismatched end tags of
//! tests/error_context/libxml2.txt, the saved fuzz inputs of
//! tests/regressions/ (decoding, entities, references), the example feeds,
//! and cases written here for what the others lack.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use xml5dom::{Document, ParseOptions};

const BIN: &str = env!("CARGO_BIN_EXE_xml5dom");

/// Documents whose errors need more than the code's sentence, or that no
/// other input here has.
const WRITTEN: &[(&str, &[u8])] = &[
    // A stray end tag names the element left open.
    ("stray.xml", b"<a><b></x></b></a>"),
    // An end tag closing two elements.
    ("closes-two.xml", b"<list>\n<item>one<item>two</list>"),
    // An unknown encoding names its label.
    (
        "klingon.xml",
        b"<?xml version='1.0' encoding='x-klingon'?><a>caf\xc3\xa9</a>",
    ),
    // An encoding the bytes contradict.
    (
        "mismatch.xml",
        b"\xef\xbb\xbf<?xml version='1.0' encoding='ISO-8859-1'?><a/>",
    ),
    // Warnings: `&#13;`, an external entity never fetched.
    (
        "warnings.xml",
        b"<!DOCTYPE a [<!ENTITY e SYSTEM 'e.xml'>]><a>&#13;&e;</a>",
    ),
    // An end of input with elements open, a bare `&`, an unquoted value.
    ("cut.xml", b"<a x=1>fish & chips<b>"),
];

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every input, written as a file of its own in a new directory (named
/// after the `run`, as tests run side by side).
fn inputs(run: &str) -> (TempDir, Vec<PathBuf>) {
    let name = format!("xml5dom-messages-{}-{run}", std::process::id());
    let dir = std::env::temp_dir().join(name);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let dir = TempDir(dir);
    let mut files: Vec<(String, Vec<u8>)> = WRITTEN
        .iter()
        .map(|(name, bytes)| (name.to_string(), bytes.to_vec()))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cases = std::fs::read_to_string(root.join("tests/error_context/libxml2.txt"))
        .expect("tests/error_context/libxml2.txt");
    for (n, line) in cases.lines().enumerate() {
        let document = line.splitn(4, '\t').nth(3).expect("four fields");
        let document = document.replace("\\n", "\n").replace("\\r", "\r");
        files.push((format!("libxml2-{n}.xml"), document.into_bytes()));
    }
    for folder in ["tests/regressions", "examples/data"] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .expect("a directory of inputs")
            .map(|entry| entry.expect("an entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().expect("a name").to_string_lossy();
            let bytes = std::fs::read(&path).expect("a readable input");
            files.push((format!("{}.xml", name.replace('.', "-")), bytes));
        }
    }
    let paths = files
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.0.join(name);
            std::fs::write(&path, bytes).expect("a written input");
            path
        })
        .collect();
    (dir, paths)
}

fn check(args: &[&str], paths: &[PathBuf]) -> String {
    let output = Command::new(BIN)
        .arg("check")
        .args(args)
        .args(paths)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    assert!(
        output.status.code().is_some_and(|code| code <= 1),
        "{output:?}"
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// What `check` should say of each error of each file, as the library
/// says it: the human line and the JSON message, with `hinted` telling
/// whether `check` may add a hint (a limit reached).
fn expected(paths: &[PathBuf], options: &ParseOptions) -> Vec<(String, String, bool)> {
    let mut said = Vec::new();
    for path in paths {
        let doc = Document::from_file_with(path, options).expect("a readable input");
        for diagnostic in doc.diagnostics() {
            said.push((
                format!("{}:{diagnostic}", path.display()),
                diagnostic.message().into_owned(),
                diagnostic.error().is_limit(),
            ));
        }
    }
    said
}

/// `got` is `want`, or for a limit reached `want` and a hint in parentheses.
fn same(got: &str, want: &str, hinted: bool) -> bool {
    got == want
        || hinted
            && got
                .strip_prefix(want)
                .is_some_and(|rest| rest.starts_with(" (") && rest.ends_with(')'))
}

/// Checks the inputs with `args`; returns how many messages had a hint,
/// and how many were of a limit reached.
fn check_says_what_the_library_says(args: &[&str], options: &ParseOptions) -> (usize, usize) {
    let (_dir, paths) = inputs(&args.join(""));
    let want = expected(&paths, options);
    assert!(want.len() > 100, "{} errors only", want.len());

    let mut json_args = vec!["--format", "json"];
    json_args.extend(args);
    let json = check(&json_args, &paths);
    let messages: Vec<String> = json
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            value["message"].as_str().expect("a message").to_owned()
        })
        .collect();
    assert_eq!(messages.len(), want.len(), "{json}");
    for (got, (_, want, hinted)) in messages.iter().zip(&want) {
        assert!(same(got, want, *hinted), "JSON: {got:?}, library: {want:?}");
    }
    let hints = messages
        .iter()
        .zip(&want)
        .filter(|(got, (_, want, _))| got != &want)
        .count();

    let mut human_args = vec!["--color", "never"];
    human_args.extend(args);
    let human = check(&human_args, &paths);
    // An error's first line: the path, then its line and column.
    let lines: Vec<&str> = human
        .lines()
        .filter(|line| {
            paths.iter().any(|path| {
                let rest = line.strip_prefix(&*path.to_string_lossy());
                rest.and_then(|rest| rest.strip_prefix(':'))
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
            })
        })
        .collect();
    assert_eq!(lines.len(), want.len(), "{human}");
    for (got, (want, _, hinted)) in lines.iter().zip(&want) {
        assert!(
            same(got, want, *hinted),
            "check: {got:?}\nlibrary: {want:?}"
        );
    }
    (hints, want.iter().filter(|(_, _, limit)| *limit).count())
}

#[test]
fn check_prints_each_error_as_its_diagnostic() {
    // examples/data/laughs.xml reaches a limit with the defaults: only that
    // message has a hint.
    let (hints, limits) = check_says_what_the_library_says(&[], &ParseOptions::default());
    assert!(limits > 0);
    assert_eq!(hints, limits);
}

#[test]
fn check_prints_a_limit_reached_as_its_diagnostic_and_the_flag() {
    let mut options = ParseOptions::default();
    options.limits.max_attributes = 1;
    let (hints, limits) = check_says_what_the_library_says(&["--max-attributes", "1"], &options);
    assert!(hints > 1);
    assert_eq!(hints, limits);
}
