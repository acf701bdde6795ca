//! Server configurations: the `mcpServers` entries of `.mcp.json`, of the settings files and of `--mcp-config`,
//! in the command-line agent's format (`{"command","args","env","cwd"}` for stdio, `{"type":"http"|"sse","url",
//! "headers"}` for remote servers), checked and with `${VAR}` / `${VAR:-default}` expanded.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::expand::expand;

/// How Tandem talks to a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A child process speaking JSON-RPC on stdin / stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        /// The child's working directory (the project folder when not set).
        cwd: Option<PathBuf>,
    },
    /// Streamable HTTP (`type: "http"`).
    Http {
        url: String,
        headers: BTreeMap<String, String>,
    },
    /// The older HTTP+SSE transport (`type: "sse"`).
    Sse {
        url: String,
        headers: BTreeMap<String, String>,
    },
}

impl Transport {
    /// `stdio`, `http` or `sse`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Stdio { .. } => "stdio",
            Self::Http { .. } => "http",
            Self::Sse { .. } => "sse",
        }
    }

    /// The command line or the URL, for the person.
    pub fn target(&self) -> String {
        match self {
            Self::Stdio { command, args, .. } => {
                let mut all = vec![command.clone()];
                all.extend(args.iter().cloned());
                all.join(" ")
            }
            Self::Http { url, .. } | Self::Sse { url, .. } => url.clone(),
        }
    }
}

/// Where a server's configuration came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `--mcp-config` (a file, or JSON given inline).
    CommandLine(String),
    /// The project's `.mcp.json`: starts only once approved.
    ProjectFile(PathBuf),
    /// `mcpServers` of a settings file (its kind and path).
    Settings { kind: String, file: String },
}

impl Origin {
    /// Where to look, for the person.
    pub fn label(&self) -> String {
        match self {
            Self::CommandLine(what) => format!("--mcp-config {what}"),
            Self::ProjectFile(path) => path.display().to_string(),
            Self::Settings { file, .. } => file.clone(),
        }
    }
}

/// One configured server, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// The name as configured.
    pub name: String,
    pub transport: Transport,
    pub origin: Origin,
}

/// A configuration error, naming the server and the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("MCP server `{server}` ({origin}): {message}")]
pub struct ConfigError {
    pub server: String,
    pub origin: String,
    pub message: String,
}

fn string_map(
    value: Option<&Value>,
    key: &str,
    expand_value: &mut dyn FnMut(&str, &str) -> Result<String, String>,
) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let Some(value) = value else {
        return Ok(out);
    };
    let Some(map) = value.as_object() else {
        return Err(format!("`{key}` must be an object of strings"));
    };
    for (k, v) in map {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => return Err(format!("`{key}.{k}` must be a string, not {other}")),
        };
        out.insert(k.clone(), expand_value(&format!("{key}.{k}"), &text)?);
    }
    Ok(out)
}

/// Checks one `mcpServers` entry and expands its variables with `lookup`. A relative `cwd` is taken from `base`.
pub fn parse_server(
    name: &str,
    value: &Value,
    origin: Origin,
    base: &Path,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<ServerConfig, ConfigError> {
    let fail = |message: String| ConfigError {
        server: name.to_string(),
        origin: origin.label(),
        message,
    };
    let mut expand_value = |key: &str, text: &str| -> Result<String, String> {
        expand(text, lookup).map_err(|var| {
            format!("`${{{var}}}` in `{key}` is not set (give it a value, or a default with `${{{var}:-default}}`)")
        })
    };
    let Some(obj) = value.as_object() else {
        return Err(fail("a server must be an object".into()));
    };
    let kind = match obj.get("type") {
        None => None,
        Some(Value::String(t)) => Some(t.as_str()),
        Some(other) => return Err(fail(format!("`type` must be a string, not {other}"))),
    };
    let str_field = |key: &str| -> Result<Option<&str>, String> {
        match obj.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(format!("`{key}` must be a string, not {other}")),
        }
    };
    let transport = match kind {
        None | Some("stdio") => {
            let command = str_field("command")
                .map_err(&fail)?
                .filter(|c| !c.trim().is_empty())
                .ok_or_else(|| fail("a stdio server needs a `command`".into()))?;
            let command = expand_value("command", command).map_err(&fail)?;
            let mut args = Vec::new();
            match obj.get("args") {
                None => {}
                Some(Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        let Some(text) = item.as_str() else {
                            return Err(fail(format!("`args[{i}]` must be a string, not {item}")));
                        };
                        args.push(expand_value(&format!("args[{i}]"), text).map_err(&fail)?);
                    }
                }
                Some(other) => return Err(fail(format!("`args` must be an array, not {other}"))),
            }
            let env = string_map(obj.get("env"), "env", &mut expand_value).map_err(&fail)?;
            let cwd = match str_field("cwd").map_err(&fail)? {
                Some(dir) => {
                    let dir = expand_value("cwd", dir).map_err(&fail)?;
                    Some(base.join(dir))
                }
                None => None,
            };
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            }
        }
        Some(kind @ ("http" | "sse" | "streamable-http")) => {
            let url = str_field("url")
                .map_err(&fail)?
                .ok_or_else(|| fail(format!("a `{kind}` server needs a `url`")))?;
            let url = expand_value("url", url).map_err(&fail)?;
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(fail(format!(
                    "`url` must be an http or https URL, not `{url}`"
                )));
            }
            let headers =
                string_map(obj.get("headers"), "headers", &mut expand_value).map_err(&fail)?;
            if kind == "sse" {
                Transport::Sse { url, headers }
            } else {
                Transport::Http { url, headers }
            }
        }
        Some(other) => {
            return Err(fail(format!(
                "unknown `type` `{other}` (stdio, http or sse)"
            )));
        }
    };
    Ok(ServerConfig {
        name: name.to_string(),
        transport,
        origin,
    })
}

/// The servers of one MCP configuration document (`{"mcpServers": {...}}`), unchecked, in order.
pub fn servers_of(doc: &Value) -> Result<Vec<(String, Value)>, String> {
    let Some(obj) = doc.as_object() else {
        return Err("an MCP configuration must be a JSON object".into());
    };
    match obj.get("mcpServers") {
        None => Ok(Vec::new()),
        Some(Value::Object(servers)) => Ok(servers
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()),
        Some(_) => Err("`mcpServers` must be an object of servers by name".into()),
    }
}

/// Reads an MCP configuration file. A file that does not exist is `Ok(None)`; a malformed one names the file and
/// the line.
pub fn read_file(path: &Path) -> Result<Option<Value>, String> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Ok(meta) if !meta.is_file() => {
            return Err(format!("{} is not a regular file", path.display()));
        }
        _ => {}
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    parse_text(&text)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses MCP configuration text; errors give the line and column.
pub fn parse_text(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| {
        format!(
            "line {}, column {}: not valid JSON ({})",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        )
    })
}

fn strip_position(message: &str) -> &str {
    message
        .rsplit_once(" at line ")
        .map(|(head, _)| head)
        .unwrap_or(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vars(name: &str) -> Option<String> {
        (name == "TOKEN").then(|| "secret".to_string())
    }

    fn parse(value: Value) -> Result<ServerConfig, ConfigError> {
        parse_server(
            "srv",
            &value,
            Origin::CommandLine("inline".into()),
            Path::new("/proj"),
            &vars,
        )
    }

    #[test]
    fn stdio_servers_expand_command_args_env_and_resolve_cwd() {
        let config = parse(json!({
            "command": "${BIN:-node}",
            "args": ["--token", "${TOKEN}"],
            "env": {"KEY": "${TOKEN}", "N": 3},
            "cwd": "sub"
        }))
        .expect("valid");
        assert_eq!(
            config.transport,
            Transport::Stdio {
                command: "node".into(),
                args: vec!["--token".into(), "secret".into()],
                env: BTreeMap::from([
                    ("KEY".to_string(), "secret".to_string()),
                    ("N".to_string(), "3".to_string())
                ]),
                cwd: Some(PathBuf::from("/proj/sub")),
            }
        );
    }

    #[test]
    fn remote_servers_take_url_and_headers() {
        let config = parse(json!({
            "type": "http", "url": "https://h/${PATH_PART:-mcp}",
            "headers": {"Authorization": "Bearer ${TOKEN}"}
        }))
        .expect("valid");
        assert_eq!(
            config.transport,
            Transport::Http {
                url: "https://h/mcp".into(),
                headers: BTreeMap::from([(
                    "Authorization".to_string(),
                    "Bearer secret".to_string()
                )]),
            }
        );
        let sse = parse(json!({"type": "sse", "url": "http://127.0.0.1:1/sse"})).expect("valid");
        assert_eq!(sse.transport.kind(), "sse");
    }

    #[test]
    fn errors_name_the_server_and_the_key() {
        let cases = [
            (
                json!({"command": "x", "args": ["${NOPE}"]}),
                "`${NOPE}` in `args[0]`",
            ),
            (
                json!({"type": "http", "url": "https://h", "headers": {"X": "${NOPE}"}}),
                "`${NOPE}` in `headers.X`",
            ),
            (
                json!({"type": "http", "url": "${NOPE}"}),
                "`${NOPE}` in `url`",
            ),
            (json!({"command": "x", "env": {"A": "${NOPE}"}}), "`env.A`"),
            (json!({"args": []}), "needs a `command`"),
            (json!({"type": "http"}), "needs a `url`"),
            (json!({"type": "ws", "url": "x"}), "unknown `type` `ws`"),
            (json!({"type": "http", "url": "ftp://x"}), "http or https"),
            (
                json!({"command": "x", "args": "a b"}),
                "`args` must be an array",
            ),
            (json!("x"), "must be an object"),
        ];
        for (value, want) in cases {
            let err = parse(value.clone()).expect_err("invalid");
            let text = err.to_string();
            assert!(
                text.contains("`srv`") && text.contains(want),
                "{value}: {text}"
            );
        }
    }

    #[test]
    fn malformed_json_names_the_line() {
        let err = parse_text("{\n  \"mcpServers\": {\n    \"a\": {,}\n  }\n}").expect_err("bad");
        assert!(err.starts_with("line 3, column"), "{err}");
    }
}
