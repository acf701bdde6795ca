//! CronCreate: schedules a prompt on a five-field cron expression in local time, recurring or once.

use chrono::Local;
use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::{Schedule, shown, task_file};
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// Schedules a prompt.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronCreateInput {
    /// A standard five-field cron expression in the user's local time: minute hour day-of-month month day-of-week
    /// (e.g. "*/5 * * * *" every five minutes, "0 9 * * 1-5" at 9:00 on weekdays).
    pub cron: String,
    /// The prompt sent to you when the schedule fires.
    pub prompt: String,
    /// true (default): fire on every match; false: fire once at the next match, then delete itself.
    #[serde(default = "yes")]
    pub recurring: bool,
}

fn yes() -> bool {
    true
}

/// The CronCreate tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct CronCreateTool;

impl Tool for CronCreateTool {
    type Input = CronCreateInput;

    fn name(&self) -> &'static str {
        names::CRON_CREATE
    }

    fn description(&self) -> String {
        "Schedule a prompt to be sent to you later, on a standard 5-field cron expression in the user's local time \
         (minute hour day-of-month month day-of-week). The job is stored with the project and fires while the app \
         runs: when it is due and you are idle, its prompt starts a new turn; when you are busy, it waits until the \
         turn ends. With recurring false it fires once and deletes itself. Returns the job's id and the schedule in \
         words; see the jobs with CronList and remove one with CronDelete."
            .into()
    }

    fn render_hints(&self, input: &CronCreateInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Schedule `{}`", input.cron.trim()),
            collapsible: false,
        }
    }

    async fn validate_input(
        &self,
        input: &CronCreateInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        if input.prompt.trim().is_empty() {
            return Err("prompt must not be empty".into());
        }
        Schedule::checked(&input.cron, &Local::now())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    async fn call(
        &self,
        input: &CronCreateInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let now = Local::now();
        let schedule =
            Schedule::checked(&input.cron, &now).map_err(|e| ToolError::to_model(e.to_string()))?;
        let task = task_file(ctx)
            .add(
                &schedule,
                &input.prompt,
                input.recurring,
                now.timestamp_millis(),
            )
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        let next = schedule
            .next_after(&now)
            .map(|t| shown(&t))
            .unwrap_or_default();
        let how = if task.recurring {
            "recurring"
        } else {
            "once, then deleted"
        };
        Ok(ToolOutput::text(format!(
            "Scheduled job {} ({how}): {} (`{}`). Next fire: {next}.",
            task.id,
            schedule.describe(),
            task.cron
        )))
    }
}
