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
//! prefixes holds the bindings in scope, not every prefix it saw. A leaf:
//! it names nothing of the crate.

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
