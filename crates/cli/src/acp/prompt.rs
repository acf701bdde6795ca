//! The client's prompt (ACP content blocks) as a Tandem prompt: text as it is, a link to a file as an `@path`
//! mention (attached as the session's own mentions are, when Read would run without asking), any other link as a
//! markdown link, an embedded text resource as a `<context>` block after the text, and images as the prompt's
//! images (sized down for the model as pasted ones are).

use agent_client_protocol::v1::schema::{ContentBlock, EmbeddedResourceResource};
use base64::Engine;
use tandem_engine::session::{FittedImage, fit_image};

/// A prompt: its text and its images.
#[derive(Debug, Default)]
pub struct Prompt {
    pub text: String,
    pub images: Vec<FittedImage>,
}

/// The prompt for `blocks`. An image that cannot be read is named in the text instead of dropped silently; audio
/// and binary resources are not offered in the capabilities, and are named too should a client send them.
pub fn prompt(blocks: &[ContentBlock]) -> Prompt {
    let mut images = Vec::new();
    let mut refused = Vec::new();
    for (n, block) in blocks.iter().enumerate() {
        if let ContentBlock::Image(image) = block {
            let name = format!("image {}", n + 1);
            let fitted = base64::engine::general_purpose::STANDARD
                .decode(image.data.trim())
                .map_err(|e| format!("{name} is not base64 ({e})"))
                .and_then(|bytes| fit_image(&name, &bytes).map_err(|e| e.to_string()));
            match fitted {
                Ok(fitted) => images.push(fitted),
                Err(why) => refused.push(why),
            }
        }
    }
    let mut text = prompt_text(blocks);
    for why in refused {
        separate(&mut text);
        text.push_str(&format!("(an attached image could not be used: {why})"));
    }
    Prompt { text, images }
}

/// The prompt text for `blocks` (images are taken apart by [`prompt`]).
pub fn prompt_text(blocks: &[ContentBlock]) -> String {
    let mut text = String::new();
    let mut context = String::new();
    for block in blocks {
        match block {
            ContentBlock::Text(t) => text.push_str(&t.text),
            ContentBlock::ResourceLink(link) => {
                separate(&mut text);
                match file_path(&link.uri) {
                    Some(path) => text.push_str(&mention(&path)),
                    None => text.push_str(&format!("[{}]({})", link.name, link.uri)),
                }
            }
            ContentBlock::Resource(resource) => match &resource.resource {
                EmbeddedResourceResource::TextResourceContents(r) => {
                    context.push_str(&format!(
                        "\n<context ref=\"{}\">\n{}\n</context>",
                        r.uri, r.text
                    ));
                }
                EmbeddedResourceResource::BlobResourceContents(r) => {
                    separate(&mut text);
                    text.push_str(&format!("(binary resource {} not attached)", r.uri));
                }
                _ => {}
            },
            ContentBlock::Image(_) => {}
            ContentBlock::Audio(_) => {
                separate(&mut text);
                text.push_str("(audio was attached; audio is not supported)");
            }
            _ => {}
        }
    }
    if !context.is_empty() {
        text.push('\n');
        text.push_str(&context);
    }
    text
}

/// A space before the next piece, unless the text is empty or already ends in whitespace.
fn separate(text: &mut String) {
    if !text.is_empty() && !text.ends_with(char::is_whitespace) {
        text.push(' ');
    }
}

/// The local path of a `file://` URI (percent escapes decoded), or `None` for any other scheme.
fn file_path(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// `@path`, quoted when the path holds a space or a quote would end it early.
fn mention(path: &str) -> String {
    if path.contains(char::is_whitespace) {
        format!("@\"{path}\"")
    } else {
        format!("@{path}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_client_protocol::v1::schema::{
        EmbeddedResource, ResourceLink, TextContent, TextResourceContents,
    };

    #[test]
    fn each_kind_of_block_becomes_prompt_text() {
        let cases: Vec<(Vec<ContentBlock>, &str)> = vec![
            (vec![ContentBlock::Text(TextContent::new("hello"))], "hello"),
            (
                vec![
                    ContentBlock::Text(TextContent::new("look at")),
                    ContentBlock::ResourceLink(ResourceLink::new("a.rs", "file:///p/src/a.rs")),
                ],
                "look at @/p/src/a.rs",
            ),
            (
                vec![ContentBlock::ResourceLink(ResourceLink::new(
                    "my notes.md",
                    "file:///p/my%20notes.md",
                ))],
                "@\"/p/my notes.md\"",
            ),
            (
                vec![ContentBlock::ResourceLink(ResourceLink::new(
                    "issue",
                    "https://example.com/1",
                ))],
                "[issue](https://example.com/1)",
            ),
            (
                vec![
                    ContentBlock::Text(TextContent::new("explain")),
                    ContentBlock::Resource(EmbeddedResource::new(
                        EmbeddedResourceResource::TextResourceContents(TextResourceContents::new(
                            "fn main() {}",
                            "file:///p/main.rs",
                        )),
                    )),
                ],
                "explain\n\n<context ref=\"file:///p/main.rs\">\nfn main() {}\n</context>",
            ),
        ];
        for (blocks, expected) in cases {
            assert_eq!(prompt_text(&blocks), expected, "{blocks:?}");
        }
    }
}
