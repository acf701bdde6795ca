//! The event door: where the engine tells the outside what happens in a session.

use std::sync::{Arc, Mutex};

use tandem_protocol::SessionEvent;

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
