//! The `xml5dom` command line, a package of its own over the library.
//!
//! It owns argument parsing, reading inputs and printing results; the work
//! itself is the library's. Every subcommand takes many files (and
//! directories with `-r`), works on them in parallel and prints in the
//! order given. Errors of the caller's own (a missing file, a bad flag) are
//! one line on standard error and exit status 2.
//!
//! ```text
//! xml5dom tokens FILE     the token stream as JSON, in the xml5lib-tests format
//! xml5dom tree FILE       the tree, in the xml5lib-tests #document format
//! xml5dom check PATH...   every parse error as path:line:column: code: message,
//!                         with the source line and a caret; many files, in parallel
//! xml5dom fmt FILE        the document written back (lossless, or repaired)
//! xml5dom canon FILE      a canonical form (C14N 1.0, 1.1, Exclusive, or
//!                         xmltest's two), of the document or of an XPath subset
//! xml5dom query EXPR FILE an XPath 1.0 query: matching nodes, or its value
//!                         (exit status 1 when it matched nothing)
//! xml5dom stats FILE...   counts, depth, namespaces, encoding, errors by code
//! xml5dom completions SHELL a completion script
//! xml5dom man [SUBCOMMAND] a manual page (roff)
//! ```
//!
//! This file parses the arguments (`Cli`, with the options every
//! subcommand takes) and dispatches; the rest is by concern:
//!
//! - `commands/`: one module per subcommand, its arguments and its `run`;
//!   `commands/mod.rs` lists them (adding one is said there).
//! - `context.rs`: what every subcommand is given (the runner's settings,
//!   the parse options) and reading a file whole into a document.
//! - `runner/`: the work on many files (`-r` expansion, jobs and threads,
//!   output in order, progress, broken pipes, exit status, `--in-place`).
//! - `report.rs`: `check`'s report (each error with its source line, or as
//!   JSON).
//! - `options.rs`: what the subcommands share of their options (the limit
//!   flags and the messages that name them, `Format`, `PREFIX=URI`) and
//!   the run's `Error`.
//! - `resolving.rs`: the flags that let a parse read external files
//!   (`--load-dtd`, `--dtd-path`, `--catalog`, and `XML_CATALOG_FILES`
//!   with them) and the resolvers they set in each input's parse options.
//!
//! Imports flow one way: main → commands → context, report → runner,
//! resolving → options.

mod commands;
mod context;
mod options;
mod report;
mod resolving;
mod runner;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use commands::Command;
use context::Context;
use options::LimitArgs;
use resolving::{ResolveArgs, Resolving};
use runner::Settings;

// The command line's allocator (issue 37; docs/performance.md, "The command
// line's allocator"). The library leaves the choice to its users.
#[cfg(feature = "jemalloc")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read when it starts (before `main`): transparent
/// huge pages for its extents and its own metadata, which a parse that
/// touches a hundred megabytes of fresh memory spends a third of its time
/// faulting in 4 KiB pages otherwise. The symbol is the one the
/// tikv-jemalloc-sys build (prefixed `_rjem_`) reads as `malloc_conf`.
#[cfg(feature = "jemalloc")]
#[export_name = "_rjem_malloc_conf"]
static JEMALLOC_OPTIONS: Option<&'static u8> = Some(&b"thp:always,metadata_thp:always\0"[0]);

#[cfg(all(feature = "mimalloc", not(feature = "jemalloc")))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "xml5dom",
    version,
    about = "Load any XML, however broken, the way XML5 recovers, and show what came out.",
    after_help = "Every subcommand takes files, directories (with -r) or - for standard \
                  input, works on them in parallel, and reports them in the order given.\n\
                  Exit status: 0 done (and clean, for check, canon and fmt --check; \
                  something found, for query), 1 findings (parse errors for check and \
                  canon, files to change for fmt --check, a limit reached for check, fmt \
                  and canon, only empty node-sets for query), 2 a file could not be read \
                  (or written, or was left as it is by fmt --in-place) or an option or \
                  expression is wrong. A reader that goes away (`| head`) does not change \
                  it.\n\
                  `xml5dom help SUBCOMMAND` shows a subcommand's options and examples."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Take the XML files in directories and below (by extension: xml, svg,
    /// xhtml, rss, atom, xsl, xslt, xsd, kml, gpx, plist, opf, xlf, resx,
    /// csproj). Example: `-r exports/`.
    #[arg(short, long, global = true)]
    recursive: bool,
    /// How many files to work on at once (default: one per core).
    /// Example: `--jobs 1`.
    #[arg(short, long, global = true, value_name = "N")]
    jobs: Option<usize>,
    /// No progress bar (it is shown on a terminal only, for many files or
    /// one over 4 MB). Example: `-q -r big/`.
    #[arg(short, long, global = true)]
    quiet: bool,
    /// Read every input in this encoding, whatever its byte-order mark or
    /// declaration says (a label: `cp850`, `shift_jis`, `macroman`,
    /// `x-mac-cyrillic`, `ucs-4`, `ibm037`, ...). Example:
    /// `--input-encoding x-mac-cyrillic`.
    #[arg(long, global = true, value_name = "LABEL")]
    input_encoding: Option<String>,
    /// Put a well-known prefix that the document uses without declaring it
    /// (itunes, dc, media, atom, xlink, svg, ...) in its placeholder
    /// namespace `urn:xml5dom:undeclared:PREFIX`, as any other, instead of
    /// its registered namespace; `fmt` then declares the placeholder.
    /// Example: `--no-well-known-prefixes`.
    #[arg(long, global = true)]
    no_well_known_prefixes: bool,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    resolve: ResolveArgs,
}

/// Runs the command line with the process's arguments.
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // --help and --version land here too, on standard output.
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let limits = match cli.limits.limits() {
        Ok(limits) => limits,
        Err(message) => {
            let _ = writeln!(io::stderr(), "xml5dom: {message}");
            return ExitCode::from(2);
        }
    };
    let settings = Settings {
        recursive: cli.recursive,
        jobs: cli.jobs,
        quiet: cli.quiet,
    };
    // XML_CATALOG_FILES counts only when a flag asks for resolving.
    let plan = cli.resolve.plan(|| std::env::var("XML_CATALOG_FILES").ok());
    let resolving = plan.map(|plan| Resolving::new(plan, limits.input_bytes()));
    let resolving = match resolving.transpose() {
        Ok(resolving) => resolving.map(|(resolving, warnings)| {
            for warning in warnings {
                let _ = writeln!(io::stderr(), "xml5dom: warning: {warning}");
            }
            resolving
        }),
        Err(error) => {
            let _ = writeln!(io::stderr(), "xml5dom: {error}");
            return ExitCode::from(2);
        }
    };
    let context = Context::new(
        settings,
        cli.input_encoding.as_deref(),
        limits,
        cli.no_well_known_prefixes,
        resolving,
        Cli::command,
    );
    match context.and_then(|context| cli.command.run(&context)) {
        Ok(code) => code,
        // The reader went away (`xml5dom tree big.xml | head`): stop quietly.
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(io::stderr(), "xml5dom: {error}");
            ExitCode::from(2)
        }
    }
}
