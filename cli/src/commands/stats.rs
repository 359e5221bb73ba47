//! `xml5dom stats`: what each document holds (nodes by kind, attributes,
//! depth, namespaces, the encoding, errors by code), counted from its
//! events as it is read; one block per file, or one JSON object.

use std::io::{self, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use xml5dom::events::{self, Event};
use xml5dom::{Encoding, EncodingSource, ParseOptions, Severity};

use crate::context::Context;
use crate::options::{named, Error, Format};
use crate::runner::{Layout, Outcome, Task};

/// Print what each document holds: nodes by kind, attributes, depth,
/// namespaces, the encoding and the parse errors by code.
///
/// Exits with status 0, or 2 when a file cannot be read.
#[derive(Args, Debug)]
#[command(after_help = "Example: xml5dom stats feed.xml config.xml\n         \
                        xml5dom stats -r exports/\n         \
                        xml5dom stats --format json feed.xml")]
pub struct Stats {
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
}

impl Stats {
    /// Counts what every file holds, as it is read.
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let format = self.format;
        // JSON Lines: one object per file, nothing between.
        let layout = match format {
            Format::Human => Layout::Separated,
            Format::Json => Layout::Plain,
        };
        let task = Task::new("stats", "count what is in", layout);
        // Streamed: counted from the events as the file is read.
        context.batch(&self.paths, task, &|path, opened, _, out| {
            let shown = path.display().to_string();
            match stats(&shown, opened.reader, &context.options_for(path)) {
                Ok(counts) if format == Format::Json => {
                    out.write_all(counts.json(&shown).as_bytes())?
                }
                Ok(counts) => out.write_all(counts.human(&shown).as_bytes())?,
                Err(error) => return Ok(Outcome::failed(named(path, error).to_string())),
            }
            Ok(Outcome::default())
        })
    }
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
