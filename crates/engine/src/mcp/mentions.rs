//! `@server:uri` mentions in the person's prompt: found only for configured server names, each resource read
//! with `resources/read` and attached to the prompt as content blocks (text, images; other binary content named),
//! each capped in size. A mention that cannot be read is reported, and the prompt still goes.

use rmcp::model::ResourceContents;
use tandem_protocol::McpServerState;

use super::content::resource_block;
use super::limits::REQUEST_TIMEOUT;
use super::manager::McpManager;
use super::prompts::to_content;
use crate::model::{ContentBlock, ImageSource};

/// The largest image (base64 characters) attached from a mention; a larger one is named instead.
const MAX_IMAGE_BASE64: usize = 5 * 1024 * 1024;

/// One `@server:uri` in a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub server: String,
    pub uri: String,
}

impl std::fmt::Display for Mention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "@{}:{}", self.server, self.uri)
    }
}

/// The mentions of `servers` in `text`, in order, each once: `@name:uri` at the start or after a space or an
/// opening bracket, the URI running to the next space (trailing punctuation left out).
pub fn find_mentions(text: &str, servers: &[String]) -> Vec<Mention> {
    let mut found: Vec<Mention> = Vec::new();
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        let starts = c == '@' && (previous.is_whitespace() || matches!(previous, '(' | '[' | '"'));
        previous = c;
        if !starts {
            continue;
        }
        let rest = &text[at + 1..];
        let Some((server, after)) = rest.split_once(':') else {
            continue;
        };
        if !servers.iter().any(|s| s == server) {
            continue;
        }
        let end = after.find(char::is_whitespace).unwrap_or(after.len());
        let uri = after[..end].trim_end_matches(['.', ',', ';', '!', '?', ')', ']', '"', '\'']);
        if uri.is_empty() {
            continue;
        }
        let mention = Mention {
            server: server.to_string(),
            uri: uri.to_string(),
        };
        if !found.contains(&mention) {
            found.push(mention);
        }
    }
    found
}

/// What the mentions of a prompt gave: blocks to attach and problems to tell the person about.
#[derive(Debug, Default)]
pub struct Attached {
    pub blocks: Vec<ContentBlock>,
    pub problems: Vec<String>,
}

/// Reads every mention's resource (waiting for a server still connecting, up to its start-up time) and returns
/// the blocks to attach; `max_chars` caps each text.
pub async fn attach(manager: &McpManager, mentions: &[Mention], max_chars: usize) -> Attached {
    let mut attached = Attached::default();
    for mention in mentions {
        match read(manager, mention).await {
            Ok(contents) => {
                attached.blocks.push(ContentBlock::Text {
                    text: format!("[Attached {mention}]"),
                });
                if contents.is_empty() {
                    attached.blocks.push(ContentBlock::Text {
                        text: "(the resource is empty)".into(),
                    });
                }
                for item in &contents {
                    attached.blocks.push(capped(item, max_chars));
                }
            }
            Err(problem) => attached
                .problems
                .push(format!("{mention} was not attached: {problem}")),
        }
    }
    attached
}

async fn read(manager: &McpManager, mention: &Mention) -> Result<Vec<ResourceContents>, String> {
    let state = manager
        .settle(&mention.server, manager.limits().startup)
        .await;
    let link = manager
        .link(&mention.server)
        .ok_or_else(|| format!("no MCP server is called `{}`", mention.server))?;
    let connection = link
        .connection()
        .ok_or_else(|| not_connected(&mention.server, state.as_ref()))?;
    let result = connection
        .read_resource(&mention.uri, REQUEST_TIMEOUT)
        .await
        .map_err(|e| link.describe(&e, &connection))?;
    Ok(result.contents)
}

/// Why a server cannot be used, in the person's words.
pub fn not_connected(server: &str, state: Option<&McpServerState>) -> String {
    let why = match state {
        Some(McpServerState::Connecting) => "it is still connecting".to_string(),
        Some(McpServerState::NeedsApproval) => "it waits for your approval in the MCP panel".into(),
        Some(McpServerState::Disabled) => "it is disabled".into(),
        Some(McpServerState::NeedsSignIn { .. }) => {
            "it needs you to sign in (the McpAuth tool or the MCP panel's Sign in)".into()
        }
        Some(McpServerState::Failed { error, .. }) => format!("it failed: {error}"),
        Some(McpServerState::Ready) | None => "it is not connected".into(),
    };
    format!("MCP server `{server}` cannot be used: {why}")
}

/// One content item as a block, its text cut at `max_chars` and an oversized image named instead.
fn capped(item: &ResourceContents, max_chars: usize) -> ContentBlock {
    match to_content(resource_block(item)) {
        ContentBlock::Text { text } if text.chars().count() > max_chars => {
            let mut cut: String = text.chars().take(max_chars).collect();
            cut.push_str(&format!(
                "\n[... cut: the resource has {} characters; the first {max_chars} are attached]",
                text.chars().count()
            ));
            ContentBlock::Text { text: cut }
        }
        ContentBlock::Image {
            source: ImageSource::Base64 { media_type, data },
        } if data.len() > MAX_IMAGE_BASE64 => ContentBlock::Text {
            text: format!(
                "[Image ({media_type}, {} bytes base64) too large to attach]",
                data.len()
            ),
        },
        block => block,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A resource's contents as a server sends them on the wire.
    fn wire(contents: Value) -> ResourceContents {
        serde_json::from_value(contents).expect("resource contents")
    }

    #[test]
    fn mentions_are_found_for_configured_servers_only() {
        let servers = vec!["docs".to_string(), "my-srv".to_string()];
        let m = |server: &str, uri: &str| Mention {
            server: server.into(),
            uri: uri.into(),
        };
        let table: &[(&str, Vec<Mention>)] = &[
            (
                "read @docs:file:///a.md please",
                vec![m("docs", "file:///a.md")],
            ),
            (
                "@my-srv:test://x, and @docs:y.",
                vec![m("my-srv", "test://x"), m("docs", "y")],
            ),
            ("(see @docs:z) twice @docs:z", vec![m("docs", "z")]),
            ("mail me at me@docs:443 or @other:x", vec![]),
            ("@docs: nothing", vec![]),
            ("@docs", vec![]),
        ];
        for (text, want) in table {
            assert_eq!(&find_mentions(text, &servers), want, "{text}");
        }
    }

    #[test]
    fn long_texts_are_cut_and_big_images_named() {
        let text = capped(&wire(json!({"uri": "u", "text": "abcdefghij"})), 15);
        let ContentBlock::Text { text } = text else {
            panic!("text")
        };
        assert!(text.starts_with("[Resource u]"), "{text}");
        assert!(text.contains("cut: the resource has"), "{text}");
        let big = "A".repeat(MAX_IMAGE_BASE64 + 1);
        let image = capped(
            &wire(json!({"uri": "u", "mimeType": "image/png", "blob": big})),
            100,
        );
        assert!(
            matches!(&image, ContentBlock::Text { text } if text.contains("too large")),
            "{image:?}"
        );
        let small = capped(
            &wire(json!({"uri": "u", "mimeType": "image/png", "blob": "AAAA"})),
            100,
        );
        assert!(matches!(small, ContentBlock::Image { .. }));
    }
}
