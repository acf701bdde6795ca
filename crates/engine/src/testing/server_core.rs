//! What both protocols of the fake model server share: the recorded requests and the timeline, the server state,
//! taking the next scripted reply, error responses with retry headers, and streaming a scripted response in chunks.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::{ScriptedReply, ScriptedTurn};

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
pub(crate) struct Inner {
    pub(crate) replies: VecDeque<ScriptedReply>,
    pub(crate) requests: Vec<RecordedRequest>,
    pub(crate) served: usize,
    pub(crate) timeline: Vec<Mark>,
}

/// Adds a mark to the timeline.
pub(crate) fn mark(inner: &Shared, request: usize, what: &str, index: Option<u64>) {
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

pub(crate) type Shared = Arc<Mutex<Inner>>;

pub(crate) fn error_response(status: u16, error_type: &str, message: &str) -> Response {
    let body = json!({"type": "error", "error": {"type": error_type, "message": message}});
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// Records a request and takes the next scripted reply with its serial number; a rejected request (its error
/// response and reason) is recorded and answered with that response.
pub(crate) fn take_reply(
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
pub(crate) fn header_list(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or_default().to_string()))
        .collect()
}

/// Adds the scripted retry headers to an error response.
pub(crate) fn with_retry_headers(
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

/// The response of a [`ScriptedReply::Raw`]: its status, headers and body as given.
pub(crate) fn raw_response(
    status: u16,
    content_type: &str,
    content_encoding: Option<&str>,
    body: Vec<u8>,
) -> Response {
    let mut builder = Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::OK))
        .header("content-type", content_type);
    if let Some(encoding) = content_encoding {
        builder = builder.header("content-encoding", encoding);
    }
    builder
        .body(Body::from(body))
        .unwrap_or_else(|_| error_response(500, "api_error", "could not build the response"))
}

/// A 200 response streaming `events` as the turn says: after `delay_before_ms`, one chunk per event or
/// `chunk_bytes`-sized chunks, `chunk_delay_ms` apart, the connection cut after `cut_after_bytes` or held open
/// without content (pings at most) after `stall_after_chunks`. Each chunk that starts an event is marked on the
/// timeline of `(server state, request serial)`.
pub(crate) async fn stream_response(
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
    let stall = turn.stall_after_chunks;
    let pings = turn.stall_pings_ms.map(Duration::from_millis);
    let delay = Duration::from_millis(turn.chunk_delay_ms);
    let stream = async_stream::stream! {
        let mut sent = 0usize;
        for (n, piece) in chunks.into_iter().enumerate() {
            if stall == Some(n) {
                mark(&inner, request, "stalled", None);
                loop {
                    match pings {
                        Some(every) => {
                            tokio::time::sleep(every).await;
                            yield Ok(Bytes::from_static(b"event: ping\ndata: {\"type\": \"ping\"}\n\n"));
                        }
                        None => std::future::pending::<()>().await,
                    }
                }
            }
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
