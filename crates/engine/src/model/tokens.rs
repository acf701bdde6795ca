//! The engine's rough token count: about four characters per token of the JSON a request carries. Compaction decides
//! with it and CtxInspect reports it; the model's own count comes only with its answer's usage.

use serde::Serialize;

use super::Message;

/// Characters of JSON per estimated token.
pub const CHARS_PER_TOKEN: u64 = 4;

/// A rough token count of `history` (about four characters per token of its JSON).
pub fn estimate_tokens(history: &[Message]) -> u64 {
    estimate_json_tokens(history)
}

/// A rough token count of anything sent as JSON (a message, a block, a tool definition).
pub fn estimate_json_tokens<T: Serialize + ?Sized>(value: &T) -> u64 {
    serde_json::to_string(value)
        .map(|s| s.len() as u64 / CHARS_PER_TOKEN)
        .unwrap_or(0)
}

/// A rough token count of plain text (a system prompt block).
pub fn estimate_text_tokens(text: &str) -> u64 {
    text.len() as u64 / CHARS_PER_TOKEN
}
