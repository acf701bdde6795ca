//! Tandem as an ACP client: an external agent named in the settings (`agentServers`) runs turns in a Tandem session —
//! its updates become the session's events (stored, shown and printed like Tandem's own), its permission requests
//! meet Tandem's permission engine and hooks, and its file writes and commands go through Tandem's tools. The
//! command line's `tandem -p --agent NAME` (and `--remote`, [`remote`]) and the window's hosted tabs hold a
//! [`HostedAgent`] the same way, set up by [`Door`] and [`Wiring`]; the Agent tool's remote sub-agents are hosted
//! the same way against the sub-agent's runtime ([`RemoteSubAgents`]). docs/acp.md describes it.

mod client;
mod door;
mod fs;
mod hooks;
mod mcp;
mod permission;
mod process;
mod prompt;
pub mod remote;
mod stored;
mod sub_agent;
mod terminals;
mod updates;

pub use client::{
    Accept, AgentInfo, FarSide, Host, HostedAgent, HostedError, HostedOutcome, Spawned,
};
pub use door::{Door, Wiring, configured_agent, configured_agents, model_name, no_own_mcp};
pub use permission::HostedApprover;
pub use prompt::PromptAbilities;
pub use stored::{StoredHosted, agent_session_id};
pub use sub_agent::RemoteSubAgents;
pub use terminals::{TerminalTap, Terminals};
