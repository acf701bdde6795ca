//! An advisory lock on the folder a file is changed in, shared by every process (two sessions, the window and the
//! command line): a change's check-then-replace runs while the lock is held, so that no other process replaces the
//! file between the check and the rename. The folder itself is locked (not a lock file beside the target), so
//! nothing is left in the person's project; a file in a folder that does not exist yet is covered by the nearest
//! folder that does, and [`FolderLock::extend_to`] takes the new folder's lock once it is made.

use std::fs::{File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a change waits for another process's change in the same folder before it gives up.
pub const LOCK_WAIT: Duration = Duration::from_secs(60);

/// The locks held on folders; released when dropped (or when the process ends, however it ends).
#[derive(Debug)]
pub struct FolderLock {
    /// The folders locked, outermost first, each with its open handle (holding the lock).
    held: Vec<(PathBuf, File)>,
}

/// Why a folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum FolderLockError {
    /// Another process held the lock for longer than the wait allowed.
    #[error("another program kept changing files in {} for over {} s", .0.display(), LOCK_WAIT.as_secs())]
    Busy(PathBuf),
    /// The folder cannot be opened or this file system does not support locks.
    #[error("cannot lock {}: {}", .0.display(), .1)]
    Unavailable(PathBuf, io::Error),
}

impl FolderLock {
    /// Locks the folder `target` is (or will be) in: its parent, or the nearest existing ancestor when the parent
    /// does not exist yet. Waits up to `wait` for another process's lock.
    pub fn for_file(target: &Path, wait: Duration) -> Result<Self, FolderLockError> {
        Self::for_files(&[target], wait)
    }

    /// Locks the folders all of `targets` are (or will be) in, each folder once (as [`FolderLock::for_file`] picks
    /// it), in path order: a parent before its children, so that changes taking several folders, and a change
    /// that locks a folder it made after its parent, never each hold a lock the other waits for.
    pub fn for_files(targets: &[&Path], wait: Duration) -> Result<Self, FolderLockError> {
        let folders_now = || {
            let mut folders: Vec<PathBuf> = targets
                .iter()
                .map(|t| nearest_existing(t.parent().unwrap_or(Path::new("."))))
                .collect();
            folders.sort();
            folders.dedup();
            folders
        };
        loop {
            let folders = folders_now();
            let mut held = Vec::with_capacity(folders.len());
            for folder in &folders {
                held.push((folder.clone(), lock(folder, wait)?));
            }
            // A folder may have been created while this process waited: its files belong under its own lock.
            if folders_now() == folders {
                return Ok(Self { held });
            }
        }
    }

    /// Whether the innermost folder locked is `folder`.
    pub fn covers(&self, folder: &Path) -> bool {
        self.held.last().is_some_and(|(held, _)| held == folder)
    }

    /// Also locks `folder` (an existing folder below one locked, made by this change), so that a process that
    /// finds the new folder already there waits for this change. A folder already locked is not locked again.
    pub fn extend_to(&mut self, folder: &Path, wait: Duration) -> Result<(), FolderLockError> {
        if !self.held.iter().any(|(held, _)| held == folder) {
            let file = lock(folder, wait)?;
            self.held.push((folder.to_path_buf(), file));
        }
        Ok(())
    }
}

fn nearest_existing(folder: &Path) -> PathBuf {
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    folder
        .ancestors()
        .find(|a| a.is_dir())
        .unwrap_or(folder)
        .to_path_buf()
}

fn lock(folder: &Path, wait: Duration) -> Result<File, FolderLockError> {
    let unavailable = |e| FolderLockError::Unavailable(folder.to_path_buf(), e);
    let file = File::open(folder).map_err(unavailable)?;
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) if start.elapsed() < wait => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(FolderLockError::Busy(folder.to_path_buf()));
            }
            Err(TryLockError::Error(e)) => return Err(unavailable(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_folder_waits_for_the_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("a.txt");
        let first = FolderLock::for_file(&file, LOCK_WAIT).expect("first");
        let err = FolderLock::for_file(&file, Duration::from_millis(20)).expect_err("held");
        assert!(matches!(err, FolderLockError::Busy(_)), "{err}");
        drop(first);
        // (A process another test forks in this moment holds a copy of the handle until it execs: wait for that.)
        FolderLock::for_file(&file, LOCK_WAIT).expect("free again");
    }

    #[test]
    fn files_in_several_folders_lock_each_folder_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sub = dir.path().join("sub");
        std::fs::create_dir_all(&sub).expect("mkdir");
        let files = [
            sub.join("b.txt"),
            dir.path().join("a.txt"),
            sub.join("c.txt"),
            dir.path().join("missing/d.txt"),
        ];
        let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        // Two files of one folder (and a missing folder's nearest ancestor) do not wait for each other's lock.
        let held = FolderLock::for_files(&paths, Duration::from_millis(20)).expect("locks");
        let folders: Vec<&Path> = held.held.iter().map(|(f, _)| f.as_path()).collect();
        assert_eq!(folders, [dir.path(), sub.as_path()]);
        for file in &files {
            let err = FolderLock::for_file(file, Duration::from_millis(20)).expect_err("held");
            assert!(matches!(err, FolderLockError::Busy(_)), "{err}");
        }
        drop(held);
        FolderLock::for_file(&files[0], LOCK_WAIT).expect("free again");
    }

    #[test]
    fn a_missing_folder_is_covered_by_its_nearest_existing_ancestor_until_made() {
        let dir = tempfile::tempdir().expect("tempdir");
        let new = dir.path().join("new/deeper");
        let file = new.join("a.txt");
        let mut creating = FolderLock::for_file(&file, LOCK_WAIT).expect("lock");
        assert!(creating.covers(dir.path()));
        std::fs::create_dir_all(&new).expect("mkdir");
        creating.extend_to(&new, LOCK_WAIT).expect("extend");
        assert!(creating.covers(&new));
        let err = FolderLock::for_file(&file, Duration::from_millis(20)).expect_err("held");
        assert!(matches!(err, FolderLockError::Busy(_)), "{err}");
    }
}
