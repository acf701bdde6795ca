//! Settings: every settings source (managed policy, `--settings` files, command-line flags, the project's local and
//! shared files, the user's file) read once into one typed value — rules, hooks, mode, directories — with the source
//! of each and the problems found; the watcher that notices changes on disk. Permission and hooks both read it.

mod hook_event;
mod hooks;
mod loaded;
pub mod mcp;
mod paths;
mod source;
mod watcher;

pub use hook_event::HookEvent;
pub use hooks::{DEFAULT_TIMEOUT_SECS, HookCommand, HookMatcher, HookSet, parse_hooks};
pub use loaded::{LoadedSettings, load_settings};
pub use mcp::{McpServerEntry, McpSettings};
pub use paths::{CliSettings, SettingsPaths, git_root, managed_settings_path};
pub use source::{RuleBehavior, RuleEntry, RuleSource, SettingsIssue};
pub use watcher::SettingsWatcher;
