//! Leftovers of earlier runs: checkpoint folders no rewind can use any more. A session that is not stored (a
//! `tandem tool` run, a session without a database) cannot be rewound once it ends, so its checkpoints go with it;
//! on start, one sweep per process removes the checkpoints of sessions the database does not know (left by a run
//! that was killed) and of sessions untouched for [`MAX_AGE`].

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use crate::store::SessionStore;

/// Checkpoints of a session untouched this long are removed.
pub const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 3600);

/// A folder younger than this may belong to a run that is starting: it is left alone whatever the database says.
const GRACE: Duration = Duration::from_secs(3600);

static SWEPT: AtomicBool = AtomicBool::new(false);

/// Removes the checkpoints and transcripts of a session that ends without being stored.
pub fn drop_unstored(session_dir: &Path) {
    let checkpoints = session_dir.join("checkpoints");
    match std::fs::remove_dir_all(&checkpoints) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            tracing::warn!("checkpoints {}: {e}", checkpoints.display());
        }
        _ => {}
    }
    // Its transcripts go too (a hook may have read them while it ran).
    let _ = std::fs::remove_file(session_dir.join("transcript.jsonl"));
    let _ = std::fs::remove_dir_all(session_dir.join("subagents"));
    // The session folder itself, when nothing else is in it.
    let _ = std::fs::remove_dir(session_dir);
}

/// Starts the sweep of `sessions_root` (once per process, in the background).
pub fn sweep_once(sessions_root: std::path::PathBuf, store: Option<Arc<SessionStore>>) {
    if SWEPT.swap(true, Ordering::SeqCst) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("tandem-checkpoint-sweep".into())
        .spawn(move || sweep(&sessions_root, store.as_deref(), SystemTime::now()));
    if let Err(e) = spawned {
        tracing::warn!("checkpoint sweep: {e}");
    }
}

/// Removes the checkpoints of sessions unknown to `store` (older than an hour) and of sessions older than
/// [`MAX_AGE`]; returns how many folders were removed.
pub fn sweep(sessions_root: &Path, store: Option<&SessionStore>, now: SystemTime) -> usize {
    let Ok(entries) = std::fs::read_dir(sessions_root) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let dir = entry.path();
        let checkpoints = dir.join("checkpoints");
        let Ok(meta) = std::fs::metadata(&checkpoints) else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .unwrap_or_default();
        let id = entry.file_name().to_string_lossy().into_owned();
        let unknown = || store.is_some_and(|s| matches!(s.session(&id), Ok(None)));
        if age > MAX_AGE || (age > GRACE && unknown()) {
            if std::fs::remove_dir_all(&checkpoints).is_ok() {
                removed += 1;
            }
            let _ = std::fs::remove_dir(&dir);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::NewSession;
    use tandem_protocol::PermissionMode;

    #[test]
    fn checkpoints_of_unknown_and_old_sessions_are_swept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("sessions");
        let store = SessionStore::open(&dir.path().join("sessions.db")).expect("store");
        store
            .create_session(&NewSession {
                id: "kept".into(),
                folder: dir.path().to_path_buf(),
                model: "m".into(),
                mode: PermissionMode::Default,
            })
            .expect("create");
        for id in ["kept", "unknown"] {
            std::fs::create_dir_all(root.join(id).join("checkpoints/blobs")).expect("mkdir");
        }
        let checkpoints = |id: &str| root.join(id).join("checkpoints").exists();

        // Fresh folders are left alone: they may belong to a run that is starting.
        assert_eq!(sweep(&root, Some(&store), SystemTime::now()), 0);
        assert!(checkpoints("kept") && checkpoints("unknown"));

        let later = SystemTime::now() + GRACE + Duration::from_secs(60);
        assert_eq!(sweep(&root, Some(&store), later), 1);
        assert!(checkpoints("kept") && !checkpoints("unknown"));

        let much_later = SystemTime::now() + MAX_AGE + Duration::from_secs(60);
        assert_eq!(sweep(&root, Some(&store), much_later), 1);
        assert!(!checkpoints("kept"));
    }
}
