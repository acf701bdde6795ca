//! Switches read as environment variables or under `env` in a settings file (`ENABLE_LSP_TOOL`, `AGENT_TRIGGERS`):
//! the environment wins, then the first settings file that sets the key.

use std::path::PathBuf;

use serde_json::Value;

/// Whether the switch `name` is on (`1` or `true`): from `env` (the environment) when it sets `name`, else from the
/// `env` block of the first of `settings_files` (highest precedence first) that sets it; off when none does. A
/// settings file that cannot be read or parsed is passed over (its problems are reported where settings load).
pub fn env_switch(
    name: &str,
    env: impl Fn(&str) -> Option<String>,
    settings_files: &[PathBuf],
) -> bool {
    let on = |v: &str| matches!(v.trim(), "1" | "true");
    if let Some(value) = env(name) {
        return on(&value);
    }
    for file in settings_files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Ok(Some(value)) = super::parse_jsonc(&text) else {
            continue;
        };
        match value.get("env").and_then(|e| e.get(name)) {
            Some(Value::String(s)) => return on(s),
            Some(Value::Bool(b)) => return *b,
            Some(Value::Number(n)) => return n.as_i64() == Some(1),
            _ => {}
        }
    }
    false
}
