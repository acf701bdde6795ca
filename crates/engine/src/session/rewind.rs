//! Rewinding a stored session to before one of its prompts: the files (from the session's checkpoints), the
//! conversation (the history is cut before the prompt), or both. Files changed outside Tandem since it last wrote
//! them stop a file rewind unless it is forced, so such a change is never overwritten silently. A prompt's id is the
//! place of its user message in the history; a `/compact` row's is the place of the summary it wrote (what
//! rewinding to it does is told at `Session::compact_now`).

use super::session_dir;
use crate::checkpoint::{CheckpointError, CheckpointInfo, CheckpointStore, RewindReport};
use crate::model::{Message, Role};
use crate::store::{SessionStore, StoreError};

pub use tandem_protocol::{RewindOutcome, RewindPoint, RewindScope};

/// Why a rewind could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RewindError {
    #[error("no stored session {0}")]
    UnknownSession(String),
    #[error("prompt {0} is not a prompt of this session (see the list of rewind points)")]
    UnknownPrompt(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

fn prompt_text(message: &Message) -> Option<String> {
    if message.role != Role::User {
        return None;
    }
    let text = message.text();
    (!text.is_empty()).then(|| text.chars().take(200).collect())
}

fn checkpoints_of(session_id: &str) -> Result<CheckpointStore, CheckpointError> {
    CheckpointStore::open(session_dir(session_id).join("checkpoints"))
}

/// The prompts of a conversation with the files changed from each on, oldest first.
pub fn points_of(messages: &[Message], checkpoints: &[CheckpointInfo]) -> Vec<RewindPoint> {
    messages
        .iter()
        .enumerate()
        .filter_map(|(i, m)| prompt_text(m).map(|p| (i, p)))
        .map(|(index, prompt)| {
            let mut files: Vec<String> = checkpoints
                .iter()
                .filter(|c| c.prompt_id.parse::<usize>().is_ok_and(|p| p >= index))
                .flat_map(|c| c.files.iter().map(|f| f.display().to_string()))
                .collect();
            files.sort();
            files.dedup();
            RewindPoint {
                prompt_id: index.to_string(),
                prompt,
                files_changed_since: files,
            }
        })
        .collect()
}

/// The checkpoint holding the files' content from before prompt `index`: the earliest one at or after it.
pub fn checkpoint_before(index: usize, checkpoints: &[CheckpointInfo]) -> Option<String> {
    checkpoints
        .iter()
        .filter_map(|c| {
            c.prompt_id
                .parse::<usize>()
                .ok()
                .filter(|p| *p >= index)
                .map(|p| (p, &c.prompt_id))
        })
        .min_by_key(|(p, _)| *p)
        .map(|(_, id)| id.clone())
}

/// The position of prompt `prompt_id` in `messages`, if it is a prompt there.
pub fn prompt_index(messages: &[Message], prompt_id: &str) -> Result<usize, RewindError> {
    prompt_id
        .parse::<usize>()
        .ok()
        .filter(|i| messages.get(*i).and_then(prompt_text).is_some())
        .ok_or_else(|| RewindError::UnknownPrompt(prompt_id.into()))
}

/// Copies a checkpoint rewind's report into `outcome`.
pub fn apply_report(outcome: &mut RewindOutcome, report: RewindReport) {
    let show =
        |paths: Vec<std::path::PathBuf>| paths.iter().map(|p| p.display().to_string()).collect();
    outcome.restored = show(report.restored);
    outcome.removed = show(report.removed);
    outcome.conflicts = show(report.conflicts);
    outcome.files_rewound = report.applied;
}

/// The prompts of the stored session `session_id`, oldest first.
pub fn rewind_points(
    store: &SessionStore,
    session_id: &str,
) -> Result<Vec<RewindPoint>, RewindError> {
    let loaded = store
        .load_session(session_id)?
        .ok_or_else(|| RewindError::UnknownSession(session_id.into()))?;
    Ok(points_of(
        &loaded.messages,
        &checkpoints_of(session_id)?.checkpoints(),
    ))
}

/// Rewinds the stored session `session_id` to before prompt `prompt_id`; a session open anywhere (its lock is
/// held) is refused with `StoreError::InUse`. A file rewind with
/// conflicts and no `force` changes nothing (neither files nor conversation) and reports the conflicts.
pub fn rewind(
    store: &SessionStore,
    session_id: &str,
    prompt_id: &str,
    scope: RewindScope,
    force: bool,
) -> Result<RewindOutcome, RewindError> {
    // One writer per session: a session running in another process is not rewound under it.
    let _lock = store.lock_session(session_id)?;
    let loaded = store
        .load_session(session_id)?
        .ok_or_else(|| RewindError::UnknownSession(session_id.into()))?;
    let index = prompt_index(&loaded.messages, prompt_id)?;
    let mut outcome = RewindOutcome::default();
    if scope != RewindScope::Conversation {
        let checkpoints = checkpoints_of(session_id)?;
        match checkpoint_before(index, &checkpoints.checkpoints()) {
            Some(id) => {
                apply_report(&mut outcome, checkpoints.rewind(&id, force)?);
                if !outcome.files_rewound {
                    return Ok(outcome);
                }
            }
            None => outcome.files_rewound = true,
        }
    }
    if scope != RewindScope::Files {
        outcome.messages_removed = loaded.messages.len() - index;
        store.replace_messages(session_id, index, &[]);
        store.flush()?;
    }
    Ok(outcome)
}
