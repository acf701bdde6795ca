//! One writer per session: [`SessionLock`], an advisory lock on a small file per session beside the database, held
//! while a session runs in this process. A second process (or a second window) opening the same session is told it
//! is in use instead of interleaving its writes with the first one's. The system drops the lock when the process
//! dies, so a killed run never leaves a session locked.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::PathBuf;

use super::StoreError;
use super::session_store::SessionStore;

/// Holds a session's lock until dropped.
#[derive(Debug)]
pub struct SessionLock {
    _file: File,
}

/// The lock file's name for a session id: the id's letters, digits, `-` and `_`, and a hash of the whole id.
fn file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(64)
        .collect();
    let hash = blake3::hash(id.as_bytes()).to_hex();
    format!("{safe}.{}.lock", &hash[..12])
}

impl SessionStore {
    /// The folder holding the sessions' lock files.
    fn lock_dir(&self) -> PathBuf {
        let mut dir = self.path().as_os_str().to_owned();
        dir.push(".locks");
        PathBuf::from(dir)
    }

    /// Takes the lock of session `id`, or fails with [`StoreError::InUse`] at once when another process (or another
    /// session of this one) holds it.
    pub fn lock_session(&self, id: &str) -> Result<SessionLock, StoreError> {
        let dir = self.lock_dir();
        let io = |path: PathBuf| move |source| StoreError::Io { path, source };
        std::fs::create_dir_all(&dir).map_err(io(dir.clone()))?;
        let path = dir.join(file_name(id));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io(path.clone()))?;
        match file.try_lock() {
            Ok(()) => Ok(SessionLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(StoreError::InUse(id.to_string())),
            Err(TryLockError::Error(source)) => Err(StoreError::Io { path, source }),
        }
    }
}
