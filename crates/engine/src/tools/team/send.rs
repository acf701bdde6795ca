//! SendMessage: a message to another agent of the sender's teams by name, or to all of them (`*`). It waits in the
//! recipient's mailbox until its next turn boundary; an idle member is woken by it.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::seat;
use crate::tool::{BROADCAST, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};

/// Sends a message.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendMessageInput {
    /// The recipient's name (a member, or "team-lead"), or "*" for every other agent of your teams.
    pub to: String,
    /// The message. The recipient sees nothing else of your conversation.
    pub message: String,
}

/// The SendMessage tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct SendMessageTool;

impl Tool for SendMessageTool {
    type Input = SendMessageInput;

    fn name(&self) -> &'static str {
        names::SEND_MESSAGE
    }

    fn description(&self) -> String {
        format!(
            "Send a message to another agent of your team by name (ListPeers lists them; the lead is \
             \"team-lead\"), or to \"{BROADCAST}\" for all of them. The recipient reads it when its current step \
             ends; an agent waiting for messages starts on it at once. Messages to you arrive the same way."
        )
    }

    fn is_concurrency_safe(&self, _input: &SendMessageInput) -> bool {
        true
    }

    fn render_hints(&self, input: &SendMessageInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Message to {}", input.to),
            collapsible: true,
        }
    }

    fn permission_subject(
        &self,
        _input: &SendMessageInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(
        &self,
        input: &SendMessageInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        if input.message.trim().is_empty() {
            return Err("message must not be empty".into());
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &SendMessageInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let seat = seat(ctx)?;
        let to = input.to.trim();
        let delivered = seat
            .door
            .send(&seat.me, to, &input.message)
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        Ok(ToolOutput::text(format!(
            "Message sent to {}.",
            delivered.join(", ")
        )))
    }
}
