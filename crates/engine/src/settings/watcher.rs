//! Watching the settings files with notify: every change on disk calls back, so that rules apply from the next call
//! and changed hooks are offered for review.

use std::path::PathBuf;
use std::sync::Arc;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};

/// Keeps watching while it lives; dropping it stops the watch.
pub struct SettingsWatcher {
    _watcher: RecommendedWatcher,
}

impl std::fmt::Debug for SettingsWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SettingsWatcher")
    }
}

impl SettingsWatcher {
    /// Watches the folders holding `files` and calls `on_change` (from the watcher's thread) whenever one of
    /// `files` is created, changed or removed.
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
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if let Ok(event) = event
                    && !matches!(event.kind, notify::EventKind::Access(_))
                    && event
                        .paths
                        .iter()
                        .any(|p| watched.contains(p) || watched_dirs.contains(p))
                {
                    on_change();
                }
            })?;
        for dir in dirs {
            // A folder that does not exist yet (no `.claude/`) is watched through its parent.
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
        Ok(Self { _watcher: watcher })
    }
}
