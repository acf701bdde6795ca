//! Sub-agents as the person sees them: who asks a question, and the background agents with their state.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The sub-agent a question comes from: which kind of agent, the task it was given, and the call that started it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SubAgentOrigin {
    /// The agent type (`general-purpose`, `Explore`, a custom agent's name).
    pub agent_type: String,
    /// The short task description the parent gave it.
    pub description: String,
    /// The parent's Agent call that started it.
    pub parent_tool_use_id: String,
    /// Unique per run (the id its sidechain is stored under).
    pub agent_id: String,
    /// The name a team member is addressed by (SendMessage); `None` for an unnamed sub-agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

impl SubAgentOrigin {
    /// How the person is told who asks: `sub-agent Explore: Find the config`, or for a team member
    /// `teammate alice (Explore): Find the config`.
    pub fn label(&self) -> String {
        match &self.name {
            Some(name) => format!(
                "teammate {name} ({}): {}",
                self.agent_type, self.description
            ),
            None => format!("sub-agent {}: {}", self.agent_type, self.description),
        }
    }
}

/// Where a background sub-agent is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum BackgroundAgentStatus {
    Running,
    /// It finished with an answer.
    Completed,
    /// It ended with an error.
    Failed,
    /// It was stopped (by the person, the model's TaskStop, or the session closing).
    Stopped,
}

/// A sub-agent started with `run_in_background`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct BackgroundAgent {
    /// The id TaskOutput / TaskStop take.
    pub task_id: String,
    /// The parent's Agent call that started it.
    pub parent_tool_use_id: String,
    pub agent_type: String,
    pub description: String,
    pub status: BackgroundAgentStatus,
}

/// Where a team member is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TeamMemberStatus {
    /// Working on a turn.
    Working,
    /// Its turn ended; a message wakes it.
    Idle,
    /// Stopped (its team was deleted, the session closed) or failed; messages to it are refused.
    Stopped,
}

/// One named agent of a team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TeamMember {
    /// The name SendMessage addresses it by.
    pub name: String,
    pub agent_type: String,
    /// The agent id of its conversation (its events are wrapped with it).
    pub agent_id: String,
    pub status: TeamMemberStatus,
}

/// A team of agents started with TeamCreate: its lead (the session's own agent) and its members.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TeamInfo {
    pub name: String,
    pub description: String,
    /// The lead's name (the session's own agent).
    pub lead: String,
    pub members: Vec<TeamMember>,
    /// Whether the team was deleted (its members stopped).
    pub deleted: bool,
}
