//! The scaling table of issue 16: for every generated shape
//! (`tests/common/shapes.rs`) at sizes `n` and `8n`, the time of each
//! subcommand of the release binary at `8n` over its time at `n`. Linear
//! work gives about 8; a ratio above 12 is flagged.
//!
//! ```sh
//! cargo build --release && cargo run --release -p bench-tools --bin scaling
//! XML5DOM_SCALING_N=20000 XML5DOM_SCALING_SHAPES=deep_plain,bare_amp cargo run --release -p bench-tools --bin scaling
//! ```
//!
//! Each run is a whole process (`target/release/xml5dom`, beside this
//! program), writing to `/dev/null`; runs under a second
//! are taken three times and the best kept. `parse` is `Document::parse`
//! in process (in a child process running this program, so that it can be
//! stopped too, and timed without reading the file or dropping the tree).
//! A run that takes longer than the cap is killed and shown as `timeout`
//! (its ratio as `> cap / t(n)`; at `8n` the cap is raised to 13 t(n)
//! where that is longer, so that a timeout always means a ratio above 12);
//! one that runs out of the memory cap aborts and shows as failed; so the
//! benchmark never hangs or takes the machine's memory. When the run at `n`
//! does not finish, the one at `8n` is not tried.
//!
//! Settings (environment variables):
//!
//! * `XML5DOM_SCALING_N`: `n` (default 100,000 units: errors, levels,
//!   attributes, elements or characters, as each shape says);
//! * `XML5DOM_SCALING_SHAPES`: the shapes to run, comma-separated (default
//!   all);
//! * `XML5DOM_SCALING_COLUMNS`: the columns to run, comma-separated
//!   (`parse`, `check`, `check json`, `fmt`, `fmt --pretty`, `canon`,
//!   `tree`, `tokens`, `query`, `query nodes`, `stats`; default all);
//! * `XML5DOM_SCALING_TIMEOUT`: the cap per run in seconds (default 60;
//!   at `8n`, at least 13 times the time at `n`);
//! * `XML5DOM_SCALING_MEMORY_MB`: the address-space cap per run in MiB
//!   (`ulimit -v`; default 4096, 0 for none).
//!
//! The table is markdown, on standard output; progress goes to standard
//! error.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use xml5dom::Document;

#[path = "../tests/common/shapes.rs"]
mod shapes;

/// The subcommands timed, with their arguments (the file comes last).
const SUBCOMMANDS: &[(&str, &[&str])] = &[
    ("check", &["check"]),
    ("check json", &["check", "--format", "json"]),
    ("fmt", &["fmt"]),
    ("fmt --pretty", &["fmt", "--pretty"]),
    ("canon", &["canon"]),
    ("tree", &["tree"]),
    ("tokens", &["tokens"]),
    ("query", &["query", "count(//*)"]),
    // Each element without element children printed, one write each.
    ("query nodes", &["query", "//*[not(*)]"]),
    ("stats", &["stats"]),
];

/// The column of the in-process parse.
const PARSE: &str = "parse";

/// Ratios above this are flagged (linear gives about 8).
const FLAG: f64 = 12.0;

/// Runs shorter than this are repeated, and the best of three kept.
const SHORT: f64 = 1.0;

/// How one measurement ended.
#[derive(Clone, Debug)]
enum Outcome {
    /// Seconds (the best of the runs).
    Time(f64),
    /// Killed at the cap, after this many seconds.
    Timeout(f64),
    /// Ended otherwise than with status 0 or 1 (a crash, or the memory cap).
    Failed(String),
    /// Not run, because the run at `n` did not finish.
    NotRun,
}

struct Settings {
    n: usize,
    timeout: Duration,
    memory_mb: u64,
    binary: PathBuf,
    this: PathBuf,
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(value) => value
            .replace(['_', ','], "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={value}: not a number")),
        Err(_) => default,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "--parse" {
        parse_worker(Path::new(&args[2]));
        return;
    }

    let this = std::env::current_exe().expect("the program's own path");
    // target/<profile>/scaling -> target/<profile>/xml5dom
    let profile_dir = this
        .parent()
        .expect("the program runs from target/<profile>");
    let binary = profile_dir.join(format!("xml5dom{}", std::env::consts::EXE_SUFFIX));
    if !binary.is_file() {
        eprintln!(
            "error: {} is missing: build the binary first, with `cargo build --release` \
             (then `cargo run --release -p bench-tools --bin scaling`)",
            binary.display()
        );
        std::process::exit(2);
    }
    if !profile_dir.ends_with("release") {
        eprintln!(
            "warning: timing {}, not a release build: run `cargo build --release && \
             cargo run --release -p bench-tools --bin scaling`",
            binary.display()
        );
    }

    let settings = Settings {
        n: env_number("XML5DOM_SCALING_N", 100_000).max(1) as usize,
        timeout: Duration::from_secs(env_number("XML5DOM_SCALING_TIMEOUT", 60).max(1)),
        memory_mb: env_number("XML5DOM_SCALING_MEMORY_MB", 4096),
        binary,
        this,
    };
    let chosen: Option<Vec<String>> = std::env::var("XML5DOM_SCALING_SHAPES")
        .ok()
        .map(|list| list.split(',').map(|s| s.trim().to_owned()).collect());
    let shapes: Vec<&shapes::Shape> = match &chosen {
        Some(names) => names.iter().map(|name| shapes::shape(name)).collect(),
        None => shapes::SHAPES.iter().collect(),
    };

    let dir = std::env::temp_dir().join(format!("xml5dom-scaling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create the temporary directory");

    let mut columns = vec![PARSE];
    columns.extend(SUBCOMMANDS.iter().map(|(name, _)| *name));
    if let Ok(list) = std::env::var("XML5DOM_SCALING_COLUMNS") {
        let chosen: Vec<&str> = list.split(',').map(str::trim).collect();
        for name in &chosen {
            assert!(columns.contains(name), "no column {name:?}: {columns:?}");
        }
        columns.retain(|column| chosen.contains(column));
    }
    let mut rows = Vec::new();
    let started = Instant::now();
    for shape in &shapes {
        let small = write_input(&dir, shape, settings.n, "n");
        let large = write_input(&dir, shape, 8 * settings.n, "8n");
        let bytes = file_len(&large);
        let mut cells = Vec::new();
        for column in &columns {
            let args: Vec<&str> = SUBCOMMANDS
                .iter()
                .find(|(name, _)| name == column)
                .map_or(&[][..], |(_, args)| args)
                .to_vec();
            let at_n = measure(&settings, column, &args, &small, settings.timeout);
            let at_8n = match at_n {
                Outcome::Time(t) => {
                    // Long enough that a timeout means a ratio above FLAG.
                    let cap = settings
                        .timeout
                        .max(Duration::from_secs_f64(t * (FLAG + 1.0)));
                    measure(&settings, column, &args, &large, cap)
                }
                _ => Outcome::NotRun,
            };
            eprintln!(
                "{:>18} {:>12}: n {:>10}, 8n {:>10}, ratio {}",
                shape.name,
                column,
                short(&at_n),
                short(&at_8n),
                ratio_text(&at_n, &at_8n)
            );
            cells.push((at_n, at_8n));
        }
        let _ = std::fs::remove_file(&small);
        let _ = std::fs::remove_file(&large);
        rows.push((shape, bytes, cells));
    }
    let _ = std::fs::remove_dir(&dir);

    println!(
        "n = {} and 8n = {} units; each cell is t(8n)/t(n) and t(8n); linear is about 8, \
         **bold** above {FLAG}; cap {} s (at 8n, at least 13 t(n)) and {} per run; best of 3 runs under {SHORT} s; \
         `parse` is `Document::parse` in process ({:.0} s in all)",
        settings.n,
        8 * settings.n,
        settings.timeout.as_secs(),
        if settings.memory_mb == 0 {
            "no memory cap".to_owned()
        } else {
            format!("{} MiB", settings.memory_mb)
        },
        started.elapsed().as_secs_f64()
    );
    println!();
    let mut header = "| shape | bytes at 8n |".to_owned();
    let mut rule = "| --- | ---: |".to_owned();
    for column in &columns {
        header.push_str(&format!(" {column} |"));
        rule.push_str(" ---: |");
    }
    println!("{header}\n{rule}");
    let mut flagged = Vec::new();
    for (shape, bytes, cells) in &rows {
        let mut line = format!("| {} | {} |", shape.name, bytes);
        for (column, (at_n, at_8n)) in columns.iter().zip(cells) {
            let cell = cell(at_n, at_8n);
            if ratio(at_n, at_8n).is_none_or(|r| r > FLAG) {
                flagged.push(format!(
                    "{} × {}: {} (n: {}, 8n: {})",
                    shape.name,
                    column,
                    ratio_text(at_n, at_8n),
                    short(at_n),
                    short(at_8n)
                ));
            }
            line.push_str(&format!(" {cell} |"));
        }
        println!("{line}");
    }
    println!();
    if flagged.is_empty() {
        println!("Every ratio is at most {FLAG}.");
    } else {
        println!("Above {FLAG} (or not finished):");
        println!();
        for line in &flagged {
            println!("- {line}");
        }
    }
}

/// Writes `shape` at size `n` into `dir`.
fn write_input(dir: &Path, shape: &shapes::Shape, n: usize, label: &str) -> PathBuf {
    let path = dir.join(format!("{}-{label}.xml", shape.name));
    std::fs::write(&path, (shape.generate)(n)).expect("write the input");
    path
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The ratio as text: `> R` when the run at `8n` was stopped (R being the
/// cap over `t(n)`), `-` when the run at `n` did not finish.
fn ratio_text(at_n: &Outcome, at_8n: &Outcome) -> String {
    match (at_n, at_8n) {
        (Outcome::Time(small), Outcome::Timeout(cap)) => {
            format!("> {:.0}", cap / small.max(1e-6))
        }
        _ => ratio(at_n, at_8n).map_or_else(|| "-".to_owned(), |r| format!("{r:.1}")),
    }
}

/// `t(8n)/t(n)`, when both finished.
fn ratio(at_n: &Outcome, at_8n: &Outcome) -> Option<f64> {
    match (at_n, at_8n) {
        (Outcome::Time(small), Outcome::Time(large)) => Some(large / small.max(1e-6)),
        _ => None,
    }
}

fn short(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Time(t) => seconds(*t),
        Outcome::Timeout(t) => format!("timeout at {}", seconds(*t)),
        Outcome::Failed(why) => format!("failed ({why})"),
        Outcome::NotRun => "not run".to_owned(),
    }
}

fn seconds(t: f64) -> String {
    if t < 0.1 {
        format!("{:.1} ms", t * 1000.0)
    } else {
        format!("{t:.2} s")
    }
}

fn cell(at_n: &Outcome, at_8n: &Outcome) -> String {
    match (at_n, at_8n) {
        (Outcome::Time(_), Outcome::Time(large)) => {
            let r = ratio(at_n, at_8n).expect("both timed");
            if r > FLAG {
                format!("**{r:.1}** ({})", seconds(*large))
            } else {
                format!("{r:.1} ({})", seconds(*large))
            }
        }
        (Outcome::Time(_), Outcome::Timeout(_)) => {
            format!("**{}** ({})", ratio_text(at_n, at_8n), short(at_8n))
        }
        (Outcome::Time(small), other) => {
            format!("**{}** at 8n (n: {})", short(other), seconds(*small))
        }
        (other, _) => format!("**{}** at n", short(other)),
    }
}

/// The best of up to three runs of one column on one file.
fn measure(
    settings: &Settings,
    column: &str,
    args: &[&str],
    file: &Path,
    cap: Duration,
) -> Outcome {
    let mut best: Option<f64> = None;
    for _ in 0..3 {
        let outcome = if column == PARSE {
            run_parse(settings, file, cap)
        } else {
            let mut command = capped(settings, &settings.binary);
            command.args(args).arg(file);
            run(command, false, cap).0
        };
        match outcome {
            Outcome::Time(t) => {
                best = Some(best.map_or(t, |b: f64| b.min(t)));
                if t >= SHORT {
                    break;
                }
            }
            other => return other,
        }
    }
    Outcome::Time(best.expect("at least one run"))
}

/// A command for `program` under the memory cap (through `sh -c 'ulimit
/// -v'`, which then execs it, so that the child is the program itself).
fn capped(settings: &Settings, program: &Path) -> Command {
    if settings.memory_mb == 0 || !cfg!(unix) {
        return Command::new(program);
    }
    let mut command = Command::new("/bin/sh");
    command
        .arg("-c")
        .arg("ulimit -v \"$1\" && shift && exec \"$@\"")
        .arg("sh")
        .arg((settings.memory_mb * 1024).to_string())
        .arg(program);
    command
}

/// Runs `command` with standard output and error to `/dev/null` (or
/// standard output to a pipe, when `capture`), killing it at the cap.
/// Returns how it ended, and the child when it ended by itself.
fn run(mut command: Command, capture: bool, cap: Duration) -> (Outcome, Option<Child>) {
    command
        .stdin(Stdio::null())
        .stdout(if capture {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::null());
    let start = Instant::now();
    let mut child = command.spawn().expect("start the binary");
    loop {
        if let Some(status) = child.try_wait().expect("wait for the binary") {
            let elapsed = start.elapsed().as_secs_f64();
            let outcome = match status.code() {
                Some(0) | Some(1) => Outcome::Time(elapsed),
                _ => Outcome::Failed(describe(status)),
            };
            return (outcome, Some(child));
        }
        let elapsed = start.elapsed();
        if elapsed > cap {
            let _ = child.kill();
            let _ = child.wait();
            return (Outcome::Timeout(elapsed.as_secs_f64()), None);
        }
        // Poll often at first, then at about 1% of the time so far.
        let pause = (elapsed / 100).clamp(Duration::from_micros(50), Duration::from_millis(5));
        std::thread::sleep(pause);
    }
}

fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            // An allocation refused under the memory cap aborts.
            return if signal == 6 {
                "abort: memory cap?".to_owned()
            } else {
                format!("signal {signal}")
            };
        }
    }
    match status.code() {
        Some(code) => format!("exit {code}"),
        None => status.to_string(),
    }
}

/// Times `Document::parse` in a child process running [`parse_worker`]:
/// the time it reports, not the process's.
fn run_parse(settings: &Settings, file: &Path, cap: Duration) -> Outcome {
    let mut command = capped(settings, &settings.this);
    command.arg("--parse").arg(file);
    match run(command, true, cap) {
        (Outcome::Time(_), Some(mut child)) => {
            use std::io::Read;
            let mut out = String::new();
            child
                .stdout
                .take()
                .expect("a piped standard output")
                .read_to_string(&mut out)
                .expect("read the parse time");
            match out.trim().parse() {
                Ok(t) => Outcome::Time(t),
                Err(_) => Outcome::Failed(format!("no time printed: {out:?}")),
            }
        }
        (outcome, _) => outcome,
    }
}

/// `scaling --parse FILE`: parses the file in process and prints the time
/// it took, in seconds (dropping the document is not counted).
fn parse_worker(file: &Path) {
    let text = std::fs::read_to_string(file).expect("read the input");
    let start = Instant::now();
    let doc = Document::parse(&text);
    let t = start.elapsed().as_secs_f64();
    std::hint::black_box(&doc);
    println!("{t}");
}
