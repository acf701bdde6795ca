//! Commands for sessions whose turns an external agent runs: the agents the settings configure (for "New Session
//! with…") and opening a hosted session — with one of them, or with Tandem on another machine over SSH (a remote
//! folder). The session is an ordinary stored one; its agent lives in the app's hosted tabs (`crate::hosted`).

use tandem_engine::hosted::{Door, Spawned, StoredHosted, Wiring, configured_agents, no_own_mcp};
use tandem_engine::session::SessionBuilder;

use super::*;
use crate::hosted::HostedTab;

/// The agents "New Session with…" offers.
#[derive(Debug, Clone, Serialize, TS)]
pub struct AgentServers {
    /// The names configured under `agentServers`, sorted.
    pub names: Vec<String>,
    /// Why the list may be incomplete: the settings file cannot be read, or an entry is not an agent.
    pub problem: Option<String>,
    /// Tandem's settings file, where agents are configured (`None` without a configuration folder).
    pub settings_file: Option<String>,
}

/// The agents configured under `agentServers` in Tandem's settings file (read afresh each time).
#[tauri::command]
#[tracing::instrument(skip_all)]
pub fn agent_servers(state: State<'_, AppState>) -> AgentServers {
    let (names, problem) = match configured_agents(state.settings_file.as_ref()) {
        Ok(servers) => (servers.into_keys().collect(), None),
        Err(problem) => (Vec::new(), Some(problem)),
    };
    AgentServers {
        names,
        problem,
        settings_file: state
            .settings_file
            .as_ref()
            .map(|file| file.path().display().to_string()),
    }
}

/// Opens a session whose turns the agent `agent` (of `agentServers`) runs in the folder `path`, or — with `remote`
/// (`ssh://[user@]host[:port]/abs/path`) — Tandem on that machine runs in its folder there, the session stored here
/// under `path` (the folder the app was started in when `path` is absent). With `resume`, the stored session of that
/// id goes on with the agent that ran it (`agent` and `remote` are not needed): the agent is started again and
/// continues its own session (`session/load`), and the stored events are replayed first so the window rebuilds the
/// transcript. Its events arrive on `on_event`; its prompts go to the agent (`send_prompt`), `interrupt` cancels
/// the agent's turn and `close_session` ends the agent. Resolves once the agent has opened its session; `Err`
/// (code `agent`) says why it could not (for a remote, with the one command that installs Tandem there when that is
/// what is missing; for `resume`, an agent no longer configured or one that cannot load sessions), and nothing is
/// stored.
#[tauri::command]
#[tracing::instrument(skip(app, state, on_event), err(Display))]
pub async fn open_hosted_session<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    path: Option<String>,
    on_event: Channel<EventBatch>,
    agent: Option<String>,
    remote: Option<String>,
    resume: Option<String>,
) -> Result<SessionInfo, CommandError> {
    if let Some(id) = resume {
        return reopen(app, state, on_event, id).await;
    }
    let door = match (&agent, &remote) {
        (Some(name), None) => Door::agent(state.settings_file.as_ref(), name),
        (None, Some(url)) => Door::remote_with_ssh(url.trim(), state.ssh_command.clone()),
        _ => Err("name either an agent or a remote folder".to_string()),
    }
    .map_err(|message| CommandError::new(ErrorCode::Agent, message))?;
    let folder = match (path, &door) {
        (Some(path), _) => PathBuf::from(path),
        (None, Door::Remote(_)) => state.launch_dir.clone(),
        (None, Door::Agent { .. }) => {
            return Err(CommandError::new(
                ErrorCode::FolderMissing,
                "a hosted agent needs a folder to work in",
            ));
        }
    };
    let folder = tandem_engine::session::open_folder(&folder)?;
    // A remote's ssh connection is made while this side's session is built.
    let early = door
        .spawn_early(&folder)
        .map_err(|message| CommandError::new(ErrorCode::Agent, message))?;
    let builder = Session::builder(&folder)?.store(state.store.clone());
    start(app, &state, door, builder, on_event, early, None).await
}

/// Reopens the stored hosted session `id` with the agent that ran it (see [`open_hosted_session`]).
async fn reopen<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    on_event: Channel<EventBatch>,
    id: String,
) -> Result<SessionInfo, CommandError> {
    let Some(store) = state.store.clone() else {
        return Err(CommandError::new(
            ErrorCode::Store,
            "sessions cannot be reopened: the session store is not available",
        ));
    };
    if state.session(&id).is_some() {
        return Err(CommandError::new(
            ErrorCode::SessionBusy,
            "that session is open already: close its tab first",
        ));
    }
    let just_closed = state.is_closing(&id);
    let resumed = {
        let id = id.clone();
        tauri::async_runtime::spawn_blocking(move || {
            super::session::resume_released(&store, &id, just_closed)
        })
        .await
        .map_err(|e| CommandError::new(ErrorCode::Store, e.to_string()))?
    };
    let builder = resumed?;
    let stored = builder.stored().and_then(StoredHosted::of).ok_or_else(|| {
        CommandError::new(
            ErrorCode::Agent,
            format!("session {id} was run by Tandem's own agent, not by an external one"),
        )
    })?;
    let door = stored
        .door(state.settings_file.as_ref(), state.ssh_command.clone())
        .map_err(|message| CommandError::new(ErrorCode::Agent, message))?;
    let Some(agent_session) = stored.agent_session_id.clone() else {
        return Err(CommandError::new(
            ErrorCode::Agent,
            format!(
                "this session holds no session of {} to continue (it was stored before Tandem kept the agent's \
                 session id)",
                door.name()
            ),
        ));
    };
    let early = door
        .spawn_early(builder.cwd())
        .map_err(|message| CommandError::new(ErrorCode::Agent, message))?;
    let opened = start(
        app,
        &state,
        door,
        builder,
        on_event,
        early,
        Some(agent_session),
    )
    .await;
    if opened.is_err() {
        // Its store lock goes as the agent's connection winds down: a reopen meanwhile waits for it.
        state.closed_now(&id);
    }
    opened
}

/// Builds the session of `builder` (new, or a stored one whose events are replayed on `on_event` first) with `door`'s
/// agent, and starts the agent — continuing its session `load` when given. Once it is open the tab is the window's
/// and its SessionStart hooks run; `Err` (code `agent`): nothing more is stored.
async fn start<R: Runtime>(
    app: AppHandle<R>,
    state: &State<'_, AppState>,
    door: Door,
    mut builder: SessionBuilder,
    on_event: Channel<EventBatch>,
    early: Option<Spawned>,
    load: Option<String>,
) -> Result<SessionInfo, CommandError> {
    let session_id = builder.session_id();
    let sink = Arc::new(ChannelSink::new(session_id.clone(), on_event));
    if let Some(loaded) = builder.stored() {
        sink.replay(loaded.events.iter().map(|e| e.event.clone()));
    }
    let wiring = Wiring::new(
        Arc::new(WindowApprover(state.approvals.clone())),
        sink.clone(),
    );
    let (mut model, _) = state.model_config();
    model.model = door.model();
    let session = builder
        .model(model)
        .approver(wiring.approver.clone())
        .events(wiring.events.clone())
        // The agent has its own MCP servers.
        .mcp_config(no_own_mcp())
        .watch_settings(true)
        .interactive(true)
        .runtime(tauri::async_runtime::handle().inner().clone())
        .build()?;
    let session = Arc::new(session);
    state.sinks.insert(session_id.clone(), sink);
    if let Some(problem) = state.store_problem.clone() {
        session
            .runtime()
            .events
            .emit(SessionEvent::Error { message: problem });
    }
    let agent = match door
        .start(wiring.host(session.clone()), &[], early, load.as_deref())
        .await
    {
        Ok(agent) => agent,
        Err((_, message)) => {
            // Nothing was said to the agent: nothing is stored.
            state.sinks.remove(&session_id);
            return Err(CommandError::new(ErrorCode::Agent, message));
        }
    };
    let info = session.info();
    if matches!(door, Door::Agent { .. })
        && let Some(file) = &state.recent_file
        && let Ok(list) = recent::remember(file, &info.cwd)
    {
        crate::menu::refresh_recent(&app, &list);
    }
    // SessionStart hooks run now, as for Tandem's own tabs; their context goes ahead of the first prompt.
    let starting = session.clone();
    tauri::async_runtime::spawn(async move { starting.begin().await });
    let tab = Arc::new(HostedTab::new(door, session.clone(), agent));
    state.hosted.insert(session_id.clone(), tab);
    if let Ok(mut sessions) = state.sessions.lock() {
        sessions.insert(session_id, session);
    }
    Ok(info)
}
