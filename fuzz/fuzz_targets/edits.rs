//! Random edit sequences (tests/edit_sequences.rs's check for longer): the
//! input is a document if it is well-formed XML, and the choices of edits
//! come from its bytes; after the edits, the document must write back as
//! docs/editing.md promises.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xml5dom_fuzz::edits(data));
