//! What the engine asks the person (a permission request) and what the person answers.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{DecisionSource, DecisionTrace, SubAgentOrigin, ToolKind};

/// Rules that "Yes, and don't ask again" would save, and the settings file they would go to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RuleSuggestion {
    /// Allow rules, e.g. `Bash(npm run test *)`.
    pub rules: Vec<String>,
    /// The settings file they are written to.
    pub destination: String,
}

/// A question to the person: may this tool call run?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ApprovalRequest {
    /// Unique per request; the answer names it.
    pub id: String,
    pub session_id: String,
    pub tool_use_id: String,
    pub tool_name: String,
    /// What kind of work the call does (its render hints' kind), so the dialog can show it without knowing tools.
    #[serde(default)]
    pub kind: ToolKind,
    #[ts(type = "unknown")]
    pub input: Value,
    /// One line saying what the call would do.
    pub title: String,
    /// Why the engine asks (the rule, mode or check that led to the question).
    pub reason: String,
    /// What decided to ask, typed (`None` in requests recorded before Tandem stored it).
    #[serde(default)]
    pub decided_by: Option<DecisionSource>,
    /// The steps of the decision (rules, hooks, mode, checks), for "Why am I asked?" (`None` in requests recorded
    /// before Tandem stored it).
    #[serde(default)]
    pub trace: Option<Box<DecisionTrace>>,
    pub suggestion: Option<RuleSuggestion>,
    /// For a call that changes a file: the file before and after, for the diff dialog.
    pub diff: Option<FileDiff>,
    /// The sub-agent whose call this is, when the question comes from inside an Agent call (`None`: the session's
    /// own agent asks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sub_agent: Option<Box<SubAgentOrigin>>,
    /// What the call would destroy (`rm -rf build` removes the folder build and everything in it), shown as
    /// warnings in the dialog.
    #[serde(default)]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub warnings: Vec<String>,
    /// For a command that edits files in place (`sed -i`): each named file before and after, as it would run.
    #[serde(default)]
    #[ts(as = "Option<Vec<FileDiff>>", optional)]
    pub previews: Vec<FileDiff>,
}

/// A proposed change to one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct FileDiff {
    /// Absolute path of the file.
    pub path: String,
    /// The content now (empty for a new file).
    pub old_text: String,
    /// The content after the change.
    pub new_text: String,
    /// Whether the file does not exist yet.
    pub is_new_file: bool,
}

/// The person's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalChoice {
    /// Run it this once.
    Allow,
    /// Run it and save the suggested rules.
    AllowAlways,
    /// Do not run it.
    Deny,
}

/// The answer to one [`ApprovalRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ApprovalAnswer {
    pub request_id: String,
    pub choice: ApprovalChoice,
    /// An optional message passed to the agent with a refusal.
    pub message: Option<String>,
    /// For a file change approved after review: the file's text the person accepted, when it differs from the
    /// proposal (some hunks rejected, or the proposed text edited). The change is written as the person left it
    /// and the agent is told how it differs from what it proposed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub revision: Option<Revision>,
    /// For an allowed call: the input it runs with instead of the one proposed (validated like the model's), as an
    /// answering program may give it (`--permission-prompt-tool`'s `updatedInput`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub updated_input: Option<Value>,
}

/// The person's version of a proposed file change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct Revision {
    /// The whole file as the person accepted it.
    pub text: String,
    /// The proposal's hunks the person rejected, numbered from 1 in the order the dialog showed them.
    pub rejected_hunks: Vec<u32>,
    /// How many hunks the proposal had.
    pub total_hunks: u32,
    /// Whether the person also edited the proposed text by hand.
    pub edited: bool,
}

impl ApprovalAnswer {
    /// A plain answer without a message.
    pub fn new(request_id: impl Into<String>, choice: ApprovalChoice) -> Self {
        Self {
            request_id: request_id.into(),
            choice,
            message: None,
            revision: None,
            updated_input: None,
        }
    }
}
