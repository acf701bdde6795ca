//! The MCP handle: the session's MCP servers as the window and the command line see them — their states, the
//! person's approval and sign-in, reconnecting, and turning single tools off or on.

use super::SettingsState;
use crate::mcp::{ApprovalStore, McpManager, SignInStarted};
use crate::session::mcp_toggles;

/// What a caller holds to follow and steer a session's MCP servers.
#[derive(Clone, Copy)]
pub struct McpHandle<'a> {
    pub(in crate::session) mcp: &'a McpManager,
    pub(in crate::session) settings: &'a SettingsState,
}

impl<'a> McpHandle<'a> {
    /// Every MCP server's link, started or not, each time the function is called (for an approver that calls a
    /// server's tool: `--permission-prompt-tool`).
    pub fn links(&self) -> crate::mcp::AllLinks {
        self.mcp.all_links()
    }

    /// The MCP servers and where each is (connecting, ready, failed, needs approval, disabled).
    pub fn servers(&self) -> Vec<tandem_protocol::McpServerStatus> {
        self.mcp.statuses()
    }

    /// Waits until every MCP server is usable, at most `timeout`: connected (or failed), or still starting with
    /// the tools it listed in an earlier session (a call to one waits for the server). A one-shot run waits so that
    /// its single prompt sees the tools without waiting for a slow server it has seen before; the window never
    /// waits. Returns whether every server was usable in time.
    pub async fn wait_until_usable(self, timeout: std::time::Duration) -> bool {
        self.mcp.usable(timeout).await
    }

    /// The person approves (or refuses) a project MCP server for this folder: it starts (or stops) now, and the
    /// answer holds for later sessions.
    pub fn approve(&self, name: &str, approved: bool) -> std::io::Result<()> {
        self.mcp.approve(name, approved, &ApprovalStore::standard())
    }

    /// Starts signing in to remote MCP server `name` (its authorization page opens in the browser; the server
    /// connects once the person has signed in). The page's URL, and why the browser could not be opened if so.
    pub async fn sign_in(self, name: &str) -> Result<SignInStarted, String> {
        self.mcp
            .sign_in(name, crate::mcp::oauth::SignInOptions::default())
            .await
    }

    /// Turns the MCP tool `tool` (full name, `mcp__server__tool`) off or on: it is no longer (or again) offered to
    /// the model, from the next request on, and the choice is saved in the project's `.claude/settings.local.json`
    /// (under `tandem.disabledMcpTools`) for later sessions.
    pub fn set_tool_enabled(&self, tool: &str, enabled: bool) -> std::io::Result<()> {
        mcp_toggles::record(&self.settings.loader().paths.local, tool, enabled)?;
        self.mcp.set_tool_enabled(tool, enabled);
        Ok(())
    }

    /// Stops an MCP server and starts it again.
    pub fn reconnect(&self, name: &str) {
        self.mcp.reconnect(name);
    }

    /// The MCP manager itself (waiting for a server's state, its tools and resources).
    pub fn manager(&self) -> &'a McpManager {
        self.mcp
    }
}
