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
mod ipc;
mod logging;
mod menu;
mod usage;
