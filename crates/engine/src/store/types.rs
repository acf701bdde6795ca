//! What the store hands out: session rows, summaries for a session list, stored events, tool calls, a loaded session.

use std::path::PathBuf;

use serde_json::Value;
use tandem_protocol::{
    PermissionDecision, PermissionMode, SessionEvent, TaskItem, TodoItem, ToolOutcome, Usage,
};

use crate::model::Message;

/// What a new session row starts with.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSession {
    pub id: String,
    /// The project folder (canonicalised by the store when it exists).
    pub folder: PathBuf,
    pub model: String,
    pub mode: PermissionMode,
}

/// One session row.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRecord {
    pub id: String,
    /// Canonical path of the project folder.
    pub folder: PathBuf,
    /// From the first prompt until renamed; empty before the first prompt.
    pub title: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last write.
    pub updated_at: i64,
    pub model: String,
    /// The stored mode; an unknown name reads as [`PermissionMode::Default`].
    pub mode: PermissionMode,
    pub usage: Usage,
    pub cost_usd: f64,
}

/// A row of a folder's session list.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    pub record: SessionRecord,
    /// Messages in the model history.
    pub message_count: u64,
    /// How the person organised it.
    pub organised: Organised,
}

/// How the person organised a session: its collection, pin, archive and tags.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Organised {
    /// The collection it is in; `None`: the top level.
    pub collection_id: Option<i64>,
    /// Unix milliseconds when it was pinned; `None`: not pinned.
    pub pinned_at: Option<i64>,
    /// Unix milliseconds when it was archived; `None`: not archived.
    pub archived_at: Option<i64>,
    /// Lower-case, sorted, without repeats.
    pub tags: Vec<String>,
}

impl Organised {
    pub fn pinned(&self) -> bool {
        self.pinned_at.is_some()
    }

    pub fn archived(&self) -> bool {
        self.archived_at.is_some()
    }
}

/// A collection of sessions in one project folder (the window calls it a folder); collections nest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    pub id: i64,
    /// The project folder it belongs to.
    pub folder: PathBuf,
    /// The collection it is in; `None`: the top level.
    pub parent_id: Option<i64>,
    pub name: String,
    /// Unix milliseconds.
    pub created_at: i64,
}

impl SessionSummary {
    /// The row as the window's session list shows it.
    pub fn to_protocol(&self) -> tandem_protocol::SessionSummary {
        tandem_protocol::SessionSummary {
            session_id: self.record.id.clone(),
            title: self.record.title.clone(),
            updated_at_ms: self.record.updated_at.max(0) as u64,
            message_count: u32::try_from(self.message_count).unwrap_or(u32::MAX),
            pinned: self.organised.pinned(),
            archived: self.organised.archived(),
            tags: self.organised.tags.clone(),
            collection_id: self.organised.collection_id,
        }
    }
}

/// An event as it was recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    /// Position in the session, from 0, without gaps.
    pub seq: u64,
    /// Unix milliseconds when it was emitted.
    pub at: i64,
    pub event: SessionEvent,
}

impl StoredEvent {
    /// `events` as a session stored them, numbered from 0 (for tests of what reads stored events).
    #[cfg(test)]
    pub(crate) fn numbered(events: Vec<SessionEvent>) -> Vec<Self> {
        events
            .into_iter()
            .enumerate()
            .map(|(i, event)| Self {
                seq: i as u64,
                at: 0,
                event,
            })
            .collect()
    }
}

/// A tool call with its decision and timings.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallRecord {
    pub tool_use_id: String,
    pub name: String,
    pub input: Option<Value>,
    pub decision: Option<PermissionDecision>,
    /// `None` while the call had not ended (it was running when Tandem stopped).
    pub outcome: Option<ToolOutcome>,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub duration_ms: Option<i64>,
}

/// Everything stored about a session.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSession {
    pub record: SessionRecord,
    /// The model history exactly as stored.
    pub messages: Vec<Message>,
    /// `messages` with the text of an answer cut off while it streamed put back from the events, and repaired so
    /// that the next request is valid (see [`super::repair_history`]).
    pub history: Vec<Message>,
    /// Every event in order: the transcript as it streamed, including text of a message that never completed.
    pub events: Vec<StoredEvent>,
    /// In the order they started.
    pub tool_calls: Vec<ToolCallRecord>,
    /// The to-do list as it last changed.
    pub todos: Vec<TodoItem>,
    /// The task list as it last changed.
    pub tasks: Vec<TaskItem>,
    /// The sub-agents' conversations, in the order they started.
    pub sidechains: Vec<Sidechain>,
}

/// A sub-agent's conversation, stored beside the session's own.
#[derive(Debug, Clone, PartialEq)]
pub struct Sidechain {
    pub agent_id: String,
    /// The parent's tool call (Agent) that started it.
    pub parent_tool_use_id: String,
    pub agent_type: String,
    pub description: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Its model history.
    pub messages: Vec<Message>,
    /// Its own to-do list as it last changed.
    pub todos: Vec<TodoItem>,
    /// Its own task list as it last changed.
    pub tasks: Vec<TaskItem>,
}

impl LoadedSession {
    /// The `seq` the next recorded event gets.
    pub fn next_seq(&self) -> u64 {
        self.events.last().map(|e| e.seq + 1).unwrap_or(0)
    }
}
