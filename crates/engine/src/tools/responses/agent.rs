//! The Agent tool's result data: a finished sub-agent's answer with what it spent, or the task id of one started in
//! the background.

use schemars::JsonSchema;
use serde::Serialize;
use tandem_protocol::Usage;

use crate::tool::SubAgentReport;

/// The Agent tool's result, tagged by `status`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AgentResponse {
    /// The sub-agent ran to its end.
    Completed(AgentCompleted),
    /// The sub-agent runs in the background.
    AsyncLaunched(AgentLaunched),
}

/// One text block of the sub-agent's answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnswerText {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
}

/// A finished sub-agent.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentCompleted {
    pub agent_id: String,
    pub prompt: String,
    /// Its answer, as text blocks.
    pub content: Vec<AnswerText>,
    pub total_duration_ms: u64,
    pub total_tokens: u64,
    pub total_tool_use_count: u32,
    /// Its requests' tokens (`input_tokens`, `output_tokens`, `cache_creation_input_tokens`,
    /// `cache_read_input_tokens`).
    pub usage: Usage,
}

/// A sub-agent started in the background.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentLaunched {
    /// Its task id, which TaskOutput reads.
    pub agent_id: String,
    pub description: String,
    pub prompt: String,
}

impl AgentResponse {
    /// The data of a finished run of `prompt`.
    pub fn completed(report: &SubAgentReport, prompt: &str) -> Self {
        let u = &report.usage;
        Self::Completed(AgentCompleted {
            agent_id: report.agent_id.clone(),
            prompt: prompt.to_string(),
            content: vec![AnswerText {
                kind: "text",
                text: report.final_text.clone(),
            }],
            total_duration_ms: report.duration_ms,
            total_tokens: u.input_tokens
                + u.output_tokens
                + u.cache_creation_input_tokens
                + u.cache_read_input_tokens,
            total_tool_use_count: report.tool_calls,
            usage: *u,
        })
    }
}
