//! The agent's own checklist of a session, pinned live above the prompt: the to-do list (TodoWrite) or the task
//! list (TaskCreate / TaskUpdate, with ids, owners and dependencies). The engine sends the whole list whenever it
//! changes (`todos_changed`, `tasks_changed`) and keeps it with the session.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where an item of the checklist is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    #[default]
    Pending,
    InProgress,
    Completed,
}

/// One item of the to-do list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TodoItem {
    /// What is to be done, imperative ("Run the tests").
    pub content: String,
    pub status: TodoStatus,
    /// The same in the present continuous, shown while it is in progress ("Running the tests").
    pub active_form: String,
}

/// One task of the task list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TaskItem {
    /// Short and stable (`1`, `2`, …), unique in the session.
    pub id: String,
    /// A brief title.
    pub subject: String,
    pub description: String,
    /// Shown while it is in progress ("Running the tests").
    pub active_form: Option<String>,
    pub status: TodoStatus,
    /// Who works on it (an agent's name), if anyone claimed it.
    pub owner: Option<String>,
    /// Tasks that cannot start before this one is completed.
    pub blocks: Vec<String>,
    /// Tasks that must be completed before this one can start.
    pub blocked_by: Vec<String>,
}
