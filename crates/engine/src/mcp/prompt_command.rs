//! Running the person's `/mcp__<server>__<prompt> args`: the prompt found among the ready servers' (waiting for
//! its server if it is still connecting), the arguments bound, `prompts/get` called, and its messages returned as
//! the content of the person's prompt.

use super::limits::REQUEST_TIMEOUT;
use super::manager::McpManager;
use super::mentions::not_connected;
use super::names::server_prefix;
use super::prompts::{McpPrompt, prompt_content};
use crate::model::ContentBlock;

/// The command and the typed arguments of a prompt `/mcp__...`, `None` for any other prompt.
pub fn parse(typed: &str) -> Option<(&str, &str)> {
    let rest = typed.trim_start().strip_prefix('/')?;
    if !rest.starts_with("mcp__") {
        return None;
    }
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    Some((&rest[..end], rest[end..].trim()))
}

fn find(manager: &McpManager, command: &str) -> Option<McpPrompt> {
    manager.prompts().into_iter().find(|p| p.command == command)
}

/// For a prompt `/mcp__server__prompt args`, the content the server's prompt gives, or why it could not be had
/// (an unknown prompt, a server that is not connected, missing arguments, the server's error). `None` when the
/// prompt is not such a command.
pub async fn expand(
    manager: &McpManager,
    typed: &str,
) -> Option<Result<Vec<ContentBlock>, String>> {
    let (command, args) = parse(typed)?;
    Some(run(manager, command, args).await)
}

async fn run(manager: &McpManager, command: &str, args: &str) -> Result<Vec<ContentBlock>, String> {
    let servers: Vec<String> = manager
        .statuses()
        .into_iter()
        .map(|s| s.name)
        .filter(|name| command.starts_with(&server_prefix(name)))
        .collect();
    let mut prompt = find(manager, command);
    if prompt.is_none() {
        // Its server may still be starting: give it its start-up time.
        for server in &servers {
            manager.settle(server, manager.limits().startup).await;
        }
        prompt = find(manager, command);
    }
    let Some(prompt) = prompt else {
        if let Some(server) = servers.iter().find(|s| {
            manager
                .status(s)
                .is_some_and(|st| st.state != tandem_protocol::McpServerState::Ready)
        }) {
            return Err(not_connected(
                server,
                manager.status(server).map(|s| s.state).as_ref(),
            ));
        }
        let known: Vec<String> = manager
            .prompts()
            .iter()
            .map(|p| format!("/{}", p.command))
            .collect();
        return Err(format!(
            "no MCP server offers the prompt /{command} (offered: {})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ));
    };
    let arguments = prompt.bind(args)?;
    let link = manager
        .link(&prompt.server)
        .ok_or_else(|| not_connected(&prompt.server, None))?;
    let connection = link.ready().await?;
    let result = connection
        .get_prompt(&prompt.remote, arguments, REQUEST_TIMEOUT)
        .await
        .map_err(|e| link.describe(&e, &connection))?;
    let content = prompt_content(&result);
    if content.is_empty() {
        return Err(format!(
            "MCP server `{}` returned no messages for /{command}",
            prompt.server
        ));
    }
    Ok(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_mcp_commands_are_parsed() {
        assert_eq!(parse("/mcp__s__p a  b "), Some(("mcp__s__p", "a  b")));
        assert_eq!(parse("  /mcp__s__p"), Some(("mcp__s__p", "")));
        assert_eq!(parse("/release x"), None);
        assert_eq!(parse("mcp__s__p"), None);
    }
}
