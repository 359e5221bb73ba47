//! `xml5dom check`: every parse error of each file, streamed through
//! `check`'s report (report.rs), and the exit status that says whether
//! every file was well-formed.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::context::Context;
use crate::options::{Error, Format};
use crate::report::Report;
use crate::runner::{Layout, Task};

/// Print every parse error as `path:line:column: error: code: message`
/// (or `warning:` for what XML allows but XML5 flags, `limit:` where a
/// limit stopped the parse reading the file whole, naming the flag that
/// raises it), then the source line with a caret under the place.
///
/// An end tag that does not close the current element names the element
/// that was open and where it starts: `mismatched-end-tag: end tag </a>
/// does not match the open element <key> (line 1, column 4); <key> is
/// closed`.
///
/// Exits with status 0 when every file is well-formed (warnings
/// allowed), 1 when any has an error or reached a limit (it was not
/// checked whole), 2 when a file cannot be read (the others are still
/// checked).
#[derive(Args, Debug)]
#[command(after_help = "Example: xml5dom check feed.xml\n         \
                        xml5dom check -r exports/\n         \
                        xml5dom check --summary always -r exports/\n         \
                        xml5dom check --format json feed.xml")]
pub struct Check {
    /// Files, directories (with `-r`) or `-` for standard input.
    /// Example: `feed.xml config/`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// `human` for people; `json` for tools: one JSON object per error
    /// and line (file, line, column, offset, code, severity: `error`,
    /// `limit` or `warning`, message;
    /// for an end tag that does not close the current element also
    /// end_tag, implied_closes and open: the open element's name, line,
    /// column and offset). Example: `--format json`.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Colour the human format: `auto` when writing to a terminal (and
    /// `NO_COLOR` is not set). Example: `--color never`.
    #[arg(long, value_enum, default_value = "auto")]
    color: When,
    /// Show at most N errors and warnings per file. The summary line
    /// that closes each file's report (`feed.xml: 3 errors, 1 warning`)
    /// says how many were not shown; in JSON, where every line is an
    /// error, that line goes to standard error. Example:
    /// `--max-errors 20`.
    #[arg(long, value_name = "N")]
    max_errors: Option<usize>,
    /// A last line on standard error for the whole run: `checked 120
    /// files: 0 errors, 2 warnings` (and limits reached, files not
    /// read). `auto` prints it when standard error is a terminal and
    /// `--quiet` is not given. Example: `--summary always`.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    summary: When,
}

/// When to colour the output, or print `check`'s summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum When {
    /// On a terminal (colour: unless `NO_COLOR` is set; the summary:
    /// unless `--quiet` is given).
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl Check {
    /// Checks every file as it is read, through `check`'s report.
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let colored = match self.color {
            When::Always => true,
            When::Never => false,
            When::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        };
        let summary = match self.summary {
            When::Always => true,
            When::Never => false,
            When::Auto => !context.settings.quiet && io::stderr().is_terminal(),
        };
        let report = Report {
            format: self.format,
            colored,
            max_errors: self.max_errors,
            limits: context.limits().clone(),
        };
        let task = Task {
            judges: true,
            summary,
            ..Task::new("check", "check", Layout::Plain)
        };
        // Streamed: the errors come as the file is read, in bounded memory.
        context.batch(&self.paths, task, &|path, opened, _, out| {
            report.check(path, opened.reader, &context.options_for(path), out)
        })
    }
}
