//! Rewinding a stored session to before one of its prompts: the files (from the session's checkpoints), the
//! conversation (the history is cut before the prompt), or both. Files changed outside Tandem since it last wrote
//! them stop a file rewind unless it is forced, so such a change is never overwritten silently.

use serde::Serialize;

use super::session_dir;
use crate::checkpoint::{CheckpointError, CheckpointStore};
use crate::model::{ContentBlock, Message, Role};
use crate::store::{SessionStore, StoreError};

/// What to rewind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewindScope {
    Files,
    Conversation,
    Both,
}

/// A prompt the session can be rewound to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RewindPoint {
    /// The prompt's position in the history (what `--to` takes).
    pub prompt_id: String,
    /// The prompt's text (its first 200 characters).
    pub prompt: String,
    /// Files changed from this prompt on.
    pub files_changed_since: Vec<String>,
}

/// What a rewind did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RewindOutcome {
    pub restored: Vec<String>,
    pub removed: Vec<String>,
    /// Files changed outside Tandem; when not forced, nothing was changed because of them.
    pub conflicts: Vec<String>,
    /// Whether the files were rewound.
    pub files_rewound: bool,
    /// Messages removed from the conversation.
    pub messages_removed: usize,
}

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
    let text: String = message
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    (!text.is_empty()).then(|| text.chars().take(200).collect())
}

fn checkpoints_of(session_id: &str) -> Result<CheckpointStore, CheckpointError> {
    CheckpointStore::open(session_dir(session_id).join("checkpoints"))
}

/// The prompts of `session_id` with the files changed from each on, oldest first.
pub fn rewind_points(
    store: &SessionStore,
    session_id: &str,
) -> Result<Vec<RewindPoint>, RewindError> {
    let loaded = store
        .load_session(session_id)?
        .ok_or_else(|| RewindError::UnknownSession(session_id.into()))?;
    let checkpoints = checkpoints_of(session_id)?.checkpoints();
    let points = loaded
        .messages
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
        .collect();
    Ok(points)
}

/// Rewinds `session_id` to before prompt `prompt_id`. A file rewind with conflicts and no `force` changes nothing
/// (neither files nor conversation) and reports the conflicts.
pub fn rewind(
    store: &SessionStore,
    session_id: &str,
    prompt_id: &str,
    scope: RewindScope,
    force: bool,
) -> Result<RewindOutcome, RewindError> {
    let loaded = store
        .load_session(session_id)?
        .ok_or_else(|| RewindError::UnknownSession(session_id.into()))?;
    let index: usize = prompt_id
        .parse()
        .map_err(|_| RewindError::UnknownPrompt(prompt_id.into()))?;
    if loaded.messages.get(index).and_then(prompt_text).is_none() {
        return Err(RewindError::UnknownPrompt(prompt_id.into()));
    }
    let mut outcome = RewindOutcome::default();
    if scope != RewindScope::Conversation {
        let checkpoints = checkpoints_of(session_id)?;
        // The earliest checkpoint at or after the prompt holds the files' content from before it.
        let first = checkpoints
            .checkpoints()
            .into_iter()
            .filter_map(|c| {
                c.prompt_id
                    .parse::<usize>()
                    .ok()
                    .filter(|p| *p >= index)
                    .map(|p| (p, c.prompt_id))
            })
            .min_by_key(|(p, _)| *p);
        if let Some((_, id)) = first {
            let report = checkpoints.rewind(&id, force)?;
            let show = |paths: Vec<std::path::PathBuf>| {
                paths.iter().map(|p| p.display().to_string()).collect()
            };
            outcome.restored = show(report.restored);
            outcome.removed = show(report.removed);
            outcome.conflicts = show(report.conflicts);
            outcome.files_rewound = report.applied;
            if !report.applied {
                return Ok(outcome);
            }
        } else {
            outcome.files_rewound = true;
        }
    }
    if scope != RewindScope::Files {
        outcome.messages_removed = loaded.messages.len() - index;
        store.replace_messages(session_id, index, &[]);
        store.flush()?;
    }
    Ok(outcome)
}
