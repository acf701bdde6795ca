//! Commands that organise a folder's stored sessions: collections (the sidebar's folders, nested), moving a session
//! into one, pins, tags and the archive. Each is one write to the store; errors carry the store's reason.

use std::path::Path;

use tandem_engine::store::{Collection, StoreError};
use tandem_protocol::SessionCollection;

use super::*;

fn store_error(err: StoreError) -> CommandError {
    let code = match err {
        StoreError::UnknownSession(_) => ErrorCode::UnknownSession,
        _ => ErrorCode::Store,
    };
    CommandError::new(code, err.to_string())
}

fn to_protocol(collection: Collection) -> SessionCollection {
    SessionCollection {
        id: collection.id,
        parent_id: collection.parent_id,
        name: collection.name,
    }
}

/// The collections of the folder `path`.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn list_collections(
    state: State<'_, AppState>,
    path: String,
) -> Result<Vec<SessionCollection>, CommandError> {
    let Some(store) = &state.store else {
        return Ok(Vec::new());
    };
    let cwd = tandem_engine::session::open_folder(Path::new(&path))?;
    Ok(store
        .collections(&cwd)
        .map_err(store_error)?
        .into_iter()
        .map(to_protocol)
        .collect())
}

/// Makes a collection in the folder `path`, inside `parent_id` (the top level when `None`).
#[tauri::command]
#[tracing::instrument(skip(state, name), err(Display))]
pub fn create_collection(
    state: State<'_, AppState>,
    path: String,
    name: String,
    parent_id: Option<i64>,
) -> Result<SessionCollection, CommandError> {
    let cwd = tandem_engine::session::open_folder(Path::new(&path))?;
    store_of(&state)?
        .create_collection(&cwd, &name, parent_id)
        .map(to_protocol)
        .map_err(store_error)
}

#[tauri::command]
#[tracing::instrument(skip(state, name), err(Display))]
pub fn rename_collection(
    state: State<'_, AppState>,
    id: i64,
    name: String,
) -> Result<(), CommandError> {
    store_of(&state)?
        .rename_collection(id, &name)
        .map_err(store_error)
}

/// Deletes a collection; its sessions and collections move up to its parent.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn delete_collection(state: State<'_, AppState>, id: i64) -> Result<(), CommandError> {
    store_of(&state)?.delete_collection(id).map_err(store_error)
}

/// Puts a stored session into a collection of its folder (the top level when `None`).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn move_session(
    state: State<'_, AppState>,
    session_id: String,
    collection_id: Option<i64>,
) -> Result<(), CommandError> {
    store_of(&state)?
        .move_session(&session_id, collection_id)
        .map_err(store_error)
}

#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn set_session_pinned(
    state: State<'_, AppState>,
    session_id: String,
    pinned: bool,
) -> Result<(), CommandError> {
    store_of(&state)?
        .set_pinned(&session_id, pinned)
        .map_err(store_error)
}

/// Archives a stored session (kept whole, listed apart) or restores it.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn set_session_archived(
    state: State<'_, AppState>,
    session_id: String,
    archived: bool,
) -> Result<(), CommandError> {
    store_of(&state)?
        .set_archived(&session_id, archived)
        .map_err(store_error)
}

/// Replaces a stored session's tags; returns them as stored.
#[tauri::command]
#[tracing::instrument(skip(state, tags), err(Display))]
pub fn set_session_tags(
    state: State<'_, AppState>,
    session_id: String,
    tags: Vec<String>,
) -> Result<Vec<String>, CommandError> {
    store_of(&state)?
        .set_tags(&session_id, &tags)
        .map_err(store_error)
}
