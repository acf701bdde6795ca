//! A stdio server's stdout, one JSON-RPC message per line, with a size limit that never leaves a call hanging: a
//! line longer than the limit is dropped and, when it answers a request, replaced by a JSON-RPC error for that
//! request (the message id is read from the start or the end of the line), so the caller gets a clear error and the
//! connection goes on.

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

/// Bytes kept from each end of an oversized line, to find its id.
const EDGE: usize = 256;

/// Wraps a reader of newline-delimited messages.
pub struct LineLimit<R> {
    inner: R,
    limit: usize,
    /// The line being read (released whole when its newline arrives).
    line: Vec<u8>,
    /// Set while the rest of an oversized line is skipped: its first bytes and its last ones so far.
    oversized: Option<(Vec<u8>, Vec<u8>, usize)>,
    /// Complete lines ready for the reader.
    out: Vec<u8>,
    out_at: usize,
    eof: bool,
}

impl<R> LineLimit<R> {
    pub fn new(inner: R, limit: usize) -> Self {
        Self {
            inner,
            limit,
            line: Vec::new(),
            oversized: None,
            out: Vec::new(),
            out_at: 0,
            eof: false,
        }
    }

    fn take_bytes(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let newline = memchr::memchr(b'\n', bytes);
            let (part, rest) = match newline {
                Some(i) => (&bytes[..=i], &bytes[i + 1..]),
                None => (bytes, &[][..]),
            };
            bytes = rest;
            if let Some((_, tail, total)) = &mut self.oversized {
                *total += part.len();
                tail.extend_from_slice(part);
                if tail.len() > EDGE {
                    let cut = tail.len() - EDGE;
                    tail.drain(..cut);
                }
            } else if self.line.len() + part.len() > self.limit {
                let mut head = std::mem::take(&mut self.line);
                let total = head.len() + part.len();
                head.extend_from_slice(part);
                let tail = head[head.len().saturating_sub(EDGE)..].to_vec();
                head.truncate(EDGE);
                self.oversized = Some((head, tail, total));
            } else {
                self.line.extend_from_slice(part);
            }
            if newline.is_some() {
                match self.oversized.take() {
                    Some((head, tail, total)) => {
                        if let Some(reply) = replacement(&head, &tail, total, self.limit) {
                            self.out.extend_from_slice(reply.as_bytes());
                        }
                    }
                    None => self.out.append(&mut self.line),
                }
            }
        }
    }
}

/// The id of a response, at the start (`{"jsonrpc":"2.0","id":7,"result":…`) or at the end (`…,"id":7}`) of a line.
fn response_id(head: &[u8], tail: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(head);
    let tail = String::from_utf8_lossy(tail);
    let value_after = |text: &str, at: usize| -> Option<String> {
        let rest = text[at + 4..].trim_start().strip_prefix(':')?.trim_start();
        if let Some(s) = rest.strip_prefix('"') {
            let end = s.find('"')?;
            return Some(format!("\"{}\"", &s[..end]));
        }
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        (!digits.is_empty()).then_some(digits)
    };
    if let Some(at) = head.find("\"id\"") {
        let before_payload = ["\"result\"", "\"error\""]
            .iter()
            .filter_map(|k| head.find(k))
            .all(|k| at < k);
        if before_payload {
            return value_after(&head, at);
        }
    }
    let at = tail.trim_end().rfind("\"id\"")?;
    let id = value_after(&tail, at)?;
    // Only a top-level id: the line must end right after it.
    let after = tail[at..].find(&id).map(|i| at + i + id.len())?;
    (tail[after..].trim() == "}").then_some(id)
}

fn replacement(head: &[u8], tail: &[u8], total: usize, limit: usize) -> Option<String> {
    let id = response_id(head, tail)?;
    let message = format!(
        "the server's answer is {} MB, more than the {} MB Tandem accepts from an MCP server",
        total / 1_000_000,
        limit / 1_000_000
    );
    Some(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32603,\"message\":{}}}}}\n",
        serde_json::Value::String(message)
    ))
}

impl<R: AsyncRead + Unpin> AsyncRead for LineLimit<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        loop {
            if self.out_at < self.out.len() {
                let this = &mut *self;
                let n = (this.out.len() - this.out_at).min(buf.remaining());
                buf.put_slice(&this.out[this.out_at..this.out_at + n]);
                this.out_at += n;
                if this.out_at == this.out.len() {
                    this.out.clear();
                    this.out_at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if self.eof {
                // A last line without a newline is still a message.
                if !self.line.is_empty() && self.oversized.is_none() {
                    let mut last = std::mem::take(&mut self.line);
                    self.out.append(&mut last);
                    continue;
                }
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 64 * 1024];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut self.inner).poll_read(cx, &mut read) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {
                    let filled = read.filled();
                    if filled.is_empty() {
                        self.eof = true;
                    } else {
                        let bytes = filled.to_vec();
                        self.take_bytes(&bytes);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    async fn pass(input: &[u8], limit: usize) -> String {
        let mut out = String::new();
        LineLimit::new(input, limit)
            .read_to_string(&mut out)
            .await
            .expect("read");
        out
    }

    #[tokio::test]
    async fn short_lines_pass_and_long_answers_become_errors_for_their_id() {
        let big = "x".repeat(200);
        let input = format!(
            "{{\"a\":1}}\n{{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":\"{big}\"}}\n{{\"result\":\"{big}\",\"jsonrpc\":\"2.0\",\"id\":\"k\"}}\n{{\"params\":\"{big}\",\"method\":\"x\"}}\n{{\"b\":2}}"
        );
        let out = pass(input.as_bytes(), 100).await;
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[0], "{\"a\":1}");
        let first: serde_json::Value = serde_json::from_str(lines[1]).expect("json");
        assert_eq!(first["id"], 7);
        assert!(
            first["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("MB"))
        );
        let second: serde_json::Value = serde_json::from_str(lines[2]).expect("json");
        assert_eq!(second["id"], "k");
        assert_eq!(
            lines[3], "{\"b\":2}",
            "an oversized notification is dropped"
        );
    }

    #[test]
    fn ids_inside_the_payload_are_not_taken() {
        assert_eq!(
            response_id(b"{\"result\":{\"id\":3,\"x\":\"", b"zzz\"}}\n"),
            None
        );
        assert_eq!(
            response_id(b"{\"jsonrpc\":\"2.0\",\"id\":-4,\"result\":", b""),
            Some("-4".into())
        );
    }
}
