//! Namespace fixup: the output's namespace scopes, so that every name
//! resolves to the same namespace when the output is parsed again, also
//! after edits that moved nodes between scopes or renamed them.
//!
//! The writer keeps a [`Scopes`] as it walks: it binds each element's
//! declarations on the way down and unwinds them on the way up, asks
//! whether a subtree can be copied from the source as it is
//! ([`Scopes::subtree_resolves`]), and, for a start tag written out, what
//! it needs beyond its own markup ([`Scopes::fixup`]): declarations to add,
//! new prefixes where the element's own declarations are in the way or a
//! namespaced attribute has none, the placeholder namespace for a prefix
//! nothing declared. It hands that on as a [`Fixup`] for the writer to
//! write; of the output it writes only the declarations
//! ([`push_declarations`]).

use std::collections::HashSet;

use crate::dom::{is_namespace_of_undeclared, Attribute, Node, XMLNS_NAMESPACE, XML_NAMESPACE};

use super::escape::{push_attribute_value, repaired_name, written_element_name, Version};

/// Namespace bindings of the output, as the writer goes down and up the
/// tree.
pub(super) struct Scopes {
    /// Edits happened (or a subtree is written alone): check namespace
    /// scopes before copying source.
    pub(super) check: bool,
    /// Namespace bindings in the output: per prefix (`""` for the
    /// default), the URIs bound (`""` for none).
    bindings: crate::scope::Scopes<Box<str>>,
    /// Elements whose subtree [`subtree_resolves`](Self::subtree_resolves)
    /// found a name in that does not resolve.
    unresolved: HashSet<crate::dom::NodeId>,
    generated_prefixes: usize,
}

impl Scopes {
    /// No bindings yet; `check` says whether to check scopes before copying.
    pub(super) fn new(check: bool) -> Scopes {
        Scopes {
            check,
            bindings: crate::scope::Scopes::default(),
            unresolved: Default::default(),
            generated_prefixes: 0,
        }
    }

    /// Where the binding log stands, to [`unwind`](Self::unwind) to.
    pub(super) fn mark(&self) -> usize {
        self.bindings.mark()
    }

    fn lookup(&self, prefix: &str) -> &str {
        match prefix {
            "xml" => XML_NAMESPACE,
            "xmlns" => XMLNS_NAMESPACE,
            _ => self.bindings.get(prefix).map_or("", |uri| uri),
        }
    }

    fn bind(&mut self, prefix: &str, uri: &str) {
        self.bindings.bind(prefix, uri.into());
    }

    pub(super) fn unwind(&mut self, mark: usize) {
        self.bindings.unwind(mark);
    }

    /// Binds the namespace declarations among an element's attributes (but
    /// `xmlns:p=""`, which Namespaces 1.0 cannot write: it is written under
    /// another name).
    pub(super) fn bind_declarations(&mut self, element: Node<'_>) {
        for attribute in element.attributes() {
            if let Some(prefix) = attribute.declared_prefix() {
                if !undeclares_prefix(attribute) {
                    self.bind(prefix.unwrap_or(""), attribute.value());
                }
            }
        }
    }

    /// Whether an element's own names resolve in the output as in the tree,
    /// given the bindings in effect (its own declarations included).
    fn names_resolve(&self, element: Node<'_>) -> bool {
        let element_ok = match element.namespace() {
            Some(uri) => self.lookup(element.prefix().unwrap_or("")) == uri,
            None => element.prefix().is_none() && self.lookup("").is_empty(),
        };
        element_ok
            && element.attributes().all(|a| {
                if a.declared_prefix().is_some() {
                    return true;
                }
                match (a.prefix(), a.namespace()) {
                    (Some(prefix), Some(uri)) => self.lookup(prefix) == uri,
                    (None, None) => true,
                    _ => false,
                }
            })
    }

    /// Whether a clean subtree can be copied from the source as it is: every
    /// name in it resolves in the output as in the tree.
    pub(super) fn subtree_resolves(&mut self, root: Node<'_>) -> bool {
        if !self.check {
            return true;
        }
        if self.unresolved.contains(&root.id()) {
            return false;
        }
        let mark = self.bindings.mark();
        let mut marks = Vec::new();
        let mut ok = true;
        for edge in root.traverse() {
            match edge {
                crate::dom::Edge::Open(node) if node.is_element() => {
                    marks.push(self.bindings.mark());
                    self.bind_declarations(node);
                    if !self.names_resolve(node) {
                        ok = false;
                        // The elements from `root` down to this one fail
                        // too when the walk asks, one level further down
                        // each time: it knows without looking again (so a
                        // deep subtree is looked through once, not once per
                        // level). Their scopes in the output are the ones
                        // looked at here, since each of them resolved.
                        let mut on_path = Some(node);
                        while let Some(element) = on_path {
                            self.unresolved.insert(element.id());
                            on_path = element.parent().filter(|_| element != root);
                        }
                        break;
                    }
                }
                crate::dom::Edge::Close(node) if node.is_element() => {
                    if let Some(m) = marks.pop() {
                        self.unwind(m);
                    }
                }
                _ => {}
            }
        }
        self.unwind(mark);
        ok
    }

    /// What an element needs in the output beyond its own markup: namespace
    /// declarations, and new prefixes where its own declarations are in the
    /// way or a namespaced attribute has none. Binds as it goes, and counts
    /// the prefixes given the placeholder namespace for the writer to report.
    pub(super) fn fixup(&mut self, node: Node<'_>) -> Fixup {
        let mut fixup = Fixup::default();
        // Prefixes the element's own declarations bind: those cannot be
        // bound again on it.
        let own: HashSet<String> = node
            .attributes()
            .filter(|&a| !undeclares_prefix(a))
            .filter_map(|a| a.declared_prefix().map(|p| p.unwrap_or("").to_owned()))
            .collect();

        // The element's name as it will be written (repaired if it must be):
        // its prefix is what needs a binding.
        let written = written_element_name(node.name(), node.prefix().is_some());
        let (written_prefix, written_local) = match crate::dom::qname_colon(&written) {
            Some(colon) => (Some(&written[..colon]), &written[colon + 1..]),
            None => (None, written.as_str()),
        };
        let renamed = written != node.name();
        match (written_prefix, node.namespace()) {
            (prefix, Some(uri)) => {
                self.count_undeclared(&mut fixup, prefix.unwrap_or(""), uri);
                if let Some(new) = self.need(&mut fixup, &own, prefix.unwrap_or(""), uri) {
                    fixup.element_name = Some(format!("{new}:{written_local}"));
                }
            }
            // A name repaired into one without a prefix (`n:`, `xmlns:a`)
            // takes the default namespace in scope (reported as a repair
            // that changes the tree).
            (None, None) if renamed => {}
            (None, None) => {
                self.need(&mut fixup, &own, "", "");
            }
            (Some(prefix), None) => {
                // (Bound to something else in the output, after an
                // `xmlns:p=""` written under another name.)
                let uri = placeholder_namespace(prefix);
                if self.lookup(prefix) != uri {
                    fixup.undeclared += 1;
                    if let Some(new) = self.need(&mut fixup, &own, prefix, &uri) {
                        fixup.element_name = Some(format!("{new}:{written_local}"));
                    }
                }
            }
        }
        for (index, attribute) in node.attributes().enumerate() {
            if attribute.declared_prefix().is_some() || forbidden_declaration(attribute.name()) {
                continue; // a declaration, or written under another name
            }
            let prefix = attribute.prefix().map(repaired_name);
            match (prefix, attribute.namespace()) {
                (Some(prefix), Some(uri)) => {
                    self.count_undeclared(&mut fixup, &prefix, uri);
                    if let Some(new) = self.need(&mut fixup, &own, &prefix, uri) {
                        fixup
                            .attribute_names
                            .push((index, format!("{new}:{}", attribute.local_name())));
                    }
                }
                (None, Some(uri)) => {
                    // A namespaced attribute needs a prefix.
                    let new = self.fresh_prefix(&own);
                    self.bind(&new, uri);
                    fixup.declare(&new, uri);
                    fixup
                        .attribute_names
                        .push((index, format!("{new}:{}", attribute.local_name())));
                }
                (Some(prefix), None) => {
                    let uri = placeholder_namespace(&prefix);
                    if self.lookup(&prefix) != uri {
                        fixup.undeclared += 1;
                        if let Some(new) = self.need(&mut fixup, &own, &prefix, &uri) {
                            let local = repaired_name(attribute.local_name());
                            fixup
                                .attribute_names
                                .push((index, format!("{new}:{local}")));
                        }
                    }
                }
                (None, None) => {}
            }
        }
        fixup
    }

    /// Counts a name whose prefix nothing declared (it is in the prefix's
    /// placeholder namespace, or in the registered namespace of a
    /// well-known prefix) where the output does not bind it yet: its
    /// declaration is a repair to report.
    fn count_undeclared(&self, fixup: &mut Fixup, prefix: &str, uri: &str) {
        if is_namespace_of_undeclared(prefix, uri) && self.lookup(prefix) != uri {
            fixup.undeclared += 1;
        }
    }

    /// Makes `prefix` mean `uri` in the output: nothing if it already does,
    /// a declaration if it can be added, or a new prefix (returned) if the
    /// element's own declarations bind it otherwise.
    fn need(
        &mut self,
        fixup: &mut Fixup,
        own: &HashSet<String>,
        prefix: &str,
        uri: &str,
    ) -> Option<String> {
        if prefix == "xml" || self.lookup(prefix) == uri {
            return None;
        }
        let taken = own.contains(prefix) || fixup.declared.contains(prefix);
        if !taken {
            self.bind(prefix, uri);
            fixup.declare(prefix, uri);
            return None;
        }
        let new = self.fresh_prefix(own);
        self.bind(&new, uri);
        fixup.declare(&new, uri);
        Some(new)
    }

    fn fresh_prefix(&mut self, own: &HashSet<String>) -> String {
        loop {
            self.generated_prefixes += 1;
            let prefix = format!("ns{}", self.generated_prefixes);
            if self.lookup(&prefix).is_empty() && !own.contains(&prefix) {
                return prefix;
            }
        }
    }
}

/// The changes an element's start tag needs in the output.
#[derive(Default)]
pub(super) struct Fixup {
    /// Namespace declarations to add: `(prefix, uri)`.
    pub(super) declarations: Vec<(String, String)>,
    /// A new name for the element (a new prefix).
    pub(super) element_name: Option<String>,
    /// New names for attributes, by index, in index order.
    attribute_names: Vec<(usize, String)>,
    /// The prefixes of `declarations` (an element may need thousands).
    declared: HashSet<String>,
    /// How many prefixes of the element's names nothing declared and were
    /// declared with their namespace (the placeholder, or the registered
    /// one of a well-known prefix): a repair to report for each.
    pub(super) undeclared: usize,
}

impl Fixup {
    /// The new name of the attribute at `index`, if it has one.
    pub(super) fn attribute_name(&self, index: usize) -> Option<&str> {
        let at = self
            .attribute_names
            .binary_search_by_key(&index, |&(i, _)| i)
            .ok()?;
        Some(&self.attribute_names[at].1)
    }

    /// Adds the declaration of `prefix` for `uri`.
    fn declare(&mut self, prefix: &str, uri: &str) {
        self.declared.insert(prefix.to_owned());
        self.declarations.push((prefix.to_owned(), uri.to_owned()));
    }

    pub(super) fn renames_nothing(&self) -> bool {
        self.element_name.is_none() && self.attribute_names.is_empty()
    }
}

/// Writes the namespace declarations `extra`, each as ` xmlns:p="uri"`.
pub(super) fn push_declarations(out: &mut String, extra: &[(String, String)], version: Version) {
    for (prefix, uri) in extra {
        out.push_str(" xmlns");
        if !prefix.is_empty() {
            out.push(':');
            out.push_str(prefix);
        }
        out.push_str("=\"");
        push_attribute_value(out, uri, b'"', version, &mut false);
        out.push('"');
    }
}

/// The placeholder namespace for a prefix that had none.
fn placeholder_namespace(prefix: &str) -> String {
    crate::dom::undeclared_namespace(prefix)
}

/// `xmlns:p=""`: a declaration that undeclares a prefix, which only
/// Namespaces 1.1 allows.
pub(super) fn undeclares_prefix(attribute: Attribute<'_>) -> bool {
    matches!(attribute.declared_prefix(), Some(Some(_))) && attribute.value().is_empty()
}

/// An attribute named like a namespace declaration that is not one (the
/// tree builder found it forbidden): it cannot be written under that name.
pub(super) fn forbidden_declaration(name: &str) -> bool {
    name == "xmlns" || name.starts_with("xmlns:")
}
