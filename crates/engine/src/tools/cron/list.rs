//! CronList: the project's scheduled prompts with their schedules in words and next fire times.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tandem_protocol::{RenderHints, ToolKind};

use super::{Schedule, shown, task_file};
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// Lists the scheduled prompts (no parameters).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronListInput {}

/// The CronList tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct CronListTool;

impl Tool for CronListTool {
    type Input = CronListInput;

    fn name(&self) -> &'static str {
        names::CRON_LIST
    }

    fn description(&self) -> String {
        "List the project's scheduled prompts: each job's id, cron expression, schedule in words, prompt, whether it \
         recurs, and its next fire time (local time)."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &CronListInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &CronListInput) -> bool {
        true
    }

    fn render_hints(&self, _input: &CronListInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::List,
            title: "List scheduled jobs".into(),
            collapsible: true,
        }
    }

    async fn call(
        &self,
        _input: &CronListInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let mut tasks = task_file(ctx)
            .load()
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        // RemoteTrigger's tasks run elsewhere; RemoteTrigger lists them.
        tasks.retain(|task| task.target.is_none());
        if tasks.is_empty() {
            return Ok(ToolOutput::text("No scheduled jobs."));
        }
        let jobs: Vec<_> = tasks
            .iter()
            .map(|task| {
                let (schedule, next) = match Schedule::parse(&task.cron) {
                    Ok(s) => {
                        let next = s.next_after_ms(task.anchor_ms()).map(|t| shown(&t));
                        (s.describe(), next)
                    }
                    Err(e) => (format!("invalid: {e}"), None),
                };
                json!({
                    "id": task.id,
                    "cron": task.cron,
                    "schedule": schedule,
                    "prompt": task.prompt,
                    "recurring": task.recurring,
                    "nextFire": next,
                })
            })
            .collect();
        let text =
            serde_json::to_string_pretty(&jobs).map_err(|e| ToolError::to_model(e.to_string()))?;
        Ok(ToolOutput::text(text))
    }
}
