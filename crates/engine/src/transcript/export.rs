//! Exporting a stored session: the format chosen, and what every format reads from the session.

use super::{html, jsonl, markdown};
use crate::store::LoadedSession;

/// What an export is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A readable transcript: prompts, answers, tool calls with input and result, sub-agents' transcripts.
    Markdown,
    /// One self-contained page (inline CSS, no script): tool calls fold, file changes show as coloured diffs.
    Html,
    /// The reference agent's transcript format: one JSON object a line.
    Jsonl,
}

impl Format {
    /// `md`, `html` or `jsonl` (also `markdown`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "md" | "markdown" => Some(Self::Markdown),
            "html" => Some(Self::Html),
            "jsonl" => Some(Self::Jsonl),
            _ => None,
        }
    }

    /// The file extension of the format, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Markdown => "md",
            Self::Html => "html",
            Self::Jsonl => "jsonl",
        }
    }
}

/// The session as text in `format`. `times`: when each history message was written (Unix ms, see
/// `SessionStore::message_times`; missing ones take the session's creation). The text is valid UTF-8 whatever the
/// tools returned; HTML is escaped, every JSON line is one valid object.
pub fn export(session: &LoadedSession, times: &[i64], format: Format) -> String {
    match format {
        Format::Markdown => markdown::render(session),
        Format::Html => html::render(session),
        Format::Jsonl => jsonl::render(session, times),
    }
}
