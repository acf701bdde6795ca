//! A plugin's manifest, `.claude-plugin/plugin.json`: its name, version, description and author, and the optional
//! keys that put its parts somewhere other than the default folders (`commands`, `agents`, `skills`: a path or a
//! list of paths; `hooks`, `mcpServers`, `lspServers`: a path, a list of paths, or the configuration itself).

use std::path::Path;

use serde_json::Value;

use crate::settings::json_shown;

/// The manifest's place inside a plugin folder.
pub const MANIFEST_PATH: &str = ".claude-plugin/plugin.json";

/// Where a configuration part (hooks, MCP or LSP servers) comes from, when the manifest says.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigRef {
    /// Files relative to the plugin folder, read in order.
    Files(Vec<String>),
    /// The configuration written in the manifest itself.
    Inline(Value),
}

/// What the manifest says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    pub name: String,
    pub version: Option<String>,
    pub description: Option<String>,
    /// The author's name (`author` is an object with `name`, or a text).
    pub author: Option<String>,
    /// Paths that replace the default folder of each part, when given.
    pub commands: Option<Vec<String>>,
    pub agents: Option<Vec<String>>,
    pub skills: Option<Vec<String>>,
    pub hooks: Option<ConfigRef>,
    pub mcp_servers: Option<ConfigRef>,
    pub lsp_servers: Option<ConfigRef>,
}

/// Reads the manifest of the plugin at `root`: `Ok(None)` when it has none (the name then comes from the id and
/// every part from its default folder); `Err` says what makes it unusable.
pub fn read_manifest(root: &Path) -> Result<Option<Manifest>, String> {
    let Some(value) = super::json_file::read_json(&root.join(MANIFEST_PATH))? else {
        return Ok(None);
    };
    parse_manifest(&value).map(Some)
}

/// The manifest of one JSON value.
pub fn parse_manifest(value: &Value) -> Result<Manifest, String> {
    let obj = value.as_object().ok_or_else(|| {
        format!(
            "the manifest must be a JSON object, not {}",
            json_shown(value)
        )
    })?;
    let name = match obj.get("name") {
        Some(Value::String(n)) if valid_name(n) => n.clone(),
        Some(Value::String(n)) => {
            return Err(format!(
                "the name `{n}` may not be empty or hold spaces, slashes, colons or parentheses"
            ));
        }
        Some(other) => {
            return Err(format!(
                "`name` must be a string, not {}",
                json_shown(other)
            ));
        }
        None => return Err("the manifest has no `name`".into()),
    };
    let text = |key: &str| -> Result<Option<String>, String> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(format!(
                "`{key}` must be a string, not {}",
                json_shown(other)
            )),
        }
    };
    let author = match obj.get("author") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Object(a)) => a.get("name").and_then(Value::as_str).map(str::to_string),
        Some(other) => {
            return Err(format!(
                "`author` must be an object or a string, not {}",
                json_shown(other)
            ));
        }
    };
    Ok(Manifest {
        name,
        version: text("version")?,
        description: text("description")?,
        author,
        commands: paths(obj.get("commands"), "commands")?,
        agents: paths(obj.get("agents"), "agents")?,
        skills: paths(obj.get("skills"), "skills")?,
        hooks: config_ref(obj.get("hooks"), "hooks")?,
        mcp_servers: config_ref(obj.get("mcpServers"), "mcpServers")?,
        lsp_servers: config_ref(obj.get("lspServers"), "lspServers")?,
    })
}

/// Whether `name` may name a plugin (it becomes the prefix `name:` of its commands and skills).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(|c: char| {
            c.is_whitespace() || matches!(c, '/' | '\\' | ':' | '(' | ')' | '@')
        })
}

fn paths(value: Option<&Value>, key: &str) -> Result<Option<Vec<String>>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(vec![s.clone()])),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(|| format!("`{key}` must be a path or a list of paths")),
        Some(other) => Err(format!(
            "`{key}` must be a path or a list of paths, not {}",
            json_shown(other)
        )),
    }
}

fn config_ref(value: Option<&Value>, key: &str) -> Result<Option<ConfigRef>, String> {
    match value {
        Some(Value::Object(_)) => Ok(value.cloned().map(ConfigRef::Inline)),
        other => Ok(paths(other, key)?.map(ConfigRef::Files)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn manifests_are_read_and_what_makes_one_unusable_is_said() {
        let full = parse_manifest(&json!({
            "name": "deploy-tools", "version": "1.2.0", "description": "Deploys",
            "author": {"name": "Dev Team", "email": "d@example.com"},
            "commands": ["./extra/ship.md"], "agents": "./custom-agents",
            "hooks": "./config/hooks.json", "mcpServers": {"db": {"command": "x"}}
        }))
        .expect("manifest");
        assert_eq!(full.name, "deploy-tools");
        assert_eq!(full.author.as_deref(), Some("Dev Team"));
        assert_eq!(full.commands, Some(vec!["./extra/ship.md".to_string()]));
        assert_eq!(full.agents, Some(vec!["./custom-agents".to_string()]));
        assert_eq!(full.skills, None);
        assert_eq!(
            full.hooks,
            Some(ConfigRef::Files(vec!["./config/hooks.json".into()]))
        );
        assert!(matches!(full.mcp_servers, Some(ConfigRef::Inline(_))));
        let cases = [
            (json!([]), "JSON object"),
            (json!({"version": "1"}), "no `name`"),
            (json!({"name": "a b"}), "may not be empty"),
            (json!({"name": 3}), "must be a string"),
            (json!({"name": "a", "commands": 3}), "`commands` must be"),
            (json!({"name": "a", "version": 2}), "`version` must be"),
        ];
        for (value, expected) in cases {
            let err = parse_manifest(&value).expect_err("unusable");
            assert!(err.contains(expected), "{value}: {err}");
        }
    }
}
