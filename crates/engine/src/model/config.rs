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
