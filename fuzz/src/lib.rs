//! The checks the fuzz targets run. They live in `tests/common/fuzz_checks.rs`
//! so that `tests/regressions.rs` runs exactly the same assertions on every
//! saved crash input.

#[path = "../../tests/common/fuzz_checks.rs"]
mod checks;

pub use checks::{events_equal_dom, fixpoint, parse_bytes, random_chunks, xpath};

pub use checks::edit_checks::edits;
