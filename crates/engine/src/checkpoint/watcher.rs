//! Watches the folders of the files Tandem changed (not recursively) and marks a tracked file "dirty" when anything
//! happens to it. Whether a dirty file really changed outside Tandem is decided later by comparing its content with
//! what Tandem last wrote, so Tandem's own writes never count as outside changes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::{RecursiveMode, Watcher};

/// A watcher over the parent folders of tracked files. The platform watcher is made when the first file is tracked:
/// a session that changes no file never holds one (closing one costs the exiting process milliseconds).
pub struct DirWatcher {
    /// `None` until the first file is tracked; `Some(None)` when the platform offers no watcher.
    watcher: Option<Option<notify::RecommendedWatcher>>,
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
        Self {
            watcher: None,
            watched: HashSet::new(),
            dirty: Arc::default(),
        }
    }

    /// The platform watcher, made on first use (`None` when the platform offers none).
    fn platform(&mut self) -> Option<&mut notify::RecommendedWatcher> {
        let dirty = &self.dirty;
        self.watcher
            .get_or_insert_with(|| {
                let sink = Arc::clone(dirty);
                notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                    if let Ok(event) = event
                        && let Ok(mut dirty) = sink.lock()
                    {
                        dirty.extend(event.paths);
                    }
                })
                .ok()
            })
            .as_mut()
    }

    /// Starts watching the folder of `file`.
    pub fn track(&mut self, file: &Path) {
        let Some(dir) = file.parent() else { return };
        if self.watched.contains(dir) {
            return;
        }
        if let Some(w) = self.platform()
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
