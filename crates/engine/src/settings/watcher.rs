//! Watching the settings files with notify: every change on disk calls back, so that rules apply from the next call
//! and changed hooks are offered for review.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use notify::{RecommendedWatcher, RecursiveMode, Watcher};

/// Keeps watching while it lives; dropping it stops the watch.
pub struct SettingsWatcher {
    _watcher: Arc<Mutex<Option<RecommendedWatcher>>>,
}

impl std::fmt::Debug for SettingsWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SettingsWatcher")
    }
}

impl SettingsWatcher {
    /// Watches the folders holding `files` and calls `on_change` (from the watcher's thread) whenever one of
    /// `files` is created, changed or removed. A folder that does not exist yet (no `.claude/`) is watched
    /// through its parent until it appears, then itself.
    pub fn start(
        files: Vec<PathBuf>,
        on_change: impl Fn() + Send + Sync + 'static,
    ) -> Result<Self, notify::Error> {
        let on_change = Arc::new(on_change);
        let mut dirs: Vec<PathBuf> = Vec::new();
        for f in &files {
            if let Some(dir) = f.parent()
                && !dirs.iter().any(|d| d == dir)
            {
                dirs.push(dir.to_path_buf());
            }
        }
        let watched = files.clone();
        let watched_dirs = dirs.clone();
        let shared: Arc<Mutex<Option<RecommendedWatcher>>> = Arc::new(Mutex::new(None));
        let handle = Arc::downgrade(&shared);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            if matches!(event.kind, notify::EventKind::Access(_)) {
                return;
            }
            let appeared: Vec<PathBuf> = event
                .paths
                .iter()
                .filter(|p| {
                    matches!(event.kind, notify::EventKind::Create(_)) && watched_dirs.contains(p)
                })
                .cloned()
                .collect();
            if !appeared.is_empty() {
                // Watching from the watcher's own thread could wait on itself: add the new folders from another
                // thread, then look again (the file may have been written before the watch began).
                let handle = handle.clone();
                let on_change = on_change.clone();
                std::thread::spawn(move || {
                    if let Some(shared) = handle.upgrade()
                        && let Ok(mut slot) = shared.lock()
                        && let Some(watcher) = slot.as_mut()
                    {
                        for dir in &appeared {
                            let _ = watcher.watch(dir, RecursiveMode::NonRecursive);
                        }
                    }
                    on_change();
                });
                return;
            }
            if event
                .paths
                .iter()
                .any(|p| watched.contains(p) || watched_dirs.contains(p))
            {
                on_change();
            }
        })?;
        {
            let mut slot = shared
                .lock()
                .map_err(|_| notify::Error::generic("watcher lock"))?;
            let watcher = slot.insert(watcher);
            for dir in dirs {
                let target = if dir.exists() {
                    dir
                } else {
                    match dir.parent() {
                        Some(p) if p.exists() => p.to_path_buf(),
                        _ => continue,
                    }
                };
                // A folder that cannot be watched only means changes there are seen at the next session.
                let _ = watcher.watch(&target, RecursiveMode::NonRecursive);
            }
        }
        Ok(Self { _watcher: shared })
    }
}
