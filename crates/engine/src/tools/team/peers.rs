//! ListPeers: the teams the caller belongs to, with every agent's name, type and state.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::seat;
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// Lists the agents of your teams.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListPeersInput {}

/// The ListPeers tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListPeersTool;

impl Tool for ListPeersTool {
    type Input = ListPeersInput;

    fn name(&self) -> &'static str {
        names::LIST_PEERS
    }

    fn description(&self) -> String {
        "List the agents of your teams (their names for SendMessage, their types, and whether each is working, \
         idle or stopped)."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &ListPeersInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &ListPeersInput) -> bool {
        true
    }

    fn render_hints(&self, _input: &ListPeersInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: "List peers".into(),
            collapsible: true,
        }
    }

    async fn call(
        &self,
        _input: &ListPeersInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let seat = seat(ctx)?;
        let teams = seat.door.teams_of(&seat.me);
        if teams.is_empty() {
            return Ok(ToolOutput::text("You are in no team."));
        }
        let listed: Vec<String> = teams.iter().map(super::team_text).collect();
        Ok(ToolOutput::text(format!(
            "You are {}.\n\n{}",
            seat.me,
            listed.join("\n\n")
        )))
    }
}
