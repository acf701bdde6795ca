//! The checkpoint store of one session: keeps each file's previous content before a tool changes it, and rewinds
//! files to how they were before an earlier prompt, refusing to overwrite changes made outside Tandem unless forced.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use super::blobs::Blobs;
use super::journal::{Checkpoint, CheckpointInfo, Journal, Version};
use super::watcher::DirWatcher;
use crate::fsutil::{FolderLock, FolderLockError, LOCK_WAIT, write_atomic};

/// A checkpoint operation that failed.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("the checkpoint store at {path} cannot be used: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("the checkpoint journal at {path} is damaged: {message}")]
    Journal { path: PathBuf, message: String },
    #[error("there is no checkpoint for prompt {0}")]
    UnknownPrompt(String),
    #[error("the files were not rewound: {0}")]
    Busy(FolderLockError),
}

/// What a rewind did, or would have done.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RewindReport {
    /// Files given back their earlier content.
    pub restored: Vec<PathBuf>,
    /// Files removed because they did not exist before.
    pub removed: Vec<PathBuf>,
    /// Files changed outside Tandem since Tandem last wrote them. Unless the rewind was forced, nothing was touched.
    pub conflicts: Vec<PathBuf>,
    /// Whether the files were rewound (false when conflicts stopped an unforced rewind).
    pub applied: bool,
}

/// A file the session changed and the content it had before the first change (`None`: it did not exist).
pub type Original = (PathBuf, Option<Vec<u8>>);

struct State {
    journal: Journal,
    watcher: DirWatcher,
    suspects: BTreeSet<PathBuf>,
}

/// The content-addressed checkpoint store of a session, in its own folder (`blobs/` and `journal.json`).
///
/// Contract: a tool that changes a file calls [`CheckpointStore::before_change`] with the file's current content
/// before it writes, and [`CheckpointStore::after_change`] with the new content's hash after the write succeeded.
/// The session calls [`CheckpointStore::begin_prompt`] when a prompt starts.
pub struct CheckpointStore {
    root: PathBuf,
    blobs: Blobs,
    state: Mutex<State>,
}

impl std::fmt::Debug for CheckpointStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckpointStore")
            .field("root", &self.root)
            .finish()
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The version a file has on disk now.
fn current_version(path: &Path) -> Version {
    match fs::read(path) {
        Ok(bytes) => Version::Blob(blake3::hash(&bytes).to_hex().to_string()),
        Err(_) => Version::Missing,
    }
}

impl CheckpointStore {
    /// Opens the store in `root`, loading its journal if there is one. Nothing is created on disk until the
    /// first file change is kept.
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, CheckpointError> {
        let root = root.into();
        let journal_path = root.join("journal.json");
        let journal = match fs::read(&journal_path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| CheckpointError::Journal {
                path: journal_path.clone(),
                message: e.to_string(),
            })?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Journal::default(),
            Err(e) => return Err(io_err(&journal_path)(e)),
        };
        let mut watcher = DirWatcher::new();
        for path in journal.last_written.keys() {
            watcher.track(path);
        }
        Ok(Self {
            blobs: Blobs::new(root.join("blobs")),
            root,
            state: Mutex::new(State {
                journal,
                watcher,
                suspects: BTreeSet::new(),
            }),
        })
    }

    /// The folder of the store.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        match self.state.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn save(&self, journal: &Journal) -> Result<(), CheckpointError> {
        let path = self.root.join("journal.json");
        fs::create_dir_all(&self.root).map_err(io_err(&self.root))?;
        let bytes = serde_json::to_vec_pretty(journal).map_err(|e| CheckpointError::Journal {
            path: path.clone(),
            message: e.to_string(),
        })?;
        write_atomic(&path, &[&bytes], None).map_err(io_err(&path))
    }

    /// Starts the checkpoint of a new prompt: changes from now on are rewound by rewinding to `prompt_id`. (It is
    /// written to disk with the first change it holds.)
    pub fn begin_prompt(&self, prompt_id: &str) -> Result<(), CheckpointError> {
        let mut state = self.lock();
        if state
            .journal
            .checkpoints
            .last()
            .is_some_and(|c| c.files.is_empty() && c.prompt_id.is_empty())
        {
            state.journal.checkpoints.pop();
        }
        state.journal.checkpoints.push(Checkpoint {
            prompt_id: prompt_id.to_string(),
            files: BTreeMap::new(),
        });
        Ok(())
    }

    /// Keeps the content `path` has now (`None`: it does not exist) if this is its first change in the current
    /// prompt.
    pub fn before_change(
        &self,
        path: &Path,
        current: Option<(&[u8], &blake3::Hash)>,
    ) -> Result<(), CheckpointError> {
        let mut state = self.lock();
        if state.journal.checkpoints.is_empty() {
            state.journal.checkpoints.push(Checkpoint {
                prompt_id: String::new(),
                files: BTreeMap::new(),
            });
        }
        let already = state
            .journal
            .checkpoints
            .last()
            .is_some_and(|c| c.files.contains_key(path));
        if already {
            return Ok(());
        }
        let version = match current {
            None => Version::Missing,
            Some((bytes, hash)) => {
                let hex = hash.to_hex().to_string();
                self.blobs.put(&hex, bytes).map_err(io_err(&self.root))?;
                Version::Blob(hex)
            }
        };
        state
            .journal
            .last_written
            .entry(path.to_path_buf())
            .or_insert_with(|| version.clone());
        if let Some(cp) = state.journal.checkpoints.last_mut() {
            cp.files.insert(path.to_path_buf(), version);
        }
        state.watcher.track(path);
        self.save(&state.journal)?;
        tracing::debug!(
            path = %path.display(),
            existed = current.is_some(),
            "checkpoint kept the content before a change"
        );
        Ok(())
    }

    /// Records the content Tandem just left `path` with (`None`: Tandem removed it).
    pub fn after_change(
        &self,
        path: &Path,
        new: Option<&blake3::Hash>,
    ) -> Result<(), CheckpointError> {
        let mut state = self.lock();
        let version = new.map_or(Version::Missing, |h| Version::Blob(h.to_hex().to_string()));
        state
            .journal
            .last_written
            .insert(path.to_path_buf(), version);
        state.suspects.remove(path);
        self.save(&state.journal)?;
        tracing::debug!(path = %path.display(), removed = new.is_none(), "checkpoint noted a change");
        Ok(())
    }

    /// Every file the session changed, with the content it had before the session first changed it (`None`: it
    /// did not exist), sorted by path. A snapshot that cannot be read (or fails its hash check) is an error.
    pub fn originals(&self) -> Result<Vec<Original>, CheckpointError> {
        let state = self.lock();
        let mut first: BTreeMap<PathBuf, Version> = BTreeMap::new();
        for cp in &state.journal.checkpoints {
            for (path, version) in &cp.files {
                first.entry(path.clone()).or_insert_with(|| version.clone());
            }
        }
        drop(state);
        first
            .into_iter()
            .map(|(path, version)| match version {
                Version::Missing => Ok((path, None)),
                Version::Blob(hash) => {
                    let bytes = self.blobs.get(&hash).map_err(io_err(&path))?;
                    Ok((path, Some(bytes)))
                }
            })
            .collect()
    }

    /// The checkpoints, oldest first.
    pub fn checkpoints(&self) -> Vec<CheckpointInfo> {
        self.lock()
            .journal
            .checkpoints
            .iter()
            .map(|c| CheckpointInfo {
                prompt_id: c.prompt_id.clone(),
                files: c.files.keys().cloned().collect(),
            })
            .collect()
    }

    fn refresh_suspects(state: &mut State) {
        let dirty = state.watcher.take_dirty();
        for path in dirty {
            if state.journal.last_written.contains_key(&path) {
                state.suspects.insert(path);
            }
        }
    }

    /// Tracked files whose content differs from what Tandem last left them with (seen by the watcher).
    pub fn changed_outside(&self) -> Vec<PathBuf> {
        let mut state = self.lock();
        Self::refresh_suspects(&mut state);
        let suspects: Vec<PathBuf> = state.suspects.iter().cloned().collect();
        suspects
            .into_iter()
            .filter(|p| state.journal.last_written.get(p) != Some(&current_version(p)))
            .collect()
    }

    /// Rewinds every file changed since `prompt_id` began to the content it had then. Files changed outside
    /// Tandem since Tandem last wrote them are conflicts: without `force` nothing is touched and they are reported.
    ///
    /// The check and the writes run while the folders of the files are locked against other processes (the lock
    /// the file tools take for their check-then-replace), so an edit from another process lands either before the
    /// check (and is a conflict) or after the rewind. Waits for another process's change; `Busy` when one held a
    /// folder too long. Must not be called while a file tool of this store's session runs (see
    /// [`CheckpointStore::rewind_files`]): it holds the store while it waits.
    pub fn rewind(&self, prompt_id: &str, force: bool) -> Result<RewindReport, CheckpointError> {
        tracing::debug!(prompt = prompt_id, force, "checkpoint rewind");
        let mut state = self.lock();
        Self::refresh_suspects(&mut state);
        let Some(start) = state
            .journal
            .checkpoints
            .iter()
            .position(|c| c.prompt_id == prompt_id)
        else {
            return Err(CheckpointError::UnknownPrompt(prompt_id.to_string()));
        };
        let mut targets: BTreeMap<PathBuf, Version> = BTreeMap::new();
        for cp in &state.journal.checkpoints[start..] {
            for (path, version) in &cp.files {
                targets
                    .entry(path.clone())
                    .or_insert_with(|| version.clone());
            }
        }
        let paths: Vec<&Path> = targets.keys().map(PathBuf::as_path).collect();
        let mut held = match FolderLock::for_files(&paths, LOCK_WAIT) {
            Ok(held) => Some(held),
            Err(e @ FolderLockError::Busy(_)) => return Err(CheckpointError::Busy(e)),
            Err(e @ FolderLockError::Unavailable(..)) => {
                tracing::warn!("rewinding files without a lock: {e}");
                None
            }
        };
        let mut report = RewindReport::default();
        for path in targets.keys() {
            let last = state.journal.last_written.get(path);
            if last.is_some_and(|last| *last != current_version(path)) {
                report.conflicts.push(path.clone());
            }
        }
        if !report.conflicts.is_empty() && !force {
            return Ok(report);
        }
        // Every snapshot is read and checked before any file is touched: a damaged one stops the whole rewind.
        let mut contents: BTreeMap<&Path, Vec<u8>> = BTreeMap::new();
        for (path, version) in &targets {
            if let Version::Blob(hash) = version {
                contents.insert(path, self.blobs.get(hash).map_err(io_err(path))?);
            }
        }
        for (path, version) in &targets {
            match version {
                Version::Missing => {
                    if fs::symlink_metadata(path).is_ok() {
                        fs::remove_file(path).map_err(io_err(path))?;
                        report.removed.push(path.clone());
                    }
                }
                Version::Blob(_) => {
                    let bytes = contents.remove(path.as_path()).unwrap_or_default();
                    if let Some(dir) = path.parent() {
                        fs::create_dir_all(dir).map_err(io_err(path))?;
                        // A folder this rewind made: a process finding it there now waits for the rewind.
                        if let Some(held) = held.as_mut() {
                            held.extend_to(dir, LOCK_WAIT)
                                .map_err(CheckpointError::Busy)?;
                        }
                    }
                    let like = fs::metadata(path).ok();
                    write_atomic(path, &[&bytes], like.as_ref()).map_err(io_err(path))?;
                    report.restored.push(path.clone());
                }
            }
            state
                .journal
                .last_written
                .insert(path.clone(), version.clone());
            state.suspects.remove(path);
        }
        state.journal.checkpoints.truncate(start);
        report.applied = true;
        self.save(&state.journal)?;
        Ok(report)
    }
}
