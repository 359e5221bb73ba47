//! What goes wrong compiling or evaluating an expression
//! ([`XPathError`]), with the column it points at.

/// Why an expression could not be compiled or evaluated. Every kind says
/// where in the expression: a byte offset and a 1-based column (in
/// characters).
///
/// ```
/// use xml5dom::Document;
/// use xml5dom::query::{XPath, XPathError};
/// let error = XPath::compile("count(//a").unwrap_err();
/// assert!(matches!(error, XPathError::Syntax { .. }));
/// assert_eq!(error.to_string(), "XPath syntax error at column 10: `,` or `)` was expected, but the expression ended");
///
/// let doc = Document::parse("<a/>");
/// let error = XPath::compile("//x:a").unwrap().evaluate(doc.root()).unwrap_err();
/// assert_eq!(error.to_string(), "the namespace prefix `x` at column 3 is not bound");
///
/// // A prefix the document uses undeclared: the error says how to select.
/// let doc = Document::parse("<rss><cc:license>by</cc:license></rss>");
/// let error = XPath::compile("//cc:license").unwrap().evaluate(doc.root()).unwrap_err();
/// assert!(matches!(
///     &error,
///     XPathError::UnboundPrefix { undeclared_namespace: Some(uri), .. }
///         if uri == "urn:xml5dom:undeclared:cc"
/// ));
/// assert_eq!(
///     error.to_string(),
///     "the namespace prefix `cc` at column 3 is not bound; the document uses `cc` without \
///      declaring it, and its names with that prefix are in the namespace \
///      urn:xml5dom:undeclared:cc: bind `cc` to it to select them"
/// );
/// // A well-known prefix used undeclared is in its registered namespace.
/// let doc = Document::parse("<rss><dc:creator>J</dc:creator></rss>");
/// let error = XPath::compile("//dc:creator").unwrap().evaluate(doc.root()).unwrap_err();
/// assert!(error.to_string().contains("in the namespace http://purl.org/dc/elements/1.1/"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum XPathError {
    /// The text does not follow the grammar.
    #[error("XPath syntax error at column {column}: {message}")]
    Syntax {
        /// What is wrong.
        message: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A function that XPath 1.0 does not define.
    #[error("unknown XPath function `{name}` at column {column}")]
    UnknownFunction {
        /// The name as written.
        name: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A function called with the wrong number of arguments.
    #[error("the XPath function `{function}` at column {column} takes {expected} argument(s), not {given}")]
    ArgumentCount {
        /// The function.
        function: &'static str,
        /// How many it takes (`"1"`, `"2 to 3"`, `"at least 2"`).
        expected: String,
        /// How many it was given.
        given: usize,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A prefix neither the bindings nor the document element bind.
    #[error(
        "the namespace prefix `{prefix}` at column {column} is not bound{}",
        undeclared_hint(prefix, .undeclared_namespace.as_deref())
    )]
    UnboundPrefix {
        /// The prefix.
        prefix: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
        /// When the document uses the prefix without declaring it: the
        /// namespace its names using it are in (its placeholder,
        /// [`undeclared_namespace`](crate::dom::undeclared_namespace), or the
        /// registered namespace of a well-known prefix,
        /// [`well_known_namespace`](crate::dom::well_known_namespace)), which
        /// a binding of the prefix to it selects.
        undeclared_namespace: Option<String>,
    },
    /// A variable the bindings do not bind.
    #[error("the variable `${name}` at column {column} is not bound")]
    UnboundVariable {
        /// The name as written.
        name: String,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A node-set was needed (a path step, a predicate on a value, `|`,
    /// `count()`, ...) but the value was of another type.
    #[error("a node-set was expected at column {column}, not a {found}")]
    NotANodeSet {
        /// The type of the value found.
        found: &'static str,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// The expression nests deeper than the parser allows.
    #[error("the XPath expression nests deeper than {limit} levels at column {column}")]
    TooDeep {
        /// The limit.
        limit: usize,
        /// Byte offset in the expression.
        offset: usize,
        /// 1-based column, in characters.
        column: usize,
    },
}

impl XPathError {
    /// The byte offset in the expression the error points at.
    ///
    /// ```
    /// use xml5dom::query::XPath;
    /// assert_eq!(XPath::compile("1 +").unwrap_err().offset(), 3);
    /// ```
    pub fn offset(&self) -> usize {
        match self {
            XPathError::Syntax { offset, .. }
            | XPathError::UnknownFunction { offset, .. }
            | XPathError::ArgumentCount { offset, .. }
            | XPathError::UnboundPrefix { offset, .. }
            | XPathError::UnboundVariable { offset, .. }
            | XPathError::NotANodeSet { offset, .. }
            | XPathError::TooDeep { offset, .. } => *offset,
        }
    }

    /// The 1-based column (in characters) the error points at.
    ///
    /// ```
    /// use xml5dom::query::XPath;
    /// assert_eq!(XPath::compile("'é' = ]").unwrap_err().column(), 7);
    /// ```
    pub fn column(&self) -> usize {
        match self {
            XPathError::Syntax { column, .. }
            | XPathError::UnknownFunction { column, .. }
            | XPathError::ArgumentCount { column, .. }
            | XPathError::UnboundPrefix { column, .. }
            | XPathError::UnboundVariable { column, .. }
            | XPathError::NotANodeSet { column, .. }
            | XPathError::TooDeep { column, .. } => *column,
        }
    }
}

/// What [`XPathError::UnboundPrefix`] adds when the document uses the
/// prefix undeclared: how to select those names.
fn undeclared_hint(prefix: &str, namespace: Option<&str>) -> String {
    match namespace {
        Some(uri) => format!(
            "; the document uses `{prefix}` without declaring it, and its names with \
             that prefix are in the namespace {uri}: bind `{prefix}` to it to select them"
        ),
        None => String::new(),
    }
}

/// The 1-based column, in characters, of byte `offset` of `source`.
pub(crate) fn column(source: &str, offset: usize) -> usize {
    let offset = offset.min(source.len());
    source
        .char_indices()
        .take_while(|&(at, _)| at < offset)
        .count()
        + 1
}
