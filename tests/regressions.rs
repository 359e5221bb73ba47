//! Regression tests for inputs found by fuzzing (`fuzz/`, docs/robustness.md).
//!
//! Each input that once crashed a fuzz target is kept, minimized, as
//! `tests/regressions/<name>.bin`. `every_saved_input_passes_every_fuzz_check`
//! runs all four fuzz checks on every such file, with the very assertions of
//! the fuzz targets (`tests/common/fuzz_checks.rs`, which the fuzz crate
//! includes), so a new crash input needs only its file. A crash worth its own
//! name also gets a test here, named after what it exercises, that reads its
//! file (or holds its bytes inline) and runs the target's check.

#[path = "common/fuzz_checks.rs"]
mod fuzz_checks;

use std::path::{Path, PathBuf};

/// A fuzz check: arbitrary bytes in, a panic if a promise does not hold.
type Check = fn(&[u8]);

/// Every fuzz target's check, by target name.
const CHECKS: [(&str, Check); 4] = [
    ("parse_bytes", fuzz_checks::parse_bytes),
    ("random_chunks", fuzz_checks::random_chunks),
    ("fixpoint", fuzz_checks::fixpoint),
    ("xpath", fuzz_checks::xpath),
];

/// The saved inputs, sorted by name.
fn saved_inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable directory").path())
        .filter(|path| path.extension().is_some_and(|e| e == "bin"))
        .collect();
    paths.sort();
    paths
}

/// Runs one check and names the file and check if it panics.
fn run(path: &Path, name: &str, check: Check, data: &[u8]) {
    let outcome = std::panic::catch_unwind(|| check(data));
    if let Err(panic) = outcome {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        panic!("{}: the {name} check failed: {message}", path.display());
    }
}

#[test]
fn every_saved_input_passes_every_fuzz_check() {
    let inputs = saved_inputs();
    for path in &inputs {
        let data = std::fs::read(path).expect("readable input");
        for (name, check) in CHECKS {
            run(path, name, check, &data);
        }
    }
    eprintln!(
        "regressions: {} saved inputs, each through the {} fuzz checks",
        inputs.len(),
        CHECKS.len()
    );
}

/// The checks hold on the inputs the fuzz seeds start from, so a seed that
/// fails is caught here before a fuzz run reports it as a crash.
#[test]
fn the_fuzz_seeds_pass_their_checks() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (name, check) in CHECKS {
        let Ok(entries) = std::fs::read_dir(seeds.join(name)) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("readable directory").path();
            let data = std::fs::read(&path).expect("readable seed");
            run(&path, name, check, &data);
        }
    }
}
