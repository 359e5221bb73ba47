//! Random edit sequences and the promise they are checked against
//! (docs/editing.md): after any accepted edits, the document written out is
//! well-formed, reads back without errors to the same tree, and each
//! element written alone reads back to its subtree. Shared by
//! `tests/edit_sequences.rs` and the `edits` fuzz target.

use xml5dom::{Document, Edge, Node, NodeId, XMLNS_NAMESPACE, XML_NAMESPACE};

/// The tree under `node` as names with their namespaces, attributes sorted
/// (namespace declarations left out: the writer adds those a moved node
/// needs), adjacent text as one, comments and PIs.
pub fn dump(node: Node<'_>) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for edge in node.traverse() {
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
            let outside = node.parent().is_some_and(|p| p.is_document());
            let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
            // (An empty text node writes nothing: docs/editing.md.)
            if !(text.is_empty() || outside && text.chars().all(space)) {
                out.push_str(&format!("{indent}{text:?}\n"));
            }
            continue;
        }
        out.push_str(&format!(
            "{indent}{:?} {:?} {:?} {:?}\n",
            node.node_type(),
            node.name(),
            node.namespace(),
            node.text(),
        ));
        let mut attributes: Vec<String> = node
            .attributes()
            .filter(|a| a.declared_prefix().is_none())
            .map(|a| {
                let ns = a.namespace().unwrap_or("");
                format!("{{{ns}}}{}={:?}", a.name(), a.value())
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

/// Checks the promise on `doc`; `Err` says what broke. `elements` bounds
/// how many elements are also written alone (all of them if `None`).
pub fn check_written_back(doc: &Document, elements: Option<usize>) -> Result<String, String> {
    let out = check_whole(doc)?;
    let all: Vec<Node<'_>> = doc
        .root()
        .descendants()
        .filter(|n| n.is_element())
        .collect();
    let step = elements.map_or(1, |n| (all.len() / n.max(1)).max(1));
    check_alone(all.into_iter().step_by(step))?;
    Ok(out)
}

/// The document written out is well-formed and reads back, without
/// errors, to the same tree; returns it.
fn check_whole(doc: &Document) -> Result<String, String> {
    let out = doc.to_xml();
    let again = Document::parse(&out);
    if !again.is_well_formed() {
        return Err(format!("written:\n{out}\nerrors: {:?}", again.errors()));
    }
    let (before, after) = (dump(doc.root()), dump(again.root()));
    if before != after {
        return Err(format!(
            "written:\n{out}\n{}",
            first_difference(&before, &after)
        ));
    }
    Ok(out)
}

/// Each of `elements`, written alone, reads back to its subtree.
fn check_alone<'d>(elements: impl Iterator<Item = Node<'d>>) -> Result<(), String> {
    for node in elements {
        let alone = node.to_xml();
        let again = Document::parse(&alone);
        if !again.is_well_formed() {
            return Err(format!(
                "element written alone:\n{alone}\nerrors: {:?}",
                again.errors()
            ));
        }
        let Some(root) = again.root_element() else {
            return Err(format!("element written alone:\n{alone}\nno root element"));
        };
        let (before, after) = (dump(node), dump(root));
        if before != after {
            return Err(format!(
                "element written alone:\n{alone}\n{}",
                first_difference(&before, &after)
            ));
        }
    }
    Ok(())
}

/// Where two dumps part, with a few lines around.
fn first_difference(tree: &str, read_back: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (tree.lines().collect(), read_back.lines().collect());
    let at = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let from = at.saturating_sub(3);
    format!(
        "tree (from line {from}):\n{}\nread back:\n{}",
        a[from..(at + 4).min(a.len())].join("\n"),
        b[from..(at + 4).min(b.len())].join("\n")
    )
}

/// Documents with namespaces in every arrangement, entities and defaults.
pub const SHAPES: &[&str] = &[
    "<r xmlns:p=\"urn:1\"><p:a p:y=\"0\"/><b/></r>",
    "<r xmlns=\"urn:d\" xmlns:q=\"urn:q\"><a><q:b q:c=\"1\" d=\"2\"/></a><c xmlns=\"\"/></r>",
    "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><rdf:Description rdf:about=\"x\"><dc:title>T</dc:title></rdf:Description></rdf:RDF>",
    "<!DOCTYPE r [<!ENTITY e \"hi\"><!ENTITY m \"<b>x</b>\"><!ATTLIST b d CDATA \"v\">]><r>&e;<b/>&m;<c a=\"&e;\"/></r>",
    "<?xml version=\"1.0\"?>\n<!-- c -->\n<a xml:lang=\"en\">x]]<b/>>y<![CDATA[z]]><?pi d?></a>\n",
    "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><g><use xlink:href=\"#a\"/></g><p:x xmlns:p=\"urn:p\"><p:y/></p:x></svg>",
    // One prefix bound to other URIs in other scopes, and one URI under
    // two prefixes.
    "<r xmlns:p=\"urn:1\" xmlns:l=\"urn:l\"><a xmlns:p=\"urn:2\"><b p:x=\"1\"/></a><c l:x=\"2\"/><d xmlns:q=\"urn:1\" xmlns:its=\"urn:its\"><q:e/></d></r>",
];

/// A source of choices.
pub trait Choose {
    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize;
}

fn pick<'a, T>(choose: &mut impl Choose, items: &'a [T]) -> Option<&'a T> {
    if items.is_empty() {
        None
    } else {
        items.get(choose.below(items.len()))
    }
}

const PREFIXES: &[&str] = &[
    "p", "q", "dc", "rdf", "xml", "xmlns", "svg", "ns1", "l", "its", "w",
];
const LOCALS: &[&str] = &[
    "a", "b", "item", "lang", "x", "title", "é", "space", "about",
];
const NEW_URIS: &[&str] = &[
    "urn:one",
    "urn:1",
    "urn:l",
    "urn:two",
    "",
    XML_NAMESPACE,
    XMLNS_NAMESPACE,
    "http://purl.org/dc/elements/1.1/",
];
const TEXTS: &[&str] = &[
    "plain",
    "",
    " ",
    "\n",
    "a & b < c > d",
    "]]",
    ">",
    "]>",
    "]]>",
    "x--y",
    "-",
    "->",
    "?>",
    "line\r\nend",
    "tab\there",
    "\u{1}",
    "\u{7F}",
    "\u{FFFE}",
    "quote \" and '",
    "&e;",
    "日本語",
];

/// Fragments to parse into an element: well-formed and broken (unclosed
/// tags, stray end tags, bare `&`, misplaced declarations), with and
/// without namespaces; `P` is replaced by a prefix.
const FRAGMENTS: &[&str] = &[
    "<item id=3>new</item> text <b>x",
    "plain & text",
    "</r></a>stray",
    "<P:a P:b='1'>t</P:a>",
    "<a><b></a>c",
    "<!-- c --><?pi d?>",
    "<![CDATA[x<y]]>z",
    "<x xmlns='urn:one'><y/><z xmlns=''/></x>",
    "<x xmlns:P='urn:two'><P:y P:z='1'/></x>",
    "&amp;&lt;&#60;&e;",
    "<a b='1' b='2'>",
    "</>",
    "<a/><b/>",
    "",
    "<!DOCTYPE x><q/>",
    "<?xml version='1.0'?><z/>",
    "<a>\u{1}</a>",
    "x]]>y",
    "<b\n",
];

/// A fragment of [`FRAGMENTS`], its `P` a prefix the document uses or
/// another.
fn fragment(choose: &mut impl Choose, doc: &Document) -> String {
    let template = pick(choose, FRAGMENTS).copied().unwrap_or("");
    let used: Vec<&str> = doc
        .root()
        .descendants()
        .filter_map(|n| n.prefix())
        .take(16)
        .collect();
    let prefix = match pick(choose, &used) {
        Some(prefix) if choose.below(4) != 0 => prefix,
        _ => pick(choose, PREFIXES).copied().unwrap_or("p"),
    };
    template.replace('P', prefix)
}

/// A node of one of [`SHAPES`] (parsed anew) to import, and what it is.
fn other_document(choose: &mut impl Choose) -> (Document, NodeId, String) {
    let text = pick(choose, SHAPES).copied().unwrap_or(SHAPES[0]);
    let other = Document::parse(text);
    let nodes: Vec<NodeId> = other.root().descendants().map(|n| n.id()).collect();
    let node = nodes[choose.below(nodes.len())];
    let what = format!("{:?} of {text:?}", other.node(node));
    (other, node, what)
}

/// What one edit does, for the report of a failing sequence.
#[derive(Debug)]
pub struct Step(pub String);

/// A name for an element or attribute: unprefixed, prefixed with a common
/// prefix, or a prefix the document already uses.
fn name(choose: &mut impl Choose, doc: &Document) -> String {
    let local = pick(choose, LOCALS).copied().unwrap_or("a");
    match choose.below(4) {
        0 | 1 => local.to_owned(),
        2 => format!("{}:{local}", pick(choose, PREFIXES).copied().unwrap_or("p")),
        _ => {
            let used: Vec<&str> = doc
                .root()
                .descendants()
                .filter_map(|n| n.prefix())
                .take(16)
                .collect();
            match pick(choose, &used) {
                Some(prefix) => format!("{prefix}:{local}"),
                None => local.to_owned(),
            }
        }
    }
}

fn uri(choose: &mut impl Choose, doc: &Document) -> String {
    if choose.below(2) == 0 {
        let used: Vec<&str> = doc
            .root()
            .descendants()
            .filter_map(|n| n.namespace())
            .take(16)
            .collect();
        if let Some(uri) = pick(choose, &used) {
            return (*uri).to_owned();
        }
    }
    pick(choose, NEW_URIS).copied().unwrap_or("").to_owned()
}

fn text(choose: &mut impl Choose) -> String {
    let mut out = String::new();
    for _ in 0..=choose.below(3) {
        out.push_str(pick(choose, TEXTS).copied().unwrap_or(""));
    }
    out
}

/// The nodes of the detached subtrees among `loose` (those not removed
/// and not put back), each subtree's top first.
pub fn detached_nodes(doc: &Document, loose: &[NodeId]) -> Vec<NodeId> {
    let mut tops: Vec<NodeId> = loose
        .iter()
        .copied()
        .filter(|&id| {
            doc.node(id)
                .is_some_and(|n| n.parent().is_none() && !n.is_document())
        })
        .collect();
    tops.sort_unstable_by_key(|id| format!("{id:?}"));
    tops.dedup();
    tops.iter()
        .filter_map(|&id| doc.node(id))
        .flat_map(|n| std::iter::once(n).chain(n.descendants()).map(|d| d.id()))
        .collect()
}

/// A name for a node not in the document: often with a prefix bound to
/// nothing yet (it waits), or one the document binds.
fn waiting_name(choose: &mut impl Choose, doc: &Document) -> String {
    match choose.below(3) {
        0 => name(choose, doc),
        _ => format!(
            "{}:{}",
            pick(choose, &["p", "q", "l", "its", "w", "ns1", "xs"])
                .copied()
                .unwrap_or("p"),
            pick(choose, LOCALS).copied().unwrap_or("a")
        ),
    }
}

/// Applies `steps` random edits to `doc`, through the public API, and
/// returns what was tried (refused edits included) and the nodes made or
/// taken out on the way (some of them put back since).
///
/// The node an edit works on is often one of a detached subtree, where
/// prefixes bound to nothing wait to be resolved where the subtree lands:
/// every edit is tried there too.
pub fn random_edits(
    doc: &mut Document,
    choose: &mut impl Choose,
    steps: usize,
) -> (Vec<Step>, Vec<NodeId>) {
    let mut log = Vec::new();
    // Detached nodes, created or taken out, to put back later.
    let mut loose: Vec<NodeId> = Vec::new();
    for _ in 0..steps {
        let attached: Vec<NodeId> = doc.root().descendants().map(|n| n.id()).collect();
        let detached = detached_nodes(doc, &loose);
        let pool = if !detached.is_empty() && choose.below(3) == 0 {
            &detached
        } else {
            &attached
        };
        let nodes = pool.clone();
        let elements: Vec<NodeId> = pool
            .iter()
            .copied()
            .filter(|&id| doc.node(id).is_some_and(|n| n.is_element()))
            .collect();
        let node = nodes[choose.below(nodes.len())];
        let element = pick(choose, &elements).copied().unwrap_or(node);
        let step = match choose.below(24) {
            0 => {
                let n = name(choose, doc);
                let id = doc.create_element(&n);
                loose.push(id);
                format!("create_element({n:?}) = {id:?}")
            }
            1 => {
                let (u, n) = (uri(choose, doc), name(choose, doc));
                let id = doc.create_element_ns(&u, &n);
                loose.push(id);
                format!("create_element_ns({u:?}, {n:?}) = {id:?}")
            }
            2 => {
                let t = text(choose);
                let id = match choose.below(3) {
                    0 => doc.create_text(&t),
                    1 => doc.create_comment(&t),
                    _ => doc.create_processing_instruction(
                        pick(choose, &["pi", "xml", "a:b", "t"])
                            .copied()
                            .unwrap_or("t"),
                        &t,
                    ),
                };
                loose.push(id);
                format!("create text/comment/PI {t:?} = {id:?}")
            }
            3 | 4 => {
                // Put a loose node or an existing one somewhere.
                let moved = match (choose.below(2), pick(choose, &loose)) {
                    (0, Some(&id)) => id,
                    _ => nodes[choose.below(nodes.len())],
                };
                let target = if choose.below(2) == 0 { element } else { node };
                let how = choose.below(4);
                let result = match how {
                    0 => doc.append(target, moved),
                    1 => doc.prepend(target, moved),
                    2 => doc.insert_before(target, moved),
                    _ => doc.insert_after(target, moved),
                };
                format!("move#{how}({target:?}, {moved:?}) = {result:?}")
            }
            5 => {
                let result = doc.detach(node);
                if result.is_ok() {
                    loose.push(node);
                }
                format!("detach({node:?}) = {result:?}")
            }
            6 => format!("remove({node:?}) = {:?}", doc.remove(node)),
            7 | 8 => {
                let n = if choose.below(4) == 0 {
                    match choose.below(2) {
                        0 => "xmlns".to_owned(),
                        _ => format!("xmlns:{}", pick(choose, PREFIXES).copied().unwrap_or("p")),
                    }
                } else {
                    name(choose, doc)
                };
                let v = if n.starts_with("xmlns") {
                    uri(choose, doc)
                } else {
                    text(choose)
                };
                let result = doc.set_attribute(element, &n, &v);
                format!("set_attribute({element:?}, {n:?}, {v:?}) = {result:?}")
            }
            9 => {
                let (u, n, v) = (uri(choose, doc), name(choose, doc), text(choose));
                let result = doc.set_attribute_ns(element, &u, &n, &v);
                format!("set_attribute_ns({element:?}, {u:?}, {n:?}, {v:?}) = {result:?}")
            }
            10 => {
                let names: Vec<String> = doc
                    .node(element)
                    .map(|e| e.attributes().map(|a| a.name().to_owned()).collect())
                    .unwrap_or_default();
                let n = pick(choose, &names).cloned().unwrap_or_default();
                let result = doc.remove_attribute(element, &n);
                format!("remove_attribute({element:?}, {n:?}) = {result:?}")
            }
            11 => {
                let n = name(choose, doc);
                format!("rename({node:?}, {n:?}) = {:?}", doc.rename(node, &n))
            }
            12 => {
                let (u, n) = (uri(choose, doc), name(choose, doc));
                let result = doc.rename_ns(element, &u, &n);
                format!("rename_ns({element:?}, {u:?}, {n:?}) = {result:?}")
            }
            13 | 14 => {
                let t = text(choose);
                format!("set_text({node:?}, {t:?}) = {:?}", doc.set_text(node, &t))
            }
            15 => {
                // A detached element with waiting prefixes on its name and
                // attributes, set with and without namespaces, put under
                // another detached element or left alone.
                let n = waiting_name(choose, doc);
                let id = doc.create_element(&n);
                let mut done = vec![format!("create_element({n:?}) = {id:?}")];
                for _ in 0..=choose.below(3) {
                    let a = waiting_name(choose, doc);
                    let v = text(choose);
                    if choose.below(2) == 0 {
                        let r = doc.set_attribute(id, &a, &v);
                        done.push(format!("set_attribute({id:?}, {a:?}, {v:?}) = {r:?}"));
                    } else {
                        let u = uri(choose, doc);
                        let r = doc.set_attribute_ns(id, &u, &a, &v);
                        done.push(format!(
                            "set_attribute_ns({id:?}, {u:?}, {a:?}, {v:?}) = {r:?}"
                        ));
                    }
                }
                let tops: Vec<NodeId> = detached
                    .iter()
                    .copied()
                    .filter(|&d| doc.node(d).is_some_and(|n| n.is_element()))
                    .collect();
                match pick(choose, &tops) {
                    Some(&under) if choose.below(2) == 0 => {
                        let r = doc.append(under, id);
                        done.push(format!("append({under:?}, {id:?}) = {r:?}"));
                    }
                    _ => {}
                }
                loose.push(id);
                done.join("; ")
            }
            16 => {
                let result = doc.deep_copy(node);
                if let Ok(id) = result {
                    loose.push(id);
                }
                format!("deep_copy({node:?}) = {result:?}")
            }
            17 | 18 => {
                let (other, from, what) = other_document(choose);
                let result = doc.import(&other, from);
                if let Ok(id) = result {
                    loose.push(id);
                }
                format!("import({what}) = {result:?}")
            }
            19 | 20 => {
                let f = fragment(choose, doc);
                let how = choose.below(3);
                let result = match how {
                    0 => doc.append_fragment(element, &f),
                    1 => doc.insert_fragment_before(node, &f),
                    _ => doc.parse_fragment(element, &f).inspect(|parsed| {
                        loose.extend(&parsed.nodes);
                    }),
                };
                let summary = result.map(|r| {
                    let codes: Vec<_> = r.errors.iter().map(|e| e.code.as_str()).collect();
                    (r.nodes, codes)
                });
                format!("fragment#{how}({element:?}/{node:?}, {f:?}) = {summary:?}")
            }
            21 => {
                // Edits through a handle, chained.
                let (n, a, v, t) = (
                    name(choose, doc),
                    name(choose, doc),
                    text(choose),
                    text(choose),
                );
                let how = choose.below(4);
                let result = match doc.node_mut(element) {
                    None => Err(None),
                    Some(mut handle) => match how {
                        0 => handle
                            .append_element(&n)
                            .and_then(|mut child| {
                                child.set_attribute(&a, &v)?.append_text(&t).map(|_| ())
                            })
                            .map_err(Some),
                        1 => handle
                            .rename(&n)
                            .and_then(|h| h.set_text(&t))
                            .map(|_| ())
                            .map_err(Some),
                        2 => match handle.parent_mut() {
                            Some(mut parent) => parent
                                .insert_element_after(&n)
                                .and_then(|mut e| e.append_comment(&t).map(|_| ()))
                                .map_err(Some),
                            None => Err(None),
                        },
                        _ => handle.append_copy(node).map(|_| ()).map_err(Some),
                    },
                };
                format!("handle#{how}({element:?}, {n:?}, {a:?}, {v:?}, {t:?}) = {result:?}")
            }
            22 => {
                // Go on with a copy of the document: it writes what the
                // original writes, and the ids held stay good in it.
                let copy = doc.clone();
                assert_eq!(copy.to_xml(), doc.to_xml(), "a clone writes the same");
                *doc = copy;
                "clone".to_owned()
            }
            _ => {
                let new = match pick(choose, &loose) {
                    Some(&id) => id,
                    None => nodes[choose.below(nodes.len())],
                };
                let result = doc.replace(node, new);
                format!("replace({node:?}, {new:?}) = {result:?}")
            }
        };
        log.push(Step(step));
    }
    (log, loose)
}

/// Parses `text`; if it is well-formed, applies `steps` random edits and
/// checks the promise, panicking with the edits and what broke.
/// Returns whether it ran (the document was well-formed).
pub fn edit_sequence(
    text: &str,
    choose: &mut impl Choose,
    steps: usize,
    elements: Option<usize>,
) -> bool {
    let doc = Document::parse(text);
    if !doc.is_well_formed() {
        return false;
    }
    edits_keep_the_promise(doc, text, choose, steps, elements);
    true
}

/// Shapes that use prefixes without declaring them (each name in the
/// placeholder namespace of its prefix), for
/// [`edit_sequence_after_binding`].
pub const UNDECLARED_SHAPES: &[&str] = &[
    "<rss><channel><dc:creator>A</dc:creator><item dc:id='1'><dc:creator>B</dc:creator><media:content url='u'/></item></channel></rss>",
    "<p:r q:a='1'><p:x><q:y p:b='2'/></p:x><l:z/></p:r>",
    "<r xmlns:p='urn:1'><a><q:b p:c='1' q:c='2'/></a><q:d/><its:e/></r>",
];

/// URIs the prefixes of [`UNDECLARED_SHAPES`] are bound to.
const BOUND_URIS: &[&str] = &[
    "urn:1",
    "urn:one",
    "http://purl.org/dc/elements/1.1/",
    "urn:xml5dom:undeclared:p",
];

/// Parses `text`, binds each prefix it uses undeclared to a URI
/// (`Document::bind_undeclared_prefix`; a refused binding must change
/// nothing), checks that the document then keeps the promise, applies
/// `steps` random edits and checks it again. Returns whether it ran (every
/// undeclared prefix could be bound).
pub fn edit_sequence_after_binding(
    text: &str,
    choose: &mut impl Choose,
    steps: usize,
    elements: Option<usize>,
) -> bool {
    let mut doc = Document::parse(text);
    let mut prefixes: Vec<String> = Vec::new();
    for node in doc.root().descendants().filter(|n| n.is_element()) {
        let names = std::iter::once((node.prefix(), node.namespace())).chain(
            node.attributes()
                .filter(|a| a.declared_prefix().is_none())
                .map(|a| (a.prefix(), a.namespace())),
        );
        for (prefix, uri) in names {
            if let (Some(prefix), Some(uri)) = (prefix, uri) {
                let undeclared =
                    uri.strip_prefix(xml5dom::UNDECLARED_NAMESPACE_BASE) == Some(prefix);
                if undeclared && !prefixes.iter().any(|p| p == prefix) {
                    prefixes.push(prefix.to_owned());
                }
            }
        }
    }
    for prefix in &prefixes {
        let uri = pick(choose, BOUND_URIS).copied().unwrap_or("urn:1");
        let before = dump(doc.root());
        match doc.bind_undeclared_prefix(prefix, uri) {
            Ok(moved) => assert!(moved > 0, "{prefix} is used undeclared in\n{text}"),
            Err(refused) => {
                assert_eq!(dump(doc.root()), before, "refused ({refused}), yet changed");
                return false;
            }
        }
    }
    if let Err(broken) = check_written_back(&doc, elements) {
        panic!("input:\n{text}\nbound: {prefixes:?}\n{broken}");
    }
    edits_keep_the_promise(doc, text, choose, steps, elements);
    true
}

/// Applies `steps` random edits to `doc` (parsed from `text`) and checks
/// the promise, panicking with the edits and what broke.
fn edits_keep_the_promise(
    mut doc: Document,
    text: &str,
    choose: &mut impl Choose,
    steps: usize,
    elements: Option<usize>,
) {
    let (log, loose) = random_edits(&mut doc, choose, steps);
    let checked = check_written_back(&doc, elements)
        .and_then(|_| check_detached(&doc, &loose, choose, elements));
    if let Err(broken) = checked {
        let steps: Vec<&str> = log.iter().map(|s| s.0.as_str()).collect();
        let input: String = text.chars().take(2000).collect();
        panic!("input:\n{input}\nedits:\n{}\n{broken}", steps.join("\n"));
    }
}

/// The detached subtrees among `loose`: each element can be written alone
/// (what cannot be written as it is, such as a prefix still bound to
/// nothing or text not yet checked, is the writer's to repair: such a
/// subtree cannot land either); and each subtree put under an element of
/// the document (of a copy of it), where that is accepted, keeps the
/// promise there.
pub fn check_detached(
    doc: &Document,
    loose: &[NodeId],
    choose: &mut impl Choose,
    elements: Option<usize>,
) -> Result<(), String> {
    let detached = detached_nodes(doc, loose);
    let all: Vec<NodeId> = detached
        .iter()
        .copied()
        .filter(|&id| doc.node(id).is_some_and(|n| n.is_element()))
        .collect();
    let step = (all.len() / elements.unwrap_or(20).max(1)).max(1);
    for &id in all.iter().step_by(step) {
        if let Some(node) = doc.node(id) {
            Document::parse(&node.to_xml());
        }
    }
    let targets: Vec<NodeId> = doc
        .root()
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| n.id())
        .collect();
    // (Two at the most: each landing copies the document.)
    let tops = detached
        .iter()
        .copied()
        .filter(|&id| doc.node(id).is_some_and(|n| n.parent().is_none()))
        .take(2);
    for top in tops {
        let Some(&target) = pick(choose, &targets) else {
            break;
        };
        let mut landed = doc.clone();
        if landed.append(target, top).is_ok() {
            let written = landed.node(top).into_iter().flat_map(|n| {
                std::iter::once(n)
                    .chain(n.descendants())
                    .filter(|n| n.is_element())
            });
            check_whole(&landed)
                .and_then(|_| check_alone(written.take(elements.unwrap_or(usize::MAX))))
                .map_err(|broken| format!("detached {top:?} put under {target:?}:\n{broken}"))?;
        }
    }
    Ok(())
}

/// Choices read from the input's bytes, then from a generator seeded by
/// them.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
    state: u64,
}

impl Choose for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        let byte = match self.data.get(self.at) {
            Some(&b) => u64::from(b),
            None => {
                self.state ^= self.state << 13;
                self.state ^= self.state >> 7;
                self.state ^= self.state << 17;
                self.state
            }
        };
        self.at += 1;
        (byte % n.max(1) as u64) as usize
    }
}

/// The `edits` fuzz target's check (also run on every saved input by
/// `tests/regressions.rs`): the input (if it is a well-formed document,
/// else one of [`SHAPES`] chosen by its first byte) gets up to 24 edits
/// chosen by its bytes, and must then write back as docs/editing.md
/// promises.
pub fn edits(data: &[u8]) {
    let text = std::str::from_utf8(data).ok();
    let doc = text.filter(|t| Document::parse(t).is_well_formed());
    let seed = data.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    let mut choose = Bytes {
        data,
        at: 0,
        state: seed | 1,
    };
    let text = match doc {
        Some(text) => text,
        None => SHAPES[usize::from(data.first().copied().unwrap_or(0)) % SHAPES.len()],
    };
    let steps = 1 + choose.below(24);
    edit_sequence(text, &mut choose, steps, Some(20));
}
