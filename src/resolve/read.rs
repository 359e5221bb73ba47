//! Reading one local file for a resolver: only a regular file (never a
//! device or a pipe, which could block or never end), and never more than
//! a bound, checked on its size before anything is read and held while
//! reading (a file that grows meanwhile is cut off and refused). A leaf of
//! `resolve`: it hands back the bytes or the [`Refusal`].

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::external::Refusal;

/// The bytes of the regular file at `path`, at most `max_bytes` of them;
/// `name` is what a refusal calls it.
pub fn read_bounded(path: &Path, name: &str, max_bytes: usize) -> Result<Vec<u8>, Refusal> {
    let unreadable = |why: String| Refusal::Unreadable(name.to_owned(), why);
    // Asked before opening: opening a pipe would wait for a writer.
    let metadata = std::fs::metadata(path).map_err(|e| unreadable(e.to_string()))?;
    if !metadata.is_file() {
        return Err(unreadable("not a regular file".into()));
    }
    let file = File::open(path).map_err(|e| unreadable(e.to_string()))?;
    let metadata = file.metadata().map_err(|e| unreadable(e.to_string()))?;
    let too_large = || unreadable(format!("larger than the limit of {max_bytes} bytes"));
    if !metadata.is_file() {
        return Err(unreadable("not a regular file".into()));
    }
    if metadata.len() > max_bytes as u64 {
        return Err(too_large());
    }
    let expected = usize::try_from(metadata.len()).unwrap_or(max_bytes);
    let mut bytes = Vec::with_capacity(expected);
    let bound = (max_bytes as u64).saturating_add(1);
    file.take(bound)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(e.to_string()))?;
    if bytes.len() > max_bytes {
        return Err(too_large());
    }
    Ok(bytes)
}
