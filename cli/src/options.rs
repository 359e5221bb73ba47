//! What every subcommand shares of its options: the limits of a parse
//! (`LimitArgs`, the flags, and how a message names the flag that raises a
//! limit reached), the output `Format`, namespace bindings (`PREFIX=URI`),
//! and the run's `Error`, one line on standard error and exit status 2.
//!
//! It uses nothing else of the command line: the runner, the report and
//! the subcommands use it.

use std::io;
use std::path::Path;

use clap::{Args, ValueEnum};

use xml5dom::query::{Bindings, XPathError};
use xml5dom::{
    Diagnostic, Document, ErrorCode, ErrorContext, Limits, ParseError, ENTITY_EXPANSION_FLOOR,
    MAX_INPUT_BYTES,
};

/// The limits of a parse (the library's `Limits`), for every subcommand
/// that parses: one flag a field, named after it. A document that reaches
/// one is not read whole: `check` reports `limit:` and exits with status
/// 1, `fmt --in-place` leaves the file as it is.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Limits (a document that reaches one is not read whole)")]
pub struct LimitArgs {
    /// Lift the limits, for trusted input (as xmllint's `--huge` and lxml's
    /// `huge_tree`): no limit on expansion, attributes, names or element
    /// depth; entities still nest at most 64 deep and inputs are at most
    /// 4 GiB. The flags below apply on top. Example:
    /// `xml5dom fmt --huge trusted.xml`.
    #[arg(long, global = true)]
    huge: bool,
    /// Bytes entity expansion may make per byte of input read so far (at
    /// least 1M in all, whatever the input); default 10. `none` for no
    /// ratio. Example: `--max-entity-expansion-ratio 100`.
    #[arg(long, global = true, value_name = "N", value_parser = parse_setting)]
    max_entity_expansion_ratio: Option<Setting>,
    /// Bytes entity expansion may make in all (K, M, G: KiB, MiB, GiB);
    /// default 64M. Example: `--max-entity-expansion-bytes 1G`.
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_setting)]
    max_entity_expansion_bytes: Option<Setting>,
    /// How deep entities may refer to entities; default 16, at most 64.
    /// Example: `--max-entity-depth 32`.
    #[arg(long, global = true, value_name = "N", value_parser = parse_setting)]
    max_entity_depth: Option<Setting>,
    /// How deep elements may nest; default none (any depth works).
    /// Example: `--max-element-depth 1000`.
    #[arg(long, global = true, value_name = "N", value_parser = parse_setting)]
    max_element_depth: Option<Setting>,
    /// Attributes an element keeps; default 10000. Example:
    /// `--max-attributes 100000`.
    #[arg(long, global = true, value_name = "N", value_parser = parse_setting)]
    max_attributes: Option<Setting>,
    /// Bytes a name keeps; default 10000. Example: `--max-name-length 1M`.
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_setting)]
    max_name_length: Option<Setting>,
    /// Bytes of text (UTF-8, once decoded) read of each input; default and
    /// most 4G less a byte for a document (a stream, as `check` reads, has
    /// no ceiling). Example: `--max-input-bytes 100M`.
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_setting)]
    max_input_bytes: Option<Setting>,
}

/// A limit's value on the command line: a number, or none.
#[derive(Clone, Copy, Debug)]
enum Setting {
    At(usize),
    Unlimited,
}

/// `N`, `N` with a K, M or G suffix (times 1024, 1024², 1024³), or `none`
/// (`unlimited`).
fn parse_setting(text: &str) -> Result<Setting, String> {
    if matches!(text, "none" | "unlimited") {
        return Ok(Setting::Unlimited);
    }
    let (digits, unit) = match text.char_indices().last() {
        Some((at, unit @ ('k' | 'K' | 'm' | 'M' | 'g' | 'G'))) => (&text[..at], unit),
        _ => (text, ' '),
    };
    let shift = match unit.to_ascii_lowercase() {
        'k' => 10,
        'm' => 20,
        'g' => 30,
        _ => 0,
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .map(Setting::At)
        .ok_or_else(|| format!("expected a number (with K, M or G) or `none`, not {text:?}"))
}

impl LimitArgs {
    /// The limits these flags set: the defaults (or none, with `--huge`),
    /// changed where a flag says.
    pub fn limits(&self) -> Result<Limits, String> {
        let mut limits = if self.huge {
            Limits::none()
        } else {
            Limits::default()
        };
        let value = |setting: Option<Setting>, unlimited: usize, current: usize| match setting {
            None => current,
            Some(Setting::At(n)) => n,
            Some(Setting::Unlimited) => unlimited,
        };
        let ratio = value(
            self.max_entity_expansion_ratio,
            u32::MAX as usize,
            limits.max_entity_expansion_ratio as usize,
        );
        limits.max_entity_expansion_ratio = u32::try_from(ratio).map_err(|_| {
            format!(
                "--max-entity-expansion-ratio {ratio} is more than {}",
                u32::MAX
            )
        })?;
        limits.max_entity_expansion_bytes = value(
            self.max_entity_expansion_bytes,
            usize::MAX,
            limits.max_entity_expansion_bytes,
        );
        limits.max_entity_depth = value(self.max_entity_depth, 64, limits.max_entity_depth);
        limits.max_element_depth = match self.max_element_depth {
            None => limits.max_element_depth,
            Some(Setting::At(n)) => Some(n),
            Some(Setting::Unlimited) => None,
        };
        limits.max_attributes = value(self.max_attributes, usize::MAX, limits.max_attributes);
        limits.max_name_length = value(self.max_name_length, usize::MAX, limits.max_name_length);
        limits.max_input_bytes = value(
            self.max_input_bytes,
            MAX_INPUT_BYTES,
            limits.max_input_bytes,
        );
        Ok(limits)
    }
}

/// The message for `error`: its [`Diagnostic`]'s (the element a
/// mismatched or stray end tag leaves open, the label of the XML
/// declaration's encoding for an unknown one), and for a limit reached the
/// limit and the flag that raises it.
pub fn message(
    label: Option<&str>,
    limits: &Limits,
    error: &ParseError,
    context: Option<&ErrorContext>,
) -> String {
    // The library's message, which `Document::diagnostic` gives too.
    let said = Diagnostic::new(*error, context)
        .declared_encoding(label)
        .message();
    match raise_hint(error.code, limits) {
        Some(hint) => format!("{said} ({hint})"),
        None => said.into_owned(),
    }
}

/// How to read past the limit `code` reports, under `limits`: the flag
/// and the value in force (`None` where no flag can: entities nest at most
/// 64 deep, a document is at most 4 GiB).
fn raise_hint(code: ErrorCode, limits: &Limits) -> Option<String> {
    let size = |n: usize| match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{}G", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{}M", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{}K", n >> 10),
        n => n.to_string(),
    };
    let hint = match code {
        ErrorCode::EntityExpansionLimit => {
            let ratio = limits.max_entity_expansion_ratio;
            let most = limits.max_entity_expansion_bytes;
            let mut bounds = Vec::new();
            let mut flags = Vec::new();
            if ratio < u32::MAX {
                let floor = size(ENTITY_EXPANSION_FLOOR.min(most));
                bounds.push(format!("{ratio} bytes per byte read, at least {floor}"));
                flags.push("--max-entity-expansion-ratio N");
            }
            if most < usize::MAX {
                bounds.push(format!("{} in all", size(most)));
                flags.push("--max-entity-expansion-bytes BYTES");
            }
            format!(
                "the limit is {}; raise it with {}",
                bounds.join(", and "),
                flags.join(" and ")
            )
        }
        ErrorCode::EntityDepthLimit if limits.max_entity_depth < 64 => format!(
            "the limit is {}; raise it with --max-entity-depth N (at most 64)",
            limits.max_entity_depth
        ),
        ErrorCode::ElementDepthLimit => format!(
            "the limit is {}; raise it with --max-element-depth N, or none",
            limits.max_element_depth.unwrap_or(usize::MAX)
        ),
        ErrorCode::AttributeLimit => format!(
            "the limit is {}; raise it with --max-attributes N",
            limits.max_attributes
        ),
        ErrorCode::NameLengthLimit => format!(
            "the limit is {} bytes; raise it with --max-name-length BYTES",
            limits.max_name_length
        ),
        ErrorCode::InputSizeLimit if limits.input_bytes() < MAX_INPUT_BYTES => format!(
            "the limit is {} bytes; raise it with --max-input-bytes BYTES",
            limits.max_input_bytes
        ),
        _ => return None,
    };
    Some(format!("{hint}, or --huge"))
}

/// The first limit `doc` reached, said on one line for standard error
/// (`path:line:column: limit: code: message`, naming the flag that raises
/// it), followed by `what` it means here; `None` if it reached none.
pub fn limit_note(path: &str, doc: &Document, limits: &Limits, what: &str) -> Option<String> {
    let error = doc.limit_reached()?;
    Some(format!(
        "{path}:{}:{}: limit: {}: {}; {what}\n",
        error.line,
        error.column,
        error.code,
        message(None, limits, error, None)
    ))
}

/// The namespace bindings `--ns` gave.
pub fn bindings(namespaces: &[(String, String)]) -> Bindings<'_> {
    let mut bindings = Bindings::new();
    for (prefix, uri) in namespaces {
        bindings.namespace(prefix, uri);
    }
    bindings
}

/// `PREFIX=URI`, for `--ns` and `--bind-prefix`.
pub fn parse_binding(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((prefix, uri)) if !prefix.is_empty() => Ok((prefix.to_owned(), uri.to_owned())),
        _ => Err(format!("expected PREFIX=URI, not {text:?}")),
    }
}

/// How `check`, `query` and `stats` write what they found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people (`check`: `path:line:column: code: message` and the
    /// source line).
    Human,
    /// For tools: one JSON object per line (an error, a result, a file).
    Json,
}

/// Why a run stopped before its end: one line on standard error and exit
/// status 2. The library's own caller errors (a file it cannot read, an
/// unknown encoding, output that cannot be written) plus the command line's.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An error of the library's.
    #[error(transparent)]
    Library(#[from] xml5dom::Error),
    /// Writing output failed.
    #[error("cannot write output: {0}")]
    Write(#[from] io::Error),
    /// An XPath expression that cannot be compiled or evaluated.
    #[error("{0}")]
    XPath(#[from] XPathError),
    /// Options that do not go together.
    #[error("{0}")]
    Usage(String),
}

impl Error {
    /// Whether output stopped because its reader went away.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            Error::Write(error) | Error::Library(xml5dom::Error::Write(error)) => {
                error.kind() == io::ErrorKind::BrokenPipe
            }
            _ => false,
        }
    }
}

/// A reading error of the library's, named after `path` (the library names
/// what it reads `input`).
pub fn named(path: &Path, error: xml5dom::Error) -> Error {
    match error {
        xml5dom::Error::Read { source, .. } => read_error(path, source),
        error => Error::Library(error),
    }
}

/// A file that could not be read, named by its `path`.
pub fn read_error(path: &Path, source: io::Error) -> Error {
    Error::Library(xml5dom::Error::Read {
        path: path.display().to_string(),
        source,
    })
}
