//! Switches read as environment variables or under `env` in a settings file (`ENABLE_LSP_TOOL`, `AGENT_TRIGGERS`,
//! `USER_TYPE`): the environment wins, then the first settings file that sets the key.

use std::path::PathBuf;

use serde_json::Value;

/// Whether the value of a switch turns it on (`1` or `true`).
pub fn switch_value_on(value: &str) -> bool {
    matches!(value.trim(), "1" | "true")
}

/// Whether the switch `name` is on (`1` or `true`): from `env` (the environment) when it sets `name`, else from the
/// `env` block of the first of `settings_files` (highest precedence first) that sets it; off when none does. A
/// settings file that cannot be read or parsed is passed over (its problems are reported where settings load).
pub fn env_switch(
    name: &str,
    env: impl Fn(&str) -> Option<String>,
    settings_files: &[PathBuf],
) -> bool {
    env_value(name, env, settings_files).is_some_and(|v| switch_value_on(&v))
}

/// Whether the variable `name` equals `want` (surrounding blanks aside), read as [`env_switch`] reads a switch:
/// the environment first, then the first settings file whose `env` block sets it. Unset is not equal.
pub fn env_equals(
    name: &str,
    want: &str,
    env: impl Fn(&str) -> Option<String>,
    settings_files: &[PathBuf],
) -> bool {
    env_value(name, env, settings_files).is_some_and(|v| v.trim() == want)
}

/// The value of `name`: from `env` when it sets it, else from the `env` block of the first of `settings_files` that
/// sets it to a string, a boolean or a number (written as text); `None` when none does.
pub fn env_value(
    name: &str,
    env: impl Fn(&str) -> Option<String>,
    settings_files: &[PathBuf],
) -> Option<String> {
    if let Some(value) = env(name) {
        return Some(value);
    }
    for file in settings_files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Ok(Some(value)) = super::parse_jsonc(&text) else {
            continue;
        };
        match value.get("env").and_then(|e| e.get(name)) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(Value::Bool(b)) => return Some(b.to_string()),
            Some(Value::Number(n)) => return Some(n.to_string()),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_wins_then_the_first_settings_file_that_sets_the_key() {
        let dir = tempfile::tempdir().expect("dir");
        let file = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).expect("write");
            path
        };
        let ant = file(
            "a.json",
            r#"{"env": {"USER_TYPE": "ant", "X": 1, "Y": true}}"#,
        );
        let other = file("b.json", r#"{"env": {"USER_TYPE": "other"}}"#);
        let broken = file("c.json", "{ not json");
        let none = |_: &str| None;
        let cases: &[(Option<&str>, &[&PathBuf], bool)] = &[
            (None, &[], false),
            (Some("ant"), &[], true),
            (Some(" ant "), &[], true),
            (Some("ants"), &[], false),
            (Some("other"), &[&ant], false),
            (None, &[&ant, &other], true),
            (None, &[&other, &ant], false),
            (None, &[&broken, &ant], true),
        ];
        for (env, files, want) in cases {
            let files: Vec<PathBuf> = files.iter().map(|p| (*p).clone()).collect();
            let lookup = |_: &str| env.map(str::to_string);
            assert_eq!(
                env_equals("USER_TYPE", "ant", lookup, &files),
                *want,
                "{env:?} {files:?}"
            );
        }
        let files = vec![ant.clone()];
        assert!(env_switch("X", none, &files));
        assert!(env_switch("Y", none, &files));
        assert!(!env_switch("USER_TYPE", none, &files));
    }
}
