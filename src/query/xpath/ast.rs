//! The compiled form of an XPath 1.0 expression (what the parser hands the
//! evaluator). Names keep their byte offset in the expression (`at`) so that
//! errors found when evaluating (an unbound prefix or variable) can point
//! at them.

/// An expression (XPath 1.0 §3).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    /// `a or b` (§3.4).
    Or(Box<Expr>, Box<Expr>),
    /// `a and b` (§3.4).
    And(Box<Expr>, Box<Expr>),
    /// `=`, `!=`, `<`, `<=`, `>`, `>=` (§3.4).
    Compare(CompareOp, Box<Expr>, Box<Expr>),
    /// `+`, `-`, `*`, `div`, `mod` (§3.5).
    Arithmetic(ArithmeticOp, Box<Expr>, Box<Expr>),
    /// Unary minus (§3.5).
    Negate(Box<Expr>),
    /// `a | b` (§3.3); the offset of the `|`.
    Union(Box<Expr>, Box<Expr>, usize),
    /// A number literal (§3.7 `Number`).
    Number(f64),
    /// A string literal (§3.7 `Literal`), without its quotes.
    Literal(String),
    /// `$name` or `$prefix:name` (§3.1 `VariableReference`).
    Variable(QName),
    /// A call of one of the core functions (§4), its arity already checked;
    /// the offset of its name.
    Function(Function, Vec<Expr>, usize),
    /// A primary expression with predicates: `(//a)[1]`, `$v[@x]` (§3.3
    /// `FilterExpr`); the offset of the first `[`.
    Filter(Box<Expr>, Vec<Expr>, usize),
    /// A location path (§2), or a filter expression followed by `/` or `//`
    /// and a relative path (§3.3 `PathExpr`).
    Path(Path),
}

/// Whether a predicate's value cannot depend on the position or size of
/// its context (so a `//x[p]` may be evaluated as `descendant::x[p]`):
/// its result is not a number and it calls neither `position()` nor
/// `last()` outside nested steps.
pub(crate) fn is_positionless(predicate: &Expr) -> bool {
    fn no_position(expr: &Expr) -> bool {
        match expr {
            Expr::Function(Function::Position | Function::Last, _, _) => false,
            Expr::Function(_, args, _) => args.iter().all(no_position),
            Expr::Or(a, b)
            | Expr::And(a, b)
            | Expr::Compare(_, a, b)
            | Expr::Arithmetic(_, a, b)
            | Expr::Union(a, b, _) => no_position(a) && no_position(b),
            Expr::Negate(a) => no_position(a),
            Expr::Filter(primary, _, _) => no_position(primary),
            Expr::Path(path) => match &path.start {
                PathStart::Expr(e, _) => no_position(e),
                _ => true,
            },
            Expr::Number(_) | Expr::Literal(_) | Expr::Variable(_) => true,
        }
    }
    let boolean = match predicate {
        Expr::Or(..) | Expr::And(..) | Expr::Compare(..) | Expr::Path(_) | Expr::Literal(_) => true,
        Expr::Function(f, _, _) => matches!(
            f,
            Function::Not
                | Function::Boolean
                | Function::True
                | Function::False
                | Function::StartsWith
                | Function::Contains
                | Function::Lang
                | Function::String
                | Function::Concat
                | Function::Id
        ),
        _ => false,
    };
    boolean && no_position(predicate)
}

/// A name as written: optional prefix, local part, and where it starts in
/// the expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct QName {
    pub(crate) prefix: Option<String>,
    pub(crate) local: String,
    pub(crate) at: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CompareOp {
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArithmeticOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
}

/// A path: where it starts, then its steps. `//` between steps is already
/// expanded to a `descendant-or-self::node()` step (§2.5), or, before a
/// child step whose predicates cannot see positions, merged with it into
/// a `descendant` step.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Path {
    pub(crate) start: PathStart,
    pub(crate) steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum PathStart {
    /// `/...` or `//...`: the root of the context node's tree.
    Root,
    /// A relative location path: the context node.
    Context,
    /// `FilterExpr / RelativeLocationPath`: the node-set the expression
    /// gives (an error if it gives anything else); the offset of the `/`.
    Expr(Box<Expr>, usize),
}

/// `axis::test[predicate]...` (§2.1); abbreviations already expanded:
/// `.` is `self::node()`, `..` is `parent::node()`, `@x` is
/// `attribute::x`, no axis is `child::`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    pub(crate) axis: Axis,
    pub(crate) test: NodeTest,
    pub(crate) predicates: Vec<Expr>,
}

/// The thirteen axes of §2.2.
// `Self` is a keyword, hence `SelfAxis`.
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Axis {
    Ancestor,
    AncestorOrSelf,
    Attribute,
    Child,
    Descendant,
    DescendantOrSelf,
    Following,
    FollowingSibling,
    Namespace,
    Parent,
    Preceding,
    PrecedingSibling,
    SelfAxis,
}

impl Axis {
    /// Reverse axes count proximity positions backwards (§2.4).
    pub(crate) fn is_reverse(self) -> bool {
        matches!(
            self,
            Axis::Ancestor | Axis::AncestorOrSelf | Axis::Preceding | Axis::PrecedingSibling
        )
    }
}

/// Node tests (§2.3).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeTest {
    /// `name` or `prefix:name`: the principal node type with that expanded
    /// name.
    Name(QName),
    /// `prefix:*`: the principal node type in that namespace (`local` is
    /// empty; `prefix` is always set).
    NamespaceWildcard(QName),
    /// `*`: any node of the principal node type.
    Any,
    /// `node()`.
    Node,
    /// `text()`.
    Text,
    /// `comment()`.
    Comment,
    /// `processing-instruction()` or `processing-instruction('target')`.
    ProcessingInstruction(Option<String>),
}

/// The 27 core functions of §4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Function {
    // §4.1 node-set functions
    Last,
    Position,
    Count,
    Id,
    LocalName,
    NamespaceUri,
    Name,
    // §4.2 string functions
    String,
    Concat,
    StartsWith,
    Contains,
    SubstringBefore,
    SubstringAfter,
    Substring,
    StringLength,
    NormalizeSpace,
    Translate,
    // §4.3 boolean functions
    Boolean,
    Not,
    True,
    False,
    Lang,
    // §4.4 number functions
    Number,
    Sum,
    Floor,
    Ceiling,
    Round,
}

impl Function {
    /// Every function, for lookups by name.
    pub(crate) const ALL: [Function; 27] = [
        Function::Last,
        Function::Position,
        Function::Count,
        Function::Id,
        Function::LocalName,
        Function::NamespaceUri,
        Function::Name,
        Function::String,
        Function::Concat,
        Function::StartsWith,
        Function::Contains,
        Function::SubstringBefore,
        Function::SubstringAfter,
        Function::Substring,
        Function::StringLength,
        Function::NormalizeSpace,
        Function::Translate,
        Function::Boolean,
        Function::Not,
        Function::True,
        Function::False,
        Function::Lang,
        Function::Number,
        Function::Sum,
        Function::Floor,
        Function::Ceiling,
        Function::Round,
    ];

    /// The function's name in expressions.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Function::Last => "last",
            Function::Position => "position",
            Function::Count => "count",
            Function::Id => "id",
            Function::LocalName => "local-name",
            Function::NamespaceUri => "namespace-uri",
            Function::Name => "name",
            Function::String => "string",
            Function::Concat => "concat",
            Function::StartsWith => "starts-with",
            Function::Contains => "contains",
            Function::SubstringBefore => "substring-before",
            Function::SubstringAfter => "substring-after",
            Function::Substring => "substring",
            Function::StringLength => "string-length",
            Function::NormalizeSpace => "normalize-space",
            Function::Translate => "translate",
            Function::Boolean => "boolean",
            Function::Not => "not",
            Function::True => "true",
            Function::False => "false",
            Function::Lang => "lang",
            Function::Number => "number",
            Function::Sum => "sum",
            Function::Floor => "floor",
            Function::Ceiling => "ceiling",
            Function::Round => "round",
        }
    }

    /// The function named `name`, if it is a core function.
    pub(crate) fn by_name(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.name() == name)
    }

    /// How many arguments it takes: at least, and at most (`None`: any
    /// number, for `concat`).
    pub(crate) fn arity(self) -> (usize, Option<usize>) {
        match self {
            Function::Last | Function::Position | Function::True | Function::False => (0, Some(0)),
            Function::LocalName
            | Function::NamespaceUri
            | Function::Name
            | Function::String
            | Function::StringLength
            | Function::NormalizeSpace
            | Function::Number => (0, Some(1)),
            Function::Count
            | Function::Id
            | Function::Boolean
            | Function::Not
            | Function::Lang
            | Function::Sum
            | Function::Floor
            | Function::Ceiling
            | Function::Round => (1, Some(1)),
            Function::StartsWith
            | Function::Contains
            | Function::SubstringBefore
            | Function::SubstringAfter => (2, Some(2)),
            Function::Substring => (2, Some(3)),
            Function::Translate => (3, Some(3)),
            Function::Concat => (2, None),
        }
    }
}
