//! A session: one conversation on one project folder, with its model, tools, permission context, approval door and
//! event sink. The desktop app, the command line and tests all drive the engine through this type.

mod agents;
mod assemble;
mod budget_watch;
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
mod handles;
mod hosted;
mod lead_mail;
pub mod lifecycle;
mod mcp_toggles;
mod prompt_ids;
mod prompt_images;
mod prompt_input;
mod prompt_menu;
pub mod rewind;
mod scheduled;
mod skill_finder;
pub mod slash;
pub mod transcript;
mod turn;

pub use agents::{RemoteAgents, RemoteConversation, RemoteDoor};
pub use builder::SessionBuilder;
pub use handles::{
    AgentsHandle, CheckpointsHandle, HookTestError, McpHandle, PanelsHandle, PluginSwitchError,
    SHELL_OUTPUT_TAIL_BYTES, SettingsHandle, ShellsHandle,
};
pub use hosted::{HOSTED_MODEL_PREFIX, HostedMention, is_hosted_model};
pub use lead_mail::wake_for_mail;
pub use lifecycle::{EndReason, IDLE_NOTIFICATION_AFTER, StartSource};
pub use prompt_images::{
    FittedImage, ImageError, MAX_BYTES as MAX_IMAGE_BYTES, MAX_EDGE as MAX_IMAGE_EDGE, fit_image,
    fit_prompt_images,
};
pub use scheduled::{Fired, run_scheduled_prompts};

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tandem_protocol::{PermissionMode, SessionInfo};
use tokio_util::sync::CancellationToken;

use crate::approver::Approver;
use crate::checkpoint::CheckpointStore;
use crate::events::EventSink;
use crate::exec::ToolRuntime;
use crate::mcp::McpManager;
use crate::model::{Message, Model, ModelConfig, ModelError, SwitchableModel};
use crate::registry;
use crate::store::{SessionRecorder, SessionStore, StoreError};
use crate::tools::bash::ShellSession;
use crate::tools::skill::LiveSkills;
use crate::tools::terminal_panel::{PanelHost, PanelSlot};
use crate::tools::work_list::WorkBoard;
use custom_commands::CommandCatalog;
use file_index::FileIndex;
use handles::{AgentsState, SettingsState};

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

/// A conversation on a project folder. The session keeps the conversation, the tool runtime and the store; a caller
/// takes a handle for each other concern: [`Session::settings`], [`Session::mcp`], [`Session::checkpoints`],
/// [`Session::agents`], [`Session::panels`], [`Session::shells`].
pub struct Session {
    id: String,
    cwd: PathBuf,
    models: ModelHandles,
    runtime: ToolRuntime,
    catalogs: Catalogs,
    turn: turn::TurnState,
    settings: SettingsState,
    recorder: Option<Arc<SessionRecorder>>,
    /// The spending budget's watch (`None`: the session is not stored, so nothing it spends is counted).
    budget_watch: Option<Arc<budget_watch::BudgetWatch>>,
    /// Where the file tools keep earlier contents (`None`: the store could not be opened; rewinds find nothing).
    checkpoints: Option<Arc<CheckpointStore>>,
    /// The agent's checklist (to-do list or task list).
    work_board: Arc<WorkBoard>,
    /// The MCP servers; dropped with the session, which kills their processes.
    mcp: McpManager,
    agents: AgentsState,
    /// The shell state: the running foreground commands and the background shells.
    shell: Arc<ShellSession>,
    /// The transcript file hooks read.
    transcript: Arc<transcript::TranscriptFile>,
    /// Where the session is in its life (SessionStart, SessionEnd, idle notifications).
    lifecycle: lifecycle::Lifecycle,
    /// Cancelled when the session is dropped (what waits beside it ends).
    closed: CancellationToken,
    /// The window's terminal panel (its shell is killed when the session is dropped or ends).
    terminal_panel: Arc<PanelSlot>,
    /// Ends what the tools started (the WebBrowser tool's browser) when the session is dropped, even where a tool
    /// outlives the session.
    _tool_guards: Vec<crate::tools::web_browser::SessionGuard>,
    /// The runs of RemoteTrigger's triggers (when it is offered): the scheduler starts those that come due.
    remote_runs: Option<Arc<crate::tools::remote_trigger::RemoteRuns>>,
}

/// How a session reaches its model.
struct ModelHandles {
    /// The conversation's model (stores the history as it grows and writes the transcript hooks read).
    conversation: Arc<dyn Model>,
    /// Where [`Session::set_model_config`] sends the next requests (every model handle of the session goes through it).
    switch: Arc<SwitchableModel>,
    config: Mutex<ModelConfig>,
}

/// What the person and the model can invoke by name, and the folder's files for `@` completion.
struct Catalogs {
    /// The skills the model and the person may invoke.
    skills: Arc<LiveSkills>,
    /// The person's own slash commands (`.claude/commands`).
    commands: CommandCatalog,
    /// The folder's files, for `@` completion.
    file_index: FileIndex,
    /// Tools this session cannot have, with why (shown in the tool list).
    missing_tools: Vec<(String, String)>,
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

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The skills the person may invoke as `/name args` (names and descriptions).
    pub fn skills(&self) -> Vec<(String, String)> {
        self.catalogs.skills.snapshot().summaries()
    }

    /// Every tool of the session: offered to the model or not, and why not.
    pub fn tool_list(&self) -> Vec<registry::ToolListing> {
        let ctx = self.runtime.permission_context();
        registry::tool_listing(
            &self.runtime.pool,
            |name| ctx.rules.hides(name),
            &self.runtime.deferred,
            &self.catalogs.missing_tools,
        )
    }

    /// The tool runtime (tools, permissions, doors) of this session.
    pub fn runtime(&self) -> &ToolRuntime {
        &self.runtime
    }

    /// How this session reaches its model.
    pub fn model_config(&self) -> ModelConfig {
        self.models
            .config
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Sends this session's next requests to the model `config` describes (the person changed the settings); a
    /// request already streaming finishes where it started. On error (an invalid configuration) nothing changes.
    pub fn set_model_config(&self, config: ModelConfig) -> Result<(), SessionError> {
        self.models
            .switch
            .switch_to(crate::model::connect(config.clone())?);
        *self
            .models
            .config
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = config;
        Ok(())
    }

    /// Watches `budget` from the next model request on (the person saved a new budget); a session that is not
    /// stored watches none.
    pub fn set_budget(&self, budget: crate::settings::BudgetSettings) {
        if let Some(watch) = &self.budget_watch {
            watch.set_settings(budget);
        }
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
            model: self.models.conversation.model_name().to_string(),
            mode: self.runtime.permission_context().mode,
            // A hosted agent runs its own model: Tandem's model settings are not needed.
            setup_hint: if self.is_hosted() {
                None
            } else {
                self.model_config().setup_hint()
            },
            trust: self.settings().folder_trust(),
            context_window: self.turn.config.compaction.context_window,
            compact_at_percent: u32::try_from(self.turn.config.compaction.threshold_percent)
                .unwrap_or(u32::MAX),
            auto_mode_available: self.auto_mode_available(),
            terminal_panel: self.terminal_panel.host() == PanelHost::Window,
        }
    }

    /// Whether auto mode can judge calls: a classifier is attached and its model can be reached (auto mode's
    /// classifier asks the session's model, so it needs what the session needs: a key, or a chosen local model).
    pub fn auto_mode_available(&self) -> bool {
        self.runtime.permission_context().auto_available()
            && !self.is_hosted()
            && self.model_config().setup_hint().is_none()
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

    /// Sets when the conversation is compacted.
    pub fn set_compaction_policy(&mut self, policy: crate::query::compact::CompactionPolicy) {
        self.turn.config.compaction = policy;
    }

    /// Limits how many model requests one turn may make.
    pub fn set_max_turns(&mut self, max_turns: u32) {
        self.turn.config.max_turns = max_turns.max(1);
    }

    /// The settings and the folder's trust.
    pub fn settings(&self) -> SettingsHandle<'_> {
        SettingsHandle {
            cwd: &self.cwd,
            state: &self.settings,
            runtime: &self.runtime,
            mcp: &self.mcp,
        }
    }

    /// The MCP servers.
    pub fn mcp(&self) -> McpHandle<'_> {
        McpHandle {
            mcp: &self.mcp,
            settings: &self.settings,
        }
    }

    /// The file checkpoints, the changes view and rewinds.
    pub fn checkpoints(&self) -> CheckpointsHandle<'_> {
        CheckpointsHandle {
            store: self.checkpoints.as_ref(),
            history: &self.turn.history,
            runtime: &self.runtime,
            recorder: self.recorder.as_ref(),
            attribution: &self.agents.attribution,
        }
    }

    /// The sub-agents and the worktrees agents left.
    pub fn agents(&self) -> AgentsHandle<'_> {
        AgentsHandle {
            id: &self.id,
            cwd: &self.cwd,
            runtime: &self.runtime,
            recorder: self.recorder.as_ref(),
        }
    }

    /// What the rules, hooks and work-list panels show and change.
    pub fn panels(&self) -> PanelsHandle<'_> {
        PanelsHandle {
            id: &self.id,
            settings: &self.settings,
            runtime: &self.runtime,
            work_board: &self.work_board,
        }
    }

    /// The running foreground commands and the background shells.
    pub fn shells(&self) -> ShellsHandle<'_> {
        ShellsHandle { shell: &self.shell }
    }

    /// The window's terminal panel: opened, typed into, resized and closed by the window, read by TerminalCapture.
    /// Its host is [`PanelHost::Off`] unless the `TERMINAL_PANEL` switch is on.
    pub fn terminal_panel(&self) -> &Arc<PanelSlot> {
        &self.terminal_panel
    }

    /// A copy of the conversation so far.
    pub async fn history(&self) -> Vec<Message> {
        self.turn.history.lock().await.clone()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.closed.cancel();
        self.terminal_panel.close();
        if let Some(teams) = &self.agents.teams {
            teams.stop_all();
        }
        // A session that is not stored can never be rewound once it ends.
        if self.recorder.is_none() {
            cleanup::drop_unstored(&session_dir(&self.id));
        }
    }
}

/// The folder where a session keeps its files (saved tool results), in the app's data directory.
pub fn session_dir(id: &str) -> PathBuf {
    crate::fsutil::app_data_dir_or_temp()
        .join("sessions")
        .join(id)
}
