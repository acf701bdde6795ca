//! A small private JSON map of secrets on disk (`{"name": "value", …}`): API keys, OAuth tokens. Read whole, changed
//! one entry at a time, written only when the entry changed, readable by its owner only and replaced atomically (a
//! temporary file renamed over it), so a crash never leaves it half-written.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use super::write_atomic_private;

/// Why the map could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SecretMapError {
    #[error("could not read {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("{path} is not a {what} Tandem can read ({reason}); fix or remove it first")]
    Malformed {
        path: PathBuf,
        what: &'static str,
        reason: String,
    },
    #[error("could not write {path}: {source}")]
    Write { path: PathBuf, source: io::Error },
}

/// One map file; `what` names it in errors ("credentials file", "token file").
#[derive(Debug, Clone)]
pub struct SecretMapFile {
    path: PathBuf,
    what: &'static str,
}

impl SecretMapFile {
    pub fn new(path: PathBuf, what: &'static str) -> Self {
        Self { path, what }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every entry; a missing file is an empty map.
    pub fn read(&self) -> Result<BTreeMap<String, String>, SecretMapError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
            Err(source) => {
                return Err(SecretMapError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        serde_json::from_str(&text).map_err(|e| SecretMapError::Malformed {
            path: self.path.clone(),
            what: self.what,
            reason: e.to_string(),
        })
    }

    /// The entry `name`, if there is one (and the file can be read).
    pub fn get(&self, name: &str) -> Result<Option<String>, SecretMapError> {
        Ok(self.read()?.remove(name))
    }

    /// Sets entry `name` to `value`, or removes it for `None`. Writes (creating the folder) only when the entry
    /// changed; a file that cannot be read is left as it is and the error returned.
    pub fn set(&self, name: &str, value: Option<&str>) -> Result<(), SecretMapError> {
        let mut entries = self.read()?;
        let changed = match value {
            Some(value) => {
                entries
                    .insert(name.to_string(), value.to_string())
                    .as_deref()
                    != Some(value)
            }
            None => entries.remove(name).is_some(),
        };
        if !changed {
            return Ok(());
        }
        let write_error = |source| SecretMapError::Write {
            path: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(write_error)?;
        }
        let text =
            serde_json::to_string_pretty(&entries).map_err(|e| write_error(io::Error::other(e)))?;
        write_atomic_private(&self.path, &[text.as_bytes(), b"\n"]).map_err(write_error)
    }
}

/// Set to `1` to keep secrets out of the desktop keyring (tests, machines whose keyring prompts on every read).
pub const NO_KEYRING_ENV: &str = "TANDEM_NO_KEYRING";

/// Whether the desktop keyring should be asked: a session bus is there (without one, connecting could start a bus
/// of its own) and [`NO_KEYRING_ENV`] is not `1`.
pub fn keyring_wanted() -> bool {
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        && std::env::var(NO_KEYRING_ENV).map_or(true, |v| v != "1")
}
