//! Server configurations in the command-line agent's `lspServers` format — a project's `.lsp.json` holds
//! `{"<name>": {"command", "args", "extensionToLanguage", "env", "startupTimeout", ...}}` (or the same under
//! `lspServers`) — and the switch that turns language servers on (`ENABLE_LSP_TOOL`, in the environment or under
//! `env` in a settings file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

/// Turns language servers and the `LSP` tool on (`1` or `true`), in the environment or under `env` in a settings
/// file; the environment wins.
pub const ENABLE_ENV: &str = "ENABLE_LSP_TOOL";

/// How long a server may take to answer `initialize` when its configuration does not say.
const DEFAULT_STARTUP: Duration = Duration::from_secs(30);
/// How often a crashed server is restarted when its configuration does not say.
const DEFAULT_MAX_RESTARTS: u32 = 3;

/// One configured server.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// File extensions with their dot (`.py`) and the language id the server is told for each.
    pub extension_to_language: BTreeMap<String, String>,
    pub env: BTreeMap<String, String>,
    /// How long `initialize` may take (`startupTimeout`, milliseconds in the file).
    pub startup_timeout: Duration,
    /// Whether a crashed server is started again (`restartOnCrash`, default true) and how often (`maxRestarts`).
    pub restart_on_crash: bool,
    pub max_restarts: u32,
    /// Passed on in `initialize` (`initializationOptions`).
    pub initialization_options: Option<Value>,
    /// Sent in `workspace/didChangeConfiguration` and answered to `workspace/configuration` (`settings`).
    pub settings: Option<Value>,
    /// The folder the server works on (`workspaceFolder`, relative to the project; default the project).
    pub workspace_folder: Option<PathBuf>,
}

impl ServerConfig {
    /// The language id for `path`, when this server handles its extension.
    pub fn language_of(&self, path: &Path) -> Option<&str> {
        let ext = path.extension()?.to_str()?;
        self.extension_to_language
            .iter()
            .find(|(k, _)| k.trim_start_matches('.').eq_ignore_ascii_case(ext))
            .map(|(_, v)| v.as_str())
    }
}

/// Whether language servers are on: `ENABLE_LSP_TOOL` from `env` (the environment) when it is set, else from the
/// `env` block of the first of `settings_files` (highest precedence first) that sets it.
pub fn switched_on(env: impl Fn(&str) -> Option<String>, settings_files: &[PathBuf]) -> bool {
    crate::settings::switched_on(ENABLE_ENV, env, settings_files)
}

/// The servers of `root/.lsp.json` (none when it does not exist) and what was wrong with the file or an entry
/// (each entry that is wrong is left out, the others kept).
pub fn project_config(root: &Path) -> (Vec<ServerConfig>, Vec<String>) {
    let file = root.join(".lsp.json");
    match std::fs::read_to_string(&file) {
        Ok(text) => match crate::settings::parse_jsonc(&text) {
            Ok(Some(value)) => parse_config(&value, root),
            Ok(None) => (Vec::new(), Vec::new()),
            Err(e) => (Vec::new(), vec![format!("{}: {e}", file.display())]),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), Vec::new()),
        Err(e) => (Vec::new(), vec![format!("{}: {e}", file.display())]),
    }
}

/// The servers of one configuration value (`{"name": {...}}` or `{"lspServers": {...}}`), relative paths taken
/// from `base`, and the problems of the entries left out.
pub fn parse_config(value: &Value, base: &Path) -> (Vec<ServerConfig>, Vec<String>) {
    let servers = value.get("lspServers").unwrap_or(value);
    let Some(servers) = servers.as_object() else {
        return (
            Vec::new(),
            vec!["the configuration is not an object of servers".into()],
        );
    };
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (name, entry) in servers {
        match parse_server(name, entry, base) {
            Ok(server) => out.push(server),
            Err(e) => problems.push(format!("server `{name}`: {e}")),
        }
    }
    (out, problems)
}

fn parse_server(name: &str, entry: &Value, base: &Path) -> Result<ServerConfig, String> {
    let obj = entry.as_object().ok_or("not an object")?;
    let command = obj
        .get("command")
        .and_then(Value::as_str)
        .filter(|c| !c.trim().is_empty())
        .ok_or("`command` must be a non-empty string")?;
    if let Some(transport) = obj.get("transport").and_then(Value::as_str)
        && transport != "stdio"
    {
        return Err(format!(
            "`transport` \"{transport}\" is not supported (only \"stdio\")"
        ));
    }
    let args = match obj.get("args") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|a| a.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or("`args` must be a list of strings")?,
        Some(_) => return Err("`args` must be a list of strings".into()),
    };
    let extension_to_language = string_map(obj.get("extensionToLanguage"), "extensionToLanguage")?;
    if extension_to_language.is_empty() {
        return Err("`extensionToLanguage` must map at least one extension".into());
    }
    let env = string_map(obj.get("env"), "env")?;
    let millis = |key: &str| -> Result<Option<Duration>, String> {
        match obj.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(|ms| Some(Duration::from_millis(ms)))
                .ok_or(format!("`{key}` must be a number of milliseconds")),
        }
    };
    let restart_on_crash = match obj.get("restartOnCrash") {
        None => true,
        Some(v) => v
            .as_bool()
            .ok_or("`restartOnCrash` must be true or false")?,
    };
    let max_restarts = match obj.get("maxRestarts") {
        None => DEFAULT_MAX_RESTARTS,
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or("`maxRestarts` must be a whole number")?,
    };
    let workspace_folder = match obj.get("workspaceFolder") {
        None => None,
        Some(Value::String(p)) => Some(base.join(p)),
        Some(_) => return Err("`workspaceFolder` must be a path".into()),
    };
    Ok(ServerConfig {
        name: name.to_string(),
        command: command.to_string(),
        args,
        extension_to_language,
        env,
        startup_timeout: millis("startupTimeout")?.unwrap_or(DEFAULT_STARTUP),
        restart_on_crash,
        max_restarts,
        initialization_options: obj.get("initializationOptions").cloned(),
        settings: obj.get("settings").cloned(),
        workspace_folder,
    })
}

fn string_map(value: Option<&Value>, key: &str) -> Result<BTreeMap<String, String>, String> {
    let Some(value) = value else {
        return Ok(BTreeMap::new());
    };
    let obj = value
        .as_object()
        .ok_or(format!("`{key}` must be an object of strings"))?;
    obj.iter()
        .map(|(k, v)| match v.as_str() {
            Some(s) => Ok((k.clone(), s.to_string())),
            None => Err(format!("`{key}.{k}` must be a string")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_are_read_and_wrong_ones_named() {
        let base = Path::new("/p");
        let (servers, problems) = parse_config(
            &json!({
                "python": {"command": "pyright-langserver", "args": ["--stdio"],
                           "extensionToLanguage": {".py": "python"}, "startupTimeout": 5000,
                           "maxRestarts": 1, "env": {"A": "b"}, "workspaceFolder": "sub"},
                "bad": {"command": "x"},
                "sock": {"command": "x", "transport": "socket", "extensionToLanguage": {".x": "x"}}
            }),
            base,
        );
        assert_eq!(servers.len(), 1);
        let py = &servers[0];
        assert_eq!(py.args, ["--stdio"]);
        assert_eq!(py.startup_timeout, Duration::from_secs(5));
        assert_eq!(py.max_restarts, 1);
        assert_eq!(py.workspace_folder.as_deref(), Some(Path::new("/p/sub")));
        assert_eq!(py.language_of(Path::new("/p/a.PY")), Some("python"));
        assert_eq!(py.language_of(Path::new("/p/a.pyc")), None);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems
                .iter()
                .any(|p| p.contains("`bad`") && p.contains("extensionToLanguage"))
        );
        assert!(problems.iter().any(|p| p.contains("socket")));
        let (wrapped, _) = parse_config(
            &json!({"lspServers": {"ts": {"command": "t", "extensionToLanguage": {".ts": "typescript"}}}}),
            base,
        );
        assert_eq!(wrapped[0].name, "ts");
    }

    #[test]
    fn the_switch_comes_from_the_environment_first_then_the_settings_files() {
        let dir = tempfile::tempdir().expect("test value");
        let on = dir.path().join("on.json");
        let off = dir.path().join("off.json");
        std::fs::write(&on, r#"{"env": {"ENABLE_LSP_TOOL": "1"}} // comment"#).expect("test value");
        std::fs::write(&off, r#"{"env": {"ENABLE_LSP_TOOL": "0"}}"#).expect("test value");
        let none = |_: &str| None;
        let env_on = |_: &str| Some("true".to_string());
        let env_off = |_: &str| Some("0".to_string());
        type Env<'a> = &'a dyn Fn(&str) -> Option<String>;
        let cases: &[(Env<'_>, Vec<PathBuf>, bool)] = &[
            (&none, vec![], false),
            (&none, vec![on.clone()], true),
            (&none, vec![off.clone(), on.clone()], false),
            (
                &none,
                vec![dir.path().join("missing.json"), on.clone()],
                true,
            ),
            (&env_on, vec![off.clone()], true),
            (&env_off, vec![on.clone()], false),
        ];
        for (env, files, want) in cases {
            assert_eq!(switched_on(env, files), *want, "{files:?}");
        }
    }
}
