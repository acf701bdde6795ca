//! A tool call looked up and parsed once, when it is queued: the executor schedules it by its traits and the
//! pipeline runs the same parsed input, so no call's input is validated twice.

use std::sync::Arc;

use serde_json::Value;

use super::ToolRuntime;
use super::traits::CallTraits;
use crate::tool::{DynTool, InterruptBehavior, PreparedCall};

/// One call with its tool found and its input checked against the schema and parsed.
pub struct PlannedCall {
    pub id: String,
    pub name: String,
    /// The input as the model sent it.
    pub input: Value,
    /// The tool, when the pool has one by that name or alias.
    pub(super) tool: Option<Arc<dyn DynTool>>,
    /// The parsed input, or the message for the model saying why the input does not fit.
    pub(super) prepared: Result<Box<dyn PreparedCall>, String>,
    pub traits: CallTraits,
}

impl std::fmt::Debug for PlannedCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlannedCall")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("valid", &self.prepared.is_ok())
            .field("traits", &self.traits)
            .finish()
    }
}

impl PlannedCall {
    /// Finds the tool and parses the input. Fail-closed: an unknown tool or an input that does not fit is
    /// scheduled as not concurrency-safe (it ends at once with an error result).
    pub fn new(rt: &ToolRuntime, id: String, name: String, input: Value) -> Self {
        let tool = rt.pool.find(&name);
        Self::found(id, name, input, tool)
    }

    /// A call of `tool` itself, whether or not the pool offers it (a tool the REPL wraps, hidden from the model).
    pub fn for_tool(tool: Arc<dyn DynTool>, id: String, input: Value) -> Self {
        let name = tool.name().to_string();
        Self::found(id, name, input, Some(tool))
    }

    fn found(id: String, name: String, input: Value, tool: Option<Arc<dyn DynTool>>) -> Self {
        let prepared = match &tool {
            Some(tool) => tool.prepare(&input),
            None => Err(format!("Error: No such tool available: {name}")),
        };
        let traits = match &tool {
            Some(tool) => CallTraits {
                concurrency_safe: prepared.as_ref().is_ok_and(|p| p.is_concurrency_safe()),
                interrupt: tool.interrupt_behavior(),
                aborts_siblings_on_error: tool.aborts_siblings_on_error(),
            },
            None => CallTraits {
                concurrency_safe: false,
                interrupt: InterruptBehavior::Cancel,
                aborts_siblings_on_error: false,
            },
        };
        Self {
            id,
            name,
            input,
            tool,
            prepared,
            traits,
        }
    }
}

/// The traits of a call (see [`PlannedCall::new`]; fail-closed for unknown tools and bad input).
pub fn call_traits(rt: &ToolRuntime, name: &str, input: &Value) -> CallTraits {
    PlannedCall::new(rt, String::new(), name.to_string(), input.clone()).traits
}
