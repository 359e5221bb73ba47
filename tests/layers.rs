//! Imports flow one way (docs/architecture.md, "Invariants"), checked on
//! the text of the library's files, found from `src/lib.rs` down its `mod`
//! declarations. What a file names is every path of it that starts at
//! `crate::`, `super::` or `self::`, in code or in a doc link (the braces
//! of a `use` expanded, `super::` in a top-level inline module such as
//! `mod tests` being the file's own module):
//!
//! - every module of the library names only modules of a lower layer than
//!   its own, so no module imports one that imports it, directly or
//!   through others. The layers are the numbered list of
//!   docs/architecture.md's bird's-eye view; a new module must be put in
//!   one;
//! - no file but `src/lib.rs` names the crate root (`crate::Document`, a
//!   re-export for users): the root is the top layer, and a name through it
//!   hides which stage a file uses;
//! - inside a stage (a directory of `src/`), the files that name each
//!   other form no cycle. A name a module imports with `use` stands for
//!   the file it comes from (`super::Node` in `dom/axes.rs`, which
//!   `dom/mod.rs` re-exports, names `dom/node.rs`). A module declaring and
//!   re-exporting its own submodules is the module tree, not an import;
//!   what else it names of them (a call, a private `use`, by a relative
//!   path too) is counted, so a directory's `mod.rs` that calls its files
//!   holds nothing they name: no import runs back up. What a file names of
//!   its parent's own items (`super::Writer`) is counted, as is everything
//!   it names of its siblings.
//!
//! Calls of methods are not names: a file that calls a method another file
//! of its stage adds to a type (`impl Tokenizer` split over files) is not
//! seen to depend on it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest layer first. A module may name
/// only modules of earlier entries.
const LAYERS: &[&[&str]] = &[
    &[
        "chars",
        "scope",
        "span",
        "limits",
        "error",
        "output",
        "notation",
        "test_inputs",
        "uri",
        "external",
    ],
    &["decoding", "char_refs"],
    &["dtd", "dom"],
    &["tokenizer", "query"],
    &["tree_builder", "serializer"],
    &["parse"],
    &["events", "fragment", "resolve", "de", "ser"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The paths of a `use` tree (or a plain path) at the start of `text`,
/// each as its segments, and how many bytes they took: `a::{b, c::d as e}`
/// is `a::b` and `a::c::d`. Stops at anything a path cannot hold.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let bytes = text.as_bytes();
    let skip_space = |mut at: usize| {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        at
    };
    let mut prefix = Vec::new();
    let mut at = 0;
    loop {
        at = skip_space(at);
        if bytes.get(at) == Some(&b'{') {
            at += 1;
            let mut paths = Vec::new();
            loop {
                at = skip_space(at);
                match bytes.get(at) {
                    None => break,
                    Some(b'}') => {
                        at += 1;
                        break;
                    }
                    Some(b',') => at += 1,
                    Some(_) => {
                        let (inner, taken) = use_tree(&text[at..]);
                        if taken == 0 {
                            break;
                        }
                        paths.extend(
                            inner
                                .into_iter()
                                .map(|tail| [prefix.clone(), tail].concat()),
                        );
                        at += taken;
                    }
                }
            }
            return (paths, at);
        }
        let name_end = at + bytes[at..].iter().take_while(|&&c| is_name_char(c)).count();
        let segment = match &text[at..name_end] {
            "" if bytes.get(at) == Some(&b'*') => "*",
            segment => segment,
        };
        if segment.is_empty() {
            let paths = if prefix.is_empty() {
                vec![]
            } else {
                vec![prefix]
            };
            return (paths, at);
        }
        prefix.push(segment.to_string());
        at += segment.len();
        if text[at..].starts_with("::") {
            at += 2;
            continue;
        }
        // `name as alias`: the alias names nothing.
        let after = skip_space(at);
        if text[after..].starts_with("as ") {
            let alias = skip_space(after + 2);
            at = alias
                + bytes[alias..]
                    .iter()
                    .take_while(|&&c| is_name_char(c))
                    .count();
        }
        return (vec![prefix], at);
    }
}

/// Every path of `text` that starts at `root` (`crate`, `super` or
/// `self`): where it starts, and its segments after `root::`. A path that
/// is the tail of another (`super::super`, `a::self`) or a macro's own
/// (`$crate`) is not one.
fn paths_from(text: &str, root: &str) -> Vec<(usize, Vec<String>)> {
    let needle = format!("{root}::");
    let mut found = Vec::new();
    for (at, _) in text.match_indices(&needle) {
        let inside_another = at
            .checked_sub(1)
            .map(|previous| text.as_bytes()[previous])
            .is_some_and(|c| is_name_char(c) || c == b'$' || c == b':');
        if inside_another {
            continue;
        }
        let (paths, _) = use_tree(&text[at + needle.len()..]);
        found.extend(paths.into_iter().map(|path| (at, path)));
    }
    found
}

/// A file of the library: its module path (`["serializer", "writer",
/// "tags"]`; `[]` for `src/lib.rs`) and its text.
struct ModuleFile {
    path: PathBuf,
    module: Vec<String>,
    text: String,
}

impl ModuleFile {
    fn stage(&self) -> Option<&str> {
        self.module.first().map(String::as_str)
    }
}

/// The `mod name;` declarations of `text`, each with the file a
/// `#[path = "..."]` on a line before gives it.
fn declared_modules(text: &str) -> Vec<(String, Option<String>)> {
    let mut declared = Vec::new();
    let mut path_attribute = None;
    for line in text.lines().map(str::trim) {
        if let Some(path) = line
            .strip_prefix("#[path = \"")
            .and_then(|rest| rest.strip_suffix("\"]"))
        {
            path_attribute = Some(path.to_string());
            continue;
        }
        let declaration = line
            .split_once("mod ")
            .filter(|(visibility, _)| {
                visibility.is_empty() || visibility.trim_end().starts_with("pub")
            })
            .and_then(|(_, rest)| rest.strip_suffix(';'));
        if let Some(name) = declaration.filter(|name| name.bytes().all(is_name_char)) {
            declared.push((name.to_string(), path_attribute.take()));
        } else if !line.starts_with("#[") {
            path_attribute = None;
        }
    }
    declared
}

/// The library's files (their paths relative to `src`), found as Rust
/// finds them: from `src/lib.rs` down its `mod` declarations.
fn crate_files(src: &Path) -> Vec<ModuleFile> {
    let root = src.join("lib.rs");
    let mut files = Vec::new();
    let mut waiting = vec![(root.clone(), Vec::new())];
    while let Some((path, module)) = waiting.pop() {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let dir = path.parent().expect("a directory").to_path_buf();
        // The crate root and a `mod.rs` hold their children beside them,
        // `name.rs` in `name/`.
        let children_dir = if path == root || path.ends_with("mod.rs") {
            dir.clone()
        } else {
            dir.join(path.file_stem().expect("a file name"))
        };
        for (name, path_attribute) in declared_modules(&text) {
            let child = match path_attribute {
                Some(relative) => dir.join(relative),
                None if children_dir.join(format!("{name}.rs")).exists() => {
                    children_dir.join(format!("{name}.rs"))
                }
                None => children_dir.join(&name).join("mod.rs"),
            };
            waiting.push((child, [module.clone(), vec![name]].concat()));
        }
        let path = path.strip_prefix(src).expect("under src/").to_path_buf();
        files.push(ModuleFile { path, module, text });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// A top-level inline module (`mod tests {` at the start of a line, to the
/// first line that is `}`): its name and the byte range of its body, in
/// which `super::` is the file's own module.
fn inline_modules(text: &str) -> Vec<(String, Range<usize>)> {
    let mut found = Vec::new();
    let mut open: Option<(String, usize)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let line = line.trim_end();
        match &open {
            None => {
                let name = line
                    .strip_prefix("pub(crate) mod ")
                    .or_else(|| line.strip_prefix("pub mod "))
                    .or_else(|| line.strip_prefix("mod "))
                    .and_then(|rest| rest.strip_suffix(" {"));
                if let Some(name) = name.filter(|name| name.bytes().all(is_name_char)) {
                    open = Some((name.to_string(), at));
                }
            }
            Some((name, body)) if line == "}" => {
                found.push((name.clone(), *body..start));
                open = None;
            }
            Some(_) => {}
        }
    }
    found
}

/// Every path of `file` that starts at `crate::`, `super::` or `self::`,
/// in code or in a doc link, as a path from the crate root: `super::x` in
/// `src/dom/handle.rs` is `["dom", "x"]`.
fn named_paths(file: &ModuleFile) -> Vec<Vec<String>> {
    let inline = inline_modules(&file.text);
    let module_at = |at: usize| {
        let mut module = file.module.clone();
        if let Some((name, _)) = inline.iter().find(|(_, body)| body.contains(&at)) {
            module.push(name.clone());
        }
        module
    };
    let mut named = Vec::new();
    for root in ["crate", "super", "self"] {
        for (at, segments) in paths_from(&file.text, root) {
            let mut full = match root {
                "crate" => Vec::new(),
                "super" => {
                    let mut module = module_at(at);
                    module.pop();
                    module
                }
                _ => module_at(at),
            };
            for segment in segments {
                match segment.as_str() {
                    "super" => {
                        full.pop();
                    }
                    "self" => {}
                    _ => full.push(segment),
                }
            }
            named.push(full);
        }
    }
    named
}

fn is_crate_root_item(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// What breaks the layers in `files`, as lines to report.
fn layer_problems(files: &[ModuleFile]) -> Vec<String> {
    let mut problems = Vec::new();
    for file in files {
        let Some(module) = file.stage() else {
            continue; // the crate root
        };
        let shown = file.path.display();
        let Some(own) = layer(module) else {
            problems.push(format!("{shown}: module `{module}` is in no layer"));
            continue;
        };
        let paths = named_paths(file);
        let named: BTreeSet<&str> = paths
            .iter()
            .filter_map(|path| path.first().map(String::as_str))
            .filter(|&first| first != "*")
            .collect();
        for named in named {
            if named == module {
                continue;
            }
            match layer(named) {
                Some(other) if other < own => {}
                Some(_) => problems.push(format!(
                    "{shown}: `{module}` names `crate::{named}`, which is not below it"
                )),
                None if is_crate_root_item(named) => problems.push(format!(
                    "{shown}: `{module}` names `crate::{named}` through the crate root, which \
                     is the top layer (its re-exports are for users; name the module that \
                     defines it)"
                )),
                None => problems.push(format!(
                    "{shown}: `{module}` names `crate::{named}`, which is in no layer \
                     (the crate root's re-exports are for users, not for the stages)"
                )),
            }
        }
    }
    problems
}

/// The files of `src/` no `mod` declaration reaches (the checks would not
/// see them).
fn unreached_files(src: &Path, files: &[ModuleFile]) -> Vec<String> {
    let mut on_disk = Vec::new();
    rust_files(src, &mut on_disk);
    on_disk
        .into_iter()
        .map(|path| path.strip_prefix(src).expect("under src/").to_path_buf())
        .filter(|path| !files.iter().any(|file| &file.path == path))
        .map(|path| format!("{}: no `mod` declaration reaches it", path.display()))
        .collect()
}

#[test]
fn every_module_names_only_lower_layers() {
    let src = src();
    let files = crate_files(&src);
    let mut problems = unreached_files(&src, &files);
    problems.extend(layer_problems(&files));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A file for the checks' own tests.
fn fixture(module: &[&str], text: &str) -> ModuleFile {
    ModuleFile {
        path: PathBuf::from(format!("{}.rs", module.join("/"))),
        module: module.iter().map(|s| s.to_string()).collect(),
        text: text.to_string(),
    }
}

#[test]
fn the_check_sees_an_upward_name() {
    let file = fixture(
        &["dom", "node"],
        "use crate::dom::Node; // [`x`](crate::parse::Parser) $crate::tokenizer",
    );
    let firsts: Vec<_> = named_paths(&file)
        .into_iter()
        .map(|path| path[0].clone())
        .collect();
    assert_eq!(firsts, ["dom", "parse"], "`$crate::` is a macro's own path");
    assert_eq!(
        layer_problems(&[file]),
        ["dom/node.rs: `dom` names `crate::parse`, which is not below it"]
    );
}

#[test]
fn the_check_sees_a_name_through_the_crate_root() {
    // The line src/dom/handle.rs had.
    let handle = fixture(
        &["dom", "handle"],
        "    pub fn append_fragment(&mut self, text: &str) -> Result<crate::Fragment> {",
    );
    let problems = layer_problems(&[handle]);
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0]
            .starts_with("dom/handle.rs: `dom` names `crate::Fragment` through the crate root"),
        "{problems:?}"
    );
    // Braces, aliases and `super::` from a top-level file reach it too.
    let grouped = fixture(
        &["events", "sink"],
        "use crate::{\n    dom::{Document, Node},\n    Error as E,\n};",
    );
    let parse = fixture(
        &["parse"],
        "use super::Document;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
    );
    let paths: Vec<Vec<Vec<String>>> = [&grouped, &parse].map(named_paths).into();
    assert_eq!(
        paths,
        [
            vec![vec!["dom", "Document"], vec!["dom", "Node"], vec!["Error"]],
            vec![vec!["Document"], vec!["parse", "*"]],
        ]
    );
    assert_eq!(layer_problems(&[grouped, parse]).len(), 2);
}

/// The names the top-level `use` declarations of `file` bring into its
/// module (`pub use a::X;` brings `X`), each with the path it stands for,
/// from the crate root. (An alias is read as the name it renames.)
fn imported_names(file: &ModuleFile) -> BTreeMap<String, Vec<String>> {
    let mut imported = BTreeMap::new();
    let mut at = 0;
    for line in file.text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let declaration = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|prefix| line.strip_prefix(prefix));
        let Some(declaration) = declaration else {
            continue;
        };
        let from = start + (line.len() - declaration.len());
        let (paths, _) = use_tree(&file.text[from..]);
        for path in paths {
            let mut full = file.module.clone();
            let mut segments = path.iter().peekable();
            if segments.peek().is_some_and(|first| *first == "crate") {
                full.clear();
                segments.next();
            }
            for segment in segments {
                match segment.as_str() {
                    "super" => {
                        full.pop();
                    }
                    "self" => {}
                    _ => full.push(segment.clone()),
                }
            }
            let name = match path.last().map(String::as_str) {
                Some("self") => path.iter().rev().nth(1),
                _ => path.last(),
            };
            if let Some(name) = name.filter(|name| *name != "*") {
                imported.insert(name.clone(), full);
            }
        }
    }
    imported
}

/// `text` with its re-exports (`pub use`, `pub(crate) use`, `pub(super)
/// use`, to their `;`) and module declarations blanked out, offsets kept:
/// what a module file names of its own submodules there is the module
/// tree, not a call into them.
fn without_reexports(text: &str) -> String {
    let mut kept = text.as_bytes().to_vec();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim_start();
        let front = ["pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .any(|prefix| trimmed.starts_with(prefix))
            || declared_modules(trimmed).len() == 1;
        if !front {
            continue;
        }
        let end = text[start..]
            .find(';')
            .map_or(text.len(), |end| start + end + 1);
        for byte in &mut kept[start..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    String::from_utf8(kept).unwrap_or_default()
}

/// Which files of its stage each file of `files` names (by index), leaving
/// out its own submodules (see the module docs). A name a module imports
/// (`super::Window`, where `mod.rs` has `use input::Window`) stands for the
/// file it comes from.
fn file_imports(files: &[ModuleFile]) -> Vec<BTreeSet<usize>> {
    let by_module: BTreeMap<&[String], usize> = files
        .iter()
        .enumerate()
        .map(|(index, file)| (file.module.as_slice(), index))
        .collect();
    let imported: Vec<BTreeMap<String, Vec<String>>> = files.iter().map(imported_names).collect();
    let file_of = |full: &[String]| {
        (1..=full.len())
            .rev()
            .find_map(|length| by_module.get(&full[..length]).map(|&file| (file, length)))
    };
    let own_index = |file: &ModuleFile| by_module.get(file.module.as_slice()).copied();
    files
        .iter()
        .map(|file| {
            let mut named = BTreeSet::new();
            // What the file names of its own submodules beyond declaring
            // and re-exporting them: the front calling into its files.
            let front = ModuleFile {
                path: file.path.clone(),
                module: file.module.clone(),
                text: without_reexports(&file.text),
            };
            let mut calls: Vec<Vec<String>> = named_paths(&front);
            for (name, _) in declared_modules(&file.text) {
                for (_, segments) in paths_from(&front.text, &name) {
                    calls.push([file.module.clone(), vec![name.clone()], segments].concat());
                }
            }
            let paths = named_paths(file).into_iter().map(|path| (path, false));
            for (mut full, calling) in paths.chain(calls.into_iter().map(|path| (path, true))) {
                // Through re-exports to where the name is made (a few
                // steps at most; a `use` of itself would loop).
                for _ in 0..8 {
                    let Some((target, length)) = file_of(&full) else {
                        break;
                    };
                    let Some(origin) = full.get(length).and_then(|name| imported[target].get(name))
                    else {
                        break;
                    };
                    full = [origin.clone(), full[length + 1..].to_vec()].concat();
                }
                let Some((target, _)) = file_of(&full) else {
                    continue;
                };
                let same_stage = files[target].stage() == file.stage();
                let own_submodule = files[target].module.starts_with(&file.module);
                if same_stage && (calling || !own_submodule) && Some(target) != own_index(file) {
                    named.insert(target);
                }
            }
            named
        })
        .collect()
}

/// The cycles of the graph `edges`: for each set of files that all reach
/// each other, a shortest way from its first file back to it.
fn cycles(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    // Breadth first from each file, remembering where each was reached
    // from.
    let reach_from = |start: usize| {
        let mut from = vec![None; edges.len()];
        let mut queue = VecDeque::from([start]);
        while let Some(node) = queue.pop_front() {
            for &next in &edges[node] {
                if from[next].is_none() {
                    from[next] = Some(node);
                    queue.push_back(next);
                }
            }
        }
        from
    };
    let reached: Vec<Vec<Option<usize>>> = (0..edges.len()).map(reach_from).collect();
    let mut seen = vec![false; edges.len()];
    let mut found = Vec::new();
    for start in 0..edges.len() {
        if seen[start] || reached[start][start].is_none() {
            continue;
        }
        for other in 0..edges.len() {
            if reached[start][other].is_some() && reached[other][start].is_some() {
                seen[other] = true;
            }
        }
        let mut way = vec![start];
        let mut node = start;
        while let Some(previous) = reached[start][node] {
            if previous == start {
                break;
            }
            way.push(previous);
            node = previous;
        }
        way.push(start);
        way.reverse();
        found.push(way);
    }
    found
}

/// The cycles between the files of each stage, as lines to report.
fn cycle_problems(files: &[ModuleFile]) -> Vec<String> {
    cycles(&file_imports(files))
        .into_iter()
        .map(|cycle| {
            let names: Vec<String> = cycle
                .iter()
                .map(|&index| files[index].path.display().to_string())
                .collect();
            format!(
                "the files of `{}` name each other in a cycle: {}",
                files[cycle[0]].stage().unwrap_or("crate"),
                names.join(" -> ")
            )
        })
        .collect()
}

#[test]
fn the_files_of_a_stage_name_each_other_in_no_cycle() {
    let problems = cycle_problems(&crate_files(&src()));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_cycle_check_sees_two_siblings_and_leaves_the_module_tree_alone() {
    let files = [
        // The front: declares and re-exports its files.
        fixture(
            &["s"],
            "mod a;\nmod b;\nmod w;\npub use a::A;\npub(crate) use w::{\n    write,\n};",
        ),
        // Uses its parent's item and a sibling's.
        fixture(&["s", "a"], "use super::{b::B, Front};"),
        fixture(
            &["s", "b"],
            "use crate::s::{\n    self,\n    a::A as Other,\n};",
        ),
        fixture(
            &["s", "w"],
            // `A` is `a.rs`'s, which the front re-exports.
            "use super::{b::B, A};\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
        fixture(
            &["s", "w", "t"],
            "use super::super::a;\nuse crate::s::w::Writer;\nuse crate::other::X;",
        ),
        fixture(&["other"], "use crate::s::a::A;"),
    ];
    let imports = file_imports(&files);
    let expect = |indices: &[usize]| indices.iter().copied().collect::<BTreeSet<_>>();
    assert_eq!(imports[0], expect(&[]), "a module's own files are its tree");
    assert_eq!(imports[1], expect(&[0, 2]));
    assert_eq!(imports[2], expect(&[0, 1]));
    assert_eq!(
        imports[3],
        expect(&[1, 2]),
        "`super::` in an inline module is its file"
    );
    assert_eq!(
        imports[4],
        expect(&[1, 3]),
        "other stages are the layers' business"
    );
    assert_eq!(imports[5], expect(&[]));
    assert_eq!(cycles(&imports), [vec![1, 2, 1]]);
    assert_eq!(
        cycle_problems(&files),
        ["the files of `s` name each other in a cycle: s/a.rs -> s/b.rs -> s/a.rs"]
    );
}

#[test]
fn a_front_that_calls_its_files_holds_nothing_they_name() {
    let files = [
        // Calls into `w` (by a relative path and through `self::`) and
        // holds `Event`, which `w` names: the import runs back up.
        fixture(
            &["s"],
            "mod leaf;\nmod w;\nuse w::Writer;\npub struct Event;\nfn f() { self::w::write() }",
        ),
        fixture(&["s", "w"], "use super::Event;\npub struct Writer;"),
        // Names only a leaf file: no way back.
        fixture(&["s", "leaf"], "pub struct Leaf;"),
    ];
    let imports = file_imports(&files);
    let expect = |indices: &[usize]| indices.iter().copied().collect::<BTreeSet<_>>();
    assert_eq!(imports[0], expect(&[1]), "the front's calls are imports");
    assert_eq!(imports[1], expect(&[0]));
    assert_eq!(
        cycle_problems(&files),
        ["the files of `s` name each other in a cycle: s.rs -> s/w.rs -> s.rs"]
    );
}
