//! The `xml5dom` command line, run as a separate process.
//!
//! The main test shows that the binary, not just the library, passes the
//! whole vendored xml5lib-tests tokenizer suite: for every one of its 5,863
//! cases it writes the input to a file, runs `xml5dom tokens FILE`, and
//! checks that the process exits with status 0, writes nothing to standard
//! error, and prints one JSON array plus a newline that equals the case's
//! expected output. Expectations are normalized exactly as in
//! `tests/xml5lib.rs` (the DOCTYPE quirks field dropped, adjacent character
//! tokens coalesced), and the two allow-listed DOCTYPE cases expect the
//! allow-list's output instead (docs/conformance.md, "Allow-list").
//!
//! The smaller tests cover the rest of the command line's contract: `-` reads
//! standard input, caller mistakes (a missing file, an unknown subcommand)
//! give exit status 2 and a short message instead of a panic, `--help`
//! works, and a leading UTF-8 byte-order mark is dropped.
//!
//! Files go into a fresh directory under [`std::env::temp_dir`], removed when
//! the test ends (even when it fails).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[path = "../../tests/common/mod.rs"]
mod common;

use common::{in_suite_notation, load_cases, load_tree_cases, Case};
use pretty_assertions::assert_eq;
use serde_json::Value;
use xml5dom::tokenizer::{tokenize, SuiteJson};

/// The binary under test, built by Cargo for this test run.
const BIN: &str = env!("CARGO_BIN_EXE_xml5dom");

/// How many cases run at once in the suite test.
const WORKERS: usize = 2;

/// How many failures the suite test prints in full.
const SHOWN_FAILURES: usize = 5;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// A directory of its own under the system temporary directory, removed
/// with everything in it when dropped.
struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates a new, empty directory whose name includes `label`, the
    /// process id and a per-process counter, so that concurrent tests (and
    /// concurrent test runs) never share one.
    fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let base = std::env::temp_dir();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("xml5dom-cli-{label}-{}-{n}", std::process::id()));
            // `create_dir`, not `create_dir_all`: it fails if the directory is
            // already there, which is what makes it ours alone.
            match std::fs::create_dir(&path) {
                Ok(()) => return TempDir { path },
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create {}: {e}", path.display()),
            }
        }
    }

    /// Writes `contents` to the file `name` in the directory and returns its
    /// path.
    fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path.join(name);
        std::fs::write(&path, contents)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs the binary with `args` and no standard input.
fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

/// Runs the binary with `args`, then `paths`, and no standard input.
fn run_paths<P: AsRef<std::ffi::OsStr>>(args: &[&str], paths: &[P]) -> Output {
    Command::new(BIN)
        .args(args)
        .args(paths)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

/// Runs `xml5dom tokens PATH`.
fn run_tokens(path: &Path) -> Output {
    run_on("tokens", path)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("standard output is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// What the library prints for `input`, as `xml5dom tokens` should print it:
/// the JSON array and a newline.
fn library_output(input: &str) -> String {
    tokenize(input, SuiteJson::default()).finish() + "\n"
}

/// Runs one case through the binary; `Err` says what was wrong.
fn check_case(dir: &TempDir, index: usize, case: &Case) -> Result<(), String> {
    let path = dir.write(&format!("case-{index}.xml"), &case.input);
    let output = run_tokens(&path);
    // The file is only needed for the run; drop it to keep the directory
    // small (the directory itself goes when the test ends).
    let _ = std::fs::remove_file(&path);

    let mut problems = Vec::new();
    if !output.status.success() {
        problems.push(format!("exit status {}", output.status));
    }
    if !output.stderr.is_empty() {
        problems.push(format!("standard error: {:?}", stderr(&output)));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    match text.strip_suffix('\n') {
        None => problems.push("standard output does not end with a newline".to_owned()),
        Some(json) => match serde_json::from_str::<Value>(json) {
            Err(e) => problems.push(format!("standard output is not JSON ({e})")),
            Ok(got) if got != case.expected => problems.push("wrong tokens".to_owned()),
            Ok(_) => {}
        },
    }
    // Beyond equal JSON, the text itself is the library's, laid out as the
    // suite's files are.
    if problems.is_empty() && text != library_output(&case.input) {
        problems.push("text differs from the library's SuiteJson output".to_owned());
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} {:?}: {}\n  input:    {}\n  expected: {}\n  got:      {}",
        case.file,
        case.description,
        problems.join("; "),
        serde_json::to_string(&case.input).unwrap(),
        case.expected,
        text.trim_end(),
    ))
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

/// Every case of the suite, through `xml5dom tokens FILE`.
#[test]
fn tokens_prints_the_expected_output_for_every_suite_case() {
    let cases = load_cases();
    assert_eq!(cases.len(), 5863, "the suite has 5,863 tokenizer cases");

    let dir = TempDir::new("suite");
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(index) else { break };
                if let Err(message) = check_case(&dir, index, case) {
                    failures.lock().unwrap().push((index, message));
                }
            });
        }
    });

    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    if !failures.is_empty() {
        for (_, message) in failures.iter().take(SHOWN_FAILURES) {
            eprintln!("FAIL {message}");
        }
        panic!(
            "{} of {} suite cases failed through `xml5dom tokens FILE` (first {} shown above)",
            failures.len(),
            cases.len(),
            failures.len().min(SHOWN_FAILURES)
        );
    }
}

/// `xml5dom tokens -` reads standard input, and prints what it would for
/// the same text in a file.
#[test]
fn tokens_reads_standard_input_for_a_dash() {
    let input = "<a x='1'>é<!--c--></>";
    let mut child = Command::new(BIN)
        .args(["tokens", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .expect("the child reads its standard input");
    let output = child.wait_with_output().expect("the child finishes");

    assert_eq!(stderr(&output), "");
    assert!(output.status.success(), "exit status {}", output.status);
    assert_eq!(
        stdout(&output),
        "[[\"StartTag\", \"a\", {\"x\": \"1\"}], [\"Character\", \"\\u00e9\"], \
         [\"Comment\", \"c\"], [\"ShortTag\", \"\"]]\n"
    );

    let dir = TempDir::new("stdin");
    let from_file = run_tokens(&dir.write("same.xml", input));
    assert_eq!(stdout(&from_file), stdout(&output));
}

/// A file that does not exist is the caller's mistake: exit status 2 and one
/// line on standard error naming the file, not a panic.
#[test]
fn a_missing_file_gives_status_2_and_one_line() {
    let dir = TempDir::new("missing");
    let path = dir.path.join("no-such-file.xml");
    let output = Command::new(BIN)
        .arg("tokens")
        .arg(&path)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));

    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "stderr: {message}");
    assert_eq!(stdout(&output), "");
    assert!(
        message.ends_with('\n') && message.lines().count() == 1,
        "expected one line on standard error, got {message:?}"
    );
    assert!(
        message.contains(&path.display().to_string()),
        "the message names the file: {message:?}"
    );
    for word in ["panicked", "backtrace", "RUST_BACKTRACE"] {
        assert!(!message.contains(word), "looks like a panic: {message:?}");
    }
}

/// An unknown subcommand, or none, is a usage error: exit status 2.
#[test]
fn a_bad_subcommand_gives_status_2() {
    for args in [&["frobnicate", "x.xml"][..], &[], &["tokens"]] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "xml5dom {args:?}");
        assert_eq!(stdout(&output), "", "xml5dom {args:?}");
        assert!(!output.stderr.is_empty(), "xml5dom {args:?}: no message");
        assert!(
            !stderr(&output).contains("panicked"),
            "xml5dom {args:?}: {}",
            stderr(&output)
        );
    }
}

/// `--help` succeeds and lists the `tokens` subcommand.
#[test]
fn help_exits_0_and_mentions_tokens() {
    let output = run(&["--help"]);
    assert!(output.status.success(), "exit status {}", output.status);
    assert_eq!(stderr(&output), "");
    assert!(
        stdout(&output).contains("tokens"),
        "help text: {}",
        stdout(&output)
    );
}

/// A UTF-8 byte-order mark at the start of a file is dropped before
/// tokenizing: the output is the same as for the file without it.
#[test]
fn a_leading_byte_order_mark_is_dropped() {
    let dir = TempDir::new("bom");
    let text = "<?xml version=\"1.0\"?><a b='c'>d&amp;e</a>";
    let plain = run_tokens(&dir.write("plain.xml", text));
    let with_bom = run_tokens(&dir.write("bom.xml", format!("\u{FEFF}{text}")));

    for output in [&plain, &with_bom] {
        assert!(output.status.success(), "exit status {}", output.status);
        assert_eq!(stderr(output), "");
    }
    assert_eq!(stdout(&with_bom), stdout(&plain));
    assert_eq!(stdout(&plain), library_output(text));
}

/// Runs `xml5dom SUBCOMMAND PATH`.
fn run_on(subcommand: &str, path: &Path) -> Output {
    Command::new(BIN)
        .arg(subcommand)
        .arg(path)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

#[test]
fn tree_prints_the_document_section_for_every_tree_construction_case() {
    let mut cases = load_tree_cases("tests/xml5lib-tests/tree-construction");
    let suite = cases.len();
    cases.extend(load_tree_cases("tests/tree-construction"));
    assert!(cases.len() >= 36 + 150, "{} cases", cases.len());
    let dir = TempDir::new("tree");
    let mut failures = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let path = dir.write(&format!("case-{index}.xml"), &case.data);
        let output = run_on("tree", &path);
        let _ = std::fs::remove_file(&path);
        let mut printed = stdout(&output);
        if index < suite {
            // The suite's notation for undeclared prefixes (tests/xml5lib.rs).
            printed = in_suite_notation(&printed);
        }
        if !output.status.success() || printed != case.document {
            failures.push(format!(
                "{}:{}: status {}\n  expected:\n{}  got:\n{}",
                case.file,
                case.line,
                output.status,
                case.document,
                stdout(&output)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed; the first:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn check_prints_each_error_with_its_position_and_exits_1() {
    let dir = TempDir::new("check-errors");
    let path = dir.write("broken.xml", "<a>\r\n  <b x='1' x='2'>\n</a>");
    let output = run_on("check", &path);
    assert_eq!(output.status.code(), Some(1));
    let shown = path.display().to_string();
    // Each error, then its source line under a gutter and a caret under the
    // column (no colour: standard output is not a terminal).
    assert_eq!(
        stdout(&output),
        format!(
            "{shown}:2:12: error: duplicate-attribute: attribute given twice; the second one is dropped\n  \
             |\n\
             2 |   <b x='1' x='2'>\n  \
             |            ^\n\
             {shown}:3:1: error: mismatched-end-tag: end tag </a> does not match the open element <b> (line 2, column 3); <b> is closed\n  \
             |\n\
             3 | </a>\n  \
             | ^\n\
             {shown}: 2 errors, 0 warnings\n"
        )
    );
    assert!(output.stderr.is_empty());
}

/// A snapshot of the human-readable diagnostics for a document with
/// several kinds of error, colour off; worked out by hand from the
/// document (columns count characters, the tab is one; the caret line
/// keeps the tab so that it lines up).
#[test]
fn check_diagnostics_snapshot() {
    let dir = TempDir::new("check-snapshot");
    let path = dir.write(
        "feed.xml",
        "<feed>\n\t<entry id=1 id=2>Tom & Jérôme</entry>\n  <title>a</titel>\n",
    );
    let output = run_paths(&["check", "--color", "never"], &[&path]);
    assert_eq!(output.status.code(), Some(1));
    let p = path.display();
    let expected = format!(
        "{p}:2:12: error: unquoted-attribute-value: attribute value without quotes
  |
2 | \t<entry id=1 id=2>Tom & Jérôme</entry>
  | \t          ^
{p}:2:14: error: duplicate-attribute: attribute given twice; the second one is dropped
  |
2 | \t<entry id=1 id=2>Tom & Jérôme</entry>
  | \t            ^
{p}:2:23: error: bare-ampersand: `&` that starts no reference; kept as text
  |
2 | \t<entry id=1 id=2>Tom & Jérôme</entry>
  | \t                     ^
{p}:3:11: error: stray-end-tag: end tag </titel> matches no open element (the current one is <title>, line 3, column 3); ignored
  |
3 |   <title>a</titel>
  |           ^
{p}:4:1: error: eof-in-element: end of input with elements still open; they are closed
  |
4 | 
  | ^
{p}: 5 errors, 0 warnings
"
    );
    assert_eq!(stdout(&output), expected);
}

/// `--max-errors N` shows the first N of each file's errors and says in
/// the summary line how many it left out; in JSON, whose lines are all
/// errors, that line goes to standard error.
#[test]
fn check_max_errors_caps_each_file_and_says_how_many_were_left_out() {
    let dir = TempDir::new("check-max");
    let many = dir.write("many.xml", "<a>& & & &#13;</a>\n");
    let few = dir.write("few.xml", "<a>&</a>");
    let clean = dir.write("clean.xml", "<a/>");
    let output = run_paths(
        &["check", "--max-errors", "2", "--jobs", "2"],
        &[&many, &few, &clean],
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let (m, f) = (many.display(), few.display());
    let headers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(&*dir.path.display().to_string()))
        .collect();
    assert_eq!(
        headers,
        [
            format!("{m}:1:4: error: bare-ampersand: `&` that starts no reference; kept as text"),
            format!("{m}:1:6: error: bare-ampersand: `&` that starts no reference; kept as text"),
            format!("{m}: 3 errors, 1 warning (2 not shown; --max-errors 2)"),
            format!("{f}:1:4: error: bare-ampersand: `&` that starts no reference; kept as text"),
            format!("{f}: 1 error, 0 warnings"),
        ]
    );
    assert!(output.stderr.is_empty());

    let json = run_paths(
        &["check", "--format", "json", "--max-errors", "1"],
        &[&many],
    );
    assert_eq!(json.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&json)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["code"], "bare-ampersand");
    assert_eq!(
        String::from_utf8_lossy(&json.stderr),
        format!("{m}: 3 errors, 1 warning (3 not shown; --max-errors 1)\n")
    );
}

#[test]
fn check_colours_only_when_asked_or_on_a_terminal() {
    let dir = TempDir::new("check-colour");
    let path = dir.write("a.xml", "<a>");
    let coloured = run_paths(&["check", "--color", "always"], &[&path]);
    assert!(stdout(&coloured).contains("\x1b[1;31merror: eof-in-element\x1b[0m"));
    // Not a terminal: plain.
    let plain = run_on("check", &path);
    assert!(!stdout(&plain).contains('\x1b'));
}

#[test]
fn check_json_has_one_object_per_error() {
    let dir = TempDir::new("check-json");
    let path = dir.write("a.xml", "<a x=1>\n&bogus;</a");
    let output = run_paths(&["check", "--format", "json"], &[&path]);
    assert_eq!(output.status.code(), Some(1));
    let objects: Vec<Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    let doc = xml5dom::Document::parse_bytes(&std::fs::read(&path).unwrap());
    assert_eq!(objects.len(), doc.errors().len());
    for (object, error) in objects.iter().zip(doc.errors()) {
        assert_eq!(object["file"], path.display().to_string());
        assert_eq!(object["line"], error.line);
        assert_eq!(object["column"], error.column);
        assert_eq!(object["offset"], error.offset);
        assert_eq!(object["code"], error.code.as_str());
        assert_eq!(object["severity"], error.severity().as_str());
        assert_eq!(object["message"], error.code.message());
        assert!(object.get("open").is_none() && object.get("end_tag").is_none());
    }
    assert_eq!(objects[0]["code"], "unquoted-attribute-value");
    assert_eq!(objects[0]["severity"], "error");
}

/// An end tag that does not close the current element names the element
/// that was open and where it starts, as xmllint does ("Opening and
/// ending tag mismatch: key line 1 and a"), in both formats.
#[test]
fn check_names_the_open_element_of_a_mismatched_or_stray_end_tag() {
    let dir = TempDir::new("check-mismatch");
    let path = dir.write("m.xml", "<a><key>x</a>");
    let output = run_paths(&["check", "--color", "never"], &[&path]);
    assert_eq!(output.status.code(), Some(1));
    let p = path.display();
    assert_eq!(
        stdout(&output),
        format!(
            "{p}:1:10: error: mismatched-end-tag: end tag </a> does not match the open element \
             <key> (line 1, column 4); <key> is closed\n  \
             |\n\
             1 | <a><key>x</a>\n  \
             |          ^\n\
             {p}: 1 error, 0 warnings\n"
        )
    );
    let json = run_paths(&["check", "--format", "json"], &[&path]);
    assert_eq!(json.status.code(), Some(1));
    assert_eq!(
        stdout(&json),
        format!(
            "{{\"file\": \"{p}\", \"line\": 1, \"column\": 10, \"offset\": 9, \
             \"code\": \"mismatched-end-tag\", \"severity\": \"error\", \"message\": \
             \"end tag </a> does not match the open element <key> (line 1, column 4); <key> is closed\", \
             \"end_tag\": \"a\", \"implied_closes\": 1, \
             \"open\": {{\"name\": \"key\", \"line\": 1, \"column\": 4, \"offset\": 3}}}}\n"
        )
    );

    // Several elements closed at once, a stray end tag, on several lines.
    let path = dir.write("n.xml", "<r>\n <a>\n  <b><c>\n</a>\n <d></x></d></r>\n");
    let json = run_paths(&["check", "--format", "json"], &[&path]);
    let objects: Vec<Value> = stdout(&json)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(objects.len(), 2, "{}", stdout(&json));
    let (mismatch, stray) = (&objects[0], &objects[1]);
    assert_eq!(mismatch["code"], "mismatched-end-tag");
    assert_eq!(
        (&mismatch["line"], &mismatch["column"]),
        (&4.into(), &1.into())
    );
    assert_eq!(mismatch["end_tag"], "a");
    assert_eq!(mismatch["implied_closes"], 2);
    let open = &mismatch["open"];
    assert_eq!(
        (
            &open["name"],
            &open["line"],
            &open["column"],
            &open["offset"]
        ),
        (&"c".into(), &3.into(), &6.into(), &14.into())
    );
    assert_eq!(
        mismatch["message"],
        "end tag </a> does not match the open element <c> (line 3, column 6); \
         <c> and 1 more element inside <a> are closed"
    );
    assert_eq!(stray["code"], "stray-end-tag");
    assert_eq!(stray["implied_closes"], 0);
    assert_eq!(stray["open"]["name"], "d");
    assert_eq!(
        (&stray["open"]["line"], &stray["open"]["column"]),
        (&5.into(), &2.into())
    );
    assert_eq!(
        stray["message"],
        "end tag </x> matches no open element (the current one is <d>, line 5, column 2); ignored"
    );
}

/// What XML allows but XML5 flags is a warning: shown as one, and a file
/// with warnings only is well-formed (exit 0); `stats` counts both kinds.
#[test]
fn check_warnings_do_not_fail_a_file() {
    let dir = TempDir::new("check-warnings");
    let path = dir.write("signed.xml", "<a b=\"1&#13;2\">x&#xD;y</a>\n");
    let output = run_paths(&["check", "--color", "never"], &[&path]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let shown = path.display();
    assert!(
        stdout(&output).starts_with(&format!(
            "{shown}:1:8: warning: control-character-reference: reference to CR"
        )),
        "{}",
        stdout(&output)
    );
    assert_eq!(stdout(&output).matches(": warning: ").count(), 2);
    let json = run_paths(&["check", "--format", "json"], &[&path]);
    assert_eq!(json.status.code(), Some(0));
    assert!(stdout(&json).contains("\"severity\": \"warning\""));
    let stats = run_paths(&["stats"], &[&path]);
    assert!(
        stdout(&stats).ends_with(
            "  errors: 0\n  limits: 0\n  warnings: 2\n    control-character-reference: 2\n"
        ),
        "{}",
        stdout(&stats)
    );
    // And `fmt` writes it back byte for byte.
    let fmt = run_paths(&["fmt"], &[&path]);
    assert_eq!(fmt.stdout, std::fs::read(&path).unwrap());
    assert!(fmt.stderr.is_empty());
}

#[test]
fn check_many_files_in_order_and_goes_on_past_a_bad_one() {
    let dir = TempDir::new("check-many");
    let good = dir.write("good.xml", "<a/>");
    let bad = dir.write("bad.xml", "<a>");
    let missing = dir.path.join("missing.xml");
    let output = run_paths(&["check"], &[&bad, &missing, &good, &bad]);
    // Unreadable beats broken: 2.
    assert_eq!(output.status.code(), Some(2));
    let text = stdout(&output);
    let headers: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.contains(" | "))
        .map(|l| l.split(": ").next().unwrap_or(""))
        .collect();
    let (b, summary) = (format!("{}:1:4", bad.display()), bad.display().to_string());
    assert_eq!(headers, [&b, &summary, &b, &summary]);
    assert!(stderr(&output).contains("missing.xml"));
    // Only good files: 0; a broken one among them: 1.
    let clean = run_paths(&["check"], &[&good, &good]);
    assert_eq!(clean.status.code(), Some(0));
    let broken = run_paths(&["check"], &[&good, &bad]);
    assert_eq!(broken.status.code(), Some(1));
}

#[test]
fn check_walks_a_directory_tree_with_r() {
    let dir = TempDir::new("check-tree");
    std::fs::create_dir_all(dir.path.join("b/c")).unwrap();
    dir.write("a.xml", "<a>");
    dir.write("b/c/d.svg", "<svg>");
    dir.write("b/e.XML", "<e/>");
    dir.write("b/notes.txt", "<not xml");
    let without = run_on("check", &dir.path);
    assert_eq!(without.status.code(), Some(2));
    assert_eq!(
        stderr(&without),
        format!(
            "xml5dom: {} is a directory (use `xml5dom check -r` to check the XML files in it)\n",
            dir.path.display()
        )
    );
    let output = run_paths(&["check", "-r", "--jobs", "2"], &[&dir.path]);
    assert_eq!(output.status.code(), Some(1));
    let files: Vec<String> = stdout(&output)
        .lines()
        .filter(|l| l.contains(": eof-in-element"))
        .map(|l| under(&dir.path, l.split(':').next().unwrap_or("")))
        .collect();
    // Name order, depth first; `e.XML` has no error, `notes.txt` is not XML.
    assert_eq!(files, ["a.xml", "b/c/d.svg"]);
    // Standard error is a pipe here: no progress bar.
    assert_eq!(stderr(&output), "");
}

#[cfg(unix)]
#[test]
fn check_r_reads_each_directory_once_through_links() {
    // Two links to the parent in a directory: followed without a guard, the
    // walk doubles at each level, up to the kernel's 40 links (a hang).
    let dir = TempDir::new("check-link-loop");
    std::fs::create_dir_all(dir.path.join("a")).unwrap();
    dir.write("a/x.xml", "<x>");
    for link in ["a/up", "a/up2"] {
        std::os::unix::fs::symlink("..", dir.path.join(link)).unwrap();
    }
    // A link to a directory outside the tree is still followed.
    let outside = TempDir::new("check-link-target");
    outside.write("y.xml", "<y>");
    std::os::unix::fs::symlink(&outside.path, dir.path.join("b")).unwrap();
    let output = run_paths(&["check", "-r", "--format", "json"], &[&dir.path]);
    assert_eq!(output.status.code(), Some(1));
    let files: Vec<String> = stdout(&output)
        .lines()
        .map(|l| under(&dir.path, l.split('"').nth(3).unwrap_or("")))
        .collect();
    assert_eq!(files, ["a/x.xml", "b/y.xml"]);
}

/// `path`, which is in `dir`, relative to it.
fn under(dir: &Path, path: &str) -> String {
    Path::new(path)
        .strip_prefix(dir)
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn check_exits_0_and_prints_nothing_for_a_clean_file() {
    let dir = TempDir::new("check-clean");
    let path = dir.write(
        "clean.xml",
        "<?xml version=\"1.0\"?>\n<a xmlns=\"urn:x\"><b/></a>\n",
    );
    let output = run_on("check", &path);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty() && output.stderr.is_empty());
}

#[test]
fn tree_and_check_read_standard_input_for_a_dash() {
    let mut child = Command::new(BIN)
        .args(["tree", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run xml5dom");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(b"<a>t</a>")
        .expect("write standard input");
    let output = child.wait_with_output().expect("xml5dom finishes");
    assert_eq!(stdout(&output), "| <a>\n|   \"t\"\n");
}

#[test]
fn fmt_writes_an_error_free_file_back_byte_for_byte() {
    let dir = TempDir::new("fmt-lossless");
    let text = "<?xml version='1.0'?>\r\n<a  x = \"1\"><!-- c --><b/>&amp;</a >\n";
    let path = dir.write("a.xml", text);
    let output = run_on("fmt", &path);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), text);
    assert!(output.stderr.is_empty());
}

/// The issue's example: the forbidden reference is at 2:7, where `check`
/// puts it, not at the start of the text holding it.
#[test]
fn fmt_reports_a_repair_at_its_line_and_column() {
    let dir = TempDir::new("fmt-position");
    let path = dir.write("p.xml", "<a>hello\nworld &#1; x</a>");
    let output = run_on("fmt", &path);
    assert_eq!(stdout(&output), "<a>hello\nworld \u{FFFD} x</a>");
    let p = path.display();
    assert_eq!(
        stderr(&output),
        format!("{p}:2:7: repaired: forbidden-character\n")
    );
    assert!(stdout(&run_on("check", &path)).starts_with(&format!("{p}:2:7: error: ")));
}

#[test]
fn fmt_repairs_broken_input_and_lists_the_repairs() {
    let dir = TempDir::new("fmt-repair");
    let path = dir.write("b.xml", "<a x=1><!--x--y-->fish & chips");
    let output = run_on("fmt", &path);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "<a x=\"1\"><!--x- -y-->fish &amp; chips</a>"
    );
    // Each repair where `check` puts the problem it mends.
    let p = path.display();
    assert_eq!(
        stderr(&output),
        format!(
            "{p}:1:6: repaired: attribute-rewritten\n\
             {p}:1:13: repaired: comment-text\n\
             {p}:1:24: repaired: escaped\n\
             {p}:1:31: repaired: end-tag-added\n"
        )
    );
    let check = run_on("check", &path);
    for position in ["1:6", "1:13", "1:24", "1:31"] {
        assert!(
            stdout(&check).contains(&format!("{p}:{position}: error: ")),
            "{position}"
        );
    }
}

#[test]
fn fmt_pretty_indents_with_the_given_width() {
    let dir = TempDir::new("fmt-pretty");
    let path = dir.write("c.xml", "<a><b><c/></b></a>");
    let two = run(&["fmt", "--pretty", path.to_str().unwrap()]);
    assert_eq!(stdout(&two), "<a>\n  <b>\n    <c/>\n  </b>\n</a>\n");
    let four = run(&["fmt", "--pretty=4", path.to_str().unwrap()]);
    assert_eq!(
        stdout(&four),
        "<a>\n    <b>\n        <c/>\n    </b>\n</a>\n"
    );
}

/// `fmt --pretty` breaks lines with the document's own line end (as its
/// first line ends: CR LF here), as plain `fmt` keeps them: no LF alone
/// in a CR LF document, in any encoding; an LF document stays LF.
#[test]
fn fmt_pretty_keeps_the_documents_line_ends() {
    let dir = TempDir::new("pretty-crlf");
    let crlf = "<?xml version=\"1.0\"?>\r\n<list>\r\n<item>a\r\nb</item><item/></list>\r\n";
    let expected =
        "<?xml version=\"1.0\"?>\r\n<list>\r\n  <item>a\r\nb</item>\r\n  <item/>\r\n</list>\r\n";
    let path = dir.write("crlf.xml", crlf);
    let output = run_paths(&["fmt", "--pretty"], &[&path]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), expected);
    // The same document with LF line ends is pretty printed with LF.
    let lf = dir.write("lf.xml", crlf.replace("\r\n", "\n"));
    let output = run_paths(&["fmt", "--pretty"], &[&lf]);
    assert_eq!(stdout(&output), expected.replace("\r\n", "\n"));
    // In UTF-16 too (a byte-order mark, then CR LF as UTF-16 code units).
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            crlf.replace(
                "<?xml version=\"1.0\"?>",
                "<?xml version=\"1.0\" encoding=\"UTF-16\"?>",
            )
            .encode_utf16()
            .flat_map(|unit| unit.to_le_bytes()),
        )
        .collect();
    let path = dir.write("utf16.xml", utf16);
    let output = run_paths(&["fmt", "--pretty"], &[&path]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let (text, _, malformed) = encoding_rs::UTF_16LE.decode(&output.stdout);
    assert!(!malformed);
    assert_eq!(
        text,
        expected.replace(
            "<?xml version=\"1.0\"?>",
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
        )
    );
    // --in-place keeps them too.
    let path = dir.write("in-place.xml", crlf);
    let output = run_paths(&["fmt", "--pretty", "--in-place"], &[&path]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
}

#[test]
fn canon_writes_each_form() {
    let dir = TempDir::new("canon");
    let path = dir.write(
        "d.xml",
        "<?xml version='1.0'?><!--c--><a z='1' b=\"2\"><e/>x&#9;<?p?></a>",
    );
    let p = path.to_str().unwrap();
    assert_eq!(
        stdout(&run(&["canon", p])),
        "<a b=\"2\" z=\"1\"><e></e>x\t<?p?></a>"
    );
    assert_eq!(
        stdout(&run(&["canon", "--form", "c14n-comments", p])),
        "<!--c-->\n<a b=\"2\" z=\"1\"><e></e>x\t<?p?></a>"
    );
    assert_eq!(
        stdout(&run(&["canon", "--form", "xmltest", p])),
        "<a b=\"2\" z=\"1\"><e></e>x&#9;<?p ?></a>"
    );
    assert_eq!(run(&["canon", "--form", "bogus", p]).status.code(), Some(2));
}

/// The libxml2 data of `tests/c14n` (generated by generate_libxml2.py).
fn c14n_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/c14n")
}

fn expected_c14n(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn canon_writes_the_exclusive_and_1_1_forms_as_libxml2() {
    let data = c14n_data();
    for name in [
        "ns-nested-prefixes-and-attributes",
        "xml-attributes-all-kinds",
    ] {
        let input = data.join("input").join(format!("{name}.xml"));
        let p = input.to_str().unwrap();
        for form in ["exc-c14n", "exc-c14n-comments", "c14n11", "c14n11-comments"] {
            let output = run(&["canon", "--form", form, p]);
            assert!(
                output.status.success(),
                "{name} {form}: {}",
                stderr(&output)
            );
            let expected = expected_c14n(data.join("expected").join(format!("{name}.{form}")));
            assert_eq!(stdout(&output), expected, "{name} {form}");
        }
    }
}

#[test]
fn canon_inclusive_ns_as_libxml2() {
    let data = c14n_data().join("inclusive-ns");
    for name in [
        "several-comma-and-space",
        "soap-signature",
        "default-undeclared-below",
    ] {
        let input = data.join(format!("{name}.xml"));
        let prefixes = std::fs::read_to_string(data.join(format!("{name}.prefixes"))).unwrap();
        for form in ["exc-c14n", "exc-c14n-comments"] {
            let output = run(&[
                "canon",
                "--form",
                form,
                "--inclusive-ns",
                prefixes.trim(),
                input.to_str().unwrap(),
            ]);
            assert!(
                output.status.success(),
                "{name} {form}: {}",
                stderr(&output)
            );
            let expected = expected_c14n(data.join("expected").join(format!("{name}.{form}")));
            assert_eq!(stdout(&output), expected, "{name} {form}");
        }
    }
}

#[test]
fn canon_xpath_writes_the_document_subset_as_libxml2() {
    let data = c14n_data().join("subset");
    let forms = [
        "c14n",
        "c14n-comments",
        "exc-c14n",
        "exc-c14n-comments",
        "c14n11",
        "c14n11-comments",
    ];
    for name in [
        "subtree-with-everything",
        "middle-element-left-out",
        "xml-base-chain-leaves",
        "exclusive-prefix-list",
    ] {
        let input = data.join(format!("{name}.xml"));
        let xpath = std::fs::read_to_string(data.join(format!("{name}.xpath"))).unwrap();
        let prefixes = std::fs::read_to_string(data.join(format!("{name}.prefixes"))).ok();
        for form in forms {
            let mut args = vec!["canon", "--form", form, "--xpath", xpath.trim()];
            if let (Some(list), true) = (&prefixes, form.starts_with("exc")) {
                args.extend(["--inclusive-ns", list.trim()]);
            }
            args.push(input.to_str().unwrap());
            let output = run(&args);
            assert!(
                output.status.success(),
                "{name} {form}: {}",
                stderr(&output)
            );
            let expected = expected_c14n(data.join("expected").join(format!("{name}.{form}")));
            assert_eq!(stdout(&output), expected, "{name} {form}");
        }
    }
}

#[test]
fn canon_xpath_binds_prefixes_and_rejects_what_does_not_fit() {
    let dir = TempDir::new("canon-xpath");
    let path = dir.write("d.xml", "<r xmlns:p='urn:p'><p:e a='1'/><f/></r>");
    let p = path.to_str().unwrap();
    // Prefixes of the document element, and --ns.
    assert_eq!(
        stdout(&run(&["canon", "--xpath", "//p:e | //p:e/@*", p])),
        "<p:e a=\"1\"></p:e>"
    );
    assert_eq!(
        stdout(&run(&["canon", "--ns", "q=urn:p", "--xpath", "//q:e", p])),
        "<p:e></p:e>"
    );
    // Not a node-set: the file fails, with the reason.
    let number = run(&["canon", "--xpath", "count(//*)", p]);
    assert_ne!(number.status.code(), Some(0));
    assert!(stderr(&number).contains("node-set"), "{}", stderr(&number));
    // Options that do not go together are usage errors.
    for args in [
        &["canon", "--form", "xmltest", "--xpath", "//*", p][..],
        &["canon", "--form", "c14n", "--inclusive-ns", "p", p][..],
        &["canon", "--xpath", "//[", p][..],
        &["canon", "--ns", "q=urn:p", p][..],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&output).is_empty());
    }
}

#[test]
fn canon_writes_the_second_xmltest_form() {
    let dir = TempDir::new("canon2");
    let path = dir.write(
        "d.xml",
        "<!DOCTYPE Doc [<?p x?><!NOTATION z SYSTEM 'z.exe'><!NOTATION a PUBLIC '-//a'>]><Doc/>",
    );
    let p = path.to_str().unwrap();
    assert_eq!(
        stdout(&run(&["canon", "--form", "xmltest2", p])),
        "<?p x?><!DOCTYPE Doc [\n<!NOTATION a PUBLIC '-//a'>\n<!NOTATION z SYSTEM 'z.exe'>\n]>\n<Doc></Doc>"
    );
    assert_eq!(
        stdout(&run(&["canon", "--form", "xmltest", p])),
        "<Doc></Doc>"
    );
}

/// `canon` of broken input writes the canonical form of the repaired
/// document (streamed: the errors are known only at the end), lists its
/// first errors on standard error and exits 1, as `xmllint --c14n` does;
/// `--repaired` accepts the repair (exit 0, as `xmllint --recover
/// --c14n`). A limit reached exits 1 either way; warnings are no damage.
#[test]
fn canon_of_broken_input_lists_the_errors_and_exits_1_unless_repaired() {
    let dir = TempDir::new("canon-broken");
    let broken = dir.write("broken.xml", "<a x=1>fish & chips\n<b></a>");
    let shown = broken.display();
    let repaired = "<a x=\"1\">fish &amp; chips\n<b></b></a>";
    let errors = format!(
        "{shown}:1:6: error: unquoted-attribute-value: attribute value without quotes\n\
         {shown}:1:13: error: bare-ampersand: `&` that starts no reference; kept as text\n\
         {shown}:2:4: error: mismatched-end-tag: end tag </a> does not match the open element \
         <b> (line 2, column 1); <b> is closed\n"
    );
    for xpath in [&[][..], &["--xpath", "//. | //@*"]] {
        let output = run_paths(&[&["canon"], xpath].concat(), &[&broken]);
        assert_eq!(output.status.code(), Some(1), "{xpath:?}");
        assert_eq!(stdout(&output), repaired, "{xpath:?}");
        assert_eq!(
            stderr(&output),
            format!(
                "{errors}{shown}: 3 errors: the output is the canonical form of the repaired \
                 document, not of the file (--repaired accepts it)\n"
            ),
            "{xpath:?}"
        );
        let output = run_paths(&[&["canon", "--repaired"], xpath].concat(), &[&broken]);
        assert_eq!(output.status.code(), Some(0), "{xpath:?}");
        assert_eq!(stdout(&output), repaired, "{xpath:?}");
        assert_eq!(
            stderr(&output),
            format!(
                "{errors}{shown}: 3 errors: the output is the canonical form of the repaired \
                 document\n"
            ),
        );
    }
    // The first ten errors are listed, and how many more there are.
    let many = dir.write("many.xml", format!("<r>{}</r>", "<a x=1 />".repeat(25)));
    let output = run_paths(&["canon"], &[&many]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert_eq!(err.matches("unquoted-attribute-value").count(), 10, "{err}");
    assert!(
        err.ends_with(&format!(
            "{}: 25 errors; 15 more not shown (`xml5dom check` lists them all): the output is \
             the canonical form of the repaired document, not of the file (--repaired accepts \
             it)\n",
            many.display()
        )),
        "{err}"
    );
    // A limit reached: the output is of the document as read, exit 1 even
    // with --repaired.
    let laughs = dir.write("laughs.xml", billion_laughs());
    for args in [&["canon"][..], &["canon", "--repaired"]] {
        let output = run_paths(args, &[&laughs]);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&output).ends_with(&format!(
                "{}: 1 limit reached: the output is of the document as read, not of the whole \
                 file\n",
                laughs.display()
            )),
            "{}",
            stderr(&output)
        );
    }
    // Well-formed, with a warning (`&#13;`): no damage.
    let clean = dir.write("clean.xml", "<a>x&#13;</a>");
    let output = run_paths(&["canon"], &[&clean]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "<a>x&#xD;</a>");
    assert_eq!(stderr(&output), "");
}

#[test]
fn every_subcommand_reads_any_encoding_and_fmt_writes_the_one_asked_for() {
    let dir = TempDir::new("encodings");
    let text = "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a t=\"日本\">語</a>";
    let sjis = xml5dom::Encoding::for_label("shift_jis")
        .unwrap()
        .encode(text);
    let path = dir.write("sjis.xml", &sjis[..]);
    let tree = run_on("tree", &path);
    assert_eq!(stdout(&tree), "| <a>\n|   t=\"日本\"\n|   \"語\"\n");
    assert_eq!(run_on("check", &path).status.code(), Some(0));
    // By default fmt writes the file's own encoding back, byte for byte.
    let same = run_on("fmt", &path);
    assert_eq!(same.stdout, sjis.to_vec());
    // --encoding picks another, and the declaration follows.
    let p = path.to_str().unwrap();
    let utf8 = run(&["fmt", "--encoding", "utf-8", p]);
    assert_eq!(
        stdout(&utf8),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a t=\"日本\">語</a>"
    );
    let bad = run(&["fmt", "--encoding", "klingon", p]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("unknown encoding"),
        "{}",
        stderr(&bad)
    );
    // UTF-16 from standard input.
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "<b>é</b>".encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    let mut child = Command::new(BIN)
        .args(["tree", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run xml5dom");
    child.stdin.take().unwrap().write_all(&utf16).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(stdout(&output), "| <b>\n|   \"é\"\n");
}

const FEED: &str =
    "<feed xmlns='http://www.w3.org/2005/Atom' xmlns:dc='http://purl.org/dc/elements/1.1/'>\
<entry id='e1'><title>Fish &amp; chips</title><dc:creator>Ada</dc:creator></entry>\
<entry id='e2'><title>Tea</title><!--draft--></entry></feed>";

#[test]
fn query_prints_each_node_of_a_node_set_on_its_own_line() {
    let dir = TempDir::new("query");
    let path = dir.write("feed.xml", FEED);
    let path = path.to_str().expect("UTF-8 temp path");
    let atom = "--ns=a=http://www.w3.org/2005/Atom";
    let cases: [(&[&str], &str); 6] = [
        // Elements as XML (with the namespace declarations they use, so
        // each line is a document of its own).
        (
            &[atom, "//a:entry[2]/a:title", path],
            "<title xmlns=\"http://www.w3.org/2005/Atom\">Tea</title>\n",
        ),
        // Attributes as name="value", text as text (references resolved).
        (&["//@id", path], "id=\"e1\"\nid=\"e2\"\n"),
        (&[atom, "//a:title/text()", path], "Fish & chips\nTea\n"),
        (&["//comment()", path], "<!--draft-->\n"),
        // Prefixes declared on the document element are bound by default.
        (&["string(//dc:creator)", path], "Ada\n"),
        (&[atom, "count(//a:entry) * 1.5", path], "3\n"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["query"];
        all.extend_from_slice(args);
        let output = run(&all);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_eq!(stdout(&output), expected, "{args:?}");
        assert_eq!(stderr(&output), "");
    }
}

/// An entity with markup leaves its text apart from the text around it in
/// the DOM; XPath sees each run as one text node and `query` prints the
/// run whole, as `xmllint --noent --xpath '/r/text()'` prints `ax` and
/// `yc` (and `axqc` for the second document, with `--nocdata` too).
#[test]
fn query_prints_a_run_of_adjacent_text_as_one_text_node() {
    let dir = TempDir::new("query-runs");
    let markup = dir.write(
        "markup.xml",
        "<!DOCTYPE r [<!ENTITY e \"x<b/>y\">]><r>a&e;c</r>",
    );
    let cdata = dir.write(
        "cdata.xml",
        "<!DOCTYPE r [<!ENTITY e \"x<![CDATA[q]]>\">]><r>a&e;c</r>",
    );
    let (markup, cdata) = (
        markup.to_str().expect("UTF-8 temp path"),
        cdata.to_str().expect("UTF-8 temp path"),
    );
    let cases: [(&[&str], &str); 5] = [
        (&["/r/text()", markup], "ax\nyc\n"),
        (&["count(/r/text())", markup], "2\n"),
        (&["/r/node()[last()]", markup], "yc\n"),
        (&["/r/text()", cdata], "axqc\n"),
        (&["string-length(/r/node())", cdata], "4\n"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["query"];
        all.extend_from_slice(args);
        let output = run(&all);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_eq!(stdout(&output), expected, "{args:?}");
    }
}

/// Like grep and `xmllint --xpath` ("XPath set is empty"): status 1 when
/// the result is an empty node-set in every file, 0 when some file gave a
/// node or any value (a number, boolean or string, even `0`, `false` or
/// an empty string), 2 for an expression that is wrong.
#[test]
fn query_exits_1_for_an_empty_node_set_and_0_for_any_result() {
    let dir = TempDir::new("query-status");
    let path = dir.write("feed.xml", FEED);
    let other = dir.write("other.xml", "<other/>");
    let path = path.to_str().expect("UTF-8 temp path");
    let other = other.to_str().expect("UTF-8 temp path");
    let cases: [(&[&str], Option<i32>, &str); 10] = [
        (&["//nothing", path], Some(1), ""),
        (&["//@nothing", path], Some(1), ""),
        (&["/*[2]", path], Some(1), ""),
        (&["//@id", path], Some(0), "id=\"e1\"\nid=\"e2\"\n"),
        (&["count(//nothing)", path], Some(0), "0\n"),
        (&["boolean(//nothing)", path], Some(0), "false\n"),
        (&["string(//nothing)", path], Some(0), "\n"),
        (&["1 div 0", path], Some(0), "Infinity\n"),
        (&["//entry[", path], Some(2), ""),
        (&["//nothing", path, "/no/such/file.xml"], Some(2), ""),
    ];
    for (args, status, expected) in cases {
        let mut all = vec!["query"];
        all.extend_from_slice(args);
        let output = run(&all);
        assert_eq!(
            output.status.code(),
            status,
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), expected, "{args:?}");
    }
    // Several files: 0 when any file matched, 1 when none did.
    let one_matches = run(&["query", "/other", path, other]);
    assert_eq!(one_matches.status.code(), Some(0));
    assert_eq!(stdout(&one_matches), format!("{other}: <other/>\n"));
    let none_match = run(&["query", "/none", path, other]);
    assert_eq!(none_match.status.code(), Some(1));
    assert_eq!(stdout(&none_match), "");
}

/// Standard input cannot be written back in place: `fmt` says where its
/// output goes instead.
#[test]
fn fmt_in_place_of_standard_input_says_how_to_format_it() {
    let mut child = Command::new(BIN)
        .args(["fmt", "--in-place", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(b"<a>x</a>").expect("a pipe");
    }
    let output = child.wait_with_output().expect("the binary ends");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "xml5dom: cannot write standard input in place (`xml5dom fmt -` writes it to standard output)\n"
    );
    assert_eq!(stdout(&output), "");
}

/// A directory without `-r` is a hint in the subcommand's own words.
#[test]
fn each_subcommand_hints_at_r_for_a_directory_in_its_own_words() {
    let dir = TempDir::new("directory-hints");
    dir.write("a.xml", "<a/>");
    let shown = dir.path.display().to_string();
    for (args, verb) in [
        (&["tokens"][..], "tokenize"),
        (&["tree"], "print the trees of"),
        (&["check"], "check"),
        (&["fmt"], "format"),
        (&["fmt", "--check"], "format"),
        (&["canon"], "canonicalize"),
        (&["query", "/a"], "query"),
        (&["stats"], "count what is in"),
    ] {
        let output = run_paths(args, &[&dir.path]);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&output),
            format!(
                "xml5dom: {shown} is a directory (use `xml5dom {} -r` to {verb} the XML files in it)\n",
                args[0]
            ),
            "{args:?}"
        );
        assert_eq!(stdout(&output), "", "{args:?}");
    }
}

#[test]
fn query_reports_bad_expressions_and_bindings_as_caller_errors() {
    let dir = TempDir::new("query-errors");
    let path = dir.write("feed.xml", FEED);
    let path = path.to_str().expect("UTF-8 temp path");
    let cases: [(&[&str], &str); 4] = [
        (
            &["//entry[@id=]", path],
            "xml5dom: XPath syntax error at column 13: an expression was expected here\n",
        ),
        (
            &["nope(1)", path],
            "xml5dom: unknown XPath function `nope` at column 1\n",
        ),
        (
            &["//x:entry", path],
            "xml5dom: the namespace prefix `x` at column 3 is not bound\n",
        ),
        (
            &["$limit", path],
            "xml5dom: the variable `$limit` at column 1 is not bound\n",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["query"];
        all.extend_from_slice(args);
        let output = run(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&output), expected, "{args:?}");
        assert_eq!(stdout(&output), "");
    }
    let output = run(&["query", "--ns", "nobinding", "/", path]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("expected PREFIX=URI"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn stats_counts_what_each_document_holds_and_goes_on_past_a_missing_file() {
    let dir = TempDir::new("stats");
    let first = dir.write(
        "first.xml",
        "<a xmlns=\"urn:a\" xmlns:p=\"urn:p\"><p:b x=\"1\" p:y=\"2\">t<!--c--><?p d?></p:b><c>text &eacute;</c>\n",
    );
    let second = dir.write("second.xml", "<?xml version='1.0' encoding='UTF-8'?><r/>");
    let missing = dir.path.join("missing.xml");
    let output = run_paths(&["stats"], &[&first, &missing, &second]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("missing.xml"),
        "{}",
        stderr(&output)
    );
    // Worked out from the documents: `a`, `p:b`, `c`; two declarations and
    // `x`, `p:y`; "t", "text é" and the final line end; `p:b` two deep;
    // `a` and `c` in urn:a, `p:b` and `p:y` in urn:p; no `</a>`, and
    // `&eacute;` is not XML's.
    let expected = format!(
        "{}
  encoding: UTF-8 (default)
  elements: 3
  attributes: 4 (2 namespace declarations)
  text nodes: 3 (8 characters)
  comments: 1
  processing instructions: 1
  depth: 2
  namespaces: 2
    urn:a: 2
    urn:p: 2
  errors: 2
    eof-in-element: 1
    undeclared-entity: 1
  limits: 0
  warnings: 0

{}
  encoding: UTF-8 (declared)
  elements: 1
  attributes: 0 (0 namespace declarations)
  text nodes: 0 (0 characters)
  comments: 0
  processing instructions: 0
  depth: 1
  namespaces: 0
  errors: 0
  limits: 0
  warnings: 0
",
        first.display(),
        second.display()
    );
    assert_eq!(stdout(&output), expected);
}

/// `stats --format json` writes one JSON object per file and line, with
/// the human format's counts under names of their own.
#[test]
fn stats_json_has_one_object_per_file_with_the_counts() {
    let dir = TempDir::new("stats-json");
    let feed = dir.write(
        "feed.xml",
        "<?xml version='1.0' encoding='ISO-8859-1'?>\n\
         <rss xmlns:dc='http://purl.org/dc/elements/1.1/' v=2>\
         <dc:creator dc:x='1'>A &amp; B</dc:creator><!--c--><?pi x?><e/>&#13;& </rss>",
    );
    let laughs = dir.write("laughs.xml", billion_laughs());
    let output = run_paths(&["stats", "--format", "json"], &[&feed, &laughs]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{}", stdout(&output));
    let first = &lines[0];
    assert_eq!(first["file"], feed.display().to_string());
    assert_eq!(first["encoding"], "ISO-8859-1");
    assert_eq!(first["encoding_source"], "declared");
    assert_eq!(first["elements"], 3);
    assert_eq!(first["attributes"], 3);
    assert_eq!(first["namespace_declarations"], 1);
    assert_eq!(first["comments"], 1);
    assert_eq!(first["processing_instructions"], 1);
    assert_eq!(first["depth"], 2);
    assert_eq!(
        first["namespaces"],
        serde_json::json!({"http://purl.org/dc/elements/1.1/": 2})
    );
    assert_eq!(first["errors"], 2);
    assert_eq!(
        first["errors_by_code"],
        serde_json::json!({"bare-ampersand": 1, "unquoted-attribute-value": 1})
    );
    assert_eq!(first["warnings"], 1);
    assert_eq!(first["limits"], 0);
    assert_eq!(first["limits_by_code"], serde_json::json!({}));
    let second = &lines[1];
    assert_eq!(second["limits"], 1);
    assert_eq!(
        second["limits_by_code"],
        serde_json::json!({"entity-expansion-limit": 1})
    );
    // The counts are the human format's.
    let human = stdout(&run_paths(&["stats"], &[&feed]));
    for (key, line) in [
        ("text_nodes", "text nodes"),
        ("characters", "text nodes"),
        ("elements", "elements"),
    ] {
        let number = first[key].to_string();
        let shown = human
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{line}:")))
            .unwrap();
        assert!(shown.contains(&number), "{key}: {shown} / {number}");
    }
}

/// `query --format json` writes one JSON object per result and line: each
/// node with its type, name, string-value, XML and source position; a
/// number, boolean or string as a JSON value.
#[test]
fn query_json_has_one_object_per_result() {
    let dir = TempDir::new("query-json");
    let path = dir.write(
        "feed.xml",
        "<feed xmlns:dc='urn:dc'>\n<item id='1'>A &amp; B</item>\n<!--c--><dc:x/></feed>",
    );
    let shown = path.display().to_string();
    let json = |args: &[&str]| -> (Option<i32>, Vec<Value>) {
        let output = run_paths(&[&["query", "--format", "json"], args].concat(), &[&path]);
        let lines = stdout(&output)
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect();
        (output.status.code(), lines)
    };
    let (status, lines) = json(&["//item | //item/@id | //item/text() | //comment() | //dc:x"]);
    assert_eq!(status, Some(0));
    let expected = serde_json::json!([
        {"file": shown, "type": "element", "name": "item", "value": "A & B",
         "xml": "<item id='1'>A &amp; B</item>", "line": 2, "column": 1, "offset": 25},
        {"file": shown, "type": "attribute", "name": "id", "value": "1",
         "xml": "id=\"1\"", "line": 2, "column": 7, "offset": 31},
        {"file": shown, "type": "text", "value": "A & B", "xml": "A & B",
         "line": 2, "column": 14, "offset": 38},
        {"file": shown, "type": "comment", "value": "c", "xml": "<!--c-->",
         "line": 3, "column": 1, "offset": 55},
        {"file": shown, "type": "element", "name": "dc:x", "value": "",
         "xml": "<dc:x xmlns:dc=\"urn:dc\"/>", "line": 3, "column": 9, "offset": 63},
    ]);
    assert_eq!(Value::Array(lines), expected);
    for (expression, kind, value) in [
        ("count(//item)", "number", serde_json::json!(1)),
        ("1 div 2", "number", serde_json::json!(0.5)),
        ("0 div 0", "number", serde_json::json!("NaN")),
        ("(0 - 1) div 0", "number", serde_json::json!("-Infinity")),
        ("boolean(//item)", "boolean", serde_json::json!(true)),
        ("string(//item)", "string", serde_json::json!("A & B")),
    ] {
        let (status, lines) = json(&[expression]);
        assert_eq!(status, Some(0), "{expression}");
        assert_eq!(
            Value::Array(lines),
            serde_json::json!([{"file": shown, "type": kind, "value": value}]),
            "{expression}"
        );
    }
    // An empty node-set prints nothing and exits 1, as in the human format.
    let (status, lines) = json(&["//nothing"]);
    assert_eq!((status, lines.len()), (Some(1), 0));
}

#[test]
fn fmt_in_place_rewrites_files_atomically_and_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;

    let dir = TempDir::new("fmt-in-place");
    let broken = dir.write("broken.xml", "<a x=1>fish & chips");
    let clean = dir.write("clean.xml", "<?xml version='1.0'?>\n<a  b='1'/>\n");
    std::fs::set_permissions(&broken, std::fs::Permissions::from_mode(0o640)).unwrap();
    let output = run_paths(&["fmt", "--in-place"], &[&broken, &clean]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    // The repaired document, as `fmt` writes it to standard output.
    assert_eq!(
        std::fs::read_to_string(&broken).unwrap(),
        "<a x=\"1\">fish &amp; chips</a>"
    );
    let mode = std::fs::metadata(&broken).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    // An error-free file is left byte for byte; no temporary file remains.
    assert_eq!(
        std::fs::read_to_string(&clean).unwrap(),
        "<?xml version='1.0'?>\n<a  b='1'/>\n"
    );
    let names: Vec<String> = std::fs::read_dir(&dir.path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // Standard input cannot be written in place.
    let dash = run(&["fmt", "--in-place", "-"]);
    assert_eq!(dash.status.code(), Some(2));
    assert!(stderr(&dash).contains("in place"));
}

/// `--in-place` writes through a symbolic link (relative or absolute, or
/// a chain of them): the file it leads to gets the new content, the link
/// stays a link. A file with several hard links keeps them: every name
/// sees the new content, in the same inode, with its permissions.
#[test]
fn fmt_in_place_writes_through_symbolic_links_and_keeps_hard_links() {
    use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};

    let dir = TempDir::new("fmt-links");
    let repaired = "<a x=\"1\">fish &amp; chips</a>";
    std::fs::create_dir(dir.path.join("real")).unwrap();
    let real = dir.write("real/feed.xml", "<a x=1>fish & chips");
    // A relative link, and a link to that link.
    let link = dir.path.join("link.xml");
    symlink("real/feed.xml", &link).unwrap();
    let chain = dir.path.join("chain.xml");
    symlink(&link, &chain).unwrap();
    for name in [&link, &chain] {
        std::fs::write(&real, "<a x=1>fish & chips").unwrap();
        let output = run_paths(&["fmt", "--in-place"], &[name]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(std::fs::symlink_metadata(&chain)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), repaired);
    }
    // No temporary file is left, here or beside the target.
    for directory in [&dir.path, &dir.path.join("real")] {
        let names: Vec<String> = std::fs::read_dir(directory)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(names.is_empty(), "{names:?}");
    }

    let first = dir.write("first.xml", "<a x=1>fish & chips");
    std::fs::set_permissions(&first, std::fs::Permissions::from_mode(0o640)).unwrap();
    let second = dir.path.join("second.xml");
    std::fs::hard_link(&first, &second).unwrap();
    let inode = std::fs::metadata(&first).unwrap().ino();
    let output = run_paths(&["fmt", "--in-place"], &[&second]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for name in [&first, &second] {
        let metadata = std::fs::metadata(name).unwrap();
        assert_eq!(metadata.ino(), inode, "{name:?}");
        assert_eq!(metadata.nlink(), 2);
        assert_eq!(metadata.permissions().mode() & 0o777, 0o640);
        assert_eq!(std::fs::read_to_string(name).unwrap(), repaired);
    }
    // The refusals hold through links too: a limit leaves the file as it is.
    let laughs = dir.write("laughs.xml", billion_laughs());
    let laughs_link = dir.path.join("laughs-link.xml");
    symlink(&laughs, &laughs_link).unwrap();
    let refused = run_paths(&["fmt", "--in-place"], &[&laughs_link]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&laughs).unwrap(), billion_laughs());
}

#[test]
fn fmt_check_names_the_files_it_would_change() {
    let dir = TempDir::new("fmt-check");
    let broken = dir.write("broken.xml", "<a x=1/>");
    let clean = dir.write("clean.xml", "<a x='1'/>");
    let output = run_paths(&["fmt", "--check"], &[&clean, &broken]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), format!("{}\n", broken.display()));
    // Nothing was written.
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "<a x=1/>");
    let output = run_paths(&["fmt", "--check"], &[&clean]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "");
    // --pretty would change the clean file too.
    let output = run_paths(
        &["fmt", "--check", "--pretty"],
        &[dir.write("nested.xml", "<a><b/></a>")],
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn several_files_get_banners_or_prefixes_in_the_order_given() {
    let dir = TempDir::new("many");
    let one = dir.write("one.xml", "<a>1</a>");
    let two = dir.write("two.xml", "<a>2</a>");
    let tree = run_paths(&["tree"], &[&two, &one]);
    assert_eq!(tree.status.code(), Some(0));
    assert_eq!(
        stdout(&tree),
        format!(
            "==> {} <==\n| <a>\n|   \"2\"\n==> {} <==\n| <a>\n|   \"1\"\n",
            two.display(),
            one.display()
        )
    );
    let query = run_paths(&["query", "string(/a)"], &[&one, &two]);
    assert_eq!(
        stdout(&query),
        format!("{}: 1\n{}: 2\n", one.display(), two.display())
    );
    // One file: as before, no banner and no prefix.
    assert_eq!(stdout(&run_on("tree", &one)), "| <a>\n|   \"1\"\n");
    // The tokens and canonical forms of a directory's files.
    let tokens = run_paths(&["tokens", "-r"], &[&dir.path]);
    assert_eq!(tokens.status.code(), Some(0));
    assert_eq!(stdout(&tokens).matches("==> ").count(), 2);
    let canon = run_paths(&["canon", "--recursive", "--jobs", "1"], &[&dir.path]);
    assert_eq!(
        stdout(&canon),
        format!(
            "==> {} <==\n<a>1</a>==> {} <==\n<a>2</a>",
            one.display(),
            two.display()
        )
    );
}

#[test]
fn cli_errors_are_one_line_never_a_backtrace() {
    for args in [
        &["tree", "/no/such/file.xml"][..],
        &["check", "--format", "yaml", "a.xml"],
        &["fmt", "--encoding", "klingon", "a.xml"],
        &["check", "--jobs", "x", "a.xml"],
        &["nonsense"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
        assert!(!err.is_empty(), "{args:?}");
    }
    let missing = run(&["tree", "/no/such/file.xml"]);
    assert_eq!(
        stderr(&missing),
        "xml5dom: cannot read /no/such/file.xml: No such file or directory (os error 2)\n"
    );
}

/// Every subcommand, as `xml5dom --help` lists them (`help` aside), so
/// that the tests below check a subcommand added without a list to edit.
fn subcommands() -> Vec<String> {
    let help = stdout(&run(&["--help"]));
    let (_, listed) = help
        .split_once("\nCommands:\n")
        .expect("--help lists the subcommands");
    // One line each, `  NAME  description` (a wrapped description goes on
    // under it, indented further).
    let names: Vec<String> = listed
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    assert!(names.iter().any(|name| name == "check"), "{help}");
    names
}

#[test]
fn every_subcommand_has_help_with_an_example_and_there_are_completions() {
    for subcommand in subcommands() {
        let subcommand = subcommand.as_str();
        // Short help, long help and `help SUBCOMMAND`: each shows the
        // subcommand's own usage and an example of it.
        for args in [
            &[subcommand, "-h"][..],
            &[subcommand, "--help"],
            &["help", subcommand],
        ] {
            let output = run(args);
            assert_eq!(output.status.code(), Some(0), "{args:?}");
            let help = stdout(&output);
            assert!(
                help.contains(&format!("Usage: xml5dom {subcommand} ")),
                "{args:?}: {help}"
            );
            assert!(
                help.contains(&format!("Example: xml5dom {subcommand} ")),
                "{args:?}: {help}"
            );
        }
    }
    // The exit statuses are in the help of the commands that have more
    // than 0 and 2.
    let query = stdout(&run(&["query", "--help"]));
    assert!(query.contains("XPath set is empty"), "{query}");
    assert!(stdout(&run(&["--help"])).contains("only empty node-sets for query"));
    let version = run(&["--version"]);
    assert_eq!(
        stdout(&version),
        format!("xml5dom {}\n", env!("CARGO_PKG_VERSION"))
    );
    let bash = run(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0));
    for word in ["tokens", "check", "--in-place", "--recursive", "--format"] {
        assert!(stdout(&bash).contains(word), "{word}");
    }
}

/// `check` closes a run with a summary line on standard error, as cargo
/// and eslint do, when standard error is a terminal (and `--quiet` is not
/// given), or with `--summary always`; `--summary never` leaves it out.
/// A clean directory is no longer silence for a person.
#[test]
fn check_summarizes_the_run_on_a_terminal_or_when_asked() {
    let dir = TempDir::new("summary");
    dir.write("clean0.xml", "<a/>");
    dir.write("clean1.xml", "<a/>");
    let clean = run_paths(&["check", "-r", "--summary", "always"], &[&dir.path]);
    assert_eq!(clean.status.code(), Some(0));
    assert_eq!(stdout(&clean), "");
    assert_eq!(
        stderr(&clean),
        "checked 2 files: 0 errors, 0 warnings\n",
        "the only line on standard error"
    );
    dir.write("warned.xml", "<a>&#13;</a>");
    // Errors, files with errors, limits reached and paths not checked.
    dir.write("broken1.xml", "<a x=1>&</a>");
    dir.write("broken2.xml", "<a x=1>");
    dir.write("laughs.xml", billion_laughs());
    let output = run_paths(
        &["check", "--summary", "always", "--format", "json", "-r"],
        &[dir.path.clone(), dir.path.join("missing.xml")],
    );
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.ends_with(
            "checked 6 files: 4 errors in 2 files, 1 warning, 1 limit reached; \
             1 could not be checked\n"
        ),
        "{err}"
    );
    // Never, and not by default off a terminal.
    for args in [&["check", "-r", "--summary", "never"][..], &["check", "-r"]] {
        let output = run_paths(args, &[&dir.path]);
        assert!(!stderr(&output).contains("checked"), "{args:?}");
    }
    // On a terminal by default, not with --quiet.
    let terminal = |quiet: &str| {
        let command = format!("{BIN} check {quiet} -r {} > /dev/null", dir.path.display());
        let output = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .expect("script (util-linux) runs the command on a terminal");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert!(
        terminal("").contains("checked 6 files: 4 errors in 2 files"),
        "{}",
        terminal("")
    );
    assert!(!terminal("--quiet").contains("checked"));
}

/// `xml5dom man` prints the manual page (roff, by clap_mangen), listing
/// every subcommand; `man SUBCOMMAND` prints a subcommand's page with its
/// options; `--out-dir` writes them all.
#[test]
fn man_prints_the_manual_pages_with_every_subcommand() {
    let output = run(&["man"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let page = stdout(&output);
    assert!(
        page.contains(&format!(
            ".TH xml5dom 1  \"xml5dom {}\"",
            env!("CARGO_PKG_VERSION")
        )),
        "{page}"
    );
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    let subcommands = subcommands();
    for subcommand in &subcommands {
        assert!(
            page.contains(&format!("xml5dom\\-{subcommand}(1)")),
            "{subcommand}: {page}"
        );
    }
    // The exit statuses are on it, and the global options.
    assert!(page.contains("Exit status"), "{page}");
    assert!(page.contains("\\-\\-recursive"), "{page}");
    assert!(!page.contains("xml5dom\\-help"), "{page}");

    let check = stdout(&run(&["man", "check"]));
    assert!(check.contains(".TH xml5dom-check 1"), "{check}");
    for option in ["\\-\\-format", "\\-\\-max\\-errors", "\\-\\-summary"] {
        assert!(check.contains(option), "{option}: {check}");
    }
    let nonsense = run(&["man", "nonsense"]);
    assert_eq!(nonsense.status.code(), Some(2));
    assert_eq!(
        stderr(&nonsense),
        format!(
            "xml5dom: no subcommand \"nonsense\" (the subcommands: {})\n",
            subcommands.join(", ")
        )
    );

    let dir = TempDir::new("man");
    let written = run_paths(&["man", "--out-dir"], &[&dir.path]);
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    let mut names: Vec<String> = std::fs::read_dir(&dir.path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = subcommands
        .iter()
        .map(|s| format!("xml5dom-{s}.1"))
        .chain(["xml5dom.1".to_owned()])
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    assert_eq!(
        std::fs::read_to_string(dir.path.join("xml5dom.1")).unwrap(),
        page
    );
}

/// On a terminal (`script` gives the command one), many files show a
/// progress bar on standard error, cleared at the end; `--quiet` shows
/// none.
#[test]
fn progress_bar_on_a_terminal_only_and_not_when_quiet() {
    let dir = TempDir::new("progress");
    for i in 0..50 {
        dir.write(&format!("f{i:02}.xml"), format!("<a x=1>{i}</a>"));
    }
    let terminal = |quiet: bool| {
        let command = format!(
            "{BIN} check {} -r {} > /dev/null",
            if quiet { "--quiet" } else { "" },
            dir.path.display()
        );
        let output = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .expect("script (util-linux) runs the command on a terminal");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let shown = terminal(false);
    assert!(shown.contains("/50 files"), "{shown:?}");
    assert_eq!(terminal(true), "");
}

/// `fmt --in-place` never destroys what reading lost or fixes what it
/// guessed: a file whose bytes did not decode (here a feed declared in a
/// label xml5dom does not know, in bytes that are not UTF-8, read as
/// windows-1252) is left as it is, with one line and exit
/// status 2; `--force` rewrites it anyway; `--input-encoding` reads it
/// right, and then it is rewritten without loss.
#[test]
fn fmt_in_place_refuses_to_destroy_undecoded_bytes() {
    let dir = TempDir::new("fmt-refuse");
    // "Привет" in windows-1251, declared in a label nobody knows.
    let mut bytes = b"<?xml version='1.0' encoding='x-cyrillic-of-mine'?>\n<a>".to_vec();
    bytes.extend_from_slice(b"\xcf\xf0\xe8\xe2\xe5\xf2");
    bytes.extend_from_slice(b"</a>\n");
    let path = dir.write("feed.xml", &bytes[..]);
    let refused = run_paths(&["fmt", "--in-place"], &[&path]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "the file is untouched"
    );
    let message = stderr(&refused);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains("not rewritten")
            && message.contains("6 byte sequences are not valid UTF-8")
            && message.contains("with their windows-1252 characters")
            && message.contains("\"x-cyrillic-of-mine\" is not known")
            && message.contains("--input-encoding")
            && message.contains("--force"),
        "{message}"
    );
    // The reader names the encoding: read right, written back unchanged
    // but for the label, which now names the encoding it is in.
    let read_right = run_paths(
        &["fmt", "--in-place", "--input-encoding", "windows-1251"],
        &[&path],
    );
    assert_eq!(read_right.status.code(), Some(0), "{}", stderr(&read_right));
    let mut relabelled = b"<?xml version='1.0' encoding='windows-1251'?>\n<a>".to_vec();
    relabelled.extend_from_slice(&bytes[bytes.len() - 11..]);
    assert_eq!(std::fs::read(&path).unwrap(), relabelled);
    // (Back to the file as it was, for --force.)
    std::fs::write(&path, &bytes).unwrap();
    let tree = run_paths(&["tree", "--input-encoding", "windows-1251"], &[&path]);
    assert_eq!(stdout(&tree), "| <a>\n|   \"Привет\"\n");
    // --force writes what the bytes are in windows-1252, in UTF-8.
    let forced = run_paths(&["fmt", "--in-place", "--force"], &[&path]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        written.contains("<a>\u{CF}\u{F0}\u{E8}\u{E2}\u{E5}\u{F2}</a>"),
        "{written}"
    );
    // An unknown --input-encoding is one line and exit status 2.
    let unknown = run_paths(&["tree", "--input-encoding", "klingon"], &[&path]);
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(stderr(&unknown), "xml5dom: unknown encoding: \"klingon\"\n");
}

/// A label no table knows is an error (XML 1.0 §4.3.3, issue 30): `check`
/// exits with status 1; `fmt` writes the label of the encoding the file was
/// read as (UTF-8), `--encoding` the label of the one asked for, and the
/// rest of the file as it was; `--in-place` mends the file so.
#[test]
fn an_unknown_encoding_label_is_an_error_fmt_mends() {
    let dir = TempDir::new("unknown-label");
    let declared =
        |label: &str| format!("<?xml version='1.0' encoding=\"{label}\"?>\n<a>café</a>\n");
    for label in ["bogus", "dbcs"] {
        let path = dir.write(&format!("{label}.xml"), declared(label));
        let check = run_on("check", &path);
        assert_eq!(check.status.code(), Some(1), "{label}");
        assert!(
            stdout(&check).contains("error: unknown-encoding"),
            "{}",
            stdout(&check)
        );
        let fmt = run_on("fmt", &path);
        assert_eq!(fmt.status.code(), Some(0), "{label}");
        assert_eq!(stdout(&fmt), declared("UTF-8"), "{label}");
        assert!(
            stderr(&fmt).ends_with(":1:1: repaired: xml-declaration-changed\n"),
            "{}",
            stderr(&fmt)
        );
        let p = path.to_str().unwrap();
        let utf8 = run(&["fmt", "--encoding", "utf-8", p]);
        assert_eq!(stdout(&utf8), declared("UTF-8"), "{label}");
        let latin1 = run(&["fmt", "--encoding", "iso-8859-1", p]);
        // (Each character one byte: `é` is 0xE9.)
        let expected: Vec<u8> = declared("ISO-8859-1").chars().map(|c| c as u8).collect();
        assert_eq!(latin1.stdout, expected, "{label}");
        let listed = run(&["fmt", "--check", p]);
        assert_eq!(listed.status.code(), Some(1), "{label}");
        let in_place = run_paths(&["fmt", "--in-place"], &[&path]);
        assert_eq!(in_place.status.code(), Some(0), "{}", stderr(&in_place));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), declared("UTF-8"));
        assert_eq!(run_on("check", &path).status.code(), Some(0), "{label}");
    }
    // A label the byte-order mark contradicts is an error too, mended the
    // same way: to the encoding the mark says.
    let path = dir.write(
        "mismatch.xml",
        format!("\u{FEFF}{}", declared("iso-8859-1")),
    );
    assert_eq!(run_on("check", &path).status.code(), Some(1));
    assert_eq!(
        stdout(&run_on("fmt", &path)),
        format!("\u{FEFF}{}", declared("UTF-8"))
    );
}

/// A feed in a label outside the Encoding Standard (MacCyrillic, as in the
/// issue) is read in the encoding it names and written back byte for byte.
#[test]
fn fmt_in_place_keeps_a_mac_cyrillic_feed() {
    let dir = TempDir::new("fmt-maccyrillic");
    let mut bytes = b"<?xml version=\"1.0\" encoding=\"MacCyrillic\"?>\n<rss><title>".to_vec();
    bytes.extend_from_slice(b"\x8f\xf0\xe8\xe2\xe5\xf2");
    bytes.extend_from_slice(b"</title></rss>\n");
    let path = dir.write("feed.xml", &bytes[..]);
    let output = run_paths(&["fmt", "--in-place"], &[&path]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    let tree = run_on("tree", &path);
    assert_eq!(stdout(&tree), "| <rss>\n|   <title>\n|     \"Привет\"\n");
}

/// Runs the binary with `args` and `path`, reads the first 100 bytes of
/// its standard output and closes it (and standard error), as `2>&1 | head
/// -c 100` does; returns the exit status.
fn status_when_the_reader_stops(args: &[&str], path: &Path) -> Option<i32> {
    use std::io::Read;

    let mut child = Command::new(BIN)
        .args(args)
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    drop(child.stderr.take());
    child.wait().unwrap().code()
}

/// A reader that stops early (`xml5dom check big.xml | head`) ends the
/// output, never the verdict: no panic, nothing more written, and the exit
/// status a whole run gives, so that a pipeline under `pipefail` fails on
/// a broken file. `check`, `fmt`, `canon` and `query`, whose status judges
/// the input, read on without writing until it is settled; `tokens` and
/// `tree` (and `stats`), whose status only says whether files could be
/// read, stop at once. Every output here is hundreds of kilobytes or more,
/// far more than a pipe holds.
#[test]
fn a_reader_that_goes_away_ends_the_output_not_the_verdict() {
    let dir = TempDir::new("closed-pipe");
    // Broken throughout, so that `fmt` has repairs to note on standard
    // error too.
    let broken = dir.write(
        "broken.xml",
        format!("<r>{}</r>", "<a x=1>& </a>\n".repeat(20_000)),
    );
    // Well-formed, with a warning (`&#13;`) on every line: `check` prints
    // them all, and exits 0.
    let warnings = "<a>&#13;</a>\n".repeat(20_000);
    let clean = dir.write("clean.xml", format!("<r>{warnings}</r>"));
    // The same, with one error after all the warnings.
    let late = dir.write("late.xml", format!("<r>{warnings}<b x=1/></r>"));
    // Many small files, for `stats`, which writes a few lines for each.
    let many = dir.path.join("many");
    std::fs::create_dir(&many).unwrap();
    for i in 0..1000 {
        std::fs::write(many.join(format!("{i:04}.xml")), "<a x=1>&</a>").unwrap();
    }
    let cases: &[(&[&str], &Path, i32)] = &[
        (&["check"], &broken, 1),
        (&["check"], &late, 1),
        (&["check"], &clean, 0),
        (&["check", "--format", "json"], &late, 1),
        (&["fmt"], &broken, 0),
        (&["fmt", "--pretty"], &broken, 0),
        (&["tree"], &broken, 0),
        (&["tokens"], &broken, 0),
        (&["query", "//a"], &broken, 0),
        (&["canon"], &broken, 1),
        (&["canon", "--repaired"], &broken, 0),
        (&["canon"], &late, 1),
        (&["canon"], &clean, 0),
        (&["stats", "-r"], &many, 0),
        (&["check", "-r"], &many, 1),
    ];
    for &(args, path, expected) in cases {
        // What the whole run gives...
        let whole = run_paths(args, &[path]);
        assert_eq!(whole.status.code(), Some(expected), "{args:?} {path:?}");
        assert!(whole.stdout.len() > 1 << 17, "{args:?}: a large output");
        // ... a run cut short gives too.
        let status = status_when_the_reader_stops(args, path);
        assert_eq!(status, Some(expected), "{args:?} {path:?}, cut short");
    }
}

// ---------------------------------------------------------------------------
// Limits: a document a limit cut short is not the document
// ---------------------------------------------------------------------------

/// The billion laughs (roxmltree's `entity_err_005`, libxml2's and lxml's
/// rejected bomb): ten entities of ten references each, 10^9 `lol`s from
/// one reference.
fn billion_laughs() -> String {
    let mut text = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n");
    text.push_str("<!ENTITY lol \"lol\">\n");
    for level in 1..10 {
        let below = if level == 1 {
            "lol".to_owned()
        } else {
            format!("lol{}", level - 1)
        };
        let references = format!("&{below};").repeat(10);
        text.push_str(&format!("<!ENTITY lol{level} \"{references}\">\n"));
    }
    text.push_str("]>\n<lolz>&lol9;</lolz>\n");
    text
}

#[test]
fn check_exits_1_on_the_billion_laughs_and_names_the_limit() {
    let dir = TempDir::new("check-laughs");
    let path = dir.write("laughs.xml", billion_laughs());
    let shown = path.display();
    let human = run_paths(&["check", "--color", "never"], &[&path]);
    assert_eq!(human.status.code(), Some(1), "{}", stdout(&human));
    let out = stdout(&human);
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!(
            "{shown}:14:7: limit: entity-expansion-limit: entity expansion reached its limit"
        )) && first.contains("--max-entity-expansion-ratio")
            && first.contains("--max-entity-expansion-bytes"),
        "{out}"
    );
    assert!(
        out.ends_with(&format!("{shown}: 0 errors, 0 warnings, 1 limit reached\n")),
        "{out}"
    );

    let json = run_paths(&["check", "--format", "json"], &[&path]);
    assert_eq!(json.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&json)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 1, "{}", stdout(&json));
    assert_eq!(lines[0]["code"], "entity-expansion-limit");
    assert_eq!(lines[0]["severity"], "limit");
    assert_eq!(lines[0]["offset"], billion_laughs().find("&lol9;").unwrap());
    assert!(lines[0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("--max-entity-expansion-ratio N")));

    let stats = run_paths(&["stats"], &[&path]);
    assert!(
        stdout(&stats)
            .ends_with("  errors: 0\n  limits: 1\n    entity-expansion-limit: 1\n  warnings: 0\n"),
        "{}",
        stdout(&stats)
    );
}

#[test]
fn fmt_in_place_leaves_a_file_a_limit_cut_short_untouched() {
    let dir = TempDir::new("fmt-limit");
    let laughs = billion_laughs();
    let path = dir.write("laughs.xml", &laughs);
    let shown = path.display();
    let refused = run_paths(&["fmt", "--in-place"], &[&path]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), laughs, "untouched");
    let message = stderr(&refused);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with(&format!(
            "xml5dom: {shown}: not rewritten: entity-expansion-limit at line 14, column 7: "
        )) && message.contains("--max-entity-expansion-ratio")
            && message.contains("--force"),
        "{message}"
    );

    // Every limit, each set low on the command line.
    let cases: [(&str, &[&str], &str); 6] = [
        (
            "<a><b><c/></b></a>\n",
            &["--max-element-depth", "2"],
            "element-depth-limit",
        ),
        (
            "<a x='1' y='2'/>\n",
            &["--max-attributes", "1"],
            "attribute-limit",
        ),
        (
            "<abcdef/>\n",
            &["--max-name-length", "3"],
            "name-length-limit",
        ),
        (
            "<a>some text</a>\n",
            &["--max-input-bytes", "8"],
            "input-size-limit",
        ),
        (
            "<!DOCTYPE a [<!ENTITY e1 'x'><!ENTITY e2 '&e1;'>]><a>&e2;</a>\n",
            &["--max-entity-depth", "1"],
            "entity-depth-limit",
        ),
        (
            "<!DOCTYPE a [<!ENTITY e 'xxxxxxxxxx'>]><a>&e;&e;</a>\n",
            &["--max-entity-expansion-bytes", "15"],
            "entity-expansion-limit",
        ),
    ];
    for (text, flags, code) in cases {
        let path = dir.write("limited.xml", text);
        let shown = path.display();
        let mut args = vec!["fmt", "--in-place"];
        args.extend_from_slice(flags);
        let refused = run_paths(&args, &[&path]);
        assert_eq!(refused.status.code(), Some(2), "{flags:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{flags:?}");
        let message = stderr(&refused);
        assert!(
            message.starts_with(&format!(
                "xml5dom: {shown}: not rewritten: {code} at line 1"
            )) && message.contains(flags[0])
                && message.lines().count() == 1,
            "{message}"
        );
        // Without the flag the document is read whole: written back as it
        // is (so left alone), exit status 0.
        let whole = run_paths(&["fmt", "--in-place"], &[&path]);
        assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        // `check` with the flag exits 1 and names it; without, 0.
        let mut args = vec!["check", "--color", "never"];
        args.extend_from_slice(flags);
        let checked = run_paths(&args, &[&path]);
        assert_eq!(checked.status.code(), Some(1), "{flags:?}");
        assert!(
            stdout(&checked).contains(&format!(": limit: {code}: "))
                && stdout(&checked).contains(flags[0]),
            "{}",
            stdout(&checked)
        );
        assert_eq!(run_paths(&["check"], &[&path]).status.code(), Some(0));
    }

    // `--force` writes what was read; plain `fmt` writes it to standard
    // output, and says on standard error that it is not the whole file.
    let path = dir.write("cut.xml", "<a>some text</a>\n");
    let plain = run_paths(&["fmt", "--max-input-bytes", "8"], &[&path]);
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(stdout(&plain), "<a>some </a>");
    assert!(
        stderr(&plain).starts_with(&format!(
            "{}:1:9: limit: input-size-limit: ",
            path.display()
        )) && stderr(&plain).contains("--max-input-bytes"),
        "{}",
        stderr(&plain)
    );
    let checked = run_paths(&["fmt", "--check", "--max-input-bytes", "8"], &[&path]);
    assert_eq!(checked.status.code(), Some(1));
    assert!(stderr(&checked).contains("not checked whole"));
    let forced = run_paths(
        &["fmt", "--in-place", "--force", "--max-input-bytes", "8"],
        &[&path],
    );
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "<a>some </a>");
}

#[test]
fn limit_flags_parse_sizes_none_and_huge() {
    let dir = TempDir::new("limit-flags");
    // 10,001 attributes: one more than the default limit keeps.
    let mut many = String::from("<a");
    for i in 0..10_001 {
        many.push_str(&format!(" a{i}=''"));
    }
    many.push_str("/>\n");
    let path = dir.write("many.xml", &many);
    let default = run_paths(&["check", "--format", "json"], &[&path]);
    assert_eq!(default.status.code(), Some(1));
    assert!(stdout(&default).contains("\"code\": \"attribute-limit\", \"severity\": \"limit\""));
    for flags in [
        &["--huge"][..],
        &["--max-attributes", "none"],
        &["--max-attributes", "unlimited"],
        &["--max-attributes", "10K"],
        &["--max-attributes", "20000"],
    ] {
        let mut args = vec!["check"];
        args.extend_from_slice(flags);
        let output = run_paths(&args, &[&path]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{flags:?}: {}",
            stdout(&output)
        );
    }
    // Flags after --huge set a limit again.
    let output = run_paths(&["check", "--huge", "--max-attributes", "3"], &[&path]);
    assert_eq!(output.status.code(), Some(1));
    // Element depth: none is unlimited, as the default.
    let deep = dir.write("deep.xml", "<a><b><c/></b></a>");
    let output = run_paths(&["tree", "--max-element-depth", "1"], &[&deep]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "| <a>\n");
    assert!(
        stderr(&output).contains(": limit: element-depth-limit: "),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("not of the whole file"),
        "{}",
        stderr(&output)
    );
    let output = run_paths(&["tree", "--max-element-depth", "none"], &[&deep]);
    assert!(stdout(&output).contains("<c>") && output.stderr.is_empty());
    // Wrong values are caller errors.
    for bad in ["-1", "ten", "1T", "", "99999999999999999999"] {
        let output = run_paths(&["check", "--max-attributes", bad], &[&path]);
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
    }
    let output = run_paths(&["check", "--max-entity-expansion-ratio", "8G"], &[&path]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--max-entity-expansion-ratio"));
}

// ---------------------------------------------------------------------------
// Undeclared prefixes (issue 31)
// ---------------------------------------------------------------------------

/// A feed that uses `dc` without declaring it, on elements and an attribute.
const UNDECLARED_DC: &str = "<rss><channel><dc:creator>A</dc:creator>\
                             <item dc:id='1'><dc:creator>B</dc:creator></item></channel></rss>";

/// The namespace an undeclared `dc` is in, with the flags that ask for
/// it: `dc`'s registered namespace by default (a well-known prefix), its
/// placeholder with `--no-well-known-prefixes`.
const UNDECLARED_DC_NAMESPACES: [(&[&str], &str); 2] = [
    (&[], "http://purl.org/dc/elements/1.1/"),
    (&["--no-well-known-prefixes"], "urn:xml5dom:undeclared:dc"),
];

/// `args`, then `flags`.
fn with_flags<'a>(args: &[&'a str], flags: &[&'a str]) -> Vec<&'a str> {
    args.iter().chain(flags).copied().collect()
}

/// The namespace `fmt` declares for `dc` used undeclared selects the same
/// elements through `query --ns`, in the source and in `fmt`'s output.
#[test]
fn query_selects_undeclared_prefixes_by_the_namespace_fmt_writes() {
    let dir = TempDir::new("undeclared-query");
    let source = dir.write("feed.xml", UNDECLARED_DC);
    for (flags, namespace) in UNDECLARED_DC_NAMESPACES {
        let formatted = run_paths(&with_flags(&["fmt"], flags), &[&source]);
        assert_eq!(formatted.status.code(), Some(0), "{}", stderr(&formatted));
        let output = stdout(&formatted);
        assert!(
            output.contains(&format!("xmlns:dc=\"{namespace}\"")),
            "{output}"
        );
        let written = dir.write("formatted.xml", &output);
        let binding = format!("dc={namespace}");
        for path in [&source, &written] {
            let query = ["query", "--ns", &binding, "//dc:creator/text()"];
            let creators = run_paths(&with_flags(&query, flags), &[path]);
            assert_eq!(creators.status.code(), Some(0), "{}", stderr(&creators));
            assert_eq!(stdout(&creators), "A\nB\n", "{}", path.display());
            let query = ["query", "--ns", &binding, "string(//@dc:id)"];
            let ids = run_paths(&with_flags(&query, flags), &[path]);
            assert_eq!(stdout(&ids), "1\n", "{}", path.display());
        }
    }
}

/// `canon --repaired` of a document using prefixes undeclared writes, in
/// every form, the canonical form of what `fmt` writes: the namespace of
/// the undeclared prefix (its placeholder, or the registered namespace of
/// a well-known one) declared where it is not in scope.
#[test]
fn canon_of_undeclared_prefixes_is_the_canonical_form_of_the_repaired_document() {
    let dir = TempDir::new("undeclared-canon");
    let source = dir.write(
        "feed.xml",
        "<rss><dc:creator a='1' it:b='2'><dc:x it:c='3'/></dc:creator><dc:y/>\
         <p xmlns:dc='urn:real'><dc:z/></p></rss>",
    );
    for (flags, namespace) in UNDECLARED_DC_NAMESPACES {
        let formatted = run_paths(&with_flags(&["fmt"], flags), &[&source]);
        let written = dir.write("formatted.xml", stdout(&formatted));
        for form in ["c14n", "c14n-comments", "c14n11", "exc-c14n"] {
            let canon = ["canon", "--repaired", "--form", form];
            let repaired = run_paths(&with_flags(&canon, flags), &[&source]);
            assert_eq!(
                repaired.status.code(),
                Some(0),
                "{form}: {}",
                stderr(&repaired)
            );
            let of_written = run_paths(&["canon", "--form", form], &[&written]);
            assert_eq!(
                of_written.status.code(),
                Some(0),
                "{form}: {}",
                stderr(&of_written)
            );
            assert_eq!(stdout(&repaired), stdout(&of_written), "{form}");
            assert!(
                stdout(&repaired).contains(&format!("<dc:y xmlns:dc=\"{namespace}\">")),
                "{form}: {}",
                stdout(&repaired)
            );
        }
    }
}

/// A query using a prefix the document uses undeclared says which `--ns`
/// selects its names; a prefix the document does not use gets the plain
/// message.
#[test]
fn an_unbound_prefix_the_document_uses_undeclared_names_the_binding() {
    let dir = TempDir::new("undeclared-message");
    let path = dir.write("feed.xml", UNDECLARED_DC);
    for (flags, namespace) in UNDECLARED_DC_NAMESPACES {
        let output = run_paths(&with_flags(&["query", "//dc:creator"], flags), &[&path]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!(
                "xml5dom: the namespace prefix `dc` at column 3 is not bound; the document uses \
                 `dc` without declaring it: select its names with --ns dc={namespace}\n"
            )
        );
        let output = run_paths(&with_flags(&["query", "//media:content"], flags), &[&path]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            "xml5dom: the namespace prefix `media` at column 3 is not bound\n"
        );
    }
}

/// `fmt --bind-prefix` declares the prefix once, on the root element, and
/// the names read back in that namespace without an error.
#[test]
fn fmt_bind_prefix_declares_the_prefix_once_on_the_root_element() {
    let dir = TempDir::new("bind-prefix");
    let path = dir.write("feed.xml", UNDECLARED_DC);
    let dc = "http://purl.org/dc/elements/1.1/";
    let output = run_paths(&["fmt", "--bind-prefix", &format!("dc={dc}")], &[&path]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let written = stdout(&output);
    assert_eq!(
        written,
        format!(
            "<rss xmlns:dc=\"{dc}\"><channel><dc:creator>A</dc:creator>\
             <item dc:id='1'><dc:creator>B</dc:creator></item></channel></rss>"
        )
    );
    assert!(
        !stderr(&output).contains("undeclared-prefix"),
        "{}",
        stderr(&output)
    );
    // Read back: well-formed, every `dc` name in the bound namespace.
    let doc = xml5dom::Document::parse(&written);
    assert_eq!(doc.errors(), []);
    let dc_names: Vec<_> = doc
        .root()
        .descendants()
        .filter(|n| n.prefix() == Some("dc"))
        .map(|n| n.namespace())
        .collect();
    assert_eq!(dc_names, [Some(dc), Some(dc)]);
    let item = doc
        .root()
        .descendants()
        .find(|n| n.name() == "item")
        .unwrap();
    assert_eq!(item.attribute_ns(dc, "id"), Some("1"));
    assert_eq!(written.matches("xmlns:").count(), 1);
    let formatted = dir.write("bound.xml", &written);
    let query = run_paths(
        &["query", "--ns", &format!("d={dc}"), "count(//d:creator)"],
        &[&formatted],
    );
    assert_eq!(stdout(&query), "2\n");

    // A prefix no name uses undeclared: nothing to bind, said on stderr.
    let output = run_paths(&["fmt", "--bind-prefix", "media=urn:m"], &[&path]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("--bind-prefix media: no name uses `media` undeclared"),
        "{}",
        stderr(&output)
    );
    // A binding that cannot be made leaves the file out, exit status 2.
    let clash = dir.write("clash.xml", "<r xmlns:x='urn:dc'><e x:a='1' dc:a='2'/></r>");
    let output = run_paths(&["fmt", "--bind-prefix", "dc=urn:dc"], &[&clash]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("would both be {urn:dc}a"),
        "{}",
        stderr(&output)
    );
}

/// `--load-dtd`, `--dtd-path` and `--catalog` are in every subcommand's
/// help under a heading that says nothing is fetched from the network, and
/// there is no flag that would.
#[test]
fn the_resolving_flags_are_listed_and_none_reaches_the_network() {
    for args in [&["--help"][..], &["check", "--help"], &["fmt", "-h"]] {
        let help = stdout(&run(args));
        for flag in ["--load-dtd", "--dtd-path <DIR>", "--catalog <FILE>"] {
            assert!(help.contains(flag), "{args:?}: {flag}: {help}");
        }
        assert!(
            help.contains("nothing is ever fetched from the network"),
            "{args:?}: {help}"
        );
    }
    for flag in ["--net", "--network"] {
        let output = run(&["check", flag, "-"]);
        assert_eq!(output.status.code(), Some(2), "{flag}");
    }
}

/// A `--catalog` file or `--dtd-path` folder that is not there is a
/// mistake of the caller's: one line, exit status 2, no file read.
#[test]
fn a_missing_catalog_or_dtd_folder_is_exit_status_2() {
    let dir = TempDir::new("resolving-missing");
    let doc = dir.write("doc.xml", "<a/>");
    let missing = dir.path.join("missing");
    let missing_text = missing.display().to_string();
    for (flag, said) in [
        ("--catalog", "no such file"),
        ("--dtd-path", "no such folder"),
    ] {
        let output = run_paths(&["check", flag, &missing_text], &[&doc]);
        assert_eq!(output.status.code(), Some(2), "{flag}");
        assert_eq!(
            stderr(&output),
            format!("xml5dom: {flag} {missing_text}: {said}\n")
        );
        assert_eq!(stdout(&output), "");
    }
}

/// `XML_CATALOG_FILES` is read only when a resolving flag is given: a
/// catalog it names that is not a catalog is warned about then, and only
/// then (the catalog itself never stops the run).
#[test]
fn xml_catalog_files_is_read_only_with_a_resolving_flag() {
    let dir = TempDir::new("resolving-env");
    let doc = dir.write("doc.xml", "<a/>");
    let not_a_catalog = dir.write("not-a-catalog.xml", "<html/>");
    let run_with = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .arg(&doc)
            .env("XML_CATALOG_FILES", &not_a_catalog)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
    };
    let quiet = run_with(&["check"]);
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(stderr(&quiet), "");
    let folder = dir.path.display().to_string();
    for args in [
        &["check", "--load-dtd"][..],
        &["check", "--dtd-path", &folder],
        &["fmt", "--load-dtd"],
    ] {
        let output = run_with(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(
            stderr(&output),
            format!(
                "xml5dom: warning: catalog {}: the root element is <html>, not a catalog in \
                 the namespace urn:oasis:names:tc:entity:xmlns:xml:catalog\n",
                std::fs::canonicalize(&not_a_catalog).unwrap().display()
            ),
            "{args:?}"
        );
    }
}

/// The fixtures of tests/external/ (issue 35), from the library's tests.
fn external_fixture(name: &str) -> String {
    format!("{}/../tests/external/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A DocBook-XSL-style stylesheet takes its XPath from entities declared in
/// `%common.entities;`, a file in a sibling folder: with `--dtd-path` that
/// folder is read and the entities expand; without it, nothing is read and
/// the references stay, as before.
#[test]
fn dtd_path_reads_the_entities_a_stylesheet_takes_from_a_sibling_folder() {
    let stylesheet = external_fixture("docbook/html/docbook.xsl");
    let common = external_fixture("docbook/common");
    let with = run(&["check", "--dtd-path", &common, &stylesheet]);
    let said = stdout(&with) + &String::from_utf8_lossy(&with.stderr);
    assert_eq!(with.status.code(), Some(0), "{said}");
    for code in [
        "undeclared-entity",
        "entity-in-external-subset",
        "unread-parameter-entity",
    ] {
        assert!(!said.contains(code), "{code}: {said}");
    }
    let tree = stdout(&run(&["tree", "--dtd-path", &common, &stylesheet]));
    assert!(
        tree.contains("translate(substring(normalize-space(concat(primary/@sortas"),
        "{tree}"
    );
    assert!(tree.contains("count(ancestor::node()|$scope)"), "{tree}");
    // The entity with markup made an element.
    assert!(tree.contains("xsl:text"), "{tree}");
    // Unedited, `fmt` writes the references back as they were.
    let formatted = stdout(&run(&["fmt", "--dtd-path", &common, &stylesheet]));
    let source = std::fs::read_to_string(&stylesheet).unwrap();
    assert_eq!(formatted, source);

    let without = run(&["check", &stylesheet]);
    let said = stdout(&without) + &String::from_utf8_lossy(&without.stderr);
    assert!(said.contains("unread-parameter-entity"), "{said}");
    assert!(said.contains("entity-in-external-subset"), "{said}");
    let tree = stdout(&run(&["tree", &stylesheet]));
    assert!(tree.contains("&primary;"), "{tree}");
}

/// A catalog's `rewriteSystem` maps an `http:` system identifier to a
/// local file; without the catalog the identifier is never fetched.
#[test]
fn a_catalog_maps_a_web_identifier_to_a_local_file() {
    let stylesheet = external_fixture("by-catalog.xsl");
    let catalog = external_fixture("catalog.xml");
    let tree = stdout(&run(&["tree", "--catalog", &catalog, &stylesheet]));
    assert!(
        tree.contains("normalize-space(concat(primary/@sortas"),
        "{tree}"
    );
    for args in [
        &["tree"][..],
        &["tree", "--dtd-path", &external_fixture("docbook")],
    ] {
        let output = run_paths(args, &[&stylesheet]);
        let tree = stdout(&output);
        assert!(tree.contains("&primary;"), "{args:?}: {tree}");
    }
}

/// Every probe out of the folder is refused with a warning and the
/// reference kept; the secret beside the folder is never read.
#[test]
fn resolving_probes_out_of_the_folder_are_refused() {
    let probes = external_fixture("allowed/probes.xml");
    let allowed = external_fixture("allowed");
    for args in [
        &["tree", "--dtd-path", &allowed][..],
        &["tree", "--load-dtd"],
        &["canon"],
    ] {
        let output = run_paths(args, &[&probes]);
        let out = stdout(&output);
        assert!(
            !out.contains("SECRET-MARKER") && !out.contains("root:"),
            "{args:?}: {out}"
        );
    }
    let check = run(&["check", "--dtd-path", &allowed, &probes]);
    let said = stdout(&check) + &String::from_utf8_lossy(&check.stderr);
    assert_eq!(
        said.matches("external-resource-unavailable").count(),
        5,
        "{said}"
    );
    let canon = stdout(&run(&["canon", "--dtd-path", &allowed, &probes]));
    assert!(canon.ends_with("|inside</d>"), "{canon}");
    assert!(
        canon.contains("&amp;passwd;|&amp;escape;|&amp;deeper;"),
        "{canon}"
    );
}

/// The podcast feed of `tests/well_known_prefixes`, which uses `itunes:`,
/// `podcast:` and `googleplay:` without declaring them.
fn undeclared_podcast_feed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/well_known_prefixes/podcast-undeclared.xml")
}

/// `fmt` declares a well-known prefix used undeclared with its registered
/// namespace, and the output reads back without the error (`check` is
/// clean) to the same names; `--no-well-known-prefixes` declares the
/// placeholder instead, as for any other prefix. `check` reports the same
/// errors either way.
#[test]
fn fmt_declares_well_known_prefixes_with_their_registered_namespace() {
    let feed = undeclared_podcast_feed();
    let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd";
    let dir = TempDir::new("well-known-prefixes");
    for (flags, namespace) in [
        (&[][..], itunes),
        (
            &["--no-well-known-prefixes"][..],
            "urn:xml5dom:undeclared:itunes",
        ),
    ] {
        let formatted = run_paths(&with_flags(&["fmt"], flags), &[&feed]);
        assert_eq!(formatted.status.code(), Some(0), "{}", stderr(&formatted));
        let output = stdout(&formatted);
        let declared = format!("<itunes:duration xmlns:itunes=\"{namespace}\">12:34");
        assert!(output.contains(&declared), "{output}");
        assert_eq!(
            stderr(&formatted)
                .matches("repaired: undeclared-prefix")
                .count(),
            6,
            "{}",
            stderr(&formatted)
        );
        let written = dir.write("formatted.xml", &output);
        let check = run_paths(&["check"], &[&written]);
        assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
        // The tree of the output is the tree of the source.
        let tree = |path: &Path| stdout(&run_paths(&with_flags(&["tree"], flags), &[path]));
        let source_tree = tree(&feed);
        assert!(
            source_tree.contains(&format!("<{{{namespace}}}itunes:duration>")),
            "{source_tree}"
        );
        let declarations = |tree: &str| {
            tree.lines()
                .filter(|line| !line.contains("{http://www.w3.org/2000/xmlns/}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(declarations(&tree(&written)), declarations(&source_tree));
        // The source is still not well-formed, with the same errors.
        let check = run_paths(&with_flags(&["check"], flags), &[&feed]);
        assert_eq!(check.status.code(), Some(1));
        assert_eq!(
            stdout(&check).matches("unbound-namespace-prefix").count(),
            6,
            "{}",
            stdout(&check)
        );
    }
}
