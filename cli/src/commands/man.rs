//! `xml5dom man`: manual pages (roff), generated from the command line's
//! definition: xml5dom(1) and one per subcommand.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::context::Context;
use crate::options::Error;

/// Print a manual page (roff, for `man`), generated from these
/// arguments: xml5dom(1), or a subcommand's (xml5dom-check(1), ...).
#[derive(Args, Debug)]
#[command(
    after_help = "Example: xml5dom man > ~/.local/share/man/man1/xml5dom.1\n         \
                        xml5dom man check | man -l -\n         \
                        xml5dom man --out-dir ~/.local/share/man/man1"
)]
pub struct Man {
    /// The subcommand whose page to print; the command's own page if
    /// left out. Example: `check`.
    subcommand: Option<String>,
    /// Write every page (xml5dom.1 and one per subcommand) into this
    /// directory instead. Example: `--out-dir share/man/man1`.
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    out_dir: Option<PathBuf>,
}

impl Man {
    /// Prints a page, or writes every page into `--out-dir`.
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let mut command = (context.cli)().disable_help_subcommand(true);
        // (Names the subcommands' pages xml5dom-check and so on.)
        command.build();
        // Every page says which xml5dom it documents.
        let man = |page: clap::Command| {
            clap_mangen::Man::new(page).source(format!("xml5dom {}", env!("CARGO_PKG_VERSION")))
        };
        if let Some(directory) = self.out_dir {
            let mut pages: Vec<clap::Command> = command.get_subcommands().cloned().collect();
            pages.insert(0, command);
            for page in pages {
                man(page).generate_to(&directory).map_err(|error| {
                    Error::Usage(format!("cannot write in {}: {error}", directory.display()))
                })?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        let page = match self.subcommand {
            Some(name) => match command.find_subcommand(&name) {
                Some(found) => found.clone(),
                None => {
                    let names: Vec<&str> =
                        command.get_subcommands().map(|c| c.get_name()).collect();
                    return Err(Error::Usage(format!(
                        "no subcommand {name:?} (the subcommands: {})",
                        names.join(", ")
                    )));
                }
            },
            None => command,
        };
        let mut stdout = io::stdout().lock();
        man(page).render(&mut stdout)?;
        stdout.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}
