//! MCP servers: reading their configuration (`.mcp.json`, the settings' `mcpServers`, `--mcp-config`), deciding
//! which may start, connecting to them with `rmcp` (the only module that imports it) over stdio or streamable HTTP,
//! and offering each remote tool as `mcp__<server>__<tool>` beside the resource tools.

mod auth_tool;
mod client;
pub mod config;
mod content;
pub mod elicitation;
mod expand;
mod failure_text;
pub mod known_tools;
pub mod legacy_sse;
pub mod limits;
mod line_limit;
mod link;
mod listing;
mod manager;
pub mod mentions;
pub mod names;
pub mod oauth;
pub mod prompt_command;
mod prompt_tool;
pub mod prompts;
mod resources;
pub mod sources;
mod tool;

use std::sync::Arc;

pub use client::{ClientError, ElicitReply, Elicitor, StderrTail};
pub use config::{ConfigError, Origin, ServerConfig, Transport};
pub use expand::expand;
pub use known_tools::KnownTools;
pub use limits::Limits;
pub use link::ServerLink;
pub use manager::{ClientSetup, McpManager, McpTools, SignInHandle, SignInStarted};
pub use prompt_tool::{AllLinks, PromptToolApprover};
pub use prompts::McpPrompt;
pub use sources::{Approval, ApprovalStore, McpCliConfig, Plan, Planned, plan};
pub use tool::McpTool;

use crate::tool::{DynTool, erase};

/// The resource tools (`ListMcpResourcesTool`, `ReadMcpResourceTool`) over `manager`'s ready servers.
pub fn resource_tools(manager: &McpManager) -> Vec<Arc<dyn DynTool>> {
    let links: resources::Links = manager.ready_links();
    vec![
        erase(resources::ListResources(links.clone())),
        erase(resources::ReadResource(links)),
    ]
}

/// The `McpAuth` tool over `manager`'s remote servers.
pub fn auth_tool(manager: &McpManager) -> Arc<dyn DynTool> {
    erase(auth_tool::McpAuth(manager.sign_in_handle()))
}
