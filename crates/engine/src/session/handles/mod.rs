//! The handles a caller takes from a [`super::Session`] for one concern each — settings and trust, MCP servers,
//! checkpoints and rewinds, sub-agents and worktrees, the rules, hooks and plugins panels, background shells. Each borrows
//! only the parts of the session its concern needs; the session itself keeps the conversation, the runtime and the
//! store.

mod agents;
mod checkpoints;
mod mcp;
mod panels;
mod plugins_panel;
mod settings;
mod shells;
mod unreadable_settings;

pub use agents::AgentsHandle;
pub(super) use agents::AgentsState;
pub use checkpoints::CheckpointsHandle;
pub use mcp::McpHandle;
pub use panels::{HookTestError, PanelsHandle};
pub use plugins_panel::PluginSwitchError;
pub use settings::SettingsHandle;
pub(super) use settings::SettingsState;
pub use shells::{SHELL_OUTPUT_TAIL_BYTES, ShellsHandle};
pub(super) use unreadable_settings::announced_some;
