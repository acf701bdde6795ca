//! The data the built-in tools' results carry ([`crate::tool::ToolOutput::structured`]) in the shapes hooks written
//! for Claude Code read as PostToolUse's `tool_response`: Write's `filePath` and `structuredPatch`, Bash's `stdout`,
//! Glob's `filenames`, and so on. Each shape derives its JSON schema, which the tool declares as its output schema;
//! under test every structured result is checked against it. docs/hooks.md lists them.

mod agent;
mod files;
mod search;
mod shell;
mod web;
mod work;

pub use agent::{AgentCompleted, AgentLaunched, AgentResponse, AnswerText};
pub use files::{
    EditResponse, PatchHunk, ReadFile, ReadResponse, WriteKind, WriteResponse, patch_of,
};
pub use search::{GlobResponse, GrepMode, GrepResponse};
pub use shell::BashResponse;
pub use web::WebFetchResponse;
pub use work::{TodoEntry, TodoWriteResponse};

/// The output schema of the response type `T`, as a tool declares it.
pub fn schema<T: schemars::JsonSchema>() -> Option<serde_json::Value> {
    Some(crate::tool::dynamic::schema_for::<T>())
}
