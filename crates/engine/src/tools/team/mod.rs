//! The team tools, behind the teams switch ([`crate::tools::features::TEAMS_ENV`]): TeamCreate (a named team of
//! named agents, started in the background, led by the session's agent), TeamDelete (stops its members),
//! SendMessage (to one agent by name, or `*` for all; delivered at the recipient's next turn boundary) and
//! ListPeers. They reach the session's teams through the call's [`crate::tool::TeamSeat`].

mod create;
mod delete;
mod peers;
mod send;

use std::sync::Arc;

pub use create::{MemberInput, TeamCreateInput, TeamCreateTool};
pub use delete::{TeamDeleteInput, TeamDeleteTool};
pub use peers::{ListPeersInput, ListPeersTool};
pub use send::{SendMessageInput, SendMessageTool};
use tandem_protocol::{TeamInfo, TeamMemberStatus};

use crate::tool::{DynTool, TeamSeat, ToolContext, ToolError, erase};

/// The tools of the lead (the session's own agent).
pub fn lead_tools() -> Vec<Arc<dyn DynTool>> {
    vec![
        erase(TeamCreateTool),
        erase(TeamDeleteTool),
        erase(SendMessageTool),
        erase(ListPeersTool),
    ]
}

/// The tools a team member gets on top of its type's.
pub fn member_tools() -> Vec<Arc<dyn DynTool>> {
    vec![erase(SendMessageTool), erase(ListPeersTool)]
}

/// The call's seat in its teams, or the error the model gets where there is none.
fn seat(ctx: &ToolContext) -> Result<&TeamSeat, ToolError> {
    ctx.team
        .as_ref()
        .ok_or_else(|| ToolError::to_model("Teams are not available here."))
}

fn status_word(status: TeamMemberStatus) -> &'static str {
    match status {
        TeamMemberStatus::Working => "working",
        TeamMemberStatus::Idle => "idle",
        TeamMemberStatus::Stopped => "stopped",
    }
}

/// A team as the model reads it.
fn team_text(team: &TeamInfo) -> String {
    let mut text = format!(
        "Team {} (lead: {}){}",
        team.name,
        team.lead,
        if team.deleted { ", deleted" } else { "" }
    );
    if !team.description.is_empty() {
        text.push_str(&format!(": {}", team.description));
    }
    for member in &team.members {
        text.push_str(&format!(
            "\n- {} ({}): {}",
            member.name,
            member.agent_type,
            status_word(member.status)
        ));
    }
    text
}
