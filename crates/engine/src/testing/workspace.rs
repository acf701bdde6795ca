//! Temporary folders for tests: a project folder filled with files, deleted when dropped.

use std::path::{Path, PathBuf};

/// A temporary project folder with some files.
pub struct Workspace {
    /// The folder; deleted when the workspace is dropped.
    pub dir: tempfile::TempDir,
    root: PathBuf,
}

impl Workspace {
    /// A new folder holding `files` (relative name, content); parent folders are created as needed.
    pub fn new(files: &[(&str, &str)]) -> std::io::Result<Self> {
        super::isolate_app_data();
        let dir = tempfile::tempdir()?;
        let root = std::fs::canonicalize(dir.path())?;
        let ws = Self { dir, root };
        for (name, content) in files {
            ws.write(name, content)?;
        }
        Ok(ws)
    }

    /// The folder's canonical path.
    pub fn root(&self) -> PathBuf {
        self.root.clone()
    }

    /// The canonical path of `name` inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Writes `content` to `name` inside the folder, creating parent folders.
    pub fn write(&self, name: &str, content: &str) -> std::io::Result<()> {
        write_file(&self.root.join(name), content)
    }
}

/// Writes `content` to `path`, creating its parent folders.
fn write_file(path: &Path, content: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, content)
}
