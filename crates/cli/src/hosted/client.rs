//! One turn with a hosted agent over the Agent Client Protocol: the agent's process is started, `initialize`
//! (advertising the file system and terminals Tandem serves), `session/new` in the folder, `session/prompt`, and
//! `session/cancel` when the run is stopped; meanwhile the agent's updates become the session's events, its
//! permission requests are answered by the permission engine ([`super::permission`]), and its file and terminal
//! requests are served through Tandem's tools ([`super::fs`], [`super::terminals`]). The agent is killed when the
//! turn is over.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    CancelNotification, ClientCapabilities, ContentBlock, CreateTerminalRequest,
    CreateTerminalResponse, FileSystemCapabilities, Implementation, InitializeRequest,
    KillTerminalRequest, KillTerminalResponse, NewSessionRequest, PermissionOption,
    PermissionOptionKind, PromptRequest, ReadTextFileRequest, ReadTextFileResponse,
    ReleaseTerminalRequest, ReleaseTerminalResponse, RequestPermissionOutcome,
    RequestPermissionRequest, RequestPermissionResponse, SelectedPermissionOutcome,
    SessionNotification, StopReason, TerminalExitStatus, TerminalOutputRequest,
    TerminalOutputResponse, TextContent, WaitForTerminalExitRequest, WaitForTerminalExitResponse,
    WriteTextFileRequest, WriteTextFileResponse,
};
use agent_client_protocol::{
    Agent, Client, Error, Lines, on_receive_notification, on_receive_request,
};
use tandem_engine::events::EventSink;
use tandem_engine::session::Session;
use tandem_engine::settings::AgentServer;
use tandem_protocol::{SessionEvent, TurnStopReason};
use tokio_util::sync::CancellationToken;

use super::permission::{self, HostedApprover};
use super::process;
use super::terminals::{Exit, Terminals};
use super::updates::Translator;

/// What a hosted turn shares with the handlers of its connection.
pub struct Host {
    pub session: Arc<Session>,
    pub approver: Arc<HostedApprover>,
    pub terminals: Arc<Terminals>,
    translator: Mutex<Translator>,
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
        Arc::new(Self {
            session,
            approver,
            terminals,
            translator: Mutex::new(Translator::default()),
        })
    }

    /// Emits the events of one update, in the order the updates came.
    fn update(&self, notification: &SessionNotification) {
        let Ok(update) = serde_json::to_value(&notification.update) else {
            return;
        };
        let Ok(mut translator) = self.translator.lock() else {
            return;
        };
        for event in translator.events(&update) {
            self.session.runtime().events.emit(event);
        }
    }

    /// Ends the calls the agent left running, and says what the turn came to.
    pub fn finish(&self, stop_reason: TurnStopReason) -> HostedOutcome {
        self.terminals.stop_all();
        let Ok(mut translator) = self.translator.lock() else {
            return HostedOutcome {
                stop_reason,
                final_text: String::new(),
                answer: String::new(),
            };
        };
        for event in translator.unfinished() {
            self.session.runtime().events.emit(event);
        }
        HostedOutcome {
            stop_reason,
            final_text: translator.final_text().to_string(),
            answer: translator.answer().to_string(),
        }
    }

    async fn permission(&self, request: &RequestPermissionRequest) -> RequestPermissionResponse {
        let tool_call = serde_json::to_value(&request.tool_call).unwrap_or_default();
        let verdict = permission::answer(&self.session, &self.approver, &tool_call).await;
        if let Some(id) = tool_call["toolCallId"].as_str() {
            self.session
                .runtime()
                .events
                .emit(SessionEvent::ToolCallDecision {
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

/// A started agent and its connection's lines ([`process::spawn`]).
pub type Spawned = (process::AgentProcess, process::Outgoing, process::Incoming);

/// Starts the agent `name` in `cwd` (`Err` says why it cannot start).
pub fn start(name: &str, server: &AgentServer, cwd: &std::path::Path) -> Result<Spawned, String> {
    process::spawn(name, server, cwd)
}

/// Runs one turn of `prompt` with the started agent `name`, which is stopped with the turn. `stop`
/// cancels the turn (`session/cancel`; the agent's answer is still waited for). `Err` says why the turn could not
/// run (the agent refused a request or went away).
pub async fn run_turn(
    host: Arc<Host>,
    name: &str,
    agent: Spawned,
    prompt: &str,
    mcp_configs: &[String],
    stop: &CancellationToken,
) -> Result<HostedOutcome, String> {
    let cwd: PathBuf = host.session.cwd().to_path_buf();
    let (agent, outgoing, incoming) = agent;
    let transport = Lines::new(outgoing, incoming);
    let (for_updates, for_permission, for_read, for_write) =
        (host.clone(), host.clone(), host.clone(), host.clone());
    let (for_create, for_output, for_wait, for_kill, for_release) = (
        host.clone(),
        host.clone(),
        host.clone(),
        host.clone(),
        host.clone(),
    );
    let prompt = prompt.to_string();
    let stop = stop.clone();
    let mcp_configs = mcp_configs.to_vec();
    let events = host.session.runtime().events.clone();
    let ran = Client
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
                    let read = super::fs::read(
                        &host.session,
                        &host.approver,
                        &request.path,
                        request.line,
                        request.limit,
                    )
                    .await;
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
                    let written =
                        super::fs::write(&host.session, &request.path, &request.content).await;
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
                let id = for_create.terminals.create(
                    for_create.session.clone(),
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
            converse(cx, cwd, prompt, &mcp_configs, events.as_ref(), stop).await
        })
        .await;
    drop(agent);
    let reason = ran.map_err(|e| format!("the agent `{name}` failed: {}", describe(&e)))?;
    Ok(host.finish(stop_reason(reason)))
}

/// `initialize`, `session/new` (with the `--mcp-config` servers the agent can use; a notice for each it cannot),
/// `session/prompt` (and `session/cancel` once `stop` fires).
async fn converse(
    cx: ConnectionTo<Agent>,
    cwd: PathBuf,
    prompt: String,
    mcp_configs: &[String],
    events: &dyn EventSink,
    stop: CancellationToken,
) -> Result<StopReason, Error> {
    let capabilities = ClientCapabilities::new()
        .fs(FileSystemCapabilities::new()
            .read_text_file(true)
            .write_text_file(true))
        .terminal(true);
    let init = cx
        .send_request(
            InitializeRequest::new(ProtocolVersion::V1)
                .client_capabilities(capabilities)
                .client_info(
                    Implementation::new("tandem", env!("CARGO_PKG_VERSION")).title("Tandem"),
                ),
        )
        .block_task()
        .await?;
    let (servers, problems) =
        super::mcp::servers_for(mcp_configs, &cwd, &init.agent_capabilities.mcp_capabilities);
    for message in problems {
        events.emit(SessionEvent::Notice { message });
    }
    let session = cx
        .send_request(NewSessionRequest::new(cwd).mcp_servers(servers))
        .block_task()
        .await?;
    let asked = cx
        .send_request(PromptRequest::new(
            session.session_id.clone(),
            vec![ContentBlock::Text(TextContent::new(prompt))],
        ))
        .block_task();
    tokio::pin!(asked);
    let answer = tokio::select! {
        answer = &mut asked => answer?,
        _ = stop.cancelled() => {
            cx.send_notification(CancelNotification::new(session.session_id.clone()))?;
            asked.await?
        }
    };
    Ok(answer.stop_reason)
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
