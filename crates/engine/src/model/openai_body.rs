//! The chat-completions request body, converted from the engine's Anthropic-shaped conversation.
//!
//! The conversion: the system prompt blocks become one `system` message; an assistant message becomes one assistant
//! message whose `content` is its text and whose `tool_calls` are its tool_use blocks (arguments as a JSON string);
//! thinking blocks are dropped (no chat-completions server takes them back). A user message becomes one `tool`
//! message per tool_result, in order (`tool_call_id`, the result's text; an error result is prefixed with
//! `Error: ` because the protocol has no error flag), then one user message with the rest of its content. Images
//! inside tool results cannot go in a `tool` message: the tool message says `[image]` where they were, and the images
//! follow as `image_url` data URLs in the user message after the tool messages, introduced by a line naming the
//! call. A server without vision rejects such a request; that is its answer to a picture it cannot see.

use bytes::Bytes;
use serde_json::{Value, json};

use super::fragments::{FragmentCache, push_array, push_json, to_json};
use super::{
    ContentBlock, ImageSource, Message, ModelRequest, ResultBlock, Role, ToolResultContent,
};

/// The JSON body of a streaming chat-completions request, its messages spliced from `cache`.
pub fn encode_chat_body(req: &ModelRequest, cache: &FragmentCache) -> Bytes {
    let messages = cache.fragments(&req.messages, chat_fragment);
    let system = (!req.system.is_empty())
        .then(|| to_json(&json!({"role": "system", "content": req.system.join("\n\n")})));
    let size: usize = messages.iter().map(|m| m.len() + 1).sum();
    let mut out = Vec::with_capacity(size + 64 * 1024);
    out.extend_from_slice(b"{\"model\":");
    push_json(&mut out, &req.model);
    out.extend_from_slice(b",\"max_tokens\":");
    push_json(&mut out, &req.max_tokens);
    out.extend_from_slice(
        b",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":",
    );
    push_array(
        &mut out,
        system
            .as_deref()
            .into_iter()
            .chain(messages.iter().map(|m| &m[..])),
    );
    if req.tools.iter().any(|t| t.server.is_none()) {
        out.extend_from_slice(b",\"tools\":");
        push_json(&mut out, &function_tools(req));
    }
    out.push(b'}');
    Bytes::from(out)
}

/// The chat messages one conversation message becomes, encoded and joined by commas (empty when it becomes none).
fn chat_fragment(message: &Message) -> Vec<u8> {
    let mut chat = Vec::new();
    match message.role {
        Role::Assistant => chat.push(assistant_message(message)),
        Role::User => user_messages(message, &mut chat),
    }
    let mut out = Vec::new();
    for (i, m) in chat.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_json(&mut out, m);
    }
    out
}

fn image_url(source: &ImageSource) -> Value {
    let ImageSource::Base64 { media_type, data } = source;
    json!({"type": "image_url", "image_url": {"url": format!("data:{media_type};base64,{data}")}})
}

fn assistant_message(message: &Message) -> Value {
    let mut text = String::new();
    let mut calls = Vec::new();
    for block in &message.content {
        match block {
            ContentBlock::Text { text: t } => text.push_str(t),
            ContentBlock::ToolUse { id, name, input } => calls.push(json!({
                "id": id, "type": "function",
                "function": {"name": name, "arguments": input.to_string()},
            })),
            _ => {}
        }
    }
    if calls.is_empty() {
        json!({"role": "assistant", "content": text})
    } else {
        let content = if text.is_empty() {
            Value::Null
        } else {
            Value::String(text)
        };
        json!({"role": "assistant", "content": content, "tool_calls": calls})
    }
}

/// Appends the tool messages and the user message that one Anthropic-shaped user message becomes.
fn user_messages(message: &Message, out: &mut Vec<Value>) {
    let mut parts: Vec<Value> = Vec::new();
    let mut result_images: Vec<Value> = Vec::new();
    for block in &message.content {
        match block {
            ContentBlock::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => {
                let text = content.as_text();
                let text = if *is_error {
                    format!("Error: {text}")
                } else {
                    text
                };
                out.push(json!({"role": "tool", "tool_call_id": tool_use_id, "content": text}));
                if let ToolResultContent::Blocks(blocks) = content {
                    let images: Vec<Value> = blocks
                        .iter()
                        .filter_map(|b| match b {
                            ResultBlock::Image { source } => Some(image_url(source)),
                            ResultBlock::Text { .. } => None,
                        })
                        .collect();
                    if !images.is_empty() {
                        result_images.push(json!({"type": "text",
                            "text": format!("The image(s) returned by tool call {tool_use_id}:")}));
                        result_images.extend(images);
                    }
                }
            }
            ContentBlock::Text { text } => parts.push(json!({"type": "text", "text": text})),
            ContentBlock::Image { source } => parts.push(image_url(source)),
            _ => {}
        }
    }
    result_images.extend(parts);
    if result_images.is_empty() {
        return;
    }
    // Plain text goes as a string: every server takes that; only images need the array form.
    let content = if result_images.iter().all(|p| p["type"] == "text") {
        Value::String(
            result_images
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n\n"),
        )
    } else {
        Value::Array(result_images)
    };
    out.push(json!({"role": "user", "content": content}));
}

/// The request's tools as OpenAI `function` tools (tools the provider would run itself are left out: this protocol
/// has none).
fn function_tools(req: &ModelRequest) -> Vec<Value> {
    req.tools
        .iter()
        .filter(|t| t.server.is_none())
        .map(|t| {
            json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.input_schema}})
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolSpec;
    use crate::model::fragments::varied_history;

    /// The body as it was built before it was spliced: one JSON value for the whole request.
    fn chat_request_body(req: &ModelRequest) -> Value {
        let mut messages = Vec::new();
        if !req.system.is_empty() {
            messages.push(json!({"role": "system", "content": req.system.join("\n\n")}));
        }
        for message in &req.messages {
            match message.role {
                Role::Assistant => messages.push(assistant_message(message)),
                Role::User => user_messages(message, &mut messages),
            }
        }
        let mut body = json!({
            "model": req.model,
            "max_tokens": req.max_tokens,
            "stream": true,
            "stream_options": {"include_usage": true},
            "messages": messages,
        });
        if req.tools.iter().any(|t| t.server.is_none()) {
            body["tools"] = Value::Array(function_tools(req));
        }
        body
    }

    fn request(messages: Vec<Message>) -> ModelRequest {
        ModelRequest {
            model: "qwen3".into(),
            max_tokens: 100,
            system: vec!["You help.".into(), "Be brief.".into()],
            messages,
            tools: vec![ToolSpec {
                name: "Read".into(),
                description: "Reads a file".into(),
                input_schema: json!({"type": "object"}),
                server: None,
                strict: false,
            }],
            thinking: None,
        }
    }

    #[test]
    fn converts_a_tool_round_trip() {
        let body = chat_request_body(&request(vec![
            Message::user_text("read a and b"),
            Message::new(
                Role::Assistant,
                vec![
                    ContentBlock::Thinking {
                        thinking: "hmm".into(),
                        signature: "sig".into(),
                    },
                    ContentBlock::Text {
                        text: "Reading.".into(),
                    },
                    ContentBlock::ToolUse {
                        id: "c1".into(),
                        name: "Read".into(),
                        input: json!({"file_path": "a"}),
                    },
                    ContentBlock::ToolUse {
                        id: "c2".into(),
                        name: "Read".into(),
                        input: json!({"file_path": "b"}),
                    },
                ],
            ),
            Message::new(
                Role::User,
                vec![
                    ContentBlock::ToolResult {
                        tool_use_id: "c1".into(),
                        content: ToolResultContent::Text("A".into()),
                        is_error: false,
                    },
                    ContentBlock::ToolResult {
                        tool_use_id: "c2".into(),
                        content: ToolResultContent::Blocks(vec![
                            ResultBlock::Text { text: "B".into() },
                            ResultBlock::Image {
                                source: ImageSource::Base64 {
                                    media_type: "image/png".into(),
                                    data: "AAAA".into(),
                                },
                            },
                        ]),
                        is_error: true,
                    },
                    ContentBlock::Text {
                        text: "and then?".into(),
                    },
                ],
            ),
        ]));
        assert_eq!(body["stream"], true);
        assert_eq!(body["stream_options"]["include_usage"], true);
        assert_eq!(body["tools"][0]["type"], "function");
        assert_eq!(body["tools"][0]["function"]["name"], "Read");
        assert_eq!(body["tools"][0]["function"]["parameters"]["type"], "object");
        let m = body["messages"].as_array().expect("messages");
        assert_eq!(
            m[0],
            json!({"role": "system", "content": "You help.\n\nBe brief."})
        );
        assert_eq!(m[1], json!({"role": "user", "content": "read a and b"}));
        assert_eq!(m[2]["content"], "Reading.");
        assert_eq!(m[2]["tool_calls"][1]["id"], "c2");
        assert_eq!(
            m[2]["tool_calls"][0]["function"]["arguments"],
            "{\"file_path\":\"a\"}"
        );
        assert_eq!(
            m[3],
            json!({"role": "tool", "tool_call_id": "c1", "content": "A"})
        );
        assert_eq!(m[4]["tool_call_id"], "c2");
        assert_eq!(m[4]["content"], "Error: B\n[image]");
        assert_eq!(m[5]["role"], "user");
        let parts = m[5]["content"].as_array().expect("parts");
        assert!(parts[0]["text"].as_str().expect("text").contains("c2"));
        assert_eq!(parts[1]["image_url"]["url"], "data:image/png;base64,AAAA");
        assert_eq!(parts[2], json!({"type": "text", "text": "and then?"}));
        assert_eq!(m.len(), 6);
    }

    #[test]
    fn an_assistant_message_without_calls_has_text_content() {
        let body = chat_request_body(&request(vec![
            Message::user_text("hi"),
            Message::new(
                Role::Assistant,
                vec![ContentBlock::Text {
                    text: "hello".into(),
                }],
            ),
        ]));
        assert_eq!(
            body["messages"][2],
            json!({"role": "assistant", "content": "hello"})
        );
    }

    #[test]
    fn the_spliced_body_is_byte_for_byte_the_whole_encoding() {
        let history = varied_history();
        let cache = FragmentCache::default();
        let mut requests: Vec<ModelRequest> = (0..=history.len())
            .map(|n| {
                let mut req = request(history[..n].to_vec());
                if n % 2 == 1 {
                    req.tools.clear();
                }
                if n % 3 == 0 {
                    req.system.clear();
                }
                req
            })
            .collect();
        requests.push(request(vec![Message::user_text("is this safe?")]));
        requests.push(requests[history.len()].clone());
        for req in &requests {
            let want = serde_json::to_vec(&chat_request_body(req)).expect("json");
            let got = encode_chat_body(req, &cache);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want),
                "{} messages",
                req.messages.len()
            );
        }
    }
}
