//! Commands of the rules and hooks panels and the folder's trust: view, add, remove and move rules, test a call
//! or a hook, allow a sandbox refusal, trust or revoke the folder.

use super::*;

/// Records that the person trusts the session's folder: its allow rules, directories and hooks apply at once.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn trust_folder(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<FolderTrust, CommandError> {
    let session = session_of(&state, &session_id)?;
    session
        .settings()
        .trust_folder()
        .map_err(|e| CommandError::new(ErrorCode::Trust, format!("trust was not saved: {e}")))?;
    Ok(session.settings().folder_trust())
}

/// Withdraws the person's trust in the session's folder.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn revoke_trust(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<FolderTrust, CommandError> {
    let session = session_of(&state, &session_id)?;
    session.settings().revoke_trust().map_err(|e| {
        CommandError::new(ErrorCode::Trust, format!("trust was not withdrawn: {e}"))
    })?;
    Ok(session.settings().folder_trust())
}

/// The person allows what the shell sandbox refused (a host or a folder): saved to the project's local settings and
/// in force at once. Returns the value added.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn allow_sandbox_violation(
    state: State<'_, AppState>,
    session_id: String,
    violation: tandem_protocol::SandboxViolation,
) -> Result<String, CommandError> {
    session_of(&state, &session_id)?
        .settings()
        .allow_sandbox_violation(&violation)
        .map(|added| added.value)
        .map_err(|e| CommandError::new(ErrorCode::Settings, format!("it was not allowed: {e}")))
}

fn rules_error(e: tandem_engine::permission::SaveError) -> CommandError {
    CommandError::new(ErrorCode::Rules, e.to_string())
}

/// Every rule of every settings source with its scope, file and conflicts; the editable files; the folder's trust.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn rules_view(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<tandem_protocol::RulesView, CommandError> {
    Ok(session_of(&state, &session_id)?.panels().rules_view())
}

/// Adds a rule to the settings file of `scope` (checked by the rule parser); it applies at once.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn add_rule(
    state: State<'_, AppState>,
    session_id: String,
    scope: RuleScope,
    behavior: DecisionBehavior,
    rule: String,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?
        .panels()
        .add_rule(scope, behavior, &rule)
        .map_err(rules_error)
}

/// Removes a rule from the settings file of `scope`.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn remove_rule(
    state: State<'_, AppState>,
    session_id: String,
    scope: RuleScope,
    behavior: DecisionBehavior,
    rule: String,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?
        .panels()
        .remove_rule(scope, behavior, &rule)
        .map_err(rules_error)
}

/// Moves a rule from the settings file of `from` to that of `to`.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn move_rule(
    state: State<'_, AppState>,
    session_id: String,
    from: RuleScope,
    to: RuleScope,
    behavior: DecisionBehavior,
    rule: String,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?
        .panels()
        .move_rule(from, to, behavior, &rule)
        .map_err(rules_error)
}

/// What the rules in force answer for a call, with the decision's trace; nothing runs.
#[tauri::command]
#[tracing::instrument(skip(state, input), err(Display))]
pub fn check_call(
    state: State<'_, AppState>,
    session_id: String,
    tool: String,
    input: serde_json::Value,
) -> Result<tandem_protocol::CallCheck, CommandError> {
    Ok(session_of(&state, &session_id)?
        .panels()
        .check_call(&tool, &input))
}

/// Every configured hook by event, with its source and a sample input.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn hooks_view(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::HookListing>, CommandError> {
    Ok(session_of(&state, &session_id)?.panels().hooks_view())
}

/// Runs one configured hook for real on `input` and says what it did and would decide.
#[tauri::command]
#[tracing::instrument(skip(state, input), err(Display))]
pub async fn test_hook(
    state: State<'_, AppState>,
    session_id: String,
    event: String,
    command: String,
    input: serde_json::Value,
) -> Result<tandem_protocol::HookTestResult, CommandError> {
    let session = session_of(&state, &session_id)?;
    session
        .panels()
        .test_hook(&event, &command, &input)
        .await
        .map_err(|e| CommandError::new(ErrorCode::Hooks, e.to_string()))
}
