//! The TaskOutput tool (formerly BashOutput): the new output of a background shell and its state, optionally
//! waiting for it to finish first.

use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::RenderHints;

use super::session::ShellSession;
use crate::tool::names;
use crate::tool::{InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};

/// How long `block` waits when no timeout is given, in milliseconds.
const DEFAULT_WAIT_MS: u64 = 30_000;
/// The longest `block` may wait, in milliseconds.
const MAX_WAIT_MS: u64 = 600_000;

/// Reads a background task's output.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskOutputInput {
    /// The id of the background task (as returned by Bash or Agent with `run_in_background`).
    pub task_id: String,
    /// Wait for the task to finish (up to `timeout`) before returning. Default false: return at once.
    pub block: Option<bool>,
    /// How long to wait when `block` is true, in milliseconds (default 30000, at most 600000).
    #[schemars(range(min = 0, max = 600000))]
    pub timeout: Option<u64>,
}

/// The TaskOutput tool.
#[derive(Debug)]
pub struct TaskOutputTool {
    shell: Arc<ShellSession>,
}

impl TaskOutputTool {
    /// A TaskOutput tool on `shell`'s background tasks.
    pub fn new(shell: Arc<ShellSession>) -> Self {
        Self { shell }
    }
}

impl Tool for TaskOutputTool {
    type Input = TaskOutputInput;

    fn name(&self) -> &'static str {
        names::TASK_OUTPUT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &[names::BASH_OUTPUT]
    }

    fn description(&self) -> String {
        "Returns the output a background task (a Bash command run with run_in_background) printed since the last \
         time its output was read, with its state (running, exited with a code, killed); for a background agent \
         (Agent with run_in_background), its answer once it has finished. With block: true it first waits for the \
         task to finish, up to timeout milliseconds."
            .to_string()
    }

    fn is_concurrency_safe(&self, _input: &TaskOutputInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &TaskOutputInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &TaskOutputInput, _ctx: &ToolContext) -> RenderHints {
        super::task_hints(format!("Output of {}", input.task_id), true)
    }

    async fn call(
        &self,
        input: &TaskOutputInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let wait = match input.block {
            Some(true) => {
                Duration::from_millis(input.timeout.unwrap_or(DEFAULT_WAIT_MS).min(MAX_WAIT_MS))
            }
            _ => Duration::ZERO,
        };
        // A background sub-agent (started by Agent with run_in_background).
        if let Some(runner) = &ctx.sub_agents
            && let Some(outcome) = runner.background_output(&input.task_id, wait).await
        {
            return Ok(crate::tools::agent::background_result(
                &input.task_id,
                outcome,
            ));
        }
        let task = self.shell.tasks.find(&input.task_id)?;
        let state = if input.block.unwrap_or(false) {
            task.wait(wait).await
        } else {
            task.state()
        };
        let output = task
            .read_new()
            .map_err(|e| ToolError::to_model(format!("cannot read the task's output: {e}")))?;
        let shown = if output.is_empty() {
            "(no new output)".to_string()
        } else {
            output
        };
        Ok(
            ToolOutput::text(format!("Task {} is {state}.\n{shown}", task.id))
                .with_detail(task.detail()),
        )
    }
}
