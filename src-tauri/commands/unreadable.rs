//! Commands of the notice for settings files that could not be read or parsed: list them, show what one holds, and
//! accept running without one until it changes on disk. The command line has no such door: it refuses to run.

use tandem_protocol::UnreadableSettingsFile;

use super::*;

fn settings_error(e: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Settings, e.to_string())
}

/// The settings files that could not be read or parsed, each with whether the person accepted running without it.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn unreadable_settings(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<UnreadableSettingsFile>, CommandError> {
    Ok(session_of(&state, &session_id)?
        .settings()
        .unreadable_settings())
}

/// Runs without the unreadable settings file `file` until it changes on disk; resolves to the files as they are now.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn accept_unreadable_settings(
    state: State<'_, AppState>,
    session_id: String,
    file: String,
) -> Result<Vec<UnreadableSettingsFile>, CommandError> {
    session_of(&state, &session_id)?
        .settings()
        .accept_unreadable_settings(&file)
        .map_err(settings_error)
}

/// What the unreadable settings file `file` holds now (or why it cannot be read).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn unreadable_settings_text(
    state: State<'_, AppState>,
    session_id: String,
    file: String,
) -> Result<String, CommandError> {
    session_of(&state, &session_id)?
        .settings()
        .unreadable_settings_text(&file)
        .map_err(settings_error)
}
