//! TeamCreate: a named team of named agents, each started in the background with its first task.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::{seat, team_text};
use crate::tool::{
    LEAD_NAME, MemberSpec, PermissionSubject, TeamSpec, Tool, ToolContext, ToolError, ToolOutput,
    names,
};

/// The most members one team may have.
pub const MAX_MEMBERS: usize = 8;

/// One member to start.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemberInput {
    /// The member's name: how you and the other members address it with SendMessage (letters, digits, - and _).
    pub name: String,
    /// Its first task. It sees none of this conversation, so say everything it needs, and who to report to.
    pub prompt: String,
    /// Its agent type (as for the Agent tool; default general-purpose).
    #[serde(default)]
    pub subagent_type: Option<String>,
    /// A model for it instead of its type's or this conversation's: sonnet, opus or haiku.
    #[serde(default)]
    pub model: Option<String>,
}

/// Creates a team.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamCreateInput {
    /// The team's name.
    pub team_name: String,
    /// What the team is for.
    #[serde(default)]
    pub description: Option<String>,
    /// The members to start (1 to 8).
    pub members: Vec<MemberInput>,
}

/// The TeamCreate tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TeamCreateTool;

impl Tool for TeamCreateTool {
    type Input = TeamCreateInput;

    fn name(&self) -> &'static str {
        names::TEAM_CREATE
    }

    fn description(&self) -> String {
        format!(
            "Create a team of named agents that work in parallel in the background, led by you (you are \
             \"{LEAD_NAME}\"). Each member starts at once on its own task and sees none of this conversation. \
             Members talk to each other and to you with SendMessage; their messages and the end of each of their \
             turns reach you as messages. A member whose turn ended waits for messages. Delete the team with \
             TeamDelete when its work is done."
        )
    }

    fn render_hints(&self, input: &TeamCreateInput, _ctx: &ToolContext) -> RenderHints {
        let names: Vec<&str> = input.members.iter().map(|m| m.name.as_str()).collect();
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Create team {} ({})", input.team_name, names.join(", ")),
            collapsible: true,
        }
    }

    fn permission_subject(
        &self,
        _input: &TeamCreateInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(
        &self,
        input: &TeamCreateInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        if input.team_name.trim().is_empty() {
            return Err("team_name must not be empty".into());
        }
        if input.members.is_empty() || input.members.len() > MAX_MEMBERS {
            return Err(format!(
                "a team has 1 to {MAX_MEMBERS} members, not {}",
                input.members.len()
            ));
        }
        for (i, member) in input.members.iter().enumerate() {
            if input.members[..i].iter().any(|m| m.name == member.name) {
                return Err(format!("two members are named '{}'", member.name));
            }
            if member.prompt.trim().is_empty() {
                return Err(format!("member '{}' has no prompt", member.name));
            }
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &TeamCreateInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let seat = seat(ctx)?;
        if seat.me != LEAD_NAME {
            return Err(ToolError::to_model("Only the team lead can create teams."));
        }
        let spec = TeamSpec {
            name: input.team_name.trim().to_string(),
            description: input.description.clone().unwrap_or_default(),
            members: input
                .members
                .iter()
                .map(|m| MemberSpec {
                    name: m.name.trim().to_string(),
                    prompt: m.prompt.clone(),
                    agent_type: m.subagent_type.clone().filter(|t| !t.trim().is_empty()),
                    model: m.model.clone(),
                })
                .collect(),
            parent_tool_use_id: ctx.tool_use_id.clone(),
        };
        let team = seat
            .door
            .create(spec)
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        Ok(ToolOutput::text(format!(
            "{}\n\nThe members are working in the background. Their messages reach you at your next turn; message \
             them with SendMessage.",
            team_text(&team)
        )))
    }
}
