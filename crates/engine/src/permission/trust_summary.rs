//! What trusting a folder would enable: the project's allow rules, extra directories, hooks and MCP servers (those of
//! plugins only the project turns on among them), read from its settings files so the trust question can list them.

use std::path::Path;

use serde_json::Value;
use tandem_protocol::FolderTrust;

use super::loader::PermissionLoader;
use crate::settings::RuleBehavior;

impl PermissionLoader {
    /// Whether the folder is trusted and what its project-level settings grant once it is.
    pub fn folder_trust(&self) -> FolderTrust {
        let loaded = self.read_settings();
        let allow_rules = loaded
            .entries
            .iter()
            .filter(|e| e.source.is_project_level() && e.behavior == RuleBehavior::Allow)
            .map(|e| e.text.clone())
            .collect();
        let directories = loaded
            .additional_dirs
            .iter()
            .filter(|(_, source)| source.is_project_level())
            .map(|(dir, _)| dir.display().to_string())
            .collect();
        let mut hooks = Vec::new();
        for (event, matchers) in &loaded.hooks.events {
            for matcher in matchers {
                for hook in matcher.hooks.iter().filter(|h| h.source.is_project_level()) {
                    let pattern = matcher
                        .pattern
                        .as_deref()
                        .filter(|p| !p.is_empty() && *p != "*");
                    hooks.push(match pattern {
                        Some(p) => format!("{event} ({p}): {}", hook.command),
                        None => format!("{event}: {}", hook.command),
                    });
                }
            }
        }
        let mut mcp_servers = Vec::new();
        for file in [
            self.project_root.join(".mcp.json"),
            self.paths.project.clone(),
            self.paths.local.clone(),
        ] {
            mcp_servers.extend(mcp_server_lines(&file));
        }
        // The servers of plugins only the project's files turn on (their hooks are among the hooks above).
        for plugin in self.plugins().active().filter(|p| p.needs_trust()) {
            for (name, server) in &plugin.parts.mcp_servers {
                mcp_servers.push(server_line(&plugin.server_name(name), server));
            }
        }
        FolderTrust {
            trusted: self.is_folder_trusted(),
            allow_rules,
            directories,
            hooks,
            mcp_servers,
        }
    }
}

/// `name: command args` or `name: url` for each server in the `mcpServers` object of a JSON file (none when the
/// file is missing, not a regular file or not valid; the settings loader reports those).
fn mcp_server_lines(file: &Path) -> Vec<String> {
    let readable = std::fs::metadata(file).is_ok_and(|m| m.is_file());
    let Some(value) = readable
        .then(|| std::fs::read_to_string(file).ok())
        .flatten()
        .and_then(|text| crate::settings::parse_jsonc(&text).ok().flatten())
    else {
        return Vec::new();
    };
    let Some(servers) = value.get("mcpServers").and_then(Value::as_object) else {
        return Vec::new();
    };
    servers
        .iter()
        .map(|(name, server)| server_line(name, server))
        .collect()
}

/// `name: command args` or `name: url` for one server's configuration.
fn server_line(name: &str, server: &Value) -> String {
    let text = |key: &str| server.get(key).and_then(Value::as_str).map(str::to_string);
    let what = text("url").or_else(|| {
        text("command").map(|command| {
            let args = server
                .get("args")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>())
                .unwrap_or_default();
            std::iter::once(command.as_str())
                .chain(args)
                .collect::<Vec<_>>()
                .join(" ")
        })
    });
    format!(
        "{name}: {}",
        what.unwrap_or_else(|| "(no command or url)".into())
    )
}
