//! The first byte seeds where the rest is cut: `Parser` fed those chunks
//! gives the same document and errors as `Document::parse_bytes`, and the
//! tokenizer fed the text in chunks gives the same tokens as `tokenize`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xml5dom_fuzz::random_chunks(data));
