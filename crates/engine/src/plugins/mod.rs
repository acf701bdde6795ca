//! Plugins as the command-line agent installs them (docs/plugins.md): the install records under
//! `~/.claude/plugins`, each plugin's manifest and parts (skills, commands, agents, hooks, MCP and language
//! servers), and the `enabledPlugins` switches of the settings files. The session applies the parts of the plugins
//! that are on where it loads the project's own; hooks and servers follow the same trust rules.

mod installed;
mod json_file;
mod manifest;
mod parts;
mod set;
mod substitute;
mod switches;

use std::path::{Path, PathBuf};

pub use installed::{INSTALLED_FILE, InstallRecord, read_installed, split_id};
pub use manifest::{ConfigRef, MANIFEST_PATH, Manifest, parse_manifest, read_manifest, valid_name};
pub use parts::{PartCounts, Parts, read_parts};
pub use set::{Plugin, PluginSet};
pub use substitute::{PLUGIN_ROOT_VAR, with_plugin_root};
pub use switches::{Decision, decide};

/// The plugins folder of a home folder: `<home>/.claude/plugins`.
pub fn plugins_dir_of(home: &Path) -> PathBuf {
    home.join(".claude").join("plugins")
}
