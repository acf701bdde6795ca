//! Where the model is and how to reach it: provider, base URL, key, model name, limits.
//!
//! Sources, later ones winning: the defaults; `~/.config/tandem/settings.json` (`provider`: `"anthropic"` or
//! `"openai"`, `baseUrl`, `apiKey`, `model`, `maxTokens`); the environment (`ANTHROPIC_BASE_URL`,
//! `ANTHROPIC_API_KEY`, `ANTHROPIC_MODEL` for Anthropic; `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL` when the
//! provider is `"openai"`). An OpenAI-compatible server without a configured base URL is Ollama on this machine.

use std::time::Duration;

use super::RetryPolicy;

/// The wire protocol of the model server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Anthropic,
    OpenAiCompatible,
}

impl Provider {
    /// The provider a settings value names: `anthropic`, or `openai` (also `openai-compatible`, `ollama`).
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "anthropic" => Some(Self::Anthropic),
            "openai" | "openai-compatible" | "openai_compatible" | "ollama" => {
                Some(Self::OpenAiCompatible)
            }
            _ => None,
        }
    }

    /// The prefix of this provider's environment variables (`ANTHROPIC`, `OPENAI`).
    pub fn env_prefix(self) -> &'static str {
        match self {
            Self::Anthropic => "ANTHROPIC",
            Self::OpenAiCompatible => "OPENAI",
        }
    }

    /// The provider's short stable name (`anthropic`, `openai`), as settings files and the keyring spell it.
    pub fn id(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::OpenAiCompatible => "openai",
        }
    }
}

/// How to reach a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelConfig {
    pub provider: Provider,
    /// Without a trailing slash, e.g. `https://api.anthropic.com`.
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
    pub max_tokens: u32,
    pub retry: RetryPolicy,
    /// Time allowed to connect and receive the response headers.
    pub connect_timeout: Duration,
    /// Time allowed between two chunks of a stream.
    pub idle_timeout: Duration,
}

/// The default Anthropic endpoint.
pub const DEFAULT_ANTHROPIC_URL: &str = "https://api.anthropic.com";
/// The default model.
pub const DEFAULT_MODEL: &str = "claude-sonnet-4-5";
/// The default OpenAI-compatible endpoint: Ollama on this machine.
pub const DEFAULT_OPENAI_URL: &str = "http://localhost:11434";

impl Default for ModelConfig {
    fn default() -> Self {
        Self {
            provider: Provider::Anthropic,
            base_url: DEFAULT_ANTHROPIC_URL.to_string(),
            api_key: None,
            model: DEFAULT_MODEL.to_string(),
            max_tokens: 16_000,
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(300),
        }
    }
}

impl ModelConfig {
    /// Applies the provider's `<PREFIX>_BASE_URL`, `<PREFIX>_API_KEY` and `<PREFIX>_MODEL` from `env` over this
    /// config (`ANTHROPIC_*`, or `OPENAI_*` for an OpenAI-compatible provider).
    pub fn with_env(mut self, env: impl Fn(&str) -> Option<String>) -> Self {
        let prefix = self.provider.env_prefix();
        let var = |name: &str| env(&format!("{prefix}_{name}")).filter(|s| !s.is_empty());
        if let Some(url) = var("BASE_URL") {
            self.base_url = url.trim_end_matches('/').to_string();
        }
        if let Some(key) = var("API_KEY") {
            self.api_key = Some(key);
        }
        if let Some(model) = var("MODEL") {
            self.model = model;
        }
        self
    }

    /// Applies a Tandem settings file (`{"provider", "apiKey", "baseUrl", "model", "maxTokens"}`) over this config.
    /// A missing file changes nothing; an unreadable or malformed one is an error naming the file.
    pub fn with_settings_file(mut self, path: &std::path::Path) -> Result<Self, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(self),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not valid JSON: {e}", path.display()))?;
        let get = |k: &str| {
            value
                .get(k)
                .and_then(serde_json::Value::as_str)
                .filter(|s| !s.is_empty())
        };
        if let Some(name) = get("provider") {
            let provider = Provider::parse(name).ok_or_else(|| {
                format!(
                    "{}: unknown provider {name:?} (use \"anthropic\" or \"openai\")",
                    path.display()
                )
            })?;
            if provider == Provider::OpenAiCompatible && self.base_url == DEFAULT_ANTHROPIC_URL {
                self.base_url = DEFAULT_OPENAI_URL.to_string();
            }
            self.provider = provider;
        }
        if let Some(url) = get("baseUrl") {
            self.base_url = url.trim_end_matches('/').to_string();
        }
        if let Some(key) = get("apiKey") {
            self.api_key = Some(key.to_string());
        }
        if let Some(model) = get("model") {
            self.model = model.to_string();
        }
        if let Some(n) = value.get("maxTokens").and_then(serde_json::Value::as_u64) {
            self.max_tokens = n.min(u32::MAX as u64) as u32;
        }
        Ok(self)
    }

    /// The default config, then `~/.config/tandem/settings.json`, then the environment. A broken settings file is
    /// reported in the second value and otherwise ignored.
    pub fn load() -> (Self, Option<String>) {
        let mut config = Self::default();
        let mut problem = None;
        if let Some(dir) = dirs::config_dir() {
            match config
                .clone()
                .with_settings_file(&dir.join("tandem/settings.json"))
            {
                Ok(c) => config = c,
                Err(e) => problem = Some(e),
            }
        }
        (config.with_env(|k| std::env::var(k).ok()), problem)
    }

    /// What the user must do before a model can be reached, if anything.
    pub fn setup_hint(&self) -> Option<String> {
        if self.provider == Provider::OpenAiCompatible {
            // Local servers need no key; they do need the name of a model they serve.
            return (self.model == DEFAULT_MODEL).then(|| {
                format!(
                    "The provider is OpenAI-compatible ({}), but no model is chosen. Choose one the server \
                     serves (e.g. \"qwen3\") in Settings (click the model name in the status bar), or set \
                     OPENAI_MODEL.",
                    self.base_url
                )
            });
        }
        if self.api_key.is_none() {
            Some(
                "No API key is set. Add one in Settings (click the model name in the status bar, or File ▸ \
                 Settings…), or start Tandem with ANTHROPIC_API_KEY in the environment."
                    .to_string(),
            )
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(json: &str) -> Result<ModelConfig, String> {
        let dir = std::env::temp_dir().join(format!("tandem-config-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let path = dir.join("settings.json");
        std::fs::write(&path, json).map_err(|e| e.to_string())?;
        let result = ModelConfig::default().with_settings_file(&path);
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    #[test]
    fn the_openai_provider_reads_its_own_environment() {
        let config = settings(r#"{"provider": "openai", "model": "qwen3"}"#).expect("settings");
        assert_eq!(config.provider, Provider::OpenAiCompatible);
        assert_eq!(config.base_url, DEFAULT_OPENAI_URL);
        assert_eq!(config.setup_hint(), None, "no key needed");
        let env = |k: &str| match k {
            "OPENAI_BASE_URL" => Some("http://gpu:8000/v1/".to_string()),
            "OPENAI_API_KEY" => Some("sk-local".to_string()),
            "ANTHROPIC_API_KEY" => Some("sk-ant".to_string()),
            _ => None,
        };
        let config = config.with_env(env);
        assert_eq!(config.base_url, "http://gpu:8000/v1");
        assert_eq!(config.api_key.as_deref(), Some("sk-local"));
        assert_eq!(config.model, "qwen3");
    }

    #[test]
    fn an_unknown_provider_is_an_error_and_a_missing_model_a_hint() {
        let err = settings(r#"{"provider": "gemini"}"#).expect_err("unknown");
        assert!(err.contains("unknown provider"), "{err}");
        let config = settings(r#"{"provider": "openai"}"#).expect("settings");
        assert!(config.setup_hint().is_some_and(|h| h.contains("model")));
        let anthropic = ModelConfig::default()
            .with_env(|k| (k == "OPENAI_API_KEY").then(|| "sk-other".to_string()));
        assert_eq!(anthropic.api_key, None);
    }
}
