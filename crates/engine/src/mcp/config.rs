//! Server configurations: the `mcpServers` entries of `.mcp.json`, of the settings files and of `--mcp-config`,
//! in the command-line agent's format (`{"command","args","env","cwd"}` for stdio, `{"type":"http"|"sse","url",
//! "headers","oauth"}` for remote servers), checked and with `${VAR}` / `${VAR:-default}` expanded. `oauth` names
//! a client registered with the server's authorization server beforehand: `{"clientId", "clientSecret"?, "scope"?,
//! "privateKeyFile"?}` (`scope` space-separated, or `scopes` as a list; `privateKeyFile` a PKCS#8 PEM key the client
//! signs its assertions with, relative to the configuration's folder).

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
    /// A remote server's pre-registered OAuth client, if configured.
    pub oauth: Option<OAuthClient>,
}

/// An OAuth client registered with a remote server's authorization server beforehand (no dynamic registration).
#[derive(Clone, PartialEq, Eq)]
pub struct OAuthClient {
    pub client_id: String,
    /// A confidential client's secret. With one, a server whose authorization server offers only the
    /// client-credentials grant is signed in to without a person.
    pub client_secret: Option<String>,
    /// Scopes to ask for instead of those the server names.
    pub scopes: Vec<String>,
    /// A private key (PKCS#8 PEM) the client proves itself with instead of a secret (`private_key_jwt`).
    pub private_key_file: Option<PathBuf>,
}

impl std::fmt::Debug for OAuthClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthClient")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("scopes", &self.scopes)
            .field("private_key_file", &self.private_key_file)
            .finish()
    }
}

/// Reads a server's `oauth` object.
fn oauth_client(
    value: &Value,
    base: &Path,
    expand_value: &mut dyn FnMut(&str, &str) -> Result<String, String>,
) -> Result<OAuthClient, String> {
    let Some(obj) = value.as_object() else {
        return Err("`oauth` must be an object such as {\"clientId\": \"…\"}".into());
    };
    let mut text = |key: &str| -> Result<Option<String>, String> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => expand_value(&format!("oauth.{key}"), s).map(Some),
            Some(other) => Err(format!("`oauth.{key}` must be a string, not {other}")),
        }
    };
    let client_id = text("clientId")?.filter(|id| !id.trim().is_empty()).ok_or(
        "`oauth` needs a `clientId` (the client registered with the authorization server)",
    )?;
    let client_secret = text("clientSecret")?.filter(|s| !s.is_empty());
    let private_key_file = text("privateKeyFile")?
        .filter(|p| !p.is_empty())
        .map(|p| base.join(p));
    let mut scopes: Vec<String> = text("scope")?
        .map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    match obj.get("scopes") {
        None => {}
        Some(Value::Array(items)) => {
            for item in items {
                let Some(scope) = item.as_str() else {
                    return Err(format!("`oauth.scopes` must list strings, not {item}"));
                };
                scopes.push(scope.to_string());
            }
        }
        Some(other) => return Err(format!("`oauth.scopes` must be a list, not {other}")),
    }
    Ok(OAuthClient {
        client_id,
        client_secret,
        scopes,
        private_key_file,
    })
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
    let oauth = match obj.get("oauth") {
        None | Some(Value::Null) => None,
        Some(_) if matches!(transport, Transport::Stdio { .. }) => {
            return Err(fail(
                "`oauth` is for remote servers (http or sse); a stdio server is not signed in to"
                    .into(),
            ));
        }
        Some(value) => Some(oauth_client(value, base, &mut expand_value).map_err(&fail)?),
    };
    Ok(ServerConfig {
        name: name.to_string(),
        transport,
        origin,
        oauth,
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
    fn a_remote_server_names_its_pre_registered_oauth_client() {
        let config = parse(json!({
            "type": "http", "url": "https://mcp.example.org/mcp",
            "oauth": {"clientId": "tandem-app", "clientSecret": "${TOKEN}", "scope": "read write", "callbackPort": 8080}
        }))
        .expect("valid");
        assert_eq!(
            config.oauth,
            Some(OAuthClient {
                client_id: "tandem-app".into(),
                client_secret: Some("secret".into()),
                scopes: vec!["read".into(), "write".into()],
                private_key_file: None,
            })
        );
        assert!(
            !format!("{:?}", config.oauth).contains("secret\""),
            "the secret is not printed"
        );
        let keyed = parse(json!({"type": "http", "url": "https://x.org", "oauth": {"clientId": "a", "privateKeyFile": "keys/a.pem"}}))
            .expect("valid");
        assert_eq!(
            keyed.oauth.and_then(|o| o.private_key_file),
            Some(PathBuf::from("/proj/keys/a.pem"))
        );
        let listed = parse(json!({"type": "http", "url": "https://x.org", "oauth": {"clientId": "a", "scopes": ["s1"]}}))
            .expect("valid");
        assert_eq!(
            listed.oauth.map(|o| (o.client_secret, o.scopes)),
            Some((None, vec!["s1".to_string()]))
        );
        assert_eq!(
            parse(json!({"type": "http", "url": "https://x.org"}))
                .expect("valid")
                .oauth,
            None
        );
        for (value, says) in [
            (
                json!({"type": "http", "url": "https://x.org", "oauth": {"clientSecret": "s"}}),
                "needs a `clientId`",
            ),
            (
                json!({"type": "http", "url": "https://x.org", "oauth": "abc"}),
                "must be an object",
            ),
            (
                json!({"type": "http", "url": "https://x.org", "oauth": {"clientId": 3}}),
                "`oauth.clientId` must be a string",
            ),
            (
                json!({"type": "http", "url": "https://x.org", "oauth": {"clientId": "a", "clientSecret": "${NOPE}"}}),
                "`${NOPE}` in `oauth.clientSecret`",
            ),
            (
                json!({"command": "node", "oauth": {"clientId": "a"}}),
                "for remote servers",
            ),
        ] {
            let err = parse(value.clone())
                .expect_err(&value.to_string())
                .to_string();
            assert!(err.contains(says), "{value}: {err}");
        }
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
