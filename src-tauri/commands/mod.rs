//! The commands the webview invokes. Each is a few lines that call the engine, inside a tracing span named after
//! the command with its small arguments (ids, paths, modes; never prompts or channels); errors are logged.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use tandem_engine::session::{EndReason, HOSTED_MODEL_PREFIX, Session, StartSource};
use tandem_protocol::{
    ApprovalAnswer, BackgroundShell, ChangedFile, DecisionBehavior, EventBatch, EventEnvelope,
    FolderTrust, PermissionMode, RewindOutcome, RewindPoint, RewindScope, RuleScope, SessionEvent,
    SessionInfo, SessionSummary,
};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};
use tracing::Instrument;
use ts_rs::TS;

use crate::bridge::{ChannelSink, WindowApprover};
use crate::error::{CommandError, ErrorCode};
use crate::recent;
use crate::state::AppState;

pub mod carry;
pub mod history;
pub mod hosted;
pub mod mcp;
pub mod organise;
pub mod plugins;
pub mod prompt;
pub mod rules;
pub mod search;
pub mod session;
pub mod terminal;
pub mod unreadable;
pub mod usage;
pub mod worktrees;

/// What the window needs to know when it starts.
#[derive(Debug, Clone, Serialize, TS)]
pub struct AppStateView {
    /// The folder given on the command line.
    pub folder: Option<String>,
    /// The remote folder given on the command line (`ssh://user@host/path`).
    pub remote: Option<String>,
    pub recent: Vec<String>,
    pub version: String,
}

#[tauri::command]
#[tracing::instrument(skip_all)]
pub fn app_state(state: State<'_, AppState>) -> AppStateView {
    AppStateView {
        folder: state
            .initial_folder
            .as_ref()
            .map(|p| p.display().to_string()),
        remote: state.initial_remote.clone(),
        recent: state.recent_folders(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// Shows the native folder picker; `None` when cancelled.
#[tauri::command]
#[tracing::instrument(skip_all)]
pub async fn pick_folder<R: Runtime>(app: AppHandle<R>) -> Option<String> {
    crate::menu::pick_folder(&app).await
}

pub(crate) fn session_of(
    state: &State<'_, AppState>,
    id: &str,
) -> Result<Arc<Session>, CommandError> {
    state
        .session(id)
        .ok_or_else(|| CommandError::new(ErrorCode::NoSession, format!("no session {id} is open")))
}

pub(crate) fn store_of(
    state: &State<'_, AppState>,
) -> Result<Arc<tandem_engine::store::SessionStore>, CommandError> {
    state.store.clone().ok_or_else(|| {
        CommandError::new(
            ErrorCode::Store,
            "sessions are not stored: the session store is not available",
        )
    })
}
