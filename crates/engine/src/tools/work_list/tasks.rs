//! The task tools: TaskCreate, TaskGet, TaskUpdate, TaskList. Tasks have short ids (`1`, `2`, …), a status, an
//! owner and dependencies (`blocks` / `blocked_by`, kept on both sides and free of cycles); a task cannot start
//! while a task it waits for is not completed.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, TaskItem, TodoStatus, ToolKind};

use super::WorkBoard;
use crate::tool::names;
use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput};

/// Creates a task.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskCreateInput {
    /// A brief, imperative title ("Fix the login bug").
    pub subject: String,
    /// What needs to be done, with what is needed to do it.
    pub description: String,
    /// Shown while the task is in progress ("Fixing the login bug").
    #[serde(default, rename = "activeForm")]
    pub active_form: Option<String>,
}

/// Reads one task.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskGetInput {
    /// The task's id.
    #[serde(rename = "taskId")]
    pub task_id: String,
}

/// The status TaskUpdate may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UpdateStatus {
    Pending,
    InProgress,
    Completed,
    /// Removes the task (and the dependencies naming it).
    Deleted,
}

/// Changes a task; fields left out stay as they are.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskUpdateInput {
    /// The task's id.
    #[serde(rename = "taskId")]
    pub task_id: String,
    #[serde(default)]
    pub subject: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default, rename = "activeForm")]
    pub active_form: Option<String>,
    #[serde(default)]
    pub status: Option<UpdateStatus>,
    /// Who works on it (an agent's name); an empty string clears it.
    #[serde(default)]
    pub owner: Option<String>,
    /// Ids of tasks that cannot start before this one is completed.
    #[serde(default, rename = "addBlocks")]
    pub add_blocks: Vec<String>,
    /// Ids of tasks that must be completed before this one can start.
    #[serde(default, rename = "addBlockedBy")]
    pub add_blocked_by: Vec<String>,
}

/// Lists the tasks.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskListInput {}

macro_rules! board_tool {
    ($name:ident) => {
        #[derive(Debug, Clone)]
        pub struct $name {
            board: Arc<WorkBoard>,
        }

        impl $name {
            pub fn new(board: Arc<WorkBoard>) -> Self {
                Self { board }
            }
        }
    };
}

board_tool!(TaskCreateTool);
board_tool!(TaskGetTool);
board_tool!(TaskUpdateTool);
board_tool!(TaskListTool);

fn status_name(status: TodoStatus) -> &'static str {
    match status {
        TodoStatus::Pending => "pending",
        TodoStatus::InProgress => "in_progress",
        TodoStatus::Completed => "completed",
    }
}

fn ids(list: &[String]) -> String {
    list.iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line of TaskList.
fn line(task: &TaskItem) -> String {
    let mut text = format!(
        "#{} [{}] {}",
        task.id,
        status_name(task.status),
        task.subject
    );
    if let Some(owner) = &task.owner {
        text.push_str(&format!(" (owner: {owner})"));
    }
    if !task.blocked_by.is_empty() {
        text.push_str(&format!(" [blocked by {}]", ids(&task.blocked_by)));
    }
    text
}

/// Everything about one task (TaskGet).
fn details(task: &TaskItem) -> String {
    let mut text = format!(
        "Task #{}: {}\nStatus: {}\nDescription: {}",
        task.id,
        task.subject,
        status_name(task.status),
        task.description
    );
    if let Some(owner) = &task.owner {
        text.push_str(&format!("\nOwner: {owner}"));
    }
    if !task.blocked_by.is_empty() {
        text.push_str(&format!("\nBlocked by: {}", ids(&task.blocked_by)));
    }
    if !task.blocks.is_empty() {
        text.push_str(&format!("\nBlocks: {}", ids(&task.blocks)));
    }
    text
}

fn hints(title: String) -> RenderHints {
    RenderHints {
        kind: ToolKind::Other,
        title,
        collapsible: true,
    }
}

fn position(tasks: &[TaskItem], id: &str) -> Result<usize, String> {
    let id = id.trim().trim_start_matches('#');
    tasks
        .iter()
        .position(|t| t.id == id)
        .ok_or_else(|| format!("No task with id {id}. TaskList shows the tasks."))
}

/// Whether `to` can be reached from `from` by following `blocks`.
fn reaches(tasks: &[TaskItem], from: &str, to: &str) -> bool {
    let mut stack = vec![from.to_string()];
    let mut seen = std::collections::HashSet::new();
    while let Some(id) = stack.pop() {
        if id == to {
            return true;
        }
        if !seen.insert(id.clone()) {
            continue;
        }
        if let Some(task) = tasks.iter().find(|t| t.id == id) {
            stack.extend(task.blocks.iter().cloned());
        }
    }
    false
}

/// Records that `before` blocks `after` (both sides); refuses unknown ids, self-dependencies and cycles.
fn add_dependency(tasks: &mut [TaskItem], before: &str, after: &str) -> Result<(), String> {
    let b = position(tasks, before)?;
    let a = position(tasks, after)?;
    if a == b {
        return Err(format!("Task #{} cannot depend on itself.", tasks[a].id));
    }
    let (before, after) = (tasks[b].id.clone(), tasks[a].id.clone());
    if reaches(tasks, &after, &before) {
        return Err(format!(
            "#{before} blocking #{after} would make a cycle: #{after} already leads to #{before}."
        ));
    }
    if !tasks[b].blocks.contains(&after) {
        tasks[b].blocks.push(after.clone());
    }
    if !tasks[a].blocked_by.contains(&before) {
        tasks[a].blocked_by.push(before);
    }
    Ok(())
}

/// Applies one TaskUpdate; returns what the model is told.
fn update(tasks: &mut Vec<TaskItem>, input: &TaskUpdateInput) -> Result<String, String> {
    let i = position(tasks, &input.task_id)?;
    let id = tasks[i].id.clone();
    if input.status == Some(UpdateStatus::Deleted) {
        tasks.remove(i);
        for task in tasks.iter_mut() {
            task.blocks.retain(|b| *b != id);
            task.blocked_by.retain(|b| *b != id);
        }
        return Ok(format!("Task #{id} was deleted."));
    }
    for other in &input.add_blocks {
        add_dependency(tasks, &id, other)?;
    }
    for other in &input.add_blocked_by {
        add_dependency(tasks, other, &id)?;
    }
    let status = match input.status {
        Some(UpdateStatus::Pending) => Some(TodoStatus::Pending),
        Some(UpdateStatus::InProgress) => Some(TodoStatus::InProgress),
        Some(UpdateStatus::Completed) => Some(TodoStatus::Completed),
        Some(UpdateStatus::Deleted) | None => None,
    };
    if status == Some(TodoStatus::InProgress) {
        let waiting: Vec<String> = tasks[i]
            .blocked_by
            .iter()
            .filter(|b| {
                tasks
                    .iter()
                    .any(|t| t.id == **b && t.status != TodoStatus::Completed)
            })
            .cloned()
            .collect();
        if !waiting.is_empty() {
            return Err(format!(
                "Task #{id} cannot start: it waits for {} to be completed.",
                ids(&waiting)
            ));
        }
    }
    let task = &mut tasks[i];
    if let Some(subject) = input.subject.as_ref().filter(|s| !s.trim().is_empty()) {
        task.subject = subject.clone();
    }
    if let Some(description) = &input.description {
        task.description = description.clone();
    }
    if let Some(active) = &input.active_form {
        task.active_form = Some(active.clone());
    }
    if let Some(owner) = &input.owner {
        task.owner = (!owner.trim().is_empty()).then(|| owner.clone());
    }
    if let Some(status) = status {
        task.status = status;
    }
    Ok(format!("Task #{id} was updated: {}", line(task)))
}

impl Tool for TaskCreateTool {
    type Input = TaskCreateInput;

    fn name(&self) -> &'static str {
        names::TASK_CREATE
    }

    fn description(&self) -> String {
        "Create a task in this session's task list (shown to the user as a live checklist). Use it to plan work \
         of three steps or more; set dependencies and status with TaskUpdate."
            .into()
    }

    fn render_hints(&self, input: &TaskCreateInput, _ctx: &ToolContext) -> RenderHints {
        hints(format!("Create task: {}", input.subject))
    }

    fn permission_subject(
        &self,
        _input: &TaskCreateInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(
        &self,
        input: &TaskCreateInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        if input.subject.trim().is_empty() {
            return Err("The task needs a subject.".into());
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &TaskCreateInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let id = self.board.change_tasks(|tasks, new_id| {
            let id = new_id();
            tasks.push(TaskItem {
                id: id.clone(),
                subject: input.subject.trim().to_string(),
                description: input.description.clone(),
                active_form: input.active_form.clone(),
                status: TodoStatus::Pending,
                owner: None,
                blocks: Vec::new(),
                blocked_by: Vec::new(),
            });
            Ok::<_, ToolError>(id)
        })?;
        Ok(ToolOutput::text(format!(
            "Task #{id} was created: {}",
            input.subject.trim()
        )))
    }
}

impl Tool for TaskGetTool {
    type Input = TaskGetInput;

    fn name(&self) -> &'static str {
        names::TASK_GET
    }

    fn description(&self) -> String {
        "Read one task of this session's task list by id: its subject, description, status, owner and \
         dependencies."
            .into()
    }

    fn is_read_only(&self, _input: &TaskGetInput) -> bool {
        true
    }

    fn is_concurrency_safe(&self, _input: &TaskGetInput) -> bool {
        true
    }

    fn render_hints(&self, input: &TaskGetInput, _ctx: &ToolContext) -> RenderHints {
        hints(format!("Read task #{}", input.task_id))
    }

    async fn call(
        &self,
        input: &TaskGetInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let tasks = self.board.tasks();
        let i = position(&tasks, &input.task_id).map_err(ToolError::ToModel)?;
        Ok(ToolOutput::text(details(&tasks[i])))
    }
}

impl Tool for TaskUpdateTool {
    type Input = TaskUpdateInput;

    fn name(&self) -> &'static str {
        names::TASK_UPDATE
    }

    fn description(&self) -> String {
        "Change a task of this session's task list: its status (pending, in_progress, completed, or deleted to \
         remove it), subject, description, owner, and dependencies (addBlocks / addBlockedBy). Mark a task \
         in_progress before you begin it and completed as soon as it is done."
            .into()
    }

    fn render_hints(&self, input: &TaskUpdateInput, _ctx: &ToolContext) -> RenderHints {
        hints(format!("Update task #{}", input.task_id))
    }

    fn permission_subject(
        &self,
        _input: &TaskUpdateInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn call(
        &self,
        input: &TaskUpdateInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let text = self
            .board
            .change_tasks(|tasks, _| update(tasks, input))
            .map_err(ToolError::ToModel)?;
        Ok(ToolOutput::text(text))
    }
}

impl Tool for TaskListTool {
    type Input = TaskListInput;

    fn name(&self) -> &'static str {
        names::TASK_LIST
    }

    fn description(&self) -> String {
        "List the tasks of this session's task list with their ids, status, owner and what blocks them.".into()
    }

    fn is_read_only(&self, _input: &TaskListInput) -> bool {
        true
    }

    fn is_concurrency_safe(&self, _input: &TaskListInput) -> bool {
        true
    }

    fn render_hints(&self, _input: &TaskListInput, _ctx: &ToolContext) -> RenderHints {
        hints("List tasks".into())
    }

    async fn call(
        &self,
        _input: &TaskListInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let tasks = self.board.tasks();
        if tasks.is_empty() {
            return Ok(ToolOutput::text("No tasks yet."));
        }
        Ok(ToolOutput::text(
            tasks.iter().map(line).collect::<Vec<_>>().join("\n"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str) -> TaskItem {
        TaskItem {
            id: id.into(),
            subject: format!("task {id}"),
            description: String::new(),
            active_form: None,
            status: TodoStatus::Pending,
            owner: None,
            blocks: Vec::new(),
            blocked_by: Vec::new(),
        }
    }

    fn change(id: &str) -> TaskUpdateInput {
        TaskUpdateInput {
            task_id: id.into(),
            subject: None,
            description: None,
            active_form: None,
            status: None,
            owner: None,
            add_blocks: Vec::new(),
            add_blocked_by: Vec::new(),
        }
    }

    #[test]
    fn dependencies_are_kept_on_both_sides_and_refuse_cycles_and_early_starts() {
        let mut tasks = vec![task("1"), task("2"), task("3")];
        let mut u = change("1");
        u.add_blocks = vec!["2".into()];
        update(&mut tasks, &u).expect("1 blocks 2");
        let mut u = change("3");
        u.add_blocked_by = vec!["2".into()];
        update(&mut tasks, &u).expect("2 blocks 3");
        assert_eq!(tasks[0].blocks, ["2"]);
        assert_eq!(tasks[1].blocked_by, ["1"]);
        let mut cycle = change("3");
        cycle.add_blocks = vec!["1".into()];
        assert!(update(&mut tasks, &cycle).unwrap_err().contains("cycle"));
        let mut start = change("2");
        start.status = Some(UpdateStatus::InProgress);
        assert!(
            update(&mut tasks, &start)
                .unwrap_err()
                .contains("waits for #1")
        );
        let mut done = change("1");
        done.status = Some(UpdateStatus::Completed);
        update(&mut tasks, &done).expect("complete 1");
        update(&mut tasks, &start).expect("2 may start now");
        let mut delete = change("2");
        delete.status = Some(UpdateStatus::Deleted);
        update(&mut tasks, &delete).expect("delete");
        assert!(
            tasks
                .iter()
                .all(|t| t.blocks.is_empty() && t.blocked_by.is_empty())
        );
    }
}
