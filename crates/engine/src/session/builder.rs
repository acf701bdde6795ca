//! One way to make a session, new or reopened: [`SessionBuilder`] gathers the folder (or the stored session), the
//! model, the mode, the doors to the person and the command-line settings, and builds the session with all of them
//! in force from the start (a `--disallowedTools` tool is never offered to the model).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent, TaskItem, TodoItem, Usage};

use super::agents::RemoteAgents;
use super::lifecycle::{IDLE_NOTIFICATION_AFTER, StartSource};
use super::{Session, SessionError, SessionOptions, closing, open_folder, prompt_ids};
use crate::approver::{Approver, FixedApprover};
use crate::events::{EventSink, NullSink};
use crate::mcp::McpCliConfig;
use crate::model::{Message, Model, ModelConfig};
use crate::settings::{BudgetSettings, CliSettings};
use crate::store::{LoadedSession, NewSession, SessionLock, SessionRecorder, SessionStore};
use crate::tool::{DynTool, ToolSearchMode};
use crate::tools::features::Features;
use crate::tools::work_list::WorkListFamily;

/// Where the session starts from.
enum Start {
    /// A new conversation on a checked, canonical folder.
    New { cwd: PathBuf },
    /// A stored conversation, loaded (its folder checked).
    Resume {
        store: Arc<SessionStore>,
        loaded: Box<LoadedSession>,
        cwd: PathBuf,
        lock: SessionLock,
    },
}

/// Builds a [`Session`]. Start with [`Session::builder`] (a new conversation on a folder) or
/// [`Session::resuming`] (a stored one); everything else has a default: the model from the standard configuration,
/// the default mode (a resumed session keeps its stored mode), an approver that denies, no event sink, no store,
/// no settings watcher, no command-line settings.
pub struct SessionBuilder {
    start: Start,
    id: Option<String>,
    model_config: ModelConfig,
    model: Option<Arc<dyn Model>>,
    mode: Option<PermissionMode>,
    approver: Arc<dyn Approver>,
    events: Arc<dyn EventSink>,
    store: Option<Arc<SessionStore>>,
    watch_settings: bool,
    command_line: CliSettings,
    assume_trusted: bool,
    plugins_dir: Option<PathBuf>,
    extra_tools: Vec<Arc<dyn DynTool>>,
    tool_search: Option<ToolSearchMode>,
    work_list: WorkListFamily,
    features: Features,
    mcp: McpCliConfig,
    interactive: bool,
    window_panel: bool,
    start_source: Option<StartSource>,
    idle_after: Option<Duration>,
    budget: BudgetSettings,
    runtime: Option<tokio::runtime::Handle>,
    remote_agents: Option<Arc<dyn RemoteAgents>>,
}

/// Everything [`Session::assemble`] puts together.
pub(super) struct Parts {
    pub id: String,
    pub cwd: PathBuf,
    pub model: Arc<dyn Model>,
    pub model_config: ModelConfig,
    pub mode: PermissionMode,
    pub approver: Arc<dyn Approver>,
    pub events: Arc<dyn EventSink>,
    pub watch_settings: bool,
    pub command_line: CliSettings,
    pub assume_trusted: bool,
    /// The folder of installed plugins, when not `~/.claude/plugins`.
    pub plugins_dir: Option<PathBuf>,
    pub mcp: McpCliConfig,
    pub extra_tools: Vec<Arc<dyn DynTool>>,
    pub tool_search: ToolSearchMode,
    pub recorder: Option<Arc<SessionRecorder>>,
    pub history: Vec<Message>,
    /// The first prompt id the session may give out.
    pub first_prompt_id: u64,
    pub usage: Usage,
    pub work_list: WorkListFamily,
    /// The checklists a stored session had.
    pub lists: (Vec<TodoItem>, Vec<TaskItem>),
    /// The switchable tools offered.
    pub features: Features,
    /// A person follows the session as it runs (the window).
    pub interactive: bool,
    /// The host can show a terminal panel (the window).
    pub window_panel: bool,
    /// Why the session starts (SessionStart's `source`).
    pub start_source: StartSource,
    /// When Notification hooks hear that the model waits idle (`None`: never).
    pub idle_after: Option<Duration>,
    /// The spending budget (watched only when the session is stored).
    pub budget: BudgetSettings,
    /// Where background work (MCP servers) runs; `None`: the runtime current when the session is built.
    pub runtime: Option<tokio::runtime::Handle>,
    /// The door to remote sub-agents (used when the settings name a `remoteAgentHost`).
    pub remote_agents: Option<Arc<dyn RemoteAgents>>,
}

impl SessionBuilder {
    fn starting(start: Start) -> Self {
        Self {
            start,
            id: None,
            model_config: ModelConfig::default(),
            model: None,
            mode: None,
            approver: Arc::new(FixedApprover(ApprovalChoice::Deny)),
            events: Arc::new(NullSink),
            store: None,
            watch_settings: false,
            command_line: CliSettings::default(),
            assume_trusted: false,
            plugins_dir: None,
            extra_tools: Vec::new(),
            tool_search: None,
            work_list: WorkListFamily::from_env(),
            features: Features::from_env(),
            mcp: McpCliConfig::default(),
            interactive: false,
            window_panel: false,
            start_source: None,
            idle_after: None,
            budget: BudgetSettings::default(),
            runtime: None,
            remote_agents: None,
        }
    }

    /// A new session on `folder`, which must be a readable folder.
    pub fn new_in(folder: &Path) -> Result<Self, SessionError> {
        Ok(Self::in_checked_folder(open_folder(folder)?))
    }

    /// A new session on a folder the caller has already checked and made canonical.
    pub(super) fn in_checked_folder(cwd: PathBuf) -> Self {
        Self::starting(Start::New { cwd })
    }

    /// The stored session `id`, reopened on its folder.
    ///
    /// The session is locked for this process until the session ends: when another process (or another session of
    /// this one) has it open, this fails with `StoreError::InUse` at once; the caller may wait and try again.
    pub fn resuming(store: Arc<SessionStore>, id: &str) -> Result<Self, SessionError> {
        // Locked before loading, so that what is loaded is what the last writer left.
        let lock = store.lock_session(id)?;
        let loaded = store
            .load_session(id)?
            .ok_or_else(|| SessionError::UnknownSession(id.to_string()))?;
        let cwd = open_folder(&loaded.record.folder)?;
        Ok(Self::starting(Start::Resume {
            store,
            loaded: Box::new(loaded),
            cwd,
            lock,
        }))
    }

    /// The stored session being reopened (to replay its events before the session starts), if any.
    pub fn stored(&self) -> Option<&LoadedSession> {
        match &self.start {
            Start::Resume { loaded, .. } => Some(loaded),
            Start::New { .. } => None,
        }
    }

    /// The folder the session works in (checked and canonical).
    pub fn cwd(&self) -> &std::path::Path {
        match &self.start {
            Start::New { cwd } | Start::Resume { cwd, .. } => cwd,
        }
    }

    /// The id the session will have: the stored one when resuming, else the one given, else a new UUID (fixed
    /// from this call on).
    pub fn session_id(&mut self) -> String {
        match &self.start {
            Start::Resume { loaded, .. } => loaded.record.id.clone(),
            Start::New { .. } => self
                .id
                .get_or_insert_with(|| uuid::Uuid::new_v4().to_string())
                .clone(),
        }
    }

    /// The id of a new session (ignored when resuming: the stored id is kept).
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// The model to connect to (see [`crate::model::connect`]).
    pub fn model(mut self, config: ModelConfig) -> Self {
        self.model_config = config;
        self
    }

    /// A model client to use instead of connecting (tests, other providers).
    pub fn model_client(mut self, model: Arc<dyn Model>) -> Self {
        self.model = Some(model);
        self
    }

    /// The permission mode to start in (a resumed session otherwise keeps its stored mode; `Default` lets the
    /// settings' `defaultMode` decide).
    pub fn mode(mut self, mode: PermissionMode) -> Self {
        self.mode = Some(mode);
        self
    }

    /// Who answers permission requests.
    pub fn approver(mut self, approver: Arc<dyn Approver>) -> Self {
        self.approver = approver;
        self
    }

    /// Where the session's events go.
    pub fn events(mut self, events: Arc<dyn EventSink>) -> Self {
        self.events = events;
        self
    }

    /// Where a new session is recorded (a resumed one is recorded where it was stored).
    pub fn store(mut self, store: Option<Arc<SessionStore>>) -> Self {
        self.store = store;
        self
    }

    /// Re-read the settings files when they change on disk (long-lived sessions).
    pub fn watch_settings(mut self, watch: bool) -> Self {
        self.watch_settings = watch;
        self
    }

    /// Command-line flags acting as the `cliArg` settings source (allowed and disallowed tools, directories).
    pub fn command_line(mut self, flags: CliSettings) -> Self {
        self.command_line = flags;
        self
    }

    /// `--mcp-config` values (files or JSON) and `--strict-mcp-config` (only those servers).
    pub fn mcp_config(mut self, mcp: McpCliConfig) -> Self {
        self.mcp = mcp;
        self
    }

    /// Tools from outside the built-ins (a server's tools, test tools), offered after the built-ins sorted by name;
    /// those that ask to be deferred are subject to ToolSearch.
    pub fn extra_tools(mut self, tools: Vec<Arc<dyn DynTool>>) -> Self {
        self.extra_tools = tools;
        self
    }

    /// When deferred tools are sent as names only, instead of what `ENABLE_TOOL_SEARCH` says.
    pub fn tool_search(mut self, mode: ToolSearchMode) -> Self {
        self.tool_search = Some(mode);
        self
    }

    /// The Tokio runtime the session's background work runs on (its MCP servers, whenever they start: at once, when
    /// approved or reconnected). Needed when the session is built or driven from a thread outside any runtime (a
    /// window's command handlers); by default the runtime current at [`Self::build`] is used, and without one
    /// the servers are listed as failed.
    pub fn runtime(mut self, handle: tokio::runtime::Handle) -> Self {
        self.runtime = Some(handle);
        self
    }

    /// Lets the session run the Agent tool's `isolation: "remote"` sub-agents through `door` (the hosted layer's
    /// [`crate::hosted::RemoteSubAgents`]) on the machine the settings' `remoteAgentHost` names; without a door, or
    /// without that setting, the Agent tool neither offers nor accepts remote sub-agents.
    pub fn remote_agents(mut self, door: Arc<dyn RemoteAgents>) -> Self {
        self.remote_agents = Some(door);
        self
    }

    /// Reads installed plugins from `dir` instead of `~/.claude/plugins` (tests, and a second configuration).
    pub fn plugins_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.plugins_dir = Some(dir.into());
        self
    }

    /// Treat the folder as trusted for this session only, without recording it (command-line runs).
    pub fn assume_trusted(mut self) -> Self {
        self.assume_trusted = true;
        self
    }

    /// Which switchable tools (teams, Sleep) are offered (default: as the environment switches say, see
    /// [`crate::tools::features`]).
    pub fn features(mut self, features: Features) -> Self {
        self.features = features;
        self
    }

    /// Whether a person follows the session as it runs, as in the window (default: no, as in `tandem -p`): a
    /// shell command still running at its timeout then moves to the background instead of being killed, and
    /// Notification hooks fire when the model has waited idle for the person's next prompt.
    pub fn interactive(mut self, on: bool) -> Self {
        self.interactive = on;
        self
    }

    /// Whether the host shows a terminal panel, as the window does (default: no, as in `tandem -p`): with the
    /// `TERMINAL_PANEL` switch on, the panel can then be opened ([`Session::terminal_panel`]) and TerminalCapture
    /// reads it; without a panel TerminalCapture says there is none in a command-line run.
    pub fn window_panel(mut self, on: bool) -> Self {
        self.window_panel = on;
        self
    }

    /// Why the session starts, as SessionStart hooks are told (default: `resume` for a stored session, else
    /// `startup`; the window says `clear` for a new session that replaces the one the person cleared).
    pub fn start_source(mut self, source: StartSource) -> Self {
        self.start_source = Some(source);
        self
    }

    /// How long the model waits for the next prompt before Notification hooks hear of it, where a person follows
    /// the session (default [`IDLE_NOTIFICATION_AFTER`]).
    pub fn idle_notification_after(mut self, after: Duration) -> Self {
        self.idle_after = Some(after);
        self
    }

    /// The spending budget to watch (default: none; the window and the command line pass what the person's
    /// settings file says, see [`crate::settings::AppSettingsFile::budget`]). Watched only when the session is
    /// stored: what was spent is read from the store.
    pub fn budget(mut self, budget: BudgetSettings) -> Self {
        self.budget = budget;
        self
    }

    /// Which checklist tools the model is offered (default: as the environment switch says, see
    /// [`crate::tools::work_list::TASKS_ENV`]).
    pub fn work_list(mut self, family: WorkListFamily) -> Self {
        self.work_list = family;
        self
    }

    /// Takes the fields of [`SessionOptions`] (the id and folder only for a new session).
    pub fn options(mut self, options: SessionOptions) -> Self {
        if let Some(id) = options.id {
            self.id = Some(id);
        }
        self.model_config = options.model;
        self.mode = Some(options.mode);
        self.approver = options.approver;
        self.events = options.events;
        if self.store.is_none() {
            self.store = options.store;
        }
        self.watch_settings = options.watch_settings;
        self
    }

    /// Connects the model (unless one was given) and builds the session. A missing API key is not an error here:
    /// the first prompt reports it.
    pub fn build(mut self) -> Result<Session, SessionError> {
        let model = match self.model.take() {
            Some(model) => model,
            None => crate::model::connect(self.model_config.clone())?,
        };
        Ok(self.assemble_with(model))
    }

    /// Builds the session around `model`.
    pub(super) fn assemble_with(mut self, model: Arc<dyn Model>) -> Session {
        let id = self.session_id();
        let mut lists = (Vec::new(), Vec::new());
        let default_source = match self.start {
            Start::New { .. } => StartSource::Startup,
            Start::Resume { .. } => StartSource::Resume,
        };
        let mut first_prompt_id = 0;
        let mut stale_unreadable = false;
        let (cwd, recorder, history, usage, stored_mode, closing) = match self.start {
            Start::New { cwd } => {
                let recorder = self.store.as_ref().map(|store| {
                    Arc::new(SessionRecorder::new(
                        store.clone(),
                        NewSession {
                            id: id.clone(),
                            folder: cwd.clone(),
                            model: model.model_name().to_string(),
                            mode: self.mode.unwrap_or_default(),
                        },
                    ))
                });
                (
                    cwd,
                    recorder,
                    Vec::new(),
                    Usage::default(),
                    None,
                    Vec::new(),
                )
            }
            Start::Resume {
                store,
                loaded,
                cwd,
                lock,
            } => {
                let recorder = Arc::new(SessionRecorder::resume(store, &loaded).holding(lock));
                let closing: Vec<SessionEvent> = closing::closing_events(&loaded.events);
                stale_unreadable = super::handles::announced_some(&loaded.events);
                let mut loaded = *loaded;
                lists = (loaded.todos.clone(), loaded.tasks.clone());
                // A history stored before prompts kept their ids gets the ids it had (the next sync stores them).
                prompt_ids::mark_legacy(&mut loaded.history);
                first_prompt_id = prompt_ids::first_free(&loaded.history, &loaded.events);
                (
                    cwd,
                    Some(recorder),
                    loaded.history,
                    loaded.record.usage,
                    Some(loaded.record.mode),
                    closing,
                )
            }
        };
        let session = Session::assemble(Parts {
            id,
            cwd,
            model,
            model_config: self.model_config,
            mode: self.mode.or(stored_mode).unwrap_or_default(),
            approver: self.approver,
            events: self.events,
            watch_settings: self.watch_settings,
            command_line: self.command_line,
            assume_trusted: self.assume_trusted,
            plugins_dir: self.plugins_dir,
            mcp: self.mcp,
            extra_tools: self.extra_tools,
            tool_search: self.tool_search.unwrap_or_else(|| {
                ToolSearchMode::from_env(std::env::var("ENABLE_TOOL_SEARCH").ok().as_deref())
            }),
            recorder,
            history,
            first_prompt_id,
            usage,
            work_list: self.work_list,
            features: self.features,
            interactive: self.interactive,
            window_panel: self.window_panel,
            start_source: self.start_source.unwrap_or(default_source),
            idle_after: self
                .interactive
                .then(|| self.idle_after.unwrap_or(IDLE_NOTIFICATION_AFTER)),
            lists,
            budget: self.budget,
            runtime: self
                .runtime
                .or_else(|| tokio::runtime::Handle::try_current().ok()),
            remote_agents: self.remote_agents,
        });
        for event in closing {
            session.runtime.events.emit(event);
        }
        // The stored events name unreadable settings files that are fine now: the window would show them still.
        if stale_unreadable && session.settings().unreadable_settings().is_empty() {
            session.settings().announce_unreadable_settings();
        }
        session
    }
}
