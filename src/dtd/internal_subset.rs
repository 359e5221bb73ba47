//! The DOCTYPE internal subset (XML 1.0 §2.8): reads the markup
//! declarations that the tokenizer keeps raw between `[` and `]`.
//!
//! It owns the declaration grammar of XML 1.0 §2.8, §3.3 and §4.2, the
//! construction of entity replacement text (§4.4.5, §4.5) and the parameter
//! entities (`%name;`), which never leave this module. It hands on an
//! [`InternalSubset`]: the general entities, the attribute-list declarations,
//! the notations and the parse errors, for the stages that expand entities,
//! add default attributes and expose the DOCTYPE. Element-type declarations
//! are checked against their grammar (a content model that does not follow
//! it is reported with a code of its own, at the character where it goes
//! wrong) and otherwise skipped, as are comments and processing
//! instructions.
//!
//! Properties the callers rely on:
//!
//! * [`parse`] never fails and never panics; a declaration that does not
//!   follow its grammar is reported and skipped, and the rest is read.
//! * No recursion: parameter entities read as declarations, and those
//!   included in entity values, are stacks of inputs.
//! * Time is linear in the subset plus the parameter-entity text read, and
//!   that text is charged to the expansion budget before it is read, so
//!   parameter-entity "billion laughs" stop at the budget.
//! * Every error offset lies in `base..=base + subset.len()`; an error inside
//!   a parameter entity's text is reported at the outermost `%` reference.
//!
//! A parameter entity's replacement text is read "as though it were part of
//! the document" (§4.4.5, §4.4.8): where it is included, its references are
//! recognized again. That is how `&#37;` can make a reference, and how a
//! parameter entity can refer to itself, which is reported and cut.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use memchr::{memchr, memchr2, memmem};

use crate::chars::{
    is_name_char, is_name_start_char, is_predefined_entity, is_pubid_char, is_xml_char,
};
use crate::error::{ErrorCode, ExternalPosition};
use crate::external::{External, ExternalKind};
use crate::limits::Limits;
use crate::notation::Notation;

use super::loading::{self, normalize_line_ends, Reference};

/// What the internal subset declares.
#[derive(Debug, Default)]
pub(crate) struct InternalSubset {
    /// General entities by name; the first declaration of a name wins (XML 1.0 §4.2).
    /// Declarations of the five predefined entities (lt, gt, amp, apos, quot) are ignored.
    pub(crate) entities: HashMap<Box<str>, Entity>,
    /// Attribute-list declarations by element name (as written, qualified names unresolved);
    /// for one element, the first definition of an attribute name wins (XML 1.0 §3.3), and
    /// definitions from several ATTLIST declarations for the same element are merged in order.
    pub(crate) attribute_lists: HashMap<Box<str>, Vec<AttributeDefinition>>,
    /// Notation declarations, in the order declared; the first
    /// declaration of a name wins (XML 1.0 §4.7, VC "Unique Notation Name").
    pub(crate) notations: Vec<Notation>,
    /// The processing instructions of the subset (and of the parameter
    /// entities read in it), in order: target and data, as a PI node has
    /// them. XML 1.0 §2.6 passes them to the application.
    pub(crate) processing_instructions: Vec<(Box<str>, Box<str>)>,
    /// Parse errors, with byte offsets in the whole document (subset offset + `base`).
    pub(crate) errors: Vec<(ErrorCode, usize)>,
    /// Bytes of parameter-entity replacement text read while parsing
    /// (counts against the document's entity-expansion budget).
    pub(crate) expanded_bytes: usize,
    /// What was read from outside the document (the external subset,
    /// external parameter entities), and what its errors say of it.
    pub(crate) files: FilesRead,
    /// Some parameter-entity reference was met: XML 1.0's WFC "Entity
    /// Declared" then no longer applies (the entity may be declared where a
    /// non-validating processor does not read).
    pub(crate) parameter_references: bool,
    /// The items of the subset itself (declarations, comments, PIs,
    /// parameter-entity references, stray text), as document offsets
    /// `(start, end)` in order, without the whitespace between them: what a
    /// writer may keep or drop one by one.
    pub(crate) items: Vec<(usize, usize)>,
}

/// What reading files through the resolver left.
#[derive(Debug, Default)]
pub(crate) struct FilesRead {
    /// Bytes of text read: input, within the input-size limit.
    pub(crate) bytes: usize,
    /// For the errors found inside a file (by their index in the errors,
    /// in order): where in it, the start of the declaration or reference
    /// they are in.
    pub(crate) positions: Vec<(usize, ExternalPosition)>,
    /// For the errors about a file not read (by their index, in order):
    /// which, and why.
    pub(crate) notes: Vec<(usize, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entity {
    pub(crate) value: EntityValue,
    /// Offset (in the document) of the `<!ENTITY` that declared it.
    pub(crate) offset: usize,
    /// The URI of the external text it was declared in (its relative
    /// system identifier is resolved from there); `None` in the document.
    pub(crate) base: Option<Arc<str>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EntityValue {
    /// An internal entity: its replacement text (XML 1.0 §4.5): the literal
    /// with character references and parameter-entity references expanded,
    /// general entity references (`&name;`) kept as written, line ends
    /// normalized (CR LF and lone CR to LF).
    Internal(Box<str>),
    /// `SYSTEM "uri"` or `PUBLIC "pubid" "uri"`, with `NDATA name` for an unparsed entity.
    External {
        public_id: Option<Box<str>>,
        system_id: Box<str>,
        notation: Option<Box<str>>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AttributeDefinition {
    pub(crate) name: Box<str>,
    pub(crate) kind: AttributeType,
    pub(crate) default: DefaultValue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttributeType {
    Cdata,
    Id,
    IdRef,
    IdRefs,
    Entity,
    Entities,
    NmToken,
    NmTokens,
    Notation,
    Enumeration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DefaultValue {
    Required,
    Implied,
    /// `#FIXED "value"`: the literal as written between the quotes (line ends
    /// normalized, nothing else: the caller normalizes it like an attribute value).
    Fixed(Box<str>),
    /// `"value"`: the literal as written between the quotes (line ends normalized).
    Value(Box<str>),
}

impl AttributeType {
    /// Whether values are tokenized (everything but CDATA), so whitespace is collapsed (XML 1.0 §3.3.3).
    pub(crate) fn is_tokenized(self) -> bool {
        self != AttributeType::Cdata
    }
}

/// Reads the declarations of an internal subset. `subset` is the text between `[` and `]`,
/// `base` its offset in the document. Never fails and never panics.
/// Whether an internal subset refers to a parameter entity anywhere it is
/// read (XML 1.0's WFC "Entity Declared" then no longer applies).
pub(crate) fn has_parameter_references(subset: &str) -> bool {
    parse(subset, 0, &Limits::default(), false).parameter_references
}

/// Reads an internal subset that starts at `base` in the input; `xml11`:
/// of an XML 1.1 document (NEL and LINE SEPARATOR end lines in its
/// literals, and controls may be referred to).
pub(crate) fn parse(subset: &str, base: usize, limits: &Limits, xml11: bool) -> InternalSubset {
    parse_with(subset, base, limits, xml11, &External::default(), None)
}

/// The external DTD subset of a DOCTYPE: its public and system identifiers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExternalSubset<'a> {
    pub(crate) public_id: Option<&'a str>,
    pub(crate) system_id: &'a str,
}

/// [`parse`], reading what the subset refers to outside the document
/// through `external`'s resolver, if it has one: external parameter
/// entities, and after the internal subset the external one, `dtd`, if
/// given (XML 1.0 §2.8: the internal subset's declarations come first and
/// so win). Errors inside external text go to the reference that read it
/// (the end of the internal subset for `dtd`).
pub(crate) fn parse_with(
    subset: &str,
    base: usize,
    limits: &Limits,
    xml11: bool,
    external: &External,
    dtd: Option<ExternalSubset<'_>>,
) -> InternalSubset {
    let mut reader = Reader {
        subset,
        base,
        limits,
        external,
        dtd,
        item_start: 0,
        xml11,
        // The subset is one token: read whole before any of it is used.
        budget: limits.entity_expansion_budget(base.saturating_add(subset.len())),
        out: InternalSubset::default(),
        parameter_entities: HashMap::new(),
        defined_attributes: HashMap::new(),
        notation_names: HashSet::new(),
        frames: Vec::new(),
        declarations_stopped: false,
        expansion_stopped: false,
    };
    reader.run();
    reader.out
}

/// A parameter entity (`<!ENTITY % name ...>`).
enum ParameterEntity {
    /// Its replacement text, whether it is being read right now (a
    /// reference to it from inside its own text is recursion), and the URI
    /// it was read from if it is external text.
    Internal {
        text: Arc<str>,
        open: bool,
        source: Option<Arc<str>>,
    },
    /// Not read (yet): without a resolver, never (a non-validating
    /// processor need not, XML 1.0 §5.1). `base` is the URI of the text it
    /// was declared in.
    External {
        public_id: Option<Box<str>>,
        system_id: Box<str>,
        base: Option<Arc<str>>,
    },
}

/// A parameter entity (or the external subset) whose text is being read
/// as declarations.
struct Frame {
    name: Arc<str>,
    text: Arc<str>,
    pos: usize,
    /// Offset in the subset of the outermost reference: where errors inside go.
    anchor: usize,
    /// The URI relative references in it are resolved from: its own if it
    /// was read from outside, else that of the text that referred to it.
    base: Option<Arc<str>>,
    /// It is (or is inside) external text, where conditional sections may
    /// stand (XML 1.0 §3.4).
    external: bool,
    /// `INCLUDE` sections open in it, whose `]]>` is still to come.
    includes: usize,
    /// Its text is a file's, read through the resolver (its URI is
    /// `base`): errors in it say where in it.
    file: bool,
    /// Lines counted so far in it, for those positions.
    lines: LineCursor,
}

/// Lines and columns counted on through a text, so that the positions of
/// many errors in one file cost one pass over it (positions asked out of
/// order start again from the top).
#[derive(Clone, Copy, Default)]
struct LineCursor {
    pos: usize,
    line: u32,
    column: u32,
}

impl LineCursor {
    /// The 1-based line and column (in characters) of `to` in `text`.
    fn position(&mut self, text: &str, to: usize) -> (u32, u32) {
        if to < self.pos || self.line == 0 {
            *self = LineCursor {
                pos: 0,
                line: 1,
                column: 1,
            };
        }
        let to = to.min(text.len());
        for c in text.get(self.pos..to).unwrap_or_default().chars() {
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.pos = to.max(self.pos);
        (self.line, self.column)
    }
}

/// A parameter entity opened to be read: its name, its text, and the URI
/// it was read from if it is external text.
struct Opened {
    name: Arc<str>,
    text: Arc<str>,
    source: Option<Arc<str>>,
}

/// A parameter entity whose text is being read inside an entity value.
struct Inclusion {
    name: Arc<str>,
    text: Arc<str>,
    pos: usize,
}

/// What the top level asks of the frame loop after one item.
enum Step {
    Continue,
    /// The current text is used up.
    End,
    /// Read this parameter entity's text next, then come back.
    Enter(Frame),
}

/// Why a declaration was given up.
enum Fail {
    /// It does not follow the grammar here: `MalformedDeclaration` at its
    /// start, and skip from here to its `>`.
    Grammar,
    /// It does not follow the grammar at `at`, in a way that has a code
    /// of its own (an element declaration's content model): `code` there,
    /// and skip to `>`.
    At { code: ErrorCode, at: usize },
    /// A name that starts at `at` is longer than the limit: skip to `>`.
    LongName { at: usize },
    /// The text ended inside it (in a literal, or before its `>`).
    Unterminated,
}

struct Reader<'s> {
    subset: &'s str,
    base: usize,
    limits: &'s Limits,
    /// What may be read outside the document.
    external: &'s External,
    /// The external subset, to read once the internal one is done.
    dtd: Option<ExternalSubset<'s>>,
    /// Where the item being read starts in the innermost text.
    item_start: usize,
    /// The document is XML 1.1.
    xml11: bool,
    budget: usize,
    out: InternalSubset,
    parameter_entities: HashMap<Arc<str>, ParameterEntity>,
    /// Attribute names defined so far per element, so that "first wins" is
    /// a lookup rather than a scan of the list.
    defined_attributes: HashMap<Box<str>, HashSet<Box<str>>>,
    /// The names of the notations declared so far.
    notation_names: HashSet<Box<str>>,
    /// Parameter entities being read as declarations, innermost last; the
    /// subset itself is below them.
    frames: Vec<Frame>,
    /// A parameter entity was not read: from here on, ENTITY and ATTLIST
    /// declarations are checked but not processed (XML 1.0 §5.1).
    declarations_stopped: bool,
    /// The expansion budget ran out: no parameter entity is read any more.
    expansion_stopped: bool,
}

impl Reader<'_> {
    fn run(&mut self) {
        let subset = self.subset;
        let mut subset_pos = 0;
        loop {
            let (entity_text, pos, anchor) = match self.frames.last() {
                Some(frame) => (Some(Arc::clone(&frame.text)), frame.pos, Some(frame.anchor)),
                None => (None, subset_pos, None),
            };
            let text = entity_text.as_deref().unwrap_or(subset);
            let mut cur = Cursor { text, pos, anchor };
            let step = self.top_level_item(&mut cur);
            match self.frames.last_mut() {
                Some(frame) => frame.pos = cur.pos,
                None => {
                    let spaces = subset.as_bytes()[pos..cur.pos]
                        .iter()
                        .take_while(|&&b| is_s(b))
                        .count();
                    if pos + spaces < cur.pos {
                        let item = (self.base + pos + spaces, self.base + cur.pos);
                        self.out.items.push(item);
                    }
                    subset_pos = cur.pos;
                }
            }
            match step {
                Step::Continue => {}
                Step::Enter(frame) => self.frames.push(frame),
                Step::End => match self.frames.pop() {
                    Some(frame) => self.close_parameter_entity(&frame.name),
                    None => match self.external_subset() {
                        Some(frame) => self.frames.push(frame),
                        None => return,
                    },
                },
            }
        }
    }

    /// The external subset, read once the internal subset is done (if it
    /// is asked for and can be read).
    fn external_subset(&mut self) -> Option<Frame> {
        let dtd = self.dtd.take()?;
        let reference = Reference {
            kind: ExternalKind::Dtd,
            name: None,
            public_id: dtd.public_id,
            system_id: dtd.system_id,
            base: None,
        };
        let at = self.subset.len();
        let (text, uri) = self.load(reference, at)?;
        Some(Frame {
            name: "[dtd]".into(),
            text,
            pos: 0,
            anchor: at,
            base: Some(uri),
            external: true,
            includes: 0,
            file: true,
            lines: LineCursor::default(),
        })
    }

    /// Reads `reference` through the resolver, charging its text to the
    /// expansion budget; `None` (and the error reported at `at`) when it is
    /// not read.
    fn load(&mut self, reference: Reference<'_>, at: usize) -> Option<(Arc<str>, Arc<str>)> {
        if self.expansion_stopped {
            return None;
        }
        // Files read are input, not expansion: together with the
        // document they stay within the input-size limit.
        let read = self.base.saturating_add(self.subset.len());
        let max = (self.limits.max_input_bytes)
            .saturating_sub(read)
            .saturating_sub(self.out.files.bytes);
        match loading::load(self.external, reference, max, self.xml11) {
            None => None,
            Some(Err(unread)) => {
                if unread.code == ErrorCode::InputSizeLimit {
                    self.expansion_stopped = true;
                }
                self.out
                    .files
                    .notes
                    .push((self.out.errors.len(), unread.why));
                self.error(unread.code, at);
                None
            }
            Some(Ok(loaded)) => {
                self.out.files.bytes += loaded.text.len();
                Some((loaded.text, loaded.uri))
            }
        }
    }

    /// The base of what is being read now (see [`Frame::base`]).
    fn current_base(&self) -> Option<Arc<str>> {
        self.frames.last().and_then(|frame| frame.base.clone())
    }

    /// Reads one item where a declaration may stand: whitespace and then a
    /// declaration, comment, PI, conditional section, reference or stray text.
    fn top_level_item(&mut self, cur: &mut Cursor<'_>) -> Step {
        cur.skip_s();
        self.item_start = cur.pos;
        if cur.starts_with(b"]]>") {
            if let Some(frame) = self.frames.last_mut().filter(|f| f.includes > 0) {
                // The end of an `INCLUDE` section.
                frame.includes -= 1;
                cur.pos += 3;
                return Step::Continue;
            }
        }
        match cur.peek() {
            None => Step::End,
            Some(b'<') => {
                self.markup(cur);
                Step::Continue
            }
            Some(b'%') => self.top_level_reference(cur),
            Some(_) => {
                self.stray_text(cur);
                Step::Continue
            }
        }
    }

    fn markup(&mut self, cur: &mut Cursor<'_>) {
        let start = cur.pos;
        if cur.starts_with(b"<!--") {
            self.comment(cur);
        } else if cur.starts_with(b"<?") {
            self.processing_instruction(cur);
        } else if cur.starts_with(b"<![") {
            self.conditional_section(cur);
        } else if let Some((end, expanded)) = self.with_references_replaced(cur) {
            // Read from its text with the references replaced; errors in
            // it go where it starts.
            let mut inner = Cursor {
                text: &expanded,
                pos: 0,
                anchor: Some(cur.offset(start)),
            };
            self.declaration(&mut inner, 0);
            cur.pos = end;
        } else {
            self.declaration(cur, start);
        }
    }

    /// A markup declaration in external text that refers to parameter
    /// entities between its tokens (XML 1.0 §2.8 lets it there, not in the
    /// internal subset): where it ends, and its text with each reference
    /// replaced by the entity's text between two spaces (§4.4.8), again
    /// while the texts bring references, as deep as entities may nest.
    /// `None` when it has no such reference (or is not in external text).
    fn with_references_replaced(&mut self, cur: &Cursor<'_>) -> Option<(usize, String)> {
        if !self.frames.last().is_some_and(|frame| frame.external) {
            return None;
        }
        let end = declaration_end(cur.text, cur.pos)?;
        let original = &cur.text[cur.pos..end];
        // Most declarations have no reference: read in place, no copy.
        memchr(b'%', original.as_bytes())?;
        let mut text = original.to_owned();
        let at = cur.offset(cur.pos);
        for depth in 0.. {
            let references = references_outside_literals(&text);
            if references.is_empty() {
                break;
            }
            if depth >= self.limits.max_entity_depth {
                self.error(ErrorCode::EntityDepthLimit, at);
                return Some((end, original.to_owned()));
            }
            let mut replaced = String::with_capacity(text.len());
            let mut copied = 0;
            for (start, name_end) in references {
                replaced.push_str(&text[copied..start]);
                let name = &text[start + 1..name_end];
                match self.open_parameter_entity(name, at, self.frames.len(), None) {
                    Some(opened) => {
                        replaced.push(' ');
                        replaced.push_str(&opened.text);
                        replaced.push(' ');
                        self.close_parameter_entity(&opened.name);
                    }
                    None => replaced.push_str(&text[start..=name_end]),
                }
                copied = name_end + 1;
            }
            replaced.push_str(&text[copied..]);
            if replaced == text {
                break;
            }
            text = replaced;
        }
        (text != original).then_some((end, text))
    }

    /// A markup declaration, `<!` at `start`.
    fn declaration(&mut self, cur: &mut Cursor<'_>, start: usize) {
        let mut literals = true;
        let result = if cur.eat_str(b"<!") {
            match cur.keyword() {
                "ENTITY" => self.entity_declaration(cur, start),
                "ATTLIST" => self.attlist_declaration(cur),
                "ELEMENT" => {
                    // No literal in it: a quote is a stray character, and
                    // the declaration ends at the next `>`.
                    literals = false;
                    self.element_declaration(cur)
                }
                "NOTATION" => self.notation_declaration(cur),
                _ => Err(Fail::Grammar),
            }
        } else {
            // A `<` that starts no declaration (content markup, say).
            cur.pos += 1;
            Err(Fail::Grammar)
        };
        if let Err(fail) = result {
            self.recover(cur, start, fail, literals);
        }
    }

    /// Reports why the declaration at `start` was given up, and skips the
    /// rest of it: to its `>`, outside literals when it may hold them.
    fn recover(&mut self, cur: &mut Cursor<'_>, start: usize, fail: Fail, literals: bool) {
        let skip = |cur: &mut Cursor<'_>| {
            if literals {
                cur.skip_past_gt();
            } else {
                cur.pos = match memchr(b'>', cur.bytes_from(cur.pos)) {
                    Some(gt) => cur.pos + gt + 1,
                    None => cur.text.len(),
                };
            }
        };
        match fail {
            Fail::Grammar => {
                self.error(ErrorCode::MalformedDeclaration, cur.offset(start));
                skip(cur);
            }
            // The text ended where the declaration needed more: as any
            // declaration cut short (a writer that drops what is broken
            // sees the error as the declaration's own).
            Fail::At { at, .. } if at >= cur.text.len() => {
                self.error(ErrorCode::MalformedDeclaration, cur.offset(start));
                cur.pos = cur.text.len();
            }
            Fail::At { code, at } => {
                self.error(code, cur.offset(at));
                skip(cur);
            }
            Fail::LongName { at } => {
                self.error(ErrorCode::NameLengthLimit, cur.offset(at));
                skip(cur);
            }
            Fail::Unterminated => {
                self.error(ErrorCode::MalformedDeclaration, cur.offset(start));
                cur.pos = cur.text.len();
            }
        }
    }

    /// `<!-- ... -->`, which may not hold `--` (XML 1.0 §2.5).
    fn comment(&mut self, cur: &mut Cursor<'_>) {
        let start = cur.pos;
        let body = start + 4;
        let rest = cur.bytes_from(body);
        match memmem::find(rest, b"-->") {
            Some(close) => {
                // At the first `--` that does not close it.
                match memmem::find(rest, b"--") {
                    Some(hyphens) if hyphens != close => {
                        self.error(ErrorCode::MalformedDeclaration, cur.offset(body + hyphens));
                    }
                    _ => {}
                }
                cur.pos = body + close + 3;
            }
            None => {
                self.error(ErrorCode::MalformedDeclaration, cur.offset(start));
                cur.pos = cur.text.len();
            }
        }
    }

    /// `<?target ... ?>`.
    fn processing_instruction(&mut self, cur: &mut Cursor<'_>) {
        let start = cur.pos;
        cur.pos += 2;
        let target = cur.take_name(true);
        if target.is_some_and(|t| t.eq_ignore_ascii_case("xml")) {
            // An XML declaration, or a PI under the reserved name.
            self.error(
                ErrorCode::ReservedProcessingInstructionTarget,
                cur.offset(start + 2),
            );
        }
        let has_target =
            target.is_some() && (cur.starts_with(b"?>") || cur.peek().is_some_and(is_s));
        match memmem::find(cur.bytes_from(cur.pos), b"?>") {
            Some(close) => {
                let close = cur.pos + close;
                match target {
                    Some(target) if has_target => {
                        // The data starts after the whitespace that ends
                        // the target (`<?pi ?>` has none).
                        cur.skip_s();
                        let data = cur.text.get(cur.pos.min(close)..close).unwrap_or_default();
                        let pi = (target.into(), data.into());
                        self.out.processing_instructions.push(pi);
                    }
                    _ => self.error(ErrorCode::MalformedDeclaration, cur.offset(start)),
                }
                cur.pos = close + 2;
            }
            None => {
                self.error(ErrorCode::MalformedDeclaration, cur.offset(start));
                cur.pos = cur.text.len();
            }
        }
    }

    /// `<![INCLUDE[ ... ]]>` or `<![IGNORE[ ... ]]>` (XML 1.0 §3.4). In
    /// external text, an `INCLUDE` section's content is read as
    /// declarations and an `IGNORE` section is skipped, nested sections
    /// included; the keyword may come from a parameter entity. Only
    /// external text may hold them: in the internal subset the whole
    /// section is skipped, and reported.
    fn conditional_section(&mut self, cur: &mut Cursor<'_>) {
        let start = cur.pos;
        let external = self.frames.last().is_some_and(|frame| frame.external);
        let keyword = if external {
            self.conditional_keyword(cur)
        } else {
            None
        };
        match keyword {
            Some(true) => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.includes += 1;
                }
                return;
            }
            Some(false) => {}
            None => {
                self.error(ErrorCode::MalformedDeclaration, cur.offset(start));
                cur.pos = start;
            }
        }
        let bytes = cur.text.as_bytes();
        let mut depth = 1usize;
        let mut i = if keyword.is_some() {
            cur.pos
        } else {
            start + 3
        };
        while let Some(rest) = bytes.get(i..).filter(|rest| !rest.is_empty()) {
            if rest.starts_with(b"<![") {
                depth += 1;
                i += 3;
            } else if rest.starts_with(b"]]>") {
                depth -= 1;
                i += 3;
                if depth == 0 {
                    cur.pos = i;
                    return;
                }
            } else {
                i += 1;
            }
        }
        cur.pos = bytes.len();
    }

    /// Reads `<![ S? (INCLUDE | IGNORE) S? [`, the keyword perhaps a
    /// parameter entity's text: `Some(true)` for `INCLUDE`, `Some(false)`
    /// for `IGNORE`, the cursor after the `[`; `None` if it is neither.
    fn conditional_keyword(&mut self, cur: &mut Cursor<'_>) -> Option<bool> {
        cur.pos += 3;
        cur.skip_s();
        let keyword = if cur.peek() == Some(b'%') {
            let (name, end) = reference_at(cur.text, cur.pos)?;
            cur.pos = end;
            match self.parameter_entities.get(name) {
                Some(ParameterEntity::Internal { text, .. }) => text.trim().to_owned(),
                _ => return None,
            }
        } else {
            cur.keyword().to_owned()
        };
        // The entity's text may bring the `[` too.
        let keyword = match keyword.strip_suffix('[') {
            Some(keyword) => keyword.trim_end().to_owned(),
            None => {
                cur.skip_s();
                if !cur.eat(b'[') {
                    return None;
                }
                keyword
            }
        };
        match keyword.as_str() {
            "INCLUDE" => Some(true),
            "IGNORE" => Some(false),
            _ => None,
        }
    }

    /// Text that is no declaration: one error, and skip to what may start one.
    fn stray_text(&mut self, cur: &mut Cursor<'_>) {
        let start = cur.pos;
        self.error(ErrorCode::MalformedDeclaration, cur.offset(start));
        cur.pos = match memchr2(b'<', b'%', cur.bytes_from(start + 1)) {
            Some(i) => start + 1 + i,
            None => cur.text.len(),
        };
    }

    /// `%name;` between declarations: its text is read as declarations.
    fn top_level_reference(&mut self, cur: &mut Cursor<'_>) -> Step {
        let start = cur.pos;
        let Some((name, end)) = reference_at(cur.text, start) else {
            self.stray_text(cur);
            return Step::Continue;
        };
        cur.pos = end;
        let at = cur.offset(start);
        match self.open_parameter_entity(name, at, self.frames.len(), None) {
            Some(Opened { name, text, source }) => Step::Enter(Frame {
                name,
                text,
                pos: 0,
                anchor: at,
                external: source.is_some() || self.frames.last().is_some_and(|f| f.external),
                file: source.is_some(),
                base: source.or_else(|| self.current_base()),
                includes: 0,
                lines: LineCursor::default(),
            }),
            None => {
                if self.unread(name) {
                    self.declarations_stopped = true;
                }
                Step::Continue
            }
        }
    }

    /// Whether a reference to `name` is one to an entity that is not read
    /// (undeclared or external), as opposed to one cut by a limit.
    fn unread(&self, name: &str) -> bool {
        name.len() <= self.limits.max_name_length
            && !matches!(
                self.parameter_entities.get(name),
                Some(ParameterEntity::Internal { .. })
            )
    }

    /// Reads the external parameter entity `name` through the resolver, if
    /// there is one, and keeps its text as the entity's (read once: this
    /// first reading is input; each reference after it is expansion,
    /// charged as an internal entity's). `false` when it stays unread (the
    /// error reported at `at`).
    fn read_external_parameter_entity(&mut self, name: &str, at: usize) -> bool {
        let Some(ParameterEntity::External {
            public_id,
            system_id,
            base,
        }) = self.parameter_entities.get(name)
        else {
            return false;
        };
        if !self.external.resolves() {
            return false;
        }
        let (public_id, system_id, base) = (public_id.clone(), system_id.clone(), base.clone());
        let reference = Reference {
            kind: ExternalKind::ParameterEntity,
            name: Some(name),
            public_id: public_id.as_deref(),
            system_id: &system_id,
            base: base.as_deref(),
        };
        let Some((text, uri)) = self.load(reference, at) else {
            return false;
        };
        self.parameter_entities.insert(
            name.into(),
            ParameterEntity::Internal {
                text,
                open: false,
                source: Some(uri),
            },
        );
        true
    }

    /// Decides whether the parameter entity `name`, referred to with `depth`
    /// entities already open, is read; if so, marks it open, charges its text
    /// to the budget and returns it. Otherwise reports why not (at `at`).
    /// `declaring` is the parameter entity whose value holds the reference.
    fn open_parameter_entity(
        &mut self,
        name: &str,
        at: usize,
        depth: usize,
        declaring: Option<&str>,
    ) -> Option<Opened> {
        self.out.parameter_references = true;
        if name.len() > self.limits.max_name_length {
            self.error(ErrorCode::NameLengthLimit, at);
            return None;
        }
        let unread = matches!(
            self.parameter_entities.get(name),
            Some(ParameterEntity::External { .. })
        );
        let just_read = unread && self.read_external_parameter_entity(name, at);
        if unread && !just_read && self.external.resolves() {
            return None;
        }
        let (key, text, source) = match self.parameter_entities.get_key_value(name) {
            Some((
                key,
                ParameterEntity::Internal {
                    text,
                    open: false,
                    source,
                },
            )) => (Arc::clone(key), Arc::clone(text), source.clone()),
            Some((_, ParameterEntity::Internal { open: true, .. })) => {
                self.error(ErrorCode::RecursiveEntityReference, at);
                return None;
            }
            None if declaring == Some(name) => {
                self.error(ErrorCode::RecursiveEntityReference, at);
                return None;
            }
            None | Some((_, ParameterEntity::External { .. })) => {
                self.error(ErrorCode::UnreadParameterEntity, at);
                return None;
            }
        };
        if self.expansion_stopped {
            return None;
        }
        if depth >= self.limits.max_entity_depth {
            self.error(ErrorCode::EntityDepthLimit, at);
            return None;
        }
        // Charged before a byte is read, so that no expansion outgrows it
        // (but for external text read just now: that is input).
        let charge = if just_read { 0 } else { text.len() };
        match self.out.expanded_bytes.checked_add(charge) {
            Some(total) if total <= self.budget => self.out.expanded_bytes = total,
            _ => {
                self.expansion_stopped = true;
                self.error(ErrorCode::EntityExpansionLimit, at);
                return None;
            }
        }
        if let Some(ParameterEntity::Internal { open, .. }) = self.parameter_entities.get_mut(name)
        {
            *open = true;
        }
        Some(Opened {
            name: key,
            text,
            source,
        })
    }

    fn close_parameter_entity(&mut self, name: &str) {
        if let Some(ParameterEntity::Internal { open, .. }) = self.parameter_entities.get_mut(name)
        {
            *open = false;
        }
    }

    /// `<!ENTITY name def>` or `<!ENTITY % name def>` (XML 1.0 §4.2), after
    /// the keyword.
    fn entity_declaration(&mut self, cur: &mut Cursor<'_>, start: usize) -> Result<(), Fail> {
        cur.require_s()?;
        let parameter = cur.eat(b'%');
        if parameter {
            cur.require_s()?;
        }
        let name = cur.name(self.limits.max_name_length)?;
        cur.require_s()?;
        let process = !self.declarations_stopped;
        let value = match cur.peek() {
            Some(quote @ (b'"' | b'\'')) => {
                cur.pos += 1;
                let declaring = parameter.then_some(name);
                EntityValue::Internal(self.entity_value(cur, quote, declaring, process)?.into())
            }
            _ => {
                let (public_id, system_id) = cur.external_id()?;
                let mut notation = None;
                if cur.skip_s() && cur.starts_with(b"NDATA") {
                    if parameter {
                        // Parameter entities cannot be unparsed (§4.2.2).
                        return Err(Fail::Grammar);
                    }
                    cur.pos += "NDATA".len();
                    cur.require_s()?;
                    notation = Some(cur.name(self.limits.max_name_length)?.into());
                }
                EntityValue::External {
                    public_id: public_id.map(|id| normalize_line_ends(id, false)),
                    system_id: normalize_line_ends(system_id, false),
                    notation,
                }
            }
        };
        cur.skip_s();
        cur.expect(b'>')?;
        if !process {
            return Ok(());
        }
        if parameter {
            if !self.parameter_entities.contains_key(name) {
                let entity = match value {
                    EntityValue::Internal(text) => ParameterEntity::Internal {
                        text: text.into(),
                        open: false,
                        source: None,
                    },
                    EntityValue::External {
                        public_id,
                        system_id,
                        ..
                    } => ParameterEntity::External {
                        public_id,
                        system_id,
                        base: self.current_base(),
                    },
                };
                self.parameter_entities.insert(name.into(), entity);
            }
        } else if !is_predefined_entity(name) && !self.out.entities.contains_key(name) {
            let offset = self.document_offset(cur.offset(start));
            let base = self.current_base();
            let entity = Entity {
                value,
                offset,
                base,
            };
            self.out.entities.insert(name.into(), entity);
        }
        Ok(())
    }

    /// The literal of an internal entity, after its opening quote, turned
    /// into replacement text (XML 1.0 §4.5). When `process` is false it is
    /// only skipped.
    fn entity_value(
        &mut self,
        cur: &mut Cursor<'_>,
        quote: u8,
        declaring: Option<&str>,
        process: bool,
    ) -> Result<String, Fail> {
        if !process {
            return match memchr(quote, cur.bytes_from(cur.pos)) {
                Some(i) => {
                    cur.pos += i + 1;
                    Ok(String::new())
                }
                None => Err(Fail::Unterminated),
            };
        }
        let mut value = String::new();
        let mut reported_reference = false;
        let external = self.frames.last().is_some_and(|frame| frame.external);
        let mut included: Vec<Inclusion> = Vec::new();
        // Where errors inside `included` go: the outermost `%` reference.
        let mut inclusion_anchor = 0;
        let result = loop {
            let entity_text = included.last().map(|inc| (Arc::clone(&inc.text), inc.pos));
            let (text, pos, in_literal) = match &entity_text {
                Some((text, pos)) => (&**text, *pos, false),
                None => (cur.text, cur.pos, true),
            };
            let bytes = text.as_bytes();
            let rest = bytes.get(pos..).unwrap_or_default();
            // In included text, quotes are data and line ends were normalized
            // when it was declared (a CR left in it came from `&#13;`).
            let run = if in_literal {
                rest.iter().position(|&b| {
                    b == quote
                        || matches!(b, b'&' | b'%' | b'\r')
                        || (self.xml11 && matches!(b, 0xC2 | 0xE2))
                })
            } else {
                memchr2(b'&', b'%', rest)
            };
            let at = pos + run.unwrap_or(rest.len());
            value.push_str(text.get(pos..at).unwrap_or_default());
            let error_at = if in_literal {
                cur.offset(at)
            } else {
                inclusion_anchor
            };
            let next = match bytes.get(at) {
                None if in_literal => break Err(Fail::Unterminated),
                None => {
                    if let Some(inc) = included.pop() {
                        self.close_parameter_entity(&inc.name);
                    }
                    continue;
                }
                Some(&b) if in_literal && b == quote => {
                    cur.pos = at + 1;
                    break Ok(());
                }
                Some(b'\r') => {
                    value.push('\n');
                    at + match bytes.get(at + 1..at + 3) {
                        Some([b'\n', _]) => 2,
                        Some([0xC2, 0x85]) if self.xml11 => 3,
                        _ if bytes.get(at + 1) == Some(&b'\n') => 2,
                        _ => 1,
                    }
                }
                // In XML 1.1, NEL and LINE SEPARATOR end lines; other
                // characters with their lead bytes are data.
                Some(0xC2 | 0xE2) => {
                    let c = text
                        .get(at..)
                        .and_then(|t| t.chars().next())
                        .unwrap_or('\u{FFFD}');
                    let line_end = matches!(c, '\u{85}' | '\u{2028}');
                    value.push(if line_end { '\n' } else { c });
                    at + c.len_utf8()
                }
                Some(b'&') => match char_ref_at(bytes, at, self.xml11) {
                    CharRefAt::Char(c, end) => {
                        value.push(c);
                        end
                    }
                    CharRefAt::NotAChar(end) => {
                        self.error(ErrorCode::MalformedDeclaration, error_at);
                        value.push_str(text.get(at..end).unwrap_or_default());
                        end
                    }
                    CharRefAt::None => match reference_at(text, at) {
                        // A general entity reference: resolved where it is used.
                        Some((_, end)) => {
                            value.push_str(text.get(at..end).unwrap_or_default());
                            end
                        }
                        None => {
                            self.error(ErrorCode::MalformedDeclaration, error_at);
                            value.push('&');
                            at + 1
                        }
                    },
                },
                Some(_) => match reference_at(text, at) {
                    Some((name, end)) => {
                        if in_literal && !reported_reference && !external {
                            // WFC: PEs in Internal Subset (XML 1.0 §2.8):
                            // reported (once per value), and still included.
                            // External text may hold them.
                            reported_reference = true;
                            self.error(ErrorCode::ParameterEntityInDeclaration, error_at);
                        }
                        let depth = self.frames.len() + included.len();
                        if let Some(Opened { name, text, .. }) =
                            self.open_parameter_entity(name, error_at, depth, declaring)
                        {
                            if included.is_empty() {
                                inclusion_anchor = error_at;
                            }
                            // Advance past the reference before reading inside it.
                            set_pos(cur, &mut included, end);
                            included.push(Inclusion { name, text, pos: 0 });
                            continue;
                        }
                        end
                    }
                    None => {
                        self.error(ErrorCode::MalformedDeclaration, error_at);
                        value.push('%');
                        at + 1
                    }
                },
            };
            set_pos(cur, &mut included, next);
        };
        for inc in included {
            self.close_parameter_entity(&inc.name);
        }
        result.map(|()| value)
    }

    /// `<!ATTLIST element attdef*>` (XML 1.0 §3.3), after the keyword.
    fn attlist_declaration(&mut self, cur: &mut Cursor<'_>) -> Result<(), Fail> {
        let max = self.limits.max_name_length;
        cur.require_s()?;
        let element = cur.name(max)?;
        // Names with colons must be qualified names (Namespaces in XML
        // 1.0 §7): `p:local`, both parts names without colons.
        let qualified = |name: &str| match name.split_once(':') {
            Some((prefix, local)) => {
                !prefix.is_empty() && crate::chars::is_name(local) && !local.contains(':')
            }
            None => true,
        };
        if !qualified(element) {
            return Err(Fail::Grammar);
        }
        let mut definitions = Vec::new();
        loop {
            let spaced = cur.skip_s();
            if cur.eat(b'>') {
                break;
            }
            if !spaced {
                return Err(Fail::Grammar);
            }
            let name = cur.name(max)?;
            if !qualified(name) {
                return Err(Fail::Grammar);
            }
            cur.require_s()?;
            let kind = cur.attribute_type(max)?;
            cur.require_s()?;
            let default = self.default_value(cur)?;
            definitions.push(AttributeDefinition {
                name: name.into(),
                kind,
                default,
            });
        }
        if self.declarations_stopped {
            return Ok(());
        }
        let defined = self.defined_attributes.entry(element.into()).or_default();
        let list = self.out.attribute_lists.entry(element.into()).or_default();
        for definition in definitions {
            if defined.insert(definition.name.clone()) {
                list.push(definition);
            }
        }
        Ok(())
    }

    /// `#REQUIRED`, `#IMPLIED`, `#FIXED "value"` or `"value"`.
    fn default_value(&mut self, cur: &mut Cursor<'_>) -> Result<DefaultValue, Fail> {
        if !cur.eat(b'#') {
            return Ok(DefaultValue::Value(self.attribute_value(cur)?));
        }
        match cur.keyword() {
            "REQUIRED" => Ok(DefaultValue::Required),
            "IMPLIED" => Ok(DefaultValue::Implied),
            "FIXED" => {
                cur.require_s()?;
                Ok(DefaultValue::Fixed(self.attribute_value(cur)?))
            }
            _ => Err(Fail::Grammar),
        }
    }

    /// A default value, as written. XML forbids `<` in it, and `&` but as
    /// a reference (§3.1 `AttValue`); each is reported and the value kept,
    /// as a tag's attribute value would be.
    fn attribute_value(&mut self, cur: &mut Cursor<'_>) -> Result<Box<str>, Fail> {
        let open = cur.pos + 1;
        let value = cur.quoted()?;
        let bytes = value.as_bytes();
        for i in memchr::memchr2_iter(b'<', b'&', bytes) {
            // A general entity must be declared before a default refers to
            // it (XML 1.0 WFC "Entity Declared").
            let declared =
                |name: &str| is_predefined_entity(name) || self.out.entities.contains_key(name);
            let broken = bytes[i] == b'<'
                || match char_ref_at(bytes, i, self.xml11) {
                    CharRefAt::Char(..) => false,
                    CharRefAt::NotAChar(_) => true,
                    CharRefAt::None => {
                        !reference_at(value, i).is_some_and(|(name, _)| declared(name))
                    }
                };
            if broken {
                self.error(ErrorCode::MalformedDeclaration, cur.offset(open + i));
            }
        }
        Ok(normalize_line_ends(value, self.xml11))
    }

    /// `<!ELEMENT name contentspec>` (XML 1.0 §3.2), after the keyword:
    /// nothing in it is used, but it must follow its grammar to be
    /// well-formed. A content specification that does not is reported with
    /// a code of its own, at the character where it goes wrong.
    fn element_declaration(&mut self, cur: &mut Cursor<'_>) -> Result<(), Fail> {
        let max = self.limits.max_name_length;
        cur.require_s()?;
        cur.name(max)?;
        cur.require_s()?;
        if cur.peek() == Some(b'(') {
            cur.content_model(max)?;
        } else {
            let at = cur.pos;
            if !matches!(cur.keyword(), "EMPTY" | "ANY") {
                return Err(Fail::At {
                    code: ErrorCode::InvalidContentSpecification,
                    at,
                });
            }
        }
        cur.skip_s();
        if matches!(cur.peek(), Some(b'?' | b'*' | b'+')) {
            // `(a) *`, `(a)**`: an indicator follows its particle at once.
            return Err(Fail::At {
                code: ErrorCode::InvalidOccurrenceIndicator,
                at: cur.pos,
            });
        }
        cur.expect(b'>')
    }

    /// `<!NOTATION name (ExternalID | PUBLIC pubid)>` (XML 1.0 §4.7), after
    /// the keyword. The first declaration of a name is kept; another is
    /// `duplicate-notation-declaration` at its name (a warning: XML 1.0
    /// makes it a validity constraint, "Unique Notation Name").
    fn notation_declaration(&mut self, cur: &mut Cursor<'_>) -> Result<(), Fail> {
        cur.require_s()?;
        let name_at = cur.pos;
        let name = cur.name(self.limits.max_name_length)?;
        cur.require_s()?;
        let (public_id, system_id) = match cur.keyword() {
            "SYSTEM" => {
                cur.require_s()?;
                (None, Some(cur.quoted()?))
            }
            "PUBLIC" => {
                cur.require_s()?;
                let public_id = cur.quoted()?;
                if !public_id.chars().all(is_pubid_char) {
                    return Err(Fail::Grammar);
                }
                // The system literal is optional here.
                let spaced = cur.skip_s();
                let system_id = if spaced && matches!(cur.peek(), Some(b'"' | b'\'')) {
                    Some(cur.quoted()?)
                } else {
                    None
                };
                (Some(public_id), system_id)
            }
            _ => return Err(Fail::Grammar),
        };
        cur.skip_s();
        cur.expect(b'>')?;
        if self.notation_names.contains(name) {
            self.error(ErrorCode::DuplicateNotationDeclaration, cur.offset(name_at));
        } else {
            self.notation_names.insert(name.into());
            self.out.notations.push(Notation::new(
                name.into(),
                public_id.map(normalize_public_id),
                system_id.map(|id| normalize_line_ends(id, false)),
            ));
        }
        Ok(())
    }

    fn error(&mut self, code: ErrorCode, subset_offset: usize) {
        let offset = self.document_offset(subset_offset);
        if let Some(position) = self.position_in_file() {
            self.out
                .files
                .positions
                .push((self.out.errors.len(), position));
        }
        self.out.errors.push((code, offset));
    }

    /// Where in a file read through the resolver the reader is, if it is
    /// in one: the start of the item it reads, or of the reference to the
    /// internal entity it reads.
    fn position_in_file(&mut self) -> Option<ExternalPosition> {
        let top = self.frames.len().checked_sub(1)?;
        let k = (0..=top).rev().find(|&i| self.frames[i].file)?;
        let frame = &mut self.frames[k];
        let pos = if k == top { self.item_start } else { frame.pos };
        let (line, column) = frame.lines.position(&frame.text, pos);
        Some(ExternalPosition::new(frame.base.as_deref()?, line, column))
    }

    fn document_offset(&self, subset_offset: usize) -> usize {
        self.base
            .saturating_add(subset_offset.min(self.subset.len()))
    }
}

/// Moves the reader of an entity value on: the innermost included text, or
/// the literal itself.
fn set_pos(cur: &mut Cursor<'_>, included: &mut [Inclusion], pos: usize) {
    match included.last_mut() {
        Some(inc) => inc.pos = pos,
        None => cur.pos = pos,
    }
}

/// A position in one text: the subset, or a parameter entity's text.
struct Cursor<'t> {
    text: &'t str,
    pos: usize,
    /// `None` in the subset; in a parameter entity's text, the subset offset
    /// of the outermost reference, where errors are reported.
    anchor: Option<usize>,
}

impl<'t> Cursor<'t> {
    /// The subset offset to report for `pos` in this text.
    fn offset(&self, pos: usize) -> usize {
        self.anchor.unwrap_or(pos)
    }

    fn bytes_from(&self, pos: usize) -> &'t [u8] {
        self.text.as_bytes().get(pos..).unwrap_or_default()
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn starts_with(&self, prefix: &[u8]) -> bool {
        self.bytes_from(self.pos).starts_with(prefix)
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.pos += 1;
        }
        found
    }

    fn eat_str(&mut self, prefix: &[u8]) -> bool {
        let found = self.starts_with(prefix);
        if found {
            self.pos += prefix.len();
        }
        found
    }

    fn expect(&mut self, byte: u8) -> Result<(), Fail> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(Fail::Grammar)
        }
    }

    /// Skips XML's S; says whether there was any.
    fn skip_s(&mut self) -> bool {
        let n = self
            .bytes_from(self.pos)
            .iter()
            .take_while(|&&b| is_s(b))
            .count();
        self.pos += n;
        n > 0
    }

    fn require_s(&mut self) -> Result<(), Fail> {
        if self.skip_s() {
            Ok(())
        } else {
            Err(Fail::Grammar)
        }
    }

    /// A run of ASCII letters: the keywords are compared whole, and
    /// case-sensitively, so `<!ENTITYx` and `<!entity` match none.
    fn keyword(&mut self) -> &'t str {
        let start = self.pos;
        let n = self
            .bytes_from(start)
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        self.pos += n;
        self.text.get(start..start + n).unwrap_or_default()
    }

    /// A `Name` (`name_start`) or an `Nmtoken` (XML 1.0 §2.3), if one starts here.
    fn take_name(&mut self, name_start: bool) -> Option<&'t str> {
        let rest = self.text.get(self.pos..)?;
        let len = name_len(rest, name_start);
        if len == 0 {
            return None;
        }
        self.pos += len;
        rest.get(..len)
    }

    /// A `Name` that the declaration needs, within the length limit.
    fn name(&mut self, max_len: usize) -> Result<&'t str, Fail> {
        self.name_or_token(true, max_len)
    }

    fn name_or_token(&mut self, name_start: bool, max_len: usize) -> Result<&'t str, Fail> {
        let at = self.pos;
        let name = self.take_name(name_start).ok_or(Fail::Grammar)?;
        if name.len() > max_len {
            return Err(Fail::LongName { at });
        }
        Ok(name)
    }

    /// A quoted literal; the text between the quotes.
    fn quoted(&mut self) -> Result<&'t str, Fail> {
        let quote = match self.peek() {
            Some(quote @ (b'"' | b'\'')) => quote,
            _ => return Err(Fail::Grammar),
        };
        let open = self.pos + 1;
        let len = memchr(quote, self.bytes_from(open)).ok_or(Fail::Unterminated)?;
        self.pos = open + len + 1;
        Ok(self.text.get(open..open + len).unwrap_or_default())
    }

    /// A content model from its `(`: `Mixed` or `children` (XML 1.0
    /// §3.2.1, §3.2.2). Groups nest on an explicit stack, not by recursion.
    /// A model that does not follow the grammar fails with the code for
    /// what is wrong, at the character where it is.
    fn content_model(&mut self, max_len: usize) -> Result<(), Fail> {
        self.expect(b'(')?;
        self.skip_s();
        if self.eat_str(b"#PCDATA") {
            return self.mixed_content(max_len);
        }
        // children: the separator of each open group (`|` or `,`), once
        // it has one.
        let mut groups: Vec<Option<u8>> = vec![None];
        loop {
            // A content particle: a name, or a group that opens here.
            self.skip_s();
            if self.eat(b'(') {
                groups.push(None);
                continue;
            }
            self.particle_name(max_len)?;
            self.eat_occurrence();
            // What follows it: separators, and groups that close.
            loop {
                self.skip_s();
                let at = self.pos;
                match self.peek() {
                    Some(b')') => {
                        self.pos += 1;
                        self.eat_occurrence();
                        groups.pop();
                        if groups.is_empty() {
                            return Ok(());
                        }
                    }
                    Some(separator @ (b'|' | b',')) => {
                        let group = groups.last_mut().ok_or(Fail::Grammar)?;
                        if group.is_some_and(|s| s != separator) {
                            return Err(content_error(
                                ErrorCode::MixedSeparatorsInContentModel,
                                at,
                            ));
                        }
                        *group = Some(separator);
                        self.pos += 1;
                        break;
                    }
                    other => return Err(self.not_a_separator(other)),
                }
            }
        }
    }

    /// The rest of `( #PCDATA (| Name)* )*` or `( #PCDATA )`, after
    /// `#PCDATA`.
    fn mixed_content(&mut self, max_len: usize) -> Result<(), Fail> {
        let mut names = 0;
        loop {
            self.skip_s();
            let at = self.pos;
            match self.peek() {
                Some(b')') => {
                    self.pos += 1;
                    return match self.peek() {
                        Some(b'*') => {
                            self.pos += 1;
                            Ok(())
                        }
                        // Only `*` may follow mixed content.
                        Some(b'?' | b'+') => Err(content_error(
                            ErrorCode::InvalidOccurrenceIndicator,
                            self.pos,
                        )),
                        // `(#PCDATA)` alone may go without it.
                        _ if names == 0 => Ok(()),
                        _ => Err(content_error(
                            ErrorCode::MissingStarAfterMixedContent,
                            self.pos,
                        )),
                    };
                }
                Some(b'|') => {
                    self.pos += 1;
                    self.skip_s();
                    // Names only: no group, no occurrence indicator.
                    if self.peek() == Some(b'(') {
                        return Err(content_error(ErrorCode::InvalidContentModel, self.pos));
                    }
                    self.particle_name(max_len)?;
                    names += 1;
                }
                Some(b',') if names > 0 => {
                    return Err(content_error(ErrorCode::MixedSeparatorsInContentModel, at));
                }
                other => return Err(self.not_a_separator(other)),
            }
        }
    }

    /// The element name of a content particle, which must be here.
    fn particle_name(&mut self, max_len: usize) -> Result<(), Fail> {
        let at = self.pos;
        let code = match self.peek() {
            Some(b'#') if self.starts_with(b"#PCDATA") => ErrorCode::MisplacedPcdata,
            Some(b'?' | b'*' | b'+') => ErrorCode::InvalidOccurrenceIndicator,
            Some(b'>' | b'<') | None => ErrorCode::UnclosedContentModel,
            _ => match self.name(max_len) {
                Ok(_) => return Ok(()),
                Err(Fail::Grammar) => ErrorCode::MissingContentParticle,
                Err(other) => return Err(other),
            },
        };
        Err(content_error(code, at))
    }

    /// Why `found`, where a content model needs `,`, `|` or `)`, is wrong.
    fn not_a_separator(&self, found: Option<u8>) -> Fail {
        let code = match found {
            // After whitespace or another indicator.
            Some(b'?' | b'*' | b'+') => ErrorCode::InvalidOccurrenceIndicator,
            // The declaration (or the text) ends with a group open, or
            // the next markup starts.
            Some(b'>' | b'<') | None => ErrorCode::UnclosedContentModel,
            _ => ErrorCode::InvalidContentModel,
        };
        content_error(code, self.pos)
    }

    /// `?`, `*` or `+` right after a content particle, if there is one.
    fn eat_occurrence(&mut self) {
        if matches!(self.peek(), Some(b'?' | b'*' | b'+')) {
            self.pos += 1;
        }
    }

    /// `SYSTEM "uri"` or `PUBLIC "pubid" "uri"` (XML 1.0 §4.2.2).
    fn external_id(&mut self) -> Result<(Option<&'t str>, &'t str), Fail> {
        match self.keyword() {
            "SYSTEM" => {
                self.require_s()?;
                Ok((None, self.quoted()?))
            }
            "PUBLIC" => {
                self.require_s()?;
                let public_id = self.quoted()?;
                if !public_id.chars().all(is_pubid_char) {
                    return Err(Fail::Grammar);
                }
                self.require_s()?;
                Ok((Some(public_id), self.quoted()?))
            }
            _ => Err(Fail::Grammar),
        }
    }

    /// `CDATA`, a tokenized type, `NOTATION (a|b)` or `(a|b)` (XML 1.0 §3.3.1).
    fn attribute_type(&mut self, max_len: usize) -> Result<AttributeType, Fail> {
        if self.peek() == Some(b'(') {
            self.enumeration(false, max_len)?;
            return Ok(AttributeType::Enumeration);
        }
        Ok(match self.keyword() {
            "CDATA" => AttributeType::Cdata,
            "ID" => AttributeType::Id,
            "IDREF" => AttributeType::IdRef,
            "IDREFS" => AttributeType::IdRefs,
            "ENTITY" => AttributeType::Entity,
            "ENTITIES" => AttributeType::Entities,
            "NMTOKEN" => AttributeType::NmToken,
            "NMTOKENS" => AttributeType::NmTokens,
            "NOTATION" => {
                self.require_s()?;
                self.enumeration(true, max_len)?;
                AttributeType::Notation
            }
            _ => return Err(Fail::Grammar),
        })
    }

    /// `( S? token (S? '|' S? token)* S? )`, of Names or Nmtokens.
    fn enumeration(&mut self, names: bool, max_len: usize) -> Result<(), Fail> {
        self.expect(b'(')?;
        loop {
            self.skip_s();
            self.name_or_token(names, max_len)?;
            self.skip_s();
            if self.eat(b')') {
                return Ok(());
            }
            self.expect(b'|')?;
        }
    }

    /// Skips past the next `>` outside quotes; false (at the end) if none.
    fn skip_past_gt(&mut self) -> bool {
        let bytes = self.text.as_bytes();
        let mut i = self.pos;
        loop {
            match memchr::memchr3(b'>', b'"', b'\'', bytes.get(i..).unwrap_or_default()) {
                None => break,
                Some(found) => {
                    let at = i + found;
                    match bytes.get(at) {
                        Some(&quote @ (b'"' | b'\'')) => {
                            match memchr(quote, bytes.get(at + 1..).unwrap_or_default()) {
                                Some(close) => i = at + 1 + close + 1,
                                None => break,
                            }
                        }
                        _ => {
                            self.pos = at + 1;
                            return true;
                        }
                    }
                }
            }
        }
        self.pos = bytes.len();
        false
    }
}

/// A content-model error `code` at `at` (in the cursor's text).
fn content_error(code: ErrorCode, at: usize) -> Fail {
    Fail::At { code, at }
}

/// XML's S (§2.3).
fn is_s(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// The length in bytes of the `Name` (or `Nmtoken`) at the start of `s`; 0 if none.
fn name_len(s: &str, name_start: bool) -> usize {
    let mut chars = s.char_indices();
    let starts = chars.next().is_some_and(|(_, c)| {
        if name_start {
            is_name_start_char(c)
        } else {
            is_name_char(c)
        }
    });
    if !starts {
        return 0;
    }
    chars
        .find(|&(_, c)| !is_name_char(c))
        .map_or(s.len(), |(i, _)| i)
}

/// `&name;` or `%name;` at `at`: the name and the offset after the `;`.
fn reference_at(text: &str, at: usize) -> Option<(&str, usize)> {
    let rest = text.get(at + 1..)?;
    let len = name_len(rest, true);
    if len == 0 || rest.as_bytes().get(len) != Some(&b';') {
        return None;
    }
    Some((rest.get(..len)?, at + 1 + len + 1))
}

/// What a `&` starts, as far as character references go.
enum CharRefAt {
    /// `&#N;` or `&#xN;` for a character XML allows; the offset after it.
    Char(char, usize),
    /// A well-formed reference to a code point that is no XML `Char`.
    NotAChar(usize),
    /// No character reference.
    None,
}

/// `&#N;` or `&#xN;` at `at` (XML 1.0 §4.1); `xml11`: the C0 and C1
/// controls may be referred to (XML 1.1 §2.2).
fn char_ref_at(bytes: &[u8], at: usize, xml11: bool) -> CharRefAt {
    if bytes.get(at + 1) != Some(&b'#') {
        return CharRefAt::None;
    }
    let hex = bytes.get(at + 2) == Some(&b'x');
    let digits_start = at + if hex { 3 } else { 2 };
    let radix = if hex { 16 } else { 10 };
    let mut value: u32 = 0;
    let mut end = digits_start;
    while let Some(digit) = bytes.get(end).and_then(|&b| (b as char).to_digit(radix)) {
        // Saturates, so that a long run of digits is simply out of range.
        value = value.saturating_mul(radix).saturating_add(digit);
        end += 1;
    }
    if end == digits_start || bytes.get(end) != Some(&b';') {
        return CharRefAt::None;
    }
    let allowed = |c: char| is_xml_char(c) || (xml11 && matches!(c, '\u{1}'..='\u{1F}'));
    match char::from_u32(value).filter(|&c| allowed(c)) {
        Some(c) => CharRefAt::Char(c, end + 1),
        None => CharRefAt::NotAChar(end + 1),
    }
}

/// Where the declaration that starts at `start` of `text` ends: after its
/// `>` outside literals; `None` if the text ends first.
fn declaration_end(text: &str, start: usize) -> Option<usize> {
    let mut quote = None;
    for (i, byte) in text.bytes().enumerate().skip(start) {
        match (quote, byte) {
            (None, b'"' | b'\'') => quote = Some(byte),
            (Some(open), _) if open == byte => quote = None,
            (None, b'>') => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// The parameter-entity references (`%name;`) in a declaration's text
/// outside its literals: where each starts and where its `;` is.
fn references_outside_literals(text: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut quote = None;
    for (i, byte) in text.bytes().enumerate() {
        match (quote, byte) {
            (None, b'"' | b'\'') => quote = Some(byte),
            (Some(open), _) if open == byte => quote = None,
            (None, b'%') => {
                if let Some((_, end)) = reference_at(text, i) {
                    found.push((i, end - 1));
                }
            }
            _ => {}
        }
    }
    found
}

/// A public identifier as it is matched (XML 1.0 §4.2.2): runs of white
/// space made one space, none at either end.
fn normalize_public_id(id: &str) -> Box<str> {
    id.split([' ', '\t', '\r', '\n'])
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ErrorCode::*;

    fn read(subset: &str) -> InternalSubset {
        parse(subset, 0, &Limits::default(), false)
    }

    fn internal(out: &InternalSubset, name: &str) -> Option<String> {
        match out.entities.get(name).map(|e| &e.value) {
            Some(EntityValue::Internal(text)) => Some(text.to_string()),
            _ => None,
        }
    }

    fn codes(out: &InternalSubset) -> Vec<ErrorCode> {
        out.errors.iter().map(|&(code, _)| code).collect()
    }

    fn attributes(
        out: &InternalSubset,
        element: &str,
    ) -> Vec<(String, AttributeType, DefaultValue)> {
        out.attribute_lists
            .get(element)
            .map(|list| {
                list.iter()
                    .map(|d| (d.name.to_string(), d.kind, d.default.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    // ----- ENTITY declarations (XML 1.0 §4.2) ---------------------------

    #[test]
    fn internal_entities_in_either_quote() {
        let out = read(r#"<!ENTITY a "it's"> <!ENTITY b 'say "hi"'>"#);
        assert_eq!(out.errors, []);
        assert_eq!(internal(&out, "a").as_deref(), Some("it's"));
        assert_eq!(internal(&out, "b").as_deref(), Some(r#"say "hi""#));
        assert_eq!(out.entities["a"].offset, 0);
        assert_eq!(out.entities["b"].offset, 19);
    }

    #[test]
    fn entity_offsets_count_from_base() {
        let out = parse("\n  <!ENTITY a 'x'>", 40, &Limits::default(), false);
        assert_eq!(out.entities["a"].offset, 43);
    }

    #[test]
    fn whitespace_of_every_kind_between_parts() {
        let out = read("\t<!ENTITY\r\na\t\n'x'\r\n>\r");
        assert_eq!(out.errors, []);
        assert_eq!(internal(&out, "a").as_deref(), Some("x"));
    }

    #[test]
    fn character_references_are_replaced() {
        let out = read("<!ENTITY a '&#65;&#x42;&#x00e9;&#128512;&#10;&#13;'>");
        assert_eq!(out.errors, []);
        assert_eq!(
            internal(&out, "a").as_deref(),
            Some("AB\u{e9}\u{1F600}\n\r")
        );
    }

    #[test]
    fn general_references_are_kept_as_written() {
        let out = read("<!ENTITY a '&b; &lt; &#38;#38;'>");
        assert_eq!(out.errors, []);
        // §4.5 and appendix D: `&#38;` becomes `&` once, the rest waits.
        assert_eq!(internal(&out, "a").as_deref(), Some("&b; &lt; &#38;"));
    }

    #[test]
    fn line_ends_in_a_literal_are_normalized() {
        let out = read("<!ENTITY a 'x\r\ny\rz\n'>");
        assert_eq!(internal(&out, "a").as_deref(), Some("x\ny\nz\n"));
    }

    #[test]
    fn markup_characters_are_data_in_a_value() {
        let out = read("<!ENTITY a '<b attr=\"1\">]]></b>'>");
        assert_eq!(out.errors, []);
        assert_eq!(
            internal(&out, "a").as_deref(),
            Some("<b attr=\"1\">]]></b>")
        );
    }

    #[test]
    fn character_references_to_non_characters_are_kept_and_reported() {
        let subset = "<!ENTITY a '&#0;|&#xD800;|&#x110000;|&#1;|&#xFFFE;|&#99999999999;'>";
        let out = parse(subset, 100, &Limits::default(), false);
        assert_eq!(
            internal(&out, "a").as_deref(),
            Some("&#0;|&#xD800;|&#x110000;|&#1;|&#xFFFE;|&#99999999999;")
        );
        let expected: Vec<_> = [
            "&#0;",
            "&#xD800;",
            "&#x110000;",
            "&#1;",
            "&#xFFFE;",
            "&#9999",
        ]
        .iter()
        .map(|r| (MalformedDeclaration, 100 + subset.find(r).unwrap()))
        .collect();
        assert_eq!(out.errors, expected);
    }

    #[test]
    fn bare_ampersand_and_percent_are_kept_and_reported() {
        let subset = "<!ENTITY a 'A & B, 50% &#; &#x; &#12 &X41; &name % ;'>";
        let out = parse(subset, 7, &Limits::default(), false);
        assert_eq!(
            internal(&out, "a").as_deref(),
            Some("A & B, 50% &#; &#x; &#12 &X41; &name % ;")
        );
        let mut expected = Vec::new();
        for (i, b) in subset.bytes().enumerate() {
            if (b == b'&' || b == b'%') && !subset[i..].starts_with("&X41;") {
                expected.push((MalformedDeclaration, 7 + i));
            }
        }
        assert_eq!(out.errors, expected);
    }

    #[test]
    fn first_declaration_wins() {
        let out = read(
            "<!ENTITY a 'first'><!ENTITY a 'second'><!ENTITY a SYSTEM 'x'>\
             <!ENTITY % p 'one'><!ENTITY % p 'two'><!ENTITY b '%p;'>",
        );
        assert_eq!(errors_but_pe(&out), []);
        assert_eq!(internal(&out, "a").as_deref(), Some("first"));
        assert_eq!(out.entities["a"].offset, 0);
        assert_eq!(internal(&out, "b").as_deref(), Some("one"));
    }

    #[test]
    fn predefined_entities_are_ignored() {
        let out = read(
            "<!ENTITY lt '&#38;#60;'><!ENTITY gt '>'><!ENTITY amp '&#38;#38;'>\
             <!ENTITY apos \"'\"><!ENTITY quot '\"'><!ENTITY Lt 'kept'>",
        );
        assert_eq!(out.errors, []);
        assert_eq!(out.entities.len(), 1);
        assert_eq!(internal(&out, "Lt").as_deref(), Some("kept"));
    }

    #[test]
    fn external_entities() {
        let out = read(
            "<!ENTITY s SYSTEM 'http://x/s.ent'>\
             <!ENTITY p PUBLIC \"-//A//B C//EN\" \"p.ent\" >\
             <!ENTITY u SYSTEM \"pic.png\" NDATA png>\
             <!ENTITY v PUBLIC '-//V' 'v.gif'\nNDATA\tgif\n>",
        );
        assert_eq!(out.errors, []);
        let external = |name: &str| out.entities[name].value.clone();
        assert_eq!(
            external("s"),
            EntityValue::External {
                public_id: None,
                system_id: "http://x/s.ent".into(),
                notation: None
            }
        );
        assert_eq!(
            external("p"),
            EntityValue::External {
                public_id: Some("-//A//B C//EN".into()),
                system_id: "p.ent".into(),
                notation: None
            }
        );
        assert_eq!(
            external("u"),
            EntityValue::External {
                public_id: None,
                system_id: "pic.png".into(),
                notation: Some("png".into())
            }
        );
        assert_eq!(
            external("v"),
            EntityValue::External {
                public_id: Some("-//V".into()),
                system_id: "v.gif".into(),
                notation: Some("gif".into())
            }
        );
    }

    #[test]
    fn system_literals_may_hold_any_character_but_their_quote() {
        let out = read("<!ENTITY s SYSTEM \"a'>b%&c\"><!ENTITY t 'ok'>");
        assert_eq!(out.errors, []);
        assert!(matches!(
            &out.entities["s"].value,
            EntityValue::External { system_id, .. } if &**system_id == "a'>b%&c"
        ));
        assert_eq!(internal(&out, "t").as_deref(), Some("ok"));
    }

    #[test]
    fn malformed_external_ids() {
        let cases = [
            "<!ENTITY e SYSTEM>",
            "<!ENTITY e SYSTEM'x'>",
            "<!ENTITY e PUBLIC 'p'>",
            "<!ENTITY e PUBLIC 'p''s'>",
            "<!ENTITY e PUBLIC 'a{b}' 's'>",
            "<!ENTITY e system 's'>",
            "<!ENTITY e SYSTEM 's' NDATA>",
            "<!ENTITY e SYSTEM 's' NDATAx n>",
            "<!ENTITY e SYSTEM 's'NDATA n>",
            "<!ENTITY % e SYSTEM 's' NDATA n>",
            "<!ENTITY e SYSTEM 's' 'extra'>",
        ];
        for case in cases {
            let subset = format!("  {case}<!ENTITY ok 'y'>");
            let out = parse(&subset, 10, &Limits::default(), false);
            assert_eq!(out.errors, [(MalformedDeclaration, 12)], "{case}");
            assert!(!out.entities.contains_key("e"), "{case}");
            assert_eq!(internal(&out, "ok").as_deref(), Some("y"), "{case}");
        }
    }

    #[test]
    fn malformed_entity_declarations_with_offsets() {
        let cases = [
            "<!entity e 'x'>",
            "<!ENTITYe 'x'>",
            "<!ENTITY e'x'>",
            "<!ENTITY e>",
            "<!ENTITY 1e 'x'>",
            "<!ENTITY %e 'x'>",
            "<!ENTITY e 'x' junk>",
            "<!ENTITY e 'x''y'>",
            "<!ENTITY e x>",
            "<!ENTITY>",
            "<!>",
            "<!DOCTYPE e>",
        ];
        for case in cases {
            let subset = format!("<!ENTITY before '1'>\n{case}\n<!ENTITY after '2'>");
            let out = parse(&subset, 1000, &Limits::default(), false);
            assert_eq!(out.errors, [(MalformedDeclaration, 1021)], "{case}");
            assert!(!out.entities.contains_key("e"), "{case}");
            assert_eq!(internal(&out, "before").as_deref(), Some("1"), "{case}");
            assert_eq!(internal(&out, "after").as_deref(), Some("2"), "{case}");
        }
    }

    #[test]
    fn a_malformed_declaration_is_skipped_to_its_gt_outside_quotes() {
        let out = parse(
            "<!ENTITY e x 'a>b' \"c>d\"><!ENTITY f 'ok'>",
            5,
            &Limits::default(),
            false,
        );
        assert_eq!(out.errors, [(MalformedDeclaration, 5)]);
        assert_eq!(internal(&out, "f").as_deref(), Some("ok"));
    }

    #[test]
    fn an_unterminated_literal_ends_the_subset() {
        let out = parse(
            "<!ENTITY a 'x'><!ENTITY b 'never closed>",
            3,
            &Limits::default(),
            false,
        );
        assert_eq!(out.errors, [(MalformedDeclaration, 18)]);
        assert_eq!(internal(&out, "a").as_deref(), Some("x"));
        assert!(!out.entities.contains_key("b"));
    }

    // ----- ATTLIST declarations (XML 1.0 §3.3) --------------------------

    #[test]
    fn every_attribute_type() {
        let out = read(
            "<!ATTLIST e a CDATA #IMPLIED b ID #IMPLIED c IDREF #IMPLIED d IDREFS #IMPLIED\n\
             f ENTITY #IMPLIED g ENTITIES #IMPLIED h NMTOKEN #IMPLIED i NMTOKENS #IMPLIED\n\
             j NOTATION (png|gif) #IMPLIED k (x|y|z) #IMPLIED\n\
             l NOTATION ( png ) #IMPLIED m ( 1 | -a | .b\t|\nc ) #IMPLIED>",
        );
        assert_eq!(out.errors, []);
        use AttributeType::*;
        let kinds: Vec<_> = attributes(&out, "e")
            .into_iter()
            .map(|(n, k, _)| (n, k))
            .collect();
        let expected = [
            ("a", Cdata),
            ("b", Id),
            ("c", IdRef),
            ("d", IdRefs),
            ("f", Entity),
            ("g", Entities),
            ("h", NmToken),
            ("i", NmTokens),
            ("j", Notation),
            ("k", Enumeration),
            ("l", Notation),
            ("m", Enumeration),
        ];
        let expected: Vec<_> = expected.iter().map(|&(n, k)| (n.to_string(), k)).collect();
        assert_eq!(kinds, expected);
        assert!(!Cdata.is_tokenized());
        assert!([
            Id,
            IdRef,
            IdRefs,
            Entity,
            Entities,
            NmToken,
            NmTokens,
            Notation,
            Enumeration
        ]
        .iter()
        .all(|k| k.is_tokenized()));
    }

    #[test]
    fn every_default_form() {
        let out = read(
            "<!ENTITY e 'E'><!ATTLIST x:e a CDATA #REQUIRED b CDATA #IMPLIED c CDATA #FIXED 'f&amp;x'\n\
             d CDATA \"v &#38; &e; 'q'\" e (y|n) 'y' xmlns:p CDATA #FIXED 'urn:p'\n\
             f CDATA 'line\r\nend'>",
        );
        assert_eq!(out.errors, []);
        let defaults: Vec<_> = attributes(&out, "x:e")
            .into_iter()
            .map(|(n, _, d)| (n, d))
            .collect();
        use DefaultValue::*;
        let expected = [
            ("a", Required),
            ("b", Implied),
            ("c", Fixed("f&amp;x".into())),
            ("d", Value("v &#38; &e; 'q'".into())),
            ("e", Value("y".into())),
            ("xmlns:p", Fixed("urn:p".into())),
            ("f", Value("line\nend".into())),
        ];
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(n, d)| (n.to_string(), d))
            .collect();
        assert_eq!(defaults, expected);
    }

    #[test]
    fn attribute_lists_merge_and_the_first_definition_wins() {
        let out = read(
            "<!ATTLIST e a CDATA 'one' a CDATA 'two'>\
             <!ATTLIST f a CDATA 'other element'>\
             <!ATTLIST e b ID #IMPLIED a NMTOKEN 'three'>\
             <!ATTLIST e>",
        );
        assert_eq!(out.errors, []);
        let e = attributes(&out, "e");
        assert_eq!(
            e,
            [
                (
                    "a".to_string(),
                    AttributeType::Cdata,
                    DefaultValue::Value("one".into())
                ),
                ("b".to_string(), AttributeType::Id, DefaultValue::Implied),
            ]
        );
        assert_eq!(attributes(&out, "f").len(), 1);
    }

    #[test]
    fn less_than_in_a_default_is_reported_and_kept() {
        let out = parse("<!ATTLIST e a CDATA 'x<y'>", 50, &Limits::default(), false);
        assert_eq!(out.errors, [(MalformedDeclaration, 72)]);
        assert_eq!(
            attributes(&out, "e")[0].2,
            DefaultValue::Value("x<y".into())
        );
    }

    #[test]
    fn malformed_attlist_declarations_are_skipped_whole() {
        let cases = [
            "<!ATTLIST e a BOGUS #IMPLIED>",
            "<!ATTLIST e a cdata #IMPLIED>",
            "<!ATTLIST e a CDATA #implied>",
            "<!ATTLIST e a CDATA #FIXED>",
            "<!ATTLIST e a CDATA #FIXED'x'>",
            "<!ATTLIST e a CDATA>",
            "<!ATTLIST e a CDATA 'x'b CDATA 'y'>",
            "<!ATTLIST e a CDATA #IMPLIEDb CDATA 'y'>",
            "<!ATTLIST e a (x|) #IMPLIED>",
            "<!ATTLIST e a (x y) #IMPLIED>",
            "<!ATTLIST e a () #IMPLIED>",
            "<!ATTLIST e a NOTATION (1x) #IMPLIED>",
            "<!ATTLIST e a NOTATION(x) #IMPLIED>",
            "<!ATTLIST e a CDATA 'x' 'y'>",
            "<!ATTLIST e a CDATA unquoted>",
            "<!ATTLIST e a CDATA #IMPLIED",
            "<!ATTLISTe a CDATA #IMPLIED>",
            "<!ATTLIST>",
        ];
        for case in cases {
            let subset = format!("<!ATTLIST e ok CDATA 'y'>\n{case}");
            let out = parse(&subset, 1, &Limits::default(), false);
            assert_eq!(out.errors, [(MalformedDeclaration, 27)], "{case}");
            let names: Vec<_> = attributes(&out, "e")
                .into_iter()
                .map(|(n, _, _)| n)
                .collect();
            assert_eq!(names, ["ok"], "{case}");
        }
    }

    // ----- What is skipped --------------------------------------------

    #[test]
    fn comments_pis_element_and_notation_declarations_are_skipped() {
        let out = read(
            "<!-- a > 'b' \" --><?pi x > 'y' \"?>\
             <!ELEMENT a (b|c)*><!ELEMENT b (#PCDATA|c)*><!ELEMENT c EMPTY>\
             <!NOTATION n PUBLIC 'p q' 's>t'><!NOTATION m SYSTEM \"s>t\"><!NOTATION o PUBLIC 'p'>\
             <!ENTITY e 'after'>",
        );
        assert_eq!(out.errors, []);
        assert_eq!(internal(&out, "e").as_deref(), Some("after"));
        assert_eq!(out.entities.len(), 1);
    }

    /// ELEMENT declarations follow XML 1.0 §3.2's grammar (EMPTY, ANY,
    /// mixed content, children with choices, sequences and occurrences,
    /// nested).
    #[test]
    fn element_declarations_follow_their_grammar() {
        for good in [
            "<!ELEMENT a EMPTY>",
            "<!ELEMENT a ANY >",
            "<!ELEMENT a (#PCDATA)>",
            "<!ELEMENT a (#PCDATA)*>",
            "<!ELEMENT a ( #PCDATA | b | c )*>",
            "<!ELEMENT a (b)>",
            "<!ELEMENT a (b?, (c | d+)*, e)+>",
            "<!ELEMENT a ((b,c)|(d,(e|f)))>",
            "<!ELEMENT a\n(b,c)\n>",
        ] {
            assert_eq!(read(good).errors, [], "{good}");
        }
        // What is not the content model's is malformed, at the `<!`.
        for bad in [
            "<!ELEMENT a>",
            "<!ELEMENT a EMPTY ANY>",
            "<!ELEMENT a (b) c>",
            "<!ELEMENT 1 ANY>",
        ] {
            assert_eq!(read(bad).errors, [(MalformedDeclaration, 0)], "{bad}");
        }
        for bad in [
            "<!NOTATION n PUBLIC 'p>q'>",
            "<!NOTATION n SYSTEM>",
            "<!NOTATION n 'x'>",
        ] {
            assert_eq!(read(bad).errors, [(MalformedDeclaration, 0)], "{bad}");
        }
    }

    /// A content specification that does not follow its grammar has a code
    /// for what is wrong, at the character where it goes wrong (at the `>`,
    /// or the end, when what is missing should be there).
    #[test]
    fn content_model_errors_have_their_own_codes_and_offsets() {
        // `^` marks the offense (and is not part of the declaration).
        for (marked, code) in [
            ("<!ELEMENT a ^FOO>", InvalidContentSpecification),
            ("<!ELEMENT a ^empty>", InvalidContentSpecification),
            ("<!ELEMENT a ^>", InvalidContentSpecification),
            ("<!ELEMENT a (b,c^|d)>", MixedSeparatorsInContentModel),
            ("<!ELEMENT a (b|c^,d)>", MixedSeparatorsInContentModel),
            (
                "<!ELEMENT a ((b|c),(d|e)^|f)>",
                MixedSeparatorsInContentModel,
            ),
            (
                "<!ELEMENT a (#PCDATA|b^,c)*>",
                MixedSeparatorsInContentModel,
            ),
            ("<!ELEMENT a (#PCDATA|b)^>", MissingStarAfterMixedContent),
            (
                "<!ELEMENT a (#PCDATA | b )^ >",
                MissingStarAfterMixedContent,
            ),
            ("<!ELEMENT a (b|^#PCDATA)*>", MisplacedPcdata),
            ("<!ELEMENT a (b|(^#PCDATA))>", MisplacedPcdata),
            ("<!ELEMENT a (#PCDATA|b|^#PCDATA)*>", MisplacedPcdata),
            ("<!ELEMENT aElement (a |b ^* >", InvalidOccurrenceIndicator),
            ("<!ELEMENT a (#PCDATA)^+>", InvalidOccurrenceIndicator),
            ("<!ELEMENT a (#PCDATA|b)^?>", InvalidOccurrenceIndicator),
            ("<!ELEMENT a (#PCDATA|b^*)*>", InvalidOccurrenceIndicator),
            ("<!ELEMENT a (b)*^*>", InvalidOccurrenceIndicator),
            ("<!ELEMENT a (b) ^*>", InvalidOccurrenceIndicator),
            ("<!ELEMENT a (^*b)>", InvalidOccurrenceIndicator),
            ("<!ELEMENT a (^)>", MissingContentParticle),
            ("<!ELEMENT a (b,^)>", MissingContentParticle),
            ("<!ELEMENT a (#PCDATA|^)*>", MissingContentParticle),
            ("<!ELEMENT a (^#FOO)>", MissingContentParticle),
            ("<!ELEMENT a (to,^' body)>", MissingContentParticle),
            ("<!ELEMENT a ((b)^>", UnclosedContentModel),
            ("<!ELEMENT a (b,^>", UnclosedContentModel),
            ("<!ELEMENT a (b ^c)>", InvalidContentModel),
            ("<!ELEMENT a (#PCDATA^,b)>", InvalidContentModel),
            ("<!ELEMENT a (#PCDATA|^(b))*>", InvalidContentModel),
        ] {
            let at = marked.find('^').unwrap();
            let declaration = marked.replace('^', "");
            assert_eq!(read(&declaration).errors, [(code, at)], "{declaration}");
            // From `base`, and with the declaration skipped: what follows
            // is read.
            let subset = format!("{declaration}<!ENTITY e 'after'>");
            let out = parse(&subset, 7, &Limits::default(), false);
            assert_eq!(out.errors, [(code, 7 + at)], "{declaration}");
            if declaration.ends_with('>') {
                assert_eq!(internal(&out, "e").as_deref(), Some("after"), "{subset}");
            }
        }
    }

    /// A declaration cut short by the end of the subset is malformed, at
    /// its `<!`, as any other.
    #[test]
    fn content_models_cut_short_are_malformed() {
        for cut in [
            "<!ELEMENT a (b",
            "<!ELEMENT a (b,",
            "<!ELEMENT a (#PCDATA",
            "<!ELEMENT a (#PCDATA|b)",
            "<!ELEMENT a (b)",
        ] {
            assert_eq!(read(cut).errors, [(MalformedDeclaration, 0)], "{cut}");
        }
        // Before the next declaration, it is the group left open.
        let out = read("<!ELEMENT a (b<!ENTITY e 'x'>");
        assert_eq!(out.errors, [(UnclosedContentModel, 14)]);
    }

    #[test]
    fn content_model_errors_in_parameter_entities_are_at_the_reference() {
        let out = read("<!ENTITY % m '<!ELEMENT a (b,c|d)>'> %m;<!ENTITY e 'x'>");
        assert_eq!(out.errors, [(MixedSeparatorsInContentModel, 37)]);
        assert_eq!(internal(&out, "e").as_deref(), Some("x"));
    }

    /// An ELEMENT declaration holds no literal: a quote in a broken one
    /// does not hide the declarations after it.
    #[test]
    fn a_quote_in_a_broken_element_declaration_opens_no_literal() {
        let out = read("<!ELEMENT a (b|'c)><!ENTITY e 'x'><!ENTITY f 'y'>");
        assert_eq!(out.errors, [(MissingContentParticle, 15)]);
        assert_eq!(internal(&out, "e").as_deref(), Some("x"));
        assert_eq!(internal(&out, "f").as_deref(), Some("y"));
    }

    #[test]
    fn content_models_nest_without_recursion() {
        let depth = 100_000;
        let good = format!("<!ELEMENT a {}b{}>", "(".repeat(depth), ")*".repeat(depth));
        assert_eq!(read(&good).errors, []);
        // One group left open, reported at the `>`.
        let bad = format!(
            "<!ELEMENT a {}b{}>",
            "(".repeat(depth),
            ")".repeat(depth - 1)
        );
        assert_eq!(read(&bad).errors, [(UnclosedContentModel, bad.len() - 1)]);
    }

    #[test]
    fn an_attribute_list_after_a_broken_element_declaration_is_read() {
        let out = read("<!ELEMENT a (#PCDATA|b)><!ATTLIST a x CDATA 'd'>");
        assert_eq!(codes(&out), [MissingStarAfterMixedContent]);
        assert_eq!(
            attributes(&out, "a"),
            [(
                "x".to_owned(),
                AttributeType::Cdata,
                DefaultValue::Value("d".into())
            )]
        );
    }

    #[test]
    fn processing_instructions_are_kept_with_their_data() {
        let out = read("<?a?><?b  data  here ?><!ENTITY % p '<?c in-entity?>'>%p;<? bad?><?d\nx?>");
        assert_eq!(codes(&out), [MalformedDeclaration]);
        let pis: Vec<_> = out
            .processing_instructions
            .iter()
            .map(|(target, data)| (&**target, &**data))
            .collect();
        assert_eq!(
            pis,
            [
                ("a", ""),
                ("b", "data  here "),
                ("c", "in-entity"),
                ("d", "x")
            ]
        );
    }

    // ----- Notations ----------------------------------------------------

    #[test]
    fn notation_declarations_are_kept_in_order() {
        let out = read(
            "<!NOTATION s SYSTEM 'sys'><!NOTATION p PUBLIC \"-//p\">\
             <!NOTATION b PUBLIC '-//b' \"b\r\nsys\" ><!NOTATION a PUBLIC 'pub'\n>",
        );
        assert_eq!(out.errors, []);
        let notations: Vec<_> = out
            .notations
            .iter()
            .map(|n| (n.name(), n.public_id(), n.system_id()))
            .collect();
        assert_eq!(
            notations,
            [
                ("s", None, Some("sys")),
                ("p", Some("-//p"), None),
                ("b", Some("-//b"), Some("b\nsys")),
                ("a", Some("pub"), None),
            ]
        );
    }

    #[test]
    fn the_first_notation_of_a_name_wins_and_the_second_is_a_warning() {
        let out = parse(
            "<!NOTATION n SYSTEM 'first'> <!NOTATION n PUBLIC 'second'>",
            3,
            &Limits::default(),
            false,
        );
        assert_eq!(out.errors, [(DuplicateNotationDeclaration, 3 + 40)]);
        assert_eq!(
            DuplicateNotationDeclaration.severity(),
            crate::error::Severity::Warning
        );
        assert_eq!(out.notations.len(), 1);
        assert_eq!(out.notations[0].system_id(), Some("first"));
    }

    #[test]
    fn malformed_notations_and_those_in_parameter_entities() {
        let out = read(
            "<!NOTATION bad SYSTEM><!ENTITY % n '<!NOTATION pe SYSTEM \"x\">'>%n;\
             <!NOTATION after SYSTEM 'y'>",
        );
        assert_eq!(codes(&out), [MalformedDeclaration]);
        let names: Vec<_> = out.notations.iter().map(Notation::name).collect();
        assert_eq!(names, ["pe", "after"]);
    }

    /// XML 1.0 §5.1 stops entity and attribute-list declarations after an
    /// unread parameter entity, not notations.
    #[test]
    fn notations_after_an_unread_parameter_entity_are_kept() {
        let out = read("%unread;<!NOTATION n SYSTEM 's'><!ENTITY e 'x'>");
        assert_eq!(codes(&out), [UnreadParameterEntity]);
        assert_eq!(out.notations.len(), 1);
        assert!(out.entities.is_empty());
    }

    #[test]
    fn declarations_inside_comments_and_pis_are_not_read() {
        let out = read("<!-- <!ENTITY a 'x'> --><?p <!ENTITY b 'y'> ?>");
        assert_eq!(out.errors, []);
        assert!(out.entities.is_empty());
    }

    #[test]
    fn malformed_comments_and_pis() {
        // `--` inside (at it), no target, no target; the last comment is
        // empty.
        let out = parse(
            "<!-- a -- b --><?  x?><? ?><!---->",
            10,
            &Limits::default(),
            false,
        );
        assert_eq!(
            out.errors,
            [
                (MalformedDeclaration, 10 + "<!-- a ".len()),
                (MalformedDeclaration, 25),
                (MalformedDeclaration, 32)
            ]
        );
        let out = parse("<!ENTITY a 'x'><!-- open", 10, &Limits::default(), false);
        assert_eq!(out.errors, [(MalformedDeclaration, 25)]);
        let out = parse("<?pi open >", 10, &Limits::default(), false);
        assert_eq!(out.errors, [(MalformedDeclaration, 10)]);
        let out = parse("<!ELEMENT a (b)", 10, &Limits::default(), false);
        assert_eq!(out.errors, [(MalformedDeclaration, 10)]);
        let out = parse("<!ELEMENT>", 10, &Limits::default(), false);
        assert_eq!(out.errors, [(MalformedDeclaration, 10)]);
    }

    #[test]
    fn conditional_sections_are_reported_once_and_skipped_whole() {
        let subset = "<![INCLUDE[ <!ENTITY a 'x'> <![IGNORE[ ]]> <![ ]]> ]]>\
                      <!ENTITY b 'y'><![IGNORE[ never closed <!ENTITY c 'z'>";
        let out = parse(subset, 4, &Limits::default(), false);
        assert_eq!(
            out.errors,
            [
                (MalformedDeclaration, 4),
                (
                    MalformedDeclaration,
                    4 + subset.find("<![IGNORE[ never").unwrap()
                )
            ]
        );
        assert_eq!(out.entities.keys().map(|k| &**k).collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn stray_text_is_reported_once_per_run() {
        let subset = "junk text <!ENTITY a 'x'> more ]]> % <";
        let out = parse(subset, 2, &Limits::default(), false);
        assert_eq!(
            out.errors,
            [
                (MalformedDeclaration, 2),
                (MalformedDeclaration, 2 + 26),
                (MalformedDeclaration, 2 + 35),
                (MalformedDeclaration, 2 + 37),
            ]
        );
        assert_eq!(internal(&out, "a").as_deref(), Some("x"));
    }

    #[test]
    fn content_markup_is_a_malformed_declaration() {
        let out = parse("<a href='>'><!ENTITY e 'x'>", 0, &Limits::default(), false);
        assert_eq!(out.errors, [(MalformedDeclaration, 0)]);
        assert_eq!(internal(&out, "e").as_deref(), Some("x"));
    }

    // ----- Parameter entities (XML 1.0 §4.4.5, §4.4.8, §5.1) -----------

    fn limits_with(edit: impl FnOnce(&mut Limits)) -> Limits {
        let mut limits = Limits::default();
        edit(&mut limits);
        limits
    }

    #[test]
    fn parameter_entities_are_included_in_values_and_counted() {
        let out = read(
            "<!ENTITY % p 'abc'><!ENTITY % q '\"&#39;'>\
             <!ENTITY e \"[%p;|%q;|%p;]\"><!ENTITY % pq '%p;%q;'><!ENTITY f '%pq;'>",
        );
        assert_eq!(errors_but_pe(&out), []);
        // Quotes from an included entity are data (§4.4.5).
        assert_eq!(internal(&out, "e").as_deref(), Some("[abc|\"'|abc]"));
        assert_eq!(internal(&out, "f").as_deref(), Some("abc\"'"));
        // Parameter entities stay private.
        assert_eq!(out.entities.len(), 2);
        // e reads 3 + 2 + 3 bytes, pq 3 + 2, f 5.
        assert_eq!(out.expanded_bytes, 18);
    }

    #[test]
    fn included_text_is_read_again() {
        // `&#37;` makes a `%` that is recognized where the text is included,
        // as in appendix D; so is a character reference made by `&#38;`.
        let out = read(
            "<!ENTITY % p 'x'><!ENTITY % r '&#37;p;'><!ENTITY % l '&#38;#60;'>\
             <!ENTITY e '%r;'><!ENTITY f '%l;'>",
        );
        assert_eq!(errors_but_pe(&out), []);
        assert_eq!(internal(&out, "e").as_deref(), Some("x"));
        assert_eq!(internal(&out, "f").as_deref(), Some("<"));
    }

    #[test]
    fn unread_parameter_entities_in_a_value_insert_nothing() {
        let subset = "<!ENTITY % ext SYSTEM 'x.ent'><!ENTITY e 'a%ext;b%none;c'>\
                      <!ENTITY f 'still read'>";
        let out = parse(subset, 9, &Limits::default(), false);
        assert_eq!(
            errors_but_pe(&out),
            [
                (UnreadParameterEntity, 9 + subset.find("%ext;").unwrap()),
                (UnreadParameterEntity, 9 + subset.find("%none;").unwrap()),
            ]
        );
        assert_eq!(internal(&out, "e").as_deref(), Some("abc"));
        assert_eq!(internal(&out, "f").as_deref(), Some("still read"));
    }

    #[test]
    fn errors_in_included_text_are_reported_at_the_reference() {
        let subset = "<!ENTITY % p '&#38;#0; 50&#37; &#38;'><!ENTITY e 'x%p;'>";
        let out = parse(subset, 3, &Limits::default(), false);
        let at = 3 + subset.find("%p;").unwrap();
        assert_eq!(
            errors_but_pe(&out),
            [
                (MalformedDeclaration, at),
                (MalformedDeclaration, at),
                (MalformedDeclaration, at)
            ]
        );
        assert_eq!(internal(&out, "e").as_deref(), Some("x&#0; 50% &"));
    }

    #[test]
    fn parameter_entities_between_declarations_are_read_as_declarations() {
        let subset = "<!ENTITY % decls \"<!ENTITY e 'v'><!ATTLIST a b CDATA 'c'>\
                      <!-- > --><?pi > ?><!ELEMENT a ANY>\">\n\
                      <!ENTITY % outer '&#37;decls; <!ENTITY f \"w\">'>\n\
                      %outer; <!ENTITY e 'later'>";
        let out = parse(subset, 20, &Limits::default(), false);
        assert_eq!(out.errors, []);
        assert_eq!(internal(&out, "e").as_deref(), Some("v"));
        assert_eq!(internal(&out, "f").as_deref(), Some("w"));
        // Declared inside a parameter entity: the offset of the reference.
        let at = 20 + subset.find("%outer;").unwrap();
        assert_eq!(out.entities["e"].offset, at);
        assert_eq!(out.entities["f"].offset, at);
        assert_eq!(attributes(&out, "a")[0].2, DefaultValue::Value("c".into()));
    }

    #[test]
    fn parameter_entities_may_declare_parameter_entities() {
        let out = read(
            "<!ENTITY % d '<!ENTITY &#37; inner \"&#60;!ENTITY e &#39;deep&#39;>\">'>\
             %d; %inner;",
        );
        assert_eq!(out.errors, []);
        assert_eq!(internal(&out, "e").as_deref(), Some("deep"));
    }

    #[test]
    fn errors_in_declarations_read_from_an_entity_are_reported_at_the_outermost_reference() {
        let subset = "<!ENTITY % bad '<!ENTITY x> stray <!ENTITY y \"ok\"><!ENTITY z'>\
                      <!ENTITY % outer '&#37;bad;'>\n %outer; %bad;";
        let out = parse(subset, 100, &Limits::default(), false);
        let outer = 100 + subset.find("%outer;").unwrap();
        let bad = 100 + subset.rfind("%bad;").unwrap();
        assert_eq!(
            out.errors,
            [
                (MalformedDeclaration, outer),
                (MalformedDeclaration, outer),
                (MalformedDeclaration, outer),
                (MalformedDeclaration, bad),
                (MalformedDeclaration, bad),
                (MalformedDeclaration, bad),
            ]
        );
        assert_eq!(internal(&out, "y").as_deref(), Some("ok"));
        assert!(!out.entities.contains_key("x") && !out.entities.contains_key("z"));
    }

    #[test]
    fn a_declaration_does_not_continue_past_the_end_of_an_entity() {
        let subset = "<!ENTITY % open '<!ENTITY x '> %open; \"v\">";
        let out = parse(subset, 0, &Limits::default(), false);
        let at = subset.find("%open;").unwrap();
        assert_eq!(
            out.errors,
            [(MalformedDeclaration, at), (MalformedDeclaration, at + 7)]
        );
        assert!(out.entities.is_empty());
    }

    /// The errors but `parameter-entity-in-declaration`, for tests about
    /// what such references do.
    fn errors_but_pe(out: &InternalSubset) -> Vec<(ErrorCode, usize)> {
        out.errors
            .iter()
            .copied()
            .filter(|(code, _)| *code != ParameterEntityInDeclaration)
            .collect()
    }

    #[test]
    fn parameter_entities_in_entity_values_are_reported_once_per_value() {
        let out = read("<!ENTITY % p 'x'><!ENTITY e '%p;%p;'><!ENTITY f \"%p;\">");
        assert_eq!(
            out.errors,
            [
                (ParameterEntityInDeclaration, 29),
                (ParameterEntityInDeclaration, 49)
            ]
        );
        assert_eq!(internal(&out, "e").as_deref(), Some("xx"));
    }

    #[test]
    fn parameter_entity_references_inside_declarations_are_malformed() {
        // WFC: PEs in Internal Subset (XML 1.0 §2.8).
        let out = read("<!ENTITY % t 'CDATA'><!ATTLIST a b %t; #IMPLIED><!ENTITY e 'ok'>");
        assert_eq!(out.errors, [(MalformedDeclaration, 21)]);
        assert!(out.attribute_lists.is_empty());
        assert_eq!(internal(&out, "e").as_deref(), Some("ok"));
    }

    #[test]
    fn an_unread_parameter_entity_stops_later_entity_and_attlist_declarations() {
        let subset = "<!ENTITY a '1'><!ATTLIST e x CDATA 'y'><!ENTITY % p '<!ENTITY p \"p\">'>\
                      %ext; <!ENTITY b '2'><!ATTLIST e z CDATA 'w'><!ATTLIST f x CDATA 'y'>\
                      <!ENTITY % q '<!ENTITY q \"q\">'><!ELEMENT e ANY><!ENTITY a x>\
                      <!ENTITY c '%undeclared;'>%p; %q;";
        let out = parse(subset, 1, &Limits::default(), false);
        assert_eq!(
            out.errors,
            [
                (UnreadParameterEntity, 1 + subset.find("%ext;").unwrap()),
                // Still checked, though not processed.
                (
                    MalformedDeclaration,
                    1 + subset.find("<!ENTITY a x>").unwrap()
                ),
                (UnreadParameterEntity, 1 + subset.find("%q;").unwrap()),
            ]
        );
        let mut names: Vec<_> = out.entities.keys().map(|k| k.to_string()).collect();
        names.sort();
        // p was declared before; reading it still works, but what it
        // declares comes after the unread entity.
        assert_eq!(names, ["a"]);
        assert_eq!(attributes(&out, "e").len(), 1);
        assert!(!out.attribute_lists.contains_key("f"));
    }

    #[test]
    fn an_external_parameter_entity_is_not_read() {
        let subset = "<!ENTITY % ext PUBLIC '-//X' 'x.dtd'>%ext;<!ENTITY b '2'>";
        let out = parse(subset, 0, &Limits::default(), false);
        assert_eq!(out.errors, [(UnreadParameterEntity, 37)]);
        assert!(out.entities.is_empty());
    }

    #[test]
    fn recursion_is_reported_and_cut() {
        // Referring to itself while it is being declared.
        let out = parse("<!ENTITY % a 'x%a;y'>", 5, &Limits::default(), false);
        assert_eq!(errors_but_pe(&out), [(RecursiveEntityReference, 5 + 15)]);

        // a → b → a, between declarations and inside values.
        let subset = "<!ENTITY % a '&#37;b;'><!ENTITY % b 'B&#37;a;'>\
                      %a; <!ENTITY e '[%a;]'><!ENTITY f '[%b;]'>";
        let out = parse(subset, 5, &Limits::default(), false);
        assert_eq!(
            errors_but_pe(&out),
            [
                // b's text, read as declarations: `B` is stray, `%a;` recursive.
                (MalformedDeclaration, 5 + subset.find("%a; ").unwrap()),
                (RecursiveEntityReference, 5 + subset.find("%a; ").unwrap()),
                (RecursiveEntityReference, 5 + subset.find("%a;]").unwrap()),
                (RecursiveEntityReference, 5 + subset.find("%b;]").unwrap()),
            ]
        );
        assert_eq!(internal(&out, "e").as_deref(), Some("[B]"));
        assert_eq!(internal(&out, "f").as_deref(), Some("[B]"));
    }

    #[test]
    fn an_entity_may_be_included_again_after_it_closes() {
        let out = read("<!ENTITY % q '&#37;r;&#37;r;'><!ENTITY % r 'r'><!ENTITY e '%q;%q;'>");
        assert_eq!(errors_but_pe(&out), []);
        assert_eq!(internal(&out, "e").as_deref(), Some("rrrr"));
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_cut() {
        let chain = "<!ENTITY % p1 'v'><!ENTITY % p2 '&#37;p1;'><!ENTITY % p3 '&#37;p2;'>";
        let in_value = format!("{chain}<!ENTITY e '[%p3;]'>");
        let out = parse(
            &in_value,
            0,
            &limits_with(|l| l.max_entity_depth = 3),
            false,
        );
        assert_eq!(errors_but_pe(&out), []);
        assert_eq!(internal(&out, "e").as_deref(), Some("[v]"));
        let out = parse(
            &in_value,
            0,
            &limits_with(|l| l.max_entity_depth = 2),
            false,
        );
        assert_eq!(
            errors_but_pe(&out),
            [(EntityDepthLimit, in_value.find("%p3;").unwrap())]
        );
        assert_eq!(internal(&out, "e").as_deref(), Some("[]"));

        let decls = "<!ENTITY % d1 '<!ENTITY deep \"yes\">'><!ENTITY % d2 '&#37;d1;'>\
                     <!ENTITY % d3 '&#37;d2;'> %d3;";
        let out = parse(decls, 0, &limits_with(|l| l.max_entity_depth = 3), false);
        assert_eq!(errors_but_pe(&out), []);
        assert_eq!(internal(&out, "deep").as_deref(), Some("yes"));
        let out = parse(decls, 0, &limits_with(|l| l.max_entity_depth = 2), false);
        assert_eq!(
            errors_but_pe(&out),
            [(EntityDepthLimit, decls.find("%d3;").unwrap())]
        );
        assert!(out.entities.is_empty());
    }

    #[test]
    fn parameter_entity_billion_laughs_stops_at_the_budget() {
        let mut subset = String::from("<!ENTITY % a 'xxxxxxxxxx'>");
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        for pair in names.windows(2) {
            let refs = format!("%{};", pair[0]).repeat(10);
            subset.push_str(&format!("<!ENTITY % {} '{refs}'>", pair[1]));
        }
        subset.push_str("<!ENTITY lol '%j;'><!ENTITY after 'read'>");
        let limits = Limits::default();
        let budget = limits.entity_expansion_budget(subset.len());
        let out = parse(&subset, 0, &limits, false);
        let kept = InternalSubset {
            errors: errors_but_pe(&out),
            ..InternalSubset::default()
        };
        assert_eq!(codes(&kept), [EntityExpansionLimit]);
        assert!(out.expanded_bytes <= budget);
        assert!(out.expanded_bytes > budget / 2);
        assert_eq!(internal(&out, "lol").as_deref(), Some(""));
        assert_eq!(internal(&out, "after").as_deref(), Some("read"));
    }

    #[test]
    fn billion_laughs_between_declarations_stops_at_the_budget() {
        // Each level's text names the level below ten times; read as
        // declarations, that is 10^9 references to `a`.
        let mut subset = String::from("<!ENTITY % a '<!-- lol -->'>");
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        for pair in names.windows(2) {
            let refs = format!("&#37;{}; ", pair[0]).repeat(10);
            subset.push_str(&format!("<!ENTITY % {} '{refs}'>", pair[1]));
        }
        subset.push_str("%j;<!ENTITY after 'read'>");
        let limits = limits_with(|l| l.max_entity_expansion_bytes = 100_000);
        let out = parse(&subset, 0, &limits, false);
        let kept = InternalSubset {
            errors: errors_but_pe(&out),
            ..InternalSubset::default()
        };
        assert_eq!(codes(&kept), [EntityExpansionLimit]);
        assert!(out.expanded_bytes <= 100_000);
        assert_eq!(internal(&out, "after").as_deref(), Some("read"));
    }

    #[test]
    fn names_longer_than_the_limit_skip_their_declaration() {
        let limits = limits_with(|l| l.max_name_length = 5);
        let cases = [
            ("<!ENTITY toolong 'x'>", "toolong"),
            ("<!ENTITY % toolong 'x'>", "toolong"),
            ("<!ENTITY e SYSTEM 's' NDATA toolong>", "toolong"),
            ("<!ATTLIST toolong a CDATA #IMPLIED>", "toolong"),
            ("<!ATTLIST e toolong CDATA #IMPLIED>", "toolong"),
            ("<!ATTLIST e a (ok|toolong) #IMPLIED>", "toolong"),
            ("<!ELEMENT toolong ANY>", "toolong"),
        ];
        for (case, name) in cases {
            let subset = format!("{case}<!ENTITY fine 'y'><!ATTLIST fine a CDATA #IMPLIED>");
            let out = parse(&subset, 2, &limits, false);
            assert_eq!(
                errors_but_pe(&out),
                [(NameLengthLimit, 2 + case.find(name).unwrap())],
                "{case}"
            );
            assert_eq!(
                out.entities.keys().map(|k| &**k).collect::<Vec<_>>(),
                ["fine"]
            );
            assert_eq!(
                out.attribute_lists.keys().map(|k| &**k).collect::<Vec<_>>(),
                ["fine"]
            );
        }
        // Five bytes is within the limit, whatever the characters.
        let out = parse("<!ENTITY \u{e9}t\u{e9} 'x'>", 0, &limits, false);
        assert_eq!(errors_but_pe(&out), []);
        // A reference with a long name is cut, and stops nothing.
        let subset = "<!ENTITY e 'a%toolong;b'> %toolong; <!ENTITY f 'y'>";
        let out = parse(subset, 0, &limits, false);
        assert_eq!(
            errors_but_pe(&out),
            [
                (NameLengthLimit, 13),
                (NameLengthLimit, subset.rfind("%toolong;").unwrap())
            ]
        );
        assert_eq!(internal(&out, "e").as_deref(), Some("ab"));
        assert_eq!(internal(&out, "f").as_deref(), Some("y"));
    }

    // ----- Robustness ---------------------------------------------------

    const TRICKY: [&str; 6] = [
        "<!ENTITY % p '&#37;q; <!ENTITY e \"&#x41;%r;&amp;\">'><!ENTITY % q ''>\
         <!ENTITY % r 'r&#37;r;'>%p;<!ATTLIST é a (x|y) 'x' b NOTATION (n) #FIXED \"v\">",
        "<!-- c -- --><?pi ?><![INCLUDE[ <![ ]]> ]]><!ELEMENT a (b|c)*>\
         <!NOTATION n PUBLIC 'p>'><!ENTITY u SYSTEM 's' NDATA n>%none;<!ENTITY x 'y'>",
        "<!ENTITY a '&#0;&#xD800;&#x110000;&#99999999999999999999;&#x;&#;&' >\
         <!ENTITY b \"%\r\n\r%a;\"> junk ]]> <!ENTITY c PUBLIC '-//é' 's'>",
        "<!ENTITY % a 'xxxxxxxxxx'><!ENTITY % b '%a;%a;%a;%a;%a;%a;%a;%a;'>\
         <!ENTITY % c '%b;%b;%b;%b;%b;%b;%b;%b;'><!ENTITY % d '%c;%c;%c;%c;%c;%c;'>\
         <!ENTITY lol '%d;%d;%d;%d;%d;%d;%d;%d;'>",
        "<!ENTITY % a '&#37;b;'><!ENTITY % b '&#37;c;'><!ENTITY % c '&#37;a;\u{1F600}'>\
         %a;<!ENTITY e '%a;'>",
        "<!ATTLIST e a CDATA #REQUIRED b ID #IMPLIED c CDATA #FIXED 'x<y'\
         d (\u{e9}|\u{1F600}) '\u{e9}'>\u{1F600}<!ENTITY \u{e9} '\u{1F600}'>",
    ];

    fn small_limits() -> Limits {
        limits_with(|l| {
            l.max_entity_depth = 3;
            l.max_entity_expansion_bytes = 2_000;
            l.max_name_length = 8;
        })
    }

    /// Reads `subset` and checks what holds for every input.
    fn check(subset: &str, base: usize, limits: &Limits) {
        let out = parse(subset, base, limits, false);
        for &(code, offset) in &errors_but_pe(&out) {
            assert!(
                (base..=base + subset.len()).contains(&offset),
                "{code:?} at {offset} outside {base}..={} in {subset:?}",
                base + subset.len()
            );
        }
        assert!(out.expanded_bytes <= limits.entity_expansion_budget(base + subset.len()));
        for entity in out.entities.values() {
            assert!((base..=base + subset.len()).contains(&entity.offset));
        }
    }

    #[test]
    fn every_prefix_of_tricky_subsets() {
        for limits in [Limits::default(), small_limits()] {
            for subset in TRICKY {
                for end in (0..=subset.len()).filter(|&i| subset.is_char_boundary(i)) {
                    check(&subset[..end], 7, &limits);
                    check(&subset[end..], 0, &limits);
                }
            }
        }
    }

    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    #[test]
    fn random_damage_never_panics() {
        const PIECES: [&[u8]; 22] = [
            b"<",
            b">",
            b"!",
            b"%",
            b"&",
            b";",
            b"#",
            b"x",
            b"'",
            b"\"",
            b"[",
            b"]",
            b" ",
            b"\r",
            b"-",
            b"?",
            b"<!ENTITY ",
            b"%a;",
            b"&#37;",
            b"<![",
            b"]]>",
            b"\xC3",
        ];
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        let limits = small_limits();
        for _ in 0..3000 {
            let mut bytes = TRICKY[rng.below(TRICKY.len())].as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                let piece = PIECES[rng.below(PIECES.len())];
                match rng.below(4) {
                    0 if at < bytes.len() => bytes[at] = piece[0],
                    1 => {
                        let end = (at + rng.below(8)).min(bytes.len());
                        bytes.drain(at..end);
                    }
                    2 => {
                        let end = (at + rng.below(40)).min(bytes.len());
                        let copy = bytes[at..end].to_vec();
                        bytes.splice(at..at, copy);
                    }
                    _ => {
                        bytes.splice(at..at, piece.iter().copied());
                    }
                }
            }
            let subset = String::from_utf8_lossy(&bytes);
            check(&subset, 11, &limits);
            check(&subset, 0, &Limits::default());
        }
    }

    #[test]
    fn pathological_inputs_take_linear_time() {
        let n = 50_000;
        let inputs = [
            "<![".repeat(n),
            "%".repeat(n),
            "<!--".repeat(n),
            "<?".repeat(n),
            format!("<!ENTITY e '{}'>", "&#1".repeat(n)),
            format!("<!ENTITY e '{}'>", "&a".repeat(n)),
            format!("<!ENTITY e x {}>", "'\"".repeat(n)),
            format!("<!ENTITY e '{}", "a".repeat(n)),
            format!("%{}", "a".repeat(n)),
            format!("<!ENTITY % z ''>{}", "%z;".repeat(n)),
            format!("<!ENTITY % z ''><!ENTITY e '{}'>", "%z;".repeat(n)),
            format!("<!ATTLIST e {}>", " a CDATA #IMPLIED".repeat(n)),
            format!("<!ATTLIST e a ({})>", "x|".repeat(n)),
        ];
        for subset in &inputs {
            check(subset, 0, &Limits::default());
        }
    }
}
