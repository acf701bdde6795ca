//! The decision trace: the steps a permission decision went through (the mode, the rules that matched and those
//! they shadowed, the hooks that ran and what each answered, the checks that fired, an ask the mode turned into a
//! deny) and what finally decided, so that a dialog can say why it asks and `permissions check` can show the same.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{DecisionBehavior, DecisionSource, PermissionMode, RuleScope};

/// How a matching rule took part in the decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleRole {
    /// The rule gave the answer.
    Decided,
    /// The rule matches too, but a rule, hook or check that comes first decided.
    Shadowed,
}

/// A check the engine makes whatever the rules say, named in a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TraceCheck {
    /// A write to a protected path (`.git`, `.claude`, shell profiles, ...).
    ProtectedPath,
    /// `rm` aimed at a critical path.
    CriticalRemoval,
    /// A network (UNC) path.
    NetworkPath,
    /// A host that is not a public address.
    PrivateAddress,
    /// A settings file that could not be read.
    UnreadableSettings,
    /// A settings file that could not be read, which the person accepted running without: the call went on past
    /// the check for unreadable settings.
    UnreadableSettingsAccepted,
    /// A path outside the working directories.
    OutsideWorkingDirectories,
    /// A shell command that cannot be analysed (so no rule or mode can approve it).
    UnanalysableCommand,
    /// A command a program runs from an option value, an environment variable or its arguments
    /// (`git rebase --exec CMD`, `PAGER=CMD`, `unbuffer CMD`): analysed like any other.
    CarriedCommand,
    /// A command or search reads every file under a folder holding files a read deny or ask rule covers.
    WalksCoveredFiles,
}

/// One step of a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TraceStep {
    /// The permission mode in force.
    Mode { mode: PermissionMode },
    /// A rule that matches the call.
    Rule {
        /// The rule as written.
        rule: String,
        behavior: DecisionBehavior,
        scope: RuleScope,
        /// The settings file it is written in (`None` for command-line and session rules).
        file: Option<String>,
        role: RuleRole,
    },
    /// A hook that ran for the call.
    Hook {
        /// The hook event (`PreToolUse`, `PermissionRequest`).
        event: String,
        command: String,
        /// The settings file (or `cliArg`, `session`) the hook is configured in.
        source: String,
        /// What the process did: `exit 0`, `exit 2`, `timed out after 5 s`, `could not run: …`.
        outcome: String,
        /// The permission answer it gave, if any.
        decision: Option<DecisionBehavior>,
        reason: Option<String>,
    },
    /// A check that fired.
    Check { check: TraceCheck, detail: String },
    /// Auto mode's classifier answered.
    Classifier {
        decision: DecisionBehavior,
        reason: String,
    },
    /// The steps before asked, but no one may be asked here, so the call is denied: `by` is dontAsk mode (or,
    /// for a background agent, [`DecisionSource::NoPrompt`]); `detail` says so in words.
    AskConverted { by: DecisionSource, detail: String },
}

/// The steps of one decision and what finally decided it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct DecisionTrace {
    pub steps: Vec<TraceStep>,
    /// What decided (the same as the decision's `decided_by`).
    pub decided_by: Option<DecisionSource>,
}

impl DecisionTrace {
    /// The rule steps with role `role`.
    pub fn rules(&self, role: RuleRole) -> impl Iterator<Item = &TraceStep> {
        self.steps
            .iter()
            .filter(move |s| matches!(s, TraceStep::Rule { role: r, .. } if *r == role))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_tagged() {
        let trace = DecisionTrace {
            steps: vec![
                TraceStep::Mode {
                    mode: PermissionMode::Default,
                },
                TraceStep::Check {
                    check: TraceCheck::ProtectedPath,
                    detail: ".git/".into(),
                },
            ],
            decided_by: None,
        };
        let json = serde_json::to_value(&trace).expect("serialises");
        assert_eq!(json["steps"][0]["type"], "mode");
        assert_eq!(json["steps"][1]["check"], "protected_path");
    }
}
