//! Imports flow one way (docs/architecture.md, "Invariants"): every module
//! of the library names (`crate::module`, in code or in a doc link) only
//! modules of a lower layer than its own, so no module imports one that
//! imports it, directly or through others. The layers are the table of
//! docs/architecture.md's bird's-eye view; a new module must be put in one.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest layer first. A module may name
/// only modules of earlier entries.
const LAYERS: &[&[&str]] = &[
    &["chars", "span", "limits", "error", "output", "notation"],
    &["decoding", "char_refs"],
    &["dtd", "dom"],
    &["tokenizer", "query"],
    &["tree_builder", "serializer"],
    &["parse", "events", "fragment"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The names `text` gives after `crate::`.
fn named_modules(text: &str) -> BTreeSet<String> {
    text.match_indices("crate::")
        .filter(|&(at, _)| !text[..at].ends_with('$'))
        .map(|(at, prefix)| {
            text[at + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect::<String>()
        })
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn every_module_names_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src/");
        let first = relative
            .components()
            .next()
            .expect("a path")
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs");
        if module == "lib" {
            continue;
        }
        let Some(own) = layer(module) else {
            problems.push(format!(
                "{}: module `{module}` is in no layer",
                relative.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a readable file");
        for named in named_modules(&text) {
            if named == module {
                continue;
            }
            match layer(&named) {
                Some(other) if other < own => {}
                Some(_) => problems.push(format!(
                    "{}: `{module}` names `crate::{named}`, which is not below it",
                    relative.display()
                )),
                None => problems.push(format!(
                    "{}: `{module}` names `crate::{named}`, which is in no layer \
                     (the crate root's re-exports are for users, not for the stages)",
                    relative.display()
                )),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_sees_an_upward_name() {
    let names =
        named_modules("use crate::dom::Node; // [`x`](crate::parse::Parser) $crate::tokenizer");
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["dom", "parse"],
        "`$crate::` is a macro's own path"
    );
}
