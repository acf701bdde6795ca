//! Brief: the agent's short summary for the person, shown in the window apart from its ordinary answer (a core
//! tool, always offered; docs/engine-doors.md). The text reaches the person as a `brief` event; the model is told
//! it was shown.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{BriefStatus, RenderHints, ToolKind};

use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};

/// Whether the person asked for this or the agent tells them unasked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "lowercase")]
pub enum BriefKind {
    /// An answer to what the person asked.
    #[default]
    Normal,
    /// Something the person should know, unasked (progress, a finding, a blocker).
    Proactive,
}

/// Shows the person a short summary.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BriefInput {
    /// The summary for the person, in markdown: a few sentences at most.
    pub message: String,
    /// "normal" (an answer to the person) or "proactive" (unasked news); default normal.
    #[serde(default)]
    pub status: BriefKind,
}

/// The longest brief, in characters.
const MAX_CHARS: usize = 4_000;

/// The Brief tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct BriefTool;

impl Tool for BriefTool {
    type Input = BriefInput;

    fn name(&self) -> &'static str {
        names::BRIEF
    }

    fn description(&self) -> String {
        "Send the user a short summary they will see highlighted in the window, apart from your ordinary replies: \
         what was done, what was found, or what needs their attention. Keep it to a few sentences of markdown. Use \
         status \"proactive\" for news the user did not ask for."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &BriefInput) -> bool {
        true
    }

    fn render_hints(&self, _input: &BriefInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: "Brief for the user".into(),
            collapsible: true,
        }
    }

    fn permission_subject(&self, _input: &BriefInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(&self, input: &BriefInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.message.trim().is_empty() {
            return Err("message must not be empty".into());
        }
        let chars = input.message.chars().count();
        if chars > MAX_CHARS {
            return Err(format!(
                "message is {chars} characters long; a brief has at most {MAX_CHARS}"
            ));
        }
        Ok(())
    }

    async fn call(&self, input: &BriefInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let Some(person) = &ctx.person else {
            return Err(ToolError::to_model(
                "Nobody is watching this session; the brief was not shown.",
            ));
        };
        let status = match input.status {
            BriefKind::Normal => BriefStatus::Normal,
            BriefKind::Proactive => BriefStatus::Proactive,
        };
        person.brief(input.message.trim(), status);
        Ok(ToolOutput::text("The brief was shown to the user."))
    }
}
