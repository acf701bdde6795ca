//! Putting a session together from what its builder gathered: the model handles, settings and permission context,
//! MCP servers, checkpoints, catalogs, tools and the sub-agent and team doors, then telling the person about files
//! that could not be loaded.

use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};

use tandem_protocol::PermissionMode;
use tokio_util::sync::CancellationToken;

use super::agents::{SubAgentParts, SubAgents, Teams};
use super::custom_commands::CommandCatalog;
use super::file_index::FileIndex;
use super::handles::{AgentsState, SettingsState};
use super::prompt_ids::PromptIds;
use super::turn::TurnState;
use super::{
    Catalogs, ModelHandles, Session, budget_watch, builder, changes, cleanup, completion,
    elicitation, lifecycle, session_dir, transcript,
};
use crate::checkpoint::CheckpointStore;
use crate::events::EventSink;
use crate::exec::ToolRuntime;
use crate::mcp::{ApprovalStore, Limits, McpCliConfig, McpManager};
use crate::model::{Message, Model, SwitchableModel, TurnModel};
use crate::permission::{
    ClassifierHandle, CliSettings, ModelClassifier, PermissionLoader, RuleSet,
};
use crate::plugins::PluginSet;
use crate::query::{QueryConfig, build_system_prompt, skills_prompt};
use crate::registry::{self, builtin_tools_with};
use crate::settings::RuleBehavior;
use crate::store::{
    MeteredModel, PersistingModel, RecordingStoreSink, SessionRecorder, SessionStore,
};
use crate::tool::{DeferredTools, FileStateStore, names as tool_names};
use crate::tools::agent::{AgentCatalog, AgentFileIssue};
use crate::tools::bash::{ASSISTANT_BLOCKING_BUDGET, ShellSession};
use crate::tools::config::ConfigFiles;
use crate::tools::features::Features;
use crate::tools::skill::{LiveSkills, SkillCatalog, SkillFileIssue, SkillGrants};
use crate::tools::terminal_panel::{PanelHost, PanelSlot};
use crate::tools::work_list::WorkBoard;

impl Session {
    /// Builds the session from what the builder gathered; with a recorder, the sink and the model are wrapped so
    /// that events and history are stored.
    pub(super) fn assemble(parts: builder::Parts) -> Self {
        let builder::Parts {
            id,
            cwd,
            model,
            model_config,
            mode,
            approver,
            events,
            watch_settings: watch,
            command_line,
            assume_trusted,
            plugins_dir,
            mcp: mcp_cli,
            extra_tools,
            tool_search,
            recorder,
            history,
            first_prompt_id,
            usage,
            work_list,
            lists,
            features,
            interactive,
            window_panel,
            start_source,
            idle_after,
            budget,
            runtime: background,
            remote_agents,
        } = parts;
        let wired = wire_model(model, recorder.as_ref(), events, &id, &cwd, &history);
        let (model_switch, model, events) = (wired.switch, wired.side, wired.events);
        let today = today();
        let (permission_loader, permission_context) = load_permissions(
            &cwd,
            command_line,
            assume_trusted,
            plugins_dir,
            mode,
            &model,
        );
        // Switches that a settings file's `env` block may also turn on.
        let features = features.with_settings_files(&permission_loader.paths.all());
        let hidden_by = permission_context.rules.clone();
        // Remote sub-agents: where the settings say, when this face of Tandem gave a door to them.
        let remote = remote_agents.and_then(|agents| {
            let url = permission_loader.remote_agent_host()?;
            Some(super::agents::RemoteDoor { url, agents })
        });
        let elicitor = Arc::new(elicitation::AskThePerson {
            session_id: id.clone(),
            approver: approver.clone(),
            events: events.clone(),
        });
        let mcp = start_mcp(&cwd, &permission_loader, &mcp_cli, elicitor, background);
        let checkpoints = session_checkpoints(&id);
        tidy_up(&id, recorder.as_ref());
        let file_state = Arc::new(match &checkpoints {
            Some(store) => FileStateStore::with_history(store.clone()),
            None => FileStateStore::default(),
        });
        // Language servers (when switched on) hear of every file change and answer the LSP tool.
        let language_servers = crate::lsp::LspManager::for_session(&permission_loader);
        file_state.set_language_servers(
            language_servers
                .clone()
                .map(|m| m as Arc<dyn crate::tool::LanguageServers>),
        );
        let plugins = permission_loader.plugins();
        let loaded = LoadedCatalogs::load(&cwd, &hidden_by, &plugins);
        let mut config = query_config(
            &cwd,
            &id,
            &today,
            model_config.max_tokens,
            &loaded.skills.snapshot(),
        );
        // Every stored session watches the budget, so that one set while it is open applies at once.
        let budget_watch = recorder.as_ref().map(|recorder| {
            Arc::new(budget_watch::BudgetWatch::new(
                recorder.store().clone(),
                budget,
                events.clone(),
            ))
        });
        if features.coordinator {
            config
                .system
                .push(crate::query::COORDINATOR_PROMPT.to_string());
        }
        if let Some(watch) = &budget_watch {
            config.budget =
                crate::query::BudgetDoor(Some(watch.clone() as Arc<dyn crate::query::BudgetGate>));
        }
        let permissions = Arc::new(RwLock::new(Arc::new(permission_context)));
        // Where a person follows the session, Notification hooks hear when a dialog waits for them.
        let approver = match interactive {
            true => lifecycle::NotifyingApprover::wrap(approver, &permissions, &events, &id),
            false => approver,
        };
        let shell = session_shell(&id, &events, interactive, features);
        let builtins = builtin_tools_with(shell.clone());
        let lead_mailbox = Arc::new(crate::tool::Mailbox::default());
        // Skill folders nested below the project are found as the file tools touch files under them.
        file_state.set_touch_listener(Some(Arc::new(super::skill_finder::SkillFinder::new(
            loaded.skills.clone(),
            lead_mailbox.clone(),
            events.clone(),
        ))));
        let turn_model = Arc::new(TurnModel::default());
        let attribution = Arc::new(changes::Attribution::default());
        // What every call runs against; the session's own doors are added below, a sub-agent's its own.
        let base_runtime = ToolRuntime {
            session_id: id.clone(),
            cwd: cwd.clone(),
            pool: Default::default(),
            permissions,
            approver,
            events,
            file_state,
            sub_agents: None,
            completer: Some(completion::SessionCompleter::for_model(&model)),
            deferred: Default::default(),
            team: None,
            mailbox: None,
            mode_notes: None,
            conversation: None,
        };
        let sub_agent_parts = SubAgentParts {
            runtime: base_runtime.clone(),
            model: model.clone(),
            config: config.clone(),
            tools: builtins.clone(),
            catalog: loaded.agents.clone(),
            today: today.clone(),
            mcp: mcp.tools(),
            recorder: recorder.clone(),
            work_list,
            lead_mailbox: lead_mailbox.clone(),
            attribution: attribution.clone(),
            shell: shell.clone(),
            turn_model: turn_model.clone(),
            remote: remote.clone(),
        };
        let teams = features
            .teams
            .then(|| Teams::new(Arc::new(sub_agent_parts.clone()), lead_mailbox.clone()));
        let sub_agents = Arc::new(SubAgents::new(sub_agent_parts));
        let skill_grants = Arc::new(SkillGrants::default());
        let deferred = Arc::new(DeferredTools::default());
        let work_board = Arc::new(WorkBoard::new(base_runtime.events.clone()));
        work_board.restore(lists.0, lists.1);
        let terminal_panel = Arc::new(PanelSlot::new(
            match (features.terminal_panel, window_panel) {
                (false, _) => PanelHost::Off,
                (true, true) => PanelHost::Window,
                (true, false) => PanelHost::CommandLine,
            },
            &cwd,
        ));
        let session_tools = registry::session_tools(registry::SessionToolInputs {
            builtins: &builtins,
            shell: &shell,
            agents: loaded.agents.clone(),
            remote_agent_host: remote.as_ref().map(|door| door.url.clone()),
            skills: loaded.skills.clone(),
            skill_grants: skill_grants.clone(),
            turn_model: turn_model.clone(),
            deferred: deferred.clone(),
            provider: model_config.provider,
            features,
            teams: teams.is_some(),
            work_list,
            work_board: &work_board,
            mcp: Some(&mcp),
            language_servers,
            config_files: ConfigFiles {
                settings: permission_loader.paths.clone(),
                app: crate::settings::AppSettingsFile::standard_path(),
            },
            pwsh: crate::tools::powershell::find_pwsh(std::env::var_os("PATH").as_deref()),
            node: features
                .repl
                .then(|| crate::tools::repl::find_node(std::env::var_os("PATH").as_deref()))
                .flatten(),
            workflow_roots: (cwd.clone(), dirs::home_dir()),
            terminal_panel: terminal_panel.clone(),
        });
        let runtime = ToolRuntime {
            pool: session_tools.pool(&extra_tools, |name| hidden_by.hides(name), mcp.tools()),
            sub_agents: Some(sub_agents),
            deferred,
            team: teams.as_ref().map(Teams::lead_seat),
            mailbox: Some(lead_mailbox),
            mode_notes: Some(Arc::new(crate::exec::ModeNotes::default())),
            // Read by the context tools and by forks (which start from the conversation so far).
            conversation: Some(Arc::new(crate::tool::ConversationLedger::default())),
            ..base_runtime
        };
        runtime.deferred.configure(
            &runtime.pool.all(),
            tool_search,
            config.compaction.context_window,
        );
        let settings = SettingsState::new(permission_loader, &runtime, watch);
        let session = Self {
            id,
            catalogs: Catalogs {
                skills: loaded.skills,
                commands: loaded.commands,
                file_index: FileIndex::new(&cwd),
                missing_tools: session_tools.missing,
            },
            cwd,
            models: ModelHandles {
                conversation: wired.conversation,
                switch: model_switch,
                config: Mutex::new(model_config),
            },
            runtime,
            turn: TurnState {
                config,
                history: tokio::sync::Mutex::new(history),
                prompt_ids: PromptIds::starting_at(first_prompt_id),
                usage: Mutex::new(usage),
                current: Mutex::new(None),
                rules_before: Mutex::new(Vec::new()),
                model: turn_model,
                skill_grants,
            },
            settings,
            recorder,
            budget_watch,
            checkpoints,
            work_board,
            mcp,
            agents: AgentsState { attribution, teams },
            shell,
            transcript: wired.transcript,
            lifecycle: lifecycle::Lifecycle::new(start_source, idle_after),
            closed: CancellationToken::new(),
            terminal_panel,
            _tool_guards: session_tools.guards,
            remote_runs: session_tools.remote_runs,
        };
        session.report_settings_issues();
        let settings = session.settings();
        if !settings.unreadable_settings().is_empty() {
            settings.announce_unreadable_settings();
        }
        session.report_agent_issues(&loaded.agent_issues);
        session.report_plugin_problems(&plugins);
        session.report_file_issues(&loaded.skill_issues);
        session
    }

    /// Tells the person about command and skill files that could not be loaded.
    fn report_file_issues(&self, skill_issues: &[SkillFileIssue]) {
        let commands = self
            .catalogs
            .commands
            .issues
            .iter()
            .map(|i| ("Command", &i.path, &i.message));
        let skills = skill_issues.iter().map(|i| ("Skill", &i.path, &i.message));
        for (what, path, message) in commands.chain(skills) {
            self.runtime
                .events
                .emit(tandem_protocol::SessionEvent::Notice {
                    message: format!("{what} file {} was not loaded: {message}", path.display()),
                });
        }
    }

    /// Tells the person about plugins that could not be loaded (or parts of them), and about the hooks and servers
    /// of plugins that wait for the folder's trust.
    fn report_plugin_problems(&self, plugins: &PluginSet) {
        let trusted = self.runtime.permission_context().trusted;
        for message in plugins
            .notices()
            .into_iter()
            .chain(plugins.waiting_for_trust(trusted))
        {
            self.runtime
                .events
                .emit(tandem_protocol::SessionEvent::Notice { message });
        }
    }

    /// Tells the person about agent files that could not be loaded (or had unknown keys); the others still load.
    fn report_agent_issues(&self, issues: &[AgentFileIssue]) {
        for issue in issues {
            let what = if issue.loaded {
                "Agent file warning"
            } else {
                "Agent file not loaded"
            };
            self.runtime
                .events
                .emit(tandem_protocol::SessionEvent::Notice {
                    message: format!("{what}: {}: {}", issue.path.display(), issue.message),
                });
        }
    }

    /// Tells the person about broken settings files and rules (their file, the rule and what is wrong); the rest
    /// of the settings still apply. Rules waiting for the folder's trust are not problems: [`super::SettingsHandle::folder_trust`]
    /// lists them for the trust question.
    fn report_settings_issues(&self) {
        let context = self.runtime.permission_context();
        let problems = context
            .issues
            .iter()
            .filter(|issue| issue.message != crate::permission::WAITS_FOR_TRUST);
        for issue in problems {
            let rule = issue
                .rule
                .as_deref()
                .map(|r| format!(" `{r}`"))
                .unwrap_or_default();
            self.runtime
                .events
                .emit(tandem_protocol::SessionEvent::Notice {
                    message: format!(
                        "Settings problem in {}{rule}: {}",
                        issue.file, issue.message
                    ),
                });
        }
    }
}

/// What the person and the model can invoke by name, as the folder and the home folder define it; deny rules
/// (`Skill(name)`, `Agent(type)`) remove a skill or an agent type from what the model is told about.
struct LoadedCatalogs {
    skills: Arc<LiveSkills>,
    skill_issues: Vec<SkillFileIssue>,
    commands: CommandCatalog,
    /// The agent types the model is offered.
    agents: Arc<AgentCatalog>,
    agent_issues: Vec<AgentFileIssue>,
}

impl LoadedCatalogs {
    fn load(cwd: &Path, rules: &RuleSet, plugins: &PluginSet) -> Self {
        let home = dirs::home_dir();
        let denied = |tool: &str, name: &str| rules.name(RuleBehavior::Deny, tool, name).is_some();
        let mut skills = SkillCatalog::load(cwd, home.as_deref());
        let mut agents = AgentCatalog::load(cwd, home.as_deref());
        let mut commands = CommandCatalog::load(cwd, home.as_deref());
        // The parts of the plugins that are on, each named `<plugin>:<name>`.
        for plugin in plugins.active() {
            for dir in &plugin.parts.skill_dirs {
                skills.load_plugin_folder(dir, &plugin.name);
            }
            for path in &plugin.parts.command_paths {
                commands.load_plugin_path(path, &plugin.name, plugin.needs_trust());
            }
            for path in &plugin.parts.agent_paths {
                agents.load_plugin_path(path, &plugin.name);
            }
        }
        let deny_rules = rules.clone();
        Self {
            skills: Arc::new(LiveSkills::new(
                skills.without(|name| denied(tool_names::SKILL, name)),
                cwd,
                move |name| {
                    deny_rules
                        .name(RuleBehavior::Deny, tool_names::SKILL, name)
                        .is_some()
                },
            )),
            skill_issues: skills.issues,
            commands,
            agents: Arc::new(agents.without(|kind| denied(tool_names::AGENT, kind))),
            agent_issues: agents.issues,
        }
    }
}

/// How the session's turns run: the system prompt (with the skills the model may invoke), the answer's size and
/// where large tool results are saved.
fn query_config(
    cwd: &Path,
    id: &str,
    today: &str,
    max_tokens: u32,
    skills: &SkillCatalog,
) -> QueryConfig {
    let mut system = build_system_prompt(cwd, dirs::home_dir().as_deref(), today);
    system.extend(skills_prompt(&skills.summaries()));
    QueryConfig {
        max_tokens,
        system,
        results_dir: session_dir(id).join("tool-results"),
        ..QueryConfig::default()
    }
}

/// The session's shell: its folder in the session's, events to the window, commands past the timeout moved to the
/// background where a person follows the session, and the assistant mode's blocking budget.
fn session_shell(
    id: &str,
    events: &Arc<dyn EventSink>,
    interactive: bool,
    features: Features,
) -> Arc<ShellSession> {
    Arc::new(
        ShellSession::new(session_dir(id).join("shell"))
            .with_events(events.clone())
            .background_at_timeout(interactive)
            .with_blocking_budget(features.assistant.then_some(ASSISTANT_BLOCKING_BUDGET)),
    )
}

/// Removes what earlier runs left: half-written files, and (with the app's own database only: a test's or another
/// file's sessions say nothing about this folder) the folders of sessions that no longer exist.
fn tidy_up(id: &str, recorder: Option<&Arc<SessionRecorder>>) {
    crate::fsutil::pending::clean_stale_once();
    if let (Some(recorder), Some(root)) = (recorder, session_dir(id).parent())
        && Some(recorder.store().path()) == SessionStore::default_path().as_deref()
    {
        cleanup::sweep_once(root.to_path_buf(), Some(recorder.store().clone()));
    }
}

/// The session's model handles: the switch every request goes through, the model for side requests (the
/// classifier, completions), and the conversation's model, which stores the history as it grows (with a recorder)
/// and writes the transcript file hooks read (the whole history of a reopened session); with a recorder, the sink
/// records every event.
struct WiredModel {
    switch: Arc<SwitchableModel>,
    side: Arc<dyn Model>,
    conversation: Arc<dyn Model>,
    events: Arc<dyn EventSink>,
    transcript: Arc<transcript::TranscriptFile>,
}

fn wire_model(
    model: Arc<dyn Model>,
    recorder: Option<&Arc<SessionRecorder>>,
    events: Arc<dyn EventSink>,
    id: &str,
    cwd: &Path,
    history: &[Message],
) -> WiredModel {
    let switch = Arc::new(SwitchableModel::new(model));
    // Every request of the session (its own, its sub-agents', its side requests) is metered.
    let side: Arc<dyn Model> = match recorder {
        Some(recorder) => Arc::new(MeteredModel::new(switch.clone(), recorder.clone())),
        None => switch.clone(),
    };
    let (conversation, events): (Arc<dyn Model>, Arc<dyn EventSink>) = match recorder {
        Some(recorder) => (
            Arc::new(PersistingModel::new(side.clone(), recorder.clone())),
            Arc::new(RecordingStoreSink::new(recorder.clone(), events)),
        ),
        None => (side.clone(), events),
    };
    let transcript = Arc::new(transcript::TranscriptFile::open(
        crate::hooks::transcript_path(id),
        transcript::TranscriptOwner {
            session_id: id.to_string(),
            cwd: cwd.to_path_buf(),
            agent_id: None,
        },
        history,
    ));
    let conversation: Arc<dyn Model> = Arc::new(transcript::TranscriptModel::new(
        conversation,
        transcript.clone(),
    ));
    WiredModel {
        switch,
        side,
        conversation,
        events,
        transcript,
    }
}

/// Settings from every source and the permission context they make, with auto mode's classifier asking `model`;
/// the UI's default mode lets `defaultMode` decide.
fn load_permissions(
    cwd: &Path,
    command_line: CliSettings,
    assume_trusted: bool,
    plugins_dir: Option<std::path::PathBuf>,
    mode: PermissionMode,
    model: &Arc<dyn Model>,
) -> (PermissionLoader, crate::permission::PermissionContext) {
    let mut loader = PermissionLoader::standard(cwd, command_line);
    if assume_trusted {
        loader.trust = None;
    }
    loader.plugins_dir = plugins_dir;
    let chosen = (mode != PermissionMode::Default).then_some(mode);
    let context = loader
        .load(chosen, &[])
        .with_classifier(ClassifierHandle(Arc::new(ModelClassifier {
            model: model.clone(),
            max_tokens: 256,
        })));
    (loader, context)
}

/// Reads the MCP configuration of every source and starts the approved servers in the background; their forms
/// (elicitation) go to `elicitor`.
fn start_mcp(
    cwd: &Path,
    loader: &PermissionLoader,
    cli: &McpCliConfig,
    elicitor: Arc<elicitation::AskThePerson>,
    runtime: Option<tokio::runtime::Handle>,
) -> McpManager {
    let settings = loader.read_settings();
    let store = ApprovalStore::standard();
    let plan = crate::mcp::plan(cwd, &settings.mcp, cli, Some(&store), &|name| {
        std::env::var(name).ok()
    });
    McpManager::start_in(
        runtime.or_else(|| tokio::runtime::Handle::try_current().ok()),
        cwd,
        plan,
        Limits::from_env(),
        elicitor.events.clone(),
        crate::mcp::KnownTools::standard(),
        crate::mcp::ClientSetup {
            elicitor: Some(elicitor),
            ..crate::mcp::ClientSetup::standard()
        },
    )
}

/// The checkpoint store of a session, in `<session folder>/checkpoints` (created on the first file change).
fn session_checkpoints(session_id: &str) -> Option<Arc<CheckpointStore>> {
    match CheckpointStore::open(session_dir(session_id).join("checkpoints")) {
        Ok(store) => Some(Arc::new(store)),
        Err(e) => {
            tracing::warn!("checkpoints: {e}");
            None
        }
    }
}

/// Today's date as `YYYY-MM-DD` in local time.
fn today() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}
