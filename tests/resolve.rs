//! The resolvers a caller opts into (`xml5dom::resolve`, docs/resolving.md):
//! that `DirectoryResolver` reads only inside its folders, refusing every
//! probe that would read elsewhere (XXE's `file:///etc/passwd`, `../`
//! escapes, absolute paths, symbolic links out, the network), and finds
//! files against the base and then by their last segment in each folder;
//! that `CatalogResolver` maps identifiers as OASIS XML Catalogs 1.1 §7
//! says, with every entry kind, `nextCatalog` chains and loops,
//! delegation, `prefer`, `group` and `xml:base`.
//!
//! The fixtures are under tests/resolve/: `dtd/` and `docs/` for the
//! folders, `catalogs/` and the `targets/` they map to, each target a
//! comment naming itself. Where libxml2 implements the same entry,
//! `xmlcatalog CATALOG ID` (libxml2 2.9.14) gives the same mapping for
//! these catalogs (it has no `systemSuffix`). Tests that need symbolic
//! links or secrets make their folders in a temporary directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use xml5dom::external::{ExternalKind, ExternalRequest, Refusal, Resolver};
use xml5dom::resolve::{catalog_files, CatalogResolver, DirectoryResolver};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/resolve")
}

fn fixture(path: &str) -> PathBuf {
    fixtures().join(path)
}

/// A folder of its own under the system's temporary directory, removed
/// when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "xml5dom-resolve-{label}-{}-{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a temporary folder");
        TempDir(path)
    }

    fn write(&self, path: &str, text: &str) -> PathBuf {
        let path = self.0.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(&path, text).expect("a file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What `resolver` reads for `system_id` read from `base`, as text.
fn read(resolver: &dyn Resolver, base: Option<&str>, system_id: &str) -> Result<String, Refusal> {
    let mut request = ExternalRequest::new(ExternalKind::GeneralEntity, system_id);
    request.base = base;
    let resolved = resolver.resolve(&request)?;
    Ok(String::from_utf8(resolved.bytes).expect("UTF-8 fixtures"))
}

/// What `resolver` reads for an external identifier, as the fixture's
/// comment says it: `<!-- public -->` is `public`.
fn target(
    resolver: &dyn Resolver,
    public_id: Option<&str>,
    system_id: &str,
) -> Result<String, Refusal> {
    let mut request = ExternalRequest::new(ExternalKind::Dtd, system_id);
    request.public_id = public_id;
    let resolved = resolver.resolve(&request)?;
    let text = String::from_utf8(resolved.bytes).expect("UTF-8 fixtures");
    Ok(text
        .trim()
        .trim_start_matches("<!-- ")
        .trim_end_matches(" -->")
        .to_owned())
}

fn path_text(path: &Path) -> String {
    path.to_str().expect("a UTF-8 path").to_owned()
}

// ---------------------------------------------------------------------------
// DirectoryResolver: confinement
// ---------------------------------------------------------------------------

const SECRET: &str = "SECRET: the sibling folder's content";

/// A root with a document and a DTD, and beside it a folder with a
/// secret; symbolic links in the root lead to the secret.
struct Probed {
    dir: TempDir,
    root: PathBuf,
    secret: PathBuf,
}

fn probed() -> Probed {
    let dir = TempDir::new("probe");
    dir.write("root/doc.xml", "<!DOCTYPE doc SYSTEM 'doc.dtd'><doc/>");
    dir.write("root/doc.dtd", "<!ENTITY e 'inside'>");
    dir.write("root/sub/inner.ent", "inner");
    let secret = dir.write("secret/secret.txt", SECRET);
    let root = dir.0.join("root");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, root.join("link")).expect("a link");
        std::os::unix::fs::symlink(dir.0.join("secret"), root.join("folder-link")).expect("a link");
        std::os::unix::fs::symlink("../../secret/secret.txt", root.join("sub/relative-link"))
            .expect("a link");
    }
    Probed { dir, root, secret }
}

#[test]
fn every_probe_outside_the_roots_is_refused_and_the_secret_never_read() {
    let Probed { dir, root, secret } = probed();
    let resolver = DirectoryResolver::new([&root]);
    let base = path_text(&root.join("doc.xml"));
    let secret_path = path_text(&secret);
    let canonical_secret = path_text(&std::fs::canonicalize(&secret).unwrap());
    let mut probes = vec![
        "file:///etc/passwd".to_owned(),
        "/etc/passwd".to_owned(),
        "../../../../../../../../etc/passwd".to_owned(),
        "../secret/secret.txt".to_owned(),
        "sub/../../secret/secret.txt".to_owned(),
        "%2e%2e/secret/secret.txt".to_owned(),
        "..%2Fsecret%2Fsecret.txt".to_owned(),
        secret_path.clone(),
        canonical_secret.clone(),
        format!("file://{canonical_secret}"),
        format!("file://localhost{canonical_secret}"),
        format!("file:{canonical_secret}"),
        format!("{}/../secret/secret.txt", path_text(&root)),
        "file://otherhost/etc/passwd".to_owned(),
    ];
    if cfg!(unix) {
        probes.extend(["link", "folder-link/secret.txt", "sub/relative-link"].map(String::from));
    }
    for probe in &probes {
        for base in [Some(base.as_str()), None] {
            let refusal = read(&resolver, base, probe).expect_err(probe);
            // Without a base, a relative probe is looked for by its last
            // segment in the root only, where it is not (or is the link).
            let relative = !probe.contains(':') && !probe.starts_with('/');
            let expected = match (base, relative) {
                (None, true) => matches!(refusal, Refusal::NotFound(_) | Refusal::NotAllowed(_)),
                _ => matches!(refusal, Refusal::NotAllowed(_)),
            };
            assert!(expected, "{probe} from {base:?}: {refusal:?}");
            assert!(
                !refusal.to_string().contains("SECRET"),
                "{probe}: {refusal}"
            );
        }
    }
    // What is inside is read, through the same resolver.
    assert_eq!(
        read(&resolver, Some(&base), "doc.dtd").unwrap(),
        "<!ENTITY e 'inside'>"
    );
    // With the secret's folder as a root, the same probes read it: the
    // refusals above come from the roots, not from the probes' shape.
    let both = DirectoryResolver::new([&root, &dir.0.join("secret")]);
    assert_eq!(
        read(&both, Some(&base), "../secret/secret.txt").unwrap(),
        SECRET
    );
    #[cfg(unix)]
    assert_eq!(read(&both, Some(&base), "link").unwrap(), SECRET);
}

#[test]
fn network_identifiers_are_refused_even_when_a_root_has_their_last_segment() {
    let probe = probed();
    let root = probe.root.clone();
    let resolver = DirectoryResolver::new([&root]);
    let base = path_text(&root.join("doc.xml"));
    for id in [
        "http://example.com/doc.dtd",
        "https://example.com/doc.dtd",
        "ftp://example.com/doc.dtd",
        "HTTP://example.com/doc.dtd",
        "jar:file:///x.jar!/doc.dtd",
        "urn:publicid:-:X:DTD+Doc:EN",
        "gopher://example.com/doc.dtd",
    ] {
        let refusal = read(&resolver, Some(&base), id).expect_err(id);
        assert!(
            matches!(refusal, Refusal::NotAllowed(_)),
            "{id}: {refusal:?}"
        );
    }
}

#[test]
fn a_base_that_is_not_local_gives_no_folder_to_resolve_against() {
    let probe = probed();
    let root = probe.root.clone();
    let resolver = DirectoryResolver::new([&root]);
    // `sub/inner.ent` is only found against a base in the root: by its
    // last segment, `inner.ent`, it is in no root.
    let base = path_text(&root.join("doc.xml"));
    assert_eq!(
        read(&resolver, Some(&base), "sub/inner.ent").unwrap(),
        "inner"
    );
    let uri_base = format!(
        "file://{}",
        path_text(&std::fs::canonicalize(&root).unwrap())
    );
    assert_eq!(
        read(
            &resolver,
            Some(&format!("{uri_base}/doc.xml")),
            "sub/inner.ent"
        )
        .unwrap(),
        "inner"
    );
    for base in [None, Some("http://example.com/doc.xml"), Some("mem:doc")] {
        let refusal = read(&resolver, base, "sub/inner.ent").expect_err("no base folder");
        assert!(
            matches!(refusal, Refusal::NotFound(_)),
            "{base:?}: {refusal:?}"
        );
    }
}

#[test]
fn a_resolver_without_a_root_reads_nothing() {
    let probe = probed();
    let root = probe.root.clone();
    let resolver = DirectoryResolver::new([root.join("no-such-folder"), root.join("doc.xml")]);
    assert!(resolver.roots().is_empty());
    let base = path_text(&root.join("doc.xml"));
    let refusal = read(&resolver, Some(&base), "doc.dtd").expect_err("no root");
    assert!(matches!(refusal, Refusal::NotFound(_)), "{refusal:?}");
    let refusal = read(&resolver, Some(&base), &base).expect_err("no root");
    assert!(matches!(refusal, Refusal::NotAllowed(_)), "{refusal:?}");
}

// ---------------------------------------------------------------------------
// DirectoryResolver: finding files
// ---------------------------------------------------------------------------

#[test]
fn an_identifier_is_resolved_against_the_base_first() {
    let resolver = DirectoryResolver::new([fixtures()]);
    let base = path_text(&fixture("docs/book.xml"));
    let mut request = ExternalRequest::new(ExternalKind::Dtd, "../dtd/book.dtd");
    request.base = Some(&base);
    let resolved = resolver.resolve(&request).unwrap();
    assert_eq!(resolved.bytes, b"<!ENTITY title \"Dune\">\n");
    let canonical = std::fs::canonicalize(fixture("dtd/book.dtd")).unwrap();
    assert_eq!(resolved.uri, path_text(&canonical));

    // `local/common.ent` from docs/ is docs/local/common.ent, though
    // dtd/common.ent has the same last segment.
    let roots = DirectoryResolver::new([fixture("dtd"), fixture("docs/local")]);
    assert_eq!(
        read(&roots, Some(&base), "local/common.ent").unwrap(),
        "<!ENTITY common \"from docs/local/\">\n"
    );
    // With no base, by the last segment in the roots, in their order.
    assert_eq!(
        read(&roots, None, "local/common.ent").unwrap(),
        "<!ENTITY common \"from dtd/\">\n"
    );
    let reversed = DirectoryResolver::new([fixture("docs/local"), fixture("dtd")]);
    assert_eq!(
        read(&reversed, None, "local/common.ent").unwrap(),
        "<!ENTITY common \"from docs/local/\">\n"
    );
}

#[test]
fn an_identifier_not_beside_its_base_is_found_by_its_last_segment_in_a_root() {
    // As `xmllint --path`: a relative path, an absolute one, a file: URI.
    let resolver = DirectoryResolver::new([fixture("dtd/sub"), fixture("dtd")]);
    let base = path_text(&fixture("docs/book.xml"));
    for id in [
        "schemas/book.dtd",
        "book.dtd",
        "/nowhere/book.dtd",
        "file:///nowhere/at/all/book.dtd",
    ] {
        assert_eq!(
            read(&resolver, Some(&base), id).unwrap(),
            "<!ENTITY title \"Dune\">\n",
            "{id}"
        );
    }
    let refusal = read(&resolver, Some(&base), "schemas/none.dtd").expect_err("missing");
    assert!(matches!(refusal, Refusal::NotFound(_)), "{refusal:?}");
}

#[test]
fn identifiers_inside_a_resolved_file_resolve_from_its_uri() {
    let resolver = DirectoryResolver::new([fixture("dtd")]);
    let book = resolver
        .resolve(&ExternalRequest::new(ExternalKind::Dtd, "book.dtd"))
        .unwrap();
    assert_eq!(
        read(&resolver, Some(&book.uri), "sub/chapter.ent").unwrap(),
        "<!ENTITY chapter \"One\">\n"
    );
}

#[test]
fn missing_files_and_folders_are_not_found() {
    let resolver = DirectoryResolver::new([fixture("dtd")]);
    let base = path_text(&fixture("dtd/book.dtd"));
    for id in ["missing.dtd", "sub", "sub/", ".", "", "sub/missing/x.dtd"] {
        let refusal = read(&resolver, Some(&base), id).expect_err(id);
        assert!(
            matches!(refusal, Refusal::NotFound(_)),
            "{id:?}: {refusal:?}"
        );
    }
}

#[test]
fn a_file_over_the_bound_is_refused() {
    let dir = TempDir::new("bound");
    dir.write("big.ent", "0123456789");
    let base = path_text(&dir.0.join("doc.xml"));
    let exact = DirectoryResolver::new([&dir.0]).max_bytes(10);
    assert_eq!(read(&exact, Some(&base), "big.ent").unwrap(), "0123456789");
    let small = DirectoryResolver::new([&dir.0]).max_bytes(9);
    match read(&small, Some(&base), "big.ent") {
        Err(Refusal::Unreadable(_, why)) => assert!(why.contains("limit of 9 bytes"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[cfg(unix)]
#[test]
fn a_pipe_inside_a_root_is_refused_without_waiting_for_a_writer() {
    let dir = TempDir::new("fifo");
    let fifo = dir.0.join("pipe.ent");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    let resolver = DirectoryResolver::new([&dir.0]);
    let base = path_text(&dir.0.join("doc.xml"));
    // A hang guard: opening the pipe to read would wait forever.
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(read(&resolver, Some(&base), "pipe.ent"));
    });
    let result = receive
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the resolver returned");
    match result {
        Err(Refusal::Unreadable(_, why)) => assert_eq!(why, "not a regular file"),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------
// CatalogResolver
// ---------------------------------------------------------------------------

fn catalog(name: &str) -> CatalogResolver {
    CatalogResolver::from_files([fixture("catalogs").join(name)])
}

#[test]
fn public_system_rewrite_suffix_and_uri_entries_map_identifiers() {
    let main = catalog("main.xml");
    assert!(main.problems().is_empty(), "{:?}", main.problems());
    let cases: &[(Option<&str>, &str, &str)] = &[
        (Some("-//Example//DTD Public//EN"), "unlisted.dtd", "public"),
        (Some("  -//Example//DTD\n  Public//EN "), "", "public"),
        (None, "http://example.com/dtd/system.dtd", "system"),
        // A system entry before any rewrite, though two prefixes match.
        (None, "http://example.com/r/long/exact.dtd", "system"),
        // The longest rewriteSystem prefix, the rest of the identifier
        // kept.
        (None, "http://example.com/r/long/a.dtd", "long"),
        (None, "http://example.com/r/a.dtd", "short"),
        // The longest systemSuffix.
        (None, "http://x.example/deep/suffix.dtd", "suffix-long"),
        (None, "http://x.example/other/suffix.dtd", "suffix-short"),
        // No external-identifier entry: the uri entries, as libxml2 does.
        (None, "http://example.com/uri.dtd", "uri"),
        // §6.4: urn:publicid: unwrapped, as a public or system identifier.
        (
            Some("urn:publicid:-:Example:DTD+Urn:EN"),
            "x.dtd",
            "public-urn",
        ),
        (None, "urn:publicid:-:Example:DTD+Urn:EN", "public-urn"),
        // A system identifier's match comes before a public one's.
        (
            Some("-//Example//DTD Public//EN"),
            "http://example.com/dtd/system.dtd",
            "system",
        ),
    ];
    for &(public, system, want) in cases {
        assert_eq!(
            target(&main, public, system).as_deref(),
            Ok(want),
            "{public:?} {system:?}"
        );
    }
    let refusal = target(&main, Some("-//Example//DTD Unknown//EN"), "none.dtd").unwrap_err();
    assert!(matches!(refusal, Refusal::NotFound(_)), "{refusal:?}");
}

#[test]
fn lookups_give_absolute_file_uris_against_the_catalog() {
    let main = catalog("main.xml");
    let targets = std::fs::canonicalize(fixture("targets")).unwrap();
    let uri = |path: &str| format!("file://{}/{path}", path_text(&targets));
    let lookup = |public, system| main.lookup(public, system);
    assert_eq!(
        lookup(Some("-//Example//DTD Public//EN"), None),
        Some(uri("public.dtd"))
    );
    assert_eq!(
        lookup(None, Some("http://example.com/r/long/sub/x.dtd")),
        Some(uri("long/sub/x.dtd"))
    );
    assert_eq!(
        main.lookup_uri("http://example.com/uri.dtd"),
        Some(uri("uri.dtd"))
    );
    assert_eq!(lookup(None, Some("http://example.com/uri.dtd")), None);
    assert_eq!(
        main.lookup_uri("urn:publicid:-:Example:DTD+Public:EN"),
        Some(uri("public.dtd"))
    );
}

#[test]
fn a_mapping_to_the_network_is_refused_and_one_to_a_missing_file_is_final() {
    let fallback = DirectoryResolver::new([fixture("targets")]);
    let main = catalog("main.xml").with_fallback(fallback);
    let refusal = target(&main, None, "http://example.com/remote.dtd").unwrap_err();
    match refusal {
        Refusal::NotAllowed(why) => assert!(
            why.contains("http://mirror.example.com/remote.dtd"),
            "{why}"
        ),
        other => panic!("{other:?}"),
    }
    // The catalog maps it to a file that is not there: not found, and not
    // looked for by the fallback, which has a file of that name.
    let refusal = target(&main, None, "mapped-to-nothing.dtd").unwrap_err();
    assert!(matches!(refusal, Refusal::NotFound(_)), "{refusal:?}");
    let fallback = DirectoryResolver::new([fixture("targets")]);
    assert_eq!(
        target(&fallback, None, "mapped-to-nothing.dtd").as_deref(),
        Ok("the fallback's copy")
    );
}

#[test]
fn what_no_catalog_maps_goes_to_the_fallback() {
    let plain = catalog("main.xml");
    let refusal = target(&plain, None, "fallback-only.dtd").unwrap_err();
    assert!(matches!(refusal, Refusal::NotFound(_)), "{refusal:?}");
    let with = catalog("main.xml").with_fallback(DirectoryResolver::new([fixture("targets")]));
    assert_eq!(
        target(&with, None, "fallback-only.dtd").as_deref(),
        Ok("fallback-only")
    );
    // The fallback keeps its confinement: an http: identifier no catalog
    // maps is refused.
    let refusal = target(&with, None, "http://example.com/fallback-only.dtd").unwrap_err();
    assert!(matches!(refusal, Refusal::NotAllowed(_)), "{refusal:?}");
}

#[test]
fn prefer_system_keeps_public_entries_from_requests_with_a_system_identifier() {
    let prefer = catalog("prefer.xml");
    let system_only = Some("-//Example//DTD Prefer System//EN");
    let public_group = Some("-//Example//DTD Prefer Public//EN");
    // §4.1.1: with a system identifier, only entries under prefer="public".
    assert!(target(&prefer, system_only, "x.dtd").is_err());
    assert_eq!(
        target(&prefer, public_group, "x.dtd").as_deref(),
        Ok("second")
    );
    // Without one, every public entry.
    assert_eq!(target(&prefer, system_only, "").as_deref(), Ok("first"));
    assert!(prefer.lookup(system_only, None).is_some());
    assert_eq!(prefer.lookup(system_only, Some("x.dtd")), None);
}

#[test]
fn group_and_xml_base_change_where_uris_point() {
    let group = catalog("group.xml");
    assert_eq!(target(&group, None, "grouped.dtd").as_deref(), Ok("group"));
    // The group's base ends with it.
    assert_eq!(
        target(&group, None, "after-group.dtd").as_deref(),
        Ok("first")
    );
}

#[test]
fn next_catalogs_are_asked_in_order_after_the_catalog_that_names_them() {
    let chain = catalog("chain-1.xml");
    assert_eq!(target(&chain, None, "in-both.dtd").as_deref(), Ok("first"));
    // Found in the second, its URI relative to the second.
    assert_eq!(
        target(&chain, None, "only-in-second.dtd").as_deref(),
        Ok("next")
    );
    // The next catalogs in the order named: the third after the second.
    assert_eq!(
        target(&chain, None, "only-in-third.dtd").as_deref(),
        Ok("second")
    );
    // The http: next catalog is not read, and says so.
    let problems: Vec<String> = chain.problems().iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]
            .ends_with("http://example.com/never-read.xml is not read (catalogs are local files)"),
        "{problems:?}"
    );
    // A catalog named before its next catalog is asked first; the next
    // catalog named first wins over the one that names it.
    let both = CatalogResolver::from_files([
        fixture("catalogs/next/chain-2.xml"),
        fixture("catalogs/chain-1.xml"),
    ]);
    assert_eq!(target(&both, None, "in-both.dtd").as_deref(), Ok("second"));
}

#[test]
fn a_loop_of_next_catalogs_ends() {
    let looped = catalog("loop-a.xml");
    assert!(looped.problems().is_empty(), "{:?}", looped.problems());
    assert_eq!(target(&looped, None, "loop-a.dtd").as_deref(), Ok("loop-a"));
    assert_eq!(target(&looped, None, "loop-b.dtd").as_deref(), Ok("loop-b"));
    assert!(target(&looped, None, "nowhere.dtd").is_err());
    assert_eq!(
        looped.lookup(Some("-//None//EN"), Some("nowhere.dtd")),
        None
    );
    let twice = CatalogResolver::from_files([
        fixture("catalogs/loop-b.xml"),
        fixture("catalogs/loop-a.xml"),
        fixture("catalogs/loop-b.xml"),
    ]);
    assert_eq!(target(&twice, None, "loop-a.dtd").as_deref(), Ok("loop-a"));
}

#[test]
fn delegation_asks_only_the_delegated_catalogs() {
    let delegate = catalog("delegate.xml");
    assert_eq!(
        target(&delegate, Some("-//Delegated//DTD A//EN"), "").as_deref(),
        Ok("delegated")
    );
    assert_eq!(
        target(&delegate, None, "http://delegated.example.com/a.dtd").as_deref(),
        Ok("delegated")
    );
    // §7.1.2 step 7: delegated, then not found there, is not found, though
    // the next catalog has it.
    assert!(target(&delegate, Some("-//Delegated//DTD B//EN"), "").is_err());
    // A public identifier no delegate matches goes on to the next catalog.
    assert_eq!(
        target(&delegate, Some("-//Not Delegated//DTD C//EN"), "").as_deref(),
        Ok("second")
    );
}

#[test]
fn a_catalog_that_delegates_to_itself_ends() {
    let looped = catalog("delegate-loop.xml");
    assert!(looped.problems().is_empty(), "{:?}", looped.problems());
    assert_eq!(looped.lookup(None, Some("loop:x")), None);
    assert_eq!(looped.lookup(Some("-//Loop//X"), Some("loop:x")), None);
    assert_eq!(looped.lookup_uri("urn:publicid:-:Loop:X"), None);
}

#[test]
fn a_broken_catalog_is_used_as_far_as_it_reads() {
    let broken = catalog("broken.xml");
    assert_eq!(
        target(&broken, None, "broken-first.dtd").as_deref(),
        Ok("first")
    );
    assert_eq!(
        target(&broken, None, "broken-second.dtd").as_deref(),
        Ok("second")
    );
    let problems: Vec<String> = broken
        .problems()
        .iter()
        .map(|p| p.message.clone())
        .collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("not well-formed"), "{problems:?}");
    assert!(
        problems[1].starts_with("cannot read the catalog "),
        "{problems:?}"
    );
}

#[test]
fn a_missing_catalog_is_a_problem_not_an_error() {
    let missing = fixture("catalogs/missing.xml");
    let resolver = CatalogResolver::from_files([missing.clone(), fixture("catalogs/group.xml")]);
    assert_eq!(resolver.problems().len(), 1);
    assert_eq!(resolver.problems()[0].catalog, missing);
    assert_eq!(
        target(&resolver, None, "grouped.dtd").as_deref(),
        Ok("group")
    );
    let none = CatalogResolver::from_files(Vec::<PathBuf>::new());
    assert!(target(&none, None, "grouped.dtd").is_err());
}

#[test]
fn xml_catalog_files_is_read_as_libxml2_reads_it() {
    assert_eq!(catalog_files(""), Vec::<PathBuf>::new());
    assert_eq!(
        catalog_files("a.xml  /etc/xml/catalog\tfile:///opt/c%20d.xml\nhttp://example.com/c.xml file://host/x.xml"),
        [
            PathBuf::from("a.xml"),
            PathBuf::from("/etc/xml/catalog"),
            PathBuf::from("/opt/c d.xml")
        ]
    );
    // The list builds a resolver of those catalogs, in order.
    let value = format!(
        "{} file://{}",
        path_text(&fixture("catalogs/chain-1.xml")),
        path_text(&std::fs::canonicalize(fixture("catalogs/group.xml")).unwrap())
    );
    let resolver = CatalogResolver::from_files(catalog_files(&value));
    assert_eq!(
        target(&resolver, None, "only-in-second.dtd").as_deref(),
        Ok("next")
    );
    assert_eq!(
        target(&resolver, None, "grouped.dtd").as_deref(),
        Ok("group")
    );
}
