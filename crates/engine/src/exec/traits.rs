//! What the executor needs to know about a call before it runs: whether it may run beside others, and what an
//! interrupt does to it.

use serde_json::Value;

use super::ToolRuntime;
use super::planned::PlannedCall;
use crate::tool::InterruptBehavior;

/// Scheduling facts about one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTraits {
    pub concurrency_safe: bool,
    pub interrupt: InterruptBehavior,
    /// A shell call: its failure aborts its running siblings.
    pub aborts_siblings_on_error: bool,
}

/// The traits of a call (see [`PlannedCall::new`]; fail-closed for unknown tools and bad input).
pub fn call_traits(rt: &ToolRuntime, name: &str, input: &Value) -> CallTraits {
    PlannedCall::new(rt, String::new(), name.to_string(), input.clone()).traits
}
