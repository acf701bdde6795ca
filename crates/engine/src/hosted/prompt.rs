//! The content blocks of a hosted turn's prompt, chosen by what the agent said it takes (`promptCapabilities` in its
//! `initialize` answer): SessionStart's context first (as Tandem's own turns give it), then the text as typed with
//! each `@file` mention in its place as a block — an embedded `resource` holding the file's text when the agent
//! takes `embeddedContext` and Tandem's rules let the file be read without asking, a `resource_link` to it
//! otherwise — and the pasted images as `image` blocks when the agent takes `image` (otherwise they are left out
//! and a notice says so; the window refuses them before that). An agent on another machine gets the text as typed:
//! the paths are this machine's, and the far Tandem reads `@path` mentions of its own folder itself.

use agent_client_protocol::v1::schema::ContentBlock;
use serde_json::{Value, json};
use tandem_protocol::{PromptImage, SessionEvent};

use crate::session::{HostedMention, Session};

/// The most bytes of a file embedded in a prompt; a larger one is linked.
const MAX_EMBEDDED_BYTES: u64 = 256 * 1024;

/// What the agent's prompt may hold besides text and links (its `promptCapabilities`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PromptAbilities {
    /// `image` blocks.
    pub image: bool,
    /// Embedded `resource` blocks.
    pub embedded_context: bool,
}

/// The blocks for `text` with `images` (sized for a model already) in `session`, for an agent that takes
/// `abilities`; `here` is false for an agent on another machine. What is left out is told as a notice.
pub(super) fn blocks(
    session: &Session,
    text: &str,
    images: &[PromptImage],
    abilities: PromptAbilities,
    here: bool,
    agent: &str,
) -> Vec<ContentBlock> {
    // Agents may join text blocks: the context stays apart from the prompt.
    let mut blocks: Vec<Value> = session
        .take_hosted_start_context()
        .into_iter()
        .map(|context| json!({"type": "text", "text": format!("{context}\n\n")}))
        .collect();
    let mentions = if here {
        session.hosted_mentions(text)
    } else {
        Vec::new()
    };
    blocks.extend(text_with_mentions(text, &mentions, abilities));
    if abilities.image {
        blocks.extend(images.iter().map(
            |image| json!({"type": "image", "mimeType": image.media_type, "data": image.data}),
        ));
        // Shown under the prompt, as for Tandem's own turns.
        if !images.is_empty() {
            session.runtime().events.emit(SessionEvent::PromptImages {
                images: images.to_vec(),
            });
        }
    } else if !images.is_empty() {
        session.runtime().events.emit(SessionEvent::Notice {
            message: format!(
                "the agent `{agent}` does not take images (its promptCapabilities has no `image`): {} left out",
                plural(images.len(), "image")
            ),
        });
    }
    blocks
        .into_iter()
        .filter_map(|block| serde_json::from_value(block).ok())
        .collect()
}

/// `text` cut at each mention, the first mention of each file replaced by its block (later ones stay text): a link
/// stands for the mention, an embedded file follows its path (without the `@`, so an agent that reads `@path`
/// mentions in text does not read it again).
fn text_with_mentions(
    text: &str,
    mentions: &[HostedMention],
    abilities: PromptAbilities,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut done: Vec<&std::path::Path> = Vec::new();
    for mention in mentions {
        if done.contains(&mention.path.as_path()) || mention.span.start < at {
            continue;
        }
        done.push(&mention.path);
        push_text(&mut out, &text[at..mention.span.start]);
        let block = mention_block(mention, abilities);
        if block["type"] == "resource" {
            push_text(&mut out, &mention.mention);
        }
        out.push(block);
        at = mention.span.end;
    }
    push_text(&mut out, &text[at..]);
    if out.is_empty() {
        out.push(json!({"type": "text", "text": text}));
    }
    out
}

fn push_text(out: &mut Vec<Value>, text: &str) {
    if !text.is_empty() {
        out.push(json!({"type": "text", "text": text}));
    }
}

/// The file's text embedded (when the agent takes it, the rules let it be read without asking, and it is text of
/// a sensible size), otherwise a link to it.
fn mention_block(mention: &HostedMention, abilities: PromptAbilities) -> Value {
    let uri = url::Url::from_file_path(&mention.path)
        .map(|url| url.to_string())
        .unwrap_or_else(|()| format!("file://{}", mention.path.display()));
    let name = mention
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| mention.mention.clone());
    if abilities.embedded_context
        && mention.readable.is_ok()
        && let Some(content) = small_text(&mention.path)
    {
        return json!({
            "type": "resource",
            "resource": {"uri": uri, "text": content, "mimeType": "text/plain"},
        });
    }
    json!({"type": "resource_link", "name": name, "uri": uri})
}

/// The file's content when it is UTF-8 text of at most [`MAX_EMBEDDED_BYTES`].
fn small_text(path: &std::path::Path) -> Option<String> {
    let size = std::fs::metadata(path).ok()?.len();
    if size > MAX_EMBEDDED_BYTES {
        return None;
    }
    String::from_utf8(std::fs::read(path).ok()?).ok()
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn mention(text: &str, path: &str, readable: bool) -> HostedMention {
        let typed = &path[path.rfind('/').map_or(0, |i| i + 1)..];
        let start = text.find(&format!("@{typed}")).expect("mention in text");
        HostedMention {
            mention: typed.to_string(),
            span: start..start + 1 + typed.len(),
            path: PathBuf::from(path),
            readable: if readable {
                Ok(())
            } else {
                Err("denied".into())
            },
        }
    }

    #[test]
    fn a_mention_is_a_link_or_embedded_text_by_the_agents_abilities_and_the_rules() {
        let folder = tempfile::tempdir().expect("tempdir");
        let file = folder.path().join("a.txt");
        std::fs::write(&file, "alpha\n").expect("write");
        let path = file.display().to_string();
        let text = "look at @a.txt please";
        let link =
            json!({"type": "resource_link", "name": "a.txt", "uri": format!("file://{path}")});
        let embedded = json!({"type": "resource", "resource": {
            "uri": format!("file://{path}"), "text": "alpha\n", "mimeType": "text/plain"}});
        let links = PromptAbilities::default();
        let embeds = PromptAbilities {
            embedded_context: true,
            image: false,
        };
        let table = [
            (links, true, vec![link.clone()]),
            (
                embeds,
                true,
                vec![json!({"type": "text", "text": "a.txt"}), embedded],
            ),
            (embeds, false, vec![link]),
        ];
        for (abilities, readable, blocks) in table {
            let got = text_with_mentions(text, &[mention(text, &path, readable)], abilities);
            let mut want = vec![json!({"type": "text", "text": "look at "})];
            want.extend(blocks);
            want.push(json!({"type": "text", "text": " please"}));
            assert_eq!(got, want, "{abilities:?} readable {readable}");
        }
    }

    #[test]
    fn text_without_mentions_is_one_block_and_a_repeated_file_is_given_once() {
        assert_eq!(
            text_with_mentions("hello", &[], PromptAbilities::default()),
            vec![json!({"type": "text", "text": "hello"})]
        );
        let text = "@a.txt and @a.txt";
        let first = mention(text, "/p/a.txt", true);
        let mut second = first.clone();
        second.span = 11..17;
        let got = text_with_mentions(text, &[first, second], PromptAbilities::default());
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[1], json!({"type": "text", "text": " and @a.txt"}));
    }
}
