//! RemoteTrigger (behind `AGENT_TRIGGERS_REMOTE`; docs/github-tools.md): scheduled prompts that run on another
//! machine. A trigger is a scheduled prompt of the project's task file (CronCreate's five-field cron expression and
//! storage) with a target, `ssh://[user@]host[:port]/abs/path`; when it comes due the session's scheduler
//! (`session::run_scheduled_prompts`) runs `tandem -p PROMPT` in that folder over `ssh` ([`run`]), and the exit code
//! and final text reach the agent as a notification. Actions: create, list, delete, run (now). Creating and running
//! ask in every mode unless a rule allows them (they run commands on another machine); listing and deleting touch
//! only the project's triggers.

pub mod run;

use std::sync::Arc;

use chrono::Local;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tandem_protocol::{RenderHints, ToolKind};

pub use run::{RemoteRuns, RunEnd};

use crate::ssh::Target;
use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};
use crate::tools::cron::{Schedule, shown, task_file};

/// What to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TriggerAction {
    /// Schedule `prompt` on `cron` to run on `target`.
    Create,
    /// The project's remote triggers.
    List,
    /// Remove `trigger_id`.
    Delete,
    /// Run `trigger_id` now, whatever its schedule.
    Run,
}

/// RemoteTrigger's input.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoteTriggerInput {
    /// create, list, delete or run (now).
    pub action: TriggerAction,
    /// create: a standard five-field cron expression in the user's local time (minute hour day-of-month month
    /// day-of-week, e.g. "0 9 * * 1-5").
    pub cron: Option<String>,
    /// create: the prompt `tandem -p` runs on the other machine.
    pub prompt: Option<String>,
    /// create: where it runs, ssh://[user@]host[:port]/absolute/folder (the machine must accept ssh without
    /// questions and have tandem installed).
    pub target: Option<String>,
    /// create: true (default) to run on every match; false to run once, then delete itself.
    pub recurring: Option<bool>,
    /// delete, run: the trigger's id, as create or list gave it.
    pub trigger_id: Option<String>,
}

/// The RemoteTrigger tool.
#[derive(Debug, Clone)]
pub struct RemoteTriggerTool {
    runs: Arc<RemoteRuns>,
}

impl RemoteTriggerTool {
    /// A RemoteTrigger whose run-now runs go through `runs` (the session's, shared with its scheduler).
    pub fn new(runs: Arc<RemoteRuns>) -> Self {
        Self { runs }
    }
}

/// The field `name` of `input`, not blank, or the error naming it.
fn need<'a>(value: &'a Option<String>, name: &str, action: &str) -> Result<&'a str, String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("{action} needs {name}"))
}

impl Tool for RemoteTriggerTool {
    type Input = RemoteTriggerInput;

    fn name(&self) -> &'static str {
        names::REMOTE_TRIGGER
    }

    fn description(&self) -> String {
        "Schedule prompts that run on another machine: action create (cron, prompt, target \
         ssh://[user@]host[:port]/absolute/folder, recurring) stores a trigger with the project; when its standard \
         5-field cron expression (local time) comes due while the app runs, `tandem -p PROMPT` runs in that folder \
         over ssh, and you are sent a <remote-trigger-notification> with its exit code and final text. action list \
         shows the triggers, delete (trigger_id) removes one, run (trigger_id) runs one now. The machine must accept \
         ssh without questions (keys or an agent) and have tandem installed."
            .into()
    }

    fn is_read_only(&self, input: &RemoteTriggerInput) -> bool {
        input.action == TriggerAction::List
    }

    fn is_concurrency_safe(&self, input: &RemoteTriggerInput) -> bool {
        input.action == TriggerAction::List
    }

    fn render_hints(&self, input: &RemoteTriggerInput, _ctx: &ToolContext) -> RenderHints {
        let id = input.trigger_id.as_deref().unwrap_or("?");
        RenderHints {
            kind: ToolKind::Other,
            title: match input.action {
                TriggerAction::Create => format!(
                    "Schedule `{}` on {}",
                    input.cron.as_deref().unwrap_or("?").trim(),
                    input.target.as_deref().unwrap_or("?")
                ),
                TriggerAction::List => "List remote triggers".to_string(),
                TriggerAction::Delete => format!("Delete remote trigger {id}"),
                TriggerAction::Run => format!("Run remote trigger {id} now"),
            },
            collapsible: false,
        }
    }

    fn permission_subject(
        &self,
        input: &RemoteTriggerInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        match input.action {
            // Commands on another machine: asks in every mode unless a rule allows it (permission::decide).
            TriggerAction::Create | TriggerAction::Run => PermissionSubject::Tool,
            TriggerAction::List | TriggerAction::Delete => PermissionSubject::SessionOwned,
        }
    }

    async fn validate_input(
        &self,
        input: &RemoteTriggerInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        match input.action {
            TriggerAction::Create => {
                let cron = need(&input.cron, "cron", "create")?;
                need(&input.prompt, "prompt", "create")?;
                Target::parse(need(&input.target, "target", "create")?)?;
                Schedule::checked(cron, &Local::now())
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            TriggerAction::Delete | TriggerAction::Run => {
                need(&input.trigger_id, "trigger_id", "this action").map(|_| ())
            }
            TriggerAction::List => Ok(()),
        }
    }

    async fn call(
        &self,
        input: &RemoteTriggerInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let file = task_file(ctx);
        let model = |e: String| ToolError::to_model(e);
        match input.action {
            TriggerAction::Create => {
                let now = Local::now();
                let cron = need(&input.cron, "cron", "create").map_err(model)?;
                let prompt = need(&input.prompt, "prompt", "create").map_err(model)?;
                let target = need(&input.target, "target", "create").map_err(model)?;
                let parsed = Target::parse(target).map_err(model)?;
                let schedule = Schedule::checked(cron, &now).map_err(|e| model(e.to_string()))?;
                let recurring = input.recurring.unwrap_or(true);
                let task = file
                    .add_for(
                        &schedule,
                        prompt,
                        recurring,
                        Some(target),
                        now.timestamp_millis(),
                    )
                    .map_err(|e| model(e.to_string()))?;
                let next = schedule
                    .next_after(&now)
                    .map(|t| shown(&t))
                    .unwrap_or_default();
                Ok(ToolOutput::text(format!(
                    "Created remote trigger {} ({}): {} (`{}`) on {}:{}. Next run: {next}. Its outcome will be sent \
                     to you as a <remote-trigger-notification>.",
                    task.id,
                    if recurring {
                        "recurring"
                    } else {
                        "once, then deleted"
                    },
                    schedule.describe(),
                    task.cron,
                    parsed.label(),
                    parsed.path.display()
                )))
            }
            TriggerAction::List => {
                let tasks = file.load().map_err(|e| model(e.to_string()))?;
                let triggers: Vec<_> = tasks
                    .iter()
                    .filter(|t| t.target.is_some())
                    .map(|task| {
                        let next = Schedule::parse(&task.cron)
                            .ok()
                            .and_then(|s| s.next_after_ms(task.anchor_ms()))
                            .map(|t| shown(&t));
                        json!({
                            "id": task.id,
                            "cron": task.cron,
                            "target": task.target,
                            "prompt": task.prompt,
                            "recurring": task.recurring,
                            "nextRun": next,
                        })
                    })
                    .collect();
                if triggers.is_empty() {
                    return Ok(ToolOutput::text("No remote triggers."));
                }
                serde_json::to_string_pretty(&triggers)
                    .map(ToolOutput::text)
                    .map_err(|e| model(e.to_string()))
            }
            TriggerAction::Delete | TriggerAction::Run => {
                let id = need(&input.trigger_id, "trigger_id", "this action").map_err(model)?;
                let tasks = file.load().map_err(|e| model(e.to_string()))?;
                let Some(task) = tasks.into_iter().find(|t| t.id == id && t.target.is_some())
                else {
                    return Err(model(format!(
                        "no remote trigger has the id `{id}`; list them with action list"
                    )));
                };
                if input.action == TriggerAction::Delete {
                    file.remove(id).map_err(|e| model(e.to_string()))?;
                    return Ok(ToolOutput::text(format!("Deleted remote trigger {id}.")));
                }
                let Some(mailbox) = &ctx.mailbox else {
                    return Err(model(
                        "RemoteTrigger cannot report to this agent: it has no mailbox".to_string(),
                    ));
                };
                let target = task.target.clone().unwrap_or_default();
                self.runs.start(task, Arc::downgrade(mailbox));
                Ok(ToolOutput::text(format!(
                    "Remote trigger {id} is running on {target}. Its outcome will be sent to you as a \
                     <remote-trigger-notification>; there is no need to wait or poll."
                )))
            }
        }
    }
}
