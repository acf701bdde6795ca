//! Settings sources: the managed policy, `--settings` files, command-line flags, the project's local and shared
//! settings and the user's settings. Rule arrays are concatenated (highest priority first) and de-duplicated;
//! scalars come from the highest-priority source that sets them. Files are JSONC (comments, trailing commas). A
//! broken entry is reported and the rest still applies; a file that cannot be read or parsed is reported and kept
//! as unreadable, so that what its deny rules might deny never runs without asking.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tandem_protocol::PermissionMode;

use super::enabled_plugins::PluginSwitch;
use super::hooks::{HookSet, parse_hooks};
use super::jsonc::parse_jsonc;
use super::mcp::McpSettings;
use super::paths::{CliSettings, SettingsPaths};
use super::sandbox::{SandboxLayer, parse_sandbox};
use super::source::{RuleBehavior, RuleEntry, RuleSource, SettingsIssue};
use crate::fsutil::{resolve_path, too_large};

/// Everything read from the settings sources.
#[derive(Debug, Clone, Default)]
pub struct LoadedSettings {
    /// Rules in priority order: managed, `--settings` files, flags, local, project, user.
    pub entries: Vec<RuleEntry>,
    /// `defaultMode` per source, in priority order.
    pub default_modes: Vec<(PermissionMode, RuleSource)>,
    /// `additionalDirectories` with their source.
    pub additional_dirs: Vec<(PathBuf, RuleSource)>,
    /// The source that set `disableBypassPermissionsMode: "disable"`, if any.
    pub bypass_disabled_by: Option<RuleSource>,
    /// Every configured hook, before trust and `disableAllHooks` are applied.
    pub hooks: HookSet,
    pub disable_all_hooks: bool,
    pub managed_hooks_only: bool,
    pub managed_rules_only: bool,
    /// `mcpServers` and the project server approval lists.
    pub mcp: McpSettings,
    /// `enabledPlugins` entries of every source, in priority order (highest first).
    pub enabled_plugins: Vec<PluginSwitch>,
    /// The `sandbox` object of each source that has one, in priority order.
    pub sandbox: Vec<SandboxLayer>,
    /// `remoteAgentHost` of the highest-priority source that sets it (never the project's shared file).
    pub remote_agent_host: Option<(String, RuleSource)>,
    pub issues: Vec<SettingsIssue>,
    /// Settings files that exist but could not be read or parsed, each with what is wrong. Any of them may hold deny
    /// rules, so nothing they could deny runs without asking (the command line refuses to run at all).
    pub unreadable: Vec<SettingsIssue>,
}

/// Reads a settings file: `Ok(None)` when it does not exist or holds nothing.
fn read_json(path: &Path) -> Result<Option<Value>, String> {
    // A FIFO or a device would block the read (or never end): only regular files are settings files.
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err("is not a regular file".into()),
        Ok(meta) => {
            if let Some(why) = too_large(meta.len()) {
                return Err(why);
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => {}
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    let Some(value) = parse_jsonc(&text).map_err(|e| format!("is not valid JSON: {e}"))? else {
        return Ok(None);
    };
    if !value.is_object() {
        return Err("must hold a JSON object".into());
    }
    Ok(Some(value))
}

impl LoadedSettings {
    /// Adds one settings file's content.
    pub fn add_file(&mut self, source: RuleSource, path: &Path, base: &Path, home: Option<&Path>) {
        let value = match read_json(path) {
            Ok(Some(v)) => v,
            Ok(None) => return,
            Err(message) => {
                let file = path.display().to_string();
                self.unreadable.push(SettingsIssue {
                    file: file.clone(),
                    rule: None,
                    message: message.clone(),
                });
                self.issues.push(SettingsIssue {
                    file,
                    rule: None,
                    message: format!(
                        "the settings file {message}; its settings are not applied, and since it may hold deny \
                         rules every tool call asks until it is fixed"
                    ),
                });
                return;
            }
        };
        self.add_value(source, &value, base, home);
    }

    /// Records that part of the file `file` that could hold deny or ask rules cannot be read (`message` says what):
    /// like a file that cannot be read, until it is fixed nothing runs without asking. The rest of the file applies.
    fn unreadable_part(&mut self, file: &str, message: String) {
        self.unreadable.push(SettingsIssue {
            file: file.to_string(),
            rule: None,
            message: message.clone(),
        });
        self.issues.push(SettingsIssue {
            file: file.to_string(),
            rule: None,
            message: format!(
                "the settings file {message}; since that part may hold deny rules every tool call asks until it is \
                 fixed"
            ),
        });
    }

    /// Adds a settings object from `source`.
    pub fn add_value(
        &mut self,
        source: RuleSource,
        value: &Value,
        base: &Path,
        home: Option<&Path>,
    ) {
        let file = source.label();
        let report = |issues: &mut Vec<SettingsIssue>, message: String| {
            issues.push(SettingsIssue {
                file: file.clone(),
                rule: None,
                message,
            })
        };
        let perms = value.get("permissions");
        if let Some(perms) = perms
            && !perms.is_object()
        {
            // What it was meant to deny cannot be told: like a file that cannot be read.
            self.unreadable_part(&file, "has a `permissions` that is not an object".into());
        }
        if let Some(perms) = perms.and_then(Value::as_object) {
            for (key, behavior) in [
                ("deny", RuleBehavior::Deny),
                ("ask", RuleBehavior::Ask),
                ("allow", RuleBehavior::Allow),
            ] {
                let Some(list) = perms.get(key) else { continue };
                let Some(list) = list.as_array() else {
                    let message =
                        format!("has a `permissions.{key}` that is not an array of rules");
                    if behavior == RuleBehavior::Allow {
                        report(&mut self.issues, message);
                    } else {
                        self.unreadable_part(&file, message);
                    }
                    continue;
                };
                for item in list {
                    match item.as_str() {
                        Some(text) => self.entries.push(RuleEntry {
                            source: source.clone(),
                            behavior,
                            text: text.to_string(),
                        }),
                        None if behavior == RuleBehavior::Allow => self.issues.push(SettingsIssue {
                            file: file.clone(),
                            rule: Some(format!("{key}: {item}")),
                            message: "a rule must be a string".into(),
                        }),
                        None => self.unreadable_part(
                            &file,
                            format!("has a `permissions.{key}` entry that is not a rule (a string): {item}"),
                        ),
                    }
                }
            }
            if let Some(mode) = perms.get("defaultMode") {
                match mode.as_str().and_then(PermissionMode::parse) {
                    Some(m) => self.default_modes.push((m, source.clone())),
                    None => report(
                        &mut self.issues,
                        format!("`defaultMode` {mode} is not a permission mode"),
                    ),
                }
            }
            if let Some(dirs) = perms.get("additionalDirectories") {
                match dirs.as_array() {
                    Some(dirs) => {
                        for d in dirs {
                            match d.as_str() {
                                Some(d) => self
                                    .additional_dirs
                                    .push((resolve_path(d, base, home), source.clone())),
                                None => report(
                                    &mut self.issues,
                                    format!("an additional directory must be a string, not {d}"),
                                ),
                            }
                        }
                    }
                    None => report(
                        &mut self.issues,
                        "`additionalDirectories` must be an array".into(),
                    ),
                }
            }
            if let Some(v) = perms.get("disableBypassPermissionsMode")
                && v.as_str() == Some("disable")
                && self.bypass_disabled_by.is_none()
            {
                self.bypass_disabled_by = Some(source.clone());
            }
        }
        if let Some(v) = value.get("disableBypassPermissionsMode")
            && v.as_str() == Some("disable")
            && self.bypass_disabled_by.is_none()
        {
            self.bypass_disabled_by = Some(source.clone());
        }
        if let Some(hooks) = value.get("hooks") {
            let set = parse_hooks(hooks, &source, &mut self.issues);
            self.hooks.extend(set);
        }
        self.mcp.add(&source, value, &mut self.issues);
        super::enabled_plugins::add(&mut self.enabled_plugins, &source, value, &mut self.issues);
        super::remote_agent_host::add(
            &mut self.remote_agent_host,
            &source,
            value,
            &mut self.issues,
        );
        if let Some(layer) = parse_sandbox(value, &source, base, home, &mut self.issues) {
            self.sandbox.push(layer);
        }
        if value.get("disableAllHooks").and_then(Value::as_bool) == Some(true) {
            self.disable_all_hooks = true;
        }
        if matches!(source, RuleSource::Policy(_)) {
            if value.get("allowManagedHooksOnly").and_then(Value::as_bool) == Some(true) {
                self.managed_hooks_only = true;
            }
            if value
                .get("allowManagedPermissionRulesOnly")
                .and_then(Value::as_bool)
                == Some(true)
            {
                self.managed_rules_only = true;
            }
        }
    }

    /// Adds the command-line flags as a source.
    pub fn add_cli(&mut self, cli: &CliSettings) {
        for (list, behavior) in [
            (&cli.disallowed_tools, RuleBehavior::Deny),
            (&cli.allowed_tools, RuleBehavior::Allow),
        ] {
            for text in list {
                self.entries.push(RuleEntry {
                    source: RuleSource::CliArg,
                    behavior,
                    text: text.clone(),
                });
            }
        }
        if let Some(mode) = cli.mode {
            self.default_modes.push((mode, RuleSource::CliArg));
        }
        for d in &cli.add_dirs {
            self.additional_dirs.push((d.clone(), RuleSource::CliArg));
        }
    }
}

/// Loads every source in priority order.
pub fn load_settings(
    paths: &SettingsPaths,
    cli: &CliSettings,
    project_root: &Path,
    home: Option<&Path>,
) -> LoadedSettings {
    let mut loaded = LoadedSettings::default();
    if let Some(managed) = &paths.managed {
        loaded.add_file(
            RuleSource::Policy(managed.clone()),
            managed,
            project_root,
            home,
        );
    }
    for file in &paths.flag_files {
        if !file.exists() {
            loaded.issues.push(SettingsIssue {
                file: file.display().to_string(),
                rule: None,
                message: "the settings file given with --settings does not exist".into(),
            });
            continue;
        }
        loaded.add_file(RuleSource::FlagFile(file.clone()), file, project_root, home);
    }
    loaded.add_cli(cli);
    loaded.add_file(
        RuleSource::Local(paths.local.clone()),
        &paths.local,
        project_root,
        home,
    );
    loaded.add_file(
        RuleSource::Project(paths.project.clone()),
        &paths.project,
        project_root,
        home,
    );
    if let Some(user) = &paths.user {
        let base = user.parent().unwrap_or(project_root).to_path_buf();
        loaded.add_file(RuleSource::User(user.clone()), user, &base, home);
    }
    if loaded.managed_rules_only {
        loaded
            .entries
            .retain(|e| matches!(e.source, RuleSource::Policy(_)));
    }
    loaded
}
