//! The external agents Tandem can host over the Agent Client Protocol, as the person's settings file names them:
//! `"agentServers": {"NAME": {"command": "…", "args": […], "env": {…}}}` (the shape editors use for their agent
//! servers). docs/acp.md describes hosting them.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

/// The settings key that holds the agents.
pub const AGENT_SERVERS_KEY: &str = "agentServers";

/// How to start one external agent: a program speaking ACP on its stdin and stdout.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentServer {
    /// The program (a path, or a name found on `PATH`).
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Variables set for the agent on top of Tandem's own environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// What is wrong with the `agentServers` of a settings object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentServerError {
    #[error("`agentServers` must be an object of agents by name")]
    NotAnObject,
    #[error(
        "the agent server `{name}` is not usable ({reason}); it needs {{\"command\": \"…\", \"args\": […], \"env\": {{…}}}}"
    )]
    Invalid { name: String, reason: String },
    #[error("no agent server named `{name}` in the settings (known: {known})")]
    Unknown { name: String, known: String },
}

/// The agents of a settings object, by name (none when the key is missing or null).
pub fn agent_servers(
    object: &Map<String, Value>,
) -> Result<BTreeMap<String, AgentServer>, AgentServerError> {
    let servers = match object.get(AGENT_SERVERS_KEY) {
        None | Some(Value::Null) => return Ok(BTreeMap::new()),
        Some(Value::Object(servers)) => servers,
        Some(_) => return Err(AgentServerError::NotAnObject),
    };
    servers
        .iter()
        .map(|(name, value)| {
            let server: AgentServer =
                serde_json::from_value(value.clone()).map_err(|e| AgentServerError::Invalid {
                    name: name.clone(),
                    reason: e.to_string(),
                })?;
            if server.command.trim().is_empty() {
                return Err(AgentServerError::Invalid {
                    name: name.clone(),
                    reason: "the command is empty".into(),
                });
            }
            Ok((name.clone(), server))
        })
        .collect()
}

/// The agent named `name` among `servers`, or an error listing the known names.
pub fn agent_server(
    servers: &BTreeMap<String, AgentServer>,
    name: &str,
) -> Result<AgentServer, AgentServerError> {
    servers
        .get(name)
        .cloned()
        .ok_or_else(|| AgentServerError::Unknown {
            name: name.to_string(),
            known: if servers.is_empty() {
                "none".into()
            } else {
                servers.keys().cloned().collect::<Vec<_>>().join(", ")
            },
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    #[test]
    fn agents_are_read_by_name_and_bad_ones_are_named() {
        let table: [(Value, Result<Vec<&str>, &str>); 6] = [
            (json!({}), Ok(vec![])),
            (json!({"agentServers": null}), Ok(vec![])),
            (
                json!({"agentServers": {"b": {"command": "x"}, "a": {"command": "y", "args": ["acp"], "env": {"K": "v"}}}}),
                Ok(vec!["a", "b"]),
            ),
            (json!({"agentServers": []}), Err("must be an object")),
            (
                json!({"agentServers": {"a": {"args": []}}}),
                Err("agent server `a` is not usable"),
            ),
            (
                json!({"agentServers": {"a": {"command": " "}}}),
                Err("the command is empty"),
            ),
        ];
        for (settings, expected) in table {
            let read = agent_servers(&object(settings.clone()));
            match (read, expected) {
                (Ok(servers), Ok(names)) => {
                    assert_eq!(
                        servers.keys().map(String::as_str).collect::<Vec<_>>(),
                        names
                    )
                }
                (Err(e), Err(words)) => {
                    assert!(e.to_string().contains(words), "{e} for {settings}")
                }
                (other, expected) => panic!("{settings}: {other:?}, expected {expected:?}"),
            }
        }
        let servers = agent_servers(&object(
            json!({"agentServers": {"a": {"command": "y", "args": ["acp"], "env": {"K": "v"}}}}),
        ))
        .expect("read");
        let a = agent_server(&servers, "a").expect("a");
        assert_eq!(a.args, ["acp"]);
        assert_eq!(a.env["K"], "v");
        let unknown = agent_server(&servers, "z").expect_err("unknown");
        assert!(unknown.to_string().contains("known: a"), "{unknown}");
    }
}
