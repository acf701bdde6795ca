//! API keys kept outside every project: in the desktop's keyring (Secret Service) when one answers on the session
//! bus, else in `~/.config/tandem/credentials.json`, created readable by its owner only and replaced atomically.

use std::path::{Path, PathBuf};

use tandem_protocol::KeySource;

use crate::fsutil::{SecretMapError, SecretMapFile, keyring_wanted};
use crate::model::Provider;

pub use crate::fsutil::NO_KEYRING_ENV;

/// How the credentials file is named in errors.
const FILE_KIND: &str = "credentials file";

/// The keyring service name under which keys are kept.
const SERVICE: &str = "dev.tandem.app";

/// Why a key could not be saved or removed (the credentials file could not be read or written).
pub type CredentialError = SecretMapError;

/// Where API keys are kept.
#[derive(Debug, Clone)]
pub struct CredentialStore {
    file: SecretMapFile,
    keyring: bool,
}

impl CredentialStore {
    /// The person's store: `credentials.json` in Tandem's config folder, and the keyring when a session bus is
    /// there (without one, connecting could start a bus of its own) and [`NO_KEYRING_ENV`] is not set.
    pub fn standard() -> Option<Self> {
        let file = dirs::config_dir()?.join("tandem/credentials.json");
        Some(Self {
            file: SecretMapFile::new(file, FILE_KIND),
            keyring: keyring_wanted(),
        })
    }

    /// A store that keeps keys in `file` only.
    pub fn in_file(file: PathBuf) -> Self {
        Self {
            file: SecretMapFile::new(file, FILE_KIND),
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
        self.file
            .get(provider.id())
            .ok()
            .flatten()
            .filter(|k| !k.is_empty())
            .map(|k| (k, KeySource::CredentialsFile))
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
        self.file.set(provider.id(), file_key)?;
        Ok(match (in_keyring, file_key) {
            (true, _) => KeySource::Keyring,
            (false, Some(_)) => KeySource::CredentialsFile,
            (false, None) => KeySource::None,
        })
    }

    /// The credentials file.
    pub fn file(&self) -> &Path {
        self.file.path()
    }
}

fn keyring_entry(provider: Provider) -> Option<keyring::Entry> {
    keyring::Entry::new(SERVICE, provider.id()).ok()
}
