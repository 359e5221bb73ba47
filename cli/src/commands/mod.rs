//! The subcommands, one module each, and the dispatcher. Each module owns
//! its subcommand whole: its arguments (a `#[derive(clap::Args)]` struct,
//! whose doc comment and `#[command(after_help = ...)]` are its help) and
//! `run(self, &Context) -> Result<ExitCode, Error>`, which hands the
//! runner its work on one file (`Context::batch`) or does it itself.
//!
//! To add a subcommand `name`: write `commands/name.rs` with the struct
//! `Name` and its `run`, then add two lines here: `mod name;` and
//! `name::Name,` in `subcommands!` (in the order `xml5dom help` lists
//! them). `Command` (clap's subcommand enum, one variant per struct, named
//! after it) and its dispatch are made from that list.
//!
//! The subcommands use the context, the runner, the report and the
//! options; none of those uses them.

mod canon;
mod check;
mod completions;
mod fmt;
mod man;
mod query;
mod stats;
mod tokens;
mod tree;

use std::process::ExitCode;

use crate::context::Context;
use crate::options::Error;

/// Makes `Command` from the list of subcommands: a variant per arguments
/// struct, named after it (clap names the subcommand after the variant),
/// and `run`, which runs the one given.
macro_rules! subcommands {
    ($($module:ident::$name:ident,)*) => {
        /// The subcommand, and its arguments.
        #[derive(clap::Subcommand, Debug)]
        pub enum Command {
            $($name($module::$name),)*
        }

        impl Command {
            /// Runs the subcommand: its exit status, or why it stopped.
            pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
                match self {
                    $(Command::$name(command) => command.run(context),)*
                }
            }
        }
    };
}

subcommands! {
    tokens::Tokens,
    tree::Tree,
    check::Check,
    fmt::Fmt,
    canon::Canon,
    query::Query,
    stats::Stats,
    completions::Completions,
    man::Man,
}
