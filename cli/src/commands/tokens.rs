//! `xml5dom tokens`: the token stream of each file as one JSON array in
//! the xml5lib-tests format, tokenized as it is read.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use xml5dom::tokenizer::{tokenize_reader_with, SuiteJsonWriter};

use crate::context::Context;
use crate::options::{named, Error};
use crate::runner::{Layout, Outcome, Task};

/// Print the token stream as one JSON array in the xml5lib-tests format.
///
/// The array reads `[["StartTag", "feed", {}], ["Character", "\n"],
/// ...]`, with a "ParseError" marker wherever the input breaks the
/// rules. With several files, each one's output follows a `==> FILE <==`
/// line. Exits with status 0, or 2 when a file cannot be read.
#[derive(Args, Debug)]
#[command(after_help = "Example: xml5dom tokens feed.xml\n         \
                        xml5dom tokens -r tests/")]
pub struct Tokens {
    /// Files, directories (with `-r`) or `-` for standard input.
    /// Example: `feed.xml`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

impl Tokens {
    /// Tokenizes every file as it is read, into its JSON array.
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let task = Task::new("tokens", "tokenize", Layout::Banners);
        context.batch(&self.paths, task, &|path, opened, _, out| {
            // Streamed: decoded and tokenized as it is read.
            let writer = match tokenize_reader_with(
                opened.reader,
                SuiteJsonWriter::new(out),
                &context.options_for(path),
            ) {
                Ok(writer) => writer,
                Err(error) => return Ok(Outcome::failed(named(path, error).to_string())),
            };
            let out = writer.finish()?;
            out.write_all(b"\n")?;
            Ok(Outcome::default())
        })
    }
}
