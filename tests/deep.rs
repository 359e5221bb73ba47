//! A document nested 1,000,000 deep must parse, iterate and drop without
//! recursion: everything runs on a thread with a 1 MiB stack, where any
//! recursion over the tree would overflow.

use xml5dom::{Document, Edge};

const DEPTH: usize = 1_000_000;

fn nested(depth: usize) -> String {
    let mut xml = String::with_capacity(depth * 7 + 16);
    for _ in 0..depth {
        xml.push_str("<a>");
    }
    xml.push_str("leaf");
    for _ in 0..depth {
        xml.push_str("</a>");
    }
    xml
}

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(f)
        .expect("spawn a thread")
        .join()
        .expect("no stack overflow or panic");
}

#[test]
fn a_million_deep_document_builds_walks_and_drops_on_a_1_mib_stack() {
    on_small_stack(|| {
        let xml = nested(DEPTH);
        let doc = Document::parse(&xml);
        assert!(doc.errors().is_empty(), "{:?}", &doc.errors()[..1]);

        let root = doc.root_element().expect("a root");
        // Descendants: every element and the text at the bottom.
        assert_eq!(root.descendants().count(), DEPTH);
        assert_eq!(root.descendant_elements().count(), DEPTH - 1);
        let leaf = root.descendants().last().expect("the text");
        assert_eq!(leaf.text(), Some("leaf"));
        assert_eq!(root.text_content(), "leaf");

        // Ancestors of the text: every element, then the document.
        assert_eq!(leaf.ancestors().count(), DEPTH + 1);
        assert_eq!(leaf.ancestor_elements().count(), DEPTH);

        // Open and close edges for the document, the elements and the text.
        let (mut opens, mut closes, mut depth, mut deepest) = (0, 0, 0usize, 0usize);
        for edge in doc.root().traverse() {
            match edge {
                Edge::Open(_) => {
                    opens += 1;
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                Edge::Close(_) => {
                    closes += 1;
                    depth -= 1;
                }
            }
        }
        assert_eq!((opens, closes, deepest), (DEPTH + 2, DEPTH + 2, DEPTH + 2));

        // Children and siblings, and parents back up, along the spine.
        let mut node = root;
        let mut steps = 0;
        while let Some(child) = node.first_child() {
            assert_eq!(node.children().count(), 1);
            assert_eq!(child.following_siblings().count(), 0);
            assert_eq!(child.preceding_siblings().count(), 0);
            assert_eq!(child.parent(), Some(node));
            node = child;
            steps += 1;
        }
        assert_eq!(steps, DEPTH);
        drop(doc);
    });
}

#[test]
fn an_unclosed_million_deep_document_is_closed_at_the_end_of_input() {
    on_small_stack(|| {
        let xml = "<a>".repeat(DEPTH);
        let doc = Document::parse(&xml);
        let codes: Vec<_> = doc.errors().iter().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, ["eof-in-element"]);
        assert_eq!(doc.root().descendants().count(), DEPTH);
    });
}

/// One node of a million-deep document written alone (`Node::to_xml`),
/// with an error in the document, then after an edit at the bottom, which
/// leaves every element above it edited: what the writer gathers before
/// writing (the source of the subtree's nodes) is walked without
/// recursion, and the innermost element costs what it holds.
#[test]
fn a_node_of_a_million_deep_document_is_written_on_a_1_mib_stack() {
    on_small_stack(|| {
        let mut doc = Document::parse(&"<a>".repeat(DEPTH));
        let innermost = doc.root().descendants().last().expect("an element").id();
        let whole = format!("{}{}", "<a>".repeat(DEPTH), "</a>".repeat(DEPTH));
        let root = doc.root_element().expect("a root");
        // (Compared without printing megabytes when they differ.)
        assert!(root.to_xml() == whole, "the root element, as parsed");
        doc.set_attribute(innermost, "x", "1").expect("an element");
        let root = doc.root_element().expect("a root");
        let edited = format!(
            "{}<a x=\"1\">{}",
            "<a>".repeat(DEPTH - 1),
            "</a>".repeat(DEPTH)
        );
        assert!(root.to_xml() == edited, "the root element, edited");
        let innermost = doc.node(innermost).expect("still there");
        assert_eq!(innermost.to_xml(), "<a x=\"1\"></a>");
    });
}
