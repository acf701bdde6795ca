//! Building a session's permission context from the standard settings places, and rebuilding it when the files
//! change: rules apply from the next call, changed hooks wait for the user's review.

use std::path::{Path, PathBuf};

use tandem_protocol::PermissionMode;

use super::context::{ContextOptions, PermissionContext};
use super::rule::RuleSource;
use super::trust::TrustStore;
use crate::plugins::PluginSet;
use crate::settings::{CliSettings, HookSet, LoadedSettings, SettingsPaths, load_settings};

/// Where a session's settings come from, and how trust is looked up.
#[derive(Debug, Clone)]
pub struct PermissionLoader {
    pub paths: SettingsPaths,
    pub cli: CliSettings,
    pub project_root: PathBuf,
    pub home: Option<PathBuf>,
    /// `None`: the folder is trusted (command-line runs).
    pub trust: Option<TrustStore>,
    /// The folder of installed plugins when not `<home>/.claude/plugins`.
    pub plugins_dir: Option<PathBuf>,
}

/// The result of re-reading the settings files.
#[derive(Debug, Clone)]
pub struct Reloaded {
    /// The new context: new rules, mode and session grants kept, the old hook snapshot kept.
    pub context: PermissionContext,
    /// The new hooks, when they differ from the snapshot in force (apply after the user reviews them).
    pub changed_hooks: Option<HookSet>,
}

impl PermissionLoader {
    /// The standard places for `project_root` (home from `$HOME`, trust from the app's data directory).
    pub fn standard(project_root: &Path, cli: CliSettings) -> Self {
        let home = dirs::home_dir();
        Self {
            paths: SettingsPaths::standard(project_root, home.as_deref()),
            cli,
            project_root: project_root.to_path_buf(),
            home,
            trust: TrustStore::standard(),
            plugins_dir: None,
        }
    }

    /// Where installed plugins are recorded: [`PermissionLoader::plugins_dir`] when set, else
    /// `<home>/.claude/plugins`.
    pub fn plugins_folder(&self) -> Option<PathBuf> {
        self.plugins_dir
            .clone()
            .or_else(|| self.home.as_deref().map(crate::plugins::plugins_dir_of))
    }

    /// The installed plugins, each on or off as the settings on disk now say.
    pub fn plugins(&self) -> PluginSet {
        self.plugins_of(&self.settings_files_only())
    }

    fn plugins_of(&self, loaded: &LoadedSettings) -> PluginSet {
        PluginSet::load(
            self.plugins_folder().as_deref(),
            &self.project_root,
            &loaded.enabled_plugins,
        )
    }

    /// The settings files as they are, without what plugins add.
    fn settings_files_only(&self) -> LoadedSettings {
        load_settings(
            &self.paths,
            &self.cli,
            &self.project_root,
            self.home.as_deref(),
        )
    }

    /// Whether the folder's project-level grants apply (always for command-line runs, which assume trust).
    pub fn is_folder_trusted(&self) -> bool {
        self.trust
            .as_ref()
            .is_none_or(|t| t.is_trusted(&self.project_root))
    }

    /// The settings files' `remoteAgentHost` (where the Agent tool's remote sub-agents run), from the highest-priority
    /// file that sets it; `None` when none does.
    pub fn remote_agent_host(&self) -> Option<String> {
        self.settings_files_only()
            .remote_agent_host
            .map(|(url, _)| url)
    }

    /// Every settings source as it is on disk now, with the hooks and MCP servers of the plugins they turn on.
    pub fn read_settings(&self) -> LoadedSettings {
        let mut loaded = self.settings_files_only();
        self.plugins_of(&loaded)
            .merge_into(&mut loaded, self.is_folder_trusted());
        loaded
    }

    /// Reads every source and builds a context; `mode` is the mode chosen in the UI (settings decide when `None`).
    pub fn load(
        &self,
        mode: Option<PermissionMode>,
        session_rules: &[String],
    ) -> PermissionContext {
        let loaded = self.read_settings();
        for issue in &loaded.issues {
            tracing::debug!(file = %issue.file, rule = ?issue.rule, "{}", issue.message);
        }
        PermissionContext::from_settings(
            &loaded,
            ContextOptions {
                project_root: self.project_root.clone(),
                cwd: Some(self.project_root.clone()),
                home: self.home.clone(),
                trusted: self.is_folder_trusted(),
                mode,
                session_rules: session_rules.to_vec(),
                avoid_prompts: false,
            },
        )
    }

    /// Re-reads the settings after a change on disk, keeping the mode, the session grants and the hook snapshot of
    /// `current`.
    pub fn reload(&self, current: &PermissionContext) -> Reloaded {
        let grants: Vec<String> = current
            .entries
            .iter()
            .filter(|e| e.source == RuleSource::Session)
            .map(|e| e.text.clone())
            .collect();
        let fresh = self.load(Some(current.mode), &grants);
        let changed_hooks = (*fresh.hooks != *current.hooks).then(|| (*fresh.hooks).clone());
        let mut context = fresh
            .with_hooks((*current.hooks).clone())
            .in_mode(current.mode);
        context.pre_plan_mode = current.pre_plan_mode;
        context.avoid_prompts = current.avoid_prompts;
        context.classifier = current.classifier.clone();
        // An acceptance names the file as it was then: once the file changes it no longer holds.
        context.accepted_unreadable = current.accepted_unreadable.clone();
        Reloaded {
            context,
            changed_hooks,
        }
    }
}
