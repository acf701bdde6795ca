//! Renders a scripted turn as the exact SSE byte stream of the Anthropic Messages API.

use serde_json::{Value, json};

use super::{ScriptBlock, ScriptedTurn};

fn event(name: &str, data: Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// `text` in pieces of `size` characters.
pub(super) fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return vec![];
    }
    chars
        .chunks(size.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

/// The SSE events of `turn`, in order. `message_id` names the message.
pub fn render_events(turn: &ScriptedTurn, message_id: &str, model: &str) -> Vec<String> {
    let mut events = vec![event(
        "message_start",
        json!({"type": "message_start", "message": {"id": message_id, "type": "message", "role": "assistant",
            "model": model, "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": turn.input_tokens, "output_tokens": 1,
                "cache_read_input_tokens": turn.cache_read_input_tokens,
                "cache_creation_input_tokens": turn.cache_creation_input_tokens}}}),
    )];
    if turn.unknown_event {
        events.push(event(
            "future_event",
            json!({"type": "future_event", "detail": "clients ignore this"}),
        ));
    }
    for (index, block) in turn.blocks.iter().enumerate() {
        let (start, deltas): (Value, Vec<Value>) = match block {
            ScriptBlock::Text { text } => (
                json!({"type": "text", "text": ""}),
                pieces(text, turn.delta_chars)
                    .into_iter()
                    .map(|t| json!({"type": "text_delta", "text": t}))
                    .collect(),
            ),
            ScriptBlock::Thinking {
                thinking,
                signature,
            } => {
                let mut d: Vec<Value> = pieces(thinking, turn.delta_chars)
                    .into_iter()
                    .map(|t| json!({"type": "thinking_delta", "thinking": t}))
                    .collect();
                d.push(json!({"type": "signature_delta", "signature": signature}));
                (
                    json!({"type": "thinking", "thinking": "", "signature": ""}),
                    d,
                )
            }
            ScriptBlock::ToolUse { id, name, input } => (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                pieces(&input.to_string(), turn.delta_chars)
                    .into_iter()
                    .map(|p| json!({"type": "input_json_delta", "partial_json": p}))
                    .collect(),
            ),
            ScriptBlock::ServerToolUse { id, name, input } => (
                json!({"type": "server_tool_use", "id": id, "name": name, "input": {}}),
                pieces(&input.to_string(), turn.delta_chars)
                    .into_iter()
                    .map(|p| json!({"type": "input_json_delta", "partial_json": p}))
                    .collect(),
            ),
            ScriptBlock::WebSearchResult {
                tool_use_id,
                content,
            } => (
                json!({"type": "web_search_tool_result", "tool_use_id": tool_use_id, "content": content}),
                Vec::new(),
            ),
            ScriptBlock::RawToolUse {
                id,
                name,
                json: raw,
            } => (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                pieces(raw, turn.delta_chars)
                    .into_iter()
                    .map(|p| json!({"type": "input_json_delta", "partial_json": p}))
                    .collect(),
            ),
        };
        events.push(event(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": start}),
        ));
        for delta in deltas {
            events.push(event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index, "delta": delta}),
            ));
        }
        events.push(event(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ));
    }
    events.push(event(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": turn.effective_stop_reason(), "stop_sequence": null},
            "usage": {"output_tokens": turn.output_tokens}}),
    ));
    events.push(event("message_stop", json!({"type": "message_stop"})));

    if let Some(every) = turn.ping_every.filter(|n| *n > 0) {
        let mut with_pings = Vec::new();
        for (i, e) in events.into_iter().enumerate() {
            with_pings.push(e);
            if (i + 1) % every == 0 {
                with_pings.push(event("ping", json!({"type": "ping"})));
            }
        }
        events = with_pings;
    }
    if let Some((after, kind, message)) = &turn.error_after_events {
        events.truncate((*after).min(events.len()));
        events.push(event(
            "error",
            json!({"type": "error", "error": {"type": kind, "message": message}}),
        ));
    }
    events
}
