//! [`Health`]: what went wrong with the database since it was opened, kept until the end of the run, and whether
//! the file is still the one that was opened (a database deleted or replaced while a session runs would otherwise
//! swallow every later write without a word).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The first failure of the store since it was opened, and the identity of the file it opened.
pub struct Health {
    path: PathBuf,
    /// Device and inode of the file when it was opened.
    identity: Option<(u64, u64)>,
    failure: Mutex<Option<String>>,
}

fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

impl Health {
    /// Notes the identity of the file at `path`, which is open.
    pub fn new(path: &Path) -> Self {
        Self {
            path: path.to_path_buf(),
            identity: identity(path),
            failure: Mutex::new(None),
        }
    }

    /// Records a failure; the first one is kept.
    pub fn fail(&self, message: String) {
        if let Ok(mut slot) = self.failure.lock()
            && slot.is_none()
        {
            *slot = Some(message);
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Forgets the failure `message` when it is the one kept: what it held back was written after all.
    pub fn recovered(&self, message: &str) {
        if let Ok(mut slot) = self.failure.lock()
            && slot.as_deref() == Some(message)
        {
            *slot = None;
        }
    }

    /// The first failure, if any.
    pub fn failure(&self) -> Option<String> {
        self.failure.lock().ok().and_then(|slot| slot.clone())
    }

    /// Checks that the file at the path is still the one opened; records a failure when it is not.
    pub fn check_file(&self) -> Result<(), String> {
        let now = identity(&self.path);
        if now.is_some() && now == self.identity {
            return Ok(());
        }
        let message = format!(
            "the session database {} was deleted or replaced while this session ran; what followed was not saved",
            self.path.display()
        );
        self.fail(message.clone());
        Err(message)
    }
}
