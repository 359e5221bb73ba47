//! `xml5dom completions`: a shell's completion script, generated from the
//! command line's definition.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;

use crate::context::Context;
use crate::options::Error;

/// Print a completion script for a shell, generated from these
/// arguments.
#[derive(Args, Debug)]
#[command(
    after_help = "Example: xml5dom completions bash > ~/.local/share/bash-completion/completions/xml5dom"
)]
pub struct Completions {
    /// The shell. Example: `zsh`.
    shell: clap_complete::Shell,
}

impl Completions {
    /// Prints the completion script.
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let mut command = (context.cli)();
        let mut stdout = io::stdout().lock();
        clap_complete::generate(self.shell, &mut command, "xml5dom", &mut stdout);
        stdout.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}
