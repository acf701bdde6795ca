//! The writer's search indexer: which sessions have events not yet in the search documents, and bringing them up to
//! date in large transactions of their own — when the writer has had nothing to do for [`IDLE`], when
//! [`INDEX_BATCH`] events are waiting, or before a search — so the index is never written in the writer's small
//! per-event commits.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use super::StoreError;
use super::schema::{begin_write, retry_busy};
use super::search_docs;
use super::search_index;
use super::writer::{Command, cannot_take};

/// How long the writer waits with nothing to do before it indexes: a stream's deltas come faster, so an answer is
/// indexed once, after its turn pauses.
pub const IDLE: Duration = Duration::from_millis(200);

/// Events waiting to be indexed that make the writer index even while it is busy: what a search may have to catch
/// up at most, besides a backlog found when the store opened.
pub const INDEX_BATCH: usize = 50_000;

/// The longest one indexing transaction runs (checked between sessions): the longest a write queued meanwhile waits.
pub const INDEX_STEP: Duration = Duration::from_millis(100);

/// The sessions to index, kept by the writer thread.
pub struct Indexer {
    enabled: bool,
    /// Sessions with events the documents may not have.
    dirty: BTreeSet<String>,
    /// Sessions indexed up to an answer still streaming: looked at again by a search (which ends the answers cut
    /// off long enough ago), or when they have new events.
    waiting: BTreeSet<String>,
    /// Events written since the last indexing.
    events: usize,
}

impl Indexer {
    /// `enabled`: the file has the search index. `behind`: the sessions found not up to date when the store opened.
    pub fn new(enabled: bool, behind: Vec<String>) -> Self {
        Self {
            enabled,
            dirty: if enabled {
                behind.into_iter().collect()
            } else {
                BTreeSet::new()
            },
            waiting: BTreeSet::new(),
            events: 0,
        }
    }

    /// Notes what a batch wrote (before it is committed: noting a session whose write failed costs one look).
    pub fn note(&mut self, commands: &[Command]) {
        if !self.enabled {
            return;
        }
        for command in commands {
            match command {
                Command::Event { session, .. } => {
                    self.events += 1;
                    if !self.dirty.contains(session) {
                        self.waiting.remove(session);
                        self.dirty.insert(session.clone());
                    }
                }
                Command::Delete { session } => {
                    self.dirty.remove(session);
                    self.waiting.remove(session);
                }
                _ => {}
            }
        }
    }

    /// Takes `sessions` as not up to date (all of them, after the documents were forgotten).
    pub fn mark_dirty(&mut self, sessions: Vec<String>) {
        if self.enabled {
            self.dirty.extend(sessions);
        }
    }

    /// Notes a session written whole with `events` events (an import).
    pub fn note_session(&mut self, session: &str, events: usize) {
        if !self.enabled {
            return;
        }
        self.events += events;
        self.waiting.remove(session);
        self.dirty.insert(session.to_string());
    }

    /// Whether there is something to index when the writer is idle.
    pub fn has_work(&self) -> bool {
        !self.dirty.is_empty()
    }

    /// Whether enough events wait that the writer indexes even while busy.
    pub fn due(&self) -> bool {
        self.events >= INDEX_BATCH
    }

    /// Sessions still to index (not counting those waiting for a streaming answer).
    #[cfg(test)]
    pub fn pending(&self) -> usize {
        self.dirty.len()
    }

    /// Indexes dirty sessions for about `budget` in one transaction (at least one session). A failure that is not
    /// the database refusing writes is taken as a damaged index: it is rebuilt and the step runs once more. Returns
    /// whether sessions are still dirty.
    pub fn step(&mut self, conn: &Connection, budget: Duration) -> Result<bool, StoreError> {
        match self.try_step(conn, budget) {
            Err(err) if !cannot_take(&err) => {
                tracing::warn!(
                    "session store: indexing for search failed ({err}); rebuilding the index"
                );
                search_index::rebuild(conn)?;
                self.try_step(conn, budget)
            }
            other => other,
        }
    }

    fn try_step(&mut self, conn: &Connection, budget: Duration) -> Result<bool, StoreError> {
        let start = Instant::now();
        let now = chrono::Utc::now().timestamp_millis();
        let tx = begin_write(conn)?;
        let mut done = Vec::new();
        let mut read = 0;
        for session in &self.dirty {
            let indexed = search_docs::index_session(&tx, session, now)?;
            read += indexed.events;
            done.push((session.clone(), indexed.open));
            if start.elapsed() >= budget {
                break;
            }
        }
        retry_busy(|| tx.execute_batch("COMMIT"))?;
        // The transaction is over; dropping it must not roll back.
        let _ = tx.finish();
        for (session, open) in done {
            self.dirty.remove(&session);
            if open {
                self.waiting.insert(session);
            }
        }
        // What is left waiting: a step taken because many events waited does not leave the next batch due at once.
        self.events = if self.dirty.is_empty() {
            0
        } else {
            self.events.saturating_sub(read)
        };
        tracing::debug!(
            ms = start.elapsed().as_secs_f64() * 1000.0,
            left = self.dirty.len(),
            "session store: indexed for search"
        );
        Ok(!self.dirty.is_empty())
    }

    /// Indexes every session not up to date, and looks again at those waiting for a streaming answer (what a search
    /// asks first, so it sees every event written before it).
    pub fn catch_up(&mut self, conn: &Connection) -> Result<(), StoreError> {
        if !self.enabled {
            return Ok(());
        }
        self.dirty.append(&mut self.waiting);
        while self.step(conn, Duration::from_secs(1))? {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use tandem_protocol::SessionEvent;

    use super::*;

    fn event(session: &str) -> Command {
        Command::Event {
            session: session.into(),
            seq: 0,
            event: Box::new(SessionEvent::TextDelta { text: "x".into() }),
            at: 0,
        }
    }

    #[test]
    fn events_make_their_sessions_dirty_and_a_delete_forgets_them() {
        let mut indexer = Indexer::new(true, vec!["old".into()]);
        indexer.note(&[event("a"), event("a"), event("b")]);
        assert_eq!(indexer.pending(), 3);
        assert!(indexer.has_work());
        indexer.note(&[Command::Delete {
            session: "a".into(),
        }]);
        assert_eq!(indexer.pending(), 2);
        assert!(!indexer.due());
        let many: Vec<Command> = (0..INDEX_BATCH).map(|_| event("c")).collect();
        indexer.note(&many);
        assert!(indexer.due());
        // A file without the index has nothing to index.
        let mut off = Indexer::new(false, vec!["old".into()]);
        off.note(&[event("a")]);
        assert!(!off.has_work());
    }
}
