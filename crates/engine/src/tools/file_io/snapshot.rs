//! The read state a file tool records after reading or writing a file, and the staleness check an edit makes
//! against it: a file may only be changed if it was read in this session and its content is still what was read.

use std::fs::Metadata;
use std::path::Path;

use crate::tool::{FileReadState, FileStateStore};

/// Why a file may not be changed now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FreshnessError {
    #[error("File has not been read yet. Read it first before writing to it.")]
    NotRead,
    #[error(
        "File has been modified since it was read, either by the user or by a linter. Read it again before \
         attempting to write it."
    )]
    Modified,
    #[error(
        "File has been deleted since it was read. Read it again (or create it anew) before writing to it."
    )]
    Deleted,
}

/// The content hash of file bytes (BLAKE3; also the checkpoint store's address).
pub fn content_hash(bytes: &[u8]) -> blake3::Hash {
    blake3::hash(bytes)
}

/// The short form of a content hash kept in the read state.
pub fn short(hash: &blake3::Hash) -> u64 {
    let b = hash.as_bytes();
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// The read state of a file with metadata `meta` and content hash `hash` (`None` when only a part of a large file
/// was read).
pub fn state_of(meta: &Metadata, hash: Option<&blake3::Hash>, partial: bool) -> FileReadState {
    FileReadState {
        modified: meta.modified().ok(),
        size: meta.len(),
        content_hash: hash.map(short),
        partial,
    }
}

/// Checks that `path` was read in this session and that its content (`current`: its metadata and the hash of its
/// bytes; `None` when the file no longer exists) is what was read. The content decides, not the timestamp: a file
/// touched but unchanged is fresh, and a change within one timestamp tick is still caught. Only a file read in part
/// because it was too large to read whole has no hash to compare; it is fresh while its modification time and size
/// are those it had.
pub fn ensure_fresh(
    store: &FileStateStore,
    path: &Path,
    current: Option<(&Metadata, &blake3::Hash)>,
) -> Result<(), FreshnessError> {
    let Some(state) = store.get(path) else {
        return Err(FreshnessError::NotRead);
    };
    let Some((meta, hash)) = current else {
        return Err(FreshnessError::Deleted);
    };
    let fresh = match state.content_hash {
        Some(read) => short(hash) == read,
        None => {
            state.modified.is_some()
                && meta.modified().ok() == state.modified
                && meta.len() == state.size
        }
    };
    if fresh {
        Ok(())
    } else {
        Err(FreshnessError::Modified)
    }
}
