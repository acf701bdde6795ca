//! What the prompt box offers: the slash commands a prompt may start with (with where each comes from) and the
//! completions of an `@` mention (files of the folder, resources of connected MCP servers), and the images a prompt
//! carries.

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
    /// A Markdown command file of a plugin that is on (`/plugin:name`).
    Plugin,
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

/// An image that goes with a prompt (pasted or dropped into the prompt box, or `tandem -p --image FILE`). The window
/// sends it to the app as it has it; the engine sizes it down for the model (see `docs/images.md`) and the
/// transcript shows it as the model was given it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PromptImage {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp` (what the bytes are is read from the bytes
    /// themselves; this is what the sender believed).
    pub media_type: String,
    /// The image file's bytes, base64 (standard alphabet, with padding).
    pub data: String,
}
