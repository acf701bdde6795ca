//! Tandem as an ACP client: an external agent named in the settings (`agentServers`) runs a turn in Tandem's
//! session — its updates become the session's events (stored, shown and printed like Tandem's own), its permission
//! requests meet Tandem's permission engine, and its file writes and commands go through Tandem's tools.
//! `tandem -p --agent NAME` is the first face of it ([`print`]).

mod client;
mod fs;
mod hooks;
mod mcp;
mod permission;
pub mod print;
mod process;
mod terminals;
mod updates;
