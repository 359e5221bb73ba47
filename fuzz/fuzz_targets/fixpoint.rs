//! Parse, write, parse again: no errors the second time, the same text when
//! written again, the same tree unless a repair said otherwise
//! (tests/fixpoint.rs's rules for any bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xml5dom_fuzz::fixpoint(data));
