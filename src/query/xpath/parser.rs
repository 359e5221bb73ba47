//! XPath 1.0 expression text to [`Expr`]: the lexer of §3.7 (with its
//! rules for telling `*` and `div` operators from name tests) and a
//! recursive-descent parser of the grammar of §2 and §3, one function per
//! production.
//!
//! Nesting is bounded ([`MAX_NESTING`], [`MAX_DEPTH`]): the parser, the
//! evaluator and the expression's drop recurse over the expression (never
//! over the document), so a hostile expression gets an error instead of
//! exhausting the stack.

use super::ast::{
    is_positionless, ArithmeticOp, Axis, CompareOp, Expr, Function, NodeTest, Path, PathStart,
    QName, Step,
};
use super::{functions, XPathError};
use crate::chars::{is_ncname_char, is_ncname_start_char, is_xml_space};

/// How deep the compiled expression may be (chains of operators nest to
/// the left, so `1+1+...` counts one level per `+`).
pub(crate) const MAX_DEPTH: usize = 256;

/// How deeply parentheses, predicates and arguments may nest (each level
/// costs the parser a dozen stack frames).
pub(crate) const MAX_NESTING: usize = 64;

/// Parses a whole expression.
pub(crate) fn parse(source: &str) -> Result<Expr, XPathError> {
    let tokens = lex(source)?;
    let mut parser = Parser {
        source,
        tokens,
        next: 0,
        nesting: 0,
    };
    let (expr, _) = parser.expr()?;
    match parser.peek() {
        None => Ok(expr),
        Some(token) => Err(parser.error_at(token.at, "unexpected text after the expression")),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    LeftParen,
    RightParen,
    LeftBracket,
    RightBracket,
    Dot,
    DotDot,
    At,
    Comma,
    ColonColon,
    Slash,
    DoubleSlash,
    Pipe,
    Plus,
    Minus,
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    /// `*` as the multiply operator.
    Multiply,
    And,
    Or,
    Mod,
    Div,
    /// `*`, `prefix:*` or a QName as a name test.
    NameTest(NodeTest),
    /// `node`, `text`, `comment` or `processing-instruction`, before `(`.
    NodeType(&'static str),
    /// A QName before `(` that is not a node type.
    FunctionName(QName),
    /// An NCName before `::`.
    AxisName(String),
    Literal(String),
    Number(f64),
    Variable(QName),
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    /// Byte offset in the expression.
    at: usize,
}

impl Kind {
    /// Whether a token of this kind leaves the lexer expecting an operand,
    /// so that `*` is a name test and an NCName a name (§3.7: after `@`,
    /// `::`, `(`, `[`, `,` or an operator).
    fn expects_operand(&self) -> bool {
        matches!(
            self,
            Kind::At
                | Kind::ColonColon
                | Kind::LeftParen
                | Kind::LeftBracket
                | Kind::Comma
                | Kind::Slash
                | Kind::DoubleSlash
                | Kind::Pipe
                | Kind::Plus
                | Kind::Minus
                | Kind::Equal
                | Kind::NotEqual
                | Kind::Less
                | Kind::LessOrEqual
                | Kind::Greater
                | Kind::GreaterOrEqual
                | Kind::Multiply
                | Kind::And
                | Kind::Or
                | Kind::Mod
                | Kind::Div
        )
    }
}

struct Lexer<'s> {
    source: &'s str,
    at: usize,
    tokens: Vec<Token>,
}

fn lex(source: &str) -> Result<Vec<Token>, XPathError> {
    let mut lexer = Lexer {
        source,
        at: 0,
        tokens: Vec::new(),
    };
    while lexer.token()? {}
    Ok(lexer.tokens)
}

impl Lexer<'_> {
    fn rest(&self) -> &str {
        &self.source[self.at..]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start_matches(is_xml_space).len();
    }

    /// Whether the lexer expects an operand (the §3.7 disambiguation).
    fn expects_operand(&self) -> bool {
        self.tokens.last().is_none_or(|t| t.kind.expects_operand())
    }

    /// Reads one token; `false` at the end.
    fn token(&mut self) -> Result<bool, XPathError> {
        self.skip_space();
        let start = self.at;
        let Some(c) = self.rest().chars().next() else {
            return Ok(false);
        };
        let two = self.rest().get(..2).unwrap_or("");
        let (kind, len) = match c {
            '(' => (Kind::LeftParen, 1),
            ')' => (Kind::RightParen, 1),
            '[' => (Kind::LeftBracket, 1),
            ']' => (Kind::RightBracket, 1),
            '@' => (Kind::At, 1),
            ',' => (Kind::Comma, 1),
            '|' => (Kind::Pipe, 1),
            '+' => (Kind::Plus, 1),
            '-' => (Kind::Minus, 1),
            '=' => (Kind::Equal, 1),
            '/' if two == "//" => (Kind::DoubleSlash, 2),
            '/' => (Kind::Slash, 1),
            ':' if two == "::" => (Kind::ColonColon, 2),
            '!' if two == "!=" => (Kind::NotEqual, 2),
            '<' if two == "<=" => (Kind::LessOrEqual, 2),
            '<' => (Kind::Less, 1),
            '>' if two == ">=" => (Kind::GreaterOrEqual, 2),
            '>' => (Kind::Greater, 1),
            '.' if two == ".." => (Kind::DotDot, 2),
            '.' if !self.rest()[1..].starts_with(|c: char| c.is_ascii_digit()) => (Kind::Dot, 1),
            '.' | '0'..='9' => {
                let len = functions::number_literal_len(self.rest()).max(1);
                let lexeme = &self.rest()[..len];
                let Some(value) = functions::parse_number_literal(lexeme) else {
                    return Err(error(self.source, start, "this is not a number"));
                };
                (Kind::Number(value), len)
            }
            '"' | '\'' => {
                let body = &self.rest()[1..];
                let Some(end) = body.find(c) else {
                    return Err(error(self.source, start, "a string literal is not closed"));
                };
                (Kind::Literal(body[..end].to_owned()), end + 2)
            }
            '$' => {
                self.at += 1;
                let Some(mut name) = self.qname()? else {
                    return Err(error(
                        self.source,
                        self.at,
                        "a variable name must follow `$`",
                    ));
                };
                // Errors about the variable point at its `$`.
                name.at = start;
                self.push(Kind::Variable(name), start);
                return Ok(true);
            }
            '*' if self.expects_operand() => (Kind::NameTest(NodeTest::Any), 1),
            '*' => (Kind::Multiply, 1),
            c if is_ncname_start_char(c) => {
                self.name(start)?;
                return Ok(true);
            }
            _ => return Err(error(self.source, start, "unexpected character")),
        };
        self.at += len;
        self.push(kind, start);
        Ok(true)
    }

    fn push(&mut self, kind: Kind, at: usize) {
        self.tokens.push(Token { kind, at });
    }

    fn ncname(&mut self) -> Option<String> {
        let rest = self.rest();
        if !rest.starts_with(is_ncname_start_char) {
            return None;
        }
        let len = rest.len() - rest.trim_start_matches(is_ncname_char).len();
        let name = rest[..len].to_owned();
        self.at += len;
        Some(name)
    }

    /// `prefix:local` or `local`, with no space around the colon.
    fn qname(&mut self) -> Result<Option<QName>, XPathError> {
        let at = self.at;
        let Some(first) = self.ncname() else {
            return Ok(None);
        };
        let rest = self.rest();
        if rest.starts_with(':') && !rest.starts_with("::") {
            self.at += 1;
            let Some(local) = self.ncname() else {
                return Err(error(
                    self.source,
                    self.at,
                    "a local name must follow `prefix:`",
                ));
            };
            return Ok(Some(QName {
                prefix: Some(first),
                local,
                at,
            }));
        }
        Ok(Some(QName {
            prefix: None,
            local: first,
            at,
        }))
    }

    /// An NCName and what follows it decide between operator names, axis
    /// names, node types, function names and name tests (§3.7).
    fn name(&mut self, start: usize) -> Result<(), XPathError> {
        if !self.expects_operand() {
            let name = self.ncname().unwrap_or_default();
            let kind = match name.as_str() {
                "and" => Kind::And,
                "or" => Kind::Or,
                "mod" => Kind::Mod,
                "div" => Kind::Div,
                _ => {
                    return Err(error(
                        self.source,
                        start,
                        "an operator (`and`, `or`, `mod`, `div`) was expected here",
                    ))
                }
            };
            self.push(kind, start);
            return Ok(());
        }
        let after_ncname = {
            let rest = self.rest();
            let len = rest.len() - rest.trim_start_matches(is_ncname_char).len();
            rest[len..].trim_start_matches(is_xml_space)
        };
        if after_ncname.starts_with("::") {
            let name = self.ncname().unwrap_or_default();
            self.push(Kind::AxisName(name), start);
            return Ok(());
        }
        // `prefix:*`
        {
            let rest = self.rest();
            let len = rest.len() - rest.trim_start_matches(is_ncname_char).len();
            if rest[len..].starts_with(":*") {
                let prefix = rest[..len].to_owned();
                self.at += len + 2;
                let test = NodeTest::NamespaceWildcard(QName {
                    prefix: Some(prefix),
                    local: String::new(),
                    at: start,
                });
                self.push(Kind::NameTest(test), start);
                return Ok(());
            }
        }
        let Some(name) = self.qname()? else {
            return Err(error(self.source, start, "unexpected character"));
        };
        if self
            .rest()
            .trim_start_matches(is_xml_space)
            .starts_with('(')
        {
            let node_type = match (&name.prefix, name.local.as_str()) {
                (None, "node") => Some("node"),
                (None, "text") => Some("text"),
                (None, "comment") => Some("comment"),
                (None, "processing-instruction") => Some("processing-instruction"),
                _ => None,
            };
            let kind = match node_type {
                Some(node_type) => Kind::NodeType(node_type),
                None => Kind::FunctionName(name),
            };
            self.push(kind, start);
            return Ok(());
        }
        self.push(Kind::NameTest(NodeTest::Name(name)), start);
        Ok(())
    }
}

/// The operator precedence levels of §3, loosest first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Or,
    And,
    Equality,
    Relational,
    Additive,
    Multiplicative,
    Union,
}

#[derive(Clone, Copy)]
enum Operator {
    Or,
    And,
    Compare(CompareOp),
    Arithmetic(ArithmeticOp),
    Union,
}

/// The operator a token is at `level`, if it is one there.
fn operator(kind: &Kind, level: Level) -> Option<Operator> {
    let (op_level, op) = match kind {
        Kind::Or => (Level::Or, Operator::Or),
        Kind::And => (Level::And, Operator::And),
        Kind::Equal => (Level::Equality, Operator::Compare(CompareOp::Equal)),
        Kind::NotEqual => (Level::Equality, Operator::Compare(CompareOp::NotEqual)),
        Kind::Less => (Level::Relational, Operator::Compare(CompareOp::Less)),
        Kind::LessOrEqual => (Level::Relational, Operator::Compare(CompareOp::LessOrEqual)),
        Kind::Greater => (Level::Relational, Operator::Compare(CompareOp::Greater)),
        Kind::GreaterOrEqual => (
            Level::Relational,
            Operator::Compare(CompareOp::GreaterOrEqual),
        ),
        Kind::Plus => (Level::Additive, Operator::Arithmetic(ArithmeticOp::Add)),
        Kind::Minus => (
            Level::Additive,
            Operator::Arithmetic(ArithmeticOp::Subtract),
        ),
        Kind::Multiply => (
            Level::Multiplicative,
            Operator::Arithmetic(ArithmeticOp::Multiply),
        ),
        Kind::Div => (
            Level::Multiplicative,
            Operator::Arithmetic(ArithmeticOp::Divide),
        ),
        Kind::Mod => (
            Level::Multiplicative,
            Operator::Arithmetic(ArithmeticOp::Modulo),
        ),
        Kind::Pipe => (Level::Union, Operator::Union),
        _ => return None,
    };
    (op_level == level).then_some(op)
}

fn error(source: &str, offset: usize, message: &str) -> XPathError {
    XPathError::Syntax {
        offset,
        column: super::column(source, offset),
        message: message.to_owned(),
    }
}

struct Parser<'s> {
    source: &'s str,
    tokens: Vec<Token>,
    next: usize,
    /// How many nested expressions enclose the one being parsed.
    nesting: usize,
}

/// A parsed expression and how deep it nests.
type Parsed = (Expr, usize);

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    fn peek_kind(&self) -> Option<&Kind> {
        self.peek().map(|t| &t.kind)
    }

    /// Where the next token starts (the end of the expression at the end).
    fn offset(&self) -> usize {
        self.peek().map_or(self.source.len(), |t| t.at)
    }

    fn advance(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.next).cloned();
        self.next += usize::from(token.is_some());
        token
    }

    fn eat(&mut self, kind: &Kind) -> bool {
        if self.peek_kind() == Some(kind) {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn error_at(&self, offset: usize, message: &str) -> XPathError {
        error(self.source, offset, message)
    }

    /// The error for a missing piece, at the next token (or the end).
    fn expected(&self, what: &str) -> XPathError {
        match self.peek() {
            Some(_) => self.error_at(self.offset(), &format!("{what} was expected here")),
            None => self.error_at(
                self.source.len(),
                &format!("{what} was expected, but the expression ended"),
            ),
        }
    }

    fn check_depth(&self, depth: usize, at: usize) -> Result<usize, XPathError> {
        if depth > MAX_DEPTH {
            Err(XPathError::TooDeep {
                offset: at,
                column: super::column(self.source, at),
                limit: MAX_DEPTH,
            })
        } else {
            Ok(depth)
        }
    }

    /// `Expr ::= OrExpr`, entered once per nesting level.
    fn expr(&mut self) -> Result<Parsed, XPathError> {
        let at = self.offset();
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(XPathError::TooDeep {
                offset: at,
                column: super::column(self.source, at),
                limit: MAX_NESTING,
            });
        }
        let result = self.or_expr();
        self.nesting -= 1;
        result
    }

    /// Parses `operand (operator operand)*` at one precedence level,
    /// grouping to the left.
    fn binary(
        &mut self,
        level: Level,
        operand: fn(&mut Self) -> Result<Parsed, XPathError>,
    ) -> Result<Parsed, XPathError> {
        let (mut left, mut depth) = operand(self)?;
        while let Some(token) = self.peek().cloned() {
            let Some(op) = operator(&token.kind, level) else {
                break;
            };
            self.next += 1;
            let (right, right_depth) = operand(self)?;
            depth = self.check_depth(depth.max(right_depth) + 1, token.at)?;
            let (a, b) = (Box::new(left), Box::new(right));
            left = match op {
                Operator::Or => Expr::Or(a, b),
                Operator::And => Expr::And(a, b),
                Operator::Compare(op) => Expr::Compare(op, a, b),
                Operator::Arithmetic(op) => Expr::Arithmetic(op, a, b),
                Operator::Union => Expr::Union(a, b, token.at),
            };
        }
        Ok((left, depth))
    }

    /// `OrExpr ::= AndExpr ('or' AndExpr)*`
    fn or_expr(&mut self) -> Result<Parsed, XPathError> {
        self.binary(Level::Or, Self::and_expr)
    }

    /// `AndExpr ::= EqualityExpr ('and' EqualityExpr)*`
    fn and_expr(&mut self) -> Result<Parsed, XPathError> {
        self.binary(Level::And, Self::equality_expr)
    }

    /// `EqualityExpr ::= RelationalExpr (('=' | '!=') RelationalExpr)*`
    fn equality_expr(&mut self) -> Result<Parsed, XPathError> {
        self.binary(Level::Equality, Self::relational_expr)
    }

    /// `RelationalExpr ::= AdditiveExpr (('<' | '>' | '<=' | '>=') AdditiveExpr)*`
    fn relational_expr(&mut self) -> Result<Parsed, XPathError> {
        self.binary(Level::Relational, Self::additive_expr)
    }

    /// `AdditiveExpr ::= MultiplicativeExpr (('+' | '-') MultiplicativeExpr)*`
    fn additive_expr(&mut self) -> Result<Parsed, XPathError> {
        self.binary(Level::Additive, Self::multiplicative_expr)
    }

    /// `MultiplicativeExpr ::= UnaryExpr (('*' | 'div' | 'mod') UnaryExpr)*`
    fn multiplicative_expr(&mut self) -> Result<Parsed, XPathError> {
        self.binary(Level::Multiplicative, Self::unary_expr)
    }

    /// `UnaryExpr ::= UnionExpr | '-' UnaryExpr` (the minus signs counted,
    /// not recursed on).
    fn unary_expr(&mut self) -> Result<Parsed, XPathError> {
        let mut minuses = 0usize;
        while self.eat(&Kind::Minus) {
            minuses += 1;
        }
        let (mut expr, mut depth) = self.union_expr()?;
        // `- - x` is `x` (even for NaN, whose sign XPath cannot show): pairs
        // cancel.
        if minuses % 2 == 1 {
            expr = Expr::Negate(Box::new(expr));
            depth += 1;
        }
        Ok((expr, depth))
    }

    /// `UnionExpr ::= PathExpr ('|' PathExpr)*`
    fn union_expr(&mut self) -> Result<Parsed, XPathError> {
        self.binary(Level::Union, Self::path_expr)
    }

    /// `PathExpr ::= LocationPath | FilterExpr (('/' | '//') RelativeLocationPath)?`
    fn path_expr(&mut self) -> Result<Parsed, XPathError> {
        let starts_primary = matches!(
            self.peek_kind(),
            Some(
                Kind::Variable(_)
                    | Kind::LeftParen
                    | Kind::Literal(_)
                    | Kind::Number(_)
                    | Kind::FunctionName(_)
            )
        );
        if !starts_primary {
            let starts_path = self.starts_step()
                || matches!(self.peek_kind(), Some(Kind::Slash | Kind::DoubleSlash));
            if !starts_path {
                return Err(self.expected("an expression"));
            }
            return self.location_path();
        }
        let (filter, depth) = self.filter_expr()?;
        let at = self.offset();
        let mut steps = Vec::new();
        let steps_depth = if self.eat(&Kind::Slash) {
            self.relative_location_path(&mut steps)?
        } else if self.eat(&Kind::DoubleSlash) {
            steps.push(descendant_or_self());
            self.relative_location_path(&mut steps)?
        } else {
            return Ok((filter, depth));
        };
        let path = Path {
            start: PathStart::Expr(Box::new(filter), at),
            steps,
        };
        Ok((Expr::Path(path), depth.max(steps_depth) + 1))
    }

    /// `FilterExpr ::= PrimaryExpr Predicate*`
    fn filter_expr(&mut self) -> Result<Parsed, XPathError> {
        let (primary, depth) = self.primary_expr()?;
        let at = self.offset();
        let (predicates, predicate_depth) = self.predicates()?;
        if predicates.is_empty() {
            return Ok((primary, depth));
        }
        Ok((
            Expr::Filter(Box::new(primary), predicates, at),
            depth.max(predicate_depth) + 1,
        ))
    }

    /// `PrimaryExpr ::= VariableReference | '(' Expr ')' | Literal | Number | FunctionCall`
    fn primary_expr(&mut self) -> Result<Parsed, XPathError> {
        let Some(token) = self.advance() else {
            return Err(self.expected("an expression"));
        };
        match token.kind {
            Kind::Variable(name) => Ok((Expr::Variable(name), 1)),
            Kind::Literal(text) => Ok((Expr::Literal(text), 1)),
            Kind::Number(value) => Ok((Expr::Number(value), 1)),
            Kind::LeftParen => {
                let (expr, depth) = self.expr()?;
                if !self.eat(&Kind::RightParen) {
                    return Err(self.expected("`)`"));
                }
                Ok((expr, depth))
            }
            Kind::FunctionName(name) => self.function_call(name),
            _ => Err(self.error_at(token.at, "an expression was expected here")),
        }
    }

    /// `FunctionCall ::= FunctionName '(' ( Argument ( ',' Argument )* )? ')'`
    fn function_call(&mut self, name: QName) -> Result<Parsed, XPathError> {
        let function = match &name.prefix {
            None => Function::by_name(&name.local),
            Some(_) => None,
        };
        let Some(function) = function else {
            let written = match &name.prefix {
                Some(prefix) => format!("{prefix}:{}", name.local),
                None => name.local.clone(),
            };
            return Err(XPathError::UnknownFunction {
                name: written,
                offset: name.at,
                column: super::column(self.source, name.at),
            });
        };
        // The lexer only makes a function name before `(`.
        self.eat(&Kind::LeftParen);
        let mut args = Vec::new();
        let mut depth = 0;
        if !self.eat(&Kind::RightParen) {
            loop {
                let (arg, arg_depth) = self.expr()?;
                args.push(arg);
                depth = depth.max(arg_depth);
                if self.eat(&Kind::Comma) {
                    continue;
                }
                if self.eat(&Kind::RightParen) {
                    break;
                }
                return Err(self.expected("`,` or `)`"));
            }
        }
        let (min, max) = function.arity();
        if args.len() < min || max.is_some_and(|max| args.len() > max) {
            let expected = match max {
                Some(max) if max == min => format!("{min}"),
                Some(max) => format!("{min} to {max}"),
                None => format!("at least {min}"),
            };
            return Err(XPathError::ArgumentCount {
                function: function.name(),
                expected,
                given: args.len(),
                offset: name.at,
                column: super::column(self.source, name.at),
            });
        }
        Ok((Expr::Function(function, args, name.at), depth + 1))
    }

    /// `Predicate*`, each `'[' Expr ']'`.
    fn predicates(&mut self) -> Result<(Vec<Expr>, usize), XPathError> {
        let mut predicates = Vec::new();
        let mut depth = 0;
        while self.eat(&Kind::LeftBracket) {
            let (predicate, predicate_depth) = self.expr()?;
            if !self.eat(&Kind::RightBracket) {
                return Err(self.expected("`]`"));
            }
            predicates.push(predicate);
            depth = depth.max(predicate_depth);
        }
        Ok((predicates, depth))
    }

    /// `LocationPath ::= RelativeLocationPath | AbsoluteLocationPath`
    fn location_path(&mut self) -> Result<Parsed, XPathError> {
        let mut steps = Vec::new();
        let mut depth = 0;
        let start = if self.eat(&Kind::Slash) {
            // libxml2 reads `/ /` as `/` (and `/ /a` as `/a`): more `/`
            // tokens right after the first are dropped.
            while self.eat(&Kind::Slash) {}
            if self.eat(&Kind::DoubleSlash) {
                steps.push(descendant_or_self());
                depth = self.relative_location_path(&mut steps)?;
            } else if self.starts_step() {
                // `/` alone is the root; a step may follow.
                depth = self.relative_location_path(&mut steps)?;
            }
            PathStart::Root
        } else if self.eat(&Kind::DoubleSlash) {
            steps.push(descendant_or_self());
            depth = self.relative_location_path(&mut steps)?;
            PathStart::Root
        } else {
            depth = self.relative_location_path(&mut steps)?;
            PathStart::Context
        };
        Ok((Expr::Path(Path { start, steps }), depth + 1))
    }

    fn starts_step(&self) -> bool {
        matches!(
            self.peek_kind(),
            Some(
                Kind::NameTest(_)
                    | Kind::NodeType(_)
                    | Kind::AxisName(_)
                    | Kind::At
                    | Kind::Dot
                    | Kind::DotDot
            )
        )
    }

    /// `RelativeLocationPath ::= Step (('/' | '//') Step)*`; returns how
    /// deep the steps' predicates nest.
    fn relative_location_path(&mut self, steps: &mut Vec<Step>) -> Result<usize, XPathError> {
        let mut depth = 0;
        loop {
            let (step, step_depth) = self.step()?;
            push_step(steps, step);
            depth = depth.max(step_depth);
            if self.eat(&Kind::Slash) {
                continue;
            }
            if self.eat(&Kind::DoubleSlash) {
                steps.push(descendant_or_self());
                continue;
            }
            return Ok(depth);
        }
    }

    /// `Step ::= AxisSpecifier NodeTest Predicate* | '.' | '..'`, and how
    /// deep its predicates nest.
    fn step(&mut self) -> Result<(Step, usize), XPathError> {
        for (dot, axis) in [(Kind::Dot, Axis::SelfAxis), (Kind::DotDot, Axis::Parent)] {
            if self.eat(&dot) {
                let step = Step {
                    axis,
                    test: NodeTest::Node,
                    predicates: Vec::new(),
                };
                return Ok((step, 0));
            }
        }
        let axis = match self.peek_kind() {
            Some(Kind::At) => {
                self.next += 1;
                Axis::Attribute
            }
            Some(Kind::AxisName(name)) => {
                let at = self.offset();
                let axis = axis_named(name)
                    .ok_or_else(|| self.error_at(at, "there is no axis of that name"))?;
                self.next += 1;
                // The lexer only makes an axis name before `::`.
                self.eat(&Kind::ColonColon);
                axis
            }
            _ => Axis::Child,
        };
        let test = self.node_test()?;
        let (predicates, depth) = self.predicates()?;
        let step = Step {
            axis,
            test,
            predicates,
        };
        Ok((step, depth))
    }

    /// `NodeTest ::= NameTest | NodeType '(' ')' | 'processing-instruction' '(' Literal ')'`
    fn node_test(&mut self) -> Result<NodeTest, XPathError> {
        let Some(token) = self.advance() else {
            return Err(self.expected("a node test"));
        };
        match token.kind {
            Kind::NameTest(test) => Ok(test),
            Kind::NodeType(node_type) => {
                self.eat(&Kind::LeftParen);
                let mut target = None;
                if node_type == "processing-instruction" {
                    if let Some(Kind::Literal(text)) = self.peek_kind() {
                        target = Some(text.clone());
                        self.next += 1;
                    }
                }
                if !self.eat(&Kind::RightParen) {
                    return Err(self.expected("`)`"));
                }
                Ok(match node_type {
                    "node" => NodeTest::Node,
                    "text" => NodeTest::Text,
                    "comment" => NodeTest::Comment,
                    _ => NodeTest::ProcessingInstruction(target),
                })
            }
            _ => Err(self.error_at(token.at, "a node test was expected here")),
        }
    }
}

/// Appends a step; `//name[p]`, where `p` cannot see positions, becomes
/// `descendant::name[p]` (the same nodes), one walk instead of a child
/// step from every node.
fn push_step(steps: &mut Vec<Step>, step: Step) {
    let after_double_slash = steps.last() == Some(&descendant_or_self());
    if after_double_slash && step.axis == Axis::Child && step.predicates.iter().all(is_positionless)
    {
        if let Some(last) = steps.last_mut() {
            *last = Step {
                axis: Axis::Descendant,
                ..step
            };
            return;
        }
    }
    steps.push(step);
}

/// The step `//` stands for.
fn descendant_or_self() -> Step {
    Step {
        axis: Axis::DescendantOrSelf,
        test: NodeTest::Node,
        predicates: Vec::new(),
    }
}

fn axis_named(name: &str) -> Option<Axis> {
    Some(match name {
        "ancestor" => Axis::Ancestor,
        "ancestor-or-self" => Axis::AncestorOrSelf,
        "attribute" => Axis::Attribute,
        "child" => Axis::Child,
        "descendant" => Axis::Descendant,
        "descendant-or-self" => Axis::DescendantOrSelf,
        "following" => Axis::Following,
        "following-sibling" => Axis::FollowingSibling,
        "namespace" => Axis::Namespace,
        "parent" => Axis::Parent,
        "preceding" => Axis::Preceding,
        "preceding-sibling" => Axis::PrecedingSibling,
        "self" => Axis::SelfAxis,
        _ => return None,
    })
}
