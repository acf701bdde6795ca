//! The MCP part of the settings: `mcpServers` of every source (kept as written, with their source; the `mcp`
//! module reads them), and the lists that approve or refuse the servers of a project's `.mcp.json`
//! (`enableAllProjectMcpServers`, `enabledMcpjsonServers`, `disabledMcpjsonServers`).

use serde_json::Value;

use super::source::{RuleSource, SettingsIssue};

/// One entry of an `mcpServers` object, not yet checked.
#[derive(Debug, Clone, PartialEq)]
pub struct McpServerEntry {
    pub name: String,
    /// The server's configuration as written.
    pub config: Value,
    pub source: RuleSource,
}

/// What the settings say about MCP servers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct McpSettings {
    /// `mcpServers` entries in priority order (highest first; a name may repeat across sources).
    pub servers: Vec<McpServerEntry>,
    /// `enableAllProjectMcpServers`, from the highest-priority source that sets it.
    pub enable_all_project: Option<(bool, RuleSource)>,
    /// `enabledMcpjsonServers` of every source.
    pub enabled_mcpjson: Vec<(String, RuleSource)>,
    /// `disabledMcpjsonServers` of every source.
    pub disabled_mcpjson: Vec<(String, RuleSource)>,
    /// MCP tools the person turned off (`tandem.disabledMcpTools`, full names, of every source).
    pub disabled_tools: Vec<String>,
}

/// The Tandem key of a settings file under which the MCP tools turned off are listed.
pub const TANDEM_KEY: &str = "tandem";
/// The list of MCP tools turned off, under [`TANDEM_KEY`].
pub const DISABLED_TOOLS_KEY: &str = "disabledMcpTools";

impl McpSettings {
    /// Adds the MCP keys of one settings object.
    pub(super) fn add(
        &mut self,
        source: &RuleSource,
        value: &Value,
        issues: &mut Vec<SettingsIssue>,
    ) {
        let file = source.label();
        let mut report = |message: String| {
            issues.push(SettingsIssue {
                file: file.clone(),
                rule: None,
                message,
            })
        };
        if let Some(servers) = value.get("mcpServers") {
            match servers.as_object() {
                Some(servers) => {
                    for (name, config) in servers {
                        self.servers.push(McpServerEntry {
                            name: name.clone(),
                            config: config.clone(),
                            source: source.clone(),
                        });
                    }
                }
                None => report("`mcpServers` must be an object of servers by name".into()),
            }
        }
        if let Some(v) = value.get("enableAllProjectMcpServers") {
            match v.as_bool() {
                Some(b) if self.enable_all_project.is_none() => {
                    self.enable_all_project = Some((b, source.clone()))
                }
                Some(_) => {}
                None => report("`enableAllProjectMcpServers` must be true or false".into()),
            }
        }
        if let Some(v) = value
            .get(TANDEM_KEY)
            .and_then(|t| t.get(DISABLED_TOOLS_KEY))
        {
            match v.as_array() {
                Some(names) => self
                    .disabled_tools
                    .extend(names.iter().filter_map(Value::as_str).map(str::to_string)),
                None => report(format!(
                    "`{TANDEM_KEY}.{DISABLED_TOOLS_KEY}` must be an array of tool names"
                )),
            }
        }
        for (key, list) in [
            ("enabledMcpjsonServers", &mut self.enabled_mcpjson),
            ("disabledMcpjsonServers", &mut self.disabled_mcpjson),
        ] {
            let Some(v) = value.get(key) else { continue };
            match v.as_array() {
                Some(names) => {
                    for name in names {
                        match name.as_str() {
                            Some(n) => list.push((n.to_string(), source.clone())),
                            None => report(format!("`{key}` must list server names, not {name}")),
                        }
                    }
                }
                None => report(format!("`{key}` must be an array of server names")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn servers_and_lists_are_kept_with_their_source_and_bad_shapes_reported() {
        let source = RuleSource::User(PathBuf::from("/home/u/.claude/settings.json"));
        let mut mcp = McpSettings::default();
        let mut issues = Vec::new();
        mcp.add(
            &source,
            &serde_json::json!({
                "mcpServers": {"a": {"command": "x"}},
                "enableAllProjectMcpServers": true,
                "enabledMcpjsonServers": ["b", 3],
                "disabledMcpjsonServers": "c"
            }),
            &mut issues,
        );
        assert_eq!(mcp.servers.len(), 1);
        assert_eq!(mcp.servers[0].name, "a");
        assert_eq!(mcp.enable_all_project, Some((true, source.clone())));
        assert_eq!(mcp.enabled_mcpjson, vec![("b".to_string(), source)]);
        assert!(mcp.disabled_mcpjson.is_empty());
        assert_eq!(issues.len(), 2, "{issues:?}");
    }
}
