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

mod options;
mod report;
mod runner;

use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use xml5dom::events::{self, Event};
use xml5dom::query::{Value, XNode, XPath, XPathError};
use xml5dom::serializer::{
    CanonicalForm, CanonicalOptions, InclusiveNamespaces, OutputEncoding, SerializeOptions,
};
use xml5dom::tokenizer::{tokenize_reader_with, SuiteJsonWriter};
use xml5dom::{
    Document, Encoding, EncodingSource, ErrorCode, ErrorContext, Limits, ParseError, ParseOptions,
    Severity,
};

use options::{bindings, limit_note, message, named, parse_binding, Error, Format, LimitArgs};
use report::Report;
use runner::{batch, write_in_place, Comparison, Layout, Opened, Outcome, Settings};

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
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the token stream as one JSON array in the xml5lib-tests format.
    ///
    /// The array reads `[["StartTag", "feed", {}], ["Character", "\n"],
    /// ...]`, with a "ParseError" marker wherever the input breaks the
    /// rules. With several files, each one's output follows a `==> FILE <==`
    /// line. Exits with status 0, or 2 when a file cannot be read.
    #[command(after_help = "Example: xml5dom tokens feed.xml\n         \
                            xml5dom tokens -r tests/")]
    Tokens {
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print the document tree in the xml5lib-tests `#document` format.
    ///
    /// Each node is a line: `| <feed>`, then its attributes and children
    /// indented two spaces per level. Exits with status 0, or 2 when a file
    /// cannot be read.
    #[command(after_help = "Example: xml5dom tree feed.xml\n         \
                            xml5dom tree - < feed.xml")]
    Tree {
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
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
    #[command(after_help = "Example: xml5dom check feed.xml\n         \
                            xml5dom check -r exports/\n         \
                            xml5dom check --summary always -r exports/\n         \
                            xml5dom check --format json feed.xml")]
    Check {
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
    },
    /// Write the document back out: byte for byte if it parsed without
    /// errors, as repaired well-formed XML if not.
    ///
    /// Repairs (what XML could not carry) are listed on standard error. A
    /// file a limit stopped reading whole is written as read, with a
    /// `limit:` line on standard error; `--in-place` leaves such a file as
    /// it is. Exits with status 0, 1 with `--check` when a file would
    /// change and whenever a limit was reached, 2 when a file cannot be
    /// read or written (or is left as it is).
    #[command(
        after_help = "Example: xml5dom fmt --pretty=4 feed.xml > feed.pretty.xml\n         \
                            xml5dom fmt --in-place -r site/\n         \
                            xml5dom fmt --check -r ."
    )]
    Fmt {
        /// Indent element-only content, by N spaces per level (2 if `=N` is
        /// left out), breaking lines with the document's own line end (as
        /// its first line ends: CR LF, CR or LF). Example: `--pretty=4`.
        #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "2")]
        pretty: Option<usize>,
        /// Write in this encoding (a label such as `utf-8`, `shift_jis`,
        /// `utf-16le`, `cp850`); by default, the file's own encoding. The
        /// XML declaration's label is made to name it. (The encoding to
        /// read is `--input-encoding`.) Example: `--encoding utf-8`.
        #[arg(long, value_name = "LABEL")]
        encoding: Option<String>,
        /// Write each file back in place (through a temporary file renamed
        /// over it, keeping its permissions) instead of to standard output.
        /// A symbolic link is written through (the file it leads to is
        /// written; the link stays); a file with several hard links keeps
        /// them (its content is replaced where it is). Example: `xml5dom
        /// fmt --in-place --pretty feed.xml`.
        #[arg(long, conflicts_with = "check")]
        in_place: bool,
        /// Write nothing: print the files formatting would change, and exit
        /// with status 1 if there are any. Example: `xml5dom fmt --check -r .`.
        #[arg(long)]
        check: bool,
        /// With `--in-place`, rewrite a file even where reading it lost
        /// characters (bytes that are not valid in its encoding, which
        /// become U+FFFD) or a limit stopped reading it whole (what was
        /// not read is then not written); without it, such a file is left
        /// as it is, with one line on standard error. Example: `--in-place
        /// --force`.
        #[arg(long, requires = "in_place")]
        force: bool,
        /// Bind a prefix the document uses without declaring it to a
        /// namespace, as PREFIX=URI (repeatable): declared once on the root
        /// element, and its names written in that namespace instead of
        /// `urn:xml5dom:undeclared:PREFIX`. Example:
        /// `--bind-prefix dc=http://purl.org/dc/elements/1.1/`.
        #[arg(long = "bind-prefix", value_name = "PREFIX=URI", value_parser = parse_binding)]
        bind_prefix: Vec<(String, String)>,
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Write a canonical form of the document, or of the document subset
    /// an XPath expression selects (`--xpath`).
    ///
    /// The whole document is written as the file is read (streamed, in
    /// bounded memory), in every form; with `--xpath` the document is read
    /// whole first, to evaluate the expression. The C14N forms are
    /// libxml2's (`xmllint --c14n`, `--exc-c14n`, `--c14n11`) byte for
    /// byte.
    ///
    /// The canonical form is of a well-formed document. Of a broken one,
    /// what is written is the canonical form of the document recovery
    /// made (known broken only once it is read: the exit status says it),
    /// and its first errors are listed on standard error; `--repaired`
    /// accepts it. A document a limit stopped reading whole is never the
    /// file's.
    ///
    /// Exits with status 0 when every file was well-formed (warnings
    /// allowed) or, with `--repaired`, repaired; 1 when a file was broken
    /// (without `--repaired`) or a limit stopped reading it whole, as
    /// `xmllint --c14n` does; 2 when a file cannot be read.
    #[command(after_help = "Example: xml5dom canon signed.xml\n         \
                            xml5dom canon --repaired scraped.xml\n         \
                            xml5dom canon --form c14n-comments signed.xml\n         \
                            xml5dom canon --form exc-c14n --inclusive-ns 'soap #default' \\\n           \
                            --xpath '(//. | //@* | //namespace::*)[ancestor-or-self::soap:Body]' message.xml")]
    Canon {
        /// Which canonical form. Example: `--form exc-c14n`.
        #[arg(long, value_enum, default_value = "c14n")]
        form: Form,
        /// The InclusiveNamespaces PrefixList of the exclusive forms:
        /// prefixes separated by commas or spaces, `#default` for the
        /// default namespace. Example: `--inclusive-ns 'ds, #default'`.
        #[arg(long = "inclusive-ns", value_name = "PREFIXES")]
        inclusive_ns: Option<String>,
        /// Write only the nodes this XPath 1.0 expression selects (a
        /// node-set: elements, text, comments, PIs, attribute and namespace
        /// nodes), as XML Signature's document subsets. Example:
        /// `--xpath '(//. | //@* | //namespace::*)[ancestor-or-self::e]'`.
        #[arg(long, value_name = "EXPR")]
        xpath: Option<String>,
        /// Bind a namespace prefix for `--xpath`, as PREFIX=URI
        /// (repeatable); prefixes declared on the document element are
        /// bound too. Example: `--ns ds=http://www.w3.org/2000/09/xmldsig#`.
        #[arg(long = "ns", value_name = "PREFIX=URI", value_parser = parse_binding, requires = "xpath")]
        namespaces: Vec<(String, String)>,
        /// Accept the canonical form of what recovery made of broken input
        /// (exit status 0); its errors are still listed on standard error.
        /// A limit reached still exits with 1. Example: `--repaired`.
        #[arg(long)]
        repaired: bool,
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `signed.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Evaluate an XPath 1.0 expression against each document.
    ///
    /// A node-set prints one node per line: elements (and comments, PIs)
    /// as XML, attributes as `name="value"`, text as the text itself (a
    /// run of adjacent text, one text node in XPath, as one line). Any
    /// other result prints its value. With several files, each line starts
    /// with the file's path and `: `. Prefixes declared on the document
    /// element are bound unless `--ns` binds them otherwise.
    ///
    /// Exits, as grep does, with status 0 when the expression found
    /// something in some file: a node-set with a node, or any number,
    /// boolean or string (even `0`, `false` or an empty string: a value is
    /// a result); 1 when every result was an empty node-set (xmllint's
    /// "XPath set is empty"), printing nothing; 2 when the expression does
    /// not compile, cannot be evaluated (an unbound prefix), or a file
    /// cannot be read.
    #[command(
        after_help = "Example: xml5dom query '//item[@id]/title' data.xml\n         \
                            xml5dom query 'count(//item)' data.xml\n         \
                            xml5dom query --format json '//item/@id' data.xml\n         \
                            xml5dom query --ns a=http://www.w3.org/2005/Atom '//a:entry/a:title' feed.xml"
    )]
    Query {
        /// Bind a namespace prefix for the expression, as PREFIX=URI
        /// (repeatable). Example: `--ns a=http://www.w3.org/2005/Atom`.
        #[arg(long = "ns", value_name = "PREFIX=URI", value_parser = parse_binding)]
        namespaces: Vec<(String, String)>,
        /// `human` for people; `json` for tools: one JSON object per
        /// result and line: file, type (element, attribute, text, comment,
        /// processing-instruction, namespace, document, doctype; or number,
        /// boolean, string), value (the string-value; a number as a JSON
        /// number, NaN and the infinities as strings; a boolean as one),
        /// and for a node name (where it has one), xml (the line the human
        /// format prints), and line, column, offset (where it was read from
        /// the source). Example: `--format json`.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
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
    /// Exits with status 0, or 2 when a file cannot be read.
    #[command(after_help = "Example: xml5dom stats feed.xml config.xml\n         \
                            xml5dom stats -r exports/\n         \
                            xml5dom stats --format json feed.xml")]
    Stats {
        /// `human` for people; `json` for tools: one JSON object per file
        /// and line: file, encoding, encoding_source (given, byte-order
        /// mark, detected, declared, default), elements, attributes,
        /// namespace_declarations, text_nodes, characters, comments,
        /// processing_instructions, depth, namespaces (URI to uses), and
        /// errors, limits and warnings, each a count with its
        /// errors_by_code (limits_by_code, warnings_by_code). Example:
        /// `--format json`.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Files, directories (with `-r`) or `-` for standard input.
        /// Example: `feed.xml config.xml`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print a completion script for a shell, generated from these
    /// arguments.
    #[command(
        after_help = "Example: xml5dom completions bash > ~/.local/share/bash-completion/completions/xml5dom"
    )]
    Completions {
        /// The shell. Example: `zsh`.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff, for `man`), generated from these
    /// arguments: xml5dom(1), or a subcommand's (xml5dom-check(1), ...).
    #[command(
        after_help = "Example: xml5dom man > ~/.local/share/man/man1/xml5dom.1\n         \
                            xml5dom man check | man -l -\n         \
                            xml5dom man --out-dir ~/.local/share/man/man1"
    )]
    Man {
        /// The subcommand whose page to print; the command's own page if
        /// left out. Example: `check`.
        subcommand: Option<String>,
        /// Write every page (xml5dom.1 and one per subcommand) into this
        /// directory instead. Example: `--out-dir share/man/man1`.
        #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
        out_dir: Option<PathBuf>,
    },
}

impl Command {
    /// The subcommand's name, and what it does to files, for hints (`use
    /// xml5dom fmt -r to format the XML files in it`).
    fn hint_words(&self) -> (&'static str, &'static str) {
        match self {
            Command::Tokens { .. } => ("tokens", "tokenize"),
            Command::Tree { .. } => ("tree", "print the trees of"),
            Command::Check { .. } => ("check", "check"),
            Command::Fmt { .. } => ("fmt", "format"),
            Command::Canon { .. } => ("canon", "canonicalize"),
            Command::Query { .. } => ("query", "query"),
            Command::Stats { .. } => ("stats", "count what is in"),
            Command::Completions { .. } => ("completions", "complete"),
            Command::Man { .. } => ("man", "document"),
        }
    }
}

/// An XPath error as `query` says it: for a prefix the document uses
/// undeclared, with the `--ns` that selects its names.
fn query_error(error: &XPathError) -> String {
    match error {
        XPathError::UnboundPrefix {
            prefix,
            column,
            undeclared_namespace: Some(uri),
            ..
        } => format!(
            "the namespace prefix `{prefix}` at column {column} is not bound; the document \
             uses `{prefix}` without declaring it: select its names with --ns {prefix}={uri}"
        ),
        other => other.to_string(),
    }
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

/// The canonical forms `canon` writes.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Form {
    /// W3C Canonical XML 1.0, without comments.
    C14n,
    /// W3C Canonical XML 1.0, with comments.
    C14nComments,
    /// The canonical form of the W3C XML Conformance Test Suite.
    Xmltest,
    /// The suite's second canonical form: xmltest's, plus the internal
    /// subset's processing instructions and a DOCTYPE listing the
    /// notations it declares.
    Xmltest2,
    /// W3C Exclusive XML Canonicalization 1.0, without comments.
    ExcC14n,
    /// W3C Exclusive XML Canonicalization 1.0, with comments.
    ExcC14nComments,
    /// W3C Canonical XML 1.1, without comments.
    C14n11,
    /// W3C Canonical XML 1.1, with comments.
    C14n11Comments,
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
    let (command_name, verb) = cli.command.hint_words();
    let limits = match cli.limits.limits() {
        Ok(limits) => limits,
        Err(message) => {
            let _ = writeln!(io::stderr(), "xml5dom: {message}");
            return ExitCode::from(2);
        }
    };
    let settings = Settings {
        command_name,
        verb,
        search: matches!(cli.command, Command::Query { .. }),
        summary: match cli.command {
            Command::Check { summary, .. } => match summary {
                When::Always => true,
                When::Never => false,
                When::Auto => !cli.quiet && io::stderr().is_terminal(),
            },
            _ => false,
        },
        judges: matches!(
            cli.command,
            Command::Check { .. }
                | Command::Fmt { .. }
                | Command::Canon { .. }
                | Command::Query { .. }
        ),
        recursive: cli.recursive,
        jobs: cli.jobs,
        quiet: cli.quiet,
        input_encoding: cli.input_encoding,
        limits,
    };
    match run(cli.command, &settings) {
        Ok(code) => code,
        // The reader went away (`xml5dom tree big.xml | head`): stop quietly.
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(io::stderr(), "xml5dom: {error}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command, settings: &Settings) -> Result<ExitCode, Error> {
    let mut options = match &settings.input_encoding {
        Some(label) => ParseOptions::default().encoding_label(label)?,
        None => ParseOptions::default(),
    };
    options.limits = settings.limits.clone();
    let limits = &options.limits;
    // The document takes the file's bytes as its source (no copy, when they
    // are UTF-8).
    let parse = |bytes: Vec<u8>| Document::parse_vec_with(bytes, &options);
    // For standard error, where a limit cut a document short: what the
    // output is of.
    let read_as_cut = |path: &Path, doc: &Document| {
        let what = "the output is of the document as read, not of the whole file";
        limit_note(&path.display().to_string(), doc, limits, what).unwrap_or_default()
    };
    // A file read whole into a document, or the outcome of one that could
    // not be read.
    let read_document = |opened: Opened<'_>| -> Result<Document, Outcome> {
        opened
            .bytes()
            .map(parse)
            .map_err(|error| Outcome::failed(error.to_string()))
    };
    match command {
        Command::Tokens { paths } => {
            batch(
                &paths,
                settings,
                Layout::Banners,
                &|path, opened, _, out| {
                    // Streamed: decoded and tokenized as it is read.
                    let writer = match tokenize_reader_with(
                        opened.reader,
                        SuiteJsonWriter::new(out),
                        &options,
                    ) {
                        Ok(writer) => writer,
                        Err(error) => return Ok(Outcome::failed(named(path, error).to_string())),
                    };
                    let out = writer.finish()?;
                    out.write_all(b"\n")?;
                    Ok(Outcome::default())
                },
            )
        }
        Command::Tree { paths } => batch(
            &paths,
            settings,
            Layout::Banners,
            &|path, opened, _, out| {
                let doc = match read_document(opened) {
                    Ok(doc) => doc,
                    Err(outcome) => return Ok(outcome),
                };
                doc.write_tree_dump(out)?;
                Ok(Outcome {
                    notes: read_as_cut(path, &doc),
                    ..Outcome::default()
                })
            },
        ),
        Command::Check {
            paths,
            format,
            color,
            max_errors,
            summary: _,
        } => {
            let colored = match color {
                When::Always => true,
                When::Never => false,
                When::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
            };
            let report = Report {
                format,
                colored,
                max_errors,
                limits: limits.clone(),
            };
            // Streamed: the errors come as the file is read, in bounded memory.
            batch(&paths, settings, Layout::Plain, &|path, opened, _, out| {
                report.check(path, opened.reader, &options, out)
            })
        }
        Command::Fmt {
            pretty,
            encoding,
            in_place,
            check,
            force,
            bind_prefix,
            paths,
        } => {
            let encoding = match encoding {
                None => OutputEncoding::Original,
                Some(label) => OutputEncoding::Other(
                    Encoding::for_label(&label).ok_or(xml5dom::Error::UnknownEncoding(label))?,
                ),
            };
            let serialize = SerializeOptions { pretty, encoding };
            // `--check` names files; `--in-place` writes nothing out.
            let layout = if check || in_place {
                Layout::Plain
            } else {
                Layout::Banners
            };
            batch(&paths, settings, layout, &|path, opened, _, out| {
                let bytes = match opened.bytes() {
                    Ok(bytes) => bytes,
                    Err(error) => return Ok(Outcome::failed(error.to_string())),
                };
                // `--check` and `--in-place` compare the output with the
                // file's bytes, so they keep them; otherwise the document
                // takes them.
                let (mut doc, bytes) = if check || in_place {
                    (Document::parse_bytes_with(&bytes, &options), bytes)
                } else {
                    (parse(bytes), Vec::new())
                };
                let shown = path.display();
                let mut outcome = Outcome::default();
                for (prefix, uri) in &bind_prefix {
                    match doc.bind_undeclared_prefix(prefix, uri) {
                        Ok(0) => outcome.notes.push_str(&format!(
                            "{shown}: --bind-prefix {prefix}: no name uses `{prefix}` undeclared\n"
                        )),
                        Ok(_) => {}
                        Err(error) => {
                            return Ok(Outcome::failed(format!(
                                "{shown}: --bind-prefix {prefix}={uri}: {error}"
                            )))
                        }
                    }
                }
                // A document a limit cut short is not all of the file: it
                // is said, and never passes for the file formatted.
                let cut = |what: &str| limit_note(&shown.to_string(), &doc, limits, what);
                let repairs = if check {
                    let mut same = Comparison::new(&bytes);
                    let repairs = doc.write_xml(&mut same, &serialize)?;
                    if !same.equal() {
                        writeln!(out, "{shown}")?;
                        outcome.findings = true;
                    }
                    if let Some(note) = cut("the file was not checked whole") {
                        outcome.notes.push_str(&note);
                        outcome.findings = true;
                    }
                    repairs
                } else if in_place {
                    if let Some(loss) = decoding_loss(&doc).filter(|_| !force) {
                        // Writing would put U+FFFD where the file has bytes.
                        outcome.failure = Some(format!("{shown}: not rewritten: {loss}"));
                        Vec::new()
                    } else if let Some(limit) = doc.limit_reached().filter(|_| !force) {
                        // Writing would put the document as cut in its place.
                        outcome.failure = Some(format!(
                            "{shown}: not rewritten: {} at line {}, column {}: {}; writing \
                             would keep only what was read (rewrite anyway with --force)",
                            limit.code,
                            limit.line,
                            limit.column,
                            message(None, limits, limit, None)
                        ));
                        Vec::new()
                    } else {
                        if let Some(note) = cut("rewritten as read, not as the whole file") {
                            outcome.notes.push_str(&note);
                        }
                        match write_in_place(path, &bytes, |file| doc.write_xml(file, &serialize)) {
                            Ok(repairs) => repairs,
                            Err(message) => {
                                outcome.failure = Some(message);
                                Vec::new()
                            }
                        }
                    }
                } else {
                    let repairs = doc.write_xml(out, &serialize)?;
                    if let Some(note) = cut("the output is what was read, not the whole file") {
                        outcome.notes.push_str(&note);
                        outcome.findings = true;
                    }
                    repairs
                };
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
                Ok(outcome)
            })
        }
        Command::Canon {
            form,
            inclusive_ns,
            xpath,
            namespaces,
            repaired,
            paths,
        } => {
            let form = match form {
                Form::C14n => CanonicalForm::C14n,
                Form::C14nComments => CanonicalForm::C14nWithComments,
                Form::Xmltest => CanonicalForm::XmlTest,
                Form::Xmltest2 => CanonicalForm::XmlTestSecond,
                Form::ExcC14n => CanonicalForm::ExcC14n,
                Form::ExcC14nComments => CanonicalForm::ExcC14nWithComments,
                Form::C14n11 => CanonicalForm::C14n11,
                Form::C14n11Comments => CanonicalForm::C14n11WithComments,
            };
            let exclusive = matches!(
                form,
                CanonicalForm::ExcC14n | CanonicalForm::ExcC14nWithComments
            );
            if inclusive_ns.is_some() && !exclusive {
                return Err(Error::Usage(
                    "--inclusive-ns applies to the exclusive forms only (exc-c14n, exc-c14n-comments)"
                        .to_owned(),
                ));
            }
            if xpath.is_some() && !form.is_c14n() {
                return Err(Error::Usage(
                    "--xpath needs a Canonical XML form (c14n, exc-c14n, c14n11 and their -comments)"
                        .to_owned(),
                ));
            }
            let inclusive = InclusiveNamespaces::parse(inclusive_ns.as_deref().unwrap_or(""));
            if let Some(expression) = xpath {
                let xpath = XPath::compile(&expression)?;
                // A subset: the document is read whole to evaluate the
                // expression.
                return batch(
                    &paths,
                    settings,
                    Layout::Banners,
                    &|path, opened, many, out| {
                        let doc = match read_document(opened) {
                            Ok(doc) => doc,
                            Err(outcome) => return Ok(outcome),
                        };
                        let bindings = bindings(&namespaces);
                        let nodes = match xpath.select_with(doc.root(), &bindings) {
                            Ok(nodes) => nodes,
                            Err(error) if many => {
                                return Ok(Outcome::failed(format!("{}: {error}", path.display())))
                            }
                            Err(error) => return Ok(Outcome::failed(error.to_string())),
                        };
                        let canonical = CanonicalOptions {
                            inclusive_namespaces: inclusive.clone(),
                            subset: Some(&nodes),
                        };
                        xml5dom::write_canonical_with(&doc, form, &canonical, out)?;
                        let mut damage = Damage::default();
                        for (index, error) in doc.errors().iter().enumerate() {
                            damage.error(error, doc.error_context(index));
                        }
                        Ok(damage.outcome(path, limits, repaired))
                    },
                );
            }
            // Streamed: written as the file is read, in bounded memory; the
            // errors are known at the end.
            batch(
                &paths,
                settings,
                Layout::Banners,
                &|path, opened, _, mut out| {
                    let mut damage = Damage::default();
                    let written = events::write_canonical_reader_reporting(
                        opened.reader,
                        &options,
                        form,
                        &inclusive,
                        &mut out,
                        |event| match event {
                            Event::Error(error) => damage.error(&error, None),
                            Event::ErrorContext(context) => damage.context(context),
                            _ => {}
                        },
                    );
                    match written {
                        Ok(()) => Ok(damage.outcome(path, limits, repaired)),
                        Err(xml5dom::Error::Write(error)) => Err(error),
                        Err(error) => Ok(Outcome::failed(named(path, error).to_string())),
                    }
                },
            )
        }
        Command::Query {
            namespaces,
            format,
            expression,
            paths,
        } => {
            let xpath = XPath::compile(&expression)?;
            batch(
                &paths,
                settings,
                Layout::Plain,
                &|path, opened, many, out| {
                    let doc = match read_document(opened) {
                        Ok(doc) => doc,
                        Err(outcome) => return Ok(outcome),
                    };
                    let bindings = bindings(&namespaces);
                    let prefix = if many {
                        format!("{}: ", path.display())
                    } else {
                        String::new()
                    };
                    let shown = path.display().to_string();
                    let matched = match xpath.evaluate_with(doc.root(), &bindings) {
                        Ok(Value::NodeSet(nodes)) if format == Format::Json => {
                            let found = !nodes.is_empty();
                            for node in nodes {
                                out.write_all(json_node(&shown, node)?.as_bytes())?;
                            }
                            found
                        }
                        Ok(Value::NodeSet(nodes)) => {
                            let found = !nodes.is_empty();
                            for node in nodes {
                                out.write_all(prefix.as_bytes())?;
                                write_node(node, out)?;
                                out.write_all(b"\n")?;
                            }
                            found
                        }
                        // A number, boolean or string is a result, even
                        // `0`, `false` or "".
                        Ok(other) if format == Format::Json => {
                            out.write_all(json_value(&shown, &other).as_bytes())?;
                            true
                        }
                        Ok(other) => {
                            writeln!(out, "{prefix}{}", other.to_xpath_string())?;
                            true
                        }
                        Err(error) if many => {
                            let message = query_error(&error);
                            return Ok(Outcome::failed(format!("{}: {message}", path.display())));
                        }
                        Err(error) => return Ok(Outcome::failed(query_error(&error))),
                    };
                    Ok(Outcome {
                        matched,
                        notes: read_as_cut(path, &doc),
                        ..Outcome::default()
                    })
                },
            )
        }
        Command::Stats { format, paths } => batch(
            &paths,
            settings,
            // JSON Lines: one object per file, nothing between.
            match format {
                Format::Human => Layout::Separated,
                Format::Json => Layout::Plain,
            },
            // Streamed: counted from the events as the file is read.
            &|path, opened, _, out| {
                let shown = path.display().to_string();
                match stats(&shown, opened.reader, &options) {
                    Ok(counts) if format == Format::Json => {
                        out.write_all(counts.json(&shown).as_bytes())?
                    }
                    Ok(counts) => out.write_all(counts.human(&shown).as_bytes())?,
                    Err(error) => return Ok(Outcome::failed(named(path, error).to_string())),
                }
                Ok(Outcome::default())
            },
        ),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut stdout = io::stdout().lock();
            clap_complete::generate(shell, &mut command, "xml5dom", &mut stdout);
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man {
            subcommand,
            out_dir,
        } => {
            let mut command =
                <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
            // (Names the subcommands' pages xml5dom-check and so on.)
            command.build();
            // Every page says which xml5dom it documents.
            let man = |page: clap::Command| {
                clap_mangen::Man::new(page).source(format!("xml5dom {}", env!("CARGO_PKG_VERSION")))
            };
            if let Some(directory) = out_dir {
                let mut pages: Vec<clap::Command> = command.get_subcommands().cloned().collect();
                pages.insert(0, command);
                for page in pages {
                    man(page).generate_to(&directory).map_err(|error| {
                        Error::Usage(format!("cannot write in {}: {error}", directory.display()))
                    })?;
                }
                return Ok(ExitCode::SUCCESS);
            }
            let page = match subcommand {
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
}

/// What made a document `canon` wrote other than the file's: its errors
/// (the first few kept, to list) and limits reached. Warnings do not count.
#[derive(Default)]
struct Damage {
    errors: usize,
    limits: usize,
    shown: Vec<(ParseError, Option<ErrorContext>)>,
    /// The last error is in `shown` (its context, which follows it, goes
    /// with it).
    last_shown: bool,
}

/// How many errors `canon` lists for a file (`check` lists them all).
const DAMAGE_SHOWN: usize = 10;

impl Damage {
    fn error(&mut self, error: &ParseError, context: Option<&ErrorContext>) {
        self.last_shown = false;
        match error.severity() {
            Severity::Warning => return,
            Severity::Error => self.errors += 1,
            Severity::Limit => self.limits += 1,
        }
        if self.shown.len() < DAMAGE_SHOWN {
            self.shown.push((*error, context.cloned()));
            self.last_shown = true;
        }
    }

    fn context(&mut self, context: &ErrorContext) {
        if let (true, Some(last)) = (self.last_shown, self.shown.last_mut()) {
            last.1 = Some(context.clone());
        }
    }

    /// The errors as `check` heads them (`path:line:column: error: code:
    /// message`), and a line that says what the output is: a finding,
    /// unless the errors were repairs `--repaired` accepts.
    fn outcome(&self, path: &Path, limits: &Limits, repaired: bool) -> Outcome {
        use std::fmt::Write as _;

        let mut outcome = Outcome::default();
        if self.errors + self.limits == 0 {
            return outcome;
        }
        let shown = path.display();
        let notes = &mut outcome.notes;
        for (error, context) in &self.shown {
            let said = message(None, limits, error, context.as_ref());
            let _ = writeln!(
                notes,
                "{shown}:{}:{}: {}: {}: {said}",
                error.line,
                error.column,
                error.severity(),
                error.code
            );
        }
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let mut counts = Vec::new();
        if self.errors > 0 {
            counts.push(plural(self.errors, "error"));
        }
        if self.limits > 0 {
            counts.push(format!("{} reached", plural(self.limits, "limit")));
        }
        let counts = counts.join(", ");
        let left_out = self.errors + self.limits - self.shown.len();
        let more = match left_out {
            0 => String::new(),
            n => format!("; {n} more not shown (`xml5dom check` lists them all)"),
        };
        let what = match (self.limits > 0, repaired) {
            (true, _) => "the output is of the document as read, not of the whole file",
            (false, true) => "the output is the canonical form of the repaired document",
            (false, false) => {
                "the output is the canonical form of the repaired document, not of the file \
                 (--repaired accepts it)"
            }
        };
        let _ = writeln!(notes, "{shown}: {counts}{more}: {what}");
        outcome.findings = self.limits > 0 || !repaired;
        outcome
    }
}

/// What reading `doc` lost or guessed, if anything: bytes that were not
/// valid in its encoding (each became U+FFFD, or in UTF-8 its bytes'
/// windows-1252 characters: a guess that writing would fix in the file),
/// said for a person.
fn decoding_loss(doc: &Document) -> Option<String> {
    let count = |code: ErrorCode| doc.errors().iter().filter(|e| e.code == code).count();
    let (replaced, misread) = (
        count(ErrorCode::InvalidByteSequence),
        count(ErrorCode::Windows1252InUtf8),
    );
    let lost = replaced + misread;
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
    let with = if replaced == 0 {
        "their windows-1252 characters"
    } else {
        "U+FFFD"
    };
    Some(format!(
        "{lost} byte sequence{} not valid {}{why}; writing would replace {} with {with} \
         (say the encoding with --input-encoding LABEL, or rewrite anyway with --force)",
        if lost == 1 { " is" } else { "s are" },
        doc.encoding(),
        if lost == 1 { "it" } else { "them" },
    ))
}

/// What `stats` counts in one input.
#[derive(Default)]
struct Counts {
    encoding: Option<(Encoding, EncodingSource)>,
    elements: usize,
    attributes: usize,
    declarations: usize,
    texts: usize,
    characters: usize,
    comments: usize,
    instructions: usize,
    depth: usize,
    /// Uses of each namespace URI, by names of elements and attributes.
    namespaces: std::collections::BTreeMap<String, usize>,
    /// Errors, limits reached and warnings, by code.
    by_code: [std::collections::BTreeMap<&'static str, usize>; 3],
}

/// The names of `Counts::by_code`'s three kinds, as `stats` says them.
const KINDS: [&str; 3] = ["errors", "limits", "warnings"];

impl Counts {
    fn encoding(&self) -> (Encoding, &'static str) {
        let (encoding, found) = self
            .encoding
            .unwrap_or((Encoding::UTF_8, EncodingSource::Default));
        let source = match found {
            EncodingSource::Caller => "given",
            EncodingSource::ByteOrderMark => "byte-order mark",
            EncodingSource::Detection => "detected",
            EncodingSource::Declaration => "declared",
            EncodingSource::Default => "default",
        };
        (encoding, source)
    }

    /// The human format: the path, then a line per count.
    fn human(&self, path: &str) -> String {
        use std::fmt::Write as _;

        let mut out = String::new();
        let _ = writeln!(out, "{path}");
        let (encoding, source) = self.encoding();
        let _ = writeln!(out, "  encoding: {} ({source})", encoding.name());
        let _ = writeln!(out, "  elements: {}", self.elements);
        let _ = writeln!(
            out,
            "  attributes: {} ({} namespace declarations)",
            self.attributes, self.declarations
        );
        let _ = writeln!(
            out,
            "  text nodes: {} ({} characters)",
            self.texts, self.characters
        );
        let _ = writeln!(out, "  comments: {}", self.comments);
        let _ = writeln!(out, "  processing instructions: {}", self.instructions);
        let _ = writeln!(out, "  depth: {}", self.depth);
        let _ = writeln!(out, "  namespaces: {}", self.namespaces.len());
        for (uri, uses) in &self.namespaces {
            let _ = writeln!(out, "    {uri}: {uses}");
        }
        for (kind, counts) in KINDS.iter().zip(&self.by_code) {
            let _ = writeln!(out, "  {kind}: {}", counts.values().sum::<usize>());
            for (code, count) in counts {
                let _ = writeln!(out, "    {code}: {count}");
            }
        }
        out
    }

    /// One JSON object and a line feed, named as the human format's lines.
    fn json(&self, path: &str) -> String {
        use std::fmt::Write as _;
        use xml5dom::tokenizer::push_json_string;

        let object = |out: &mut String, map: &mut dyn Iterator<Item = (&str, usize)>| {
            out.push('{');
            for (i, (key, count)) in map.enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_json_string(out, key);
                let _ = write!(out, ": {count}");
            }
            out.push('}');
        };
        let mut out = String::from("{\"file\": ");
        push_json_string(&mut out, path);
        let (encoding, source) = self.encoding();
        out.push_str(", \"encoding\": ");
        push_json_string(&mut out, encoding.name());
        out.push_str(", \"encoding_source\": ");
        push_json_string(&mut out, source);
        let _ = write!(
            out,
            ", \"elements\": {}, \"attributes\": {}, \"namespace_declarations\": {}, \
             \"text_nodes\": {}, \"characters\": {}, \"comments\": {}, \
             \"processing_instructions\": {}, \"depth\": {}, \"namespaces\": ",
            self.elements,
            self.attributes,
            self.declarations,
            self.texts,
            self.characters,
            self.comments,
            self.instructions,
            self.depth
        );
        object(
            &mut out,
            &mut self.namespaces.iter().map(|(uri, n)| (uri.as_str(), *n)),
        );
        for (kind, counts) in KINDS.iter().zip(&self.by_code) {
            let _ = write!(
                out,
                ", \"{kind}\": {}, \"{kind}_by_code\": ",
                counts.values().sum::<usize>()
            );
            object(&mut out, &mut counts.iter().map(|(code, n)| (*code, *n)));
        }
        out.push_str("}\n");
        out
    }
}

/// What `stats` finds in one input, counted from its events as it is
/// read (each event a node of the tree the document would have).
fn stats(
    path: &str,
    mut input: impl Read,
    options: &ParseOptions,
) -> Result<Counts, xml5dom::Error> {
    let mut counts = Counts::default();
    let mut open = 0usize;
    let mut parser = events::Parser::with_options(options, |event| {
        let counts = &mut counts;
        let mut uses = |uri: &str| match counts.namespaces.get_mut(uri) {
            Some(count) => *count += 1,
            None => {
                counts.namespaces.insert(uri.to_owned(), 1);
            }
        };
        match event {
            Event::StartElement(start) => {
                if let Some(uri) = start.name.namespace {
                    uses(uri);
                }
                let mut attributes = 0;
                let mut declarations = 0;
                for attribute in start.attributes {
                    attributes += 1;
                    if attribute.is_namespace_declaration() {
                        declarations += 1;
                    } else if let Some(uri) = attribute.name.namespace {
                        uses(uri);
                    }
                }
                counts.elements += 1;
                counts.attributes += attributes;
                counts.declarations += declarations;
                counts.depth = counts.depth.max(open + 1);
                open += usize::from(!start.empty);
            }
            Event::EndElement(_) => open = open.saturating_sub(1),
            Event::Text { text, .. } => {
                counts.texts += 1;
                counts.characters += text.chars().count();
            }
            Event::Comment { .. } => counts.comments += 1,
            Event::ProcessingInstruction { .. } => counts.instructions += 1,
            Event::Error(error) => {
                let kind = match error.severity() {
                    Severity::Error => 0,
                    Severity::Limit => 1,
                    Severity::Warning => 2,
                };
                *counts.by_code[kind].entry(error.code.as_str()).or_default() += 1;
            }
            _ => {}
        }
    });
    let mut buffer = vec![0; 64 << 10];
    loop {
        match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => parser.feed(&buffer[..read]),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(source) => {
                return Err(xml5dom::Error::Read {
                    path: path.to_owned(),
                    source,
                })
            }
        }
        if parser.is_cut() {
            break;
        }
    }
    parser.end();
    let encoding = parser.encoding();
    drop(parser);
    counts.encoding = encoding;
    Ok(counts)
}

/// One node of a query's result as a line of JSON: `file`, `type`,
/// `name` (where it has one), `value` (its string-value), `xml` (as the
/// human format prints it), and `line`, `column`, `offset` where it was
/// read from the source.
fn json_node(path: &str, node: XNode<'_>) -> io::Result<String> {
    use std::fmt::Write as _;
    use xml5dom::tokenizer::push_json_string;
    use xml5dom::NodeType;

    let (kind, name, span, doc) = match node {
        XNode::Node(n) => {
            let kind = match n.node_type() {
                NodeType::Document => "document",
                NodeType::Doctype => "doctype",
                NodeType::Element => "element",
                NodeType::Text => "text",
                NodeType::Comment => "comment",
                NodeType::ProcessingInstruction => "processing-instruction",
            };
            let name = Some(n.name()).filter(|name| !name.is_empty());
            (kind, name, n.span(), n.document())
        }
        XNode::Attribute(a) => {
            let attribute = a.attribute();
            (
                "attribute",
                Some(attribute.name()),
                attribute.span(),
                a.element().document(),
            )
        }
        XNode::Namespace(ns) => (
            "namespace",
            Some(ns.prefix()),
            None,
            ns.element().document(),
        ),
    };
    let mut xml = Vec::new();
    write_node(node, &mut xml)?;
    let mut out = String::from("{\"file\": ");
    push_json_string(&mut out, path);
    out.push_str(", \"type\": ");
    push_json_string(&mut out, kind);
    if let Some(name) = name {
        out.push_str(", \"name\": ");
        push_json_string(&mut out, name);
    }
    out.push_str(", \"value\": ");
    push_json_string(&mut out, &node.string_value());
    out.push_str(", \"xml\": ");
    push_json_string(&mut out, &String::from_utf8_lossy(&xml));
    if let Some(span) = span {
        let (line, column) = doc.position(span.start);
        let _ = write!(
            out,
            ", \"line\": {line}, \"column\": {column}, \"offset\": {}",
            span.start
        );
    }
    out.push_str("}\n");
    Ok(out)
}

/// A query's number, boolean or string as a line of JSON: `file`, `type`
/// and `value` (a JSON number, boolean or string; NaN and the infinities,
/// which JSON has no numbers for, as the strings XPath writes).
fn json_value(path: &str, value: &Value) -> String {
    use xml5dom::tokenizer::push_json_string;

    let mut out = String::from("{\"file\": ");
    push_json_string(&mut out, path);
    let (kind, json) = match value {
        Value::Number(n) if n.is_finite() => ("number", n.to_string()),
        Value::Number(_) => {
            let mut text = String::new();
            push_json_string(&mut text, &value.to_xpath_string());
            ("number", text)
        }
        Value::Boolean(b) => ("boolean", b.to_string()),
        _ => {
            let mut text = String::new();
            push_json_string(&mut text, &value.to_xpath_string());
            ("string", text)
        }
    };
    out.push_str(", \"type\": ");
    push_json_string(&mut out, kind);
    out.push_str(", \"value\": ");
    out.push_str(&json);
    out.push_str("}\n");
    out
}

/// Writes one node of a query's result as `query` prints it. A text node
/// is the whole run of adjacent text it stands for in XPath, as
/// `xmllint --noent --xpath` prints the one text node libxml2 keeps.
fn write_node(node: XNode<'_>, out: &mut dyn Write) -> io::Result<()> {
    match node {
        XNode::Node(n) if n.is_text() => out.write_all(node.string_value().as_bytes()),
        XNode::Node(n) if n.is_document() => n
            .document()
            .write_xml(out, &SerializeOptions::default())
            .map(drop),
        XNode::Node(n) => n.write_xml(out),
        XNode::Attribute(a) => {
            let attribute = a.attribute();
            let value = escape_value(attribute.value());
            write!(out, "{}=\"{value}\"", attribute.name())
        }
        XNode::Namespace(ns) if ns.prefix().is_empty() => {
            write!(out, "xmlns=\"{}\"", escape_value(ns.uri()))
        }
        XNode::Namespace(ns) => {
            write!(out, "xmlns:{}=\"{}\"", ns.prefix(), escape_value(ns.uri()))
        }
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
