//! The model of one turn: a custom command's or a skill's `model` answers the turn it runs in — every request of
//! it, tool results included — and the sub-agents started during it, then the session's model is back.
//! [`TurnModel`] holds that name for the turn; [`TurnModelClient`] sends it.

use std::sync::{Arc, Mutex};

use super::{Model, ModelRequest, ModelStream, claude_alias};

/// The model name asked for by what runs in the current turn (none: the session's model).
///
/// Shared by the session (which sets it when a command or a skill starts a turn, and clears it when the turn
/// ends), the Skill tool (a skill the model invokes switches the rest of the turn) and the sub-agents started
/// during the turn (they run on it unless their call or their type names a model).
#[derive(Debug, Default)]
pub struct TurnModel(Mutex<Option<String>>);

impl TurnModel {
    /// Sets the turn's model (`None` or a blank name: the session's).
    pub fn set(&self, name: Option<&str>) {
        let name = name
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string);
        match self.0.lock() {
            Ok(mut slot) => *slot = name,
            Err(poisoned) => *poisoned.into_inner() = name,
        }
    }

    /// The turn's model name as it was asked for, if any.
    pub fn get(&self) -> Option<String> {
        match self.0.lock() {
            Ok(slot) => slot.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// The name to send for the turn's model on a connection to `session_model`: `sonnet`, `opus` and `haiku` stand
    /// for Claude models when the session talks to one.
    pub fn resolved(&self, session_model: &str) -> Option<String> {
        self.get().map(|wanted| {
            if session_model.starts_with("claude") {
                claude_alias(&wanted).to_string()
            } else {
                wanted
            }
        })
    }
}

/// The session's connection sending the turn's model, when one is set, in each request.
pub struct TurnModelClient {
    inner: Arc<dyn Model>,
    turn: Arc<TurnModel>,
    /// The name reported for the turn (the one set when it started), for its cost.
    name: String,
}

impl TurnModelClient {
    /// A client for one turn over `inner`, following `turn`.
    pub fn new(inner: Arc<dyn Model>, turn: Arc<TurnModel>) -> Self {
        let name = turn
            .resolved(inner.model_name())
            .unwrap_or_else(|| inner.model_name().to_string());
        Self { inner, turn, name }
    }
}

impl Model for TurnModelClient {
    fn model_name(&self) -> &str {
        &self.name
    }

    fn stream(&self, mut request: ModelRequest) -> ModelStream {
        request.model = self
            .turn
            .resolved(self.inner.model_name())
            .unwrap_or_else(|| self.inner.model_name().to_string());
        self.inner.stream(request)
    }
}
