//! The Anthropic Messages API client: builds the request body with cache breakpoints, sends it with retries, and
//! streams the answer through [`StreamAssembler`].

use std::time::Duration;

use futures::StreamExt;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use super::anthropic_stream::StreamAssembler;
use super::retry::{retry_after, status_is_retryable};
use super::sse::SseParser;
use super::{Model, ModelConfig, ModelError, ModelEvent, ModelRequest, ModelStream};

/// A client for `POST {base}/v1/messages` with `stream: true`.
#[derive(Debug, Clone)]
pub struct AnthropicModel {
    config: ModelConfig,
    http: reqwest::Client,
}

impl AnthropicModel {
    /// A client for `config`.
    pub fn new(config: ModelConfig) -> Result<Self, ModelError> {
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .read_timeout(config.idle_timeout)
            .build()
            .map_err(|e| ModelError::Connection(e.to_string()))?;
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

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Turns an HTTP error response into a [`ModelError`] with its retry advice.
async fn http_error(response: reqwest::Response) -> (ModelError, Option<Duration>) {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let should_retry = header(&headers, "x-should-retry").map(|v| v == "true");
    let wait = retry_after(
        header(&headers, "retry-after-ms"),
        header(&headers, "retry-after"),
    );
    let body = response.text().await.unwrap_or_default();
    let parsed: Option<Value> = serde_json::from_str(&body).ok();
    let kind = parsed
        .as_ref()
        .and_then(|v| v.pointer("/error/type").and_then(Value::as_str))
        .unwrap_or("error")
        .to_string();
    let message = parsed
        .as_ref()
        .and_then(|v| {
            v.pointer("/error/message")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| body.chars().take(300).collect());
    let retryable = status_is_retryable(status, should_retry);
    (
        ModelError::Http {
            status,
            kind,
            message,
            retryable,
            retry_after_ms: wait.map(|w| w.as_millis() as u64),
        },
        wait,
    )
}

impl AnthropicModel {
    async fn send(
        &self,
        body: &Value,
    ) -> Result<reqwest::Response, (ModelError, Option<Duration>)> {
        let key = self
            .config
            .api_key
            .clone()
            .ok_or((ModelError::MissingApiKey, None))?;
        let url = format!("{}/v1/messages", self.config.base_url.trim_end_matches('/'));
        let response = self
            .http
            .post(url)
            .header("x-api-key", key)
            .header("anthropic-version", "2023-06-01")
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .json(body)
            .send()
            .await
            .map_err(|e| {
                // A connection that could not be made is worth retrying, like a 5xx.
                let err = ModelError::Connection(e.to_string());
                (err, None)
            })?;
        if response.status().is_success() {
            Ok(response)
        } else {
            Err(http_error(response).await)
        }
    }
}

impl Model for AnthropicModel {
    fn model_name(&self) -> &str {
        &self.config.model
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        let this = self.clone();
        let stream = async_stream::try_stream! {
            let body = request_body(&request);
            let mut attempt = 0u32;
            let response = loop {
                match this.send(&body).await {
                    Ok(response) => break response,
                    Err((err, wait)) => {
                        let retryable = err.is_retryable() || matches!(err, ModelError::Connection(_));
                        let reason = err.to_string();
                        if !retryable || attempt >= this.config.retry.max_retries {
                            Err(err)?;
                        }
                        let delay = this.config.retry.delay(attempt, wait);
                        attempt += 1;
                        yield ModelEvent::Retrying { attempt, wait_ms: delay.as_millis() as u64, reason };
                        tokio::time::sleep(delay).await;
                    }
                }
            };
            let mut bytes = response.bytes_stream();
            let mut parser = SseParser::default();
            let mut assembler = StreamAssembler::default();
            while let Some(chunk) = bytes.next().await {
                let chunk = chunk.map_err(|e| ModelError::Connection(format!("the stream broke off: {e}")))?;
                for event in parser.push(&chunk) {
                    for out in assembler.handle(&event.event, &event.data)? {
                        yield out;
                    }
                }
                if assembler.is_finished() {
                    break;
                }
            }
            if !assembler.is_finished()
                && let Some(event) = parser.finish()
            {
                for out in assembler.handle(&event.event, &event.data)? {
                    yield out;
                }
            }
            if !assembler.is_finished() {
                Err(ModelError::Connection("the stream ended before the message was complete".into()))?;
            }
        };
        Box::pin(stream)
    }
}
