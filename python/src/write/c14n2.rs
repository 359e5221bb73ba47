//! Canonical XML 2.0 (<https://www.w3.org/TR/xml-c14n2/>) of a document
//! or a subtree, as lxml's `tostring(method="c14n2")` and
//! `etree.canonicalize()` write it: UTF-8 without XML declaration or
//! DOCTYPE, empty elements as start and end tag, attributes sorted by
//! namespace URI and local name, and a namespace declared only where a
//! name written there uses it and the output does not bind it already.
//! The parameters: comments or not, text stripped of surrounding
//! whitespace or not, prefixes rewritten to `n0`, `n1`, ... or not, the
//! elements and attributes whose content is a QName (its prefix counts as
//! used, and is rewritten with the others), and elements and attributes
//! left out (`canonicalize`'s `exclude_tags` and `exclude_attrs`).
//!
//! One walk over the library's public tree, without recursion; the scopes
//! are maps with an undo log, so that the work stays linear in the depth.

use std::collections::{HashMap, HashSet};

use xml5dom::{Node, NodeType, XML_NAMESPACE};

/// What C14N 2.0 is asked for.
#[derive(Default)]
pub(crate) struct C14n2Options {
    pub(crate) with_comments: bool,
    pub(crate) strip_text: bool,
    pub(crate) rewrite_prefixes: bool,
    /// Elements whose text is a QName, as `{uri}local` or `local`.
    pub(crate) qname_aware_tags: HashSet<String>,
    /// Attributes whose value is a QName, as `{uri}local` or `local`.
    pub(crate) qname_aware_attrs: HashSet<String>,
    /// Elements left out with everything in them (not their tail).
    pub(crate) exclude_tags: HashSet<String>,
    /// Attributes left out.
    pub(crate) exclude_attrs: HashSet<String>,
}

/// Prefix bindings with an undo log: `bind` pushes, `unwind` pops back to
/// a mark.
#[derive(Default)]
struct Scope {
    bound: HashMap<String, Vec<String>>,
    log: Vec<String>,
}

impl Scope {
    fn get(&self, prefix: &str) -> Option<&str> {
        self.bound
            .get(prefix)
            .and_then(|uris| uris.last())
            .map(String::as_str)
    }

    fn bind(&mut self, prefix: &str, uri: &str) {
        self.bound
            .entry(prefix.to_string())
            .or_default()
            .push(uri.to_string());
        self.log.push(prefix.to_string());
    }

    fn mark(&self) -> usize {
        self.log.len()
    }

    fn unwind(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some(prefix) = self.log.pop() {
                if let Some(uris) = self.bound.get_mut(&prefix) {
                    uris.pop();
                }
            }
        }
    }
}

/// One canonicalization under way.
struct Writer<'o> {
    options: &'o C14n2Options,
    out: String,
    /// The namespace declarations of the input in scope, for the prefixes
    /// of QName values.
    input: Scope,
    /// What the output declares in scope.
    output: Scope,
    /// With `rewrite_prefixes`: the prefix given to each namespace URI.
    rewritten: HashMap<String, String>,
    /// Per open element: the marks of both scopes.
    open: Vec<(usize, usize)>,
    /// Per open element: whether `xml:space="preserve"` is in effect
    /// (`strip_text` leaves such text alone, as lxml does).
    preserve: Vec<bool>,
    /// The text since the last markup written.
    pending: String,
}

/// The canonical form of `start`: the document node (the whole document)
/// or an element (its subtree, with the namespaces it uses declared).
pub(crate) fn canonicalize(start: Node<'_>, options: &C14n2Options) -> String {
    let mut writer = Writer {
        options,
        out: String::new(),
        input: Scope::default(),
        output: Scope::default(),
        rewritten: HashMap::new(),
        open: Vec::new(),
        preserve: Vec::new(),
        pending: String::new(),
    };
    writer.output.bind("", "");
    if start.is_document() {
        writer.document(start);
    } else {
        writer.bind_ancestors(start);
        writer.subtree(start);
    }
    writer.flush(start);
    writer.out
}

impl Writer<'_> {
    /// The children of the document: the root element's subtree, and the
    /// comments and processing instructions around it, each on a line of
    /// its own.
    fn document(&mut self, document: Node<'_>) {
        let mut first = true;
        for child in document.children() {
            let written = match child.node_type() {
                NodeType::Element => true,
                NodeType::Comment => self.options.with_comments,
                NodeType::ProcessingInstruction => true,
                _ => false,
            };
            if !written {
                continue;
            }
            // One node a line: a line break between each and the next.
            if !first {
                self.out.push('\n');
            }
            first = false;
            if child.is_element() {
                self.subtree(child);
            } else {
                self.leaf(child);
            }
        }
    }

    /// The input's declarations in scope above a subtree written alone,
    /// outermost first.
    fn bind_ancestors(&mut self, start: Node<'_>) {
        let ancestors: Vec<Node<'_>> = start.ancestors().filter(Node::is_element).collect();
        for element in ancestors.into_iter().rev() {
            self.bind_input(element);
        }
    }

    fn bind_input(&mut self, element: Node<'_>) {
        for attribute in element.attributes() {
            if let Some(declared) = attribute.declared_prefix() {
                self.input.bind(declared.unwrap_or(""), attribute.value());
            }
        }
    }

    /// Writes `start` and what is below it, without recursion.
    fn subtree(&mut self, start: Node<'_>) {
        let mut node = start;
        'walk: loop {
            match node.node_type() {
                NodeType::Element if self.excluded(&self.options.exclude_tags, node) => {}
                NodeType::Element => {
                    self.start_tag(node);
                    if let Some(child) = node.first_child() {
                        node = child;
                        continue 'walk;
                    }
                    self.end_tag(node);
                }
                // Text is written when markup follows: the text on either side
                // of what is left out is one text, as lxml has it.
                NodeType::Text => self.pending.push_str(node.text().unwrap_or("")),
                NodeType::Comment if !self.options.with_comments => {}
                NodeType::Comment | NodeType::ProcessingInstruction => self.leaf(node),
                NodeType::Document | NodeType::Doctype => {}
            }
            loop {
                if node == start {
                    return;
                }
                if let Some(next) = node.next_sibling() {
                    node = next;
                    continue 'walk;
                }
                match node.parent() {
                    Some(parent) => {
                        node = parent;
                        self.end_tag(node);
                    }
                    None => return,
                }
            }
        }
    }

    fn leaf(&mut self, node: Node<'_>) {
        if let Some(parent) = node.parent() {
            self.flush(parent);
        }
        if node.is_comment() {
            self.out.push_str("<!--");
            self.out.push_str(node.text().unwrap_or(""));
            self.out.push_str("-->");
        } else {
            self.out.push_str("<?");
            self.out.push_str(node.name());
            let data = node.text().unwrap_or("");
            if !data.is_empty() {
                self.out.push(' ');
                self.out.push_str(data);
            }
            self.out.push_str("?>");
        }
    }

    /// The prefix the output writes `uri` with (`""`: the default
    /// namespace), given the prefix the input wrote.
    fn output_prefix(&mut self, input_prefix: Option<&str>, uri: &str) -> String {
        if uri == XML_NAMESPACE {
            return "xml".to_string();
        }
        if !self.options.rewrite_prefixes {
            return input_prefix.unwrap_or("").to_string();
        }
        if uri.is_empty() {
            return String::new();
        }
        if let Some(prefix) = self.rewritten.get(uri) {
            return prefix.clone();
        }
        let prefix = format!("n{}", self.rewritten.len());
        self.rewritten.insert(uri.to_string(), prefix.clone());
        prefix
    }

    /// A QName value (`p:local` or `local`) resolved in the input's scope,
    /// and written with the output's prefix; the binding it needs is added
    /// to `needed`. A prefix nothing declares leaves the value as it is.
    fn qname_value(&mut self, value: &str, needed: &mut Vec<(String, String)>) -> String {
        let (prefix, local) = match value.split_once(':') {
            Some((prefix, local)) => (Some(prefix), local),
            None => (None, value),
        };
        let Some(uri) = self.input.get(prefix.unwrap_or("")).map(str::to_string) else {
            return value.to_string();
        };
        if uri.is_empty() {
            return value.to_string();
        }
        // Without rewriting, a new prefix for the URI would be needed for
        // every prefix; with it, new URIs get their numbers in order.
        let out_prefix = self.output_prefix(prefix, &uri);
        needed.push((out_prefix.clone(), uri));
        if out_prefix.is_empty() {
            local.to_string()
        } else {
            format!("{out_prefix}:{local}")
        }
    }

    fn start_tag(&mut self, node: Node<'_>) {
        if let Some(parent) = node.parent() {
            self.flush(parent);
        }
        self.open.push((self.input.mark(), self.output.mark()));
        let preserve = match node.attribute_ns(XML_NAMESPACE, "space") {
            Some("preserve") => true,
            Some("default") => false,
            _ => match self.preserve.last() {
                Some(&inherited) => inherited,
                None => {
                    node.ancestors()
                        .filter_map(|a| a.attribute_ns(XML_NAMESPACE, "space"))
                        .next()
                        == Some("preserve")
                }
            },
        };
        self.preserve.push(preserve);
        self.bind_input(node);

        // With rewriting, the URIs an element uses for the first time are
        // numbered in their sorted order.
        if self.options.rewrite_prefixes {
            let mut fresh: Vec<&str> = std::iter::once(node.namespace())
                .chain(
                    node.attributes()
                        .filter(|a| a.declared_prefix().is_none())
                        .map(|a| a.namespace()),
                )
                .flatten()
                .filter(|uri| *uri != XML_NAMESPACE && !self.rewritten.contains_key(*uri))
                .collect();
            fresh.sort_unstable();
            fresh.dedup();
            for uri in fresh {
                self.output_prefix(None, uri);
            }
        }

        let mut needed: Vec<(String, String)> = Vec::new();
        let uri = node.namespace().unwrap_or("");
        let prefix = self.output_prefix(node.prefix(), uri);
        needed.push((prefix.clone(), uri.to_string()));
        let name = qualified(&prefix, node.local_name());

        let mut attributes: Vec<(String, String, String, String)> = Vec::new();
        for attribute in node.attributes() {
            if attribute.declared_prefix().is_some() {
                continue;
            }
            let uri = attribute.namespace().unwrap_or("");
            let local = attribute.local_name();
            if self.names_qname(&self.options.exclude_attrs, uri, local) {
                continue;
            }
            let prefix = if uri.is_empty() {
                String::new()
            } else {
                let prefix = self.output_prefix(attribute.prefix(), uri);
                if prefix != "xml" {
                    needed.push((prefix.clone(), uri.to_string()));
                }
                prefix
            };
            let mut value = attribute.value().to_string();
            if self.names_qname(&self.options.qname_aware_attrs, uri, local) {
                value = self.qname_value(&value, &mut needed);
            }
            attributes.push((
                uri.to_string(),
                local.to_string(),
                qualified(&prefix, local),
                value,
            ));
        }
        if self.names_qname(&self.options.qname_aware_tags, uri, node.local_name()) {
            if let Some(text) = crate::nodes::text_run(node.first_child()) {
                let trimmed = text.trim_matches(xml_space);
                if !trimmed.is_empty() {
                    self.qname_value(trimmed, &mut needed);
                }
            }
        }

        let mut declarations: Vec<(String, String)> = Vec::new();
        for (prefix, uri) in needed {
            if prefix == "xml" || self.output.get(&prefix) == Some(uri.as_str()) {
                continue;
            }
            if prefix.is_empty() && uri.is_empty() && self.output.get("").is_none_or(str::is_empty)
            {
                continue;
            }
            self.output.bind(&prefix, &uri);
            declarations.push((prefix, uri));
        }
        declarations.sort();
        declarations.dedup();
        attributes.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));

        self.out.push('<');
        self.out.push_str(&name);
        for (prefix, uri) in &declarations {
            self.out.push_str(if prefix.is_empty() {
                " xmlns"
            } else {
                " xmlns:"
            });
            self.out.push_str(prefix);
            self.out.push_str("=\"");
            escape_attribute(&mut self.out, uri);
            self.out.push('"');
        }
        for (_, _, name, value) in &attributes {
            self.out.push(' ');
            self.out.push_str(name);
            self.out.push_str("=\"");
            escape_attribute(&mut self.out, value);
            self.out.push('"');
        }
        self.out.push('>');
    }

    fn end_tag(&mut self, node: Node<'_>) {
        self.flush(node);
        let uri = node.namespace().unwrap_or("");
        let prefix = if self.options.rewrite_prefixes {
            self.rewritten.get(uri).cloned().unwrap_or_default()
        } else if uri == XML_NAMESPACE {
            "xml".to_string()
        } else {
            node.prefix().unwrap_or("").to_string()
        };
        self.out.push_str("</");
        self.out.push_str(&qualified(&prefix, node.local_name()));
        self.out.push('>');
        self.preserve.pop();
        if let Some((input, output)) = self.open.pop() {
            self.input.unwind(input);
            self.output.unwind(output);
        }
    }

    /// Writes the text since the last markup, whose element is `parent`.
    fn flush(&mut self, parent: Node<'_>) {
        if self.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        let mut text = pending.as_str();
        if self.options.strip_text && self.preserve.last() != Some(&true) {
            text = text.trim_matches(xml_space);
        }
        if text.is_empty() {
            return;
        }
        let parent = Some(parent).filter(Node::is_element);
        let qname = parent.is_some_and(|p| {
            self.names_qname(
                &self.options.qname_aware_tags,
                p.namespace().unwrap_or(""),
                p.local_name(),
            )
        });
        if qname && self.options.rewrite_prefixes {
            let trimmed = text.trim_matches(xml_space);
            let mut ignored = Vec::new();
            let rewritten = self.qname_value(trimmed, &mut ignored);
            let start = text.len() - text.trim_start_matches(xml_space).len();
            let end = start + trimmed.len();
            let whole = format!("{}{}{}", &text[..start], rewritten, &text[end..]);
            escape_text(&mut self.out, &whole);
            return;
        }
        escape_text(&mut self.out, text);
    }

    /// Whether `names` holds the element `node`'s name.
    fn excluded(&self, names: &HashSet<String>, node: Node<'_>) -> bool {
        self.names_qname(names, node.namespace().unwrap_or(""), node.local_name())
    }

    /// Whether `names` holds `{uri}local` (`local` when `uri` is empty).
    fn names_qname(&self, names: &HashSet<String>, uri: &str, local: &str) -> bool {
        if names.is_empty() {
            return false;
        }
        if uri.is_empty() {
            names.contains(local)
        } else {
            names.contains(&format!("{{{uri}}}{local}"))
        }
    }
}

fn xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn qualified(prefix: &str, local: &str) -> String {
    if prefix.is_empty() {
        local.to_string()
    } else {
        format!("{prefix}:{local}")
    }
}

fn escape_text(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#xD;"),
            _ => out.push(c),
        }
    }
}

fn escape_attribute(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#x9;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            _ => out.push(c),
        }
    }
}
