//! The feature switches of the tools that are off unless asked for: teams (TeamCreate, TeamDelete, SendMessage,
//! ListPeers), the proactive Sleep tool, and the assistant mode (which also bounds how long a shell command may
//! hold the conversation); and the SIMPLE mode, which offers Bash, Read and Edit only. Each is read from its environment variable (`1` or `true`); a session
//! may also be given them directly. Also the scheduled prompts (CronCreate, CronDelete, CronList: `AGENT_TRIGGERS`),
//! which a settings file's `env` block may switch on too.

/// Turns the team tools on (`1` or `true`).
pub const TEAMS_ENV: &str = "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS";
/// Turns the Sleep tool on (`1` or `true`): the proactive mode (`PROACTIVE`; docs/engine-doors.md).
pub const PROACTIVE_ENV: &str = "CLAUDE_CODE_PROACTIVE";
/// Also turns the Sleep tool on (`1` or `true`): the assistant mode (`KAIROS`; docs/engine-doors.md).
pub const KAIROS_ENV: &str = "CLAUDE_CODE_KAIROS";

/// Turns the scheduled prompts on (`1` or `true`; also under `env` in a settings file): CronCreate, CronDelete,
/// CronList and the scheduler that fires them (docs/engine-doors.md).
pub const TRIGGERS_ENV: &str = "AGENT_TRIGGERS";

/// Offers VerifyPlanExecution (`1` or `true`): checking the work against the plan the person approved.
pub const VERIFY_PLAN_ENV: &str = "CLAUDE_CODE_VERIFY_PLAN";
/// Offers the Tungsten tool when it is [`TUNGSTEN_USER_TYPE`] (also under `env` in a settings file).
pub const USER_TYPE_ENV: &str = "USER_TYPE";
/// The [`USER_TYPE_ENV`] value that offers Tungsten.
pub const TUNGSTEN_USER_TYPE: &str = "ant";

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
    /// CronCreate, CronDelete, CronList, and the scheduler firing the project's scheduled prompts.
    pub triggers: bool,
    /// VerifyPlanExecution.
    pub verify_plan: bool,
    /// Tungsten, the interactive terminal the model drives (`USER_TYPE=ant`).
    pub tungsten: bool,
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
                .map(|v| matches!(v.trim(), "1" | "true"))
                .unwrap_or(false)
        };
        Self {
            teams: on(TEAMS_ENV),
            sleep: on(PROACTIVE_ENV) || on(KAIROS_ENV),
            assistant: on(KAIROS_ENV),
            simple: on(SIMPLE_ENV),
            triggers: on(TRIGGERS_ENV),
            verify_plan: on(VERIFY_PLAN_ENV),
            tungsten: lookup(USER_TYPE_ENV).is_some_and(|v| v.trim() == TUNGSTEN_USER_TYPE),
        }
    }

    /// These switches, with those that may also be set under `env` in a settings file turned on when the first of
    /// `settings_files` that sets them does and the environment does not say otherwise.
    pub fn with_settings_files(self, settings_files: &[std::path::PathBuf]) -> Self {
        let env = |name: &str| std::env::var(name).ok();
        Self {
            triggers: self.triggers
                || crate::settings::env_switch(TRIGGERS_ENV, env, settings_files),
            tungsten: self.tungsten
                || crate::settings::env_equals(
                    USER_TYPE_ENV,
                    TUNGSTEN_USER_TYPE,
                    env,
                    settings_files,
                ),
            ..self
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
                &[(TRIGGERS_ENV, "1")],
                Features {
                    triggers: true,
                    ..Features::default()
                },
            ),
            (&[(TRIGGERS_ENV, "on")], Features::default()),
            (
                &[(USER_TYPE_ENV, "ant")],
                Features {
                    tungsten: true,
                    ..Features::default()
                },
            ),
            (&[(USER_TYPE_ENV, "1")], Features::default()),
        ];
        for (pairs, want) in cases {
            assert_eq!(env(pairs), *want, "{pairs:?}");
        }
    }
}
