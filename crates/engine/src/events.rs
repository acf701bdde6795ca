//! The event door: where the engine tells the outside what happens in a session.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tandem_protocol::{EventEnvelope, SessionEvent};

/// Receives every event of a session in order.
///
/// Contract: `emit` must not block for long (the engine calls it from the streaming path); sinks that forward to a
/// slow consumer buffer or batch. A sink that fails to deliver drops the event; it never fails the session.
pub trait EventSink: Send + Sync {
    fn emit(&self, event: SessionEvent);
}

/// A sink that drops everything.
#[derive(Debug, Default)]
pub struct NullSink;

impl EventSink for NullSink {
    fn emit(&self, _event: SessionEvent) {}
}

/// A sink that keeps every event (tests, `--output-format json`).
#[derive(Debug, Default, Clone)]
pub struct RecordingSink(pub Arc<Mutex<Vec<SessionEvent>>>);

impl RecordingSink {
    /// A copy of the events so far.
    pub fn events(&self) -> Vec<SessionEvent> {
        self.0.lock().map(|e| e.clone()).unwrap_or_default()
    }
}

impl EventSink for RecordingSink {
    fn emit(&self, event: SessionEvent) {
        if let Ok(mut events) = self.0.lock() {
            events.push(event);
        }
    }
}

impl<F: Fn(SessionEvent) + Send + Sync> EventSink for F {
    fn emit(&self, event: SessionEvent) {
        self(event)
    }
}

/// Prints every event to standard output as one JSON line (an [`EventEnvelope`], numbered from `first_seq`), as
/// `--output-format stream-json` does. A line that cannot be written is dropped.
#[derive(Debug)]
pub struct JsonLinesSink {
    session_id: String,
    seq: AtomicU64,
}

impl JsonLinesSink {
    pub fn new(session_id: impl Into<String>, first_seq: u64) -> Self {
        Self {
            session_id: session_id.into(),
            seq: AtomicU64::new(first_seq),
        }
    }
}

impl EventSink for JsonLinesSink {
    fn emit(&self, event: SessionEvent) {
        let envelope = EventEnvelope {
            session_id: self.session_id.clone(),
            seq: self.seq.fetch_add(1, Ordering::Relaxed),
            event,
        };
        if let Ok(line) = serde_json::to_string(&envelope) {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    }
}
