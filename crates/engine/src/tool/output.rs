//! What a tool call produces: the result for the model, data for the UI, and an optional context change.

use std::fmt;
use std::sync::Arc;

use tandem_protocol::ToolDetail;

use crate::model::ToolResultContent;
use crate::permission::PermissionContext;

/// A change to the permission context made by a tool (e.g. entering plan mode). Only honoured for tools that are
/// not concurrency-safe; it applies to the calls after this one.
#[derive(Clone)]
pub struct ContextModifier(pub Arc<dyn Fn(&PermissionContext) -> PermissionContext + Send + Sync>);

impl fmt::Debug for ContextModifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ContextModifier")
    }
}

/// A successful tool result.
#[derive(Debug, Clone)]
pub struct ToolOutput {
    /// What the model is given.
    pub content: ToolResultContent,
    /// Structured data for the UI (e.g. a file change with its diff); never sent to the model.
    pub detail: Option<ToolDetail>,
    pub context_modifier: Option<ContextModifier>,
}

impl ToolOutput {
    /// A plain text result.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: ToolResultContent::Text(text.into()),
            detail: None,
            context_modifier: None,
        }
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
