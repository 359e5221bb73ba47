//! What every subcommand is given: the runner's settings, the options of
//! every parse (`--input-encoding`, `--no-well-known-prefixes`, the
//! limits, and what may be read beyond the input, set for each input by its
//! path), and the command line's own definition (for `completions` and
//! `man`); and what the subcommands that read a file whole share: the
//! document, and the note that says a limit cut it short.
//!
//! It uses the options, the runner and the resolving flags; the
//! subcommands use it.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xml5dom::{Document, Limits, ParseOptions};

use crate::options::{limit_note, Error};
use crate::resolving::Resolving;
use crate::runner::{self, Job, Opened, Outcome, Settings, Task};

/// What every subcommand is given.
pub struct Context {
    /// `-r`, `--jobs`, `--quiet`.
    pub settings: Settings,
    /// The options of every parse ([`Context::options_for`] adds what an
    /// input may read beyond itself).
    options: ParseOptions,
    /// The resolvers of `--load-dtd`, `--dtd-path` and `--catalog`.
    resolving: Option<Resolving>,
    /// The whole command line's definition (clap's), for the subcommands
    /// that describe it.
    pub cli: fn() -> clap::Command,
}

impl Context {
    /// The context of a run: the encoding every input is read in, if the
    /// user chose one (an unknown label is an error), the limits of every
    /// parse, whether well-known prefixes used undeclared get their
    /// placeholder namespace instead of their registered one, and what a
    /// parse may read beyond its input.
    pub fn new(
        settings: Settings,
        input_encoding: Option<&str>,
        limits: Limits,
        placeholder_for_well_known_prefixes: bool,
        resolving: Option<Resolving>,
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
            resolving,
            cli,
        })
    }

    /// The options of the parse of the input at `path`: with a resolving
    /// flag, its resolver and `path` as the base of what it refers to.
    pub fn options_for(&self, path: &Path) -> Cow<'_, ParseOptions> {
        match &self.resolving {
            None => Cow::Borrowed(&self.options),
            Some(resolving) => {
                let mut options = self.options.clone();
                resolving.apply(&mut options, path);
                Cow::Owned(options)
            }
        }
    }

    /// The limits of every parse.
    pub fn limits(&self) -> &Limits {
        &self.options.limits
    }

    /// Runs `job` on every file `paths` name (see [`runner::batch`]).
    pub fn batch(&self, paths: &[PathBuf], task: Task, job: &Job<'_>) -> Result<ExitCode, Error> {
        runner::batch(paths, &self.settings, &task, job)
    }

    /// The document of the input at `path`, of `bytes`, which it takes as
    /// its source (no copy, when they are UTF-8).
    pub fn parse(&self, path: &Path, bytes: Vec<u8>) -> Document {
        Document::parse_vec_with(bytes, &self.options_for(path))
    }

    /// A file read whole into a document, or the outcome of one that could
    /// not be read.
    pub fn read_document(&self, opened: Opened<'_>) -> Result<Document, Outcome> {
        let path = opened.path;
        opened
            .bytes()
            .map(|bytes| self.parse(path, bytes))
            .map_err(|error| Outcome::failed(error.to_string()))
    }

    /// For standard error, where a limit cut `doc` short: what the output
    /// is of (nothing where no limit was reached).
    pub fn read_as_cut(&self, path: &Path, doc: &Document) -> String {
        let what = "the output is of the document as read, not of the whole file";
        limit_note(&path.display().to_string(), doc, self.limits(), what).unwrap_or_default()
    }
}
