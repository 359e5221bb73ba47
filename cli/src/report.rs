//! `check`'s report: each parse error of a file as it is read, in bounded
//! memory, as `path:line:column: severity: code: message` with the source
//! line and a caret under the place (`human`), or as a line of JSON; at
//! most `--max-errors` of them, and a summary line per file with any.
//!
//! It hands the runner an `Outcome` (the counts, whether the file had
//! findings); it uses the options (the message, `Format`) and the runner.

use std::io::{self, Read, Write};
use std::path::Path;

use xml5dom::events::{self, Event};
use xml5dom::{ErrorContext, Limits, ParseError, ParseOptions, Severity};

use crate::options::{message, read_error, Format};
use crate::runner::Outcome;

/// How `check` reports.
pub struct Report {
    pub format: Format,
    pub colored: bool,
    /// Errors, limits and warnings shown per file, at most.
    pub max_errors: Option<usize>,
    /// The limits of the parse, for the message of one reached.
    pub limits: Limits,
}

/// How much of the source around an error `check` shows: at most this
/// many characters of its line (a character is at most four bytes).
const SNIPPET_WIDTH: usize = 100;
const SNIPPET_BYTES: usize = 4 * SNIPPET_WIDTH;

impl Report {
    /// Checks one input as it is read, writing each error (up to the cap)
    /// as it comes, then, in the human format, a summary line for a file
    /// with any. In JSON, whose lines are all errors, the summary of a file
    /// whose errors were not all shown goes to standard error.
    pub fn check(
        &self,
        path: &Path,
        mut input: impl Read,
        options: &ParseOptions,
        out: &mut dyn Write,
    ) -> io::Result<Outcome> {
        let shown_path = path.display().to_string();
        let cap = self.max_errors.unwrap_or(usize::MAX);
        let human = self.format == Format::Human;
        // What the events tell, gathered as they come (the push parser
        // keeps no events: a damaged file that leaves a million elements
        // open is a million calls at its end, not a million events held).
        let found = std::cell::RefCell::new(Found {
            limits: self.limits.clone(),
            ..Found::default()
        });
        let mut parser = events::Parser::with_options(options, |event| {
            let mut found = found.borrow_mut();
            match event {
                Event::XmlDeclaration(declaration) => {
                    found.label = declaration.encoding.map(str::to_owned);
                }
                Event::Error(error) => {
                    let found = &mut *found;
                    found.write_json(&shown_path);
                    let shown = found.errors + found.limits_reached + found.warnings < cap;
                    match error.severity() {
                        Severity::Error => found.errors += 1,
                        Severity::Limit => found.limits_reached += 1,
                        Severity::Warning => found.warnings += 1,
                    }
                    found.last_shown = shown;
                    if shown && human {
                        found.waiting.push_back((error, None));
                    } else if shown {
                        // Written once it is known whether context follows.
                        found.json = Some((error, None));
                    }
                }
                // Right after the error it tells more of.
                Event::ErrorContext(context) if found.last_shown => {
                    let last = match human {
                        true => found.waiting.back_mut(),
                        false => found.json.as_mut(),
                    };
                    if let Some((_, slot)) = last {
                        *slot = Some(context.clone());
                    }
                }
                _ => {}
            }
        });
        if human {
            // The text before an error, for the line shown under it.
            parser.keep_context(SNIPPET_BYTES);
        }
        let mut buffer = vec![0; 64 << 10];
        let mut line = String::new();
        loop {
            let read = match input.read(&mut buffer) {
                Ok(read) => read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Ok(Outcome::failed(read_error(path, error).to_string())),
            };
            let ended = read == 0 || parser.is_cut();
            match ended {
                true => parser.end(),
                false => parser.feed(&buffer[..read]),
            }
            let mut found = found.borrow_mut();
            // (An error's context comes in the same piece as the error.)
            found.write_json(&shown_path);
            out.write_all(found.lines.as_bytes())?;
            found.lines.clear();
            // Each error once the text after it is in (or the input ended).
            let text_read = parser.text_read();
            while let Some((error, _)) = found.waiting.front() {
                if !ended && error.offset.saturating_add(SNIPPET_BYTES) >= text_read {
                    break;
                }
                let Some((error, context)) = found.waiting.pop_front() else {
                    break;
                };
                line.clear();
                let said = message(
                    found.label.as_deref(),
                    &self.limits,
                    &error,
                    context.as_ref(),
                );
                self.human_lines(&mut line, &shown_path, &said, &error, &mut parser, ended);
                out.write_all(line.as_bytes())?;
            }
            parser.hold(
                found
                    .waiting
                    .front()
                    .map(|(e, _)| e.offset.saturating_sub(SNIPPET_BYTES)),
            );
            if ended {
                break;
            }
        }
        let found = found.borrow();
        let (errors, limits, warnings) = (found.errors, found.limits_reached, found.warnings);
        let total = errors + limits + warnings;
        // A limit reached is a finding: the file was not checked whole.
        let mut outcome = Outcome {
            findings: errors > 0 || limits > 0,
            counts: [errors, limits, warnings],
            ..Outcome::default()
        };
        if total == 0 {
            return Ok(outcome);
        }
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let mut summary = format!(
            "{shown_path}: {}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        );
        if limits > 0 {
            summary.push_str(&format!(", {} reached", plural(limits, "limit")));
        }
        if total > cap {
            summary.push_str(&format!(" ({} not shown; --max-errors {cap})", total - cap));
        }
        summary.push('\n');
        match self.format {
            Format::Human => out.write_all(summary.as_bytes())?,
            Format::Json if total > cap => outcome.notes = summary,
            Format::Json => {}
        }
        Ok(outcome)
    }

    /// `path:line:column: severity: code: message`, the source line and a
    /// caret (`ended`: the input has ended, so what the reader holds after
    /// the error is all there is).
    fn human_lines<F: FnMut(Event<'_>)>(
        &self,
        out: &mut String,
        path: &str,
        said: &str,
        error: &ParseError,
        reader: &mut events::Parser<F>,
        ended: bool,
    ) {
        use std::fmt::Write as _;

        let (bold, red, reset) = match (self.colored, error.severity()) {
            (false, _) => ("", "", ""),
            (true, Severity::Error) => ("\x1b[1m", "\x1b[1;31m", "\x1b[0m"),
            (true, Severity::Limit) => ("\x1b[1m", "\x1b[1;35m", "\x1b[0m"),
            (true, Severity::Warning) => ("\x1b[1m", "\x1b[1;33m", "\x1b[0m"),
        };
        let _ = writeln!(
            out,
            "{bold}{path}:{}:{}:{reset} {red}{}: {}{reset}: {}",
            error.line,
            error.column,
            error.severity(),
            error.code,
            said
        );
        // The text around the error, as much as the reader holds of the
        // stretch the snippet looks at.
        let read = reader.text_read();
        let offset = error.offset.min(read);
        let (mut from, mut to) = (
            offset.saturating_sub(SNIPPET_BYTES),
            (offset + SNIPPET_BYTES).min(read),
        );
        let mut around = None;
        for _ in 0..4 {
            if reader.source(from, offset).is_some() {
                break;
            }
            from += 1;
        }
        for _ in 0..4 {
            if let Some(text) = reader.source(from, to) {
                around = Some(text.to_owned());
                break;
            }
            // (Never below the offset, so never below 0.)
            to = to.saturating_sub(1).max(offset);
        }
        let around = around.unwrap_or_default();
        // (Shown before the input ended only once more was read.)
        let more_after = to < read || !ended;
        push_snippet(
            out, &around, from, more_after, offset, error.line, red, reset,
        );
    }
}

/// What `check` gathers from the events of one input.
#[derive(Default)]
struct Found {
    /// The XML declaration's encoding label.
    label: Option<String>,
    /// The limits of the parse, for the message of one reached.
    limits: Limits,
    errors: usize,
    /// Errors that say a limit was reached.
    limits_reached: usize,
    warnings: usize,
    /// Errors to show in the human format, once the text after them is in,
    /// with their context.
    waiting: std::collections::VecDeque<(ParseError, Option<ErrorContext>)>,
    /// The last error is shown (it is under `--max-errors`).
    last_shown: bool,
    /// The error to write as JSON, waiting for its context.
    json: Option<(ParseError, Option<ErrorContext>)>,
    /// JSON lines to write.
    lines: String,
}

impl Found {
    /// Writes the error waiting for its context as a JSON line.
    fn write_json(&mut self, path: &str) {
        if let Some((error, context)) = self.json.take() {
            let label = self.label.as_deref();
            let said = message(label, &self.limits, &error, context.as_ref());
            json_line(&mut self.lines, path, &said, &error, context.as_ref());
        }
    }
}

/// One error as a line of JSON: `file`, `line`, `column`, `offset`, `code`,
/// `severity`, `message` (`said`), and for an end tag that does not close
/// the current element `end_tag`, `implied_closes` and `open` (the element
/// that was open: `name`, `line`, `column`, `offset`).
fn json_line(
    out: &mut String,
    path: &str,
    said: &str,
    error: &ParseError,
    context: Option<&ErrorContext>,
) {
    use std::fmt::Write as _;
    use xml5dom::tokenizer::push_json_string;

    out.push_str("{\"file\": ");
    push_json_string(out, path);
    let _ = write!(
        out,
        ", \"line\": {}, \"column\": {}, \"offset\": {}, \"code\": ",
        error.line, error.column, error.offset
    );
    push_json_string(out, error.code.as_str());
    out.push_str(", \"severity\": ");
    push_json_string(out, error.severity().as_str());
    out.push_str(", \"message\": ");
    push_json_string(out, said);
    if let Some(context) = context {
        out.push_str(", \"end_tag\": ");
        push_json_string(out, &context.end_tag);
        let _ = write!(out, ", \"implied_closes\": {}", context.implied_closes);
        if let Some(open) = &context.open {
            out.push_str(", \"open\": {\"name\": ");
            push_json_string(out, &open.name);
            let _ = write!(
                out,
                ", \"line\": {}, \"column\": {}, \"offset\": {}}}",
                open.line, open.column, open.offset
            );
        }
    }
    out.push_str("}\n");
}

/// The source line of `offset` under a gutter with its number, and a caret
/// under the offset's character. A long line is shown around the caret.
/// `around` is the source from `base` on, as far as the snippet looks
/// (`SNIPPET_BYTES` before and after the offset, within the source);
/// `more_after`: the source goes on past it.
#[allow(clippy::too_many_arguments)]
fn push_snippet(
    out: &mut String,
    around: &str,
    base: usize,
    more_after: bool,
    offset: usize,
    line: u32,
    red: &str,
    reset: &str,
) {
    use std::fmt::Write as _;

    const WIDTH: usize = SNIPPET_WIDTH;
    let source = around;
    let mut offset = offset.saturating_sub(base).min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let (from, to) = (0, source.len());
    let start = source[from..offset]
        .rfind(['\n', '\r'])
        .map_or(from, |i| from + i + 1);
    let end = source[offset..to]
        .find(['\n', '\r'])
        .map_or(to, |i| offset + i);
    let cut_before = start == from && base > 0;
    let cut_after = end == to && more_after;
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
