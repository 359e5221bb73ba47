//! `xml5dom fmt`: each document written back (byte for byte if it parsed
//! without errors, repaired if not; pretty-printed, re-encoded or with
//! undeclared prefixes bound where asked), to standard output, in place
//! (`--in-place`, through the runner's `write_in_place`), or only compared
//! (`--check`). The repairs and any limit reached are said on standard
//! error.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use xml5dom::serializer::{OutputEncoding, SerializeOptions};
use xml5dom::{Document, Encoding, ErrorCode};

use crate::context::Context;
use crate::options::{limit_note, message, parse_binding, Error};
use crate::runner::{write_in_place, Comparison, Layout, Outcome, Task};

/// Write the document back out: byte for byte if it parsed without
/// errors, as repaired well-formed XML if not.
///
/// Repairs (what XML could not carry) are listed on standard error. A
/// file a limit stopped reading whole is written as read, with a
/// `limit:` line on standard error; `--in-place` leaves such a file as
/// it is. Exits with status 0, 1 with `--check` when a file would
/// change and whenever a limit was reached, 2 when a file cannot be
/// read or written (or is left as it is).
#[derive(Args, Debug)]
#[command(
    after_help = "Example: xml5dom fmt --pretty=4 feed.xml > feed.pretty.xml\n         \
                        xml5dom fmt --in-place -r site/\n         \
                        xml5dom fmt --check -r ."
)]
pub struct Fmt {
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
}

impl Fmt {
    /// Writes every file back: to standard output, in place, or only
    /// compared (`--check`).
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let limits = context.limits();
        let encoding = match self.encoding {
            None => OutputEncoding::Original,
            Some(label) => OutputEncoding::Other(
                Encoding::for_label(&label).ok_or(xml5dom::Error::UnknownEncoding(label))?,
            ),
        };
        let serialize = SerializeOptions {
            pretty: self.pretty,
            encoding,
        };
        // `--check` names files; `--in-place` writes nothing out.
        let layout = if self.check || self.in_place {
            Layout::Plain
        } else {
            Layout::Banners
        };
        let task = Task {
            judges: true,
            ..Task::new("fmt", "format", layout)
        };
        context.batch(&self.paths, task, &|path, opened, _, out| {
            let bytes = match opened.bytes() {
                Ok(bytes) => bytes,
                Err(error) => return Ok(Outcome::failed(error.to_string())),
            };
            // `--check` and `--in-place` compare the output with the
            // file's bytes, so they keep them; otherwise the document
            // takes them.
            let (mut doc, bytes) = if self.check || self.in_place {
                (
                    Document::parse_bytes_with(&bytes, &context.options_for(path)),
                    bytes,
                )
            } else {
                (context.parse(path, bytes), Vec::new())
            };
            let shown = path.display();
            let mut outcome = Outcome::default();
            for (prefix, uri) in &self.bind_prefix {
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
            let repairs = if self.check {
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
            } else if self.in_place {
                if let Some(loss) = decoding_loss(&doc).filter(|_| !self.force) {
                    // Writing would put U+FFFD where the file has bytes.
                    outcome.failure = Some(format!("{shown}: not rewritten: {loss}"));
                    Vec::new()
                } else if let Some(limit) = doc.limit_reached().filter(|_| !self.force) {
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
