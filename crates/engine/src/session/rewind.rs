//! Rewinding a stored session to before one of its prompts: the files (from the session's checkpoints), the
//! conversation (the history is cut before the prompt), or both. Files changed outside Tandem since it last wrote
//! them stop a file rewind unless it is forced, so such a change is never overwritten silently. Prompts are named by
//! the ids their messages carry ([`super::prompt_ids`]), so a compaction or an earlier rewind never makes an id
//! name another row.
//!
//! A compaction keeps the conversation before the first prompt it kept only as a summary, opening that prompt's
//! message. Going back to before that prompt keeps the summary; going back to a `/compact` row keeps everything it
//! compacted (the summary and the prompt it kept, with its answer) and drops what came after; a prompt the summary
//! replaced can no longer be gone back to in the conversation, though its files can.

use super::prompt_ids::mark_legacy;
use super::session_dir;
use crate::checkpoint::{CheckpointError, CheckpointInfo, CheckpointStore, RewindReport};
use crate::model::{Message, text_of};
use crate::store::{SessionStore, StoreError};

pub use tandem_protocol::{RewindOutcome, RewindPoint, RewindScope};

/// Why a rewind could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RewindError {
    #[error("no stored session {0}")]
    UnknownSession(String),
    #[error("prompt {0} is not a prompt of this session (see the list of rewind points)")]
    UnknownPrompt(String),
    #[error(
        "the conversation before prompt {0} was compacted into a summary: it can be rewound to a later prompt \
         or the /compact row (its files can still be rewound)"
    )]
    Summarised(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// The text of a prompt's message as the person wrote it (a compaction's summary left out), shortened.
fn prompt_text(message: &Message) -> String {
    let skip = usize::from(message.marks.has_summary());
    text_of(message.content.get(skip..).unwrap_or_default(), "")
        .chars()
        .take(200)
        .collect()
}

fn checkpoints_of(session_id: &str) -> Result<CheckpointStore, CheckpointError> {
    CheckpointStore::open(session_dir(session_id).join("checkpoints"))
}

fn number(id: &str) -> Option<u64> {
    id.parse().ok()
}

/// The files changed from point `id` on (by its checkpoint and every later one), sorted.
fn files_since(id: &str, checkpoints: &[CheckpointInfo]) -> Vec<String> {
    let Some(from) = number(id) else {
        return Vec::new();
    };
    let mut files: Vec<String> = checkpoints
        .iter()
        .filter(|c| number(&c.prompt_id).is_some_and(|p| p >= from))
        .flat_map(|c| c.files.iter().map(|f| f.display().to_string()))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The points a conversation can be rewound to — its prompts and its `/compact` rows — with the files changed from
/// each on, oldest first.
pub fn points_of(messages: &[Message], checkpoints: &[CheckpointInfo]) -> Vec<RewindPoint> {
    let mut points: Vec<RewindPoint> = Vec::new();
    for message in messages {
        for id in &message.marks.prompts {
            points.push(RewindPoint {
                prompt_id: id.clone(),
                prompt: prompt_text(message),
                files_changed_since: files_since(id, checkpoints),
            });
        }
        if let Some(id) = &message.marks.compaction {
            points.push(RewindPoint {
                prompt_id: id.clone(),
                prompt: "/compact".into(),
                files_changed_since: files_since(id, checkpoints),
            });
        }
    }
    points.sort_by_key(|p| number(&p.prompt_id));
    points
}

/// The checkpoint holding the files' content from before point `id`: its own, or the earliest one after it.
pub fn checkpoint_before(id: &str, checkpoints: &[CheckpointInfo]) -> Option<String> {
    let from = number(id)?;
    checkpoints
        .iter()
        .filter_map(|c| {
            number(&c.prompt_id)
                .filter(|p| *p >= from)
                .map(|p| (p, &c.prompt_id))
        })
        .min_by_key(|(p, _)| *p)
        .map(|(_, id)| id.clone())
}

/// Where going back to before a point cuts the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The messages before this place stay.
    Before(usize),
    /// The messages before this place stay, and of this one only the compaction's summary it opens with.
    SummaryOf(usize),
}

impl Cut {
    /// Cuts `history`; returns how many messages went (a message cut down to its summary is not counted).
    pub fn apply(self, history: &mut Vec<Message>) -> usize {
        let before = history.len();
        match self {
            Cut::Before(at) => history.truncate(at),
            Cut::SummaryOf(at) => {
                history.truncate(at + 1);
                if let Some(message) = history.get_mut(at) {
                    message.content.truncate(1);
                    message.marks.prompts.clear();
                }
            }
        }
        before - history.len()
    }

    /// The first message the cut changes or removes.
    pub fn first_changed(self) -> usize {
        match self {
            Cut::Before(at) | Cut::SummaryOf(at) => at,
        }
    }
}

/// Where going back to before point `id` (a prompt or a `/compact` row) cuts `messages`.
pub fn cut_for(messages: &[Message], id: &str) -> Result<Cut, RewindError> {
    if let Some(at) = messages
        .iter()
        .position(|m| m.marks.compaction.as_deref() == Some(id))
    {
        // All that was compacted stays: up to the next prompt after the summary.
        let next = messages
            .iter()
            .enumerate()
            .skip(at + 1)
            .find(|(_, m)| !m.marks.prompts.is_empty())
            .map_or(messages.len(), |(i, _)| i);
        return Ok(Cut::Before(next));
    }
    if let Some(at) = messages
        .iter()
        .position(|m| m.marks.prompts.iter().any(|p| p == id))
    {
        return Ok(if messages[at].marks.has_summary() {
            Cut::SummaryOf(at)
        } else {
            Cut::Before(at)
        });
    }
    // Older than the prompt a compaction kept: only the summary tells of it.
    let kept_by_summary = messages
        .iter()
        .find_map(|m| m.marks.summary_before.as_deref())
        .and_then(number);
    match (number(id), kept_by_summary) {
        (Some(n), Some(first_kept)) if n < first_kept => Err(RewindError::Summarised(id.into())),
        _ => Err(RewindError::UnknownPrompt(id.into())),
    }
}

/// Whether `id` names a point of `messages` whose files can be rewound: a point of the conversation, or one a
/// compaction summarised.
fn files_point(messages: &[Message], id: &str) -> Result<(), RewindError> {
    match cut_for(messages, id) {
        Ok(_) | Err(RewindError::Summarised(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Checks that a rewind of `scope` to point `id` can be done on `messages`; the cut for the conversation, if it is
/// rewound.
pub fn plan(
    messages: &[Message],
    id: &str,
    scope: RewindScope,
) -> Result<Option<Cut>, RewindError> {
    if scope == RewindScope::Files {
        files_point(messages, id)?;
        return Ok(None);
    }
    cut_for(messages, id).map(Some)
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

/// The rewind points of the stored session `session_id`, oldest first.
pub fn rewind_points(
    store: &SessionStore,
    session_id: &str,
) -> Result<Vec<RewindPoint>, RewindError> {
    let mut loaded = store
        .load_session(session_id)?
        .ok_or_else(|| RewindError::UnknownSession(session_id.into()))?;
    mark_legacy(&mut loaded.messages);
    Ok(points_of(
        &loaded.messages,
        &checkpoints_of(session_id)?.checkpoints(),
    ))
}

/// Rewinds the stored session `session_id` to before point `prompt_id`; a session open anywhere (its lock is
/// held) is refused with `StoreError::InUse`. A file rewind with conflicts and no `force` changes nothing (neither
/// files nor conversation) and reports the conflicts.
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
    let mut messages = loaded.messages;
    // A history stored before marks were kept is written whole with them, so its ids stay what they were.
    let legacy = mark_legacy(&mut messages);
    let cut = plan(&messages, prompt_id, scope)?;
    let mut outcome = RewindOutcome::default();
    if scope != RewindScope::Conversation {
        let checkpoints = checkpoints_of(session_id)?;
        match checkpoint_before(prompt_id, &checkpoints.checkpoints()) {
            Some(id) => {
                apply_report(&mut outcome, checkpoints.rewind(&id, force)?);
                if !outcome.files_rewound {
                    return Ok(outcome);
                }
            }
            None => outcome.files_rewound = true,
        }
    }
    if let Some(cut) = cut {
        outcome.messages_removed = cut.apply(&mut messages);
        let from = if legacy { 0 } else { cut.first_changed() };
        store.replace_messages(session_id, from, &messages[from.min(messages.len())..]);
        store.flush()?;
    }
    Ok(outcome)
}
