//! What attribute-list declarations do to an element's attributes (XML 1.0
//! §3.3): a declared type other than `CDATA` collapses whitespace in the
//! value (§3.3.3), `ID` marks the attribute for XPath's `id()`, and a
//! declared default supplies an attribute the tag lacks (marked as
//! defaulted, so the serializer leaves it to the DTD).
//!
//! Names are compared as written (the DTD knows no namespaces); a default
//! that declares a namespace (`xmlns:x`) declares it for the element as if
//! it were in the tag.

use std::collections::{HashMap, HashSet};

use crate::dtd::{AttributeType, Declarations, DefaultValue, ExpansionMode};
use crate::error::ErrorCode;
use crate::tokenizer::Tag;

use super::{TreeBuilder, TreeSink};

/// The declarations that apply to one tag.
#[derive(Default)]
pub(super) struct Declared {
    /// By index of the tag's kept attributes: the declared type, if any.
    pub(super) types: Vec<Option<AttributeType>>,
    /// Attributes the defaults add: name, value (normalized), type.
    pub(super) defaults: Vec<(Box<str>, String, AttributeType)>,
}

/// What adding one attribute from a default costs in the expansion budget
/// besides its name and value: about what the tree keeps for it.
const DEFAULT_ATTRIBUTE_COST: usize = 56;

/// Collapses whitespace as XML 1.0 §3.3.3 does for tokenized types: no
/// space at either end, single spaces between tokens.
pub(super) fn collapse_spaces(value: &str) -> Option<String> {
    let needed = value.starts_with(' ') || value.ends_with(' ') || value.contains("  ");
    needed.then(|| {
        value
            .split(' ')
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// The attribute-list declarations for `element` (its name as written)
    /// applied to the first `kept` attributes of `tag`.
    pub(super) fn declared_attributes(
        &mut self,
        element: &str,
        tag: &Tag<'_>,
        kept: usize,
    ) -> Option<Declared> {
        let declarations = self.declarations.clone()?;
        let list = declarations.attribute_list(element)?;
        let mut declared = Declared {
            types: vec![None; kept],
            defaults: Vec::new(),
        };
        // The definitions the tag's own attributes match (by name as
        // written; the subset parser kept the first of each name). The
        // element's name is looked up once per tag: it may be long.
        let positions = declarations.attribute_positions(element);
        let mut present = HashSet::new();
        for (slot, attribute) in tag.attributes.iter().take(kept).enumerate() {
            if let Some(&d) = positions.and_then(|p| p.get(attribute.name)) {
                declared.types[slot] = Some(list[d].kind);
                present.insert(d);
            }
        }
        if declarations.exhausted() {
            return Some(declared);
        }
        declarations.read_up_to(tag.span.end);
        if !self.default_values.contains_key(element) {
            self.default_values.insert(element.into(), HashMap::new());
        }
        let Some(values) = self.default_values.get_mut(element) else {
            return Some(declared);
        };
        // Errors, all at the tag, in the order found (reported once the
        // cache is let go).
        let mut found = Vec::new();
        for &d in declarations.defaults(element) {
            let definition = &list[d];
            if present.contains(&d) {
                continue;
            }
            if kept + declared.defaults.len() >= self.limits.max_attributes {
                found.push(ErrorCode::AttributeLimit);
                break;
            }
            let (DefaultValue::Value(raw) | DefaultValue::Fixed(raw)) = &definition.default else {
                continue;
            };
            let value = default_value(&declarations, values, d, raw, definition.kind, &mut found);
            let Some(value) = value else {
                continue;
            };
            // Every attribute a default adds costs its bytes and its
            // bookkeeping: defaults are expansion too.
            let cost = DEFAULT_ATTRIBUTE_COST + definition.name.len() + value.len();
            match declarations.spend(cost) {
                Ok(()) => {
                    let name = definition.name.clone();
                    declared
                        .defaults
                        .push((name, value.to_owned(), definition.kind));
                }
                Err(Some(code)) => found.push(code),
                Err(None) => {}
            }
        }
        for code in found {
            self.error(code, tag.span.start);
        }
        Some(declared)
    }
}

/// The value of the default at index `d` of an element's attribute list
/// (written `raw`, of type `kind`): expanded and normalized the first time
/// (errors to `found`), then taken from `values`; `None` where the budget
/// ran out.
fn default_value<'v>(
    declarations: &Declarations,
    values: &'v mut HashMap<usize, Option<String>>,
    d: usize,
    raw: &str,
    kind: AttributeType,
    found: &mut Vec<ErrorCode>,
) -> Option<&'v str> {
    let value = values.entry(d).or_insert_with(|| {
        let mut value = String::new();
        let expanded =
            declarations.expand(raw, None, 0, ExpansionMode::Attribute, &mut value, found);
        expanded.ok().map(|()| {
            if kind.is_tokenized() {
                collapse_spaces(&value).unwrap_or(value)
            } else {
                value
            }
        })
    });
    value.as_deref()
}
