//! Folds chat-completions stream chunks (`data: {chunk}` … `data: [DONE]`) into [`ModelEvent`]s and the finished
//! assistant [`Message`].
//!
//! Tool calls arrive as `choices[0].delta.tool_calls[]` fragments. A fragment with an `id` not seen before starts a
//! call (this also separates parallel calls that a server sends all with `index: 0`); a fragment without an id
//! continues the call its `index` names, or, without an index, the call that started last. A call is complete when
//! the next call starts, when the choice has a `finish_reason`, or at `[DONE]`; only then is its input parsed and
//! [`ModelEvent::ToolUseComplete`] yielded. Reasoning text (`reasoning_content` / `reasoning`, as llama.cpp, vLLM
//! and Ollama send it) is streamed as thinking but kept out of the message: it has no signature to send back.

use std::collections::HashMap;

use serde_json::Value;
use tandem_protocol::Usage;

use super::sse::SseEvent;
use super::transport::Assembler;
use super::{ContentBlock, Message, ModelError, ModelEvent, Role, StopReason};

/// A tool call being streamed.
#[derive(Debug)]
struct Call {
    id: String,
    name: String,
    arguments: String,
    announced: bool,
    input: Option<Value>,
}

/// Assembler state for one chat-completions response.
#[derive(Debug, Default)]
pub struct ChatStreamAssembler {
    text: String,
    calls: Vec<Call>,
    /// The call each `index` refers to now.
    by_index: HashMap<u64, usize>,
    finish_reason: Option<String>,
    usage: Usage,
    started: bool,
    finished: bool,
}

fn parse_usage(v: &Value, usage: &mut Usage) {
    let get = |k: &str| v.get(k).and_then(Value::as_u64);
    let cached = v
        .pointer("/prompt_tokens_details/cached_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if let Some(n) = get("prompt_tokens") {
        usage.input_tokens = n.saturating_sub(cached);
        usage.cache_read_input_tokens = cached;
    }
    if let Some(n) = get("completion_tokens") {
        usage.output_tokens = n;
    }
}

/// `arguments` as text: a string as is; an object (some servers send one) as its JSON.
fn arguments_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

impl ChatStreamAssembler {
    /// Handles the `data` of one SSE event.
    pub fn handle_data(&mut self, data: &str) -> Result<Vec<ModelEvent>, ModelError> {
        let data = data.trim();
        if data.is_empty() {
            return Ok(vec![]);
        }
        if data == "[DONE]" {
            return self.finish();
        }
        let chunk: Value = serde_json::from_str(data)
            .map_err(|e| ModelError::Protocol(format!("a chunk carried invalid JSON: {e}")))?;
        if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
            let kind = error
                .get("type")
                .or_else(|| error.get("code"))
                .and_then(Value::as_str)
                .unwrap_or("error")
                .to_string();
            let message = error
                .as_str()
                .or_else(|| error.get("message").and_then(Value::as_str))
                .unwrap_or_default()
                .to_string();
            return Err(ModelError::Stream { kind, message });
        }
        self.started = true;
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            parse_usage(usage, &mut self.usage);
        }
        let mut out = Vec::new();
        let Some(choice) = chunk.pointer("/choices/0") else {
            return Ok(out);
        };
        if let Some(delta) = choice.get("delta") {
            for key in ["reasoning_content", "reasoning"] {
                if let Some(t) = delta
                    .get(key)
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                {
                    out.push(ModelEvent::ThinkingDelta(t.to_string()));
                }
            }
            if let Some(t) = delta
                .get("content")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
            {
                self.text.push_str(t);
                out.push(ModelEvent::TextDelta(t.to_string()));
            }
            if let Some(fragments) = delta.get("tool_calls").and_then(Value::as_array) {
                for fragment in fragments {
                    self.fragment(fragment, &mut out)?;
                }
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_string());
            self.complete_calls(self.calls.len(), &mut out)?;
        }
        Ok(out)
    }

    /// Adds one tool-call fragment.
    fn fragment(&mut self, f: &Value, out: &mut Vec<ModelEvent>) -> Result<(), ModelError> {
        let id = f
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let index = f.get("index").and_then(Value::as_u64);
        let name = f
            .pointer("/function/name")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let known = id.and_then(|id| self.calls.iter().position(|c| c.id == id));
        let mapped = index.and_then(|i| self.by_index.get(&i).copied());
        // A known id names its call; a new id starts one (also at a reused index); without an id the index
        // names the call, or starts one when it is new and carries a name; without either, the last call.
        let position = if let Some(at) = known {
            at
        } else if id.is_some() || (mapped.is_none() && index.is_some() && name.is_some()) {
            self.complete_calls(self.calls.len(), out)?;
            let id = id.map_or_else(|| format!("call_{}", self.calls.len()), str::to_string);
            self.calls.push(Call {
                id,
                name: String::new(),
                arguments: String::new(),
                announced: false,
                input: None,
            });
            self.calls.len() - 1
        } else if let Some(at) = mapped {
            at
        } else if !self.calls.is_empty() {
            self.calls.len() - 1
        } else {
            return Err(ModelError::Protocol(
                "a tool call fragment came before any tool call started".into(),
            ));
        };
        if let Some(i) = index {
            self.by_index.insert(i, position);
        }
        let call = &mut self.calls[position];
        if call.input.is_some() {
            return Err(ModelError::Protocol(format!(
                "tool call {} continued after it was complete",
                call.id
            )));
        }
        if call.name.is_empty()
            && let Some(name) = name
        {
            call.name = name.to_string();
        }
        call.arguments
            .push_str(&arguments_text(f.pointer("/function/arguments")));
        if !call.announced && !call.name.is_empty() {
            call.announced = true;
            out.push(ModelEvent::ToolUseStarted {
                id: call.id.clone(),
                name: call.name.clone(),
            });
        }
        Ok(())
    }

    /// Completes every open call before position `end`.
    fn complete_calls(&mut self, end: usize, out: &mut Vec<ModelEvent>) -> Result<(), ModelError> {
        for call in self.calls[..end].iter_mut().filter(|c| c.input.is_none()) {
            if call.name.is_empty() {
                return Err(ModelError::Protocol(format!(
                    "tool call {} has no function name",
                    call.id
                )));
            }
            let parsed = if call.arguments.trim().is_empty() {
                Ok(Value::Object(Default::default()))
            } else {
                serde_json::from_str::<Value>(&call.arguments)
            };
            match parsed {
                Ok(input) if input.is_object() => {
                    call.input = Some(input.clone());
                    out.push(ModelEvent::ToolUseComplete {
                        id: call.id.clone(),
                        name: call.name.clone(),
                        input,
                    });
                }
                other => {
                    let why = match other {
                        Err(e) => e.to_string(),
                        Ok(_) => "it is not a JSON object".to_string(),
                    };
                    call.input = Some(Value::Object(Default::default()));
                    out.push(ModelEvent::ToolUseInvalid {
                        id: call.id.clone(),
                        name: call.name.clone(),
                        error: format!(
                            "the input of this {} call is not valid JSON ({why})",
                            call.name
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// Ends the message: completes open calls and yields [`ModelEvent::MessageComplete`].
    fn finish(&mut self) -> Result<Vec<ModelEvent>, ModelError> {
        if !self.started {
            return Err(ModelError::Protocol(
                "the stream ended before any chunk arrived".into(),
            ));
        }
        let mut out = Vec::new();
        self.complete_calls(self.calls.len(), &mut out)?;
        self.finished = true;
        let has_calls = !self.calls.is_empty();
        let stop_reason = match self.finish_reason.as_deref() {
            Some("length") => StopReason::MaxTokens,
            Some("content_filter") => StopReason::Refusal,
            // Some servers say `stop` after tool calls; the calls decide.
            _ if has_calls => StopReason::ToolUse,
            _ => StopReason::EndTurn,
        };
        let mut content = Vec::new();
        if !self.text.is_empty() {
            content.push(ContentBlock::Text {
                text: std::mem::take(&mut self.text),
            });
        }
        for call in std::mem::take(&mut self.calls) {
            content.push(ContentBlock::ToolUse {
                id: call.id,
                name: call.name,
                input: call.input.unwrap_or(Value::Object(Default::default())),
            });
        }
        out.push(ModelEvent::MessageComplete {
            message: Message::new(Role::Assistant, content),
            stop_reason,
            usage: self.usage,
        });
        Ok(out)
    }
}

impl Assembler for ChatStreamAssembler {
    fn handle(&mut self, event: &SseEvent) -> Result<Vec<ModelEvent>, ModelError> {
        self.handle_data(&event.data)
    }

    fn is_finished(&self) -> bool {
        self.finished
    }

    /// The body ended without `[DONE]`: complete when the choice had finished (some servers leave `[DONE]` out),
    /// else the message was cut off.
    fn end(&mut self) -> Result<Vec<ModelEvent>, ModelError> {
        if self.finish_reason.is_some() {
            self.finish()
        } else {
            Err(ModelError::Connection(
                "the stream ended before the message was complete".into(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(chunks: &[Value]) -> Result<Vec<ModelEvent>, ModelError> {
        let mut a = ChatStreamAssembler::default();
        let mut out = Vec::new();
        for c in chunks {
            out.extend(a.handle_data(&c.to_string())?);
        }
        out.extend(a.handle_data("[DONE]")?);
        Ok(out)
    }

    fn delta(d: Value) -> Value {
        json!({"choices": [{"index": 0, "delta": d, "finish_reason": null}]})
    }

    fn completed(events: &[ModelEvent]) -> Vec<(String, Value)> {
        events
            .iter()
            .filter_map(|e| match e {
                ModelEvent::ToolUseComplete { id, input, .. } => Some((id.clone(), input.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_call_completes_when_the_next_one_starts() {
        let mut a = ChatStreamAssembler::default();
        let first = a
            .handle_data(
                &delta(json!({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "Read", "arguments": "{\"x\""}}]}))
                    .to_string(),
            )
            .expect("ok");
        assert_eq!(first.len(), 1, "{first:?}");
        let more = a
            .handle_data(
                &delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": ":1}"}}]}))
                    .to_string(),
            )
            .expect("ok");
        assert!(more.is_empty());
        let second = a
            .handle_data(
                &delta(json!({"tool_calls": [{"index": 1, "id": "b", "function": {"name": "Read", "arguments": ""}}]}))
                    .to_string(),
            )
            .expect("ok");
        assert_eq!(completed(&second), vec![("a".to_string(), json!({"x": 1}))]);
    }

    #[test]
    fn parallel_calls_at_index_zero_are_told_apart_by_id() {
        let events = run(&[
            delta(json!({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "Read", "arguments": "{\"n\":"}}]})),
            delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": "1}"}}]})),
            delta(json!({"tool_calls": [{"index": 0, "id": "b", "function": {"name": "Glob", "arguments": ""}}]})),
            delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"n\":2}"}}]})),
        ])
        .expect("ok");
        assert_eq!(
            completed(&events),
            vec![("a".into(), json!({"n": 1})), ("b".into(), json!({"n": 2}))]
        );
        let Some(ModelEvent::MessageComplete {
            stop_reason,
            message,
            ..
        }) = events.last()
        else {
            panic!("no message")
        };
        assert_eq!(*stop_reason, StopReason::ToolUse);
        assert_eq!(message.tool_uses().count(), 2);
    }

    #[test]
    fn fragments_without_index_continue_the_last_call() {
        let events = run(&[
            delta(json!({"tool_calls": [{"id": "a", "function": {"name": "Read", "arguments": "{\"n\""}}]})),
            delta(json!({"tool_calls": [{"function": {"arguments": ":1}"}}]})),
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        ])
        .expect("ok");
        assert_eq!(completed(&events), vec![("a".into(), json!({"n": 1}))]);
    }

    #[test]
    fn empty_arguments_are_an_empty_object_and_bad_json_is_an_invalid_call() {
        let events = run(&[delta(
            json!({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "Todo"}}]}),
        )])
        .expect("ok");
        assert_eq!(completed(&events), vec![("a".into(), json!({}))]);
        let events = run(&[delta(
            json!({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "Read", "arguments": "{"}}]}),
        )])
        .expect("a bad input ends the call, not the stream");
        assert!(completed(&events).is_empty());
        assert!(
            events
                .iter()
                .any(|e| matches!(e, ModelEvent::ToolUseInvalid { id, error, .. }
                if id == "a" && error.contains("not valid JSON"))),
            "{events:?}"
        );
    }

    #[test]
    fn usage_and_finish_reasons() {
        let events = run(&[
            delta(json!({"content": "hi"})),
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}),
            json!({"choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 5,
                "prompt_tokens_details": {"cached_tokens": 20}}}),
        ])
        .expect("ok");
        let Some(ModelEvent::MessageComplete {
            stop_reason, usage, ..
        }) = events.last()
        else {
            panic!("no message")
        };
        assert_eq!(*stop_reason, StopReason::MaxTokens);
        assert_eq!(
            (
                usage.input_tokens,
                usage.cache_read_input_tokens,
                usage.output_tokens
            ),
            (10, 20, 5)
        );
    }

    #[test]
    fn an_error_chunk_is_a_stream_error() {
        let err = run(&[json!({"error": {"message": "boom", "type": "server_error"}})])
            .expect_err("error");
        assert!(
            matches!(err, ModelError::Stream { ref kind, .. } if kind == "server_error"),
            "{err}"
        );
    }
}
