//! Server-sent events as the model clients and MCP's older HTTP+SSE transport read them, parsed by the `sse-stream`
//! crate: a body's bytes in, `(event, data)` pairs out. Chunks may split anywhere; CR, LF and CRLF line ends,
//! comments, `id:` and `retry:` lines and multi-line data are handled; an event the body ends without a blank line
//! after is still delivered (a server that closes right after its last `data:` line).

use std::error::Error as StdError;

use bytes::Bytes;
use futures::{Stream, StreamExt};

/// One dispatched SSE event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field; empty when absent.
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// Why no event could be read.
#[derive(Debug, thiserror::Error)]
pub enum SseError {
    /// The body itself failed (the connection broke, a read timed out): the transport's error with its causes.
    #[error("{0}")]
    Body(Box<dyn StdError + Send + Sync>),
    /// A line that is not server-sent events (a field without `:`, an unknown field, text that is not UTF-8, a
    /// second `event:` line in one event). The stream may go on after it, without that line's chunk.
    #[error("{0}")]
    Syntax(String),
}

/// The events of `body`. An event with neither a name nor data (only `id:` or `retry:`) is skipped.
pub fn events<S, E>(body: S) -> impl Stream<Item = Result<SseEvent, SseError>> + Send
where
    S: Stream<Item = Result<Bytes, E>> + Send + 'static,
    E: StdError + Send + Sync + 'static,
{
    // Two line ends after the body dispatch an event it left unterminated; after a complete body they are blank
    // lines that dispatch nothing.
    let body = body.chain(futures::stream::once(async {
        Ok(Bytes::from_static(b"\n\n"))
    }));
    sse_stream::SseStream::from_bytes_stream(body).filter_map(|item| async move {
        match item {
            Ok(sse) => {
                let event = sse.event.unwrap_or_default();
                if event.is_empty() && sse.data.is_none() {
                    return None;
                }
                Some(Ok(SseEvent {
                    event,
                    data: sse.data.unwrap_or_default(),
                }))
            }
            Err(sse_stream::Error::Body(e)) => Some(Err(SseError::Body(e))),
            Err(other) => Some(Err(SseError::Syntax(other.to_string()))),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item of `chunks` read as one body, errors as their text.
    fn read(chunks: &[&[u8]]) -> Vec<Result<SseEvent, String>> {
        let body = futures::stream::iter(
            chunks
                .iter()
                .map(|c| Ok::<_, std::io::Error>(Bytes::copy_from_slice(c)))
                .collect::<Vec<_>>(),
        );
        futures::executor::block_on(
            events(body)
                .map(|item| item.map_err(|e| e.to_string()))
                .collect(),
        )
    }

    fn event(name: &str, data: &str) -> Result<SseEvent, String> {
        Ok(SseEvent {
            event: name.into(),
            data: data.into(),
        })
    }

    #[test]
    fn parses_events_split_at_every_byte() {
        let raw = b"event: ping\ndata: {\"a\":1}\n\n: comment\r\nevent: x\r\ndata: one\r\ndata: two\r\n\r\nid: 7\n\n";
        let bytes: Vec<&[u8]> = raw.chunks(1).collect();
        let want = vec![event("ping", "{\"a\":1}"), event("x", "one\ntwo")];
        assert_eq!(read(&bytes), want);
        assert_eq!(read(&[raw]), want);
    }

    #[test]
    fn an_unterminated_last_event_is_delivered() {
        assert_eq!(read(&[b"data: [DONE]"]), vec![event("", "[DONE]")]);
        assert_eq!(read(&[b"data: a\r"]), vec![event("", "a")]);
        assert_eq!(read(&[]), vec![]);
    }

    #[test]
    fn what_is_not_server_sent_events_is_an_error() {
        let got = read(&[b"<html>\n\n"]);
        assert!(matches!(got.first(), Some(Err(_))), "{got:?}");
        let got = read(&[b"data: a\n\n", b"nonsense: x\n\n"]);
        assert_eq!(got[0], event("", "a"));
        assert!(matches!(got.get(1), Some(Err(_))), "{got:?}");
    }
}
