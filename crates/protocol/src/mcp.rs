//! What the window is told about MCP servers: each server's state (connecting, ready, failed with its error and
//! the tail of its stderr, waiting for the person's approval or sign-in, disabled), its transport, its tools, prompts
//! and resources.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where an MCP server is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum McpServerState {
    /// Starting (or restarting after a crash).
    Connecting,
    /// Connected; its tools are offered.
    Ready,
    /// It could not start, or it stopped; `stderr_tail` is the end of what it wrote on stderr.
    Failed {
        error: String,
        stderr_tail: Option<String>,
    },
    /// Defined by the project (`.mcp.json`): starts once the person approves it.
    NeedsApproval,
    /// Refused by the settings or the person.
    Disabled,
    /// A remote server that answered 401: the person signs in (OAuth) before it starts. `authorization_url` is set
    /// while a sign-in is under way (the page the browser was sent to); `error` says why the last one failed.
    NeedsSignIn {
        authorization_url: Option<String>,
        error: Option<String>,
    },
}

/// One MCP server as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct McpServerStatus {
    /// The name as configured.
    pub name: String,
    /// `stdio`, `http` or `sse` (empty when the configuration is invalid).
    pub transport: String,
    /// The command line or the URL.
    pub target: String,
    /// Where it is configured (a file, or `--mcp-config ...`).
    pub source: String,
    pub state: McpServerState,
    /// The full names of its tools (`mcp__server__tool`) while it is ready.
    pub tools: Vec<String>,
    /// Those of its tools the person turned off (not offered to the model).
    #[serde(default)]
    pub disabled_tools: Vec<String>,
    /// The names of its prompts while it is ready.
    #[serde(default)]
    pub prompts: Vec<String>,
    /// Its resources while it is ready (`uri`, and `name` when it has one).
    #[serde(default)]
    pub resources: Vec<McpResourceEntry>,
}

/// One resource a server lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct McpResourceEntry {
    pub uri: String,
    pub name: Option<String>,
}
