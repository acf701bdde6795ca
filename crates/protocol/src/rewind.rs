//! Rewinding a session to before one of its prompts: the points offered and what a rewind did.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::SubAgentOrigin;

/// What to rewind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum RewindScope {
    Files,
    Conversation,
    Both,
}

/// A prompt the session can be rewound to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RewindPoint {
    /// The prompt's position in the history (what a rewind takes).
    pub prompt_id: String,
    /// The prompt's text (its first 200 characters).
    pub prompt: String,
    /// Files changed from this prompt on.
    pub files_changed_since: Vec<String>,
}

/// What a rewind did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RewindOutcome {
    pub restored: Vec<String>,
    pub removed: Vec<String>,
    /// Files changed outside Tandem; when the rewind was not forced, nothing was changed because of them.
    pub conflicts: Vec<String>,
    /// Whether the files were rewound.
    pub files_rewound: bool,
    /// Messages removed from the conversation.
    #[ts(type = "number")]
    pub messages_removed: usize,
}

/// A file the session changed: its text before the session first changed it and now, for the changes view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ChangedFile {
    /// Absolute path.
    pub path: String,
    /// The text before the session's first change (`None`: the file did not exist).
    pub before: Option<String>,
    /// The text now (`None`: the file no longer exists).
    pub after: Option<String>,
    /// Why the texts are left out (binary content, too large to show), if they are.
    pub omitted: Option<String>,
    /// The sub-agents that changed it (empty: only the session's own agent did).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<SubAgentOrigin>>", optional)]
    pub changed_by: Vec<SubAgentOrigin>,
}
