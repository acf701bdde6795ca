//! The Anthropic Messages API client: builds the request body with cache breakpoints (spliced from the messages'
//! cached encodings, see `fragments`), sends it with retries, and streams the answer through [`StreamAssembler`] (the retries and the SSE plumbing are in `transport`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::anthropic_stream::StreamAssembler;
use super::fragments::{self, FragmentCache, push_array, push_json};
use super::strict;
use super::transport::{Failure, endpoint, http_client, send_streaming, stream_with_retries};
use super::{Model, ModelConfig, ModelError, ModelRequest, ModelStream, Role};

/// A client for `POST {base}/v1/messages` with `stream: true`.
#[derive(Debug, Clone)]
pub struct AnthropicModel {
    config: ModelConfig,
    http: reqwest::Client,
    /// The encoded messages of recent requests.
    messages: Arc<FragmentCache>,
    /// Set once the server refused strict tool definitions (a proxy or gateway that does not know them): from then
    /// on every request sends them plain.
    strict_refused: Arc<AtomicBool>,
}

impl AnthropicModel {
    /// A client for `config`.
    pub fn new(config: ModelConfig) -> Result<Self, ModelError> {
        let http = http_client(&config)?;
        Ok(Self {
            config,
            http,
            messages: Arc::default(),
            strict_refused: Arc::default(),
        })
    }
}

fn ephemeral() -> Value {
    json!({"type": "ephemeral"})
}

/// The system prompt blocks, the last one with a cache breakpoint.
fn system_blocks(req: &ModelRequest) -> Vec<Value> {
    let n_system = req.system.len();
    req.system
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let mut block = json!({"type": "text", "text": text});
            if i + 1 == n_system {
                block["cache_control"] = ephemeral();
            }
            block
        })
        .collect()
}

/// The tool definitions, the last one with a cache breakpoint; with `strict`, those the model may take strict are
/// sent so (see [`strict::choose`]).
fn tool_entries(req: &ModelRequest, strict: bool) -> Vec<Value> {
    let n_tools = req.tools.len();
    let chosen = if strict {
        strict::choose(&req.tools, &req.model)
    } else {
        vec![None; n_tools]
    };
    req.tools
        .iter()
        .zip(chosen)
        .enumerate()
        .map(|(i, (t, strict_schema))| {
            let mut tool = match (&t.server, strict_schema) {
                (Some(definition), _) => definition.clone(),
                (None, Some(schema)) => {
                    json!({"name": t.name, "description": t.description, "input_schema": schema, "strict": true})
                }
                (None, None) => {
                    json!({"name": t.name, "description": t.description, "input_schema": t.input_schema})
                }
            };
            if i + 1 == n_tools {
                tool["cache_control"] = ephemeral();
            }
            tool
        })
        .collect()
}

/// Puts the cache breakpoint on the last block of an encoded message.
fn with_breakpoint(message: &mut Value) {
    if let Some(last_block) = message
        .get_mut("content")
        .and_then(Value::as_array_mut)
        .and_then(|c| c.last_mut())
    {
        last_block["cache_control"] = ephemeral();
    }
}

/// The JSON body of a streaming request, with cache breakpoints on the last tool, the system prompt and the latest
/// user turn; the messages come from `cache` but the latest user turn (it carries the breakpoint). `strict`: the
/// tools that ask for strict definitions get them where the model takes them.
pub fn encode_body(req: &ModelRequest, cache: &FragmentCache, strict: bool) -> Bytes {
    let mut messages = cache.fragments(&req.messages, fragments::to_json);
    if let Some(i) = req.messages.iter().rposition(|m| m.role == Role::User) {
        let mut last_user = serde_json::to_value(&req.messages[i]).unwrap_or(Value::Null);
        with_breakpoint(&mut last_user);
        messages[i] = Bytes::from(fragments::to_json(&last_user));
    }
    let size: usize = messages.iter().map(|m| m.len() + 1).sum();
    let mut out = Vec::with_capacity(size + 64 * 1024);
    out.extend_from_slice(b"{\"model\":");
    push_json(&mut out, &req.model);
    out.extend_from_slice(b",\"max_tokens\":");
    push_json(&mut out, &req.max_tokens);
    out.extend_from_slice(b",\"stream\":true,\"messages\":");
    push_array(&mut out, messages.iter().map(|m| &m[..]));
    if !req.system.is_empty() {
        out.extend_from_slice(b",\"system\":");
        push_json(&mut out, &system_blocks(req));
    }
    if !req.tools.is_empty() {
        out.extend_from_slice(b",\"tools\":");
        push_json(&mut out, &tool_entries(req, strict));
        out.extend_from_slice(b",\"tool_choice\":{\"type\":\"auto\"}");
    }
    if let Some(thinking) = req.thinking {
        out.extend_from_slice(b",\"thinking\":");
        push_json(
            &mut out,
            &json!({"type": "enabled", "budget_tokens": thinking.budget_tokens}),
        );
    }
    out.push(b'}');
    Bytes::from(out)
}

impl AnthropicModel {
    /// One attempt: the POST with the Anthropic headers.
    fn attempt(&self, body: Bytes) -> BoxFuture<'static, Result<reqwest::Response, Failure>> {
        let Some(key) = self.config.api_key.clone() else {
            return Box::pin(async { Err((ModelError::MissingApiKey, None)) });
        };
        let url = match endpoint(&self.config.base_url, "/v1/messages") {
            Ok(url) => url,
            Err(e) => return Box::pin(async { Err((e, None)) }),
        };
        let request = self
            .http
            .post(url)
            .header("x-api-key", key)
            .header("anthropic-version", "2023-06-01");
        Box::pin(send_streaming(request, body))
    }
}

impl AnthropicModel {
    /// One attempt with strict tool definitions in `body`; when the server refuses them (a 400 naming `strict`),
    /// the same request again without them, and plain definitions from then on.
    fn attempt_strict(
        &self,
        body: Bytes,
        request: Arc<ModelRequest>,
    ) -> BoxFuture<'static, Result<reqwest::Response, Failure>> {
        let this = self.clone();
        Box::pin(async move {
            match this.attempt(body).await {
                Err((
                    ModelError::Http {
                        status: 400,
                        message,
                        ..
                    },
                    _,
                )) if message.to_ascii_lowercase().contains("strict") => {
                    tracing::warn!(%message, "the server refused strict tool definitions; sending them plain");
                    this.strict_refused.store(true, Ordering::Relaxed);
                    let plain = encode_body(&request, &this.messages, false);
                    this.attempt(plain).await
                }
                other => other,
            }
        })
    }
}

impl Model for AnthropicModel {
    fn model_name(&self) -> &str {
        &self.config.model
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        let this = self.clone();
        let strict = !self.strict_refused.load(Ordering::Relaxed)
            && strict::choose(&request.tools, &request.model)
                .iter()
                .any(Option::is_some);
        let body = encode_body(&request, &self.messages, strict);
        let request = Arc::new(request);
        stream_with_retries(
            self.config.retry,
            Box::new(move || {
                if strict {
                    this.attempt_strict(body.clone(), request.clone())
                } else {
                    this.attempt(body.clone())
                }
            }),
            StreamAssembler::default(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fragments::varied_history;
    use crate::model::{ThinkingConfig, ToolSpec};

    /// The body as it was built before it was spliced: one JSON value for the whole request.
    fn whole_body(req: &ModelRequest) -> Value {
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

    #[test]
    fn the_spliced_body_is_byte_for_byte_the_whole_encoding() {
        let history = varied_history();
        let cache = FragmentCache::default();
        let tools = vec![
            ToolSpec {
                name: "Read".into(),
                description: "Reads \"files\"".into(),
                input_schema: json!({"type": "object", "properties": {"file_path": {"type": "string"}}}),
                server: None,
                strict: false,
            },
            ToolSpec {
                name: "Glob".into(),
                description: "Finds files".into(),
                input_schema: json!({"type": "object"}),
                server: None,
                strict: false,
            },
        ];
        // Every prefix of the history, in order (as a conversation grows), then a side request, then all again.
        let mut requests: Vec<ModelRequest> = (0..=history.len())
            .map(|n| ModelRequest {
                model: "claude-test".into(),
                max_tokens: 4096,
                system: if n % 3 == 0 {
                    vec![]
                } else {
                    vec!["You help.".into(), "Be brief ✓.".into()]
                },
                messages: history[..n].to_vec(),
                tools: if n % 2 == 0 { tools.clone() } else { vec![] },
                thinking: (n % 4 == 1).then_some(ThinkingConfig {
                    budget_tokens: 1024,
                }),
            })
            .collect();
        let mut side = requests[2].clone();
        side.messages = vec![crate::model::Message::user_text("is this safe?")];
        requests.push(side);
        requests.push(requests[history.len()].clone());
        for req in &requests {
            let want = serde_json::to_vec(&whole_body(req)).expect("json");
            let got = encode_body(req, &cache, true);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want),
                "{} messages",
                req.messages.len()
            );
        }
    }
}
