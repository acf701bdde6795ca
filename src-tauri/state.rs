//! The app's shared state: open sessions, questions waiting for an answer, the folder from the command line and
//! the recent folders.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tandem_engine::model::ModelConfig;
use tandem_engine::session::Session;
use tandem_engine::settings::AppSettingsFile;
use tandem_engine::store::SessionStore;

use crate::bridge::{PendingApprovals, SessionSinks};
use crate::hosted::HostedTabs;
use crate::recent;

/// How long after closing a session a reopen of it waits for its store lock (which goes when the session's end,
/// SessionEnd hooks included, is over) instead of reporting it in use.
pub const LATELY_CLOSED: Duration = Duration::from_secs(30);

/// State managed by Tauri and shared by all commands.
pub struct AppState {
    /// The open sessions (the window's tabs), by id; a turn may run in each of them at the same time.
    pub sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// When each session closed lately was closed (its store lock goes when its end is over).
    pub closed: Mutex<HashMap<String, Instant>>,
    /// The event sinks of the open sessions (events the webview missed are read from them).
    pub sinks: SessionSinks,
    pub approvals: PendingApprovals,
    /// The agents of the open sessions whose turns an external agent runs (hosted tabs, remote folders).
    pub hosted: HostedTabs,
    pub initial_folder: Option<PathBuf>,
    /// The remote folder from the command line (`tandem ssh://user@host/path`).
    pub initial_remote: Option<String>,
    /// The folder the app was started in: a remote session opened without a tab shown is stored under it.
    pub launch_dir: PathBuf,
    /// The command that replaces `ssh` for remote folders (`TANDEM_SSH_COMMAND` when it is set; tests).
    pub ssh_command: Option<String>,
    /// Where recent folders are kept (`None`: not remembered).
    pub recent_file: Option<PathBuf>,
    /// A model configuration that replaces settings and environment (tests).
    pub model_override: Option<ModelConfig>,
    /// Where sessions are kept; `None` when the store could not be opened (sessions then live in memory only).
    pub store: Option<Arc<SessionStore>>,
    /// Why the store could not be opened, to tell the person.
    pub store_problem: Option<String>,
    /// The person's Tandem settings (connection, key, looks); `None` without a configuration folder.
    pub settings_file: Option<AppSettingsFile>,
}

impl AppState {
    /// State for a run started on `initial_folder`.
    pub fn new(initial_folder: Option<PathBuf>) -> Self {
        let recent_file = std::env::var_os("TANDEM_RECENT_FILE")
            .map(PathBuf::from)
            .or_else(recent::recent_file);
        Self {
            sessions: Mutex::new(HashMap::new()),
            closed: Mutex::default(),
            sinks: SessionSinks::default(),
            approvals: PendingApprovals::default(),
            hosted: HostedTabs::default(),
            initial_folder,
            initial_remote: None,
            // A desktop launch may start in `/`: the home folder stands in for it.
            launch_dir: std::env::current_dir()
                .ok()
                .filter(|dir| dir.parent().is_some())
                .or_else(dirs::home_dir)
                .unwrap_or_else(|| PathBuf::from("/")),
            ssh_command: std::env::var(tandem_engine::hosted::remote::SSH_COMMAND_VAR).ok(),
            recent_file,
            model_override: None,
            store: None,
            store_problem: None,
            settings_file: AppSettingsFile::standard(),
        }
    }

    /// State whose sessions are kept in the default store in the app's data directory.
    pub fn with_default_store(initial_folder: Option<PathBuf>) -> Self {
        let mut state = Self::new(initial_folder);
        match SessionStore::open_default() {
            Ok(store) => state.store = Some(Arc::new(store)),
            Err(e) => state.store_problem = Some(format!("sessions will not be saved: {e}")),
        }
        state
    }

    /// The model configuration for a new session, and a problem with the settings file if there is one.
    pub fn model_config(&self) -> (ModelConfig, Option<String>) {
        match &self.model_override {
            Some(config) => (config.clone(), None),
            None => match &self.settings_file {
                Some(file) => file.model_config(|k| std::env::var(k).ok()),
                None => tandem_engine::settings::load_model_config(),
            },
        }
    }

    /// The session with `id`.
    pub fn session(&self, id: &str) -> Option<Arc<Session>> {
        self.sessions.lock().ok().and_then(|s| s.get(id).cloned())
    }

    /// Records that the session `id` was closed now.
    pub fn closed_now(&self, id: &str) {
        if let Ok(mut closed) = self.closed.lock() {
            closed.retain(|_, at| at.elapsed() < LATELY_CLOSED);
            closed.insert(id.to_string(), Instant::now());
        }
    }

    /// Whether the session `id` was closed lately (its store lock may still be held while its end runs).
    pub fn is_closing(&self, id: &str) -> bool {
        self.closed.lock().is_ok_and(|closed| {
            closed
                .get(id)
                .is_some_and(|at| at.elapsed() < LATELY_CLOSED)
        })
    }

    /// Recently opened folders, most recent first.
    pub fn recent_folders(&self) -> Vec<String> {
        self.recent_file
            .as_deref()
            .map(recent::load)
            .unwrap_or_default()
    }
}
