//! Sleep: waits for a while without holding a shell (behind the proactive switch; docs/engine-doors.md). It wakes early
//! when a message or a background agent's result arrives in the agent's mailbox, and an interrupt ends it at once.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use crate::tool::{
    InterruptBehavior, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names,
};

/// The longest sleep, in seconds.
pub const MAX_SECONDS: u64 = 3_600;

/// Waits.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SleepInput {
    /// How long to wait, in seconds (1 to 3600). A message or a background result ends the wait early.
    pub seconds: u64,
}

/// The Sleep tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct SleepTool;

impl Tool for SleepTool {
    type Input = SleepInput;

    fn name(&self) -> &'static str {
        names::SLEEP
    }

    fn description(&self) -> String {
        "Wait for the given number of seconds without doing anything, e.g. while background agents or commands \
         work. The wait ends early when a message or a background result arrives; the user can interrupt it. Prefer \
         this to running `sleep` in the shell."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &SleepInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &SleepInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &SleepInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Sleep {} s", input.seconds),
            collapsible: false,
        }
    }

    fn permission_subject(&self, _input: &SleepInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(&self, input: &SleepInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.seconds == 0 || input.seconds > MAX_SECONDS {
            return Err(format!(
                "seconds must be between 1 and {MAX_SECONDS}, not {}",
                input.seconds
            ));
        }
        Ok(())
    }

    async fn call(&self, input: &SleepInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let started = std::time::Instant::now();
        let timer = tokio::time::sleep(Duration::from_secs(input.seconds));
        let woken = async {
            match &ctx.mailbox {
                Some(mailbox) => {
                    let mut bell = mailbox.bell();
                    if mailbox.has_mail() {
                        return;
                    }
                    let _ = bell.changed().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = ctx.cancel.cancelled() => Err(ToolError::Cancelled),
            _ = timer => Ok(ToolOutput::text(format!("Slept {} s.", input.seconds))),
            _ = woken => Ok(ToolOutput::text(format!(
                "Woke after {} s of {} s: a message or a background result arrived.",
                started.elapsed().as_secs(),
                input.seconds
            ))),
        }
    }
}
