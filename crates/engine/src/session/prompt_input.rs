//! What the person's prompt becomes before its turn: a skill's `/name args` its instructions (expanded by the
//! session), an MCP server's `/mcp__server__prompt args` the messages the server's prompt returns, and every
//! `@server:uri` mention the resource attached. A mention that cannot be read is a notice and the prompt still
//! goes; an MCP prompt that cannot be had ends the turn with the reason.

use tandem_protocol::SessionEvent;

use crate::events::EventSink;
use crate::mcp::McpManager;
use crate::mcp::mentions::{attach, find_mentions};
use crate::mcp::prompt_command;
use crate::query::UserPrompt;

/// Characters per token, for the size of an attached resource.
const CHARS_PER_TOKEN: usize = 4;

/// Builds the turn's prompt from what the person typed (`skill` is the skill's expansion when `typed` invoked
/// one). `Err` carries why an MCP prompt command failed.
pub async fn prepare(
    mcp: &McpManager,
    events: &dyn EventSink,
    typed: &str,
    skill: Option<String>,
) -> Result<UserPrompt, String> {
    if let Some(expanded) = skill {
        let mut prompt = UserPrompt::from(expanded.as_str());
        attach_mentions(mcp, events, typed, &mut prompt).await;
        return Ok(prompt);
    }
    if let Some(result) = prompt_command::expand(mcp, typed).await {
        return Ok(UserPrompt {
            shown: typed.to_string(),
            content: result?,
        });
    }
    let mut prompt = UserPrompt::from(typed);
    attach_mentions(mcp, events, typed, &mut prompt).await;
    Ok(prompt)
}

async fn attach_mentions(
    mcp: &McpManager,
    events: &dyn EventSink,
    typed: &str,
    prompt: &mut UserPrompt,
) {
    let servers: Vec<String> = mcp.statuses().into_iter().map(|s| s.name).collect();
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
