//! One JSON-RPC connection to a running server: requests with their answers matched by id, notifications both
//! ways, the server's own requests answered, published diagnostics kept; when the server's output ends, every
//! waiting request ends at once with the reason.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lsp_types::notification::Notification;
use lsp_types::request::Request;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::LspError;
use super::codec::{frame, read_message};
use super::diagnostics::DiagnosticStore;

type Answer = Result<Value, String>;

/// How long a stopped server's error output is waited for, to say why it stopped.
const STDERR_GRACE: Duration = Duration::from_secs(1);

/// What the server's own requests are answered with.
#[derive(Debug, Clone, Default)]
pub struct Replies {
    /// The `settings` of the configuration (`workspace/configuration`).
    pub settings: Option<Value>,
    /// The workspace folders (`workspace/workspaceFolders`).
    pub folders: Value,
}

/// The connection. Dropping it stops its reader and writer tasks once the server's streams close.
#[derive(Debug)]
pub struct Connection {
    server: String,
    outgoing: mpsc::UnboundedSender<Vec<u8>>,
    pending: Arc<Mutex<HashMap<i64, oneshot::Sender<Answer>>>>,
    next_id: AtomicI64,
    closed: CancellationToken,
    reason: Arc<Mutex<Option<String>>>,
    pub diagnostics: Arc<DiagnosticStore>,
}

impl Connection {
    /// Starts the reader and writer tasks on the server's streams. `stderr_tail` resolves to the last lines the
    /// server wrote to its error output once that has ended, for the reason when the connection ends (it is waited
    /// for at most [`STDERR_GRACE`]).
    pub fn start(
        server: &str,
        input: impl AsyncWrite + Send + Unpin + 'static,
        output: impl AsyncRead + Send + Unpin + 'static,
        replies: Replies,
        stderr_tail: impl Future<Output = String> + Send + 'static,
    ) -> Self {
        let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let closed = CancellationToken::new();
        let reason = Arc::new(Mutex::new(None));
        let pending: Arc<Mutex<HashMap<i64, oneshot::Sender<Answer>>>> = Arc::default();
        let diagnostics = Arc::new(DiagnosticStore::default());
        let close = {
            let closed = closed.clone();
            let reason = reason.clone();
            let pending = pending.clone();
            move |why: String| {
                if let Ok(mut slot) = reason.lock()
                    && slot.is_none()
                {
                    *slot = Some(why.clone());
                }
                closed.cancel();
                if let Ok(mut waiting) = pending.lock() {
                    for (_, answer) in waiting.drain() {
                        let _ = answer.send(Err(why.clone()));
                    }
                }
            }
        };
        let writer_close = close.clone();
        let writer_closed = closed.clone();
        tokio::spawn(async move {
            let mut input = input;
            loop {
                let message = tokio::select! {
                    m = rx.recv() => m,
                    () = writer_closed.cancelled() => None,
                };
                let Some(message) = message else { break };
                let written = async {
                    input.write_all(&message).await?;
                    input.flush().await
                };
                if let Err(e) = written.await {
                    writer_close(format!("writing to it failed: {e}"));
                    break;
                }
            }
        });
        let reader_tx = tx.clone();
        let reader_pending = pending.clone();
        let reader_diagnostics = diagnostics.clone();
        tokio::spawn(async move {
            let mut output = BufReader::new(output);
            let why = loop {
                match read_message(&mut output).await {
                    Ok(Some(body)) => {
                        let Ok(message) = serde_json::from_slice::<Value>(&body) else {
                            continue;
                        };
                        dispatch(
                            message,
                            &reader_pending,
                            &reader_tx,
                            &reader_diagnostics,
                            &replies,
                        );
                    }
                    Ok(None) => break "it exited".to_string(),
                    Err(e) => break format!("reading from it failed: {e}"),
                }
            };
            let tail = tokio::time::timeout(STDERR_GRACE, stderr_tail)
                .await
                .unwrap_or_default();
            close(if tail.is_empty() {
                why
            } else {
                format!("{why}; its last output: {tail}")
            });
        });
        Self {
            server: server.to_string(),
            outgoing: tx,
            pending,
            next_id: AtomicI64::new(1),
            closed,
            reason,
            diagnostics,
        }
    }

    /// Whether the server's output is still open.
    pub fn is_alive(&self) -> bool {
        !self.closed.is_cancelled()
    }

    /// Why the connection ended (`None` while it is alive).
    pub fn close_reason(&self) -> Option<String> {
        self.reason.lock().ok().and_then(|r| r.clone())
    }

    /// Fires when the connection ends.
    pub fn closed(&self) -> CancellationToken {
        self.closed.clone()
    }

    fn crashed(&self) -> LspError {
        LspError::Crashed {
            server: self.server.clone(),
            reason: self
                .close_reason()
                .unwrap_or_else(|| "the connection closed".into()),
        }
    }

    /// Sends a notification (nothing is sent once the connection has ended).
    pub fn notify<N: Notification>(&self, params: N::Params) {
        self.send(json!({"jsonrpc": "2.0", "method": N::METHOD, "params": params}));
    }

    fn send(&self, message: Value) {
        if let Ok(body) = serde_json::to_vec(&message) {
            let _ = self.outgoing.send(frame(&body));
        }
    }

    /// Sends request `R` and waits for its answer, at most `timeout`. Ends at once with [`LspError::Crashed`] when
    /// the server stops, [`LspError::Cancelled`] when `cancel` fires (the server is told to cancel too).
    pub async fn request<R: Request>(
        &self,
        params: R::Params,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<R::Result, LspError> {
        let value = self
            .request_value(
                R::METHOD,
                serde_json::to_value(params).unwrap_or(Value::Null),
                timeout,
                cancel,
            )
            .await?;
        serde_json::from_value(value).map_err(|e| LspError::Server {
            server: self.server.clone(),
            method: R::METHOD.to_string(),
            message: format!("its answer does not fit the protocol: {e}"),
        })
    }

    async fn request_value(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<Value, LspError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id, tx);
        }
        if !self.is_alive() {
            self.forget(id);
            return Err(self.crashed());
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let outcome = tokio::select! {
            answer = rx => Some(answer),
            () = tokio::time::sleep(timeout) => None,
            () = cancel.cancelled() => {
                self.forget(id);
                self.notify::<lsp_types::notification::Cancel>(lsp_types::CancelParams { id: lsp_types::NumberOrString::Number(id as i32) });
                return Err(LspError::Cancelled);
            }
        };
        match outcome {
            Some(Ok(Ok(value))) => Ok(value),
            Some(Ok(Err(message))) if self.is_alive() => Err(LspError::Server {
                server: self.server.clone(),
                method: method.to_string(),
                message,
            }),
            Some(_) => Err(self.crashed()),
            None => {
                self.forget(id);
                self.notify::<lsp_types::notification::Cancel>(lsp_types::CancelParams {
                    id: lsp_types::NumberOrString::Number(id as i32),
                });
                Err(LspError::Timeout {
                    server: self.server.clone(),
                    method: method.to_string(),
                    seconds: timeout.as_secs().max(1),
                })
            }
        }
    }

    fn forget(&self, id: i64) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&id);
        }
    }
}

/// Handles one message from the server: an answer, a request of its own, or a notification.
fn dispatch(
    message: Value,
    pending: &Mutex<HashMap<i64, oneshot::Sender<Answer>>>,
    outgoing: &mpsc::UnboundedSender<Vec<u8>>,
    diagnostics: &DiagnosticStore,
    replies: &Replies,
) {
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").cloned();
    match (method, id) {
        (None, Some(id)) => {
            let Some(id) = id.as_i64() else { return };
            let Some(answer) = pending.lock().ok().and_then(|mut p| p.remove(&id)) else {
                return;
            };
            let result = match message.get("error") {
                Some(error) => Err(error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error")
                    .to_string()),
                None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
            };
            let _ = answer.send(result);
        }
        (Some(method), Some(id)) => {
            let reply = match method {
                "workspace/configuration" => {
                    let items = message
                        .pointer("/params/items")
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len);
                    let settings = replies.settings.clone().unwrap_or(Value::Null);
                    json!({"jsonrpc": "2.0", "id": id, "result": vec![settings; items]})
                }
                "workspace/workspaceFolders" => {
                    json!({"jsonrpc": "2.0", "id": id, "result": replies.folders})
                }
                "window/workDoneProgress/create"
                | "client/registerCapability"
                | "client/unregisterCapability"
                | "window/showMessageRequest"
                | "workspace/diagnostic/refresh"
                | "workspace/semanticTokens/refresh"
                | "workspace/inlayHint/refresh"
                | "workspace/codeLens/refresh" => {
                    json!({"jsonrpc": "2.0", "id": id, "result": null})
                }
                _ => json!({"jsonrpc": "2.0", "id": id,
                            "error": {"code": -32601, "message": format!("{method} is not supported")}}),
            };
            if let Ok(body) = serde_json::to_vec(&reply) {
                let _ = outgoing.send(frame(&body));
            }
        }
        (Some(lsp_types::notification::PublishDiagnostics::METHOD), None) => {
            if let Some(params) = message
                .get("params")
                .cloned()
                .and_then(|p| serde_json::from_value(p).ok())
            {
                diagnostics.publish(params);
            }
        }
        _ => {}
    }
}
