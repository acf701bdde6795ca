//! Forking a stored session: a new session on the same folder holding the conversation up to before one of its
//! prompts (or all of it), so the person can try another way from there while the original stays as it was. The
//! fork's transcript is the original's up to that prompt; the files are not touched (a fork is a conversation, and
//! its rewinds find no checkpoints from before it). A fork at a `/compact` row holds the conversation as that
//! compaction left it (its summary, the prompt it kept and that prompt's answer), and its transcript keeps the row.

use tandem_protocol::SessionEvent;

use super::prompt_ids::mark_legacy;
use super::rewind::{Cut, RewindError, cut_for};
use crate::store::{NewSession, SessionStore, StoredEvent};

/// Creates the fork of stored session `session_id` at `prompt_id` (before that prompt; `None`: the whole
/// conversation) and returns its id. The original (open or not: what it queued is written first) is read, never
/// changed. On a store error the fork may exist without its title or its last rows; the error says so.
pub fn fork(
    store: &SessionStore,
    session_id: &str,
    prompt_id: Option<&str>,
) -> Result<String, RewindError> {
    store.flush()?;
    let loaded = store
        .load_session(session_id)?
        .ok_or_else(|| RewindError::UnknownSession(session_id.into()))?;
    let mut messages = loaded.messages.clone();
    mark_legacy(&mut messages);
    let cut = match prompt_id {
        Some(prompt) => cut_for(&messages, prompt)?,
        None => Cut::Before(messages.len()),
    };
    cut.apply(&mut messages);
    let compaction = prompt_id.filter(|id| {
        messages
            .iter()
            .any(|m| m.marks.compaction.as_deref() == Some(*id))
    });
    let id = uuid::Uuid::new_v4().to_string();
    store.create_session(&NewSession {
        id: id.clone(),
        folder: loaded.record.folder.clone(),
        model: loaded.record.model.clone(),
        mode: loaded.record.mode,
    })?;
    let (kept, found) = match compaction {
        Some(id) => events_through(&loaded.events, id),
        None => events_before(&loaded.events, prompt_id),
    };
    for (seq, stored) in kept.iter().enumerate() {
        store.record_event(&id, seq as u64, stored.event.clone());
    }
    if let (Some(prompt), false) = (prompt_id, found) {
        // Events recorded before prompts carried ids: the transcript drops the rows from that prompt on.
        store.record_event(
            &id,
            kept.len() as u64,
            SessionEvent::ConversationRewound {
                prompt_id: prompt.to_string(),
            },
        );
    }
    store.replace_messages(&id, 0, &messages);
    store.flush()?;
    let title = if loaded.record.title.is_empty() {
        "Fork".to_string()
    } else {
        format!("Fork of {}", loaded.record.title)
    };
    store.rename_session(&id, &title)?;
    Ok(id)
}

/// The events before the turn that prompt `prompt_id` started (its latest one: a prompt id is reused after a
/// rewind), and whether that turn was found; all of them without a prompt.
fn events_before<'a>(
    events: &'a [StoredEvent],
    prompt_id: Option<&str>,
) -> (&'a [StoredEvent], bool) {
    let Some(prompt) = prompt_id else {
        return (events, true);
    };
    match events.iter().rposition(|stored| {
        matches!(&stored.event, SessionEvent::TurnStarted { prompt_id: Some(p), .. } if p == prompt)
    }) {
        Some(start) => (&events[..start], true),
        None => (events, false),
    }
}

/// The events up to the end of the turn that point `id` started (a `/compact` row: its notice stays), and whether
/// that turn was found.
fn events_through<'a>(events: &'a [StoredEvent], id: &str) -> (&'a [StoredEvent], bool) {
    let started = |stored: &StoredEvent| matches!(&stored.event, SessionEvent::TurnStarted { .. });
    match events.iter().rposition(|stored| {
        matches!(&stored.event, SessionEvent::TurnStarted { prompt_id: Some(p), .. } if p == id)
    }) {
        Some(start) => {
            let end = events[start + 1..]
                .iter()
                .position(started)
                .map_or(events.len(), |i| start + 1 + i);
            (&events[..end], true)
        }
        None => (events, false),
    }
}
