//! Where the model is and how to reach it: provider, base URL, key, model name, limits.

use std::time::Duration;

use super::RetryPolicy;

/// The wire protocol of the model server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Anthropic,
    OpenAiCompatible,
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
    /// Applies `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY` and `ANTHROPIC_MODEL` from `env` over this config.
    pub fn with_env(mut self, env: impl Fn(&str) -> Option<String>) -> Self {
        if let Some(url) = env("ANTHROPIC_BASE_URL").filter(|s| !s.is_empty()) {
            self.base_url = url.trim_end_matches('/').to_string();
        }
        if let Some(key) = env("ANTHROPIC_API_KEY").filter(|s| !s.is_empty()) {
            self.api_key = Some(key);
        }
        if let Some(model) = env("ANTHROPIC_MODEL").filter(|s| !s.is_empty()) {
            self.model = model;
        }
        self
    }

    /// Applies a Tandem settings file (`{"apiKey", "baseUrl", "model", "maxTokens"}`) over this config. A missing
    /// file changes nothing; an unreadable or malformed one is an error naming the file.
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
        if self.api_key.is_none() {
            Some(
                "No API key is set. Start Tandem with ANTHROPIC_API_KEY in the environment, or add \
                 {\"apiKey\": \"...\"} to ~/.config/tandem/settings.json (ANTHROPIC_BASE_URL and ANTHROPIC_MODEL \
                 choose another server or model)."
                    .to_string(),
            )
        } else {
            None
        }
    }
}
