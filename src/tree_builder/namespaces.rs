//! Namespace resolution (Namespaces in XML 1.0 and 1.1, which XML5 §1.5
//! leaves to "create an element for the token"): the bindings in scope,
//! what an `xmlns` attribute declares, and the namespace of each element
//! and attribute name.
//!
//! [`Scopes`] keeps a stack of bindings per prefix and a log of what each
//! open element bound, so that closing it undoes its declarations in time
//! proportional to them, not to the depth. The element code in
//! `elements.rs` binds a tag's declarations here
//! ([`TreeBuilder::bind_declarations`]) before it resolves the tag's names
//! ([`TreeBuilder::resolve`], [`TreeBuilder::attribute_namespace`]), and
//! hands the resolved names on to the sink. A prefix bound to nothing
//! resolves to its placeholder namespace in a document (to its registered
//! namespace if it is a well-known prefix, unless the options say
//! otherwise) and to none in a fragment (docs/conformance.md,
//! "Namespaces").

use crate::chars::is_name;
use crate::dom::{NsId, QNameId, XMLNS_NAMESPACE, XMLNS_NS, XML_NAMESPACE, XML_NS};
use crate::dtd::AttributeType;
use crate::error::ErrorCode;
use crate::tokenizer::Tag;

use super::pending::DeclarationKind;
use super::{ParsedAttribute, TreeBuilder, TreeSink};

/// What an attribute is to namespace processing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Declaration<'a> {
    /// An ordinary attribute.
    No,
    /// `xmlns` (prefix `""`) or `xmlns:p`, declaring the prefix.
    Valid(&'a str),
    /// A declaration that Namespaces in XML 1.0 §3 forbids: `xml` bound to
    /// another URI, `xmlns` declared, another prefix bound to either
    /// reserved URI, or a malformed `xmlns:` name.
    Invalid,
}

impl Declaration<'_> {
    fn kind(self) -> DeclarationKind {
        match self {
            Declaration::No => DeclarationKind::No,
            Declaration::Valid(prefix) => DeclarationKind::Valid {
                prefixed: !prefix.is_empty(),
            },
            Declaration::Invalid => DeclarationKind::Invalid,
        }
    }
}

fn declaration<'a>(name: &'a str, uri: &str) -> Declaration<'a> {
    let prefix = if name == "xmlns" {
        ""
    } else if let Some(prefix) = name.strip_prefix("xmlns:") {
        if crate::dom::qname_colon(name).is_none() || !is_name(prefix) {
            return Declaration::Invalid;
        }
        prefix
    } else {
        return Declaration::No;
    };
    let valid = match prefix {
        "xml" => uri == XML_NAMESPACE,
        "xmlns" => false,
        _ => uri != XML_NAMESPACE && uri != XMLNS_NAMESPACE,
    };
    if valid {
        Declaration::Valid(prefix)
    } else {
        Declaration::Invalid
    }
}

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// Brings the namespace declarations of a tag (its first `kept`
    /// attributes, then the `defaults` its attribute-list declarations
    /// supply) into scope, before any of its names is resolved: they apply
    /// to the element's own names. Notes what each written attribute is to
    /// namespace processing, for [`attribute_namespace`](Self::attribute_namespace).
    #[inline]
    pub(super) fn bind_declarations(
        &mut self,
        tag: &Tag<'_>,
        kept: usize,
        defaults: &[(Box<str>, String, AttributeType)],
    ) {
        self.tag_declarations.clear();
        // Most tags declare nothing.
        if self.tag_declares || defaults.iter().any(|(name, ..)| name.starts_with("xmlns")) {
            self.bind_each_declaration(tag, kept, defaults);
        }
    }

    fn bind_each_declaration(
        &mut self,
        tag: &Tag<'_>,
        kept: usize,
        defaults: &[(Box<str>, String, AttributeType)],
    ) {
        let written = tag.attributes.iter().take(kept).map(|a| (a.name, a.value));
        let supplied = defaults.iter().map(|(name, value, _)| (&**name, &**value));
        for (index, (name, value)) in written.chain(supplied).enumerate() {
            let declared = declaration(name, value);
            if index < kept {
                self.tag_declarations.push(declared.kind());
            }
            if let Declaration::Valid(prefix) = declared {
                let namespace = if value.is_empty() {
                    None
                } else {
                    Some(self.sink.names_mut().namespace(value))
                };
                if prefix != "xml" {
                    self.scopes.bind(prefix, namespace);
                }
            }
        }
    }

    /// The namespace of the written attribute at `index` of the tag being
    /// built (named `qname`, valued `value`, at `offset`), reporting what
    /// namespace processing forbids. The declarations are the attributes in
    /// the xmlns namespace.
    #[inline]
    pub(super) fn attribute_namespace(
        &mut self,
        index: usize,
        qname: QNameId,
        value: &str,
        offset: usize,
    ) -> Option<NsId> {
        let declared = self
            .tag_declarations
            .get(index)
            .copied()
            .unwrap_or(DeclarationKind::No);
        match declared {
            DeclarationKind::Valid { prefixed } => {
                if prefixed && value.is_empty() && !self.xml11 {
                    // Namespaces 1.1 undeclares; 1.0 does not allow it.
                    self.error(ErrorCode::PrefixUndeclared, offset);
                }
                Some(XMLNS_NS)
            }
            DeclarationKind::Invalid => {
                self.error(ErrorCode::InvalidNamespaceDeclaration, offset);
                None
            }
            DeclarationKind::No => {
                // Most attributes have no prefix, and so no namespace.
                let data = self.sink.names().qname_data(qname);
                if data.colon.is_none() && !data.bad_colon {
                    None
                } else {
                    self.resolve(qname, false, offset)
                }
            }
        }
    }

    /// The namespace of an attribute an attribute-list default supplies
    /// (`name` as declared, interned as `qname`), reported at the tag's
    /// `offset`.
    pub(super) fn default_attribute_namespace(
        &mut self,
        name: &str,
        value: &str,
        qname: QNameId,
        offset: usize,
    ) -> Option<NsId> {
        match declaration(name, value) {
            Declaration::Valid(_) => Some(XMLNS_NS),
            Declaration::Invalid => {
                self.error(ErrorCode::InvalidNamespaceDeclaration, offset);
                None
            }
            Declaration::No => self.resolve(qname, false, offset),
        }
    }

    /// Whether an attribute already resolved for this tag (in `resolved`)
    /// has the namespace `ns` and the local name of `qname` (Namespaces in
    /// XML 1.0 §6.3: "no element must have two attributes with the same
    /// expanded name").
    pub(super) fn is_duplicate(
        &mut self,
        resolved: &[ParsedAttribute<'_>],
        ns: NsId,
        qname: QNameId,
    ) -> bool {
        let names = self.sink.names();
        let local = names.local_of(qname);
        if resolved.len() < 32 {
            return resolved.iter().any(|r| {
                names.name_data(r.name).namespace == Some(ns) && names.local(r.name) == local
            });
        }
        // Many attributes: a set, filled once for this tag.
        if self.seen_attributes.is_empty() {
            for r in resolved {
                if let Some(ns) = names.name_data(r.name).namespace {
                    self.seen_attributes
                        .insert((ns, names.local(r.name).into()));
                }
            }
        }
        !self.seen_attributes.insert((ns, local.into()))
    }

    /// The namespace of a name, reporting what cannot be resolved.
    pub(super) fn resolve(&mut self, qname: QNameId, element: bool, offset: usize) -> Option<NsId> {
        /// What the prefix is, taken out of the borrowed name.
        enum Prefix {
            None,
            Xml,
            Xmlns,
            Other,
        }
        let data = self.sink.names().qname_data(qname);
        if data.bad_colon {
            self.error(ErrorCode::InvalidQualifiedName, offset);
            return None;
        }
        let prefix = match data.colon {
            None => Prefix::None,
            Some(c) => match &data.text[..c] {
                "xml" => Prefix::Xml,
                "xmlns" => Prefix::Xmlns,
                _ => Prefix::Other,
            },
        };
        match prefix {
            Prefix::None if element => self
                .scopes
                .slot("")
                .and_then(|slot| self.scopes.get_slot(slot).copied())
                .flatten(),
            Prefix::None => None,
            Prefix::Xml => Some(XML_NS),
            Prefix::Xmlns => {
                self.error(ErrorCode::InvalidQualifiedName, offset);
                None
            }
            Prefix::Other => match self.prefix_binding(qname) {
                Some(Some(ns)) => Some(ns),
                _ => {
                    self.error(ErrorCode::UnboundNamespacePrefix, offset);
                    self.undeclared(qname)
                }
            },
        }
    }

    /// The namespace of a name whose prefix nothing declares: in a
    /// document, the registered namespace of a well-known prefix
    /// ([`crate::dom::well_known_namespace`]), as feed readers take it,
    /// unless the options ask for the placeholder; else the placeholder of
    /// its prefix ([`crate::dom::undeclared_namespace`]). The writer
    /// declares either where the name needs it, and queries select by it.
    /// In a fragment, none, so that the prefix waits to be resolved where
    /// the nodes land (docs/editing.md).
    fn undeclared(&mut self, qname: QNameId) -> Option<NsId> {
        if self.fragment {
            return None;
        }
        let index = qname.0 as usize;
        if let Some(&Some(known)) = self.undeclared_namespaces.get(index) {
            return Some(known);
        }
        let data = self.sink.names().qname_data(qname);
        let prefix = data.colon.map_or("", |c| &data.text[..c]);
        let registered = crate::dom::well_known_namespace(prefix)
            .filter(|_| self.well_known_prefixes)
            .map(std::borrow::Cow::Borrowed);
        let uri = registered
            .unwrap_or_else(|| std::borrow::Cow::Owned(crate::dom::undeclared_namespace(prefix)));
        let namespace = self.sink.names_mut().namespace(&uri);
        if self.undeclared_namespaces.len() <= index {
            self.undeclared_namespaces.resize(index + 1, None);
        }
        self.undeclared_namespaces[index] = Some(namespace);
        Some(namespace)
    }

    /// The binding in scope for the prefix of `qname`, remembering where its
    /// bindings are kept.
    fn prefix_binding(&mut self, qname: QNameId) -> Option<Option<NsId>> {
        let index = qname.0 as usize;
        if let Some(&slot) = self.prefix_slots.get(index) {
            if slot != u32::MAX {
                return self.scopes.get_slot(slot as usize).copied();
            }
        }
        let data = self.sink.names().qname_data(qname);
        let prefix = data.colon.map_or("", |c| &data.text[..c]);
        let slot = self.scopes.slot(prefix)?;
        if self.prefix_slots.len() <= index {
            self.prefix_slots.resize(index + 1, u32::MAX);
        }
        self.prefix_slots[index] = u32::try_from(slot).unwrap_or(u32::MAX);
        self.scopes.get_slot(slot).copied()
    }
}
