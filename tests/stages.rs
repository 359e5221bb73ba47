//! One numbering of the library's modules everywhere, by the layers of
//! their imports: the crate's front page (`src/lib.rs`, its numbered
//! list), docs/architecture.md (its numbered sentence), each module's
//! summary ("Layer N") and `LAYERS` in `tests/layers.rs` give each module
//! the same number.

use std::collections::BTreeMap;
use std::path::Path;

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The identifiers between backticks in `text` (`` [`dom`] `` and
/// `` `tree_builder` `` alike; `` `src/dom/` `` as `dom`).
fn quoted_names(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|quoted| {
            let quoted = quoted.strip_prefix("src/").unwrap_or(quoted);
            quoted.trim_end_matches('/').to_owned()
        })
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect()
}

/// Splits `text` at each `N. ` that starts an item of a numbered list
/// (a digit after the start, whitespace or `; `), giving each item's
/// number and text.
fn numbered_items(text: &str) -> Vec<(u32, String)> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    for at in 0..bytes.len().saturating_sub(2) {
        let after_break = at == 0 || bytes[at - 1].is_ascii_whitespace();
        if after_break && bytes[at].is_ascii_digit() && &bytes[at + 1..at + 3] == b". " {
            starts.push(at);
        }
    }
    starts
        .iter()
        .enumerate()
        .map(|(i, &start)| {
            let end = starts.get(i + 1).copied().unwrap_or(text.len());
            let number = u32::from(bytes[start] - b'0');
            (number, text[start + 3..end].to_owned())
        })
        .collect()
}

/// Module to stage, from numbered items naming modules.
fn stages_of(items: &[(u32, String)]) -> BTreeMap<String, u32> {
    let mut stages = BTreeMap::new();
    for (number, text) in items {
        for name in quoted_names(text) {
            if let Some(other) = stages.insert(name.clone(), *number) {
                assert_eq!(other, *number, "`{name}` is given two stages");
            }
        }
    }
    stages
}

/// The front page's list: the lines of `src/lib.rs` from "The pipeline"
/// to the first line that is not part of a numbered item.
fn front_page() -> BTreeMap<String, u32> {
    let lib = read("src/lib.rs");
    let docs: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(str::trim)
        .collect();
    let from = docs
        .iter()
        .position(|line| line.starts_with("The pipeline"))
        .expect("src/lib.rs: \"The pipeline\"");
    let list: Vec<&str> = docs[from + 1..]
        .iter()
        .skip_while(|line| !line.starts_with("1. "))
        .take_while(|line| !line.is_empty())
        .copied()
        .collect();
    stages_of(&numbered_items(&list.join(" ")))
}

/// docs/architecture.md's sentence "The layers, numbered as ...".
fn architecture() -> BTreeMap<String, u32> {
    let doc = read("docs/architecture.md");
    let from = doc
        .find("The layers, numbered")
        .expect("the layers' paragraph");
    let paragraph = &doc[from..];
    let paragraph = &paragraph[..paragraph.find("\n\n").unwrap_or(paragraph.len())];
    // The items start at "1. ".
    let list = &paragraph[paragraph.find("1. ").expect("a numbered list")..];
    let items = numbered_items(&list.replace('\n', " "));
    // Up to the sentence after the last item.
    let items: Vec<(u32, String)> = items
        .into_iter()
        .map(|(n, text)| (n, text.split(". ").next().unwrap_or("").to_owned()))
        .collect();
    stages_of(&items)
}

/// What each module's summary says of its layer: "layer N" in its first
/// paragraph (a module with no number there claims none).
fn module_summaries() -> BTreeMap<String, u32> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut claims = BTreeMap::new();
    for entry in std::fs::read_dir(&src).expect("src/") {
        let path = entry.expect("an entry").path();
        let file = match path.is_dir() {
            true => path.join("mod.rs"),
            false => path.clone(),
        };
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if name == "lib" || !file.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a readable module");
        let summary: String = text
            .lines()
            .map_while(|line| line.strip_prefix("//!"))
            .take_while(|line| !line.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        let numbers = summary
            .match_indices("layer ")
            .filter_map(|(at, _)| summary[at + 6..].chars().next()?.to_digit(10));
        for number in numbers {
            if let Some(other) = claims.insert(name.to_owned(), number) {
                assert_eq!(other, number, "src/{name}: two layers in its summary");
            }
        }
    }
    claims
}

/// `LAYERS` of tests/layers.rs: each module with its layer's number
/// (from 1), read from the text of the constant.
fn layers_test() -> BTreeMap<String, u32> {
    let text = read("tests/layers.rs");
    let from = text.find("const LAYERS").expect("tests/layers.rs: LAYERS");
    let body = &text[from..];
    let body = &body[body.find("= &[").expect("LAYERS' value") + 4..];
    let body = &body[..body.find("\n];").expect("the end of LAYERS")];
    let mut layers = BTreeMap::new();
    for (index, layer) in body.split("],").enumerate() {
        for name in layer.split('"').skip(1).step_by(2) {
            layers.insert(name.to_owned(), index as u32 + 1);
        }
    }
    layers
}

#[test]
fn the_layers_are_numbered_alike_everywhere() {
    let front = front_page();
    assert_eq!(
        front.get("tokenizer"),
        Some(&4),
        "src/lib.rs's list: {front:?}"
    );
    assert_eq!(
        architecture(),
        front,
        "docs/architecture.md against src/lib.rs"
    );
    assert_eq!(layers_test(), front, "tests/layers.rs against src/lib.rs");
    let claims = module_summaries();
    for (module, layer) in &claims {
        assert_eq!(
            front.get(module),
            Some(layer),
            "src/{module}: its summary says layer {layer}; src/lib.rs: {front:?}"
        );
    }
    // Every stage of the pipeline says which layer it is.
    for module in [
        "decoding",
        "tokenizer",
        "tree_builder",
        "dom",
        "serializer",
        "parse",
        "events",
    ] {
        assert!(claims.contains_key(module), "src/{module} names no layer");
    }
}

#[test]
fn a_numbered_list_is_read_item_by_item() {
    let items = numbered_items("1. [`a`]: x; 2. `b` and `src/c/`; 3. d");
    assert_eq!(
        items,
        [
            (1, "[`a`]: x; ".to_owned()),
            (2, "`b` and `src/c/`; ".to_owned()),
            (3, "d".to_owned())
        ]
    );
    let stages = stages_of(&items);
    let want: BTreeMap<String, u32> = [("a", 1), ("b", 2), ("c", 2)]
        .map(|(m, n)| (m.to_owned(), n))
        .into();
    assert_eq!(stages, want);
}
