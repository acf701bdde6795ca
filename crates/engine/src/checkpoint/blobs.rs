//! The content-addressed blob directory: `blobs/<2 hex>/<62 hex>`, each file the exact bytes whose BLAKE3 hash
//! names it. Blobs are immutable; a blob that exists is never written again.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The blob directory of a checkpoint store.
#[derive(Debug, Clone)]
pub struct Blobs {
    root: PathBuf,
}

impl Blobs {
    pub fn new(root: PathBuf) -> Self {
        Self { root }
    }

    /// Where the blob for `hash` lives.
    pub fn path(&self, hash: &str) -> PathBuf {
        let (head, tail) = hash.split_at(hash.len().min(2));
        self.root.join(head).join(tail)
    }

    /// Keeps `bytes` (whose hash is `hash`). When `source` is given and is the only name of its file, the blob is a
    /// hard link to it instead of a copy: callers pass it only when they are about to replace `source` by a rename,
    /// so the old file lives on only as the blob.
    pub fn put(&self, hash: &str, bytes: &[u8], source: Option<&Path>) -> io::Result<()> {
        let dest = self.path(hash);
        if dest.exists() {
            return Ok(());
        }
        let dir = dest.parent().unwrap_or(&self.root);
        fs::create_dir_all(dir)?;
        let tmp = dir.join(format!(".{:016x}.tmp", rand::random::<u64>()));
        let linked = source.is_some_and(|src| single_link(src) && fs::hard_link(src, &tmp).is_ok());
        if !linked && let Err(e) = fs::write(&tmp, bytes) {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        fs::rename(&tmp, &dest).inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })
    }

    /// The bytes of the blob `hash`.
    pub fn get(&self, hash: &str) -> io::Result<Vec<u8>> {
        fs::read(self.path(hash))
    }
}

#[cfg(unix)]
fn single_link(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.nlink() == 1)
}

#[cfg(not(unix))]
fn single_link(_path: &Path) -> bool {
    false
}
