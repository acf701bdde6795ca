//! The fake server's OpenAI-compatible mode: `POST /v1/chat/completions` streams the same scripted turns as
//! chat-completion chunks. It checks the bearer token and that every assistant tool call is answered by a `tool`
//! message before the next assistant or user message.

use std::collections::HashSet;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::chat_writer::render_chat_events;
use super::server_core::{
    Shared, header_list, raw_response, stream_response, take_reply, with_retry_headers,
};
use super::{ScriptedReply, ScriptedTurn};

/// An error response with an OpenAI-style body.
fn chat_error(status: u16, error_type: &str, message: &str) -> Response {
    let body =
        json!({"error": {"message": message, "type": error_type, "param": null, "code": null}});
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn role(message: &Value) -> &str {
    message
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Checks a chat-completions body: streaming, known roles, tool calls with string arguments, and every tool call
/// answered by exactly one `tool` message right after its assistant message (no `tool` message without a call).
pub fn validate_chat_body(body: &Value) -> Result<(), String> {
    if body.get("stream") != Some(&Value::Bool(true)) {
        return Err("this fake server only streams: stream must be true".into());
    }
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("messages: field required")?;
    if messages.is_empty() {
        return Err("messages: at least one message is required".into());
    }
    let mut i = 0;
    while i < messages.len() {
        let message = &messages[i];
        match role(message) {
            "system" | "user" => {}
            "tool" => {
                return Err(format!(
                    "messages.{i}: messages with role 'tool' must be a response to a preceding message with \
                     'tool_calls'"
                ));
            }
            "assistant" => {
                let calls = message
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let mut ids = Vec::new();
                for call in &calls {
                    let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
                    if id.is_empty()
                        || call
                            .pointer("/function/name")
                            .and_then(Value::as_str)
                            .is_none()
                    {
                        return Err(format!(
                            "messages.{i}.tool_calls: each call needs an id and a function name"
                        ));
                    }
                    if !call
                        .pointer("/function/arguments")
                        .is_some_and(Value::is_string)
                    {
                        return Err(format!(
                            "messages.{i}.tool_calls: function.arguments must be a string"
                        ));
                    }
                    ids.push(id);
                }
                let mut answered = Vec::new();
                while let Some(next) = messages.get(i + 1).filter(|m| role(m) == "tool") {
                    answered.push(
                        next.get("tool_call_id")
                            .and_then(Value::as_str)
                            .unwrap_or_default(),
                    );
                    i += 1;
                }
                let expected: HashSet<&str> = ids.iter().copied().collect();
                let got: HashSet<&str> = answered.iter().copied().collect();
                if expected != got || answered.len() != ids.len() {
                    return Err(format!(
                        "messages.{}: an assistant message with 'tool_calls' must be followed by one tool message \
                         per tool_call_id (expected {ids:?}, found {answered:?})",
                        i + 1
                    ));
                }
            }
            other => return Err(format!("messages.{i}: unknown role {other:?}")),
        }
        i += 1;
    }
    Ok(())
}

/// The handler of `POST /v1/chat/completions`.
pub(super) async fn chat_completions(
    State(inner): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let received = std::time::SystemTime::now();
    let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .filter(|k| !k.trim().is_empty());
    let rejected = if bearer.is_none() {
        let message = "You didn't provide an API key (Authorization: Bearer ...)";
        Some((
            chat_error(401, "invalid_request_error", message),
            message.to_string(),
        ))
    } else if parsed.is_null() {
        Some((
            chat_error(400, "invalid_request_error", "the body is not JSON"),
            "the body is not JSON".into(),
        ))
    } else {
        validate_chat_body(&parsed)
            .err()
            .map(|m| (chat_error(400, "invalid_request_error", &m), m))
    };
    let (reply, served) = match take_reply(
        &inner,
        "/v1/chat/completions",
        received,
        header_list(&headers),
        &parsed,
        rejected,
    ) {
        Ok(taken) => taken,
        Err(response) => return *response,
    };
    let model = parsed
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("fake-model")
        .to_string();
    let include_usage = parsed.pointer("/stream_options/include_usage") == Some(&Value::Bool(true));
    let turn = match reply {
        Some(ScriptedReply::Error {
            status,
            error_type,
            message,
            retry_after,
            retry_after_ms,
            should_retry,
        }) => {
            return with_retry_headers(
                chat_error(status, &error_type, &message),
                retry_after,
                retry_after_ms,
                should_retry,
            );
        }
        Some(ScriptedReply::Raw {
            status,
            content_type,
            content_encoding,
            body,
        }) => return raw_response(status, &content_type, content_encoding.as_deref(), body),
        Some(ScriptedReply::Stream(turn)) => turn,
        None => ScriptedTurn::text("(the fake model has no more scripted replies)"),
    };
    let events = render_chat_events(
        &turn,
        &format!("chatcmpl-fake-{served}"),
        &model,
        include_usage,
    );
    stream_response(events, &turn, (inner.clone(), served)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str) -> Value {
        json!({"id": id, "type": "function", "function": {"name": "Read", "arguments": "{}"}})
    }

    #[test]
    fn every_tool_call_needs_its_tool_message() {
        let ok = json!({"stream": true, "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": null, "tool_calls": [call("a"), call("b")]},
            {"role": "tool", "tool_call_id": "b", "content": "B"},
            {"role": "tool", "tool_call_id": "a", "content": "A"},
            {"role": "user", "content": "more"}]});
        assert_eq!(validate_chat_body(&ok), Ok(()));
        let missing = json!({"stream": true, "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": null, "tool_calls": [call("a"), call("b")]},
            {"role": "tool", "tool_call_id": "a", "content": "A"},
            {"role": "user", "content": "more"}]});
        assert!(validate_chat_body(&missing).is_err());
        let orphan = json!({"stream": true, "messages": [
            {"role": "user", "content": "hi"},
            {"role": "tool", "tool_call_id": "a", "content": "A"}]});
        assert!(validate_chat_body(&orphan).is_err());
    }
}
