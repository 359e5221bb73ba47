//! Hang detectors for issue 16 (linear time on every input shape): every
//! shape of `tests/common/shapes.rs` at a size where work quadratic in it
//! takes minutes but linear work about a second at most, even in a debug
//! build, parsed, written back (plain and pretty), canonicalized and
//! dumped as a tree in process (the worst shapes through the command line
//! are in `cli/tests/scaling.rs`); where elements sit side by side, each
//! element is also written alone (`Node::to_xml`, `Display`). Each case runs under a generous wall-clock
//! guard (30 s) that turns a hang into a failure naming the shape and the
//! step; pretty printing and the tree dump must also write at most 20
//! times their input.
//!
//! These are not speed measurements: a pass says only that nothing went
//! quadratic (or worse) again, and quadratic work made of fast scans
//! (`str::find`, counting characters) still passes at 100,000 units; the
//! tests that watch such scans use more (`repairs` here 800,000,
//! `cli::stray_end_fmt` in `cli/tests/scaling.rs` 400,000). The times, and the ratio of the time at `8n` to the time at
//! `n` for every shape and subcommand, come from
//! `cargo build --release && cargo run --release -p bench-tools --bin scaling`.
//!
//! Each shape is generated and parsed once, by whichever of its tests comes
//! first (under that test's guard), and shared by the others.

mod common;

use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::shapes;
use xml5dom::{
    canonicalize, CanonicalForm, Document, Limits, Node, ParseOptions, SerializeOptions,
};

/// The wall-clock guard of each case.
const GUARD: Duration = Duration::from_secs(30);

/// Units per shape in process: quadratic work over 100,000 units (10^10
/// steps) takes minutes, linear work a fraction of a second in a debug
/// build. [`size`] has the exceptions.
const N: usize = 100_000;

/// The size of the shape `name` in process: [`N`], less for the shapes
/// whose units are long (a namespace declaration per level) or slow to
/// parse in a debug build, to keep this file's run near 30 s.
fn size(name: &str) -> usize {
    match name {
        "deep_ns" => N / 4,
        // Two elements and 40 bytes an item.
        "long_line" | "damaged_feed" => N / 2,
        _ => N,
    }
}

/// Pretty printing and the tree dump may write at most this many times the
/// input (issue 16: `fmt --pretty` of a document nested 1,000,000 deep
/// writes less than 20 times the input, its indentation capped as
/// xmllint's is).
const GROWTH: usize = 20;

/// Runs `work` on a thread of its own and fails, naming `what`, when it
/// takes longer than [`GUARD`] (the thread is left behind; the test process
/// ends with the run).
fn guarded<T: Send + 'static>(what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, wait) = mpsc::channel();
    let start = Instant::now();
    std::thread::Builder::new()
        .name(what.to_owned())
        .spawn(move || {
            let _ = done.send(work());
        })
        .expect("spawn a thread");
    match wait.recv_timeout(GUARD) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!(
            "{what}: still running after {} s (a hang, or work growing faster than the input; \
             issue 16, and `cargo run --release -p bench-tools --bin scaling` for the ratios)",
            GUARD.as_secs()
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!(
            "{what}: panicked after {:.1} s (see its output above)",
            start.elapsed().as_secs_f64()
        ),
    }
}

/// The shape `name` at its [`size`] and its document, made once.
fn parsed(
    name: &'static str,
    cell: &'static OnceLock<(String, Document)>,
) -> &'static (String, Document) {
    cell.get_or_init(|| {
        let text = (shapes::shape(name).generate)(size(name));
        let doc = Document::parse(&text);
        (text, doc)
    })
}

/// One in-process step over a parsed shape.
fn step(
    name: &'static str,
    cell: &'static OnceLock<(String, Document)>,
    step: &'static str,
    work: fn(&str, &str, &Document),
) {
    guarded(&format!("{name} × {step}"), move || {
        let (text, doc) = parsed(name, cell);
        work(name, text, doc);
    });
}

fn parse(_: &str, _: &str, doc: &Document) {
    assert!(doc.root().first_child().is_some(), "an empty document");
}

fn to_xml(_: &str, _: &str, doc: &Document) {
    assert!(!doc.to_xml().is_empty());
}

/// The tree dump may write at most this many times the input: it spells
/// out what the source leaves implicit (namespaces, `| ` and two spaces a
/// level up to `DUMP_DEPTH` levels, then the level as a number), so a
/// document of bare `<a>` start tags, three bytes a level, dumps at about 26
/// times its size; it must not grow with the depth.
const DUMP_GROWTH: usize = 40;

/// Fails when `output` is more than `growth` times `input`.
fn assert_linear_size(what: &str, input: &str, output: &str, growth: usize) {
    assert!(
        output.len() <= growth * input.len() + 1024,
        "{what}: {} bytes of output for {} bytes of input (more than {growth} times)",
        output.len(),
        input.len()
    );
}

/// An output step whose size must stay linear: first at a tenth of the
/// size, so that output growing with the depth fails there instead of
/// taking gigabytes at the full size.
fn linear_output(
    name: &str,
    text: &str,
    doc: &Document,
    growth: usize,
    write: fn(&Document) -> String,
) {
    let n = size(name);
    let small = (shapes::shape(name).generate)(n / 10);
    let out = write(&Document::parse(&small));
    assert_linear_size(&format!("at n = {}", n / 10), &small, &out, growth);
    assert_linear_size(&format!("at n = {n}"), text, &write(doc), growth);
}

fn pretty(name: &str, text: &str, doc: &Document) {
    linear_output(name, text, doc, GROWTH, |doc| {
        let options = SerializeOptions {
            pretty: Some(2),
            ..Default::default()
        };
        doc.serialize(&options).text
    });
}

fn canonical(_: &str, _: &str, doc: &Document) {
    assert!(!canonicalize(doc, CanonicalForm::C14n).is_empty());
}

fn tree_dump(name: &str, text: &str, doc: &Document) {
    linear_output(name, text, doc, DUMP_GROWTH, Document::to_tree_dump);
}

/// Every element written alone, as `xml5dom query` prints each node it
/// finds: each write must cost in proportion to its element, not to the
/// errors of the whole document (issue 30: one write took them all in, and
/// a query printing 80,000 titles of a feed with a bare `&` in each took 50
/// times as long as one printing 10,000). For the shapes whose elements
/// sit side by side: an element of a deep one holds the rest of the
/// document, and writing each of those is quadratic output.
fn each_element_to_xml(name: &str, _: &str, doc: &Document) {
    each_element(name, doc, |node| node.to_xml());
}

/// [`each_element_to_xml`] through `Display`.
fn each_element_display(name: &str, _: &str, doc: &Document) {
    each_element(name, doc, |node| node.to_string());
}

/// Writes each element of `doc` with `write`; a feed's titles must come
/// out repaired, and each one in turn.
fn each_element(name: &str, doc: &Document, write: fn(Node<'_>) -> String) {
    let mut titles = 0;
    for element in doc.root().descendants().filter(|n| n.is_element()) {
        let xml = write(element);
        assert!(xml.starts_with('<'), "{element:?} written as {xml:?}");
        if element.name() == "title" {
            assert_eq!(xml, format!("<title>A &amp; B {titles}</title>"));
            titles += 1;
        }
    }
    if name == "damaged_feed" {
        assert_eq!(titles, size(name));
    }
}

/// Parses the shape with no limits at all (the default keeps 10,000
/// attributes and names of 10,000 bytes; past that, the work per attribute
/// or per character must stay constant too).
fn parse_unlimited(name: &'static str) {
    guarded(&format!("{name} × parse without limits"), move || {
        let text = (shapes::shape(name).generate)(N);
        let mut options = ParseOptions::default();
        options.limits = Limits::none();
        let doc = Document::parse_with(&text, &options);
        assert!(!doc.to_xml().is_empty());
    });
}

/// For each shape, a module with a test per step (the function of that
/// name above) over the shape's document from [`parsed`]; attributes
/// written before a step go on its test.
macro_rules! shape_tests {
    ($(
        $shape:ident {
            $( $(#[$attr:meta])* $step:ident ),* $(,)?
        }
    )*) => {$(
        mod $shape {
            use super::*;

            static DOC: OnceLock<(String, Document)> = OnceLock::new();

            $(
                #[test]
                $(#[$attr])*
                fn $step() {
                    step(stringify!($shape), &DOC, stringify!($step), super::$step);
                }
            )*
        }
    )*};
}

shape_tests! {
    bare_amp { parse, to_xml, pretty, canonical, tree_dump }
    lt_in_text { parse, to_xml, pretty, canonical, tree_dump }
    undeclared_entity { parse, to_xml, pretty, canonical, tree_dump }
    unquoted_value { parse, to_xml, pretty, canonical, tree_dump, each_element_to_xml }
    duplicate_attr { parse, to_xml, pretty, canonical, tree_dump }
    mismatched_end { parse, to_xml, pretty, canonical, tree_dump }
    misnested { parse, to_xml, pretty, canonical, tree_dump, each_element_display }
    stray_end { parse, to_xml, pretty, canonical, tree_dump }
    end_no_name { parse, to_xml, pretty, canonical, tree_dump }
    comment_start { parse, to_xml, pretty, canonical, tree_dump }
    bang_dash { parse, to_xml, pretty, canonical, tree_dump }
    pi_start { parse, to_xml, pretty, canonical, tree_dump }
    pi_no_target { parse, to_xml, pretty, canonical, tree_dump }
    damaged_feed {
        parse, to_xml, pretty, canonical, tree_dump, each_element_to_xml, each_element_display
    }
    deep_plain { parse, to_xml, pretty, canonical, tree_dump }
    deep_misnested { parse, to_xml, pretty, canonical, tree_dump }
    deep_stray { parse, to_xml, pretty, canonical, tree_dump }
    deep_ns { parse, to_xml, pretty, canonical, tree_dump }
    deep_unclosed { parse, to_xml, pretty, canonical, tree_dump }
    many_attributes { parse, to_xml, pretty, canonical, tree_dump }
    long_name { parse, to_xml, pretty, canonical, tree_dump }
    long_value { parse, to_xml, pretty, canonical, tree_dump }
    long_line { parse, to_xml, pretty, canonical, tree_dump }
}

/// Writing repaired XML, on one line of 800,000 bare `&`: more than the
/// other shapes' 100,000, because the quadratic work this catches is a
/// fast scan (`str::find`), under 2 s at 100,000 even in a debug build.
mod repairs {
    use super::*;

    #[test]
    fn bare_amp_to_xml() {
        guarded("bare_amp at 800,000 × to_xml", || {
            let text = shapes::bare_amp(8 * N);
            assert!(!Document::parse(&text).to_xml().is_empty());
        });
    }
}

/// Past the default limits.
mod unlimited {
    use super::*;

    #[test]
    fn many_attributes() {
        parse_unlimited("many_attributes");
    }

    #[test]
    fn duplicate_attr() {
        parse_unlimited("duplicate_attr");
    }

    #[test]
    fn long_name() {
        parse_unlimited("long_name");
    }
}
