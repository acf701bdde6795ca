//! What the engine asks the person besides permission — approval of a plan (ExitPlanMode) and the agent's questions
//! (AskUserQuestion) — and what the person answers. The engine announces each request with an event
//! (`plan_review_requested`, `questions_asked`) before it waits, and `approval_resolved` names it once it is answered
//! or withdrawn, as for permission requests.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::PermissionMode;

/// The agent's plan, shown to the person as markdown for approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PlanRequest {
    /// Unique per request; the answer names it.
    pub id: String,
    pub session_id: String,
    pub tool_use_id: String,
    /// The plan, in markdown.
    pub plan: String,
}

/// What the person decides about a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "choice", rename_all = "snake_case")]
pub enum PlanChoice {
    /// Approve the plan and leave plan mode: into `mode` (`default` or `acceptEdits`), or, when `None`, back into
    /// the mode that was active before plan mode.
    Approve { mode: Option<PermissionMode> },
    /// Do not start yet: stay in plan mode; the feedback goes to the agent.
    KeepPlanning { feedback: String },
}

/// The answer to one [`PlanRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PlanAnswer {
    pub request_id: String,
    pub choice: PlanChoice,
}

/// One choice offered for a question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct QuestionOption {
    /// What the person picks (1-5 words); unique within its question.
    pub label: String,
    /// What the choice means or implies.
    pub description: String,
}

/// One question of the agent, with two to four options; the person may also type an answer of their own
/// ("Other").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct Question {
    /// The full question.
    pub question: String,
    /// A very short label for the question (a chip or tab title).
    pub header: String,
    pub options: Vec<QuestionOption>,
    /// Whether several options may be chosen.
    pub multi_select: bool,
}

/// One to four questions of the agent, asked together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct QuestionRequest {
    /// Unique per request; the answer names it.
    pub id: String,
    pub session_id: String,
    pub tool_use_id: String,
    pub questions: Vec<Question>,
}

/// The person's answer to one question.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct QuestionReply {
    /// The labels of the options chosen (at most one unless the question is multi-select).
    pub selected: Vec<String>,
    /// Free text typed under "Other", if any.
    pub other: Option<String>,
}

/// What the person did with a [`QuestionRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum QuestionOutcome {
    /// One reply per question, in the order asked.
    Answered { replies: Vec<QuestionReply> },
    /// The person dismissed the questions; an optional message goes to the agent.
    Declined { message: Option<String> },
}

/// The answer to one [`QuestionRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct QuestionAnswer {
    pub request_id: String,
    pub outcome: QuestionOutcome,
}
