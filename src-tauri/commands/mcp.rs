//! Commands on a session's MCP servers: their status, approval, per-tool switches, reconnecting, signing in.

use super::*;

/// The session's MCP servers: state, transport, tools.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn mcp_servers(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::McpServerStatus>, CommandError> {
    Ok(session_of(&state, &session_id)?.mcp().servers())
}

/// The person approves (or refuses) a project MCP server for this folder; it starts (or stops) at once.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn approve_mcp_server(
    state: State<'_, AppState>,
    session_id: String,
    name: String,
    approved: bool,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?
        .mcp()
        .approve(&name, approved)
        .map_err(|e| CommandError::new(ErrorCode::Mcp, format!("the answer was not saved: {e}")))
}

/// Turns one MCP tool off (or on again) for the model; saved in the project's local settings.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn set_mcp_tool_enabled(
    state: State<'_, AppState>,
    session_id: String,
    tool: String,
    enabled: bool,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?
        .mcp()
        .set_tool_enabled(&tool, enabled)
        .map_err(|e| CommandError::new(ErrorCode::Mcp, format!("the choice was not saved: {e}")))
}

/// Stops an MCP server and starts it again.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn reconnect_mcp_server(
    state: State<'_, AppState>,
    session_id: String,
    name: String,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?.mcp().reconnect(&name);
    Ok(())
}

/// A sign-in to an MCP server that has started: the page the browser was sent to, and why the browser could not be
/// opened (the window then shows the URL to open by hand).
#[derive(Debug, Clone, Serialize, TS)]
pub struct McpSignIn {
    pub authorization_url: String,
    pub open_error: Option<String>,
}

/// Starts signing in to a remote MCP server that needs it: its sign-in page opens in the browser, and the server
/// connects once the person has signed in there (its state follows in `McpServerChanged` events).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub async fn sign_in_mcp_server(
    state: State<'_, AppState>,
    session_id: String,
    name: String,
) -> Result<McpSignIn, CommandError> {
    let session = session_of(&state, &session_id)?;
    let started = session.mcp().sign_in(&name).await.map_err(|e| {
        CommandError::new(ErrorCode::Mcp, format!("the sign-in could not start: {e}"))
    })?;
    Ok(McpSignIn {
        authorization_url: started.authorization_url,
        open_error: started.open_error,
    })
}
