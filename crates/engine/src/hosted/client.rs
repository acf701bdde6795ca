//! A hosted agent over the Agent Client Protocol ([`HostedAgent`]): its process is started, `initialize` (advertising
//! the file system and terminals Tandem serves) and `session/new` in the folder, then one `session/prompt` per turn
//! (`session/cancel` when the turn is cancelled); meanwhile the agent's updates become the session's events, its
//! permission requests are answered by the permission engine ([`super::permission`]), and its file and terminal
//! requests are served through Tandem's tools ([`super::fs`], [`super::terminals`]). The connection runs in a task of
//! its own; the agent is killed when the [`HostedAgent`] is dropped.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::exec::ToolRuntime;
use crate::session::Session;
use crate::settings::AgentServer;
use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    AuthMethod, CancelNotification, ClientCapabilities, ContentBlock, CreateTerminalRequest,
    CreateTerminalResponse, FileSystemCapabilities, Implementation, InitializeRequest,
    KillTerminalRequest, KillTerminalResponse, LoadSessionRequest, NewSessionRequest,
    PermissionOption, PermissionOptionKind, PromptRequest, ReadTextFileRequest,
    ReadTextFileResponse, ReleaseTerminalRequest, ReleaseTerminalResponse,
    RequestPermissionOutcome, RequestPermissionRequest, RequestPermissionResponse,
    SelectedPermissionOutcome, SessionId, SessionNotification, StopReason, TerminalExitStatus,
    TerminalOutputRequest, TerminalOutputResponse, TextContent, WaitForTerminalExitRequest,
    WaitForTerminalExitResponse, WriteTextFileRequest, WriteTextFileResponse,
};
use agent_client_protocol::{
    Agent, Client, Error, Lines, on_receive_notification, on_receive_request,
};
use tandem_protocol::{PromptImage, SessionEvent, TurnStopReason};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::permission::{self, HostedApprover};
use super::process;
use super::prompt::PromptAbilities;
use super::terminals::{Exit, Terminals};
use super::updates::Translator;

/// Whose turns a hosted agent runs: a whole Tandem session (each prompt a turn of it, stored), or one sub-agent
/// of a session (its runtime: its events tagged as the sub-agent's, its questions bubbling to the session's approver;
/// nothing stored as a turn, and no file system or terminals of this machine served).
#[derive(Clone)]
enum Side {
    Session(Arc<Session>),
    SubAgent(Box<ToolRuntime>),
}

/// What a hosted agent's turns share with the handlers of its connection: the Tandem session (or sub-agent), the
/// approver, the terminals, and the state of the updates.
pub struct Host {
    side: Side,
    pub approver: Arc<HostedApprover>,
    pub terminals: Arc<Terminals>,
    translator: Mutex<Translator>,
    /// The running turn's cancel (permission questions still open are withdrawn when it fires).
    turn_cancel: Mutex<CancellationToken>,
    /// Set while the agent loads its session (`session/load`): the conversation it replays is shown already.
    loading: std::sync::atomic::AtomicBool,
}

/// How the turn ended, and what the agent said.
#[derive(Debug, Clone)]
pub struct HostedOutcome {
    pub stop_reason: TurnStopReason,
    /// The text after the agent's last tool call (what `-p` prints).
    pub final_text: String,
    /// All the agent's text in the turn.
    pub answer: String,
}

impl Host {
    pub fn new(
        session: Arc<Session>,
        approver: Arc<HostedApprover>,
        terminals: Arc<Terminals>,
    ) -> Arc<Self> {
        Self::for_side(Side::Session(session), approver, terminals)
    }

    /// The host of a sub-agent's turns, run against `runtime` (the sub-agent's own: its sink and approver).
    pub fn for_sub_agent(runtime: ToolRuntime, approver: Arc<HostedApprover>) -> Arc<Self> {
        Self::for_side(
            Side::SubAgent(Box::new(runtime)),
            approver,
            Arc::new(Terminals::default()),
        )
    }

    fn for_side(side: Side, approver: Arc<HostedApprover>, terminals: Arc<Terminals>) -> Arc<Self> {
        Arc::new(Self {
            side,
            approver,
            terminals,
            translator: Mutex::new(Translator::default()),
            turn_cancel: Mutex::new(CancellationToken::new()),
            loading: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The session whose turns these are (`None` for a sub-agent's).
    pub fn session(&self) -> Option<&Arc<Session>> {
        match &self.side {
            Side::Session(session) => Some(session),
            Side::SubAgent(_) => None,
        }
    }

    /// What the agent's calls are checked and shown against: the session's runtime, or the sub-agent's.
    pub fn runtime(&self) -> &ToolRuntime {
        match &self.side {
            Side::Session(session) => session.runtime(),
            Side::SubAgent(runtime) => runtime,
        }
    }

    /// The folder of this machine the agent's process starts in.
    pub fn cwd(&self) -> &Path {
        &self.runtime().cwd
    }

    /// Emits the events of one update, in the order the updates came.
    fn update(&self, notification: &SessionNotification) {
        if self.loading.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let Ok(update) = serde_json::to_value(&notification.update) else {
            return;
        };
        let Ok(mut translator) = self.translator.lock() else {
            return;
        };
        for event in translator.events(&update) {
            self.runtime().events.emit(event);
        }
    }

    /// A turn begins: its answer starts empty, and `cancel` withdraws its open questions.
    fn begin_turn(&self, cancel: &CancellationToken) {
        if let Ok(mut translator) = self.translator.lock() {
            translator.begin_turn();
        }
        if let Ok(mut turn_cancel) = self.turn_cancel.lock() {
            *turn_cancel = cancel.clone();
        }
    }

    /// Ends the calls the agent left running, and says what the turn came to.
    fn finish(&self, stop_reason: TurnStopReason) -> HostedOutcome {
        let Ok(mut translator) = self.translator.lock() else {
            return HostedOutcome {
                stop_reason,
                final_text: String::new(),
                answer: String::new(),
            };
        };
        for event in translator.unfinished() {
            self.runtime().events.emit(event);
        }
        HostedOutcome {
            stop_reason,
            final_text: translator.final_text().to_string(),
            answer: translator.answer().to_string(),
        }
    }

    async fn permission(&self, request: &RequestPermissionRequest) -> RequestPermissionResponse {
        let tool_call = serde_json::to_value(&request.tool_call).unwrap_or_default();
        // A call the agent asks about before announcing it is shown from the request.
        if let Ok(mut translator) = self.translator.lock()
            && let Some(id) = tool_call["toolCallId"].as_str()
            && !translator.knows(id)
        {
            let mut announced = tool_call.clone();
            announced["sessionUpdate"] = serde_json::Value::String("tool_call".into());
            for event in translator.events(&announced) {
                self.runtime().events.emit(event);
            }
        }
        let cancel = self
            .turn_cancel
            .lock()
            .map(|cancel| cancel.clone())
            .unwrap_or_default();
        let verdict = permission::answer(self.runtime(), &self.approver, &tool_call, &cancel).await;
        if let Some(id) = tool_call["toolCallId"].as_str() {
            self.runtime().events.emit(SessionEvent::ToolCallDecision {
                tool_use_id: id.to_string(),
                decision: verdict.decision.clone(),
            });
        }
        let wanted: &[PermissionOptionKind] = match (verdict.allowed, verdict.always) {
            (true, true) => &[
                PermissionOptionKind::AllowAlways,
                PermissionOptionKind::AllowOnce,
            ],
            (true, false) => &[
                PermissionOptionKind::AllowOnce,
                PermissionOptionKind::AllowAlways,
            ],
            (false, _) => &[
                PermissionOptionKind::RejectOnce,
                PermissionOptionKind::RejectAlways,
            ],
        };
        if verdict.cancelled {
            return RequestPermissionResponse::new(RequestPermissionOutcome::Cancelled);
        }
        let outcome = choose(&request.options, wanted)
            .map(|option| {
                RequestPermissionOutcome::Selected(SelectedPermissionOutcome::new(
                    option.option_id.clone(),
                ))
            })
            .unwrap_or(RequestPermissionOutcome::Cancelled);
        RequestPermissionResponse::new(outcome)
    }
}

/// The first option of the first wanted kind the agent offers.
fn choose<'a>(
    options: &'a [PermissionOption],
    wanted: &[PermissionOptionKind],
) -> Option<&'a PermissionOption> {
    wanted
        .iter()
        .find_map(|kind| options.iter().find(|o| o.kind == *kind))
}

/// What a sub-agent's agent is told when it asks for this machine's files or terminals (it is offered none).
const NOT_SERVED: &str =
    "this Tandem serves no files or terminals to a sub-agent on another machine";

fn failed(message: impl Into<String>) -> Error {
    Error::internal_error().data(serde_json::Value::String(message.into()))
}

fn exit_status(exit: &Exit) -> TerminalExitStatus {
    TerminalExitStatus::new()
        .exit_code(exit.code)
        .signal(exit.signal.clone())
}

/// ACP's stop reason as Tandem's.
fn stop_reason(reason: StopReason) -> TurnStopReason {
    match reason {
        StopReason::EndTurn => TurnStopReason::EndTurn,
        StopReason::MaxTokens => TurnStopReason::MaxTokens,
        StopReason::MaxTurnRequests => TurnStopReason::MaxTurns,
        StopReason::Refusal => TurnStopReason::Refusal,
        StopReason::Cancelled => TurnStopReason::Interrupted,
        _ => TurnStopReason::EndTurn,
    }
}

/// Why a hosted agent could not run.
#[derive(Debug, thiserror::Error)]
pub enum HostedError {
    /// Its program could not be started (a mistake in its settings entry, or a program missing).
    #[error("{0}")]
    Spawn(String),
    /// It refused `initialize` or `session/new`.
    #[error("{0}")]
    Start(String),
    /// It went away before its session opened; `code` is its exit code when it had one (an `ssh` whose remote
    /// command was not found exits 127, one that could not connect 255), `stderr` its last lines on stderr (empty
    /// when it wrote none).
    #[error("{message}")]
    Closed {
        message: String,
        code: Option<i32>,
        stderr: String,
    },
    /// The far side's `agentInfo` did not pass [`FarSide::accept`] (a remote Tandem too old, or not Tandem).
    #[error("{0}")]
    Refused(String),
    /// It failed or went away during a turn; `lost` is true when the connection closed (it exited, or the link
    /// to it broke) rather than answering with an error.
    #[error("the agent `{agent}` failed: {message}")]
    Failed {
        agent: String,
        message: String,
        lost: bool,
    },
}

/// The name and version an agent gave in `initialize`'s `agentInfo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentInfo {
    pub name: String,
    pub version: String,
}

/// Checks an agent's `agentInfo` (`None` when it sent none): `Err` is the message that refuses it.
pub type Accept = Arc<dyn Fn(Option<&AgentInfo>) -> Result<(), String> + Send + Sync>;

/// An agent that works on another machine's files (a `tandem acp` reached over SSH): its session opens in `cwd`
/// there, Tandem offers it none of this machine's files or terminals, and its `agentInfo` must pass `accept`
/// before its session opens.
#[derive(Clone)]
pub struct FarSide {
    pub cwd: PathBuf,
    pub accept: Accept,
}

/// An agent's process, started by [`HostedAgent::spawn`] and not yet spoken to; dropping it kills it.
pub struct Spawned {
    name: String,
    process: process::AgentProcess,
    outgoing: process::Outgoing,
    incoming: process::Incoming,
}

/// What the opening exchange learnt: what the agent's prompts may hold.
type Opened = PromptAbilities;

/// Why the opening exchange failed.
enum OpenFailure {
    Protocol(Error),
    Refused(String),
}

/// What the connection's task is asked to do.
enum Command {
    Prompt {
        blocks: Vec<ContentBlock>,
        cancel: CancellationToken,
        reply: oneshot::Sender<Result<StopReason, Error>>,
    },
}

/// A hosted agent with its session open: prompts run one at a time, each a turn of the Tandem session. Dropping it
/// closes the connection, stops the terminals it started and kills the agent with everything it started.
pub struct HostedAgent {
    host: Arc<Host>,
    name: String,
    commands: mpsc::UnboundedSender<Command>,
    connection: tokio::task::JoinHandle<Result<(), Error>>,
    turn: tokio::sync::Mutex<()>,
    process: process::AgentProcess,
    /// What its prompts may hold (its `promptCapabilities`).
    abilities: PromptAbilities,
    /// False for an agent on another machine (this machine's files are not its own).
    here: bool,
}

impl HostedAgent {
    /// Starts the agent `name` in the session's folder, `initialize`s it and opens its session (`session/new`, with
    /// the `--mcp-config` servers of `mcp_configs` it can use). `Err` says why it could not.
    pub async fn start(
        host: Arc<Host>,
        name: &str,
        server: &AgentServer,
        mcp_configs: &[String],
    ) -> Result<Self, HostedError> {
        let spawned = Self::spawn(name, server, host.cwd())?;
        Self::start_with(host, spawned, mcp_configs, None, None).await
    }

    /// [`Self::start`], continuing the agent's own session `agent_session_id` (`session/load`; the conversation it
    /// replays is not shown again) instead of opening a new one. `Err` ([`HostedError::Refused`]) when the agent does
    /// not offer `session/load`, or as for [`Self::start`].
    pub async fn resume(
        host: Arc<Host>,
        name: &str,
        server: &AgentServer,
        mcp_configs: &[String],
        agent_session_id: &str,
    ) -> Result<Self, HostedError> {
        let spawned = Self::spawn(name, server, host.cwd())?;
        Self::start_with(
            host,
            spawned,
            mcp_configs,
            None,
            Some(agent_session_id.to_string()),
        )
        .await
    }

    /// Starts the process of the agent `name` in `cwd` (a folder of this machine) without speaking to it yet, so
    /// that its start-up (an ssh connection, say) runs while the session is being built; [`Self::start_far`] then
    /// opens it. Dropping the result kills it. `Err`: it could not be started.
    pub fn spawn(name: &str, server: &AgentServer, cwd: &Path) -> Result<Spawned, HostedError> {
        let (process, outgoing, incoming) =
            process::spawn(name, server, cwd).map_err(HostedError::Spawn)?;
        Ok(Spawned {
            name: name.to_string(),
            process,
            outgoing,
            incoming,
        })
    }

    /// Opens the agent started by [`Self::spawn`] as one working on another machine: its session opens in
    /// `far.cwd`, its `agentInfo` must pass `far.accept`, and it is offered no file system or terminals of this
    /// machine (its tools run on its own side). `Err` says why it could not start.
    pub async fn start_far(
        host: Arc<Host>,
        spawned: Spawned,
        far: FarSide,
    ) -> Result<Self, HostedError> {
        Self::start_with(host, spawned, &[], Some(far), None).await
    }

    /// [`Self::start_far`], continuing the far side's session `agent_session_id` (as [`Self::resume`]).
    pub async fn resume_far(
        host: Arc<Host>,
        spawned: Spawned,
        far: FarSide,
        agent_session_id: &str,
    ) -> Result<Self, HostedError> {
        Self::start_with(
            host,
            spawned,
            &[],
            Some(far),
            Some(agent_session_id.to_string()),
        )
        .await
    }

    async fn start_with(
        host: Arc<Host>,
        spawned: Spawned,
        mcp_configs: &[String],
        far: Option<FarSide>,
        load: Option<String>,
    ) -> Result<Self, HostedError> {
        let here: PathBuf = host.cwd().to_path_buf();
        let Spawned {
            name,
            mut process,
            outgoing,
            incoming,
        } = spawned;
        let name = name.as_str();
        let local = far.is_none();
        let (cwd, accept) = match far {
            Some(far) => (far.cwd, Some(far.accept)),
            None => (here, None),
        };
        let (commands, receiver) = mpsc::unbounded_channel();
        let (ready, opened) = oneshot::channel();
        let connection = tokio::spawn(connect(
            host.clone(),
            Lines::new(outgoing, incoming),
            Opening {
                agent: name.to_string(),
                cwd,
                mcp_configs: mcp_configs.to_vec(),
                accept,
                load,
                ready,
            },
            receiver,
        ));
        match opened.await {
            Ok(Ok(abilities)) => Ok(Self {
                host,
                name: name.to_string(),
                commands,
                connection,
                turn: tokio::sync::Mutex::new(()),
                process,
                abilities,
                here: local,
            }),
            Ok(Err(OpenFailure::Refused(message))) => Err(HostedError::Refused(message)),
            Ok(Err(OpenFailure::Protocol(e))) if !closed(&e) => Err(HostedError::Start(format!(
                "the agent `{name}` could not open a session: {}",
                describe(&e)
            ))),
            _ => {
                // The connection ended before the session opened: why, as it says, and how the process ended.
                drop(commands);
                let why = match connection.await {
                    Ok(Err(e)) => describe(&e),
                    _ => "it closed the connection".to_string(),
                };
                let code = process.exit_code().await;
                Err(HostedError::Closed {
                    message: format!("the agent `{name}` failed: {why}"),
                    code,
                    stderr: process.stderr_tail().await,
                })
            }
        }
    }

    /// The session's side of the turns.
    pub fn host(&self) -> &Arc<Host> {
        &self.host
    }

    /// What the agent's prompts may hold besides text and links (its `promptCapabilities`).
    pub fn abilities(&self) -> PromptAbilities {
        self.abilities
    }

    /// The agent's name, as its messages name it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs one turn of `prompt`: the session's turn begins (its prompt id and file checkpoint), the agent's updates
    /// become its events, and the turn is stored when the agent answers (a sub-agent's host: only the events). `cancel` sends `session/cancel` (the
    /// agent's answer is still waited for). `Err`: the agent failed or went away; the turn is stored as an error.
    pub async fn prompt(
        &self,
        prompt: &str,
        cancel: &CancellationToken,
    ) -> Result<HostedOutcome, HostedError> {
        self.prompt_with(prompt, &[], cancel).await
    }

    /// [`Self::prompt`] with `images` (sized for a model already) and the prompt's `@file` mentions as blocks the
    /// agent takes ([`super::prompt`]); images an agent does not take are left out with a notice. The session's
    /// SessionStart hooks have run first (once; their context goes ahead of this prompt if no turn took it yet).
    pub async fn prompt_with(
        &self,
        prompt: &str,
        images: &[PromptImage],
        cancel: &CancellationToken,
    ) -> Result<HostedOutcome, HostedError> {
        let _one_at_a_time = self.turn.lock().await;
        let session = self.host.session();
        if let Some(session) = session {
            session.begin().await;
        }
        let prompt_id = session.map(|session| session.begin_hosted_turn(prompt));
        self.host.begin_turn(cancel);
        // A sub-agent's host has no session of its own: its prompt goes as the text it is.
        let blocks = match session {
            Some(session) => super::prompt::blocks(
                session,
                prompt,
                images,
                self.abilities,
                self.here,
                &self.name,
            ),
            None => vec![ContentBlock::Text(TextContent::new(prompt))],
        };
        let (reply, answered) = oneshot::channel();
        let sent = self.commands.send(Command::Prompt {
            blocks,
            cancel: cancel.clone(),
            reply,
        });
        let answer = match sent {
            Ok(()) => answered
                .await
                .unwrap_or_else(|_| Err(failed("it closed the connection"))),
            Err(_) => Err(failed("it closed the connection")),
        };
        let (outcome, failure) = match answer {
            Ok(reason) => (self.host.finish(stop_reason(reason)), None),
            Err(e) => {
                let message = (describe(&e), closed(&e));
                self.host.runtime().events.emit(SessionEvent::Error {
                    message: format!("the agent `{}` failed: {}", self.name, message.0),
                });
                (self.host.finish(TurnStopReason::Error), Some(message))
            }
        };
        if let (Some(session), Some(prompt_id)) = (session, prompt_id) {
            session
                .end_hosted_turn(&prompt_id, prompt, &outcome.answer, outcome.stop_reason)
                .await;
        }
        match failure {
            None => Ok(outcome),
            Some((message, lost)) => Err(HostedError::Failed {
                agent: self.name.clone(),
                message,
                lost,
            }),
        }
    }
}

impl HostedAgent {
    /// Ends the connection politely: the agent's input is closed so that it can end its session and exit (a remote
    /// `tandem acp` then ends its session there, its SessionEnd hooks included); after `grace` at most, whatever is
    /// left is killed, as dropping it does.
    pub async fn close(mut self, grace: std::time::Duration) {
        let (closed, _) = mpsc::unbounded_channel();
        drop(std::mem::replace(&mut self.commands, closed));
        let _ = tokio::time::timeout(grace, async {
            let _ = (&mut self.connection).await;
            self.process.exit_code_within(grace).await;
        })
        .await;
    }
}

impl HostedAgent {
    /// Breaks the connection at once, through a shared reference: the running turn (if any) ends as failed and the
    /// agent's terminals stop; its process is killed when the agent is dropped. For an agent that does not answer
    /// `session/cancel` while its session is being closed.
    pub fn abort(&self) {
        self.host.terminals.stop_all();
        self.connection.abort();
    }
}

impl Drop for HostedAgent {
    fn drop(&mut self) {
        self.host.terminals.stop_all();
        self.connection.abort();
    }
}

/// What the connection's first exchange needs.
struct Opening {
    agent: String,
    cwd: PathBuf,
    mcp_configs: Vec<String>,
    accept: Option<Accept>,
    /// The agent's session to continue (`session/load`) instead of a new one.
    load: Option<String>,
    ready: oneshot::Sender<Result<Opened, OpenFailure>>,
}

/// Runs the connection: the client's handlers, then `initialize` and `session/new`, then the prompts sent on
/// `commands` until it closes.
async fn connect(
    host: Arc<Host>,
    transport: Lines<process::Outgoing, process::Incoming>,
    opening: Opening,
    commands: mpsc::UnboundedReceiver<Command>,
) -> Result<(), Error> {
    let (for_updates, for_permission, for_read, for_write) =
        (host.clone(), host.clone(), host.clone(), host.clone());
    let (for_create, for_output, for_wait, for_kill, for_release) = (
        host.clone(),
        host.clone(),
        host.clone(),
        host.clone(),
        host.clone(),
    );
    let opened_host = host.clone();
    Client
        .v1()
        .name("tandem")
        .on_receive_notification(
            async move |notification: SessionNotification, _cx| {
                for_updates.update(&notification);
                Ok(())
            },
            on_receive_notification!(),
        )
        .on_receive_request(
            async move |request: RequestPermissionRequest, responder, _cx| {
                let host = for_permission.clone();
                tokio::spawn(async move {
                    let answer = host.permission(&request).await;
                    let _ = responder.respond(answer);
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: ReadTextFileRequest, responder, _cx| {
                let host = for_read.clone();
                tokio::spawn(async move {
                    let read = match host.session() {
                        Some(session) => {
                            super::fs::read(
                                session,
                                &host.approver,
                                &request.path,
                                request.line,
                                request.limit,
                            )
                            .await
                        }
                        None => Err(NOT_SERVED.to_string()),
                    };
                    let _ = responder
                        .respond_with_result(read.map(ReadTextFileResponse::new).map_err(failed));
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: WriteTextFileRequest, responder, _cx| {
                let host = for_write.clone();
                tokio::spawn(async move {
                    let written = match host.session() {
                        Some(session) => {
                            super::fs::write(session, &request.path, &request.content).await
                        }
                        None => Err(NOT_SERVED.to_string()),
                    };
                    let _ = responder.respond_with_result(
                        written
                            .map(|()| WriteTextFileResponse::new())
                            .map_err(failed),
                    );
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: CreateTerminalRequest, responder, _cx| {
                let env: Vec<(String, String)> = request
                    .env
                    .iter()
                    .map(|v| (v.name.clone(), v.value.clone()))
                    .collect();
                let Some(session) = for_create.session() else {
                    return responder.respond_with_error(failed(NOT_SERVED));
                };
                let id = for_create.terminals.create(
                    session.clone(),
                    &request.command,
                    &request.args,
                    &env,
                    request.cwd.clone(),
                    request.output_byte_limit,
                );
                responder.respond(CreateTerminalResponse::new(id))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: TerminalOutputRequest, responder, _cx| match for_output
                .terminals
                .output(&request.terminal_id.0)
            {
                Ok(snapshot) => responder.respond(
                    TerminalOutputResponse::new(snapshot.output, snapshot.truncated)
                        .exit_status(snapshot.exit.as_ref().map(exit_status)),
                ),
                Err(message) => responder.respond_with_error(failed(message)),
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: WaitForTerminalExitRequest, responder, _cx| {
                let host = for_wait.clone();
                tokio::spawn(async move {
                    let exit = host.terminals.wait(&request.terminal_id.0).await;
                    let _ = responder.respond_with_result(
                        exit.map(|e| WaitForTerminalExitResponse::new(exit_status(&e)))
                            .map_err(failed),
                    );
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: KillTerminalRequest, responder, _cx| match for_kill
                .terminals
                .kill(&request.terminal_id.0)
            {
                Ok(()) => responder.respond(KillTerminalResponse::new()),
                Err(message) => responder.respond_with_error(failed(message)),
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |request: ReleaseTerminalRequest, responder, _cx| match for_release
                .terminals
                .release(&request.terminal_id.0)
            {
                Ok(()) => responder.respond(ReleaseTerminalResponse::new()),
                Err(message) => responder.respond_with_error(failed(message)),
            },
            on_receive_request!(),
        )
        .connect_with(transport, async move |cx: ConnectionTo<Agent>| {
            let Opening {
                agent,
                cwd,
                mcp_configs,
                accept,
                load,
                ready,
            } = opening;
            let opened = open(
                &cx,
                &opened_host,
                Open {
                    agent: &agent,
                    cwd,
                    mcp_configs: &mcp_configs,
                    accept,
                    load,
                },
            )
            .await;
            let session = match opened {
                Ok((session, abilities)) => {
                    let _ = ready.send(Ok(abilities));
                    session
                }
                Err(OpenFailure::Protocol(e)) => {
                    let _ = ready.send(Err(OpenFailure::Protocol(e.clone())));
                    return Err(e);
                }
                Err(OpenFailure::Refused(message)) => {
                    let _ = ready.send(Err(OpenFailure::Refused(message)));
                    return Ok(());
                }
            };
            serve(&cx, &session, commands).await;
            Ok(())
        })
        .await
}

/// What [`open`] opens.
struct Open<'a> {
    /// The agent's name, for messages and the stored id.
    agent: &'a str,
    cwd: PathBuf,
    mcp_configs: &'a [String],
    accept: Option<Accept>,
    load: Option<String>,
}

/// `initialize` (its `agentInfo` checked by `accept`, if given), then `session/new` (with the `--mcp-config` servers
/// the agent can use; a notice for each it cannot) or, with `load`, `session/load` of that session (refused when
/// the agent does not offer it; the conversation it replays meanwhile is not shown again): the agent's session id,
/// also stored in the session (`HostedSessionOpened`) for a later run to continue. An agent on the far side
/// (`accept` given) is offered no file system or terminals of this machine.
async fn open(
    cx: &ConnectionTo<Agent>,
    host: &Host,
    opening: Open<'_>,
) -> Result<(SessionId, Opened), OpenFailure> {
    let Open {
        agent,
        cwd,
        mcp_configs,
        accept,
        load,
    } = opening;
    let events = host.runtime().events.clone();
    let here = accept.is_none();
    let capabilities = ClientCapabilities::new()
        .fs(FileSystemCapabilities::new()
            .read_text_file(here)
            .write_text_file(here))
        .terminal(here);
    let init = cx
        .send_request(
            InitializeRequest::new(ProtocolVersion::V1)
                .client_capabilities(capabilities)
                .client_info(
                    Implementation::new("tandem", env!("CARGO_PKG_VERSION")).title("Tandem"),
                ),
        )
        .block_task()
        .await
        .map_err(OpenFailure::Protocol)?;
    if let Some(accept) = accept {
        let info = init.agent_info.as_ref().map(|i| AgentInfo {
            name: i.name.clone(),
            version: i.version.clone(),
        });
        accept(info.as_ref()).map_err(OpenFailure::Refused)?;
    }
    if load.is_some() && !init.agent_capabilities.load_session {
        return Err(OpenFailure::Refused(format!(
            "the agent `{agent}` cannot continue its session: it does not offer `session/load` (a new session of \
             it would not know the earlier turns)"
        )));
    }
    let (servers, problems) =
        super::mcp::servers_for(mcp_configs, &cwd, &init.agent_capabilities.mcp_capabilities);
    for message in problems {
        events.emit(SessionEvent::Notice { message });
    }
    let session_id = match load {
        Some(id) => {
            let id = SessionId::from(id);
            host.loading
                .store(true, std::sync::atomic::Ordering::SeqCst);
            let loaded = cx
                .send_request(LoadSessionRequest::new(id.clone(), cwd).mcp_servers(servers))
                .block_task()
                .await;
            host.loading
                .store(false, std::sync::atomic::Ordering::SeqCst);
            loaded.map_err(|e| opening_failed(agent, &init.auth_methods, e))?;
            id
        }
        None => {
            cx.send_request(NewSessionRequest::new(cwd).mcp_servers(servers))
                .block_task()
                .await
                .map_err(|e| opening_failed(agent, &init.auth_methods, e))?
                .session_id
        }
    };
    events.emit(SessionEvent::HostedSessionOpened {
        agent: agent.to_string(),
        agent_session_id: session_id.0.to_string(),
    });
    let prompts = &init.agent_capabilities.prompt_capabilities;
    let abilities = PromptAbilities {
        image: prompts.image,
        embedded_context: prompts.embedded_context,
    };
    Ok((session_id, abilities))
}

/// Sends each prompt of `commands` (`session/prompt`, and `session/cancel` once its token fires) and replies with the
/// agent's stop reason, until the commands close.
async fn serve(
    cx: &ConnectionTo<Agent>,
    session: &SessionId,
    mut commands: mpsc::UnboundedReceiver<Command>,
) {
    while let Some(Command::Prompt {
        blocks,
        cancel,
        reply,
    }) = commands.recv().await
    {
        let _ = reply.send(prompt(cx, session, blocks, cancel).await);
    }
}

async fn prompt(
    cx: &ConnectionTo<Agent>,
    session: &SessionId,
    blocks: Vec<ContentBlock>,
    cancel: CancellationToken,
) -> Result<StopReason, Error> {
    let asked = cx
        .send_request(PromptRequest::new(session.clone(), blocks))
        .block_task();
    tokio::pin!(asked);
    let answer = tokio::select! {
        answer = &mut asked => answer?,
        _ = cancel.cancelled() => {
            cx.send_notification(CancelNotification::new(session.clone()))?;
            asked.await?
        }
    };
    Ok(answer.stop_reason)
}

/// Why a session could not open: an agent that wants a login first (`auth_required`) is refused with what the
/// person can do, naming its login methods; anything else as it came.
fn opening_failed(agent: &str, methods: &[AuthMethod], error: Error) -> OpenFailure {
    if error.code != Error::auth_required().code {
        return OpenFailure::Protocol(error);
    }
    let mut ways: Vec<String> = methods
        .iter()
        .map(|method| match method {
            AuthMethod::Terminal(t) => format!(
                "{} (run the agent's command with `{}` in a terminal)",
                t.name,
                t.args.join(" ")
            ),
            AuthMethod::Agent(a) => match &a.description {
                Some(what) => format!("{} ({what})", a.name),
                None => a.name.clone(),
            },
            _ => "a login method Tandem does not know".to_string(),
        })
        .collect();
    ways.push(
        "or give it its key in the `env` of its `agentServers` entry in Tandem's settings"
            .to_string(),
    );
    OpenFailure::Refused(format!(
        "the agent `{agent}` wants a login before it opens a session ({}). Its ways: {}",
        describe(&error),
        ways.join("; ")
    ))
}

/// The error says the connection closed (the agent exited, or the link to it broke).
fn closed(error: &Error) -> bool {
    error
        .data
        .as_ref()
        .is_some_and(|data| data["reason"] == "incoming_transport_closed")
}

/// An SDK error as one line: its message and data (an agent that went away, said so).
fn describe(error: &Error) -> String {
    if let Some(data) = &error.data
        && data["reason"] == "incoming_transport_closed"
    {
        let during = data["method"].as_str().unwrap_or("its answer");
        return format!("it closed the connection (exited?) while Tandem waited for {during}");
    }
    match &error.data {
        Some(serde_json::Value::String(data)) => format!("{} ({data})", error.message),
        Some(data) => format!("{} ({data})", error.message),
        None => error.message.clone(),
    }
}
