//! An expression (the bytes before the first NUL) evaluated on a document
//! (the bytes after it, or a built-in one): errors are fine, panics are
//! not, and node-sets are in document order without duplicates.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xml5dom_fuzz::xpath(data));
