//! What both wire protocols share: the HTTP client, sending a streaming POST with retries, turning HTTP error
//! responses into [`ModelError`]s, and feeding the SSE body through a protocol's [`Assembler`].

use std::time::Duration;

use futures::StreamExt;
use futures::future::BoxFuture;
use reqwest::header::HeaderMap;
use serde_json::Value;
use tracing::Instrument;

use super::retry::{retry_after, status_is_retryable};
use super::sse::{SseEvent, SseParser};
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
    let response = request
        .send()
        .await
        .map_err(|e| (ModelError::Connection(e.to_string()), None))?;
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
/// each wait), then parses the SSE body and lets `assembler` turn it into events.
pub(super) fn stream_with_retries<A: Assembler>(
    policy: RetryPolicy,
    send: SendAttempt,
    mut assembler: A,
) -> ModelStream {
    let stream = async_stream::try_stream! {
        let mut attempt = 0u32;
        let started = std::time::Instant::now();
        let response = loop {
            let span = tracing::info_span!("model_request", attempt = attempt + 1);
            let sent = std::time::Instant::now();
            let result = match tokio::time::timeout(policy.headers_timeout, send().instrument(span.clone())).await {
                Ok(result) => result,
                Err(_) => Err((
                    ModelError::Connection(format!(
                        "no response headers within {} s",
                        policy.headers_timeout.as_secs_f64()
                    )),
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
                    break response;
                }
                Err((err, wait)) => {
                    tracing::info!(parent: &span, error = %err, wait_ms = wait.map(|w| w.as_millis() as u64), "model request failed");
                    // A connection that could not be made is worth retrying, like a 5xx.
                    let retryable = err.is_retryable() || matches!(err, ModelError::Connection(_));
                    let reason = err.to_string();
                    if !retryable || attempt >= policy.max_retries {
                        Err(err)?;
                    }
                    let delay = policy.delay(attempt, wait);
                    attempt += 1;
                    yield ModelEvent::Retrying { attempt, wait_ms: delay.as_millis() as u64, reason };
                    tokio::time::sleep(delay).await;
                }
            }
        };
        let mut bytes = response.bytes_stream();
        let mut parser = SseParser::default();
        let deadline = tokio::time::Instant::now() + policy.response_timeout;
        loop {
            let Ok(next) = tokio::time::timeout_at(deadline, bytes.next()).await else {
                Err(ModelError::Connection(format!(
                    "the response did not end within {} s",
                    policy.response_timeout.as_secs_f64()
                )))?;
                break;
            };
            let Some(chunk) = next else {
                break;
            };
            let chunk = chunk.map_err(|e| ModelError::Connection(format!("the stream broke off: {e}")))?;
            for event in parser.push(&chunk) {
                for out in assembler.handle(&event)? {
                    yield out;
                }
                if assembler.is_finished() {
                    break;
                }
            }
            if assembler.is_finished() {
                break;
            }
        }
        if !assembler.is_finished()
            && let Some(event) = parser.finish()
        {
            for out in assembler.handle(&event)? {
                yield out;
            }
        }
        if !assembler.is_finished() {
            for out in assembler.end()? {
                yield out;
            }
        }
        tracing::debug!(attempts = attempt + 1, total_ms = started.elapsed().as_millis() as u64, "model stream ended");
    };
    Box::pin(stream)
}
