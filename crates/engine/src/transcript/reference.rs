//! Reading the reference agent's transcript files: one JSON object a line, `type` `user` / `assistant` (a message,
//! with `uuid`, `parentUuid`, `sessionId`, `cwd`, `timestamp`, `isSidechain`, `agentId`, `message { role, content
//! }`), `summary` (a title for the conversation ending at `leafUuid`), and other kinds (progress, file snapshots,
//! queue operations) that carry nothing to import. A line that cannot be read is skipped and counted; the first is
//! named with why.

use serde_json::Value;

use crate::model::{ContentBlock, ResultBlock, Role, ToolResultContent};

/// A message line.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageLine {
    /// Its line number in the file, from 1.
    pub line: usize,
    pub uuid: String,
    pub parent: Option<String>,
    pub session_id: Option<String>,
    pub cwd: Option<String>,
    /// Unix milliseconds.
    pub at: Option<i64>,
    pub sidechain: bool,
    pub agent_id: Option<String>,
    /// A line the agent added for itself (`isMeta`), not said by the person.
    pub meta: bool,
    pub role: Role,
    /// The model's message id: an answer may be written as several lines, one block each, with the same id.
    pub message_id: Option<String>,
    pub model: Option<String>,
    pub content: Vec<ContentBlock>,
    /// `message.usage` as written.
    pub usage: Option<Value>,
}

/// A `summary` line.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryLine {
    pub summary: String,
    pub leaf: Option<String>,
}

/// What a transcript file holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParsedTranscript {
    pub messages: Vec<MessageLine>,
    pub summaries: Vec<SummaryLine>,
    /// The first line that could not be read: its number (from 1) and why.
    pub first_bad: Option<(usize, String)>,
    /// How many lines could not be read.
    pub bad: usize,
}

/// Reads a transcript's bytes. Never fails: unreadable lines are counted and the first is named.
pub fn parse_transcript(bytes: &[u8]) -> ParsedTranscript {
    let mut out = ParsedTranscript::default();
    let ends_with_newline = bytes.ends_with(b"\n");
    let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    let count = lines.len();
    for (index, raw) in lines.into_iter().enumerate() {
        let number = index + 1;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let last = index + 1 == count && !ends_with_newline;
        match parse_line(raw, number) {
            Ok(Some(Parsed::Message(m))) => out.messages.push(*m),
            Ok(Some(Parsed::Summary(s))) => out.summaries.push(s),
            Ok(None) => {}
            Err(why) => {
                let why = if last {
                    format!("the file ends in the middle of this line ({why})")
                } else {
                    why
                };
                out.bad += 1;
                out.first_bad.get_or_insert((number, why));
            }
        }
    }
    out
}

enum Parsed {
    Message(Box<MessageLine>),
    Summary(SummaryLine),
}

fn parse_line(raw: &[u8], number: usize) -> Result<Option<Parsed>, String> {
    let text = std::str::from_utf8(raw).map_err(|e| format!("not UTF-8 ({e})"))?;
    let value: Value = serde_json::from_str(text.trim()).map_err(|e| format!("not JSON ({e})"))?;
    let Value::Object(line) = value else {
        return Err("not a JSON object".into());
    };
    let str_of = |key: &str| line.get(key).and_then(Value::as_str).map(str::to_string);
    let kind = str_of("type").ok_or("no \"type\"")?;
    match kind.as_str() {
        "summary" => {
            let summary = str_of("summary").ok_or("a summary line without \"summary\"")?;
            Ok(Some(Parsed::Summary(SummaryLine {
                summary,
                leaf: str_of("leafUuid"),
            })))
        }
        "user" | "assistant" => {
            let message = line
                .get("message")
                .and_then(Value::as_object)
                .ok_or_else(|| format!("a {kind} line without a \"message\" object"))?;
            let role = if kind == "user" {
                Role::User
            } else {
                Role::Assistant
            };
            let content = match message.get("content") {
                Some(Value::String(text)) => vec![ContentBlock::Text { text: text.clone() }],
                Some(Value::Array(blocks)) => blocks.iter().filter_map(block).collect(),
                Some(Value::Null) | None => Vec::new(),
                Some(_) => return Err("\"message.content\" is neither text nor a list".into()),
            };
            let at = match str_of("timestamp") {
                Some(t) => Some(
                    chrono::DateTime::parse_from_rfc3339(&t)
                        .map_err(|e| format!("a timestamp that is not ISO 8601 ({e})"))?
                        .timestamp_millis(),
                ),
                None => None,
            };
            Ok(Some(Parsed::Message(Box::new(MessageLine {
                line: number,
                uuid: str_of("uuid").unwrap_or_else(|| format!("line-{number}")),
                parent: str_of("parentUuid"),
                session_id: str_of("sessionId"),
                cwd: str_of("cwd"),
                at,
                sidechain: line.get("isSidechain").and_then(Value::as_bool) == Some(true),
                agent_id: str_of("agentId"),
                meta: line.get("isMeta").and_then(Value::as_bool) == Some(true),
                role,
                message_id: message
                    .get("id")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                model: message
                    .get("model")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                content,
                usage: message.get("usage").cloned(),
            }))))
        }
        _ => Ok(None),
    }
}

/// One content block as the Messages API has it; a kind this version does not know is left out.
fn block(value: &Value) -> Option<ContentBlock> {
    if value.get("type").and_then(Value::as_str) == Some("tool_result") {
        let tool_use_id = value.get("tool_use_id")?.as_str()?.to_string();
        let content = match value.get("content") {
            Some(Value::String(text)) => ToolResultContent::Text(text.clone()),
            Some(Value::Array(parts)) => ToolResultContent::Blocks(
                parts
                    .iter()
                    .filter_map(|p| serde_json::from_value::<ResultBlock>(p.clone()).ok())
                    .collect(),
            ),
            _ => ToolResultContent::Text(String::new()),
        };
        return Some(ContentBlock::ToolResult {
            tool_use_id,
            content,
            is_error: value.get("is_error").and_then(Value::as_bool) == Some(true),
        });
    }
    serde_json::from_value(value.clone()).ok()
}
