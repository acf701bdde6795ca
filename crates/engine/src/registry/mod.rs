//! The tool registry: the one place that decides which tools a conversation offers (the session's own agent, a
//! sub-agent, a team member; the command line's checks), the built-in tools, the cache-stable tool pool with lookup
//! by name or alias, and the tool list shown to people.

mod builtins;
mod listing;
mod pool;
mod tool_set;

pub use crate::tool::erase;
pub use builtins::{builtin_tools, builtin_tools_with};
pub use listing::{ToolListing, tool_listing, web_search_for};
pub use pool::ToolPool;
pub use tool_set::{
    BACKGROUND_AGENT_TOOLS, SessionToolInputs, SessionTools, SubAgentToolInputs, checking_tools,
    session_tools, sub_agent_pool,
};
