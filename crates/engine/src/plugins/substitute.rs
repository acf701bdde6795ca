//! `${CLAUDE_PLUGIN_ROOT}` in a plugin's hook commands and server configurations: replaced by the plugin's folder
//! in every text of the configuration, so that the commands find the files the plugin ships wherever it was
//! installed. Other `${VAR}` forms are left for the reader of the configuration (MCP servers expand the
//! environment's).

use std::path::Path;

use serde_json::Value;

/// The variable a plugin's configuration names its own folder with.
pub const PLUGIN_ROOT_VAR: &str = "CLAUDE_PLUGIN_ROOT";

/// `value` with `${CLAUDE_PLUGIN_ROOT}` replaced by `root` in every string (object keys are kept as written).
pub fn with_plugin_root(value: &Value, root: &Path) -> Value {
    let needle = format!("${{{PLUGIN_ROOT_VAR}}}");
    let root = root.display().to_string();
    replace(value, &needle, &root)
}

fn replace(value: &Value, needle: &str, root: &str) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace(needle, root)),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| replace(v, needle, root)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), replace(v, needle, root)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_root_is_put_in_every_text_and_other_variables_are_kept() {
        let value = json!({"command": "${CLAUDE_PLUGIN_ROOT}/bin/s", "args": ["--cfg=${CLAUDE_PLUGIN_ROOT}/c", "${HOME}"],
            "timeout": 5, "env": {"${CLAUDE_PLUGIN_ROOT}": "x"}});
        assert_eq!(
            with_plugin_root(&value, Path::new("/p/one")),
            json!({"command": "/p/one/bin/s", "args": ["--cfg=/p/one/c", "${HOME}"], "timeout": 5,
                "env": {"${CLAUDE_PLUGIN_ROOT}": "x"}})
        );
    }
}
