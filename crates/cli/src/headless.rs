//! `tandem -p PROMPT`: one headless turn in a folder, printed as text, JSON or a stream of JSON events.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use tandem_engine::approver::{Approver, NoAnswer};
use tandem_engine::events::{EventSink, JsonLinesSink};
use tandem_engine::mcp::{Limits, McpCliConfig, PromptToolApprover};
use tandem_engine::permission::CliSettings;
use tandem_engine::query::{QueryError, TurnOutcome};
use tandem_engine::session::{
    EndReason, FittedImage, Session, SessionBuilder, SessionError, fit_image,
};
use tandem_engine::settings::AppSettingsFile;
use tandem_engine::store::{SessionStore, StoreError};
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, McpServerState, PlanAnswer, PlanRequest,
    QuestionAnswer, QuestionRequest, SessionEvent, TurnStopReason,
};
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio_util::sync::CancellationToken;

use super::{Cli, OutputFormat, terminal};

/// Answers every question the same way and tells stderr about it.
pub struct StderrApprover {
    pub yes: bool,
}

impl Approver for StderrApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let choice = if self.yes {
            ApprovalChoice::Allow
        } else {
            ApprovalChoice::Deny
        };
        let answer = if self.yes {
            "yes (--yes)"
        } else {
            "no (no one to ask; pass --yes or a permission mode)"
        };
        eprintln!("tandem: {}; answered {answer}", asked_line(&request));
        Box::pin(async move { ApprovalAnswer::new(request.id, choice) })
    }

    fn review_plan(&self, _request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        eprintln!(
            "tandem: a plan was presented for approval; nobody can approve it in a headless run"
        );
        Box::pin(async { Err(headless()) })
    }

    fn ask_questions(
        &self,
        _request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        eprintln!("tandem: the agent asked questions; nobody can answer them in a headless run");
        Box::pin(async { Err(headless()) })
    }
}

/// The first line of `stream-json` output, once the MCP servers had their start-up time: the session, folder,
/// model and mode, the tools the model is offered (a switched-off tool is not among them), the MCP servers and the
/// plugins that are on.
fn init_line(session: &Session) -> Value {
    let info = session.info();
    let tools: Vec<String> = session
        .tool_list()
        .into_iter()
        .filter(|t| t.offered)
        .map(|t| t.name)
        .collect();
    let servers: Vec<Value> = session
        .mcp()
        .servers()
        .into_iter()
        .map(|s| json!({"name": s.name, "state": s.state}))
        .collect();
    let plugins: Vec<Value> = session
        .settings()
        .plugins()
        .active()
        .map(|p| json!({"name": p.name, "id": p.id, "path": p.root}))
        .collect();
    json!({
        "type": "system",
        "subtype": "init",
        "session_id": info.session_id,
        "cwd": info.cwd,
        "model": info.model,
        "permission_mode": info.mode,
        "tools": tools,
        "mcp_servers": servers,
        "plugins": plugins,
    })
}

/// What stderr says about a permission question: what was asked, why, and which sub-agent asked it.
pub(crate) fn asked_line(request: &ApprovalRequest) -> String {
    let by = request
        .sub_agent
        .as_ref()
        .map(|origin| format!(" (asked by {})", origin.label()))
        .unwrap_or_default();
    format!(
        "permission asked for {}{by}: {}",
        request.title, request.reason
    )
}

/// Why nobody answers plans and questions on the command line.
fn headless() -> NoAnswer {
    NoAnswer("this is a headless run (tandem -p / tandem tool) with no person to answer".into())
}

/// Reports errors and denials on stderr when the output is not a stream.
pub(crate) struct StderrSink;

impl EventSink for StderrSink {
    fn emit(&self, event: SessionEvent) {
        match event {
            SessionEvent::Retrying {
                attempt,
                wait_ms,
                reason,
            } => {
                eprintln!(
                    "tandem: {reason}; retry {attempt} in {:.1} s",
                    wait_ms as f64 / 1000.0
                )
            }
            SessionEvent::Notice { message } => eprintln!("tandem: {message}"),
            SessionEvent::Brief { message, .. } => eprintln!("tandem: brief: {message}"),
            SessionEvent::UserFile { path, caption, .. } => match caption {
                Some(caption) => eprintln!("tandem: file for you: {path} ({caption})"),
                None => eprintln!("tandem: file for you: {path}"),
            },
            SessionEvent::PushNotification { title, message } => {
                eprintln!("tandem: notification: {title}: {message}")
            }
            SessionEvent::McpServerChanged { server } => match server.state {
                McpServerState::Failed { error, stderr_tail } => {
                    eprintln!("tandem: MCP server {} failed: {error}", server.name);
                    if let Some(tail) = stderr_tail {
                        eprintln!("{tail}");
                    }
                }
                McpServerState::NeedsApproval => eprintln!(
                    "tandem: MCP server {} (from {}) is not started: approve it in the window, or list it in \
                     enabledMcpjsonServers",
                    server.name, server.source
                ),
                _ => {}
            },
            _ => {}
        }
    }
}

/// A run stopped by a signal: the shell's exit code for it (128 + its number), once one came.
#[derive(Default)]
pub(crate) struct Stop {
    code: AtomicI32,
    token: CancellationToken,
}

impl Stop {
    pub(crate) fn code(&self) -> Option<i32> {
        Some(self.code.load(Ordering::SeqCst)).filter(|c| *c != 0)
    }

    /// Cancelled by the first signal.
    pub(crate) fn token(&self) -> &CancellationToken {
        &self.token
    }
}

/// Writes a line on stderr, ignoring a closed or hung-up terminal (after SIGHUP there may be none).
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The signals that stop a run, listened to from the run's start (a signal that comes before the session is open is
/// kept until it is).
struct Signals {
    int: Signal,
    term: Signal,
    hup: Signal,
}

impl Signals {
    fn install() -> Option<Self> {
        Some(Self {
            int: signal(SignalKind::interrupt()).ok()?,
            term: signal(SignalKind::terminate()).ok()?,
            hup: signal(SignalKind::hangup()).ok()?,
        })
    }
}

/// The first Ctrl-C (SIGINT), SIGTERM or hang-up (SIGHUP) stops the run: nothing more is waited for (a session in
/// use, MCP servers starting) and the turn is interrupted (its tools stopped, the session stored as it is; see
/// [`send_until_stopped`]). A second signal exits at once.
async fn stop_on_signals(signals: Option<Signals>, stop: Arc<Stop>) {
    let Some(Signals {
        mut int,
        mut term,
        mut hup,
    }) = signals
    else {
        return;
    };
    let code = tokio::select! {
        _ = int.recv() => 130,
        _ = term.recv() => 143,
        _ = hup.recv() => 129,
    };
    stop.code.store(code, Ordering::SeqCst);
    stop.token.cancel();
    if code == 130 {
        say("tandem: interrupting (Ctrl-C again to quit at once)");
    }
    tokio::select! {
        _ = int.recv() => std::process::exit(130),
        _ = term.recv() => std::process::exit(143),
        _ = hup.recv() => std::process::exit(129),
    }
}

/// Sends `prompt` with `images`; when a signal stops the run, interrupts the turn (again, should it have begun after
/// the signal) until it ends.
pub(crate) async fn send_until_stopped(
    session: &Session,
    prompt: &str,
    images: Vec<FittedImage>,
    stop: &Stop,
) -> Result<TurnOutcome, QueryError> {
    let send = session.send_with_images(prompt, images);
    tokio::pin!(send);
    tokio::select! {
        sent = &mut send => sent,
        _ = stop.token.cancelled() => loop {
            session.interrupt();
            if let Ok(sent) = tokio::time::timeout(Duration::from_millis(50), &mut send).await {
                break sent;
            }
        },
    }
}

/// The session `--resume` or `--continue` names, if any.
fn resumed_session(
    cli: &Cli,
    store: Option<&SessionStore>,
    cwd: &std::path::Path,
) -> Result<Option<String>, String> {
    if cli.resume.is_none() && !cli.continue_latest {
        return Ok(None);
    }
    let store = store.ok_or("sessions cannot be resumed: the session store is not available")?;
    if let Some(id) = &cli.resume {
        return match store.session(id) {
            Ok(Some(_)) => Ok(Some(id.clone())),
            Ok(None) => Err(format!("no stored session {id}")),
            Err(e) => Err(e.to_string()),
        };
    }
    let folder = tandem_engine::session::open_folder(cwd).map_err(|e| e.to_string())?;
    match store.latest_session(&folder) {
        Ok(Some(latest)) => Ok(Some(latest.record.id)),
        Ok(None) => Err(format!("{} has no session to continue", folder.display())),
        Err(e) => Err(e.to_string()),
    }
}

/// The `--image` files, each read and fitted for the model; `Err` says which cannot be sent and why.
pub(crate) fn read_images(paths: &[PathBuf]) -> Result<Vec<FittedImage>, String> {
    paths
        .iter()
        .map(|path| {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
            fit_image(&name, &bytes).map_err(|e| e.to_string())
        })
        .collect()
}

/// How long `--continue`/`--resume` waits for another process to finish with the session.
const IN_USE_DEADLINE: Duration = Duration::from_secs(600);

/// Reopens session `id`, waiting while another process has it open (one writer per session), up to
/// [`IN_USE_DEADLINE`].
pub(crate) async fn resume_when_free(
    store: &Arc<SessionStore>,
    id: &str,
    stop: &Stop,
) -> Result<SessionBuilder, SessionError> {
    let deadline = tokio::time::Instant::now() + IN_USE_DEADLINE;
    let mut told = false;
    loop {
        match Session::resuming(store.clone(), id) {
            Err(SessionError::Store(StoreError::InUse(_)))
                if tokio::time::Instant::now() < deadline =>
            {
                if !told {
                    eprintln!(
                        "tandem: session {id} is in use by another Tandem process; waiting for it to finish"
                    );
                    told = true;
                }
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_millis(100)) => {}
                    _ = stop.token.cancelled() => return Err(SessionError::Store(StoreError::InUse(id.to_string()))),
                }
            }
            other => return other,
        }
    }
}

/// The store's first failure in this run, after the last writes are committed.
pub(crate) async fn store_failure(store: Option<&SessionStore>) -> Option<String> {
    let store = store?;
    if let Err(e) = store.flush_async().await {
        return Some(e.to_string());
    }
    store.failure()
}

/// Runs the turn and returns the exit code.
pub async fn run(cli: &Cli, prompt: &str) -> i32 {
    let stop = Arc::new(Stop::default());
    let on_signal = tokio::spawn(stop_on_signals(Signals::install(), stop.clone()));
    let code = run_until_stopped(cli, prompt, &stop).await;
    on_signal.abort();
    match stop.code() {
        Some(code) => {
            // The run stopped cleanly (running tools stopped, the session stored): the shell's code for the signal.
            say("tandem: interrupted");
            code
        }
        None => code,
    }
}

async fn run_until_stopped(cli: &Cli, prompt: &str, stop: &Stop) -> i32 {
    if cli.agent.is_some() || cli.remote.is_some() {
        return crate::hosted::run(cli, prompt, stop).await;
    }
    let cwd = match &cli.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| ".".into()),
    };
    let structured = match cli
        .json_schema
        .as_deref()
        .map(crate::structured::output_tool)
    {
        None => None,
        Some(Ok(tool)) => Some(tool),
        Some(Err(message)) => {
            eprintln!("tandem: {message}");
            return 2;
        }
    };
    // The images are read and sized before anything starts: one that cannot be sent ends the run, nothing sent.
    let images = match read_images(&cli.images) {
        Ok(images) => images,
        Err(message) => {
            eprintln!("tandem: {message}");
            return 2;
        }
    };
    let (mut model, problem) = tandem_engine::settings::load_model_config();
    if let Some(problem) = problem {
        eprintln!("tandem: ignoring the settings file: {problem}");
    }
    for warning in tandem_engine::settings::app_settings_warnings() {
        eprintln!("tandem: {warning}");
    }
    if let Some(name) = &cli.model {
        model.model = name.clone();
    }
    let store = match SessionStore::open_default() {
        Ok(store) => Some(Arc::new(store)),
        Err(e) => {
            eprintln!(
                "tandem: the session database cannot be opened, so nothing would be saved: {e}"
            );
            return 1;
        }
    };
    let resume_id = match resumed_session(cli, store.as_deref(), &cwd) {
        Ok(id) => id,
        Err(message) => {
            eprintln!("tandem: {message}");
            return 2;
        }
    };
    let builder = match (&resume_id, &store) {
        (Some(id), Some(store)) => resume_when_free(store, id, stop).await,
        _ => Session::builder(&cwd),
    };
    let mut builder = match builder {
        Ok(b) => b,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    let session_id = builder.session_id();
    let first_seq = builder.stored().map(|l| l.next_seq()).unwrap_or(0);
    let events: Arc<dyn EventSink> = match cli.output_format {
        OutputFormat::StreamJson => Arc::new(JsonLinesSink::new(session_id.clone(), first_seq)),
        _ => Arc::new(StderrSink),
    };
    let Some(RunApprover {
        approver,
        prompt_tool,
    }) = run_approver(cli)
    else {
        return 2;
    };
    let opened = builder
        .model(model)
        .mode(cli.permission_mode)
        .approver(approver)
        .remote_agents(tandem_engine::hosted::RemoteSubAgents::standard())
        .events(events)
        .store(store.clone())
        .watch_settings(true)
        .budget(
            AppSettingsFile::standard()
                .map(|file| file.budget())
                .unwrap_or_default(),
        )
        .command_line(CliSettings {
            allowed_tools: cli.allowed_tools.clone(),
            disallowed_tools: cli.disallowed_tools.clone(),
            mode: None,
            add_dirs: cli.add_dirs.clone(),
        })
        .mcp_config(McpCliConfig {
            configs: cli.mcp_config.clone(),
            strict: cli.strict_mcp_config,
        })
        .extra_tools(structured.iter().map(|(tool, _)| tool.clone()).collect())
        // Command-line runs treat the folder as trusted (docs/permissions.md §2).
        .assume_trusted()
        .build();
    let mut session = match opened {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    if let Some(message) =
        crate::permissions::unreadable_settings(&session.runtime().permission_context())
    {
        eprintln!("tandem: {message}");
        return 1;
    }
    if let Some(n) = cli.max_turns {
        session.set_max_turns(n);
    }
    if let Some(approver) = &prompt_tool {
        approver.bind(session.mcp().links());
    }
    // One prompt only: give the MCP servers their start-up time so that it sees their tools (unless the run is
    // stopped meanwhile).
    tokio::select! {
        _ = session.mcp().wait_until_usable(Limits::from_env().startup) => {}
        _ = stop.token.cancelled() => {}
    }
    if stop.code().is_some() {
        return 1;
    }
    if cli.output_format == OutputFormat::StreamJson {
        println!("{}", init_line(&session));
    }
    let sent = match (
        send_until_stopped(&session, prompt, images, stop).await,
        &structured,
    ) {
        (Ok(outcome), Some((_, answer))) => {
            crate::structured::until_answered(&session, answer, outcome, stop).await
        }
        (sent, _) => sent,
    };
    let answer = structured.as_ref().map(|(_, answer)| answer.get());
    // The run is over: SessionEnd hooks run before the process goes.
    session.end(EndReason::Other).await;
    if stop.code().is_some() {
        return 1;
    }
    match sent {
        Ok(outcome) => {
            let unanswered = answer.as_ref().is_some_and(Option::is_none);
            if unanswered {
                eprintln!("tandem: the model did not give an answer that fits --json-schema");
            }
            let is_error = unanswered
                || matches!(
                    outcome.stop_reason,
                    TurnStopReason::Error | TurnStopReason::Refusal | TurnStopReason::BudgetReached
                );
            match (cli.output_format, &answer) {
                (OutputFormat::Text, Some(Some(value))) => println!("{value}"),
                (OutputFormat::Text, _) => {
                    println!("{}", terminal::for_stdout(&outcome.final_text))
                }
                (OutputFormat::Json | OutputFormat::StreamJson, _) => {
                    let mut result = json!({
                        "type": "result",
                        "is_error": is_error,
                        "result": outcome.final_text,
                        "stop_reason": outcome.stop_reason,
                        "session_id": session_id,
                        "num_turns": outcome.requests,
                        "usage": outcome.usage,
                    });
                    if let Some(value) = answer {
                        result["structured_output"] = value.unwrap_or(Value::Null);
                    }
                    println!("{result}");
                }
            }
            if let Some(failure) = store_failure(store.as_deref()).await {
                eprintln!("tandem: the session was not saved completely: {failure}");
                return 1;
            }
            if is_error { 1 } else { 0 }
        }
        Err(e) => {
            eprintln!("tandem: {e}");
            1
        }
    }
}

/// The approver of a `-p` run, and the prompt tool in it (to be given the session's MCP servers).
pub(crate) struct RunApprover {
    pub approver: Arc<dyn Approver>,
    pub prompt_tool: Option<Arc<PromptToolApprover>>,
}

/// What answers a `-p` run's questions: `--permission-prompt-tool`'s MCP tool when given (falling back to the
/// terminal), else the terminal (`--yes` allows). `None` when the prompt tool is named wrongly (the reason is
/// printed; the run exits 2).
pub(crate) fn run_approver(cli: &Cli) -> Option<RunApprover> {
    let stderr_approver: Arc<dyn Approver> = Arc::new(StderrApprover { yes: cli.yes });
    let prompt_tool = match &cli.permission_prompt_tool {
        Some(tool) => match PromptToolApprover::new(tool, stderr_approver.clone()) {
            Ok(approver) => Some(Arc::new(approver)),
            Err(message) => {
                eprintln!("tandem: {message}");
                return None;
            }
        },
        None => None,
    };
    let approver: Arc<dyn Approver> = match &prompt_tool {
        Some(approver) => approver.clone(),
        None => stderr_approver,
    };
    Some(RunApprover {
        approver,
        prompt_tool,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_protocol::{SubAgentOrigin, ToolKind};

    fn request(sub_agent: Option<Box<SubAgentOrigin>>) -> ApprovalRequest {
        ApprovalRequest {
            id: "q".into(),
            session_id: "s".into(),
            tool_use_id: "w1".into(),
            tool_name: "Write".into(),
            kind: ToolKind::Write,
            input: json!({}),
            title: "Write out.txt".into(),
            reason: "Default mode asks before editing files".into(),
            decided_by: None,
            suggestion: None,
            diff: None,
            trace: None,
            sub_agent,
            warnings: Vec::new(),
            previews: Vec::new(),
        }
    }

    #[test]
    fn a_question_from_a_sub_agent_names_it() {
        let origin = SubAgentOrigin {
            agent_type: "general-purpose".into(),
            description: "Write the notes".into(),
            parent_tool_use_id: "a1".into(),
            agent_id: "x".into(),
            name: None,
        };
        assert_eq!(
            asked_line(&request(Some(Box::new(origin)))),
            "permission asked for Write out.txt (asked by sub-agent general-purpose: Write the notes): Default \
             mode asks before editing files"
        );
        assert_eq!(
            asked_line(&request(None)),
            "permission asked for Write out.txt: Default mode asks before editing files"
        );
    }
}
