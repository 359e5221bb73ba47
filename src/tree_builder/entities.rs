//! Expanding references to declared entities in content (XML 1.0 §4.4.2).
//!
//! A reference whose replacement text holds no markup is character data,
//! merged with the text around it like a character reference (the text
//! node's span covers the reference, so the source round trip holds). A
//! replacement text with markup is tokenized and its tokens built into the
//! tree where the reference is, with the reference's span; the outermost
//! such reference is reported to the sink around what it made (a document
//! records it in `Document::entity_expansions` and the nodes it made
//! remember it, so the serializer can write the reference back while they
//! are as parsed). Text at the edges of such an expansion is
//! a text node of its own (see docs/conformance.md).
//!
//! Nesting is bounded by the limits (and never deeper than 64 levels, each
//! a tokenizer over one replacement text), a name already being expanded is a recursive
//! reference and is not followed, and every expansion draws on the
//! document's byte budget; a reference not expanded stays as written.

use crate::dtd::{Declarations, EntityLookup, ExpansionMode, ExpansionStop};
use crate::error::{ErrorCode, ErrorContext};
use crate::span::Span;
use crate::tokenizer::{self, Text, TextKind};

use super::pending::ActiveExpansion;
use super::{TreeBuilder, TreeSink};

impl<S: TreeSink> TreeBuilder<'_, S> {
    /// The span tokens from a replacement text take: the outermost
    /// reference's.
    pub(super) fn reference_span(&self) -> Option<Span> {
        self.entity_stack.last().map(|_| self.outer_reference)
    }

    /// `&name;` at `span` (in the source, or in a replacement text being
    /// expanded).
    pub(super) fn entity_reference(&mut self, name: &str, span: Span) {
        let outermost = self.entity_stack.is_empty();
        let reference = if outermost {
            span
        } else {
            self.outer_reference
        };
        let Some(declarations) = self.declarations.clone() else {
            self.unexpanded(name, reference, outermost);
            return;
        };
        declarations.read_up_to(reference.end);
        if declarations.exhausted() {
            // Out of budget: nothing more is expanded (reported once).
            self.unexpanded(name, reference, outermost);
            return;
        }
        let text = match declarations.lookup_content(name) {
            EntityLookup::Internal(text) => text,
            EntityLookup::Unavailable(unread) => {
                // Which file, and why not, beside the error.
                let error = self.located(unread.code, reference.start);
                let why = Some(unread.why.clone()).filter(|why| !why.is_empty());
                match ErrorContext::in_external(None, why) {
                    Some(context) => self.sink.error_with_context(error, context),
                    None => self.sink.error(error),
                }
                self.unexpanded(name, reference, outermost);
                return;
            }
            lookup => {
                let code = match lookup {
                    EntityLookup::Unparsed => ErrorCode::UnparsedEntityReference,
                    _ => ErrorCode::ExternalEntityReference,
                };
                self.error(code, reference.start);
                self.unexpanded(name, reference, outermost);
                return;
            }
        };
        if self.entity_stack.iter().any(|(open, _)| **open == *name) {
            self.error(ErrorCode::RecursiveEntityReference, reference.start);
            self.unexpanded(name, reference, outermost);
            return;
        }
        if self.entity_stack.len() >= declarations.max_depth() {
            self.error(ErrorCode::EntityDepthLimit, reference.start);
            self.unexpanded(name, reference, outermost);
            return;
        }
        if !declarations.has_markup(name)
            && self.expand_as_text(&declarations, name, text, reference, outermost)
        {
            return;
        }
        self.expand_markup(&declarations, name, text, span, reference, outermost);
    }

    /// A reference to an entity whose replacement text seems to hold no
    /// markup: expanded whole, into one string, and added as character
    /// data. Returns `false` when an entity it refers to holds markup after
    /// all (nothing was done: it is to be tokenized).
    fn expand_as_text(
        &mut self,
        declarations: &Declarations,
        name: &str,
        text: &str,
        reference: Span,
        outermost: bool,
    ) -> bool {
        let mut data = String::new();
        let mut errors = Vec::new();
        let expanded = declarations.expand(
            text,
            Some(name),
            self.entity_stack.len(),
            ExpansionMode::Text,
            &mut data,
            &mut errors,
        );
        if expanded != Err(ExpansionStop::Markup) {
            for code in errors {
                self.error(code, reference.start);
            }
        }
        match expanded {
            Ok(()) => {
                self.push_text(Text {
                    data: &data,
                    kind: TextKind::Entity,
                    span: reference,
                    needs_check: true,
                });
                true
            }
            Err(ExpansionStop::Budget) => {
                self.unexpanded(name, reference, outermost);
                true
            }
            // An entity it refers to holds markup: tokenized instead.
            Err(ExpansionStop::Markup) => false,
        }
    }

    /// A reference (at `span`; `reference` is the outermost one's span) to
    /// an entity whose replacement text holds markup: the text is tokenized
    /// with the builder as the sink, its tokens built where the reference
    /// is; the outermost such reference is reported to the sink around what
    /// it made.
    fn expand_markup(
        &mut self,
        declarations: &Declarations,
        name: &str,
        text: &str,
        span: Span,
        reference: Span,
        outermost: bool,
    ) {
        let cost = declarations.markup_cost(name).max(text.len()).max(1);
        if let Err(error) = declarations.spend(cost) {
            if let Some(code) = error {
                self.error(code, reference.start);
            }
            self.unexpanded(name, reference, outermost);
            return;
        }
        if outermost {
            self.flush_text();
            if self.phase != super::Phase::Main {
                // XML refers to entities in content only.
                self.error(ErrorCode::ReferenceOutsideRootElement, span.start);
            }
            self.outer_reference = span;
            self.begin_expansion(name, span);
        }
        self.entity_stack.push((name.into(), text.into()));
        let stack_len = self.stack.len();
        if let Some(active) = &mut self.expansion {
            active.levels.push(stack_len);
        }
        tokenizer::tokenize_entity(text, &mut *self, declarations.clone());
        let open = self.stack.len();
        if let Some(active) = &mut self.expansion {
            active.levels.pop();
            active.unbalanced |= open != stack_len;
        }
        self.entity_stack.pop();
        if outermost {
            self.flush_text();
            self.end_expansion();
        }
    }

    /// A reference left as written: its text, as character data.
    fn unexpanded(&mut self, name: &str, reference: Span, outermost: bool) {
        if outermost {
            // A whole input lends the text for as long as the builder
            // lives; a stream's window is copied from.
            let copied;
            let data = match self.checker.source.borrowed() {
                Some(input) => input.get(reference.range()).unwrap_or_default(),
                None => {
                    copied = self
                        .checker
                        .source
                        .slice(reference.start, reference.end)
                        .to_owned();
                    &copied
                }
            };
            self.push_text(Text {
                data,
                kind: TextKind::Plain,
                span: reference,
                needs_check: true,
            });
        } else {
            let data = format!("&{name};");
            self.push_text(Text {
                data: &data,
                kind: TextKind::Entity,
                span: reference,
                needs_check: true,
            });
        }
    }

    fn begin_expansion(&mut self, name: &str, reference: Span) {
        self.sink.begin_expansion(name, reference);
        self.expansion = Some(ActiveExpansion {
            reference,
            stack_len: self.stack.len(),
            levels: Vec::new(),
            unbalanced: false,
        });
    }

    fn end_expansion(&mut self) {
        let Some(active) = self.expansion.take() else {
            return;
        };
        let balanced = !active.unbalanced && self.stack.len() == active.stack_len;
        self.sink.end_expansion(balanced);
        if !balanced {
            self.error(ErrorCode::UnbalancedEntityReference, active.reference.start);
        }
    }

    /// Before an element is popped: an entity that closes an element it
    /// did not open is not balanced.
    pub(super) fn note_pop(&mut self) {
        let depth = self.stack.len();
        if let Some(active) = &mut self.expansion {
            if active.levels.last().is_some_and(|&len| depth <= len) {
                active.unbalanced = true;
            }
        }
    }

    /// The declarations, for the checker and the defaults.
    pub(super) fn set_declarations(&mut self, declarations: &Declarations) {
        self.declarations = Some(declarations.clone());
    }
}
