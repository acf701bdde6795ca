//! Where settings live: the managed policy file, the standard files of a project and a user, the command-line
//! flags that act as a settings source, and the git root that holds a project's local settings.

use std::path::{Path, PathBuf};

use tandem_protocol::PermissionMode;

/// The managed policy file on this system.
pub fn managed_settings_path() -> PathBuf {
    if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/ClaudeCode/managed-settings.json")
    } else {
        PathBuf::from("/etc/claude-code/managed-settings.json")
    }
}

/// Where settings are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsPaths {
    pub managed: Option<PathBuf>,
    pub flag_files: Vec<PathBuf>,
    pub local: PathBuf,
    pub project: PathBuf,
    pub user: Option<PathBuf>,
}

impl SettingsPaths {
    /// The standard places for a project folder and a home directory.
    pub fn standard(project_root: &Path, home: Option<&Path>) -> Self {
        Self {
            managed: Some(managed_settings_path()),
            flag_files: Vec::new(),
            local: project_root.join(".claude").join("settings.local.json"),
            project: project_root.join(".claude").join("settings.json"),
            user: home.map(|h| h.join(".claude").join("settings.json")),
        }
    }

    /// Every file, for the watcher.
    pub fn all(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self.managed.iter().cloned().collect();
        out.extend(self.flag_files.iter().cloned());
        out.push(self.local.clone());
        out.push(self.project.clone());
        out.extend(self.user.iter().cloned());
        out
    }
}

/// Command-line flags that act as a settings source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliSettings {
    pub allowed_tools: Vec<String>,
    pub disallowed_tools: Vec<String>,
    pub mode: Option<PermissionMode>,
    pub add_dirs: Vec<PathBuf>,
}

/// The git root above `dir` (the folder holding `.git`), if any.
pub fn git_root(dir: &Path) -> Option<PathBuf> {
    let mut cur = Some(dir);
    while let Some(d) = cur {
        if d.join(".git").exists() {
            return Some(d.to_path_buf());
        }
        cur = d.parent();
    }
    None
}
