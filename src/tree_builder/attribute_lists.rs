//! What attribute-list declarations do to an element's attributes (XML 1.0
//! §3.3): a declared type other than `CDATA` collapses whitespace in the
//! value (§3.3.3), `ID` marks the attribute for XPath's `id()`, and a
//! declared default supplies an attribute the tag lacks (marked as
//! defaulted, so the serializer leaves it to the DTD).
//!
//! Names are compared as written (the DTD knows no namespaces); a default
//! that declares a namespace (`xmlns:x`) declares it for the element as if
//! it were in the tag.

use std::collections::HashMap;

use crate::tokenizer::{AttributeType, DefaultValue, ExpansionMode, Tag};

use super::TreeBuilder;

/// The declarations that apply to one tag.
#[derive(Default)]
pub(super) struct Declared {
    /// By index of the tag's kept attributes: the declared type, if any.
    pub(super) types: Vec<Option<AttributeType>>,
    /// Attributes the defaults add: name, value (normalized), type.
    pub(super) defaults: Vec<(Box<str>, String, AttributeType)>,
}

/// A declaration list longer than this is searched through a map.
const LINEAR_SEARCH: usize = 16;

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

impl TreeBuilder<'_> {
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
        let mut present = vec![false; list.len()];
        let index: Option<HashMap<&str, usize>> = (list.len() > LINEAR_SEARCH).then(|| {
            let mut map = HashMap::new();
            for (i, definition) in list.iter().enumerate() {
                map.entry(&*definition.name).or_insert(i);
            }
            map
        });
        for (slot, attribute) in tag.attributes.iter().take(kept).enumerate() {
            let found = match &index {
                Some(map) => map.get(attribute.name).copied(),
                None => list.iter().position(|d| &*d.name == attribute.name),
            };
            if let Some(d) = found {
                declared.types[slot] = Some(list[d].kind);
                present[d] = true;
            }
        }
        for (d, definition) in list.iter().enumerate() {
            if present[d] {
                continue;
            }
            let (DefaultValue::Value(raw) | DefaultValue::Fixed(raw)) = &definition.default else {
                continue;
            };
            let key = (Box::<str>::from(element), d);
            if !self.default_values.contains_key(&key) {
                let mut value = String::new();
                let mut errors = Vec::new();
                let expanded = declarations.expand(
                    raw,
                    None,
                    ExpansionMode::Attribute,
                    &mut value,
                    &mut errors,
                );
                for code in errors {
                    self.error(code, tag.span.start);
                }
                let value = expanded.ok().map(|()| {
                    if definition.kind.is_tokenized() {
                        collapse_spaces(&value).unwrap_or(value)
                    } else {
                        value
                    }
                });
                self.default_values.insert(key.clone(), value);
            }
            let Some(Some(value)) = self.default_values.get(&key) else {
                continue;
            };
            // Every element given a default costs its bytes: defaults are
            // expansion too.
            match declarations.spend(value.len()) {
                Ok(()) => {
                    declared.defaults.push((
                        definition.name.clone(),
                        value.clone(),
                        definition.kind,
                    ));
                }
                Err(Some(code)) => self.error(code, tag.span.start),
                Err(None) => {}
            }
        }
        Some(declared)
    }
}
