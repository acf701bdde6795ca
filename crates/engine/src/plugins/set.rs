//! The plugins of a session: every installed plugin that applies to the folder, with its manifest, whether the
//! settings turn it on, and what it brings; the problems met (a broken manifest, a missing folder, a plugin turned
//! on that is not installed) as sentences for notices. Nothing here stops a session: a broken plugin is listed as
//! not loaded and the others apply.

use std::path::{Path, PathBuf};

use crate::settings::{
    HookSet, LoadedSettings, McpServerEntry, PluginSwitch, RuleSource, SettingsIssue, parse_hooks,
};

use super::installed::{InstallRecord, read_installed, split_id};
use super::manifest::read_manifest;
use super::parts::{PartCounts, Parts, read_parts};
use super::switches::decide;

/// One installed plugin.
#[derive(Debug, Clone, PartialEq)]
pub struct Plugin {
    /// `name@marketplace`, as installed and as `enabledPlugins` names it.
    pub id: String,
    /// Its name (the manifest's, else the id's); the prefix `name:` of its commands, skills and agent types.
    pub name: String,
    pub marketplace: String,
    pub version: Option<String>,
    pub description: Option<String>,
    pub author: Option<String>,
    pub root: PathBuf,
    /// The install record's scope (`user`, `project`, `local`), if it says.
    pub scope: Option<String>,
    /// Whether the settings turn it on.
    pub enabled: bool,
    /// The settings source whose `enabledPlugins` entry decides, if any names it.
    pub decided_by: Option<RuleSource>,
    /// The source its hooks and servers count as coming from while it is on (see [`super::switches`]).
    pub trust_source: Option<RuleSource>,
    /// Whether its folder and manifest could be read (a plugin that could not is listed, never applied).
    pub loaded: bool,
    pub parts: Parts,
    pub counts: PartCounts,
    /// Its hooks, marked with its folder, from [`Plugin::trust_source`] (empty while it is off).
    pub hooks: HookSet,
    /// What is wrong with it, each a sentence.
    pub problems: Vec<String>,
}

impl Plugin {
    /// Whether its parts apply: it is on and could be read.
    pub fn active(&self) -> bool {
        self.enabled && self.loaded
    }

    /// The name its MCP server `server` has in the session (`plugin:<plugin>:<server>`).
    pub fn server_name(&self, server: &str) -> String {
        format!("plugin:{}:{server}", self.name)
    }

    /// Whether its hooks and servers wait for the folder's trust (it is on only by the project's own files).
    pub fn needs_trust(&self) -> bool {
        self.trust_source
            .as_ref()
            .is_some_and(RuleSource::is_project_level)
    }
}

/// Every plugin installed for a folder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PluginSet {
    pub plugins: Vec<Plugin>,
    /// Problems not of one installed plugin (the records file, a plugin on but not installed).
    pub problems: Vec<String>,
}

impl PluginSet {
    /// The plugins of `plugins_dir` (none when `None`) that apply to `project`, each on or off as `switches` (the
    /// merged `enabledPlugins` entries, highest priority first) say.
    pub fn load(plugins_dir: Option<&Path>, project: &Path, switches: &[PluginSwitch]) -> Self {
        let (records, mut problems) = match plugins_dir {
            Some(dir) => read_installed(dir, project),
            None => (Vec::new(), Vec::new()),
        };
        let plugins: Vec<Plugin> = records.iter().map(|r| load_one(r, switches)).collect();
        let mut ids: Vec<&str> = switches.iter().map(|s| s.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let decision = decide(id, switches);
            if decision.enabled && !plugins.iter().any(|p| p.id == id) {
                problems.push(format!(
                    "plugin {id} is turned on in {} but is not installed",
                    decision
                        .decided_by
                        .as_ref()
                        .map(RuleSource::label)
                        .unwrap_or_default()
                ));
            }
        }
        Self { plugins, problems }
    }

    /// The plugins that are on and could be read.
    pub fn active(&self) -> impl Iterator<Item = &Plugin> {
        self.plugins.iter().filter(|p| p.active())
    }

    /// The plugin `id`, if installed.
    pub fn find(&self, id: &str) -> Option<&Plugin> {
        self.plugins.iter().find(|p| p.id == id)
    }

    /// Every problem of the plugins that are on (and of the records) as a notice, each naming its plugin; the
    /// problems of a plugin that is off are only listed with it.
    pub fn notices(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .problems
            .iter()
            .map(|p| format!("Plugins: {p}"))
            .collect();
        for plugin in self.plugins.iter().filter(|p| p.enabled) {
            out.extend(
                plugin
                    .problems
                    .iter()
                    .map(|p| format!("Plugin {}: {p}", plugin.id)),
            );
        }
        out
    }

    /// What waits for the folder's trust: one sentence per plugin that is on only by the project's files and brings
    /// hooks or servers. Empty when `trusted`.
    pub fn waiting_for_trust(&self, trusted: bool) -> Vec<String> {
        if trusted {
            return Vec::new();
        }
        self.active()
            .filter(|p| p.needs_trust())
            .filter(|p| p.counts.hooks + p.counts.mcp_servers + p.counts.lsp_servers > 0)
            .map(|p| {
                format!(
                    "Plugin {}: its hooks and servers start once you trust this folder (it is turned on by {})",
                    p.id,
                    p.trust_source.as_ref().map(RuleSource::label).unwrap_or_default()
                )
            })
            .collect()
    }

    /// Adds the hooks and MCP servers of the plugins that are on to `loaded`, as coming from each plugin's
    /// [`Plugin::trust_source`]: hooks are kept back until trust as the project's own are; MCP servers of a plugin
    /// that waits for trust are left out while the folder is not `trusted`, and those on by the project's shared
    /// file need approval as the project's own servers do.
    pub fn merge_into(&self, loaded: &mut LoadedSettings, trusted: bool) {
        for plugin in self.active() {
            let Some(source) = &plugin.trust_source else {
                continue;
            };
            loaded.hooks.extend(plugin.hooks.clone());
            if plugin.needs_trust() && !trusted {
                continue;
            }
            for (server, config) in &plugin.parts.mcp_servers {
                loaded.mcp.servers.push(McpServerEntry {
                    name: plugin.server_name(server),
                    config: config.clone(),
                    source: source.clone(),
                });
            }
        }
    }
}

/// Reads one installed plugin.
fn load_one(record: &InstallRecord, switches: &[PluginSwitch]) -> Plugin {
    let decision = decide(&record.id, switches);
    let (id_name, marketplace) = split_id(&record.id);
    let mut plugin = Plugin {
        id: record.id.clone(),
        name: id_name.to_string(),
        marketplace: marketplace.to_string(),
        version: record.version.clone(),
        description: None,
        author: None,
        root: record.root.clone(),
        scope: record.scope.clone(),
        enabled: decision.enabled,
        decided_by: decision.decided_by,
        trust_source: decision.trust_source,
        loaded: false,
        parts: Parts::default(),
        counts: PartCounts::default(),
        hooks: HookSet::default(),
        problems: Vec::new(),
    };
    if !record.root.is_dir() {
        plugin.problems.push(format!(
            "its folder {} does not exist; it is not loaded",
            record.root.display()
        ));
        return plugin;
    }
    let manifest = match read_manifest(&record.root) {
        Ok(m) => m,
        Err(e) => {
            plugin.problems.push(format!(
                "its manifest cannot be used: {e}; it is not loaded"
            ));
            return plugin;
        }
    };
    if let Some(m) = &manifest {
        plugin.name = m.name.clone();
        plugin.version = m.version.clone().or(plugin.version);
        plugin.description = m.description.clone();
        plugin.author = m.author.clone();
    } else if !super::manifest::valid_name(&plugin.name) {
        plugin.problems.push(format!(
            "it has no manifest and its id does not give a usable name (`{}`); it is not loaded",
            plugin.name
        ));
        return plugin;
    }
    plugin.loaded = true;
    plugin.parts = read_parts(&record.root, manifest.as_ref(), &mut plugin.problems);
    plugin.counts = plugin.parts.counts();
    if let (Some(hooks), Some(source), true) =
        (&plugin.parts.hooks, &plugin.trust_source, plugin.enabled)
    {
        let mut issues: Vec<SettingsIssue> = Vec::new();
        plugin.hooks = parse_hooks(hooks, source, &mut issues).of_plugin(&record.root);
        plugin
            .problems
            .extend(issues.into_iter().map(|i| format!("hooks: {}", i.message)));
    }
    plugin
}
