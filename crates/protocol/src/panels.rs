//! What the rules and hooks panels show: every effective rule with its scope, file and conflicts, a call tested
//! against the rules, every configured hook, and what a hook did when the person tried it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{DecisionBehavior, DecisionTrace, FolderTrust, RuleScope};

/// One rule as written in a settings source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RuleListing {
    /// The rule as written, e.g. `Bash(npm run test:*)`.
    pub rule: String,
    pub behavior: DecisionBehavior,
    pub scope: RuleScope,
    /// The settings file it is written in (`None` for command-line and session rules).
    pub file: Option<String>,
    /// Whether the rule is in force (a project allow rule waits for trust; an invalid rule never applies).
    pub applies: bool,
    /// Why it does not apply, or a warning about it.
    pub problem: Option<String>,
    /// For an allow rule: the deny or ask rules that cover everything it allows, so it can never allow anything.
    pub shadowed_by: Vec<String>,
    /// The same pattern in another list (allow and deny, allow and ask, ask and deny).
    pub contradicts: Vec<String>,
    /// In auto mode, an allow rule that would let any code run is set aside (the classifier judges those calls
    /// instead) until the session leaves auto mode: why.
    #[serde(default)]
    pub set_aside: Option<String>,
}

/// The settings files the person may edit rules in, by scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RuleFiles {
    /// `.claude/settings.local.json` of the project.
    pub local: String,
    /// `.claude/settings.json` of the project.
    pub project: String,
    /// `~/.claude/settings.json` (`None` without a home directory).
    pub user: Option<String>,
}

/// What the rules panel shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RulesView {
    /// Every rule of every source, highest priority first.
    pub rules: Vec<RuleListing>,
    pub files: RuleFiles,
    pub trust: FolderTrust,
}

/// A call tested against the session's rules ("test a command").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct CallCheck {
    pub decision: DecisionBehavior,
    pub reason: String,
    pub trace: DecisionTrace,
    /// What "Yes, and don't ask again" would save.
    pub suggestions: Vec<String>,
}

/// One configured hook command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct HookListing {
    /// The event, e.g. `PreToolUse`.
    pub event: String,
    /// The matcher as written (`None`: every tool, or an event without tools).
    pub matcher: Option<String>,
    pub command: String,
    #[ts(type = "number")]
    pub timeout_secs: u64,
    /// The settings file (or `cliArg`, `session`) it is configured in.
    pub source: String,
    /// Whether it is in force now (hooks of an untrusted folder wait for trust).
    pub active: bool,
    /// A sample of the JSON the hook gets on stdin for its event, to edit in the tester.
    #[ts(type = "unknown")]
    pub sample_input: Value,
}

/// What one hook did when the person ran it from the tester.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct HookTestResult {
    /// `None` when the process was killed (timeout) or could not start.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
    /// What the process did, as a trace names it (`exit 0`, `timed out after 5 s`, ...).
    pub outcome: String,
    /// The permission answer it would give (tool events).
    pub decision: Option<DecisionBehavior>,
    pub reason: Option<String>,
    /// A block it would give (`decision: "block"` or exit code 2 on other events).
    pub block: Option<String>,
    /// Problems the engine would report (bad exit codes, timeouts, failure to start).
    pub errors: Vec<String>,
}
