//! The checks of the fuzz targets, written once: the targets of `fuzz/`
//! include this file (`#[path]` in `fuzz/src/lib.rs`), and
//! `tests/regressions.rs` runs every check on every saved input, so a crash
//! found by fuzzing reproduces under `cargo test` with the same assertions.
//!
//! Each entry point takes arbitrary bytes and panics when a promise of the
//! library does not hold; docs/robustness.md ("Fuzzing") lists them. "Same
//! document" and "fixpoint" mean what `tests/encoding.rs` and
//! `tests/fixpoint.rs` mean: the same `#document` dump
//! ([`Document::to_tree_dump`]) and the same errors; output that parses
//! without errors and writes itself again byte for byte.
//!
//! Only xml5dom's public API is used, and roxmltree as the strict parser of
//! `tests/fixpoint.rs`.

use std::collections::HashMap;

/// The edit sequences' checks, whose tree dump the events check shares
/// (the `edits` target runs them from here).
#[allow(dead_code)]
#[path = "edit_checks.rs"]
pub mod edit_checks;

use xml5dom::query::{Bindings, Value, XNode, XPath};
use xml5dom::tokenizer::{tokenize, Event, OwnedToken, TokenList, Tokenizer};
use xml5dom::{Document, Node, NodeId, NodeType, ParseOptions, Parser, RepairKind, Span};

/// A tiny xorshift64 generator: where the chunks are cut, from one seed
/// byte of the input, so that a failing input reproduces.
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator for `seed` (never the all-zero state).
    pub fn new(seed: u8) -> Xorshift {
        Xorshift(0x9E37_79B9_7F4A_7C15 ^ ((u64::from(seed) << 8) | 1))
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

// ----- parse_bytes --------------------------------------------------------

/// `parse_bytes`: parsing any bytes gives a document whose every node,
/// attribute, span and error is readable and consistent; it serializes.
pub fn parse_bytes(data: &[u8]) {
    let doc = Document::parse_bytes(data);
    check_document(&doc);
    let _ = doc.to_xml();
    if let Some(root) = doc.root_element() {
        let _ = root.to_xml();
    }
}

/// Walks every node and checks what can be read from it: spans inside the
/// source on character boundaries, links both ways, errors in source order
/// at offsets inside the source whose line and column are
/// [`Document::position`]'s.
pub fn check_document(doc: &Document) {
    let source = doc.source();
    let mut previous = 0;
    for error in doc.errors() {
        assert!(
            error.offset <= source.len(),
            "{error:?} past the end of the source ({} bytes)",
            source.len()
        );
        assert!(
            source.is_char_boundary(error.offset),
            "{error:?} inside a character"
        );
        assert!(error.offset >= previous, "errors not in source order");
        previous = error.offset;
        assert_eq!(
            (error.line, error.column),
            doc.position(error.offset),
            "{error:?}: line and column are not those of its offset"
        );
    }

    let root = doc.root();
    assert_eq!(root.node_type(), NodeType::Document);
    assert!(root.parent().is_none());
    for node in std::iter::once(root).chain(root.descendants()) {
        assert!(std::ptr::eq(node.document(), doc));
        assert_eq!(doc.node(node.id()), Some(node));
        if let Some(span) = node.span() {
            check_span(source, span, "node");
            let _ = doc.position(span.start);
            let _ = doc.position(span.end);
        }
        let mut count = 0;
        for child in node.children() {
            assert_eq!(child.parent(), Some(node), "a child's parent link");
            count += 1;
        }
        assert_eq!(node.has_children(), count > 0);
        match node.node_type() {
            NodeType::Document => assert_eq!(node, root, "a second document node"),
            NodeType::Element => {
                let _ = (node.name(), node.local_name(), node.prefix());
                let _ = node.namespace();
                for attribute in node.attributes() {
                    let _ = (attribute.name(), attribute.local_name(), attribute.prefix());
                    let _ = (attribute.namespace(), attribute.value());
                    let _ = attribute.declared_prefix();
                    if let Some(span) = attribute.span() {
                        check_span(source, span, "attribute");
                    }
                    if let Some(span) = attribute.value_span() {
                        check_span(source, span, "attribute value");
                    }
                }
            }
            NodeType::Text => {
                let text = node.text().expect("a text node has text");
                for range in node.cdata_ranges() {
                    assert!(
                        range.start <= range.end
                            && range.end <= text.len()
                            && text.is_char_boundary(range.start)
                            && text.is_char_boundary(range.end),
                        "CDATA range {range:?} in a text of {} bytes",
                        text.len()
                    );
                }
            }
            NodeType::Comment => assert!(node.text().is_some()),
            NodeType::ProcessingInstruction => {
                let _ = node.name();
                assert!(node.text().is_some());
            }
            NodeType::Doctype => {
                let _ = (node.name(), node.public_id(), node.system_id());
                let _ = node.internal_subset();
            }
        }
    }
}

fn check_span(source: &str, span: Span, what: &str) {
    assert!(
        span.start <= span.end
            && span.end <= source.len()
            && source.is_char_boundary(span.start)
            && source.is_char_boundary(span.end),
        "{what} span {span:?} in a source of {} bytes",
        source.len()
    );
}

// ----- random_chunks ------------------------------------------------------

/// Cut points in `0..len`, increasing, from `rng`: one of four shapes (every
/// byte, small chunks, larger chunks, a few cuts anywhere) picked by `shape`.
fn cuts(len: usize, rng: &mut Xorshift, shape: u8) -> Vec<usize> {
    let mut out = Vec::new();
    match shape % 4 {
        0 => out.extend(1..len),
        3 => {
            for _ in 0..rng.below(4) + 1 {
                out.push(rng.below(len));
            }
            out.sort_unstable();
            out.dedup();
        }
        shape => {
            let longest = if shape == 1 { 8 } else { 200 };
            let mut at = 0;
            loop {
                at += 1 + rng.below(longest);
                if at >= len {
                    break;
                }
                out.push(at);
            }
        }
    }
    out.retain(|&at| at > 0 && at < len);
    out
}

/// The same cuts moved back to character boundaries of `text`.
fn char_cuts(text: &str, rng: &mut Xorshift, shape: u8) -> Vec<usize> {
    let mut out: Vec<usize> = cuts(text.len(), rng, shape)
        .into_iter()
        .map(|mut at| {
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        })
        .filter(|&at| at > 0)
        .collect();
    out.dedup();
    out
}

/// `random_chunks`: the first byte seeds where the rest is cut; fed to
/// [`Parser`] in those chunks it gives the same document (source, encoding,
/// dump, errors) as [`Document::parse_bytes`] on the whole; and the
/// tokenizer fed the decoded text in chunks gives the same events as
/// [`tokenize`] on the whole, with every span inside the text.
pub fn random_chunks(data: &[u8]) {
    let Some((&seed, payload)) = data.split_first() else {
        return;
    };
    let mut rng = Xorshift::new(seed);
    let whole = Document::parse_bytes(payload);

    let mut parser = Parser::new();
    let mut from = 0;
    for at in cuts(payload.len(), &mut rng, seed) {
        parser.feed(&payload[from..at]);
        from = at;
    }
    parser.feed(&payload[from..]);
    let chunked = parser.finish();
    assert_eq!(chunked.encoding(), whole.encoding(), "encoding");
    assert_eq!(chunked.source(), whole.source(), "decoded text");
    assert_eq!(chunked.to_tree_dump(), whole.to_tree_dump(), "tree");
    assert_eq!(chunked.errors(), whole.errors(), "errors");

    let text = whole.source();
    let all_at_once = tokenize(text, TokenList::default());
    check_token_spans(text, &all_at_once);
    let mut tokenizer = Tokenizer::new(TokenList::default());
    let mut from = 0;
    for at in char_cuts(text, &mut rng, seed >> 2) {
        tokenizer.feed(&text[from..at]);
        from = at;
    }
    tokenizer.feed(&text[from..]);
    assert_eq!(tokenizer.finish(), all_at_once, "tokens");
}

/// Every token span inside `text` on character boundaries, every error
/// inside it, and one `EndOfFile`, last (as `tests/random_chunks.rs`).
fn check_token_spans(text: &str, out: &TokenList) {
    let mut saw_end = false;
    for event in &out.events {
        match event {
            Event::Token(token) => {
                assert!(!saw_end, "a token after EndOfFile");
                check_span(text, token.span(), "token");
                saw_end = matches!(token, OwnedToken::EndOfFile { .. });
            }
            Event::Error(error) => {
                assert!(error.offset <= text.len(), "{error:?}");
                assert!(error.line >= 1 && error.column >= 1, "{error:?}");
            }
        }
    }
    assert!(saw_end, "no EndOfFile");
}

// ----- fixpoint -----------------------------------------------------------

/// Repairs that change what the `#document` dump shows (the internal subset
/// and the XML declaration are not in it): `tests/fixpoint.rs`'s rule.
pub fn changes_tree(kind: RepairKind) -> bool {
    matches!(
        kind,
        RepairKind::ForbiddenCharacter
            | RepairKind::CommentText
            | RepairKind::InvalidName
            | RepairKind::UndeclaredPrefix
            | RepairKind::DuplicateAttribute
            | RepairKind::ProcessingInstructionAsComment
            | RepairKind::MissingRootElement
            | RepairKind::DoctypeChanged
    )
}

/// Whether [`strict`] can judge the document: roxmltree rejects what XML
/// allows a non-validating processor to leave unread (references to
/// external entities, entities an unread DTD may declare), and stops at
/// its own limits, where xml5dom only warns.
pub fn strict_can_judge(doc: &Document) -> bool {
    use xml5dom::ErrorCode::*;
    // Nor does it read parameter-entity references in an internal subset,
    // nor bind a prefix by an attribute list's default (`<!ATTLIST doc
    // xmlns:p CDATA #FIXED "urn:p">`, which libxml2 does).
    let dtd_it_cannot_read = doc
        .root()
        .children()
        .filter_map(|n| n.internal_subset())
        .any(|subset| subset.contains('%') || subset.contains("xmlns"));
    !dtd_it_cannot_read
        && !doc.errors().iter().any(|e| {
            matches!(
                e.code,
                ExternalEntityReference
                    | EntityInExternalSubset
                    | UnreadParameterEntity
                    | EntityExpansionLimit
                    | EntityDepthLimit
                    | ElementDepthLimit
                    | AttributeLimit
                    | NameLengthLimit
            )
        })
}

/// The strict parser of `tests/fixpoint.rs`, less one of its own
/// departures: roxmltree 0.21 does not bind the `xml` prefix for element
/// names (`<xml:a/>` is an "unknown namespace prefix" to it), although
/// Namespaces in XML binds it everywhere and libxml2 accepts such names.
pub fn strict(xml: &str) -> Result<(), String> {
    strict_parse(xml)
}

/// `Err` kept only where `judge` says the strict parser can judge.
pub trait FilterErr {
    /// `self`, or `Ok` if not `judge`.
    fn filter_err(self, judge: bool) -> Self;
}

impl FilterErr for Result<(), String> {
    fn filter_err(self, judge: bool) -> Self {
        if judge {
            self
        } else {
            Ok(())
        }
    }
}

fn strict_parse(xml: &str) -> Result<(), String> {
    match strict_parse_as_is(xml) {
        // roxmltree 0.21 ends NOTATION and ATTLIST declarations at their
        // first `>`, also one inside a quoted literal (XML 1.0 allows it
        // there; libxml2 agrees): judge the rest without them.
        Err(_) if xml.contains("<!NOTATION") || xml.contains("<!ATTLIST") => {
            let blanked =
                without_declarations(&without_declarations(xml, "<!NOTATION"), "<!ATTLIST");
            strict_parse_as_is(&blanked)
        }
        result => result,
    }
}

/// `xml` with each declaration starting with `keyword` (quote-aware)
/// blanked out.
fn without_declarations(xml: &str, keyword: &str) -> String {
    let mut out = String::with_capacity(xml.len());
    let mut rest = xml;
    while let Some(at) = rest.find(keyword) {
        out.push_str(&rest[..at]);
        let mut quote = None;
        let mut end = rest.len();
        for (i, c) in rest[at..].char_indices() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), _) if q == c => quote = None,
                (None, '>') => {
                    end = at + i + 1;
                    break;
                }
                _ => {}
            }
        }
        out.push_str(&" ".repeat(rest[at..end].chars().count()));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn strict_parse_as_is(xml: &str) -> Result<(), String> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    match roxmltree::Document::parse_with_options(xml, options) {
        Ok(_) => Ok(()),
        Err(roxmltree::Error::UnknownNamespace(prefix, _)) if prefix == "xml" => Ok(()),
        // Its own guard against entity bombs, which turns down documents
        // whose entities nest a few levels (xml5dom's limits are checked
        // by its own tests).
        Err(roxmltree::Error::EntityReferenceLoop(_)) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

/// The tree as [`Document::to_tree_dump`] prints it, but with adjacent text
/// nodes as one: the text at the edges of an entity's expansion is a node of
/// its own (docs/conformance.md, "Internal subset, entities and limits"),
/// and written out it is one with its neighbours.
pub fn merged_text_dump(doc: &Document) -> String {
    use xml5dom::Edge;
    let mut out = String::new();
    let mut depth = 0usize;
    for edge in doc.root().traverse() {
        let node = match edge {
            Edge::Open(node) => node,
            Edge::Close(node) => {
                if !node.is_text() {
                    depth = depth.saturating_sub(1);
                }
                continue;
            }
        };
        let indent = "  ".repeat(depth);
        if node.is_text() {
            if node.prev_sibling().is_some_and(|p| p.is_text()) {
                continue;
            }
            let mut text = String::new();
            let mut next = Some(node);
            while let Some(n) = next.filter(|n| n.is_text()) {
                text.push_str(n.text().unwrap_or(""));
                next = n.next_sibling();
            }
            // As in `to_tree_dump`: whitespace outside the root is not
            // part of the tree.
            let outside = node.parent().is_some_and(|p| p.is_document());
            if !(outside && text.chars().all(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))) {
                out.push_str(&format!("{indent}{text:?}\n"));
            }
            continue;
        }
        // Everything `to_tree_dump` shows of other nodes: kind, name,
        // namespace, text (comments, PIs), DOCTYPE identifiers, and the
        // attributes sorted.
        out.push_str(&format!(
            "{indent}{:?} {:?} {:?} {:?} {:?} {:?}\n",
            node.node_type(),
            node.name(),
            node.namespace(),
            node.text(),
            node.public_id(),
            node.system_id()
        ));
        let mut attributes: Vec<String> = node
            .attributes()
            .map(|a| {
                format!(
                    "{{{}}}{}={:?}",
                    a.namespace().unwrap_or(""),
                    a.name(),
                    a.value()
                )
            })
            .collect();
        attributes.sort();
        for attribute in attributes {
            out.push_str(&format!("{indent}  @{attribute}\n"));
        }
        depth += 1;
    }
    out
}

/// `fixpoint`: `tests/fixpoint.rs`'s rules for any bytes. An input without
/// errors is written back as it was (for UTF-8 input; other encodings get
/// their declaration rewritten to UTF-8, and go on below) and is
/// well-formed. Otherwise the output is well-formed, parses without errors,
/// writes itself again byte for byte, and is the same tree (adjacent text
/// nodes taken as one) unless a repair that changes the tree was reported.
pub fn fixpoint(data: &[u8]) {
    let doc = Document::parse_bytes(data);
    let out = doc.serialize(&Default::default());
    // (Errors only: what a limit left unread is written as it is, and the
    // same limit is reached again reading the output.)
    let no_errors = |doc: &Document| !doc.errors().iter().any(|e| e.is_error());
    if no_errors(&doc) && doc.encoding().name() == "UTF-8" {
        let input = doc.source();
        assert_eq!(out.text, input, "lossless output for a well-formed input");
        if let Err(e) = strict(input).filter_err(strict_can_judge(&doc)) {
            panic!("no parse errors, but not well-formed ({e}):\n{input:?}");
        }
        return;
    }
    let again = Document::parse(&out.text);
    if let Err(e) = strict(&out.text).filter_err(strict_can_judge(&again)) {
        panic!(
            "repaired output not well-formed ({e})\ninput:\n{:?}\noutput:\n{:?}",
            doc.source(),
            out.text
        );
    }
    assert!(
        no_errors(&again),
        "the output has errors {:?}\ninput:\n{:?}\noutput:\n{:?}",
        again.errors(),
        doc.source(),
        out.text
    );
    assert_eq!(
        again.to_xml(),
        out.text,
        "not a fixpoint\ninput:\n{:?}",
        doc.source()
    );
    if !out.repairs.iter().any(|r| changes_tree(r.kind)) {
        assert_eq!(
            merged_text_dump(&again),
            merged_text_dump(&doc),
            "the tree changed without a repair\ninput:\n{:?}\noutput:\n{:?}",
            doc.source(),
            out.text
        );
    }
}

// ----- xpath --------------------------------------------------------------

/// Documents for expressions that come without one, picked by the first
/// byte.
const XPATH_DOCUMENTS: &[&str] = &[
    "<r xmlns:p='urn:p' a='1' b='x'><p:i n='1'>one</p:i><i n='2'>two<!--c--><?pi d?></i>\
     <i n='3'><j><k>deep</k></j></i>tail</r>",
    "<!DOCTYPE d><d xmlns='urn:d'><e xml:lang='en' id='x'>1.5</e><e xmlns=''>-2</e>\
     <f><![CDATA[<g>]]></f></d>",
    "<a><b><c><d><e><f>6</f></e></d></c></b><b2 x='y'/>text &amp; more</a>",
    "<list><item>3</item><item>1</item><item>NaN</item><item/><item>  7 </item></list>",
];

/// `xpath`: the bytes up to the first NUL are an expression, the rest a
/// document (without a NUL, the whole is the expression and the first byte
/// picks one of [`XPATH_DOCUMENTS`]). Compiling may fail; evaluating from
/// the document node, the root element and the deepest node may fail; but
/// nothing panics, and every node-set holds nodes of the document, in
/// document order, without duplicates, in XPath's data model.
pub fn xpath(data: &[u8]) {
    let (expression, doc) = match data.iter().position(|&b| b == 0) {
        Some(nul) => (&data[..nul], Document::parse_bytes(&data[nul + 1..])),
        None => {
            let pick = data.first().map_or(0, |&b| usize::from(b));
            let text = XPATH_DOCUMENTS[pick % XPATH_DOCUMENTS.len()];
            (data, Document::parse(text))
        }
    };
    let expression = String::from_utf8_lossy(expression);
    let Ok(xpath) = XPath::compile(&expression) else {
        return;
    };
    let _ = xpath.as_str();

    let order = preorder(&doc);
    let root = doc.root();
    let mut contexts = vec![root];
    contexts.extend(doc.root_element());
    contexts.extend(deepest(&doc));

    let all = XPath::compile("//node()")
        .expect("`//node()` compiles")
        .evaluate(root)
        .expect("`//node()` evaluates");
    let mut bindings = Bindings::new();
    bindings
        .variable("n", Value::Number(2.0))
        .variable("s", Value::String("x".to_owned()))
        .variable("b", Value::Boolean(true))
        .variable("all", all)
        .namespace("p", "urn:p");

    for context in contexts {
        for result in [
            xpath.evaluate(context),
            xpath.evaluate_with(context, &bindings),
        ] {
            let Ok(value) = result else {
                continue;
            };
            let _ = (value.to_xpath_string(), value.to_number());
            let _ = (value.to_boolean(), value.type_name());
            if let Value::NodeSet(nodes) = &value {
                check_node_set(&doc, &order, nodes);
            }
        }
    }
}

/// Preorder numbers of the document's nodes.
fn preorder(doc: &Document) -> HashMap<NodeId, usize> {
    let root = doc.root();
    std::iter::once(root)
        .chain(root.descendants())
        .enumerate()
        .map(|(i, node)| (node.id(), i))
        .collect()
}

/// The last of the deepest nodes (found without recursion or ancestor walks).
fn deepest(doc: &Document) -> Option<Node<'_>> {
    let (mut depth, mut best) = (0usize, None);
    let mut best_depth = 0;
    for edge in doc.root().traverse() {
        match edge {
            xml5dom::Edge::Open(node) => {
                depth += 1;
                if depth >= best_depth {
                    (best, best_depth) = (Some(node), depth);
                }
            }
            xml5dom::Edge::Close(_) => depth -= 1,
        }
    }
    best
}

/// A node-set: nodes of `doc`, in document order (libxml2's: an element,
/// then its attributes in order, then its namespace nodes, whose order among
/// themselves is the implementation's), each once; no DOCTYPE, no text
/// outside the root element, no text right after text (a run of text is
/// one node, handed back as its first), no namespace declaration as an
/// attribute.
fn check_node_set(doc: &Document, order: &HashMap<NodeId, usize>, nodes: &[XNode<'_>]) {
    let mut previous: Option<(usize, u8, usize)> = None;
    let mut prefixes: Vec<&str> = Vec::new();
    for node in nodes {
        let (owner, class, index) = match node {
            XNode::Node(n) => {
                assert_ne!(n.node_type(), NodeType::Doctype, "a DOCTYPE in a node-set");
                if n.is_text() {
                    assert!(
                        n.parent().is_some_and(|p| p.is_element()),
                        "text outside the root element in a node-set"
                    );
                    // A run of adjacent text is one XPath node, its first.
                    assert!(
                        !n.prev_sibling().is_some_and(|p| p.is_text()),
                        "a later node of a run of text in a node-set"
                    );
                }
                (*n, 0, 0)
            }
            XNode::Attribute(a) => {
                let attribute = a.attribute();
                assert!(
                    attribute.declared_prefix().is_none(),
                    "a namespace declaration as an attribute node"
                );
                let index = a
                    .element()
                    .attributes()
                    .position(|other| other.name() == attribute.name())
                    .expect("an attribute node's attribute is its element's");
                (a.element(), 1, index)
            }
            XNode::Namespace(ns) => (ns.element(), 2, 0),
        };
        assert!(
            std::ptr::eq(owner.document(), doc),
            "a node of another document"
        );
        let number = *order
            .get(&owner.id())
            .expect("a node-set node is in the document's tree");
        let key = (number, class, index);
        match previous {
            Some(p) if key < p => panic!("node-set not in document order: {nodes:?}"),
            Some(p) if key == p && class != 2 => panic!("duplicate in a node-set: {nodes:?}"),
            Some(p) if key == p => {}
            _ => prefixes.clear(),
        }
        if let XNode::Namespace(ns) = node {
            assert!(
                !prefixes.contains(&ns.prefix()),
                "duplicate namespace node in a node-set: {nodes:?}"
            );
            prefixes.push(ns.prefix());
        }
        previous = Some(key);
    }
}

// ----- events_equal_dom ---------------------------------------------------

/// The parse options one byte of the input chooses: each of its six low
/// bits sets one limit to a small value (drawn by a generator the byte
/// seeds), bit 6 makes the values larger (bit 7 is not read), and a byte
/// without the six keeps the defaults; so the fuzzer reaches every limit,
/// at every place a limit can cut.
pub fn chosen_options(byte: u8, input_len: usize) -> ParseOptions {
    let mut options = ParseOptions::default();
    let mut rng = Xorshift::new(byte);
    let scale = if byte & 0x40 != 0 { 8 } else { 1 };
    let limits = &mut options.limits;
    if byte & 0x01 != 0 {
        limits.max_element_depth = Some(rng.below(8 * scale));
    }
    if byte & 0x02 != 0 {
        limits.max_entity_expansion_bytes = rng.below(512 * scale);
    }
    if byte & 0x04 != 0 {
        limits.max_attributes = rng.below(4 * scale);
    }
    if byte & 0x08 != 0 {
        limits.max_name_length = rng.below(8 * scale);
    }
    if byte & 0x10 != 0 {
        limits.max_entity_depth = rng.below(4 * scale);
    }
    if byte & 0x20 != 0 {
        limits.max_input_bytes = rng.below(input_len + 1);
    }
    options
}

/// What a parse shows of a document, as lines: the XML declaration; the
/// nodes in document order with everything read from them (an element's
/// end, after its content, as a line of its own); the errors in order, each
/// followed by its context. Lines starting with `!` are what only events
/// show (where an expansion begins and ends, markup left out).
#[derive(Debug, Default, PartialEq)]
struct Shown {
    declaration: Option<String>,
    nodes: Vec<String>,
    errors: Vec<String>,
}

impl Shown {
    /// Without the lines only events show.
    fn as_the_document_shows_it(&self) -> Shown {
        Shown {
            declaration: self.declaration.clone(),
            nodes: self
                .nodes
                .iter()
                .filter(|line| !line.starts_with('!'))
                .cloned()
                .collect(),
            errors: self.errors.clone(),
        }
    }
}

fn declaration_line(
    version: Option<&str>,
    encoding: Option<&str>,
    standalone: Option<&str>,
    span: Span,
) -> String {
    format!("<?xml {version:?} {encoding:?} {standalone:?} at {span:?}")
}

fn element_line(
    (qualified, prefix, local, namespace): (&str, Option<&str>, &str, Option<&str>),
    start: Option<usize>,
    entity: Option<&str>,
) -> String {
    format!("<{qualified} {prefix:?} {local:?} {namespace:?} from {start:?} entity {entity:?}")
}

fn attribute_line(
    (qualified, prefix, local, namespace): (&str, Option<&str>, &str, Option<&str>),
    value: &str,
    (span, value_span): (Option<Span>, Option<Span>),
    defaulted: bool,
    is_id: bool,
) -> String {
    format!(
        "  @{qualified} {prefix:?} {local:?} {namespace:?} = {value:?} at {span:?} \
         value at {value_span:?} defaulted {defaulted} id {is_id}"
    )
}

fn end_line(end: Option<usize>) -> String {
    format!("</> to {end:?}")
}

fn text_line(
    text: &str,
    cdata: &[std::ops::Range<usize>],
    span: Option<Span>,
    entity: Option<&str>,
) -> String {
    format!("text {text:?} cdata {cdata:?} at {span:?} entity {entity:?}")
}

/// [`Shown`] built from events as they come.
#[derive(Default)]
struct FromEvents {
    shown: Shown,
    /// The entities whose expansions run, outermost first: the nodes made
    /// now are the outermost's ([`Node::entity`]).
    expansions: Vec<String>,
}

impl FromEvents {
    fn take(&mut self, event: xml5dom::events::Event<'_>) {
        use xml5dom::events::Event as E;
        let entity = self.expansions.first().map(String::as_str);
        let nodes = &mut self.shown.nodes;
        match event {
            E::XmlDeclaration(d) => {
                self.shown.declaration = Some(declaration_line(
                    d.version,
                    d.encoding,
                    d.standalone,
                    d.span,
                ));
            }
            E::Doctype(d) => {
                let notations = d.declarations.map_or(&[][..], |d| d.notations());
                nodes.push(format!(
                    "<!DOCTYPE {:?} {:?} {:?} [{:?}] notations {notations:?} at {:?} entity {entity:?}",
                    d.name.unwrap_or(""),
                    d.public_id,
                    d.system_id,
                    d.internal_subset,
                    Some(d.span),
                ));
            }
            E::StartElement(start) => {
                let n = start.name;
                nodes.push(element_line(
                    (n.qualified, n.prefix, n.local, n.namespace),
                    Some(start.span.start),
                    entity,
                ));
                for a in start.attributes {
                    let n = a.name;
                    nodes.push(attribute_line(
                        (n.qualified, n.prefix, n.local, n.namespace),
                        a.value,
                        (a.span, a.value_span),
                        a.span.is_none(),
                        a.is_id,
                    ));
                }
                if start.empty {
                    nodes.push(end_line(Some(start.span.end)));
                }
            }
            E::EndElement(end) => nodes.push(end_line(Some(end.end))),
            E::Text { text, cdata, span } => {
                let cdata: Vec<_> = cdata.iter().map(|&(start, end)| start..end).collect();
                nodes.push(text_line(text, &cdata, Some(span), entity));
            }
            E::Comment { data, span } => {
                nodes.push(format!(
                    "<!--{data:?} at {:?} entity {entity:?}",
                    Some(span)
                ));
            }
            E::ProcessingInstruction { target, data, span } => {
                nodes.push(format!(
                    "<?{target:?} {data:?} at {:?} entity {entity:?}",
                    Some(span)
                ));
            }
            E::BeginExpansion { name, reference } => {
                nodes.push(format!("!begin {name:?} at {reference:?}"));
                self.expansions.push(name.to_owned());
            }
            E::EndExpansion { balanced } => {
                nodes.push(format!("!end balanced {balanced}"));
                self.expansions.pop();
            }
            E::Error(error) => self.shown.errors.push(format!("{error:?}")),
            E::ErrorContext(context) => self.shown.errors.push(format!("  {context:?}")),
            // Dropped markup, and events to come.
            other => nodes.push(format!("!{other:?}")),
        }
    }
}

/// What `doc` shows: the lines [`FromEvents`] makes, read from the tree
/// (a walk of [`Document::root`]) and the errors.
fn shown_by_document(doc: &Document) -> Shown {
    use xml5dom::Edge;
    let mut nodes = Vec::new();
    for edge in doc.root().traverse() {
        let node = match edge {
            Edge::Open(node) => node,
            Edge::Close(node) => {
                if node.is_element() {
                    nodes.push(end_line(node.span().map(|s| s.end)));
                }
                continue;
            }
        };
        let (span, entity) = (node.span(), node.entity());
        match node.node_type() {
            NodeType::Document => {}
            NodeType::Doctype => nodes.push(format!(
                "<!DOCTYPE {:?} {:?} {:?} [{:?}] notations {:?} at {span:?} entity {entity:?}",
                node.name(),
                node.public_id(),
                node.system_id(),
                node.internal_subset(),
                node.notations(),
            )),
            NodeType::Element => {
                nodes.push(element_line(
                    (
                        node.name(),
                        node.prefix(),
                        node.local_name(),
                        node.namespace(),
                    ),
                    span.map(|s| s.start),
                    entity,
                ));
                for a in node.attributes() {
                    nodes.push(attribute_line(
                        (a.name(), a.prefix(), a.local_name(), a.namespace()),
                        a.value(),
                        (a.span(), a.value_span()),
                        a.is_defaulted(),
                        a.is_id(),
                    ));
                }
            }
            NodeType::Text => nodes.push(text_line(
                node.text().unwrap_or_default(),
                &node.cdata_ranges(),
                span,
                entity,
            )),
            NodeType::Comment => nodes.push(format!(
                "<!--{:?} at {span:?} entity {entity:?}",
                node.text().unwrap_or_default()
            )),
            NodeType::ProcessingInstruction => nodes.push(format!(
                "<?{:?} {:?} at {span:?} entity {entity:?}",
                node.name(),
                node.text().unwrap_or_default()
            )),
        }
    }
    let mut errors = Vec::new();
    for (index, error) in doc.errors().iter().enumerate() {
        errors.push(format!("{error:?}"));
        if let Some(context) = doc.error_context(index) {
            errors.push(format!("  {context:?}"));
        }
    }
    Shown {
        declaration: doc.xml_declaration().map(|d| {
            declaration_line(
                d.version.as_deref(),
                d.encoding.as_deref(),
                d.standalone.as_deref(),
                d.span,
            )
        }),
        nodes,
        errors,
    }
}

/// Panics, showing where they part, if `got` is not `expected`.
fn assert_shown(what: &str, got: &Shown, expected: &Shown, input: &[u8]) {
    if got == expected {
        return;
    }
    let part = |name: &str, got: &[String], expected: &[String]| -> Option<String> {
        let at = got.iter().zip(expected).take_while(|(a, b)| a == b).count();
        if at == got.len() && at == expected.len() {
            return None;
        }
        let from = at.saturating_sub(3);
        let window =
            |lines: &[String]| lines[from.min(lines.len())..(at + 3).min(lines.len())].join("\n");
        Some(format!(
            "{name} part at line {at}:\n--- got:\n{}\n--- expected:\n{}",
            window(got),
            window(expected)
        ))
    };
    let declaration = |s: &Shown| s.declaration.iter().cloned().collect::<Vec<_>>();
    let parts: Vec<String> = [
        part("declarations", &declaration(got), &declaration(expected)),
        part("nodes", &got.nodes, &expected.nodes),
        part("errors", &got.errors, &expected.errors),
    ]
    .into_iter()
    .flatten()
    .collect();
    let shown = String::from_utf8_lossy(&input[..input.len().min(2000)]);
    panic!("{what}: {}\ninput: {shown:?}", parts.join("\n"));
}

/// An `io::Read` that hands out `data` in the pieces `cuts` makes.
struct Pieces<'a> {
    data: &'a [u8],
    at: usize,
    cuts: std::vec::IntoIter<usize>,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let cut = self
            .cuts
            .as_slice()
            .first()
            .copied()
            .unwrap_or(self.data.len());
        let size = (cut - self.at).min(buffer.len());
        buffer[..size].copy_from_slice(&self.data[self.at..self.at + size]);
        self.at += size;
        if self.at == cut {
            self.cuts.next();
        }
        Ok(size)
    }
}

/// `events_equal_dom`: the first byte seeds where the input is cut, the
/// second picks the limits ([`chosen_options`]), the rest is the document.
/// The events of its bytes, whole ([`xml5dom::events::parse_reader`]), fed
/// in chunks ([`xml5dom::events::Parser`]) and pulled in other chunks
/// ([`xml5dom::events::Reader`]), show exactly the document
/// [`Document::parse_bytes_with`] makes (every node with what can be read
/// from it, the errors with their positions and contexts, in order), and
/// the DOM's own push [`Parser`] in chunks makes that document too; the
/// events of the text (the bytes lossily decoded, [`xml5dom::events::parse_with`]
/// and [`xml5dom::events::Reader::from_str_with`]) show the document
/// [`Document::parse_with`] makes of it. Then every element is written
/// alone ([`elements_alone`]).
pub fn events_equal_dom(data: &[u8]) {
    use xml5dom::events;
    let [seed, limits, ref input @ ..] = *data else {
        return;
    };
    let options = chosen_options(limits, input.len());
    let mut rng = Xorshift::new(seed);
    let doc = Document::parse_bytes_with(input, &options);
    let expected = shown_by_document(&doc);

    let mut whole = FromEvents::default();
    events::parse_reader_with(input, &options, |event| whole.take(event)).expect("reading a slice");
    let whole = whole.shown;
    assert_shown(
        "events of the bytes",
        &whole.as_the_document_shows_it(),
        &expected,
        input,
    );

    let push_cuts = cuts(input.len(), &mut rng, seed);
    let mut pushed = FromEvents::default();
    let mut parser = events::Parser::with_options(&options, |event| pushed.take(event));
    let mut dom_parser = Parser::with_options(&options);
    let mut from = 0;
    for &at in push_cuts.iter().chain([input.len()].iter()) {
        parser.feed(&input[from..at]);
        dom_parser.feed(&input[from..at]);
        from = at;
    }
    let _ = parser.finish();
    assert_shown(
        "events of the bytes in chunks",
        &pushed.shown,
        &whole,
        input,
    );
    let chunked = dom_parser.finish();
    assert_eq!(chunked.source(), doc.source(), "the push parser's source");
    assert_shown(
        "the push parser's document",
        &shown_by_document(&chunked),
        &expected,
        input,
    );

    let pull_cuts = cuts(input.len(), &mut rng, seed >> 2);
    let pieces = Pieces {
        data: input,
        at: 0,
        cuts: pull_cuts.into_iter(),
    };
    let mut reader = events::Reader::with_options(pieces, &options);
    let mut pulled = FromEvents::default();
    while let Some(event) = reader.next_event().expect("reading a slice") {
        pulled.take(event);
    }
    assert_shown(
        "events pulled from the bytes in chunks",
        &pulled.shown,
        &whole,
        input,
    );

    let text = String::from_utf8_lossy(input);
    let text_doc = Document::parse_with(&text, &options);
    let mut of_text = FromEvents::default();
    events::parse_with(&text, &options, |event| of_text.take(event));
    assert_shown(
        "events of the text",
        &of_text.shown.as_the_document_shows_it(),
        &shown_by_document(&text_doc),
        input,
    );
    let mut reader = events::Reader::from_str_with(&text, &options);
    let mut pulled = FromEvents::default();
    while let Some(event) = reader.next_event().expect("reading a string") {
        pulled.take(event);
    }
    assert_shown(
        "events pulled from the text",
        &pulled.shown,
        &of_text.shown,
        input,
    );

    elements_alone(&doc);
}

/// How much writing elements alone may cost, per byte of the source (and
/// 4 KiB more): the bytes written and read back, and each element's depth
/// (the writer looks up its ancestors' declarations). Every element alone
/// is quadratic in the depth, so the elements are taken from the last
/// (deepest first) and the writing stops past this budget.
const ALONE_BUDGET_PER_BYTE: usize = 4;

/// Each element of `doc` written alone ([`Node::to_xml`]), from the last,
/// as long as the budget lasts: it does not panic; unless a limit was
/// reached (whose tree is not all of the input, and is written as the
/// source has it), it reads back without a well-formedness error
/// (docs/serialization.md: repaired output is well-formed; `to_xml` writes
/// the declarations of the ancestors, the expansions of entities and the
/// attributes defaults supplied), and unless writing the whole document
/// repairs something that changes the tree, it reads back to the element's
/// subtree (names, namespaces, attributes but namespace declarations,
/// text with adjacent text as one, comments, PIs).
pub fn elements_alone(doc: &Document) {
    use xml5dom::Edge;
    let mut elements = Vec::new();
    let mut depth = 0usize;
    for edge in doc.root().traverse() {
        match edge {
            Edge::Open(node) => {
                if node.is_element() {
                    elements.push((node, depth));
                }
                depth += 1;
            }
            Edge::Close(_) => depth -= 1,
        }
    }
    let judge = doc.limit_reached().is_none();
    let same_tree = judge && {
        let out = doc.serialize(&Default::default());
        !out.repairs.iter().any(|r| changes_tree(r.kind))
    };
    let budget = ALONE_BUDGET_PER_BYTE * doc.source().len() + 4096;
    let mut spent = 0usize;
    for (node, depth) in elements.into_iter().rev() {
        if spent > budget {
            break;
        }
        let alone = node.to_xml();
        spent += depth + alone.len();
        if !judge {
            continue;
        }
        spent += alone.len();
        let again = Document::parse(&alone);
        let errors: Vec<_> = again.errors().iter().filter(|e| e.is_error()).collect();
        assert!(
            errors.is_empty(),
            "element written alone has errors {errors:?}\nwritten: {alone:?}\ndocument: {:?}",
            doc.source()
        );
        let root = again
            .root_element()
            .unwrap_or_else(|| panic!("element written alone has no root: {alone:?}"));
        if same_tree {
            let (before, after) = (edit_checks::dump(node), edit_checks::dump(root));
            assert_eq!(
                after,
                before,
                "element written alone reads back to another tree\nwritten: {alone:?}\ndocument: {:?}",
                doc.source()
            );
        }
    }
}
