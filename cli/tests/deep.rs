//! The command line on a document nested 1,000,000 deep: `check` must
//! parse it without recursion and report it well-formed. The library's
//! own deep tests are in `tests/deep.rs`.

use std::process::Command;

#[path = "../../tests/common/mod.rs"]
mod common;

use common::shapes::deep_plain;

const DEPTH: usize = 1_000_000;

#[test]
fn check_exits_0_on_a_million_deep_file() {
    let dir = std::env::temp_dir().join(format!("xml5dom-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("deep.xml");
    std::fs::write(&path, deep_plain(DEPTH)).expect("write the file");
    let output = Command::new(env!("CARGO_BIN_EXE_xml5dom"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("run xml5dom");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(0), "{:?}", output);
    assert!(output.stdout.is_empty());
}
