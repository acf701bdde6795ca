//! One model request of a turn: stream the answer, hand each completed tool_use to the streaming executor at once,
//! and collect the results in call order.

use futures::StreamExt;
use tandem_protocol::{SessionEvent, Usage};
use tokio_util::sync::CancellationToken;

use super::config::QueryConfig;
use super::result_budget;
use super::server_calls::ServerCalls;
use crate::exec::{StreamingExecutor, ToolRuntime};
use crate::model::{
    ContentBlock, Message, Model, ModelError, ModelEvent, ModelRequest, Role, StopReason,
};

/// How the request ended.
#[derive(Debug)]
pub enum StepEnd {
    Complete {
        stop_reason: StopReason,
        usage: Usage,
    },
    Failed(ModelError),
    Interrupted,
}

/// What one request produced.
#[derive(Debug)]
pub struct Step {
    /// The assistant message: complete, or the completed blocks of a cut-off one (may be empty).
    pub assistant: Message,
    /// One tool_result per tool_use in `assistant`, in order.
    pub results: Vec<ContentBlock>,
    pub end: StepEnd,
    /// A hook's `continue: false` on one of the calls: the turn ends after this step, for this reason.
    pub ends_turn: Option<String>,
}

/// Streams one request. Tool calls start while the model still talks; text and tool events go to the runtime's
/// sink. A tool_use is only run once its block is complete.
pub async fn stream_and_execute(
    model: &dyn Model,
    runtime: &ToolRuntime,
    config: &QueryConfig,
    request: ModelRequest,
    cancel: &CancellationToken,
) -> Step {
    let events = runtime.events.clone();
    let (mut executor, mut done_rx) =
        StreamingExecutor::new(runtime.clone(), cancel.clone(), config.max_concurrency);
    let mut stream = model.stream(request);
    let mut partial_text = String::new();
    let mut completed_calls: Vec<ContentBlock> = Vec::new();
    let mut server_calls = ServerCalls::default();
    let outcome = loop {
        tokio::select! {
            biased;
            _ = cancel.cancelled() => break Err(StepEnd::Interrupted),
            Some(done) = done_rx.recv() => executor.on_completion(done),
            next = stream.next() => match next {
                None => break Err(StepEnd::Failed(ModelError::Connection("the model stream ended without a message".into()))),
                Some(Err(err)) => break Err(StepEnd::Failed(err)),
                Some(Ok(event)) => match event {
                    ModelEvent::TextDelta(text) => {
                        partial_text.push_str(&text);
                        events.emit(SessionEvent::TextDelta { text });
                    }
                    ModelEvent::ThinkingDelta(text) => events.emit(SessionEvent::ThinkingDelta { text }),
                    ModelEvent::ToolUseStarted { id, name } => {
                        events.emit(SessionEvent::ToolCallStarted { tool_use_id: id, name })
                    }
                    ModelEvent::ToolUseComplete { id, name, input } => {
                        if let Some(ledger) = &runtime.conversation { ledger.call_started(&id) }
                        completed_calls.push(ContentBlock::ToolUse { id: id.clone(), name: name.clone(), input: input.clone() });
                        executor.add(id, name, input);
                    }
                    ModelEvent::ToolUseInvalid { id, name, error } => {
                        completed_calls.push(ContentBlock::ToolUse { id: id.clone(), name: name.clone(), input: serde_json::json!({}) });
                        executor.add_invalid(id, name, format!("Error: {error}; nothing ran. Send the call again with a complete JSON object as its input."));
                    }
                    ModelEvent::ServerToolUse { id, name, input } => server_calls.started(&events, id, name, &input),
                    ModelEvent::ServerToolResult { tool_use_id, content } => server_calls.finished(&events, &tool_use_id, &content),
                    ModelEvent::Retrying { attempt, wait_ms, reason } => {
                        events.emit(SessionEvent::Retrying { attempt, wait_ms, reason })
                    }
                    ModelEvent::MessageComplete { message, stop_reason, usage } => break Ok((message, stop_reason, usage)),
                },
            },
        }
    };
    drop(stream);
    if matches!(outcome, Err(StepEnd::Interrupted)) {
        executor.interrupt();
    }
    let mut outcomes = executor.take_ready();
    outcomes.extend(executor.finish(&mut done_rx).await);
    let ends_turn = outcomes.iter().find_map(|o| o.ends_turn.clone());
    let mut added = Vec::new();
    let mut results: Vec<ContentBlock> = outcomes
        .into_iter()
        .map(|o| {
            added.extend(o.new_messages);
            o.block
        })
        .collect();
    let limit_of = |id: &str| {
        completed_calls
            .iter()
            .find_map(|c| match c {
                ContentBlock::ToolUse { id: call, name, .. } if call == id => {
                    runtime.pool.find(name)
                }
                _ => None,
            })
            .map(|tool| tool.max_result_size_chars())
            // A call of a tool not in the pool (its result is an error) is held to the message's budget.
            .unwrap_or(result_budget::MESSAGE_BUDGET_CHARS)
    };
    result_budget::enforce(&mut results, limit_of, &config.results_dir);
    // What the tools added for the model comes after every result (the API wants the results first).
    results.extend(added.into_iter().map(|text| ContentBlock::Text { text }));
    match outcome {
        Ok((message, stop_reason, usage)) => Step {
            assistant: message,
            results,
            end: StepEnd::Complete { stop_reason, usage },
            ends_turn,
        },
        Err(end) => {
            // Keep what completed: the text so far and the tool calls that ran (each has its result).
            let mut content = Vec::new();
            if !partial_text.is_empty() {
                content.push(ContentBlock::Text { text: partial_text });
            }
            content.extend(completed_calls);
            Step {
                assistant: Message::new(Role::Assistant, content),
                results,
                end,
                ends_turn,
            }
        }
    }
}
