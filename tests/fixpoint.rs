//! Broken input comes out well-formed, and stays put.
//!
//! A seeded generator damages well-formed documents (dropped end tags,
//! stray `<` and `&`, unquoted and duplicated attributes, stray markup
//! characters, truncation; and every truncation of one small document), and
//! for each damaged input `x`:
//!
//! * the output of `Document::parse(x).to_xml()` is accepted by a strict XML
//!   parser with namespaces (roxmltree, used only here);
//! * parsing the output gives no errors, and writing it again gives the
//!   same bytes (a fixpoint);
//! * when the serializer reported no repair, the reparsed tree is the same
//!   tree (the same `#document` dump).
//!
//! Inputs that parse without errors must be well-formed already: roxmltree
//! must accept them as they are, internal subsets included (xml5dom reads
//! the declarations and reports what is malformed in them).

mod common;
// The fuzz targets' checks: the strict parser and which repairs change
// the tree are the same here (the rest of the module is not used).
#[allow(dead_code)]
#[path = "common/fuzz_checks.rs"]
mod fuzz_checks;

use common::Rng;
use std::collections::BTreeMap;

use fuzz_checks::{changes_tree, strict, strict_can_judge, FilterErr};
use xml5dom::Document;

const BASES: &[&str] = &[
    r##"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>News &amp; Views</title>
    <link>https://example.org/?a=1&amp;b=2</link>
    <item>
      <title>First &#8220;post&#8221;</title>
      <dc:creator>Jérôme</dc:creator>
      <content:encoded><![CDATA[<p>Hello <b>world</b></p>]]></content:encoded>
    </item>
    <item><title>Second</title><description>a &lt; b</description></item>
  </channel>
</rss>
"##,
    r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" viewBox="0 0 100 100">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#000"/></linearGradient></defs>
  <g fill="url(#g)" transform="translate(10, 10)">
    <path d="M 0 0 L 10 10 C 20 20, 40 20, 50 10 Z"/>
    <use xlink:href="#p" x="5" y='6'/>
    <text x="1" y="2" style="font: 12px sans-serif">A &amp; B</text>
  </g>
</svg>"##,
    r##"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
<head><title>Page</title><script type="text/javascript">/*<![CDATA[*/ if (a < b && c) go(); /*]]>*/</script></head>
<body class="main">
  <h1 id="top">Title</h1>
  <p>Text with <em>emphasis</em>, a <a href="/x?y=1&amp;z=2">link</a> and &#169; 2024.</p>
  <ul><li>one</li><li>two</li></ul>
  <!-- a comment -->
</body>
</html>"##,
    r##"<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <dependencies>
    <dependency><groupId>junit</groupId><version>4.13</version><scope>test</scope></dependency>
  </dependencies>
  <?build-hint fast?>
</project>
<!-- end -->
"##,
    r##"<!DOCTYPE note [
  <!ELEMENT note (to, body)>
  <!ATTLIST note id CDATA #IMPLIED>
  <!ENTITY writer "Someone">
]>
<note id="n1"><to>Tove</to><body xml:space="preserve">  Don't  forget  </body></note>"##,
    r##"<root><a x="1" y='2' z="&quot;q&quot;"/><b>text<c>more</c>tail</b><d xmlns="urn:d"><e/><f xmlns="">g</f></d><p:h xmlns:p="urn:p" p:i="j"/></root>"##,
    r##"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body><w:p><w:r><w:t xml:space="preserve">Hello </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>world</w:t></w:r></w:p><w:sectPr r:id="rId1"/></w:body></w:document>"##,
    "<config>\r\n  <db host=\"localhost\" port=\"5432\"/>\r\n  <query>SELECT * FROM t WHERE a &lt; 5 AND b &gt; 2</query>\r\n</config>\r\n",
];

/// One kind of damage applied at a random place.
fn damage(rng: &mut Rng, text: &mut String) {
    let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    let at = |rng: &mut Rng| boundaries[rng.below(boundaries.len())];
    match rng.below(7) {
        // Drop an end tag.
        0 => {
            let ends: Vec<usize> = text.match_indices("</").map(|(i, _)| i).collect();
            if let Some(&start) = ends.get(rng.below(ends.len())) {
                if let Some(len) = text[start..].find('>') {
                    text.replace_range(start..start + len + 1, "");
                }
            }
        }
        // A stray `<` or `&`.
        1 => text.insert(at(rng), '<'),
        2 => text.insert(at(rng), '&'),
        // Unquote an attribute value.
        3 => {
            let values: Vec<usize> = text.match_indices("=\"").map(|(i, _)| i).collect();
            if let Some(&eq) = values.get(rng.below(values.len())) {
                if let Some(len) = text[eq + 2..].find('"') {
                    text.replace_range(eq + 2 + len..eq + 3 + len, "");
                    text.replace_range(eq + 1..eq + 2, "");
                }
            }
        }
        // Duplicate an attribute.
        4 => {
            let spots: Vec<usize> = text.match_indices(" x=\"").map(|(i, _)| i).collect();
            if let Some(&at) = spots.get(rng.below(spots.len())) {
                text.insert_str(at, " x=\"dup\"");
            } else if let Some(at) = text.find(" id=\"") {
                text.insert_str(at, " id=\"dup\"");
            }
        }
        // Stray markup characters.
        5 => {
            let noise = [
                "<", ">", "&", "\"", "'", "/", "=", "!", "?", "-", "]", " ", "</>", "<!", "<?",
                "]]>", "--", ":",
            ];
            let piece = noise[rng.below(noise.len())];
            text.insert_str(at(rng), piece);
        }
        // Truncate.
        _ => {
            let cut = at(rng);
            text.truncate(cut);
        }
    }
}

struct Tally {
    inputs: usize,
    with_errors: usize,
    /// Inputs whose output needed a repair that changes the tree.
    tree_repaired: usize,
    repairs: BTreeMap<&'static str, usize>,
}

fn check(input: &str, tally: &mut Tally) {
    tally.inputs += 1;
    let doc = Document::parse(input);
    let out = doc.serialize(&Default::default());
    // (Errors only: what a limit left unread is written as it is, and the
    // same limit is reached again reading the output.)
    let no_errors = |doc: &Document| !doc.errors().iter().any(|e| e.is_error());
    if no_errors(&doc) {
        assert_eq!(out.text, input, "lossless output for a well-formed input");
        if let Err(e) = strict(input).filter_err(strict_can_judge(&doc)) {
            panic!("no parse errors, but not well-formed ({e}):\n{input}");
        }
        return;
    }
    tally.with_errors += 1;
    let again = Document::parse(&out.text);
    if let Err(e) = strict(&out.text).filter_err(strict_can_judge(&again)) {
        panic!(
            "repaired output not well-formed ({e})\ninput:\n{input}\noutput:\n{}",
            out.text
        );
    }
    assert!(
        no_errors(&again),
        "the output has errors {:?}\ninput:\n{input}\noutput:\n{}",
        again.errors(),
        out.text
    );
    assert_eq!(again.to_xml(), out.text, "not a fixpoint\ninput:\n{input}");
    for repair in &out.repairs {
        *tally.repairs.entry(repair.kind.as_str()).or_default() += 1;
    }
    if out.repairs.iter().any(|r| changes_tree(r.kind)) {
        tally.tree_repaired += 1;
    } else {
        assert_eq!(
            again.to_tree_dump(),
            doc.to_tree_dump(),
            "the tree changed without a repair\ninput:\n{input}\noutput:\n{}",
            out.text
        );
    }
}

#[test]
fn ten_thousand_damaged_documents_come_out_well_formed_and_stay_put() {
    let mut rng = Rng(0x5EED_F1C5);
    let mut tally = Tally {
        inputs: 0,
        with_errors: 0,
        tree_repaired: 0,
        repairs: BTreeMap::new(),
    };
    for _ in 0..10_000 {
        let mut text = BASES[rng.below(BASES.len())].to_owned();
        for _ in 0..1 + rng.below(3) {
            if !text.is_empty() {
                damage(&mut rng, &mut text);
            }
        }
        check(&text, &mut tally);
    }
    // Every truncation of one small document.
    let small = BASES[5];
    for cut in small.char_indices().map(|(i, _)| i) {
        check(&small[..cut], &mut tally);
    }
    eprintln!(
        "fixpoint: {} inputs, {} with parse errors, all written as well-formed XML that \
         reparses to itself; the same tree for all but {} whose repairs change it; \
         repairs by kind: {:?}",
        tally.inputs, tally.with_errors, tally.tree_repaired, tally.repairs
    );
    assert!(tally.inputs >= 10_000 && tally.with_errors >= 5_000);
}
