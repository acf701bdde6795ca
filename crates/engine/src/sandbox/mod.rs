//! The shell sandbox a Bash command runs in, in one place: the bubblewrap arguments (`bwrap`), the network proxy a
//! sandboxed command's traffic leaves through (`proxy`), the bridge program that carries that traffic from inside
//! the sandbox to the proxy (`bridge`), what the sandbox refused a command (`violations`) and the one-click answer
//! that allows it in the settings (`allow`). Its own row sits above `permission` (the proxy matches domains as the
//! permission rules do, the answer writes the settings as "don't ask again" does) and below `tools` (the Bash tool
//! runs commands here). What is configured stays on the rows below, which every tool call and the permission check
//! read and which cannot import this one: the effective configuration and where a command runs (`tool::sandbox`)
//! and reading it from the settings files (`settings::sandbox`).

mod allow;
mod bridge;
mod bwrap;
mod proxy;
pub mod violations;

pub use crate::settings::SANDBOX_ENV;
pub use allow::{SandboxAllowance, allow_sandbox_violation, sandbox_allowance};
pub use bridge::{
    BRIDGE_ARG, BRIDGE_BIN, BRIDGE_ENV, BridgeProgram, bridge_if_asked, bridge_main,
    bridge_main_os, set_bridge_program,
};
pub use bwrap::{NetworkBridge, Sandbox};
pub use proxy::{Proxy, admits};
