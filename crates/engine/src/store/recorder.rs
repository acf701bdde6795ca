//! [`SessionRecorder`]: one live session's writes — its row (created lazily), its event sequence and a mirror of
//! the history already stored, so that only the part of the history that changed is written.

use std::sync::{Arc, Mutex, MutexGuard};

use tandem_protocol::{PermissionMode, SessionEvent};

use super::StoreError;
use super::lock::SessionLock;
use super::output_budget::OutputBudget;
use super::session_store::{SessionStore, now_ms};
use super::side_tables::NewSidechain;
use super::types::{LoadedSession, NewSession};
use super::writer::Command;
use crate::model::Message;

/// Records one session into a [`SessionStore`]. Cheap to call from the streaming path: every method only queues.
pub struct SessionRecorder {
    store: Arc<SessionStore>,
    id: String,
    /// Held while queueing an event, so that seq order is queue order when events come from several tasks.
    row: Mutex<RowState>,
    /// The history as stored.
    stored: Mutex<Vec<Message>>,
    /// The session's lock: no other process (nor another session of this one) writes it while this recorder lives
    /// and is not closed.
    lock: Mutex<Option<SessionLock>>,
}

struct RowState {
    /// The row to create with the first prompt; `None` once queued (or when it exists).
    pending: Option<NewSession>,
    /// Events of a session that has no prompt yet (notices shown on opening): stored with the first prompt, dropped
    /// with a session that never gets one.
    early: Vec<SessionEvent>,
    next_seq: u64,
    /// How much of each call's terminal output is stored.
    outputs: OutputBudget,
    /// [`SessionRecorder::close`] ran: nothing more is written.
    closed: bool,
}

/// At most this many events are kept for a session that has no prompt yet.
const MAX_EARLY_EVENTS: usize = 256;

impl SessionRecorder {
    /// A recorder for a new session. Its row is written with the first prompt (its `TurnStarted` event or its first
    /// message), so a session that never got a prompt does not clutter the folder's list.
    pub fn new(store: Arc<SessionStore>, meta: NewSession) -> Self {
        let lock = store
            .lock_session(&meta.id)
            .map_err(|e| tracing::warn!("session {}: {e}", meta.id))
            .ok();
        let outputs = OutputBudget::with_dir(store.output_dir(&meta.id));
        Self {
            lock: Mutex::new(lock),
            store,
            id: meta.id.clone(),
            row: Mutex::new(RowState {
                outputs,
                pending: Some(meta),
                early: Vec::new(),
                next_seq: 0,
                closed: false,
            }),
            stored: Mutex::new(Vec::new()),
        }
    }

    /// A recorder that goes on with a loaded session: events continue after the last one, and the history mirror is
    /// the stored (unrepaired) history, so the repair is written with the next sync.
    pub fn resume(store: Arc<SessionStore>, loaded: &LoadedSession) -> Self {
        let outputs = OutputBudget::with_dir(store.output_dir(&loaded.record.id));
        Self {
            lock: Mutex::new(None),
            store,
            id: loaded.record.id.clone(),
            row: Mutex::new(RowState {
                pending: None,
                early: Vec::new(),
                next_seq: loaded.next_seq(),
                outputs,
                closed: false,
            }),
            stored: Mutex::new(loaded.messages.clone()),
        }
    }

    /// The recorder keeps `lock` (the session's, taken before it was loaded) until it is dropped.
    pub fn holding(self, lock: SessionLock) -> Self {
        if let Ok(mut held) = self.lock.lock() {
            *held = Some(lock);
        }
        self
    }

    pub fn session_id(&self) -> &str {
        &self.id
    }

    pub fn store(&self) -> &Arc<SessionStore> {
        &self.store
    }

    /// Locks the row state after queueing the row's creation if it is still pending; `None` once the recorder is
    /// closed. Every write is queued while this guard is held, so none follows [`Self::close`].
    fn row(&self) -> Option<MutexGuard<'_, RowState>> {
        let Ok(mut row) = self.row.lock() else {
            tracing::error!("session store: recorder lock poisoned; a write was lost");
            return None;
        };
        if row.closed {
            return None;
        }
        if let Some(meta) = row.pending.take() {
            self.store.create_session_queued(&meta);
            for event in std::mem::take(&mut row.early) {
                self.queue_event(&mut row, event);
            }
        }
        Some(row)
    }

    fn queue_event(&self, row: &mut RowState, event: SessionEvent) {
        self.store.enqueue(Command::Event {
            session: self.id.clone(),
            seq: row.next_seq,
            event: Box::new(event),
            at: now_ms(),
        });
        row.next_seq += 1;
    }

    /// Queues an event with the next `seq`. Before the session's first prompt, events wait (they are written with
    /// the prompt), so that opening a folder and leaving stores nothing.
    pub fn record_event(&self, event: SessionEvent) {
        if !matches!(event, SessionEvent::TurnStarted { .. })
            && let Ok(mut row) = self.row.lock()
            && row.pending.is_some()
            && !row.closed
        {
            if row.early.len() < MAX_EARLY_EVENTS {
                row.early.push(event);
            }
            return;
        }
        let Some(mut row) = self.row() else {
            return;
        };
        for event in row.outputs.admit(event) {
            self.queue_event(&mut row, event);
        }
    }

    /// Writes the part of `history` that differs from what is stored: usually the new messages at the end; after a
    /// merge into the last user message or a compaction, everything from the first difference on.
    pub fn sync_history(&self, history: &[Message]) {
        let Ok(mut stored) = self.stored.lock() else {
            return;
        };
        let same = stored
            .iter()
            .zip(history)
            .take_while(|(a, b)| a == b)
            .count();
        if same == history.len() && same == stored.len() {
            return;
        }
        let Some(row) = self.row() else {
            return;
        };
        self.store.enqueue(Command::Messages {
            session: self.id.clone(),
            from: same,
            messages: history[same..].to_vec(),
            at: now_ms(),
        });
        drop(row);
        stored.truncate(same);
        stored.extend_from_slice(&history[same..]);
    }

    /// A message completed after the first `position` messages (the history the request was made with).
    pub fn message_completed(&self, position: usize, message: &Message) {
        let Ok(mut stored) = self.stored.lock() else {
            return;
        };
        let Some(row) = self.row() else {
            return;
        };
        let from = position.min(stored.len());
        self.store.enqueue(Command::Messages {
            session: self.id.clone(),
            from,
            messages: vec![message.clone()],
            at: now_ms(),
        });
        drop(row);
        stored.truncate(from);
        stored.push(message.clone());
    }

    /// Queues a completed model request's usage and cost.
    pub fn record_request(&self, request: super::usage_carry::MeteredRequest) {
        let Some(_row) = self.row() else {
            return;
        };
        self.store.enqueue(Command::Request {
            session: self.id.clone(),
            request,
            at: now_ms(),
        });
    }

    /// Queues the start of a sub-agent's conversation, a sidechain of this session.
    pub fn record_sidechain(&self, chain: NewSidechain) {
        let Some(_row) = self.row() else {
            return;
        };
        self.store.record_sidechain(&self.id, chain);
    }

    /// Queues a sidechain's whole history (replacing what was stored for it).
    pub fn sidechain_history(&self, agent_id: &str, history: &[Message]) {
        let Some(_row) = self.row() else {
            return;
        };
        self.store
            .replace_sidechain_messages(&self.id, agent_id, 0, history);
    }

    /// Queues the session's permission mode.
    pub fn set_mode(&self, mode: PermissionMode) {
        let Ok(mut row) = self.row.lock() else {
            return;
        };
        if row.closed {
            return;
        }
        match row.pending.as_mut() {
            Some(meta) => meta.mode = mode,
            None => self.store.set_mode(&self.id, mode),
        }
    }

    /// Waits until everything queued is committed.
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.store.flush_async().await
    }

    /// Ends the recording when the session ends: nothing recorded from now on is written (a task of the ended
    /// session still finishing), what was queued is committed, and then the session's lock is let go, so that the
    /// session can be reopened at once with a single writer. `Err`: the last writes failed (the lock goes anyway).
    pub async fn close(&self) -> Result<(), StoreError> {
        if let Ok(mut row) = self.row.lock() {
            row.closed = true;
        }
        let flushed = self.flush().await;
        if let Ok(mut held) = self.lock.lock() {
            held.take();
        }
        flushed
    }
}
