//! The command-line examples of README.md and docs/*.md, run against the
//! built binary: an example whose output changed fails `cargo test`.
//!
//! Every fenced block whose info string is `console` is a transcript: each
//! line starting with `$ ` is a command (a line ending in `\` goes on with
//! the next), and the lines after it, up to the next command or the end of
//! the block, are what it writes, standard output and standard error as
//! one stream, in the order written. The command runs in `sh`, with the
//! built `xml5dom` first on `PATH`, in a scratch directory holding a copy of
//! `examples/data/` (so `examples/data/feed.xml` names the bundled file and
//! an example that writes cannot touch the repository). The exit status is
//! not compared unless the transcript shows it (`; echo $?`). Commands that
//! need files not in the repository, or the network, or take long, belong
//! in `sh` blocks, which are not run.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A command that runs longer is stopped and fails (a hang guard, not a
/// timing: every example takes milliseconds).
const HANG_GUARD: Duration = Duration::from_secs(60);

#[derive(Debug)]
struct Example {
    /// The Markdown file and line of the `$ ` line.
    place: String,
    command: String,
    expected: String,
}

/// The commands of one `console` block, which run in one shell (so that
/// `$ echo $?` reads the status of the command before it).
type Block = Vec<Example>;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is inside the repository")
        .to_path_buf()
}

/// README.md and every docs/*.md, in name order.
fn documents() -> Vec<PathBuf> {
    let root = repository();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    files.sort();
    files.insert(0, root.join("README.md"));
    files
}

/// The transcripts of one Markdown text.
fn blocks(name: &str, text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_console = false;
    let mut lines = text.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            if in_console {
                blocks.push(Vec::new());
            }
            continue;
        }
        let block = blocks.last_mut().expect("the open block");
        if line.trim_end() == "```" {
            in_console = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            let mut command = command.to_owned();
            while command.ends_with('\\') {
                let (_, next) = lines.next().expect("a command's continued line");
                command.push('\n');
                command.push_str(next);
            }
            block.push(Example {
                place: format!("{name}:{}", index + 1),
                command,
                expected: String::new(),
            });
        } else {
            let example = block
                .last_mut()
                .unwrap_or_else(|| panic!("{name}:{}: output before any `$ ` command", index + 1));
            example.expected.push_str(line);
            example.expected.push('\n');
        }
    }
    assert!(!in_console, "{name}: a console block is not closed");
    blocks
}

/// A scratch directory with a copy of examples/data/.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xml5dom-console-{}", std::process::id()));
    let data = dir.join("examples").join("data");
    std::fs::create_dir_all(&data).expect("a scratch directory");
    for entry in std::fs::read_dir(repository().join("examples").join("data")).expect("data") {
        let path = entry.expect("an examples/data entry").path();
        std::fs::copy(&path, data.join(path.file_name().expect("a name"))).expect("a copy");
    }
    dir
}

/// Separates the outputs of a block's commands (written with no line end,
/// so that an output without one stays as it is).
const MARK: &str = "\u{1}xml5dom-console-example-ends\u{1}";

/// Runs a block's commands one after the other in one shell and returns
/// each one's output. Standard error joins standard output (`exec 2>&1`
/// first, so that every command of a pipe or list writes to the one
/// stream); the status of each command is kept across the mark written
/// after it.
fn run(block: &Block, dir: &Path) -> Result<Vec<String>, String> {
    let binary = Path::new(env!("CARGO_BIN_EXE_xml5dom"));
    let mut path = binary
        .parent()
        .expect("the binary's directory")
        .as_os_str()
        .to_owned();
    if let Some(old) = std::env::var_os("PATH") {
        path.push(":");
        path.push(old);
    }
    let mut script = String::from("exec 2>&1\n");
    for example in block {
        script.push_str(&example.command);
        script.push_str(&format!(
            "\nstatus=$?\nprintf '%s' '{MARK}'\n(exit $status)\n"
        ));
    }
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("sh: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let read = stdout.read_to_end(&mut bytes);
        let _ = sender.send(read.map(|_| bytes));
    });
    let bytes = match receiver.recv_timeout(HANG_GUARD) {
        Ok(read) => read.map_err(|e| format!("reading the output: {e}"))?,
        Err(_) => {
            let _ = child.kill();
            return Err(format!("still running after {HANG_GUARD:?}"));
        }
    };
    child.wait().map_err(|e| format!("waiting: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| format!("output is not UTF-8: {e}"))?;
    let mut outputs: Vec<String> = text.split(MARK).map(str::to_owned).collect();
    if outputs.pop().as_deref() != Some("") || outputs.len() != block.len() {
        return Err(format!("the shell stopped early; it wrote:\n{text}"));
    }
    // A transcript shows an output that ends without a line end as a whole
    // line: the terminal's next prompt would start on it.
    for output in &mut outputs {
        if !output.is_empty() && !output.ends_with('\n') {
            output.push('\n');
        }
    }
    Ok(outputs)
}

#[test]
fn transcripts_parse() {
    let text = "text\n```console\n$ a \\\n  b\nout 1\n\nout 2\n$ c\n```\n```sh\n$ d\n```\n";
    let found = blocks("t.md", text);
    assert_eq!(found.len(), 1);
    let block = &found[0];
    assert_eq!(block.len(), 2);
    assert_eq!(block[0].place, "t.md:3");
    assert_eq!(block[0].command, "a \\\n  b");
    assert_eq!(block[0].expected, "out 1\n\nout 2\n");
    assert_eq!(
        (block[1].command.as_str(), block[1].expected.as_str()),
        ("c", "")
    );
}

/// The harness itself: outputs are told apart, statuses carry over to
/// `echo $?`, standard error is in the stream, an output without a line
/// end is taken as a line.
#[test]
fn a_block_runs_in_one_shell() {
    let text = "```console\n$ printf 'a'; false\n$ echo $?\n$ echo e >&2\n```\n";
    let block = &blocks("t.md", text)[0];
    let outputs = run(block, &std::env::temp_dir()).expect("sh runs");
    assert_eq!(outputs, ["a\n", "1\n", "e\n"]);
}

#[test]
fn console_examples_of_the_docs_match_the_binary() {
    let dir = scratch();
    let mut count = 0;
    let mut failures: Vec<String> = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).expect("a Markdown file");
        let name = file
            .strip_prefix(repository())
            .expect("in the repository")
            .display();
        for block in blocks(&name.to_string(), &text) {
            count += block.len();
            let outputs = match run(&block, &dir) {
                Ok(outputs) => outputs,
                Err(problem) => {
                    failures.push(format!("{}: {problem}", block[0].place));
                    continue;
                }
            };
            for (example, actual) in block.iter().zip(outputs) {
                if actual != example.expected {
                    failures.push(format!(
                        "{}: $ {}\n{}",
                        example.place,
                        example.command,
                        pretty_assertions::StrComparison::new(&example.expected, &actual)
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{count} console examples run");
    // README and the docs have 23: fewer means the reader broke.
    assert!(count >= 20, "only {count} console examples found");
    assert!(
        failures.is_empty(),
        "{} of {count} console examples differ (expected, then actual):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
