//! [`RenamedModel`]: the session's connection sending another model name — the model a sub-agent or a custom
//! command asks for — and the Claude aliases such a name may use.

use std::sync::Arc;

use super::{Model, ModelRequest, ModelStream};

/// A model client sending `name` instead of its own model name.
pub struct RenamedModel {
    inner: Arc<dyn Model>,
    name: String,
}

impl RenamedModel {
    pub fn new(inner: Arc<dyn Model>, name: impl Into<String>) -> Self {
        Self {
            inner,
            name: name.into(),
        }
    }
}

impl Model for RenamedModel {
    fn model_name(&self) -> &str {
        &self.name
    }

    fn stream(&self, mut request: ModelRequest) -> ModelStream {
        request.model = self.name.clone();
        self.inner.stream(request)
    }
}

/// The Claude model id an alias (`sonnet`, `opus`, `haiku`) stands for; any other name is returned as it is.
pub fn claude_alias(name: &str) -> &str {
    match name {
        "sonnet" => "claude-sonnet-4-5",
        "opus" => "claude-opus-4-1",
        "haiku" => "claude-haiku-4-5",
        other => other,
    }
}
