//! Conversation data in the Anthropic Messages shape (the engine's own transcript format), the request the query
//! loop builds, and the events a model stream yields.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tandem_protocol::Usage;

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

/// An image in a message or a tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ImageSource {
    Base64 { media_type: String, data: String },
}

/// A block inside a tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResultBlock {
    Text { text: String },
    Image { source: ImageSource },
}

/// The content of a tool result: text, or blocks (text and images).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToolResultContent {
    Text(String),
    Blocks(Vec<ResultBlock>),
}

impl ToolResultContent {
    /// The text of the result (images are shown as `[image]`).
    pub fn as_text(&self) -> String {
        match self {
            Self::Text(t) => t.clone(),
            Self::Blocks(blocks) => blocks
                .iter()
                .map(|b| match b {
                    ResultBlock::Text { text } => text.clone(),
                    ResultBlock::Image { .. } => "[image]".to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// Number of characters the model would read.
    pub fn len_chars(&self) -> usize {
        match self {
            Self::Text(t) => t.chars().count(),
            Self::Blocks(blocks) => blocks
                .iter()
                .map(|b| match b {
                    ResultBlock::Text { text } => text.chars().count(),
                    ResultBlock::Image { .. } => 0,
                })
                .sum(),
        }
    }
}

/// One block of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    Image {
        source: ImageSource,
    },
    Thinking {
        thinking: String,
        signature: String,
    },
    RedactedThinking {
        data: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    ToolResult {
        tool_use_id: String,
        content: ToolResultContent,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
    /// A tool the provider ran itself (its web search), as the model called it; kept in the history as it came.
    ServerToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// The provider's web search results for a [`ContentBlock::ServerToolUse`]: a list of results, or an error
    /// object; kept as it came (the results carry encrypted content the provider needs back).
    WebSearchToolResult {
        tool_use_id: String,
        content: Value,
    },
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: Vec<ContentBlock>,
    /// What the message is to the session (never sent to the model, stored beside the message).
    #[serde(skip)]
    pub marks: MessageMarks,
}

/// The session's marks on one message: the prompts of the person it holds and whether it opens with a compaction's
/// summary. They name the places a rewind or a fork goes back to, and move with the message when a compaction
/// rewrites the history, so a prompt keeps its id for the whole life of the session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageMarks {
    /// The ids of the prompts in this message (usually one; a prompt sent after a turn that failed before the
    /// model answered joins that turn's message).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prompts: Vec<String>,
    /// The first content block is the summary a compaction wrote of the conversation before this message, which
    /// held the prompts with ids below this one (the first prompt the compaction kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_before: Option<String>,
    /// The id of the `/compact` that wrote that summary (an automatic compaction has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<String>,
}

impl MessageMarks {
    /// Whether the message opens with a compaction's summary.
    pub fn has_summary(&self) -> bool {
        self.summary_before.is_some()
    }

    /// Whether there is no mark.
    pub fn is_empty(&self) -> bool {
        self.prompts.is_empty() && self.summary_before.is_none() && self.compaction.is_none()
    }
}

/// The text blocks of `blocks` joined with `separator` (thinking, tool calls, results and images left out).
pub fn text_of(blocks: &[ContentBlock], separator: &str) -> String {
    blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(separator)
}

impl Message {
    /// A message of `role` with `content` and no marks.
    pub fn new(role: Role, content: Vec<ContentBlock>) -> Self {
        Self {
            role,
            content,
            marks: MessageMarks::default(),
        }
    }

    /// A user message with one text block.
    pub fn user_text(text: impl Into<String>) -> Self {
        Self::new(Role::User, vec![ContentBlock::Text { text: text.into() }])
    }

    /// The text blocks of this message, joined (thinking, tool calls and images left out).
    pub fn text(&self) -> String {
        text_of(&self.content, "")
    }

    /// The `tool_use` blocks of this message.
    pub fn tool_uses(&self) -> impl Iterator<Item = (&str, &str, &Value)> {
        self.content.iter().filter_map(|b| match b {
            ContentBlock::ToolUse { id, name, input } => Some((id.as_str(), name.as_str(), input)),
            _ => None,
        })
    }
}

/// A tool as the model is told about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    /// For a tool the provider runs itself: its definition, sent as it is instead of name, description and
    /// schema (e.g. `{"type": "web_search_20250305", "name": "web_search", ...}`). Providers without server tools
    /// leave such a tool out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<Value>,
    /// Whether the tool asks for a strict definition (see [`crate::model::strict`]); a provider or model that
    /// does not take them sends it plain.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strict: bool,
}

/// Why the model stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    ToolUse,
    MaxTokens,
    StopSequence,
    PauseTurn,
    Refusal,
}

/// Extended thinking settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkingConfig {
    pub budget_tokens: u32,
}

/// One request to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRequest {
    pub model: String,
    pub max_tokens: u32,
    /// System prompt blocks; the last one gets a cache breakpoint.
    pub system: Vec<String>,
    pub messages: Vec<Message>,
    /// In cache-stable order; the last one gets a cache breakpoint.
    pub tools: Vec<ToolSpec>,
    pub thinking: Option<ThinkingConfig>,
}

/// What a model stream yields, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelEvent {
    /// Text streamed into the current text block.
    TextDelta(String),
    /// Thinking streamed into the current thinking block.
    ThinkingDelta(String),
    /// A tool_use block began (its input is still streaming).
    ToolUseStarted { id: String, name: String },
    /// A tool_use block is complete: the executor may start it now.
    ToolUseComplete {
        id: String,
        name: String,
        input: Value,
    },
    /// A tool_use block ended but its input is not valid JSON (malformed, or cut off at the output limit): the call
    /// is answered with an error result and nothing runs; the message records the call with an empty input.
    ToolUseInvalid {
        id: String,
        name: String,
        /// What is wrong with the input, for the model.
        error: String,
    },
    /// The provider began running one of its own tools (web search), with this input; no result is owed by the
    /// client.
    ServerToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// The provider's result of its own tool call `tool_use_id` (web search results or an error object).
    ServerToolResult { tool_use_id: String, content: Value },
    /// The model request is being retried after a failure.
    Retrying {
        attempt: u32,
        wait_ms: u64,
        reason: String,
    },
    /// The message is complete.
    MessageComplete {
        message: Message,
        stop_reason: StopReason,
        usage: Usage,
    },
}
