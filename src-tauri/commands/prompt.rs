//! Commands that feed the prompt box and the tool list: slash commands, `@` completions, the tools offered.

use super::*;

/// The session's slash commands for the prompt box's `/` menu, each with its source and argument hint: the
/// engine's own, the custom commands, the skills and the MCP servers' prompts (a prompt `/name args` runs one).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn slash_commands(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::SlashCommand>, CommandError> {
    Ok(session_of(&state, &session_id)?.slash_commands())
}

/// The most `@` completions offered at once.
const MENTION_COMPLETIONS: usize = 30;

/// What `@query` in the prompt box may complete to: the folder's files (`.gitignore` respected), then MCP
/// servers as `server:`. Lists the folder off the async threads.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub async fn complete_mention(
    state: State<'_, AppState>,
    session_id: String,
    query: String,
) -> Result<Vec<tandem_protocol::MentionCompletion>, CommandError> {
    let session = session_of(&state, &session_id)?;
    let listed = tauri::async_runtime::spawn_blocking(move || {
        session.complete_mention(&query, MENTION_COMPLETIONS)
    })
    .await;
    Ok(listed.unwrap_or_else(|e| {
        tracing::warn!("listing the folder's files failed: {e}");
        Vec::new()
    }))
}

/// Every tool of the session: whether the model is offered it now, and why not.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn tool_list(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::ToolListing>, CommandError> {
    Ok(session_of(&state, &session_id)?.tool_list())
}
