//! `tandem acp`: the engine served to an editor over the Agent Client Protocol (JSON-RPC on stdin and stdout), one
//! more face of a session: a sink that turns events into `session/update`, an approver that turns questions into
//! `session/request_permission`, and the session beneath them as the window and `tandem -p` have it.

mod approver;
mod auth;
mod config;
mod modes;
mod prompt;
mod server;
mod sessions;
mod updates;

pub use server::{AcpArgs, run};
