//! What the prompt box offers: the slash commands a prompt may start with (with where each comes from) and the
//! completions of an `@` mention (files of the folder, resources of connected MCP servers).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where a slash command comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum SlashCommandSource {
    /// The window's own (`/rewind`, `/rules`); never sent to the engine.
    Window,
    /// The engine's own (`/compact`, `/model`).
    Builtin,
    /// A Markdown file of the project's `.claude/commands`.
    Project,
    /// A Markdown file of the user's `~/.claude/commands`.
    User,
    /// A skill (`/name args` invokes it).
    Skill,
    /// A prompt an MCP server offers (`/mcp__server__prompt args`).
    McpPrompt,
}

/// One slash command, as the `/` menu shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SlashCommand {
    /// The name without the slash, e.g. `review`, `frontend:component`, `mcp__docs__search`.
    pub name: String,
    pub description: String,
    /// What the arguments look like, e.g. `[file] [focus]`.
    pub argument_hint: Option<String>,
    pub source: SlashCommandSource,
}

/// What an `@` completion names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum MentionKind {
    File,
    /// A resource of a connected MCP server (`@server:uri`).
    Resource,
}

/// One `@` completion: the text to insert after the `@` and what it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct MentionCompletion {
    /// Inserted after `@`: a path relative to the folder (quoted when it has spaces), or `server:uri`.
    pub text: String,
    pub kind: MentionKind,
    /// A second line for the menu (a resource's name), if any.
    pub detail: Option<String>,
}
