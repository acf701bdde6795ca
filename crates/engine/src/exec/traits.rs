//! What the executor needs to know about a call before it runs: whether it may run beside others, and what an
//! interrupt does to it.

use crate::tool::InterruptBehavior;

/// Scheduling facts about one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTraits {
    pub concurrency_safe: bool,
    pub interrupt: InterruptBehavior,
    /// A shell call: its failure aborts its running siblings.
    pub aborts_siblings_on_error: bool,
}
