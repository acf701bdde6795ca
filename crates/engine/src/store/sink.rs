//! [`RecordingStoreSink`]: an event sink that records every event in the store, then passes it on.

use std::sync::Arc;

use tandem_protocol::SessionEvent;

use super::recorder::SessionRecorder;
use crate::events::EventSink;

/// Tees every event to the store (queued first, so whatever the UI saw is already on its way to disk) and to `inner`.
/// Never blocks: recording only queues the event for the store's writer thread.
pub struct RecordingStoreSink {
    recorder: Arc<SessionRecorder>,
    inner: Arc<dyn EventSink>,
}

impl RecordingStoreSink {
    pub fn new(recorder: Arc<SessionRecorder>, inner: Arc<dyn EventSink>) -> Self {
        Self { recorder, inner }
    }
}

impl EventSink for RecordingStoreSink {
    fn emit(&self, event: SessionEvent) {
        self.recorder.record_event(event.clone());
        self.inner.emit(event);
    }
}
