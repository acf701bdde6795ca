//! The content-addressed blob directory: `blobs/<2 hex>/<62 hex>`, each file the exact bytes whose BLAKE3 hash
//! names it. Blobs are immutable; a blob that exists is never written again.

use std::fs;
use std::io::{self, Write};
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

    /// Keeps `bytes` (whose hash is `hash`) as a copy written to a temporary file, synced and renamed into place.
    /// Never a hard link of the live file: a write cut off before its rename would leave the blob sharing the live
    /// file's bytes, and a later change of that file would change the snapshot.
    pub fn put(&self, hash: &str, bytes: &[u8]) -> io::Result<()> {
        let dest = self.path(hash);
        if dest.exists() {
            return Ok(());
        }
        let dir = dest.parent().unwrap_or(&self.root);
        fs::create_dir_all(dir)?;
        let tmp = dir.join(format!(".{:016x}.tmp", rand::random::<u64>()));
        let written = write_synced(&tmp, bytes).and_then(|()| fs::rename(&tmp, &dest));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written
    }

    /// The bytes of the blob `hash`, checked against the hash: a blob whose bytes no longer match (changed or
    /// damaged on disk) is an error, never restored.
    pub fn get(&self, hash: &str) -> io::Result<Vec<u8>> {
        let bytes = fs::read(self.path(hash))?;
        if blake3::hash(&bytes).to_hex().as_str() != hash {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the snapshot {hash} is damaged: its bytes no longer match their hash"),
            ));
        }
        Ok(bytes)
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_is_a_copy_and_a_changed_blob_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let blobs = Blobs::new(dir.path().join("blobs"));
        let live = dir.path().join("live.txt");
        fs::write(&live, "v1").expect("write");
        let hash = blake3::hash(b"v1").to_hex().to_string();
        blobs.put(&hash, b"v1").expect("put");

        fs::write(&live, "v2 changed in place").expect("change the live file in place");
        assert_eq!(blobs.get(&hash).expect("get"), b"v1");

        fs::write(blobs.path(&hash), "tampered").expect("tamper");
        let err = blobs.get(&hash).expect_err("a damaged blob is refused");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }
}
