//! The document's parse errors and the context some of them have: kept
//! apart (a side table by error index, empty for a document without a
//! mismatched or stray end tag), so that the errors stay a plain slice of
//! [`ParseError`] and an error without context costs nothing more.

use crate::error::{Diagnostic, ErrorCode, ErrorContext, ParseError};

use super::{Document, LineIndex, PositionCursor};

impl Document {
    /// What the parser knew about the error `index` of
    /// [`errors`](Self::errors) beyond its code and place, if anything:
    /// for `mismatched-end-tag` and `stray-end-tag`, the element that was
    /// open and where it starts (see [`ErrorContext`]).
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<list><item>one<item>two</list>");
    /// for (index, error) in doc.errors().iter().enumerate() {
    ///     if let Some(context) = doc.error_context(index) {
    ///         let open = context.open.as_ref().unwrap();
    ///         assert_eq!((error.code.as_str(), open.name.as_str()), ("mismatched-end-tag", "item"));
    ///         assert_eq!((open.offset, open.column), (15, 16));
    ///         assert_eq!(context.implied_closes, 2);
    ///     }
    /// }
    /// ```
    pub fn error_context(&self, index: usize) -> Option<&ErrorContext> {
        let found = self
            .error_contexts
            .binary_search_by_key(&index, |(at, _)| *at)
            .ok()?;
        Some(&self.error_contexts[found].1)
    }

    /// The error `index` of [`errors`](Self::errors) said for people with
    /// what the parser knew about it: the message `xml5dom check` prints
    /// (see [`Diagnostic`]). `None` past the last error.
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<a><b></x></b></a>");
    /// assert_eq!(
    ///     doc.diagnostic(0).unwrap().to_string(),
    ///     "1:7: error: stray-end-tag: end tag </x> matches no open element \
    ///      (the current one is <b>, line 1, column 4); ignored",
    /// );
    /// assert!(doc.diagnostic(1).is_none());
    /// ```
    pub fn diagnostic(&self, index: usize) -> Option<Diagnostic<'_>> {
        let error = *self.errors.get(index)?;
        let label = self.xml_declaration().and_then(|d| d.encoding.as_deref());
        Some(Diagnostic::new(error, self.error_context(index)).declared_encoding(label))
    }

    /// Every error said for people, in the order of [`errors`](Self::errors):
    /// the lines `xml5dom check` prints, without the path.
    ///
    /// ```
    /// use xml5dom::Document;
    ///
    /// let doc = Document::parse("<list><item id=1>fish & chips</list>");
    /// for diagnostic in doc.diagnostics() {
    ///     println!("feed.xml:{diagnostic}");
    /// }
    /// let said: Vec<String> = doc.diagnostics().map(|d| d.to_string()).collect();
    /// assert_eq!(said, [
    ///     "1:16: error: unquoted-attribute-value: attribute value without quotes",
    ///     "1:23: error: bare-ampersand: `&` that starts no reference; kept as text",
    ///     "1:30: error: mismatched-end-tag: end tag </list> does not match the open element \
    ///      <item> (line 1, column 7); <item> is closed",
    /// ]);
    /// ```
    pub fn diagnostics(&self) -> impl ExactSizeIterator<Item = Diagnostic<'_>> + '_ {
        let label = self.xml_declaration().and_then(|d| d.encoding.as_deref());
        let mut contexts = self.error_contexts.iter().peekable();
        self.errors.iter().enumerate().map(move |(index, error)| {
            // The contexts are in the order of their errors' indexes.
            let context = contexts
                .next_if(|(at, _)| *at == index)
                .map(|(_, context)| context);
            Diagnostic::new(*error, context).declared_encoding(label)
        })
    }

    /// Adds an error found by the parse with its context (its element's
    /// line and column counted later, by
    /// [`count_context_positions`](Self::count_context_positions)).
    pub(crate) fn push_error_with_context(&mut self, error: ParseError, context: ErrorContext) {
        self.error_contexts.push((self.errors.len(), context));
        self.errors.push(error);
    }

    /// Gives the last error added its context (a replayed stream's, which
    /// comes after its error).
    pub(crate) fn set_last_error_context(&mut self, context: ErrorContext) {
        if let Some(last) = self.errors.len().checked_sub(1) {
            if self.error_contexts.last().map(|(at, _)| *at) != Some(last) {
                self.error_contexts.push((last, context));
            }
        }
    }

    /// Puts the errors in source order (stable: errors at one offset stay in
    /// the order they were found), their contexts following them.
    pub(crate) fn sort_errors(&mut self) {
        // (Asked before the errors were all in, the answer is forgotten.)
        self.verdict = std::sync::OnceLock::new();
        if self.error_contexts.is_empty() {
            self.errors.sort_by_key(|e| e.offset);
            return;
        }
        let mut order: Vec<usize> = (0..self.errors.len()).collect();
        order.sort_by_key(|&i| self.errors[i].offset);
        let mut moved_to = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            moved_to[old] = new;
        }
        self.errors = order.iter().map(|&old| self.errors[old]).collect();
        for (at, _) in &mut self.error_contexts {
            *at = moved_to[*at];
        }
        self.error_contexts.sort_by_key(|(at, _)| *at);
    }

    /// Adds an error at `offset`, its line and column counted now (put the
    /// errors in order after with [`sort_errors`](Self::sort_errors)).
    pub(crate) fn add_error(&mut self, code: ErrorCode, offset: usize) {
        let (line, column) = self.position(offset);
        self.errors.push(ParseError {
            code,
            offset,
            line,
            column,
        });
    }

    /// Counts the lines and columns of the errors that have none yet (a
    /// document built as its source arrived: a line index of part of it
    /// would not do). The errors are in order, each counted on from the one
    /// before.
    pub(crate) fn count_error_positions(&mut self) {
        let mut cursor = PositionCursor::default();
        for i in 0..self.errors.len() {
            if self.errors[i].line == 0 {
                let (line, column) = self.position_after(&mut cursor, self.errors[i].offset);
                (self.errors[i].line, self.errors[i].column) = (line, column);
            }
        }
    }

    /// Inserts an error at `at` of the errors (in order).
    pub(crate) fn insert_error(&mut self, at: usize, error: ParseError) {
        self.errors.insert(at, error);
        for (index, _) in &mut self.error_contexts {
            if *index >= at {
                *index += 1;
            }
        }
    }

    /// Counts the lines and columns of the contexts' elements that have
    /// none yet, in `source` (the document's, which it may not hold yet).
    /// In order of offset, each counted on from the one before: linear
    /// however many there are on one long line.
    pub(crate) fn count_context_positions(&mut self, source: &str) {
        if !self.error_contexts.is_empty() {
            count_positions(&self.lines, source, &mut self.error_contexts);
        }
    }

    /// [`count_context_positions`](Self::count_context_positions) in the
    /// document's own source.
    pub(crate) fn count_context_positions_in_source(&mut self) {
        if self.error_contexts.is_empty() {
            return;
        }
        let mut contexts = std::mem::take(&mut self.error_contexts);
        count_positions(&self.lines, self.source(), &mut contexts);
        self.error_contexts = contexts;
    }
}

fn count_positions(lines: &LineIndex, source: &str, contexts: &mut [(usize, ErrorContext)]) {
    let mut waiting: Vec<(usize, usize)> = contexts
        .iter()
        .enumerate()
        .filter_map(|(i, (_, context))| {
            let open = context.open.as_ref()?;
            (open.line == 0).then_some((open.offset, i))
        })
        .collect();
    waiting.sort_unstable();
    let mut cursor = PositionCursor::default();
    for (offset, i) in waiting {
        let (line, column) = lines.position_after(source, &mut cursor, offset);
        if let Some(open) = contexts[i].1.open.as_mut() {
            (open.line, open.column) = (line, column);
        }
    }
}
