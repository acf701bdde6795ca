//! What a search of the stored sessions hands out: ranked hits, each naming its session and the event it is in, with
//! a snippet whose matches are marked as fields (no markup in the text).

use std::path::PathBuf;

use serde::Serialize;

/// Which kind of text a hit is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextKind {
    /// The person's prompt.
    Prompt,
    /// The model's answer (or its brief to the person).
    Answer,
    /// A tool call's input: the tool's name and the strings of its input.
    ToolInput,
    /// What a tool call gave the model.
    ToolResult,
    /// Anything said in a sub-agent's conversation (its prompt, answers, tool inputs and results).
    SubAgent,
}

impl TextKind {
    /// The name stored in `search_docs.kind` (and shown by the command line).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Prompt => "prompt",
            Self::Answer => "answer",
            Self::ToolInput => "tool_input",
            Self::ToolResult => "tool_result",
            Self::SubAgent => "sub_agent",
        }
    }

    /// The kind named `name`; an unknown name (a newer Tandem's) reads as an answer.
    pub fn parse(name: &str) -> Self {
        match name {
            "prompt" => Self::Prompt,
            "tool_input" => Self::ToolInput,
            "tool_result" => Self::ToolResult,
            "sub_agent" => Self::SubAgent,
            _ => Self::Answer,
        }
    }
}

/// A piece of a snippet: text that matched the query, or text around it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SnippetPart {
    pub text: String,
    /// Whether this piece is a match of the query.
    #[serde(rename = "match")]
    pub matched: bool,
}

/// One place a query matched.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    pub session_id: String,
    /// The session's project folder.
    pub folder: PathBuf,
    /// The session's title.
    pub title: String,
    /// Unix milliseconds of the session's last write.
    pub updated_at: i64,
    /// The event the matching text starts at (an answer's first delta, a prompt's `turn_started`, a tool call's
    /// `tool_call_input` or `tool_call_result`): where a transcript scrolls to.
    pub seq: u64,
    pub kind: TextKind,
    /// The sub-agent whose conversation it is in, for [`TextKind::SubAgent`].
    pub agent_id: Option<String>,
    /// The matching text around the matches, cut with `…` where it goes on.
    pub snippet: Vec<SnippetPart>,
    /// The rank: FTS5's bm25 of the text; lower is better.
    pub score: f64,
}

/// Splits a snippet made with `open` and `close` around each match into parts, with runs of white space made one
/// space so that a snippet is one line.
pub fn snippet_parts(marked: &str, open: char, close: char) -> Vec<SnippetPart> {
    let mut parts: Vec<SnippetPart> = Vec::new();
    let mut current = String::new();
    let mut matched = false;
    let mut push = |text: &mut String, matched: bool| {
        if !text.is_empty() {
            parts.push(SnippetPart {
                text: std::mem::take(text),
                matched,
            });
        }
    };
    let mut last_space = false;
    for c in marked.chars() {
        if c == open || c == close {
            push(&mut current, matched);
            matched = c == open;
            continue;
        }
        if c.is_whitespace() {
            if !last_space {
                current.push(' ');
            }
            last_space = true;
        } else {
            current.push(c);
            last_space = false;
        }
    }
    push(&mut current, matched);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_snippet_becomes_parts_on_one_line() {
        let parts = snippet_parts("a \u{E000}b\u{E001} \n c", '\u{E000}', '\u{E001}');
        let got: Vec<(&str, bool)> = parts.iter().map(|p| (p.text.as_str(), p.matched)).collect();
        assert_eq!(got, vec![("a ", false), ("b", true), (" c", false)]);
    }

    #[test]
    fn kinds_round_trip_through_their_names() {
        for kind in [
            TextKind::Prompt,
            TextKind::Answer,
            TextKind::ToolInput,
            TextKind::ToolResult,
            TextKind::SubAgent,
        ] {
            assert_eq!(TextKind::parse(kind.as_str()), kind);
        }
    }
}
