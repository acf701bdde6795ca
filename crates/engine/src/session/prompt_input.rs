//! What the person's prompt becomes before its turn: a custom command's or skill's `/name args` its text (expanded
//! by the session), an MCP server's `/mcp__server__prompt args` the messages the server's prompt returns, every
//! `@server:uri` mention the resource attached and every `@path` the file, read as Read would. The transcript
//! shows the prompt as typed. A mention that cannot be read is a notice and the prompt still goes; an MCP prompt
//! that cannot be had ends the turn with the reason.

use tandem_protocol::SessionEvent;

use super::file_mentions::{MentionReader, find_file_mentions};
use crate::events::EventSink;
use crate::mcp::McpManager;
use crate::mcp::mentions::{attach, find_mentions};
use crate::mcp::prompt_command;
use crate::query::UserPrompt;

/// Characters per token, for the size of an attached resource.
const CHARS_PER_TOKEN: usize = 4;

/// Builds the turn's prompt from what the person typed (`expansion` is what a custom command or skill `typed`
/// invoked expands to). `Err` carries why an MCP prompt command failed.
pub async fn prepare(
    mcp: &McpManager,
    files: &MentionReader<'_>,
    events: &dyn EventSink,
    typed: &str,
    expansion: Option<String>,
) -> Result<UserPrompt, String> {
    if let Some(expanded) = expansion {
        let mut prompt = UserPrompt::from(expanded.as_str());
        prompt.shown = typed.to_string();
        attach_mentions(mcp, files, events, typed, &mut prompt).await;
        return Ok(prompt);
    }
    if let Some(result) = prompt_command::expand(mcp, typed).await {
        return Ok(UserPrompt {
            shown: typed.to_string(),
            content: result?,
            id: None,
            images: Vec::new(),
        });
    }
    let mut prompt = UserPrompt::from(typed);
    attach_mentions(mcp, files, events, typed, &mut prompt).await;
    Ok(prompt)
}

async fn attach_mentions(
    mcp: &McpManager,
    files: &MentionReader<'_>,
    events: &dyn EventSink,
    typed: &str,
    prompt: &mut UserPrompt,
) {
    let servers: Vec<String> = mcp.statuses().into_iter().map(|s| s.name).collect();
    let paths = find_file_mentions(typed, &servers);
    if !paths.is_empty() {
        let attached = files.attach(&paths).await;
        prompt.content.extend(attached.blocks);
        for message in attached.notes {
            events.emit(SessionEvent::Notice { message });
        }
    }
    let mentions = find_mentions(typed, &servers);
    if mentions.is_empty() {
        return;
    }
    let max_chars = mcp
        .limits()
        .max_output_tokens
        .saturating_mul(CHARS_PER_TOKEN);
    let attached = attach(mcp, &mentions, max_chars).await;
    prompt.content.extend(attached.blocks);
    for message in attached.problems {
        events.emit(SessionEvent::Notice { message });
    }
}
