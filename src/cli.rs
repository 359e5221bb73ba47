//! The last stage: the `xml5dom` command line.
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
//! xml5dom canon FILE      a canonical form (C14N 1.0, or xmltest's)
//! xml5dom query EXPR FILE an XPath 1.0 query: matching nodes, or its value
//! xml5dom stats FILE...   counts, depth, namespaces, encoding, errors by code
//! xml5dom completions SHELL a completion script
//! ```

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use rayon::prelude::*;

use crate::decoding::{decode, ParseOptions};
use crate::error::{Error, ErrorCode, ParseError, Severity};
use crate::query::{Bindings, Value, XNode, XPath};
use crate::serializer::{canonicalize, CanonicalForm, OutputEncoding, SerializeOptions};
use crate::tokenizer::{tokenize, SuiteJson};
use crate::Document;

#[derive(Parser, Debug)]
#[command(
    name = "xml5dom",
    version,
    about = "Load any XML, however broken, the way XML5 recovers, and show what came out.",
    after_help = "Every subcommand takes files, directories (with -r) or - for standard \
                  input, works on them in parallel, and reports them in the order given.\n\
                  Exit status: 0 done (and clean, for check and fmt --check), 1 findings, \
                  2 a file could not be read or an option is wrong."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Take the XML files in directories and below (by extension: xml, svg,
    /// xhtml, rss, atom, xsl, xslt, xsd, kml, gpx, plist, opf, xlf, resx,
    /// csproj). Example: `xml5dom check -r exports/`.
    #[arg(short, long, global = true)]
    recursive: bool,
    /// How many files to work on at once (default: one per core).
    /// Example: `--jobs 1`.
    #[arg(short, long, global = true, value_name = "N")]
    jobs: Option<usize>,
    /// No progress bar (it is shown on a terminal only, for many files or
    /// one over 4 MB). Example: `xml5dom check -q -r big/`.
    #[arg(short, long, global = true)]
    quiet: bool,
    /// Read every input in this encoding, whatever its byte-order mark or
    /// declaration says (a label: `cp850`, `shift_jis`, `macroman`,
    /// `x-mac-cyrillic`, `ucs-4`, `ibm037`, ...). Example:
    /// `xml5dom fmt --in-place --input-encoding x-mac-cyrillic feed.xml`.
    #[arg(long, global = true, value_name = "LABEL")]
    input_encoding: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the token stream as one JSON array in the xml5lib-tests format.
    ///
    /// Example: `xml5dom tokens feed.xml` prints
    /// `[["StartTag", "feed", {}], ["Character", "\n"], ...]`, with a
    /// "ParseError" marker wherever the input breaks the rules. With several
    /// files, each one's output follows a `==> FILE <==` line.
    Tokens {
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print the document tree in the xml5lib-tests `#document` format.
    ///
    /// Example: `xml5dom tree feed.xml` prints `| <feed>`, then its
    /// attributes and children indented two spaces per level.
    Tree {
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print every parse error as `path:line:column: error: code: message`
    /// (or `warning:` for what XML allows but XML5 flags), then the source
    /// line with a caret under the place.
    ///
    /// Exits with status 0 when every file is well-formed (warnings
    /// allowed), 1 when any has an error, 2 when a file cannot be read (the
    /// others are still checked). Example:
    /// `xml5dom check -r exports/`, or `xml5dom check --format json
    /// feed.xml`.
    Check {
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml config/`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// `human` for people; `json` for tools: one JSON object per error
        /// and line (file, line, column, offset, code, severity, message).
        /// Example:
        /// `--format json`.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Colour the human format: `auto` when writing to a terminal (and
        /// `NO_COLOR` is not set). Example: `--color never`.
        #[arg(long, value_enum, default_value = "auto")]
        color: Color,
    },
    /// Write the document back out: byte for byte if it parsed without
    /// errors, as repaired well-formed XML if not.
    ///
    /// Repairs (what XML could not carry) are listed on standard error.
    /// Example: `xml5dom fmt --pretty=4 feed.xml > feed.pretty.xml`, or
    /// `xml5dom fmt --in-place -r site/`.
    Fmt {
        /// Indent element-only content, by N spaces per level (2 if `=N` is
        /// left out). Example: `--pretty=4`.
        #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "2")]
        pretty: Option<usize>,
        /// Write in this encoding (a label such as `utf-8`, `shift_jis`,
        /// `utf-16le`, `cp850`); by default, the file's own encoding. (The
        /// encoding to read is `--input-encoding`.) Example:
        /// `--encoding utf-8`.
        #[arg(long, value_name = "LABEL")]
        encoding: Option<String>,
        /// Write each file back in place (through a temporary file renamed
        /// over it, keeping its permissions) instead of to standard output.
        /// Example: `xml5dom fmt --in-place --pretty feed.xml`.
        #[arg(long, conflicts_with = "check")]
        in_place: bool,
        /// Write nothing: print the files formatting would change, and exit
        /// with status 1 if there are any. Example: `xml5dom fmt --check -r .`.
        #[arg(long)]
        check: bool,
        /// With `--in-place`, rewrite a file even where reading it lost
        /// characters (bytes that are not valid in its encoding, which
        /// become U+FFFD); without it, such a file is left as it is, with
        /// one line on standard error. Example: `--in-place --force`.
        #[arg(long, requires = "in_place")]
        force: bool,
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Write a canonical form of the document.
    ///
    /// Example: `xml5dom canon --form c14n-comments signed.xml`.
    Canon {
        /// Which canonical form. Example: `--form xmltest`.
        #[arg(long, value_enum, default_value = "c14n")]
        form: Form,
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `signed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Evaluate an XPath 1.0 expression against each document.
    ///
    /// A node-set prints one node per line: elements (and comments, PIs)
    /// as XML, attributes as `name="value"`, text as the text itself. Any
    /// other result prints its value. With several files, each line starts
    /// with the file's path and `: `. Prefixes declared on the document
    /// element are bound unless `--ns` binds them otherwise.
    ///
    /// Example: `xml5dom query --ns a=http://www.w3.org/2005/Atom
    /// '//a:entry/a:title' feed.xml`, or `xml5dom query 'count(//item)'
    /// data.xml`.
    Query {
        /// Bind a namespace prefix for the expression, as PREFIX=URI
        /// (repeatable). Example: `--ns a=http://www.w3.org/2005/Atom`.
        #[arg(long = "ns", value_name = "PREFIX=URI", value_parser = parse_binding)]
        namespaces: Vec<(String, String)>,
        /// The XPath 1.0 expression. Example: `'//item[@id]/title'`.
        expression: String,
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `data.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print what each document holds: nodes by kind, attributes, depth,
    /// namespaces, the encoding and the parse errors by code.
    ///
    /// Example: `xml5dom stats feed.xml config.xml`.
    Stats {
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml config.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print a completion script for a shell, generated from these
    /// arguments.
    ///
    /// Example: `xml5dom completions bash > ~/.local/share/bash-completion/completions/xml5dom`.
    Completions {
        /// The shell. Example: `zsh`.
        shell: clap_complete::Shell,
    },
}

/// `PREFIX=URI` for `--ns`.
fn parse_binding(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((prefix, uri)) if !prefix.is_empty() => Ok((prefix.to_owned(), uri.to_owned())),
        _ => Err(format!("expected PREFIX=URI, not {text:?}")),
    }
}

/// How `check` writes its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `path:line:column: code: message` and the source line.
    Human,
    /// One JSON object per error and line.
    Json,
}

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Color {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The canonical forms `canon` writes.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Form {
    /// W3C Canonical XML 1.0, without comments.
    C14n,
    /// W3C Canonical XML 1.0, with comments.
    C14nComments,
    /// The canonical form of the W3C XML Conformance Test Suite.
    Xmltest,
}

/// Runs the command line with the process's arguments.
pub fn main() -> ExitCode {
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
    let settings = Settings {
        recursive: cli.recursive,
        jobs: cli.jobs,
        quiet: cli.quiet,
        input_encoding: cli.input_encoding,
    };
    match run(cli.command, &settings) {
        Ok(code) => code,
        // The reader went away (`xml5dom tree big.xml | head`): stop quietly.
        Err(Error::Write(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xml5dom: {error}");
            ExitCode::from(2)
        }
    }
}

/// The options every subcommand shares.
struct Settings {
    recursive: bool,
    jobs: Option<usize>,
    quiet: bool,
    /// The encoding to read every input in, if the user chose one.
    input_encoding: Option<String>,
}

/// What a subcommand made of one file.
#[derive(Default)]
struct Outcome {
    /// For standard output.
    out: Vec<u8>,
    /// For standard error (whole lines).
    notes: String,
    /// Something was found: parse errors (`check`), a file to change
    /// (`fmt --check`).
    findings: bool,
    /// The file could not be worked on (read, or written back).
    failure: Option<String>,
}

/// How a batch lays out its files' outputs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Each output as it is (it names its file, or there is one file).
    Plain,
    /// With several files, a `==> FILE <==` line before each output.
    Banners,
    /// A blank line between outputs.
    Separated,
}

fn run(command: Command, settings: &Settings) -> Result<ExitCode, Error> {
    let options = match &settings.input_encoding {
        Some(label) => ParseOptions::default().encoding_label(label)?,
        None => ParseOptions::default(),
    };
    let parse = |bytes: &[u8]| Document::parse_bytes_with(bytes, &options);
    match command {
        Command::Tokens { paths } => batch(&paths, settings, Layout::Banners, |_, bytes, _| {
            let text = decode(&bytes, &options).text;
            let mut json = tokenize(&text, SuiteJson::default()).finish();
            json.push('\n');
            Outcome {
                out: json.into_bytes(),
                ..Outcome::default()
            }
        }),
        Command::Tree { paths } => {
            batch(&paths, settings, Layout::Banners, |_, bytes, _| Outcome {
                out: parse(&bytes).to_tree_dump().into_bytes(),
                ..Outcome::default()
            })
        }
        Command::Check {
            paths,
            format,
            color,
        } => {
            let colored = match color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            batch(&paths, settings, Layout::Plain, |path, bytes, _| {
                let doc = parse(&bytes);
                Outcome {
                    out: report(&path.display().to_string(), &doc, format, colored).into_bytes(),
                    findings: !doc.is_well_formed(),
                    ..Outcome::default()
                }
            })
        }
        Command::Fmt {
            pretty,
            encoding,
            in_place,
            check,
            force,
            paths,
        } => {
            let encoding = match encoding {
                None => OutputEncoding::Original,
                Some(label) => OutputEncoding::Other(
                    crate::Encoding::for_label(&label).ok_or(Error::UnknownEncoding(label))?,
                ),
            };
            let serialize = SerializeOptions { pretty, encoding };
            // `--check` names files; `--in-place` writes nothing out.
            let layout = if check || in_place {
                Layout::Plain
            } else {
                Layout::Banners
            };
            batch(&paths, settings, layout, |path, bytes, _| {
                let doc = parse(&bytes);
                let (written, repairs) = doc.to_bytes(&serialize);
                let mut outcome = Outcome::default();
                let shown = path.display();
                for repair in &repairs {
                    match repair.offset {
                        Some(offset) => {
                            let (line, column) = doc.position(offset);
                            outcome.notes.push_str(&format!(
                                "{shown}:{line}:{column}: repaired: {}\n",
                                repair.kind
                            ));
                        }
                        None => outcome
                            .notes
                            .push_str(&format!("{shown}: repaired: {}\n", repair.kind)),
                    }
                }
                if check {
                    if written != bytes {
                        outcome.out = format!("{shown}\n").into_bytes();
                        outcome.findings = true;
                    }
                } else if in_place {
                    if let Some(loss) = decoding_loss(&doc).filter(|_| !force) {
                        // Writing would put U+FFFD where the file has bytes.
                        outcome.failure = Some(format!("{shown}: not rewritten: {loss}"));
                    } else if written != bytes {
                        if let Err(message) = write_in_place(path, &written) {
                            outcome.failure = Some(message);
                        }
                    }
                } else {
                    outcome.out = written;
                }
                outcome
            })
        }
        Command::Canon { form, paths } => {
            let form = match form {
                Form::C14n => CanonicalForm::C14n,
                Form::C14nComments => CanonicalForm::C14nWithComments,
                Form::Xmltest => CanonicalForm::XmlTest,
            };
            batch(&paths, settings, Layout::Banners, |_, bytes, _| Outcome {
                out: canonicalize(&parse(&bytes), form).into_bytes(),
                ..Outcome::default()
            })
        }
        Command::Query {
            namespaces,
            expression,
            paths,
        } => {
            let xpath = XPath::compile(&expression)?;
            batch(&paths, settings, Layout::Plain, |path, bytes, many| {
                let doc = parse(&bytes);
                let mut bindings = Bindings::new();
                for (prefix, uri) in &namespaces {
                    bindings.namespace(prefix, uri);
                }
                let prefix = if many {
                    format!("{}: ", path.display())
                } else {
                    String::new()
                };
                let mut out = String::new();
                match xpath.evaluate_with(doc.root(), &bindings) {
                    Ok(Value::NodeSet(nodes)) => {
                        for node in nodes {
                            out.push_str(&prefix);
                            out.push_str(&show_node(node));
                            out.push('\n');
                        }
                    }
                    Ok(other) => {
                        out.push_str(&prefix);
                        out.push_str(&other.to_xpath_string());
                        out.push('\n');
                    }
                    Err(error) => {
                        let failure = if many {
                            format!("{}: {error}", path.display())
                        } else {
                            error.to_string()
                        };
                        return Outcome {
                            failure: Some(failure),
                            ..Outcome::default()
                        };
                    }
                }
                Outcome {
                    out: out.into_bytes(),
                    ..Outcome::default()
                }
            })
        }
        Command::Stats { paths } => batch(&paths, settings, Layout::Separated, |path, bytes, _| {
            Outcome {
                out: stats(&path.display().to_string(), &parse(&bytes)).into_bytes(),
                ..Outcome::default()
            }
        }),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut stdout = std::io::stdout().lock();
            clap_complete::generate(shell, &mut command, "xml5dom", &mut stdout);
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Works on every file `paths` name, in parallel, and writes the outcomes
/// in order: the outputs to standard output, notes and failures to
/// standard error. `job` gets the path, the file's bytes and whether there
/// are several files. Exit status: 2 if any file failed, else 1 if any had
/// findings, else 0.
fn batch<F>(
    paths: &[PathBuf],
    settings: &Settings,
    layout: Layout,
    job: F,
) -> Result<ExitCode, Error>
where
    F: Fn(&Path, Vec<u8>, bool) -> Outcome + Sync,
{
    let inputs = expand_paths(paths, settings.recursive);
    let many = inputs.len() > 1;
    let progress = progress_bar(&inputs, settings.quiet);
    let work = |input: &Input| {
        let outcome = match input {
            Input::File(path) => match read_bytes(path) {
                Ok(bytes) => job(path, bytes, many),
                Err(error) => Outcome {
                    failure: Some(error.to_string()),
                    ..Outcome::default()
                },
            },
            Input::Unusable(message) => Outcome {
                failure: Some(message.clone()),
                ..Outcome::default()
            },
        };
        progress.inc(1);
        outcome
    };
    let outcomes: Vec<Outcome> = match settings.jobs {
        Some(jobs) => rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build()
            .map_err(|e| Error::InvalidOption(e.to_string()))?
            .install(|| inputs.par_iter().map(work).collect()),
        None => inputs.par_iter().map(work).collect(),
    };
    progress.finish_and_clear();
    let mut stdout = std::io::stdout().lock();
    let (mut findings, mut failures, mut wrote) = (false, false, false);
    for (input, outcome) in inputs.iter().zip(outcomes) {
        if !outcome.out.is_empty() {
            match layout {
                Layout::Banners if many => {
                    if let Input::File(path) = input {
                        writeln!(stdout, "==> {} <==", path.display())?;
                    }
                }
                Layout::Separated if wrote => writeln!(stdout)?,
                _ => {}
            }
            wrote = true;
        }
        stdout.write_all(&outcome.out)?;
        findings |= outcome.findings;
        if !outcome.notes.is_empty() || outcome.failure.is_some() {
            stdout.flush()?;
            eprint!("{}", outcome.notes);
            if let Some(message) = outcome.failure {
                eprintln!("xml5dom: {message}");
                failures = true;
            }
        }
    }
    stdout.flush()?;
    Ok(if failures {
        ExitCode::from(2)
    } else if findings {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A progress bar on standard error, for many files or one large one, on a
/// terminal only and not with `--quiet`; hidden otherwise.
fn progress_bar(inputs: &[Input], quiet: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressStyle};

    const LARGE: u64 = 4 << 20;
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bytes: u64 = inputs
        .iter()
        .filter_map(|input| match input {
            Input::File(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            Input::Unusable(_) => None,
        })
        .sum();
    if inputs.len() > 1 {
        let bar = ProgressBar::new(inputs.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed}") {
            bar.set_style(style);
        }
        bar
    } else if bytes > LARGE {
        let bar = ProgressBar::new_spinner();
        bar.set_message(format!("{:.1} MB", bytes as f64 / 1e6));
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        bar
    } else {
        ProgressBar::hidden()
    }
}

/// Writes `bytes` over the file at `path` through a temporary file in the
/// same directory, renamed over it, with the file's permissions.
fn write_in_place(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if path.as_os_str() == "-" {
        return Err("cannot write standard input in place".to_owned());
    }
    let fail =
        |what: &str, error: std::io::Error| format!("cannot {what} {}: {error}", path.display());
    let permissions = std::fs::metadata(path)
        .map_err(|e| fail("read", e))?
        .permissions();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.xml5dom-{}.tmp", std::process::id()));
    let written = std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::set_permissions(&temporary, permissions))
        .and_then(|()| std::fs::rename(&temporary, path));
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(fail("write", error));
    }
    Ok(())
}

/// An input of a command that takes many: a file to read, or why a path
/// cannot be one.
enum Input {
    File(PathBuf),
    Unusable(String),
}

/// The extensions `-r` takes for XML files.
const XML_EXTENSIONS: &[&str] = &[
    "xml", "svg", "xhtml", "rss", "atom", "xsl", "xslt", "xsd", "kml", "gpx", "plist", "opf",
    "xlf", "resx", "csproj",
];

/// The files `paths` name, in order: files as given, the XML files of
/// directories (with `recursive`) in name order, depth first, without
/// recursion.
fn expand_paths(paths: &[PathBuf], recursive: bool) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" || !path.is_dir() {
            inputs.push(Input::File(path.clone()));
            continue;
        }
        if !recursive {
            inputs.push(Input::Unusable(format!(
                "{} is a directory (use -r to check the files in it)",
                path.display()
            )));
            continue;
        }
        // Directories still to read, the next one last.
        let mut pending = vec![path.clone()];
        while let Some(directory) = pending.pop() {
            let entries = match std::fs::read_dir(&directory) {
                Ok(entries) => entries,
                Err(error) => {
                    inputs.push(Input::Unusable(format!(
                        "cannot read directory {}: {error}",
                        directory.display()
                    )));
                    continue;
                }
            };
            // The entry's own file type: no second look at each file.
            let mut names: Vec<(PathBuf, bool)> = entries
                .filter_map(|e| e.ok())
                .map(|e| {
                    let path = e.path();
                    let is_dir = match e.file_type() {
                        Ok(kind) if kind.is_symlink() => path.is_dir(),
                        Ok(kind) => kind.is_dir(),
                        Err(_) => false,
                    };
                    (path, is_dir)
                })
                .collect();
            names.sort();
            let mut subdirectories = Vec::new();
            for (name, is_dir) in names {
                if is_dir {
                    subdirectories.push(name);
                } else if name
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| XML_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
                {
                    inputs.push(Input::File(name));
                }
            }
            // Depth first, in name order: the first subdirectory is read
            // next.
            pending.extend(subdirectories.into_iter().rev());
        }
    }
    inputs
}

/// `check`'s report on one document.
fn report(path: &str, doc: &Document, format: Format, colored: bool) -> String {
    use std::fmt::Write as _;

    let mut out = String::new();
    for error in doc.errors() {
        match format {
            Format::Json => {
                out.push_str("{\"file\": ");
                crate::tokenizer::push_json_string(&mut out, path);
                let _ = write!(
                    out,
                    ", \"line\": {}, \"column\": {}, \"offset\": {}, \"code\": ",
                    error.line, error.column, error.offset
                );
                crate::tokenizer::push_json_string(&mut out, error.code.as_str());
                out.push_str(", \"severity\": ");
                crate::tokenizer::push_json_string(&mut out, error.severity().as_str());
                out.push_str(", \"message\": ");
                crate::tokenizer::push_json_string(&mut out, &message(doc, error));
                out.push_str("}\n");
            }
            Format::Human => {
                let (bold, red, reset) = match (colored, error.severity()) {
                    (false, _) => ("", "", ""),
                    (true, Severity::Error) => ("\x1b[1m", "\x1b[1;31m", "\x1b[0m"),
                    (true, Severity::Warning) => ("\x1b[1m", "\x1b[1;33m", "\x1b[0m"),
                };
                let _ = writeln!(
                    out,
                    "{bold}{path}:{}:{}:{reset} {red}{}: {}{reset}: {}",
                    error.line,
                    error.column,
                    error.severity(),
                    error.code,
                    message(doc, error)
                );
                push_snippet(&mut out, doc.source(), error.offset, error.line, red, reset);
            }
        }
    }
    out
}

/// What reading `doc` lost, if anything: bytes that were not valid in its
/// encoding (each became U+FFFD), said for a person.
fn decoding_loss(doc: &Document) -> Option<String> {
    let lost = doc
        .errors()
        .iter()
        .filter(|e| e.code == ErrorCode::InvalidByteSequence)
        .count();
    if lost == 0 {
        return None;
    }
    let label = doc.xml_declaration().and_then(|d| d.encoding.as_deref());
    let unknown = doc
        .errors()
        .iter()
        .any(|e| e.code == ErrorCode::UnknownEncoding);
    let why = match label {
        Some(label) if unknown => {
            format!(", which it was read as since its declared encoding {label:?} is not known")
        }
        _ => String::new(),
    };
    Some(format!(
        "{lost} byte sequence{} not valid {}{why}; writing would replace {} with U+FFFD \
         (say the encoding with --input-encoding LABEL, or rewrite anyway with --force)",
        if lost == 1 { " is" } else { "s are" },
        doc.encoding(),
        if lost == 1 { "it" } else { "them" },
    ))
}

/// The message for `error`: its code's, naming the label for an unknown
/// encoding.
fn message(doc: &Document, error: &ParseError) -> String {
    let label = doc.xml_declaration().and_then(|d| d.encoding.as_deref());
    match (error.code, label) {
        (ErrorCode::UnknownEncoding, Some(label)) => {
            format!("the declared encoding {label:?} is not known; read as UTF-8")
        }
        (code, _) => code.message().to_owned(),
    }
}

/// The source line of `offset` under a gutter with its number, and a caret
/// under the offset's character. A long line is shown around the caret.
fn push_snippet(out: &mut String, source: &str, offset: usize, line: u32, red: &str, reset: &str) {
    use std::fmt::Write as _;

    const WIDTH: usize = 100;
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    // Only a window around the offset is looked at (a character is at most
    // four bytes), so that many errors on one long line cost what they
    // show, not a scan of the line each.
    let mut from = offset.saturating_sub(4 * WIDTH);
    while !source.is_char_boundary(from) {
        from += 1;
    }
    let mut to = (offset + 4 * WIDTH).min(source.len());
    while !source.is_char_boundary(to) {
        to -= 1;
    }
    let start = source[from..offset]
        .rfind(['\n', '\r'])
        .map_or(from, |i| from + i + 1);
    let end = source[offset..to]
        .find(['\n', '\r'])
        .map_or(to, |i| offset + i);
    let cut_before = start == from && from > 0;
    let cut_after = end == to && to < source.len();
    let before: Vec<char> = source[start..offset].chars().collect();
    let after: Vec<char> = source[offset..end].chars().collect();
    // At most WIDTH characters: the caret's context on both sides.
    let mut skip = before.len().saturating_sub(WIDTH / 2);
    if cut_before && skip == 0 {
        skip = before.len().min(1);
    }
    let keep_after = WIDTH.saturating_sub(before.len() - skip);
    let shown = |c: &char| {
        if c.is_control() && *c != '\t' {
            ' '
        } else {
            *c
        }
    };
    let mut text: String = before[skip..].iter().map(shown).collect();
    let mut caret: String = before[skip..]
        .iter()
        .map(|&c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    if skip > 0 {
        text.insert(0, '…');
        caret.insert(0, ' ');
    }
    text.extend(after.iter().take(keep_after).map(shown));
    if after.len() > keep_after || cut_after {
        text.push('…');
    }
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    let _ = writeln!(out, "{gutter} |");
    let _ = writeln!(out, "{number} | {text}");
    let _ = writeln!(out, "{gutter} | {caret}{red}^{reset}");
}

/// What `stats` prints for one document.
fn stats(path: &str, doc: &Document) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;

    use crate::dom::{Edge, NodeType};

    let (mut elements, mut attributes, mut declarations) = (0usize, 0usize, 0usize);
    let (mut texts, mut characters, mut comments, mut instructions) = (0usize, 0usize, 0, 0);
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut namespaces: BTreeMap<&str, usize> = BTreeMap::new();
    for edge in doc.root().traverse() {
        let node = match edge {
            Edge::Open(node) => node,
            Edge::Close(node) => {
                if node.is_element() {
                    depth -= 1;
                }
                continue;
            }
        };
        match node.node_type() {
            NodeType::Element => {
                elements += 1;
                depth += 1;
                deepest = deepest.max(depth);
                if let Some(uri) = node.namespace() {
                    *namespaces.entry(uri).or_default() += 1;
                }
                for attribute in node.attributes() {
                    attributes += 1;
                    if attribute.declared_prefix().is_some() {
                        declarations += 1;
                    } else if let Some(uri) = attribute.namespace() {
                        *namespaces.entry(uri).or_default() += 1;
                    }
                }
            }
            NodeType::Text => {
                texts += 1;
                characters += node.text().map_or(0, |t| t.chars().count());
            }
            NodeType::Comment => comments += 1,
            NodeType::ProcessingInstruction => instructions += 1,
            NodeType::Document | NodeType::Doctype => {}
        }
    }
    let mut by_code: [BTreeMap<&str, usize>; 2] = Default::default();
    for error in doc.errors() {
        let kind = usize::from(!error.is_error());
        *by_code[kind].entry(error.code.as_str()).or_default() += 1;
    }
    let mut out = String::new();
    let _ = writeln!(out, "{path}");
    let source = match doc.encoding_source() {
        crate::EncodingSource::Caller => "given",
        crate::EncodingSource::ByteOrderMark => "byte-order mark",
        crate::EncodingSource::Detection => "detected",
        crate::EncodingSource::Declaration => "declared",
        crate::EncodingSource::Default => "default",
    };
    let _ = writeln!(out, "  encoding: {} ({source})", doc.encoding().name());
    let _ = writeln!(out, "  elements: {elements}");
    let _ = writeln!(
        out,
        "  attributes: {attributes} ({declarations} namespace declarations)"
    );
    let _ = writeln!(out, "  text nodes: {texts} ({characters} characters)");
    let _ = writeln!(out, "  comments: {comments}");
    let _ = writeln!(out, "  processing instructions: {instructions}");
    let _ = writeln!(out, "  depth: {deepest}");
    let _ = writeln!(out, "  namespaces: {}", namespaces.len());
    for (uri, uses) in &namespaces {
        let _ = writeln!(out, "    {uri}: {uses}");
    }
    for (kind, counts) in ["errors", "warnings"].iter().zip(&by_code) {
        let _ = writeln!(out, "  {kind}: {}", counts.values().sum::<usize>());
        for (code, count) in counts {
            let _ = writeln!(out, "    {code}: {count}");
        }
    }
    out
}

/// One node of a query's result, as `query` prints it.
fn show_node(node: XNode<'_>) -> String {
    match node {
        XNode::Node(n) if n.is_text() => n.text().unwrap_or("").to_owned(),
        XNode::Node(n) if n.is_document() => n.document().to_xml(),
        XNode::Node(n) => n.to_xml(),
        XNode::Attribute(a) => {
            let attribute = a.attribute();
            format!(
                "{}=\"{}\"",
                attribute.name(),
                escape_value(attribute.value())
            )
        }
        XNode::Namespace(ns) if ns.prefix().is_empty() => {
            format!("xmlns=\"{}\"", escape_value(ns.uri()))
        }
        XNode::Namespace(ns) => format!("xmlns:{}=\"{}\"", ns.prefix(), escape_value(ns.uri())),
    }
}

/// An attribute value fit to sit between double quotes.
fn escape_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// Reads a file, or standard input for `-`.
fn read_bytes(path: &Path) -> Result<Vec<u8>, Error> {
    let display = path.display().to_string();
    let mut bytes = Vec::new();
    let result = if display == "-" {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut file| file.read_to_end(&mut bytes))
    };
    result.map_err(|source| Error::Read {
        path: display,
        source,
    })?;
    Ok(bytes)
}
