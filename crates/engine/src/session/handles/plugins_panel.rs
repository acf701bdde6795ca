//! The plugins panel of a session: every installed plugin as the settings on disk now say (on or off, which file
//! decides, what it brings, what is wrong), and the switch that writes `enabledPlugins` to the right settings file.
//! A change applies to the sessions started after it; hooks follow the settings watcher (reviewed when they change).

use tandem_protocol::{PluginCounts, PluginListing};

use super::PanelsHandle;
use crate::permission::{SaveError, plugin_switch_file, set_plugin_enabled};
use crate::plugins::{PartCounts, Plugin};
use crate::settings::RuleSource;

/// Why a plugin could not be switched.
#[derive(Debug, thiserror::Error)]
pub enum PluginSwitchError {
    #[error("no installed plugin is called {0}")]
    NotInstalled(String),
    #[error(transparent)]
    Save(#[from] SaveError),
}

impl PanelsHandle<'_> {
    /// Every installed plugin of the folder, sorted by id.
    pub fn plugins_view(&self) -> Vec<PluginListing> {
        let loader = self.settings.loader();
        let trusted = loader.is_folder_trusted();
        loader
            .plugins()
            .plugins
            .iter()
            .map(|p| listing(p, trusted))
            .collect()
    }

    /// Turns plugin `id` on or off in the settings file that should hold the choice; returns the plugins as they
    /// are then.
    pub fn set_plugin_enabled(
        &self,
        id: &str,
        enabled: bool,
    ) -> Result<Vec<PluginListing>, PluginSwitchError> {
        let loader = self.settings.loader();
        let plugins = loader.plugins();
        let plugin = plugins
            .find(id)
            .ok_or_else(|| PluginSwitchError::NotInstalled(id.to_string()))?;
        let file = plugin_switch_file(&loader, plugin)?;
        set_plugin_enabled(&file, id, enabled)?;
        Ok(self.plugins_view())
    }
}

fn listing(plugin: &Plugin, trusted: bool) -> PluginListing {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let PartCounts {
        skills,
        commands,
        agents,
        hooks,
        mcp_servers,
        lsp_servers,
    } = plugin.counts;
    PluginListing {
        id: plugin.id.clone(),
        name: plugin.name.clone(),
        marketplace: plugin.marketplace.clone(),
        version: plugin.version.clone(),
        description: plugin.description.clone(),
        author: plugin.author.clone(),
        enabled: plugin.enabled,
        decided_by: plugin.decided_by.as_ref().map(RuleSource::label),
        switchable: !matches!(
            plugin.decided_by,
            Some(
                RuleSource::Policy(_)
                    | RuleSource::FlagFile(_)
                    | RuleSource::CliArg
                    | RuleSource::Session
            )
        ),
        loaded: plugin.loaded,
        waits_for_trust: plugin.active() && plugin.needs_trust() && !trusted,
        counts: PluginCounts {
            skills: count(skills),
            commands: count(commands),
            agents: count(agents),
            hooks: count(hooks),
            mcp_servers: count(mcp_servers),
            lsp_servers: count(lsp_servers),
        },
        problems: plugin.problems.clone(),
    }
}
