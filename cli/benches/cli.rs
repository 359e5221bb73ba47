//! The command line over many files: `xml5dom check -r DIR` on 1,000 small
//! documents (a few KB each, about half of them with parse errors), with
//! one job and with the default (one per core), the built binary run as a
//! user runs it. The ratio of the two is the parallel speed-up.
//!
//! `cargo bench --bench cli` runs it; without `--bench` (as `cargo test`
//! runs it) it checks 20 files once each way.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use criterion::Criterion;

const BIN: &str = env!("CARGO_BIN_EXE_xml5dom");

/// A directory of `count` small documents in two subdirectories.
fn make_files(count: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xml5dom-bench-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["feeds", "configs"] {
        std::fs::create_dir_all(dir.join(sub)).expect("a temporary directory");
    }
    for i in 0..count {
        let mut text = String::from(
            "<?xml version=\"1.0\"?>\n<feed xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n",
        );
        for j in 0..20 {
            // Every other file has an unquoted value and a bare `&`.
            if i % 2 == 0 && j == 7 {
                text.push_str(&format!(
                    "  <entry id={j}><title>Tom & Jerry {i}</title></entry>\n"
                ));
            } else {
                text.push_str(&format!(
                    "  <entry id=\"{j}\"><title>Entry {j} of file {i}</title><dc:creator>Someone</dc:creator><summary>Some text, &amp; more text.</summary></entry>\n"
                ));
            }
        }
        text.push_str("</feed>\n");
        let sub = if i % 3 == 0 { "configs" } else { "feeds" };
        std::fs::write(dir.join(sub).join(format!("doc-{i:04}.xml")), text)
            .expect("a written file");
    }
    dir
}

/// Runs `xml5dom check -r DIR` (with `--jobs N` if given); exit status 1
/// (errors found) is expected.
fn check(dir: &Path, jobs: Option<usize>) {
    let mut command = Command::new(BIN);
    command.args(["check", "-q", "-r"]);
    if let Some(jobs) = jobs {
        command.args(["--jobs", &jobs.to_string()]);
    }
    let status = command
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the xml5dom binary runs");
    assert_eq!(status.code(), Some(1));
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let count = if full { 1_000 } else { 20 };
    let dir = make_files(count);
    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group(format!("check -r, {count} files"));
    if full {
        group.sample_size(20);
    }
    group.bench_function("--jobs 1", |b| b.iter(|| check(&dir, Some(1))));
    group.bench_function("default jobs", |b| b.iter(|| check(&dir, None)));
    group.finish();
    criterion.final_summary();
    let _ = std::fs::remove_dir_all(&dir);
}
