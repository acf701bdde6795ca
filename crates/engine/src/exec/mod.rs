//! Running tool calls: the per-call pipeline ([`run_tool_use`]) and the runtime it needs.

mod authorize;
mod pipeline;
mod runtime;

pub use pipeline::{ToolCallOutcome, run_tool_use};
pub use runtime::ToolRuntime;
