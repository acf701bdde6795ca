//! Permission modes and the decision the permission engine gives for one tool call.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{DecisionSource, RuleScope};

/// How the permission engine treats calls that no rule decides (docs/permissions.md §5).
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
    /// What decided, typed. `None` only in decisions recorded before Tandem stored it.
    #[serde(default)]
    pub decided_by: Option<DecisionSource>,
}

impl PermissionDecision {
    /// A decision not made by a rule.
    pub fn new(
        decision: DecisionBehavior,
        reason: impl Into<String>,
        decided_by: DecisionSource,
    ) -> Self {
        Self {
            decision,
            reason: reason.into(),
            rule: None,
            source: None,
            decided_by: Some(decided_by),
        }
    }

    /// A decision made by `rule` (a rule of the `decision` list) from `scope`, written in `file` if in a file.
    pub fn by_rule(
        decision: DecisionBehavior,
        reason: impl Into<String>,
        rule: impl Into<String>,
        scope: RuleScope,
        file: Option<String>,
    ) -> Self {
        let rule = rule.into();
        Self {
            decision,
            reason: reason.into(),
            rule: Some(rule.clone()),
            source: Some(file.clone().unwrap_or_else(|| scope.as_str().to_string())),
            decided_by: Some(DecisionSource::Rule {
                rule,
                behavior: decision,
                scope,
                file,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_decision_names_its_file_as_source() {
        let d = PermissionDecision::by_rule(
            DecisionBehavior::Deny,
            "denied",
            "Bash(rm *)",
            RuleScope::ProjectSettings,
            Some("/p/.claude/settings.json".into()),
        );
        assert_eq!(d.source.as_deref(), Some("/p/.claude/settings.json"));
        let session = PermissionDecision::by_rule(
            DecisionBehavior::Allow,
            "allowed",
            "Read",
            RuleScope::Session,
            None,
        );
        assert_eq!(session.source.as_deref(), Some("session"));
    }

    #[test]
    fn a_decision_stored_before_the_typed_source_still_reads() {
        let old = r#"{"decision":"allow","reason":"Read is read-only","rule":null,"source":null}"#;
        let d: PermissionDecision = serde_json::from_str(old).expect("reads");
        assert_eq!(d.decided_by, None);
        assert_eq!(d.reason, "Read is read-only");
    }

    #[test]
    fn the_source_is_tagged() {
        let d = PermissionDecision::new(
            DecisionBehavior::Ask,
            "default mode asks",
            DecisionSource::Mode {
                mode: PermissionMode::Default,
            },
        );
        let json = serde_json::to_value(&d).expect("serialises");
        assert_eq!(json["decided_by"]["type"], "mode");
        assert_eq!(json["decided_by"]["mode"], "default");
    }
}
