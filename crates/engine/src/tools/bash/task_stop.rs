//! The TaskStop tool (formerly KillShell): stops a background shell with every process it started.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::RenderHints;

use super::session::ShellSession;
use crate::tool::names;
use crate::tool::{InterruptBehavior, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput};

/// Stops a background task.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskStopInput {
    /// The id of the background task to stop.
    pub task_id: String,
}

/// The TaskStop tool.
#[derive(Debug)]
pub struct TaskStopTool {
    shell: Arc<ShellSession>,
}

impl TaskStopTool {
    /// A TaskStop tool on `shell`'s background tasks.
    pub fn new(shell: Arc<ShellSession>) -> Self {
        Self { shell }
    }
}

impl Tool for TaskStopTool {
    type Input = TaskStopInput;

    fn name(&self) -> &'static str {
        names::TASK_STOP
    }

    fn aliases(&self) -> &'static [&'static str] {
        &[names::KILL_SHELL, names::KILL_BASH]
    }

    fn description(&self) -> String {
        "Stops a background task (a Bash command run with run_in_background): the command and every process it \
         started are killed. Its output so far can still be read with TaskOutput."
            .to_string()
    }

    /// Stopping only touches a task this session started (and was allowed to start), so it asks no permission.
    fn permission_subject(&self, _input: &TaskStopInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &TaskStopInput, _ctx: &ToolContext) -> RenderHints {
        super::task_hints(format!("Stop {}", input.task_id), false)
    }

    async fn call(
        &self,
        input: &TaskStopInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let task = self.shell.tasks.find(&input.task_id)?;
        let text = if task.stop() {
            format!("Stopped task {} ({}).", task.id, task.command)
        } else {
            format!("Task {} was not running: it {}.", task.id, task.state())
        };
        Ok(ToolOutput::text(text).with_detail(task.detail()))
    }
}
