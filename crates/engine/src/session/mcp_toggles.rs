//! Turning single MCP tools off and on: the list lives in the project's `.claude/settings.local.json` under
//! `tandem.disabledMcpTools` (a key of Tandem's own beside the command-line agent's, every other key kept), and the
//! session's MCP manager stops (or starts again) offering the tool at once.

use std::path::Path;

use serde_json::{Map, Value};

use crate::settings::mcp::{DISABLED_TOOLS_KEY, TANDEM_KEY};

/// Adds `tool` to (or removes it from) the list of tools turned off in the settings file `path`, written through a
/// temporary file. A file that is not a JSON object is an error and is left unchanged.
pub fn record(path: &Path, tool: &str, enabled: bool) -> std::io::Result<()> {
    let mut root: Map<String, Value> = match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => Map::new(),
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => map,
            Ok(_) | Err(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "{} is not a JSON object; it was left unchanged",
                        path.display()
                    ),
                ));
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Map::new(),
        Err(e) => return Err(e),
    };
    let tandem = root
        .entry(TANDEM_KEY)
        .or_insert_with(|| Value::Object(Map::new()));
    if !tandem.is_object() {
        *tandem = Value::Object(Map::new());
    }
    let Some(tandem) = tandem.as_object_mut() else {
        return Ok(());
    };
    let mut list: Vec<String> = tandem
        .get(DISABLED_TOOLS_KEY)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    list.retain(|t| t != tool);
    if !enabled {
        list.push(tool.to_string());
    }
    list.sort();
    tandem.insert(
        DISABLED_TOOLS_KEY.into(),
        Value::Array(list.into_iter().map(Value::String).collect()),
    );
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = tempfile::NamedTempFile::new_in(dir)?;
    serde_json::to_writer_pretty(&tmp, &Value::Object(root))?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_list_is_kept_beside_the_other_keys_and_bad_files_are_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(".claude/settings.local.json");
        record(&path, "mcp__s__b", false).expect("record");
        std::fs::write(
            &path,
            json!({"permissions": {"allow": ["Read"]}, "tandem": {"disabledMcpTools": ["mcp__s__b"]}})
                .to_string(),
        )
        .expect("write");
        record(&path, "mcp__s__a", false).expect("record");
        record(&path, "mcp__s__b", true).expect("record");
        let saved: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        assert_eq!(saved["permissions"]["allow"], json!(["Read"]));
        assert_eq!(saved["tandem"]["disabledMcpTools"], json!(["mcp__s__a"]));
        std::fs::write(&path, "[1]").expect("write");
        assert!(record(&path, "mcp__s__a", true).is_err());
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "[1]");
    }
}
