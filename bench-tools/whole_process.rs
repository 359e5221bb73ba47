//! Whole-process comparison (issue 18): what a user of a tool built on the
//! DOM waits for, reading the file, decoding, building the tree and freeing
//! at exit, against a roxmltree program doing the same (`roxmltree_count`).
//! The xml5dom side is `xml5dom_count` (the same program on a `Document`):
//! `xml5dom check` streams since issue 19 and builds no tree.
//!
//! For each generated shape (records, prose, svg, atom: `benches/inputs.rs`,
//! the generator of `bench-tools/generate.rs`) the input is written to a
//! temporary file, each binary is run once untimed (to have the file in the
//! page cache), then `xml5dom_count FILE` and `roxmltree_count FILE` are run
//! in alternating pairs (the order within a pair alternating too). Each run
//! is one process under GNU time (`/usr/bin/time -f %M`), which reports the
//! peak resident set size; the wall time is measured here around it, to the
//! microsecond (`time`'s own `%e` has centiseconds; its start adds the same
//! fraction of a millisecond on both sides).
//! A Markdown table goes to standard output.
//!
//! ```sh
//! cargo build --release -p bench-tools --bin xml5dom_count --bin roxmltree_count
//! cargo run --release -p bench-tools --bin whole_process       # 20 MB per shape, 7 pairs
//! XML5DOM_WHOLE_MB=5 XML5DOM_WHOLE_RUNS=3 XML5DOM_WHOLE_SHAPES=records,atom \
//!     cargo run --release -p bench-tools --bin whole_process
//! ```
//!
//! The binaries are looked up in `target/release` of the target directory
//! this runner was built in; `XML5DOM_WHOLE_XML5DOM` and
//! `XML5DOM_WHOLE_ROXMLTREE` name others (to compare builds of other
//! profiles against one peer). GNU time is needed: the peak RSS of a child
//! cannot be read after it has exited without `wait4`, which std does not
//! offer, and `getrusage(RUSAGE_CHILDREN)` gives only the largest child so
//! far. Both must print a count; anything else stops the run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

#[path = "../benches/inputs.rs"]
mod inputs;

const TIME: &str = "/usr/bin/time";
const SHAPES: [&str; 4] = ["records", "prose", "svg", "atom"];

fn env_number(name: &str, default: usize) -> Result<usize, String> {
    match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(value) => value
            .parse()
            .map_err(|_| format!("{name}={value:?} is not a number")),
    }
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    sorted[sorted.len() / 2]
}

/// The temporary directory of the generated inputs, removed on the way out.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One binary under comparison and the arguments before the file name.
struct Program {
    label: &'static str,
    path: PathBuf,
    args: &'static [&'static str],
}

/// One run: wall seconds, peak RSS in kilobytes (of 1024 bytes), stdout.
struct Run {
    seconds: f64,
    rss_kb: u64,
    stdout: String,
}

impl Program {
    fn located(
        label: &'static str,
        variable: &str,
        default: PathBuf,
        args: &'static [&'static str],
    ) -> Result<Program, String> {
        let path = std::env::var_os(variable).map_or(default, PathBuf::from);
        if !path.is_file() {
            return Err(format!(
                "{} is not built (or {variable} names no file); from the workspace root run\n    \
                 cargo build --release -p bench-tools --bin xml5dom_count --bin roxmltree_count",
                path.display()
            ));
        }
        Ok(Program { label, path, args })
    }

    fn describe(&self) -> String {
        let age = std::fs::metadata(&self.path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .map_or(String::new(), |d| {
                format!(" (built {} min ago)", d.as_secs() / 60)
            });
        let args: String = self.args.iter().map(|a| format!(" {a}")).collect();
        format!("{}{args} FILE{age}", self.path.display())
    }

    fn run(&self, file: &Path, report: &Path) -> Result<Run, String> {
        let start = Instant::now();
        let output = Command::new(TIME)
            .args(["-f", "%M", "-o"])
            .arg(report)
            .arg(&self.path)
            .args(self.args)
            .arg(file)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {TIME}: {e}"))?;
        let seconds = start.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        if !output.status.success() {
            return Err(format!(
                "{} on {} exited with {}; its output:\n{stdout}{}",
                self.label,
                file.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let report = std::fs::read_to_string(report)
            .map_err(|e| format!("cannot read {TIME}'s report {}: {e}", report.display()))?;
        let rss_kb = report
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())
            .and_then(|line| line.trim().parse().ok())
            .ok_or_else(|| format!("{TIME} reported {report:?}, not a number of kilobytes"))?;
        Ok(Run {
            seconds,
            rss_kb,
            stdout,
        })
    }
}

fn generate(shape: &str, size: usize) -> String {
    match shape {
        "records" => inputs::records(size),
        "prose" => inputs::prose(size),
        "svg" => inputs::svg(size),
        "atom" => inputs::atom(size),
        _ => unreachable!("shapes are checked before"),
    }
}

fn run() -> Result<(), String> {
    let megabytes = env_number("XML5DOM_WHOLE_MB", 20)?;
    let runs = env_number("XML5DOM_WHOLE_RUNS", 7)?.max(1);
    let shapes: Vec<String> = match std::env::var("XML5DOM_WHOLE_SHAPES") {
        Ok(list) => list.split(',').map(|s| s.trim().to_owned()).collect(),
        Err(_) => SHAPES.iter().map(|s| (*s).to_owned()).collect(),
    };
    if let Some(unknown) = shapes.iter().find(|s| !SHAPES.contains(&s.as_str())) {
        return Err(format!(
            "XML5DOM_WHOLE_SHAPES: no shape {unknown:?} (records, prose, svg, atom)"
        ));
    }
    let time_ok = Command::new(TIME)
        .args(["-f", "%M", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !time_ok {
        return Err(format!(
            "{TIME} (GNU time, with -f) is needed for each run's peak RSS \
             (Debian: apt-get install time)"
        ));
    }

    // target/<profile>/whole_process -> target/release
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let release = exe
        .ancestors()
        .nth(2)
        .ok_or("cannot find the target directory")?
        .join("release");
    let ours = Program::located(
        "xml5dom_count",
        "XML5DOM_WHOLE_XML5DOM",
        release.join("xml5dom_count"),
        &[],
    )?;
    let peer = Program::located(
        "roxmltree_count",
        "XML5DOM_WHOLE_ROXMLTREE",
        release.join("roxmltree_count"),
        &[],
    )?;
    println!("xml5dom:   {}", ours.describe());
    println!("roxmltree: {}", peer.describe());
    println!(
        "{megabytes} MB per shape, {runs} alternating pairs after one untimed run each; \
         wall time and peak RSS (GNU time's %M) per process; times are medians, the time \
         ratio is the median of per-pair ratios roxmltree / xml5dom (>1: xml5dom faster), \
         RSS in MB of 10^6 bytes, RSS ratio xml5dom / roxmltree (>1: xml5dom uses more)\n"
    );

    let scratch =
        Scratch(std::env::temp_dir().join(format!("xml5dom-whole-{}", std::process::id())));
    std::fs::create_dir_all(&scratch.0)
        .map_err(|e| format!("cannot create {}: {e}", scratch.0.display()))?;
    let report = scratch.0.join("time.txt");

    println!(
        "| shape | MB | xml5dom median s | roxmltree median s | time ratio roxmltree / xml5dom | xml5dom peak RSS MB | roxmltree peak RSS MB | RSS ratio xml5dom / roxmltree |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for shape in &shapes {
        let file = scratch.0.join(format!("{shape}.xml"));
        let text = generate(shape, megabytes * 1_000_000);
        let mb = text.len() as f64 / 1e6;
        std::fs::write(&file, &text)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        drop(text);

        ours.run(&file, &report)?;
        let count = peer.run(&file, &report)?.stdout;
        if count.trim().parse::<u64>().is_err() {
            return Err(format!(
                "roxmltree_count printed {count:?} for {shape}, not a count"
            ));
        }
        let (mut ours_runs, mut peer_runs) = (Vec::new(), Vec::new());
        for pair in 0..runs {
            if pair % 2 == 0 {
                ours_runs.push(ours.run(&file, &report)?);
                peer_runs.push(peer.run(&file, &report)?);
            } else {
                peer_runs.push(peer.run(&file, &report)?);
                ours_runs.push(ours.run(&file, &report)?);
            }
        }
        std::fs::remove_file(&file)
            .map_err(|e| format!("cannot remove {}: {e}", file.display()))?;

        let seconds = |runs: &[Run]| median(&runs.iter().map(|r| r.seconds).collect::<Vec<_>>());
        let rss_mb = |runs: &[Run]| {
            median(&runs.iter().map(|r| r.rss_kb as f64).collect::<Vec<_>>()) * 1024.0 / 1e6
        };
        let ratios: Vec<f64> = ours_runs
            .iter()
            .zip(&peer_runs)
            .map(|(o, p)| p.seconds / o.seconds)
            .collect();
        let (ours_rss, peer_rss) = (rss_mb(&ours_runs), rss_mb(&peer_runs));
        println!(
            "| {shape} | {mb:.1} | {:.3} | {:.3} | {:.2}x | {ours_rss:.1} | {peer_rss:.1} | {:.2}x |",
            seconds(&ours_runs),
            seconds(&peer_runs),
            median(&ratios),
            ours_rss / peer_rss,
        );
    }
    Ok(())
}

fn main() {
    if let Err(message) = run() {
        eprintln!("whole_process: {message}");
        std::process::exit(1);
    }
}
