//! Workspace trust: a per-folder record in the app's data directory. Until a folder is trusted its project allow
//! rules, additional directories and hooks are not applied (its deny and ask rules are).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The trust records, stored as `{"trusted": ["/abs/folder", ...]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustStore {
    file: PathBuf,
}

impl TrustStore {
    /// The store in the app's data directory (`<data dir>/tandem/trust.json`).
    pub fn standard() -> Option<Self> {
        crate::fsutil::app_data_dir().map(|d| Self::at(d.join("trust.json")))
    }

    /// A store kept in `file`.
    pub fn at(file: impl Into<PathBuf>) -> Self {
        Self { file: file.into() }
    }

    fn folders(&self) -> Vec<PathBuf> {
        let Ok(text) = std::fs::read_to_string(&self.file) else {
            return Vec::new();
        };
        serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("trusted").and_then(Value::as_array).cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().map(PathBuf::from))
            .collect()
    }

    /// Whether `folder` (or a folder above it) is trusted.
    pub fn is_trusted(&self, folder: &Path) -> bool {
        let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        self.folders().iter().any(|t| folder.starts_with(t))
    }

    /// Records that the user trusts `folder`.
    pub fn trust(&self, folder: &Path) -> std::io::Result<()> {
        let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        let mut all = self.folders();
        if !all.contains(&folder) {
            all.push(folder);
        }
        self.save(&all)
    }

    /// Withdraws trust from `folder` and from any trusted folder above it (so that it is no longer trusted).
    pub fn revoke(&self, folder: &Path) -> std::io::Result<()> {
        let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        let mut all = self.folders();
        all.retain(|t| !folder.starts_with(t));
        self.save(&all)
    }

    /// Writes the list through a temporary file and a rename, so a cut-off write never loses the other records.
    fn save(&self, all: &[PathBuf]) -> std::io::Result<()> {
        let dir = self
            .file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        std::fs::create_dir_all(&dir)?;
        let list: Vec<String> = all.iter().map(|p| p.display().to_string()).collect();
        let text = serde_json::to_string_pretty(&json!({ "trusted": list }))
            .map_err(std::io::Error::other)?;
        let mut temp = tempfile::NamedTempFile::new_in(&dir)?;
        std::io::Write::write_all(&mut temp, text.as_bytes())?;
        temp.as_file().sync_all()?;
        temp.persist(&self.file).map_err(|e| e.error)?;
        Ok(())
    }
}
