//! The person's Tandem settings file (`~/.config/tandem/settings.json`): how to reach the model and how the window
//! looks. The window reads and saves it here, keeping every key it does not edit; API keys live in the
//! [`CredentialStore`], not in the file.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use tandem_protocol::{AppSettings, AppSettingsUpdate, KeySource};

use super::credentials::{CredentialError, CredentialStore};
use super::json_words::json_shown;
use crate::fsutil::{write_atomic, write_atomic_private};
use crate::model::{ModelConfig, Provider};

/// The font sizes the window offers, in pixels.
pub const FONT_SIZES: std::ops::RangeInclusive<u32> = 10..=24;
/// The font size when none is saved.
pub const DEFAULT_FONT_SIZE: u32 = 14;

/// Why the settings could not be read or saved.
#[derive(Debug, thiserror::Error)]
pub enum AppSettingsError {
    #[error("{path} is not valid JSON ({reason}); fix it by hand so that nothing in it is lost")]
    Malformed { path: PathBuf, reason: String },
    #[error("{path} {why}")]
    TooLarge { path: PathBuf, why: String },
    #[error("could not read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("could not write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("unknown provider {0:?}: choose \"anthropic\" or \"openai\"")]
    UnknownProvider(String),
    #[error("the base URL {0:?} is not an http:// or https:// URL")]
    BadUrl(String),
    #[error("the font size must be between {} and {} pixels", FONT_SIZES.start(), FONT_SIZES.end())]
    BadFontSize,
    #[error(transparent)]
    Budget(#[from] super::budget::BadBudget),
    #[error(transparent)]
    Credentials(#[from] CredentialError),
}

/// The settings file and the store of its keys.
#[derive(Debug, Clone)]
pub struct AppSettingsFile {
    path: PathBuf,
    credentials: CredentialStore,
}

impl AppSettingsFile {
    /// The person's own settings file and credential store.
    pub fn standard() -> Option<Self> {
        Some(Self::new(
            Self::standard_path()?,
            CredentialStore::standard()?,
        ))
    }

    /// Where the person's own settings file is (`None`: no configuration folder).
    pub fn standard_path() -> Option<PathBuf> {
        Some(dirs::config_dir()?.join("tandem/settings.json"))
    }

    pub fn new(path: PathBuf, credentials: CredentialStore) -> Self {
        Self { path, credentials }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The model configuration: the defaults, this file, the saved key when the file names none, then `env` (the
    /// environment wins). A broken file is reported in the second value and otherwise ignored.
    pub fn model_config(
        &self,
        env: impl Fn(&str) -> Option<String>,
    ) -> (ModelConfig, Option<String>) {
        let too_large = std::fs::metadata(&self.path)
            .ok()
            .and_then(|meta| super::too_large(meta.len()));
        let read = match too_large {
            Some(why) => Err(format!("{} {why}", self.path.display())),
            None => ModelConfig::default().with_settings_file(&self.path),
        };
        let (config, problem) = match read {
            Ok(config) => (config, None),
            Err(problem) => (ModelConfig::default(), Some(problem)),
        };
        let mut config = config;
        if config.api_key.is_none() {
            config.api_key = self.credentials.get(config.provider).map(|(key, _)| key);
        }
        (config.with_env(env), problem)
    }

    /// The settings as the window shows them, with where the key in use comes from and which environment
    /// variables override the file.
    pub fn read(
        &self,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<AppSettings, AppSettingsError> {
        let object = self.object()?;
        let text = |key: &str| {
            object
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let provider_name = text("provider");
        let provider = Provider::parse(&provider_name).unwrap_or(Provider::Anthropic);
        let prefix = provider.env_prefix();
        let overridden_by_env: Vec<String> = ["BASE_URL", "API_KEY", "MODEL"]
            .iter()
            .map(|name| format!("{prefix}_{name}"))
            .filter(|var| env(var).is_some_and(|v| !v.is_empty()))
            .collect();
        let saved = if !text("apiKey").is_empty() {
            KeySource::SettingsFile
        } else {
            self.credentials
                .get(provider)
                .map_or(KeySource::None, |(_, source)| source)
        };
        let key_source = if overridden_by_env.iter().any(|v| v.ends_with("_API_KEY")) {
            KeySource::Environment
        } else {
            saved
        };
        // What sessions use, as the person wrote it: the environment's value, else the saved one, else the default.
        let in_use = |name: &str, saved: String, default: &str| {
            env(&format!("{prefix}_{name}"))
                .filter(|v| !v.is_empty())
                .or_else(|| (!saved.is_empty()).then_some(saved))
                .unwrap_or_else(|| default.to_string())
        };
        let default_url = match provider {
            Provider::Anthropic => crate::model::DEFAULT_ANTHROPIC_URL,
            Provider::OpenAiCompatible => crate::model::DEFAULT_OPENAI_URL,
        };
        Ok(AppSettings {
            provider: provider.id().to_string(),
            base_url: text("baseUrl"),
            model: text("model"),
            key_source,
            theme: object
                .get("theme")
                .cloned()
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default(),
            font_size: object
                .get("fontSize")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| FONT_SIZES.contains(n))
                .unwrap_or(DEFAULT_FONT_SIZE),
            overridden_by_env,
            base_url_in_use: in_use("BASE_URL", text("baseUrl"), default_url),
            model_in_use: in_use("MODEL", text("model"), crate::model::DEFAULT_MODEL),
            key_saved: saved != KeySource::None,
            notifications: object
                .get("notifications")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            budget: super::BudgetSettings::from_settings(&object).into(),
            file: self.path.display().to_string(),
        })
    }

    /// Saves `update`: the connection, looks and budget into the file (other keys kept, an empty value removes its key),
    /// a new API key into the credential store (and out of the file). Nothing is written when a value is invalid
    /// or the file cannot be parsed.
    pub fn save(&self, update: &AppSettingsUpdate) -> Result<(), AppSettingsError> {
        let provider = Provider::parse(&update.provider)
            .ok_or_else(|| AppSettingsError::UnknownProvider(update.provider.clone()))?;
        let base_url = update.base_url.trim();
        if !base_url.is_empty() && !is_http_url(base_url) {
            return Err(AppSettingsError::BadUrl(base_url.to_string()));
        }
        if !FONT_SIZES.contains(&update.font_size) {
            return Err(AppSettingsError::BadFontSize);
        }
        let mut object = self.object()?;
        let mut put = |key: &str, value: &str| {
            if value.is_empty() {
                object.remove(key);
            } else {
                object.insert(key.to_string(), Value::String(value.to_string()));
            }
        };
        put("provider", &update.provider.to_ascii_lowercase());
        put("baseUrl", base_url);
        put("model", update.model.trim());
        object.insert(
            "theme".into(),
            serde_json::to_value(update.theme).unwrap_or(Value::Null),
        );
        object.insert("fontSize".into(), Value::from(update.font_size));
        if let Some(on) = update.notifications {
            object.insert("notifications".into(), Value::Bool(on));
        }
        if let Some(budget) = &update.budget {
            super::budget::put_budget(&mut object, budget)?;
        }
        if let Some(key) = &update.api_key {
            self.credentials.set(provider, key)?;
            object.remove("apiKey");
        }
        self.write(&Value::Object(object))
    }

    /// The spending budget the file sets (none when the file is missing or cannot be read).
    pub fn budget(&self) -> super::BudgetSettings {
        self.object()
            .map(|object| super::BudgetSettings::from_settings(&object))
            .unwrap_or_default()
    }

    /// The external agents the file names under `agentServers` (none when the file is missing); a file that cannot
    /// be read, or an entry that is not an agent, is an error naming it.
    pub fn agent_servers(
        &self,
    ) -> Result<std::collections::BTreeMap<String, super::AgentServer>, String> {
        let object = self.object().map_err(|e| e.to_string())?;
        super::agent_servers(&object).map_err(|e| format!("{}: {e}", self.path.display()))
    }

    /// The keys of the file that are ignored because their value has the wrong type, each named with the type it
    /// must have (none when the file is missing or cannot be read at all: that is reported as a problem).
    pub fn warnings(&self) -> Vec<String> {
        let Ok(object) = self.object() else {
            return Vec::new();
        };
        type_warnings(&object)
            .into_iter()
            .map(|w| format!("{}: {w}; it is ignored", self.path.display()))
            .collect()
    }

    /// The file's JSON object (empty when the file does not exist).
    fn object(&self) -> Result<Map<String, Value>, AppSettingsError> {
        if let Ok(meta) = std::fs::metadata(&self.path)
            && let Some(why) = super::too_large(meta.len())
        {
            return Err(AppSettingsError::TooLarge {
                path: self.path.clone(),
                why,
            });
        }
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Map::new()),
            Err(source) => {
                return Err(AppSettingsError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        match serde_json::from_str(&text) {
            Ok(Value::Object(object)) => Ok(object),
            Ok(_) => Err(self.malformed("the file is not a JSON object".into())),
            Err(e) => Err(self.malformed(e.to_string())),
        }
    }

    fn malformed(&self, reason: String) -> AppSettingsError {
        AppSettingsError::Malformed {
            path: self.path.clone(),
            reason,
        }
    }

    fn write(&self, value: &Value) -> Result<(), AppSettingsError> {
        let write_error = |source| AppSettingsError::Write {
            path: self.path.clone(),
            source,
        };
        let mut text = serde_json::to_string_pretty(value)
            .map_err(|e| write_error(std::io::Error::other(e)))?;
        text.push('\n');
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(write_error)?;
        }
        // A file that may hold a key stays as private as it was; a new one is private from the start.
        match std::fs::metadata(&self.path) {
            Ok(meta) => write_atomic(&self.path, &[text.as_bytes()], Some(&meta)),
            Err(_) => write_atomic_private(&self.path, &[text.as_bytes()]),
        }
        .map_err(write_error)
    }
}

/// The keys of a settings object whose values have the wrong type, each with the type it must have.
fn type_warnings(object: &Map<String, Value>) -> Vec<String> {
    let text = |v: &Value| v.is_string();
    let tokens = |v: &Value| v.as_u64().is_some_and(|n| n > 0);
    let font = |v: &Value| {
        v.as_u64()
            .is_some_and(|n| FONT_SIZES.contains(&(n.min(u64::from(u32::MAX)) as u32)))
    };
    let theme = |v: &Value| matches!(v.as_str(), Some("light" | "dark" | "system"));
    let switch = |v: &Value| v.is_boolean();
    type Check<'a> = (&'a str, &'a dyn Fn(&Value) -> bool, String);
    let checks: [Check<'_>; 8] = [
        (
            "provider",
            &text,
            "a string (\"anthropic\" or \"openai\")".into(),
        ),
        (
            "baseUrl",
            &text,
            "a string (an http:// or https:// URL)".into(),
        ),
        ("apiKey", &text, "a string".into()),
        ("model", &text, "a string".into()),
        ("maxTokens", &tokens, "a positive whole number".into()),
        ("theme", &theme, "\"light\", \"dark\" or \"system\"".into()),
        ("notifications", &switch, "true or false".into()),
        (
            "fontSize",
            &font,
            format!(
                "a whole number of pixels from {} to {}",
                FONT_SIZES.start(),
                FONT_SIZES.end()
            ),
        ),
    ];
    checks
        .iter()
        .filter_map(|(key, fits, wanted)| {
            let value = object.get(*key).filter(|v| !v.is_null() && !fits(v))?;
            Some(format!(
                "`{key}` must be {wanted}, not {}",
                json_shown(value)
            ))
        })
        .collect()
}

/// The warnings about the person's own settings file (see [`AppSettingsFile::warnings`]).
pub fn app_settings_warnings() -> Vec<String> {
    AppSettingsFile::standard()
        .map(|file| file.warnings())
        .unwrap_or_default()
}

fn is_http_url(text: &str) -> bool {
    reqwest::Url::parse(text)
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
}

/// The model configuration of the person's own settings file and saved key, under the environment (see
/// [`AppSettingsFile::model_config`]); without a config folder, the defaults under the environment.
pub fn load_model_config() -> (ModelConfig, Option<String>) {
    let env = |k: &str| std::env::var(k).ok();
    match AppSettingsFile::standard() {
        Some(file) => file.model_config(env),
        None => (ModelConfig::default().with_env(env), None),
    }
}
