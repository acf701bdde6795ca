//! Settings: every settings source (managed policy, `--settings` files, command-line flags, the project's local and
//! shared files, the user's file) read once into one typed value — rules, hooks, mode, directories — with the source
//! of each and the problems found; the watcher that notices changes on disk. Permission and hooks both read it.

mod agent_servers;
mod app_settings;
mod budget;
mod credentials;
mod enabled_plugins;
mod env_switch;
mod file_state;
mod hook_event;
mod hooks;
mod json_words;
mod jsonc;
mod loaded;
pub mod mcp;
mod paths;
mod remote_agent_host;
mod sandbox;
mod source;
mod watcher;

pub use crate::fsutil::{MAX_SETTINGS_BYTES, too_large};
pub use agent_servers::{
    AGENT_SERVERS_KEY, AgentServer, AgentServerError, agent_server, agent_servers,
};
pub use app_settings::{
    AppSettingsError, AppSettingsFile, DEFAULT_FONT_SIZE, FONT_SIZES, app_settings_warnings,
    load_model_config,
};
pub use budget::{BadBudget, BudgetSettings, DEFAULT_WARN_PERCENT};
pub use credentials::{CredentialError, CredentialStore, NO_KEYRING_ENV};
pub use enabled_plugins::{ENABLED_PLUGINS_KEY, PluginSwitch};
pub use env_switch::{env_equals, env_switch, env_value, switch_value_on};
pub use file_state::FileState;
pub use hook_event::HookEvent;
pub use hooks::{DEFAULT_TIMEOUT_SECS, HookCommand, HookMatcher, HookSet, parse_hooks};
pub use json_words::{json_kind, json_shown};
pub use jsonc::{is_strict_json, parse_jsonc};
pub use loaded::{LoadedSettings, load_settings};
pub use mcp::{McpServerEntry, McpSettings};
pub use paths::{CliSettings, SettingsPaths, git_root, managed_settings_path};
pub use remote_agent_host::REMOTE_AGENT_HOST_KEY;
pub use sandbox::{
    SANDBOX_ENV, SandboxLayer, env_override, find_bwrap, merge as merge_sandbox, parse_sandbox,
};
pub use source::{RuleBehavior, RuleEntry, RuleSource, SettingsIssue};
pub use watcher::SettingsWatcher;
