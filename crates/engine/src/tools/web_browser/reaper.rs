//! Ending the session's browser with the session itself, whoever still holds the tool: the running browser's process
//! group and profile folder are noted here, and the [`SessionGuard`] the session keeps kills the group and removes
//! the folder when the session is dropped. A browser closed before that is forgotten here first, so that a later
//! drop never signals a process group whose number has been reused.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::process_group::kill_group;

/// The running browser's process group and profile folder, shared by the tool and the session's guard.
#[derive(Debug, Clone, Default)]
pub struct Reaper(Arc<Mutex<Option<(u32, PathBuf)>>>);

impl Reaper {
    fn slot(&self) -> std::sync::MutexGuard<'_, Option<(u32, PathBuf)>> {
        match self.0.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Notes a started browser: the group it leads and its profile folder.
    pub fn started(&self, group: u32, profile: PathBuf) {
        *self.slot() = Some((group, profile));
    }

    /// Forgets the browser (it was closed and its group killed).
    pub fn ended(&self) {
        *self.slot() = None;
    }

    /// Kills the noted browser's group and removes its profile folder, if one is running.
    fn reap(&self) {
        if let Some((group, profile)) = self.slot().take() {
            kill_group(group);
            let _ = std::fs::remove_dir_all(profile);
        }
    }
}

/// Kept by the session: ends the session's browser when dropped.
#[derive(Debug)]
pub struct SessionGuard(pub(super) Reaper);

impl SessionGuard {
    /// The process group the session's browser leads while it runs.
    pub fn browser_group(&self) -> Option<u32> {
        self.0.slot().as_ref().map(|(group, _)| *group)
    }
}

impl Drop for SessionGuard {
    fn drop(&mut self) {
        self.0.reap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forgotten_browser_is_not_reaped_and_a_noted_one_is_once() {
        let dir = tempfile::tempdir().expect("dir");
        let profile = dir.path().join("profile");
        std::fs::create_dir(&profile).expect("mkdir");
        let reaper = Reaper::default();
        reaper.started(u32::MAX, profile.clone());
        reaper.ended();
        drop(SessionGuard(reaper.clone()));
        assert!(profile.exists());
        reaper.started(u32::MAX, profile.clone());
        drop(SessionGuard(reaper.clone()));
        assert!(!profile.exists());
        assert!(reaper.slot().is_none());
    }
}
