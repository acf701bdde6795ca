//! Commands on the worktrees agents left with changes: list them, merge or discard one.

use super::*;

/// The worktrees agents left with changes, for the person to merge or discard.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn kept_worktrees(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::KeptWorktree>, CommandError> {
    Ok(session_of(&state, &session_id)?.agents().kept_worktrees())
}

/// Merges a kept worktree's branch into the project's current branch and removes the worktree (`merge`), or
/// removes it with its branch, dropping its changes.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn settle_worktree(
    state: State<'_, AppState>,
    session_id: String,
    branch: String,
    merge: bool,
) -> Result<(), CommandError> {
    let session = session_of(&state, &session_id)?;
    let outcome = if merge {
        session.agents().merge_worktree(&branch)
    } else {
        session.agents().discard_worktree(&branch)
    };
    outcome.map_err(|e| CommandError::new(ErrorCode::Worktree, e.to_string()))
}
