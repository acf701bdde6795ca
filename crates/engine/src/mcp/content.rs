//! Turns what an MCP server answers (a `tools/call` or `resources/read` result, in the protocol's types) into the
//! content blocks the model is given: text as text, images as images, embedded resources as their text (a binary
//! resource is named, not inlined, unless its type is text and its bytes UTF-8; an image resource is shown), audio
//! and resource links as a line saying what they are.

use rmcp::model::{CallToolResult, ContentBlock as McpContent, ResourceContents};
use serde_json::Value;

use crate::model::{ImageSource, ResultBlock, ToolResultContent};

/// The image types the model accepts.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// A tool result, converted.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    pub content: ToolResultContent,
    /// The server set `isError`.
    pub is_error: bool,
    /// `structuredContent`, when sent.
    pub structured: Option<Value>,
    /// `_meta`, when sent (and not empty).
    pub meta: Option<Value>,
}

fn image(media_type: &str, data: &str) -> ResultBlock {
    ResultBlock::Image {
        source: ImageSource::Base64 {
            media_type: media_type.to_string(),
            data: data.to_string(),
        },
    }
}

/// The text of a binary resource whose type is text (`text/*`, JSON, XML) and whose bytes are UTF-8.
fn textual_blob(mime: &str, blob: &str) -> Option<String> {
    use base64::Engine;
    let textual = mime.starts_with("text/")
        || mime == "application/json"
        || mime == "application/xml"
        || mime.ends_with("+json")
        || mime.ends_with("+xml");
    if !textual {
        return None;
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(blob.trim())
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// One resource's contents (text or a base64 blob) as a block.
pub fn resource_block(resource: &ResourceContents) -> ResultBlock {
    match resource {
        ResourceContents::TextResourceContents { uri, text, .. } => ResultBlock::Text {
            text: if uri.is_empty() {
                text.clone()
            } else {
                format!("[Resource {uri}]\n{text}")
            },
        },
        ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob,
            ..
        } => {
            let mime = mime_type.as_deref().unwrap_or("");
            if IMAGE_TYPES.contains(&mime) {
                return image(mime, blob);
            }
            if let Some(text) = textual_blob(mime, blob) {
                return ResultBlock::Text {
                    text: format!("[Resource {uri}]\n{text}"),
                };
            }
            ResultBlock::Text {
                text: format!(
                    "[Binary resource {uri} ({}, {} bytes base64) not shown]",
                    if mime.is_empty() { "no type" } else { mime },
                    blob.len()
                ),
            }
        }
        // A kind of contents newer than this client knows.
        _ => ResultBlock::Text {
            text: "[Resource contents of an unknown kind not shown]".into(),
        },
    }
}

/// One content block of a result or a prompt message.
pub fn content_block(item: &McpContent) -> ResultBlock {
    let text = |t: String| ResultBlock::Text { text: t };
    match item {
        McpContent::Text(t) => text(t.text.clone()),
        McpContent::Image(i) if IMAGE_TYPES.contains(&i.mime_type.as_str()) => {
            image(&i.mime_type, &i.data)
        }
        McpContent::Image(i) => text(format!("[Image of type {} not shown]", i.mime_type)),
        McpContent::Audio(a) => text(format!("[Audio ({}) not shown]", a.mime_type)),
        McpContent::Resource(r) => resource_block(&r.resource),
        McpContent::ResourceLink(link) => text(format!(
            "[Resource link: {}{}]",
            link.uri,
            if link.name.is_empty() {
                String::new()
            } else {
                format!(" ({})", link.name)
            }
        )),
        // A kind of content newer than this client knows.
        _ => text("[Content of an unknown type not shown]".into()),
    }
}

/// Collapses blocks to plain text when there is no image (the common case, and cheaper to store).
pub fn simplify(blocks: Vec<ResultBlock>) -> ToolResultContent {
    if blocks.iter().all(|b| matches!(b, ResultBlock::Text { .. })) {
        let texts: Vec<String> = blocks
            .into_iter()
            .filter_map(|b| match b {
                ResultBlock::Text { text } => Some(text),
                ResultBlock::Image { .. } => None,
            })
            .collect();
        ToolResultContent::Text(texts.join("\n"))
    } else {
        ToolResultContent::Blocks(blocks)
    }
}

/// Converts a `tools/call` result.
pub fn convert_call_result(result: &CallToolResult) -> Converted {
    let blocks: Vec<ResultBlock> = result.content.iter().map(content_block).collect();
    let structured = result
        .structured_content
        .as_ref()
        .filter(|v| !v.is_null())
        .cloned();
    let mut content = simplify(blocks);
    // A result with only structured content still gives the model something to read.
    if content.len_chars() == 0
        && let Some(s) = &structured
    {
        content = ToolResultContent::Text(s.to_string());
    }
    let meta = result
        .meta
        .as_ref()
        .and_then(|m| serde_json::to_value(m).ok())
        .filter(|v| v.as_object().is_some_and(|o| !o.is_empty()));
    Converted {
        content,
        is_error: result.is_error == Some(true),
        structured,
        meta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A `tools/call` result as a server sends it on the wire.
    fn wire(result: Value) -> CallToolResult {
        serde_json::from_value(result).expect("a tools/call result")
    }

    #[test]
    fn text_images_and_resources_become_blocks() {
        let converted = convert_call_result(&wire(json!({
            "content": [
                {"type": "text", "text": "hello"},
                {"type": "image", "data": "AAAA", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "inside"}},
                {"type": "resource", "resource": {"uri": "file:///b.bin", "blob": "AAAA", "mimeType": "application/zip"}},
                {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
                {"type": "resource_link", "uri": "file:///c", "name": "c"}
            ],
            "structuredContent": {"n": 1}
        })));
        assert!(!converted.is_error);
        assert_eq!(converted.structured, Some(json!({"n": 1})));
        let ToolResultContent::Blocks(blocks) = converted.content else {
            panic!("an image keeps blocks");
        };
        assert_eq!(blocks.len(), 6);
        assert_eq!(
            blocks[0],
            ResultBlock::Text {
                text: "hello".into()
            }
        );
        assert!(
            matches!(&blocks[1], ResultBlock::Image { source: ImageSource::Base64 { media_type, .. } } if media_type == "image/png")
        );
        assert_eq!(
            blocks[2],
            ResultBlock::Text {
                text: "[Resource file:///a.txt]\ninside".into()
            }
        );
        let rest: Vec<String> = blocks[3..]
            .iter()
            .map(|b| match b {
                ResultBlock::Text { text } => text.clone(),
                ResultBlock::Image { .. } => "image".into(),
            })
            .collect();
        assert!(rest[0].contains("file:///b.bin") && rest[0].contains("not shown"));
        assert!(rest[1].contains("audio/wav"));
        assert!(rest[2].contains("file:///c (c)"));
    }

    #[test]
    fn errors_and_structured_only_results() {
        let err = convert_call_result(&wire(
            json!({"content": [{"type": "text", "text": "boom"}], "isError": true}),
        ));
        assert!(err.is_error);
        assert_eq!(err.content, ToolResultContent::Text("boom".into()));
        let only = convert_call_result(&wire(
            json!({"content": [], "structuredContent": {"a": [1]}}),
        ));
        assert_eq!(only.content, ToolResultContent::Text("{\"a\":[1]}".into()));
    }
}
