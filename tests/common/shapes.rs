//! Generated input shapes for issue 16 (linear time on every input shape),
//! shared by the scaling benchmark (`bench-tools/scaling.rs`, which includes
//! this file with `#[path]`) and the hang detectors (`tests/scaling.rs`).
//!
//! Each shape is a function of `n`, the number of units (errors, levels,
//! attributes, elements or characters), and gives one document on one
//! line: the shapes that make an error per unit, deep nesting, many
//! attributes, long names and values, and a long line without errors. The
//! output is deterministic, and its length grows linearly with `n`, so
//! that any subcommand's time at `8n` over its time at `n` should be about
//! 8.

// Each user takes what it needs.
#![allow(dead_code)]

/// What a shape stresses, to pick the ones a check is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One line with an error per unit.
    Errors,
    /// Nesting `n` (or `2n`) levels deep.
    Deep,
    /// One very big thing: many attributes, a long name or value.
    Big,
    /// One long line without errors.
    Clean,
}

/// One generated shape.
pub struct Shape {
    /// A short name for tables and failure messages.
    pub name: &'static str,
    pub kind: Kind,
    /// The document of one unit (`generate(1)`, roughly), for the doc.
    pub unit: &'static str,
    pub generate: fn(usize) -> String,
}

/// Every shape, errors first, then deep nesting, big items and the clean
/// line.
pub const SHAPES: &[Shape] = &[
    Shape {
        name: "bare_amp",
        kind: Kind::Errors,
        unit: "& ",
        generate: bare_amp,
    },
    Shape {
        name: "lt_in_text",
        kind: Kind::Errors,
        unit: "a < b ",
        generate: lt_in_text,
    },
    Shape {
        name: "undeclared_entity",
        kind: Kind::Errors,
        unit: "&nbsp;",
        generate: undeclared_entity,
    },
    Shape {
        name: "unquoted_value",
        kind: Kind::Errors,
        unit: "<e a=1 />",
        generate: unquoted_value,
    },
    Shape {
        name: "duplicate_attr",
        kind: Kind::Errors,
        unit: " a=\"1\" (n + 1 times on one element)",
        generate: duplicate_attr,
    },
    Shape {
        name: "mismatched_end",
        kind: Kind::Errors,
        unit: "<b><a></b>",
        generate: mismatched_end,
    },
    Shape {
        name: "misnested",
        kind: Kind::Errors,
        unit: "<a><b></a></b>",
        generate: misnested,
    },
    Shape {
        name: "stray_end",
        kind: Kind::Errors,
        unit: "</x>",
        generate: stray_end,
    },
    Shape {
        name: "end_no_name",
        kind: Kind::Errors,
        unit: "a</ b ",
        generate: end_no_name,
    },
    Shape {
        name: "comment_start",
        kind: Kind::Errors,
        unit: "<!-- (never closed)",
        generate: comment_start,
    },
    Shape {
        name: "bang_dash",
        kind: Kind::Errors,
        unit: "<!- (one bogus comment up to the last >)",
        generate: bang_dash,
    },
    Shape {
        name: "pi_start",
        kind: Kind::Errors,
        unit: "<? (never closed)",
        generate: pi_start,
    },
    Shape {
        name: "pi_no_target",
        kind: Kind::Errors,
        unit: "<? x?>",
        generate: pi_no_target,
    },
    Shape {
        name: "damaged_feed",
        kind: Kind::Errors,
        unit: "<item><title>A & B N</title></item>",
        generate: damaged_feed,
    },
    Shape {
        name: "deep_plain",
        kind: Kind::Deep,
        unit: "<a> ... </a>",
        generate: deep_plain,
    },
    Shape {
        name: "deep_misnested",
        kind: Kind::Deep,
        unit: "<a><b> ... </a>",
        generate: deep_misnested,
    },
    Shape {
        name: "deep_stray",
        kind: Kind::Deep,
        unit: "<a> ... </b> ... </a>",
        generate: deep_stray,
    },
    Shape {
        name: "deep_ns",
        kind: Kind::Deep,
        unit: "<p0:a xmlns:pN=\"urn:N\"> ... </p0:a>",
        generate: deep_ns,
    },
    Shape {
        name: "deep_unclosed",
        kind: Kind::Deep,
        unit: "<a> (never closed)",
        generate: deep_unclosed,
    },
    Shape {
        name: "many_attributes",
        kind: Kind::Big,
        unit: " aN=\"N\" (on one element)",
        generate: many_attributes,
    },
    Shape {
        name: "long_name",
        kind: Kind::Big,
        unit: "one character of one element's name",
        generate: long_name,
    },
    Shape {
        name: "long_value",
        kind: Kind::Big,
        unit: "one character of one attribute value",
        generate: long_value,
    },
    Shape {
        name: "long_line",
        kind: Kind::Clean,
        unit: "<e a=\"1\">x</e>",
        generate: long_line,
    },
];

/// The shape called `name`.
pub fn shape(name: &str) -> &'static Shape {
    SHAPES
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no shape {name:?}"))
}

/// `<r>` + `unit` `n` times + `</r>`.
fn repeated(unit: &str, n: usize) -> String {
    let mut xml = String::with_capacity(unit.len() * n + 7);
    xml.push_str("<r>");
    for _ in 0..n {
        xml.push_str(unit);
    }
    xml.push_str("</r>");
    xml
}

/// `n` bare ampersands: `bare-ampersand` each.
pub fn bare_amp(n: usize) -> String {
    repeated("& ", n)
}

/// `n` `<` in text: `invalid-first-character-of-tag-name` each.
pub fn lt_in_text(n: usize) -> String {
    repeated("a < b ", n)
}

/// `n` references to an entity XML does not predefine: `undeclared-entity`
/// each.
pub fn undeclared_entity(n: usize) -> String {
    repeated("&nbsp;", n)
}

/// `n` elements with an unquoted attribute value.
pub fn unquoted_value(n: usize) -> String {
    repeated("<e a=1 />", n)
}

/// One element with the same attribute `n + 1` times: `n`
/// `duplicate-attribute`.
pub fn duplicate_attr(n: usize) -> String {
    let mut xml = String::with_capacity(6 * n + 20);
    xml.push_str("<r><e");
    for _ in 0..=n {
        xml.push_str(" a=\"1\"");
    }
    xml.push_str("/></r>");
    xml
}

/// `n` end tags that close an element below the current one:
/// `mismatched-end-tag` each.
pub fn mismatched_end(n: usize) -> String {
    repeated("<b><a></b>", n)
}

/// `n` misnested pairs: `mismatched-end-tag` and `stray-end-tag` each.
pub fn misnested(n: usize) -> String {
    repeated("<a><b></a></b>", n)
}

/// `n` end tags of elements that are not open: `stray-end-tag` each.
pub fn stray_end(n: usize) -> String {
    repeated("</x>", n)
}

/// `n` times `</` with no name after it (`</>` would be a short end tag):
/// `invalid-first-character-of-tag-name` each.
pub fn end_no_name(n: usize) -> String {
    repeated("a</ b ", n)
}

/// A comment opened and never closed, with `n - 1` more comment openings in
/// it: `nested-comment` and `double-hyphen-in-comment` each, then
/// `eof-in-comment`.
pub fn comment_start(n: usize) -> String {
    format!("<r>{}", "<!--".repeat(n))
}

/// `<!-` `n` times: one bogus comment (`incorrectly-opened-comment`) up to
/// the `>` of `</r>`.
pub fn bang_dash(n: usize) -> String {
    repeated("<!-", n)
}

/// A processing instruction opened and never closed: `<?` `n` times.
pub fn pi_start(n: usize) -> String {
    format!("<r>{}", "<?".repeat(n))
}

/// `n` processing instructions without a target:
/// `missing-processing-instruction-target` each.
pub fn pi_no_target(n: usize) -> String {
    repeated("<? x?>", n)
}

/// A feed of `n` items whose titles each hold a bare `&`
/// (`bare-ampersand` each), inside `<rss><channel>`: the shape of a real
/// feed with an error per item, where a query prints each title (issue
/// 30).
pub fn damaged_feed(n: usize) -> String {
    let mut xml = String::with_capacity(40 * n + 40);
    xml.push_str("<rss><channel>");
    for i in 0..n {
        xml.push_str("<item><title>A & B ");
        push_number(&mut xml, i);
        xml.push_str("</title></item>");
    }
    xml.push_str("</channel></rss>");
    xml
}

/// Elements nested `n` deep around a text.
pub fn deep_plain(n: usize) -> String {
    format!("{}x{}", "<a>".repeat(n), "</a>".repeat(n))
}

/// `<a><b>` nested `n` times (`2n` deep), then `n` `</a>`, each closing a
/// `<b>` too: `mismatched-end-tag` each.
pub fn deep_misnested(n: usize) -> String {
    format!("{}x{}", "<a><b>".repeat(n), "</a>".repeat(n))
}

/// `<a>` nested `n` deep, then `n` end tags of an element that is not open
/// (`stray-end-tag` each, every one looked for through `n` open elements),
/// then the `n` end tags.
pub fn deep_stray(n: usize) -> String {
    format!(
        "{}x{}{}",
        "<a>".repeat(n),
        "</b>".repeat(n),
        "</a>".repeat(n)
    )
}

/// Elements nested `n` deep, each declaring a prefix of its own
/// (`xmlns:pN="urn:N"`) and named with the prefix declared on the
/// outermost one, `p0`: the name's namespace is `n` scopes up.
pub fn deep_ns(n: usize) -> String {
    let mut xml = String::with_capacity(40 * n);
    for i in 0..n {
        xml.push_str("<p0:a xmlns:p");
        push_number(&mut xml, i);
        xml.push_str("=\"urn:");
        push_number(&mut xml, i);
        xml.push_str("\">");
    }
    xml.push('x');
    for _ in 0..n {
        xml.push_str("</p0:a>");
    }
    xml
}

/// `<a>` `n` times and nothing else: `eof-in-element` at the end.
pub fn deep_unclosed(n: usize) -> String {
    "<a>".repeat(n)
}

/// One element with `n` different attributes (the default limit keeps
/// 10,000 of them).
pub fn many_attributes(n: usize) -> String {
    let mut xml = String::with_capacity(16 * n + 16);
    xml.push_str("<r><e");
    for i in 0..n {
        xml.push_str(" a");
        push_number(&mut xml, i);
        xml.push_str("=\"");
        push_number(&mut xml, i);
        xml.push('"');
    }
    xml.push_str("/></r>");
    xml
}

/// One element whose name is `n` characters long, in its start and end tag
/// (the default limit keeps 10,000 bytes of it).
pub fn long_name(n: usize) -> String {
    let name = "n".repeat(n.max(1));
    format!("<r><{name}>x</{name}></r>")
}

/// One attribute value `n` characters long.
pub fn long_value(n: usize) -> String {
    format!("<r><e a=\"{}\"/></r>", "v".repeat(n))
}

/// `n` elements on one line, without an error.
pub fn long_line(n: usize) -> String {
    repeated("<e a=\"1\">x</e>", n)
}

fn push_number(xml: &mut String, i: usize) {
    use std::fmt::Write;
    write!(xml, "{i}").expect("writing to a String");
}
