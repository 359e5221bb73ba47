//! The last stage: the `xml5dom` command line.
//!
//! It owns argument parsing, reading inputs and printing results; the work
//! itself is the library's. Errors of the caller's own (a missing file, a
//! bad flag) are one line on standard error and exit status 2.
//!
//! ```text
//! xml5dom tokens FILE     the token stream as JSON, in the xml5lib-tests format
//! xml5dom tree FILE       the tree, in the xml5lib-tests #document format
//! xml5dom check FILE      every parse error as path:line:column: code: message
//! xml5dom fmt FILE        the document written back (lossless, or repaired)
//! xml5dom canon FILE      a canonical form (C14N 1.0, or xmltest's)
//! ```

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::decoding::{decode, ParseOptions};
use crate::error::Error;
use crate::serializer::{canonicalize, CanonicalForm, OutputEncoding, SerializeOptions};
use crate::tokenizer::{tokenize, SuiteJson};
use crate::Document;

#[derive(Parser, Debug)]
#[command(
    name = "xml5dom",
    version,
    about = "Load any XML, however broken, the way XML5 recovers, and show what came out."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the token stream as one JSON array in the xml5lib-tests format.
    ///
    /// Example: `xml5dom tokens feed.xml` prints
    /// `[["StartTag", "feed", {}], ["Character", "\n"], ...]`, with a
    /// "ParseError" marker wherever the input breaks the rules.
    Tokens {
        /// The file to read, or `-` for standard input.
        file: PathBuf,
    },
    /// Print the document tree in the xml5lib-tests `#document` format.
    ///
    /// Example: `xml5dom tree feed.xml` prints `| <feed>`, then its
    /// attributes and children indented two spaces per level.
    Tree {
        /// The file to read, or `-` for standard input.
        file: PathBuf,
    },
    /// Print every parse error as `path:line:column: code: message`.
    ///
    /// Exits with status 0 when the file has no errors and 1 when it has.
    /// Example: `xml5dom check feed.xml`.
    Check {
        /// The file to read, or `-` for standard input.
        file: PathBuf,
    },
    /// Write the document back out: byte for byte if it parsed without
    /// errors, as repaired well-formed XML if not.
    ///
    /// Repairs (what XML could not carry) are listed on standard error.
    /// Example: `xml5dom fmt --pretty=4 feed.xml > feed.pretty.xml`.
    Fmt {
        /// Indent element-only content, by N spaces per level (2 if `=N` is
        /// left out).
        #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "2")]
        pretty: Option<usize>,
        /// Write in this encoding (a WHATWG label such as `utf-8`,
        /// `shift_jis`, `utf-16le`); by default, the file's own encoding.
        #[arg(long, value_name = "LABEL")]
        encoding: Option<String>,
        /// The file to read, or `-` for standard input.
        file: PathBuf,
    },
    /// Write a canonical form of the document.
    ///
    /// Example: `xml5dom canon --form c14n-comments signed.xml`.
    Canon {
        /// Which canonical form.
        #[arg(long, value_enum, default_value = "c14n")]
        form: Form,
        /// The file to read, or `-` for standard input.
        file: PathBuf,
    },
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
    match run(cli.command) {
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

fn run(command: Command) -> Result<ExitCode, Error> {
    let options = ParseOptions::default();
    match command {
        Command::Tokens { file } => {
            let bytes = read_bytes(&file)?;
            let text = decode(&bytes, &options).text;
            let json = tokenize(&text, SuiteJson::default()).finish();
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(json.as_bytes())?;
            stdout.write_all(b"\n")?;
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Tree { file } => {
            let doc = Document::parse_bytes_with(&read_bytes(&file)?, &options);
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(doc.to_tree_dump().as_bytes())?;
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { file } => {
            let doc = Document::parse_bytes_with(&read_bytes(&file)?, &options);
            let path = file.display();
            let mut stdout = std::io::stdout().lock();
            for error in doc.errors() {
                writeln!(
                    stdout,
                    "{path}:{}:{}: {}: {}",
                    error.line,
                    error.column,
                    error.code,
                    error.code.message()
                )?;
            }
            stdout.flush()?;
            Ok(if doc.errors().is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Fmt {
            pretty,
            encoding,
            file,
        } => {
            let encoding = match encoding {
                None => OutputEncoding::Original,
                Some(label) => OutputEncoding::Other(
                    crate::Encoding::for_label(label.trim().as_bytes())
                        .ok_or(Error::UnknownEncoding(label))?,
                ),
            };
            let doc = Document::parse_bytes_with(&read_bytes(&file)?, &options);
            let (bytes, repairs) = doc.to_bytes(&SerializeOptions { pretty, encoding });
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&bytes)?;
            stdout.flush()?;
            let path = file.display();
            for repair in &repairs {
                match repair.offset {
                    Some(offset) => {
                        let (line, column) = doc.position(offset);
                        eprintln!("{path}:{line}:{column}: repaired: {}", repair.kind);
                    }
                    None => eprintln!("{path}: repaired: {}", repair.kind),
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Canon { form, file } => {
            let doc = Document::parse_bytes_with(&read_bytes(&file)?, &options);
            let form = match form {
                Form::C14n => CanonicalForm::C14n,
                Form::C14nComments => CanonicalForm::C14nWithComments,
                Form::Xmltest => CanonicalForm::XmlTest,
            };
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(canonicalize(&doc, form).as_bytes())?;
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
    }
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
