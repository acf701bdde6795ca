//! TeamDelete: stops a team's members and removes the team.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::{seat, team_text};
use crate::tool::{LEAD_NAME, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};

/// Deletes a team.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamDeleteInput {
    /// The team to delete.
    pub team_name: String,
}

/// The TeamDelete tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TeamDeleteTool;

impl Tool for TeamDeleteTool {
    type Input = TeamDeleteInput;

    fn name(&self) -> &'static str {
        names::TEAM_DELETE
    }

    fn description(&self) -> String {
        "Delete a team you created: its members are stopped (work in progress is cut off) and can no longer be \
         messaged."
            .into()
    }

    fn render_hints(&self, input: &TeamDeleteInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Delete team {}", input.team_name),
            collapsible: true,
        }
    }

    fn permission_subject(
        &self,
        _input: &TeamDeleteInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn call(
        &self,
        input: &TeamDeleteInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let seat = seat(ctx)?;
        if seat.me != LEAD_NAME {
            return Err(ToolError::to_model("Only the team lead can delete teams."));
        }
        let team = seat
            .door
            .delete(input.team_name.trim())
            .await
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        Ok(ToolOutput::text(format!(
            "{}\n\nEvery member was stopped.",
            team_text(&team)
        )))
    }
}
