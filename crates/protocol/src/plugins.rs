//! The plugins panel: each installed plugin with where it came from, whether it is on (and which settings file says
//! so), what it brings, and what is wrong with it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How many of each part a plugin brings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PluginCounts {
    pub skills: u32,
    pub commands: u32,
    pub agents: u32,
    pub hooks: u32,
    pub mcp_servers: u32,
    pub lsp_servers: u32,
}

/// One installed plugin, as the plugins panel lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PluginListing {
    /// `name@marketplace`, as `enabledPlugins` names it.
    pub id: String,
    /// Its name: the prefix `name:` of its commands, skills and agent types.
    pub name: String,
    /// The marketplace it was installed from.
    pub marketplace: String,
    pub version: Option<String>,
    pub description: Option<String>,
    pub author: Option<String>,
    /// Whether the settings turn it on.
    pub enabled: bool,
    /// The settings file whose `enabledPlugins` entry decides (`None`: no file names it, so it is off).
    pub decided_by: Option<String>,
    /// Whether the switch can change it (not when the managed policy or a `--settings` file decides).
    pub switchable: bool,
    /// Whether its folder and manifest could be read (a plugin that could not is never applied).
    pub loaded: bool,
    /// Whether its hooks and servers wait for the folder's trust (only the project's files turn it on).
    pub waits_for_trust: bool,
    pub counts: PluginCounts,
    /// What is wrong with it, each a sentence.
    pub problems: Vec<String>,
}
