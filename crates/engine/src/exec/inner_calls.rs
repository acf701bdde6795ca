//! The pipeline's side of [`InnerCalls`]: a call a tool makes of another tool (the REPL's wrapped functions) runs
//! through the same pipeline as the model's own calls, against the session's runtime.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use tandem_protocol::ToolOutcome;
use tokio_util::sync::CancellationToken;

use super::ToolRuntime;
use super::pipeline::run_planned;
use super::planned::PlannedCall;
use crate::model::ContentBlock;
use crate::tool::{DynTool, InnerCallResult, InnerCalls};

/// Runs inner calls on a session's runtime (see [`InnerCalls`] for the contract).
#[derive(Clone)]
pub struct PipelineInnerCalls {
    rt: ToolRuntime,
}

impl PipelineInnerCalls {
    pub fn new(rt: ToolRuntime) -> Self {
        Self { rt }
    }
}

impl std::fmt::Debug for PipelineInnerCalls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PipelineInnerCalls")
    }
}

impl InnerCalls for PipelineInnerCalls {
    fn call(
        &self,
        tool: Arc<dyn DynTool>,
        id: String,
        input: Value,
        cancel: CancellationToken,
    ) -> BoxFuture<'_, InnerCallResult> {
        Box::pin(async move {
            let mut unfinished = Unfinished {
                rt: &self.rt,
                id: Some(id.clone()),
            };
            let planned = PlannedCall::for_tool(tool, id, input);
            let outcome = run_planned(&self.rt, planned, &cancel).await;
            unfinished.id = None;
            let text = match &outcome.block {
                ContentBlock::ToolResult { content, .. } => content.as_text(),
                _ => String::new(),
            };
            InnerCallResult {
                ok: outcome.outcome == ToolOutcome::Success,
                text,
            }
        })
    }
}

/// Tells the window an inner call ended when its future is dropped before it did (the REPL's own call was
/// stopped at once): the call is shown as cancelled rather than running for ever.
struct Unfinished<'a> {
    rt: &'a ToolRuntime,
    id: Option<String>,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            super::pipeline::finish_without_output(
                self.rt,
                &id,
                ToolOutcome::Cancelled,
                "The tool call was interrupted.".into(),
            );
        }
    }
}
