//! Render hints: how the transcript should draw a tool call, given by the tool itself.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What kind of work a tool call does, for grouping and collapsing in the transcript.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    Read,
    Search,
    List,
    Edit,
    Write,
    Shell,
    Fetch,
    Agent,
    #[default]
    Other,
}

/// How the transcript draws one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RenderHints {
    pub kind: ToolKind,
    /// One line naming what the call does, e.g. `Read src/main.rs`.
    pub title: String,
    /// Whether the call may fold into a one-line summary with its neighbours (read-only work).
    pub collapsible: bool,
}

/// One tool of a session, as the tool list shows it: offered to the model or not, and why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ToolListing {
    pub name: String,
    /// Whether the model is offered it now.
    pub offered: bool,
    /// Why it is not offered (a deny rule; the provider has no such tool).
    pub reason: Option<String>,
}
