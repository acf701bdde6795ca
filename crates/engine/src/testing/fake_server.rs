//! The fake model server: a real axum HTTP server on 127.0.0.1 that answers `POST /v1/messages` (Anthropic) and
//! `POST /v1/chat/completions` (OpenAI-compatible, in `chat_completions`) from one [`Script`], streaming byte-exact
//! SSE, and records every request. It validates what the real APIs validate that matters to the client: the API key
//! header and that every tool call is answered by a result before the conversation goes on. It keeps a timeline
//! (wall-clock) of when each request arrived and when each response chunk was handed to the connection, for
//! benchmarks.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::post;
use axum::serve::ListenerExt;
use serde_json::Value;
use tokio::sync::oneshot;

use super::chat_completions::chat_completions;
use super::server_core::{
    Inner, Shared, error_response, header_list, raw_response, stream_response, take_reply,
    with_retry_headers,
};
use super::server_core::{Mark, RecordedRequest};
use super::sse_writer::render_events;
use super::{Script, ScriptedReply, ScriptedTurn};

/// The largest request body taken, as the Messages API's.
const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;

/// A running fake server; it stops when dropped.
pub struct FakeServer {
    addr: SocketAddr,
    inner: Shared,
    shutdown: Option<oneshot::Sender<()>>,
}

impl std::fmt::Debug for FakeServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeServer")
            .field("addr", &self.addr)
            .finish()
    }
}

impl FakeServer {
    /// Starts a server on a free loopback port.
    pub async fn start(script: Script) -> std::io::Result<Self> {
        Self::start_on(script, 0).await
    }

    /// Starts a server on `port` (0 = any free port).
    pub async fn start_on(script: Script, port: u16) -> std::io::Result<Self> {
        super::isolate_app_data();
        let inner: Shared = Arc::new(Mutex::new(Inner {
            replies: script.replies.into(),
            ..Inner::default()
        }));
        // Request bodies as large as the real APIs take (32 MB; axum's own limit is 2 MB), for requests that carry
        // images.
        let app = Router::new()
            .route("/v1/messages", post(messages))
            .route("/v1/chat/completions", post(chat_completions))
            .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        // Each streamed event goes out as it is written, as a real API's do: with Nagle's algorithm on, a small
        // write waits for the client's delayed acknowledgement of the one before (about 40 ms on Linux), so the
        // events of one answer would arrive tens of milliseconds apart.
        let listener = listener.tap_io(|tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::warn!("fake model server: TCP_NODELAY: {e}");
            }
        });
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        Ok(Self {
            addr,
            inner,
            shutdown: Some(tx),
        })
    }

    /// The base URL to give clients (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.inner
            .lock()
            .map(|i| i.requests.clone())
            .unwrap_or_default()
    }

    /// The timeline so far: request arrivals and response chunks, in order.
    pub fn timeline(&self) -> Vec<Mark> {
        self.inner
            .lock()
            .map(|i| i.timeline.clone())
            .unwrap_or_default()
    }

    /// Appends replies to the script.
    pub fn push(&self, reply: ScriptedReply) {
        if let Ok(mut inner) = self.inner.lock() {
            inner.replies.push_back(reply);
        }
    }

    /// How many scripted replies have not been used yet.
    pub fn remaining(&self) -> usize {
        self.inner.lock().map(|i| i.replies.len()).unwrap_or(0)
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Checks the rules of the conversation the real API enforces and the client must respect.
pub fn validate_body(body: &Value) -> Result<(), String> {
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("messages: field required")?;
    if messages.is_empty() {
        return Err("messages: at least one message is required".into());
    }
    if messages[0].get("role").and_then(Value::as_str) != Some("user") {
        return Err("messages: the first message must use the user role".into());
    }
    for (i, message) in messages.iter().enumerate() {
        if message.get("role").and_then(Value::as_str) != Some("assistant") {
            continue;
        }
        let ids: Vec<&str> = message
            .get("content")
            .and_then(Value::as_array)
            .map(|c| {
                c.iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
                    .filter_map(|b| b.get("id").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        // A tool the provider ran is answered in the same message, by the provider's result block.
        let blocks = message
            .get("content")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for server_call in blocks.iter().filter(|b| b["type"] == "server_tool_use") {
            let id = server_call["id"].as_str().unwrap_or_default();
            if !blocks
                .iter()
                .any(|b| b["type"] == "web_search_tool_result" && b["tool_use_id"] == id)
            {
                return Err(format!(
                    "messages.{i}: server_tool_use {id} has no web_search_tool_result in the same message"
                ));
            }
        }
        if ids.is_empty() {
            continue;
        }
        let next = messages.get(i + 1).ok_or_else(|| {
            format!("messages.{i}: tool_use ids were found without tool_result blocks immediately after: {}", ids.join(", "))
        })?;
        let content = next
            .get("content")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let leading: Vec<&str> = content
            .iter()
            .take_while(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .filter_map(|b| b.get("tool_use_id").and_then(Value::as_str))
            .collect();
        let expected: HashSet<&str> = ids.iter().copied().collect();
        let got: HashSet<&str> = leading.iter().copied().collect();
        if expected != got || leading.len() != ids.len() {
            return Err(format!(
                "messages.{}: each tool_use must have exactly one tool_result at the start of the next message \
                 (expected {:?}, found {:?})",
                i + 1,
                ids,
                leading
            ));
        }
    }
    Ok(())
}

async fn messages(State(inner): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let received = SystemTime::now();
    let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let header_list = header_list(&headers);
    let rejected = if headers.get("x-api-key").is_none() {
        Some((
            401,
            "authentication_error",
            "x-api-key header is required".to_string(),
        ))
    } else if headers.get("anthropic-version").is_none() {
        Some((
            400,
            "invalid_request_error",
            "anthropic-version header is required".to_string(),
        ))
    } else if parsed.is_null() {
        Some((
            400,
            "invalid_request_error",
            "the body is not JSON".to_string(),
        ))
    } else {
        validate_body(&parsed)
            .and_then(|()| super::strict_tools::check(&parsed))
            .err()
            .map(|m| (400, "invalid_request_error", m))
    };
    let rejected =
        rejected.map(|(status, kind, message)| (error_response(status, kind, &message), message));
    let (reply, served) = match take_reply(
        &inner,
        "/v1/messages",
        received,
        header_list,
        &parsed,
        rejected,
    ) {
        Ok(taken) => taken,
        Err(response) => return *response,
    };
    let model = parsed
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("fake-model")
        .to_string();
    match reply {
        Some(ScriptedReply::Error {
            status,
            error_type,
            message,
            retry_after,
            retry_after_ms,
            should_retry,
        }) => with_retry_headers(
            error_response(status, &error_type, &message),
            retry_after,
            retry_after_ms,
            should_retry,
        ),
        Some(ScriptedReply::Raw {
            status,
            content_type,
            content_encoding,
            body,
        }) => raw_response(status, &content_type, content_encoding.as_deref(), body),
        Some(ScriptedReply::Stream(turn)) => {
            let events = render_events(&turn, &format!("msg_fake_{served}"), &model);
            stream_response(events, &turn, (inner.clone(), served)).await
        }
        None => {
            let turn = ScriptedTurn::text("(the fake model has no more scripted replies)");
            stream_response(
                render_events(&turn, &format!("msg_fake_{served}"), &model),
                &turn,
                (inner.clone(), served),
            )
            .await
        }
    }
}
