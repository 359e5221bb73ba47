//! The runner's inputs: the files the paths on the command line name
//! (`expand_paths`: files as given, `-` for standard input, the XML files
//! of directories with `-r`), and each one opened (`Opened`), to read
//! whole or as a stream.
//!
//! It uses the options' `Error` to name a file it cannot read.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::options::{read_error, Error};

/// An input of a command that takes many: a file to read, or why a path
/// cannot be one.
pub enum Input {
    File(PathBuf),
    Unusable(String),
}

/// The extensions `-r` takes for XML files.
const XML_EXTENSIONS: &[&str] = &[
    "xml", "svg", "xhtml", "rss", "atom", "xsl", "xslt", "xsd", "kml", "gpx", "plist", "opf",
    "xlf", "resx", "csproj",
];

/// The files `paths` name, in order: files as given, the XML files of
/// directories (with `-r`) in name order, depth first, without recursion,
/// following links to directories and reading each directory once.
/// A directory without `-r` (`recursive`) is a hint in the subcommand's
/// own words: its `name` and what it does to files (`verb`).
pub fn expand_paths(paths: &[PathBuf], recursive: bool, name: &str, verb: &str) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" || !path.is_dir() {
            inputs.push(Input::File(path.clone()));
            continue;
        }
        if !recursive {
            inputs.push(Input::Unusable(format!(
                "{} is a directory (use `xml5dom {} -r` to {} the XML files in it)",
                path.display(),
                name,
                verb
            )));
            continue;
        }
        // Directories still to read, the next one last.
        let mut pending = vec![path.clone()];
        // Each directory is read once, where the walk first meets it: links
        // to directories are followed, and two links to a parent would
        // otherwise double the walk at every level (a hang).
        let mut read = std::collections::HashSet::new();
        while let Some(directory) = pending.pop() {
            if let Ok(canonical) = std::fs::canonicalize(&directory) {
                if !read.insert(canonical) {
                    continue;
                }
            }
            let entries = match std::fs::read_dir(&directory) {
                Ok(entries) => entries,
                Err(error) => {
                    inputs.push(Input::Unusable(format!(
                        "cannot read directory {}: {error}",
                        directory.display()
                    )));
                    continue;
                }
            };
            // The entry's own file type: no second look at each file.
            let mut names: Vec<(PathBuf, bool)> = entries
                .filter_map(|e| e.ok())
                .map(|e| {
                    let path = e.path();
                    let is_dir = match e.file_type() {
                        Ok(kind) if kind.is_symlink() => path.is_dir(),
                        Ok(kind) => kind.is_dir(),
                        Err(_) => false,
                    };
                    (path, is_dir)
                })
                .collect();
            names.sort();
            let mut subdirectories = Vec::new();
            for (name, is_dir) in names {
                if is_dir {
                    subdirectories.push(name);
                } else if name
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| XML_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
                {
                    inputs.push(Input::File(name));
                }
            }
            // Depth first, in name order: the first subdirectory is read
            // next.
            pending.extend(subdirectories.into_iter().rev());
        }
    }
    inputs
}

/// An input file, open: a command that needs the document reads it whole
/// ([`bytes`](Opened::bytes)); one that streams reads it as it goes.
pub struct Opened<'a> {
    pub path: &'a Path,
    pub reader: Box<dyn Read + 'a>,
    /// The file's size as opening found it (none for standard input).
    pub size: Option<u64>,
}

impl Opened<'_> {
    /// All of the file, in a buffer of its size, as `std::fs::read` (and
    /// so `Document::from_file`) reads it: the document keeps the buffer
    /// as its source, and one grown by doubling while reading would be up
    /// to twice the file (a 20 MB file in 32 MB, issue 37).
    pub fn bytes(mut self) -> Result<Vec<u8>, Error> {
        let mut bytes = Vec::new();
        if let Some(size) = self.size.and_then(|size| usize::try_from(size).ok()) {
            // Too large to reserve: reading says so, as it fills up.
            let _ = bytes.try_reserve_exact(size);
        }
        self.reader
            .read_to_end(&mut bytes)
            .map_err(|source| read_error(self.path, source))?;
        // Standard input, or a file that grew while it was read.
        bytes.shrink_to_fit();
        Ok(bytes)
    }
}

/// Opens a file, or standard input for `-`, and tells its size (that of a
/// file).
pub fn open(path: &Path) -> Result<(Box<dyn Read + '_>, Option<u64>), Error> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let file = std::fs::File::open(path).map_err(|source| read_error(path, source))?;
    let size = file.metadata().ok().map(|metadata| metadata.len());
    Ok((Box::new(file), size))
}
