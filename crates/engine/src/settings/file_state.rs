//! What a settings file is on disk at one moment, to tell later whether it changed: the hash of its bytes when it
//! can be read, else what its metadata says (or that it is gone).

use std::path::Path;
use std::time::SystemTime;

/// A settings file's state on disk. Two states are equal only if nothing about the file changed in between that
/// could change what it says: its bytes, or (when it cannot be read) its size, times, permissions and identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileState {
    /// The file's bytes, hashed.
    Bytes(blake3::Hash),
    /// The file exists but cannot be read: its metadata.
    Unread {
        len: u64,
        modified: Option<SystemTime>,
        /// The inode change time, mode and inode (Unix): a `chmod`, or a file put in its place, changes them.
        changed: Option<(i64, i64, u32, u64)>,
    },
    /// No file is there, or not even its metadata can be read.
    Absent,
}

impl FileState {
    /// The state of the file at `path` now (a settings file is small: at most [`crate::fsutil::MAX_SETTINGS_BYTES`]
    /// are read; a larger file is judged by its metadata).
    pub fn of(path: &Path) -> Self {
        let Ok(meta) = std::fs::metadata(path) else {
            return Self::Absent;
        };
        if meta.is_file()
            && crate::fsutil::too_large(meta.len()).is_none()
            && let Ok(bytes) = std::fs::read(path)
        {
            return Self::Bytes(blake3::hash(&bytes));
        }
        Self::Unread {
            len: meta.len(),
            modified: meta.modified().ok(),
            changed: unix_identity(&meta),
        }
    }
}

#[cfg(unix)]
fn unix_identity(meta: &std::fs::Metadata) -> Option<(i64, i64, u32, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.ctime(), meta.ctime_nsec(), meta.mode(), meta.ino()))
}

#[cfg(not(unix))]
fn unix_identity(_: &std::fs::Metadata) -> Option<(i64, i64, u32, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_to_the_bytes_or_the_file_is_a_new_state() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("settings.json");
        assert_eq!(FileState::of(&path), FileState::Absent);
        std::fs::write(&path, "{ broken").expect("write");
        let first = FileState::of(&path);
        assert_eq!(FileState::of(&path), first);
        // The same length, written again at once: still told apart by its bytes.
        std::fs::write(&path, "{ Broken").expect("write");
        assert_ne!(FileState::of(&path), first);
        std::fs::write(&path, "{ broken").expect("write");
        assert_eq!(FileState::of(&path), first);
        std::fs::remove_file(&path).expect("remove");
        std::fs::create_dir(&path).expect("mkdir");
        assert!(matches!(FileState::of(&path), FileState::Unread { .. }));
    }
}
