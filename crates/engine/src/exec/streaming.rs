//! The streaming executor: each tool_use starts as soon as its block completes, while the model is still talking.
//! Concurrency-safe calls run together (up to a cap); any other call runs alone; calls never start out of order;
//! results are yielded in call order; a failing shell call aborts its running siblings but not the turn; an
//! interrupt stops `cancel` tools and lets `block` tools finish. Every tool_use gets exactly one result.

use serde_json::Value;
use tandem_protocol::{RenderHints, SessionEvent, ToolCallStatus, ToolKind, ToolOutcome};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use super::pipeline::finish_without_output;
use super::planned::PlannedCall;
use super::traits::CallTraits;
use super::{CancelReason, ToolCallOutcome, ToolRuntime, run_planned_explained};
use crate::tool::ContextChange;

/// Environment variable capping how many concurrency-safe calls run at once.
pub const MAX_CONCURRENCY_ENV: &str = "CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY";
/// The cap when the variable is not set.
pub const DEFAULT_MAX_CONCURRENCY: usize = 10;

/// The concurrency cap from the environment (invalid or zero values fall back to the default).
pub fn max_concurrency_from_env() -> usize {
    std::env::var(MAX_CONCURRENCY_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_MAX_CONCURRENCY)
}

/// Where a call is.
#[derive(Debug)]
enum State {
    Queued,
    Executing,
    Completed(Box<ToolCallOutcome>),
    Yielded,
}

#[derive(Debug)]
struct Tracked {
    id: String,
    traits: CallTraits,
    /// The call, until it starts (or is answered without running).
    planned: Option<PlannedCall>,
    state: State,
}

/// A finished call reported by its task: (index, outcome).
pub type Completion = (usize, ToolCallOutcome);

/// Runs the tool calls of one assistant message.
///
/// Drive it by calling [`add`](Self::add) as tool_use blocks complete and [`on_completion`](Self::on_completion)
/// with every value received from the receiver returned by [`new`](Self::new); collect results with
/// [`take_ready`](Self::take_ready) and [`finish`](Self::finish).
pub struct StreamingExecutor {
    runtime: ToolRuntime,
    turn_cancel: CancellationToken,
    /// Fired when a shell call fails: cancels the running siblings (a child of the turn's token).
    sibling_abort: CancellationToken,
    sibling_failed: Option<String>,
    max_concurrency: usize,
    calls: Vec<Tracked>,
    done_tx: mpsc::UnboundedSender<Completion>,
    next_to_yield: usize,
    /// The running calls' tasks: dropping the executor aborts them (after firing their cancellation tokens).
    tasks: JoinSet<()>,
    /// Why the running calls were stopped, when a sibling's failure stopped them.
    abort_reason: CancelReason,
}

impl StreamingExecutor {
    /// An executor for one message; the receiver delivers completions to feed back into
    /// [`on_completion`](Self::on_completion).
    pub fn new(
        runtime: ToolRuntime,
        turn_cancel: CancellationToken,
        max_concurrency: usize,
    ) -> (Self, mpsc::UnboundedReceiver<Completion>) {
        let (done_tx, done_rx) = mpsc::unbounded_channel();
        let sibling_abort = turn_cancel.child_token();
        let executor = Self {
            runtime,
            turn_cancel,
            sibling_abort,
            sibling_failed: None,
            max_concurrency: max_concurrency.max(1),
            calls: Vec::new(),
            done_tx,
            next_to_yield: 0,
            tasks: JoinSet::new(),
            abort_reason: CancelReason::default(),
        };
        (executor, done_rx)
    }

    /// Queues a complete tool_use and starts it if the rules allow.
    pub fn add(&mut self, id: String, name: String, input: Value) {
        let planned = PlannedCall::new(&self.runtime, id.clone(), name, input);
        self.runtime
            .events
            .emit(SessionEvent::ToolCallStatusChanged {
                tool_use_id: id.clone(),
                status: ToolCallStatus::Queued,
            });
        self.calls.push(Tracked {
            id,
            traits: planned.traits,
            planned: Some(planned),
            state: State::Queued,
        });
        self.process_queue();
    }

    /// Records a call that cannot run because its input could not be read: it is answered with `message` as an
    /// error result at once, in its place in call order.
    pub fn add_invalid(&mut self, id: String, name: String, message: String) {
        self.runtime.events.emit(SessionEvent::ToolCallInput {
            tool_use_id: id.clone(),
            name: name.clone(),
            input: Value::Object(Default::default()),
            hints: RenderHints {
                kind: ToolKind::Other,
                title: name,
                collapsible: false,
            },
        });
        let outcome = finish_without_output(&self.runtime, &id, ToolOutcome::Error, message);
        self.calls.push(Tracked {
            id,
            traits: CallTraits {
                concurrency_safe: true,
                interrupt: crate::tool::InterruptBehavior::Cancel,
                aborts_siblings_on_error: false,
            },
            planned: None,
            state: State::Completed(Box::new(outcome)),
        });
    }

    /// Whether any call is still queued or running.
    pub fn has_pending(&self) -> bool {
        self.calls
            .iter()
            .any(|c| matches!(c.state, State::Queued | State::Executing))
    }

    fn executing(&self) -> impl Iterator<Item = &Tracked> {
        self.calls
            .iter()
            .filter(|c| matches!(c.state, State::Executing))
    }

    /// Starts queued calls in order while the rules allow: a call may start when nothing runs, or when it and every
    /// running call are concurrency-safe and the cap is not reached. A call that cannot start blocks the ones after
    /// it, so calls never start out of order.
    fn process_queue(&mut self) {
        while let Some(index) = self
            .calls
            .iter()
            .position(|c| matches!(c.state, State::Queued))
        {
            if self.sibling_abort.is_cancelled() {
                self.complete_unstarted(index);
                continue;
            }
            let safe = self.calls[index].traits.concurrency_safe;
            let running = self.executing().count();
            let all_safe = self.executing().all(|c| c.traits.concurrency_safe);
            let can_start = running == 0 || (safe && all_safe && running < self.max_concurrency);
            if !can_start {
                break;
            }
            self.start(index);
        }
    }

    fn start(&mut self, index: usize) {
        let Some(planned) = self.calls[index].planned.take() else {
            // A queued call always holds its plan; answer it rather than leave it running forever.
            self.complete_unstarted(index);
            return;
        };
        self.calls[index].state = State::Executing;
        let runtime = self.runtime.clone();
        let cancel = self.sibling_abort.child_token();
        let done = self.done_tx.clone();
        let reason = self.abort_reason.clone();
        // Reap the tasks that have ended so the set holds only running ones.
        while self.tasks.try_join_next().is_some() {}
        // The call runs in the span of the turn that started it (its log lines name the turn).
        self.tasks.spawn(
            async move {
                let outcome = run_planned_explained(&runtime, planned, &cancel, &reason).await;
                let _ = done.send((index, outcome));
            }
            .in_current_span(),
        );
    }

    /// A call that never started: it gets a result saying why.
    fn complete_unstarted(&mut self, index: usize) {
        let call = &self.calls[index];
        let message = self.abort_message();
        let outcome =
            finish_without_output(&self.runtime, &call.id, ToolOutcome::Cancelled, message);
        self.calls[index].planned = None;
        self.calls[index].state = State::Completed(Box::new(outcome));
    }

    fn abort_message(&self) -> String {
        match &self.sibling_failed {
            Some(failed) if !self.turn_cancel.is_cancelled() => {
                format!(
                    "Aborted: a parallel shell call ({failed}) failed, so this call was stopped."
                )
            }
            _ => "The tool call was interrupted by the user.".to_string(),
        }
    }

    /// Records a finished call, applies its context change, aborts siblings after a shell failure, and starts
    /// whatever may start now.
    pub fn on_completion(&mut self, (index, outcome): Completion) {
        let Some(call) = self.calls.get(index) else {
            return;
        };
        if outcome.outcome == ToolOutcome::Error
            && call.traits.aborts_siblings_on_error
            && self.sibling_failed.is_none()
        {
            self.sibling_failed = Some(call.id.clone());
            self.abort_reason.set(self.abort_message());
            self.sibling_abort.cancel();
        }
        if !call.traits.concurrency_safe
            && let Some(change) = &outcome.context_change
        {
            self.runtime
                .update_permission_context(|current| current.apply(change));
            // The tool's result tells the model of the mode it switched to.
            if let (ContextChange::SetMode(_) | ContextChange::LeavePlanMode(_), Some(notes)) =
                (change, &self.runtime.mode_notes)
            {
                notes.told(self.runtime.permission_context().mode);
            }
        }
        self.calls[index].state = State::Completed(Box::new(outcome));
        self.process_queue();
    }

    /// The results that are ready to be yielded in call order (stops at the first call not finished yet).
    pub fn take_ready(&mut self) -> Vec<ToolCallOutcome> {
        let mut out = Vec::new();
        while let Some(call) = self.calls.get_mut(self.next_to_yield) {
            if !matches!(call.state, State::Completed(_)) {
                break;
            }
            if let State::Completed(outcome) = std::mem::replace(&mut call.state, State::Yielded) {
                out.push(*outcome);
            }
            self.next_to_yield += 1;
        }
        out
    }

    /// Waits for every call to finish (receiving completions from `done_rx`) and returns the results not yet
    /// yielded, in call order.
    pub async fn finish(
        mut self,
        done_rx: &mut mpsc::UnboundedReceiver<Completion>,
    ) -> Vec<ToolCallOutcome> {
        while self.has_pending() {
            if self.executing().count() == 0 {
                // Queued calls that can no longer start (the turn was interrupted).
                let queued: Vec<usize> = (0..self.calls.len())
                    .filter(|i| matches!(self.calls[*i].state, State::Queued))
                    .collect();
                for index in queued {
                    self.complete_unstarted(index);
                }
                break;
            }
            match done_rx.recv().await {
                Some(completion) => self.on_completion(completion),
                None => break,
            }
        }
        self.take_ready()
    }

    /// Interrupts the calls: `cancel` tools stop, `block` tools finish; queued calls will not start.
    pub fn interrupt(&mut self) {
        self.sibling_abort.cancel();
    }
}

impl Drop for StreamingExecutor {
    /// An executor dropped mid-message (the turn was abandoned) stops its calls: their tokens fire, then their tasks
    /// are aborted at their next await point. Tools write files atomically, so an abort leaves none half-written.
    fn drop(&mut self) {
        self.sibling_abort.cancel();
        self.tasks.abort_all();
    }
}
