//! What a tool call produces: the result for the model, data for the UI, and an optional context change.

use std::path::PathBuf;

use tandem_protocol::{PermissionMode, ToolDetail};

use crate::model::ToolResultContent;

/// A change to the session's permission context asked for by a tool (e.g. entering plan mode). Data, not code: the
/// executor applies it (`PermissionContext::apply`), only for tools that are not concurrency-safe, and it holds for
/// the calls after this one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContextChange {
    /// Switch the permission mode (bypass falls back to default when it is not available).
    SetMode(PermissionMode),
    /// Add a working directory (absolute) for the rest of the session.
    AddWorkingDir(PathBuf),
    /// Add session allow rules (a skill's `allowed-tools`).
    AllowRules(Vec<String>),
    /// Leave plan mode: into the mode given, or back into the mode that was active before plan mode.
    LeavePlanMode(Option<PermissionMode>),
    /// Move the session into a directory (absolute; it becomes a working directory and where tools start), or
    /// back where it was (`None`).
    MoveTo(Option<PathBuf>),
}

/// A successful tool result.
#[derive(Debug, Clone)]
pub struct ToolOutput {
    /// What the model is given.
    pub content: ToolResultContent,
    /// Structured data for the UI (e.g. a file change with its diff); never sent to the model.
    pub detail: Option<ToolDetail>,
    /// A change to the permission context for the calls after this one.
    pub context_change: Option<ContextChange>,
    /// Texts the model is given after the call's result, as the person's side of the conversation (the seed's
    /// `newMessages`): a skill's instructions, for one. They go with the results of the same step, after them.
    pub new_messages: Vec<String>,
    /// The result as data, in the shape the tool's [`crate::tool::Tool::output_schema`] describes: what
    /// PostToolUse hooks receive as `tool_response` (the result's text when there is none). Never sent to the
    /// model.
    pub structured: Option<serde_json::Value>,
}

impl ToolOutput {
    /// A plain text result.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: ToolResultContent::Text(text.into()),
            detail: None,
            context_change: None,
            new_messages: Vec::new(),
            structured: None,
        }
    }

    /// Adds the result as data (see [`ToolOutput::structured`]); a value that cannot be serialised is left out.
    pub fn with_structured(mut self, data: &impl serde::Serialize) -> Self {
        self.structured = serde_json::to_value(data).ok();
        self
    }

    /// Adds the result as data when there is any (a tool that built it only because it was wanted).
    pub fn with_structured_opt(self, data: Option<&impl serde::Serialize>) -> Self {
        match data {
            Some(data) => self.with_structured(data),
            None => self,
        }
    }

    /// Adds `text` to what the model is given after the result.
    pub fn with_new_message(mut self, text: impl Into<String>) -> Self {
        self.new_messages.push(text.into());
        self
    }

    /// Asks for a change of the permission context for the calls after this one.
    pub fn with_context_change(mut self, change: ContextChange) -> Self {
        self.context_change = Some(change);
        self
    }

    /// Adds UI data to the result.
    pub fn with_detail(mut self, detail: ToolDetail) -> Self {
        self.detail = Some(detail);
        self
    }
}

/// A tool failure.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ToolError {
    /// A failure the model is told about as an error result (missing file, no match...).
    #[error("{0}")]
    ToModel(String),
    /// The call was cancelled before it finished.
    #[error("the tool call was cancelled")]
    Cancelled,
}

impl ToolError {
    /// Shorthand for [`ToolError::ToModel`].
    pub fn to_model(message: impl Into<String>) -> Self {
        Self::ToModel(message.into())
    }
}
