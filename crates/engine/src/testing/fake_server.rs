//! The fake model server: a real axum HTTP server on 127.0.0.1 that answers `POST /v1/messages` (Anthropic) and
//! `POST /v1/chat/completions` (OpenAI-compatible, in `chat_completions`) from one [`Script`], streaming byte-exact
//! SSE, and records every request. It validates what the real APIs validate that matters to the client: the API key
//! header and that every tool call is answered by a result before the conversation goes on. It keeps a timeline
//! (wall-clock) of when each request arrived and when each response chunk was handed to the connection, for
//! benchmarks.

use std::collections::{HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::chat_completions::chat_completions;
use super::sse_writer::render_events;
use super::{Script, ScriptedReply, ScriptedTurn};

/// A request the server received.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    /// `Some(reason)` when the server refused it as invalid.
    pub rejected: Option<String>,
}

impl RecordedRequest {
    /// The value of header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One moment on the server's timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Wall-clock time, so other processes' timestamps (strace, an agent's log) compare with it.
    pub at: SystemTime,
    /// The request's serial number (1 for the first request answered).
    pub request: usize,
    /// `received` when the request's body was read, `arrived` once it was parsed, checked and recorded; `end` after
    /// the last chunk of its response; otherwise the SSE event (its `event:` name) of the chunk handed to the
    /// connection, first chunk of each event only.
    pub what: String,
    /// The content block index of the event, if it has one.
    pub index: Option<u64>,
}

#[derive(Default)]
pub(super) struct Inner {
    replies: VecDeque<ScriptedReply>,
    requests: Vec<RecordedRequest>,
    served: usize,
    timeline: Vec<Mark>,
}

/// Adds a mark to the timeline.
pub(super) fn mark(inner: &Shared, request: usize, what: &str, index: Option<u64>) {
    let at = SystemTime::now();
    if let Ok(mut guard) = inner.lock() {
        guard.timeline.push(Mark {
            at,
            request,
            what: what.to_string(),
            index,
        });
    }
}

/// The event name and block index of a chunk that starts an SSE event.
fn chunk_event(chunk: &[u8]) -> Option<(String, Option<u64>)> {
    let text = std::str::from_utf8(chunk.get(..chunk.len().min(200))?).ok()?;
    let name = text
        .strip_prefix("event: ")?
        .split('\n')
        .next()?
        .to_string();
    let index = text
        .split("\"index\":")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok());
    Some((name, index))
}

pub(super) type Shared = Arc<Mutex<Inner>>;

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
        let inner: Shared = Arc::new(Mutex::new(Inner {
            replies: script.replies.into(),
            ..Inner::default()
        }));
        let app = Router::new()
            .route("/v1/messages", post(messages))
            .route("/v1/chat/completions", post(chat_completions))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
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

fn error_response(status: u16, error_type: &str, message: &str) -> Response {
    let body = json!({"type": "error", "error": {"type": error_type, "message": message}});
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
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

/// Records a request and takes the next scripted reply with its serial number; a rejected request (its error
/// response and reason) is recorded and answered with that response.
pub(super) fn take_reply(
    inner: &Shared,
    path: &str,
    received: SystemTime,
    headers: Vec<(String, String)>,
    body: &Value,
    rejected: Option<(Response, String)>,
) -> Result<(Option<ScriptedReply>, usize), Box<Response>> {
    let Ok(mut guard) = inner.lock() else {
        return Err(Box::new(error_response(
            500,
            "api_error",
            "fake server state poisoned",
        )));
    };
    guard.requests.push(RecordedRequest {
        path: path.into(),
        headers,
        body: body.clone(),
        rejected: rejected.as_ref().map(|r| r.1.clone()),
    });
    if let Some((response, _)) = rejected {
        return Err(Box::new(response));
    }
    guard.served += 1;
    let served = guard.served;
    guard.timeline.push(Mark {
        at: received,
        request: served,
        what: "received".into(),
        index: None,
    });
    guard.timeline.push(Mark {
        at: SystemTime::now(),
        request: served,
        what: "arrived".into(),
        index: None,
    });
    Ok((guard.replies.pop_front(), served))
}

/// The request headers as recorded.
pub(super) fn header_list(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or_default().to_string()))
        .collect()
}

/// Adds the scripted retry headers to an error response.
pub(super) fn with_retry_headers(
    mut response: Response,
    retry_after: Option<String>,
    retry_after_ms: Option<String>,
    should_retry: Option<bool>,
) -> Response {
    for (name, value) in [
        ("retry-after", retry_after),
        ("retry-after-ms", retry_after_ms),
    ] {
        if let Some(v) = value.and_then(|v| HeaderValue::from_str(&v).ok()) {
            response.headers_mut().insert(name, v);
        }
    }
    if let Some(flag) = should_retry {
        response.headers_mut().insert(
            "x-should-retry",
            HeaderValue::from_static(if flag { "true" } else { "false" }),
        );
    }
    response
}

/// A 200 response streaming `events` as the turn says: after `delay_before_ms`, one chunk per event or
/// `chunk_bytes`-sized chunks, `chunk_delay_ms` apart, the connection cut after `cut_after_bytes`. Each chunk that
/// starts an event is marked on the timeline of `(server state, request serial)`.
pub(super) async fn stream_response(
    events: Vec<String>,
    turn: &ScriptedTurn,
    (inner, request): (Shared, usize),
) -> Response {
    if turn.delay_before_ms > 0 {
        tokio::time::sleep(Duration::from_millis(turn.delay_before_ms)).await;
    }
    let chunks: Vec<Vec<u8>> = match turn.chunk_bytes {
        Some(size) => events
            .concat()
            .into_bytes()
            .chunks(size.max(1))
            .map(<[u8]>::to_vec)
            .collect(),
        None => events.into_iter().map(String::into_bytes).collect(),
    };
    let cut = turn.cut_after_bytes;
    let delay = Duration::from_millis(turn.chunk_delay_ms);
    let stream = async_stream::stream! {
        let mut sent = 0usize;
        for piece in chunks {
            let piece = match cut {
                Some(limit) if sent + piece.len() >= limit => {
                    let keep = limit.saturating_sub(sent);
                    yield Ok::<Bytes, std::io::Error>(Bytes::copy_from_slice(&piece[..keep]));
                    yield Err(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "cut by the script"));
                    return;
                }
                _ => piece,
            };
            sent += piece.len();
            if let Some((name, index)) = chunk_event(&piece) {
                mark(&inner, request, &name, index);
            }
            yield Ok(Bytes::from(piece));
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
        }
        mark(&inner, request, "end", None);
    };
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(Body::from_stream(stream))
        .unwrap_or_else(|_| error_response(500, "api_error", "could not build the response"))
}
