//! The document's parse errors and the context some of them have: kept
//! apart (a side table by error index, empty for a document without a
//! mismatched or stray end tag), so that the errors stay a plain slice of
//! [`ParseError`] and an error without context costs nothing more.

use crate::error::{ErrorContext, ParseError};

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
