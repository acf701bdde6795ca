//! The commands the webview invokes. Each is a few lines that call the engine, inside a tracing span named after
//! the command with its small arguments (ids, paths, modes; never prompts or channels); errors are logged.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use tandem_engine::session::Session;
use tandem_protocol::{
    ApprovalAnswer, ChangedFile, DecisionBehavior, EventBatch, FolderTrust, PermissionMode,
    RewindOutcome, RewindPoint, RewindScope, RuleScope, SessionEvent, SessionInfo, SessionSummary,
};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};
use tracing::Instrument;
use ts_rs::TS;

use crate::bridge::{ChannelSink, WindowApprover};
use crate::error::{CommandError, ErrorCode};
use crate::recent;
use crate::state::AppState;

/// What the window needs to know when it starts.
#[derive(Debug, Clone, Serialize, TS)]
pub struct AppStateView {
    /// The folder given on the command line.
    pub folder: Option<String>,
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
        recent: state.recent_folders(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// Opens a session on `path` (or reopens the stored session `resume`); its events arrive on `on_event`. A
/// reopened session first replays its stored events, so the window rebuilds its transcript.
#[tauri::command]
#[tracing::instrument(skip(app, state, on_event), err(Display))]
pub fn open_session<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    path: String,
    on_event: Channel<EventBatch>,
    resume: Option<String>,
) -> Result<SessionInfo, CommandError> {
    let (model, settings_problem) = state.model_config();
    // The window shows one session at a time: sessions no turn is running in are closed, which releases their
    // store lock (so the same session can be reopened) and stops their MCP servers.
    let mut just_closed = false;
    if let Ok(mut sessions) = state.sessions.lock() {
        sessions.retain(|id, session| {
            let keep = Arc::strong_count(session) > 1;
            just_closed |= !keep && resume.as_deref() == Some(id.as_str());
            keep
        });
        if let Some(id) = &resume
            && sessions.contains_key(id)
        {
            return Err(CommandError::new(
                ErrorCode::SessionBusy,
                "a turn is still running in that session; wait for it to end or stop it, then open it again",
            ));
        }
    }
    let approver = Arc::new(WindowApprover(state.approvals.clone()));
    let mut builder = match (resume, &state.store) {
        (Some(id), Some(store)) => resume_released(store, &id, just_closed)?,
        (Some(_), None) => {
            return Err(CommandError::new(
                ErrorCode::Store,
                "sessions cannot be reopened: the session store is not available",
            ));
        }
        (None, _) => Session::builder(&PathBuf::from(&path))?.store(state.store.clone()),
    };
    let session_id = builder.session_id();
    let sink = match builder.stored() {
        Some(loaded) => {
            let sink = ChannelSink::starting_at(session_id, on_event, loaded.next_seq());
            sink.replay(loaded.events.iter().map(|e| (e.seq, e.event.clone())));
            sink
        }
        None => ChannelSink::new(session_id, on_event),
    };
    let session = builder
        .model(model)
        .approver(approver)
        .events(Arc::new(sink))
        .watch_settings(true)
        .build()?;
    for problem in settings_problem
        .into_iter()
        .chain(state.store_problem.clone())
    {
        session
            .runtime()
            .events
            .emit(SessionEvent::Error { message: problem });
    }
    let info = session.info();
    if let Some(file) = &state.recent_file
        && let Ok(list) = recent::remember(file, &info.cwd)
    {
        crate::menu::refresh_recent(&app, &list);
    }
    if let Ok(mut sessions) = state.sessions.lock() {
        sessions.insert(info.session_id.clone(), Arc::new(session));
    }
    Ok(info)
}

/// Reopens the stored session `id`. When this window has just closed it, its store lock is let go a moment later
/// (as its last tasks end): wait for that, briefly, instead of reporting the session as in use.
fn resume_released(
    store: &Arc<tandem_engine::store::SessionStore>,
    id: &str,
    just_closed: bool,
) -> Result<tandem_engine::session::SessionBuilder, tandem_engine::session::SessionError> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    loop {
        match Session::resuming(store.clone(), id) {
            Err(tandem_engine::session::SessionError::Store(
                tandem_engine::store::StoreError::InUse(_),
            )) if just_closed && std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// The stored sessions of the folder `path`, newest first (empty when sessions are not stored).
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn list_sessions(
    state: State<'_, AppState>,
    path: String,
) -> Result<Vec<SessionSummary>, CommandError> {
    let Some(store) = &state.store else {
        return Ok(Vec::new());
    };
    let cwd = tandem_engine::session::open_folder(&PathBuf::from(&path))?;
    let sessions = store
        .list_sessions(&cwd)
        .map_err(tandem_engine::session::SessionError::from)?;
    Ok(sessions.iter().map(|s| s.to_protocol()).collect())
}

/// Shows the native folder picker; `None` when cancelled.
#[tauri::command]
#[tracing::instrument(skip_all)]
pub async fn pick_folder<R: Runtime>(app: AppHandle<R>) -> Option<String> {
    crate::menu::pick_folder(&app).await
}

fn session_of(state: &State<'_, AppState>, id: &str) -> Result<Arc<Session>, CommandError> {
    state
        .session(id)
        .ok_or_else(|| CommandError::new(ErrorCode::NoSession, format!("no session {id} is open")))
}

/// Starts a turn; its events stream on the session's channel. Returns once the turn has started.
#[tauri::command]
#[tracing::instrument(skip(state, prompt), fields(prompt_chars = prompt.chars().count()), err(Display))]
pub fn send_prompt(
    state: State<'_, AppState>,
    session_id: String,
    prompt: String,
) -> Result<(), CommandError> {
    let session = session_of(&state, &session_id)?;
    tauri::async_runtime::spawn(
        async move {
            // Failures are reported to the window as events by the engine.
            let _ = session.send(&prompt).await;
        }
        .in_current_span(),
    );
    Ok(())
}

#[tauri::command]
#[tracing::instrument(
    skip_all,
    fields(request_id = %answer.request_id, choice = ?answer.choice),
    err(Display)
)]
pub fn answer_approval(
    state: State<'_, AppState>,
    answer: ApprovalAnswer,
) -> Result<(), CommandError> {
    if state.approvals.answer(answer) {
        Ok(())
    } else {
        Err(CommandError::new(
            ErrorCode::NoRequest,
            "that question is no longer waiting for an answer",
        ))
    }
}

#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn interrupt(state: State<'_, AppState>, session_id: String) -> Result<(), CommandError> {
    session_of(&state, &session_id)?.interrupt();
    Ok(())
}

/// Stops one sub-agent (started by the Agent call `id`, or the background task `id`); the turn goes on. Returns
/// whether it was running.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn stop_sub_agent(
    state: State<'_, AppState>,
    session_id: String,
    id: String,
) -> Result<bool, CommandError> {
    Ok(session_of(&state, &session_id)?.stop_sub_agent(&id))
}

#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn set_mode(
    state: State<'_, AppState>,
    session_id: String,
    mode: PermissionMode,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?.set_mode(mode);
    Ok(())
}

/// The prompts the session can be rewound to, oldest first.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub async fn rewind_points(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<RewindPoint>, CommandError> {
    Ok(session_of(&state, &session_id)?.rewind_points().await)
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
        .rewind(&prompt_id, scope, force)
        .await
        .map_err(|e| CommandError::new(ErrorCode::Rewind, e.to_string()))
}

/// Records that the person trusts the session's folder: its allow rules, directories and hooks apply at once.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn trust_folder(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<FolderTrust, CommandError> {
    let session = session_of(&state, &session_id)?;
    session
        .trust_folder()
        .map_err(|e| CommandError::new(ErrorCode::Trust, format!("trust was not saved: {e}")))?;
    Ok(session.folder_trust())
}

/// Withdraws the person's trust in the session's folder.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn revoke_trust(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<FolderTrust, CommandError> {
    let session = session_of(&state, &session_id)?;
    session.revoke_trust().map_err(|e| {
        CommandError::new(ErrorCode::Trust, format!("trust was not withdrawn: {e}"))
    })?;
    Ok(session.folder_trust())
}

/// Every file the session changed, with its text before the session's first change and now.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn session_changes(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<ChangedFile>, CommandError> {
    session_of(&state, &session_id)?
        .changes()
        .map_err(|e| CommandError::new(ErrorCode::Changes, e.to_string()))
}

fn store_of(
    state: &State<'_, AppState>,
) -> Result<Arc<tandem_engine::store::SessionStore>, CommandError> {
    state.store.clone().ok_or_else(|| {
        CommandError::new(
            ErrorCode::Store,
            "sessions are not stored: the session store is not available",
        )
    })
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

/// The person's decision about the agent's plan (approve and leave plan mode, or keep planning).
#[tauri::command]
#[tracing::instrument(skip_all, fields(request_id = %answer.request_id), err(Display))]
pub fn answer_plan(
    state: State<'_, AppState>,
    answer: tandem_protocol::PlanAnswer,
) -> Result<(), CommandError> {
    if state.approvals.answer_plan(answer) {
        Ok(())
    } else {
        Err(CommandError::new(
            ErrorCode::NoRequest,
            "that plan is no longer waiting for a review",
        ))
    }
}

/// The person's answers to the agent's questions (or their refusal to answer).
#[tauri::command]
#[tracing::instrument(skip_all, fields(request_id = %answer.request_id), err(Display))]
pub fn answer_questions(
    state: State<'_, AppState>,
    answer: tandem_protocol::QuestionAnswer,
) -> Result<(), CommandError> {
    if state.approvals.answer_questions(answer) {
        Ok(())
    } else {
        Err(CommandError::new(
            ErrorCode::NoRequest,
            "those questions are no longer waiting for answers",
        ))
    }
}

/// The session's MCP servers: state, transport, tools.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn mcp_servers(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::McpServerStatus>, CommandError> {
    Ok(session_of(&state, &session_id)?.mcp_servers())
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
        .approve_mcp_server(&name, approved)
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
        .set_mcp_tool_enabled(&tool, enabled)
        .map_err(|e| CommandError::new(ErrorCode::Mcp, format!("the choice was not saved: {e}")))
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
        .allow_sandbox_violation(&violation)
        .map(|added| added.value)
        .map_err(|e| CommandError::new(ErrorCode::Settings, format!("it was not allowed: {e}")))
}

/// Stops an MCP server and starts it again.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn reconnect_mcp_server(
    state: State<'_, AppState>,
    session_id: String,
    name: String,
) -> Result<(), CommandError> {
    session_of(&state, &session_id)?.reconnect_mcp_server(&name);
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
    let started = session.sign_in_mcp_server(&name).await.map_err(|e| {
        CommandError::new(ErrorCode::Mcp, format!("the sign-in could not start: {e}"))
    })?;
    Ok(McpSignIn {
        authorization_url: started.authorization_url,
        open_error: started.open_error,
    })
}

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

/// The worktrees agents left with changes, for the person to merge or discard.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn kept_worktrees(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::KeptWorktree>, CommandError> {
    Ok(session_of(&state, &session_id)?.kept_worktrees())
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
        session.merge_worktree(&branch)
    } else {
        session.discard_worktree(&branch)
    };
    outcome.map_err(|e| CommandError::new(ErrorCode::Worktree, e.to_string()))
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
    Ok(session_of(&state, &session_id)?.rules_view())
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
    Ok(session_of(&state, &session_id)?.check_call(&tool, &input))
}

/// Every configured hook by event, with its source and a sample input.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn hooks_view(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<tandem_protocol::HookListing>, CommandError> {
    Ok(session_of(&state, &session_id)?.hooks_view())
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
        .test_hook(&event, &command, &input)
        .await
        .map_err(|e| CommandError::new(ErrorCode::Hooks, e.to_string()))
}
