//! Models: the [`Model`] trait (a request in, a stream of [`ModelEvent`]s out), the Anthropic Messages and
//! OpenAI-compatible chat-completions clients, their configuration and retry policy (docs/model-protocol.md).

mod anthropic;
mod anthropic_stream;
mod config;
mod error;
mod fragments;
mod openai;
mod openai_body;
mod openai_stream;
pub mod pricing;
mod renamed;
mod retry;
pub mod sse;
pub mod strict;
pub mod switchable;
mod tokens;
mod transport;
mod turn_model;
mod types;

use std::sync::Arc;

pub use anthropic::AnthropicModel;
pub use config::{DEFAULT_ANTHROPIC_URL, DEFAULT_MODEL, DEFAULT_OPENAI_URL, ModelConfig, Provider};
pub use error::ModelError;
pub use openai::OpenAiModel;
pub use renamed::{RenamedModel, claude_alias};
pub use retry::RetryPolicy;
pub use switchable::SwitchableModel;
pub use tokens::{CHARS_PER_TOKEN, estimate_json_tokens, estimate_text_tokens, estimate_tokens};
pub use turn_model::{TurnModel, TurnModelClient};
pub use types::*;

use futures::stream::BoxStream;

/// A stream of model events for one request.
pub type ModelStream = BoxStream<'static, Result<ModelEvent, ModelError>>;

/// A language model behind some wire protocol.
///
/// Contract: `stream` returns at once; the request is sent when the stream is first polled. The stream yields
/// [`ModelEvent::Retrying`] before each retry, the message's events in order, and ends after exactly one
/// [`ModelEvent::MessageComplete`] — or ends with one `Err` (no event follows an error). A tool_use whose block did not
/// complete is never yielded. Dropping the stream cancels the request.
pub trait Model: Send + Sync {
    /// The model name sent in requests.
    fn model_name(&self) -> &str;
    fn stream(&self, request: ModelRequest) -> ModelStream;
}

/// The client for `config.provider`.
pub fn connect(config: ModelConfig) -> Result<Arc<dyn Model>, ModelError> {
    Ok(match config.provider {
        Provider::Anthropic => Arc::new(AnthropicModel::new(config)?),
        Provider::OpenAiCompatible => Arc::new(OpenAiModel::new(config)?),
    })
}
