//! The sessions an ACP connection holds: opening one in a folder (stored like any session, with the client's MCP
//! servers beside the folder's own), reopening a stored one with its history replayed, running a prompt until it
//! ends or the client cancels it, and ending them all when the connection closes.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{McpServer, StopReason};
use serde_json::{Map, Value, json};
use tandem_engine::mcp::McpCliConfig;
use tandem_engine::model::ModelConfig;
use tandem_engine::session::{EndReason, FittedImage, Session};
use tandem_engine::store::SessionStore;
use tandem_protocol::TurnStopReason;
use tokio_util::sync::CancellationToken;

use super::approver::AcpApprover;
use super::updates::UpdateSink;

/// A session open on this connection.
pub struct Live {
    pub session: Session,
    store: Arc<SessionStore>,
    /// Its updates (the slash commands are sent again after each prompt: a turn may add skills).
    sink: Arc<UpdateSink>,
    /// Cancels the running prompt (`session/cancel`).
    turn: Mutex<Option<CancellationToken>>,
}

/// Why a session could not be opened or a prompt failed: the message for the client.
pub type Failure = String;

/// Every session of the connection, by id.
pub struct Sessions {
    store: Arc<SessionStore>,
    /// The model new sessions get; read again when the client authenticates (a key saved since).
    model: Mutex<ModelConfig>,
    open: Mutex<HashMap<String, Arc<Live>>>,
}

impl Sessions {
    pub fn new(store: Arc<SessionStore>, model: ModelConfig) -> Self {
        Self {
            store,
            model: Mutex::new(model),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The model new sessions get.
    pub fn model(&self) -> ModelConfig {
        self.model
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Replaces the model new sessions get.
    pub fn set_model(&self, model: ModelConfig) {
        *self
            .model
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = model;
    }

    pub fn store(&self) -> &Arc<SessionStore> {
        &self.store
    }

    /// The open session `id`.
    pub fn get(&self, id: &str) -> Result<Arc<Live>, Failure> {
        self.open
            .lock()
            .map_err(|_| "the session table is unusable".to_string())?
            .get(id)
            .cloned()
            .ok_or_else(|| format!("no open session {id}"))
    }

    /// Opens a new session in `cwd`, or reopens stored session `resume` — replaying its history as updates when
    /// `replay` (`session/load`; `session/resume` does not).
    pub fn open(
        &self,
        connection: &ConnectionTo<Client>,
        cwd: &Path,
        resume: Option<&str>,
        replay: bool,
        mcp_servers: &[McpServer],
    ) -> Result<Arc<Live>, Failure> {
        if let Some(id) = resume
            && self.get(id).is_ok()
        {
            return Err(format!("session {id} is already open on this connection"));
        }
        let builder = match resume {
            Some(id) => Session::resuming(self.store.clone(), id),
            None => Session::builder(cwd),
        };
        let mut builder = builder.map_err(|e| e.to_string())?;
        let id = builder.session_id();
        let history = builder
            .stored()
            .filter(|_| replay)
            .map(|loaded| loaded.events.clone())
            .unwrap_or_default();
        let sink = Arc::new(UpdateSink::new(connection.clone(), id.clone()));
        let configs = if mcp_servers.is_empty() {
            Vec::new()
        } else {
            vec![mcp_config(mcp_servers).to_string()]
        };
        let session = builder
            .model(self.model())
            .approver(Arc::new(AcpApprover::new(connection.clone(), id.clone())))
            .remote_agents(tandem_engine::hosted::RemoteSubAgents::standard())
            .events(sink.clone())
            .store(Some(self.store.clone()))
            .watch_settings(true)
            .interactive(true)
            .budget(
                tandem_engine::settings::AppSettingsFile::standard()
                    .map(|file| file.budget())
                    .unwrap_or_default(),
            )
            .mcp_config(McpCliConfig {
                configs,
                strict: false,
            })
            .build()
            .map_err(|e| e.to_string())?;
        sink.set_context_window(session.info().context_window);
        for stored in history {
            sink.send(stored.event, true);
        }
        sink.commands(&session.slash_commands());
        let live = Arc::new(Live {
            session,
            store: self.store.clone(),
            sink,
            turn: Mutex::new(None),
        });
        self.open
            .lock()
            .map_err(|_| "the session table is unusable".to_string())?
            .insert(id, live.clone());
        Ok(live)
    }

    /// Ends every session (SessionEnd hooks) and waits for the store's last writes.
    pub async fn close_all(&self) {
        let all: Vec<Arc<Live>> = match self.open.lock() {
            Ok(mut open) => open.drain().map(|(_, live)| live).collect(),
            Err(_) => Vec::new(),
        };
        for live in all {
            live.session.interrupt();
            live.session.end(EndReason::Other).await;
        }
        if let Err(e) = self.store.flush_async().await {
            eprintln!("tandem: the sessions were not saved completely: {e}");
        }
    }
}

impl Live {
    /// Runs `prompt` to its end, or until the client cancels it (then interrupting the turn, again should it have
    /// begun after the cancel, until it ends).
    pub async fn prompt(
        &self,
        prompt: &str,
        images: Vec<FittedImage>,
    ) -> Result<StopReason, Failure> {
        let token = CancellationToken::new();
        if let Ok(mut turn) = self.turn.lock() {
            *turn = Some(token.clone());
        }
        let send = self.session.send_with_images(prompt, images);
        tokio::pin!(send);
        let sent = tokio::select! {
            sent = &mut send => sent,
            _ = token.cancelled() => loop {
                self.session.interrupt();
                if let Ok(sent) = tokio::time::timeout(Duration::from_millis(50), &mut send).await {
                    break sent;
                }
            },
        };
        if let Ok(mut turn) = self.turn.lock() {
            *turn = None;
        }
        self.sink.commands(&self.session.slash_commands());
        // The turn is stored before the client hears it ended: an editor that quits then loses nothing.
        if let Err(e) = self.store.flush_async().await {
            return Err(format!("the session was not saved completely: {e}"));
        }
        if token.is_cancelled() {
            return Ok(StopReason::Cancelled);
        }
        let outcome = sent.map_err(|e| e.to_string())?;
        match outcome.stop_reason {
            TurnStopReason::EndTurn => Ok(StopReason::EndTurn),
            TurnStopReason::MaxTokens => Ok(StopReason::MaxTokens),
            TurnStopReason::MaxTurns => Ok(StopReason::MaxTurnRequests),
            TurnStopReason::Refusal => Ok(StopReason::Refusal),
            TurnStopReason::Interrupted => Ok(StopReason::Cancelled),
            TurnStopReason::BudgetReached => Err(
                "the spending budget set to stop is reached; no further model request was made"
                    .into(),
            ),
            TurnStopReason::Error => Err(if outcome.final_text.is_empty() {
                "the turn ended with an error".into()
            } else {
                outcome.final_text
            }),
        }
    }

    /// Cancels the running prompt, if any.
    pub fn cancel(&self) {
        if let Ok(turn) = self.turn.lock()
            && let Some(token) = turn.as_ref()
        {
            token.cancel();
        }
    }
}

/// The client's MCP servers as an `mcpServers` object, the form `--mcp-config` takes: they join the folder's own
/// and are started under the same rules.
pub fn mcp_config(servers: &[McpServer]) -> Value {
    let mut all = Map::new();
    for server in servers {
        let (name, config) = match server {
            McpServer::Stdio(s) => (
                s.name.clone(),
                json!({
                    "command": s.command,
                    "args": s.args,
                    "env": s.env.iter().map(|v| (v.name.clone(), Value::String(v.value.clone())))
                        .collect::<Map<String, Value>>(),
                }),
            ),
            McpServer::Http(s) => (
                s.name.clone(),
                json!({"type": "http", "url": s.url, "headers": headers(&s.headers)}),
            ),
            McpServer::Sse(s) => (
                s.name.clone(),
                json!({"type": "sse", "url": s.url, "headers": headers(&s.headers)}),
            ),
            _ => continue,
        };
        all.insert(name, config);
    }
    json!({ "mcpServers": all })
}

fn headers(list: &[agent_client_protocol::v1::schema::HttpHeader]) -> Map<String, Value> {
    list.iter()
        .map(|h| (h.name.clone(), Value::String(h.value.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_client_protocol::v1::schema::{
        EnvVariable, HttpHeader, McpServerHttp, McpServerStdio,
    };

    #[test]
    fn client_servers_become_an_mcp_servers_object() {
        let servers = vec![
            McpServer::Stdio(
                McpServerStdio::new("files", "/usr/bin/files")
                    .args(vec!["--root".into(), "/p".into()])
                    .env(vec![EnvVariable::new("TOKEN", "t")]),
            ),
            McpServer::Http(
                McpServerHttp::new("docs", "https://docs.example/mcp")
                    .headers(vec![HttpHeader::new("Authorization", "Bearer x")]),
            ),
        ];
        assert_eq!(
            mcp_config(&servers),
            json!({"mcpServers": {
                "files": {"command": "/usr/bin/files", "args": ["--root", "/p"], "env": {"TOKEN": "t"}},
                "docs": {"type": "http", "url": "https://docs.example/mcp",
                         "headers": {"Authorization": "Bearer x"}},
            }})
        );
    }
}
