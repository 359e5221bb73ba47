//! Whole processes side by side (issue 37): any number of programs, each
//! run on the same generated inputs in rounds, for wall time and peak RSS.
//! Where `whole_process` pits one DOM program against roxmltree's, this
//! holds the command line to the library (`xml5dom query 'count(//*)'
//! FILE` against `xml5dom_count FILE`) and builds of one binary against
//! each other (the command line under each allocator).
//!
//! Each argument is one program, `LABEL=PATH ARG...`, split at spaces (no
//! quoting; the file name is added last). The first is the baseline the
//! ratios are taken against. For each shape (records, prose, svg, atom of
//! `benches/inputs.rs`, as `generate` writes them) the input is written to
//! a temporary file, every program is run once untimed (the file in the
//! page cache, the binary loaded), then all of them in rounds, the order
//! rotating by one each round, so that no program always follows the same
//! one. Each run is one process under GNU time (`/usr/bin/time -f %M`, for
//! its peak RSS), its standard output thrown away (what a program writes
//! costs it the writing, not a reader's work); the wall time is measured
//! here around it. A program that exits with a status above 1 stops the
//! run (1 is `check`'s findings, `query`'s nothing found).
//!
//! ```sh
//! cargo build --release -p xml5dom-cli -p bench-tools --bin xml5dom --bin xml5dom_count \
//!     --bin roxmltree_count --bin processes
//! target/release/processes 'count=target/release/xml5dom_count' \
//!     'query=target/release/xml5dom query count(//*)' 'fmt=target/release/xml5dom fmt'
//! XML5DOM_PROCESSES_MB=5 XML5DOM_PROCESSES_RUNS=3 XML5DOM_PROCESSES_SHAPES=records,atom \
//!     target/release/processes ...
//! ```
//!
//! A Markdown table goes to standard output: per shape and program the
//! median wall time, the median of the per-round ratios program / baseline
//! (above 1: slower than the baseline), the median peak RSS in MB of 10^6
//! bytes and its ratio to the baseline's (above 1: more).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

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

/// One program under comparison: its label, binary and the arguments
/// before the file name.
struct Program {
    label: String,
    path: PathBuf,
    args: Vec<String>,
}

impl Program {
    fn from_argument(argument: &str) -> Result<Program, String> {
        let (label, command) = argument
            .split_once('=')
            .ok_or_else(|| format!("{argument:?} is not LABEL=PATH ARG..."))?;
        let mut words = command.split(' ').filter(|w| !w.is_empty());
        let path = PathBuf::from(
            words
                .next()
                .ok_or_else(|| format!("{argument:?}: no program"))?,
        );
        if !path.is_file() {
            return Err(format!("{}: no such file (built?)", path.display()));
        }
        Ok(Program {
            label: label.to_owned(),
            path,
            args: words.map(str::to_owned).collect(),
        })
    }

    /// Runs it on `file`: wall seconds and peak RSS in kilobytes (of 1024
    /// bytes).
    fn run(&self, file: &Path, report: &Path) -> Result<(f64, u64), String> {
        let start = Instant::now();
        let output = Command::new(TIME)
            .args(["-f", "%M", "-o"])
            .arg(report)
            .arg(&self.path)
            .args(&self.args)
            .arg(file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("cannot run {TIME}: {e}"))?;
        let seconds = start.elapsed().as_secs_f64();
        if output.status.code().is_none_or(|code| code > 1) {
            return Err(format!(
                "{} on {} exited with {}: {}",
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
        Ok((seconds, rss_kb))
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
    let programs = std::env::args()
        .skip(1)
        .map(|a| Program::from_argument(&a))
        .collect::<Result<Vec<_>, _>>()?;
    if programs.is_empty() {
        return Err("usage: processes LABEL=PATH[ ARG...] ... (the first is the baseline)".into());
    }
    let megabytes = env_number("XML5DOM_PROCESSES_MB", 20)?;
    let runs = env_number("XML5DOM_PROCESSES_RUNS", 7)?.max(1);
    let shapes: Vec<String> = match std::env::var("XML5DOM_PROCESSES_SHAPES") {
        Ok(list) => list.split(',').map(|s| s.trim().to_owned()).collect(),
        Err(_) => SHAPES.iter().map(|s| (*s).to_owned()).collect(),
    };
    if let Some(unknown) = shapes.iter().find(|s| !SHAPES.contains(&s.as_str())) {
        return Err(format!(
            "XML5DOM_PROCESSES_SHAPES: no shape {unknown:?} (records, prose, svg, atom)"
        ));
    }
    for program in &programs {
        let args: String = program.args.iter().map(|a| format!(" {a}")).collect();
        println!("{}: {}{args} FILE", program.label, program.path.display());
    }
    println!(
        "\n{megabytes} MB per shape, {runs} rounds after one untimed run each, the order \
         rotating; medians; ratios to {} (time: median of per-round ratios; >1: slower, more)\n",
        programs[0].label
    );

    let scratch =
        Scratch(std::env::temp_dir().join(format!("xml5dom-processes-{}", std::process::id())));
    std::fs::create_dir_all(&scratch.0)
        .map_err(|e| format!("cannot create {}: {e}", scratch.0.display()))?;
    let report = scratch.0.join("time.txt");

    println!("| shape | program | median s | time ratio | peak RSS MB | RSS ratio |");
    println!("|---|---|---:|---:|---:|---:|");
    for shape in &shapes {
        let file = scratch.0.join(format!("{shape}.xml"));
        let text = generate(shape, megabytes * 1_000_000);
        std::fs::write(&file, &text)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        drop(text);
        for program in &programs {
            program.run(&file, &report)?;
        }
        // By program: each round's (seconds, kB).
        let mut results: Vec<Vec<(f64, u64)>> = vec![Vec::new(); programs.len()];
        for round in 0..runs {
            for turn in 0..programs.len() {
                let index = (round + turn) % programs.len();
                results[index].push(programs[index].run(&file, &report)?);
            }
        }
        std::fs::remove_file(&file)
            .map_err(|e| format!("cannot remove {}: {e}", file.display()))?;
        let base = &results[0];
        let base_rss = median(&base.iter().map(|r| r.1 as f64).collect::<Vec<_>>());
        for (program, runs) in programs.iter().zip(&results) {
            let seconds = median(&runs.iter().map(|r| r.0).collect::<Vec<_>>());
            let ratios: Vec<f64> = runs.iter().zip(base).map(|(r, b)| r.0 / b.0).collect();
            let rss = median(&runs.iter().map(|r| r.1 as f64).collect::<Vec<_>>());
            println!(
                "| {shape} | {} | {seconds:.3} | {:.2}x | {:.1} | {:.2}x |",
                program.label,
                median(&ratios),
                rss * 1024.0 / 1e6,
                rss / base_rss,
            );
        }
    }
    Ok(())
}

fn main() {
    if let Err(message) = run() {
        eprintln!("processes: {message}");
        std::process::exit(1);
    }
}
