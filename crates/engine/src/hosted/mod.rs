//! Tandem as an ACP client: an external agent named in the settings (`agentServers`) runs turns in a Tandem session —
//! its updates become the session's events (stored, shown and printed like Tandem's own), its permission requests
//! meet Tandem's permission engine and hooks, and its file writes and commands go through Tandem's tools. The
//! command line's `tandem -p --agent NAME` is its first face; the window and remote runners can hold a
//! [`HostedAgent`] the same way. docs/acp.md describes it.

mod client;
mod fs;
mod hooks;
mod mcp;
mod permission;
mod process;
mod terminals;
mod updates;

pub use client::{Accept, AgentInfo, FarSide, Host, HostedAgent, HostedError, HostedOutcome};
pub use permission::HostedApprover;
pub use terminals::{TerminalTap, Terminals};
