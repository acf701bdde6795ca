//! Switches read like environment variables that may also be set under `env` in a settings file
//! (`{"env": {"ENABLE_LSP_TOOL": "1"}}`): the environment wins, then the first settings file that sets the key.

use std::path::PathBuf;

use serde_json::Value;

/// Whether the value of a switch turns it on (`1` or `true`).
pub fn switch_value_on(value: &str) -> bool {
    matches!(value.trim(), "1" | "true")
}

/// Whether the switch `name` is on: from `env` (the environment) when it sets `name`, else from the `env` block of
/// the first of `settings_files` (highest precedence first) that sets it (a string `1`/`true`, `true`, or `1`).
/// Unreadable or broken files are passed over (the settings loader reports them).
pub fn env_switch(
    name: &str,
    env: impl Fn(&str) -> Option<String>,
    settings_files: &[PathBuf],
) -> bool {
    if let Some(value) = env(name) {
        return switch_value_on(&value);
    }
    for file in settings_files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Ok(Some(value)) = super::parse_jsonc(&text) else {
            continue;
        };
        match value.get("env").and_then(|e| e.get(name)) {
            Some(Value::String(s)) => return switch_value_on(s),
            Some(Value::Bool(b)) => return *b,
            Some(Value::Number(n)) => return n.as_i64() == Some(1),
            _ => {}
        }
    }
    false
}
