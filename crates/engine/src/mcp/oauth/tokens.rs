//! OAuth tokens of remote MCP servers, kept outside every project: in the desktop's keyring when one answers (one
//! entry per server URL), else in `~/.config/tandem/mcp-tokens.json`, readable by its owner only and replaced
//! atomically. A [`ServerTokens`] is one server's view of the store, as `rmcp`'s credential store.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rmcp::transport::auth::{AuthError, CredentialStore, StoredCredentials};

use crate::fsutil::{SecretMapFile, keyring_wanted};

/// How the token file is named in errors.
const FILE_KIND: &str = "token file";

/// The keyring service under which tokens are kept.
const SERVICE: &str = "dev.tandem.mcp";

/// Where the tokens of every server are kept.
#[derive(Debug, Clone)]
pub enum TokenStore {
    /// The keyring when it takes the entry, else the file.
    Keyring { file: SecretMapFile },
    /// The file only.
    File(SecretMapFile),
    /// In memory, for this process only.
    Memory(Arc<Mutex<BTreeMap<String, String>>>),
}

impl TokenStore {
    /// The person's store: the keyring when a session bus is there and `TANDEM_NO_KEYRING` is not set, with the
    /// file in Tandem's config folder beside it; in memory when there is no config folder.
    pub fn standard() -> Self {
        let Some(dir) = dirs::config_dir() else {
            return Self::memory();
        };
        let file = SecretMapFile::new(dir.join("tandem/mcp-tokens.json"), FILE_KIND);
        if keyring_wanted() {
            Self::Keyring { file }
        } else {
            Self::File(file)
        }
    }

    /// A store in `path` only.
    pub fn file(path: std::path::PathBuf) -> Self {
        Self::File(SecretMapFile::new(path, FILE_KIND))
    }

    /// A store in memory only.
    pub fn memory() -> Self {
        Self::Memory(Arc::default())
    }

    /// Server `url`'s view of the store.
    pub fn for_server(&self, url: &str) -> ServerTokens {
        ServerTokens {
            store: self.clone(),
            url: url.to_string(),
        }
    }

    fn get(&self, url: &str) -> Result<Option<String>, String> {
        match self {
            Self::Memory(map) => Ok(map.lock().map_err(|e| e.to_string())?.get(url).cloned()),
            Self::Keyring { file } => {
                if let Some(text) = entry(url).and_then(|e| e.get_password().ok()) {
                    return Ok(Some(text));
                }
                file.get(url).map_err(|e| e.to_string())
            }
            Self::File(file) => file.get(url).map_err(|e| e.to_string()),
        }
    }

    fn put(&self, url: &str, text: Option<&str>) -> Result<(), String> {
        match self {
            Self::Memory(map) => {
                let mut map = map.lock().map_err(|e| e.to_string())?;
                match text {
                    Some(t) => map.insert(url.to_string(), t.to_string()),
                    None => map.remove(url),
                };
                Ok(())
            }
            Self::Keyring { file } => {
                let in_keyring = match (text, entry(url)) {
                    (Some(t), Some(e)) => e.set_password(t).is_ok(),
                    (None, Some(e)) => {
                        let _ = e.delete_credential();
                        false
                    }
                    _ => false,
                };
                file.set(url, if in_keyring { None } else { text })
                    .map_err(|e| e.to_string())
            }
            Self::File(file) => file.set(url, text).map_err(|e| e.to_string()),
        }
    }
}

fn entry(url: &str) -> Option<keyring::Entry> {
    keyring::Entry::new(SERVICE, url).ok()
}

/// One server's tokens (client id, access and refresh token, scopes) in a [`TokenStore`].
#[derive(Debug, Clone)]
pub struct ServerTokens {
    store: TokenStore,
    url: String,
}

impl ServerTokens {
    /// Whether tokens are saved for the server.
    pub fn has_tokens(&self) -> bool {
        self.read()
            .ok()
            .flatten()
            .is_some_and(|c| c.token_response.is_some())
    }

    fn read(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let Some(text) = self
            .store
            .get(&self.url)
            .map_err(AuthError::CredentialStoreError)?
        else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| AuthError::CredentialStoreError(format!("saved tokens unreadable: {e}")))
    }
}

#[async_trait::async_trait]
impl CredentialStore for ServerTokens {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        self.read()
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let text = serde_json::to_string(&credentials)
            .map_err(|e| AuthError::CredentialStoreError(e.to_string()))?;
        self.store
            .put(&self.url, Some(&text))
            .map_err(AuthError::CredentialStoreError)
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.store
            .put(&self.url, None)
            .map_err(AuthError::CredentialStoreError)
    }
}
