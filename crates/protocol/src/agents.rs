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
}

impl SubAgentOrigin {
    /// How the person is told who asks: `sub-agent Explore: Find the config`.
    pub fn label(&self) -> String {
        format!("sub-agent {}: {}", self.agent_type, self.description)
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
