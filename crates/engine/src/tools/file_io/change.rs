//! The steps every file-changing tool takes, in its synchronous critical section: lock the file's folder against
//! other processes, load the file as it is now (refusing directories, devices, read-only and oversized files), check
//! it is what the session read, then commit new bytes: keep the old content as a checkpoint, write atomically
//! (keeping permissions), and record the new read state so that a later edit's staleness check passes.

use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use super::snapshot::{self, FreshnessError};
use crate::fsutil::{FolderLock, FolderLockError, LOCK_WAIT, write_atomic};
use crate::tool::{FileStateStore, ToolError};

/// Files larger than this are never edited.
pub const MAX_EDIT_BYTES: u64 = 1 << 30;

/// A file as it is just before a change.
#[derive(Debug)]
pub struct Current {
    /// The path the model named (the read-state key).
    pub key: PathBuf,
    /// Where the bytes live: `key` with symlinks resolved, so that writing keeps the link.
    pub target: PathBuf,
    /// `None` when the file does not exist.
    pub meta: Option<Metadata>,
    pub bytes: Option<Vec<u8>>,
    pub hash: Option<blake3::Hash>,
}

impl Current {
    /// Whether the file exists.
    pub fn exists(&self) -> bool {
        self.bytes.is_some()
    }
}

fn err(path: &Path, e: io::Error) -> ToolError {
    ToolError::to_model(format!("Cannot read {}: {e}", path.display()))
}

/// A change's hold on its file against other processes (see [`lock`]); `None` inside when the file system offers
/// no locks.
#[derive(Debug)]
pub struct ChangeLock(Option<FolderLock>);

/// Locks the folder of the file `key` names (its target when `key` is a symbolic link) for the critical section of
/// a change, so that another process (another session, the window and the command line) cannot replace the file
/// between this change's staleness check and its rename. Taken before [`load`], held until after [`commit`]. Waits
/// for another process's change; a file system without locks is changed without one (and logged).
pub fn lock(key: &Path) -> Result<ChangeLock, ToolError> {
    let target = match fs::symlink_metadata(key) {
        Ok(m) if m.file_type().is_symlink() => {
            fs::canonicalize(key).unwrap_or_else(|_| key.to_path_buf())
        }
        _ => key.to_path_buf(),
    };
    match FolderLock::for_file(&target, LOCK_WAIT) {
        Ok(lock) => Ok(ChangeLock(Some(lock))),
        Err(e @ FolderLockError::Busy(_)) => Err(ToolError::to_model(format!(
            "{} was not changed: {e}. Try again.",
            key.display()
        ))),
        Err(e @ FolderLockError::Unavailable(..)) => {
            tracing::warn!("changing {} without a lock: {e}", key.display());
            Ok(ChangeLock(None))
        }
    }
}

/// Whether the file `earlier` was loaded from still holds exactly the bytes loaded then, found without holding the
/// file in memory a second time (its hash is computed as it is read); `Some` with its metadata now when it does.
/// Lets a change planned earlier be written without loading a large file again.
pub fn unchanged_since(earlier: &Current) -> Result<Option<Metadata>, ToolError> {
    let (Some(bytes), Some(hash)) = (&earlier.bytes, &earlier.hash) else {
        return Ok(None);
    };
    let target = match fs::symlink_metadata(&earlier.key) {
        Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(&earlier.key) {
            Ok(target) => target,
            Err(_) => return Ok(None),
        },
        Ok(_) => earlier.key.clone(),
        Err(_) => return Ok(None),
    };
    if target != earlier.target {
        return Ok(None);
    }
    let Ok(mut file) = fs::File::open(&target) else {
        return Ok(None);
    };
    let meta = file.metadata().map_err(|e| err(&earlier.key, e))?;
    if !meta.is_file() || meta.len() != bytes.len() as u64 {
        return Ok(None);
    }
    let mut hasher = blake3::Hasher::new();
    hasher
        .update_reader(&mut file)
        .map_err(|e| err(&earlier.key, e))?;
    Ok((hasher.finalize() == *hash).then_some(meta))
}

/// Loads `key` as it is now. A missing file is not an error (`bytes` is `None`); a dangling symlink is.
pub fn load(key: &Path) -> Result<Current, ToolError> {
    let link_meta = match fs::symlink_metadata(key) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(err(key, e)),
    };
    let target = match &link_meta {
        Some(m) if m.file_type().is_symlink() => fs::canonicalize(key).map_err(|e| {
            ToolError::to_model(format!(
                "{} is a symbolic link whose target cannot be used: {e}",
                key.display()
            ))
        })?,
        _ => key.to_path_buf(),
    };
    let Some(_) = link_meta else {
        return Ok(Current {
            key: key.to_path_buf(),
            target,
            meta: None,
            bytes: None,
            hash: None,
        });
    };
    let meta = fs::metadata(&target).map_err(|e| err(key, e))?;
    if meta.is_dir() {
        return Err(ToolError::to_model(format!(
            "{} is a directory, not a file.",
            key.display()
        )));
    }
    if !meta.is_file() {
        return Err(ToolError::to_model(format!(
            "{} is not a regular file (a device, FIFO or socket); it cannot be changed.",
            key.display()
        )));
    }
    if meta.len() > MAX_EDIT_BYTES {
        return Err(ToolError::to_model(format!(
            "{} is {} bytes; files over 1 GiB cannot be edited.",
            key.display(),
            meta.len()
        )));
    }
    let bytes = fs::read(&target).map_err(|e| err(key, e))?;
    let hash = snapshot::content_hash(&bytes);
    Ok(Current {
        key: key.to_path_buf(),
        target,
        meta: Some(meta),
        bytes: Some(bytes),
        hash: Some(hash),
    })
}

/// Refuses to change a read-only file (renaming over it would otherwise succeed).
pub fn ensure_writable(current: &Current) -> Result<(), ToolError> {
    match &current.meta {
        Some(meta) if meta.permissions().readonly() => Err(ToolError::to_model(format!(
            "{} is read-only; it cannot be changed. Change its permissions first if it should be edited.",
            current.key.display()
        ))),
        _ => Ok(()),
    }
}

/// Checks that an existing file was read in this session and is unchanged since.
pub fn ensure_fresh(store: &FileStateStore, current: &Current) -> Result<(), ToolError> {
    if !current.exists() && store.get(&current.key).is_none() {
        return Ok(());
    }
    let now = current.meta.as_ref().zip(current.hash.as_ref());
    match snapshot::ensure_fresh(store, &current.key, now) {
        Ok(()) => Ok(()),
        Err(FreshnessError::NotRead) if !current.exists() => Ok(()),
        Err(e) => Err(ToolError::to_model(e.to_string())),
    }
}

/// Writes `parts` as the new content of the file and records it: checkpoint, atomic write, read state.
/// Creates missing parent folders (and takes their lock). Returns the new content's hash.
pub fn commit(
    store: &FileStateStore,
    lock: &mut ChangeLock,
    current: &Current,
    parts: &[&[u8]],
) -> Result<blake3::Hash, ToolError> {
    let write_err =
        |e: io::Error| ToolError::to_model(format!("Cannot write {}: {e}", current.key.display()));
    if let Some(dir) = current.target.parent()
        && !dir.as_os_str().is_empty()
    {
        fs::create_dir_all(dir).map_err(write_err)?;
        hold_new_folder(lock, current, dir)?;
    }
    let checkpoints = store.history();
    if let Some(cp) = &checkpoints {
        let old = current.bytes.as_deref().zip(current.hash.as_ref());
        cp.before_change(&current.target, old)
            .map_err(|e| ToolError::to_model(format!("The file was not changed: {e}")))?;
    }
    write_atomic(&current.target, parts, current.meta.as_ref()).map_err(write_err)?;
    let mut hasher = blake3::Hasher::new();
    for part in parts {
        hasher.update(part);
    }
    let hash = hasher.finalize();
    if let Some(cp) = &checkpoints {
        // The file is written; a journal failure only weakens the rewind and is logged.
        if let Err(e) = cp.after_change(&current.target, Some(&hash)) {
            tracing::warn!("checkpoint journal: {e}");
        }
    }
    let meta = fs::metadata(&current.target).map_err(write_err)?;
    store.record(&current.key, snapshot::state_of(&meta, Some(&hash), false));
    Ok(hash)
}

/// When the folder of a new file was made by this change (the lock covered an ancestor), locks it as well and checks
/// that no other process, finding the folder there, created the file meanwhile.
fn hold_new_folder(lock: &mut ChangeLock, current: &Current, dir: &Path) -> Result<(), ToolError> {
    let Some(held) = lock.0.as_mut().filter(|held| !held.covers(dir)) else {
        return Ok(());
    };
    held.extend_to(dir, LOCK_WAIT).map_err(|e| {
        ToolError::to_model(format!("{} was not changed: {e}.", current.key.display()))
    })?;
    if !current.exists() && fs::symlink_metadata(&current.target).is_ok() {
        return Err(ToolError::to_model(format!(
            "{} was created by another program while this change was prepared; read it before changing it.",
            current.key.display()
        )));
    }
    Ok(())
}
