//! Single completions for the tools of a session (WebFetch's answer from a page), on the session's small, fast
//! model: `ANTHROPIC_SMALL_FAST_MODEL` when set, a Haiku model when the session talks to Claude, else the session's
//! own model. Implements [`ModelCompleter`].

use std::sync::Arc;

use futures::StreamExt;
use futures::future::BoxFuture;

use crate::model::{Message, Model, ModelEvent, ModelRequest};
use crate::tool::{CompletionError, CompletionRequest, ModelCompleter};

/// The small, fast model's default when the session talks to Claude.
const DEFAULT_SMALL_FAST_MODEL: &str = "claude-haiku-4-5";

/// The model name for side completions, given the session's model and the environment.
pub fn small_fast_model(session_model: &str, env: impl Fn(&str) -> Option<String>) -> String {
    if let Some(name) = env("ANTHROPIC_SMALL_FAST_MODEL").filter(|n| !n.trim().is_empty()) {
        return name;
    }
    if session_model.starts_with("claude") {
        DEFAULT_SMALL_FAST_MODEL.to_string()
    } else {
        session_model.to_string()
    }
}

/// The session's completer.
pub struct SessionCompleter {
    model: Arc<dyn Model>,
    name: String,
}

impl std::fmt::Debug for SessionCompleter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionCompleter")
            .field("model", &self.name)
            .finish()
    }
}

impl SessionCompleter {
    /// The completer of a session whose model is `model`: the small fast model of its family answers.
    pub fn for_model(model: &Arc<dyn Model>) -> Arc<dyn ModelCompleter> {
        Arc::new(Self::new(
            model.clone(),
            small_fast_model(model.model_name(), |k| std::env::var(k).ok()),
        ))
    }

    /// Completions through `model`'s client, sending the model name `name`.
    pub fn new(model: Arc<dyn Model>, name: String) -> Self {
        Self { model, name }
    }

    async fn run(&self, request: CompletionRequest) -> Result<String, CompletionError> {
        let mut stream = self.model.stream(ModelRequest {
            model: self.name.clone(),
            max_tokens: request.max_tokens,
            system: vec![request.system],
            messages: vec![Message::user_text(request.prompt)],
            tools: Vec::new(),
            thinking: None,
        });
        loop {
            let next = tokio::select! {
                _ = request.cancel.cancelled() => return Err(CompletionError::Cancelled),
                next = stream.next() => next,
            };
            match next {
                Some(Ok(ModelEvent::MessageComplete { message, .. })) => return Ok(message.text()),
                Some(Ok(_)) => {}
                Some(Err(err)) => return Err(CompletionError::Failed(err.to_string())),
                None => {
                    return Err(CompletionError::Failed(
                        "the model stream ended without a message".into(),
                    ));
                }
            }
        }
    }
}

impl ModelCompleter for SessionCompleter {
    fn complete(
        &self,
        request: CompletionRequest,
    ) -> BoxFuture<'_, Result<String, CompletionError>> {
        Box::pin(self.run(request))
    }

    fn model_name(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_model_follows_the_environment_then_the_provider() {
        let none = |_: &str| None;
        assert_eq!(
            small_fast_model("claude-sonnet-4-5", none),
            "claude-haiku-4-5"
        );
        assert_eq!(small_fast_model("qwen3:8b", none), "qwen3:8b");
        let set = |k: &str| (k == "ANTHROPIC_SMALL_FAST_MODEL").then(|| "tiny".to_string());
        assert_eq!(small_fast_model("claude-sonnet-4-5", set), "tiny");
    }
}
