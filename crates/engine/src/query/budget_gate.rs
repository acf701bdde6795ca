//! The door through which a turn asks, before each model request, whether a spending budget lets it go on.

use std::sync::Arc;

use futures::future::BoxFuture;

/// Asked by the turn loop before each model request (the session's own and its sub-agents', which share the door).
///
/// Contract: `before_request` answers `Some(reason)` only when a budget the person set to stop is reached; the turn
/// then ends before the request with [`TurnStopReason::BudgetReached`](tandem_protocol::TurnStopReason), its
/// history as it was (every tool call answered), and `reason` told to the person. Warnings are the door's own
/// events. It never fails: a door that cannot tell what was spent lets the request go. Dropping the future (an
/// interrupt) has no effect.
pub trait BudgetGate: Send + Sync {
    fn before_request(&self) -> BoxFuture<'_, Option<String>>;

    /// Told after a response completed, so that a warning reaches the person at once rather than at the next
    /// request (default: nothing).
    fn after_response(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

/// The gate a [`QueryConfig`](super::QueryConfig) carries (`None`: no budget).
#[derive(Clone, Default)]
pub struct BudgetDoor(pub Option<Arc<dyn BudgetGate>>);

impl std::fmt::Debug for BudgetDoor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "BudgetDoor(set)"
        } else {
            "BudgetDoor(none)"
        })
    }
}
