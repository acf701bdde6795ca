//! One turn of the query loop.

use futures::StreamExt;
use tandem_protocol::{SessionEvent, TurnStopReason, Usage};
use tokio_util::sync::CancellationToken;

use crate::exec::{ToolRuntime, run_tool_use};
use crate::model::{
    ContentBlock, Message, Model, ModelError, ModelEvent, ModelRequest, Role, StopReason, pricing,
};

/// Limits and fixed parts of each request.
#[derive(Debug, Clone)]
pub struct QueryConfig {
    pub max_tokens: u32,
    /// Model requests allowed in one turn.
    pub max_turns: u32,
    pub system: Vec<String>,
}

impl Default for QueryConfig {
    fn default() -> Self {
        Self {
            max_tokens: 16_000,
            max_turns: 100,
            system: Vec::new(),
        }
    }
}

/// How a turn ended.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    pub stop_reason: TurnStopReason,
    /// The assistant's text of the last message.
    pub final_text: String,
    pub usage: Usage,
    /// Model requests made.
    pub requests: u32,
}

/// A turn that could not finish.
#[derive(Debug, Clone, thiserror::Error)]
pub enum QueryError {
    #[error(transparent)]
    Model(#[from] ModelError),
}

fn text_of(message: &Message) -> String {
    message
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("")
}

/// Appends a user prompt, merging it into a trailing user message (left by a turn that failed) so that roles keep
/// alternating.
fn push_user_text(history: &mut Vec<Message>, prompt: &str) {
    match history.last_mut() {
        Some(last) if last.role == Role::User => last.content.push(ContentBlock::Text {
            text: prompt.to_string(),
        }),
        _ => history.push(Message::user_text(prompt)),
    }
}

/// Runs one turn: `prompt` is added to `history`, usage is added to `session_usage`, and the assistant's messages and tool results are appended as
/// they complete. On an error the history keeps everything that completed; no tool_use is left without a result.
pub async fn run_turn(
    model: &dyn Model,
    runtime: &ToolRuntime,
    config: &QueryConfig,
    history: &mut Vec<Message>,
    session_usage: &mut Usage,
    prompt: &str,
    cancel: &CancellationToken,
) -> Result<TurnOutcome, QueryError> {
    let events = runtime.events.clone();
    events.emit(SessionEvent::TurnStarted {
        prompt: prompt.to_string(),
    });
    push_user_text(history, prompt);
    let mut usage = Usage::default();
    let mut requests = 0u32;
    let mut final_text = String::new();
    let end = |reason: TurnStopReason| {
        events.emit(SessionEvent::TurnEnded {
            stop_reason: reason,
        })
    };

    loop {
        if requests >= config.max_turns {
            end(TurnStopReason::MaxTurns);
            return Ok(TurnOutcome {
                stop_reason: TurnStopReason::MaxTurns,
                final_text,
                usage,
                requests,
            });
        }
        requests += 1;
        let request = ModelRequest {
            model: model.model_name().to_string(),
            max_tokens: config.max_tokens,
            system: config.system.clone(),
            messages: history.clone(),
            tools: runtime.pool.specs(),
            thinking: None,
        };
        let mut stream = model.stream(request);
        let mut completed = None;
        loop {
            let next = tokio::select! {
                next = stream.next() => next,
                _ = cancel.cancelled() => {
                    end(TurnStopReason::Interrupted);
                    return Ok(TurnOutcome { stop_reason: TurnStopReason::Interrupted, final_text, usage, requests });
                }
            };
            match next {
                None => break,
                Some(Err(err)) => {
                    events.emit(SessionEvent::Error {
                        message: err.to_string(),
                    });
                    end(TurnStopReason::Error);
                    return Err(err.into());
                }
                Some(Ok(event)) => match event {
                    ModelEvent::TextDelta(text) => events.emit(SessionEvent::TextDelta { text }),
                    ModelEvent::ThinkingDelta(text) => {
                        events.emit(SessionEvent::ThinkingDelta { text })
                    }
                    ModelEvent::ToolUseStarted { id, name } => {
                        events.emit(SessionEvent::ToolCallStarted {
                            tool_use_id: id,
                            name,
                        })
                    }
                    ModelEvent::ToolUseComplete { .. } => {}
                    ModelEvent::Retrying {
                        attempt,
                        wait_ms,
                        reason,
                    } => events.emit(SessionEvent::Retrying {
                        attempt,
                        wait_ms,
                        reason,
                    }),
                    ModelEvent::MessageComplete {
                        message,
                        stop_reason,
                        usage: turn_usage,
                    } => {
                        completed = Some((message, stop_reason, turn_usage));
                    }
                },
            }
        }
        let Some((message, stop_reason, turn_usage)) = completed else {
            let err = ModelError::Connection("the model stream ended without a message".into());
            events.emit(SessionEvent::Error {
                message: err.to_string(),
            });
            end(TurnStopReason::Error);
            return Err(err.into());
        };
        usage.add(&turn_usage);
        session_usage.add(&turn_usage);
        events.emit(SessionEvent::UsageUpdated {
            turn: turn_usage,
            session: *session_usage,
            cost_usd: pricing::cost_usd(model.model_name(), session_usage),
        });
        final_text = text_of(&message);
        let tool_uses: Vec<(String, String, serde_json::Value)> = message
            .tool_uses()
            .map(|(id, name, input)| (id.to_string(), name.to_string(), input.clone()))
            .collect();
        history.push(message);

        if !tool_uses.is_empty() {
            let mut results = Vec::with_capacity(tool_uses.len());
            for (id, name, input) in &tool_uses {
                let outcome = run_tool_use(runtime, id, name, input, cancel).await;
                results.push(outcome.block);
            }
            history.push(Message {
                role: Role::User,
                content: results,
            });
            if cancel.is_cancelled() {
                end(TurnStopReason::Interrupted);
                return Ok(TurnOutcome {
                    stop_reason: TurnStopReason::Interrupted,
                    final_text,
                    usage,
                    requests,
                });
            }
            continue;
        }
        let reason = match stop_reason {
            StopReason::PauseTurn => continue,
            StopReason::MaxTokens => TurnStopReason::MaxTokens,
            StopReason::Refusal => TurnStopReason::Refusal,
            _ => TurnStopReason::EndTurn,
        };
        end(reason);
        return Ok(TurnOutcome {
            stop_reason: reason,
            final_text,
            usage,
            requests,
        });
    }
}
