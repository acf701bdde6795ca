//! A session: one conversation on one project folder, with its model, tools, permission context, approval door and
//! event sink. The desktop app, the command line and tests all drive the engine through this type.

mod agents;
mod builder;
mod builtin_run;
mod changes;
mod cleanup;
mod closing;
pub mod completion;
pub mod custom_commands;
mod elicitation;
mod file_index;
mod file_mentions;
pub mod fork;
mod lead_mail;
pub mod lifecycle;
mod mcp_toggles;
mod panels;
mod prompt_ids;
mod prompt_input;
mod prompt_menu;
pub mod rewind;
mod shells;
pub mod slash;
pub mod transcript;
mod unreadable_settings;

pub use builder::SessionBuilder;
pub use lead_mail::wake_for_mail;
pub use lifecycle::{EndReason, IDLE_NOTIFICATION_AFTER, StartSource};
pub use panels::HookTestError;
pub use shells::SHELL_OUTPUT_TAIL_BYTES;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use tandem_protocol::{PermissionMode, SessionInfo, Usage};
use tokio_util::sync::CancellationToken;

use crate::approver::Approver;
use crate::checkpoint::CheckpointStore;
use crate::events::EventSink;
use crate::exec::ToolRuntime;
use crate::exec::hook_gate as hooks;
use crate::hooks::EventInput;
use crate::hooks::payload::{PromptSubmit, StopInput};
use crate::mcp::{ApprovalStore, Limits, McpCliConfig, McpManager};
use crate::model::{
    Message, Model, ModelConfig, ModelError, SwitchableModel, TurnModel, TurnModelClient,
};
use crate::permission::{
    ClassifierHandle, CliSettings, ModelClassifier, PermissionLoader, SettingsWatcher,
};
use crate::query::{
    QueryConfig, QueryError, TurnOutcome, UserPrompt, build_system_prompt, run_turn, skills_prompt,
};
use crate::registry::{self, builtin_tools_with};
use crate::settings::{HookSet, RuleBehavior, RuleSource};
use crate::store::{
    PersistingModel, RecordingStoreSink, SessionRecorder, SessionStore, StoreError,
};
use crate::tool::{DeferredTools, FileStateStore, ModelCompleter, names as tool_names};
use crate::tools::agent::{AgentCatalog, AgentFileIssue};
use crate::tools::bash::{ASSISTANT_BLOCKING_BUDGET, ShellSession};
use crate::tools::skill::{SkillCatalog, SkillGrants, invocation_text, slash_command};
use crate::tools::work_list::WorkBoard;
use agents::{SubAgentParts, SubAgents, Teams};
use custom_commands::CommandCatalog;
use file_index::FileIndex;

/// Why a session could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("the folder {0} does not exist")]
    MissingFolder(PathBuf),
    #[error("{0} is not a folder")]
    NotAFolder(PathBuf),
    #[error("the folder {path} cannot be opened: {source}")]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no stored session with id {0}")]
    UnknownSession(String),
}

/// How to open a session.
pub struct SessionOptions {
    /// The session id (a new UUID when `None`).
    pub id: Option<String>,
    pub cwd: PathBuf,
    pub model: ModelConfig,
    pub mode: PermissionMode,
    pub approver: Arc<dyn Approver>,
    pub events: Arc<dyn EventSink>,
    /// Where the session is recorded (its row, history, events, tool calls, usage); `None`: kept in memory only.
    pub store: Option<Arc<SessionStore>>,
    /// Re-read the settings files when they change on disk (long-lived sessions). A one-shot run leaves it off: the
    /// watcher costs the exiting process milliseconds per watched folder.
    pub watch_settings: bool,
}

/// A conversation on a project folder.
pub struct Session {
    id: String,
    cwd: PathBuf,
    model: Arc<dyn Model>,
    /// Where [`Self::set_model_config`] sends the next requests (every model handle of the session goes through it).
    model_switch: Arc<SwitchableModel>,
    model_config: Mutex<ModelConfig>,
    runtime: ToolRuntime,
    /// Tools this session cannot have, with why (shown in the tool list).
    missing_tools: Vec<(String, String)>,
    /// The skills the model and the person may invoke.
    skills: Arc<SkillCatalog>,
    /// What skills and custom commands allowed during the current turn (withdrawn when it ends).
    skill_grants: Arc<SkillGrants>,
    /// The model a custom command or a skill asked for, for the current turn only.
    turn_model: Arc<TurnModel>,
    /// The person's own slash commands (`.claude/commands`).
    commands: CommandCatalog,
    /// The folder's files, for `@` completion.
    file_index: FileIndex,
    /// The session's own allow rules when the current turn began (a skill's grant does not withdraw them).
    rules_before_turn: Mutex<Vec<String>>,
    config: QueryConfig,
    history: tokio::sync::Mutex<Vec<Message>>,
    /// Hands out the ids of prompts and `/compact` rows.
    prompt_ids: prompt_ids::PromptIds,
    usage: Mutex<Usage>,
    current_turn: Mutex<Option<CancellationToken>>,
    /// Where settings come from; shared with the watcher (trusting the folder changes it).
    permission_loader: Arc<Mutex<PermissionLoader>>,
    /// Hooks changed on disk, waiting for the user's review.
    pending_hooks: Arc<Mutex<Option<HookSet>>>,
    _settings_watcher: Option<SettingsWatcher>,
    recorder: Option<Arc<SessionRecorder>>,
    /// Where the file tools keep earlier contents (`None`: the store could not be opened; rewinds find nothing).
    checkpoints: Option<Arc<CheckpointStore>>,
    /// The agent's checklist (to-do list or task list).
    work_board: Arc<WorkBoard>,
    /// The MCP servers; dropped with the session, which kills their processes.
    mcp: McpManager,
    /// Which sub-agents changed which files (the changes view names them).
    attribution: Arc<changes::Attribution>,
    /// The teams (when the switch is on); their members are stopped when the session is dropped.
    teams: Option<Arc<Teams>>,
    /// The shell state: the running foreground commands and the background shells.
    shell: Arc<ShellSession>,
    /// The transcript file hooks read.
    transcript: Arc<transcript::TranscriptFile>,
    /// Where the session is in its life (SessionStart, SessionEnd, idle notifications).
    lifecycle: lifecycle::Lifecycle,
    /// Cancelled when the session is dropped (what waits beside it ends).
    closed: CancellationToken,
}

/// Checks that `path` is a readable folder and returns its canonical form.
pub fn open_folder(path: &Path) -> Result<PathBuf, SessionError> {
    let meta = std::fs::metadata(path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            SessionError::MissingFolder(path.to_path_buf())
        } else {
            SessionError::Unreadable {
                path: path.to_path_buf(),
                source,
            }
        }
    })?;
    if !meta.is_dir() {
        return Err(SessionError::NotAFolder(path.to_path_buf()));
    }
    std::fs::read_dir(path).map_err(|source| SessionError::Unreadable {
        path: path.to_path_buf(),
        source,
    })?;
    std::fs::canonicalize(path).map_err(|source| SessionError::Unreadable {
        path: path.to_path_buf(),
        source,
    })
}

impl Session {
    /// Starts building a new session on the project folder `folder` (checked: it must exist and be readable).
    pub fn builder(folder: &Path) -> Result<SessionBuilder, SessionError> {
        SessionBuilder::new_in(folder)
    }

    /// Starts building the stored session `id` reopened from `store`, on its own folder, with its history (repaired
    /// when its last turn was cut off: see [`crate::store::repair_history`]), its usage and its mode.
    pub fn resuming(store: Arc<SessionStore>, id: &str) -> Result<SessionBuilder, SessionError> {
        SessionBuilder::resuming(store, id)
    }

    /// Opens a session on `options.cwd` (shorthand for [`Session::builder`]). A missing API key is not an error
    /// here: the first prompt reports it.
    pub fn open(options: SessionOptions) -> Result<Self, SessionError> {
        SessionBuilder::new_in(&options.cwd)?
            .options(options)
            .build()
    }

    /// Opens a session with a given model (tests, other providers). `cwd` must already be canonical.
    pub fn with_model(cwd: PathBuf, model: Arc<dyn Model>, options: SessionOptions) -> Self {
        SessionBuilder::in_checked_folder(cwd)
            .options(options)
            .assemble_with(model)
    }

    /// Reopens the stored session `id` (shorthand for [`Session::resuming`]); the stored id, folder and store are
    /// used, the options' model, mode, approver and sink are the caller's.
    pub fn resume(
        store: Arc<SessionStore>,
        id: &str,
        options: SessionOptions,
    ) -> Result<Self, SessionError> {
        SessionBuilder::resuming(store, id)?
            .options(options)
            .build()
    }

    /// [`Self::resume`] with a given model.
    pub fn resume_with_model(
        store: Arc<SessionStore>,
        id: &str,
        model: Arc<dyn Model>,
        options: SessionOptions,
    ) -> Result<Self, SessionError> {
        Ok(SessionBuilder::resuming(store, id)?
            .options(options)
            .assemble_with(model))
    }

    /// Builds the session from what the builder gathered; with a recorder, the sink and the model are wrapped so
    /// that events and history are stored.
    fn assemble(parts: builder::Parts) -> Self {
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
            start_source,
            idle_after,
            runtime: background,
        } = parts;
        let wired = wire_model(model, recorder.as_ref(), events, &id, &cwd, &history);
        let (model_switch, model, events) = (wired.switch, wired.side, wired.events);
        let today = today();
        let (permission_loader, permission_context) =
            load_permissions(&cwd, command_line, assume_trusted, mode, &model);
        let hidden_by = permission_context.rules.clone();
        let elicitor = Arc::new(elicitation::AskThePerson {
            session_id: id.clone(),
            approver: approver.clone(),
            events: events.clone(),
        });
        let mcp = start_mcp(
            &cwd,
            &permission_loader,
            &mcp_cli,
            events.clone(),
            elicitor,
            background,
        );
        let checkpoints = session_checkpoints(&id);
        crate::fsutil::pending::clean_stale_once();
        // Only with the app's own database: a test's or another file's sessions say nothing about this folder.
        if let (Some(recorder), Some(root)) = (&recorder, session_dir(&id).parent())
            && Some(recorder.store().path()) == SessionStore::default_path().as_deref()
        {
            cleanup::sweep_once(root.to_path_buf(), Some(recorder.store().clone()));
        }
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
        // A `Skill(name)` deny rule removes the skill from what the model is told about.
        let skill_catalog = SkillCatalog::load(&cwd, dirs::home_dir().as_deref());
        let commands = CommandCatalog::load(&cwd, dirs::home_dir().as_deref());
        let skills = Arc::new(skill_catalog.without(|name| {
            hidden_by
                .name(RuleBehavior::Deny, tool_names::SKILL, name)
                .is_some()
        }));
        let mut system = build_system_prompt(&cwd, dirs::home_dir().as_deref(), &today);
        system.extend(skills_prompt(&skills.summaries()));
        let config = QueryConfig {
            max_tokens: model_config.max_tokens,
            system,
            results_dir: session_dir(&id).join("tool-results"),
            ..QueryConfig::default()
        };
        let permissions = Arc::new(RwLock::new(Arc::new(permission_context)));
        // Where a person follows the session, Notification hooks hear when a dialog waits for them.
        let approver: Arc<dyn Approver> = if interactive {
            Arc::new(lifecycle::NotifyingApprover {
                inner: approver,
                permissions: permissions.clone(),
                events: events.clone(),
                session_id: id.clone(),
            })
        } else {
            approver
        };
        let shell = Arc::new(
            ShellSession::new(session_dir(&id).join("shell"))
                .with_events(events.clone())
                .background_at_timeout(interactive)
                .with_blocking_budget(features.assistant.then_some(ASSISTANT_BLOCKING_BUDGET)),
        );
        let builtins = builtin_tools_with(shell.clone());
        let catalog = AgentCatalog::load(&cwd, dirs::home_dir().as_deref());
        // An `Agent(type)` deny rule removes the type from what the model is offered.
        let offered = Arc::new(catalog.without(|kind| {
            hidden_by
                .name(RuleBehavior::Deny, tool_names::AGENT, kind)
                .is_some()
        }));
        let completer: Arc<dyn ModelCompleter> = Arc::new(completion::SessionCompleter::new(
            model.clone(),
            completion::small_fast_model(model.model_name(), |k| std::env::var(k).ok()),
        ));
        let lead_mailbox = Arc::new(crate::tool::Mailbox::default());
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
            completer: Some(completer),
            deferred: Default::default(),
            team: None,
            mailbox: None,
            mode_notes: None,
        };
        let sub_agent_parts = SubAgentParts {
            runtime: base_runtime.clone(),
            model: model.clone(),
            config: config.clone(),
            tools: builtins.clone(),
            catalog: offered.clone(),
            today: today.clone(),
            mcp: mcp.tools(),
            recorder: recorder.clone(),
            work_list,
            lead_mailbox: lead_mailbox.clone(),
            attribution: attribution.clone(),
            shell: shell.clone(),
            turn_model: turn_model.clone(),
        };
        let teams = features
            .teams
            .then(|| Teams::new(Arc::new(sub_agent_parts.clone()), lead_mailbox.clone()));
        let sub_agents = Arc::new(SubAgents::new(sub_agent_parts));
        let skill_grants = Arc::new(SkillGrants::default());
        let deferred = Arc::new(DeferredTools::default());
        let work_board = Arc::new(WorkBoard::new(base_runtime.events.clone()));
        work_board.restore(lists.0, lists.1);
        let session_tools = registry::session_tools(registry::SessionToolInputs {
            builtins: &builtins,
            agents: offered,
            skills: skills.clone(),
            skill_grants: skill_grants.clone(),
            turn_model: turn_model.clone(),
            deferred: deferred.clone(),
            provider: model_config.provider,
            features,
            teams: teams.is_some(),
            work_list,
            work_board: &work_board,
            mcp: &mcp,
            language_servers,
        });
        let runtime = ToolRuntime {
            pool: session_tools.pool(&extra_tools, |name| hidden_by.hides(name), mcp.tools()),
            sub_agents: Some(sub_agents),
            deferred,
            team: teams.as_ref().map(Teams::lead_seat),
            mailbox: Some(lead_mailbox),
            mode_notes: Some(Arc::new(crate::exec::ModeNotes::default())),
            ..base_runtime
        };
        runtime.deferred.configure(
            &runtime.pool.all(),
            tool_search,
            config.compaction.context_window,
        );
        let pending_hooks = Arc::new(Mutex::new(None));
        let permission_loader = Arc::new(Mutex::new(permission_loader));
        let settings_watcher = if watch {
            watch_settings(&permission_loader, &runtime, &pending_hooks)
        } else {
            None
        };
        let session = Self {
            id,
            file_index: FileIndex::new(&cwd),
            cwd,
            model: wired.conversation,
            model_switch,
            model_config: Mutex::new(model_config),
            runtime,
            missing_tools: session_tools.missing,
            skills,
            skill_grants,
            turn_model,
            commands,
            rules_before_turn: Mutex::new(Vec::new()),
            config,
            history: tokio::sync::Mutex::new(history),
            prompt_ids: prompt_ids::PromptIds::starting_at(first_prompt_id),
            usage: Mutex::new(usage),
            current_turn: Mutex::new(None),
            _settings_watcher: settings_watcher,
            permission_loader,
            pending_hooks,
            recorder,
            checkpoints,
            work_board,
            mcp,
            attribution,
            teams,
            shell,
            transcript: wired.transcript,
            lifecycle: lifecycle::Lifecycle::new(start_source, idle_after),
            closed: CancellationToken::new(),
        };
        session.report_settings_issues();
        if !session.unreadable_settings().is_empty() {
            session.announce_unreadable_settings();
        }
        session.report_agent_issues(&catalog.issues);
        session.report_file_issues(&skill_catalog.issues);
        session
    }

    /// Tells the person about command and skill files that could not be loaded.
    fn report_file_issues(&self, skill_issues: &[crate::tools::skill::SkillFileIssue]) {
        let commands = self
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
    /// of the settings still apply. Rules waiting for the folder's trust are not problems: [`Session::folder_trust`]
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

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The skills the person may invoke as `/name args` (names and descriptions).
    pub fn skills(&self) -> Vec<(String, String)> {
        self.skills.summaries()
    }

    /// For a prompt `/name args` naming a skill: the prompt the model is given instead (the skill's instructions),
    /// the skill's `allowed-tools` granted and its `model` set for the turn. `None` for any other prompt.
    pub fn expand_skill_command(&self, prompt: &str) -> Option<String> {
        let (skill, args) = slash_command(&self.skills, prompt)?;
        if !skill.allowed_tools.is_empty() {
            let ctx = self.runtime.permission_context();
            self.skill_grants.record(&skill.allowed_tools);
            self.runtime
                .set_permission_context(ctx.with_session_rules(&skill.allowed_tools));
        }
        if skill.model.as_deref().is_some_and(|m| !m.trim().is_empty()) {
            self.turn_model.set(skill.model.as_deref());
        }
        Some(format!(
            "<command-name>/{}</command-name>\n<command-args>{}</command-args>\n\n{}",
            skill.name,
            args.as_deref().unwrap_or_default(),
            invocation_text(skill, args.as_deref())
        ))
    }

    /// Every tool of the session: offered to the model or not, and why not.
    pub fn tool_list(&self) -> Vec<registry::ToolListing> {
        let ctx = self.runtime.permission_context();
        registry::tool_listing(
            &self.runtime.pool,
            |name| ctx.rules.hides(name),
            &self.runtime.deferred,
            &self.missing_tools,
        )
    }

    /// The tool runtime (tools, permissions, doors) of this session.
    pub fn runtime(&self) -> &ToolRuntime {
        &self.runtime
    }

    /// How this session reaches its model.
    pub fn model_config(&self) -> ModelConfig {
        self.model_config
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Sends this session's next requests to the model `config` describes (the person changed the settings); a
    /// request already streaming finishes where it started. On error (an invalid configuration) nothing changes.
    pub fn set_model_config(&self, config: ModelConfig) -> Result<(), SessionError> {
        self.model_switch
            .switch_to(crate::model::connect(config.clone())?);
        *self
            .model_config
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = config;
        Ok(())
    }

    /// What the window shows about this session.
    pub fn info(&self) -> SessionInfo {
        SessionInfo {
            session_id: self.id.clone(),
            cwd: self.cwd.display().to_string(),
            folder_name: self
                .cwd
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "/".into()),
            model: self.model.model_name().to_string(),
            mode: self.runtime.permission_context().mode,
            setup_hint: self.model_config().setup_hint(),
            trust: self.folder_trust(),
            context_window: self.config.compaction.context_window,
            compact_at_percent: u32::try_from(self.config.compaction.threshold_percent)
                .unwrap_or(u32::MAX),
            auto_mode_available: self.auto_mode_available(),
        }
    }

    /// Whether auto mode can judge calls: a classifier is attached and its model can be reached (auto mode's
    /// classifier asks the session's model, so it needs what the session needs: a key, or a chosen local model).
    pub fn auto_mode_available(&self) -> bool {
        self.runtime.permission_context().auto_available()
            && self.model_config().setup_hint().is_none()
    }

    /// Whether the folder is trusted and what trusting it enables.
    pub fn folder_trust(&self) -> tandem_protocol::FolderTrust {
        self.loader().folder_trust()
    }

    /// Runs one turn for `prompt`. Turns of one session run one at a time. The engine's own commands (`/compact`,
    /// `/model`) run instead of a turn.
    pub async fn send(&self, prompt: &str) -> Result<TurnOutcome, QueryError> {
        self.begin().await;
        self.turn_begins();
        let outcome = self.send_once(prompt).await;
        self.wait_idle();
        outcome
    }

    async fn send_once(&self, prompt: &str) -> Result<TurnOutcome, QueryError> {
        if let Some(command) = slash::builtin(prompt) {
            return self.run_builtin(prompt, command).await;
        }
        let outcome = self.send_inner(prompt).await;
        self.withdraw_skill_grants();
        self.turn_model.set(None);
        outcome
    }

    /// Withdraws the allow rules skills granted during the turn that just ended (rules the session had before the
    /// turn stay).
    fn withdraw_skill_grants(&self) {
        let granted = self.skill_grants.take();
        if granted.is_empty() {
            return;
        }
        let ctx = self.runtime.permission_context();
        let before = self
            .rules_before_turn
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default();
        let entries: Vec<_> = ctx
            .entries
            .iter()
            .filter(|e| {
                !(e.source == RuleSource::Session
                    && e.behavior == RuleBehavior::Allow
                    && granted.contains(&e.text)
                    && !before.contains(&e.text))
            })
            .cloned()
            .collect();
        self.runtime
            .set_permission_context(ctx.with_entries(entries));
    }

    /// Notes what a turn starting now must restore when it ends (the session's own grants) and makes it the one
    /// an interrupt stops.
    fn begin_turn(&self) -> CancellationToken {
        if let Ok(mut before) = self.rules_before_turn.lock() {
            *before = self
                .runtime
                .permission_context()
                .entries
                .iter()
                .filter(|e| e.source == RuleSource::Session && e.behavior == RuleBehavior::Allow)
                .map(|e| e.text.clone())
                .collect();
        }
        let cancel = CancellationToken::new();
        if let Ok(mut slot) = self.current_turn.lock() {
            *slot = Some(cancel.clone());
        }
        cancel
    }

    /// The client every request of a turn goes through: a skill the model invokes may switch the rest of it.
    fn turn_client(&self) -> Arc<dyn Model> {
        Arc::new(TurnModelClient::new(
            self.model.clone(),
            self.turn_model.clone(),
        ))
    }

    async fn send_inner(&self, prompt: &str) -> Result<TurnOutcome, QueryError> {
        let cancel = self.begin_turn();
        let command = self.expand_custom_command(prompt);
        self.turn_model
            .set(command.as_ref().and_then(|c| c.model.as_deref()));
        let expansion = command
            .map(|c| c.text)
            .or_else(|| self.expand_skill_command(prompt));
        let model = self.turn_client();
        let permissions = self.runtime.permission_context();
        let tools = self.runtime.pool.all();
        let files = file_mentions::MentionReader {
            cwd: &self.cwd,
            permissions: &permissions,
            tools: &tools,
            file_state: self.runtime.file_state.clone(),
        };
        let prepared = tokio::select! {
            p = prompt_input::prepare(&self.mcp, &files, self.runtime.events.as_ref(), prompt, expansion) => p,
            _ = cancel.cancelled() => Err(String::new()),
        };
        let prompt = match prepared {
            Ok(p) => p,
            Err(why) => return self.refuse_prompt(prompt, why, cancel.is_cancelled()),
        };
        let mut history = self.history.lock().await;
        self.run_prompt(&mut history, prompt, model.as_ref(), &cancel)
            .await
    }

    /// Runs the turn of a prepared prompt on the history (locked by the caller: turns run one at a time), then
    /// stores what it added.
    async fn run_prompt(
        &self,
        history: &mut Vec<Message>,
        mut prompt: UserPrompt,
        model: &dyn Model,
        cancel: &CancellationToken,
    ) -> Result<TurnOutcome, QueryError> {
        // A checkpoint per prompt, named by the prompt's id.
        let prompt_id = self.prompt_ids.next();
        if let Some(checkpoints) = &self.checkpoints
            && let Err(e) = checkpoints.begin_prompt(&prompt_id)
        {
            tracing::warn!("checkpoints: {e}");
        }
        prompt.id = Some(prompt_id);
        let mut usage = self.usage();
        let result = self
            .run_with_hooks(model, history, &mut usage, prompt, cancel)
            .await;
        if let Ok(mut slot) = self.usage.lock() {
            *slot = usage;
        }
        if let Ok(mut slot) = self.current_turn.lock() {
            *slot = None;
        }
        self.transcript.sync(history);
        if let Some(recorder) = &self.recorder {
            // The model wrapper stored the history as it grew; this stores the tail no request carried (the last
            // tool results of an interrupted turn) and waits for the commit, so a caller that exits after `send`
            // loses nothing.
            recorder.sync_history(history);
            if let Err(err) = recorder.flush().await {
                tracing::warn!("session {}: {err}", self.id);
            }
        }
        result
    }

    /// Ends a turn whose prompt could not be built: an MCP prompt command that failed (the error says why), or an
    /// interrupt while it was being built. The window sees the typed prompt and why.
    fn refuse_prompt(
        &self,
        typed: &str,
        why: String,
        interrupted: bool,
    ) -> Result<TurnOutcome, QueryError> {
        use tandem_protocol::{SessionEvent, TurnStopReason};
        if let Ok(mut slot) = self.current_turn.lock() {
            *slot = None;
        }
        let events = &self.runtime.events;
        events.emit(SessionEvent::TurnStarted {
            prompt: typed.to_string(),
            prompt_id: None,
        });
        let stop_reason = if interrupted {
            TurnStopReason::Interrupted
        } else {
            events.emit(SessionEvent::Error {
                message: why.clone(),
            });
            TurnStopReason::Error
        };
        events.emit(SessionEvent::TurnEnded { stop_reason });
        if !interrupted {
            return Err(QueryError::Prompt(why));
        }
        Ok(TurnOutcome {
            stop_reason,
            final_text: String::new(),
            usage: Usage::default(),
            requests: 0,
        })
    }

    /// Tokens used by the session so far.
    pub fn usage(&self) -> Usage {
        self.usage.lock().map(|u| *u).unwrap_or_default()
    }

    /// One turn with its UserPromptSubmit hooks before (a block drops the prompt; context is added to it) and its
    /// Stop hooks after (a block makes the agent go on, a few times at most). `model` answers every request of it.
    async fn run_with_hooks(
        &self,
        model: &dyn Model,
        history: &mut Vec<Message>,
        usage: &mut Usage,
        mut prompt: UserPrompt,
        cancel: &CancellationToken,
    ) -> Result<TurnOutcome, QueryError> {
        let permissions = self.runtime.permission_context();
        let notify = |messages: &[String]| {
            for message in messages {
                self.runtime
                    .events
                    .emit(tandem_protocol::SessionEvent::Notice {
                        message: message.clone(),
                    });
            }
        };
        let submitted = EventInput::UserPromptSubmit(PromptSubmit {
            prompt: prompt.text(),
        });
        if let Some(v) = hooks::run_event(&permissions, &self.id, submitted).await {
            notify(&v.errors);
            notify(&v.system_messages);
            if let Some(why) = v.block.or(v.stop) {
                notify(&[format!("A UserPromptSubmit hook dropped the prompt: {why}")]);
                return Ok(TurnOutcome {
                    stop_reason: tandem_protocol::TurnStopReason::EndTurn,
                    final_text: String::new(),
                    usage: Default::default(),
                    requests: 0,
                });
            }
            for context in v.additional_context {
                prompt
                    .content
                    .push(crate::model::ContentBlock::Text { text: context });
            }
        }
        // What SessionStart hooks gave comes first, with the first prompt after the session started.
        for (at, context) in self.take_start_context().into_iter().enumerate() {
            prompt
                .content
                .insert(at, crate::model::ContentBlock::Text { text: context });
        }
        let mut outcome = run_turn(
            model,
            &self.runtime,
            &self.config,
            history,
            usage,
            prompt,
            cancel,
        )
        .await?;
        let mut active = false;
        for _ in 0..3 {
            let stop = EventInput::Stop(StopInput {
                stop_hook_active: active,
            });
            let Some(v) = hooks::run_event(&permissions, &self.id, stop).await else {
                break;
            };
            notify(&v.errors);
            match v.block {
                Some(reason) if v.stop.is_none() && !cancel.is_cancelled() => {
                    active = true;
                    outcome = run_turn(
                        model,
                        &self.runtime,
                        &self.config,
                        history,
                        usage,
                        &format!("Stop hook feedback: {reason}"),
                        cancel,
                    )
                    .await?;
                }
                _ => break,
            }
        }
        Ok(outcome)
    }

    /// The file checkpoints of this session, oldest first, each named by the id of the prompt it began with.
    pub fn checkpoints(&self) -> Vec<crate::checkpoint::CheckpointInfo> {
        self.checkpoints
            .as_ref()
            .map(|c| c.checkpoints())
            .unwrap_or_default()
    }

    /// Rewinds the files changed since prompt `prompt_id` began; changes made outside Tandem stop it unless
    /// `force` (see [`crate::checkpoint::CheckpointStore::rewind`]).
    pub fn rewind_files(
        &self,
        prompt_id: &str,
        force: bool,
    ) -> Result<crate::checkpoint::RewindReport, crate::checkpoint::CheckpointError> {
        match &self.checkpoints {
            Some(store) => store.rewind_files(&self.runtime.file_state, prompt_id, force),
            None => Err(crate::checkpoint::CheckpointError::UnknownPrompt(
                prompt_id.to_string(),
            )),
        }
    }

    /// The prompts and `/compact` rows this session can be rewound to, oldest first, with the files changed from
    /// each on.
    pub async fn rewind_points(&self) -> Vec<rewind::RewindPoint> {
        rewind::points_of(&self.history.lock().await, &self.checkpoints())
    }

    /// Rewinds the files, the conversation or both to before prompt `prompt_id` (waits for a running turn to end;
    /// what a `/compact` row or a compacted prompt rewinds to is told in [`rewind`]).
    /// Files changed outside Tandem stop a file rewind unless `force`; then nothing at all changes.
    pub async fn rewind(
        &self,
        prompt_id: &str,
        scope: rewind::RewindScope,
        force: bool,
    ) -> Result<rewind::RewindOutcome, rewind::RewindError> {
        let mut history = self.history.lock().await;
        let cut = rewind::plan(&history, prompt_id, scope)?;
        let mut outcome = rewind::RewindOutcome::default();
        if scope != rewind::RewindScope::Conversation {
            match rewind::checkpoint_before(prompt_id, &self.checkpoints()) {
                Some(id) => {
                    rewind::apply_report(&mut outcome, self.rewind_files(&id, force)?);
                    if !outcome.files_rewound {
                        return Ok(outcome);
                    }
                }
                None => outcome.files_rewound = true,
            }
        }
        if let Some(cut) = cut {
            outcome.messages_removed = cut.apply(&mut history);
            self.runtime
                .events
                .emit(tandem_protocol::SessionEvent::ConversationRewound {
                    prompt_id: prompt_id.to_string(),
                });
            if let Some(recorder) = &self.recorder {
                recorder.sync_history(&history);
                recorder.flush().await?;
            }
        }
        Ok(outcome)
    }

    /// Interrupts the running turn, if any.
    pub fn interrupt(&self) {
        if let Ok(slot) = self.current_turn.lock()
            && let Some(token) = slot.as_ref()
        {
            token.cancel();
        }
    }

    /// Stops one sub-agent because the person asked: the one started by the Agent call `id` (or the background task
    /// `id`). The turn and the other sub-agents go on; the parent is told the person stopped it. Returns whether such
    /// a sub-agent was running.
    pub fn stop_sub_agent(&self, id: &str) -> bool {
        self.runtime
            .sub_agents
            .as_ref()
            .is_some_and(|runner| runner.stop_by_person(id))
    }

    /// Switches the permission mode (a new context replaces the old one). Auto mode where no classifier can judge
    /// ([`Self::auto_mode_available`]) falls back to default, as bypass does where it is disabled.
    pub fn set_mode(&self, mode: PermissionMode) {
        let mode = if mode == PermissionMode::Auto && !self.auto_mode_available() {
            PermissionMode::Default
        } else {
            mode
        };
        self.runtime
            .update_permission_context(|current| current.with_mode(mode));
        if let Some(recorder) = &self.recorder {
            recorder.set_mode(mode);
        }
    }

    /// Records that the user trusts this folder and applies its project allow rules, directories and hooks; the
    /// project's MCP servers that waited for approval (the trust question lists them) are approved and start.
    pub fn trust_folder(&self) -> std::io::Result<()> {
        let loader = self.loader();
        if let Some(store) = &loader.trust {
            store.trust(&self.cwd)?;
        }
        self.reload_with(&loader);
        self.mcp.approve_waiting(&ApprovalStore::standard())?;
        Ok(())
    }

    /// Withdraws the user's trust in this folder: its project allow rules, directories and hooks stop applying.
    pub fn revoke_trust(&self) -> std::io::Result<()> {
        let loader = self.loader();
        if let Some(store) = &loader.trust {
            store.revoke(&self.cwd)?;
        }
        self.reload_with(&loader);
        Ok(())
    }

    fn loader(&self) -> PermissionLoader {
        match self.permission_loader.lock() {
            Ok(l) => l.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Sets when the conversation is compacted.
    pub fn set_compaction_policy(&mut self, policy: crate::query::compact::CompactionPolicy) {
        self.config.compaction = policy;
    }

    /// Limits how many model requests one turn may make.
    pub fn set_max_turns(&mut self, max_turns: u32) {
        self.config.max_turns = max_turns.max(1);
    }

    /// Applies command-line flags (`--allowedTools`, `--disallowedTools`, `--add-dir`) as the `cliArg` settings
    /// source, keeping them for later reloads.
    pub fn apply_command_line_flags(&self, flags: CliSettings) {
        self.change_loader(|loader| loader.cli = flags);
    }

    /// Treats the folder as trusted for this session only, without recording it (command-line runs).
    pub fn assume_trusted(&self) {
        self.change_loader(|loader| loader.trust = None);
    }

    /// Changes how settings are loaded, then reloads them (rules apply at once; the hook snapshot is replaced too,
    /// since the person asked for the change).
    fn change_loader(&self, change: impl FnOnce(&mut PermissionLoader)) {
        let loader = {
            let mut shared = match self.permission_loader.lock() {
                Ok(l) => l,
                Err(p) => p.into_inner(),
            };
            change(&mut shared);
            shared.clone()
        };
        self.reload_with(&loader);
    }

    /// Reloads the settings with `loader`, taking new hooks as well.
    fn reload_with(&self, loader: &PermissionLoader) {
        self.runtime.update_permission_context(|current| {
            let reloaded = loader.reload(current);
            let hooks = reloaded
                .changed_hooks
                .unwrap_or_else(|| (*current.hooks).clone());
            reloaded.context.with_hooks(hooks)
        });
    }

    /// Applies hook changes the user has reviewed (see the notice sent when they changed on disk).
    pub fn accept_hook_changes(&self) {
        let pending = self.pending_hooks.lock().ok().and_then(|mut p| p.take());
        if let Some(hooks) = pending {
            self.runtime
                .update_permission_context(|current| current.with_hooks(hooks));
        }
    }

    /// The to-do list now (TodoWrite's), e.g. to pin it when a stored session is reopened.
    pub fn todos(&self) -> Vec<tandem_protocol::TodoItem> {
        self.work_board.todos()
    }

    /// The task list now (the task tools').
    pub fn tasks(&self) -> Vec<tandem_protocol::TaskItem> {
        self.work_board.tasks()
    }

    /// The MCP servers and where each is (connecting, ready, failed, needs approval, disabled).
    pub fn mcp_servers(&self) -> Vec<tandem_protocol::McpServerStatus> {
        self.mcp.statuses()
    }

    /// Waits until every MCP server is usable, at most `timeout`: connected (or failed), or still starting with
    /// the tools it listed in an earlier session (a call to one waits for the server). A one-shot run waits so that
    /// its single prompt sees the tools without waiting for a slow server it has seen before; the window never
    /// waits.
    pub async fn wait_for_mcp_servers(&self, timeout: std::time::Duration) -> bool {
        self.mcp.usable(timeout).await
    }

    /// The person approves (or refuses) a project MCP server for this folder: it starts (or stops) now, and the
    /// answer holds for later sessions.
    pub fn approve_mcp_server(&self, name: &str, approved: bool) -> std::io::Result<()> {
        self.mcp.approve(name, approved, &ApprovalStore::standard())
    }

    /// Starts signing in to remote MCP server `name` (its authorization page opens in the browser; the server
    /// connects once the person has signed in). The page's URL, and why the browser could not be opened if so.
    pub async fn sign_in_mcp_server(
        &self,
        name: &str,
    ) -> Result<crate::mcp::SignInStarted, String> {
        self.mcp
            .sign_in(name, crate::mcp::oauth::SignInOptions::default())
            .await
    }

    /// Turns the MCP tool `tool` (full name, `mcp__server__tool`) off or on: it is no longer (or again) offered to
    /// the model, from the next request on, and the choice is saved in the project's `.claude/settings.local.json`
    /// (under `tandem.disabledMcpTools`) for later sessions.
    pub fn set_mcp_tool_enabled(&self, tool: &str, enabled: bool) -> std::io::Result<()> {
        mcp_toggles::record(&self.loader().paths.local, tool, enabled)?;
        self.mcp.set_tool_enabled(tool, enabled);
        Ok(())
    }

    /// The one-click answer to something the shell sandbox refused: adds the host to
    /// `sandbox.network.allowedDomains` or the folder to `sandbox.filesystem.allowWrite` of the project's local
    /// settings and applies the settings at once. Returns what was added.
    pub fn allow_sandbox_violation(
        &self,
        violation: &tandem_protocol::SandboxViolation,
    ) -> Result<crate::sandbox::SandboxAllowance, crate::permission::SaveError> {
        let file = self
            .runtime
            .permission_context()
            .local_settings_file
            .clone();
        let added = crate::sandbox::allow_sandbox_violation(&file, violation)?;
        self.reload_with(&self.loader());
        Ok(added)
    }

    /// Stops an MCP server and starts it again.
    pub fn reconnect_mcp_server(&self, name: &str) {
        self.mcp.reconnect(name);
    }

    /// The MCP manager (statuses and waiting for states, for the window and tests).
    pub fn mcp(&self) -> &McpManager {
        &self.mcp
    }

    /// The sub-agents' conversations of this session as stored (each linked to the Agent call that started it),
    /// oldest first; empty for a session that is not stored.
    pub fn sidechains(&self) -> Result<Vec<crate::store::Sidechain>, StoreError> {
        match &self.recorder {
            Some(recorder) => recorder.store().sidechains(&self.id),
            None => Ok(Vec::new()),
        }
    }

    /// The worktrees agents of this project left with changes, for the person to merge or discard (empty when the
    /// folder is not in a git repository).
    pub fn kept_worktrees(&self) -> Vec<tandem_protocol::KeptWorktree> {
        crate::tools::worktree::list_kept(&self.cwd)
            .map(|list| list.iter().map(|w| w.to_protocol()).collect())
            .unwrap_or_default()
    }

    /// Merges the kept worktree on `branch` into the project's current branch and removes it (see
    /// [`crate::tools::worktree::merge`]).
    pub fn merge_worktree(&self, branch: &str) -> Result<(), crate::tools::worktree::GitError> {
        crate::tools::worktree::merge(&self.cwd, branch)
    }

    /// Removes the kept worktree on `branch` with its branch, dropping its changes.
    pub fn discard_worktree(&self, branch: &str) -> Result<(), crate::tools::worktree::GitError> {
        crate::tools::worktree::discard(&self.cwd, branch)
    }

    /// A copy of the conversation so far.
    pub async fn history(&self) -> Vec<Message> {
        self.history.lock().await.clone()
    }
}

/// Watches the settings files: new rules apply from the next call; changed hooks wait for review.
fn watch_settings(
    loader: &Arc<Mutex<PermissionLoader>>,
    runtime: &ToolRuntime,
    pending: &Arc<Mutex<Option<HookSet>>>,
) -> Option<SettingsWatcher> {
    let loader = loader.clone();
    let files = match loader.lock() {
        Ok(l) => l.paths.all(),
        Err(p) => p.into_inner().paths.all(),
    };
    let runtime = runtime.clone();
    let pending = pending.clone();
    SettingsWatcher::start(files, move || {
        let loader = match loader.lock() {
            Ok(l) => l.clone(),
            Err(p) => p.into_inner().clone(),
        };
        // Re-read under the context's lock, so that a rule granted or a mode chosen meanwhile is kept.
        let mut changed_hooks = None;
        let mut unreadable = None;
        runtime.update_permission_context(|current| {
            let reloaded = loader.reload(current);
            changed_hooks = reloaded.changed_hooks;
            // A file fixed, broken, or changed since the person accepted running without it: the window's notice
            // is told the files as they are now.
            let after = reloaded.context.unreadable_files();
            unreadable =
                (!current.unreadable_settings.is_empty() || !after.is_empty()).then_some(after);
            reloaded.context
        });
        let events = &runtime.events;
        if let Some(files) = unreadable {
            events.emit(tandem_protocol::SessionEvent::UnreadableSettings { files });
        }
        if let Some(hooks) = changed_hooks {
            if let Ok(mut p) = pending.lock() {
                *p = Some(hooks);
            }
            events.emit(tandem_protocol::SessionEvent::Notice {
                message:
                    "The hooks in the settings files changed. Review them to apply the change."
                        .into(),
            });
        }
    })
    .ok()
}

impl Drop for Session {
    fn drop(&mut self) {
        self.closed.cancel();
        if let Some(teams) = &self.teams {
            teams.stop_all();
        }
        // A session that is not stored can never be rewound once it ends.
        if self.recorder.is_none() {
            cleanup::drop_unstored(&session_dir(&self.id));
        }
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
    let side: Arc<dyn Model> = switch.clone();
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
    mode: PermissionMode,
    model: &Arc<dyn Model>,
) -> (PermissionLoader, crate::permission::PermissionContext) {
    let mut loader = PermissionLoader::standard(cwd, command_line);
    if assume_trusted {
        loader.trust = None;
    }
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
    events: Arc<dyn EventSink>,
    elicitor: Arc<dyn crate::mcp::Elicitor>,
    runtime: Option<tokio::runtime::Handle>,
) -> McpManager {
    let settings = crate::settings::load_settings(
        &loader.paths,
        &loader.cli,
        &loader.project_root,
        loader.home.as_deref(),
    );
    let store = ApprovalStore::standard();
    let plan = crate::mcp::plan(cwd, &settings.mcp, cli, Some(&store), &|name| {
        std::env::var(name).ok()
    });
    McpManager::start_in(
        runtime.or_else(|| tokio::runtime::Handle::try_current().ok()),
        cwd,
        plan,
        Limits::from_env(),
        events,
        crate::mcp::KnownTools::standard(),
        crate::mcp::ClientSetup {
            elicitor: Some(elicitor),
            ..crate::mcp::ClientSetup::standard()
        },
    )
}

/// The folder where a session keeps its files (saved tool results), in the app's data directory.
pub fn session_dir(id: &str) -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("tandem/sessions")
        .join(id)
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
