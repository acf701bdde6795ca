//! CronDelete: removes one of the project's scheduled prompts by id.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::task_file;
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// Removes a scheduled prompt.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronDeleteInput {
    /// The job's id, as CronCreate or CronList gave it.
    pub id: String,
}

/// The CronDelete tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct CronDeleteTool;

impl Tool for CronDeleteTool {
    type Input = CronDeleteInput;

    fn name(&self) -> &'static str {
        names::CRON_DELETE
    }

    fn description(&self) -> String {
        "Delete a scheduled prompt by its id (from CronCreate or CronList); it will not fire again."
            .into()
    }

    fn render_hints(&self, input: &CronDeleteInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Delete scheduled job {}", input.id.trim()),
            collapsible: false,
        }
    }

    async fn call(
        &self,
        input: &CronDeleteInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let task = task_file(ctx)
            .remove(&input.id)
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        Ok(ToolOutput::text(format!(
            "Deleted scheduled job {} (`{}`).",
            task.id, task.cron
        )))
    }
}
