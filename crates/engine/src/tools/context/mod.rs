//! The context tools of the session's own agent, each behind its switch (docs/context-tools.md): CtxInspect (what
//! fills the context window, by part, message and tool) and Snip (the model cuts stale tool results from its own
//! history). Both work on the session's [`crate::tool::ConversationLedger`].

pub mod breakdown;
mod inspect;
mod snip;

pub use breakdown::ContextBreakdown;
pub use inspect::{CtxInspectInput, CtxInspectTool};
pub use snip::{SnipInput, SnipTool};

/// What a context tool says where the session keeps no ledger (a sub-agent, a one-shot call).
const NO_LEDGER: &str =
    "this conversation's context cannot be seen here (only the session's own agent has it)";
