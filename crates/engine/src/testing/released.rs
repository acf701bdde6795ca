//! Waiting for a dropped session to let go of its store lock before a test reopens it: the lock goes with the
//! session's last task, which ends later on a busy machine (the window waits the same way).

use std::time::{Duration, Instant};

use crate::store::{SessionStore, StoreError};

/// Returns once stored session `id`'s lock is free (taken and let go at once), or after two minutes; any other
/// answer than "in use" (the store fails) returns at once, for the reopening to report.
pub async fn wait_released(store: &std::sync::Arc<SessionStore>, id: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while let Err(StoreError::InUse(_)) = store.lock_session(id) {
        if Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
