//! Declared entities (XML 1.0 §4), as the tokenizer and the tree builder
//! use them.
//!
//! The first DOCTYPE before the root element may declare general entities
//! and attribute lists in its internal subset; [`internal_subset`] reads
//! them. [`Declarations`] holds the result for one document, with the one
//! expansion budget (bytes produced by expansion, [`Limits`]) that the
//! tokenizer (references in attribute values) and the tree builder
//! (references in content) draw from together. The budget grows with the
//! input read up to each reference, never with the input's whole length,
//! so a stream and a whole input run out of it at the same reference.
//!
//! References in attribute values are expanded here, into the value,
//! normalized as XML 1.0 §3.3.3 says (the replacement text is normalized
//! recursively). References in content become entity-reference tokens,
//! and the tree builder expands them. Nothing here recurses: nested
//! references are an explicit stack, whose depth the limits bound, and a
//! name already on it is a recursive reference, reported and not followed.
//! External entities are never read.
//!
//! [`internal_subset`]: super::internal_subset

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use super::internal_subset::{
    self, AttributeDefinition, DefaultValue, EntityValue, ExternalSubset, InternalSubset,
};
use super::loading::{self, Loaded, Reference, Unread};
use crate::char_refs::{self, CharRef, Replacement};
use crate::error::{ErrorCode, ExternalPosition};
use crate::external::{External, ExternalKind};
use crate::limits::Limits;
use crate::notation::Notation;

/// The declarations of a document's internal subset, shared (cheaply
/// cloned) by the tokenizer and the tree builder.
#[derive(Clone)]
pub struct Declarations(Arc<Inner>);

struct Inner {
    subset: InternalSubset,
    /// The DOCTYPE's name as written (the token's is ASCII-lowercased).
    doctype_name: Box<str>,
    /// The internal entities whose replacement text holds a `<`, with what
    /// expanding one costs ([`Declarations::markup_cost`]).
    with_markup: HashMap<Box<str>, usize>,
    /// By element: the indices in its attribute list of the definitions
    /// with a default value.
    defaults: HashMap<Box<str>, Vec<usize>>,
    /// By element, then attribute name: the index of the definition.
    positions: HashMap<Box<str>, HashMap<Box<str>, usize>>,
    /// The longest declared general-entity name, in bytes.
    longest_name: usize,
    limits: Limits,
    /// What may be read outside the document.
    external: External,
    /// The external parsed general entities, once content refers to them:
    /// read through the resolver, once each (empty without a resolver).
    external_texts: HashMap<Box<str>, OnceLock<Result<Loaded, Unread>>>,
    /// The document is XML 1.1 (line ends in external text).
    xml11: bool,
    /// Bytes read from outside the document so far.
    loaded: AtomicUsize,
    /// How far into the input the parse had read when expansion was last
    /// asked for (the end of the reference, or of the tag whose defaults
    /// are supplied): the expansion budget is counted against it.
    read: AtomicUsize,
    /// Bytes produced by expansion so far.
    used: AtomicUsize,
    /// The budget ran out (`entity-expansion-limit` was reported).
    exhausted: AtomicBool,
}

impl std::fmt::Debug for Declarations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Declarations")
            .field("entities", &self.0.subset.entities.len())
            .field("attribute_lists", &self.0.subset.attribute_lists.len())
            .finish()
    }
}

/// What a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntityLookup<'d> {
    /// An internal entity with this replacement text.
    Internal(&'d str),
    /// An external parsed entity: not read (no resolver, or in an
    /// attribute value, where it may not be).
    External,
    /// An external parsed entity the resolver did not give: why.
    Unavailable(&'d Unread),
    /// An unparsed (`NDATA`) entity, which only `ENTITY` attributes may
    /// name.
    Unparsed,
    /// Not declared.
    Undeclared,
}

/// How [`Declarations::expand`] reads a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExpansionMode {
    /// As an attribute value: whitespace becomes spaces (XML 1.0 §3.3.3),
    /// a `<` is kept (and reported).
    Attribute,
    /// As character data: a `<` means the text holds markup, and expansion
    /// stops ([`ExpansionStop::Markup`]).
    Text,
}

/// Why [`Declarations::expand`] stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExpansionStop {
    /// The budget ran out.
    Budget,
    /// Markup in [`ExpansionMode::Text`].
    Markup,
}

/// The budget charge per node an expansion may make: about what the tree
/// keeps for a node.
pub(crate) const NODE_COST: usize = 128;

/// What expanding a replacement text with markup costs (see
/// [`Declarations::markup_cost`]); 0 for one without.
fn markup_cost_of(text: &str) -> usize {
    if !text.contains('<') {
        return 0;
    }
    let nodes = memchr::memchr_iter(b'<', text.as_bytes()).count() + 1;
    text.len().saturating_add(nodes.saturating_mul(NODE_COST))
}

/// The hard bound on entity nesting, whatever the limits say: expansion in
/// content nests a tokenizer per level.
pub(crate) const MAX_ENTITY_NESTING: usize = 64;

impl Declarations {
    /// Reads an internal subset that starts at `base` in the input, of the
    /// DOCTYPE named `doctype_name` (as written), in an XML 1.1 document if
    /// `xml11`.
    pub(crate) fn parse(
        subset: &str,
        base: usize,
        limits: &Limits,
        doctype_name: &str,
        xml11: bool,
    ) -> Declarations {
        let nothing = External::default();
        Declarations::parse_with(subset, base, limits, doctype_name, xml11, &nothing, None)
    }

    /// [`parse`](Self::parse), reading external parameter entities, the
    /// external subset `dtd` (if given) and, when content refers to them,
    /// external general entities, through `external`'s resolver.
    pub(crate) fn parse_with(
        subset: &str,
        base: usize,
        limits: &Limits,
        doctype_name: &str,
        xml11: bool,
        external: &External,
        dtd: Option<ExternalSubset<'_>>,
    ) -> Declarations {
        // The subset is read whole before any of its entities is used.
        let read = base.saturating_add(subset.len());
        let subset = internal_subset::parse_with(subset, base, limits, xml11, external, dtd);
        let loaded = subset.files.bytes;
        let external_texts = match external.resolves() {
            true => subset
                .entities
                .iter()
                .filter(|(_, e)| matches!(e.value, EntityValue::External { notation: None, .. }))
                .map(|(name, _)| (name.clone(), OnceLock::new()))
                .collect(),
            false => HashMap::new(),
        };
        let longest_name = subset.entities.keys().map(|k| k.len()).max().unwrap_or(0);
        let used = subset.expanded_bytes;
        let with_markup = subset
            .entities
            .iter()
            .filter_map(|(name, e)| match &e.value {
                EntityValue::Internal(text) if text.contains('<') => {
                    Some((name.clone(), markup_cost_of(text)))
                }
                _ => None,
            })
            .collect();
        let defaults = subset
            .attribute_lists
            .iter()
            .map(|(element, list)| {
                let with_value = list
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| {
                        matches!(d.default, DefaultValue::Value(_) | DefaultValue::Fixed(_))
                    })
                    .map(|(i, _)| i)
                    .collect();
                (element.clone(), with_value)
            })
            .collect();
        let positions = subset
            .attribute_lists
            .iter()
            .map(|(element, list)| {
                let mut by_name = HashMap::new();
                for (i, definition) in list.iter().enumerate() {
                    by_name.entry(definition.name.clone()).or_insert(i);
                }
                (element.clone(), by_name)
            })
            .collect();
        Declarations(Arc::new(Inner {
            subset,
            doctype_name: doctype_name.into(),
            with_markup,
            defaults,
            positions,
            longest_name,
            limits: limits.clone(),
            external: external.clone(),
            external_texts,
            xml11,
            loaded: AtomicUsize::new(loaded),
            read: AtomicUsize::new(read),
            used: AtomicUsize::new(used),
            exhausted: AtomicBool::new(false),
        }))
    }

    /// For error `index` of [`errors`](Self::errors), about a file not
    /// read: which, and why.
    pub(crate) fn error_note(&self, index: usize) -> Option<&str> {
        let notes = &self.0.subset.files.notes;
        let at = notes.binary_search_by_key(&index, |(i, _)| *i).ok()?;
        Some(&notes[at].1)
    }

    /// For error `index` of [`errors`](Self::errors), found inside a file
    /// read through the resolver: where in it.
    pub(crate) fn error_position(&self, index: usize) -> Option<&ExternalPosition> {
        let positions = &self.0.subset.files.positions;
        let at = positions.binary_search_by_key(&index, |(i, _)| *i).ok()?;
        Some(&positions[at].1)
    }

    /// The errors found reading the declarations (offsets in the input).
    /// The subset's items, as document offsets in the normalized subset
    /// (see `InternalSubset::items`).
    pub(crate) fn items(&self) -> &[(usize, usize)] {
        &self.0.subset.items
    }

    pub(crate) fn errors(&self) -> &[(ErrorCode, usize)] {
        &self.0.subset.errors
    }

    /// Notes that the parse has read the input up to `offset` (the end of
    /// the reference about to be expanded, or of the tag whose defaults
    /// are about to be supplied): the budget grows with the input read, so
    /// that a stream, which never knows the input's length, and a whole
    /// input run out of it at the same place. Offsets only move it on (a
    /// replacement text's own offsets start again at 0).
    pub(crate) fn read_up_to(&self, offset: usize) {
        self.0.read.fetch_max(offset, Relaxed);
    }

    /// The limits the declarations were read with.
    pub(crate) fn limits(&self) -> &Limits {
        &self.0.limits
    }

    /// The deepest nesting of references allowed.
    pub(crate) fn max_depth(&self) -> usize {
        self.0.limits.max_entity_depth.min(MAX_ENTITY_NESTING)
    }

    /// Whether any general entity was declared.
    /// The general entities declared, with where each declaration starts
    /// (a document offset in the normalized subset; for one declared in a
    /// parameter entity's text, the reference to that entity).
    pub(crate) fn entity_offsets(&self) -> impl Iterator<Item = (&str, usize)> {
        self.0
            .subset
            .entities
            .iter()
            .map(|(name, entity)| (&**name, entity.offset))
    }

    /// The length in bytes of the longest declared general-entity name.
    pub(crate) fn longest_name(&self) -> usize {
        self.0.longest_name
    }

    pub(crate) fn has_entities(&self) -> bool {
        !self.0.subset.entities.is_empty()
    }

    /// What `name` refers to. The five predefined entities are never
    /// looked up here (their declarations are ignored).
    pub(crate) fn lookup(&self, name: &str) -> EntityLookup<'_> {
        match self.0.subset.entities.get(name).map(|e| &e.value) {
            Some(EntityValue::Internal(text)) => EntityLookup::Internal(text),
            Some(EntityValue::External { notation: None, .. }) => EntityLookup::External,
            Some(EntityValue::External { .. }) => EntityLookup::Unparsed,
            None => EntityLookup::Undeclared,
        }
    }

    /// What `name` refers to in content: as [`lookup`](Self::lookup), but
    /// an external parsed entity is read through the resolver (once; its
    /// text is then the entity's replacement text for this parse), or is
    /// `Unavailable` when the resolver refused it.
    pub(crate) fn lookup_content(&self, name: &str) -> EntityLookup<'_> {
        let lookup = self.lookup(name);
        let Some(cell) = self.0.external_texts.get(name) else {
            return lookup;
        };
        match cell.get_or_init(|| self.load_general(name)) {
            Ok(loaded) => EntityLookup::Internal(&loaded.text),
            Err(unread) => EntityLookup::Unavailable(unread),
        }
    }

    /// Reads the external parsed entity `name` through the resolver: at
    /// most what the expansion budget has left.
    fn load_general(&self, name: &str) -> Result<Loaded, Unread> {
        let unread = |code: ErrorCode| Unread {
            code,
            why: String::new(),
        };
        let Some(entity) = self.0.subset.entities.get(name) else {
            return Err(unread(ErrorCode::UndeclaredEntity));
        };
        let EntityValue::External {
            public_id,
            system_id,
            ..
        } = &entity.value
        else {
            return Err(unread(ErrorCode::ExternalEntityReference));
        };
        let reference = Reference {
            kind: ExternalKind::GeneralEntity,
            name: Some(name),
            public_id: public_id.as_deref(),
            system_id,
            base: entity.base.as_deref(),
        };
        // Files read are input: with the document and the files read
        // before, within the input-size limit. (Expanding the text is
        // charged to the budget as an internal entity's is.)
        let inner = &self.0;
        let read = inner.read.load(Relaxed);
        let loaded = inner.loaded.load(Relaxed);
        let left = (inner.limits.max_input_bytes)
            .saturating_sub(read)
            .saturating_sub(loaded);
        let result = match loading::load(&inner.external, reference, left, inner.xml11) {
            Some(loaded) => loaded,
            None => Err(unread(ErrorCode::ExternalEntityReference)),
        };
        if let Ok(text) = &result {
            inner.loaded.fetch_add(text.text.len(), Relaxed);
        }
        result
    }

    /// Whether the internal subset refers to any parameter entity (so
    /// entities it does not declare may be declared where a non-validating
    /// processor does not read, XML 1.0 WFC "Entity Declared").
    pub(crate) fn has_parameter_references(&self) -> bool {
        self.0.subset.parameter_references
    }

    /// The notations the internal subset declares, in the order declared
    /// (the first declaration of a name only).
    ///
    /// ```
    /// use xml5dom::events::{parse, Event};
    /// let mut found = Vec::new();
    /// parse("<!DOCTYPE a [<!NOTATION n SYSTEM 'viewer'>]><a/>", |event| {
    ///     if let Event::Doctype(doctype) = event {
    ///         let notations = doctype.declarations.unwrap().notations();
    ///         found.extend(notations.iter().map(|n| (n.name().to_owned(), n.system_id().map(str::to_owned))));
    ///     }
    /// });
    /// assert_eq!(found, [("n".to_owned(), Some("viewer".to_owned()))]);
    /// ```
    pub fn notations(&self) -> &[Notation] {
        &self.0.subset.notations
    }

    /// The processing instructions of the internal subset, in order:
    /// target and data.
    pub(crate) fn processing_instructions(&self) -> &[(Box<str>, Box<str>)] {
        &self.0.subset.processing_instructions
    }

    /// The name of the DOCTYPE that holds the subset, as written (not
    /// lowercased as the DOCTYPE token's).
    pub(crate) fn doctype_name(&self) -> &str {
        &self.0.doctype_name
    }

    /// Whether the general entity `name` is declared (internal or external).
    pub fn is_declared(&self, name: &str) -> bool {
        self.0.subset.entities.contains_key(name)
    }

    /// The replacement text of the internal entity `name`, if declared.
    ///
    /// ```
    /// use xml5dom::tokenizer::{tokenize, OwnedToken, TokenList};
    /// let out = tokenize("<!DOCTYPE a [<!ENTITY e 'x&#38;#60;'>]><a>&e;</a>", TokenList::default());
    /// assert!(out.tokens().any(|t| matches!(t, OwnedToken::EntityReference { name, .. } if name == "e")));
    /// ```
    pub fn replacement_text(&self, name: &str) -> Option<&str> {
        match self.lookup(name) {
            EntityLookup::Internal(text) => Some(text),
            _ => None,
        }
    }

    /// The attribute definitions declared for elements named `element` (as
    /// written).
    pub(crate) fn attribute_list(&self, element: &str) -> Option<&[AttributeDefinition]> {
        self.0
            .subset
            .attribute_lists
            .get(element)
            .map(Vec::as_slice)
    }

    /// Whether the internal entity `name`'s replacement text holds a `<`
    /// (markup, unless it is in a reference's text).
    pub(crate) fn has_markup(&self, name: &str) -> bool {
        self.0.with_markup.contains_key(name) || self.external_text(name).contains('<')
    }

    /// Where the external entity `name` was read from, once it was.
    pub(crate) fn external_uri(&self, name: &str) -> Option<&str> {
        match self.0.external_texts.get(name).and_then(OnceLock::get) {
            Some(Ok(loaded)) => Some(&loaded.uri),
            _ => None,
        }
    }

    /// The text of the external entity `name`, once read (`""` otherwise).
    fn external_text(&self, name: &str) -> &str {
        match self.0.external_texts.get(name).and_then(OnceLock::get) {
            Some(Ok(loaded)) => &loaded.text,
            _ => "",
        }
    }

    /// What expanding the entity `name` (with markup) once costs in the
    /// budget: its bytes, and [`NODE_COST`] for each node it can make (one
    /// per `<`, and the text after the last), so that the memory its nodes
    /// take stays in proportion to the budget.
    pub(crate) fn markup_cost(&self, name: &str) -> usize {
        match self.0.with_markup.get(name) {
            Some(&cost) => cost,
            None => markup_cost_of(self.external_text(name)),
        }
    }

    /// Whether the budget ran out.
    pub(crate) fn exhausted(&self) -> bool {
        self.0.exhausted.load(Relaxed)
    }

    /// Whether any attribute list was declared.
    pub(crate) fn has_attribute_lists(&self) -> bool {
        !self.0.positions.is_empty()
    }

    /// By attribute name: the index in `element`'s attribute list of its
    /// definition (looked up once per tag, not once per attribute: the
    /// element's name may be long).
    pub(crate) fn attribute_positions(&self, element: &str) -> Option<&HashMap<Box<str>, usize>> {
        self.0.positions.get(element)
    }

    /// The indices in `element`'s attribute list of the definitions with a
    /// default value.
    pub(crate) fn defaults(&self, element: &str) -> &[usize] {
        self.0.defaults.get(element).map_or(&[], Vec::as_slice)
    }

    /// Every element an attribute-list declaration gives default values,
    /// with the attributes it gives them for, both sorted (each element's
    /// name once, however many its defaults).
    pub(crate) fn defaulted_attributes(&self) -> Vec<(Box<str>, Vec<Box<str>>)> {
        let mut out = Vec::new();
        for (element, indices) in &self.0.defaults {
            let list = self.attribute_list(element).unwrap_or_default();
            let mut names: Vec<Box<str>> = indices
                .iter()
                .filter_map(|&i| list.get(i))
                .map(|definition| definition.name.clone())
                .collect();
            if !names.is_empty() {
                names.sort_unstable();
                out.push((element.clone(), names));
            }
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Takes `bytes` from the expansion budget; `Err` with the error to
    /// report (once) when they do not fit, after which nothing fits.
    pub(crate) fn spend(&self, bytes: usize) -> Result<(), Option<ErrorCode>> {
        let inner = &self.0;
        if inner.exhausted.load(Relaxed) {
            return Err(None);
        }
        let used = inner.used.load(Relaxed).saturating_add(bytes);
        if used
            > inner
                .limits
                .entity_expansion_budget(inner.read.load(Relaxed))
        {
            inner.exhausted.store(true, Relaxed);
            return Err(Some(ErrorCode::EntityExpansionLimit));
        }
        inner.used.store(used, Relaxed);
        Ok(())
    }

    /// Matches a declared general-entity reference at the start of `after`
    /// (the text after a `&`): `Some(Some(n))` when `after[..n]` is a
    /// declared name followed by `;`, `Some(None)` when it is not, `None`
    /// when more input is needed to tell.
    pub(crate) fn match_reference(&self, after: &[u8], eof: bool) -> Option<Option<usize>> {
        // Only name bytes can come before the `;` (non-ASCII ones are
        // checked by the lookup), so the scan stops at the next `&` at the
        // latest: every byte is scanned once, however long the names.
        let limit = self.0.longest_name;
        let name_len = after
            .iter()
            .take(limit + 1)
            .position(|&b| {
                !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b':') || b >= 0x80)
            })
            .unwrap_or(after.len().min(limit + 1));
        if name_len > limit {
            return Some(None);
        }
        match after.get(name_len) {
            Some(b';') if name_len > 0 => {
                let name = std::str::from_utf8(&after[..name_len]).ok();
                Some(name.filter(|name| self.is_declared(name)).map(|_| name_len))
            }
            Some(_) => Some(None),
            None if eof => Some(None),
            None => None,
        }
    }

    /// Appends to `out` the text `raw` stands for, read in `mode`:
    /// references resolved (declared entities first, then the character
    /// references and the HTML table, as in the tokenizer), and in an
    /// attribute value whitespace normalized (XML 1.0 §3.3.3). `entity`
    /// names the entity `raw` is the replacement text of, if it is one, and
    /// `outer_depth` counts the references already being expanded around
    /// it (for the depth limit).
    /// Errors are pushed to `errors`. Every byte appended is taken from the
    /// budget. On `Err`, `out` was partly appended to.
    pub(crate) fn expand(
        &self,
        raw: &str,
        entity: Option<&str>,
        outer_depth: usize,
        mode: ExpansionMode,
        out: &mut String,
        errors: &mut Vec<ErrorCode>,
    ) -> Result<(), ExpansionStop> {
        if self.exhausted() {
            return Err(ExpansionStop::Budget);
        }
        let specials: &[char] = match mode {
            ExpansionMode::Attribute => &['&', '\t', '\n', '\r', '<'],
            ExpansionMode::Text => &['&', '<'],
        };
        // Content holds no `]]>` outside CDATA, also in a replacement text
        // (XML 1.0 §2.4; libxml2 agrees).
        let cdata_end = |text: &str| mode == ExpansionMode::Text && text.contains("]]>");
        if entity.is_some() && cdata_end(raw) {
            errors.push(ErrorCode::CdataEndInText);
        }
        // The stack of texts being read: (name, text, position).
        let mut stack: Vec<(Option<&str>, &str, usize)> = vec![(entity, raw, 0)];
        while let Some(top) = stack.last_mut() {
            let (_, text, pos) = *top;
            let rest = &text[pos..];
            let Some(special) = rest.find(specials) else {
                self.append(out, rest, errors)?;
                stack.pop();
                continue;
            };
            self.append(out, &rest[..special], errors)?;
            let at = pos + special;
            let byte = text.as_bytes()[at];
            if byte == b'<' && mode == ExpansionMode::Text {
                return Err(ExpansionStop::Markup);
            }
            if byte != b'&' {
                if byte == b'<' {
                    errors.push(ErrorCode::LessThanInAttributeValue);
                    self.append(out, "<", errors)?;
                } else {
                    self.append(out, " ", errors)?;
                }
                top.2 = at + 1;
                continue;
            }
            let after = &text.as_bytes()[at + 1..];
            // A declared entity?
            if let Some(Some(n)) = self.match_reference(after, true) {
                let name = &text[at + 1..at + 1 + n];
                top.2 = at + n + 2;
                let lookup = match mode {
                    ExpansionMode::Text => self.lookup_content(name),
                    ExpansionMode::Attribute => self.lookup(name),
                };
                match lookup {
                    EntityLookup::Internal(replacement) => {
                        if stack.iter().any(|(open, _, _)| *open == Some(name)) {
                            errors.push(ErrorCode::RecursiveEntityReference);
                        } else if outer_depth + stack.len() + usize::from(entity.is_some())
                            > self.max_depth()
                        {
                            errors.push(ErrorCode::EntityDepthLimit);
                        } else {
                            if cdata_end(replacement) {
                                errors.push(ErrorCode::CdataEndInText);
                            }
                            stack.push((Some(name), replacement, 0));
                            continue;
                        }
                    }
                    EntityLookup::External if mode == ExpansionMode::Attribute => {
                        errors.push(ErrorCode::ExternalEntityInAttributeValue);
                    }
                    EntityLookup::External => errors.push(ErrorCode::ExternalEntityReference),
                    EntityLookup::Unavailable(unread) => errors.push(unread.code),
                    EntityLookup::Unparsed => errors.push(ErrorCode::UnparsedEntityReference),
                    EntityLookup::Undeclared => errors.push(ErrorCode::UndeclaredEntity),
                }
                // Left unexpanded: kept as written.
                self.append(out, &text[at..at + n + 2], errors)?;
                continue;
            }
            // A character reference or a name from the HTML table.
            // (Replacement texts are read by XML 1.0's rules for references.)
            match char_refs::consume(after, true, mode == ExpansionMode::Attribute, None, false) {
                CharRef::Ref {
                    consumed,
                    text: replacement,
                    errors: found,
                } => {
                    errors.extend(found.iter());
                    let name = &after[..consumed];
                    if name.starts_with(b"#X") {
                        errors.push(ErrorCode::UppercaseHexadecimalReference);
                    }
                    if name.first() != Some(&b'#') && !is_predefined_reference(name) {
                        // A name from HTML's table: XML does not know it.
                        errors.push(ErrorCode::UndeclaredEntity);
                    }
                    match replacement {
                        Replacement::Char(c) => {
                            self.append(out, c.encode_utf8(&mut [0; 4]), errors)?
                        }
                        Replacement::Str(s) => self.append(out, s, errors)?,
                    }
                    top.2 = at + 1 + consumed;
                }
                CharRef::NotARef { error } => {
                    // XML reads no reference here either: not well-formed
                    // where the entity is used.
                    errors.push(error.unwrap_or_else(|| undeclared_or_bare(&text[at + 1..])));
                    self.append(out, "&", errors)?;
                    top.2 = at + 1;
                }
                CharRef::NeedMore => {
                    // Cannot happen at the end of a whole text; keep the `&`.
                    self.append(out, "&", errors)?;
                    top.2 = at + 1;
                }
            }
        }
        Ok(())
    }

    /// Appends `s` to `out` if the budget allows.
    fn append(
        &self,
        out: &mut String,
        s: &str,
        errors: &mut Vec<ErrorCode>,
    ) -> Result<(), ExpansionStop> {
        if let Err(error) = self.spend(s.len()) {
            errors.extend(error);
            return Err(ExpansionStop::Budget);
        }
        out.push_str(s);
        Ok(())
    }
}

/// Whether `name` (what follows a `&`, up to and with its `;`) is one of
/// XML's five predefined entities.
fn is_predefined_reference(name: &[u8]) -> bool {
    matches!(name, b"amp;" | b"lt;" | b"gt;" | b"apos;" | b"quot;")
}

/// The error for a `&` that starts no reference: `undeclared-entity` if a
/// name and `;` follow (one HTML's table does not know either), else
/// `bare-ampersand`. `text` is the rest of the text after the `&`: only the
/// name at its start is read (a text of many `&`s stays linear).
fn undeclared_or_bare(text: &str) -> ErrorCode {
    let name_len = text
        .char_indices()
        .find(|&(i, c)| {
            !(crate::chars::is_name_char(c) && (i > 0 || crate::chars::is_name_start_char(c)))
        })
        .map_or(text.len(), |(i, _)| i);
    if name_len > 0 && text[name_len..].starts_with(';') {
        ErrorCode::UndeclaredEntity
    } else {
        ErrorCode::BareAmpersand
    }
}
