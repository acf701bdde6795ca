//! The session's MCP servers: each approved server starts in its own task when the session opens (none waits for
//! another, and the first prompt waits for none); its tools join the live tool set when it is ready and follow its
//! `tools/list_changed`; a server that stops is reported (with the end of its stderr) and restarted with backoff; its
//! state is data ([`McpServerStatus`]) and every change is an event. Dropping the manager kills every child.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tandem_protocol::{McpResourceEntry, McpServerState, McpServerStatus, SessionEvent};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use super::client::{ClientError, Connection, Elicitor, ServerNews};
use super::config::{ServerConfig, Transport};
use super::known_tools::KnownTools;
use super::limits::{Limits, REQUEST_TIMEOUT};
use super::link::ServerLink;
use super::oauth::{self, Opener, SignInOptions, TokenStore};
use super::prompts::McpPrompt;
use super::sources::{Approval, ApprovalStore, Plan, Planned};
use super::tool::McpTool;
use crate::events::EventSink;
use crate::tool::DynTool;

/// Restarts after a crash before the server is left failed.
const MAX_RESTARTS: u32 = 5;
/// The first wait before a restart; it doubles each time.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long a sign-in waits for the browser's redirect.
const SIGN_IN_TIMEOUT: Duration = Duration::from_secs(600);

/// How the client meets the person: where remote servers' sign-ins are kept, how their authorization pages are
/// shown, and who answers servers' elicitation requests (none: servers are told the client does not take them).
#[derive(Clone)]
pub struct ClientSetup {
    pub tokens: TokenStore,
    pub opener: Opener,
    pub elicitor: Option<Arc<dyn Elicitor>>,
}

impl ClientSetup {
    /// The person's token store and the browser of this process ([`oauth::standard_opener`]).
    pub fn standard() -> Self {
        Self {
            tokens: TokenStore::standard(),
            opener: oauth::standard_opener(),
            elicitor: None,
        }
    }
}

/// A sign-in that has started: the page to open, and why the browser could not be opened (if it could not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInStarted {
    pub authorization_url: String,
    pub open_error: Option<String>,
}

/// The tools of every ready server, sorted by name: a cheap handle the tool pool reads on every model request.
#[derive(Clone, Default)]
pub struct McpTools(Arc<RwLock<ToolList>>);

/// One published set of tools.
type ToolList = Arc<Vec<Arc<dyn DynTool>>>;

impl std::fmt::Debug for McpTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.snapshot().iter().map(|t| t.name().to_string()))
            .finish()
    }
}

impl McpTools {
    /// The tools now.
    pub fn snapshot(&self) -> ToolList {
        match self.0.read() {
            Ok(t) => Arc::clone(&t),
            Err(p) => Arc::clone(&p.into_inner()),
        }
    }

    fn replace(&self, mut tools: Vec<Arc<dyn DynTool>>) {
        tools.sort_by(|a, b| a.name().cmp(b.name()));
        tools.dedup_by(|a, b| a.name() == b.name());
        let mut slot = match self.0.write() {
            Ok(s) => s,
            Err(p) => p.into_inner(),
        };
        *slot = Arc::new(tools);
    }
}

struct Slot {
    planned: Planned,
    status: McpServerStatus,
    link: Arc<ServerLink>,
    tools: Vec<Arc<dyn DynTool>>,
    /// Its prompts while it is ready.
    prompts: Vec<McpPrompt>,
    /// Stops this server's task.
    stop: Option<CancellationToken>,
    /// The last `WWW-Authenticate` challenge of a server that needs sign-in.
    challenge: Option<String>,
}

struct Inner {
    folder: PathBuf,
    /// The tools the person turned off: never offered.
    disabled: Mutex<BTreeSet<String>>,
    /// The tools servers listed in earlier sessions.
    known: Option<KnownTools>,
    events: Arc<dyn EventSink>,
    limits: Limits,
    slots: Mutex<BTreeMap<String, Slot>>,
    live: McpTools,
    shutdown: CancellationToken,
    /// Bumped on every change, so that callers can wait for a state.
    version: watch::Sender<u64>,
    auth: ClientSetup,
    /// Where the servers' tasks run (`None`: no runtime was at hand; servers cannot start).
    runtime: Option<tokio::runtime::Handle>,
}

/// The MCP servers of one session.
pub struct McpManager {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for McpManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpManager")
            .field("servers", &self.statuses())
            .finish()
    }
}

fn status_of(planned: &Planned) -> McpServerStatus {
    match planned {
        Planned::Server { config, approval } => McpServerStatus {
            name: config.name.clone(),
            transport: config.transport.kind().to_string(),
            target: config.transport.target(),
            source: config.origin.label(),
            state: match approval {
                Approval::Approved => McpServerState::Connecting,
                Approval::NeedsApproval => McpServerState::NeedsApproval,
                Approval::Disabled => McpServerState::Disabled,
            },
            tools: Vec::new(),
            disabled_tools: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
        },
        Planned::Invalid(e) => McpServerStatus {
            name: e.server.clone(),
            transport: String::new(),
            target: String::new(),
            source: e.origin.clone(),
            state: McpServerState::Failed {
                error: e.to_string(),
                stderr_tail: None,
            },
            tools: Vec::new(),
            disabled_tools: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
        },
    }
}

impl Inner {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Slot>> {
        match self.slots.lock() {
            Ok(s) => s,
            Err(p) => p.into_inner(),
        }
    }

    /// Changes one server's state (and tools), republishes the tool set and tells the window.
    fn update(&self, name: &str, state: McpServerState, tools: Option<Vec<Arc<dyn DynTool>>>) {
        let status = {
            let mut slots = self.lock();
            let Some(slot) = slots.get_mut(name) else {
                return;
            };
            if let Some(tools) = tools {
                slot.status.tools = tools.iter().map(|t| t.name().to_string()).collect();
                slot.tools = tools;
            }
            if state != McpServerState::Ready {
                slot.prompts.clear();
                slot.status.prompts.clear();
                slot.status.resources.clear();
            }
            slot.link.set_starting(state == McpServerState::Connecting);
            slot.status.state = state;
            // A starting server's tools are those it listed in an earlier session (a call waits for it).
            self.publish(&mut slots);
            slots.get(name).map(|s| s.status.clone())
        };
        if let Some(server) = status {
            self.events.emit(SessionEvent::McpServerChanged { server });
        }
        self.version.send_modify(|v| *v += 1);
    }

    /// Republishes the tool set from `slots`: the tools of ready servers and of starting ones (those they listed in
    /// an earlier session), less those turned off; each status says which of its tools are off.
    fn publish(&self, slots: &mut BTreeMap<String, Slot>) {
        let disabled = match self.disabled.lock() {
            Ok(d) => d.clone(),
            Err(p) => p.into_inner().clone(),
        };
        for slot in slots.values_mut() {
            slot.status.disabled_tools = slot
                .status
                .tools
                .iter()
                .filter(|t| disabled.contains(*t))
                .cloned()
                .collect();
        }
        let all: Vec<Arc<dyn DynTool>> = slots
            .values()
            .filter(|s| {
                s.status.state == McpServerState::Ready
                    || s.status.state == McpServerState::Connecting
            })
            .flat_map(|s| s.tools.iter().cloned())
            .filter(|t| !disabled.contains(t.name()))
            .collect();
        self.live.replace(all);
    }

    /// Replaces one server's prompts.
    fn set_prompts(&self, name: &str, prompts: Vec<McpPrompt>) {
        if let Some(slot) = self.lock().get_mut(name) {
            slot.status.prompts = prompts.iter().map(|p| p.remote.clone()).collect();
            slot.prompts = prompts;
        }
        self.version.send_modify(|v| *v += 1);
    }

    /// Replaces one server's resource list.
    fn set_resources(&self, name: &str, resources: Vec<McpResourceEntry>) {
        if let Some(slot) = self.lock().get_mut(name) {
            slot.status.resources = resources;
        }
    }

    fn stopping(&self) -> bool {
        self.shutdown.is_cancelled()
    }
}

/// Tools a server listed that cannot be offered: each one's name and why.
type Refused = Vec<(String, String)>;

/// A listing's tools as [`McpTool`]s, and the tools refused.
fn tools_from(
    listing: &[serde_json::Value],
    link: &Arc<ServerLink>,
) -> (Vec<Arc<dyn DynTool>>, Refused) {
    let mut tools = Vec::new();
    let mut refused = Vec::new();
    for entry in listing {
        match McpTool::from_listing(link.clone(), entry) {
            Ok(tool) => tools.push(Arc::new(tool) as Arc<dyn DynTool>),
            Err(why) => {
                let name = entry
                    .get("name")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("(unnamed)");
                refused.push((name.to_string(), why));
            }
        }
    }
    (tools, refused)
}

/// Lists a server's tools as [`McpTool`]s, recording the listing for later sessions.
async fn tools_of(
    inner: &Inner,
    config: &ServerConfig,
    connection: &Connection,
    link: &Arc<ServerLink>,
) -> Result<Vec<Arc<dyn DynTool>>, ClientError> {
    let listing = connection.list_tools(REQUEST_TIMEOUT).await?;
    if let Some(known) = &inner.known {
        known.record(&KnownTools::key(&inner.folder, config), &listing);
    }
    let (tools, refused) = tools_from(&listing, link);
    // Only these tools are left out; the server's others are offered.
    for (tool, why) in refused {
        inner.events.emit(SessionEvent::Notice {
            message: format!(
                "MCP server {}: the tool `{tool}` is not offered: {why}",
                config.name
            ),
        });
    }
    Ok(tools)
}

/// Lists a server's prompts (none when it offers none; a failed listing is logged, the server still serves tools).
async fn prompts_of(connection: &Connection, server: &str) -> Vec<McpPrompt> {
    if !connection.has_prompts() {
        return Vec::new();
    }
    match connection.list_prompts(REQUEST_TIMEOUT).await {
        Ok(listing) => listing
            .iter()
            .map(|p| McpPrompt::from_listing(server, p))
            .collect(),
        Err(e) => {
            tracing::warn!("MCP server {server}: prompts/list failed: {e}");
            Vec::new()
        }
    }
}

/// Lists a server's resources for the window (none when it offers none or the listing fails).
async fn resources_of(connection: &Connection, server: &str) -> Vec<McpResourceEntry> {
    if !connection.has_resources() {
        return Vec::new();
    }
    match connection.list_resources(REQUEST_TIMEOUT).await {
        Ok(listing) => listing
            .into_iter()
            .map(|r| McpResourceEntry {
                uri: r.uri.clone(),
                name: Some(r.name.clone()),
            })
            .collect(),
        Err(e) => {
            tracing::warn!("MCP server {server}: resources/list failed: {e}");
            Vec::new()
        }
    }
}

/// The sign-in of a remote server (none for stdio).
fn tokens_for(inner: &Inner, config: &ServerConfig) -> Option<oauth::ServerTokens> {
    match &config.transport {
        Transport::Http { url, .. } | Transport::Sse { url, .. } => {
            Some(inner.auth.tokens.for_server(url))
        }
        Transport::Stdio { .. } => None,
    }
}

/// Lists server `name` as needing sign-in, keeping the challenge for the sign-in.
fn needs_sign_in(inner: &Inner, name: &str, challenge: String) {
    if let Some(slot) = inner.lock().get_mut(name) {
        slot.challenge = Some(challenge);
    }
    let state = McpServerState::NeedsSignIn {
        authorization_url: None,
        error: None,
    };
    inner.update(name, state, Some(Vec::new()));
}

fn failed(error: String, stderr_tail: Option<String>) -> McpServerState {
    McpServerState::Failed { error, stderr_tail }
}

/// What to do about a server that asks for sign-in: sign in without a person when its configuration allows it
/// (see [`oauth::unattended`]; once until the server is ready again), else list it as needing sign-in. Returns
/// whether to connect again.
async fn on_auth_required(
    inner: &Arc<Inner>,
    config: &ServerConfig,
    challenge: String,
    tried: &mut bool,
) -> bool {
    let url = match &config.transport {
        Transport::Http { url, .. } | Transport::Sse { url, .. } => Some(url.as_str()),
        Transport::Stdio { .. } => None,
    };
    if !*tried
        && let (Some(client), Some(url), Some(tokens)) =
            (&config.oauth, url, tokens_for(inner, config))
    {
        *tried = true;
        match oauth::client_credentials(url, client, Some(&challenge), tokens).await {
            Ok(true) => return true,
            Ok(false) => {}
            Err(e) => {
                needs_sign_in(inner, &config.name, challenge);
                inner.update(
                    &config.name,
                    McpServerState::NeedsSignIn {
                        authorization_url: None,
                        error: Some(e.to_string()),
                    },
                    None,
                );
                return false;
            }
        }
    }
    needs_sign_in(inner, &config.name, challenge);
    false
}

/// Runs one server until `stop` fires: connect, serve, and after a crash wait and connect again.
async fn run_server(
    inner: Arc<Inner>,
    config: ServerConfig,
    link: Arc<ServerLink>,
    stop: CancellationToken,
) {
    let name = config.name.clone();
    let mut restarts = 0u32;
    let mut signed_in_unattended = false;
    'connect: loop {
        inner.update(&name, McpServerState::Connecting, None);
        let (news_tx, mut news) = mpsc::unbounded_channel();
        let tokens = tokens_for(&inner, &config);
        let opened = tokio::select! {
            c = Connection::open(
                &config,
                &inner.folder,
                inner.limits.startup,
                news_tx,
                tokens.as_ref(),
                inner.auth.elicitor.clone(),
            ) => c,
            _ = stop.cancelled() => return,
        };
        let connection = match opened {
            Ok(c) => Arc::new(c),
            Err(ClientError::AuthRequired { challenge }) => {
                let again = tokio::select! {
                    again = on_auth_required(&inner, &config, challenge, &mut signed_in_unattended) => again,
                    _ = stop.cancelled() => return,
                };
                if again {
                    continue 'connect;
                }
                return;
            }
            Err(e) => {
                inner.update(&name, failed(e.to_string(), None), Some(Vec::new()));
                if restarts == 0 {
                    // A server that never started is not retried: its configuration or command is wrong.
                    return;
                }
                restarts += 1;
                if restarts > MAX_RESTARTS || !backoff(restarts, &stop).await {
                    return;
                }
                continue;
            }
        };
        let tools = tokio::select! {
            t = async {
                (
                    tools_of(&inner, &config, &connection, &link).await,
                    prompts_of(&connection, &name).await,
                    resources_of(&connection, &name).await,
                )
            } => t,
            _ = stop.cancelled() => return,
        };
        match tools {
            (Ok(tools), prompts, resources) => {
                link.set(Some(connection.clone()));
                inner.set_prompts(&name, prompts);
                inner.set_resources(&name, resources);
                inner.update(&name, McpServerState::Ready, Some(tools));
                signed_in_unattended = false;
            }
            (Err(ClientError::AuthRequired { challenge }), _, _) => {
                connection.close();
                let again = tokio::select! {
                    again = on_auth_required(&inner, &config, challenge, &mut signed_in_unattended) => again,
                    _ = stop.cancelled() => return,
                };
                if again {
                    continue 'connect;
                }
                return;
            }
            (Err(e), _, _) => {
                connection.close();
                let error = format!("tools/list failed: {e}");
                inner.update(
                    &name,
                    failed(error, connection.stderr.text()),
                    Some(Vec::new()),
                );
                return;
            }
        }
        loop {
            tokio::select! {
                _ = stop.cancelled() => {
                    link.set(None);
                    connection.close();
                    return;
                }
                item = news.recv() => match item {
                    Some(ServerNews::Tools) => match tools_of(&inner, &config, &connection, &link).await {
                        Ok(tools) => inner.update(&name, McpServerState::Ready, Some(tools)),
                        Err(e) => tracing::warn!("MCP server {name}: tools/list failed: {e}"),
                    },
                    Some(ServerNews::Prompts) => {
                        inner.set_prompts(&name, prompts_of(&connection, &name).await);
                        // Tells the window, which lists the prompts again.
                        inner.update(&name, McpServerState::Ready, None);
                    }
                    Some(ServerNews::SignIn(challenge)) => {
                        link.set(None);
                        connection.close();
                        let again = tokio::select! {
                            again = on_auth_required(&inner, &config, challenge, &mut signed_in_unattended) => again,
                            _ = stop.cancelled() => return,
                        };
                        if again {
                            continue 'connect;
                        }
                        return;
                    }
                    Some(ServerNews::Resources) => {
                        inner.set_resources(&name, resources_of(&connection, &name).await);
                        inner.update(&name, McpServerState::Ready, None);
                    }
                    None => {}
                },
                _ = connection.ended() => break,
            }
        }
        link.set(None);
        if stop.is_cancelled() || inner.stopping() {
            return;
        }
        restarts += 1;
        let mut error = "the server stopped".to_string();
        if restarts <= MAX_RESTARTS {
            let wait = backoff_for(restarts);
            error.push_str(&format!("; restarting in {:.1} s", wait.as_secs_f64()));
        } else {
            error.push_str(&format!(
                " {MAX_RESTARTS} times; not restarting (reconnect to try again)"
            ));
        }
        inner.update(
            &name,
            failed(error, connection.stderr.text()),
            Some(Vec::new()),
        );
        drop(connection);
        if restarts > MAX_RESTARTS || !backoff(restarts, &stop).await {
            return;
        }
    }
}

/// Starts signing in to remote server `name` (see [`McpManager::sign_in`]).
async fn sign_in(
    inner: &Arc<Inner>,
    name: &str,
    mut options: SignInOptions,
) -> Result<SignInStarted, String> {
    let (url, challenge, client) = {
        let slots = inner.lock();
        let slot = slots
            .get(name)
            .ok_or_else(|| format!("there is no MCP server `{name}`"))?;
        let Planned::Server { config, .. } = &slot.planned else {
            return Err(format!("MCP server `{name}` is not configured correctly"));
        };
        match &config.transport {
            Transport::Http { url, .. } | Transport::Sse { url, .. } => {
                (url.clone(), slot.challenge.clone(), config.oauth.clone())
            }
            Transport::Stdio { .. } => {
                return Err(format!(
                    "MCP server `{name}` runs locally (stdio): there is nothing to sign in to"
                ));
            }
        }
    };
    if options.challenge.is_none() {
        options.challenge = challenge;
    }
    // The client the configuration names, unless the caller gave one.
    if let Some(client) = client.filter(|_| options.client_id.is_none()) {
        options.client_id = Some(client.client_id);
        options.client_secret = client.client_secret;
        if options.scopes.is_empty() {
            options.scopes = client.scopes;
        }
    }
    let tokens = inner.auth.tokens.for_server(&url);
    let started = oauth::begin(
        &url,
        options,
        tokens,
        inner.auth.opener.as_ref(),
        SIGN_IN_TIMEOUT,
    )
    .await
    .map_err(|e| e.to_string())?;
    let authorization_url = started.authorization_url.clone();
    inner.update(
        name,
        McpServerState::NeedsSignIn {
            authorization_url: Some(authorization_url.clone()),
            error: None,
        },
        None,
    );
    let inner = Arc::downgrade(inner);
    let server = name.to_string();
    let done = started.done;
    tokio::spawn(async move {
        let outcome = match done.await {
            Ok(outcome) => outcome.map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let Some(inner) = inner.upgrade() else {
            return;
        };
        match outcome {
            Ok(()) => restart(&inner, &server),
            Err(error) => inner.update(
                &server,
                McpServerState::NeedsSignIn {
                    authorization_url: None,
                    error: Some(error),
                },
                None,
            ),
        }
    });
    Ok(SignInStarted {
        authorization_url,
        open_error: started.open_error,
    })
}

/// Starts sign-ins on a manager while it lives.
#[derive(Clone)]
pub struct SignInHandle(std::sync::Weak<Inner>);

impl SignInHandle {
    /// [`McpManager::sign_in`]; an error once the manager is gone.
    pub async fn sign_in(&self, name: &str) -> Result<SignInStarted, String> {
        let inner = self
            .0
            .upgrade()
            .ok_or_else(|| "the session's MCP servers are stopped".to_string())?;
        sign_in(&inner, name, SignInOptions::default()).await
    }

    /// The remote servers that need sign-in now.
    pub fn waiting(&self) -> Vec<String> {
        self.0
            .upgrade()
            .map(|inner| {
                inner
                    .lock()
                    .values()
                    .filter(|s| matches!(s.status.state, McpServerState::NeedsSignIn { .. }))
                    .map(|s| s.status.name.clone())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Stops `name`'s task and starts it again.
fn restart(inner: &Arc<Inner>, name: &str) {
    let stop = inner.lock().get_mut(name).and_then(|s| s.stop.take());
    if let Some(stop) = stop {
        stop.cancel();
    }
    launch(inner, name);
}

fn backoff_for(restarts: u32) -> Duration {
    FIRST_BACKOFF
        .saturating_mul(2u32.saturating_pow(restarts.saturating_sub(1)))
        .min(MAX_BACKOFF)
}

/// Waits before restart number `restarts`; `false` when stopped meanwhile.
async fn backoff(restarts: u32, stop: &CancellationToken) -> bool {
    tokio::select! {
        _ = tokio::time::sleep(backoff_for(restarts)) => true,
        _ = stop.cancelled() => false,
    }
}

/// Starts `name`'s task if it is approved and not running.
fn launch(inner: &Arc<Inner>, name: &str) {
    let (config, link, stop) = {
        let mut slots = inner.lock();
        let Some(slot) = slots.get_mut(name) else {
            return;
        };
        let Planned::Server {
            config,
            approval: Approval::Approved,
        } = &slot.planned
        else {
            return;
        };
        if slot.stop.is_some() {
            return;
        }
        let stop = inner.shutdown.child_token();
        slot.stop = Some(stop.clone());
        (config.clone(), slot.link.clone(), stop)
    };
    match &inner.runtime {
        Some(handle) => {
            // Connecting from now on, not from whenever the task first runs: whoever started it (a reconnect, an
            // approval) sees the new connection's state, never the old one's.
            inner.update(name, McpServerState::Connecting, None);
            handle.spawn(run_server(inner.clone(), config, link, stop));
        }
        None => inner.update(
            name,
            failed("no async runtime to start the server on".into(), None),
            None,
        ),
    }
}

impl McpManager {
    /// Starts every approved server of `plan` in the background (on the current Tokio runtime; without one,
    /// servers are listed as failed). Problems with whole files are sent as notices.
    pub fn start(folder: &Path, plan: Plan, limits: Limits, events: Arc<dyn EventSink>) -> Self {
        Self::start_with(folder, plan, limits, events, KnownTools::standard())
    }

    /// [`Self::start`] on the runtime `runtime` (`None`: the current one): every server this manager starts —
    /// now, when approved, when reconnected or restarted — runs there, whichever thread asks.
    pub fn start_on(
        runtime: Option<tokio::runtime::Handle>,
        folder: &Path,
        plan: Plan,
        limits: Limits,
        events: Arc<dyn EventSink>,
    ) -> Self {
        Self::start_in(
            runtime.or_else(|| tokio::runtime::Handle::try_current().ok()),
            folder,
            plan,
            limits,
            events,
            KnownTools::standard(),
            ClientSetup::standard(),
        )
    }

    /// [`Self::start`] with a given store of the tools servers listed before (`None`: every server starts
    /// without tools until it is ready).
    pub fn start_with(
        folder: &Path,
        plan: Plan,
        limits: Limits,
        events: Arc<dyn EventSink>,
        known: Option<KnownTools>,
    ) -> Self {
        Self::start_signed(folder, plan, limits, events, known, ClientSetup::standard())
    }

    /// [`Self::start_with`] with a given place for sign-ins and way of showing authorization pages.
    pub fn start_signed(
        folder: &Path,
        plan: Plan,
        limits: Limits,
        events: Arc<dyn EventSink>,
        known: Option<KnownTools>,
        auth: ClientSetup,
    ) -> Self {
        Self::start_in(
            tokio::runtime::Handle::try_current().ok(),
            folder,
            plan,
            limits,
            events,
            known,
            auth,
        )
    }

    pub(crate) fn start_in(
        runtime: Option<tokio::runtime::Handle>,
        folder: &Path,
        plan: Plan,
        limits: Limits,
        events: Arc<dyn EventSink>,
        known: Option<KnownTools>,
        auth: ClientSetup,
    ) -> Self {
        for error in &plan.file_errors {
            events.emit(SessionEvent::Notice {
                message: format!("MCP configuration problem: {error}"),
            });
        }
        let (version, _) = watch::channel(0);
        let inner = Arc::new(Inner {
            folder: folder.to_path_buf(),
            disabled: Mutex::new(plan.disabled_tools.iter().cloned().collect()),
            known,
            events,
            limits,
            slots: Mutex::new(BTreeMap::new()),
            live: McpTools::default(),
            shutdown: CancellationToken::new(),
            version,
            auth,
            runtime,
        });
        {
            let mut slots = inner.lock();
            for planned in plan.servers {
                let mut status = status_of(&planned);
                let link = Arc::new(ServerLink::new(status.name.clone(), limits));
                let mut tools = Vec::new();
                if let (
                    Planned::Server {
                        config,
                        approval: Approval::Approved,
                    },
                    Some(known),
                ) = (&planned, &inner.known)
                    && let Some(listing) = known.get(&KnownTools::key(folder, config))
                {
                    tools = tools_from(&listing, &link).0;
                    status.tools = tools.iter().map(|t| t.name().to_string()).collect();
                    link.set_starting(true);
                }
                slots.insert(
                    status.name.clone(),
                    Slot {
                        link,
                        status,
                        planned,
                        tools,
                        prompts: Vec::new(),
                        stop: None,
                        challenge: None,
                    },
                );
            }
        }
        inner.publish(&mut inner.lock());
        let manager = Self { inner };
        let names: Vec<String> = manager.inner.lock().keys().cloned().collect();
        for name in names {
            let status = manager.status(&name);
            if let Some(status) = status {
                manager
                    .inner
                    .events
                    .emit(SessionEvent::McpServerChanged { server: status });
            }
            manager.launch(&name);
        }
        manager
    }

    /// Starts `name`'s task if it is approved and not running.
    fn launch(&self, name: &str) {
        launch(&self.inner, name);
    }

    /// The live tool set, for the tool pool.
    pub fn tools(&self) -> McpTools {
        self.inner.live.clone()
    }

    /// A function giving the links of the servers ready at the time of the call (for the resource tools); it
    /// does not keep the manager alive.
    pub fn ready_links(&self) -> Arc<dyn Fn() -> Vec<Arc<ServerLink>> + Send + Sync> {
        let weak = Arc::downgrade(&self.inner);
        Arc::new(move || {
            weak.upgrade()
                .map(|inner| {
                    inner
                        .lock()
                        .values()
                        .filter(|s| s.status.state == McpServerState::Ready)
                        .map(|s| s.link.clone())
                        .collect()
                })
                .unwrap_or_default()
        })
    }

    /// A function giving the links of every server at the time of the call, started or not (a call through a
    /// starting server's link waits for it); it does not keep the manager alive.
    pub fn all_links(&self) -> super::AllLinks {
        let weak = Arc::downgrade(&self.inner);
        Arc::new(move || {
            weak.upgrade()
                .map(|inner| inner.lock().values().map(|s| s.link.clone()).collect())
                .unwrap_or_default()
        })
    }

    /// The prompts of the ready servers, by server and name.
    pub fn prompts(&self) -> Vec<McpPrompt> {
        self.inner
            .lock()
            .values()
            .filter(|s| s.status.state == McpServerState::Ready)
            .flat_map(|s| s.prompts.iter().cloned())
            .collect()
    }

    /// The link of server `name` (whether it is up or not).
    pub fn link(&self, name: &str) -> Option<Arc<ServerLink>> {
        self.inner.lock().get(name).map(|s| s.link.clone())
    }

    /// Waits until server `name` is no longer connecting, at most `timeout`; its state then.
    pub async fn settle(&self, name: &str, timeout: Duration) -> Option<McpServerState> {
        self.wait_until(timeout, |all| {
            all.iter()
                .any(|s| s.name == name && s.state != McpServerState::Connecting)
        })
        .await;
        self.status(name).map(|s| s.state)
    }

    /// The limits the servers run under.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// Every server's status, by name.
    pub fn statuses(&self) -> Vec<McpServerStatus> {
        self.inner
            .lock()
            .values()
            .map(|s| s.status.clone())
            .collect()
    }

    /// One server's status.
    pub fn status(&self, name: &str) -> Option<McpServerStatus> {
        self.inner.lock().get(name).map(|s| s.status.clone())
    }

    /// Waits until `done` holds for the statuses (checked after every change), or `timeout` passes; returns
    /// whether it holds.
    pub async fn wait_until(
        &self,
        timeout: Duration,
        done: impl Fn(&[McpServerStatus]) -> bool,
    ) -> bool {
        let mut changes = self.inner.version.subscribe();
        let wait = async {
            loop {
                if done(&self.statuses()) {
                    return true;
                }
                if changes.changed().await.is_err() {
                    return done(&self.statuses());
                }
            }
        };
        tokio::time::timeout(timeout, wait).await.unwrap_or(false)
    }

    /// Waits until every server is usable: no longer connecting, or connecting with the tools it listed in an
    /// earlier session (or `timeout` passes). A one-shot run waits for this before its prompt.
    pub async fn usable(&self, timeout: Duration) -> bool {
        self.wait_until(timeout, |all| {
            all.iter()
                .all(|s| s.state != McpServerState::Connecting || !s.tools.is_empty())
        })
        .await
    }

    /// Waits until no server is connecting (or `timeout` passes).
    pub async fn settled(&self, timeout: Duration) -> bool {
        self.wait_until(timeout, |all| {
            all.iter().all(|s| s.state != McpServerState::Connecting)
        })
        .await
    }

    /// Records the person's answer about a project server and starts or stops it.
    pub fn approve(
        &self,
        name: &str,
        approved: bool,
        store: &ApprovalStore,
    ) -> std::io::Result<()> {
        store.record(&self.inner.folder, name, approved)?;
        let stop = {
            let mut slots = self.inner.lock();
            let Some(slot) = slots.get_mut(name) else {
                return Ok(());
            };
            if let Planned::Server { approval, .. } = &mut slot.planned {
                *approval = if approved {
                    Approval::Approved
                } else {
                    Approval::Disabled
                };
            }
            if approved { None } else { slot.stop.take() }
        };
        if approved {
            self.launch(name);
        } else {
            if let Some(stop) = stop {
                stop.cancel();
            }
            self.inner
                .update(name, McpServerState::Disabled, Some(Vec::new()));
        }
        Ok(())
    }

    /// Approves every server that waits for the person's approval (those the project itself defines), records the
    /// answers and starts them: trusting a folder whose trust question listed its servers. Returns their names.
    pub fn approve_waiting(&self, store: &ApprovalStore) -> std::io::Result<Vec<String>> {
        let waiting: Vec<String> = self
            .inner
            .lock()
            .iter()
            .filter(|(_, slot)| {
                matches!(
                    slot.planned,
                    Planned::Server {
                        approval: Approval::NeedsApproval,
                        ..
                    }
                )
            })
            .map(|(name, _)| name.clone())
            .collect();
        for name in &waiting {
            self.approve(name, true, store)?;
        }
        Ok(waiting)
    }

    /// Turns the MCP tool `tool` (full name) on or off for the model; the statuses of its server change.
    pub fn set_tool_enabled(&self, tool: &str, enabled: bool) {
        if let Ok(mut disabled) = self.inner.disabled.lock() {
            if enabled {
                disabled.remove(tool);
            } else {
                disabled.insert(tool.to_string());
            }
        }
        let changed: Vec<McpServerStatus> = {
            let mut slots = self.inner.lock();
            self.inner.publish(&mut slots);
            slots
                .values()
                .filter(|s| s.status.tools.iter().any(|t| t == tool))
                .map(|s| s.status.clone())
                .collect()
        };
        for server in changed {
            self.inner
                .events
                .emit(SessionEvent::McpServerChanged { server });
        }
        self.inner.version.send_modify(|v| *v += 1);
    }

    /// Stops `name` and starts it again (the window's "reconnect").
    pub fn reconnect(&self, name: &str) {
        restart(&self.inner, name);
    }

    /// Starts signing in to remote server `name`: its authorization page goes to the opener, and once the browser
    /// comes back (or the sign-in fails) the server reconnects (or says why in its state). The error says why
    /// the sign-in could not start.
    pub async fn sign_in(
        &self,
        name: &str,
        options: SignInOptions,
    ) -> Result<SignInStarted, String> {
        sign_in(&self.inner, name, options).await
    }

    /// A handle that starts sign-ins without keeping the manager alive (for the `McpAuth` tool).
    pub fn sign_in_handle(&self) -> SignInHandle {
        SignInHandle(Arc::downgrade(&self.inner))
    }
}

impl Drop for McpManager {
    fn drop(&mut self) {
        self.inner.shutdown.cancel();
        for slot in self.inner.lock().values() {
            if let Some(connection) = slot.link.connection() {
                connection.close();
            }
            slot.link.set(None);
        }
    }
}
