//! The feature switches of the tools that are off unless asked for: teams (TeamCreate, TeamDelete, SendMessage,
//! ListPeers), the proactive Sleep tool, and the assistant mode (which also bounds how long a shell command may
//! hold the conversation); the SIMPLE mode, which offers Bash, Read and Edit only; the scheduled prompts
//! (CronCreate, CronDelete, CronList: `AGENT_TRIGGERS`); VerifyPlanExecution; Tungsten (`USER_TYPE=ant`); the
//! REPL mode (`USER_TYPE=ant` with `CLAUDE_CODE_REPL`); the context tools CtxInspect and Snip; Monitor, OverflowTest,
//! WebBrowser, Workflow and the window's terminal panel with TerminalCapture (`TERMINAL_PANEL`); SubscribePR
//! (`KAIROS_GITHUB_WEBHOOKS`), SuggestBackgroundPR (`USER_TYPE=ant`) and RemoteTrigger (`AGENT_TRIGGERS_REMOTE`).
//! Each is read from its environment variable (`1` or `true`); the seed's gates (scheduled prompts, Tungsten, the
//! context tools, Monitor, OverflowTest, Workflow, the terminal panel, the GitHub tools, RemoteTrigger) and
//! WebBrowser's also from `env` in a settings file. A session may also be given them directly.

/// Turns the team tools on (`1` or `true`).
pub const TEAMS_ENV: &str = "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS";
/// Turns the Sleep tool on (`1` or `true`): the proactive mode (`PROACTIVE`; docs/engine-doors.md).
pub const PROACTIVE_ENV: &str = "CLAUDE_CODE_PROACTIVE";
/// Also turns the Sleep tool on (`1` or `true`): the assistant mode (`KAIROS`; docs/engine-doors.md).
pub const KAIROS_ENV: &str = "CLAUDE_CODE_KAIROS";
/// The assistant mode under the seed's name (`1` or `true`; also under `env` in a settings file): as
/// [`KAIROS_ENV`], and offers SendUserFile and PushNotification.
pub const KAIROS_SEED_ENV: &str = "KAIROS";

/// Turns the scheduled prompts on (`1` or `true`; also under `env` in a settings file): CronCreate, CronDelete,
/// CronList and the scheduler that fires them (docs/engine-doors.md).
pub const TRIGGERS_ENV: &str = "AGENT_TRIGGERS";

/// Offers VerifyPlanExecution (`1` or `true`): checking the work against the plan the person approved.
pub const VERIFY_PLAN_ENV: &str = "CLAUDE_CODE_VERIFY_PLAN";
/// Offers the Tungsten and Config tools when it is [`TUNGSTEN_USER_TYPE`] (also under `env` in a settings file).
pub const USER_TYPE_ENV: &str = "USER_TYPE";
/// The [`USER_TYPE_ENV`] value that offers Tungsten.
pub const TUNGSTEN_USER_TYPE: &str = "ant";
/// The REPL mode (`1` or `true`; also under `env` in a settings file), with [`USER_TYPE_ENV`] `=ant`: the REPL
/// tool is offered and the primitive tools it wraps are hidden from the session's own agent.
pub const REPL_ENV: &str = "CLAUDE_CODE_REPL";
/// Offers the Monitor tool (`1` or `true`): watch a background shell's output or a file and wake the agent on a match.
pub const MONITOR_ENV: &str = "MONITOR_TOOL";
/// Offers the OverflowTest tool (`1` or `true`): a result of a requested size, to exercise the large-result path.
pub const OVERFLOW_TEST_ENV: &str = "OVERFLOW_TEST_TOOL";
/// Offers the WebBrowser tool (`1` or `true`): a headless Chromium the model drives (docs/web-browser.md).
pub const WEB_BROWSER_ENV: &str = "WEB_BROWSER_TOOL";
/// Offers the Workflow tool (`1` or `true`; also under `env` in a settings file): the project's workflow scripts
/// (docs/workflows.md).
pub const WORKFLOW_SCRIPTS_ENV: &str = "WORKFLOW_SCRIPTS";
/// Offers SubscribePR (`1` or `true`): the session is woken when a GitHub pull request changes
/// (docs/github-tools.md).
pub const GITHUB_WEBHOOKS_ENV: &str = "KAIROS_GITHUB_WEBHOOKS";
/// Offers RemoteTrigger (`1` or `true`): scheduled prompts run by `tandem -p` on another machine over `ssh`
/// (docs/github-tools.md).
pub const REMOTE_TRIGGERS_ENV: &str = "AGENT_TRIGGERS_REMOTE";

/// Offers the window's terminal panel and the TerminalCapture tool (`1` or `true`; also under `env` in a settings
/// file): the person's shell at the bottom of the session, whose text the model may read (docs/terminal-panel.md).
pub const TERMINAL_PANEL_ENV: &str = "TERMINAL_PANEL";

/// The coordinator mode (`1` or `true`; also under `env` in a settings file): the session's own agent gets only the
/// tools that start, steer and stop sub-agents, which do the work with their full tool sets.
pub const COORDINATOR_ENV: &str = "CLAUDE_CODE_COORDINATOR_MODE";

/// Offers Bash, Read and Edit only (`1` or `true`), with the MCP servers' tools: the SIMPLE mode.
pub const SIMPLE_ENV: &str = "CLAUDE_CODE_SIMPLE";

/// Turns the CtxInspect tool on (`1` or `true`; `CONTEXT_COLLAPSE`; docs/context-tools.md), in the environment or
/// under `env` in a settings file.
pub const CONTEXT_COLLAPSE_ENV: &str = "CONTEXT_COLLAPSE";
/// Turns the Snip tool on (`1` or `true`; `HISTORY_SNIP`; docs/context-tools.md), in the environment or under `env`
/// in a settings file.
pub const HISTORY_SNIP_ENV: &str = "HISTORY_SNIP";

/// Which switchable tools a session offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// TeamCreate, TeamDelete, SendMessage, ListPeers.
    pub teams: bool,
    /// Sleep.
    pub sleep: bool,
    /// The assistant mode (`KAIROS`): SendUserFile and PushNotification are offered, and a shell command of the session's own agent moves to the background after
    /// [`crate::tools::bash::ASSISTANT_BLOCKING_BUDGET`].
    pub assistant: bool,
    /// The SIMPLE mode: of the built-in tools, Bash, Read and Edit only.
    pub simple: bool,
    /// The coordinator mode: the session's own agent gets Agent, TaskOutput, TaskStop and SendMessage only.
    pub coordinator: bool,
    /// CronCreate, CronDelete, CronList, and the scheduler firing the project's scheduled prompts.
    pub triggers: bool,
    /// VerifyPlanExecution.
    pub verify_plan: bool,
    /// Tungsten, the interactive terminal the model drives (`USER_TYPE=ant`).
    pub tungsten: bool,
    /// Config, reading and changing settings (`USER_TYPE=ant`, as Tungsten).
    pub config: bool,
    /// The REPL mode: REPL offered, the primitives it wraps hidden (`USER_TYPE=ant` and `CLAUDE_CODE_REPL`).
    pub repl: bool,
    /// CtxInspect (`CONTEXT_COLLAPSE`).
    pub context_inspect: bool,
    /// Snip (`HISTORY_SNIP`).
    pub snip: bool,
    /// Monitor.
    pub monitor: bool,
    /// OverflowTest.
    pub overflow_test: bool,
    /// WebBrowser.
    pub web_browser: bool,
    /// Workflow.
    pub workflows: bool,
    /// SubscribePR (`KAIROS_GITHUB_WEBHOOKS`).
    pub subscribe_pr: bool,
    /// SuggestBackgroundPR (`USER_TYPE=ant`, as Tungsten).
    pub background_pr: bool,
    /// RemoteTrigger (`AGENT_TRIGGERS_REMOTE`), and the scheduler running its triggers.
    pub remote_triggers: bool,
    /// The window's terminal panel and TerminalCapture.
    pub terminal_panel: bool,
}

impl Default for Features {
    fn default() -> Self {
        Self::OFF
    }
}

impl Features {
    /// Every switch off (the default), usable in constants: `Features { teams: true, ..Features::OFF }`.
    pub const OFF: Features = Features {
        teams: false,
        sleep: false,
        assistant: false,
        simple: false,
        coordinator: false,
        triggers: false,
        verify_plan: false,
        tungsten: false,
        config: false,
        repl: false,
        context_inspect: false,
        snip: false,
        monitor: false,
        overflow_test: false,
        web_browser: false,
        workflows: false,
        subscribe_pr: false,
        background_pr: false,
        remote_triggers: false,
        terminal_panel: false,
    };

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
            sleep: on(PROACTIVE_ENV) || on(KAIROS_ENV) || on(KAIROS_SEED_ENV),
            assistant: on(KAIROS_ENV) || on(KAIROS_SEED_ENV),
            simple: on(SIMPLE_ENV),
            coordinator: on(COORDINATOR_ENV),
            triggers: on(TRIGGERS_ENV),
            verify_plan: on(VERIFY_PLAN_ENV),
            tungsten: lookup(USER_TYPE_ENV).is_some_and(|v| v.trim() == TUNGSTEN_USER_TYPE),
            config: lookup(USER_TYPE_ENV).is_some_and(|v| v.trim() == TUNGSTEN_USER_TYPE),
            repl: lookup(USER_TYPE_ENV).is_some_and(|v| v.trim() == TUNGSTEN_USER_TYPE)
                && on(REPL_ENV),
            context_inspect: on(CONTEXT_COLLAPSE_ENV),
            snip: on(HISTORY_SNIP_ENV),
            monitor: on(MONITOR_ENV),
            overflow_test: on(OVERFLOW_TEST_ENV),
            web_browser: on(WEB_BROWSER_ENV),
            workflows: on(WORKFLOW_SCRIPTS_ENV),
            subscribe_pr: on(GITHUB_WEBHOOKS_ENV),
            background_pr: lookup(USER_TYPE_ENV).is_some_and(|v| v.trim() == TUNGSTEN_USER_TYPE),
            remote_triggers: on(REMOTE_TRIGGERS_ENV),
            terminal_panel: on(TERMINAL_PANEL_ENV),
        }
    }

    /// These switches, with those that may also be set under `env` in a settings file turned on when the first of
    /// `settings_files` that sets them does and the environment does not say otherwise.
    pub fn with_settings_files(self, settings_files: &[std::path::PathBuf]) -> Self {
        self.with_settings(|name| std::env::var(name).ok(), settings_files)
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
        self.triggers |= on(TRIGGERS_ENV);
        self.context_inspect |= on(CONTEXT_COLLAPSE_ENV);
        self.snip |= on(HISTORY_SNIP_ENV);
        self.monitor |= on(MONITOR_ENV);
        self.overflow_test |= on(OVERFLOW_TEST_ENV);
        self.web_browser |= on(WEB_BROWSER_ENV);
        self.workflows |= on(WORKFLOW_SCRIPTS_ENV);
        self.subscribe_pr |= on(GITHUB_WEBHOOKS_ENV);
        self.remote_triggers |= on(REMOTE_TRIGGERS_ENV);
        self.terminal_panel |= on(TERMINAL_PANEL_ENV);
        self.coordinator |= on(COORDINATOR_ENV);
        let kairos = on(KAIROS_SEED_ENV);
        self.sleep |= kairos;
        self.assistant |= kairos;
        let ant =
            crate::settings::env_equals(USER_TYPE_ENV, TUNGSTEN_USER_TYPE, &lookup, settings_files);
        self.tungsten |= ant;
        self.config |= ant;
        self.background_pr |= ant;
        self.repl |= ant && on(REPL_ENV);
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
                &[(KAIROS_SEED_ENV, "true")],
                Features {
                    sleep: true,
                    assistant: true,
                    ..Features::default()
                },
            ),
            (
                &[(SIMPLE_ENV, "true")],
                Features {
                    simple: true,
                    ..Features::default()
                },
            ),
            (&[(SIMPLE_ENV, "")], Features::default()),
            (
                &[(COORDINATOR_ENV, "1")],
                Features {
                    coordinator: true,
                    ..Features::default()
                },
            ),
            (
                &[(TRIGGERS_ENV, "1")],
                Features {
                    triggers: true,
                    ..Features::default()
                },
            ),
            (&[(TRIGGERS_ENV, "on")], Features::default()),
            (
                &[(WORKFLOW_SCRIPTS_ENV, "1")],
                Features {
                    workflows: true,
                    ..Features::default()
                },
            ),
            (
                &[(USER_TYPE_ENV, "ant")],
                Features {
                    tungsten: true,
                    config: true,
                    background_pr: true,
                    ..Features::default()
                },
            ),
            (&[(USER_TYPE_ENV, "1")], Features::default()),
            (
                &[(USER_TYPE_ENV, "ant"), (REPL_ENV, "1")],
                Features {
                    tungsten: true,
                    config: true,
                    background_pr: true,
                    repl: true,
                    ..Features::default()
                },
            ),
            (&[(REPL_ENV, "1")], Features::default()),
            (
                &[(CONTEXT_COLLAPSE_ENV, "1"), (HISTORY_SNIP_ENV, "true")],
                Features {
                    context_inspect: true,
                    snip: true,
                    ..Features::default()
                },
            ),
            (
                &[(MONITOR_ENV, "1"), (OVERFLOW_TEST_ENV, "true")],
                Features {
                    monitor: true,
                    overflow_test: true,
                    ..Features::default()
                },
            ),
            (&[(MONITOR_ENV, "on")], Features::default()),
            (
                &[(WEB_BROWSER_ENV, "1")],
                Features {
                    web_browser: true,
                    ..Features::default()
                },
            ),
            (&[(WEB_BROWSER_ENV, "yes")], Features::default()),
            (
                &[(GITHUB_WEBHOOKS_ENV, "1"), (REMOTE_TRIGGERS_ENV, "true")],
                Features {
                    subscribe_pr: true,
                    remote_triggers: true,
                    ..Features::default()
                },
            ),
            (&[(GITHUB_WEBHOOKS_ENV, "on")], Features::default()),
            (
                &[(TERMINAL_PANEL_ENV, "true")],
                Features {
                    terminal_panel: true,
                    ..Features::default()
                },
            ),
            (&[(TERMINAL_PANEL_ENV, "0")], Features::default()),
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
            r#"{"env": {"CONTEXT_COLLAPSE": "1", "HISTORY_SNIP": true}}"#,
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

    #[test]
    fn the_repl_mode_needs_user_type_ant_and_its_own_switch_from_either_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let both = dir.path().join("both.json");
        std::fs::write(
            &both,
            r#"{"env": {"USER_TYPE": "ant", "CLAUDE_CODE_REPL": "1"}}"#,
        )
        .expect("write");
        let ant = dir.path().join("ant.json");
        std::fs::write(&ant, r#"{"env": {"USER_TYPE": "ant"}}"#).expect("write");
        let repl = dir.path().join("repl.json");
        std::fs::write(&repl, r#"{"env": {"CLAUDE_CODE_REPL": "true"}}"#).expect("write");
        let none = |_: &str| None;
        let repl_env = |name: &str| (name == REPL_ENV).then(|| "1".to_string());
        type Env<'a> = &'a dyn Fn(&str) -> Option<String>;
        let cases: &[(Env<'_>, &[std::path::PathBuf], (bool, bool))] = &[
            (&none, &[], (false, false)),
            (&none, std::slice::from_ref(&both), (true, true)),
            (&none, std::slice::from_ref(&ant), (true, false)),
            (&none, std::slice::from_ref(&repl), (false, false)),
            (&repl_env, std::slice::from_ref(&ant), (true, true)),
        ];
        for (env, files, want) in cases {
            let got = Features::default().with_settings(env, files);
            assert_eq!((got.tungsten, got.repl), *want, "{files:?}");
            assert_eq!(got.background_pr, got.tungsten, "{files:?}");
        }
    }

    #[test]
    fn the_github_and_remote_trigger_switches_also_come_from_settings_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("settings.json");
        std::fs::write(
            &file,
            r#"{"env": {"KAIROS_GITHUB_WEBHOOKS": "1", "AGENT_TRIGGERS_REMOTE": true}}"#,
        )
        .expect("write");
        let none = |_: &str| None;
        let got = Features::default().with_settings(none, std::slice::from_ref(&file));
        assert!(got.subscribe_pr && got.remote_triggers, "{got:?}");
        let off = |name: &str| (name == REMOTE_TRIGGERS_ENV).then(|| "0".to_string());
        let got = Features::default().with_settings(off, &[file]);
        assert!(got.subscribe_pr && !got.remote_triggers, "{got:?}");
    }
}
