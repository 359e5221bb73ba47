//! Any bytes parse; every node, span and error of the result reads back
//! consistently; the document serializes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xml5dom_fuzz::parse_bytes(data));
