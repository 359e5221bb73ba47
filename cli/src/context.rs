//! What every subcommand is given: the runner's settings, the options of
//! every parse (`--input-encoding`, `--no-well-known-prefixes` and the
//! limits), and the command line's own definition (for `completions` and
//! `man`); and what the subcommands that read a file whole share: the
//! document, and the note that says a limit cut it short.
//!
//! It uses the options and the runner; the subcommands use it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xml5dom::{Document, Limits, ParseOptions};

use crate::options::{limit_note, Error};
use crate::runner::{self, Job, Opened, Outcome, Settings, Task};

/// What every subcommand is given.
pub struct Context {
    /// `-r`, `--jobs`, `--quiet`.
    pub settings: Settings,
    /// The options of every parse.
    pub options: ParseOptions,
    /// The whole command line's definition (clap's), for the subcommands
    /// that describe it.
    pub cli: fn() -> clap::Command,
}

impl Context {
    /// The context of a run: the encoding every input is read in, if the
    /// user chose one (an unknown label is an error), the limits of every
    /// parse, and whether well-known prefixes used undeclared get their
    /// placeholder namespace instead of their registered one.
    pub fn new(
        settings: Settings,
        input_encoding: Option<&str>,
        limits: Limits,
        placeholder_for_well_known_prefixes: bool,
        cli: fn() -> clap::Command,
    ) -> Result<Context, Error> {
        let mut options = match input_encoding {
            Some(label) => ParseOptions::default().encoding_label(label)?,
            None => ParseOptions::default(),
        };
        options.limits = limits;
        options.placeholder_for_well_known_prefixes = placeholder_for_well_known_prefixes;
        Ok(Context {
            settings,
            options,
            cli,
        })
    }

    /// The limits of every parse.
    pub fn limits(&self) -> &Limits {
        &self.options.limits
    }

    /// Runs `job` on every file `paths` name (see [`runner::batch`]).
    pub fn batch(&self, paths: &[PathBuf], task: Task, job: &Job<'_>) -> Result<ExitCode, Error> {
        runner::batch(paths, &self.settings, &task, job)
    }

    /// A document of `bytes`, which it takes as its source (no copy, when
    /// they are UTF-8).
    pub fn parse(&self, bytes: Vec<u8>) -> Document {
        Document::parse_vec_with(bytes, &self.options)
    }

    /// A file read whole into a document, or the outcome of one that could
    /// not be read.
    pub fn read_document(&self, opened: Opened<'_>) -> Result<Document, Outcome> {
        opened
            .bytes()
            .map(|bytes| self.parse(bytes))
            .map_err(|error| Outcome::failed(error.to_string()))
    }

    /// For standard error, where a limit cut `doc` short: what the output
    /// is of (nothing where no limit was reached).
    pub fn read_as_cut(&self, path: &Path, doc: &Document) -> String {
        let what = "the output is of the document as read, not of the whole file";
        limit_note(&path.display().to_string(), doc, self.limits(), what).unwrap_or_default()
    }
}
