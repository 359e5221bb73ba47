//! Evaluating a compiled expression against a node (XPath 1.0 §2-§5).
//!
//! Node-sets are vectors kept in document order without duplicates. The
//! order of nodes from different context nodes is found from a preorder
//! numbering of the document, built once per evaluation and only when
//! results must be merged. Nothing here recurses over the document; the
//! evaluator recurses over the expression only, whose depth the parser
//! bounds.
//!
//! Work per node stays bounded where a naive evaluation would grow with
//! the size of the document (tests/linear_audit.rs holds the shapes):
//!
//! - a step whose first predicate is a number (`following::*[1]`) stops
//!   its axis after that many nodes;
//! - a step from many context nodes whose predicates cannot see positions
//!   produces the union of their axes without walking the shared parts
//!   again (nested nodes' ancestors and descendants, siblings' siblings,
//!   and `following`/`preceding`, each the axis of one of the nodes);
//! - `id()`, `lang()`, the namespace axis and `/` inside predicates use
//!   what was found before in the same evaluation (an index of IDs, the
//!   nearest `xml:lang`, declaring ancestor or root) instead of a walk of
//!   the document or up to its root per call;
//! - node-sets compare with `=` and `!=` through a set of string-values,
//!   and with `<` and the like by their extreme values.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};

use super::ast::{
    is_positionless, ArithmeticOp, Axis, CompareOp, Expr, Function, NodeTest, Path, PathStart, Step,
};
use super::functions;
use super::value::{
    is_top_level, run_start, string_value, string_value_cow, to_boolean, to_number, to_string,
};
use super::{AttributeNode, Bindings, NamespaceNode, Value, XNode, XPathError};
use crate::dom::{Document, Edge, Node, NodeType, XMLNS_NAMESPACE, XML_NAMESPACE};

pub(super) fn evaluate<'a>(
    expr: &Expr,
    source: &str,
    context: Node<'a>,
    bindings: &Bindings<'a>,
) -> Result<Value<'a>> {
    let mut evaluator = Evaluator {
        source,
        bindings,
        document: context.document(),
        order: OnceCell::new(),
        ids: OnceCell::new(),
        roots: RefCell::default(),
        langs: RefCell::default(),
        declaring: RefCell::default(),
        run_starts: RefCell::default(),
        prefixes: HashMap::new(),
    };
    evaluator.check_names(expr)?;
    let context = Context {
        // A later node of a run of text is the run's first in XPath.
        node: XNode::Node(run_start(context)),
        position: 1,
        size: 1,
    };
    evaluator.eval(expr, &context)
}

struct Evaluator<'a, 'b> {
    source: &'b str,
    bindings: &'b Bindings<'a>,
    document: &'a Document,
    /// Preorder numbers and subtree ends by arena index, built when first
    /// needed.
    order: OnceCell<Vec<Numbers>>,
    /// The elements of the document's tree by ID value, for `id()`, built
    /// when first needed.
    ids: OnceCell<HashMap<&'a str, Vec<Node<'a>>>>,
    /// By arena index: the root of the node's tree, for nodes walked so
    /// far.
    roots: RefCell<HashMap<usize, Node<'a>>>,
    /// By arena index: the `xml:lang` in scope, for nodes walked so far.
    langs: RefCell<Nearest<&'a str>>,
    /// By arena index: the nearest element at or above with a namespace
    /// declaration, for nodes walked so far.
    declaring: RefCell<Nearest<Node<'a>>>,
    /// By arena index: the first node of the run of text siblings, for
    /// the later nodes of runs met in variables so far.
    run_starts: RefCell<HashMap<usize, Node<'a>>>,
    /// The namespace URI of every prefix in the expression, resolved once
    /// (by `check_names`) rather than at every step.
    prefixes: HashMap<&'b str, &'b str>,
}

/// The context of §1: a node, its position and the size of its set.
#[derive(Clone, Copy)]
struct Context<'a> {
    node: XNode<'a>,
    position: usize,
    size: usize,
}

/// A node's preorder number and the number of the last node of its
/// subtree; `u32::MAX` for nodes outside the document's tree (detached).
#[derive(Clone, Copy)]
struct Numbers {
    pre: u32,
    end: u32,
}

const UNNUMBERED: Numbers = Numbers {
    pre: u32::MAX,
    end: u32::MAX,
};

/// Answers of "the nearest node at or above this one with some property",
/// by arena index: each walk up stops at a node already answered and
/// answers the nodes it passed, so answering every node of a deep
/// document costs its size, not its size times its depth.
type Nearest<T> = HashMap<usize, Option<T>>;

/// What a step from many context nodes keeps between them to produce
/// each node of the union of their axes once (see `merged_axis`).
#[derive(Default)]
struct Merge {
    /// Nodes whose chain on the axis (themselves and all nodes after them
    /// on it) was walked already: ancestors, following or preceding
    /// siblings.
    walked: HashSet<usize>,
    /// The subtree (its numbers) whose descendants were produced last.
    covered: Option<Numbers>,
}

/// A node test with its prefix resolved.
enum Test<'e> {
    /// Local name, namespace URI (`None`: no namespace).
    Name(&'e str, Option<&'e str>),
    /// Any node of the principal type in this namespace.
    Namespace(&'e str),
    /// Any node of the principal type.
    Principal,
    Node,
    Text,
    Comment,
    ProcessingInstruction(Option<&'e str>),
}

type Result<T> = std::result::Result<T, XPathError>;

impl<'a, 'b> Evaluator<'a, 'b> {
    /// Checks up front that every variable and prefix is bound, so an
    /// unbound one is an error even where evaluation would not reach it,
    /// and resolves the prefixes.
    fn check_names(&mut self, expr: &'b Expr) -> Result<()> {
        match expr {
            Expr::Or(a, b)
            | Expr::And(a, b)
            | Expr::Compare(_, a, b)
            | Expr::Arithmetic(_, a, b)
            | Expr::Union(a, b, _) => {
                self.check_names(a)?;
                self.check_names(b)
            }
            Expr::Negate(a) => self.check_names(a),
            Expr::Number(_) | Expr::Literal(_) => Ok(()),
            Expr::Variable(name) => self.variable(name).map(|_| ()),
            Expr::Function(_, args, _) => args.iter().try_for_each(|a| self.check_names(a)),
            Expr::Filter(primary, predicates, _) => {
                self.check_names(primary)?;
                predicates.iter().try_for_each(|p| self.check_names(p))
            }
            Expr::Path(path) => {
                if let PathStart::Expr(start, _) = &path.start {
                    self.check_names(start)?;
                }
                for step in &path.steps {
                    if let NodeTest::Name(name) | NodeTest::NamespaceWildcard(name) = &step.test {
                        if let Some(prefix) = &name.prefix {
                            let uri = self.namespace_uri(prefix, name.at)?;
                            self.prefixes.insert(prefix, uri);
                        }
                    }
                    for predicate in &step.predicates {
                        self.check_names(predicate)?;
                    }
                }
                Ok(())
            }
        }
    }

    fn variable(&self, name: &super::ast::QName) -> Result<&Value<'a>> {
        let key = match &name.prefix {
            Some(prefix) => format!("{prefix}:{}", name.local),
            None => name.local.clone(),
        };
        match self.bindings.variables.get(&key) {
            Some(value) => Ok(value),
            None => Err(XPathError::UnboundVariable {
                name: key,
                offset: name.at,
                column: super::column(self.source, name.at),
            }),
        }
    }

    fn eval(&self, expr: &Expr, context: &Context<'a>) -> Result<Value<'a>> {
        Ok(match expr {
            Expr::Number(n) => Value::Number(*n),
            Expr::Literal(s) => Value::String(s.clone()),
            Expr::Or(a, b) => Value::Boolean(
                to_boolean(&self.eval(a, context)?) || to_boolean(&self.eval(b, context)?),
            ),
            Expr::And(a, b) => Value::Boolean(
                to_boolean(&self.eval(a, context)?) && to_boolean(&self.eval(b, context)?),
            ),
            Expr::Compare(op, a, b) => {
                let (a, b) = (self.eval(a, context)?, self.eval(b, context)?);
                Value::Boolean(compare(*op, &a, &b))
            }
            Expr::Arithmetic(op, a, b) => {
                let a = to_number(&self.eval(a, context)?);
                let b = to_number(&self.eval(b, context)?);
                Value::Number(match op {
                    ArithmeticOp::Add => a + b,
                    ArithmeticOp::Subtract => a - b,
                    ArithmeticOp::Multiply => a * b,
                    ArithmeticOp::Divide => a / b,
                    ArithmeticOp::Modulo => functions::modulo(a, b),
                })
            }
            Expr::Negate(a) => Value::Number(-to_number(&self.eval(a, context)?)),
            Expr::Union(a, b, at) => {
                let a = self.node_set(self.eval(a, context)?, *at)?;
                let b = self.node_set(self.eval(b, context)?, *at)?;
                let mut nodes = a;
                nodes.extend(b);
                self.sort(&mut nodes);
                Value::NodeSet(nodes)
            }
            Expr::Variable(name) => self.in_model(self.variable(name)?),
            Expr::Function(function, args, at) => self.call(*function, args, *at, context)?,
            Expr::Filter(primary, predicates, at) => {
                let nodes = self.node_set(self.eval(primary, context)?, *at)?;
                Value::NodeSet(self.filter(nodes, predicates)?)
            }
            Expr::Path(path) => Value::NodeSet(self.path(path, context)?),
        })
    }

    /// A variable's value as the data model sees it: a node-set the caller
    /// built may hold later nodes of runs of text, which stand for their
    /// run's first node.
    fn in_model(&self, value: &Value<'a>) -> Value<'a> {
        let Value::NodeSet(nodes) = value else {
            return value.clone();
        };
        let later =
            |node: &XNode<'a>| matches!(node, XNode::Node(n) if n.is_text() && follows_text(*n));
        if !nodes.iter().any(later) {
            return value.clone();
        }
        let mut starts = self.run_starts.borrow_mut();
        let mut mapped: Vec<XNode<'a>> = nodes
            .iter()
            .map(|node| match node {
                XNode::Node(n) if later(node) => XNode::Node(memo_run_start(&mut starts, *n)),
                _ => *node,
            })
            .collect();
        drop(starts);
        self.sort(&mut mapped);
        mapped.dedup();
        Value::NodeSet(mapped)
    }

    /// `value` as a node-set, or the error for the expression at `at`.
    fn node_set(&self, value: Value<'a>, at: usize) -> Result<Vec<XNode<'a>>> {
        match value {
            Value::NodeSet(nodes) => Ok(nodes),
            other => Err(XPathError::NotANodeSet {
                found: other.type_name(),
                offset: at,
                column: super::column(self.source, at),
            }),
        }
    }

    fn path(&self, path: &Path, context: &Context<'a>) -> Result<Vec<XNode<'a>>> {
        self.steps(self.path_start(path, context)?, &path.steps)
    }

    /// The nodes a path starts from.
    fn path_start(&self, path: &Path, context: &Context<'a>) -> Result<Vec<XNode<'a>>> {
        Ok(match &path.start {
            PathStart::Root => vec![XNode::Node(self.tree_root(context.node))],
            PathStart::Context => vec![context.node],
            PathStart::Expr(expr, at) => self.node_set(self.eval(expr, context)?, *at)?,
        })
    }

    /// The location steps `steps` in turn from `nodes`.
    fn steps(&self, mut nodes: Vec<XNode<'a>>, steps: &[Step]) -> Result<Vec<XNode<'a>>> {
        for step in steps {
            nodes = self.step(&nodes, step)?;
        }
        Ok(nodes)
    }

    /// How many nodes `path` selects (`count()`). Where its last step has
    /// no predicates and goes from one node (`count(//item)`, which the
    /// parser makes one `descendant::item` step from the root), its nodes
    /// are counted as the axis finds them, not collected: a node-set of
    /// every element would cost more memory than the elements' text.
    fn count_path(&self, path: &Path, context: &Context<'a>) -> Result<usize> {
        let Some((last, steps)) = path.steps.split_last() else {
            return Ok(self.path(path, context)?.len());
        };
        let nodes = self.steps(self.path_start(path, context)?, steps)?;
        match nodes.as_slice() {
            [node] if last.predicates.is_empty() => {
                let mut count = Count(0);
                axis(
                    self,
                    *node,
                    last.axis,
                    &self.resolve(&last.test)?,
                    usize::MAX,
                    &mut count,
                );
                Ok(count.0)
            }
            _ => Ok(self.step(&nodes, last)?.len()),
        }
    }

    /// One location step from every node of `nodes` (in document order),
    /// giving a node-set in document order.
    fn step(&self, nodes: &[XNode<'a>], step: &Step) -> Result<Vec<XNode<'a>>> {
        let test = self.resolve(&step.test)?;
        // `[n]` first: only the first n nodes of each axis can be kept.
        let limit = match step.predicates.first() {
            Some(Expr::Number(n)) => position_limit(*n),
            _ => usize::MAX,
        };
        // From several nodes, with predicates that cannot tell which axis a
        // node came from, the union of the axes is the result.
        let mut merge =
            (nodes.len() > 1 && step.predicates.iter().all(is_positionless)).then(Merge::default);
        let single;
        let nodes = match (&merge, step.axis) {
            (Some(_), Axis::Following | Axis::Preceding) => match self.widest(nodes, step.axis) {
                Some(node) => {
                    single = [node];
                    &single[..]
                }
                None => nodes,
            },
            _ => nodes,
        };
        let mut out = Vec::new();
        for &node in nodes {
            let mut selected = Vec::new();
            match &mut merge {
                Some(merge) => self.merged_axis(node, step.axis, &test, merge, &mut selected),
                None => axis(self, node, step.axis, &test, limit, &mut selected),
            }
            let mut kept = self.filter(selected, &step.predicates)?;
            if step.axis.is_reverse() {
                kept.reverse();
            }
            if out.is_empty() {
                out = kept;
            } else {
                out.extend(kept);
            }
        }
        // From one node, an axis gives each node once and in order; from
        // several, the results interleave.
        if nodes.len() > 1 {
            self.sort(&mut out);
        }
        Ok(out)
    }

    /// Applies predicates in turn (§2.4), counting positions in the order
    /// of `nodes` (axis order for a step, document order for a filter
    /// expression).
    fn filter(&self, mut nodes: Vec<XNode<'a>>, predicates: &[Expr]) -> Result<Vec<XNode<'a>>> {
        for predicate in predicates {
            if nodes.is_empty() {
                break;
            }
            let size = nodes.len();
            // `[n]` picks one node without evaluating per node.
            if let Expr::Number(n) = predicate {
                let n = *n;
                nodes = if n >= 1.0 && n <= size as f64 && n.fract() == 0.0 {
                    vec![nodes[n as usize - 1]]
                } else {
                    Vec::new()
                };
                continue;
            }
            let mut kept = Vec::with_capacity(nodes.len());
            for (i, &node) in nodes.iter().enumerate() {
                let context = Context {
                    node,
                    position: i + 1,
                    size,
                };
                let keep = match self.eval(predicate, &context)? {
                    Value::Number(n) => n == (i + 1) as f64,
                    other => to_boolean(&other),
                };
                if keep {
                    kept.push(node);
                }
            }
            nodes = kept;
        }
        Ok(nodes)
    }

    /// A node test with its prefix resolved.
    fn resolve<'e>(&'e self, test: &'e NodeTest) -> Result<Test<'e>>
    where
        'a: 'e,
    {
        Ok(match test {
            NodeTest::Name(name) => {
                let uri = match &name.prefix {
                    Some(prefix) => Some(self.resolved(prefix, name.at)?),
                    None => None,
                };
                Test::Name(&name.local, uri)
            }
            NodeTest::NamespaceWildcard(name) => {
                let prefix = name.prefix.as_deref().unwrap_or("");
                Test::Namespace(self.resolved(prefix, name.at)?)
            }
            NodeTest::Any => Test::Principal,
            NodeTest::Node => Test::Node,
            NodeTest::Text => Test::Text,
            NodeTest::Comment => Test::Comment,
            NodeTest::ProcessingInstruction(target) => {
                Test::ProcessingInstruction(target.as_deref())
            }
        })
    }

    /// A prefix `check_names` resolved.
    fn resolved(&self, prefix: &str, at: usize) -> Result<&'b str> {
        match self.prefixes.get(prefix) {
            Some(uri) => Ok(uri),
            None => self.namespace_uri(prefix, at),
        }
    }

    /// Resolves a prefix: the bindings first, then `xml`, then (unless
    /// turned off) the declarations in scope at the document element.
    fn namespace_uri(&self, prefix: &str, at: usize) -> Result<&'b str> {
        if let Some(uri) = self.bindings.namespaces.get(prefix) {
            return Ok(uri);
        }
        if prefix == "xml" {
            return Ok(XML_NAMESPACE);
        }
        if !self.bindings.no_document_prefixes {
            if let Some(uri) = self
                .document
                .root_element()
                .and_then(|e| e.lookup_namespace_uri(Some(prefix)))
            {
                return Ok(uri);
            }
        }
        let (placeholder, registered) = self.document.undeclared_prefix_namespaces(prefix);
        let undeclared_namespace = placeholder.or(registered.map(str::to_owned));
        Err(XPathError::UnboundPrefix {
            prefix: prefix.to_owned(),
            offset: at,
            column: super::column(self.source, at),
            undeclared_namespace,
        })
    }

    /// The context node of `nodes` whose `following` (or `preceding`) axis
    /// holds the axes of all the others: the one whose subtree ends first
    /// (starts last). `None` if one is outside the document's tree.
    fn widest(&self, nodes: &[XNode<'a>], axis: Axis) -> Option<XNode<'a>> {
        let mut best: Option<(XNode<'a>, u32)> = None;
        for &node in nodes {
            let numbers = self.numbers(tree_node(node));
            if numbers.pre == u32::MAX {
                return None;
            }
            let better = match (axis, best) {
                (_, None) => true,
                (Axis::Following, Some((_, end))) => numbers.end < end,
                (_, Some((_, pre))) => numbers.pre > pre,
            };
            if better {
                let key = if axis == Axis::Following {
                    numbers.end
                } else {
                    numbers.pre
                };
                best = Some((node, key));
            }
        }
        best.map(|(node, _)| node)
    }

    /// [`axis`] from one of several context nodes, leaving out what the
    /// axes of those before it produced already: the walk up, or along the
    /// siblings, stops at a node walked before (the rest of its chain was
    /// walked with it), and a node inside the subtree whose descendants
    /// were produced last produces nothing.
    fn merged_axis(
        &self,
        node: XNode<'a>,
        axis_kind: Axis,
        test: &Test<'_>,
        merge: &mut Merge,
        out: &mut Vec<XNode<'a>>,
    ) {
        let owner = match node {
            XNode::Node(_) => None,
            XNode::Attribute(a) => Some(a.element),
            XNode::Namespace(n) => Some(n.element),
        };
        // The first node of the chain to walk, and how to go on from one.
        let chain: Option<(Node<'a>, Next<'a>)> = match (axis_kind, node) {
            (Axis::Ancestor, XNode::Node(n)) => n.parent().map(|p| (p, parent as _)),
            (Axis::AncestorOrSelf, XNode::Node(n)) => Some((n, parent as _)),
            (Axis::Ancestor | Axis::AncestorOrSelf, _) => {
                if matches_other(node, test) && axis_kind == Axis::AncestorOrSelf {
                    out.push(node);
                }
                owner.map(|e| (e, parent as _))
            }
            (Axis::FollowingSibling, XNode::Node(n)) => {
                n.next_sibling().map(|s| (s, next_sibling as _))
            }
            (Axis::PrecedingSibling, XNode::Node(n)) => {
                n.prev_sibling().map(|s| (s, prev_sibling as _))
            }
            (Axis::Descendant | Axis::DescendantOrSelf, XNode::Node(n)) => {
                let numbers = self.numbers(n);
                if numbers.pre != u32::MAX {
                    if merge
                        .covered
                        .is_some_and(|c| c.pre <= numbers.pre && numbers.pre <= c.end)
                    {
                        return;
                    }
                    merge.covered = Some(numbers);
                }
                axis(self, node, axis_kind, test, usize::MAX, out);
                return;
            }
            _ => {
                axis(self, node, axis_kind, test, usize::MAX, out);
                return;
            }
        };
        let Some((first, next)) = chain else {
            return;
        };
        let mut at = Some(first);
        while let Some(n) = at {
            if !merge.walked.insert(usize::from(n.id().0)) {
                break;
            }
            if visible(n) && matches_node(n, test) {
                out.push(XNode::Node(n));
            }
            at = next(&n);
        }
    }

    /// The preorder numbers of `node` (built for the whole document at the
    /// first call).
    fn numbers(&self, node: Node<'_>) -> Numbers {
        let order = self.order.get_or_init(|| preorder(self.document));
        order
            .get(usize::from(node.id().0))
            .copied()
            .unwrap_or(UNNUMBERED)
    }

    /// The root of the tree a node is in (the document node, unless the node
    /// was detached by an edit). Walks up, stopping at a node whose root a
    /// walk found before, so that a `/` in a predicate does not walk up to
    /// the root from every node of a deep document.
    fn tree_root(&self, node: XNode<'a>) -> Node<'a> {
        let node = tree_node(node);
        let mut roots = self.roots.borrow_mut();
        let mut walked = Vec::new();
        let mut at = node;
        let root = loop {
            let index = usize::from(at.id().0);
            if let Some(&root) = roots.get(&index) {
                break root;
            }
            walked.push(index);
            match at.parent() {
                Some(parent) => at = parent,
                None => break at,
            }
        };
        for index in walked {
            roots.insert(index, root);
        }
        root
    }

    /// The `xml:lang` in scope at `node` (walking up to the nearest node
    /// whose answer is known).
    fn xml_lang(&self, node: Node<'a>) -> Option<&'a str> {
        nearest(&mut self.langs.borrow_mut(), node, |n| {
            n.attribute_ns(XML_NAMESPACE, "lang")
        })
    }

    /// The nearest element at or above `node` that declares a namespace.
    fn declaring(&self, node: Node<'a>) -> Option<Node<'a>> {
        nearest(&mut self.declaring.borrow_mut(), node, |n| {
            n.attributes()
                .any(|a| a.declared_prefix().is_some())
                .then_some(n)
        })
    }

    /// The elements of the tree of `root` with an ID (`xml:id`, or an
    /// attribute a DTD declares of type ID) among `wanted`, in document
    /// order.
    fn ids(&self, root: Node<'a>, wanted: &[&str]) -> Vec<XNode<'a>> {
        let mut found = Vec::new();
        if wanted.is_empty() {
            return found;
        }
        if root != self.document.root() {
            // A detached tree (after an edit): looked through once.
            for element in root.descendants().filter(Node::is_element) {
                if element_ids(element).any(|id| wanted.contains(&id)) {
                    found.push(XNode::Node(element));
                }
            }
            return found;
        }
        let index = self.ids.get_or_init(|| {
            let mut index: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
            for element in root.descendants().filter(Node::is_element) {
                for id in element_ids(element) {
                    index.entry(id).or_default().push(element);
                }
            }
            index
        });
        let wanted: HashSet<&str> = wanted.iter().copied().collect();
        for id in wanted {
            if let Some(elements) = index.get(id) {
                found.extend(elements.iter().map(|&e| XNode::Node(e)));
            }
        }
        self.sort(&mut found);
        found
    }

    /// Sorts into document order and drops duplicates.
    fn sort(&self, nodes: &mut Vec<XNode<'a>>) {
        if nodes.len() < 2 {
            return;
        }
        let order = self.order.get_or_init(|| preorder(self.document));
        let key = |node: &XNode<'a>| -> u64 {
            let (n, sub) = match node {
                XNode::Node(n) => (*n, 0),
                // libxml2 puts an element's attributes before its namespace
                // nodes (XPath 1.0 has it the other way round).
                XNode::Attribute(a) => (a.element, 1 + a.index as u64),
                XNode::Namespace(ns) => (ns.element, (1 << 24) + ns.index as u64),
            };
            let pre = order
                .get(usize::from(n.id().0))
                .map_or(u32::MAX, |numbers| numbers.pre);
            (u64::from(pre) << 32) | sub
        };
        let sorted = nodes.windows(2).all(|w| key(&w[0]) < key(&w[1]));
        if !sorted {
            nodes.sort_by_key(key);
            nodes.dedup_by(|a, b| key(a) == key(b));
        }
    }

    fn call(
        &self,
        function: Function,
        args: &[Expr],
        at: usize,
        context: &Context<'a>,
    ) -> Result<Value<'a>> {
        let arg = |i: usize| -> Result<Value<'a>> {
            match args.get(i) {
                Some(expr) => self.eval(expr, context),
                None => Ok(Value::NodeSet(vec![context.node])),
            }
        };
        let string_arg = |i: usize| -> Result<String> { Ok(to_string(&arg(i)?)) };
        let number_arg = |i: usize| -> Result<f64> { Ok(to_number(&arg(i)?)) };
        let nodes_arg = |i: usize| -> Result<Vec<XNode<'a>>> {
            let at = arg_offset(args.get(i)).unwrap_or(at);
            self.node_set(arg(i)?, at)
        };
        Ok(match function {
            Function::Last => Value::Number(context.size as f64),
            Function::Position => Value::Number(context.position as f64),
            Function::Count => Value::Number(match args.first() {
                Some(Expr::Path(path)) => self.count_path(path, context)?,
                _ => nodes_arg(0)?.len(),
            } as f64),
            Function::Id => {
                let ids: Vec<String> = match arg(0)? {
                    Value::NodeSet(nodes) => nodes.into_iter().map(string_value).collect(),
                    other => vec![to_string(&other)],
                };
                let wanted: Vec<&str> = ids.iter().flat_map(|s| functions::id_tokens(s)).collect();
                Value::NodeSet(self.ids(self.tree_root(context.node), &wanted))
            }
            Function::LocalName | Function::NamespaceUri | Function::Name => {
                let nodes = nodes_arg(0)?;
                let first = nodes.first().copied();
                let text = match first {
                    None => String::new(),
                    Some(node) => match function {
                        Function::LocalName => local_name(node).to_owned(),
                        Function::NamespaceUri => namespace_uri(node).to_owned(),
                        _ => qualified_name(node).to_owned(),
                    },
                };
                Value::String(text)
            }
            Function::String => Value::String(string_arg(0)?),
            Function::Concat => {
                let mut out = String::new();
                for i in 0..args.len() {
                    out.push_str(&string_arg(i)?);
                }
                Value::String(out)
            }
            Function::StartsWith => Value::Boolean(string_arg(0)?.starts_with(&string_arg(1)?)),
            Function::Contains => Value::Boolean(string_arg(0)?.contains(&string_arg(1)?)),
            Function::SubstringBefore => {
                let (s, t) = (string_arg(0)?, string_arg(1)?);
                Value::String(functions::substring_before(&s, &t).to_owned())
            }
            Function::SubstringAfter => {
                let (s, t) = (string_arg(0)?, string_arg(1)?);
                Value::String(functions::substring_after(&s, &t).to_owned())
            }
            Function::Substring => {
                let s = string_arg(0)?;
                let start = number_arg(1)?;
                let length = match args.get(2) {
                    Some(_) => Some(number_arg(2)?),
                    None => None,
                };
                Value::String(functions::substring(&s, start, length).to_owned())
            }
            Function::StringLength => Value::Number(functions::string_length(&string_arg(0)?)),
            Function::NormalizeSpace => Value::String(functions::normalize_space(&string_arg(0)?)),
            Function::Translate => {
                let (s, from, to) = (string_arg(0)?, string_arg(1)?, string_arg(2)?);
                Value::String(functions::translate(&s, &from, &to))
            }
            Function::Boolean => Value::Boolean(to_boolean(&arg(0)?)),
            Function::Not => Value::Boolean(!to_boolean(&arg(0)?)),
            Function::True => Value::Boolean(true),
            Function::False => Value::Boolean(false),
            Function::Lang => {
                let wanted = string_arg(0)?;
                let lang = self.xml_lang(tree_node(context.node));
                Value::Boolean(lang.is_some_and(|lang| functions::lang_matches(lang, &wanted)))
            }
            Function::Number => Value::Number(number_arg(0)?),
            Function::Sum => Value::Number(
                nodes_arg(0)?
                    .into_iter()
                    .map(|n| functions::string_to_number(&string_value_cow(n)))
                    // Not `sum()`, which starts from -0.
                    .fold(0.0, |total, n| total + n),
            ),
            Function::Floor => Value::Number(functions::floor(number_arg(0)?)),
            Function::Ceiling => Value::Number(functions::ceiling(number_arg(0)?)),
            Function::Round => Value::Number(functions::round(number_arg(0)?)),
        })
    }
}

/// Where an argument expression starts, for errors about its type.
fn arg_offset(expr: Option<&Expr>) -> Option<usize> {
    match expr? {
        Expr::Function(_, _, at) | Expr::Filter(_, _, at) | Expr::Union(_, _, at) => Some(*at),
        Expr::Variable(name) => Some(name.at),
        _ => None,
    }
}

/// Pushes the nodes of `axis` from `node` that pass `test`, in axis
/// order (document order for forward axes, reverse for reverse axes), up
/// to `limit` of them (the tree axes stop there; the attribute and
/// namespace axes, short, are given whole).
fn axis<'a>(
    evaluator: &Evaluator<'a, '_>,
    node: XNode<'a>,
    axis: Axis,
    test: &Test<'_>,
    limit: usize,
    out: &mut impl Found<'a>,
) {
    if limit == 0 {
        return;
    }
    let owner = match node {
        XNode::Node(_) => None,
        XNode::Attribute(a) => Some(a.element),
        XNode::Namespace(n) => Some(n.element),
    };
    // The self part of an `-or-self` axis from an attribute or namespace
    // node, and the attribute and namespace axes, push directly.
    match (axis, node) {
        (Axis::SelfAxis | Axis::DescendantOrSelf, XNode::Attribute(_) | XNode::Namespace(_)) => {
            if matches_other(node, test) {
                out.push(node);
            }
            return;
        }
        (Axis::AncestorOrSelf, XNode::Attribute(_) | XNode::Namespace(_))
            if matches_other(node, test) =>
        {
            out.push(node);
        }
        (Axis::Attribute, XNode::Node(n)) if n.is_element() => {
            attributes(n, test, out);
            return;
        }
        (Axis::Namespace, XNode::Node(n)) if n.is_element() => {
            for namespace in evaluator.namespaces_in_scope(n) {
                let matched = match test {
                    Test::Name(local, uri) => uri.is_none() && namespace.prefix == *local,
                    Test::Principal | Test::Node => true,
                    _ => false,
                };
                if matched {
                    out.push(XNode::Namespace(namespace));
                }
            }
            return;
        }
        _ => {}
    }
    // Pushes a node that passes; `false` once `limit` nodes are there.
    let mut push = |n: Node<'a>| {
        if visible(n) && matches_node(n, test) {
            out.push(XNode::Node(n));
        }
        out.len() < limit
    };
    match (axis, node) {
        (Axis::SelfAxis, XNode::Node(n)) => {
            push(n);
        }
        (Axis::Child, XNode::Node(n)) => feed(n.children(), push),
        (Axis::Descendant, XNode::Node(n)) => feed(n.descendants(), push),
        (Axis::DescendantOrSelf, XNode::Node(n)) => {
            feed(std::iter::once(n).chain(n.descendants()), push);
        }
        (Axis::Parent, XNode::Node(n)) => feed(n.parent().into_iter(), push),
        (Axis::Parent, _) => feed(owner.into_iter(), push),
        (Axis::Ancestor, XNode::Node(n)) => feed(n.ancestors(), push),
        (Axis::AncestorOrSelf, XNode::Node(n)) => {
            feed(std::iter::once(n).chain(n.ancestors()), push);
        }
        (Axis::Ancestor | Axis::AncestorOrSelf, _) => {
            if let Some(e) = owner {
                feed(std::iter::once(e).chain(e.ancestors()), push);
            }
        }
        (Axis::FollowingSibling, XNode::Node(n)) => feed(n.following_siblings(), push),
        (Axis::PrecedingSibling, XNode::Node(n)) => feed(n.preceding_siblings(), push),
        (Axis::Following, XNode::Node(n)) => feed(following(n), push),
        // libxml2 starts the following axis of an attribute or namespace
        // node after its element's subtree (XPath 1.0 would include the
        // element's descendants, which come after it in document order).
        (Axis::Following, _) => {
            if let Some(e) = owner {
                feed(following(e), push);
            }
        }
        (Axis::Preceding, XNode::Node(n)) => feed(preceding(n), push),
        (Axis::Preceding, _) => {
            if let Some(e) = owner {
                feed(preceding(e), push);
            }
        }
        _ => {}
    }
}

/// Where an axis puts the nodes it finds: a node-set, or (for `count()`)
/// a count of them.
trait Found<'a> {
    fn push(&mut self, node: XNode<'a>);
    /// How many were found.
    fn len(&self) -> usize;
}

impl<'a> Found<'a> for Vec<XNode<'a>> {
    fn push(&mut self, node: XNode<'a>) {
        Vec::push(self, node);
    }

    fn len(&self) -> usize {
        Vec::len(self)
    }
}

/// The nodes found, counted and not kept.
struct Count(usize);

impl<'a> Found<'a> for Count {
    fn push(&mut self, _: XNode<'a>) {
        self.0 += 1;
    }

    fn len(&self) -> usize {
        self.0
    }
}

/// Gives `push` the nodes of `nodes` until it returns `false`.
fn feed<'a>(nodes: impl Iterator<Item = Node<'a>>, mut push: impl FnMut(Node<'a>) -> bool) {
    for node in nodes {
        if !push(node) {
            break;
        }
    }
}

/// Pushes the attributes of `element` that pass `test` (namespace
/// declarations are not attributes in XPath).
fn attributes<'a>(element: Node<'a>, test: &Test<'_>, out: &mut impl Found<'a>) {
    for (index, attribute) in element.attributes().enumerate() {
        if attribute.namespace() == Some(XMLNS_NAMESPACE) {
            continue;
        }
        let matched = match test {
            Test::Name(local, uri) => {
                attribute.local_name() == *local && attribute.namespace() == *uri
            }
            Test::Namespace(uri) => attribute.namespace() == Some(*uri),
            Test::Principal | Test::Node => true,
            _ => false,
        };
        if matched {
            out.push(XNode::Attribute(AttributeNode {
                element,
                attribute,
                index,
            }));
        }
    }
}

/// A step of the chains [`Evaluator::merged_axis`] walks.
type Next<'a> = fn(&Node<'a>) -> Option<Node<'a>>;

fn parent<'a>(node: &Node<'a>) -> Option<Node<'a>> {
    node.parent()
}

fn next_sibling<'a>(node: &Node<'a>) -> Option<Node<'a>> {
    node.next_sibling()
}

fn prev_sibling<'a>(node: &Node<'a>) -> Option<Node<'a>> {
    node.prev_sibling()
}

/// How many nodes a leading `[n]` predicate lets through: `n` if it is a
/// whole number from 1 on, else none.
fn position_limit(n: f64) -> usize {
    if n >= 1.0 && n.fract() == 0.0 {
        // Saturating: past `usize::MAX` nodes there cannot be.
        n as usize
    } else {
        0
    }
}

/// The IDs of an element: its `xml:id`, and the values of the attributes a
/// DTD declares of type ID.
fn element_ids<'a>(element: Node<'a>) -> impl Iterator<Item = &'a str> {
    element.attribute_ns(XML_NAMESPACE, "id").into_iter().chain(
        element
            .attributes()
            .filter(|a| a.is_id())
            .map(|a| a.value()),
    )
}

/// The answer for `node` in `memo` (see [`Nearest`]): `probe` of the
/// nearest element at or above it for which `probe` gives something.
fn nearest<'a, T: Copy>(
    memo: &mut Nearest<T>,
    node: Node<'a>,
    probe: impl Fn(Node<'a>) -> Option<T>,
) -> Option<T> {
    let mut walked = Vec::new();
    let mut found = None;
    let mut at = Some(node);
    while let Some(n) = at {
        let index = usize::from(n.id().0);
        if let Some(&known) = memo.get(&index) {
            found = known;
            break;
        }
        walked.push(index);
        if let Some(value) = Some(n).filter(Node::is_element).and_then(&probe) {
            found = Some(value);
            break;
        }
        at = n.parent();
    }
    for index in walked {
        memo.insert(index, found);
    }
    found
}

/// The tree node itself, or the element an attribute or namespace node
/// belongs to.
fn tree_node(node: XNode<'_>) -> Node<'_> {
    match node {
        XNode::Node(n) => n,
        XNode::Attribute(a) => a.element,
        XNode::Namespace(ns) => ns.element,
    }
}

/// Whether a tree node is a node of the XPath data model: DOCTYPE nodes
/// and text outside the root element are not, and of a run of adjacent
/// text siblings only the first is, standing for the whole run (§5.7: no
/// text node has a text sibling next to it). One look at the previous
/// sibling, so a walk over a long run stays linear.
fn visible(node: Node<'_>) -> bool {
    match node.node_type() {
        NodeType::Doctype => false,
        NodeType::Text => !is_top_level(node) && !follows_text(node),
        _ => true,
    }
}

/// Whether the text of `node` is part of the string-values of its
/// ancestors: text inside the root element (a run's later nodes too).
/// Whether the node's previous sibling is text (the node then belongs to
/// the run that text is in, if it is text itself).
fn follows_text(node: Node<'_>) -> bool {
    node.prev_sibling().is_some_and(|p| p.is_text())
}

/// [`run_start`], remembering the answer for every node walked past, so
/// that the starts of all the nodes of a run cost the run's length.
fn memo_run_start<'a>(memo: &mut HashMap<usize, Node<'a>>, node: Node<'a>) -> Node<'a> {
    let mut walked = Vec::new();
    let mut at = node;
    let start = loop {
        let index = usize::from(at.id().0);
        if let Some(&start) = memo.get(&index) {
            break start;
        }
        walked.push(index);
        match at.prev_sibling().filter(Node::is_text) {
            Some(prev) => at = prev,
            None => break at,
        }
    };
    for index in walked {
        memo.insert(index, start);
    }
    start
}

fn matches_node(node: Node<'_>, test: &Test<'_>) -> bool {
    match test {
        Test::Node => true,
        Test::Principal => node.is_element(),
        Test::Name(local, uri) => {
            node.is_element() && node.local_name() == *local && node.namespace() == *uri
        }
        Test::Namespace(uri) => node.is_element() && node.namespace() == Some(*uri),
        Test::Text => node.is_text(),
        Test::Comment => node.is_comment(),
        Test::ProcessingInstruction(target) => {
            node.is_processing_instruction() && target.is_none_or(|t| node.name() == t)
        }
    }
}

/// The self axis of an attribute or namespace node: its principal type is
/// its own kind only on its own axis, so here only `node()` matches.
fn matches_other(_node: XNode<'_>, test: &Test<'_>) -> bool {
    matches!(test, Test::Node)
}

/// The nodes after `node` in document order that are not its descendants.
fn following<'a>(node: Node<'a>) -> impl Iterator<Item = Node<'a>> + 'a {
    std::iter::once(node)
        .chain(node.ancestors())
        .flat_map(|n| n.following_siblings())
        .flat_map(|s| std::iter::once(s).chain(s.descendants()))
}

/// The nodes before `node` in reverse document order that are not its
/// ancestors.
fn preceding<'a>(node: Node<'a>) -> impl Iterator<Item = Node<'a>> + 'a {
    std::iter::once(node)
        .chain(node.ancestors())
        .flat_map(|n| n.preceding_siblings())
        .flat_map(ReverseSubtree::new)
}

/// A subtree in reverse document order (last descendant first, the root
/// last), without recursion.
struct ReverseSubtree<'a> {
    root: Node<'a>,
    next: Option<Node<'a>>,
}

impl<'a> ReverseSubtree<'a> {
    fn new(root: Node<'a>) -> ReverseSubtree<'a> {
        ReverseSubtree {
            root,
            next: Some(deepest_last(root)),
        }
    }
}

fn deepest_last(mut node: Node<'_>) -> Node<'_> {
    while let Some(last) = node.last_child() {
        node = last;
    }
    node
}

impl<'a> Iterator for ReverseSubtree<'a> {
    type Item = Node<'a>;

    fn next(&mut self) -> Option<Node<'a>> {
        let current = self.next?;
        self.next = if current == self.root {
            None
        } else if let Some(prev) = current.prev_sibling() {
            Some(deepest_last(prev))
        } else {
            current.parent()
        };
        Some(current)
    }
}

impl<'a> Evaluator<'a, '_> {
    /// The namespace nodes of `element`, in libxml2's order: `xml` first,
    /// then every binding in scope taken in the reverse of this list: the
    /// element's own declarations in source order, then its parent's, and
    /// so on up, each prefix once (the nearest declaration), undeclared
    /// prefixes left out (not the default namespace: see below). So on
    /// `<a xmlns:p='1' xmlns:q='2'><b xmlns:r='3' xmlns:s='4'/></a>` the
    /// axis of `b` is `xml`, `q`, `p`, `s`, `r`. Only the elements that
    /// declare something are looked at.
    fn namespaces_in_scope(&self, element: Node<'a>) -> Vec<NamespaceNode<'a>> {
        let mut seen: HashSet<Option<&str>> = HashSet::new();
        let mut bindings: Vec<(&'a str, &'a str)> = Vec::new();
        let mut declaring = self.declaring(element);
        while let Some(e) = declaring {
            for attribute in e.attributes() {
                let Some(prefix) = attribute.declared_prefix() else {
                    continue;
                };
                if prefix == Some("xml") || !seen.insert(prefix) {
                    continue;
                }
                // An undeclared prefix has no namespace node; but libxml2
                // gives an element under `xmlns=""` a default namespace node
                // with an empty URI.
                if attribute.value().is_empty() && prefix.is_some() {
                    continue;
                }
                bindings.push((prefix.unwrap_or(""), attribute.value()));
            }
            declaring = e.parent().and_then(|p| self.declaring(p));
        }
        let xml = ("xml", XML_NAMESPACE);
        std::iter::once(xml)
            .chain(bindings.into_iter().rev())
            .enumerate()
            .map(|(index, (prefix, uri))| NamespaceNode {
                element,
                prefix,
                uri,
                index,
            })
            .collect()
    }
}

/// Preorder numbers of the nodes of the document's tree and the numbers
/// their subtrees end at, by arena index, in one walk; other nodes
/// (detached by edits) are [`UNNUMBERED`].
fn preorder(document: &Document) -> Vec<Numbers> {
    let mut order = Vec::new();
    let mut next = 0u32;
    for edge in document.root().traverse() {
        match edge {
            Edge::Open(node) => {
                let index = usize::from(node.id().0);
                if order.len() <= index {
                    order.resize(index + 1, UNNUMBERED);
                }
                order[index] = Numbers {
                    pre: next,
                    end: next,
                };
                next = next.saturating_add(1);
            }
            Edge::Close(node) => {
                if let Some(numbers) = order.get_mut(usize::from(node.id().0)) {
                    numbers.end = next.saturating_sub(1);
                }
            }
        }
    }
    order
}

fn local_name<'a>(node: XNode<'a>) -> &'a str {
    match node {
        XNode::Node(n) => match n.node_type() {
            NodeType::Element => n.local_name(),
            NodeType::ProcessingInstruction => n.name(),
            _ => "",
        },
        XNode::Attribute(a) => a.attribute.local_name(),
        XNode::Namespace(ns) => ns.prefix,
    }
}

fn namespace_uri<'a>(node: XNode<'a>) -> &'a str {
    match node {
        XNode::Node(n) if n.is_element() => n.namespace().unwrap_or(""),
        XNode::Attribute(a) => a.attribute.namespace().unwrap_or(""),
        _ => "",
    }
}

fn qualified_name<'a>(node: XNode<'a>) -> &'a str {
    match node {
        XNode::Node(n) => match n.node_type() {
            NodeType::Element | NodeType::ProcessingInstruction => n.name(),
            _ => "",
        },
        XNode::Attribute(a) => a.attribute.name(),
        XNode::Namespace(ns) => ns.prefix,
    }
}

/// §3.4: comparisons, with node-sets compared node by node.
fn compare(op: CompareOp, a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::NodeSet(x), Value::NodeSet(y)) => compare_sets(op, x, y),
        (Value::NodeSet(nodes), other) => compare_set(op, nodes, other, false),
        (other, Value::NodeSet(nodes)) => compare_set(op, nodes, other, true),
        _ => match op {
            CompareOp::Equal | CompareOp::NotEqual => {
                let equal = match (a, b) {
                    (Value::Boolean(_), _) | (_, Value::Boolean(_)) => {
                        to_boolean(a) == to_boolean(b)
                    }
                    (Value::Number(_), _) | (_, Value::Number(_)) => {
                        functions::numbers_equal(to_number(a), to_number(b))
                    }
                    _ => to_string(a) == to_string(b),
                };
                equal == (op == CompareOp::Equal)
            }
            _ => relational(op, to_number(a), to_number(b)),
        },
    }
}

/// Two node-sets: true if some pair of their nodes compares true. Each
/// string-value is found once, and no pair is tried one by one: `=` looks
/// the strings of one set up in a set of the other's, `!=` needs only to
/// know whether their strings are all one string, and `<` and the like
/// compare the smallest and largest numbers.
fn compare_sets(op: CompareOp, x: &[XNode<'_>], y: &[XNode<'_>]) -> bool {
    if x.is_empty() || y.is_empty() {
        return false;
    }
    match op {
        CompareOp::Equal => {
            let ys: HashSet<Cow<'_, str>> = y.iter().map(|&n| string_value_cow(n)).collect();
            x.iter().any(|&n| ys.contains(string_value_cow(n).as_ref()))
        }
        CompareOp::NotEqual => {
            // Two strings in `y`: any string of `x` differs from one.
            let first = string_value_cow(y[0]);
            y[1..].iter().any(|&n| string_value_cow(n) != first)
                || x.iter().any(|&n| string_value_cow(n) != first)
        }
        _ => {
            // NaN compares false with anything: left out of the extremes.
            let numbers = |set: &[XNode<'_>]| -> Option<(f64, f64)> {
                set.iter()
                    .map(|&n| functions::string_to_number(&string_value_cow(n)))
                    .filter(|v| !v.is_nan())
                    .fold(None, |range, v| match range {
                        None => Some((v, v)),
                        Some((low, high)) => Some((low.min(v), high.max(v))),
                    })
            };
            let (Some((x_low, x_high)), Some((y_low, y_high))) = (numbers(x), numbers(y)) else {
                return false;
            };
            match op {
                CompareOp::Less | CompareOp::LessOrEqual => relational(op, x_low, y_high),
                _ => relational(op, x_high, y_low),
            }
        }
    }
}

/// A node-set against a value of another type; `swapped` when the node-set
/// is the right operand.
fn compare_set(op: CompareOp, nodes: &[XNode<'_>], other: &Value<'_>, swapped: bool) -> bool {
    let ordered = |x: f64, y: f64| {
        if swapped {
            relational(op, y, x)
        } else {
            relational(op, x, y)
        }
    };
    match other {
        Value::Boolean(b) => {
            let set = !nodes.is_empty();
            match op {
                CompareOp::Equal => set == *b,
                CompareOp::NotEqual => set != *b,
                _ => ordered(f64::from(u8::from(set)), f64::from(u8::from(*b))),
            }
        }
        Value::Number(n) => nodes.iter().any(|&node| {
            let v = functions::string_to_number(&string_value_cow(node));
            match op {
                CompareOp::Equal => v == *n,
                CompareOp::NotEqual => v != *n,
                _ => ordered(v, *n),
            }
        }),
        Value::String(s) => match op {
            CompareOp::Equal => nodes
                .iter()
                .any(|&node| string_value_cow(node) == s.as_str()),
            CompareOp::NotEqual => nodes
                .iter()
                .any(|&node| string_value_cow(node) != s.as_str()),
            _ => {
                let w = functions::string_to_number(s);
                nodes
                    .iter()
                    .any(|&node| ordered(functions::string_to_number(&string_value_cow(node)), w))
            }
        },
        Value::NodeSet(_) => false,
    }
}

fn relational(op: CompareOp, x: f64, y: f64) -> bool {
    match op {
        CompareOp::Equal => x == y,
        CompareOp::NotEqual => x != y,
        CompareOp::Less => x < y,
        CompareOp::LessOrEqual => x <= y,
        CompareOp::Greater => x > y,
        CompareOp::GreaterOrEqual => x >= y,
    }
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;
