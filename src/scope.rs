//! Bindings in scope: what a namespace prefix stands for at a point of a
//! document, as the tree builder resolves names, the serializer writes
//! declarations and the canonical writers decide which to emit. One type
//! for all of them: a stack of values per prefix (`""` for the default
//! namespace), the innermost last, and a log of what was bound, so that an
//! element's bindings are undone when it closes ([`Scopes::unwind`] to the
//! [`Scopes::mark`] taken when it opened).
//!
//! A prefix keeps its slot once bound, so a caller may remember where a
//! prefix's bindings are ([`Scopes::slot`]); or, made with
//! [`Scopes::forgetting`], a prefix whose stack empties is forgotten and
//! its slot reused, so that a writer of a stream that binds ever new
//! prefixes holds the bindings in scope, not every prefix it saw.
//! [`ElementScopes`] is that, a scope per open element, as the canonical
//! writers keep namespace declarations. A leaf: it names nothing of the
//! crate.

use std::collections::HashMap;

/// Values bound to prefixes, in nested scopes.
#[derive(Debug)]
pub(crate) struct Scopes<V> {
    /// The slot of each prefix bound now.
    slots: HashMap<Box<str>, usize>,
    /// Per slot: its prefix and its bindings, the innermost last (an empty
    /// stack is a free slot).
    stacks: Vec<(Box<str>, Vec<V>)>,
    /// Slots whose stacks emptied, to reuse.
    free: Vec<usize>,
    /// The slots bound, in order, to undo them.
    log: Vec<usize>,
    /// The slot of `""`, the default namespace, once bound: looked up for
    /// every unprefixed name, so without hashing.
    default: Option<usize>,
    /// A prefix no longer bound gives its slot back.
    forget: bool,
}

impl<V> Default for Scopes<V> {
    fn default() -> Scopes<V> {
        Scopes {
            slots: HashMap::new(),
            stacks: Vec::new(),
            free: Vec::new(),
            log: Vec::new(),
            default: None,
            forget: false,
        }
    }
}

impl<V> Scopes<V> {
    /// Scopes that forget a prefix once nothing binds it (its slot is
    /// reused: a slot found before an unwind may then be another prefix's).
    pub(crate) fn forgetting() -> Scopes<V> {
        Scopes {
            forget: true,
            ..Scopes::default()
        }
    }

    /// Binds `prefix` to `value` in the innermost scope.
    pub(crate) fn bind(&mut self, prefix: &str, value: V) {
        let slot = match self.slots.get(prefix) {
            Some(&slot) => slot,
            None => {
                let slot = match self.free.pop() {
                    Some(slot) => {
                        self.stacks[slot].0 = prefix.into();
                        slot
                    }
                    None => {
                        self.stacks.push((prefix.into(), Vec::new()));
                        self.stacks.len() - 1
                    }
                };
                self.slots.insert(prefix.into(), slot);
                if prefix.is_empty() {
                    self.default = Some(slot);
                }
                slot
            }
        };
        self.stacks[slot].1.push(value);
        self.log.push(slot);
    }

    /// What `prefix` is bound to, if it is.
    #[inline]
    pub(crate) fn get(&self, prefix: &str) -> Option<&V> {
        self.slot(prefix).and_then(|slot| self.get_slot(slot))
    }

    /// The slot of `prefix`, if it was bound: what it is bound to is
    /// [`get_slot`](Self::get_slot), for as long as the scopes last (unless
    /// they are [`forgetting`](Self::forgetting): then until the next
    /// unwind). A caller that looks a prefix up often keeps its slot
    /// rather than hashing it.
    #[inline]
    pub(crate) fn slot(&self, prefix: &str) -> Option<usize> {
        if prefix.is_empty() {
            return self.default;
        }
        if self.slots.is_empty() {
            return None;
        }
        self.slots.get(prefix).copied()
    }

    /// What the prefix of `slot` is bound to (see [`slot`](Self::slot)).
    #[inline]
    pub(crate) fn get_slot(&self, slot: usize) -> Option<&V> {
        self.stacks.get(slot)?.1.last()
    }

    /// Where the scopes stand, to [`unwind`](Self::unwind) to.
    #[inline]
    pub(crate) fn mark(&self) -> usize {
        self.log.len()
    }

    /// How many prefixes hold a slot: those bound now, for forgetting
    /// scopes; every prefix ever bound, for others.
    #[cfg(test)]
    pub(crate) fn prefixes(&self) -> usize {
        self.slots.len()
    }

    /// Undoes what was bound since `mark`.
    pub(crate) fn unwind(&mut self, mark: usize) {
        while self.log.len() > mark {
            let Some(slot) = self.log.pop() else { break };
            let Some((prefix, stack)) = self.stacks.get_mut(slot) else {
                continue;
            };
            stack.pop();
            if self.forget && stack.is_empty() {
                self.slots.remove(&**prefix);
                if prefix.is_empty() {
                    self.default = None;
                }
                self.free.push(slot);
            }
        }
    }
}

/// The namespace bindings in scope at the element being written, as the
/// canonical writers keep them: a scope per open element
/// ([`open`](Self::open), [`close`](Self::close)), the default namespace
/// as the prefix `None`, and `""` for a prefix bound to nothing. The URIs
/// are owned or borrowed (`V`); a prefix no longer bound is forgotten, so
/// memory follows the bindings in scope.
pub(crate) struct ElementScopes<V> {
    bindings: Scopes<V>,
    /// For each open element, where the bindings stood when it opened.
    marks: Vec<usize>,
}

impl<V> Default for ElementScopes<V> {
    fn default() -> ElementScopes<V> {
        ElementScopes {
            bindings: Scopes::forgetting(),
            marks: Vec::new(),
        }
    }
}

impl<V: std::ops::Deref<Target = str>> ElementScopes<V> {
    /// An element opens: what is bound from now is undone when it closes.
    pub(crate) fn open(&mut self) {
        self.marks.push(self.bindings.mark());
    }

    /// The element opened last closes.
    pub(crate) fn close(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        self.bindings.unwind(mark);
    }

    /// The URI bound to `prefix`, `""` for none.
    pub(crate) fn get(&self, prefix: Option<&str>) -> &str {
        self.bindings
            .get(prefix.unwrap_or(""))
            .map_or("", |uri| uri)
    }

    /// How many prefixes are bound now.
    #[cfg(test)]
    pub(crate) fn prefixes(&self) -> usize {
        self.bindings.prefixes()
    }

    /// Whether no element is open and nothing is bound.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.marks.is_empty() && self.bindings.mark() == 0 && self.prefixes() == 0
    }

    /// Binds `prefix` to `uri`.
    pub(crate) fn bind<'u>(&mut self, prefix: Option<&str>, uri: &'u str)
    where
        V: From<&'u str>,
    {
        self.bindings.bind(prefix.unwrap_or(""), uri.into());
    }

    /// Binds `prefix` to `uri` unless it is bound so already: whether it
    /// did (a canonical writer then writes the declaration).
    pub(crate) fn declare<'u>(&mut self, prefix: Option<&str>, uri: &'u str) -> bool
    where
        V: From<&'u str>,
    {
        let changes = self.get(prefix) != uri;
        if changes {
            self.bind(prefix, uri);
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_bindings_hide_outer_ones_until_unwound() {
        let mut scopes = Scopes::default();
        scopes.bind("", "urn:outer");
        scopes.bind("p", "urn:p");
        let mark = scopes.mark();
        scopes.bind("", "urn:inner");
        assert_eq!(scopes.get(""), Some(&"urn:inner"));
        assert_eq!(scopes.get("p"), Some(&"urn:p"));
        scopes.unwind(mark);
        assert_eq!(scopes.get(""), Some(&"urn:outer"));
        scopes.unwind(0);
        assert_eq!(scopes.get(""), None);
        assert_eq!(scopes.mark(), 0);
    }

    #[test]
    fn a_prefix_no_longer_bound_is_forgotten_and_its_slot_reused() {
        let mut scopes = Scopes::forgetting();
        for n in 0..1000 {
            let mark = scopes.mark();
            scopes.bind(&format!("p{n}"), n);
            assert_eq!(scopes.get(&format!("p{n}")), Some(&n));
            scopes.unwind(mark);
            assert_eq!(scopes.get(&format!("p{n}")), None);
        }
        assert_eq!(scopes.stacks.len(), 1);
        assert!(scopes.slots.is_empty());
    }

    #[test]
    fn a_slot_stays_its_prefix_unless_the_scopes_forget() {
        let mut scopes = Scopes::default();
        scopes.bind("a", 1);
        let slot = scopes.slot("a").unwrap();
        scopes.bind("a", 2);
        assert_eq!(scopes.get_slot(slot), Some(&2));
        scopes.unwind(0);
        assert_eq!(scopes.get_slot(slot), None);
        scopes.bind("b", 3);
        assert_eq!(scopes.get_slot(slot), None, "`b` has a slot of its own");
        scopes.bind("a", 4);
        assert_eq!(scopes.get_slot(slot), Some(&4));
    }
}
