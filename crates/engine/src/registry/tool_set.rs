//! Which tools a conversation offers, decided here and nowhere else: the session's own agent (the built-ins, the
//! Agent, Skill and ToolSearch tools, WebSearch where the provider has it, the tools that talk to the person or move
//! the session, the switchable ones, the checklist, MCP resources and sign-in), and a sub-agent or team member (the
//! built-ins its type allows, with a Bash of its own, its own checklist, the member tools, the MCP tools its type
//! allows). The tools a session cannot have are named with why, for the tool list; the command line's permission
//! checks ask the same set.

use std::path::Path;
use std::sync::Arc;

use super::ToolPool;
use super::listing::web_search_for;
use crate::events::NullSink;
use crate::lsp::{self, LspManager};
use crate::mcp::{McpManager, McpTools};
use crate::model::{Provider, TurnModel};
use crate::tool::{DeferredTools, DynTool, erase, names};
use crate::tools::agent::{AgentCatalog, AgentDefinition, AgentTool, TEAM_MEMBER_TOOLS};
use crate::tools::ask_user::AskUserQuestionTool;
use crate::tools::bash::{BashTool, ShellSession};
use crate::tools::brief::BriefTool;
use crate::tools::config::{ConfigFiles, ConfigTool};
use crate::tools::context::{CtxInspectTool, SnipTool};
use crate::tools::features::{self, Features};
use crate::tools::github::{GithubSource, SubscribePrTool, SuggestBackgroundPrTool};
use crate::tools::lsp::LspTool;
use crate::tools::monitor::MonitorTool;
use crate::tools::overflow_test::OverflowTestTool;
use crate::tools::plan_mode::{ApprovedPlan, EnterPlanModeTool, ExitPlanModeTool};
use crate::tools::powershell::PowerShellTool;
use crate::tools::push_notification::PushNotificationTool;
use crate::tools::remote_trigger::{RemoteRuns, RemoteTriggerTool};
use crate::tools::repl::{ReplTool, WRAPPED_TOOLS};
use crate::tools::send_user_file::SendUserFileTool;
use crate::tools::skill::{LiveSkills, SkillCatalog, SkillGrants, SkillTool};
use crate::tools::sleep::SleepTool;
use crate::tools::team::{lead_tools, member_tools};
use crate::tools::terminal_panel::{PanelHost, PanelSlot, TerminalCaptureTool};
use crate::tools::tool_search::ToolSearchTool;
use crate::tools::verify_plan::VerifyPlanExecutionTool;
use crate::tools::web_browser::{SessionGuard, WebBrowserTool};
use crate::tools::work_list::{self, WorkBoard, WorkListFamily};
use crate::tools::workflow::WorkflowTool;
use crate::tools::worktree::{EnterWorktreeTool, ExitWorktreeTool};

/// What the session's own agent's tools are made from.
pub struct SessionToolInputs<'a> {
    /// The built-in tools, sharing the session's shell (sub-agents in the session's folder get the same ones).
    pub builtins: &'a [Arc<dyn DynTool>],
    /// The agent types the model is offered.
    pub agents: Arc<AgentCatalog>,
    /// The settings' `remoteAgentHost`, when the session can start sub-agents there (the Agent tool then offers
    /// `isolation: "remote"`).
    pub remote_agent_host: Option<String>,
    pub skills: Arc<LiveSkills>,
    pub skill_grants: Arc<SkillGrants>,
    pub turn_model: Arc<TurnModel>,
    pub deferred: Arc<DeferredTools>,
    pub provider: Provider,
    /// The session's shell (Monitor watches its background shells).
    pub shell: &'a Arc<ShellSession>,
    pub features: Features,
    /// Whether the session has teams (the switch is on).
    pub teams: bool,
    pub work_list: WorkListFamily,
    pub work_board: &'a Arc<WorkBoard>,
    /// The session's MCP servers (`None`: the set answers permission checks without a session).
    pub mcp: Option<&'a McpManager>,
    /// The session's language servers (`None`: switched off; the `LSP` tool is then not offered).
    pub language_servers: Option<Arc<LspManager>>,
    /// The settings files the Config tool reads and changes.
    pub config_files: ConfigFiles,
    /// The `pwsh` the PowerShell tool runs (`None`: not installed; the tool is not offered).
    pub pwsh: Option<std::path::PathBuf>,
    /// The session's terminal panel, which TerminalCapture reads (offered when the `terminal_panel` switch is on).
    pub terminal_panel: Arc<PanelSlot>,
    /// The `node` the REPL tool runs (`None`: not installed; in the REPL mode REPL is then not offered and the
    /// primitives stay).
    pub node: Option<std::path::PathBuf>,
    /// The project folder and the person's home, where the Workflow tool finds workflow scripts.
    pub workflow_roots: (std::path::PathBuf, Option<std::path::PathBuf>),
}

/// The session's own agent's tools, and those it cannot have with why.
pub struct SessionTools {
    pub tools: Vec<Arc<dyn DynTool>>,
    pub missing: Vec<(String, String)>,
    /// What the session keeps until it is dropped, ending what its tools started however long the tools live
    /// (the WebBrowser tool's browser).
    pub guards: Vec<SessionGuard>,
    /// Tools not offered but kept for the calls other tools make (the primitives the REPL mode wraps).
    pub inner: Vec<Arc<dyn DynTool>>,
    /// The remote runs RemoteTrigger starts (when it is offered), shared with the session's scheduler.
    pub remote_runs: Option<Arc<RemoteRuns>>,
}

impl SessionTools {
    /// The pool offered to the model: these tools and `extra` (tools a caller adds), without those `hidden` names
    /// (deny rules), then the MCP servers' live tools.
    pub fn pool(
        &self,
        extra: &[Arc<dyn DynTool>],
        hidden: impl Fn(&str) -> bool,
        live_mcp: McpTools,
    ) -> ToolPool {
        ToolPool::assemble(&self.tools, extra, hidden)
            .with_live_mcp(live_mcp)
            .with_inner(self.inner.clone())
    }
}

/// The tools of the session's own agent (in the SIMPLE mode, Bash, Read and Edit only; the MCP servers' tools are
/// added to the pool all the same).
pub fn session_tools(inputs: SessionToolInputs<'_>) -> SessionTools {
    let mut tools = inputs.builtins.to_vec();
    let mut missing = Vec::new();
    tools.push(erase(
        AgentTool::new(inputs.agents).with_remote_host(inputs.remote_agent_host),
    ));
    tools.push(erase(SkillTool::new(
        inputs.skills,
        inputs.skill_grants,
        inputs.turn_model,
    )));
    tools.push(erase(ToolSearchTool::new(inputs.deferred)));
    match web_search_for(inputs.provider) {
        Ok(search) => tools.push(search),
        Err(why) => missing.push((names::WEB_SEARCH.to_string(), why)),
    }
    // The main conversation's own tools (sub-agents do not get them: they talk to the person or change the
    // session's checklist).
    tools.push(erase(AskUserQuestionTool));
    tools.push(erase(EnterPlanModeTool));
    let approved = Arc::new(ApprovedPlan::default());
    tools.push(erase(ExitPlanModeTool {
        approved: approved.clone(),
    }));
    if inputs.features.verify_plan {
        tools.push(erase(VerifyPlanExecutionTool::new(approved)));
    } else {
        missing.push((
            names::VERIFY_PLAN_EXECUTION.to_string(),
            format!(
                "switched off: set {}=true to offer it",
                features::VERIFY_PLAN_ENV
            ),
        ));
    }
    tools.push(erase(EnterWorktreeTool));
    tools.push(erase(ExitWorktreeTool));
    tools.push(erase(BriefTool));
    if inputs.features.sleep {
        tools.push(erase(SleepTool));
    } else {
        missing.push((
            names::SLEEP.to_string(),
            format!(
                "switched off: set {}=1 to offer it",
                features::PROACTIVE_ENV
            ),
        ));
    }
    context_tools(inputs.features, &mut tools, &mut missing);
    for (make, name) in [
        (
            (|| erase(SendUserFileTool)) as fn() -> Arc<dyn DynTool>,
            names::SEND_USER_FILE,
        ),
        (|| erase(PushNotificationTool), names::PUSH_NOTIFICATION),
    ] {
        switchable(
            &mut tools,
            &mut missing,
            inputs.features.assistant,
            make,
            name,
            features::KAIROS_SEED_ENV,
        );
    }
    switchable(
        &mut tools,
        &mut missing,
        inputs.features.monitor,
        || erase(MonitorTool::new(inputs.shell.clone())),
        names::MONITOR,
        features::MONITOR_ENV,
    );
    switchable(
        &mut tools,
        &mut missing,
        inputs.features.overflow_test,
        || erase(OverflowTestTool),
        names::OVERFLOW_TEST,
        features::OVERFLOW_TEST_ENV,
    );
    let mut guards = Vec::new();
    switchable(
        &mut tools,
        &mut missing,
        inputs.features.web_browser,
        || {
            let browser = WebBrowserTool::default();
            guards.push(browser.session_guard());
            erase(browser)
        },
        names::WEB_BROWSER,
        features::WEB_BROWSER_ENV,
    );
    switchable(
        &mut tools,
        &mut missing,
        inputs.features.workflows,
        || {
            let (project, home) = inputs.workflow_roots.clone();
            erase(WorkflowTool::new(project, home))
        },
        names::WORKFLOW,
        features::WORKFLOW_SCRIPTS_ENV,
    );
    switchable(
        &mut tools,
        &mut missing,
        inputs.features.terminal_panel,
        || erase(TerminalCaptureTool::new(inputs.terminal_panel.clone())),
        names::TERMINAL_CAPTURE,
        features::TERMINAL_PANEL_ENV,
    );
    let remote_runs = github_and_remote_tools(
        inputs.features,
        &inputs.config_files,
        &mut tools,
        &mut missing,
    );
    if inputs.teams {
        tools.extend(lead_tools());
    } else {
        for tool in lead_tools() {
            missing.push((
                tool.name().to_string(),
                format!("switched off: set {}=1 to offer it", features::TEAMS_ENV),
            ));
        }
    }
    if inputs.features.triggers {
        tools.extend(crate::tools::cron::tools());
    } else {
        for tool in crate::tools::cron::tools() {
            missing.push((
                tool.name().to_string(),
                format!("switched off: set {}=1 to offer it", features::TRIGGERS_ENV),
            ));
        }
    }
    let ant_only = || {
        format!(
            "switched off: set {}={} to offer it",
            features::USER_TYPE_ENV,
            features::TUNGSTEN_USER_TYPE
        )
    };
    if inputs.features.tungsten {
        tools.push(crate::tools::tungsten::tool());
    } else {
        missing.push((names::TUNGSTEN.to_string(), ant_only()));
    }
    if inputs.features.config {
        tools.push(erase(ConfigTool::new(inputs.config_files.clone())));
    } else {
        missing.push((names::CONFIG.to_string(), ant_only()));
    }
    match inputs.language_servers {
        Some(manager) => tools.push(erase(LspTool::new(manager))),
        None => missing.push((
            names::LSP.to_string(),
            format!("switched off: set {}=1 to offer it", lsp::ENABLE_ENV),
        )),
    }
    match inputs.pwsh {
        Some(program) => tools.push(erase(PowerShellTool::new(program))),
        None => missing.push((
            names::POWERSHELL.to_string(),
            "pwsh is not installed (PowerShell is offered where `pwsh` is on the PATH)".to_string(),
        )),
    }
    tools.extend(work_list::tools(inputs.work_list, inputs.work_board));
    if let Some(mcp) = inputs.mcp {
        let servers = mcp.statuses();
        if !servers.is_empty() {
            tools.extend(crate::mcp::resource_tools(mcp));
        }
        if servers
            .iter()
            .any(|s| s.transport == "http" || s.transport == "sse")
        {
            tools.push(crate::mcp::auth_tool(mcp));
        }
    }
    let inner = repl_mode(inputs.features, inputs.node, &mut tools, &mut missing);
    if inputs.features.simple {
        // In the REPL mode too, the SIMPLE mode keeps REPL: the primitives are reached through it.
        let (kept, dropped): (Vec<_>, Vec<_>) = tools
            .into_iter()
            .partition(|tool| SIMPLE_TOOLS.contains(&tool.name()) || tool.name() == names::REPL);
        tools = kept;
        missing.extend(dropped.iter().map(|tool| {
            (
                tool.name().to_string(),
                format!(
                    "the SIMPLE mode offers Bash, Read and Edit only ({} is set)",
                    features::SIMPLE_ENV
                ),
            )
        }));
    }
    if inputs.features.coordinator {
        let (kept, dropped): (Vec<_>, Vec<_>) = tools
            .into_iter()
            .partition(|tool| COORDINATOR_TOOLS.contains(&tool.name()));
        tools = kept;
        missing.extend(dropped.iter().map(|tool| {
            (
                tool.name().to_string(),
                format!(
                    "the coordinator mode leaves the work to sub-agents ({} is set)",
                    features::COORDINATOR_ENV
                ),
            )
        }));
    }
    SessionTools {
        tools,
        missing,
        guards,
        inner,
        remote_runs,
    }
}

/// SubscribePR, SuggestBackgroundPR and RemoteTrigger, each when its switch is on (GitHub's address and token, and
/// `TANDEM_SSH_COMMAND`, read from the environment or the session's settings files at each call); the remote runs
/// RemoteTrigger starts, when it is offered.
fn github_and_remote_tools(
    features: Features,
    config_files: &ConfigFiles,
    tools: &mut Vec<Arc<dyn DynTool>>,
    missing: &mut Vec<(String, String)>,
) -> Option<Arc<RemoteRuns>> {
    let files = config_files.settings.all();
    switchable(
        tools,
        missing,
        features.subscribe_pr,
        || erase(SubscribePrTool::new(GithubSource::Settings(files.clone()))),
        names::SUBSCRIBE_PR,
        features::GITHUB_WEBHOOKS_ENV,
    );
    if features.background_pr {
        tools.push(erase(SuggestBackgroundPrTool::new(GithubSource::Settings(
            files.clone(),
        ))));
    } else {
        missing.push((
            names::SUGGEST_BACKGROUND_PR.to_string(),
            format!(
                "switched off: set {}={} to offer it",
                features::USER_TYPE_ENV,
                features::TUNGSTEN_USER_TYPE
            ),
        ));
    }
    let mut runs = None;
    switchable(
        tools,
        missing,
        features.remote_triggers,
        || {
            let shared = Arc::new(RemoteRuns::new(files.clone()));
            runs = Some(shared.clone());
            erase(RemoteTriggerTool::new(shared))
        },
        names::REMOTE_TRIGGER,
        features::REMOTE_TRIGGERS_ENV,
    );
    runs
}

/// The REPL mode: REPL is offered (wrapping the primitives among `tools`) and the primitives it wraps are named
/// among the missing instead of offered; they are returned, kept for REPL's calls. Without `node` REPL is missing
/// and the primitives stay; with the mode off REPL is missing with the switches that turn it on.
fn repl_mode(
    features: Features,
    node: Option<std::path::PathBuf>,
    tools: &mut Vec<Arc<dyn DynTool>>,
    missing: &mut Vec<(String, String)>,
) -> Vec<Arc<dyn DynTool>> {
    if !features.repl {
        missing.push((
            names::REPL.to_string(),
            format!(
                "switched off: set {}={} and {}=1 to offer it",
                features::USER_TYPE_ENV,
                features::TUNGSTEN_USER_TYPE,
                features::REPL_ENV
            ),
        ));
        return Vec::new();
    }
    let Some(node) = node else {
        missing.push((
            names::REPL.to_string(),
            "node is not installed (REPL is offered where `node` is on the PATH)".to_string(),
        ));
        return Vec::new();
    };
    let repl = ReplTool::new(node, tools);
    let (wrapped, kept): (Vec<_>, Vec<_>) = std::mem::take(tools)
        .into_iter()
        .partition(|tool| WRAPPED_TOOLS.contains(&tool.name()));
    *tools = kept;
    tools.push(erase(repl));
    missing.extend(wrapped.iter().map(|tool| {
        (
            tool.name().to_string(),
            format!(
                "the REPL mode reaches it through REPL's functions ({} is set)",
                features::REPL_ENV
            ),
        )
    }));
    wrapped
}

/// The built-in tools the coordinator mode keeps for the session's own agent: starting sub-agents, reading and
/// stopping those in the background, and messaging teammates (when teams are on).
const COORDINATOR_TOOLS: &[&str] = &[
    names::AGENT,
    names::TASK_OUTPUT,
    names::TASK_STOP,
    names::SEND_MESSAGE,
];

/// The context tools (CtxInspect, Snip), each when its switch is on; the person's tool list names one switched off
/// with its switch (the model is not told of it).
fn context_tools(
    features: Features,
    tools: &mut Vec<Arc<dyn DynTool>>,
    missing: &mut Vec<(String, String)>,
) {
    switchable(
        tools,
        missing,
        features.context_inspect,
        || erase(CtxInspectTool),
        names::CTX_INSPECT,
        features::CONTEXT_COLLAPSE_ENV,
    );
    switchable(
        tools,
        missing,
        features.snip,
        || erase(SnipTool),
        names::SNIP,
        features::HISTORY_SNIP_ENV,
    );
}

/// Adds the tool `make` makes when its switch is `on`; else names it among the missing with the variable that
/// switches it on (for the person's tool list: the model is not told of it).
fn switchable(
    tools: &mut Vec<Arc<dyn DynTool>>,
    missing: &mut Vec<(String, String)>,
    on: bool,
    make: impl FnOnce() -> Arc<dyn DynTool>,
    name: &str,
    env: &str,
) {
    if on {
        tools.push(make());
    } else {
        missing.push((
            name.to_string(),
            format!("switched off: set {env}=1 to offer it"),
        ));
    }
}

/// The built-in tools the SIMPLE mode keeps.
const SIMPLE_TOOLS: &[&str] = &[names::BASH, names::READ, names::EDIT];

/// The tools a session on the project folder `project` offers, for answering permission checks without a
/// session (`tandem permissions check`): the set [`session_tools`] makes, with the folder's skills and agent types,
/// every switchable tool and no MCP server (a call to an MCP tool is checked by its name alone).
pub fn checking_tools(project: &Path, home: Option<&Path>) -> Vec<Arc<dyn DynTool>> {
    let board = Arc::new(WorkBoard::new(Arc::new(NullSink)));
    let shell = Arc::new(ShellSession::temporary());
    let builtins = super::builtin_tools_with(shell.clone());
    let mut tools = session_tools(SessionToolInputs {
        builtins: &builtins,
        agents: Arc::new(AgentCatalog::load(project, home)),
        remote_agent_host: None,
        skills: Arc::new(LiveSkills::fixed(SkillCatalog::load(project, home))),
        skill_grants: Default::default(),
        turn_model: Default::default(),
        deferred: Default::default(),
        provider: Provider::Anthropic,
        shell: &shell,
        features: Features {
            sleep: true,
            triggers: true,
            tungsten: true,
            config: true,
            context_inspect: true,
            snip: true,
            monitor: true,
            overflow_test: true,
            assistant: true,
            web_browser: true,
            workflows: true,
            subscribe_pr: true,
            background_pr: true,
            remote_triggers: true,
            terminal_panel: true,
            repl: false,
            ..Features::from_env()
        },
        teams: true,
        work_list: WorkListFamily::from_env(),
        work_board: &board,
        mcp: None,
        // Checked as the LSP tool's calls are (a read of `filePath`) without starting a server.
        language_servers: None,
        config_files: ConfigFiles::standard(project, home),
        // Checked as the bare tool is, whether or not `pwsh` is installed here.
        pwsh: Some("pwsh".into()),
        // The REPL mode is left off so that the primitives are checked too; REPL is added as the bare tool.
        node: None,
        workflow_roots: (project.to_path_buf(), home.map(Path::to_path_buf)),
        terminal_panel: Arc::new(PanelSlot::new(PanelHost::CommandLine, project)),
    })
    .tools;
    if !tools.iter().any(|t| t.name() == names::REPL) {
        tools.push(erase(ReplTool::new("node".into(), &builtins)));
    }
    tools
}

/// What a sub-agent's tools are made from.
pub struct SubAgentToolInputs<'a> {
    /// The built-in tools it starts from (the session's, or a set with a shell of its own in its own folder).
    pub builtins: Vec<Arc<dyn DynTool>>,
    /// The shell its Bash runs in, and its id (the background shells it starts are its own).
    pub shell: Arc<ShellSession>,
    pub agent_id: &'a str,
    pub agent: &'a AgentDefinition,
    /// A team member gets the member tools whatever its type allows.
    pub member: bool,
    pub work_list: WorkListFamily,
    /// Its own checklist.
    pub work_board: &'a Arc<WorkBoard>,
    /// The session's MCP tools (those ready now are offered).
    pub mcp: &'a McpTools,
    /// It runs in the background (not a team member): only [`BACKGROUND_AGENT_TOOLS`] of the built-ins.
    pub background: bool,
}

/// The built-in tools a background sub-agent may have (of those its type allows): the file, search, shell and web
/// tools and the checklist — work that needs nobody to answer. A tool not listed here (a new one included) is left
/// out until it is known to be fit for a run nobody watches; MCP tools are offered as their type allows.
pub const BACKGROUND_AGENT_TOOLS: &[&str] = &[
    names::READ,
    names::WRITE,
    names::EDIT,
    names::MULTI_EDIT,
    names::NOTEBOOK_EDIT,
    names::GLOB,
    names::GREP,
    names::BASH,
    names::WEB_FETCH,
    names::WEB_SEARCH,
    names::TODO_WRITE,
    names::TASK_CREATE,
    names::TASK_GET,
    names::TASK_UPDATE,
    names::TASK_LIST,
    names::SKILL,
    names::TOOL_SEARCH,
    names::STRUCTURED_OUTPUT,
    names::LSP,
];

/// The pool of a sub-agent or team member: what its type allows of the built-ins (Bash its own), its checklist and
/// (a member) the member tools, then the MCP tools ready now that its type allows; without those `hidden` names.
pub fn sub_agent_pool(inputs: SubAgentToolInputs<'_>, hidden: impl Fn(&str) -> bool) -> ToolPool {
    let SubAgentToolInputs {
        builtins,
        shell,
        agent_id,
        agent,
        member,
        work_list,
        work_board,
        mcp,
        background,
    } = inputs;
    let mut tools: Vec<Arc<dyn DynTool>> = builtins
        .into_iter()
        .filter(|t| t.name() != names::BASH)
        .collect();
    tools.push(erase(BashTool::for_agent(shell, agent_id)));
    tools.extend(work_list::tools(work_list, work_board));
    if member {
        tools.extend(member_tools());
    }
    let allowed: Vec<_> = tools
        .into_iter()
        .filter(|t| agent.allows(t.name()) || (member && TEAM_MEMBER_TOOLS.contains(&t.name())))
        .filter(|t| !background || member || BACKGROUND_AGENT_TOOLS.contains(&t.name()))
        .collect();
    let remote: Vec<_> = mcp
        .snapshot()
        .iter()
        .filter(|t| agent.allows(t.name()))
        .cloned()
        .collect();
    ToolPool::assemble(&allowed, &remote, hidden)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::synthetic_tools;
    use crate::tools::agent::definition::built_in_agents;

    fn pool_names(background: bool, member: bool) -> Vec<String> {
        let mut builtins = crate::registry::builtin_tools();
        // A built-in tool nobody has judged fit for a background run yet.
        builtins.extend(synthetic_tools(1));
        let agent = built_in_agents()
            .into_iter()
            .find(|a| a.name == crate::tools::agent::GENERAL_PURPOSE)
            .expect("general-purpose");
        let board = Arc::new(WorkBoard::new(Arc::new(NullSink)));
        let pool = sub_agent_pool(
            SubAgentToolInputs {
                builtins,
                shell: Arc::new(ShellSession::temporary()),
                agent_id: "a",
                agent: &agent,
                member,
                work_list: WorkListFamily::Todos,
                work_board: &board,
                mcp: &McpTools::default(),
                background,
            },
            |_| false,
        );
        pool.tools().iter().map(|t| t.name().to_string()).collect()
    }

    #[test]
    fn a_background_agent_gets_only_the_tools_listed_fit_for_it() {
        let front = pool_names(false, false);
        let behind = pool_names(true, false);
        let probe = synthetic_tools(1)[0].name().to_string();
        assert!(front.contains(&probe), "{front:?}");
        assert!(!behind.contains(&probe), "{behind:?}");
        assert!(
            behind
                .iter()
                .all(|t| BACKGROUND_AGENT_TOOLS.contains(&t.as_str()))
        );
        let kept: Vec<&String> = front
            .iter()
            .filter(|t| BACKGROUND_AGENT_TOOLS.contains(&t.as_str()))
            .collect();
        assert_eq!(behind.iter().collect::<Vec<_>>(), kept);
        // A team member works in the background with its type's whole pool and the member tools.
        assert!(pool_names(true, true).contains(&probe));
    }

    #[test]
    fn the_repl_mode_needs_node_and_otherwise_leaves_the_primitives() {
        let on = Features {
            repl: true,
            ..Features::OFF
        };
        // (features, node, REPL offered, primitives offered, what the list says of REPL when missing)
        type Case<'a> = (Features, Option<&'a str>, bool, bool, Option<&'a str>);
        let cases: &[Case<'_>] = &[
            (on, Some("/usr/bin/node"), true, false, None),
            (on, None, false, true, Some("node is not installed")),
            (
                Features::OFF,
                Some("/usr/bin/node"),
                false,
                true,
                Some(features::REPL_ENV),
            ),
        ];
        for (features, node, repl, primitives, why) in cases {
            let mut tools = crate::registry::builtin_tools();
            let mut missing = Vec::new();
            let inner = repl_mode(*features, node.map(Into::into), &mut tools, &mut missing);
            let has = |name: &str| tools.iter().any(|t| t.name() == name);
            assert_eq!(has(names::REPL), *repl, "{node:?}");
            for name in WRAPPED_TOOLS {
                assert_eq!(has(name), *primitives, "{name} {node:?}");
                assert_eq!(inner.iter().any(|t| t.name() == *name), !*primitives);
            }
            let said = missing
                .iter()
                .find(|(name, _)| name == names::REPL)
                .map(|(_, why)| why.as_str());
            match why {
                Some(want) => assert!(said.is_some_and(|s| s.contains(want)), "{said:?}"),
                None => assert!(said.is_none(), "{said:?}"),
            }
        }
    }
}
