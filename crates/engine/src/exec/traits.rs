//! What the executor needs to know about a call before it runs: whether it may run beside others, and what an
//! interrupt does to it.

use serde_json::Value;

use super::ToolRuntime;
use crate::tool::InterruptBehavior;

/// Scheduling facts about one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTraits {
    pub concurrency_safe: bool,
    pub interrupt: InterruptBehavior,
    /// A shell call: its failure aborts its running siblings.
    pub aborts_siblings_on_error: bool,
}

/// The traits of a call. Fail-closed: an unknown tool or an input that does not fit its schema is scheduled as not
/// concurrency-safe (it will end at once with an error result).
pub fn call_traits(rt: &ToolRuntime, name: &str, input: &Value) -> CallTraits {
    let Some(tool) = rt.pool.find(name) else {
        return CallTraits {
            concurrency_safe: false,
            interrupt: InterruptBehavior::Cancel,
            aborts_siblings_on_error: false,
        };
    };
    let concurrency_safe = tool
        .prepare(input)
        .map(|p| p.is_concurrency_safe())
        .unwrap_or(false);
    CallTraits {
        concurrency_safe,
        interrupt: tool.interrupt_behavior(),
        aborts_siblings_on_error: tool.aborts_siblings_on_error(),
    }
}
