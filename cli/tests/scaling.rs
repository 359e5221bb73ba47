//! Hang detectors for issue 16 through the command line: the shapes of
//! `tests/common/shapes.rs` that stress the `xml5dom` binary most (a debug
//! build), each under a generous wall-clock guard (30 s) that turns a hang
//! into a failure naming the shape and the subcommand. Not speed
//! measurements: `cargo run --release -p bench-tools --bin scaling` gives the ratios.
//! The library's own hang detectors are in `tests/scaling.rs`.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::shapes;

/// The wall-clock guard of each case.
const GUARD: Duration = Duration::from_secs(30);

/// Units per shape in process in `tests/scaling.rs`.
const N: usize = 100_000;

/// Units per shape through the command line (a debug binary, and `check`
/// writes a snippet per error): 10^9 steps, still far past the guard if
/// quadratic (but for fast scans: see `cli::stray_end_fmt`).
const N_CLI: usize = 30_000;

/// A temporary file, removed when dropped.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs the CLI with `args` on the shape `name` at size `n`, output to
/// `/dev/null`, killed and failed at the guard.
fn cli(name: &'static str, n: usize, args: &[&str]) {
    let what = format!("{name} at {n} × xml5dom {}", args.join(" "));
    let file_name: String = format!(
        "xml5dom-scaling-{}-{name}-{}",
        std::process::id(),
        args.join("-")
    )
    .chars()
    .map(|c| {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            c
        } else {
            '_'
        }
    })
    .collect();
    let input = TempFile(std::env::temp_dir().join(file_name + ".xml"));
    std::fs::write(&input.0, (shapes::shape(name).generate)(n)).expect("write the input");
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xml5dom"))
        .args(args)
        .arg(&input.0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start xml5dom");
    loop {
        if let Some(status) = child.try_wait().expect("wait for xml5dom") {
            assert!(
                matches!(status.code(), Some(0 | 1)),
                "{what}: ended with {status}"
            );
            return;
        }
        if start.elapsed() > GUARD {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{what}: still running after {} s (a hang, or work growing faster than the \
                 input; issue 16)",
                GUARD.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The command line on the shapes that stress it most.
mod cli {
    use super::*;

    #[test]
    fn bare_amp_check() {
        cli("bare_amp", N_CLI, &["check"]);
    }

    #[test]
    fn bare_amp_check_json() {
        cli("bare_amp", N_CLI, &["check", "--format", "json"]);
    }

    #[test]
    fn bare_amp_fmt_pretty() {
        cli("bare_amp", N_CLI, &["fmt", "--pretty"]);
    }

    /// 400,000 repairs: the quadratic work this catches is a fast scan
    /// (`str::chars().count()`, about 3 s at 100,000 in a release build).
    #[test]
    fn stray_end_fmt() {
        cli("stray_end", 4 * N, &["fmt"]);
    }

    /// Each title of a feed with a bare `&` in each printed: one write per
    /// title, each in proportion to the title (issue 30: each took in the
    /// whole document's errors). Twice [`N_CLI`]: each write is a small
    /// step, which a debug build takes 60,000 of in a few seconds.
    #[test]
    fn damaged_feed_query_nodes() {
        cli("damaged_feed", 2 * N_CLI, &["query", "//title"]);
    }

    #[test]
    fn deep_plain_fmt_pretty() {
        cli("deep_plain", N_CLI, &["fmt", "--pretty"]);
    }

    #[test]
    fn deep_plain_tree() {
        cli("deep_plain", N_CLI, &["tree"]);
    }
}
