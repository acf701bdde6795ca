//! [`MeteredModel`]: a model wrapper that records each completed request's usage and cost, and what each tool
//! result it carried cost (see `usage_carry`), into the session's store.

use std::sync::Arc;

use futures::StreamExt;

use super::recorder::SessionRecorder;
use super::usage_carry::{Layout, MeteredRequest};
use crate::model::{Model, ModelEvent, ModelRequest, ModelStream, pricing};

/// Wraps `inner`; every request through it whose response completes is recorded under the request's model name.
/// A request that fails or is cut off reports no usage and records nothing.
pub struct MeteredModel {
    inner: Arc<dyn Model>,
    recorder: Arc<SessionRecorder>,
}

impl MeteredModel {
    pub fn new(inner: Arc<dyn Model>, recorder: Arc<SessionRecorder>) -> Self {
        Self { inner, recorder }
    }
}

impl Model for MeteredModel {
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        let layout = Layout::of(&request);
        let model = request.model.clone();
        let recorder = self.recorder.clone();
        self.inner
            .stream(request)
            .inspect(move |event| {
                if let Ok(ModelEvent::MessageComplete { usage, .. }) = event {
                    recorder.record_request(MeteredRequest {
                        cost_usd: pricing::cost_usd(&model, usage),
                        carries: layout.carries(usage),
                        model: model.clone(),
                        usage: *usage,
                    });
                }
            })
            .boxed()
    }
}
