//! `xml5dom canon`: a canonical form of each document (C14N 1.0, 1.1,
//! Exclusive, or xmltest's two), streamed as the file is read, or of the
//! subset an XPath expression selects (read whole). What made the output
//! other than the file's (`Damage`: errors, limits reached) is listed on
//! standard error and sets the exit status.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use xml5dom::events::{self, Event};
use xml5dom::query::XPath;
use xml5dom::serializer::{CanonicalForm, CanonicalOptions, InclusiveNamespaces};
use xml5dom::{ErrorContext, Limits, ParseError, Severity};

use crate::context::Context;
use crate::options::{bindings, message, named, parse_binding, Error};
use crate::runner::{Layout, Outcome, Task};

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
#[derive(Args, Debug)]
#[command(after_help = "Example: xml5dom canon signed.xml\n         \
                        xml5dom canon --repaired scraped.xml\n         \
                        xml5dom canon --form c14n-comments signed.xml\n         \
                        xml5dom canon --form exc-c14n --inclusive-ns 'soap #default' \\\n           \
                        --xpath '(//. | //@* | //namespace::*)[ancestor-or-self::soap:Body]' message.xml")]
pub struct Canon {
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

impl Canon {
    /// Writes the canonical form of every file, or of its `--xpath`
    /// subset.
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let limits = context.limits();
        let form = match self.form {
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
        if self.inclusive_ns.is_some() && !exclusive {
            return Err(Error::Usage(
                "--inclusive-ns applies to the exclusive forms only (exc-c14n, exc-c14n-comments)"
                    .to_owned(),
            ));
        }
        if self.xpath.is_some() && !form.is_c14n() {
            return Err(Error::Usage(
                "--xpath needs a Canonical XML form (c14n, exc-c14n, c14n11 and their -comments)"
                    .to_owned(),
            ));
        }
        let inclusive = InclusiveNamespaces::parse(self.inclusive_ns.as_deref().unwrap_or(""));
        let task = Task {
            judges: true,
            ..Task::new("canon", "canonicalize", Layout::Banners)
        };
        if let Some(expression) = self.xpath {
            let xpath = XPath::compile(&expression)?;
            // A subset: the document is read whole to evaluate the
            // expression.
            return context.batch(&self.paths, task, &|path, opened, many, out| {
                let doc = match context.read_document(opened) {
                    Ok(doc) => doc,
                    Err(outcome) => return Ok(outcome),
                };
                let bindings = bindings(&self.namespaces);
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
                Ok(damage.outcome(path, limits, self.repaired))
            });
        }
        // Streamed: written as the file is read, in bounded memory; the
        // errors are known at the end.
        context.batch(&self.paths, task, &|path, opened, _, mut out| {
            let mut damage = Damage::default();
            let written = events::write_canonical_reader_reporting(
                opened.reader,
                &context.options_for(path),
                form,
                &inclusive,
                &mut out,
                |event| match event {
                    Event::Error(error) => damage.error(&error, None),
                    Event::ErrorContext(more) => damage.context(more),
                    _ => {}
                },
            );
            match written {
                Ok(()) => Ok(damage.outcome(path, limits, self.repaired)),
                Err(xml5dom::Error::Write(error)) => Err(error),
                Err(error) => Ok(Outcome::failed(named(path, error).to_string())),
            }
        })
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
