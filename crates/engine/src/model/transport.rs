//! What both wire protocols share: the HTTP client, sending a streaming POST with retries, turning HTTP error
//! responses into [`ModelError`]s, and feeding the SSE body through a protocol's [`Assembler`].

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use futures::future::BoxFuture;
use reqwest::header::HeaderMap;
use serde_json::Value;
use tracing::Instrument;

use super::retry::{retry_after, status_is_retryable};
use super::sse::{self, SseError, SseEvent};
use super::{ModelConfig, ModelError, ModelEvent, ModelStream, RetryPolicy};

/// Folds one protocol's SSE events into [`ModelEvent`]s.
///
/// Contract: `handle` returns the events an SSE event completes, or the error that ends the stream; once
/// `is_finished` is true no further event is read; `end` is called when the body ends before that and returns the
/// last events or the error for an incomplete message. A tool call whose input is incomplete is never yielded.
pub(super) trait Assembler: Send + 'static {
    fn handle(&mut self, event: &SseEvent) -> Result<Vec<ModelEvent>, ModelError>;
    fn is_finished(&self) -> bool;
    fn end(&mut self) -> Result<Vec<ModelEvent>, ModelError>;
}

/// A failed attempt: the error and the wait the server asked for.
pub(super) type Failure = (ModelError, Option<Duration>);

/// Sends one attempt of a request.
pub(super) type SendAttempt =
    Box<dyn Fn() -> BoxFuture<'static, Result<reqwest::Response, Failure>> + Send + Sync>;

/// The HTTP client for `config`: connect timeout, and the idle timeout between two reads.
pub(super) fn http_client(config: &ModelConfig) -> Result<reqwest::Client, ModelError> {
    reqwest::Client::builder()
        .connect_timeout(config.connect_timeout)
        .read_timeout(config.idle_timeout)
        .build()
        .map_err(|e| ModelError::Connection(e.to_string()))
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The endpoint `path` (e.g. `/v1/messages`) under the configured `base` URL; a base that is not an `http://` or
/// `https://` URL is a [`ModelError::Config`] naming it, so the request fails at once instead of being retried.
pub(super) fn endpoint(base: &str, path: &str) -> Result<reqwest::Url, ModelError> {
    let bad = |why: String| {
        ModelError::Config(format!(
            "the model's base URL {base:?} is not a valid http:// or https:// URL ({why}); fix it in Settings or \
             the *_BASE_URL environment variable"
        ))
    };
    let base = base.trim_end_matches('/');
    let parsed = reqwest::Url::parse(base).map_err(|e| bad(e.to_string()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad(format!("the scheme is {:?}", parsed.scheme())));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(bad("it names no host".into()));
    }
    reqwest::Url::parse(&format!("{base}{path}")).map_err(|e| bad(e.to_string()))
}

/// `error` with its causes (reqwest's own message is often only "error sending request").
fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let line = cause.to_string();
        if !text.contains(&line) {
            text.push_str(": ");
            text.push_str(&line);
        }
        source = cause.source();
    }
    text
}

/// Sends a built request; an HTTP error status becomes a [`Failure`] with its retry advice.
/// Sends a JSON `body` that asks for a server-sent event stream (see [`send`]).
pub(super) async fn send_streaming(
    request: reqwest::RequestBuilder,
    body: bytes::Bytes,
) -> Result<reqwest::Response, Failure> {
    send(
        request
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .body(body),
    )
    .await
}

pub(super) async fn send(request: reqwest::RequestBuilder) -> Result<reqwest::Response, Failure> {
    let response = request.send().await.map_err(|e| {
        let error = if e.is_builder() {
            // Nothing was sent: the request itself is wrong (say, a key that cannot be a header value).
            ModelError::Config(format!(
                "the model request could not be made: {}",
                with_causes(&e)
            ))
        } else {
            ModelError::Connection(with_causes(&e))
        };
        (error, None)
    })?;
    if response.status().is_success() {
        Ok(response)
    } else {
        Err(http_error(response).await)
    }
}

/// Turns an HTTP error response into a [`ModelError`] with its retry advice. Reads the error body of either
/// protocol: `{"error": {"type", "message"}}` (Anthropic, OpenAI, vLLM; OpenAI may put the kind in `code`) or
/// `{"error": "message"}` (Ollama, llama.cpp).
async fn http_error(response: reqwest::Response) -> Failure {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let should_retry = header(&headers, "x-should-retry").map(|v| v == "true");
    let wait = retry_after(
        header(&headers, "retry-after-ms"),
        header(&headers, "retry-after"),
    );
    let body = response.text().await.unwrap_or_default();
    let parsed: Option<Value> = serde_json::from_str(&body).ok();
    let error = parsed.as_ref().and_then(|v| v.get("error"));
    let kind = error
        .and_then(|e| {
            e.get("type")
                .and_then(Value::as_str)
                .or_else(|| e.get("code").and_then(Value::as_str))
        })
        .unwrap_or("error")
        .to_string();
    let message = error
        .and_then(|e| {
            e.as_str()
                .or_else(|| e.get("message").and_then(Value::as_str))
        })
        .map(str::to_string)
        .unwrap_or_else(|| body.chars().take(300).collect());
    let retryable = status_is_retryable(status, should_retry);
    (
        ModelError::Http {
            status,
            kind,
            message,
            retryable,
            retry_after_ms: wait.map(|w| w.as_millis() as u64),
        },
        wait,
    )
}

/// The model stream of one request: attempts `send` with retries under `policy` (a [`ModelEvent::Retrying`] before
/// each wait, all attempts within `give_up_after`), then parses the SSE body and lets `assembler` turn it into
/// events. The body must end within `response_timeout` and bring content (not only pings) every
/// `content_timeout`; a body that is not an event stream at all is reported with what it was.
pub(super) fn stream_with_retries<A: Assembler>(
    policy: RetryPolicy,
    send: SendAttempt,
    mut assembler: A,
) -> ModelStream {
    let stream = async_stream::try_stream! {
        let mut attempt = 0u32;
        let started = std::time::Instant::now();
        let give_up = tokio::time::Instant::now() + policy.give_up_after;
        let response = loop {
            let span = tracing::info_span!("model_request", attempt = attempt + 1);
            let sent = std::time::Instant::now();
            let limit = policy
                .headers_timeout
                .min(give_up.saturating_duration_since(tokio::time::Instant::now()));
            let result = match tokio::time::timeout(limit, send().instrument(span.clone())).await {
                Ok(result) => result,
                Err(_) => Err((
                    ModelError::Connection(format!("no response headers within {} s", limit.as_secs_f64())),
                    None,
                )),
            };
            match result {
                Ok(response) => {
                    tracing::debug!(
                        parent: &span,
                        status = response.status().as_u16(),
                        headers_ms = sent.elapsed().as_millis() as u64,
                        "model response"
                    );
                    break Some(response);
                }
                Err((err, wait)) => {
                    tracing::info!(parent: &span, error = %err, wait_ms = wait.map(|w| w.as_millis() as u64), "model request failed");
                    // A connection that could not be made is worth retrying, like a 5xx.
                    let retryable = err.is_retryable() || matches!(err, ModelError::Connection(_));
                    if !retryable || attempt >= policy.max_retries {
                        Err(err)?;
                        break None;
                    }
                    let delay = policy.delay(attempt, wait);
                    if tokio::time::Instant::now() + delay >= give_up {
                        Err(ModelError::Connection(format!(
                            "no answer after {} attempts in {:.0} s, the longest a request is retried ({err})",
                            attempt + 1,
                            started.elapsed().as_secs_f64()
                        )))?;
                        break None;
                    }
                    attempt += 1;
                    yield ModelEvent::Retrying { attempt, wait_ms: delay.as_millis() as u64, reason: err.to_string() };
                    tokio::time::sleep(delay).await;
                }
            }
        };
        let Some(response) = response else {
            return;
        };
        let mut received = Received::of(&response);
        let start = Arc::clone(&received.start);
        let bytes = response.bytes_stream().inspect(move |chunk| {
            if let (Ok(chunk), Ok(mut start)) = (chunk, start.lock()) {
                let room = START_BYTES.saturating_sub(start.len());
                start.extend_from_slice(&chunk[..room.min(chunk.len())]);
            }
        });
        let mut events = std::pin::pin!(sse::events(bytes));
        let deadline = tokio::time::Instant::now() + policy.response_timeout;
        let mut content_deadline = tokio::time::Instant::now() + policy.content_timeout;
        loop {
            let Ok(next) = tokio::time::timeout_at(deadline.min(content_deadline), events.next()).await else {
                if tokio::time::Instant::now() >= deadline {
                    Err(ModelError::Connection(format!(
                        "the response did not end within {} s",
                        policy.response_timeout.as_secs_f64()
                    )))?;
                } else {
                    Err(ModelError::Connection(format!(
                        "the model server sent no content for {} s{}",
                        policy.content_timeout.as_secs_f64(),
                        if received.pings > 0 { " (only keep-alive pings)" } else { "" }
                    )))?;
                }
                break;
            };
            let event = match next {
                None => break,
                Some(Ok(event)) => event,
                Some(Err(SseError::Body(e))) => {
                    Err(ModelError::Connection(format!("the stream broke off: {}", with_causes(e.as_ref()))))?;
                    break;
                }
                Some(Err(SseError::Syntax(why))) => {
                    Err(ModelError::Protocol(if received.events == 0 {
                        received.describe()
                    } else {
                        format!("the event stream broke off with a line that is not server-sent events ({why})")
                    }))?;
                    break;
                }
            };
            if received.count(&event) {
                content_deadline = tokio::time::Instant::now() + policy.content_timeout;
            }
            for out in assembler.handle(&event)? {
                yield out;
            }
            if assembler.is_finished() {
                break;
            }
        }
        if !assembler.is_finished() {
            if received.events == 0 {
                Err(ModelError::Protocol(received.describe()))?;
            }
            for out in assembler.end()? {
                yield out;
            }
        }
        tracing::debug!(attempts = attempt + 1, total_ms = started.elapsed().as_millis() as u64, "model stream ended");
    };
    Box::pin(stream)
}

/// What a response brought, to tell the person what a server sent when it was not an event stream.
struct Received {
    content_type: Option<String>,
    content_encoding: Option<String>,
    /// The first bytes of the body (filled as the body is read).
    start: Arc<Mutex<Vec<u8>>>,
    /// SSE events parsed, keep-alive pings included.
    events: usize,
    pings: usize,
}

/// How much of the body's start is kept (and shown).
const START_BYTES: usize = 160;

impl Received {
    fn of(response: &reqwest::Response) -> Self {
        let text = |name| header(response.headers(), name).map(str::to_string);
        Self {
            content_type: text("content-type"),
            content_encoding: text("content-encoding"),
            start: Arc::default(),
            events: 0,
            pings: 0,
        }
    }

    /// Counts `event`; whether it is content (not a keep-alive ping).
    fn count(&mut self, event: &SseEvent) -> bool {
        self.events += 1;
        let ping = event.event == "ping";
        if ping {
            self.pings += 1;
        }
        !ping
    }

    /// The error text for a body that held no event at all.
    fn describe(&self) -> String {
        let kind = self.content_type.as_deref().unwrap_or("no Content-Type");
        let mut text = format!("the server did not answer with an event stream: it sent {kind}");
        if let Some(encoding) = self
            .content_encoding
            .as_deref()
            .filter(|e| *e != "identity")
        {
            text.push_str(&format!(
                ", compressed with {encoding} (Tandem does not ask for compression; a proxy may have added it)"
            ));
            return text;
        }
        if kind.contains("json") {
            text.push_str(" (one JSON document instead of a stream; does the server support \"stream\": true?)");
        } else if kind.contains("html") {
            text.push_str(
                " (a web page: is the base URL the API's, not a website or a proxy's login page?)",
            );
        }
        let start = self.start.lock().map(|s| s.clone()).unwrap_or_default();
        if start.is_empty() {
            text.push_str(", with an empty body");
        } else {
            let shown: String = String::from_utf8_lossy(&start)
                .chars()
                .map(|c| if c.is_control() && c != ' ' { ' ' } else { c })
                .collect();
            let cut = if start.len() >= START_BYTES {
                "…"
            } else {
                ""
            };
            text.push_str(&format!("; it began: {}{cut}", shown.trim()));
        }
        text
    }
}
