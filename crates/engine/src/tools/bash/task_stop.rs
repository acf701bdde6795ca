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
    #[serde(default)]
    pub task_id: Option<String>,
    /// The same id under its older name (KillShell's input); give one of the two.
    #[serde(default)]
    pub shell_id: Option<String>,
}

impl TaskStopInput {
    /// The task to stop, whichever name the id came under.
    fn id(&self) -> &str {
        self.task_id
            .as_deref()
            .or(self.shell_id.as_deref())
            .unwrap_or_default()
    }
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
        "Stops a background task: a Bash command run with run_in_background (the command and every process it \
         started are killed; its output so far can still be read with TaskOutput), or a background agent."
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
        super::task_hints(format!("Stop {}", input.id()), false)
    }

    async fn validate_input(
        &self,
        input: &TaskStopInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        match (&input.task_id, &input.shell_id) {
            (Some(_), Some(_)) => Err("Give task_id or its older name shell_id, not both.".into()),
            (None, None) => {
                Err("task_id is required: the id of the background task to stop.".into())
            }
            _ => Ok(()),
        }
    }

    async fn call(
        &self,
        input: &TaskStopInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        // A background sub-agent (started by Agent with run_in_background).
        if let Some(runner) = &ctx.sub_agents
            && let Some(was_running) = runner.stop_background(input.id())
        {
            let id = input.id();
            return Ok(ToolOutput::text(if was_running {
                format!("Stopped task {id} (a background agent).")
            } else {
                format!("Task {id} was not running: the background agent had already ended.")
            }));
        }
        let task = self.shell.tasks.find(input.id())?;
        let text = if task.stop() {
            format!("Stopped task {} ({}).", task.id, task.command)
        } else {
            format!("Task {} was not running: it {}.", task.id, task.state())
        };
        Ok(ToolOutput::text(text).with_detail(task.detail()))
    }
}
