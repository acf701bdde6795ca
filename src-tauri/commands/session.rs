//! Commands that open, list and drive a session: prompts, answers to its questions, interrupts, the mode.

use super::*;

/// Opens a session on `path` (or reopens the stored session `resume`); its events arrive on `on_event`. A
/// reopened session first replays its stored events, so the window rebuilds its transcript. Sessions stay open side
/// by side (the window's tabs) until `close_session`: a turn runs in each on its own. `resume` naming a session that
/// is already open (the webview reloaded) sends its events to `on_event` from then on, all of them again first.
/// `replaces` names the open session this one takes the place of (the window's `/clear`): it is closed, and a new
/// session in its folder clears it (SessionEnd `clear`, SessionStart `clear`). A stored session an external agent ran
/// is not reopened here (`Err` with code `hosted_session`: `open_hosted_session` with `resume` continues it with its
/// agent) unless `own_agent` asks to go on with Tandem's own model.
#[tauri::command]
#[tracing::instrument(skip(app, state, on_event), err(Display))]
pub fn open_session<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    path: String,
    on_event: Channel<EventBatch>,
    resume: Option<String>,
    replaces: Option<String>,
    own_agent: Option<bool>,
) -> Result<SessionInfo, CommandError> {
    let (model, settings_problem) = state.model_config();
    let mut just_closed = resume.as_deref().is_some_and(|id| state.is_closing(id));
    if let Some(id) = &resume
        && let Some(open) = state.session(id)
    {
        // Open already (the webview reloaded): its events go to the new channel, all of them again.
        match state
            .sinks
            .get(id)
            .map(|sink| sink.reattach(on_event.clone()))
        {
            Some(Ok(())) => return Ok(open.info()),
            // Its first events are no longer kept: an idle session is closed and reopened from the store.
            _ if Arc::strong_count(&open) <= 2 => {
                drop(open);
                close(&state, id, EndReason::Other);
                just_closed = true;
            }
            _ => {
                return Err(CommandError::new(
                    ErrorCode::SessionBusy,
                    "a turn is still running in that session; wait for it to end or stop it, then open it again",
                ));
            }
        }
    }
    // A session an external agent ran goes on with that agent, unless the person chose Tandem's own.
    let own_agent = own_agent.unwrap_or(false);
    if let (Some(id), Some(store)) = (&resume, &state.store)
        && !own_agent
        && let Ok(Some(record)) = store.session(id)
        && let Some(agent) = record.model.strip_prefix(HOSTED_MODEL_PREFIX)
    {
        return Err(CommandError::new(
            ErrorCode::HostedSession,
            format!("session {id} was run by {agent}: it goes on with that agent"),
        ));
    }
    // The session this one replaces in its tab ends; a new session in its folder clears it.
    let folder = tandem_engine::session::open_folder(&PathBuf::from(&path)).ok();
    let replaced = replaces.as_deref().and_then(|id| state.session(id));
    let clears = resume.is_none()
        && replaced
            .as_ref()
            .is_some_and(|s| Some(s.cwd()) == folder.as_deref());
    drop(replaced);
    if let Some(id) = &replaces {
        let reason = if clears {
            EndReason::Clear
        } else {
            EndReason::Other
        };
        close(&state, id, reason);
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
    // A session an external agent ran goes on here with Tandem's own model, as the person chose.
    let hosted_by = builder.stored().and_then(|loaded| {
        loaded
            .record
            .model
            .strip_prefix(HOSTED_MODEL_PREFIX)
            .map(|agent| {
                format!(
                    "This session was run by {agent}; from here on, Tandem's own model answers its prompts \
                     (it sees the prompts and answers, not the agent's own tool calls)."
                )
            })
    });
    let sink = Arc::new(ChannelSink::new(session_id.clone(), on_event));
    if let Some(loaded) = builder.stored() {
        sink.replay(loaded.events.iter().map(|e| e.event.clone()));
    }
    state.sinks.insert(session_id, sink.clone());
    let builder = builder
        .model(model)
        .approver(approver)
        .remote_agents(tandem_engine::hosted::RemoteSubAgents::with_ssh(
            state.ssh_command.clone(),
        ))
        .events(sink)
        .watch_settings(true)
        .interactive(true)
        // The window shows the terminal panel (when TERMINAL_PANEL switches it on).
        .window_panel(true)
        .budget(
            state
                .settings_file
                .as_ref()
                .map(|file| file.budget())
                .unwrap_or_default(),
        )
        // Commands run outside the app's async runtime: the session's servers start on it, from whichever
        // command (opening, approving, reconnecting).
        .runtime(tauri::async_runtime::handle().inner().clone());
    let builder = if clears {
        builder.start_source(StartSource::Clear)
    } else {
        builder
    };
    let session = builder.build()?;
    for problem in settings_problem
        .into_iter()
        .chain(state.store_problem.clone())
    {
        session
            .runtime()
            .events
            .emit(SessionEvent::Error { message: problem });
    }
    if let Some(notice) = hosted_by {
        session
            .runtime()
            .events
            .emit(SessionEvent::Notice { message: notice });
    }
    // Keys of the person's settings file that are ignored for their type.
    for warning in state
        .settings_file
        .as_ref()
        .map(|file| file.warnings())
        .unwrap_or_default()
    {
        session
            .runtime()
            .events
            .emit(SessionEvent::Notice { message: warning });
    }
    let info = session.info();
    if let Some(file) = &state.recent_file
        && let Ok(list) = recent::remember(file, &info.cwd)
    {
        crate::menu::refresh_recent(&app, &list);
    }
    let session = Arc::new(session);
    // SessionStart hooks run now, not at the first prompt; their context waits for it.
    let starting = session.clone();
    tauri::async_runtime::spawn(async move { starting.begin().await });
    // A message for the session's agent (from its team) starts a turn when none runs, as a prompt would.
    tauri::async_runtime::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(
        &session,
    )));
    // The project's scheduled prompts (AGENT_TRIGGERS) start turns as they come due.
    tauri::async_runtime::spawn(tandem_engine::session::run_scheduled_prompts(
        Arc::downgrade(&session),
    ));
    if let Ok(mut sessions) = state.sessions.lock() {
        sessions.insert(info.session_id.clone(), session);
    }
    Ok(info)
}

/// Closes the open session `session_id` (the window closed its tab): a running turn is stopped, the session ends
/// (SessionEnd `other`) and its store lock goes when that is over. Closing a session that is not open does
/// nothing.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn close_session(state: State<'_, AppState>, session_id: String) -> Result<(), CommandError> {
    close(&state, &session_id, EndReason::Other);
    Ok(())
}

/// Takes the session `id` out of the open ones, stops its turn and ends it with `reason` on the app's runtime; its
/// store lock goes when the end is over (a reopen waits for that meanwhile).
fn close(state: &State<'_, AppState>, id: &str, reason: EndReason) {
    let Some(session) = state
        .sessions
        .lock()
        .ok()
        .and_then(|mut sessions| sessions.remove(id))
    else {
        return;
    };
    state.sinks.remove(id);
    state.closed_now(id);
    session.interrupt();
    match state.hosted.remove(id) {
        // The agent's process ends with its tab.
        Some(tab) => tauri::async_runtime::spawn(async move { tab.end(reason).await }),
        None => tauri::async_runtime::spawn(async move { session.end(reason).await }),
    };
}

/// The events of the open session `session_id` numbered after `after_seq` (`None`: all kept), for a window that
/// missed some: a gap in the numbers, or nothing heard while a turn runs. Asked every few seconds while a turn waits,
/// so it logs at debug level only.
#[tauri::command]
#[tracing::instrument(level = "debug", skip(state), err(Display))]
pub fn session_events(
    state: State<'_, AppState>,
    session_id: String,
    after_seq: Option<u64>,
) -> Result<Vec<EventEnvelope>, CommandError> {
    let sink = state.sinks.get(&session_id).ok_or_else(|| {
        CommandError::new(
            ErrorCode::NoSession,
            format!("no session {session_id} is open"),
        )
    })?;
    sink.since(after_seq).map_err(|missed| {
        CommandError::new(
            ErrorCode::EventsMissed,
            format!("the window missed events of this session that are no longer kept ({missed}): reopen it from the sidebar"),
        )
    })
}

/// Reopens the stored session `id`. When this window has just closed it, its store lock goes when its end is over
/// (its SessionEnd hooks have run): wait for that instead of reporting the session as in use.
pub(super) fn resume_released(
    store: &Arc<tandem_engine::store::SessionStore>,
    id: &str,
    just_closed: bool,
) -> Result<tandem_engine::session::SessionBuilder, tandem_engine::session::SessionError> {
    let deadline = std::time::Instant::now() + crate::state::LATELY_CLOSED;
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

/// Starts a turn with `images` (pasted or dropped into the prompt box: base64 as the window read them) before the
/// prompt's text; its events stream on the session's channel. The images are checked and sized down for the model
/// first (off the async threads): one that cannot be sent is the error, and nothing is sent. Returns once the turn
/// has started.
#[tauri::command]
#[tracing::instrument(
    skip(state, prompt, images),
    fields(prompt_chars = prompt.chars().count(), images = images.as_ref().map_or(0, Vec::len)),
    err(Display)
)]
pub async fn send_prompt(
    state: State<'_, AppState>,
    session_id: String,
    prompt: String,
    images: Option<Vec<tandem_protocol::PromptImage>>,
) -> Result<(), CommandError> {
    let session = session_of(&state, &session_id)?;
    let images = images.unwrap_or_default();
    let hosted = state.hosted.get(&session_id);
    if let Some(tab) = &hosted
        && !images.is_empty()
        && !tab.takes_images()
    {
        return Err(CommandError::new(
            ErrorCode::Image,
            format!(
                "{} does not take images (its ACP promptCapabilities offer no `image`): remove them to send the \
                 prompt, or describe what they show",
                tab.door().name()
            ),
        ));
    }
    let fitted = if images.is_empty() {
        Vec::new()
    } else {
        tauri::async_runtime::spawn_blocking(move || {
            tandem_engine::session::fit_prompt_images(&images)
        })
        .await
        .map_err(|e| CommandError::new(ErrorCode::Image, e.to_string()))?
        .map_err(|e| CommandError::new(ErrorCode::Image, e.to_string()))?
    };
    if let Some(tab) = hosted {
        let images: Vec<_> = fitted.into_iter().map(|f| f.into_image()).collect();
        tauri::async_runtime::spawn(
            async move { tab.prompt(&prompt, &images).await }.in_current_span(),
        );
        return Ok(());
    }
    tauri::async_runtime::spawn(
        async move {
            // Failures are reported to the window as events by the engine.
            let _ = session.send_with_images(&prompt, fitted).await;
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
    if let Some(tab) = state.hosted.get(&session_id) {
        tab.interrupt();
    }
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
    Ok(session_of(&state, &session_id)?.agents().stop(&id))
}

/// Moves the running Bash command of call `tool_use_id` (every running one when absent: the window's key) to the
/// background; the call ends with the task's id and the turn goes on. Returns how many were moved.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn send_to_background(
    state: State<'_, AppState>,
    session_id: String,
    tool_use_id: Option<String>,
) -> Result<usize, CommandError> {
    Ok(session_of(&state, &session_id)?
        .shells()
        .send_to_background(tool_use_id.as_deref()))
}

/// The session's background shells, oldest first.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn background_shells(
    state: State<'_, AppState>,
    session_id: String,
) -> Result<Vec<BackgroundShell>, CommandError> {
    Ok(session_of(&state, &session_id)?
        .shells()
        .background_shells())
}

/// The tail of one background shell's raw output (terminal escapes kept); `null` when there is no such shell.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn background_shell_output(
    state: State<'_, AppState>,
    session_id: String,
    task_id: String,
) -> Result<Option<String>, CommandError> {
    Ok(session_of(&state, &session_id)?
        .shells()
        .background_shell_output(&task_id))
}

/// Stops one background shell with every process it started; returns whether it was running.
#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn stop_background_shell(
    state: State<'_, AppState>,
    session_id: String,
    task_id: String,
) -> Result<bool, CommandError> {
    Ok(session_of(&state, &session_id)?
        .shells()
        .stop_background_shell(&task_id))
}

#[tauri::command]
#[tracing::instrument(skip(state), err(Display))]
pub fn set_mode(
    state: State<'_, AppState>,
    session_id: String,
    mode: PermissionMode,
) -> Result<(), CommandError> {
    let session = session_of(&state, &session_id)?;
    if mode == PermissionMode::Auto && !session.auto_mode_available() {
        return Err(CommandError::new(
            ErrorCode::Model,
            "auto mode needs a model to judge the calls that would ask: set up the model in Settings first",
        ));
    }
    session.set_mode(mode);
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

/// The person's answer to an MCP server's form (send the values, decline or cancel).
#[tauri::command]
#[tracing::instrument(skip_all, fields(request_id = %answer.request_id), err(Display))]
pub fn answer_elicitation(
    state: State<'_, AppState>,
    answer: tandem_protocol::ElicitationAnswer,
) -> Result<(), CommandError> {
    if state.approvals.answer_form(answer) {
        Ok(())
    } else {
        Err(CommandError::new(
            ErrorCode::NoRequest,
            "that form is no longer waiting for an answer",
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
