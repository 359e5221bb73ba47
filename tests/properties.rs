//! Property tests: generated documents, well-formed and then damaged, checked
//! against the promises every parse keeps (`tests/common/invariants.rs`).
//!
//! A grammar-based generator writes well-formed XML 1.0 with namespaces: an
//! XML declaration, a DOCTYPE whose internal subset declares entities,
//! attribute lists, elements and notations, nested elements with prefixes
//! and default namespaces, attributes with references and whitespace, text
//! with references, CDATA sections, comments and processing instructions,
//! non-ASCII text and every line-end style. Each document must parse without
//! errors (a strict parser, roxmltree, must accept it too and read the same
//! tree), in UTF-8 and in UTF-16.
//!
//! Then bytes are damaged (ranges deleted, inserted, duplicated, swapped;
//! markup fragments inserted; truncation; invalid UTF-8, NUL, line-end
//! changes), and for every damaged input, through `Document::parse_bytes`,
//! the push `Parser` fed random chunks, and `Document::parse` of the lossy
//! text: no panic, the invariants, the same tree from bytes and from text,
//! and output that reparses without errors. `tests/fixpoint.rs` checks
//! that last promise on eight fixed documents damaged as text; here the
//! inputs are generated and damaged as bytes, DTDs, encodings and limits
//! included, so the two runs overlap little.
//!
//! Every case has its own seed (`Rng::for_case`), printed with the input
//! when it fails.

mod common;
// The fuzz targets' checks: which warnings keep roxmltree from judging.
#[allow(dead_code)]
#[path = "common/fuzz_checks.rs"]
mod fuzz_checks;

use std::collections::HashSet;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::invariants::{self, check_document};
use common::{diff, Rng};
use xml5dom::{Document, ErrorCode, Limits, Node, NodeType, ParseOptions, Parser};

// ----- The generator -----------------------------------------------------

/// A generated well-formed document and what the generator knows of it.
struct Generated {
    text: String,
    /// Where each reference to a declared general entity starts (its `&`);
    /// they are expanded, like roxmltree does, and are no errors.
    entity_refs: Vec<usize>,
    /// The DOCTYPE has an `<!ATTLIST>`: default attributes may be added, so
    /// attributes are not compared with roxmltree.
    attlist: bool,
    /// The range of the declaration's encoding label, if it has one.
    label: Option<std::ops::Range<usize>>,
}

const NAME_STARTS: &[&str] = &[
    "a", "b", "c", "d", "e", "item", "n", "_", "T", "Z", "é", "Ω", "日", "ß",
];
const NAME_CHARS: &[&str] = &[
    "a", "e", "o", "z", "1", "9", "-", ".", "_", "é", "·", "本", "Q", "\u{300}",
];
/// Text that needs no escaping anywhere (no `<`, `&`, `>`, quotes, `%`).
const WORDS: &[&str] = &[
    "hello",
    "x",
    " ",
    "  ",
    "a b",
    "1.5",
    "=",
    "/",
    "?",
    "!",
    "-",
    ";",
    "#",
    "(",
    ")",
    "[",
    "]",
    "é",
    "日本語",
    "😀",
    "\u{10000}",
    "\u{85}",
    "\u{2028}",
    "\u{FFFD}",
];
const CHAR_REFS: &[&str] = &[
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&apos;",
    "&#x41;",
    "&#65;",
    "&#233;",
    "&#x1F600;",
    "&#xA;",
    "&#9;",
    "&#x20;",
];
const LINE_ENDS: &[&str] = &["\n", "\r\n", "\r", "\t"];
const NAMESPACES: &[&str] = &[
    "urn:gen:a",
    "urn:gen:b",
    "http://example.org/ns",
    "urn:gen:é",
];

struct Gen<'r> {
    rng: &'r mut Rng,
    out: String,
    entities: Vec<String>,
    entity_refs: Vec<usize>,
    attlist: bool,
    /// Prefixes in scope, innermost last.
    prefixes: Vec<String>,
    next_prefix: usize,
}

impl Gen<'_> {
    fn name(&mut self) -> String {
        let mut name = self.rng.pick(NAME_STARTS).to_owned();
        for _ in 0..self.rng.below(5) {
            name.push_str(self.rng.pick(NAME_CHARS));
        }
        name
    }

    fn space(&mut self) {
        let space = self.rng.pick(&[" ", " ", "  ", "\n", "\r\n", "\t", "\n  "]);
        self.out.push_str(space);
    }

    fn entity_ref(&mut self) -> bool {
        if self.entities.is_empty() {
            return false;
        }
        let name = self.entities[self.rng.below(self.entities.len())].clone();
        self.entity_refs.push(self.out.len());
        write!(self.out, "&{name};").unwrap();
        true
    }

    /// Character data: words, references, line ends.
    fn text(&mut self, pieces: usize) {
        for _ in 0..pieces {
            match self.rng.below(10) {
                0..=4 => self.out.push_str(self.rng.pick(WORDS)),
                5 | 6 => self.out.push_str(self.rng.pick(CHAR_REFS)),
                7 => self.out.push_str(self.rng.pick(LINE_ENDS)),
                8 if self.entity_ref() => {}
                _ => self.out.push_str("'\""),
            }
        }
    }

    fn attribute_value(&mut self) {
        let quote = if self.rng.one_in(2) { '"' } else { '\'' };
        self.out.push(quote);
        for _ in 0..self.rng.below(5) {
            match self.rng.below(8) {
                0..=3 => self.out.push_str(self.rng.pick(WORDS)),
                4 => self.out.push_str(self.rng.pick(CHAR_REFS)),
                5 => self.out.push_str(self.rng.pick(LINE_ENDS)),
                6 if self.entity_ref() => {}
                // The other quote.
                _ => self.out.push(if quote == '"' { '\'' } else { '"' }),
            }
        }
        self.out.push(quote);
    }

    fn comment(&mut self) {
        let mut body = String::new();
        for _ in 0..self.rng.below(4) {
            body.push_str(
                self.rng
                    .pick(&["-", "x", " ", "<a>", "&", "]]>", "é", "\n", "'"]),
            );
        }
        while body.contains("--") {
            body = body.replace("--", "- ");
        }
        if body.ends_with('-') {
            body.push(' ');
        }
        write!(self.out, "<!--{body}-->").unwrap();
    }

    fn processing_instruction(&mut self) {
        let target = format!("p{}", self.name());
        let mut data = String::new();
        for _ in 0..self.rng.below(4) {
            data.push_str(
                self.rng
                    .pick(&["?", ">", "x", " ", "<b>", "&", "a=\"1\"", "é"]),
            );
        }
        while data.contains("?>") {
            data = data.replace("?>", "? >");
        }
        if data.is_empty() || self.rng.one_in(3) {
            write!(self.out, "<?{target}?>").unwrap();
        } else {
            write!(self.out, "<?{target} {data}?>").unwrap();
        }
    }

    fn cdata(&mut self) {
        let mut body = String::new();
        for _ in 0..self.rng.below(4) {
            body.push_str(
                self.rng
                    .pick(&["<a>", "&amp;", "]", "]]", ">", "x", "\r\n", "é"]),
            );
        }
        while body.contains("]]>") {
            body = body.replace("]]>", "]] >");
        }
        write!(self.out, "<![CDATA[{body}]]>").unwrap();
    }

    /// Comments, PIs and whitespace, outside the root element.
    fn misc(&mut self) {
        for _ in 0..self.rng.below(3) {
            match self.rng.below(3) {
                0 => self.comment(),
                1 => self.processing_instruction(),
                _ => self.space(),
            }
        }
    }

    fn declaration(&mut self) -> Option<std::ops::Range<usize>> {
        let quote = self.rng.pick(&["\"", "'"]);
        write!(self.out, "<?xml version={quote}1.0{quote}").unwrap();
        let mut label = None;
        if self.rng.one_in(2) {
            self.space();
            write!(self.out, "encoding={quote}").unwrap();
            let start = self.out.len();
            self.out.push_str(self.rng.pick(&["UTF-8", "utf-8"]));
            label = Some(start..self.out.len());
            self.out.push_str(quote);
        }
        if self.rng.one_in(3) {
            let value = self.rng.pick(&["yes", "no"]);
            write!(self.out, " standalone={quote}{value}{quote}").unwrap();
        }
        if self.rng.one_in(3) {
            self.out.push(' ');
        }
        self.out.push_str("?>");
        label
    }

    fn entity_value(&mut self) {
        let quote = if self.rng.one_in(2) { '"' } else { '\'' };
        self.out.push(quote);
        for _ in 0..self.rng.below(4) {
            match self.rng.below(6) {
                0..=2 => self.out.push_str(self.rng.pick(WORDS)),
                // Character references that expand to plain text.
                3 => self
                    .out
                    .push_str(self.rng.pick(&["&#x41;", "&#233;", "&#x20;"])),
                // A reference to an entity declared before.
                4 if !self.entities.is_empty() => {
                    let name = self.entities[self.rng.below(self.entities.len())].clone();
                    write!(self.out, "&{name};").unwrap();
                }
                _ => self.out.push(if quote == '"' { '\'' } else { '"' }),
            }
        }
        self.out.push(quote);
    }

    fn doctype(&mut self, root: &str) {
        write!(self.out, "<!DOCTYPE {root}").unwrap();
        match self.rng.below(4) {
            0 => self.out.push_str(" SYSTEM \"gen.dtd\""),
            1 => self
                .out
                .push_str(" PUBLIC \"-//Gen//DTD Test 1.0//EN\" 'gen.dtd'"),
            _ => {}
        }
        if self.rng.below(4) != 0 {
            self.out
                .push_str(if self.rng.one_in(2) { " [" } else { "[" });
            for _ in 0..self.rng.below(7) {
                self.subset_item(root);
            }
            self.out.push(']');
        }
        if self.rng.one_in(3) {
            self.out.push(' ');
        }
        self.out.push('>');
    }

    fn subset_item(&mut self, root: &str) {
        match self.rng.below(9) {
            0..=2 => {
                let name = format!("xq{}", self.entities.len());
                write!(self.out, "<!ENTITY {name} ").unwrap();
                self.entity_value();
                self.out.push('>');
                self.entities.push(name);
            }
            3 => {
                let n = self.next_prefix;
                self.next_prefix += 1;
                write!(self.out, "<!ENTITY % xqp{n} ").unwrap();
                self.entity_value();
                self.out.push('>');
            }
            4 => {
                let n = self.next_prefix;
                self.next_prefix += 1;
                write!(self.out, "<!ENTITY xqx{n} SYSTEM \"ext{n}.xml\">").unwrap();
            }
            5 => {
                self.attlist = true;
                let element = if self.rng.one_in(2) {
                    root.to_owned()
                } else {
                    self.name()
                };
                let declaration = self.rng.pick(&[
                    "d-att CDATA #IMPLIED",
                    "d-att CDATA 'dflt'",
                    "d-att CDATA #FIXED \"f\"",
                    "d-att (one|two) \"one\"",
                    "d-att NMTOKEN #IMPLIED d-id ID #IMPLIED",
                ]);
                write!(self.out, "<!ATTLIST {element} {declaration}>").unwrap();
            }
            6 => {
                let content = self
                    .rng
                    .pick(&["ANY", "EMPTY", "(#PCDATA)", "(a, (b | c)*)?"]);
                let name = self.name();
                write!(self.out, "<!ELEMENT {name} {content}>").unwrap();
            }
            7 => {
                let n = self.next_prefix;
                self.next_prefix += 1;
                write!(self.out, "<!NOTATION xqn{n} SYSTEM \"n{n}\">").unwrap();
            }
            _ => match self.rng.below(3) {
                0 => self.comment(),
                1 => self.processing_instruction(),
                _ => self.space(),
            },
        }
    }

    /// An element: `root_name` for the root, a random name otherwise; no
    /// recursion deeper than `depth` levels.
    fn element(&mut self, depth: usize, root_name: Option<&str>) {
        let scope = self.prefixes.len();
        let mut attributes: Vec<String> = Vec::new();
        if self.rng.one_in(4) {
            let prefix = format!("p{}", self.next_prefix);
            self.next_prefix += 1;
            let uri = self.rng.pick(NAMESPACES);
            attributes.push(format!("xmlns:{prefix}=\"{uri}\""));
            self.prefixes.push(prefix);
        }
        if self.rng.one_in(6) {
            let uri = self.rng.pick(&["urn:gen:default", ""]);
            attributes.push(format!("xmlns='{uri}'"));
        }
        let name = match root_name {
            Some(name) => name.to_owned(),
            None if !self.prefixes.is_empty() && self.rng.one_in(3) => {
                let prefix = self.prefixes[self.rng.below(self.prefixes.len())].clone();
                format!("{prefix}:{}", self.name())
            }
            None => self.name(),
        };
        write!(self.out, "<{name}").unwrap();
        // Attributes, each local name once (two prefixes may be bound to
        // one URI, so a repeated local name could be a duplicate).
        let mut locals = HashSet::new();
        for _ in 0..self.rng.below(4) {
            let local = self.name();
            if !locals.insert(local.clone()) {
                continue;
            }
            let qname = match self.rng.below(6) {
                0 if !self.prefixes.is_empty() => {
                    let prefix = &self.prefixes[self.rng.below(self.prefixes.len())];
                    format!("{prefix}:{local}")
                }
                1 if locals.insert("lang".into()) => "xml:lang".into(),
                _ => local,
            };
            attributes.push(qname);
        }
        for attribute in attributes {
            self.space();
            if attribute.contains('=') {
                self.out.push_str(&attribute);
                continue;
            }
            self.out.push_str(&attribute);
            if self.rng.one_in(5) {
                self.out.push(' ');
            }
            self.out.push('=');
            if self.rng.one_in(5) {
                self.out.push(' ');
            }
            self.attribute_value();
        }
        if self.rng.one_in(4) {
            self.space();
        }
        if depth == 0 || self.rng.one_in(5) {
            self.out.push_str("/>");
        } else {
            self.out.push('>');
            for _ in 0..self.rng.below(6) {
                match self.rng.below(10) {
                    0..=3 => self.element(depth - 1, None),
                    4..=6 => {
                        let pieces = 1 + self.rng.below(4);
                        self.text(pieces);
                    }
                    7 => self.cdata(),
                    8 => self.comment(),
                    _ => self.processing_instruction(),
                }
            }
            write!(self.out, "</{name}").unwrap();
            if self.rng.one_in(5) {
                self.space();
            }
            self.out.push('>');
        }
        self.prefixes.truncate(scope);
    }
}

fn generate(rng: &mut Rng) -> Generated {
    let mut g = Gen {
        rng,
        out: String::new(),
        entities: Vec::new(),
        entity_refs: Vec::new(),
        attlist: false,
        prefixes: Vec::new(),
        next_prefix: 0,
    };
    let label = if g.rng.below(3) != 0 {
        g.declaration()
    } else {
        None
    };
    g.misc();
    let root = g.name();
    if g.rng.one_in(2) {
        g.doctype(&root);
        g.misc();
    }
    let depth = g.rng.between(1, 6);
    g.element(depth, Some(&root));
    g.misc();
    Generated {
        text: g.out,
        entity_refs: g.entity_refs,
        attlist: g.attlist,
        label,
    }
}

// ----- Damage --------------------------------------------------------------

const FRAGMENTS: &[&[u8]] = &[
    b"<",
    b">",
    b"</",
    b"/>",
    b"<a>",
    b"</a>",
    b"</>",
    b"<!--",
    b"-->",
    b"--",
    b"<![CDATA[",
    b"]]>",
    b"<?",
    b"?>",
    b"<?xml version='1.0'?>",
    b"<!DOCTYPE d>",
    b"<!DOCTYPE d [",
    b"<!ENTITY xq0 '<b/>'>",
    b"<!ENTITY % pe 'x'>%pe;",
    b"<!ATTLIST a b CDATA 'c'>",
    b"]>",
    b"]",
    b"[",
    b"&",
    b"&amp",
    b"&#",
    b"&#x",
    b"&#xD800;",
    b"&#0;",
    b"&xq0;",
    b"&xq9;",
    b"&notin",
    b"\"",
    b"'",
    b"=",
    b" a=1",
    b" b=\"2\"",
    b" xmlns:p='urn:p'",
    b" xmlns=''",
    b" xmlns:xml='urn:x'",
    b"p:",
    b":",
    b"%",
    b"\x0c",
    b"\x7f",
    b"\xef\xbf\xbe",
    b"\xef\xb7\x90",
];

/// Byte sequences that are not UTF-8 (or not all of it).
const INVALID_UTF8: &[&[u8]] = &[
    b"\x80",
    b"\xbf",
    b"\xff",
    b"\xfe",
    b"\xc0\x80",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xf0\x9f\x98",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
];

/// A random range of `len` bytes or fewer, inside `bytes`.
fn range(rng: &mut Rng, bytes: &[u8], len: usize) -> std::ops::Range<usize> {
    let start = rng.below(bytes.len() + 1);
    let end = (start + rng.between(1, len)).min(bytes.len());
    start..end
}

/// One random piece of damage.
fn damage(rng: &mut Rng, bytes: &mut Vec<u8>) {
    let at = rng.below(bytes.len() + 1);
    match rng.below(12) {
        0 => {
            let r = range(rng, bytes, 16);
            bytes.drain(r);
        }
        1 => {
            let noise: Vec<u8> = (0..rng.between(1, 8))
                .map(|_| rng.below(256) as u8)
                .collect();
            bytes.splice(at..at, noise);
        }
        2 => {
            let r = range(rng, bytes, 40);
            let copy = bytes[r.clone()].to_vec();
            let to = rng.below(bytes.len() + 1);
            bytes.splice(to..to, copy);
        }
        3 => {
            // Swap two ranges (the second after the first).
            let first = range(rng, bytes, 20);
            let rest = &bytes[first.end..];
            let second = range(rng, rest, 20);
            let second = first.end + second.start..first.end + second.end;
            let a = bytes[first.clone()].to_vec();
            let b = bytes[second.clone()].to_vec();
            bytes.splice(second, a);
            bytes.splice(first, b);
        }
        4 | 5 => {
            let fragment = rng.pick(FRAGMENTS).to_vec();
            bytes.splice(at..at, fragment);
        }
        6 => bytes.truncate(at),
        7 => {
            let invalid = rng.pick(INVALID_UTF8).to_vec();
            bytes.splice(at..at, invalid);
        }
        8 => bytes.insert(at, 0),
        9 => {
            // Line ends: LF to CR LF or CR, CR LF to LF, or a lone CR.
            let lf: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b'\n').collect();
            match lf.get(rng.below(lf.len())) {
                Some(&i) if i > 0 && bytes[i - 1] == b'\r' => {
                    bytes.remove(i - 1);
                }
                Some(&i) if rng.one_in(2) => bytes[i] = b'\r',
                Some(&i) => bytes.insert(i, b'\r'),
                None => bytes.insert(at, b'\r'),
            }
        }
        10 if at < bytes.len() => bytes[at] = rng.below(256) as u8,
        _ => {
            // Replace a byte with a byte that matters to markup.
            if at < bytes.len() {
                bytes[at] = *rng.pick(&[&b'<', &b'>', &b'&', &b'"', &b'\'', &b'/', &b'\0']);
            }
        }
    }
}

// ----- Checks ----------------------------------------------------------------

/// Errors that come from decoding bytes, which parsing the lossy text does
/// not see.
fn is_decoding_error(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::InvalidByteSequence
            | ErrorCode::Windows1252InUtf8
            | ErrorCode::UnknownEncoding
            | ErrorCode::EncodingMismatch
    )
}

fn error_list(doc: &Document) -> Vec<(usize, ErrorCode)> {
    doc.errors().iter().map(|e| (e.offset, e.code)).collect()
}

/// What a run met, per test (each test runs on its own thread).
#[derive(Default, Debug)]
struct Tally {
    /// Documents parsed and checked (several per case).
    documents: usize,
    /// ... of which had parse errors.
    with_errors: usize,
    /// Error-free documents that roxmltree confirmed well-formed.
    confirmed_well_formed: usize,
}

thread_local! {
    static TALLY: std::cell::RefCell<Tally> = std::cell::RefCell::default();
}

fn tally(f: impl FnOnce(&mut Tally)) {
    TALLY.with(|t| f(&mut t.borrow_mut()));
}

/// Prints the run's tally (`cargo test -- --nocapture` shows it).
fn report(test: &str) {
    TALLY.with(|t| eprintln!("{test}: {:?}", t.borrow()));
}

/// The output reparses without errors (`invariants::check_output`), counted.
fn check_output(doc: &Document, options: &ParseOptions) -> Result<(), String> {
    tally(|t| {
        t.documents += 1;
        t.with_errors += usize::from(!doc.is_well_formed());
    });
    invariants::check_output_with(doc, options)
}

/// Text that parses without errors is well-formed: roxmltree accepts it,
/// internal subset included.
fn check_error_free_is_well_formed(doc: &Document) -> Result<(), String> {
    if !doc.errors().is_empty() {
        return Ok(());
    }
    strict(doc.source()).map_err(|e| format!("no errors, but roxmltree rejects it: {e}"))?;
    tally(|t| t.confirmed_well_formed += 1);
    Ok(())
}

/// `max` of each limit is never exceeded in the tree.
fn check_limits(doc: &Document, limits: &Limits) -> Result<(), String> {
    let depth_errors = doc
        .errors()
        .iter()
        .filter(|e| e.code == ErrorCode::ElementDepthLimit)
        .count();
    if depth_errors > 1 {
        return Err(format!("{depth_errors} element-depth-limit errors"));
    }
    let mut depths = std::collections::HashMap::new();
    for node in doc.root().descendants() {
        let parent_depth = node
            .parent()
            .map_or(0, |p| depths.get(&p.id()).copied().unwrap_or(0));
        let depth = parent_depth + usize::from(node.is_element());
        depths.insert(node.id(), depth);
        if limits.max_element_depth.is_some_and(|max| depth > max) {
            return Err(format!("{node:?} at depth {depth}"));
        }
        if node.attributes().len() > limits.max_attributes {
            return Err(format!(
                "{node:?} keeps {} attributes",
                node.attributes().len()
            ));
        }
        // The limit is on the names of elements, attributes, PI targets and
        // entities; not on DOCTYPE names.
        let long = |name: &str| name.len() > limits.max_name_length;
        if (node.is_element() || node.is_processing_instruction()) && long(node.name())
            || node.attributes().any(|a| long(a.name()))
        {
            return Err(format!("{node:?}: a name past the limit"));
        }
    }
    Ok(())
}

/// `bytes` through the push parser, fed in chunks cut at `cuts`.
fn parse_in_chunks(bytes: &[u8], options: &ParseOptions, cuts: &[usize]) -> Document {
    let mut parser = Parser::with_options(options);
    let mut from = 0;
    for &cut in cuts {
        parser.feed(&bytes[from..cut]);
        from = cut;
    }
    parser.feed(&bytes[from..]);
    parser.finish()
}

/// Every check of a damaged (or any) input, through every entry point.
fn check_input(bytes: &[u8], options: &ParseOptions, cuts: &[usize]) -> Result<(), String> {
    let doc = Document::parse_bytes_with(bytes, options);
    check_document(&doc).map_err(|e| format!("parse_bytes: {e}"))?;
    check_limits(&doc, &options.limits).map_err(|e| format!("parse_bytes: {e}"))?;
    check_output(&doc, options).map_err(|e| format!("parse_bytes: {e}"))?;

    let chunked = parse_in_chunks(bytes, options, cuts);
    if chunked.to_tree_dump() != doc.to_tree_dump() || error_list(&chunked) != error_list(&doc) {
        return Err(format!(
            "fed in chunks cut at {cuts:?}: another tree or errors\n{:?}\nvs\n{:?}",
            error_list(&chunked),
            error_list(&doc)
        ));
    }

    let text = utf8_read_as_windows_1252(bytes);
    let from_text = Document::parse_with(&text, options);
    check_document(&from_text).map_err(|e| format!("parse: {e}"))?;
    check_limits(&from_text, &options.limits).map_err(|e| format!("parse: {e}"))?;
    check_output(&from_text, options).map_err(|e| format!("parse: {e}"))?;
    check_error_free_is_well_formed(&from_text)?;

    // Bytes read as UTF-8 decode as that text does (each byte of a maximal
    // ill-formed subsequence its windows-1252 character), so they give the
    // same tree, and the same errors but for decoding's own.
    if doc.encoding() == encoding_rs::UTF_8 && !doc.had_byte_order_mark() {
        if doc.source() != text {
            return Err("UTF-8 bytes decoded otherwise than the lossy text".into());
        }
        let mut errors = error_list(&doc);
        errors.retain(|&(_, code)| !is_decoding_error(code));
        if from_text.to_tree_dump() != doc.to_tree_dump() || errors != error_list(&from_text) {
            return Err(format!(
                "bytes and text give another tree or errors\n{errors:?}\nvs\n{:?}",
                error_list(&from_text)
            ));
        }
    }
    Ok(())
}

/// `bytes` read as UTF-8, each byte of a maximal ill-formed subsequence (as
/// the standard library's `Utf8Error` finds them) read as its windows-1252
/// character: the oracle of docs/encodings.md's "Bytes that are not UTF-8".
fn utf8_read_as_windows_1252(bytes: &[u8]) -> String {
    let mut text = String::new();
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                text.push_str(valid);
                return text;
            }
            Err(error) => {
                let (valid, after) = rest.split_at(error.valid_up_to());
                text.push_str(std::str::from_utf8(valid).expect("valid up to here"));
                let bad = error.error_len().unwrap_or(after.len());
                for byte in after[..bad].chunks(1) {
                    let (character, _) =
                        encoding_rs::WINDOWS_1252.decode_without_bom_handling(byte);
                    text.push_str(&character);
                }
                rest = &after[bad..];
            }
        }
    }
}

/// Runs `check`, turning a panic or an `Err` into a failure that prints the
/// case and its input.
fn run_case(
    what: &str,
    seed: u64,
    case: u64,
    input: &[u8],
    check: impl FnOnce() -> Result<(), String>,
) {
    let outcome = catch_unwind(AssertUnwindSafe(check));
    let problem = match outcome {
        Ok(Ok(())) => return,
        Ok(Err(problem)) => problem,
        Err(_) => "panicked (the message is above)".to_owned(),
    };
    panic!(
        "{what}, case {case} of seed {seed:#x} (Rng::for_case({seed:#x}, {case})): {problem}\n\
         input ({} bytes): b\"{}\"",
        input.len(),
        input.escape_ascii()
    );
}

/// Little-endian or big-endian UTF-16 with a BOM.
fn utf16(text: &str, little: bool) -> Vec<u8> {
    let mut bytes = if little {
        vec![0xFF, 0xFE]
    } else {
        vec![0xFE, 0xFF]
    };
    for unit in text.encode_utf16() {
        bytes.extend(if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        });
    }
    bytes
}

/// The generated document in UTF-16, its declaration saying so.
fn as_utf16(generated: &Generated, little: bool) -> (String, Vec<u8>) {
    let mut text = generated.text.clone();
    if let Some(label) = &generated.label {
        text.replace_range(label.clone(), "UTF-16");
    }
    let bytes = utf16(&text, little);
    (text, bytes)
}

// ----- Agreement with roxmltree ------------------------------------------------

fn strict(text: &str) -> Result<roxmltree::Document<'_>, String> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, options).map_err(|e| e.to_string())
}

/// The nodes inside the root element, as (kind, name or target, text), in
/// document order: elements with their namespace, text, comments, PIs;
/// attributes (namespace declarations aside) sorted.
fn ours(doc: &Document, attributes: bool, text: bool) -> Vec<String> {
    let Some(root) = doc.root_element() else {
        return vec!["no root".into()];
    };
    let mut out = Vec::new();
    for node in std::iter::once(root).chain(root.descendants()) {
        out.push(describe_ours(node, attributes, text));
    }
    out.retain(|s| !s.is_empty());
    out
}

fn describe_ours(node: Node<'_>, attributes: bool, text: bool) -> String {
    if node.is_element() {
        let mut line = format!(
            "element {{{}}}{}",
            node.namespace().unwrap_or(""),
            node.local_name()
        );
        if attributes {
            let mut list: Vec<String> = node
                .attributes()
                .filter(|a| a.declared_prefix().is_none())
                .map(|a| {
                    format!(
                        "{{{}}}{}={:?}",
                        a.namespace().unwrap_or(""),
                        a.local_name(),
                        a.value()
                    )
                })
                .collect();
            list.sort();
            line.push_str(&list.join(" "));
        }
        line
    } else if node.is_text() {
        if text {
            format!("text {:?}", node.text().unwrap_or(""))
        } else {
            String::new()
        }
    } else if node.is_comment() {
        format!("comment {:?}", node.text().unwrap_or(""))
    } else if node.is_processing_instruction() {
        format!("pi {} {:?}", node.name(), node.text().unwrap_or(""))
    } else {
        format!("{:?}", node.node_type())
    }
}

fn theirs(doc: &roxmltree::Document<'_>, attributes: bool, text: bool) -> Vec<String> {
    let mut out = Vec::new();
    for node in doc.root_element().descendants() {
        let line = match node.node_type() {
            roxmltree::NodeType::Element => {
                let name = node.tag_name();
                let mut line = format!(
                    "element {{{}}}{}",
                    name.namespace().unwrap_or(""),
                    name.name()
                );
                if attributes {
                    let mut list: Vec<String> = node
                        .attributes()
                        .map(|a| {
                            format!(
                                "{{{}}}{}={:?}",
                                a.namespace().unwrap_or(""),
                                a.name(),
                                a.value()
                            )
                        })
                        .collect();
                    list.sort();
                    line.push_str(&list.join(" "));
                }
                line
            }
            // roxmltree leaves a CR before a reference as it is (XML 1.0
            // §2.11 makes every CR a line feed; these documents have no
            // `&#13;`).
            // It also makes an empty text node of `<![CDATA[]]>`.
            roxmltree::NodeType::Text if text && node.text() == Some("") => String::new(),
            roxmltree::NodeType::Text if text => {
                let text = node.text().unwrap_or("").replace("\r\n", "\n");
                format!("text {:?}", text.replace('\r', "\n"))
            }
            roxmltree::NodeType::Text => String::new(),
            roxmltree::NodeType::Comment => format!("comment {:?}", node.text().unwrap_or("")),
            roxmltree::NodeType::PI => {
                let pi = node.pi().expect("a PI");
                format!("pi {} {:?}", pi.target, pi.value.unwrap_or(""))
            }
            roxmltree::NodeType::Root => "root".into(),
        };
        out.push(line);
    }
    out.retain(|s| !s.is_empty());
    out
}

/// A generated document: well-formed for roxmltree, no errors for us (but
/// entity references while entities are not expanded), the same tree as
/// roxmltree's, lossless output, the same tree from UTF-8 bytes, UTF-16 and
/// text, and every invariant.
fn check_generated(generated: &Generated) -> Result<(), String> {
    let text = &generated.text;
    let strict_doc = strict(text).map_err(|e| format!("roxmltree rejects it: {e}"))?;
    tally(|t| t.confirmed_well_formed += 1);
    let doc = Document::parse(text);
    check_document(&doc)?;
    if !doc.errors().is_empty() {
        return Err(format!(
            "errors in a well-formed document: {:?}",
            doc.errors()
        ));
    }
    check_output(&doc, &ParseOptions::default())?;
    let (ours, theirs) = (
        ours(&doc, !generated.attlist, true),
        theirs(&strict_doc, !generated.attlist, true),
    );
    if ours != theirs {
        let at = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        return Err(format!(
            "another tree than roxmltree's (first difference at {at:?}):\nours:   {ours:?}\ntheirs: {theirs:?}"
        ));
    }
    let from_bytes = Document::parse_bytes(text.as_bytes());
    if from_bytes.to_tree_dump() != doc.to_tree_dump()
        || error_list(&from_bytes) != error_list(&doc)
    {
        return Err("parse_bytes gives another tree or errors than parse".into());
    }
    for little in [true, false] {
        let (text16, bytes) = as_utf16(generated, little);
        let doc16 = Document::parse_bytes(&bytes);
        check_document(&doc16)?;
        let codes = |d: &Document| d.errors().iter().map(|e| e.code).collect::<Vec<_>>();
        if doc16.source() != text16
            || doc16.to_tree_dump() != doc.to_tree_dump()
            || codes(&doc16) != codes(&doc)
        {
            return Err(format!(
                "UTF-16 (little-endian: {little}) gives another text, tree or errors: {:?}",
                doc16.errors()
            ));
        }
    }
    Ok(())
}

// ----- The tests ---------------------------------------------------------------

#[test]
fn generated_documents_are_well_formed_and_parse_without_errors() {
    const SEED: u64 = 0x00C0_FFEE;
    let mut with_doctype = 0;
    let mut with_references = 0;
    for case in 0..1200 {
        let mut rng = Rng::for_case(SEED, case);
        let generated = generate(&mut rng);
        with_doctype += usize::from(generated.text.contains("<!DOCTYPE"));
        with_references += usize::from(!generated.entity_refs.is_empty());
        run_case("well-formed", SEED, case, generated.text.as_bytes(), || {
            check_generated(&generated)
        });
    }
    report("well-formed");
    eprintln!("  {with_doctype} with a DOCTYPE, {with_references} with entity references");
    assert!(
        with_doctype > 400 && with_references > 100,
        "{with_doctype} {with_references}"
    );
}

/// Random chunk boundaries for the push parser.
fn cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(len + 1)).collect();
    cuts.sort_unstable();
    cuts
}

/// `cases` generated documents, encoded by `encode`, each damaged `damages`
/// times (a number in the range), checked with `options`.
fn damaged_cases(
    seed: u64,
    cases: u64,
    damages: (usize, usize),
    options: &ParseOptions,
    encode: fn(&mut Rng, &Generated) -> Vec<u8>,
) {
    for case in 0..cases {
        let mut rng = Rng::for_case(seed, case);
        let generated = generate(&mut rng);
        let mut bytes = encode(&mut rng, &generated);
        for _ in 0..rng.between(damages.0, damages.1) {
            damage(&mut rng, &mut bytes);
        }
        let cuts = cuts(&mut rng, bytes.len());
        run_case("damaged", seed, case, &bytes, || {
            check_input(&bytes, options, &cuts)
        });
    }
    report(&format!("{cases} damaged inputs (seed {seed:#x})"));
}

fn utf8(_: &mut Rng, generated: &Generated) -> Vec<u8> {
    generated.text.clone().into_bytes()
}

#[test]
fn damaged_documents_keep_every_invariant() {
    damaged_cases(0xDA3A_6ED0, 3500, (1, 4), &ParseOptions::default(), utf8);
}

#[test]
fn damaged_utf16_documents_keep_every_invariant() {
    damaged_cases(
        0x0016_0016,
        700,
        (1, 4),
        &ParseOptions::default(),
        |rng, g| as_utf16(g, rng.one_in(2)).1,
    );
}

/// How far (in bytes) a change the repair makes may lie from the nearest
/// error the parse reported: the length of a tag or a short value.
const REPAIR_REACH: usize = 48;

/// One damage to a generated well-formed document (each kind `damage`
/// makes), written back: the output is well-formed and parses without
/// errors, and it is the input but for changes each within
/// `REPAIR_REACH` bytes, and on the same line or the next to, an error the
/// parse reported (a missing end tag is added where the element now
/// closes, which is where `mismatched-end-tag` or `eof-in-element` is).
/// A well-formed damaged input is written back as it is.
fn check_local_repair(doc: &Document) -> Result<(), String> {
    let source = doc.source();
    let out = doc.to_xml();
    if doc.is_well_formed() {
        return if out == source {
            Ok(())
        } else {
            Err(format!("well-formed, but written as {out:?}"))
        };
    }
    let again = Document::parse(&out);
    if !again.is_well_formed() {
        return Err(format!(
            "the output has errors {:?}\noutput: {out:?}",
            error_list(&again)
        ));
    }
    if fuzz_checks::strict_can_judge(&again) {
        if let Err(e) = fuzz_checks::strict(&out) {
            return Err(format!(
                "roxmltree rejects the output: {e}\noutput: {out:?}"
            ));
        }
    }
    // (A reference to an entity an unread DTD may declare is a warning, and
    // becomes an error to mend if the DTD's repair had to leave out its
    // identifiers.)
    let errors: Vec<usize> = doc
        .errors()
        .iter()
        .filter(|e| e.is_error() || e.code == ErrorCode::EntityInExternalSubset)
        .map(|e| e.offset)
        .collect();
    // Where XML5's recovery itself leaves content out of the tree, the
    // output cannot keep it: a `/` in the root's start tag makes it empty
    // (§1.4.7), and what follows is after the root; a quote left open in
    // the internal subset takes what follows into the DOCTYPE.
    let swallowed = doc.root().children().any(|n| {
        n.node_type() == NodeType::Doctype && n.span().is_some_and(|s| 2 * s.len() > source.len())
    });
    let lost = doc.errors().iter().any(|e| {
        matches!(
            e.code,
            ErrorCode::EofInDoctype | ErrorCode::ElementAfterRootElement
        )
    });
    if swallowed || lost {
        return Ok(());
    }
    let Some(edits) = diff::changed_ranges(source.as_bytes(), out.as_bytes(), 1500) else {
        return Err(format!("more than 1,500 bytes changed\noutput: {out:?}"));
    };
    // A shortest edit script may match a character of what was dropped
    // with one of what was added nearby: close edits are one change.
    let mut changes: Vec<std::ops::Range<usize>> = Vec::new();
    for edit in edits {
        match changes.last_mut() {
            Some(last) if edit.start <= last.end + REPAIR_REACH => last.end = edit.end,
            _ => changes.push(edit),
        }
    }
    // Comments, PIs and DOCTYPEs are mended whole: a change anywhere in
    // one with an error is where its error is.
    let atoms: Vec<std::ops::Range<usize>> = doc
        .root()
        .descendants()
        .filter(|n| {
            n.is_comment() || n.is_processing_instruction() || n.node_type() == NodeType::Doctype
        })
        .filter_map(|n| n.span())
        .chain(doc.xml_declaration().map(|d| d.span))
        .chain(
            // Start tags too: their end may be a line or more from the
            // error that changed them.
            doc.root()
                .descendants()
                .filter(|n| n.is_element())
                .filter_map(|n| n.span())
                .map(|span| {
                    let end = span.start + tag_length(&source[span.range()]);
                    xml5dom::Span::new(span.start, end)
                }),
        )
        .filter(|span| errors.iter().any(|&at| span.start <= at && at <= span.end))
        .map(|span| span.range())
        .collect();
    for change in changes {
        // (A few bytes of slack: an edit script may add `</b>` after a tag
        // as `/b><` after the `<` that follows it.)
        if atoms
            .iter()
            .any(|atom| atom.start <= change.start && change.end <= atom.end + 8)
        {
            continue;
        }
        let (first, _) = doc.position(change.start);
        let (last, _) = doc.position(change.end);
        let near = errors.iter().any(|&at| {
            let (line, _) = doc.position(at);
            at + REPAIR_REACH >= change.start
                && at <= change.end + REPAIR_REACH
                && first <= line + 1
                && line <= last + 1
        });
        if !near {
            return Err(format!(
                "a change at {change:?} (lines {first}-{last}: {:?}) is not near an error {:?}\n\
                 output: {out:?}",
                &source[floor(source, change.start)..ceil(source, change.end)],
                error_list(doc)
            ));
        }
    }
    Ok(())
}

/// The length of the start tag at the start of `element`: to its first
/// `>` outside quotes.
fn tag_length(element: &str) -> usize {
    let mut quote = None;
    for (i, c) in element.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, '>') => return i + 1,
            _ => {}
        }
    }
    element.len()
}

/// `at`, moved back to a character boundary of `s`.
fn floor(s: &str, mut at: usize) -> usize {
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `at`, moved on to a character boundary of `s`.
fn ceil(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[test]
fn one_damage_is_repaired_where_it_is() {
    const SEED: u64 = 0x10CA_1E55;
    let cases: u64 = std::env::var("XML5DOM_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3000);
    let seed: u64 = std::env::var("XML5DOM_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(SEED);
    let mut well_formed = 0;
    for case in 0..cases {
        let mut rng = Rng::for_case(seed, case);
        let generated = generate(&mut rng);
        let mut bytes = generated.text.clone().into_bytes();
        damage(&mut rng, &mut bytes);
        run_case("one damage", seed, case, &bytes, || {
            let doc = Document::parse_bytes(&bytes);
            well_formed += usize::from(doc.is_well_formed());
            check_local_repair(&doc)
        });
    }
    eprintln!("one damage: {cases} documents, {well_formed} still well-formed");
}

#[test]
#[allow(clippy::single_range_in_vec_init)] // lists of changed ranges
fn the_diff_finds_the_edits() {
    assert_eq!(diff::changed_ranges(b"abc", b"abc", 10), Some(vec![]));
    assert_eq!(
        diff::changed_ranges(b"a&b", b"a&amp;b", 10),
        Some(vec![2..2])
    );
    assert_eq!(
        diff::changed_ranges(b"x=1 y", b"x=\"1\" y", 10),
        Some(vec![2..2, 3..3])
    );
    assert_eq!(diff::changed_ranges(b"a</b>c", b"ac", 10), Some(vec![1..5]));
    assert_eq!(
        diff::changed_ranges(b"abcdef", b"azcdyf", 10),
        Some(vec![1..2, 4..5])
    );
    assert_eq!(diff::changed_ranges(b"", b"xyz", 10), Some(vec![0..0]));
    assert_eq!(diff::changed_ranges(b"abc", b"", 10), Some(vec![0..3]));
    assert_eq!(diff::changed_ranges(b"aaaa", b"bbbb", 3), None);
}

#[test]
fn small_limits_keep_every_invariant_and_are_never_exceeded() {
    let mut options = ParseOptions::default();
    options.limits.max_element_depth = Some(3);
    options.limits.max_attributes = 2;
    options.limits.max_name_length = 3;
    // Undamaged documents too (no damage a third of the time): they reach
    // the limits most often.
    damaged_cases(0x0011_3175, 800, (0, 2), &options, utf8);
}

/// How much of `text` the input-size limit `limit` keeps (up to the last
/// character boundary within it), checking that `doc`'s source is that.
fn kept_by_limit(doc: &Document, text: &str, limit: usize) -> Result<usize, String> {
    let kept = if text.len() <= limit {
        text.len()
    } else {
        floor(text, limit)
    };
    if doc.source() != &text[..kept] {
        return Err(format!("kept {:?}, not {kept} bytes", doc.source()));
    }
    Ok(kept)
}

/// What a parse of `text` with `max_input_bytes = limit` must be: the
/// document of the prefix it keeps (up to the last character boundary
/// within the limit), its source that prefix, with `input-size-limit`
/// first among the errors at the cut.
fn check_cut(doc: &Document, text: &str, limit: usize) -> Result<(), String> {
    let kept = kept_by_limit(doc, text, limit)?;
    let prefix = Document::parse(&text[..kept]);
    let mut expected = error_list(&prefix);
    if kept < text.len() {
        let at = expected.partition_point(|&(offset, _)| offset < kept);
        expected.insert(at, (kept, ErrorCode::InputSizeLimit));
    }
    if error_list(doc) != expected {
        return Err(format!("errors {:?}, not {expected:?}", error_list(doc)));
    }
    if doc.to_tree_dump() != prefix.to_tree_dump() {
        return Err("not the tree of the prefix".into());
    }
    check_document(doc)
}

/// Bytes cut by the input-size limit: the text decoded from `bytes` cut as
/// [`check_cut`] says (decoding errors past the cut dropped), the same
/// through every byte entry point.
fn check_bytes_cut(bytes: &[u8], options: &ParseOptions, cuts: &[usize]) -> Result<(), String> {
    let limit = options.limits.max_input_bytes;
    let whole = Document::parse_bytes(bytes);
    let doc = Document::parse_bytes_with(bytes, options);
    let text = whole.source();
    let kept = kept_by_limit(&doc, text, limit).map_err(|e| format!("bytes: {e}"))?;
    let cut = kept < text.len();
    if cut
        != doc
            .errors()
            .iter()
            .any(|e| e.code == ErrorCode::InputSizeLimit)
    {
        return Err(format!(
            "bytes: cut {cut}, but errors {:?}",
            error_list(&doc)
        ));
    }
    if let Some(e) = doc
        .errors()
        .iter()
        .find(|e| e.offset > kept || cut && e.offset == kept && is_decoding_error(e.code))
    {
        return Err(format!("bytes: {e:?} past the cut at {kept}"));
    }
    let chunked = parse_in_chunks(bytes, options, cuts);
    let vec = Document::parse_vec_with(bytes.to_vec(), options);
    for (what, other) in [("fed in chunks", &chunked), ("parse_vec", &vec)] {
        if other.to_tree_dump() != doc.to_tree_dump() || error_list(other) != error_list(&doc) {
            return Err(format!("{what}: another tree or errors than parse_bytes"));
        }
    }
    check_document(&doc).map_err(|e| format!("bytes: {e}"))
}

/// The input-size limit, set small, on generated and damaged documents:
/// each entry point gives the document of the prefix the limit keeps, cut
/// on a character boundary (anywhere: inside a tag, a character, a
/// reference, a DOCTYPE).
#[test]
fn small_input_size_limits_keep_the_document_of_the_prefix() {
    let seed = 0x0005_12E0;
    for case in 0..400 {
        let mut rng = Rng::for_case(seed, case);
        let generated = generate(&mut rng);
        let mut bytes = utf8(&mut rng, &generated);
        for _ in 0..rng.between(0, 2) {
            damage(&mut rng, &mut bytes);
        }
        let limit = rng.below(bytes.len() + 2);
        let mut options = ParseOptions::default();
        options.limits.max_input_bytes = limit;
        let cuts = cuts(&mut rng, bytes.len());
        run_case("cut", seed, case, &bytes, || {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            check_cut(&Document::parse_with(&text, &options), &text, limit)
                .map_err(|e| format!("parse_with: {e}"))?;
            let owned = text.clone();
            let buffer = owned.as_ptr();
            let doc = Document::parse_string_with(owned, &options);
            check_cut(&doc, &text, limit).map_err(|e| format!("parse_string_with: {e}"))?;
            if doc.source().as_ptr() != buffer {
                return Err("parse_string_with copied the text".into());
            }
            check_bytes_cut(&bytes, &options, &cuts)
        });
    }
    report(&format!(
        "400 inputs cut by the size limit (seed {seed:#x})"
    ));
}

/// The input-size limit by hand: a cut inside a character moves back to
/// its start, a cut inside a tag ends the input there (as if the input
/// ended there), the buffers handed over are kept, decoding errors past the
/// cut are gone, and no setting passes the 32-bit ceiling.
#[test]
fn the_input_size_limit_cuts_on_a_character_boundary() {
    use ErrorCode::*;
    let limited = |limit: usize| {
        let mut options = ParseOptions::default();
        options.limits.max_input_bytes = limit;
        options
    };
    let codes = |doc: &Document| -> Vec<(usize, &str)> {
        doc.errors()
            .iter()
            .map(|e| (e.offset, e.code.as_str()))
            .collect()
    };

    // `é` is bytes 6 and 7: a limit of 7 keeps 6.
    let text = "<a>caf\u{e9}</a>";
    let doc = Document::parse_with(text, &limited(7));
    assert_eq!(doc.source(), "<a>caf");
    assert_eq!(
        codes(&doc),
        [(6, "input-size-limit"), (6, "eof-in-element")]
    );
    assert_eq!(doc.root_element().unwrap().text_content(), "caf");
    let line_and_column = (doc.errors()[0].line, doc.errors()[0].column);
    assert_eq!(line_and_column, (1, 7));
    // A limit at the end of the input, or past it, cuts nothing.
    for limit in [text.len(), text.len() + 1, usize::MAX] {
        let doc = Document::parse_with(text, &limited(limit));
        assert_eq!((doc.source(), doc.errors()), (text, &[][..]), "{limit}");
    }

    // Inside a tag, and inside a quoted value.
    let text = "<r><b x='1'>t</b></r>";
    let doc = Document::parse_with(text, &limited(8));
    assert_eq!(doc.source(), "<r><b x=");
    assert_eq!(
        codes(&doc),
        [
            (6, "missing-attribute-value"),
            (8, "input-size-limit"),
            (8, "eof-in-tag"),
            (8, "eof-in-element")
        ]
    );
    let doc = Document::parse_with(text, &limited(10));
    assert_eq!(doc.source(), "<r><b x='1");
    let b = doc.root_element().unwrap().first_child().unwrap();
    assert_eq!((b.name(), b.attribute("x")), ("b", Some("1")));
    assert_eq!(doc.errors()[0].code, InputSizeLimit);

    // The buffers handed over are cut in place, not copied.
    let text = String::from("<a>caf\u{e9}</a>");
    let buffer = text.as_ptr();
    let doc = Document::parse_string_with(text, &limited(7));
    assert_eq!((doc.source(), doc.source().as_ptr()), ("<a>caf", buffer));
    let bytes = b"<a>caf\xC3\xA9</a>".to_vec();
    let buffer = bytes.as_ptr();
    let doc = Document::parse_vec_with(bytes, &limited(7));
    assert_eq!((doc.source(), doc.source().as_ptr()), ("<a>caf", buffer));

    // Offsets are of the decoded text: UTF-16 `日本` is 3 + 3 bytes of it.
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "<a>\u{65e5}\u{672c}</a>".encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    let doc = Document::parse_bytes_with(&utf16, &limited(8));
    assert_eq!(doc.source(), "<a>\u{65e5}");
    assert_eq!(
        codes(&doc),
        [(6, "input-size-limit"), (6, "eof-in-element")]
    );

    // A byte that does not decode, past the cut, is no error of the
    // document; before it, it is.
    let doc = Document::parse_bytes_with(b"<a>x</a>\xFF<!--", &limited(8));
    assert_eq!(
        (doc.source(), codes(&doc)),
        ("<a>x</a>", vec![(8, "input-size-limit")])
    );
    let doc = Document::parse_bytes_with(b"<a>\xFF</a><!--", &limited(9));
    assert_eq!(doc.source(), "<a>\u{FF}</a>");
    assert_eq!(
        codes(&doc),
        [(3, "windows-1252-in-utf-8"), (9, "input-size-limit")]
    );

    // The push parser cuts as the others do.
    let mut parser = Parser::with_options(&limited(7));
    for byte in "<a>caf\u{e9}</a>".as_bytes() {
        parser.feed(std::slice::from_ref(byte));
    }
    let doc = parser.finish();
    assert_eq!(doc.source(), "<a>caf");
    assert_eq!(doc.errors()[0].code, InputSizeLimit);

    // The default and `Limits::none()` are the ceiling, and a larger
    // setting counts as it.
    assert_eq!(Limits::default().max_input_bytes, u32::MAX as usize);
    assert_eq!(Limits::none().max_input_bytes, u32::MAX as usize);
    let mut limits = Limits::none();
    limits.max_input_bytes = usize::MAX;
    assert_eq!(limits.input_bytes(), u32::MAX as usize);
    assert_eq!(InputSizeLimit.as_str(), "input-size-limit");
}

// ----- Found by the generators above ------------------------------------------
//
// Each of these failed once (found by the randomized checks), and was fixed.

/// Characters XML 1.0 allows and xml5dom reports, DEL and the Unicode
/// noncharacters, literal or as references, are warnings: the document is
/// well-formed, and written back byte for byte (issue 14; they were once
/// replaced, which changed characters XML can carry).
#[test]
fn discouraged_characters_are_warnings_and_kept() {
    for input in [
        "<r>\u{7F}</r>",
        "<r>&#x7F;</r>",
        "<r>\u{FDD0}</r>",
        "<r>&#xFDD0;</r>",
        "<r a='\u{FDEF}'>\u{1FFFE}</r>",
        "<r><!--\u{7F}--><?p \u{10FFFF}?></r>",
    ] {
        let doc = Document::parse(input);
        assert!(!doc.errors().is_empty(), "{input:?}");
        assert!(doc.is_well_formed(), "{input:?}: {:?}", doc.errors());
        assert_eq!(doc.to_xml(), input);
    }
}

/// An attribute named like a namespace declaration that the tree builder
/// found forbidden is renamed `_xmlns_...` by the serializer
/// (docs/serialization.md, `invalid-name`), into a name: every character a
/// name cannot have is replaced, not only the colons.
#[test]
fn renamed_namespace_declarations_are_names() {
    for input in [
        "<r xmlns:p:q\"=''/>",
        "<r xmlns:a:b<c='urn:x'/>",
        "<r xmlns:xml:\u{0}='u'/>",
    ] {
        let doc = Document::parse(input);
        let out = doc.to_xml();
        let again = Document::parse(&out);
        assert!(again.is_well_formed(), "{input:?} written as {out:?}");
    }
}

/// Control characters XML forbids, inside a DOCTYPE's system identifier,
/// are reported when parsed and replaced by the serializer's
/// `forbidden-character` repair, as in text, values, comments and PIs.
#[test]
fn control_characters_in_doctype_identifiers_are_repaired() {
    let input = "<!DOCTYPE r SYSTEM \"a\u{4}b\"><r/>";
    let doc = Document::parse(input);
    assert_eq!(
        error_list(&doc),
        [(21, ErrorCode::ControlCharacterInInputStream)]
    );
    let out = doc.to_xml();
    assert!(Document::parse(&out).is_well_formed(), "written as {out:?}");
}

/// Inside a DOCTYPE, a name that is not an XML `Name`, NUL and form feed
/// are reported by the well-formedness checks (the tokenizer is silent
/// there, as the xml5lib suite requires), so a document with no errors is
/// well-formed XML here too.
#[test]
fn doctype_names_nul_and_form_feed_are_reported() {
    for input in [
        "<!DOCTYPE 1a><r/>",
        "<!DOCTYPE a\"b><r/>",
        "<!DOCTYPE a&b SYSTEM 'x'><r/>",
        "<!DOCTYPE r\0><r/>",
        "<!DOCTYPE r SYSTEM \"a\0b\"><r/>",
        "<!DOCTYPE\u{C}r><r/>",
    ] {
        let doc = Document::parse(input);
        // (roxmltree does not check the characters of a system literal.)
        if !input.contains("\"a\0b\"") {
            assert!(strict(input).is_err(), "{input:?}");
        }
        assert!(!doc.errors().is_empty(), "{input:?}: no errors");
    }
}

/// Namespaces in XML 1.0 makes both parts of a qualified name `NCName`s:
/// `a:0b`, `a:-x`, `xmlns:00` are XML names but not qualified names, and are
/// reported (`invalid-qualified-name`, `invalid-namespace-declaration`).
#[test]
fn qualified_names_need_names_on_both_sides_of_the_colon() {
    for input in [
        "<a:0b xmlns:a='u'/>",
        "<r xmlns:00='u'/>",
        "<r xmlns:-a='u'/>",
        "<r xmlns:a='u' a:.b='1'/>",
        "<a xmlns:a='u'><a:-x/></a>",
    ] {
        assert!(strict(input).is_err(), "{input:?}");
        let doc = Document::parse(input);
        assert!(!doc.errors().is_empty(), "{input:?}: no errors");
    }
}
