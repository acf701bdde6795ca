//! The batch orchestrator for the non-streaming path: a message's tool calls, all known up front, partitioned into
//! runs of concurrency-safe calls (run together) and single other calls (run alone), in order.

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::planned::call_traits;
use super::streaming::StreamingExecutor;
use super::{ToolCallOutcome, ToolRuntime};

/// One call: (tool_use id, tool name, input).
pub type ToolCall = (String, String, Value);

/// A group of calls that run together (all concurrency-safe) or one call that runs alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    pub concurrency_safe: bool,
    pub calls: Vec<ToolCall>,
}

/// Splits calls into batches: consecutive concurrency-safe calls form one batch; every other call is a batch of
/// its own. Order is kept.
pub fn partition_tool_calls(rt: &ToolRuntime, calls: &[ToolCall]) -> Vec<Batch> {
    let mut batches: Vec<Batch> = Vec::new();
    for call in calls {
        let safe = call_traits(rt, &call.1, &call.2).concurrency_safe;
        match batches.last_mut() {
            Some(last) if safe && last.concurrency_safe => last.calls.push(call.clone()),
            _ => batches.push(Batch {
                concurrency_safe: safe,
                calls: vec![call.clone()],
            }),
        }
    }
    batches
}

/// Runs all calls batch by batch (safe batches concurrently up to `max_concurrency`) and returns one result per
/// call in call order. It schedules through the streaming executor fed with every call at once, which starts calls
/// exactly batch by batch, so both paths follow the same rules (sibling abort, interrupts, context changes).
pub async fn run_tools(
    rt: &ToolRuntime,
    calls: Vec<ToolCall>,
    cancel: &CancellationToken,
    max_concurrency: usize,
) -> Vec<ToolCallOutcome> {
    let (mut executor, mut done_rx) =
        StreamingExecutor::new(rt.clone(), cancel.clone(), max_concurrency);
    for (id, name, input) in calls {
        executor.add(id, name, input);
    }
    executor.finish(&mut done_rx).await
}
