//! The settings dialog's commands: read the person's Tandem settings, and save them — the connection applied to
//! every open session at once (and the budget), the key kept in the keyring or an owner-only file.

use serde::Serialize;
use tandem_engine::settings::AppSettingsFile;
use tandem_protocol::{AppSettings, AppSettingsUpdate, SessionInfo};
use tauri::State;
use ts_rs::TS;

use crate::error::{CommandError, ErrorCode};
use crate::state::AppState;

/// The settings after a save, and each open session as it now is (its model, its setup hint).
#[derive(Debug, Clone, Serialize, TS)]
pub struct SavedSettings {
    pub settings: AppSettings,
    pub sessions: Vec<SessionInfo>,
}

fn settings_file(state: &AppState) -> Result<&AppSettingsFile, CommandError> {
    state.settings_file.as_ref().ok_or_else(|| {
        CommandError::new(
            ErrorCode::Settings,
            "this system has no configuration folder to keep settings in",
        )
    })
}

fn settings_error(error: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Settings, error.to_string())
}

/// The person's settings as the dialog shows them.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn app_settings(state: State<'_, AppState>) -> Result<AppSettings, CommandError> {
    settings_file(&state)?
        .read(|k| std::env::var(k).ok())
        .map_err(settings_error)
}

/// Saves the settings and points every open session at the model and the budget they describe (a turn already
/// streaming finishes where it started).
#[tauri::command]
#[tracing::instrument(skip(state, update), err(Display))]
pub fn save_app_settings(
    state: State<'_, AppState>,
    update: AppSettingsUpdate,
) -> Result<SavedSettings, CommandError> {
    let file = settings_file(&state)?;
    file.save(&update).map_err(settings_error)?;
    let settings = file
        .read(|k| std::env::var(k).ok())
        .map_err(settings_error)?;
    let (config, problem) = state.model_config();
    if let Some(problem) = problem {
        return Err(settings_error(problem));
    }
    let open: Vec<_> = state
        .sessions
        .lock()
        .map(|s| s.values().cloned().collect())
        .unwrap_or_default();
    let mut sessions = Vec::with_capacity(open.len());
    let budget = file.budget();
    for session in open {
        session.set_budget(budget);
        session.set_model_config(config.clone()).map_err(|e| {
            settings_error(format!("saved, but the model could not be set up: {e}"))
        })?;
        sessions.push(session.info());
    }
    Ok(SavedSettings { settings, sessions })
}
