//! The command line on a document nested 1,000,000 deep: `check` must
//! parse it without recursion and report it well-formed. The library's
//! own deep tests are in `tests/deep.rs`.

use std::process::Command;

const DEPTH: usize = 1_000_000;

fn nested(depth: usize) -> String {
    let mut xml = String::with_capacity(depth * 7 + 16);
    for _ in 0..depth {
        xml.push_str("<a>");
    }
    xml.push_str("leaf");
    for _ in 0..depth {
        xml.push_str("</a>");
    }
    xml
}

#[test]
fn check_exits_0_on_a_million_deep_file() {
    let dir = std::env::temp_dir().join(format!("xml5dom-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("deep.xml");
    std::fs::write(&path, nested(DEPTH)).expect("write the file");
    let output = Command::new(env!("CARGO_BIN_EXE_xml5dom"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("run xml5dom");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(0), "{:?}", output);
    assert!(output.stdout.is_empty());
}
