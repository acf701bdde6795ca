//! The vocabulary of settings: which list a rule is in, which source a rule or setting came from, a rule as
//! written, and a problem found in a settings file.

use std::path::PathBuf;

use serde::Serialize;

/// Which list a rule is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleBehavior {
    Allow,
    Deny,
    Ask,
}

impl RuleBehavior {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Deny => "deny",
            Self::Ask => "ask",
        }
    }
}

/// Where a rule or setting came from, highest priority first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSource {
    /// The managed policy file.
    Policy(PathBuf),
    /// A `--settings FILE` given on the command line.
    FlagFile(PathBuf),
    /// `--allowedTools`, `--disallowedTools`, `--permission-mode`.
    CliArg,
    /// `.claude/settings.local.json` of the project.
    Local(PathBuf),
    /// `.claude/settings.json` of the project.
    Project(PathBuf),
    /// `~/.claude/settings.json`.
    User(PathBuf),
    /// Granted during the session ("don't ask again").
    Session,
}

impl RuleSource {
    /// The settings file, or `cliArg` / `session`.
    pub fn label(&self) -> String {
        match self {
            Self::Policy(p)
            | Self::FlagFile(p)
            | Self::Local(p)
            | Self::Project(p)
            | Self::User(p) => p.display().to_string(),
            Self::CliArg => "cliArg".into(),
            Self::Session => "session".into(),
        }
    }

    /// The kind of source, as settings documentation names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Policy(_) => "policySettings",
            Self::FlagFile(_) => "flagSettings",
            Self::CliArg => "cliArg",
            Self::Local(_) => "localSettings",
            Self::Project(_) => "projectSettings",
            Self::User(_) => "userSettings",
            Self::Session => "session",
        }
    }

    /// Project-level sources (not applied for allow rules, directories and hooks until the folder is trusted).
    pub fn is_project_level(&self) -> bool {
        matches!(self, Self::Local(_) | Self::Project(_))
    }
}

/// A problem found in a settings file or a rule: reported, never silently ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingsIssue {
    /// The settings file (or `cliArg`, `session`).
    pub file: String,
    /// The rule text, when the problem is one rule.
    pub rule: Option<String>,
    pub message: String,
}

/// One rule as written in one list of one source, before parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleEntry {
    pub source: RuleSource,
    pub behavior: RuleBehavior,
    pub text: String,
}
