//! What the window's search over the stored sessions shows: ranked hits, each naming its session, folder and the
//! event the matching text starts at, with a snippet whose matches are marked as parts (no markup in the text).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A piece of a hit's snippet: text that matched the query, or text around it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SearchSnippetPart {
    pub text: String,
    /// Whether this piece is a match of the query.
    pub matched: bool,
}

/// One place a search of the stored sessions matched, best first in the list it came in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionSearchHit {
    pub session_id: String,
    /// The session's project folder.
    pub folder: String,
    /// The session's title.
    pub title: String,
    /// Milliseconds since the Unix epoch of the session's last write.
    #[ts(type = "number")]
    pub updated_at_ms: u64,
    /// The event the matching text starts at: where the transcript scrolls to.
    #[ts(type = "number")]
    pub seq: u64,
    /// Which kind of text matched: `prompt`, `answer`, `tool_input`, `tool_result` or `sub_agent`.
    pub kind: String,
    /// The matching text around the matches, cut with `…` where it goes on.
    pub snippet: Vec<SearchSnippetPart>,
}
