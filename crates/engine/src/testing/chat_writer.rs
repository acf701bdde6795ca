//! Renders a scripted turn as the SSE byte stream of an OpenAI-compatible chat-completions server, with the tool
//! call quirks of [`ChatQuirks`](super::ChatQuirks).

use serde_json::{Value, json};

use super::sse_writer::pieces;
use super::{ScriptBlock, ScriptedTurn};

fn data(v: &Value) -> String {
    format!("data: {v}\n\n")
}

/// The SSE events of `turn` as chat-completion chunks, in order, ending with `data: [DONE]`. The usage chunk is sent
/// only when the request asked for it (`include_usage`).
pub fn render_chat_events(
    turn: &ScriptedTurn,
    id: &str,
    model: &str,
    include_usage: bool,
) -> Vec<String> {
    let chunk = |delta: Value, finish: Value| {
        data(
            &json!({"id": id, "object": "chat.completion.chunk", "created": 1_700_000_000, "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
        )
    };
    let mut events = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    if turn.unknown_event {
        events.push(data(
            &json!({"id": id, "object": "chat.completion.chunk", "choices": [],
            "x_future_field": {"detail": "clients ignore this"}}),
        ));
    }
    let q = &turn.openai;
    let mut call_index = 0usize;
    for block in &turn.blocks {
        match block {
            ScriptBlock::Text { text } => {
                for p in pieces(text, turn.delta_chars) {
                    events.push(chunk(json!({"content": p}), Value::Null));
                }
            }
            ScriptBlock::Thinking { thinking, .. } => {
                for p in pieces(thinking, turn.delta_chars) {
                    events.push(chunk(json!({"reasoning_content": p}), Value::Null));
                }
            }
            // This protocol has no tools run by the provider.
            ScriptBlock::ServerToolUse { .. } | ScriptBlock::WebSearchResult { .. } => {}
            ScriptBlock::ToolUse { .. } | ScriptBlock::RawToolUse { .. } => {
                let (call_id, name, arguments) = match block {
                    ScriptBlock::ToolUse { id, name, input } => (id, name, input.to_string()),
                    ScriptBlock::RawToolUse { id, name, json } => (id, name, json.clone()),
                    _ => continue,
                };
                let with_index = |mut fragment: Value| {
                    if !q.no_index {
                        fragment["index"] = json!(if q.index_zero { 0 } else { call_index });
                    }
                    chunk(json!({"tool_calls": [fragment]}), Value::Null)
                };
                if q.whole_calls {
                    events.push(with_index(json!({"id": call_id, "type": "function",
                        "function": {"name": name, "arguments": arguments}})));
                } else {
                    events.push(with_index(json!({"id": call_id, "type": "function",
                        "function": {"name": name, "arguments": ""}})));
                    for p in pieces(&arguments, turn.delta_chars) {
                        events.push(with_index(json!({"function": {"arguments": p}})));
                    }
                }
                call_index += 1;
            }
        }
    }
    if !q.no_finish_reason {
        events.push(chunk(json!({}), json!(turn.chat_finish_reason())));
    }
    if include_usage {
        events.push(data(&json!({"id": id, "object": "chat.completion.chunk", "created": 1_700_000_000,
            "model": model, "choices": [], "usage": {"prompt_tokens": turn.input_tokens,
            "completion_tokens": turn.output_tokens, "total_tokens": turn.input_tokens + turn.output_tokens}})));
    }
    events.push("data: [DONE]\n\n".to_string());

    if let Some(every) = turn.ping_every.filter(|n| *n > 0) {
        let mut with_pings = Vec::new();
        for (i, e) in events.into_iter().enumerate() {
            with_pings.push(e);
            if (i + 1) % every == 0 {
                with_pings.push(": keep-alive\n\n".to_string());
            }
        }
        events = with_pings;
    }
    if let Some((after, kind, message)) = &turn.error_after_events {
        events.truncate((*after).min(events.len()));
        events.push(data(&json!({"error": {"message": message, "type": kind}})));
    }
    events
}
