//! The Anthropic Messages API client: builds the request body with cache breakpoints, sends it with retries, and
//! streams the answer through [`StreamAssembler`] (the retries and the SSE plumbing are in `transport`).

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::anthropic_stream::StreamAssembler;
use super::transport::{Failure, http_client, send, stream_with_retries};
use super::{Model, ModelConfig, ModelError, ModelRequest, ModelStream};

/// A client for `POST {base}/v1/messages` with `stream: true`.
#[derive(Debug, Clone)]
pub struct AnthropicModel {
    config: ModelConfig,
    http: reqwest::Client,
}

impl AnthropicModel {
    /// A client for `config`.
    pub fn new(config: ModelConfig) -> Result<Self, ModelError> {
        let http = http_client(&config)?;
        Ok(Self { config, http })
    }
}

fn ephemeral() -> Value {
    json!({"type": "ephemeral"})
}

/// The JSON body of a streaming request, with cache breakpoints on the last tool, the system prompt and the latest
/// user turn.
pub fn request_body(req: &ModelRequest) -> Value {
    let n_system = req.system.len();
    let system: Vec<Value> = req
        .system
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let mut block = json!({"type": "text", "text": text});
            if i + 1 == n_system {
                block["cache_control"] = ephemeral();
            }
            block
        })
        .collect();
    let n_tools = req.tools.len();
    let tools: Vec<Value> = req
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut tool = json!({"name": t.name, "description": t.description, "input_schema": t.input_schema});
            if i + 1 == n_tools {
                tool["cache_control"] = ephemeral();
            }
            tool
        })
        .collect();
    let mut messages = serde_json::to_value(&req.messages).unwrap_or(Value::Array(vec![]));
    if let Some(last_user) = messages.as_array_mut().and_then(|m| {
        m.iter_mut()
            .rev()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
    }) && let Some(last_block) = last_user
        .get_mut("content")
        .and_then(Value::as_array_mut)
        .and_then(|c| c.last_mut())
    {
        last_block["cache_control"] = ephemeral();
    }
    let mut body = json!({
        "model": req.model,
        "max_tokens": req.max_tokens,
        "stream": true,
        "messages": messages,
    });
    if !system.is_empty() {
        body["system"] = Value::Array(system);
    }
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
        body["tool_choice"] = json!({"type": "auto"});
    }
    if let Some(thinking) = req.thinking {
        body["thinking"] = json!({"type": "enabled", "budget_tokens": thinking.budget_tokens});
    }
    body
}

impl AnthropicModel {
    /// One attempt: the POST with the Anthropic headers.
    fn attempt(&self, body: Value) -> BoxFuture<'static, Result<reqwest::Response, Failure>> {
        let Some(key) = self.config.api_key.clone() else {
            return Box::pin(async { Err((ModelError::MissingApiKey, None)) });
        };
        let url = format!("{}/v1/messages", self.config.base_url.trim_end_matches('/'));
        let request = self
            .http
            .post(url)
            .header("x-api-key", key)
            .header("anthropic-version", "2023-06-01")
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .json(&body);
        Box::pin(send(request))
    }
}

impl Model for AnthropicModel {
    fn model_name(&self) -> &str {
        &self.config.model
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        let this = self.clone();
        let body = request_body(&request);
        stream_with_retries(
            self.config.retry,
            Box::new(move || this.attempt(body.clone())),
            StreamAssembler::default(),
        )
    }
}
