//! The agent's checklist of a session: TodoWrite (the whole to-do list replaced each call) or the task tools
//! (TaskCreate, TaskGet, TaskUpdate, TaskList: ids, status, dependencies, owner). A feature switch chooses which
//! family the model is offered; both keep their list on the session's [`WorkBoard`], which announces every change
//! with the whole list (the window pins it; the store keeps it, so reopening a session restores it).

mod board;
mod tasks;
mod todo_write;

use std::sync::Arc;

pub use board::WorkBoard;
pub use tasks::{TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool};
pub use todo_write::TodoWriteTool;

use crate::tool::{DynTool, erase};

/// The environment variable that switches from TodoWrite to the task tools (`1` or `true`).
pub const TASKS_ENV: &str = "CLAUDE_CODE_ENABLE_TASKS";

/// Which checklist tools the model is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WorkListFamily {
    /// TodoWrite.
    #[default]
    Todos,
    /// TaskCreate, TaskGet, TaskUpdate, TaskList.
    Tasks,
}

impl WorkListFamily {
    /// The family [`TASKS_ENV`] chooses (TodoWrite unless it is `1` or `true`).
    pub fn from_env() -> Self {
        match std::env::var(TASKS_ENV).as_deref().map(str::trim) {
            Ok("1") | Ok("true") => Self::Tasks,
            _ => Self::Todos,
        }
    }
}

/// The tools of `family`, keeping their list on `board`.
pub fn tools(family: WorkListFamily, board: &Arc<WorkBoard>) -> Vec<Arc<dyn DynTool>> {
    match family {
        WorkListFamily::Todos => vec![erase(TodoWriteTool::new(board.clone()))],
        WorkListFamily::Tasks => vec![
            erase(TaskCreateTool::new(board.clone())),
            erase(TaskGetTool::new(board.clone())),
            erase(TaskUpdateTool::new(board.clone())),
            erase(TaskListTool::new(board.clone())),
        ],
    }
}
