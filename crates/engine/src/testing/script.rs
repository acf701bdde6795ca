//! What the fake model server answers, request by request. Scripts are plain data (JSON) so the demo binary can
//! load them from a file.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One block of a scripted assistant message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ScriptBlock {
    Text {
        text: String,
    },
    Thinking {
        thinking: String,
        signature: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// A tool_use whose input JSON is sent exactly as given (e.g. malformed).
    RawToolUse {
        id: String,
        name: String,
        json: String,
    },
}

/// A streamed assistant message and how to stream it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptedTurn {
    pub blocks: Vec<ScriptBlock>,
    /// `end_turn`, `tool_use`, `max_tokens`, ...; `None` picks `tool_use` when a block is a tool call.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Text and tool input are sent in deltas of this many characters.
    #[serde(default = "default_delta_chars")]
    pub delta_chars: usize,
    /// The byte stream is written in chunks of this many bytes (`None`: one chunk per event).
    #[serde(default)]
    pub chunk_bytes: Option<usize>,
    /// Pause between chunks.
    #[serde(default)]
    pub chunk_delay_ms: u64,
    /// A `ping` event after every n-th event.
    #[serde(default)]
    pub ping_every: Option<usize>,
    /// Stop sending after this many bytes, breaking the connection.
    #[serde(default)]
    pub cut_after_bytes: Option<usize>,
    /// Send an `error` event (type, message) after this many content events instead of finishing.
    #[serde(default)]
    pub error_after_events: Option<(usize, String, String)>,
    /// An event of a type the protocol does not define, sent before the first block.
    #[serde(default)]
    pub unknown_event: bool,
    #[serde(default = "default_tokens")]
    pub input_tokens: u64,
    #[serde(default = "default_tokens")]
    pub output_tokens: u64,
}

fn default_delta_chars() -> usize {
    16
}

fn default_tokens() -> u64 {
    10
}

impl ScriptedTurn {
    /// A turn made of `blocks`, streamed with the defaults.
    pub fn new(blocks: Vec<ScriptBlock>) -> Self {
        Self {
            blocks,
            stop_reason: None,
            delta_chars: default_delta_chars(),
            chunk_bytes: None,
            chunk_delay_ms: 0,
            ping_every: None,
            cut_after_bytes: None,
            error_after_events: None,
            unknown_event: false,
            input_tokens: default_tokens(),
            output_tokens: default_tokens(),
        }
    }

    /// A turn that only says `text`.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(vec![ScriptBlock::Text { text: text.into() }])
    }

    /// A turn that calls one tool.
    pub fn tool_use(id: impl Into<String>, name: impl Into<String>, input: Value) -> Self {
        Self::new(vec![ScriptBlock::ToolUse {
            id: id.into(),
            name: name.into(),
            input,
        }])
    }

    /// The stop reason sent in `message_delta`.
    pub fn effective_stop_reason(&self) -> String {
        if let Some(reason) = &self.stop_reason {
            return reason.clone();
        }
        let calls_tool = self.blocks.iter().any(|b| {
            matches!(
                b,
                ScriptBlock::ToolUse { .. } | ScriptBlock::RawToolUse { .. }
            )
        });
        if calls_tool {
            "tool_use".into()
        } else {
            "end_turn".into()
        }
    }
}

/// The reply to one request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum ScriptedReply {
    /// HTTP 200 with an event stream.
    Stream(ScriptedTurn),
    /// An HTTP error with an Anthropic-style error body.
    Error {
        status: u16,
        error_type: String,
        message: String,
        #[serde(default)]
        retry_after: Option<String>,
        #[serde(default)]
        should_retry: Option<bool>,
    },
}

/// The replies, in the order requests arrive.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Script {
    pub replies: Vec<ScriptedReply>,
}

impl Script {
    /// A script of streamed turns.
    pub fn turns(turns: impl IntoIterator<Item = ScriptedTurn>) -> Self {
        Self {
            replies: turns.into_iter().map(ScriptedReply::Stream).collect(),
        }
    }
}
