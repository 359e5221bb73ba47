//! The two published packages as a user gets them: the minimum Rust version
//! they declare against what Cargo.lock's dependencies declare, their
//! metadata, and the files `cargo package` would ship.
//!
//! Both ask cargo itself (`cargo metadata --locked`, `cargo package --list`),
//! which reads the manifests of the packages Cargo.lock names from the
//! local registry cache: no network, no second toolchain, well under a
//! second each.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The packages of the workspace a user installs or depends on (bench-tools
/// and the fuzz crate are never published).
const PUBLISHED: [&str; 2] = ["xml5dom", "xml5dom-cli"];

fn cargo() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn run(command: &mut Command) -> String {
    let output = command.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("cargo writes UTF-8")
}

fn metadata() -> Value {
    let text = run(cargo().args(["metadata", "--format-version", "1", "--locked"]));
    serde_json::from_str(&text).expect("cargo metadata writes JSON")
}

/// A `rust-version` ("1.85" or "1.85.0") as a comparable triple.
fn version(text: &str) -> (u64, u64, u64) {
    let mut parts = text.split('.').map(|part| {
        part.parse::<u64>()
            .unwrap_or_else(|_| panic!("bad rust-version {text}"))
    });
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

fn package<'a>(metadata: &'a Value, id: &str) -> &'a Value {
    metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|p| p["id"] == id))
        .unwrap_or_else(|| panic!("{id} is in the metadata"))
}

fn package_id(metadata: &Value, name: &str) -> String {
    let members = metadata["workspace_members"].as_array().expect("members");
    members
        .iter()
        .filter_map(Value::as_str)
        .find(|id| package(metadata, id)["name"] == name)
        .unwrap_or_else(|| panic!("{name} is a workspace member"))
        .to_owned()
}

/// Every package `root` needs to build: its normal and build dependencies,
/// theirs, and so on, on every platform (Cargo.lock resolves them all).
/// Dev-dependencies are left out at every level: building a package never
/// builds them.
fn build_closure(metadata: &Value, root: &str) -> Vec<String> {
    let nodes = metadata["resolve"]["nodes"]
        .as_array()
        .expect("resolve nodes");
    let node = |id: &str| {
        nodes
            .iter()
            .find(|n| n["id"] == id)
            .expect("a resolve node")
    };
    let mut seen: Vec<String> = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(id) = stack.pop() {
        for dep in node(&id)["deps"].as_array().expect("deps") {
            let builds = dep["dep_kinds"]
                .as_array()
                .expect("dep_kinds")
                .iter()
                .any(|kind| kind["kind"].is_null() || kind["kind"] == "build");
            let dep_id = dep["pkg"].as_str().expect("a package id");
            if builds && !seen.iter().any(|s| s == dep_id) {
                seen.push(dep_id.to_owned());
                stack.push(dep_id.to_owned());
            }
        }
    }
    seen
}

#[test]
fn versions_compare_by_number() {
    assert_eq!(version("1.85.0"), version("1.85"));
    assert!(version("1.88") > version("1.85.0"));
    assert!(version("1.100") > version("1.99.9"));
}

/// `rust-version` must be at least what every dependency a build of the
/// package compiles declares, as Cargo.lock pins them (issue 31: 1.85 was
/// declared while encoding_rs 0.8.44 needs 1.88).
#[test]
fn rust_version_covers_every_locked_dependency() {
    let metadata = metadata();
    for name in PUBLISHED {
        let id = package_id(&metadata, name);
        let declared = package(&metadata, &id)["rust_version"]
            .as_str()
            .unwrap_or_else(|| panic!("{name} declares rust-version"));
        let closure = build_closure(&metadata, &id);
        assert!(
            closure
                .iter()
                .any(|dep| package(&metadata, dep)["name"] == "encoding_rs"),
            "the walk reaches {name}'s dependencies"
        );
        let mut too_new: Vec<String> = Vec::new();
        let mut highest = (0, 0, 0);
        for dep in &closure {
            let dep = package(&metadata, dep);
            let Some(needed) = dep["rust_version"].as_str() else {
                continue;
            };
            highest = highest.max(version(needed));
            if version(needed) > version(declared) {
                too_new.push(format!(
                    "{} {} needs {needed}",
                    dep["name"].as_str().unwrap_or("?"),
                    dep["version"].as_str().unwrap_or("?")
                ));
            }
        }
        assert!(
            too_new.is_empty(),
            "{name} declares rust-version {declared}, but Cargo.lock has: {}",
            too_new.join(", ")
        );
        println!("{name}: rust-version {declared}, dependencies need {highest:?} at most");
    }
}

#[test]
fn published_packages_have_their_metadata() {
    let metadata = metadata();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in PUBLISHED {
        let package = package(&metadata, &package_id(&metadata, name));
        for field in [
            "description",
            "license",
            "documentation",
            "readme",
            "rust_version",
        ] {
            assert!(package[field].is_string(), "{name} has no {field}");
        }
        assert_eq!(package["license"], "MIT OR Apache-2.0");
        let manifest = Path::new(package["manifest_path"].as_str().expect("a manifest path"));
        let dir = manifest.parent().expect("the package's directory");
        for file in ["LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"] {
            // The command line's are links to the root's.
            let text = std::fs::read_to_string(dir.join(file))
                .unwrap_or_else(|e| panic!("{name}: {file}: {e}"));
            assert_eq!(
                text,
                std::fs::read_to_string(root.join(file)).expect("the root's")
            );
        }
    }
}

/// What `cargo package` would put in each crate: no test suites or their
/// data, no benchmarks or generated benchmark inputs, nothing of fuzz/,
/// tools/ or bench-tools/; and the files a user is owed.
#[test]
fn package_lists_ship_only_what_users_need() {
    let shipped_by = |name: &str| -> Vec<String> {
        let list = run(cargo().args(["package", "--list", "--allow-dirty", "-p", name]));
        list.lines().map(str::to_owned).collect()
    };
    let always = [
        ".cargo_vcs_info.json",
        "Cargo.lock",
        "Cargo.toml",
        "Cargo.toml.orig",
        "README.md",
        "CHANGELOG.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ];

    let library = shipped_by("xml5dom");
    for file in &library {
        let allowed = always.contains(&file.as_str())
            || file.starts_with("src/")
            || (file.starts_with("docs/") && !file[5..].contains('/') && file.ends_with(".md"))
            || (file.starts_with("examples/") && !file[9..].contains('/') && file.ends_with(".rs"))
            || (file.starts_with("examples/data/") && file.ends_with(".xml"));
        assert!(allowed, "the xml5dom package would ship {file}");
    }
    for file in always
        .iter()
        .chain(&["src/lib.rs", "docs/element_path.md", "examples/merge.rs"])
    {
        assert!(
            library.iter().any(|f| f == file),
            "the xml5dom package lacks {file}"
        );
    }
    // Each user example is small and reads only the bundled files.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example_bytes: u64 = library
        .iter()
        .filter(|f| f.starts_with("examples/"))
        .map(|f| {
            std::fs::metadata(root.join(f))
                .expect("a listed file")
                .len()
        })
        .sum();
    assert!(
        example_bytes < 64 * 1024,
        "examples/ ships {example_bytes} bytes"
    );

    let cli = shipped_by("xml5dom-cli");
    for file in &cli {
        let allowed = always.contains(&file.as_str()) || file.starts_with("src/");
        assert!(allowed, "the xml5dom-cli package would ship {file}");
    }
    for file in always.iter().chain(&["src/main.rs"]) {
        assert!(
            cli.iter().any(|f| f == file),
            "the xml5dom-cli package lacks {file}"
        );
    }
}
