//! The older HTTP+SSE transport (protocol version 2024-11-05), for servers that do not speak streamable HTTP: a GET
//! opens an event stream whose first `endpoint` event names the URL to POST messages to; the server's messages
//! arrive as `message` events on that stream. Given to `rmcp` as a sink of outgoing and a stream of incoming
//! messages.

use std::collections::HashMap;

use futures::Stream;
use futures::channel::mpsc;
use futures::{SinkExt, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use tokio_util::sync::CancellationToken;

use crate::model::sse::{self, SseError};

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
    /// The event's name; `message` when the server gave none.
    pub name: String,
    pub data: String,
}

/// The events of an event stream's body (parsed by [`crate::model::sse`]), ending after an error of the body
/// itself (its text); a line that is not server-sent events is logged and skipped.
pub fn events<S, E>(body: S) -> impl Stream<Item = Result<Event, String>> + Send
where
    S: Stream<Item = Result<bytes::Bytes, E>> + Send + 'static,
    E: std::error::Error + Send + Sync + 'static,
{
    let mut broken = false;
    sse::events(body)
        .take_while(move |item| {
            let go_on = !broken;
            broken = matches!(item, Err(SseError::Body(_)));
            std::future::ready(go_on)
        })
        .filter_map(|item| async move {
            match item {
                Ok(event) => Some(Ok(Event {
                    name: if event.event.is_empty() {
                        "message".into()
                    } else {
                        event.event
                    },
                    data: event.data,
                })),
                Err(SseError::Body(e)) => Some(Err(e.to_string())),
                Err(e) => {
                    tracing::warn!("legacy SSE: {e}");
                    None
                }
            }
        })
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
    let mut events = Box::pin(events(response.bytes_stream()));
    let endpoint = loop {
        match events.next().await {
            None => return Err(LegacySseError::NoEndpoint),
            Some(Err(reason)) => return Err(open(reason)),
            Some(Ok(event)) if event.name == "endpoint" => break event.data,
            Some(Ok(_)) => {}
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
        loop {
            let event = tokio::select! {
                e = events.next() => e,
                _ = reader_close.cancelled() => return,
            };
            // The stream ended or broke: dropping the sender ends the connection.
            let Some(Ok(event)) = event else { return };
            if !deliver(event, &mut in_tx).await {
                return;
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
