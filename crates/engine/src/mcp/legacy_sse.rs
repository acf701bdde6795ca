//! The older HTTP+SSE transport (protocol version 2024-11-05), for servers that do not speak streamable HTTP: a GET
//! opens an event stream whose first `endpoint` event names the URL to POST messages to; the server's messages
//! arrive as `message` events on that stream. Given to `rmcp` as a sink of outgoing and a stream of incoming
//! messages.

use std::collections::HashMap;

use futures::channel::mpsc;
use futures::{SinkExt, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use tokio_util::sync::CancellationToken;

/// Why the event stream could not be opened.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LegacySseError {
    #[error("GET {url} failed: {reason}")]
    Open { url: String, reason: String },
    #[error("the server's event stream ended before it named its message endpoint")]
    NoEndpoint,
    #[error("the server named an invalid message endpoint `{0}`")]
    BadEndpoint(String),
}

/// One server-sent event.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Event {
    pub name: String,
    pub data: String,
}

/// Splits an event stream's bytes into events (`event:` and `data:` lines, ended by a blank line; comments and other
/// fields are skipped).
#[derive(Debug, Default)]
pub struct EventParser {
    buffer: Vec<u8>,
    current: Event,
    has_data: bool,
}

impl EventParser {
    /// Feeds bytes; the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.buffer.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if self.has_data || !self.current.name.is_empty() {
                    let mut event = std::mem::take(&mut self.current);
                    if event.name.is_empty() {
                        event.name = "message".into();
                    }
                    events.push(event);
                }
                self.has_data = false;
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (line, ""),
            };
            match field {
                "event" => self.current.name = value.to_string(),
                "data" => {
                    if self.has_data {
                        self.current.data.push('\n');
                    }
                    self.current.data.push_str(value);
                    self.has_data = true;
                }
                _ => {}
            }
        }
        events
    }
}

/// Passes a `message` event on; `false` when the connection is gone.
async fn deliver(event: Event, to: &mut mpsc::Sender<ServerJsonRpcMessage>) -> bool {
    if event.name != "message" {
        return true;
    }
    match serde_json::from_str::<ServerJsonRpcMessage>(&event.data) {
        Ok(message) => to.send(message).await.is_ok(),
        Err(e) => {
            tracing::warn!("legacy SSE: an event that is not a JSON-RPC message: {e}");
            true
        }
    }
}

/// The transport's two halves, for `rmcp`.
pub type LegacySseTransport = (
    mpsc::Sender<ClientJsonRpcMessage>,
    mpsc::Receiver<ServerJsonRpcMessage>,
);

/// Opens the event stream at `url` (with `headers` on every request), waits for the `endpoint` event, and starts
/// the tasks that read messages and post them; both end when `close` fires or the transport is dropped.
pub async fn connect(
    url: &str,
    headers: &HashMap<reqwest::header::HeaderName, reqwest::header::HeaderValue>,
    close: CancellationToken,
) -> Result<LegacySseTransport, LegacySseError> {
    let open = |reason: String| LegacySseError::Open {
        url: url.to_string(),
        reason,
    };
    let header_map: reqwest::header::HeaderMap = headers
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let client = reqwest::Client::new();
    let response = client
        .get(url)
        .header(reqwest::header::ACCEPT, "text/event-stream")
        .headers(header_map.clone())
        .send()
        .await
        .map_err(|e| open(e.to_string()))?;
    if !response.status().is_success() {
        return Err(open(format!("the server answered {}", response.status())));
    }
    let mut body = response.bytes_stream();
    let mut parser = EventParser::default();
    let mut pending = Vec::new();
    let endpoint = 'found: loop {
        let Some(chunk) = body.next().await else {
            return Err(LegacySseError::NoEndpoint);
        };
        let chunk = chunk.map_err(|e| open(e.to_string()))?;
        let mut events = parser.feed(&chunk).into_iter();
        while let Some(event) = events.next() {
            if event.name == "endpoint" {
                pending.extend(events);
                break 'found event.data;
            }
        }
    };
    let base = reqwest::Url::parse(url).map_err(|e| open(e.to_string()))?;
    let endpoint = base
        .join(endpoint.trim())
        .map_err(|_| LegacySseError::BadEndpoint(endpoint.clone()))?;

    let (in_tx, in_rx) = mpsc::channel::<ServerJsonRpcMessage>(64);
    let (out_tx, mut out_rx) = mpsc::channel::<ClientJsonRpcMessage>(64);
    let reader_close = close.clone();
    tokio::spawn(async move {
        let mut in_tx = in_tx;
        for event in pending {
            if !deliver(event, &mut in_tx).await {
                return;
            }
        }
        loop {
            let chunk = tokio::select! {
                c = body.next() => c,
                _ = reader_close.cancelled() => return,
            };
            let Some(Ok(chunk)) = chunk else {
                // The stream ended: dropping the sender ends the connection.
                return;
            };
            for event in parser.feed(&chunk) {
                if !deliver(event, &mut in_tx).await {
                    return;
                }
            }
        }
    });
    tokio::spawn(async move {
        loop {
            let message = tokio::select! {
                m = out_rx.next() => m,
                _ = close.cancelled() => return,
            };
            let Some(message) = message else { return };
            let sent = client
                .post(endpoint.clone())
                .headers(header_map.clone())
                .json(&message)
                .send()
                .await;
            match sent {
                Ok(r) if r.status().is_success() => {}
                Ok(r) => tracing::warn!("legacy SSE: POST {endpoint} answered {}", r.status()),
                Err(e) => tracing::warn!("legacy SSE: POST {endpoint} failed: {e}"),
            }
        }
    });
    Ok((out_tx, in_rx))
}
