//! Test modules of the app's suite.

mod bridge;
mod carry;
mod e2e;
mod e2e_keys;
mod e2e_mcp;
mod e2e_plugins;
mod e2e_reload;
mod e2e_turn_end;
mod generated_types;
mod hosted;
mod hosted_remote;
mod hosted_resume;
mod ipc;
mod logging;
mod menu;
/// The command line's loopback sshd, reused by the window's remote tests (which use part of it).
#[path = "../../crates/cli/tests/suite/acp/sshd.rs"]
#[allow(dead_code)]
mod sshd;
mod terminal;
mod usage;
