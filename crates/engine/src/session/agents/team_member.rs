//! What makes a sub-agent a team member: its name, team and mailbox, how it reports the end of a turn to the lead,
//! what it is told about its team, and how messages between agents read.

use std::sync::Arc;

use tandem_protocol::TeamMemberStatus;

use crate::tool::{Mailbox, TeamSeat};

/// What a member's run needs beyond an ordinary sub-agent's.
pub(super) struct MemberRole {
    pub name: String,
    pub team: String,
    pub agent_id: String,
    pub seat: TeamSeat,
    pub mailbox: Arc<Mailbox>,
    /// The lead's mailbox: the end of each of the member's turns is reported there.
    pub lead: Arc<Mailbox>,
    /// Tells the team the member is working or idle.
    pub status: Box<dyn Fn(TeamMemberStatus) + Send + Sync>,
}

impl MemberRole {
    /// Reports the end of a turn to the lead: the member's last text.
    pub fn report(&self, text: &str) {
        let text = if text.trim().is_empty() {
            "(its turn ended without a message)"
        } else {
            text
        };
        self.lead
            .post(message(&self.name, &format!("[turn ended] {text}")));
    }
}

/// What a team member is told about its team.
pub(super) fn member_prompt(role: &MemberRole) -> String {
    format!(
        "You are \"{}\", a member of the agent team \"{}\" led by \"{}\". Talk to the lead and the other members \
         with SendMessage (ListPeers lists them). When your turn ends, your last message is reported to the lead and \
         you wait: messages sent to you start your next turn.",
        role.name,
        role.team,
        crate::tool::LEAD_NAME
    )
}

/// A message as its recipient's conversation shows it.
pub(super) fn message(from: &str, text: &str) -> String {
    format!("<teammate-message from=\"{from}\">\n{text}\n</teammate-message>")
}
