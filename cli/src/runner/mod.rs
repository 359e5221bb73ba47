//! The runner: every subcommand's work on many files. `batch` takes the
//! paths (expanded by `inputs`), works on them on `--jobs` threads, and
//! writes each file's output to standard output in the order given, its
//! notes and failures to standard error after it; it shows progress on a
//! terminal, stops quietly when standard output's reader goes away (once
//! the exit status is settled, where it judges the input), and gives the
//! run's exit status.
//!
//! A subcommand hands it a `Task` (its name for hints, its `Layout`, what
//! its exit status says) and a `Job` (its work on one file, to an
//! `Outcome`); `Settings` are the flags every subcommand shares (`-r`,
//! `--jobs`, `--quiet`). `in_place` writes files back. It uses the
//! options' `Error`, and nothing else of the command line.

mod in_place;
mod inputs;

use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::options::Error;

pub use in_place::{write_in_place, Comparison};
pub use inputs::Opened;
use inputs::{expand_paths, open, Input};

/// The runner's flags, the same for every subcommand.
pub struct Settings {
    /// `-r`: take the XML files of directories.
    pub recursive: bool,
    /// `--jobs`: how many files to work on at once.
    pub jobs: Option<usize>,
    /// `--quiet`: no progress bar.
    pub quiet: bool,
}

/// What a subcommand asks of the runner, besides its work on each file:
/// how it names itself, how its outputs are laid out, and what its exit
/// status says.
pub struct Task {
    /// The subcommand's name and what it does to files, for hints (`use
    /// xml5dom fmt -r to format the XML files in it`).
    pub name: &'static str,
    pub verb: &'static str,
    pub layout: Layout,
    /// The subcommand searches (`query`): finding nothing is exit status 1.
    pub search: bool,
    /// The subcommand's exit status judges the input (`check`, `fmt`,
    /// `canon`, `query` can exit with 1): when standard output closes, it
    /// reads on, writing nothing, until the status is settled.
    pub judges: bool,
    /// Close the run with a line that counts what it found (`check`).
    pub summary: bool,
}

impl Task {
    /// A subcommand that neither searches, judges nor sums up.
    pub fn new(name: &'static str, verb: &'static str, layout: Layout) -> Task {
        Task {
            name,
            verb,
            layout,
            search: false,
            judges: false,
            summary: false,
        }
    }
}

/// What a subcommand made of one file, besides what it wrote to standard
/// output.
#[derive(Default)]
pub struct Outcome {
    /// For standard error (whole lines).
    pub notes: String,
    /// Something was found: parse errors (`check`), a file to change
    /// (`fmt --check`).
    pub findings: bool,
    /// The file could not be worked on (read, or written back).
    pub failure: Option<String>,
    /// A query found something: a node, or a value.
    pub matched: bool,
    /// What `check` found: errors, limits reached, warnings.
    pub counts: [usize; 3],
}

impl Outcome {
    pub fn failed(message: String) -> Outcome {
        Outcome {
            failure: Some(message),
            ..Outcome::default()
        }
    }
}

/// How a batch lays out its files' outputs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Each output as it is (it names its file, or there is one file).
    Plain,
    /// With several files, a `==> FILE <==` line before each output.
    Banners,
    /// A blank line between outputs.
    Separated,
}

/// The work of a subcommand on one file: its path, the file opened (to read
/// whole or as a stream), whether there are several files, and where its
/// output goes. An `Err` is a failure to write that output (the reader went
/// away), which ends the run.
pub type Job<'a> =
    dyn Fn(&Path, Opened<'_>, bool, &mut dyn Write) -> io::Result<Outcome> + Sync + 'a;

/// Works on every file `paths` name and writes the outcomes in order: the
/// outputs to standard output as they are made, notes and failures to
/// standard error after each file's output. One file, or one job, is worked
/// on straight into standard output; several are worked on in parallel, each
/// into a buffer written out in turn, with at most two per job in hand at a
/// time. Exit status: 2 if any file failed, else 1 if any had findings (or,
/// for `query`, none matched), else 0.
pub fn batch(
    paths: &[PathBuf],
    settings: &Settings,
    task: &Task,
    job: &Job<'_>,
) -> Result<ExitCode, Error> {
    let inputs = expand_paths(paths, settings.recursive, task.name, task.verb);
    let many = inputs.len() > 1;
    let progress = progress_bar(&inputs, settings.quiet);
    let threads = settings
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, inputs.len().max(1));
    let work = |input: &Input, out: &mut dyn Write| {
        let outcome = match input {
            Input::File(path) => {
                match open_counted(path, progress.bytes.then_some(&progress.bar)) {
                    Ok(opened) => job(path, opened, many, out),
                    Err(error) => Ok(Outcome::failed(error.to_string())),
                }
            }
            Input::Unusable(message) => Ok(Outcome::failed(message.clone())),
        };
        if !progress.bytes {
            progress.bar.inc(1);
        }
        outcome
    };
    let mut stdout = Pipe {
        inner: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        closed: false,
        swallow: task.judges,
    };
    let mut layout = Sections {
        layout: task.layout,
        many,
        wrote: false,
    };
    let mut status = Status::default();
    // Once standard output has closed, the run stops where the exit status
    // can no longer change but to 2: at once where it does not judge the
    // input, once it is settled where it does.
    let go_on = |status: &Status, stdout: &Pipe<_>| {
        if stdout.closed && (!task.judges || status.settled(task.search)) {
            return Err(io::Error::from(io::ErrorKind::BrokenPipe));
        }
        Ok(())
    };
    let result = if threads == 1 {
        inputs.iter().try_for_each(|input| {
            let mut section = layout.section(input, &mut stdout);
            let outcome = work(input, &mut section)?;
            layout.wrote |= section.wrote;
            status.report(outcome, &mut stdout)?;
            go_on(&status, &stdout)
        })
    } else {
        in_parallel(&inputs, threads, &work, |input, output, outcome| {
            let mut section = layout.section(input, &mut stdout);
            section.write_all(&output)?;
            layout.wrote |= section.wrote;
            status.report(outcome?, &mut stdout)?;
            go_on(&status, &stdout)
        })
    };
    progress.bar.finish_and_clear();
    match result.and_then(|()| stdout.flush()) {
        // The reader went away (`xml5dom check big.xml | head`): what was
        // found stands.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe && stdout.closed => {}
        result => result?,
    }
    if task.summary {
        let _ = io::stderr().write_all(status.summary().as_bytes());
    }
    Ok(status.exit_code(task.search))
}

/// Standard output, which notes when its reader goes away (a write fails
/// with a broken pipe). From then on nothing reaches it; writes fail, or,
/// with `swallow`, succeed writing nothing, so that a run whose status
/// judges the input can read on to its verdict.
pub struct Pipe<W> {
    inner: W,
    closed: bool,
    swallow: bool,
}

impl<W: Write> Pipe<W> {
    fn closed_now(&mut self, error: io::Error) -> io::Result<()> {
        if error.kind() != io::ErrorKind::BrokenPipe {
            return Err(error);
        }
        self.closed = true;
        match self.swallow {
            true => Ok(()),
            false => Err(error),
        }
    }
}

impl<W: Write> Write for Pipe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.closed {
            match self.inner.write(buf) {
                Err(error) => self.closed_now(error)?,
                written => return written,
            }
        }
        match self.swallow {
            true => Ok(buf.len()),
            false => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.closed {
            if let Err(error) = self.inner.flush() {
                self.closed_now(error)?;
            }
            return Ok(());
        }
        match self.swallow {
            true => Ok(()),
            false => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        }
    }
}

/// Runs `work` on `inputs` on `threads` threads, each input's output into
/// a buffer, and hands the buffers and outcomes to `emit` in input order as
/// they come. A thread takes an input only while fewer than two per thread
/// wait to be emitted, so that memory holds a few files' output, not all.
/// An `emit` error stops the run (inputs being worked on are finished).
pub fn in_parallel<W, E>(inputs: &[Input], threads: usize, work: &W, mut emit: E) -> io::Result<()>
where
    W: Fn(&Input, &mut dyn Write) -> io::Result<Outcome> + Sync,
    E: FnMut(&Input, Vec<u8>, io::Result<Outcome>) -> io::Result<()>,
{
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{mpsc, Condvar, Mutex};

    let window = 2 * threads;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // How many inputs have been emitted, and a wake-up when it grows.
    let emitted = (Mutex::new(0usize), Condvar::new());
    let (done, results) = mpsc::channel::<(usize, Vec<u8>, io::Result<Outcome>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done = done.clone();
            let (next, stop, emitted) = (&next, &stop, &emitted);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(index) else {
                    return;
                };
                {
                    let (count, wake) = emitted;
                    let mut count = count.lock().unwrap_or_else(|e| e.into_inner());
                    while index >= *count + window && !stop.load(Ordering::Relaxed) {
                        count = wake.wait(count).unwrap_or_else(|e| e.into_inner());
                    }
                }
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let mut output = Vec::new();
                let outcome = work(input, &mut output);
                if done.send((index, output, outcome)).is_err() {
                    return;
                }
            });
        }
        drop(done);
        let mut waiting = std::collections::BTreeMap::new();
        let mut turn = 0;
        let mut result = Ok(());
        'receive: for (index, output, outcome) in results.iter() {
            waiting.insert(index, (output, outcome));
            while let Some((output, outcome)) = waiting.remove(&turn) {
                result = emit(&inputs[turn], output, outcome);
                if result.is_err() {
                    break 'receive;
                }
                turn += 1;
                let (count, wake) = &emitted;
                *count.lock().unwrap_or_else(|e| e.into_inner()) = turn;
                wake.notify_all();
            }
        }
        if result.is_err() {
            stop.store(true, Ordering::Relaxed);
            emitted.1.notify_all();
            // (Dropping the receiver makes the threads' next send fail.)
            drop(results);
        }
        result
    })
}

/// Where the batch's outputs go: the layout, and whether one was written.
pub struct Sections {
    layout: Layout,
    many: bool,
    wrote: bool,
}

impl Sections {
    /// Standard output for `input`'s output, with what goes before it.
    fn section<'w>(&self, input: &Input, out: &'w mut dyn Write) -> Section<'w> {
        let header = match (self.layout, input) {
            (Layout::Banners, Input::File(path)) if self.many => {
                format!("==> {} <==\n", path.display())
            }
            (Layout::Separated, _) if self.wrote => "\n".to_owned(),
            _ => String::new(),
        };
        Section {
            out,
            header,
            wrote: false,
        }
    }
}

/// One file's output: a header written before its first byte, if it has any.
pub struct Section<'w> {
    out: &'w mut dyn Write,
    header: String,
    wrote: bool,
}

impl Write for Section<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if !self.wrote {
            self.out.write_all(self.header.as_bytes())?;
            self.wrote = true;
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// What the batch found so far, for the exit status and the summary.
#[derive(Default)]
pub struct Status {
    findings: bool,
    failures: bool,
    /// Some file's query found something.
    matched: bool,
    /// Files worked on, and of them those that could not be.
    files: usize,
    failed: usize,
    /// Errors, limits reached, warnings (`check`), and the files with
    /// errors.
    counts: [usize; 3],
    with_errors: usize,
}

impl Status {
    /// Notes a file's outcome and writes its notes and failure to standard
    /// error, after its output (`stdout`, flushed first).
    fn report(&mut self, outcome: Outcome, stdout: &mut dyn Write) -> io::Result<()> {
        self.findings |= outcome.findings;
        self.matched |= outcome.matched;
        self.failures |= outcome.failure.is_some();
        self.files += 1;
        self.failed += usize::from(outcome.failure.is_some());
        for (total, count) in self.counts.iter_mut().zip(outcome.counts) {
            *total += count;
        }
        self.with_errors += usize::from(outcome.counts[0] > 0);
        if outcome.notes.is_empty() && outcome.failure.is_none() {
            return Ok(());
        }
        stdout.flush()?;
        // (Standard error may have closed too, as `2>&1 | head` closes it:
        // the status still counts.)
        let mut stderr = io::stderr().lock();
        let _ = stderr.write_all(outcome.notes.as_bytes());
        if let Some(message) = outcome.failure {
            let _ = writeln!(stderr, "xml5dom: {message}");
        }
        Ok(())
    }

    /// The run's last line: `checked 3 files: 7 errors in 2 files, 0
    /// warnings, 1 limit reached; 1 could not be checked`.
    fn summary(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let [errors, limits, warnings] = self.counts;
        let mut line = format!(
            "checked {}: {}",
            plural(self.files - self.failed, "file"),
            plural(errors, "error")
        );
        if errors > 0 {
            line.push_str(&format!(" in {}", plural(self.with_errors, "file")));
        }
        line.push_str(&format!(", {}", plural(warnings, "warning")));
        if limits > 0 {
            line.push_str(&format!(", {} reached", plural(limits, "limit")));
        }
        if self.failed > 0 {
            line.push_str(&format!("; {} could not be checked", self.failed));
        }
        line.push('\n');
        line
    }

    /// Nothing more can change the exit status but a file that fails (2):
    /// a finding, a failure, or (`search`) something found.
    fn settled(&self, search: bool) -> bool {
        self.failures || self.findings || (search && self.matched)
    }

    /// 2 if a file failed; else 1 for findings (`check`, `fmt --check`),
    /// or for a search that found nothing in any file (`query`); else 0.
    fn exit_code(&self, search: bool) -> ExitCode {
        let nothing_found = search && !self.matched;
        if self.failures {
            ExitCode::from(2)
        } else if self.findings || nothing_found {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// A progress bar on standard error, for many files or one large one, on a
/// terminal only and not with `--quiet`; hidden otherwise. For one file it
/// counts the bytes read (the commands that stream read as they go).
pub struct Progress {
    bar: indicatif::ProgressBar,
    /// It counts bytes, not files.
    bytes: bool,
}

pub fn progress_bar(inputs: &[Input], quiet: bool) -> Progress {
    use indicatif::{ProgressBar, ProgressStyle};

    const LARGE: u64 = 4 << 20;
    let hidden = Progress {
        bar: ProgressBar::hidden(),
        bytes: false,
    };
    if quiet || !std::io::stderr().is_terminal() {
        return hidden;
    }
    if inputs.len() > 1 {
        let bar = ProgressBar::new(inputs.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed}") {
            bar.set_style(style);
        }
        return Progress { bar, bytes: false };
    }
    let size = match inputs.first() {
        Some(Input::File(path)) => std::fs::metadata(path).ok().map(|m| m.len()),
        _ => None,
    };
    match size {
        Some(size) if size > LARGE => {
            let bar = ProgressBar::new(size);
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {binary_bytes}/{binary_total_bytes}, {binary_bytes_per_sec}, {elapsed}",
            ) {
                bar.set_style(style);
            }
            Progress { bar, bytes: true }
        }
        _ => hidden,
    }
}

/// The file at `path` (or standard input, for `-`) opened for a job, what
/// is read of it moving `progress` along (a bar that counts bytes).
fn open_counted<'a>(
    path: &'a Path,
    progress: Option<&'a indicatif::ProgressBar>,
) -> Result<Opened<'a>, Error> {
    let (reader, size) = open(path)?;
    Ok(Opened {
        path,
        reader: Box::new(Counted {
            inner: reader,
            progress,
        }),
        size,
    })
}

/// Input read through it moves a progress bar along (one that counts
/// bytes).
pub struct Counted<'p, R> {
    inner: R,
    progress: Option<&'p indicatif::ProgressBar>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buffer)?;
        if let Some(bar) = self.progress {
            bar.inc(read as u64);
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file a job reads whole comes in a buffer of its size, as
    /// `Document::from_file` reads it, not in one grown past it while
    /// reading (the counting reader hides the file's own size hint), which
    /// the document would keep as its source.
    #[test]
    fn a_file_is_read_into_a_buffer_of_its_size() {
        let path =
            std::env::temp_dir().join(format!("xml5dom-cli-read-{}.xml", std::process::id()));
        // Not a power of two, nor near one: doubling from any start
        // overshoots it.
        let content = "<a>x</a>\n".repeat(30_001);
        std::fs::write(&path, &content).unwrap();
        let bytes = open_counted(&path, None).and_then(Opened::bytes);
        std::fs::remove_file(&path).unwrap();
        let bytes = bytes.unwrap();
        assert_eq!(bytes, content.as_bytes());
        assert_eq!(bytes.capacity(), bytes.len());
    }
}
