//! The tools each server listed the last time it started, kept in the data folder (`tandem/mcp-tools.json`, outside
//! every project) so that a session need not wait for a slow server: its known tools are offered while it starts
//! (a call waits for it), and its real listing replaces them when it is ready. An entry is keyed by a hash of the
//! folder, the server's name and its whole configuration (so no secret is written), and dropped with the oldest
//! once there are too many. A missing or broken file is an empty store; a write that fails is logged.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::config::ServerConfig;

/// Entries kept at most.
const MAX_ENTRIES: usize = 200;

/// The store of known tool listings.
#[derive(Debug, Clone)]
pub struct KnownTools {
    path: PathBuf,
}

impl KnownTools {
    /// The store in the app's data folder (`None` without one).
    pub fn standard() -> Option<Self> {
        crate::fsutil::app_data_dir().map(|d| Self::at(d.join("mcp-tools.json")))
    }

    /// A store in `path`.
    pub fn at(path: PathBuf) -> Self {
        Self { path }
    }

    /// The key of `config` in `folder`.
    pub fn key(folder: &Path, config: &ServerConfig) -> String {
        let mut hasher = DefaultHasher::new();
        folder.hash(&mut hasher);
        config.name.hash(&mut hasher);
        format!("{:?}", config.transport).hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    }

    fn load(&self) -> Map<String, Value> {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| match v {
                Value::Object(m) => Some(m),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The tool listing last recorded under `key`.
    pub fn get(&self, key: &str) -> Option<Vec<Value>> {
        self.load()
            .get(key)
            .and_then(|e| e.get("tools"))
            .and_then(Value::as_array)
            .cloned()
    }

    /// Records `tools` under `key` (nothing is written when they did not change).
    pub fn record(&self, key: &str, tools: &[Value]) {
        let mut all = self.load();
        if all
            .get(key)
            .and_then(|e| e.get("tools"))
            .and_then(Value::as_array)
            .is_some_and(|t| t.as_slice() == tools)
        {
            return;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        all.insert(
            key.to_string(),
            serde_json::json!({"tools": tools, "seen": now}),
        );
        while all.len() > MAX_ENTRIES {
            let oldest = all
                .iter()
                .min_by_key(|(_, e)| e.get("seen").and_then(Value::as_u64).unwrap_or(0))
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => all.remove(&k),
                None => break,
            };
        }
        if let Err(e) = self.write(&Value::Object(all)) {
            tracing::warn!("MCP tool cache {}: {e}", self.path.display());
        }
    }

    fn write(&self, value: &Value) -> std::io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let tmp = tempfile::NamedTempFile::new_in(dir)?;
        serde_json::to_writer(&tmp, value)?;
        tmp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn listings_are_kept_by_key_and_a_broken_file_is_empty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = KnownTools::at(dir.path().join("t.json"));
        assert_eq!(store.get("k"), None);
        store.record("k", &[json!({"name": "echo"})]);
        assert_eq!(store.get("k"), Some(vec![json!({"name": "echo"})]));
        std::fs::write(dir.path().join("t.json"), "{oops").expect("write");
        assert_eq!(store.get("k"), None);
        store.record("k", &[]);
        assert_eq!(store.get("k"), Some(vec![]));
    }
}
