//! Running tool calls: the per-call pipeline ([`run_tool_use`]), the streaming executor that starts calls while the
//! model still talks, the batch orchestrator, and the runtime they share.

mod authorize;
pub mod batch;
mod decision_log;
pub mod hook_gate;
pub mod mode_notes;
mod phase_times;
mod pipeline;
mod planned;
mod revision;
mod runtime;
pub mod streaming;
mod traits;

pub use batch::{Batch, partition_tool_calls, run_tools};
pub use mode_notes::ModeNotes;
pub use pipeline::{
    CancelReason, PipelineInnerCalls, ToolCallOutcome, run_planned, run_planned_explained,
    run_tool_use,
};
pub use planned::{PlannedCall, call_traits};
pub use runtime::ToolRuntime;
pub use streaming::{StreamingExecutor, max_concurrency_from_env};
pub use traits::CallTraits;
