//! TodoWrite: the model sends its whole to-do list each time; the list replaces the session's (a list whose items
//! are all completed is cleared).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, TodoItem, TodoStatus, ToolKind};

use super::WorkBoard;
use crate::tool::names;
use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput};
use crate::tools::responses::{self, TodoEntry, TodoWriteResponse};

/// One item.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TodoInput {
    /// What is to be done, imperative ("Run the tests").
    pub content: String,
    /// pending, in_progress or completed. Exactly one item is in_progress while you work.
    pub status: TodoStatus,
    /// The same in the present continuous ("Running the tests"), shown while it is in progress.
    #[serde(rename = "activeForm")]
    pub active_form: String,
}

/// The whole updated list.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TodoWriteInput {
    /// The complete to-do list, replacing the current one.
    pub todos: Vec<TodoInput>,
}

/// Replaces the session's to-do list.
#[derive(Debug, Clone)]
pub struct TodoWriteTool {
    board: Arc<WorkBoard>,
}

impl TodoWriteTool {
    pub fn new(board: Arc<WorkBoard>) -> Self {
        Self { board }
    }
}

/// Checks that every item has its texts and that at most one is in progress.
pub fn check_todos(todos: &[TodoInput]) -> Result<(), String> {
    for (i, todo) in todos.iter().enumerate() {
        if todo.content.trim().is_empty() {
            return Err(format!("Item {} has no content.", i + 1));
        }
        if todo.active_form.trim().is_empty() {
            return Err(format!("Item {} has no activeForm.", i + 1));
        }
    }
    let running = todos
        .iter()
        .filter(|t| t.status == TodoStatus::InProgress)
        .count();
    if running > 1 {
        return Err(format!(
            "{running} items are in_progress: exactly one item may be in progress at a time. Mark the others \
             pending or completed."
        ));
    }
    Ok(())
}

impl Tool for TodoWriteTool {
    type Input = TodoWriteInput;

    fn name(&self) -> &'static str {
        names::TODO_WRITE
    }

    /// One of the core tools whose schema lies in the strict subset: the model's input always fits it.
    fn strict(&self) -> bool {
        true
    }

    fn output_schema(&self) -> Option<serde_json::Value> {
        responses::schema::<TodoWriteResponse>()
    }

    fn description(&self) -> String {
        "Create and update the to-do list of this session, shown to the user as a live checklist. Use it for \
         tasks of three steps or more: send the whole list each time (it replaces the previous one). Mark an item \
         in_progress before you begin it (one at a time) and completed as soon as it is done."
            .into()
    }

    fn render_hints(&self, input: &TodoWriteInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Update the to-do list ({} items)", input.todos.len()),
            collapsible: true,
        }
    }

    fn permission_subject(&self, _input: &TodoWriteInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(
        &self,
        input: &TodoWriteInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        check_todos(&input.todos)
    }

    async fn call(
        &self,
        input: &TodoWriteInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let todos: Vec<TodoItem> = input
            .todos
            .iter()
            .map(|t| TodoItem {
                content: t.content.clone(),
                status: t.status,
                active_form: t.active_form.clone(),
            })
            .collect();
        let all_done = !todos.is_empty() && todos.iter().all(|t| t.status == TodoStatus::Completed);
        let new_todos = todos.iter().map(TodoEntry::from).collect();
        let old = self
            .board
            .set_todos(if all_done { Vec::new() } else { todos });
        let response = TodoWriteResponse {
            old_todos: old.iter().map(TodoEntry::from).collect(),
            new_todos,
        };
        Ok(ToolOutput::text(
            "The to-do list was updated. Keep using it to track your progress, and go on with the current item.",
        )
        .with_structured(&response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn todo(status: TodoStatus) -> TodoInput {
        TodoInput {
            content: "Run the tests".into(),
            status,
            active_form: "Running the tests".into(),
        }
    }

    #[test]
    fn at_most_one_item_is_in_progress_and_texts_are_required() {
        assert!(check_todos(&[todo(TodoStatus::InProgress), todo(TodoStatus::Pending)]).is_ok());
        let two = check_todos(&[todo(TodoStatus::InProgress), todo(TodoStatus::InProgress)]);
        assert!(
            two.expect_err("refused")
                .contains("one item may be in progress")
        );
        let mut blank = todo(TodoStatus::Pending);
        blank.active_form = " ".into();
        assert!(
            check_todos(&[blank])
                .expect_err("refused")
                .contains("activeForm")
        );
    }
}
