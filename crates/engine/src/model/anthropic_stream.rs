//! Folds Anthropic SSE events into [`ModelEvent`]s and the finished assistant [`Message`].

use std::collections::BTreeMap;

use serde_json::Value;
use tandem_protocol::Usage;

use super::sse::SseEvent;
use super::transport::Assembler;
use super::{ContentBlock, Message, ModelError, ModelEvent, Role, StopReason};

/// A content block being streamed.
#[derive(Debug)]
enum Partial {
    Text(String),
    Thinking {
        thinking: String,
        signature: String,
    },
    RedactedThinking(String),
    ToolUse {
        id: String,
        name: String,
        json: String,
        done: Option<Value>,
    },
    /// A tool the provider runs (web search): its input streams like a tool call's.
    ServerToolUse {
        id: String,
        name: String,
        json: String,
        done: Option<Value>,
    },
    /// The provider's result of its own tool, whole in the block's start.
    WebSearchResult {
        tool_use_id: String,
        content: Value,
    },
    /// A block type this client does not know; ignored.
    Unknown,
}

/// Assembler state for one message.
#[derive(Debug, Default)]
pub struct StreamAssembler {
    blocks: BTreeMap<u64, Partial>,
    usage: Usage,
    stop_reason: Option<StopReason>,
    started: bool,
    finished: bool,
}

fn parse_usage(v: &Value, usage: &mut Usage) {
    let get = |k: &str| v.get(k).and_then(Value::as_u64);
    if let Some(n) = get("input_tokens") {
        usage.input_tokens = n;
    }
    if let Some(n) = get("output_tokens") {
        usage.output_tokens = n;
    }
    if let Some(n) = get("cache_creation_input_tokens") {
        usage.cache_creation_input_tokens = n;
    }
    if let Some(n) = get("cache_read_input_tokens") {
        usage.cache_read_input_tokens = n;
    }
}

fn index_of(v: &Value) -> Result<u64, ModelError> {
    v.get("index")
        .and_then(Value::as_u64)
        .ok_or_else(|| ModelError::Protocol("a content block event has no index".into()))
}

/// The error an `error` event carries.
fn stream_error(v: &Value) -> ModelError {
    let kind = v
        .pointer("/error/type")
        .and_then(Value::as_str)
        .unwrap_or("error")
        .to_string();
    let message = v
        .pointer("/error/message")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    ModelError::Stream { kind, message }
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

impl StreamAssembler {
    /// Handles one SSE event; returns the model events it completes.
    pub fn handle(&mut self, event: &str, data: &str) -> Result<Vec<ModelEvent>, ModelError> {
        if event == "ping" || (event.is_empty() && data.is_empty()) {
            return Ok(vec![]);
        }
        let v: Value = serde_json::from_str(data).map_err(|e| {
            ModelError::Protocol(format!("event {event:?} carried invalid JSON: {e}"))
        })?;
        let kind = if event.is_empty() {
            v.get("type").and_then(Value::as_str).unwrap_or_default()
        } else {
            event
        };
        let mut out = Vec::new();
        match kind {
            "message_start" => self.message_start(&v),
            "content_block_start" => self.block_start(&v, &mut out)?,
            "content_block_delta" => self.block_delta(&v, &mut out)?,
            "content_block_stop" => self.block_stop(&v, &mut out)?,
            "message_delta" => self.message_delta(&v),
            "message_stop" => {
                self.finished = true;
                self.close_cut_off_calls(&mut out);
                out.push(self.complete_message()?);
            }
            "error" => return Err(stream_error(&v)),
            _ => {}
        }
        Ok(out)
    }

    fn message_start(&mut self, v: &Value) {
        self.started = true;
        if let Some(u) = v.pointer("/message/usage") {
            parse_usage(u, &mut self.usage);
        }
    }

    /// A block begins: text (its first text is a delta), thinking, redacted thinking, or a tool call (announced
    /// at once, so the UI shows it while its input streams).
    fn block_start(&mut self, v: &Value, out: &mut Vec<ModelEvent>) -> Result<(), ModelError> {
        let index = index_of(v)?;
        let block = v.get("content_block").cloned().unwrap_or(Value::Null);
        let partial = match block.get("type").and_then(Value::as_str) {
            Some("text") => Partial::Text(str_field(&block, "text")),
            Some("thinking") => Partial::Thinking {
                thinking: str_field(&block, "thinking"),
                signature: str_field(&block, "signature"),
            },
            Some("redacted_thinking") => Partial::RedactedThinking(str_field(&block, "data")),
            Some("tool_use") => {
                let id = str_field(&block, "id");
                let name = str_field(&block, "name");
                if id.is_empty() || name.is_empty() {
                    return Err(ModelError::Protocol(
                        "a tool_use block has no id or name".into(),
                    ));
                }
                out.push(ModelEvent::ToolUseStarted {
                    id: id.clone(),
                    name: name.clone(),
                });
                Partial::ToolUse {
                    id,
                    name,
                    json: String::new(),
                    done: None,
                }
            }
            Some("server_tool_use") => Partial::ServerToolUse {
                id: str_field(&block, "id"),
                name: str_field(&block, "name"),
                json: String::new(),
                done: None,
            },
            Some("web_search_tool_result") => {
                let tool_use_id = str_field(&block, "tool_use_id");
                let content = block.get("content").cloned().unwrap_or(Value::Null);
                out.push(ModelEvent::ServerToolResult {
                    tool_use_id: tool_use_id.clone(),
                    content: content.clone(),
                });
                Partial::WebSearchResult {
                    tool_use_id,
                    content,
                }
            }
            _ => Partial::Unknown,
        };
        if let Partial::Text(t) = &partial
            && !t.is_empty()
        {
            out.push(ModelEvent::TextDelta(t.clone()));
        }
        self.blocks.insert(index, partial);
        Ok(())
    }

    /// A piece of a block that started: text and thinking go out as deltas; a tool call's JSON is gathered.
    fn block_delta(&mut self, v: &Value, out: &mut Vec<ModelEvent>) -> Result<(), ModelError> {
        let index = index_of(v)?;
        let delta = v.get("delta").cloned().unwrap_or(Value::Null);
        let block = self.blocks.get_mut(&index).ok_or_else(|| {
            ModelError::Protocol(format!("a delta for block {index}, which never started"))
        })?;
        match (delta.get("type").and_then(Value::as_str), block) {
            (Some("text_delta"), Partial::Text(text)) => {
                let piece = str_field(&delta, "text");
                text.push_str(&piece);
                out.push(ModelEvent::TextDelta(piece));
            }
            (Some("input_json_delta"), Partial::ToolUse { json, .. })
            | (Some("input_json_delta"), Partial::ServerToolUse { json, .. }) => {
                json.push_str(
                    delta
                        .get("partial_json")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                );
            }
            (Some("thinking_delta"), Partial::Thinking { thinking, .. }) => {
                let piece = str_field(&delta, "thinking");
                thinking.push_str(&piece);
                out.push(ModelEvent::ThinkingDelta(piece));
            }
            (Some("signature_delta"), Partial::Thinking { signature, .. }) => {
                *signature = str_field(&delta, "signature");
            }
            _ => {}
        }
        Ok(())
    }

    /// A block ends: a tool call's gathered JSON is parsed and the call is complete (it can start now).
    fn block_stop(&mut self, v: &Value, out: &mut Vec<ModelEvent>) -> Result<(), ModelError> {
        let index = index_of(v)?;
        if let Some(Partial::ServerToolUse {
            id,
            name,
            json,
            done,
        }) = self.blocks.get_mut(&index)
        {
            let input = serde_json::from_str::<Value>(json)
                .ok()
                .filter(Value::is_object)
                .unwrap_or_else(|| Value::Object(Default::default()));
            *done = Some(input.clone());
            out.push(ModelEvent::ServerToolUse {
                id: id.clone(),
                name: name.clone(),
                input,
            });
            return Ok(());
        }
        let Some(Partial::ToolUse {
            id,
            name,
            json,
            done,
        }) = self.blocks.get_mut(&index)
        else {
            return Ok(());
        };
        let parsed = if json.trim().is_empty() {
            Ok(Value::Object(Default::default()))
        } else {
            serde_json::from_str::<Value>(json)
        };
        match parsed {
            Ok(input) if input.is_object() => {
                *done = Some(input.clone());
                out.push(ModelEvent::ToolUseComplete {
                    id: id.clone(),
                    name: name.clone(),
                    input,
                });
            }
            other => {
                let why = match other {
                    Err(e) => e.to_string(),
                    Ok(_) => "it is not a JSON object".to_string(),
                };
                *done = Some(Value::Object(Default::default()));
                out.push(ModelEvent::ToolUseInvalid {
                    id: id.clone(),
                    name: name.clone(),
                    error: format!("the input of this {name} call is not valid JSON ({why})"),
                });
            }
        }
        Ok(())
    }

    fn message_delta(&mut self, v: &Value) {
        if let Some(reason) = v.pointer("/delta/stop_reason").filter(|r| !r.is_null()) {
            self.stop_reason = serde_json::from_value(reason.clone()).ok();
        }
        if let Some(u) = v.get("usage") {
            parse_usage(u, &mut self.usage);
        }
    }

    /// Tool calls whose block never ended (the output limit cut them off) are answered as invalid.
    fn close_cut_off_calls(&mut self, out: &mut Vec<ModelEvent>) {
        for block in self.blocks.values_mut() {
            if let Partial::ToolUse {
                id,
                name,
                done: done @ None,
                ..
            } = block
            {
                *done = Some(Value::Object(Default::default()));
                out.push(ModelEvent::ToolUseInvalid {
                    id: id.clone(),
                    name: name.clone(),
                    error: format!(
                        "the input of this {name} call was cut off before it was complete (the response reached \
                         its output limit)"
                    ),
                });
            }
        }
    }

    fn complete_message(&mut self) -> Result<ModelEvent, ModelError> {
        if !self.started {
            return Err(ModelError::Protocol(
                "message_stop before message_start".into(),
            ));
        }
        let mut content = Vec::new();
        for (index, block) in std::mem::take(&mut self.blocks) {
            match block {
                Partial::Text(text) => content.push(ContentBlock::Text { text }),
                Partial::Thinking {
                    thinking,
                    signature,
                } => content.push(ContentBlock::Thinking {
                    thinking,
                    signature,
                }),
                Partial::RedactedThinking(data) => {
                    content.push(ContentBlock::RedactedThinking { data })
                }
                Partial::ToolUse {
                    id,
                    name,
                    done: Some(input),
                    ..
                } => content.push(ContentBlock::ToolUse { id, name, input }),
                Partial::ToolUse { id, .. } => {
                    return Err(ModelError::Protocol(format!(
                        "tool call {id} (block {index}) never completed"
                    )));
                }
                Partial::ServerToolUse {
                    id,
                    name,
                    done: Some(input),
                    ..
                } => content.push(ContentBlock::ServerToolUse { id, name, input }),
                // A server tool call cut off before its block ended has no result; the provider needs neither.
                Partial::ServerToolUse { .. } => {}
                Partial::WebSearchResult {
                    tool_use_id,
                    content: result,
                } => content.push(ContentBlock::WebSearchToolResult {
                    tool_use_id,
                    content: result,
                }),
                Partial::Unknown => {}
            }
        }
        let stop_reason = self.stop_reason.unwrap_or(StopReason::EndTurn);
        Ok(ModelEvent::MessageComplete {
            message: Message::new(Role::Assistant, content),
            stop_reason,
            usage: self.usage,
        })
    }
}

impl Assembler for StreamAssembler {
    fn handle(&mut self, event: &SseEvent) -> Result<Vec<ModelEvent>, ModelError> {
        StreamAssembler::handle(self, &event.event, &event.data)
    }

    fn is_finished(&self) -> bool {
        self.finished
    }

    fn end(&mut self) -> Result<Vec<ModelEvent>, ModelError> {
        Err(ModelError::Connection(
            "the stream ended before the message was complete".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(events: &[(&str, Value)]) -> Vec<ModelEvent> {
        let mut assembler = StreamAssembler::default();
        let mut out = Vec::new();
        for (name, data) in events {
            out.extend(assembler.handle(name, &data.to_string()).expect("handled"));
        }
        out
    }

    #[test]
    fn server_tool_blocks_become_events_and_stay_in_the_message() {
        use serde_json::json;
        let results = json!([{"type": "web_search_result", "url": "https://a.org/", "title": "A",
            "encrypted_content": "xyz", "page_age": "1 day"}]);
        let events = feed(&[
            (
                "message_start",
                json!({"message": {"usage": {"input_tokens": 5}}}),
            ),
            (
                "content_block_start",
                json!({"index": 0, "content_block": {"type": "server_tool_use", "id": "srv_1", "name": "web_search", "input": {}}}),
            ),
            (
                "content_block_delta",
                json!({"index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"rust\"}"}}),
            ),
            ("content_block_stop", json!({"index": 0})),
            (
                "content_block_start",
                json!({"index": 1, "content_block": {"type": "web_search_tool_result", "tool_use_id": "srv_1", "content": results}}),
            ),
            ("content_block_stop", json!({"index": 1})),
            (
                "content_block_start",
                json!({"index": 2, "content_block": {"type": "text", "text": "Found."}}),
            ),
            ("content_block_stop", json!({"index": 2})),
            (
                "message_delta",
                json!({"delta": {"stop_reason": "end_turn"}}),
            ),
            ("message_stop", json!({})),
        ]);
        assert!(
            events.iter().any(
                |e| matches!(e, ModelEvent::ServerToolUse { id, name, input }
            if id == "srv_1" && name == "web_search" && input["query"] == "rust")
            ),
            "{events:?}"
        );
        assert!(
            events.iter().any(
                |e| matches!(e, ModelEvent::ServerToolResult { tool_use_id, content }
            if tool_use_id == "srv_1" && *content == results)
            ),
            "{events:?}"
        );
        assert!(!events.iter().any(|e| matches!(
            e,
            ModelEvent::ToolUseComplete { .. } | ModelEvent::ToolUseStarted { .. }
        )));
        let Some(ModelEvent::MessageComplete { message, .. }) = events.last() else {
            panic!("no message: {events:?}");
        };
        assert_eq!(message.content.len(), 3);
        assert!(
            matches!(&message.content[0], ContentBlock::ServerToolUse { id, .. } if id == "srv_1")
        );
        assert!(
            matches!(&message.content[1], ContentBlock::WebSearchToolResult { content, .. } if *content == results)
        );
        let wire = serde_json::to_value(&message.content).expect("serialised");
        assert_eq!(wire[0]["type"], "server_tool_use");
        assert_eq!(wire[1]["type"], "web_search_tool_result");
        assert_eq!(wire[1]["content"][0]["encrypted_content"], "xyz");
    }

    #[test]
    fn a_tool_call_cut_off_at_the_output_limit_is_invalid_and_recorded_empty() {
        let events = feed(&[
            (
                "message_start",
                serde_json::json!({"message": {"usage": {"input_tokens": 5}}}),
            ),
            (
                "content_block_start",
                serde_json::json!({"index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": "Write"}}),
            ),
            (
                "content_block_delta",
                serde_json::json!({"index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"file_path\": \"a.txt\", \"content\": \"lo"}}),
            ),
            (
                "message_delta",
                serde_json::json!({"delta": {"stop_reason": "max_tokens"}}),
            ),
            ("message_stop", serde_json::json!({})),
        ]);

        assert!(
            events
                .iter()
                .any(|e| matches!(e, ModelEvent::ToolUseInvalid { id, error, .. }
                if id == "t1" && error.contains("cut off"))),
            "{events:?}"
        );
        let Some(ModelEvent::MessageComplete { message, .. }) = events.last() else {
            panic!("no message: {events:?}");
        };
        assert!(
            matches!(&message.content[0], ContentBlock::ToolUse { input, .. } if *input == serde_json::json!({}))
        );
    }
}
