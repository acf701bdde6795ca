//! One connection to one MCP server through `rmcp`: a child process in its own process group (stdio) or streamable
//! HTTP, the `initialize` handshake within the start-up timeout, progress notifications routed to the call that
//! asked for them, list changes reported, and the connection's end noticed (a call in flight then fails at once).

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotification,
    CancelledNotificationParam, ClientCapabilities, ClientConfig, ClientNotification,
    ClientRequest, GetPromptRequestParams, GetPromptResult, Implementation,
    ProgressNotificationParam, ProgressToken, Prompt, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResult, Resource, ServerResult,
};
use rmcp::model::{
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability,
    FormElicitationCapability,
};
use rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestContext, RoleClient, RunningService,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{AuthClient, AuthorizationManager, StreamableHttpClientTransport};
use rmcp::{ClientHandler, Peer, ServiceExt};
use serde_json::Value;
use tokio::io::AsyncReadExt;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use super::config::{ServerConfig, Transport};
use super::failure_text::plain;
use super::legacy_sse;
use super::line_limit::LineLimit;
use super::oauth::ServerTokens;
use crate::process_group::GroupGuard;
use crate::tool::ProgressSink;

/// How much of a server's stderr is kept for the person.
const STDERR_TAIL_BYTES: usize = 4_096;

/// Why a connection could not be made or a request failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ClientError {
    #[error("{0}")]
    Start(String),
    #[error("the server did not answer `initialize` within {0:?}")]
    StartTimeout(Duration),
    #[error("the connection to the server is closed")]
    Closed,
    #[error("the server did not answer within {0:?}")]
    Timeout(Duration),
    #[error("the call was cancelled")]
    Cancelled,
    #[error("{0}")]
    Protocol(String),
    /// The server wants a signed-in client (it answered 401 with this `WWW-Authenticate` challenge).
    #[error("the server needs you to sign in (it answered 401 Unauthorized)")]
    AuthRequired { challenge: String },
}

/// Something a server announced that the manager must act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerNews {
    /// A request was refused for want of (enough) authorization: this `WWW-Authenticate` challenge.
    SignIn(String),
    /// `tools/list_changed`.
    Tools,
    /// `resources/list_changed`.
    Resources,
    /// `prompts/list_changed`.
    Prompts,
}

/// The last bytes a server wrote to stderr.
#[derive(Debug, Clone, Default)]
pub struct StderrTail(Arc<Mutex<Vec<u8>>>);

impl StderrTail {
    fn push(&self, bytes: &[u8]) {
        if let Ok(mut tail) = self.0.lock() {
            tail.extend_from_slice(bytes);
            if tail.len() > STDERR_TAIL_BYTES {
                let cut = tail.len() - STDERR_TAIL_BYTES;
                tail.drain(..cut);
            }
        }
    }

    /// The tail as text, `None` when the server wrote nothing.
    pub fn text(&self) -> Option<String> {
        let tail = self.0.lock().ok()?;
        let text = String::from_utf8_lossy(&tail).trim().to_string();
        (!text.is_empty()).then_some(text)
    }
}

/// What the client sends back for an elicitation request.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitReply {
    /// The form's values (an object).
    Accept(Value),
    Decline,
    Cancel,
}

/// Answers a server's elicitation request (a form it wants filled in).
///
/// Contract: `answer` gets the server's name and the request (`message`, `requestedSchema`, in the protocol's types) and resolves to
/// the reply; it never fails (a request it cannot show is declined). It is dropped (and the server gets no answer)
/// when the connection ends or the request is cancelled. Without an elicitor the client does not declare the
/// capability and servers do not ask.
pub trait Elicitor: Send + Sync {
    fn answer<'a>(
        &'a self,
        server: &'a str,
        request: ElicitRequestParams,
    ) -> futures::future::BoxFuture<'a, ElicitReply>;
}

/// Handles what a server sends on its own: progress of our calls, list changes, elicitation requests.
struct Handler {
    progress: Arc<Mutex<HashMap<ProgressToken, ProgressSink>>>,
    news: mpsc::UnboundedSender<ServerNews>,
    server: String,
    elicitor: Option<Arc<dyn Elicitor>>,
}

fn progress_text(p: &ProgressNotificationParam) -> String {
    let amount = match p.total {
        Some(total) => format!("{}/{}", p.progress, total),
        None => p.progress.to_string(),
    };
    match &p.message {
        Some(message) => format!("{message} ({amount})"),
        None => amount,
    }
}

impl ClientHandler for Handler {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let sink = self
            .progress
            .lock()
            .ok()
            .and_then(|m| m.get(&params.progress_token).cloned());
        if let Some(sink) = sink {
            sink.report(progress_text(&params));
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.news.send(ServerNews::Tools);
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.news.send(ServerNews::Resources);
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.news.send(ServerNews::Prompts);
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let answer = match &self.elicitor {
            Some(elicitor) => elicitor.answer(&self.server, request).await,
            None => ElicitReply::Decline,
        };
        Ok(match answer {
            ElicitReply::Accept(content) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(content)
            }
            ElicitReply::Decline => ElicitResult::new(ElicitationAction::Decline),
            ElicitReply::Cancel => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.elicitor.is_some() {
            capabilities.elicitation =
                Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        }
        // `initialize` (not the newer discovery) with the newest version that has it: every server speaks it.
        ClientConfig::new(
            capabilities,
            Implementation::new("tandem", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

/// Ends one call's bookkeeping when dropped: removes its progress route and, unless the call was answered (`peer`
/// taken), sends `notifications/cancelled` for it.
struct CallGuard {
    peer: Option<Peer<RoleClient>>,
    id: Option<rmcp::model::RequestId>,
    reason: &'static str,
    progress: Arc<Mutex<HashMap<ProgressToken, ProgressSink>>>,
    token: ProgressToken,
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        if let Ok(mut map) = self.progress.lock() {
            map.remove(&self.token);
        }
        let (Some(peer), Some(id)) = (self.peer.take(), self.id.take()) else {
            return;
        };
        let note = CancelledNotification::new(CancelledNotificationParam::new(
            Some(id),
            Some(self.reason.into()),
        ));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = peer
                    .send_notification(ClientNotification::CancelledNotification(note))
                    .await;
            });
        }
    }
}

/// A live connection. Dropping it closes the connection and kills a stdio server with its process group.
pub struct Connection {
    /// The server's name (what the log lines of its requests say).
    server: String,
    peer: Peer<RoleClient>,
    news: mpsc::UnboundedSender<ServerNews>,
    progress: Arc<Mutex<HashMap<ProgressToken, ProgressSink>>>,
    close: CancellationToken,
    /// Becomes `true` when the connection has ended (the server exited or hung up).
    ended: watch::Receiver<bool>,
    group: Mutex<Option<GroupGuard>>,
    pub stderr: StderrTail,
    /// The server's `instructions`, if any.
    pub instructions: Option<String>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection").finish_non_exhaustive()
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close.cancel();
        if let Ok(mut group) = self.group.lock()
            && let Some(mut guard) = group.take()
        {
            guard.kill();
        }
    }
}

/// The transport of a stdio server: its stdout (size-limited, see [`LineLimit`]) and stdin.
type StdioTransport = (
    LineLimit<tokio::process::ChildStdout>,
    tokio::process::ChildStdin,
);

/// Starts a stdio server in its own process group; the child is killed when its handle is dropped.
fn stdio_transport(
    config: &ServerConfig,
    command: &str,
    args: &[String],
    env: &std::collections::BTreeMap<String, String>,
    cwd: Option<&std::path::Path>,
    folder: &std::path::Path,
    stderr_tail: &StderrTail,
) -> Result<(StdioTransport, tokio::process::Child, Option<GroupGuard>), ClientError> {
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args)
        .envs(env)
        .current_dir(cwd.unwrap_or(folder))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(|e| {
        ClientError::Start(if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "`{command}` was not found (is it installed and on PATH?) for server `{}`",
                config.name
            )
        } else {
            format!("`{command}` could not be started: {e}")
        })
    })?;
    let group = child.id().map(GroupGuard::new);
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(ClientError::Start(
            "the server's stdin or stdout is missing".into(),
        ));
    };
    if let Some(mut stderr) = child.stderr.take() {
        let tail = stderr_tail.clone();
        tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                tail.push(&buf[..n]);
            }
        });
    }
    // Below rmcp's own line limit, so that rmcp never drops a line silently.
    let limit = super::limits::MAX_RESULT_BYTES - 4_096;
    Ok(((LineLimit::new(stdout, limit), stdin), child, group))
}

/// A server's configured headers: the custom ones, and the bearer token of an `Authorization` header (the
/// transport sends that header itself, from the value without the scheme word).
type HttpHeaders = (
    HashMap<reqwest::header::HeaderName, reqwest::header::HeaderValue>,
    Option<String>,
);

fn http_headers(
    headers: &std::collections::BTreeMap<String, String>,
) -> Result<HttpHeaders, ClientError> {
    let mut custom = HashMap::new();
    let mut auth = None;
    for (k, v) in headers {
        if k.eq_ignore_ascii_case("authorization") {
            auth = Some(v.strip_prefix("Bearer ").unwrap_or(v).to_string());
            continue;
        }
        let name = reqwest::header::HeaderName::from_bytes(k.as_bytes())
            .map_err(|e| ClientError::Start(format!("header `{k}` is not a valid name: {e}")))?;
        let value = reqwest::header::HeaderValue::from_str(v)
            .map_err(|e| ClientError::Start(format!("header `{k}` has an invalid value: {e}")))?;
        custom.insert(name, value);
    }
    Ok((custom, auth))
}

fn http_config(url: &str, (custom, auth): &HttpHeaders) -> StreamableHttpClientTransportConfig {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_string())
        .custom_headers(custom.clone())
        .max_json_response_size(super::limits::MAX_RESULT_BYTES);
    if let Some(auth) = auth {
        config = config.auth_header(auth.clone());
    }
    config
}

/// An authorization manager holding `tokens`' saved sign-in, or `None` when there is none (or the server's
/// metadata cannot be read now: the request then goes out unsigned and a 401 asks for a new sign-in).
async fn signed_in(url: &str, tokens: &ServerTokens) -> Option<AuthorizationManager> {
    if !tokens.has_tokens() {
        return None;
    }
    let mut manager = AuthorizationManager::new(url).await.ok()?;
    manager.set_credential_store(tokens.clone());
    match manager.initialize_from_store().await {
        Ok(true) => Some(manager),
        Ok(false) => None,
        Err(e) => {
            tracing::warn!("MCP server at {url}: saved sign-in unusable: {e}");
            None
        }
    }
}

/// What a failed streamable-HTTP `initialize` means.
enum HttpFailure {
    /// 401 with a challenge: sign in.
    AuthRequired(String),
    /// Another 4xx: the server may speak the older HTTP+SSE transport.
    Fallback,
    Other,
}

fn classify(error: &rmcp::service::ClientInitializeError) -> HttpFailure {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    if let Some(challenge) = error.auth_challenge() {
        return HttpFailure::AuthRequired(challenge.to_string());
    }
    let rmcp::service::ClientInitializeError::TransportError { error, .. } = error else {
        return HttpFailure::Other;
    };
    let Some(http) = error
        .error
        .downcast_ref::<StreamableHttpError<reqwest::Error>>()
    else {
        return HttpFailure::Other;
    };
    match http {
        StreamableHttpError::AuthRequired(e) => {
            HttpFailure::AuthRequired(e.www_authenticate_header.clone())
        }
        StreamableHttpError::UnexpectedServerResponse(text)
            if text.starts_with("HTTP 4")
                && !text.starts_with("HTTP 401")
                && !text.starts_with("HTTP 403") =>
        {
            HttpFailure::Fallback
        }
        StreamableHttpError::Client(e)
            if e.status().is_some_and(|s| {
                s.is_client_error()
                    && s != reqwest::StatusCode::UNAUTHORIZED
                    && s != reqwest::StatusCode::FORBIDDEN
            }) =>
        {
            HttpFailure::Fallback
        }
        _ => HttpFailure::Other,
    }
}

type Service = RunningService<RoleClient, Handler>;

/// Connects over the older HTTP+SSE transport.
async fn serve_legacy(
    handler: Handler,
    url: &str,
    (custom, auth): &HttpHeaders,
    close: &CancellationToken,
) -> Result<Service, ClientError> {
    let mut headers = custom.clone();
    if let Some(token) = auth
        && let Ok(value) = reqwest::header::HeaderValue::from_str(&format!("Bearer {token}"))
    {
        headers.insert(reqwest::header::AUTHORIZATION, value);
    }
    let transport = legacy_sse::connect(url, &headers, close.clone())
        .await
        .map_err(|e| ClientError::Start(format!("could not connect to {url}: {e}")))?;
    handler
        .serve_with_ct(transport, close.clone())
        .await
        .map_err(|e| ClientError::Start(format!("could not connect to {url} over SSE: {e}")))
}

/// Connects to a `url` server: streamable HTTP (signed in with `tokens` when a sign-in is saved), falling back to
/// the older HTTP+SSE transport when the server refuses the `initialize` POST with a 4xx; `sse` servers use the
/// older transport at once.
async fn serve_http(
    handler: impl Fn() -> Handler,
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
    sse: bool,
    tokens: Option<&ServerTokens>,
    close: &CancellationToken,
) -> Result<Service, ClientError> {
    let headers = http_headers(headers)?;
    if sse {
        return serve_legacy(handler(), url, &headers, close).await;
    }
    let config = http_config(url, &headers);
    let manager = match (tokens, &headers.1) {
        (Some(tokens), None) => signed_in(url, tokens).await,
        _ => None,
    };
    let started = match manager {
        Some(manager) => {
            let client = AuthClient::new(reqwest::Client::new(), manager);
            let transport = StreamableHttpClientTransport::with_client(client, config);
            handler().serve_with_ct(transport, close.clone()).await
        }
        None => {
            let transport = StreamableHttpClientTransport::from_config(config);
            handler().serve_with_ct(transport, close.clone()).await
        }
    };
    match started {
        Ok(service) => Ok(service),
        Err(e) => match classify(&e) {
            HttpFailure::AuthRequired(challenge) => Err(ClientError::AuthRequired { challenge }),
            HttpFailure::Fallback => serve_legacy(handler(), url, &headers, close)
                .await
                .map_err(|legacy| {
                    ClientError::Start(format!(
                        "could not connect to {url}: {} (and over the older SSE transport: {legacy})",
                        plain(&e)
                    ))
                }),
            HttpFailure::Other => Err(ClientError::Start(format!(
                "could not connect to {url}: {}",
                plain(&e)
            ))),
        },
    }
}

impl Connection {
    /// Connects to `config`'s server (stdio children start in `folder` unless configured otherwise) and completes
    /// the handshake within `startup`. `news` receives the server's list changes; `tokens` holds a remote server's
    /// sign-in (a 401 without one is [`ClientError::AuthRequired`]).
    pub async fn open(
        config: &ServerConfig,
        folder: &std::path::Path,
        startup: Duration,
        news: mpsc::UnboundedSender<ServerNews>,
        tokens: Option<&ServerTokens>,
        elicitor: Option<Arc<dyn Elicitor>>,
    ) -> Result<Self, ClientError> {
        let progress = Arc::new(Mutex::new(HashMap::new()));
        let handler = Handler {
            progress: progress.clone(),
            news: news.clone(),
            server: config.name.clone(),
            elicitor: elicitor.clone(),
        };
        let close = CancellationToken::new();
        let stderr = StderrTail::default();
        let with_stderr = |e: ClientError, stderr: &StderrTail| match (e, stderr.text()) {
            (ClientError::Start(m), Some(tail)) => {
                ClientError::Start(format!("{m}\nstderr:\n{tail}"))
            }
            (e, _) => e,
        };
        let mut keep_child = None;
        let (service, group): (RunningService<RoleClient, Handler>, Option<GroupGuard>) =
            match &config.transport {
                Transport::Stdio {
                    command,
                    args,
                    env,
                    cwd,
                } => {
                    let (transport, child, group) = stdio_transport(
                        config,
                        command,
                        args,
                        env,
                        cwd.as_deref(),
                        folder,
                        &stderr,
                    )?;
                    let started = tokio::time::timeout(
                        startup,
                        handler.serve_with_ct(transport, close.clone()),
                    )
                    .await;
                    match started {
                        Ok(Ok(service)) => {
                            // The child lives as long as the service (dropping it kills the server).
                            keep_child = Some(child);
                            (service, group)
                        }
                        Ok(Err(e)) => {
                            // Let the stderr reader catch the last words of a server that exited.
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            return Err(with_stderr(
                                ClientError::Start(format!(
                                    "the server failed to start: {}",
                                    plain(&e)
                                )),
                                &stderr,
                            ));
                        }
                        Err(_) => return Err(ClientError::StartTimeout(startup)),
                    }
                }
                Transport::Http { url, headers } | Transport::Sse { url, headers } => {
                    let sse = matches!(config.transport, Transport::Sse { .. });
                    let make = || Handler {
                        progress: progress.clone(),
                        news: news.clone(),
                        server: config.name.clone(),
                        elicitor: elicitor.clone(),
                    };
                    let started = tokio::time::timeout(
                        startup,
                        serve_http(make, url, headers, sse, tokens, &close),
                    )
                    .await;
                    match started {
                        Ok(Ok(service)) => (service, None),
                        Ok(Err(e)) => return Err(e),
                        Err(_) => return Err(ClientError::StartTimeout(startup)),
                    }
                }
            };
        let peer = service.peer().clone();
        let instructions = service
            .peer_info()
            .and_then(|info| info.instructions.clone());
        let (ended_tx, ended) = watch::channel(false);
        tokio::spawn(async move {
            let _ = service.waiting().await;
            drop(keep_child);
            let _ = ended_tx.send(true);
        });
        Ok(Self {
            server: config.name.clone(),
            peer,
            news,
            progress,
            close,
            ended,
            group: Mutex::new(group),
            stderr,
            instructions,
        })
    }

    /// Whether the connection has ended.
    pub fn has_ended(&self) -> bool {
        *self.ended.borrow()
    }

    /// Resolves when the connection ends.
    pub async fn ended(&self) {
        let mut ended = self.ended.clone();
        let _ = ended.wait_for(|e| *e).await;
    }

    /// Closes the connection (a stdio server is killed with its group).
    pub fn close(&self) {
        self.close.cancel();
        if let Ok(mut group) = self.group.lock()
            && let Some(mut guard) = group.take()
        {
            guard.kill();
        }
    }

    /// Every tool of the server, as JSON (`name`, `title`, `description`, `inputSchema`, `outputSchema`,
    /// `annotations`).
    /// Entries are taken as the server sent them (see `listing`): one that does not fit costs only itself.
    pub async fn list_tools(&self, timeout: Duration) -> Result<Vec<Value>, ClientError> {
        self.bounded(timeout, super::listing::list_tools(&self.peer))
            .await?
            .map_err(|e| match e {
                super::listing::ListingError::Request(e) => self.service_error(e),
                super::listing::ListingError::NoTools => ClientError::Protocol(
                    "the server answered tools/list without a list of tools".into(),
                ),
            })
    }

    /// Every resource of the server (`uri`, `name`, `description`, `mimeType`).
    pub async fn list_resources(&self, timeout: Duration) -> Result<Vec<Resource>, ClientError> {
        self.bounded(timeout, self.peer.list_all_resources())
            .await?
            .map_err(|e| self.service_error(e))
    }

    /// Reads one resource (`contents`: `uri`, `mimeType`, `text` | `blob`).
    pub async fn read_resource(
        &self,
        uri: &str,
        timeout: Duration,
    ) -> Result<ReadResourceResult, ClientError> {
        let span = tracing::info_span!("mcp_read", server = %self.server, uri = %uri);
        let read = async {
            let result = self
                .bounded(
                    timeout,
                    self.peer
                        .read_resource(ReadResourceRequestParams::new(uri.to_string())),
                )
                .await?
                .map_err(|e| self.service_error(e));
            log_end(&result, "MCP resource read ended");
            result
        };
        read.instrument(span).await
    }

    /// Every prompt of the server (`name`, `title`, `description`, `arguments`).
    pub async fn list_prompts(&self, timeout: Duration) -> Result<Vec<Prompt>, ClientError> {
        self.bounded(timeout, self.peer.list_all_prompts())
            .await?
            .map_err(|e| self.service_error(e))
    }

    /// Gets prompt `name` with `arguments` (`description`, `messages`: `role`, `content`).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: serde_json::Map<String, Value>,
        timeout: Duration,
    ) -> Result<GetPromptResult, ClientError> {
        let params = GetPromptRequestParams::new(name).with_arguments(arguments);
        let span = tracing::info_span!("mcp_prompt", server = %self.server, prompt = %name);
        let get = async {
            let result = self
                .bounded(timeout, self.peer.get_prompt(params))
                .await?
                .map_err(|e| match e {
                    rmcp::ServiceError::McpError(e) => ClientError::Protocol(e.message.to_string()),
                    e => self.service_error(e),
                });
            log_end(&result, "MCP prompt ended");
            result
        };
        get.instrument(span).await
    }

    /// Whether the server offers prompts.
    pub fn has_prompts(&self) -> bool {
        self.peer
            .peer_info()
            .is_some_and(|info| info.capabilities.prompts.is_some())
    }

    /// Whether the server offers resources.
    pub fn has_resources(&self) -> bool {
        self.peer
            .peer_info()
            .is_some_and(|info| info.capabilities.resources.is_some())
    }

    /// A failed request as an error; one refused for want of authorization is also reported as news, so that the
    /// server is listed as needing sign-in.
    fn service_error(&self, e: rmcp::ServiceError) -> ClientError {
        match e.auth_challenge() {
            Some(challenge) => {
                let _ = self.news.send(ServerNews::SignIn(challenge.to_string()));
                ClientError::AuthRequired {
                    challenge: challenge.to_string(),
                }
            }
            None => ClientError::Protocol(plain(&e)),
        }
    }

    async fn bounded<T>(
        &self,
        timeout: Duration,
        work: impl std::future::Future<Output = T>,
    ) -> Result<T, ClientError> {
        tokio::select! {
            out = tokio::time::timeout(timeout, work) => out.map_err(|_| ClientError::Timeout(timeout)),
            _ = self.ended() => Err(ClientError::Closed),
        }
    }

    /// Calls tool `name`: progress goes to `progress`; `cancel` sends `notifications/cancelled` and returns
    /// [`ClientError::Cancelled`]. The call runs in an `mcp_call` span naming the server and the tool.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
        timeout: Option<Duration>,
        progress: ProgressSink,
        cancel: &CancellationToken,
    ) -> Result<CallToolResult, ClientError> {
        let span = tracing::info_span!("mcp_call", server = %self.server, tool = %name);
        let call = async {
            let result = self
                .call_tool_unlogged(name, arguments, timeout, progress, cancel)
                .await;
            log_end(&result, "MCP tool call ended");
            result
        };
        call.instrument(span).await
    }

    async fn call_tool_unlogged(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
        timeout: Option<Duration>,
        progress: ProgressSink,
        cancel: &CancellationToken,
    ) -> Result<CallToolResult, ClientError> {
        let mut params = CallToolRequestParams::new(name.to_string());
        params.arguments = arguments;
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let handle = self
            .peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(|_| ClientError::Closed)?;
        let token = handle.progress_token.clone();
        if let Ok(mut map) = self.progress.lock() {
            map.insert(token.clone(), progress);
        }
        // From here on, a call that does not finish (cancelled, timed out, or its future dropped by an interrupt)
        // tells the server with `notifications/cancelled`; the progress route goes in every case.
        let mut guard = CallGuard {
            peer: Some(self.peer.clone()),
            id: Some(handle.id.clone()),
            reason: "the user interrupted the call",
            progress: self.progress.clone(),
            token,
        };
        let response = handle.await_response();
        let timed = async {
            match timeout {
                Some(t) => tokio::time::timeout(t, response)
                    .await
                    .map_err(|_| ClientError::Timeout(t)),
                None => Ok(response.await),
            }
        };
        let outcome = tokio::select! {
            out = timed => out,
            _ = cancel.cancelled() => Err(ClientError::Cancelled),
            _ = self.ended() => Err(ClientError::Closed),
        };
        match &outcome {
            Err(ClientError::Timeout(_)) => guard.reason = "timed out",
            Err(ClientError::Cancelled) => {}
            _ => guard.peer = None,
        }
        drop(guard);
        match outcome? {
            Ok(ServerResult::CallToolResult(result)) => Ok(result),
            Ok(other) => Err(ClientError::Protocol(format!(
                "the server answered tools/call with something else: {}",
                serde_json::to_string(&other)
                    .unwrap_or_default()
                    .chars()
                    .take(200)
                    .collect::<String>()
            ))),
            Err(rmcp::ServiceError::McpError(e)) => Err(ClientError::Protocol(format!(
                "the server returned an error: {}",
                e.message
            ))),
            Err(rmcp::ServiceError::TransportClosed) => Err(ClientError::Closed),
            Err(e) => Err(self.service_error(e)),
        }
    }
}

/// Logs (at debug) the end of a request to a server, with its error if it failed.
fn log_end<T>(result: &Result<T, ClientError>, what: &str) {
    match result {
        Ok(_) => tracing::debug!(ok = true, "{what}"),
        Err(e) => tracing::debug!(ok = false, error = %e, "{what}"),
    }
}
