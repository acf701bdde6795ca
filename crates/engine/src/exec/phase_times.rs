//! How long each phase of one tool call took, logged (at debug level, inside the call's `tool_call` span) when the
//! call ends, however it ends.

use std::time::{Duration, Instant};

/// The phases of the pipeline, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Schema, business validation and building the UI's view of the input.
    Validate,
    /// Hooks, rules, mode and the person's answer.
    Authorize,
    /// The tool itself.
    Call,
    /// Post-tool hooks and the result.
    Finish,
}

/// The time spent in each phase so far; logs them when dropped.
#[derive(Debug)]
pub(super) struct PhaseTimes {
    current: Phase,
    since: Instant,
    spent: [Duration; 4],
}

impl PhaseTimes {
    /// Starts timing the first phase.
    pub(super) fn start() -> Self {
        Self {
            current: Phase::Validate,
            since: Instant::now(),
            spent: [Duration::ZERO; 4],
        }
    }

    /// Ends the current phase and starts `next`.
    pub(super) fn enter(&mut self, next: Phase) {
        let now = Instant::now();
        self.spent[self.current as usize] += now - self.since;
        self.current = next;
        self.since = now;
    }
}

impl Drop for PhaseTimes {
    fn drop(&mut self) {
        self.enter(self.current);
        let ms = |p: Phase| self.spent[p as usize].as_secs_f64() * 1000.0;
        tracing::debug!(
            validate_ms = ms(Phase::Validate),
            authorize_ms = ms(Phase::Authorize),
            call_ms = ms(Phase::Call),
            finish_ms = ms(Phase::Finish),
            "tool call ended"
        );
    }
}
