//! The feature switches of the tools that are off unless asked for: teams (TeamCreate, TeamDelete, SendMessage,
//! ListPeers), the proactive Sleep tool, and the assistant mode (which also bounds how long a shell command may
//! hold the conversation); the SIMPLE mode, which offers Bash, Read and Edit only; and the context tools CtxInspect
//! and Snip. Each is read from its environment variable (`1` or `true`; the context tools also from `env` in a
//! settings file); a session may also be given them directly.

/// Turns the team tools on (`1` or `true`).
pub const TEAMS_ENV: &str = "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS";
/// Turns the Sleep tool on (`1` or `true`): the proactive mode (`PROACTIVE`; docs/engine-doors.md).
pub const PROACTIVE_ENV: &str = "CLAUDE_CODE_PROACTIVE";
/// Also turns the Sleep tool on (`1` or `true`): the assistant mode (`KAIROS`; docs/engine-doors.md).
pub const KAIROS_ENV: &str = "CLAUDE_CODE_KAIROS";

/// Offers Bash, Read and Edit only (`1` or `true`), with the MCP servers' tools: the SIMPLE mode.
pub const SIMPLE_ENV: &str = "CLAUDE_CODE_SIMPLE";

/// Turns the CtxInspect tool on (`1` or `true`; `CONTEXT_COLLAPSE`; docs/context-tools.md), in the environment or
/// under `env` in a settings file.
pub const CONTEXT_COLLAPSE_ENV: &str = "CLAUDE_CODE_CONTEXT_COLLAPSE";
/// Turns the Snip tool on (`1` or `true`; `HISTORY_SNIP`; docs/context-tools.md), in the environment or under `env`
/// in a settings file.
pub const HISTORY_SNIP_ENV: &str = "CLAUDE_CODE_HISTORY_SNIP";

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
    /// CtxInspect (`CONTEXT_COLLAPSE`).
    pub context_inspect: bool,
    /// Snip (`HISTORY_SNIP`).
    pub snip: bool,
}

impl Features {
    /// The switches as the environment sets them (all off by default).
    pub fn from_env() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// The switches as `lookup` (an environment) sets them.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let on = |name: &str| {
            lookup(name)
                .map(|v| crate::settings::switch_value_on(&v))
                .unwrap_or(false)
        };
        Self {
            teams: on(TEAMS_ENV),
            sleep: on(PROACTIVE_ENV) || on(KAIROS_ENV),
            assistant: on(KAIROS_ENV),
            simple: on(SIMPLE_ENV),
            context_inspect: on(CONTEXT_COLLAPSE_ENV),
            snip: on(HISTORY_SNIP_ENV),
        }
    }

    /// These switches with those that may also be set under `env` in a settings file turned on where the first of
    /// `settings_files` that sets them says so and the environment (`lookup`) does not set them
    /// ([`crate::settings::env_switch`]).
    pub fn with_settings(
        mut self,
        lookup: impl Fn(&str) -> Option<String>,
        settings_files: &[std::path::PathBuf],
    ) -> Self {
        let on = |name: &str| crate::settings::env_switch(name, &lookup, settings_files);
        self.context_inspect |= on(CONTEXT_COLLAPSE_ENV);
        self.snip |= on(HISTORY_SNIP_ENV);
        self
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
                &[(CONTEXT_COLLAPSE_ENV, "1"), (HISTORY_SNIP_ENV, "true")],
                Features {
                    context_inspect: true,
                    snip: true,
                    ..Features::default()
                },
            ),
        ];
        for (pairs, want) in cases {
            assert_eq!(env(pairs), *want, "{pairs:?}");
        }
    }

    #[test]
    fn the_context_switches_also_come_from_settings_files_unless_the_environment_sets_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("settings.json");
        std::fs::write(
            &file,
            r#"{"env": {"CLAUDE_CODE_CONTEXT_COLLAPSE": "1", "CLAUDE_CODE_HISTORY_SNIP": true}}"#,
        )
        .expect("write");
        let files = [file];
        let none = |_: &str| None;
        let off = |name: &str| (name == HISTORY_SNIP_ENV).then(|| "0".to_string());
        type Env<'a> = &'a dyn Fn(&str) -> Option<String>;
        let cases: &[(Env<'_>, &[std::path::PathBuf], (bool, bool))] = &[
            (&none, &[], (false, false)),
            (&none, &files, (true, true)),
            (&off, &files, (true, false)),
        ];
        for (env, files, want) in cases {
            let got = Features::default().with_settings(env, files);
            assert_eq!((got.context_inspect, got.snip), *want, "{files:?}");
        }
    }
}
