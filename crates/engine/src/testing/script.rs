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
    /// A tool the provider runs itself (`server_tool_use`, e.g. `web_search`); the OpenAI-compatible mode leaves it
    /// out.
    ServerToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// The provider's web search results for a server tool call (`web_search_tool_result`): `content` is the list of
    /// results or an error object. Left out in the OpenAI-compatible mode.
    WebSearchResult {
        tool_use_id: String,
        content: Value,
    },
}

/// How the OpenAI-compatible mode streams tool calls: the quirks of real servers, all off by default (OpenAI's own
/// way: a first fragment with `index`, `id` and `function.name`, then `function.arguments` fragments).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatQuirks {
    /// Each call whole in one fragment, its arguments complete (Ollama, some llama.cpp versions).
    pub whole_calls: bool,
    /// Every call with `index: 0`, told apart only by a new `id`.
    pub index_zero: bool,
    /// No `index` on any fragment.
    pub no_index: bool,
    /// No `finish_reason` before `[DONE]`.
    pub no_finish_reason: bool,
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
    /// The byte stream is written in chunks of this many bytes, so JSON splits at any byte (`None`: one chunk per
    /// event).
    #[serde(default)]
    pub chunk_bytes: Option<usize>,
    /// Pause between chunks (with `chunk_bytes: None`, between events).
    #[serde(default)]
    pub chunk_delay_ms: u64,
    /// Pause before the response (status and headers) is sent: the time to first byte.
    #[serde(default)]
    pub delay_before_ms: u64,
    /// A `ping` event after every n-th event.
    #[serde(default)]
    pub ping_every: Option<usize>,
    /// Stop sending after this many bytes, breaking the connection.
    #[serde(default)]
    pub cut_after_bytes: Option<usize>,
    /// Send nothing more after this many chunks, holding the connection open (a server that stalls mid-answer).
    #[serde(default)]
    pub stall_after_chunks: Option<usize>,
    /// While stalled, a `ping` event every this many milliseconds (a server that keeps the connection alive but
    /// sends no content).
    #[serde(default)]
    pub stall_pings_ms: Option<u64>,
    /// Send an `error` event (type, message) after this many content events instead of finishing.
    #[serde(default)]
    pub error_after_events: Option<(usize, String, String)>,
    /// An event of a type the protocol does not define, sent before the first block.
    #[serde(default)]
    pub unknown_event: bool,
    /// How tool calls are streamed in the OpenAI-compatible mode.
    #[serde(default)]
    pub openai: ChatQuirks,
    #[serde(default = "default_tokens")]
    pub input_tokens: u64,
    #[serde(default = "default_tokens")]
    pub output_tokens: u64,
    /// The prompt-cache figures the response reports beside `input_tokens` (the Messages API only).
    #[serde(default)]
    pub cache_read_input_tokens: u64,
    #[serde(default)]
    pub cache_creation_input_tokens: u64,
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
            delay_before_ms: 0,
            ping_every: None,
            cut_after_bytes: None,
            stall_after_chunks: None,
            stall_pings_ms: None,
            error_after_events: None,
            unknown_event: false,
            openai: ChatQuirks::default(),
            input_tokens: default_tokens(),
            output_tokens: default_tokens(),
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
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

    /// The chat-completions `finish_reason` for the stop reason.
    pub fn chat_finish_reason(&self) -> String {
        match self.effective_stop_reason().as_str() {
            "end_turn" | "stop_sequence" | "pause_turn" => "stop".into(),
            "tool_use" => "tool_calls".into(),
            "max_tokens" => "length".into(),
            "refusal" => "content_filter".into(),
            other => other.into(),
        }
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
    /// An HTTP error with the protocol's error body and the given `retry-after`, `retry-after-ms` and
    /// `x-should-retry` headers.
    Error {
        status: u16,
        error_type: String,
        message: String,
        #[serde(default)]
        retry_after: Option<String>,
        #[serde(default)]
        retry_after_ms: Option<String>,
        #[serde(default)]
        should_retry: Option<bool>,
    },
    /// A response that is not an event stream (what a proxy, a gateway or a misconfigured server may send): the
    /// status, `Content-Type` and optional `Content-Encoding` headers and the body, exactly as given.
    Raw {
        status: u16,
        content_type: String,
        #[serde(default)]
        content_encoding: Option<String>,
        body: Vec<u8>,
    },
}

impl ScriptedReply {
    /// A 200 response of `content_type` with `body` (not an event stream).
    pub fn raw(content_type: impl Into<String>, body: impl Into<Vec<u8>>) -> Self {
        Self::Raw {
            status: 200,
            content_type: content_type.into(),
            content_encoding: None,
            body: body.into(),
        }
    }

    /// An HTTP error without retry headers.
    pub fn http_error(
        status: u16,
        error_type: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::Error {
            status,
            error_type: error_type.into(),
            message: message.into(),
            retry_after: None,
            retry_after_ms: None,
            should_retry: None,
        }
    }
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
