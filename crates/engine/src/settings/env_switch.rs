//! Switches read as environment variables that a settings file may also set under its `env` block (as
//! `{"env": {"ENABLE_LSP_TOOL": "1"}}`): the environment wins, then the first settings file that sets the name.

use std::path::PathBuf;

use serde_json::Value;

/// The value of `name` from `env` (the environment) when it is set, else from the `env` block of the first of
/// `settings_files` (highest precedence first) that sets it; a boolean or a number there reads as its text
/// (`true`, `1`). Unreadable files and other kinds of value are passed over.
pub fn env_value(
    name: &str,
    env: impl Fn(&str) -> Option<String>,
    settings_files: &[PathBuf],
) -> Option<String> {
    if let Some(value) = env(name) {
        return Some(value);
    }
    settings_files.iter().find_map(|file| {
        let text = std::fs::read_to_string(file).ok()?;
        let value = super::parse_jsonc(&text).ok()??;
        match value.get("env")?.get(name)? {
            Value::String(s) => Some(s.clone()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    })
}

/// Whether a switch's value turns it on (`1` or `true`).
pub fn is_on(value: &str) -> bool {
    matches!(value.trim(), "1" | "true")
}

/// Whether the switch `name` is on, read as [`env_value`] reads it.
pub fn switched_on(
    name: &str,
    env: impl Fn(&str) -> Option<String>,
    settings_files: &[PathBuf],
) -> bool {
    env_value(name, env, settings_files).is_some_and(|v| is_on(&v))
}
