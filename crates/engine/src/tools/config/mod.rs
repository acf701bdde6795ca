//! Config (behind `USER_TYPE=ant`, as Tungsten): the model reads a setting, or changes one through the permission
//! engine. Only the settings of [`table::SETTINGS`] are known; a read is read-only and needs no approval, a change
//! asks unless a rule allows `Config`. Changes go to the file the setting lives in, written through a temporary file
//! and a rename, every other key kept; a file with comments is never rewritten.

pub mod table;

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tandem_protocol::{RenderHints, ToolKind};

use crate::permission::set_key;
use crate::settings::{SettingsPaths, parse_jsonc};
use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};
use table::{Home, Setting, find};

/// Which settings file of the project a change goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// `.claude/settings.local.json`: this person, this project (the default).
    Local,
    /// `.claude/settings.json`: everyone working on the project.
    Project,
    /// `~/.claude/settings.json`: this person, every project.
    User,
}

/// Reads or changes one setting.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfigInput {
    /// The setting's name, e.g. `theme`, `model` or `permissions.defaultMode`.
    pub setting: String,
    /// The new value. Omit it to read the setting.
    #[serde(default)]
    pub value: Option<Value>,
    /// For a project setting, the file a change goes to: `local` (default), `project` or `user`.
    #[serde(default)]
    pub scope: Option<Scope>,
}

/// The files Config reads and writes.
#[derive(Debug, Clone)]
pub struct ConfigFiles {
    /// The project's and the person's settings files, in the order they win (managed policy first).
    pub settings: SettingsPaths,
    /// Tandem's own settings file (`None`: no configuration folder).
    pub app: Option<PathBuf>,
}

/// The Config tool.
#[derive(Debug, Clone)]
pub struct ConfigTool {
    files: ConfigFiles,
}

impl ConfigFiles {
    /// The standard files of the project folder `project` and the home folder `home`, and Tandem's settings file.
    pub fn standard(project: &Path, home: Option<&Path>) -> Self {
        let root = crate::settings::git_root(project).unwrap_or_else(|| project.to_path_buf());
        Self {
            settings: SettingsPaths::standard(&root, home),
            app: crate::settings::AppSettingsFile::standard_path(),
        }
    }
}

impl ConfigTool {
    pub fn new(files: ConfigFiles) -> Self {
        Self { files }
    }

    /// The file a change of `setting` goes to.
    fn target(&self, setting: &Setting, scope: Option<Scope>) -> Result<PathBuf, String> {
        match (setting.home, scope.unwrap_or(Scope::Local)) {
            (Home::App, _) if scope.is_some() => Err(format!(
                "{} is a setting of Tandem's window, kept in one file; give no scope",
                setting.name
            )),
            (Home::App, _) => self
                .files
                .app
                .clone()
                .ok_or_else(|| "there is no configuration folder for Tandem's settings".into()),
            (Home::Settings, Scope::Local) => Ok(self.files.settings.local.clone()),
            (Home::Settings, Scope::Project) => Ok(self.files.settings.project.clone()),
            (Home::Settings, Scope::User) => self
                .files
                .settings
                .user
                .clone()
                .ok_or_else(|| "there is no home folder for user settings".into()),
        }
    }

    /// The files `setting` is read from, the one that wins first, each with its name.
    fn sources(&self, setting: &Setting) -> Vec<(&'static str, PathBuf)> {
        let paths = &self.files.settings;
        match setting.home {
            Home::App => self
                .files
                .app
                .iter()
                .map(|p| ("tandem", p.clone()))
                .collect(),
            Home::Settings => {
                let mut out: Vec<(&'static str, PathBuf)> = paths
                    .managed
                    .iter()
                    .map(|p| ("policy", p.clone()))
                    .collect();
                out.push(("local", paths.local.clone()));
                out.push(("project", paths.project.clone()));
                out.extend(paths.user.iter().map(|p| ("user", p.clone())));
                out
            }
        }
    }

    fn read(&self, setting: &Setting) -> String {
        let mut lines = Vec::new();
        let mut in_force = None;
        for (name, file) in self.sources(setting) {
            match value_in(&file, &setting.path()) {
                Ok(Some(value)) => {
                    in_force.get_or_insert_with(|| value.clone());
                    lines.push(format!("- {name} ({}): {value}", file.display()));
                }
                Ok(None) => {}
                Err(why) => lines.push(format!("- {name} ({}): unreadable: {why}", file.display())),
            }
        }
        let head = match in_force {
            Some(value) => format!("{} = {value}", setting.name),
            None => format!("{} is not set (the default applies)", setting.name),
        };
        format!(
            "{head}\nIt sets {}. It takes {}.\n{}",
            setting.about,
            setting.takes(),
            lines.join("\n")
        )
        .trim_end()
        .to_string()
    }
}

/// The value at `path` in the settings file `file` (`None`: no file, or the key is not set).
fn value_in(file: &Path, path: &[&str]) -> Result<Option<Value>, String> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let Some(root) = parse_jsonc(&text)? else {
        return Ok(None);
    };
    Ok(path.iter().try_fold(&root, |at, key| at.get(key)).cloned())
}

/// Every setting Config knows, one per line.
fn known() -> String {
    table::SETTINGS
        .iter()
        .map(|s| format!("- {} ({}): {}", s.name, s.takes(), s.about))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Tool for ConfigTool {
    type Input = ConfigInput;

    fn name(&self) -> &'static str {
        names::CONFIG
    }

    fn description(&self) -> String {
        format!(
            "Read a setting (give only `setting`), or change it (give `value`; the person is asked unless a rule \
             allows Config). Project settings go to `.claude/settings.local.json` unless `scope` says `project` \
             or `user`. Permission rules, hooks and the environment cannot be changed here. The settings:\n{}",
            known()
        )
    }

    fn is_concurrency_safe(&self, input: &ConfigInput) -> bool {
        input.value.is_none()
    }

    fn is_read_only(&self, input: &ConfigInput) -> bool {
        input.value.is_none()
    }

    fn render_hints(&self, input: &ConfigInput, _ctx: &ToolContext) -> RenderHints {
        let title = match &input.value {
            Some(value) => format!("Config {} = {value}", input.setting.trim()),
            None => format!("Config {}", input.setting.trim()),
        };
        RenderHints {
            kind: ToolKind::Other,
            title,
            collapsible: input.value.is_none(),
        }
    }

    fn permission_subject(&self, _input: &ConfigInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::Tool
    }

    async fn validate_input(&self, input: &ConfigInput, _ctx: &ToolContext) -> Result<(), String> {
        let setting = find(&input.setting).ok_or_else(|| {
            format!(
                "Config does not know `{}`. The settings it reads and changes:\n{}",
                input.setting.trim(),
                known()
            )
        })?;
        if let Some(value) = &input.value {
            setting.accept(value)?;
            self.target(setting, input.scope)?;
        }
        Ok(())
    }

    async fn call(&self, input: &ConfigInput, _ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let setting = find(&input.setting)
            .ok_or_else(|| ToolError::to_model(format!("unknown setting {}", input.setting)))?;
        let Some(value) = &input.value else {
            return Ok(ToolOutput::text(self.read(setting)));
        };
        let value = setting.accept(value).map_err(ToolError::to_model)?;
        let file = self
            .target(setting, input.scope)
            .map_err(ToolError::to_model)?;
        let before = value_in(&file, &setting.path()).ok().flatten();
        set_key(&file, &setting.path(), value.clone())
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        let was = match before {
            Some(before) => format!(" (it was {before})"),
            None => String::new(),
        };
        Ok(ToolOutput::text(format!(
            "Set {} = {value} in {}{was}. It sets {}.",
            setting.name,
            file.display(),
            setting.about
        )))
    }
}
