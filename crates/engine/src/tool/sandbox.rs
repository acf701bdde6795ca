//! The effective sandbox configuration a Bash call runs under (from the settings' `sandbox` keys and the
//! `TANDEM_BASH_SANDBOX` override), and the one answer both the permission check and the tool use: where a given
//! command runs — inside the sandbox, outside it, or nowhere because the sandbox is required but missing.

use std::path::PathBuf;
use std::sync::Arc;

use tandem_protocol::SandboxViolation;

use crate::shell::{self, BashPattern};

/// Receives what the sandbox refused a running call (the session turns each into an event for the window).
#[derive(Clone, Default)]
pub struct ViolationSink(Option<Arc<dyn Fn(SandboxViolation) + Send + Sync>>);

impl ViolationSink {
    pub fn new(report: impl Fn(SandboxViolation) + Send + Sync + 'static) -> Self {
        Self(Some(Arc::new(report)))
    }

    /// Reports one refusal (nothing happens where nobody listens).
    pub fn report(&self, violation: SandboxViolation) {
        if let Some(f) = &self.0 {
            f(violation);
        }
    }
}

impl std::fmt::Debug for ViolationSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViolationSink")
    }
}

/// The sandbox settings in force, merged over every settings source. The default is the settings' defaults: off,
/// and `allowUnsandboxedCommands` on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxConfig {
    /// `sandbox.enabled` (or the environment override).
    pub enabled: bool,
    /// `sandbox.autoAllowBashIfSandboxed`: sandboxed commands run without asking (deny rules, ask rules and safety
    /// checks still apply).
    pub auto_allow: bool,
    /// `sandbox.excludedCommands`: patterns of commands that run outside the sandbox (`docker`, `docker *`,
    /// `npm run:*`).
    pub excluded_commands: Vec<String>,
    /// `sandbox.allowUnsandboxedCommands` (default true): whether `dangerouslyDisableSandbox: true` is honoured.
    pub allow_unsandboxed: bool,
    /// `sandbox.network.allowedDomains`: hosts the sandbox's proxy admits (`example.com`, `*.example.com`); empty:
    /// no network at all.
    pub allowed_domains: Vec<String>,
    /// `sandbox.filesystem.allowWrite`: more folders the sandbox leaves writable.
    pub allow_write: Vec<PathBuf>,
    /// `sandbox.failIfUnavailable`: a call fails instead of running unsandboxed when bubblewrap is missing.
    pub fail_if_unavailable: bool,
    /// Where bubblewrap was found (`None`: not installed).
    pub bwrap: Option<PathBuf>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            auto_allow: false,
            excluded_commands: Vec::new(),
            allow_unsandboxed: true,
            allowed_domains: Vec::new(),
            allow_write: Vec::new(),
            fail_if_unavailable: false,
            bwrap: None,
        }
    }
}

/// Why a command runs outside the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsandboxed {
    /// The sandbox is not enabled.
    Disabled,
    /// The call asked for it (`dangerouslyDisableSandbox`) and the settings honour that.
    Requested,
    /// The command matches `sandbox.excludedCommands`.
    Excluded,
    /// The sandbox is enabled but bubblewrap is not installed (and the settings allow running without it).
    Unavailable,
}

/// Where one command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    Sandboxed,
    Unsandboxed(Unsandboxed),
    /// The sandbox is required (`failIfUnavailable`) but bubblewrap is missing: the call must fail.
    Refused,
}

impl SandboxConfig {
    /// Where `command` runs; `disable_requested`: the call set `dangerouslyDisableSandbox: true`.
    pub fn placement(&self, command: &str, disable_requested: bool) -> Placement {
        if !self.enabled {
            return Placement::Unsandboxed(Unsandboxed::Disabled);
        }
        if disable_requested && self.allow_unsandboxed {
            return Placement::Unsandboxed(Unsandboxed::Requested);
        }
        if self.excludes(command) {
            return Placement::Unsandboxed(Unsandboxed::Excluded);
        }
        match (&self.bwrap, self.fail_if_unavailable) {
            (Some(_), _) => Placement::Sandboxed,
            (None, true) => Placement::Refused,
            (None, false) => Placement::Unsandboxed(Unsandboxed::Unavailable),
        }
    }

    /// Whether some part of `command` (nested ones included) matches an `excludedCommands` pattern, read as a Bash
    /// permission rule is: `docker` is that command alone, `docker *` (or `docker:*`) it with any arguments, and
    /// `git * main` a wildcard. Each part is matched on the texts deny and ask rules see (past wrappers and
    /// assignments, the bare program name, inner commands); a command the analysis cannot split is matched on its
    /// text as a whole.
    pub fn excludes(&self, command: &str) -> bool {
        if self.excluded_commands.is_empty() {
            return false;
        }
        let analysis = shell::analyse(command);
        let whole = command.trim().to_string();
        let texts: Vec<&String> = analysis
            .parts
            .iter()
            .flat_map(|part| std::iter::once(&part.text).chain(&part.deny_texts))
            .chain(std::iter::once(&whole))
            .collect();
        self.excluded_commands.iter().any(|pattern| {
            if pattern.trim().is_empty() {
                return false;
            }
            let pattern = BashPattern::parse(pattern);
            texts.iter().any(|text| pattern.matches(text))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(excluded: &[&str]) -> SandboxConfig {
        SandboxConfig {
            enabled: true,
            allow_unsandboxed: true,
            excluded_commands: excluded.iter().map(|s| s.to_string()).collect(),
            bwrap: Some("/usr/bin/bwrap".into()),
            ..SandboxConfig::default()
        }
    }

    #[test]
    fn exclusions_match_any_part_as_rules_do() {
        let c = config(&["docker *", "npm run:*", "git * main", "make"]);
        for (command, excluded) in [
            ("docker ps", true),
            ("docker", true),
            ("/usr/bin/docker run x", true),
            ("ls && docker build .", true),
            ("bash -c 'docker ps'", true),
            ("sudo docker ps", true),
            ("FOO=1 docker ps", true),
            ("timeout 5 docker ps", true),
            ("npm run build", true),
            ("npm install", false),
            ("git push origin main", true),
            ("git push origin dev", false),
            ("git pull", false),
            ("make", true),
            ("make install", false),
            ("dockerd", false),
            ("echo docker", false),
            ("echo 'docker ps'", false),
        ] {
            assert_eq!(c.excludes(command), excluded, "{command}");
        }
        assert!(
            !config(&["", "  "]).excludes("ls"),
            "empty patterns match nothing"
        );
    }

    #[test]
    fn placement_table() {
        let on = config(&["docker *"]);
        let missing = SandboxConfig {
            bwrap: None,
            ..on.clone()
        };
        let strict = SandboxConfig {
            fail_if_unavailable: true,
            ..missing.clone()
        };
        let no_escape = SandboxConfig {
            allow_unsandboxed: false,
            ..on.clone()
        };
        use Placement::*;
        for (c, command, disable, want) in [
            (
                &SandboxConfig::default(),
                "ls",
                false,
                Unsandboxed(self::Unsandboxed::Disabled),
            ),
            (&on, "ls", false, Sandboxed),
            (&on, "ls", true, Unsandboxed(self::Unsandboxed::Requested)),
            (
                &on,
                "docker ps",
                false,
                Unsandboxed(self::Unsandboxed::Excluded),
            ),
            (&no_escape, "ls", true, Sandboxed),
            (
                &missing,
                "ls",
                false,
                Unsandboxed(self::Unsandboxed::Unavailable),
            ),
            (&strict, "ls", false, Refused),
        ] {
            assert_eq!(c.placement(command, disable), want, "{command} {disable}");
        }
    }
}
