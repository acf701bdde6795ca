//! Watches the folders of the files Tandem changed (not recursively) and marks a tracked file "dirty" when anything
//! happens to it. Whether a dirty file really changed outside Tandem is decided later by comparing its content with
//! what Tandem last wrote, so Tandem's own writes never count as outside changes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::{RecursiveMode, Watcher};

/// A watcher over the parent folders of tracked files.
pub struct DirWatcher {
    watcher: Option<notify::RecommendedWatcher>,
    watched: HashSet<PathBuf>,
    dirty: Arc<Mutex<HashSet<PathBuf>>>,
}

impl std::fmt::Debug for DirWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirWatcher")
            .field("watched", &self.watched)
            .finish()
    }
}

impl DirWatcher {
    /// A watcher; when the platform offers none, files are still checked by content at rewind time.
    pub fn new() -> Self {
        let dirty: Arc<Mutex<HashSet<PathBuf>>> = Arc::default();
        let sink = Arc::clone(&dirty);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if let Ok(event) = event
                && let Ok(mut dirty) = sink.lock()
            {
                dirty.extend(event.paths);
            }
        })
        .ok();
        Self {
            watcher,
            watched: HashSet::new(),
            dirty,
        }
    }

    /// Starts watching the folder of `file`.
    pub fn track(&mut self, file: &Path) {
        let Some(dir) = file.parent() else { return };
        if self.watched.contains(dir) {
            return;
        }
        if let Some(w) = self.watcher.as_mut()
            && w.watch(dir, RecursiveMode::NonRecursive).is_ok()
        {
            self.watched.insert(dir.to_path_buf());
        }
    }

    /// The files something happened to since the last call (drained).
    pub fn take_dirty(&self) -> HashSet<PathBuf> {
        self.dirty
            .lock()
            .map(|mut d| std::mem::take(&mut *d))
            .unwrap_or_default()
    }
}
