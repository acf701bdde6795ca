//! [`PersistingModel`]: a model wrapper that stores the history as it grows, turn by turn inside a turn.
//!
//! The query loop owns the history while a turn runs and only hands it out in requests, so this is the least
//! invasive place to see it: each request carries the whole history (the new prompt and the last tool results
//! included), and each stream ends with the completed assistant message. Storing both keeps the stored history at
//! most one step behind the live one: a kill loses at most the tool results of the message whose tools were running,
//! which the repair on load answers as interrupted (their output is still in the events).

use std::sync::Arc;

use futures::StreamExt;

use super::recorder::SessionRecorder;
use crate::model::{Model, ModelEvent, ModelRequest, ModelStream};

/// Wraps `inner`; stores `request.messages` when a request is made and the message when it completes.
pub struct PersistingModel {
    inner: Arc<dyn Model>,
    recorder: Arc<SessionRecorder>,
}

impl PersistingModel {
    pub fn new(inner: Arc<dyn Model>, recorder: Arc<SessionRecorder>) -> Self {
        Self { inner, recorder }
    }
}

impl Model for PersistingModel {
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        self.recorder.sync_history(&request.messages);
        let position = request.messages.len();
        let recorder = self.recorder.clone();
        self.inner
            .stream(request)
            .inspect(move |event| {
                if let Ok(ModelEvent::MessageComplete { message, .. }) = event {
                    recorder.message_completed(position, message);
                }
            })
            .boxed()
    }
}
