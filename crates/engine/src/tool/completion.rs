//! The door from a tool to one plain model completion (WebFetch answers a prompt from a page with it): a tool asks
//! its session through [`ModelCompleter`], implemented by the session (which holds the model), never by importing it.

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

/// One completion to run: a system prompt, one user message, no tools.
#[derive(Debug, Clone)]
pub struct CompletionRequest {
    pub system: String,
    pub prompt: String,
    /// Most tokens the answer may have.
    pub max_tokens: u32,
    /// Fires when the calling tool call is cancelled.
    pub cancel: CancellationToken,
}

/// Why a completion has no answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CompletionError {
    #[error("the model request was cancelled")]
    Cancelled,
    #[error("the model request failed: {0}")]
    Failed(String),
}

/// Runs single completions for the tools of a session on the session's small, fast model.
///
/// Contract: [`ModelCompleter::complete`] sends one request (system prompt, one user message, no tools) and resolves
/// with the answer's text. When `request.cancel` fires it drops the request and resolves with
/// [`CompletionError::Cancelled`]. It asks nobody anything and records nothing in the conversation.
pub trait ModelCompleter: Send + Sync + std::fmt::Debug {
    fn complete(
        &self,
        request: CompletionRequest,
    ) -> BoxFuture<'_, Result<String, CompletionError>>;

    /// The model the completions run on (for the render and the logs).
    fn model_name(&self) -> String;
}
