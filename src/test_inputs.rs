//! Inputs the unit tests of several stages share (compiled for tests
//! only): the files under a folder, and the tree cases of the suites. It
//! names nothing of the crate, so every stage may use it.

use std::path::{Path, PathBuf};

/// Every file under `dir`, folders walked in name order.
pub(crate) fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The `#data` sections of a tree-construction file.
pub(crate) fn dat_inputs(text: &str) -> Vec<String> {
    text.split("#data\n")
        .skip(1)
        .filter_map(|case| {
            let end = ["\n#errors", "\n#document"]
                .iter()
                .filter_map(|marker| case.find(marker))
                .min()?;
            Some(case[..end].to_owned())
        })
        .collect()
}

/// The input of every tree case of the suites (the vendored xml5lib-tests
/// and our own), with the file it is in.
pub(crate) fn tree_case_inputs() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut paths = Vec::new();
    files(&root.join("xml5lib-tests/tree-construction"), &mut paths);
    files(&root.join("tree-construction"), &mut paths);
    let mut cases = Vec::new();
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
    {
        let text = std::fs::read_to_string(path).expect("a readable case file");
        for input in dat_inputs(&text) {
            cases.push((path.clone(), input));
        }
    }
    assert!(cases.len() > 300, "only {} tree cases found", cases.len());
    cases
}
