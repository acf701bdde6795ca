//! What decided a permission answer, typed: a rule (with its settings file), a hook, the mode, a safety check, auto
//! mode's classifier, the tool itself or the working directories.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{DecisionBehavior, PermissionMode};

/// Where a permission rule comes from, named as the settings documentation names the sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum RuleScope {
    /// The managed policy file.
    PolicySettings,
    /// A `--settings FILE` given on the command line.
    FlagSettings,
    /// `--allowedTools`, `--disallowedTools` on the command line.
    CliArg,
    /// `.claude/settings.local.json` of the project.
    LocalSettings,
    /// `.claude/settings.json` of the project.
    ProjectSettings,
    /// `~/.claude/settings.json`.
    UserSettings,
    /// Granted during the session ("Yes, and don't ask again").
    Session,
}

impl RuleScope {
    /// The name in settings documentation (`localSettings`, `cliArg`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PolicySettings => "policySettings",
            Self::FlagSettings => "flagSettings",
            Self::CliArg => "cliArg",
            Self::LocalSettings => "localSettings",
            Self::ProjectSettings => "projectSettings",
            Self::UserSettings => "userSettings",
            Self::Session => "session",
        }
    }
}

/// The safety checks that ask whatever the rules and the mode say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum SafetyCheck {
    /// A write to a protected path (`.git`, `.claude`, shell profiles, ...).
    ProtectedPath,
    /// `rm` aimed at a critical path (the project root, the home directory, `/`, ...).
    CriticalRemoval,
    /// A network (UNC) path, never touched before the person decides.
    NetworkPath,
    /// A URL whose host is (or resolves to) a loopback, private or link-local address: fetched only with the
    /// person's explicit approval (or an allow rule naming that host).
    PrivateAddress,
    /// A settings file that could not be read may hold deny rules: only read-only actions inside the working
    /// directories run without asking.
    UnreadableSettings,
}

/// What decided a permission answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DecisionSource {
    /// A permission rule.
    Rule {
        /// The rule as written, e.g. `Bash(rm *)`.
        rule: String,
        /// Which list the rule is in.
        behavior: DecisionBehavior,
        scope: RuleScope,
        /// The settings file it is written in (`None` for command-line and session rules).
        file: Option<String>,
    },
    /// A hook's command (PreToolUse).
    Hook { command: String },
    /// The permission mode: what no rule decided, or an ask turned into a deny (dontAsk).
    Mode { mode: PermissionMode },
    /// A safety check that always asks.
    SafetyCheck { check: SafetyCheck },
    /// Auto mode's classifier, with the reason it gave.
    Classifier { reason: String },
    /// The tool itself: a read-only tool runs, AskUserQuestion always asks, a sub-agent may start.
    Tool { tool: String },
    /// The working directories: reads and read-only commands inside them run without asking.
    WorkingDirectories,
    /// No one can answer a prompt here (a background agent), so what would ask is denied.
    NoPrompt,
    /// The shell sandbox: with `sandbox.autoAllowBashIfSandboxed` a command that runs inside it needs no approval.
    Sandbox,
}
