//! Commands on a session's history: rewind points and rewinding, the files it changed, rename, fork, delete.

use super::*;

/// The prompts the session can be rewound to, oldest first.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub async fn rewind_points(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<RewindPoint>, CommandError> {
    Ok(session_of(&state, &session_id)?
        .checkpoints()
        .rewind_points()
        .await)
}

/// Rewinds the session's files, conversation or both to before prompt `prompt_id`. Files changed outside Tandem
/// stop it unless `force` (the outcome lists them, and nothing changed).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub async fn rewind(
    state: State<'_, AppState>,
    session_id: String,
    prompt_id: String,
    scope: RewindScope,
    force: bool,
) -> Result<RewindOutcome, CommandError> {
    let session = session_of(&state, &session_id)?;
    session
        .checkpoints()
        .rewind(&prompt_id, scope, force)
        .await
        .map_err(|e| CommandError::new(ErrorCode::Rewind, e.to_string()))
}

/// Every file the session changed, with its text before the session's first change and now.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn session_changes(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<ChangedFile>, CommandError> {
    session_of(&state, &session_id)?
        .checkpoints()
        .changes()
        .map_err(|e| CommandError::new(ErrorCode::Changes, e.to_string()))
}

/// Renames a stored session.
#[tauri::command]
#[tracing::instrument(skip(state, title), err(Display))]
pub fn rename_session(
    state: State<'_, AppState>,
    session_id: String,
    title: String,
) -> Result<(), CommandError> {
    if title.trim().is_empty() {
        return Err(CommandError::new(
            ErrorCode::Store,
            "a session needs a title",
        ));
    }
    store_of(&state)?
        .rename_session(&session_id, &title)
        .map_err(|e| CommandError::new(ErrorCode::Store, e.to_string()))
}

/// Forks a stored session before prompt `prompt_id` (the whole conversation without one) into a new session on the
/// same folder and returns its id; the window then opens it. The original is not changed.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn fork_session(
    state: State<'_, AppState>,
    session_id: String,
    prompt_id: Option<String>,
) -> Result<String, CommandError> {
    tandem_engine::session::fork::fork(&*store_of(&state)?, &session_id, prompt_id.as_deref())
        .map_err(|e| {
            CommandError::new(ErrorCode::Store, format!("the session was not forked: {e}"))
        })
}

/// Deletes a stored session with its files (checkpoints, saved results). A session with a running turn is kept.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn delete_session(state: State<'_, AppState>, session_id: String) -> Result<(), CommandError> {
    let store = store_of(&state)?;
    // The id names a folder below the app's data directory: only a stored session's plain id may.
    let plain = !session_id.is_empty()
        && session_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let stored = store
        .session(&session_id)
        .map_err(|e| CommandError::new(ErrorCode::Store, e.to_string()))?
        .is_some();
    if !plain || !stored {
        return Err(CommandError::new(
            ErrorCode::UnknownSession,
            format!("no stored session {session_id}"),
        ));
    }
    if let Ok(mut sessions) = state.sessions.lock()
        && let Some(open) = sessions.remove(&session_id)
    {
        // Anyone else holding the session is a turn still running in it.
        if Arc::strong_count(&open) > 1 {
            sessions.insert(session_id, open);
            return Err(CommandError::new(
                ErrorCode::SessionBusy,
                "a turn is running in that session; stop it before deleting the session",
            ));
        }
    }
    state.sinks.retain(|id| id != session_id);
    store
        .delete_session(&session_id)
        .map_err(|e| CommandError::new(ErrorCode::Store, e.to_string()))?;
    let dir = tandem_engine::session::session_dir(&session_id);
    if let Err(e) = std::fs::remove_dir_all(&dir)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        tracing::warn!("the files of session {session_id} were not removed: {e}");
    }
    Ok(())
}
