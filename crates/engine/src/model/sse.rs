//! A small server-sent-events parser: bytes in, `(event, data)` pairs out. Handles chunks split anywhere, CRLF and
//! LF line ends, comments, multi-line data.

/// One dispatched SSE event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field; empty when absent.
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// Incremental parser state.
#[derive(Debug, Default)]
pub struct SseParser {
    buffer: Vec<u8>,
    event: String,
    data: Vec<String>,
}

impl SseParser {
    /// Feeds bytes and returns the events completed by them.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        self.buffer.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(pos) = self.buffer.iter().position(|&b| b == b'\n') {
            let mut line: Vec<u8> = self.buffer.drain(..=pos).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let line = String::from_utf8_lossy(&line);
            self.line(&line, &mut out);
        }
        out
    }

    /// Flushes a final event not followed by a blank line (a stream that ended without one).
    pub fn finish(&mut self) -> Option<SseEvent> {
        if !self.buffer.is_empty() {
            let rest = std::mem::take(&mut self.buffer);
            let mut out = Vec::new();
            self.line(&String::from_utf8_lossy(&rest), &mut out);
        }
        self.dispatch()
    }

    fn line(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            out.extend(self.dispatch());
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "event" => self.event = value.to_string(),
            "data" => self.data.push(value.to_string()),
            _ => {}
        }
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        if self.data.is_empty() && self.event.is_empty() {
            return None;
        }
        let event = SseEvent {
            event: std::mem::take(&mut self.event),
            data: self.data.join("\n"),
        };
        self.data.clear();
        Some(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_events_split_at_every_byte() {
        let raw = b"event: ping\ndata: {\"a\":1}\n\n: comment\r\nevent: x\r\ndata: one\r\ndata: two\r\n\r\n";
        let mut parser = SseParser::default();
        let mut events = Vec::new();
        for b in raw {
            events.extend(parser.push(&[*b]));
        }
        assert_eq!(
            events,
            vec![
                SseEvent {
                    event: "ping".into(),
                    data: "{\"a\":1}".into()
                },
                SseEvent {
                    event: "x".into(),
                    data: "one\ntwo".into()
                },
            ]
        );
    }

    #[test]
    fn finish_flushes_an_unterminated_event() {
        let mut parser = SseParser::default();
        assert!(parser.push(b"data: [DONE]").is_empty());
        assert_eq!(
            parser.finish(),
            Some(SseEvent {
                event: String::new(),
                data: "[DONE]".into()
            })
        );
    }
}
