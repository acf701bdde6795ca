//! TodoWrite's result data: the to-do list before and after the call.

use schemars::JsonSchema;
use serde::Serialize;
use tandem_protocol::{TodoItem, TodoStatus};

/// One to-do item as hooks see it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TodoEntry {
    pub content: String,
    pub status: TodoStatus,
    pub active_form: String,
}

impl From<&TodoItem> for TodoEntry {
    fn from(t: &TodoItem) -> Self {
        Self {
            content: t.content.clone(),
            status: t.status,
            active_form: t.active_form.clone(),
        }
    }
}

/// TodoWrite's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TodoWriteResponse {
    /// The list the session had before.
    pub old_todos: Vec<TodoEntry>,
    /// The list the model sent.
    pub new_todos: Vec<TodoEntry>,
}
