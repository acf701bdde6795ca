//! Permission modes and the decision the permission engine gives for one tool call.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How the permission engine treats calls that no rule decides (spec/permissions.md §5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(rename_all = "camelCase")]
pub enum PermissionMode {
    /// Read-only tools inside the working directories run; everything else asks.
    #[default]
    Default,
    /// Also file edits inside the working directories run without asking.
    AcceptEdits,
    /// Read-only work only; edits wait for an approved plan.
    Plan,
    /// Whatever would ask is denied.
    DontAsk,
    /// Everything runs except what deny/ask rules, hooks and safety checks stop.
    BypassPermissions,
    /// A classifier model decides what would ask.
    Auto,
    /// Sub-agents: asks are forwarded to the parent session.
    Bubble,
}

impl PermissionMode {
    /// Every mode, in the order the UI lists them.
    pub const ALL: [PermissionMode; 7] = [
        Self::Default,
        Self::AcceptEdits,
        Self::Plan,
        Self::DontAsk,
        Self::BypassPermissions,
        Self::Auto,
        Self::Bubble,
    ];

    /// The name used in settings files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::AcceptEdits => "acceptEdits",
            Self::Plan => "plan",
            Self::DontAsk => "dontAsk",
            Self::BypassPermissions => "bypassPermissions",
            Self::Auto => "auto",
            Self::Bubble => "bubble",
        }
    }

    /// Parses the settings / command-line name of a mode.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }
}

impl std::fmt::Display for PermissionMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The three answers a permission decision can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum DecisionBehavior {
    Allow,
    Ask,
    Deny,
}

/// A permission decision with what decided it: the rule and its source, a hook, the mode or a safety check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PermissionDecision {
    pub decision: DecisionBehavior,
    /// Human-readable explanation naming what decided.
    pub reason: String,
    /// The rule text that decided, when a rule did.
    pub rule: Option<String>,
    /// Where that rule (or hook) came from: a settings file path, `cliArg`, `session`, ...
    pub source: Option<String>,
}

impl PermissionDecision {
    /// A decision not made by a rule.
    pub fn new(decision: DecisionBehavior, reason: impl Into<String>) -> Self {
        Self {
            decision,
            reason: reason.into(),
            rule: None,
            source: None,
        }
    }

    /// A decision made by `rule` from `source`.
    pub fn by_rule(
        decision: DecisionBehavior,
        reason: impl Into<String>,
        rule: impl Into<String>,
        source: impl Into<String>,
    ) -> Self {
        Self {
            decision,
            reason: reason.into(),
            rule: Some(rule.into()),
            source: Some(source.into()),
        }
    }
}
