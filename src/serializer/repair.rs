//! Local repairs: copying a broken piece of source with only its broken
//! spots changed.
//!
//! A document that is not well-formed is written from its source wherever
//! the source is well-formed as written (docs/serialization.md). Where a
//! run of text or an attribute value holds a well-formedness error, it is
//! copied character by character and each spot an error points at is
//! written as XML can carry it: a bare `&` escaped, a reference XML does
//! not accept written as the characters it stood for, a forbidden
//! character replaced, dropped markup left out. Everything else in the run
//! (other references as written, line ends, CDATA sections) is copied as it
//! is, so the output differs from the input only at those spots.
//!
//! The walks here follow the error list; where they meet an error they
//! cannot mend in place they give up ([`Fallback`]) and the caller writes
//! the piece anew from the tree.
//!
//! [`Broken::of`] gathers what the walks go by from the document: its
//! errors, what the parse dropped, the declarations of the internal subset
//! the output drops ([`kept_subset`] writes the rest). The writer asks it
//! what may be copied and hands it the pieces to mend. A node written
//! alone takes [`Broken::of_subtree`] instead: the errors of the source its
//! nodes came from, and the rest only if the node needs it, so that writing
//! each node of a document with many errors costs in proportion to the
//! node, not to the document.

use std::cell::OnceCell;
use std::collections::HashSet;

use crate::chars::{is_forbidden_char, is_name};
use crate::dom::{Document, NodeType};
use crate::error::ErrorCode;
use crate::span::Span;

use super::escape::{comment_text, quotable};
use super::options::RepairKind;
use super::repairs::{mend, Mend};

/// The well-formedness errors of a document (warnings left out), in
/// source order, and what the walks need to know of the source: all of
/// them ([`of`](Self::of)), or those of the source a subtree came from
/// ([`of_subtree`](Self::of_subtree)).
pub(super) struct Broken<'s> {
    doc: &'s Document,
    pub(super) source: &'s str,
    /// The errors (of the stretches of source looked at), in source order.
    pub(super) errors: Vec<(usize, ErrorCode)>,
    /// Markup the parse left out, in source order.
    pub(super) dropped: &'s [Span],
    /// Where the parse dropped elements past the depth limit (their tags,
    /// not the text between them), in source order.
    pub(super) depth_dropped: &'s [Span],
    /// Where a limit stopped the parse from checking something (warnings),
    /// in source order: a declaration of a repaired internal subset there is
    /// dropped, since its grammar was not checked.
    pub(super) unchecked: Vec<usize>,
    /// The references (warnings) to entities an unread DTD might declare,
    /// in source order: errors where the output keeps no such DTD.
    external_references: Vec<usize>,
    /// What repaired output drops of the internal subset, once worked out
    /// (at once for a whole document; for a subtree, when it meets a
    /// reference or the subset itself).
    dropped_declarations: OnceCell<DroppedDeclarations>,
    /// The general entities the internal subset declared, sorted (an error
    /// at a reference to one is in its replacement text), once asked for.
    declared_entities: OnceCell<Vec<Box<str>>>,
}

/// The declarations of the internal subset that repaired output drops, and
/// what goes with them.
#[derive(Default)]
struct DroppedDeclarations {
    /// Entities whose declarations the output drops: a reference to one
    /// cannot be copied.
    entities: Vec<Box<str>>,
    /// Declarations dropped though well-formed themselves: they refer to
    /// an entity whose declaration is dropped. (Their starts.)
    dependents: HashSet<usize>,
    /// Whether an attribute-list declaration is among them: then the
    /// attributes its defaults supplied are written.
    attribute_lists: bool,
}

/// A piece the walks cannot mend in place: write it anew from the tree.
#[derive(Debug)]
pub(super) struct Fallback;

/// The whole source, for [`Broken::over`].
const EVERYWHERE: Span = Span {
    start: 0,
    end: usize::MAX,
};

impl<'s> Broken<'s> {
    /// What is broken in `doc`: its errors (warnings left out; a reference
    /// to an entity an unread DTD might declare is one where the output
    /// keeps no such DTD), and the entities whose declarations repaired
    /// output drops. Also whether an attribute-list declaration of the
    /// internal subset is dropped: then the attributes its defaults
    /// supplied are written.
    pub(super) fn of(doc: &'s Document) -> (Broken<'s>, bool) {
        let mut broken = Broken::over(doc, &[EVERYWHERE]);
        if broken.errors.is_empty() {
            broken.nothing_dropped();
            return (broken, false);
        }
        let dropped = DroppedDeclarations::of(doc, &broken);
        let attlists_dropped = dropped.attribute_lists;
        broken.dropped_declarations = OnceCell::from(dropped);
        if !external_declarations_kept(doc, &broken) {
            broken.promote_external_references();
        }
        (broken, attlists_dropped)
    }

    /// What [`of`](Self::of) gives, for writing alone the nodes whose
    /// source is `reach` (stretches in order, apart): the errors there, and
    /// the rest worked out when asked. `well_formed` is whether the
    /// document is (then nothing is dropped, as there).
    ///
    /// Everything a writer of a subtree asks about lies in the source of
    /// its nodes or the two bytes after it (the error of a `<` in text is
    /// at the character after it, or after `</`), but what the internal
    /// subset drops: that is worked out from the subset's own errors when
    /// a reference or the DOCTYPE asks, which an internal subset without
    /// errors answers at once. (One with errors is read again on each
    /// such call: a cost in proportion to the subset, paid only by a
    /// document whose DTD is broken.)
    pub(super) fn of_subtree(doc: &'s Document, reach: &[Span], well_formed: bool) -> Broken<'s> {
        let mut broken = Broken::over(doc, reach);
        if well_formed {
            broken.nothing_dropped();
            return broken;
        }
        if !broken.external_references.is_empty() {
            // Whether the output keeps a DTD that may declare them looks at
            // the DOCTYPE: its errors, and what its subset keeps.
            let mut subset = Broken::over(doc, &subset_reach(doc, true));
            let dropped = DroppedDeclarations::of(doc, &subset);
            subset.dropped_declarations = OnceCell::from(dropped);
            let kept = external_declarations_kept(doc, &subset);
            broken.dropped_declarations = subset.dropped_declarations;
            if !kept {
                broken.promote_external_references();
            }
        }
        broken
    }

    /// The errors and unchecked spots of `reach` (stretches of the source
    /// in order, apart), each stretch with the two bytes after it, and the
    /// end of the input if it reaches there.
    fn over(doc: &'s Document, reach: &[Span]) -> Broken<'s> {
        let mut errors = Vec::new();
        let mut unchecked = Vec::new();
        let mut external_references = Vec::new();
        for error in within_reach(doc, reach) {
            use crate::error::ErrorCode::*;
            match error.code {
                code if code.is_error() => errors.push((error.offset, code)),
                NameLengthLimit | EntityDepthLimit | EntityExpansionLimit | AttributeLimit => {
                    unchecked.push(error.offset)
                }
                EntityInExternalSubset => external_references.push(error.offset),
                _ => {}
            }
        }
        let (dropped, depth_dropped) = doc.dropped_markup();
        Broken {
            doc,
            source: doc.source(),
            errors,
            dropped,
            depth_dropped,
            unchecked,
            external_references,
            dropped_declarations: OnceCell::new(),
            declared_entities: OnceCell::new(),
        }
    }

    /// A well-formed document's output drops no declaration, and finds no
    /// error in a replacement text.
    fn nothing_dropped(&mut self) {
        self.dropped_declarations = OnceCell::from(DroppedDeclarations::default());
        self.declared_entities = OnceCell::from(Vec::new());
    }

    /// Makes each reference to an entity an unread DTD might have declared
    /// an error: with no such DTD in the output, it is one there. (After
    /// the errors at its offset.)
    fn promote_external_references(&mut self) {
        let promoted = self
            .external_references
            .iter()
            .map(|&at| (at, ErrorCode::UndeclaredEntity));
        self.errors.extend(promoted);
        self.errors.sort_by_key(|&(at, _)| at);
    }

    /// What the output drops of the internal subset.
    fn dropped_declarations(&self) -> &DroppedDeclarations {
        self.dropped_declarations.get_or_init(|| {
            let reach = subset_reach(self.doc, false);
            if within_reach(self.doc, &reach).next().is_none() {
                // Not an error or a warning in it: it is all kept.
                return DroppedDeclarations::default();
            }
            DroppedDeclarations::of(self.doc, &Broken::over(self.doc, &reach))
        })
    }

    /// The entities whose declarations the output drops.
    pub(super) fn dropped_entities(&self) -> &[Box<str>] {
        &self.dropped_declarations().entities
    }

    /// The general entities the internal subset declared, sorted.
    fn declared_entities(&self) -> &[Box<str>] {
        self.declared_entities.get_or_init(|| {
            let mut names: Vec<Box<str>> = self
                .doc
                .doctype_records()
                .iter()
                .flat_map(|doctype| doctype.subset_entities.iter())
                .map(|(_, name)| name.clone())
                .collect();
            names.sort_unstable();
            names
        })
    }

    /// The errors at offsets in `start..end`, and at `end` itself when that
    /// is the end of the input (where errors of a construct cut off by it
    /// are reported).
    pub(super) fn within(&self, start: usize, end: usize) -> &[(usize, ErrorCode)] {
        let end = if end >= self.source.len() {
            end.saturating_add(1)
        } else {
            end
        };
        let from = self.errors.partition_point(|&(at, _)| at < start);
        let to = self.errors.partition_point(|&(at, _)| at < end);
        &self.errors[from..to.max(from)]
    }

    /// Whether `start..end` holds no error (see [`within`](Self::within))
    /// and no reference to an entity whose declaration is dropped.
    pub(super) fn clean(&self, start: usize, end: usize) -> bool {
        self.within(start, end).is_empty() && !self.mentions_dropped_entity(start, end)
    }

    /// The errors of a DOCTYPE's `start..end` (not those of what follows
    /// it, even at the end of the input): those inside, and those its end
    /// reports there (cut off by the end of the input, or a subset left
    /// open).
    pub(super) fn within_doctype(&self, start: usize, end: usize) -> &[(usize, ErrorCode)] {
        let from = self.errors.partition_point(|&(at, _)| at < start);
        let mut to = self.errors.partition_point(|&(at, _)| at < end);
        while let Some(&(at, code)) = self.errors.get(to) {
            let ends_doctype = matches!(
                code,
                ErrorCode::EofInDoctype | ErrorCode::UnterminatedDoctypeInternalSubset
            );
            if at != end || !ends_doctype {
                break;
            }
            to += 1;
        }
        &self.errors[from..to.max(from)]
    }

    /// `start..end` of a DOCTYPE with its forbidden characters replaced and
    /// its public identifier and name mended, if those are its only errors
    /// (see [`within_doctype`](Self::within_doctype)): one whose only fault
    /// is such a character keeps the rest as written. `name` is where the
    /// name is written and what it becomes, if it is not a name.
    pub(super) fn with_characters_replaced(
        &self,
        start: usize,
        end: usize,
        name: Option<(Span, &str)>,
    ) -> Option<String> {
        let errors = self.within_doctype(start, end);
        let only_characters = errors.iter().all(|&(at, code)| match code {
            ErrorCode::ControlCharacterInInputStream
            | ErrorCode::IllegalCharacterInInputStream
            | ErrorCode::InvalidPublicIdentifier => true,
            ErrorCode::InvalidName => name.is_some_and(|(span, _)| span.start == at),
            _ => false,
        });
        if !only_characters || self.mentions_dropped_entity(start, end) {
            return None;
        }
        let text = self.source.get(start..end)?;
        if text.contains('\u{C}') {
            // Whitespace to XML5 outside the identifiers, a character in
            // them: the DOCTYPE is written anew from the tree.
            return None;
        }
        // A public literal's characters outside `PubidChar` (reported at
        // each) are left out, or become a space if they are whitespace.
        let outside_pubid = |at: usize| {
            self.at(at)
                .any(|code| code == ErrorCode::InvalidPublicIdentifier)
        };
        let mut out = String::with_capacity(text.len());
        for (at, c) in text.char_indices() {
            match name {
                Some((span, mended)) if span.start == start + at => out.push_str(mended),
                Some((span, _)) if span.range().contains(&(start + at)) => {}
                _ if outside_pubid(start + at) => {
                    if c.is_whitespace() {
                        out.push(' ');
                    }
                }
                _ if is_forbidden_char(c) => out.push('\u{FFFD}'),
                _ => out.push(c),
            }
        }
        Some(out)
    }

    /// Whether a public identifier in `start..end` has characters outside
    /// `PubidChar`.
    pub(super) fn public_identifier_broken(&self, start: usize, end: usize) -> bool {
        self.within_doctype(start, end)
            .iter()
            .any(|&(_, code)| code == ErrorCode::InvalidPublicIdentifier)
    }

    /// The codes of the errors at exactly `at`.
    fn at(&self, at: usize) -> impl Iterator<Item = ErrorCode> + '_ {
        let from = self.errors.partition_point(|&(o, _)| o < at);
        self.errors[from..]
            .iter()
            .take_while(move |&&(o, _)| o == at)
            .map(|&(_, code)| code)
    }

    /// Whether `start..end` of the source holds `&name;` for an entity whose
    /// declaration the output drops.
    pub(super) fn mentions_dropped_entity(&self, start: usize, end: usize) -> bool {
        let text = self.source.get(start..end).unwrap_or_default();
        // (Without a reference, what the subset drops is not asked.)
        if !text.contains('&') || self.dropped_entities().is_empty() {
            return false;
        }
        self.dropped_entities().iter().any(|name| {
            let mut from = 0;
            while let Some(i) = text[from..].find('&') {
                let at = from + i + 1;
                if text[at..].starts_with(&**name) && text[at + name.len()..].starts_with(';') {
                    return true;
                }
                from = at;
            }
            false
        })
    }

    /// Whether an item of an internal subset is kept in repaired output: no
    /// error in it, nothing a limit left unchecked, and no reference to an
    /// entity whose declaration is dropped.
    pub(super) fn kept(&self, item: Span) -> bool {
        self.kept_unless(item, &self.dropped_declarations().dependents)
    }

    /// Whether an item of an internal subset is kept in repaired output, as
    /// [`kept`](Self::kept) says, when the declarations dropped for their
    /// references start at `dependents`.
    fn kept_unless(&self, item: Span, dependents: &HashSet<usize>) -> bool {
        use ErrorCode::*;
        // A character XML cannot carry is mended in place; bytes that did
        // not decode are U+FFFD already, or windows-1252 characters.
        let in_place = |code: ErrorCode| mend(code) == Mend::ReplaceCharacter;
        // So is a bad `&` or `%` in an entity's value, or a `<` or bad `&`
        // in an attribute default (the declaration was read, holding it as
        // written): escaped.
        let text = &self.source[item.range()];
        let in_value = |at: usize, code: ErrorCode| {
            let byte = self.source.as_bytes().get(at);
            code == MalformedDeclaration
                && at > item.start
                && if text.starts_with("<!ENTITY") {
                    matches!(byte, Some(b'&' | b'%'))
                } else {
                    text.starts_with("<!ATTLIST") && matches!(byte, Some(b'&' | b'<'))
                }
        };
        // (Errors at the end of the input after it are not its own.)
        // And a comment's `--` (written `- -`).
        let in_comment = |at: usize, code: ErrorCode| {
            code == MalformedDeclaration
                && at > item.start
                && text.starts_with("<!--")
                && text.len() >= 7
                && text.ends_with("-->")
        };
        self.within(item.start, item.end).iter().all(|&(at, code)| {
            at >= item.end || in_place(code) || in_value(at, code) || in_comment(at, code)
        }) && !dependents.contains(&item.start)
            && self
                .unchecked
                .get(self.unchecked.partition_point(|&u| u < item.start))
                .is_none_or(|&u| u >= item.end)
    }

    /// Whether `rest` (from a `&`) is a reference to a declared entity.
    fn names_declared(&self, rest: &str) -> bool {
        // Only the name is looked at (not the rest of the text up to some
        // `;`, which would make a line of bare `&` quadratic).
        let after = &rest[1..];
        let end = after
            .find(|c: char| !crate::chars::is_name_char(c))
            .unwrap_or(after.len());
        after[end..].starts_with(';')
            && self
                .declared_entities()
                .binary_search_by(|name| (**name).cmp(&after[..end]))
                .is_ok()
    }

    /// Whether some dropped markup lies inside `span`.
    pub(super) fn drops_within(&self, span: Span) -> bool {
        let i = self.dropped.partition_point(|s| s.start < span.start);
        let dropped = self.dropped.get(i).is_some_and(|s| s.start < span.end);
        let j = self.depth_dropped.partition_point(|s| s.end <= span.start);
        dropped
            || self
                .depth_dropped
                .get(j)
                .is_some_and(|s| s.start < span.end)
    }

    /// Whether `at` lies where elements past the depth limit were dropped.
    fn past_depth_limit(&self, at: usize) -> bool {
        let j = self.depth_dropped.partition_point(|s| s.end <= at);
        self.depth_dropped.get(j).is_some_and(|s| s.start <= at)
    }

    /// The dropped span that starts at `at`, if one does.
    fn dropped_at(&self, at: usize) -> Option<Span> {
        let i = self.dropped.partition_point(|s| s.start < at);
        self.dropped.get(i).filter(|s| s.start == at).copied()
    }
}

/// What an error at a `&` asks for.
enum AtAmpersand {
    /// No error there: copy it.
    Copy,
    /// XML reads no reference there, and neither did the tree: `&amp;`.
    Escape,
    /// The tree holds what the reference stood for; write that.
    Resolve,
}

fn at_ampersand(codes: impl Iterator<Item = ErrorCode>) -> Result<AtAmpersand, Fallback> {
    let mut what = AtAmpersand::Copy;
    for code in codes {
        what = match mend(code) {
            Mend::EscapeAmpersand => AtAmpersand::Escape,
            Mend::ResolveReference => AtAmpersand::Resolve,
            // The replacement text of an entity is at fault (recursion, a
            // bad character inside): the tree's text is all there is.
            _ => return Err(Fallback),
        };
    }
    Ok(what)
}

/// Where a run of characters is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    /// Character data.
    Text,
    /// An attribute value between `quote`s.
    Value { quote: u8 },
}

/// Appends what a reference stood for, so that XML reads it back: ASCII
/// as itself (markup characters escaped, whitespace in values as
/// references), anything else as a hexadecimal character reference, and a
/// character XML cannot carry as U+FFFD.
fn push_resolved(out: &mut String, text: &str, context: Context, forbidden: &mut bool) {
    use std::fmt::Write as _;
    for c in text.chars() {
        match (c, context) {
            ('&', _) => out.push_str("&amp;"),
            ('<', _) => out.push_str("&lt;"),
            ('>', Context::Text) => out.push_str("&gt;"),
            ('"', Context::Value { quote: b'"' }) => out.push_str("&quot;"),
            ('\'', Context::Value { quote: b'\'' }) => out.push_str("&apos;"),
            _ if is_forbidden_char(c) => {
                *forbidden = true;
                out.push('\u{FFFD}');
            }
            (' '..='~', _) => out.push(c),
            _ => {
                let _ = write!(out, "&#x{:X};", c as u32);
            }
        }
    }
}

/// The repairs a walk made, with the offsets they were made at.
pub(super) type Made = Vec<(RepairKind, usize)>;

/// Copies `span` of the source (a run of character data, CDATA sections
/// included, or a whole attribute value in `context`) into `out`, mending
/// each spot an error points at.
pub(super) fn copy_repaired(
    broken: &Broken<'_>,
    span: Span,
    context: Context,
    out: &mut String,
    made: &mut Made,
) -> Result<(), Fallback> {
    let source = broken.source;
    let text = source.get(span.range()).ok_or(Fallback)?;
    let mut i = 0;
    while i < text.len() {
        let at = span.start + i;
        let rest = &text[i..];
        if context == Context::Text {
            if let Some(dropped) = broken.dropped_at(at) {
                made.push((RepairKind::MarkupDropped, at));
                i = (dropped.end - span.start).min(text.len());
                continue;
            }
            if rest.starts_with("<![CDATA[") {
                if broken
                    .at(at)
                    .any(|code| code == ErrorCode::TextOutsideRootElement)
                {
                    // Empty, outside the root: no XML can hold it there.
                    made.push((RepairKind::MarkupDropped, at));
                    i += rest.find("]]>").map_or(rest.len(), |end| end + 3);
                    continue;
                }
                i += copy_cdata(broken, span.start + i, span.end, out, made);
                continue;
            }
            if rest.starts_with('<')
                && broken.past_depth_limit(at)
                && lone_less_than(broken, at, rest).is_none()
            {
                // A tag the depth limit dropped: the tree keeps only the
                // text around it.
                i += tag_length(rest);
                continue;
            }
        }
        let Some(c) = rest.chars().next() else { break };
        match c {
            // (The error first: the declared entities are listed only if
            // one is there.)
            '&' if broken.at(at).any(|code| {
                !matches!(
                    code,
                    ErrorCode::UnparsedEntityReference | ErrorCode::ExternalEntityInAttributeValue
                )
            }) && broken.names_declared(rest) =>
            {
                // The error is in what the entity stands for: the tree's
                // text is all there is.
                return Err(Fallback);
            }
            '&' => match at_ampersand(broken.at(at))? {
                AtAmpersand::Copy => {
                    if rest_is_dropped(broken, rest) {
                        return Err(Fallback);
                    }
                    out.push('&');
                    i += 1;
                }
                AtAmpersand::Escape => {
                    made.push((RepairKind::Escaped, at));
                    out.push_str("&amp;");
                    i += 1;
                }
                AtAmpersand::Resolve => {
                    let (in_attribute, quote) = match context {
                        Context::Text => (false, None),
                        Context::Value { quote } => (true, Some(quote)),
                    };
                    match crate::char_refs::resolve(&rest[1..], in_attribute, quote) {
                        Some((consumed, value)) => {
                            let mut forbidden = false;
                            push_resolved(out, &value, context, &mut forbidden);
                            made.push((
                                if forbidden {
                                    RepairKind::ForbiddenCharacter
                                } else {
                                    RepairKind::ReferenceReplaced
                                },
                                at,
                            ));
                            i += 1 + consumed;
                        }
                        None => {
                            made.push((RepairKind::Escaped, at));
                            out.push_str("&amp;");
                            i += 1;
                        }
                    }
                }
            },
            '<' if context != Context::Text || lone_less_than(broken, at, rest).is_some() => {
                // A value never holds `<`; text only where it starts markup.
                // (In text, the error is at the character after it.)
                let reported = lone_less_than(broken, at, rest).unwrap_or(at);
                made.push((RepairKind::Escaped, reported));
                out.push_str("&lt;");
                i += 1;
            }
            ']' if context == Context::Text && rest.starts_with("]]>") => {
                made.push((RepairKind::Escaped, at));
                out.push_str("]]&gt;");
                i += 3;
            }
            '>' if context == Context::Text && out.ends_with("]]") => {
                // `]]` and `>` met where dropped markup stood between them.
                made.push((RepairKind::Escaped, at));
                out.push_str("&gt;");
                i += 1;
            }
            '"' if context == (Context::Value { quote: b'"' }) => {
                // Only an unquoted value holds its quote.
                out.push_str("&quot;");
                i += 1;
            }
            '\'' if context == (Context::Value { quote: b'\'' }) => {
                out.push_str("&apos;");
                i += 1;
            }
            c if is_forbidden_char(c) => {
                made.push((RepairKind::ForbiddenCharacter, at));
                out.push('\u{FFFD}');
                i += c.len_utf8();
            }
            c => {
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    Ok(())
}

/// Where the error is that makes the `<` at `at` in a text run text, if
/// one does: the tokenizer reports the character after `<` or `</` that
/// starts no tag (or the end of the input there). (Any other `<` in a text run starts a tag a limit dropped,
/// copied as it is.)
fn lone_less_than(broken: &Broken<'_>, at: usize, rest: &str) -> Option<usize> {
    let after = if rest.starts_with("</") {
        at + 2
    } else {
        at + 1
    };
    let after = after.min(broken.source.len());
    (after == broken.source.len() || broken.at(after).next().is_some()).then_some(after)
}

/// The length of the tag `rest` starts with: to its `>` outside quoted
/// values, or all of `rest`.
fn tag_length(rest: &str) -> usize {
    let mut quote = None;
    for (i, b) in rest.bytes().enumerate() {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if q == b => quote = None,
            (None, b'>') => return i + 1,
            _ => {}
        }
    }
    rest.len()
}

/// Whether `rest` (from a `&`) starts a reference to a dropped entity.
fn rest_is_dropped(broken: &Broken<'_>, rest: &str) -> bool {
    broken
        .dropped_entities()
        .iter()
        .any(|name| rest[1..].starts_with(&**name) && rest[1 + name.len()..].starts_with(';'))
}

/// Copies the CDATA section starting at `at` (its `<![CDATA[`), mending
/// characters XML cannot carry, and closing it if the input ended inside
/// it. Returns the bytes of source it took.
fn copy_cdata(
    broken: &Broken<'_>,
    at: usize,
    end: usize,
    out: &mut String,
    made: &mut Made,
) -> usize {
    let source = broken.source;
    let body = at + "<![CDATA[".len();
    let (content_end, taken_end) = match source[body..end].find("]]>") {
        Some(close) => (body + close, body + close + 3),
        None => {
            // Cut off by the end of the input: the tokenizer dropped a
            // pending `]` or `]]` there.
            let text = &source[body..end];
            let brackets = text.len() - text.trim_end_matches(']').len();
            let content = &text[..text.len() - brackets.min(2)];
            made.push((RepairKind::Closed, end));
            (body + content.len(), end)
        }
    };
    out.push_str("<![CDATA[");
    for (i, c) in source[body..content_end].char_indices() {
        if is_forbidden_char(c) {
            made.push((RepairKind::ForbiddenCharacter, body + i));
            out.push('\u{FFFD}');
        } else {
            out.push(c);
        }
    }
    out.push_str("]]>");
    taken_end - at
}

/// The items of an internal subset the output keeps: `items` less those
/// with an error. Returns the subset text and reports each item dropped.
pub(super) fn kept_subset(
    broken: &Broken<'_>,
    subset: Span,
    items: &[Span],
    made: &mut Made,
) -> String {
    let source = broken.source;
    let mut out = String::with_capacity(subset.len());
    let mut at = subset.start;
    for item in items {
        if item.start < at || item.end > subset.end {
            continue;
        }
        let text = &source[item.range()];
        if broken.kept(*item) && text.starts_with("<!--") {
            // A comment: its `--` mended, as in content.
            if let Some(&(error, _)) = broken
                .within(item.start, item.end)
                .iter()
                .find(|&&(_, code)| code == ErrorCode::MalformedDeclaration)
            {
                out.push_str(&source[at..item.start]);
                let (body, _) = comment_text(&text[4..text.len() - 3]);
                out.push_str("<!--");
                out.push_str(&body);
                out.push_str("-->");
                made.push((RepairKind::CommentText, error));
                at = item.end;
            }
            continue;
        }
        if broken.kept(*item) {
            // Mend what is broken in a kept declaration's value.
            for &(error, code) in broken.within(item.start, item.end) {
                if code != ErrorCode::MalformedDeclaration || error < at {
                    continue;
                }
                out.push_str(&source[at..error]);
                let rest = &source[error..item.end];
                let entity = source[item.range()].starts_with("<!ENTITY");
                let taken = if rest.starts_with("&#X") {
                    // XML's hexadecimal reference is `&#x`.
                    out.push_str("&#x");
                    made.push((RepairKind::ReferenceReplaced, error));
                    3
                } else if let Some(after) = rest.strip_prefix("&#") {
                    // A character reference to what XML cannot carry.
                    out.push_str("&#xFFFD;");
                    made.push((RepairKind::ForbiddenCharacter, error));
                    // (Its digits and `;`: no further, however long the
                    // declaration.)
                    let digits = after
                        .find(|c: char| !c.is_ascii_alphanumeric())
                        .map_or(rest.len(), |i| i + 2);
                    if rest[digits..].starts_with(';') {
                        digits + 1
                    } else {
                        2
                    }
                } else {
                    // A bare `&`, `%` or `<`: a reference to itself (in an
                    // entity value, one the replacement text keeps), which
                    // gives the character it was.
                    out.push_str(match (rest.as_bytes()[0], entity) {
                        (b'&', true) => "&#38;#38;",
                        (b'&', false) => "&amp;",
                        (b'%', _) => "&#37;",
                        _ => "&lt;",
                    });
                    made.push((RepairKind::Escaped, error));
                    1
                };
                at = error + taken;
            }
            continue;
        }
        {
            let first = broken
                .within(item.start, item.end)
                .first()
                .map_or(item.start, |&(at, _)| at);
            out.push_str(&source[at..item.start]);
            made.push((RepairKind::DeclarationDropped, first));
            at = item.end;
        }
    }
    out.push_str(&source[at..subset.end]);
    if out.chars().any(is_forbidden_char) {
        if let Some(&(first, _)) = broken.within(subset.start, subset.end).first() {
            made.push((RepairKind::ForbiddenCharacter, first));
        }
        out = out
            .chars()
            .map(|c| if is_forbidden_char(c) { '\u{FFFD}' } else { c })
            .collect();
    }
    out
}

impl DroppedDeclarations {
    /// What repaired output drops of `doc`'s internal subset, by the
    /// errors `broken` has of it (before any reference is made an error
    /// where the output keeps no external DTD).
    fn of(doc: &Document, broken: &Broken<'_>) -> DroppedDeclarations {
        let mut dropped = DroppedDeclarations::default();
        for doctype in doc.doctype_records() {
            let items = &doctype.subset_items;
            let entities = &doctype.subset_entities;
            let names = dropped_entities(broken, &mut dropped.dependents, items, entities);
            dropped.entities.extend(names);
            // (A malformed one was skipped, and supplied nothing.)
            dropped.attribute_lists |= items.iter().any(|item| {
                !broken.kept_unless(*item, &dropped.dependents)
                    && doc.source()[item.range()].starts_with("<!ATTLIST")
                    && !broken
                        .within(item.start, item.end)
                        .iter()
                        .any(|&(_, code)| code == ErrorCode::MalformedDeclaration)
            });
        }
        dropped
    }
}

/// The general entities the dropped items of an internal subset declared
/// (an item dropped because the parse skipped it declared nothing):
/// references to them cannot be copied. Adds the starts of the items
/// dropped for referring to one to `dependents`.
fn dropped_entities(
    broken: &Broken<'_>,
    dependents: &mut HashSet<usize>,
    items: &[Span],
    entities: &[(usize, Box<str>)],
) -> Vec<Box<str>> {
    use std::collections::HashMap;
    // (Items are in source order.)
    let item_of = |at: usize| {
        let index = items.partition_point(|i| i.start <= at).checked_sub(1)?;
        (at < items[index].end).then_some(index)
    };
    let mut dropped: Vec<Box<str>> = entities
        .iter()
        .filter(|(at, _)| item_of(*at).is_some_and(|i| !broken.kept_unless(items[i], dependents)))
        .map(|(_, name)| name.clone())
        .collect();
    // A kept declaration that refers to a dropped entity (in an entity
    // value or a default) would leave a reference to nothing: it goes too,
    // and so on (one scan of the subset, then each item at most once).
    let mut referring: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, item) in items.iter().enumerate() {
        let text = &broken.source[item.range()];
        if !(text.starts_with("<!ENTITY") || text.starts_with("<!ATTLIST")) {
            continue;
        }
        for (at, _) in text.match_indices('&') {
            let rest = &text[at + 1..];
            let len = rest
                .char_indices()
                .find(|&(_, c)| !crate::chars::is_name_char(c))
                .map_or(rest.len(), |(i, _)| i);
            if len > 0 && rest[len..].starts_with(';') {
                referring.entry(&rest[..len]).or_default().push(index);
            }
        }
    }
    let mut declaring: HashMap<usize, Vec<&Box<str>>> = HashMap::new();
    for (at, name) in entities {
        if let Some(index) = item_of(*at) {
            declaring.entry(index).or_default().push(name);
        }
    }
    let mut queue: Vec<Box<str>> = dropped.clone();
    while let Some(name) = queue.pop() {
        for &index in referring.get(&*name).map_or(&[][..], Vec::as_slice) {
            let item = items[index];
            if !broken.kept_unless(item, dependents) {
                continue;
            }
            dependents.insert(item.start);
            for &declared in declaring.get(&index).map_or(&[][..], Vec::as_slice) {
                dropped.push(declared.clone());
                queue.push(declared.clone());
            }
        }
    }
    dropped
}

/// Whether repaired output keeps what made undeclared entities warnings
/// (`entity-in-external-subset`): the DOCTYPE's external identifier, or a
/// parameter-entity reference in a kept item of its internal subset.
fn external_declarations_kept(doc: &Document, broken: &Broken<'_>) -> bool {
    let Some(node) = doc
        .root()
        .children()
        .find(|n| n.node_type() == NodeType::Doctype)
    else {
        return false;
    };
    let Some(index) = doc.data(node.id().0).doctype_index() else {
        return false;
    };
    let fields = &doc.doctype_records()[index];
    // Read again as written out: a parameter-entity declaration is no
    // reference, and a reference in a dropped declaration is gone.
    // (Only if the identifier does not settle it: this reads the subset.)
    let references = || {
        fields.subset_span.is_some_and(|subset| {
            let kept = kept_subset(broken, subset, &fields.subset_items, &mut Vec::new());
            crate::dtd::has_parameter_references(&kept)
        })
    };
    let Some(span) = node.span() else {
        return references();
    };
    let head_end = fields.subset_span.map_or(span.end + 1, |s| s.start);
    let copied = broken.within(span.start, head_end).is_empty();
    let system_kept = match (node.public_id(), node.system_id()) {
        (_, None) => false,
        _ if copied => true,
        (_, Some(system)) => quotable(system),
    };
    let name_kept = is_name(node.name()) || fields.subset_span.is_some();
    (system_kept && name_kept) || references()
}

/// The document's errors and warnings at offsets in `reach` (stretches of
/// the source in order, apart), each stretch taken with the two bytes
/// after it and, where that meets the end of the input, with what is
/// reported there; in source order, each stretch's first found by binary
/// search (a document keeps its errors in source order).
fn within_reach<'d>(
    doc: &'d Document,
    reach: &[Span],
) -> impl Iterator<Item = &'d crate::error::ParseError> + 'd {
    let errors = doc.errors();
    let len = doc.source().len();
    let mut next = 0;
    let mut stretches = Vec::with_capacity(reach.len());
    for span in reach {
        let last = match span.end.saturating_add(2) {
            end if end >= len => usize::MAX,
            end => end,
        };
        let from = next + errors[next..].partition_point(|e| e.offset < span.start);
        let to = from
            + errors[from..]
                .iter()
                .take_while(|e| e.offset <= last)
                .count();
        stretches.push(from..to);
        next = to;
    }
    stretches.into_iter().flat_map(move |range| &errors[range])
}

/// Where the internal subset lies in the source: its span and its items,
/// and with `doctype`, the DOCTYPE that [`external_declarations_kept`]
/// looks at.
fn subset_reach(doc: &Document, doctype: bool) -> Vec<Span> {
    let mut spans = Vec::new();
    for fields in doc.doctype_records() {
        spans.extend(fields.subset_span);
        if let (Some(first), Some(last)) = (fields.subset_items.first(), fields.subset_items.last())
        {
            spans.push(Span::new(first.start, last.end));
        }
    }
    if doctype {
        let node = doc
            .root()
            .children()
            .find(|n| n.node_type() == NodeType::Doctype);
        spans.extend(node.and_then(|node| node.span()));
    }
    merged(spans)
}

/// `spans` in order, those that overlap or touch made one.
pub(super) fn merged(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_unstable_by_key(|span| span.start);
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        match out.last_mut() {
            Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
            _ => out.push(span),
        }
    }
    out
}
