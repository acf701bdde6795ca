//! Reading the small JSON files of plugins (records, manifests, hook and server configurations): comments and
//! trailing commas allowed as in settings files, over-large files and non-files refused, every failure a sentence.

use std::path::Path;

use serde_json::Value;

/// The file's JSON: `Ok(None)` when it does not exist; `Err` says what is wrong (with the file's path).
pub fn read_json(path: &Path) -> Result<Option<Value>, String> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{shown} cannot be read: {e}")),
        Ok(meta) if !meta.is_file() => return Err(format!("{shown} is not a file")),
        Ok(meta) => {
            if let Some(why) = crate::settings::too_large(meta.len()) {
                return Err(format!("{shown} {why}"));
            }
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown} cannot be read: {e}"))?;
    crate::settings::parse_jsonc(&text).map_err(|e| format!("{shown} is not valid JSON: {e}"))
}
