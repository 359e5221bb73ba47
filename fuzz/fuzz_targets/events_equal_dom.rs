//! The first byte seeds where the rest is cut, the second picks the limits:
//! the events of the document, whole, fed in chunks and pulled in chunks,
//! show the very document the DOM makes (nodes, errors, contexts, in
//! order); then every element is written alone and read back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xml5dom_fuzz::events_equal_dom(data));
