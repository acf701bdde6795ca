//! Commands of the plugins panel: list the folder's installed plugins, turn one on or off.

use super::*;

/// Every installed plugin of the session's folder: on or off, the file that decides, what it brings, what is wrong.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn plugins_view(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::PluginListing>, CommandError> {
    Ok(session_of(&state, &session_id)?.panels().plugins_view())
}

/// Turns plugin `id` on or off in the settings file that holds the choice; returns the plugins as they are then.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn set_plugin_enabled(
    state: State<'_, AppState>,
    session_id: String,
    id: String,
    enabled: bool,
) -> Result<Vec<tandem_protocol::PluginListing>, CommandError> {
    session_of(&state, &session_id)?
        .panels()
        .set_plugin_enabled(&id, enabled)
        .map_err(|e| {
            CommandError::new(
                ErrorCode::Settings,
                format!("the plugin was not switched: {e}"),
            )
        })
}
