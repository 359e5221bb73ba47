//! Writing a file back in place (`fmt --in-place`): through a temporary
//! file renamed over it, or copied into it where it has other hard links;
//! and `Comparison`, the writer that tells whether output equals a file's
//! bytes (`fmt --check`, and an unchanged file is left alone).
//!
//! It uses nothing of the command line's but the standard library.

use std::io::{self, Write};
use std::path::Path;

/// A writer that compares what it is given with `expected`, keeping none of
/// it (`fmt --check`, and `fmt --in-place` to skip unchanged files).
pub struct Comparison<'e> {
    expected: &'e [u8],
    at: usize,
    differs: bool,
}

impl<'e> Comparison<'e> {
    pub fn new(expected: &'e [u8]) -> Comparison<'e> {
        Comparison {
            expected,
            at: 0,
            differs: false,
        }
    }

    /// Everything written was `expected`, all of it.
    pub fn equal(&self) -> bool {
        !self.differs && self.at == self.expected.len()
    }
}

impl Write for Comparison<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.differs {
            let end = self.at + buf.len();
            self.differs = self.expected.get(self.at..end) != Some(buf);
            self.at = end;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes the file at `path` anew with what `write` writes; a file that
/// would not change (its bytes are `old`) is left alone. Returns what
/// `write` returned.
///
/// The output goes to a temporary file beside the file, with its
/// permissions, renamed over it: the file is replaced whole or not at all.
/// A symbolic link is written through: the file it leads to is written,
/// and the link stays a link. A file with other hard links keeps them, as
/// rustfmt, prettier and gofmt keep them: the new content is copied into
/// the file itself (not atomic; if the copy fails, the old content is put
/// back).
pub fn write_in_place<T>(
    path: &Path,
    old: &[u8],
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> Result<T, String> {
    /// Writes to the temporary file and compares with the old bytes.
    struct Both<'a> {
        file: io::BufWriter<std::fs::File>,
        same: Comparison<'a>,
    }
    impl Write for Both<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.same.write_all(buf)?;
            self.file.write_all(buf)?;
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            self.file.flush()
        }
    }

    if path.as_os_str() == "-" {
        return Err("cannot write standard input in place \
                    (`xml5dom fmt -` writes it to standard output)"
            .to_owned());
    }
    let fail = |what: &str, error: io::Error| format!("cannot {what} {}: {error}", path.display());
    // The file itself, wherever symbolic links lead.
    let target = std::fs::canonicalize(path).map_err(|e| fail("read", e))?;
    let metadata = std::fs::metadata(&target).map_err(|e| fail("read", e))?;
    let permissions = metadata.permissions();
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = target.with_file_name(format!(".{name}.xml5dom-{}.tmp", std::process::id()));
    let written = std::fs::File::create(&temporary).and_then(|file| {
        let mut both = Both {
            file: io::BufWriter::new(file),
            same: Comparison::new(old),
        };
        let value = write(&mut both)?;
        both.flush()?;
        Ok((value, both.same.equal()))
    });
    let value = match written {
        Ok((value, true)) => {
            let _ = std::fs::remove_file(&temporary);
            return Ok(value);
        }
        Ok((value, false)) => value,
        Err(error) => {
            let _ = std::fs::remove_file(&temporary);
            return Err(fail("write", error));
        }
    };
    // (`copy` gives the file the temporary's permissions too.)
    let replaced = match std::fs::set_permissions(&temporary, permissions) {
        Err(error) => Err(fail("write", error)),
        Ok(()) if hard_links(&metadata) > 1 => {
            // Into the same file, so that every name of it sees the new
            // content.
            std::fs::copy(&temporary, &target)
                .map(drop)
                .map_err(|error| {
                    let restored = match std::fs::write(&target, old) {
                        Ok(()) => "it is as it was".to_owned(),
                        Err(e) => format!("putting its old content back failed too: {e}"),
                    };
                    format!("cannot write {}: {error}; {restored}", path.display())
                })
        }
        Ok(()) => std::fs::rename(&temporary, &target).map_err(|error| fail("write", error)),
    };
    let _ = std::fs::remove_file(&temporary);
    replaced.map(|()| value)
}

/// How many names (hard links) the file has; 1 where that cannot be known.
fn hard_links(metadata: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        metadata.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        1
    }
}
