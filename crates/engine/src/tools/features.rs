//! The feature switches of the tools that are off unless asked for: teams (TeamCreate, TeamDelete, SendMessage,
//! ListPeers), the proactive Sleep tool, and the assistant mode (which also bounds how long a shell command may
//! hold the conversation); Monitor and OverflowTest; and the SIMPLE mode, which offers Bash, Read and Edit only.
//! Each is read from its environment variable (`1` or `true`), or the same name under `env` in a settings file; a
//! session may also be given them directly.

/// Turns the team tools on (`1` or `true`).
pub const TEAMS_ENV: &str = "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS";
/// Turns the Sleep tool on (`1` or `true`): the proactive mode (`PROACTIVE`; docs/engine-doors.md).
pub const PROACTIVE_ENV: &str = "CLAUDE_CODE_PROACTIVE";
/// Also turns the Sleep tool on (`1` or `true`): the assistant mode (`KAIROS`; docs/engine-doors.md).
pub const KAIROS_ENV: &str = "CLAUDE_CODE_KAIROS";

/// Offers the Monitor tool (`1` or `true`): watch a background shell's output or a file and wake the agent on a match.
pub const MONITOR_ENV: &str = "MONITOR_TOOL";
/// Offers the OverflowTest tool (`1` or `true`): a result of a requested size, to exercise the large-result path.
pub const OVERFLOW_TEST_ENV: &str = "OVERFLOW_TEST_TOOL";

/// Offers Bash, Read and Edit only (`1` or `true`), with the MCP servers' tools: the SIMPLE mode.
pub const SIMPLE_ENV: &str = "CLAUDE_CODE_SIMPLE";

/// Which switchable tools a session offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// TeamCreate, TeamDelete, SendMessage, ListPeers.
    pub teams: bool,
    /// Sleep.
    pub sleep: bool,
    /// The assistant mode (`KAIROS`): a shell command of the session's own agent moves to the background after
    /// [`crate::tools::bash::ASSISTANT_BLOCKING_BUDGET`].
    pub assistant: bool,
    /// The SIMPLE mode: of the built-in tools, Bash, Read and Edit only.
    pub simple: bool,
    /// Monitor.
    pub monitor: bool,
    /// OverflowTest.
    pub overflow_test: bool,
}

impl Features {
    /// The switches as the environment sets them (all off by default).
    pub fn from_env() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// The switches as the environment sets them, else (for a switch the environment does not set) the `env` block
    /// of the first of `settings_files` (highest precedence first) that sets it.
    pub fn from_env_and_settings(settings_files: &[std::path::PathBuf]) -> Self {
        Self::from_lookup(|name| {
            crate::settings::env_value(name, |k| std::env::var(k).ok(), settings_files)
        })
    }

    /// The switches as `lookup` (an environment) sets them.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let on = |name: &str| lookup(name).is_some_and(|v| crate::settings::is_on(&v));
        Self {
            teams: on(TEAMS_ENV),
            sleep: on(PROACTIVE_ENV) || on(KAIROS_ENV),
            assistant: on(KAIROS_ENV),
            simple: on(SIMPLE_ENV),
            monitor: on(MONITOR_ENV),
            overflow_test: on(OVERFLOW_TEST_ENV),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_are_off_unless_set_to_one_or_true() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            Features::from_lookup(move |name| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            })
        };
        let cases: &[(&[(&str, &str)], Features)] = &[
            (&[], Features::default()),
            (
                &[(TEAMS_ENV, "1")],
                Features {
                    teams: true,
                    ..Features::default()
                },
            ),
            (&[(TEAMS_ENV, "0")], Features::default()),
            (
                &[(PROACTIVE_ENV, "true")],
                Features {
                    sleep: true,
                    ..Features::default()
                },
            ),
            (
                &[(KAIROS_ENV, "1")],
                Features {
                    sleep: true,
                    assistant: true,
                    ..Features::default()
                },
            ),
            (&[(KAIROS_ENV, "yes")], Features::default()),
            (
                &[(SIMPLE_ENV, "true")],
                Features {
                    simple: true,
                    ..Features::default()
                },
            ),
            (&[(SIMPLE_ENV, "")], Features::default()),
            (
                &[(MONITOR_ENV, "1"), (OVERFLOW_TEST_ENV, "true")],
                Features {
                    monitor: true,
                    overflow_test: true,
                    ..Features::default()
                },
            ),
            (&[(MONITOR_ENV, "on")], Features::default()),
        ];
        for (pairs, want) in cases {
            assert_eq!(env(pairs), *want, "{pairs:?}");
        }
    }
}
