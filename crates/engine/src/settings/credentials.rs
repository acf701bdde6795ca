//! API keys kept outside every project: in the desktop's keyring (Secret Service) when one answers on the session
//! bus, else in `~/.config/tandem/credentials.json`, created readable by its owner only and replaced atomically.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use tandem_protocol::KeySource;

use crate::fsutil::write_atomic_private;
use crate::model::Provider;

/// The keyring service name under which keys are kept.
const SERVICE: &str = "dev.tandem.app";

/// Set to `1` to keep keys out of the keyring (tests, machines whose keyring prompts on every read).
pub const NO_KEYRING_ENV: &str = "TANDEM_NO_KEYRING";

/// Why a key could not be saved or removed.
#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    #[error("could not write {path}: {source}")]
    Write { path: PathBuf, source: io::Error },
    #[error("{path} is not a credentials file Tandem can read ({reason}); fix or remove it first")]
    Malformed { path: PathBuf, reason: String },
}

/// Where API keys are kept.
#[derive(Debug, Clone)]
pub struct CredentialStore {
    file: PathBuf,
    keyring: bool,
}

impl CredentialStore {
    /// The person's store: `credentials.json` in Tandem's config folder, and the keyring when a session bus is
    /// there (without one, connecting could start a bus of its own) and [`NO_KEYRING_ENV`] is not set.
    pub fn standard() -> Option<Self> {
        let file = dirs::config_dir()?.join("tandem/credentials.json");
        let keyring = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
            && std::env::var(NO_KEYRING_ENV).map_or(true, |v| v != "1");
        Some(Self { file, keyring })
    }

    /// A store that keeps keys in `file` only.
    pub fn in_file(file: PathBuf) -> Self {
        Self {
            file,
            keyring: false,
        }
    }

    /// The saved key for `provider` and where it is kept.
    pub fn get(&self, provider: Provider) -> Option<(String, KeySource)> {
        if self.keyring
            && let Some(key) = keyring_entry(provider).and_then(|e| e.get_password().ok())
        {
            return Some((key, KeySource::Keyring));
        }
        let keys = read_file(&self.file).ok()?;
        keys.get(provider.id())
            .filter(|k| !k.is_empty())
            .map(|k| (k.clone(), KeySource::CredentialsFile))
    }

    /// Saves `key` for `provider` (in the keyring when it takes it, else in the file) and removes any other copy;
    /// an empty `key` removes the saved one. Returns where the key now is.
    pub fn set(&self, provider: Provider, key: &str) -> Result<KeySource, CredentialError> {
        let key = key.trim();
        let in_keyring = !key.is_empty()
            && self.keyring
            && keyring_entry(provider).is_some_and(|e| e.set_password(key).is_ok());
        if key.is_empty()
            && self.keyring
            && let Some(entry) = keyring_entry(provider)
        {
            let _ = entry.delete_credential();
        }
        let file_key = (!in_keyring && !key.is_empty()).then_some(key);
        self.write_file_key(provider, file_key)?;
        Ok(match (in_keyring, file_key) {
            (true, _) => KeySource::Keyring,
            (false, Some(_)) => KeySource::CredentialsFile,
            (false, None) => KeySource::None,
        })
    }

    /// The credentials file.
    pub fn file(&self) -> &Path {
        &self.file
    }

    fn write_file_key(&self, provider: Provider, key: Option<&str>) -> Result<(), CredentialError> {
        let mut keys = match read_file(&self.file) {
            Ok(keys) => keys,
            Err(FileProblem::Missing) if key.is_none() => return Ok(()),
            Err(FileProblem::Missing) => BTreeMap::new(),
            Err(FileProblem::Malformed(reason)) => {
                return Err(CredentialError::Malformed {
                    path: self.file.clone(),
                    reason,
                });
            }
        };
        let changed = match key {
            Some(key) => {
                keys.insert(provider.id().to_string(), key.to_string())
                    .as_deref()
                    != Some(key)
            }
            None => keys.remove(provider.id()).is_some(),
        };
        if !changed {
            return Ok(());
        }
        let write_error = |source| CredentialError::Write {
            path: self.file.clone(),
            source,
        };
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir).map_err(write_error)?;
        }
        let text =
            serde_json::to_string_pretty(&keys).map_err(|e| write_error(io::Error::other(e)))?;
        write_atomic_private(&self.file, &[text.as_bytes(), b"\n"]).map_err(write_error)
    }
}

enum FileProblem {
    Missing,
    Malformed(String),
}

fn read_file(path: &Path) -> Result<BTreeMap<String, String>, FileProblem> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(FileProblem::Missing),
        Err(e) => return Err(FileProblem::Malformed(e.to_string())),
    };
    serde_json::from_str(&text).map_err(|e| FileProblem::Malformed(e.to_string()))
}

fn keyring_entry(provider: Provider) -> Option<keyring::Entry> {
    keyring::Entry::new(SERVICE, provider.id()).ok()
}
