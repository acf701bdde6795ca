//! The OpenAI-compatible chat-completions client (Ollama, llama.cpp server, vLLM, hosted gateways): the same
//! contract as the Anthropic client, with the body from `openai_body` and the stream folded by `openai_stream`.

use std::sync::Arc;

use bytes::Bytes;
use futures::future::BoxFuture;

use super::fragments::FragmentCache;
use super::openai_body::encode_chat_body;
use super::openai_stream::ChatStreamAssembler;
use super::transport::{Failure, endpoint, http_client, send_streaming, stream_with_retries};
use super::{Model, ModelConfig, ModelError, ModelRequest, ModelStream};

/// The bearer token sent when no key is configured: local servers ignore it, but some reject an empty one.
pub const PLACEHOLDER_KEY: &str = "tandem-no-key";

/// A client for `POST {base}/v1/chat/completions` with `stream: true`.
#[derive(Debug, Clone)]
pub struct OpenAiModel {
    config: ModelConfig,
    http: reqwest::Client,
    /// The encoded messages of recent requests.
    messages: Arc<FragmentCache>,
}

impl OpenAiModel {
    /// A client for `config`.
    pub fn new(config: ModelConfig) -> Result<Self, ModelError> {
        let http = http_client(&config)?;
        Ok(Self {
            config,
            http,
            messages: Arc::default(),
        })
    }

    /// The endpoint; a base URL that already ends in `/v1` (as `OPENAI_BASE_URL` usually does) is accepted too.
    fn url(&self) -> Result<reqwest::Url, ModelError> {
        let base = self.config.base_url.trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base);
        endpoint(base, "/v1/chat/completions")
    }

    fn attempt(&self, body: Bytes) -> BoxFuture<'static, Result<reqwest::Response, Failure>> {
        let key = self
            .config
            .api_key
            .clone()
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| PLACEHOLDER_KEY.to_string());
        let url = match self.url() {
            Ok(url) => url,
            Err(e) => return Box::pin(async { Err((e, None)) }),
        };
        let request = self.http.post(url).bearer_auth(key);
        Box::pin(send_streaming(request, body))
    }
}

impl Model for OpenAiModel {
    fn model_name(&self) -> &str {
        &self.config.model
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        let this = self.clone();
        let body = encode_chat_body(&request, &self.messages);
        stream_with_retries(
            self.config.retry,
            Box::new(move || this.attempt(body.clone())),
            ChatStreamAssembler::default(),
        )
    }
}
