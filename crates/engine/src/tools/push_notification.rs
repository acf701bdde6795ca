//! PushNotification (behind `KAIROS`): the agent asks for a desktop notification — a long job finished, a decision
//! is needed — shown even while the window has the focus, unless the person turned notifications off. It only
//! talks to the person, so it needs no permission (deny rules naming it still apply).

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use crate::permission::PermissionSubject;
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// The longest title, in characters.
const MAX_TITLE: usize = 80;
/// The longest message, in characters.
const MAX_MESSAGE: usize = 300;

/// A desktop notification.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PushNotificationInput {
    /// What the user should know, in one or two plain sentences.
    pub message: String,
    /// A short title (default: "Tandem").
    #[serde(default)]
    pub title: Option<String>,
}

/// The PushNotification tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct PushNotificationTool;

impl Tool for PushNotificationTool {
    type Input = PushNotificationInput;

    fn name(&self) -> &'static str {
        names::PUSH_NOTIFICATION
    }

    fn description(&self) -> String {
        "Send the user a desktop notification, for what they should hear of even when they are not looking at the \
         window: a long task finished or failed, or a decision waits for them. Use it rarely; keep the message to \
         one or two plain sentences."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &PushNotificationInput) -> bool {
        true
    }

    fn render_hints(&self, input: &PushNotificationInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Notify the user: {}", input.message.trim()),
            collapsible: true,
        }
    }

    fn permission_subject(
        &self,
        _input: &PushNotificationInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(
        &self,
        input: &PushNotificationInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        let message = input.message.trim();
        if message.is_empty() {
            return Err("message must not be empty".into());
        }
        if message.chars().count() > MAX_MESSAGE {
            return Err(format!("message has more than {MAX_MESSAGE} characters"));
        }
        if input
            .title
            .as_deref()
            .is_some_and(|t| t.trim().chars().count() > MAX_TITLE)
        {
            return Err(format!("title has more than {MAX_TITLE} characters"));
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &PushNotificationInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let Some(person) = &ctx.person else {
            return Err(ToolError::to_model(
                "Nobody is watching this session; no notification was shown.",
            ));
        };
        let title = input
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or("Tandem");
        person.push_notification(title, input.message.trim());
        Ok(ToolOutput::text(
            "The notification was sent to the user's desktop (unless they turned notifications off).",
        ))
    }
}
