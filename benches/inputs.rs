//! Benchmark inputs, generated deterministically from fixed seeds (nothing
//! is downloaded). Shared by `benches/parse.rs` and the `perf_table` and
//! `memory` examples (included with `#[path]`).
//!
//! Four well-formed shapes, one damaged copy, and a deep document:
//!
//! * `records`: a data dump, many small elements with 2–5 attributes;
//! * `prose`: DocBook-like sections with inline markup, character
//!   references, comments and CDATA;
//! * `svg`: attribute-heavy SVG with long path data;
//! * `atom`: a namespace-heavy Atom feed inside a SOAP envelope;
//! * `damaged`: the records with missing end tags, unquoted attributes, bare
//!   `&`, stray `<`, duplicate attributes, and a truncated end;
//! * `deep`: one element nested `n` deep.

#![allow(dead_code)]

/// xorshift64: deterministic, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "parser",
    "markup",
    "element",
    "recovers",
    "quickly",
    "from",
    "broken",
    "input",
    "while",
    "every",
    "token",
    "keeps",
    "its",
    "source",
    "span",
    "document",
    "river",
    "mountain",
    "lantern",
    "quiet",
    "harbour",
    "signal",
    "between",
    "under",
    "over",
    "window",
    "garden",
    "naïve",
    "café",
    "résumé",
    "Zürich",
    "façade",
    "日本語",
];

const FIELDS: &[&str] = &[
    "id", "user", "ts", "score", "lang", "status", "ref", "kind", "region", "version",
];

const STATUSES: &[&str] = &["active", "closed", "pending", "archived", "deleted"];

/// The well-formed shapes, by name, at about `size` bytes each.
pub fn shapes(size: usize) -> Vec<(&'static str, String)> {
    vec![
        ("records", records(size)),
        ("prose", prose(size)),
        ("svg", svg(size)),
        ("atom", atom(size)),
    ]
}

/// A data dump: records of 2–5 attributes, some empty, some with text.
pub fn records(size: usize) -> String {
    let mut rng = Rng::new(0x5EED_0001);
    let mut out = String::with_capacity(size + 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dump source=\"bench\">\n");
    let mut id = 0u64;
    while out.len() < size {
        id += 1;
        let tag = if rng.below(3) == 0 { "entry" } else { "row" };
        out.push_str("  <");
        out.push_str(tag);
        out.push_str(&format!(" id=\"{id}\""));
        let extra = 1 + rng.below(4);
        let first = rng.below(FIELDS.len() - 1) + 1;
        for field in FIELDS[first..].iter().chain(&FIELDS[1..first]).take(extra) {
            let value = match *field {
                "score" => format!("{}.{:02}", rng.below(100), rng.below(100)),
                "ts" => format!(
                    "2024-{:02}-{:02}T{:02}:{:02}:00Z",
                    1 + rng.below(12),
                    1 + rng.below(28),
                    rng.below(24),
                    rng.below(60)
                ),
                "status" => rng.pick(STATUSES).to_owned(),
                _ => format!("{}{}", rng.pick(WORDS), rng.below(1000)),
            };
            let quote = if rng.below(4) == 0 { '\'' } else { '"' };
            out.push_str(&format!(" {field}={quote}{value}{quote}"));
        }
        if rng.below(2) == 0 {
            out.push_str("/>");
        } else {
            out.push('>');
            for i in 0..1 + rng.below(4) {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(rng.pick(WORDS));
            }
            out.push_str("</");
            out.push_str(tag);
            out.push('>');
        }
        out.push('\n');
    }
    out.push_str("</dump>\n");
    out
}

/// DocBook-like prose.
pub fn prose(size: usize) -> String {
    const REFS: &[&str] = &[
        "&amp;", "&lt;", "&gt;", "&#233;", "&#x2014;", "&quot;", "&#8220;",
    ];
    let mut rng = Rng::new(0x5EED_0002);
    let mut out = String::with_capacity(size + 4096);
    out.push_str("<?xml version=\"1.0\"?>\n<book xml:lang=\"en\">\n");
    let mut section = 0;
    while out.len() < size {
        section += 1;
        out.push_str(&format!(
            "<section id=\"s{section}\">\n<title>Section {section}</title>\n"
        ));
        if rng.below(2) == 0 {
            out.push_str("<!-- editorial note: check the figures in this section -->\n");
        }
        for _ in 0..3 + rng.below(5) {
            out.push_str("<para>");
            for w in 0..40 + rng.below(80) {
                if w > 0 {
                    out.push(' ');
                }
                match rng.below(40) {
                    0 => out.push_str(&format!("<emphasis>{}</emphasis>", rng.pick(WORDS))),
                    1 => out.push_str(&format!(
                        "<ulink url=\"https://example.org/{}?q={}&amp;n={}\">{}</ulink>",
                        rng.pick(WORDS),
                        rng.pick(WORDS),
                        rng.below(100),
                        rng.pick(WORDS)
                    )),
                    2 => out.push_str(rng.pick(REFS)),
                    3 => out.push_str(&format!("<code>a &lt; b &amp;&amp; {w}</code>")),
                    4 => out.push_str("<!-- aside -->"),
                    _ => out.push_str(rng.pick(WORDS)),
                }
            }
            out.push_str(".</para>\n");
        }
        if rng.below(3) == 0 {
            out.push_str(
                "<programlisting><![CDATA[if (a < b && c > d) { print(\"<tag>\"); }\n\
                 for x in xs { y &= x; }]]></programlisting>\n",
            );
        }
        out.push_str("</section>\n");
    }
    out.push_str("</book>\n");
    out
}

/// Attribute-heavy SVG with long path data.
pub fn svg(size: usize) -> String {
    let mut rng = Rng::new(0x5EED_0003);
    let mut out = String::with_capacity(size + 4096);
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         width=\"1024\" height=\"768\" viewBox=\"0 0 1024 768\">\n",
    );
    let mut id = 0;
    while out.len() < size {
        id += 1;
        out.push_str(&format!(
            "<g id=\"g{id}\" transform=\"translate({} {})\" fill=\"#{:06x}\" stroke=\"#{:06x}\" stroke-width=\"{}\">\n",
            rng.below(1000),
            rng.below(700),
            rng.next_u64() & 0xFF_FFFF,
            rng.next_u64() & 0xFF_FFFF,
            1 + rng.below(4)
        ));
        for _ in 0..2 + rng.below(4) {
            out.push_str("  <path d=\"M");
            for point in 0..20 + rng.below(60) {
                let command = ["L", "C", "Q", "S", "T"][rng.below(5)];
                if point > 0 {
                    out.push(' ');
                    out.push_str(command);
                }
                out.push_str(&format!(
                    " {}.{} {}.{}",
                    rng.below(1024),
                    rng.below(100),
                    rng.below(768),
                    rng.below(100)
                ));
            }
            out.push_str(&format!(
                " Z\" opacity=\"0.{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\" class=\"shape c{}\"/>\n",
                rng.below(10),
                rng.below(20)
            ));
        }
        out.push_str(&format!(
            "  <use xlink:href=\"#g{}\" x=\"{}\" y=\"{}\"/>\n  <text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\">{}</text>\n</g>\n",
            1 + rng.below(id),
            rng.below(100),
            rng.below(100),
            rng.below(1000),
            rng.below(700),
            rng.pick(WORDS)
        ));
    }
    out.push_str("</svg>\n");
    out
}

/// A namespace-heavy Atom feed in a SOAP envelope.
pub fn atom(size: usize) -> String {
    let mut rng = Rng::new(0x5EED_0004);
    let mut out = String::with_capacity(size + 4096);
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n\
         <soap:Header><wsa:Action xmlns:wsa=\"http://www.w3.org/2005/08/addressing\">urn:feed</wsa:Action></soap:Header>\n\
         <soap:Body>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
         xmlns:media=\"http://search.yahoo.com/mrss/\" xmlns:georss=\"http://www.georss.org/georss\">\n\
         <title>Bench feed</title>\n",
    );
    let mut id = 0;
    while out.len() < size {
        id += 1;
        out.push_str(&format!(
            "<entry xml:lang=\"en\">\n  <id>urn:uuid:{:08x}-{:04x}</id>\n  <title type=\"text\">{} {}</title>\n  \
             <updated>2024-{:02}-{:02}T10:00:00Z</updated>\n  <dc:creator>{}</dc:creator>\n  \
             <link rel=\"alternate\" href=\"https://example.org/{id}\"/>\n  \
             <media:thumbnail url=\"https://example.org/{id}.jpg\" width=\"{}\" height=\"{}\"/>\n  \
             <georss:point>{}.{} {}.{}</georss:point>\n  \
             <content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\"><p>{} <b>{}</b> {}</p></div></content>\n  \
             <x:meta xmlns:x=\"urn:example:meta\" x:rank=\"{}\" xsi:type=\"x:Rank\"/>\n</entry>\n",
            rng.next_u64() as u32,
            rng.below(0xFFFF),
            rng.pick(WORDS),
            rng.pick(WORDS),
            1 + rng.below(12),
            1 + rng.below(28),
            rng.pick(WORDS),
            rng.below(640),
            rng.below(480),
            rng.below(90),
            rng.below(1000),
            rng.below(180),
            rng.below(1000),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.below(100),
        ));
    }
    out.push_str("</feed>\n</soap:Body>\n</soap:Envelope>\n");
    out
}

/// The records, damaged: missing end tags, unquoted attributes, bare `&`,
/// stray `<`, duplicate attributes, and a truncated end.
pub fn damaged(size: usize) -> String {
    let clean = records(size);
    let mut rng = Rng::new(0x5EED_0005);
    let mut out = String::with_capacity(clean.len() + clean.len() / 50);
    for line in clean.lines() {
        let mut line = line.to_owned();
        match rng.below(12) {
            0 => {
                if let Some(at) = line.find("</") {
                    line.truncate(at);
                }
            }
            1 => line = line.replacen("=\"", "=", 1).replacen("\" ", " ", 1),
            2 => line.push_str(" fish & chips"),
            3 => line.push_str(" a < b"),
            4 => {
                if let Some(at) = line.find(" id=") {
                    line.insert_str(at, " id=\"dup\"");
                }
            }
            _ => {}
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.truncate(out.len() - out.len() / 1000);
    while !out.is_char_boundary(out.len()) {
        out.pop();
    }
    out
}

/// One element nested `depth` deep.
pub fn deep(depth: usize) -> String {
    let mut out = String::with_capacity(depth * 7 + 8);
    for _ in 0..depth {
        out.push_str("<a>");
    }
    out.push('x');
    for _ in 0..depth {
        out.push_str("</a>");
    }
    out
}
