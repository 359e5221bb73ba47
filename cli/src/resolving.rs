//! The flags that let a parse read files beyond its input (`--load-dtd`,
//! `--dtd-path`, `--catalog`), what they ask for (`Plan`, with
//! `XML_CATALOG_FILES` read only when one of them is given), and the
//! library's resolvers they make (`Resolving`), set in each input's parse
//! options with the input's path as the base. Nothing is ever read from
//! the network: there is no flag for it.
//!
//! It uses the options' `Error`; the context uses it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use xml5dom::external::Resolver;
use xml5dom::resolve::{catalog_files, CatalogResolver, DirectoryResolver};
use xml5dom::ParseOptions;

use crate::options::Error;

/// What a parse may read besides its input. None of it is read unless one
/// of these flags is given.
#[derive(Args, Debug, Clone, Default)]
#[command(
    next_help_heading = "External files (read only with these flags; nothing is ever fetched from the network)"
)]
pub struct ResolveArgs {
    /// Read the external DTD subset (`<!DOCTYPE book SYSTEM "book.dtd">`)
    /// for its entities and default attributes, as xmllint's `--loaddtd`
    /// and lxml's `load_dtd`. Without --dtd-path or --catalog, files are
    /// read only from each input's own folder and below (standard input's:
    /// the current folder). Example: `xml5dom check --load-dtd book.xml`.
    #[arg(long, global = true)]
    load_dtd: bool,
    /// Read external entities (and, with --load-dtd, DTDs) from files in
    /// DIR and below, and nowhere else: a system identifier is looked for
    /// beside the file that refers to it (if that is in a DIR), then by its
    /// file name in each DIR in turn (as xmllint's `--path`). Repeatable.
    /// Example: `--dtd-path schemas/`.
    #[arg(long, global = true, value_name = "DIR")]
    dtd_path: Vec<PathBuf>,
    /// Map public and system identifiers to local files with this OASIS
    /// XML catalog (and the catalogs it names), before --dtd-path; the
    /// catalogs of XML_CATALOG_FILES (paths or file: URIs, separated by
    /// spaces) are asked after these, when any of these flags is given.
    /// Repeatable. Example: `--catalog /etc/xml/catalog`.
    #[arg(long, global = true, value_name = "FILE")]
    catalog: Vec<PathBuf>,
}

/// Where files may be read from besides what catalogs map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Folders {
    /// Only what catalogs map.
    None,
    /// These folders (`--dtd-path`).
    Given(Vec<PathBuf>),
    /// Each input's own folder (`--load-dtd` alone).
    InputsOwn,
}

/// What the flags ask for, before any file is looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// `--load-dtd`.
    pub load_dtd: bool,
    /// The catalogs: `--catalog`'s, then `XML_CATALOG_FILES`'.
    pub catalogs: Vec<PathBuf>,
    /// How many of `catalogs` `--catalog` named (each must exist).
    pub named_catalogs: usize,
    /// The folders files may be read from.
    pub folders: Folders,
}

impl ResolveArgs {
    /// What these flags ask for: `None` when none is given, and then
    /// `catalog_files_variable` (the value of `XML_CATALOG_FILES`) is not
    /// asked for.
    pub fn plan(&self, catalog_files_variable: impl FnOnce() -> Option<String>) -> Option<Plan> {
        if !self.load_dtd && self.dtd_path.is_empty() && self.catalog.is_empty() {
            return None;
        }
        let mut catalogs = self.catalog.clone();
        if let Some(value) = catalog_files_variable() {
            catalogs.extend(catalog_files(&value));
        }
        let folders = match (self.dtd_path.is_empty(), self.catalog.is_empty()) {
            (false, _) => Folders::Given(self.dtd_path.clone()),
            (true, true) => Folders::InputsOwn,
            (true, false) => Folders::None,
        };
        Some(Plan {
            load_dtd: self.load_dtd,
            catalogs,
            named_catalogs: self.catalog.len(),
            folders,
        })
    }
}

/// The resolvers a plan makes, ready for every input.
pub struct Resolving {
    load_dtd: bool,
    catalog: Option<CatalogResolver>,
    folders: Folders,
    /// The resolver of every input, when it does not depend on the input.
    shared: Option<Arc<dyn Resolver>>,
    /// The most bytes an external file may have (`--max-input-bytes`).
    max_bytes: usize,
}

impl Resolving {
    /// The resolvers of `plan`, reading its catalogs (each file at most
    /// `max_bytes`), and what was wrong with the catalogs, one warning
    /// each. A `--catalog` file or `--dtd-path` folder that is not there
    /// is an error.
    pub fn new(plan: Plan, max_bytes: usize) -> Result<(Resolving, Vec<String>), Error> {
        for named in &plan.catalogs[..plan.named_catalogs] {
            if !named.is_file() {
                return Err(Error::Usage(format!(
                    "--catalog {}: no such file",
                    named.display()
                )));
            }
        }
        if let Folders::Given(folders) = &plan.folders {
            if let Some(missing) = folders.iter().find(|folder| !folder.is_dir()) {
                return Err(Error::Usage(format!(
                    "--dtd-path {}: no such folder",
                    missing.display()
                )));
            }
        }
        let catalog = (!plan.catalogs.is_empty())
            .then(|| CatalogResolver::from_files(&plan.catalogs).max_bytes(max_bytes));
        let warnings = catalog
            .iter()
            .flat_map(|catalog| catalog.problems())
            .map(|problem| format!("catalog {problem}"))
            .collect();
        let mut resolving = Resolving {
            load_dtd: plan.load_dtd,
            catalog,
            folders: plan.folders,
            shared: None,
            max_bytes,
        };
        if resolving.folders != Folders::InputsOwn {
            resolving.shared = Some(resolving.resolver(None));
        }
        Ok((resolving, warnings))
    }

    /// The resolver for an input in `own_folder`.
    fn resolver(&self, own_folder: Option<&Path>) -> Arc<dyn Resolver> {
        let folders = match &self.folders {
            Folders::None => None,
            Folders::Given(folders) => Some(DirectoryResolver::new(folders)),
            Folders::InputsOwn => Some(DirectoryResolver::new(own_folder)),
        };
        let folders = folders.map(|folders| folders.max_bytes(self.max_bytes));
        match (self.catalog.clone(), folders) {
            (Some(catalog), Some(folders)) => Arc::new(catalog.with_fallback(folders)),
            (Some(catalog), None) => Arc::new(catalog),
            (None, Some(folders)) => Arc::new(folders),
            // A plan without catalogs has folders.
            (None, None) => Arc::new(DirectoryResolver::new(None::<&Path>)),
        }
    }

    /// Sets in `options` what the parse of the input at `path` may read:
    /// the resolver, whether the DTD is read, and `path` as the base of
    /// its relative system identifiers (none for standard input, `-`).
    pub fn apply(&self, options: &mut ParseOptions, path: &Path) {
        let stdin = path.as_os_str() == "-";
        let resolver = match &self.shared {
            Some(shared) => Arc::clone(shared),
            None => {
                let own_folder = match path.parent() {
                    Some(parent) if !stdin && !parent.as_os_str().is_empty() => parent,
                    _ => Path::new("."),
                };
                self.resolver(Some(own_folder))
            }
        };
        options.external.resolver = Some(resolver);
        options.external.load_dtd = self.load_dtd;
        options.external.base = (!stdin).then(|| path.display().to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        resolve: ResolveArgs,
    }

    fn plan(args: &[&str], variable: Option<&str>) -> Option<Plan> {
        let flags = Flags::try_parse_from(std::iter::once("xml5dom").chain(args.iter().copied()))
            .expect("flags that parse");
        flags.resolve.plan(|| variable.map(str::to_owned))
    }

    fn paths(paths: &[&str]) -> Vec<PathBuf> {
        paths.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn xml_catalog_files_is_read_only_with_a_resolving_flag() {
        let flags = Flags::try_parse_from(["xml5dom"]).unwrap();
        let asked = std::cell::Cell::new(false);
        let none = flags.resolve.plan(|| {
            asked.set(true);
            Some("/etc/xml/catalog".into())
        });
        assert_eq!(none, None);
        assert!(!asked.get(), "XML_CATALOG_FILES was read without a flag");

        let variable = Some("/env/a.xml file:///env/b.xml");
        for args in [
            &["--load-dtd"][..],
            &["--dtd-path", "d"],
            &["--catalog", "c.xml"],
        ] {
            let plan = plan(args, variable).expect("a plan");
            assert_eq!(
                plan.catalogs[plan.named_catalogs..],
                paths(&["/env/a.xml", "/env/b.xml"]),
                "{args:?}"
            );
        }
    }

    #[test]
    fn the_flags_choose_the_folders_and_the_catalogs() {
        let load = plan(&["--load-dtd"], None).unwrap();
        assert_eq!(
            load,
            Plan {
                load_dtd: true,
                catalogs: vec![],
                named_catalogs: 0,
                folders: Folders::InputsOwn,
            }
        );
        // The variable's catalogs do not take the input's own folder away.
        let with_variable = plan(&["--load-dtd"], Some("/env/c.xml")).unwrap();
        assert_eq!(with_variable.folders, Folders::InputsOwn);
        assert_eq!(with_variable.catalogs, paths(&["/env/c.xml"]));

        let given = plan(&["--dtd-path", "a", "--dtd-path", "b"], None).unwrap();
        assert!(!given.load_dtd);
        assert_eq!(given.folders, Folders::Given(paths(&["a", "b"])));

        let catalogs = plan(&["--catalog", "x.xml", "--catalog", "y.xml"], Some("z.xml")).unwrap();
        assert_eq!(catalogs.catalogs, paths(&["x.xml", "y.xml", "z.xml"]));
        assert_eq!(catalogs.named_catalogs, 2);
        assert_eq!(catalogs.folders, Folders::None);

        let both = plan(
            &["--catalog", "x.xml", "--dtd-path", "d", "--load-dtd"],
            None,
        )
        .unwrap();
        assert!(both.load_dtd);
        assert_eq!(both.folders, Folders::Given(paths(&["d"])));
    }

    #[test]
    fn each_input_gets_its_path_as_base_and_its_folder_with_load_dtd_alone() {
        let folder =
            std::env::temp_dir().join(format!("xml5dom-cli-resolving-{}", std::process::id()));
        std::fs::create_dir_all(folder.join("docs")).unwrap();
        std::fs::write(folder.join("docs/book.dtd"), "<!ENTITY t 'x'>").unwrap();
        std::fs::write(folder.join("outside.dtd"), "<!ENTITY t 'y'>").unwrap();
        let (resolving, warnings) =
            Resolving::new(plan(&["--load-dtd"], None).unwrap(), 1 << 20).unwrap();
        assert!(warnings.is_empty());
        let mut options = ParseOptions::default();
        let input = folder.join("docs/book.xml");
        resolving.apply(&mut options, &input);
        assert!(options.external.load_dtd);
        assert_eq!(options.external.base, Some(input.display().to_string()));
        let resolver = options.external.resolver.clone().expect("a resolver");
        let base = input.display().to_string();
        let ask = |id: &str| {
            let mut request =
                xml5dom::external::ExternalRequest::new(xml5dom::external::ExternalKind::Dtd, id);
            request.base = Some(&base);
            resolver.resolve(&request).map(|found| found.bytes)
        };
        assert_eq!(ask("book.dtd").unwrap(), b"<!ENTITY t 'x'>");
        assert!(ask("../outside.dtd").is_err());
        let mut stdin = ParseOptions::default();
        resolving.apply(&mut stdin, Path::new("-"));
        assert_eq!(stdin.external.base, None);
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_named_catalog_or_folder_that_is_not_there_is_an_error() {
        let missing = Resolving::new(
            plan(&["--catalog", "/no/such/catalog.xml"], None).unwrap(),
            1,
        );
        assert_eq!(
            missing.err().map(|e| e.to_string()).as_deref(),
            Some("--catalog /no/such/catalog.xml: no such file")
        );
        let missing = Resolving::new(plan(&["--dtd-path", "/no/such/folder"], None).unwrap(), 1);
        assert_eq!(
            missing.err().map(|e| e.to_string()).as_deref(),
            Some("--dtd-path /no/such/folder: no such folder")
        );
        // One XML_CATALOG_FILES names is a warning.
        let (_, warnings) = Resolving::new(
            plan(&["--load-dtd"], Some("/no/such/env-catalog.xml")).unwrap(),
            1,
        )
        .unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("catalog /no/such/env-catalog.xml: cannot read it"),
            "{warnings:?}"
        );
    }
}
