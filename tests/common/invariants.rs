//! The promises every parsed document keeps, whatever the input was: the
//! checks of `tests/properties.rs`, shared with `tests/hostile.rs`.
//!
//! Each check returns `Err(what is wrong)` rather than panicking, so that the
//! caller can say which input broke it. Nothing here recurses over the tree
//! (the hostile inputs are a million deep).

use xml5dom::{Document, Node, NodeType, Span};

/// Every check below, on a document just parsed (no edits).
pub fn check_document(doc: &Document) -> Result<(), String> {
    check_errors(doc)?;
    check_tree(doc)?;
    check_spans(doc)
}

/// Errors: in offset order, each offset inside the source and on one of its
/// character boundaries, each line and column what `Document::position`
/// says for the offset.
pub fn check_errors(doc: &Document) -> Result<(), String> {
    let source = doc.source();
    let mut previous = 0;
    for error in doc.errors() {
        if error.offset > source.len() || !source.is_char_boundary(error.offset) {
            return Err(format!(
                "{error:?}: offset not a character boundary of the {}-byte source",
                source.len()
            ));
        }
        if error.offset < previous {
            return Err(format!("{error:?} after an error at {previous}"));
        }
        previous = error.offset;
        let position = doc.position(error.offset);
        if (error.line, error.column) != position {
            return Err(format!("{error:?}, but position() says {position:?}"));
        }
    }
    Ok(())
}

fn label(node: Node<'_>) -> String {
    format!("{:?} {:?}", node, node.span())
}

/// The links: walked by hand from the document with `first_child` and
/// `next_sibling` (an explicit stack, no recursion), each node's children
/// point back to it, siblings point at each other both ways, `last_child`
/// is the last of them, `children()` backwards is the same list reversed;
/// `descendants()` and `traverse()` reach as many nodes as the walk. Beyond
/// the links, what the tree builder makes: only elements and the document
/// have children, DOCTYPEs and at most one element sit under the document
/// (and no root element means a `missing-root-element` error), and two text
/// nodes are never siblings side by side (character data is merged).
///
/// Returns the number of nodes, the document included.
pub fn check_tree(doc: &Document) -> Result<usize, String> {
    let root = doc.root();
    if root.parent().is_some() || root.next_sibling().is_some() || root.prev_sibling().is_some() {
        return Err("the document node has a parent or siblings".into());
    }
    let mut count = 0usize;
    let mut stack = vec![root];
    let mut children = Vec::new();
    // Every node once: a loop in the links, or a node under two parents,
    // shows up here instead of as a walk that never ends.
    let mut seen = std::collections::HashSet::new();
    while let Some(node) = stack.pop() {
        count += 1;
        children.clear();
        let mut child = node.first_child();
        let mut previous: Option<Node<'_>> = None;
        while let Some(c) = child {
            if c.parent() != Some(node) {
                return Err(format!(
                    "{} is a child of {} but its parent is {:?}",
                    label(c),
                    label(node),
                    c.parent()
                ));
            }
            if c.prev_sibling() != previous {
                return Err(format!(
                    "{}: previous sibling {:?}, expected {:?}",
                    label(c),
                    c.prev_sibling(),
                    previous
                ));
            }
            if let Some(p) = previous {
                if p.is_text() && c.is_text() {
                    return Err(format!("two text nodes side by side: {p:?} {c:?}"));
                }
            }
            if !seen.insert(c.id()) {
                return Err(format!("{} reached twice", label(c)));
            }
            children.push(c);
            previous = Some(c);
            child = c.next_sibling();
        }
        if node.last_child() != previous {
            return Err(format!(
                "{}: last child {:?}, but the sibling chain ends at {previous:?}",
                label(node),
                node.last_child()
            ));
        }
        if node.has_children() == children.is_empty() {
            return Err(format!("{}: has_children() is wrong", label(node)));
        }
        if !node.children().eq(children.iter().copied()) {
            return Err(format!(
                "{}: children() is not the sibling chain",
                label(node)
            ));
        }
        if !node.children().rev().eq(children.iter().rev().copied()) {
            return Err(format!("{}: children().rev() is not reversed", label(node)));
        }
        match node.node_type() {
            NodeType::Document => {
                let elements = children.iter().filter(|c| c.is_element()).count();
                if elements > 1 {
                    return Err(format!("{elements} elements under the document"));
                }
                let missing = doc
                    .errors()
                    .iter()
                    .any(|e| e.code.as_str() == "missing-root-element");
                if elements == 0 && !missing {
                    return Err("no root element, and no missing-root-element error".into());
                }
            }
            NodeType::Element => {
                if let Some(c) = children.iter().find(|c| c.is_doctype()) {
                    return Err(format!("{c:?} inside {}", label(node)));
                }
            }
            _ if !children.is_empty() => {
                return Err(format!("{} has children", label(node)));
            }
            _ => {}
        }
        if node.is_text() && node.text().is_none_or(str::is_empty) {
            return Err(format!("an empty text node: {}", label(node)));
        }
        stack.extend(children.iter().rev().copied());
    }
    let descendants = root.descendants().count() + 1;
    if descendants != count {
        return Err(format!(
            "descendants() reaches {descendants} nodes, the links {count}"
        ));
    }
    let opened = root
        .traverse()
        .filter(|e| matches!(e, xml5dom::Edge::Open(_)))
        .count();
    if opened != count {
        return Err(format!(
            "traverse() opens {opened} nodes, the links reach {count}"
        ));
    }
    Ok(count)
}

fn within(inner: Span, outer: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Spans. Every node of a parsed document has one; each lies inside the
/// source, on character boundaries, with `start <= end`; the document's is
/// the whole source; every other node's lies inside its parent's, after the
/// end of its previous sibling's; every node but text starts at its `<`.
/// Attributes: their spans lie inside their element's, in order, each value
/// span inside its attribute's. The XML declaration starts the source.
///
/// Nodes made by expanding an entity reference have the span of the
/// reference (the only source they have): it lies in the source and starts
/// with `&`, and siblings from one reference share it, as do their
/// attributes. Attributes an attribute-list default supplied have no span.
pub fn check_spans(doc: &Document) -> Result<(), String> {
    let source = doc.source();
    let in_source = |span: Span| {
        span.start <= span.end
            && span.end <= source.len()
            && source.is_char_boundary(span.start)
            && source.is_char_boundary(span.end)
    };
    if doc.root().span() != Some(Span::new(0, source.len())) {
        return Err(format!("the document's span is {:?}", doc.root().span()));
    }
    if let Some(declaration) = doc.xml_declaration() {
        let span = declaration.span;
        if !in_source(span) || span.start != 0 || !source[span.range()].starts_with("<?") {
            return Err(format!("the XML declaration's span is {span:?}"));
        }
    }
    for node in doc.root().descendants() {
        let Some(span) = node.span() else {
            return Err(format!("{node:?} has no span"));
        };
        if !in_source(span) {
            return Err(format!(
                "{}: not inside the {}-byte source",
                label(node),
                source.len()
            ));
        }
        if node.entity().is_some() {
            if !source[span.range()].starts_with('&') || !source[span.range()].ends_with(';') {
                return Err(format!(
                    "{} from an entity: its span {span:?} is not a reference",
                    label(node)
                ));
            }
            let parent = node.parent().and_then(|p| p.span()).unwrap_or_default();
            if !within(span, parent) {
                return Err(format!(
                    "{} from an entity: not inside its parent's span {parent:?}",
                    label(node)
                ));
            }
            continue;
        }
        let parent = node.parent().and_then(|p| p.span()).unwrap_or_default();
        if !within(span, parent) {
            return Err(format!(
                "{} not inside its parent's span {parent:?}",
                label(node)
            ));
        }
        if let Some(previous) = node.prev_sibling().and_then(|p| p.span()) {
            if previous.end > span.start {
                return Err(format!(
                    "{} overlaps its previous sibling's span {previous:?}",
                    label(node)
                ));
            }
        }
        if !node.is_text() && !source[span.range()].starts_with('<') {
            return Err(format!("{} does not start at a `<`", label(node)));
        }
        let mut end_of_previous = span.start;
        for attribute in node.attributes() {
            if attribute.is_defaulted() {
                if attribute.span().is_some() {
                    return Err(format!("{attribute:?} defaulted, with a span"));
                }
                continue;
            }
            let Some(attribute_span) = attribute.span() else {
                return Err(format!("{attribute:?} of {} has no span", label(node)));
            };
            if !in_source(attribute_span)
                || !within(attribute_span, span)
                || attribute_span.start < end_of_previous
            {
                return Err(format!(
                    "{attribute:?} of {}: span {attribute_span:?} out of place",
                    label(node)
                ));
            }
            end_of_previous = attribute_span.end;
            if let Some(value) = attribute.value_span() {
                if !in_source(value) || !within(value, attribute_span) {
                    return Err(format!(
                        "{attribute:?} of {}: value span {value:?} outside {attribute_span:?}",
                        label(node)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The output of `to_xml()` reparses without errors (docs/serialization.md,
/// "The fixpoint"); with no errors in the first place it is the source
/// itself, when the document was UTF-8 and its declaration says so
/// (otherwise the declaration is made to say UTF-8, docs/encodings.md).
pub fn check_output(doc: &Document) -> Result<(), String> {
    check_output_with(doc, &xml5dom::ParseOptions::default())
}

/// [`check_output`], reading the output again with `options` (a limit the
/// input reached may have left parts of it unchecked, which the same limit
/// leaves unchecked in the output).
pub fn check_output_with(doc: &Document, options: &xml5dom::ParseOptions) -> Result<(), String> {
    let out = doc.to_xml();
    let declared = doc.xml_declaration().and_then(|d| d.encoding.as_deref());
    let utf8 = doc.encoding() == encoding_rs::UTF_8
        && declared.is_none_or(|label| {
            encoding_rs::Encoding::for_label(label.as_bytes()) == Some(encoding_rs::UTF_8)
        });
    // (Errors only: a limit the input reached leaves the output as the
    // source, and the same limit is reached again reading it.)
    let no_errors = |doc: &Document| !doc.errors().iter().any(|e| e.is_error());
    if no_errors(doc) && utf8 && out != doc.source() {
        return Err(format!("well-formed, but the output differs: {out:?}"));
    }
    let again = Document::parse_with(&out, options);
    if !no_errors(&again) {
        let errors: Vec<_> = again.errors().iter().map(|e| (e.offset, e.code)).collect();
        return Err(format!("the output has errors {errors:?}\noutput: {out:?}"));
    }
    Ok(())
}
