//! The writer thread: it owns the write connection and applies queued commands in group commits.
//!
//! Callers never wait for SQLite: they push a [`Command`] on an unbounded channel (a few hundred nanoseconds) and go
//! on. The thread blocks for the first command, takes whatever else is already queued (up to [`MAX_BATCH`]) and
//! applies it all in one transaction. While the stream is slow every event is committed on its own within
//! microseconds of being emitted; when it is fast, batches grow by themselves, so there is no timer to tune and no
//! added latency. A failed command (say, a constraint) undoes only its own statement; the rest of the batch commits
//! and the error is reported by the next flush.
//!
//! When the database cannot take a batch at all — the disk is full, or the file cannot be written — nothing of it
//! is applied (a transaction cut short is not committed in part) and its commands are kept: each later batch tries
//! them again first, so that the session's rows are written in order once there is room, and later commands never
//! fail for want of a row an earlier, unwritten one would have made.

use std::sync::Arc;
use std::sync::mpsc::Receiver;

use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

use rusqlite::{Connection, ErrorCode, params};

use super::StoreError;
use super::health::Health;
use super::import;
use super::import_types::ImportOutcome;
use super::schema::{begin_write, retry_busy};
use super::search_docs;
use super::search_index;
use super::search_indexer::{IDLE, INDEX_STEP, Indexer};
use super::writer::{Command, apply, cannot_take};

/// Commands applied per transaction at most (besides those kept from batches the database could not take).
pub const MAX_BATCH: usize = 512;

/// Commands kept at most while the database cannot take them; later ones are dropped (and the loss reported).
pub const MAX_KEPT: usize = 100_000;

/// Runs until every sender is dropped, then returns after committing what was queued. Every failure is also kept
/// in `health`, and each flush first checks that the database file is still the one opened. Its log lines are in a
/// `session_store` span naming the file; each committed batch is logged at debug. `indexer`: the search index's
/// sessions to bring up to date, in transactions of their own while the writer has nothing else to do (see
/// `search_indexer`).
pub fn run(conn: Connection, rx: Receiver<Command>, health: Arc<Health>, mut indexer: Indexer) {
    let span = tracing::info_span!("session_store", path = %health.path().display());
    let _entered = span.enter();
    let mut pending_error: Option<String> = None;
    let mut kept = Kept::default();
    // When the last write came: the indexer waits for [`IDLE`] after it (flushes and reads do not count).
    let mut last_write = Instant::now();
    loop {
        if indexer.has_work() && last_write.elapsed() >= IDLE {
            // One step at a time, so that commands queued meanwhile wait one step at most.
            index_step(&conn, &mut indexer);
        }
        let first = if indexer.has_work() {
            match rx.recv_timeout(IDLE.saturating_sub(last_write.elapsed())) {
                Ok(command) => command,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(command) => command,
                Err(_) => break,
            }
        };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(command) => batch.push(command),
                Err(_) => break,
            }
        }
        let mut replies = Vec::new();
        let mut rebuilds = Vec::new();
        let mut catch_ups = Vec::new();
        let mut reindexes = Vec::new();
        let mut imports = Vec::new();
        let mut commands = kept.take();
        for command in batch {
            match command {
                Command::Flush(reply) => replies.push(reply),
                Command::Import { session, reply } => imports.push((session, reply)),
                Command::RebuildIndex(reply) => rebuilds.push(reply),
                Command::IndexAll(reply) => catch_ups.push(reply),
                Command::Reindex(reply) => reindexes.push(reply),
                other => commands.push(other),
            }
        }
        if !commands.is_empty() {
            last_write = Instant::now();
        }
        indexer.note(&commands);
        write(&conn, commands, &mut kept, &mut pending_error, &health);
        for (session, reply) in imports {
            last_write = Instant::now();
            let result = import::write(&conn, &session);
            if let Ok(ImportOutcome::Stored | ImportOutcome::Updated) = result {
                indexer.note_session(&session.session.id, session.events.len());
            }
            let _ = reply.send(result.map_err(|e| e.to_string()));
        }
        if indexer.due() {
            index_step(&conn, &mut indexer);
        }
        if !rebuilds.is_empty() {
            let result = search_index::rebuild(&conn).map_err(|e| e.to_string());
            rebuilds.into_iter().for_each(|r| r.send(result.clone()));
        }
        if !reindexes.is_empty() {
            let result = reindex(&conn, &mut indexer).map_err(|e| e.to_string());
            reindexes.into_iter().for_each(|r| r.send(result.clone()));
        }
        if !catch_ups.is_empty() {
            let result = indexer.catch_up(&conn).map_err(|e| e.to_string());
            if let Err(err) = &result {
                tracing::error!("session store: indexing for search failed: {err}");
            }
            catch_ups.into_iter().for_each(|r| r.send(result.clone()));
        }
        if let Some(err) = &pending_error {
            health.fail(err.clone());
        }
        if !replies.is_empty() {
            if let Err(err) = health.check_file() {
                pending_error.get_or_insert(err);
            }
            let result = pending_error.take().map_or(Ok(()), Err);
            for reply in replies {
                reply.send(result.clone());
            }
        }
    }
    // The channel is closed: one last try for what a full disk kept back.
    let commands = kept.take();
    if !commands.is_empty() {
        write(&conn, commands, &mut kept, &mut pending_error, &health);
        if let Some(err) = pending_error {
            health.fail(err);
        }
        if !kept.take().is_empty() {
            tracing::error!(
                "session store: the database could not take the last writes; they are lost"
            );
        }
    }
}

/// One indexing step; a failure is logged (the sessions stay to index, and a search tries again).
/// Forgets the search documents and indexes every session again from its stored events.
fn reindex(conn: &Connection, indexer: &mut Indexer) -> Result<(), StoreError> {
    search_index::reset(conn)?;
    indexer.mark_dirty(search_docs::behind(conn)?);
    indexer.catch_up(conn)
}

fn index_step(conn: &Connection, indexer: &mut Indexer) {
    if let Err(err) = indexer.step(conn, INDEX_STEP) {
        tracing::error!("session store: indexing for search failed: {err}");
    }
}

/// Applies `commands` in one transaction; when the database cannot take them, keeps them in `kept`.
fn write(
    conn: &Connection,
    commands: Vec<Command>,
    kept: &mut Kept,
    pending_error: &mut Option<String>,
    health: &Health,
) {
    if commands.is_empty() {
        return;
    }
    let started = std::time::Instant::now();
    let mut result = apply_batch(conn, &commands, pending_error);
    if matches!(result, Err(StoreError::IndexRebuilt)) {
        // The index broke the batch's transaction (deleting a session's texts) and is whole again: once more.
        result = apply_batch(conn, &commands, pending_error);
    }
    match result {
        Ok(()) => {
            tracing::debug!(
                commands = commands.len(),
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "session store batch committed"
            );
            if let Some(message) = kept.written() {
                tracing::info!("session store: the kept writes are saved now");
                health.recovered(&message);
            }
        }
        Err(err) if cannot_take(&err) => {
            let message = unwritable(health, &err);
            if kept.first_failure(&message) {
                tracing::error!("session store: {message}");
            }
            let dropped = kept.keep(commands);
            if dropped > 0 {
                tracing::error!(
                    "session store: {dropped} writes dropped; too many are waiting for room"
                );
            }
            *pending_error = Some(message);
        }
        Err(err) => {
            tracing::error!("session store: a batch of writes failed: {err}");
            *pending_error = Some(err.to_string());
        }
    }
}

/// What the person is told when the database cannot take writes.
fn unwritable(health: &Health, err: &StoreError) -> String {
    let path = health.path().display();
    let full =
        matches!(err, StoreError::Sqlite(e) if e.sqlite_error_code() == Some(ErrorCode::DiskFull));
    if full {
        format!(
            "the disk holding the session database {path} is full (the session's writes are held back until there \
             is room)"
        )
    } else {
        format!(
            "the session database {path} cannot be written ({err}; is the disk full?) (the session's writes are \
             held back until it can be)"
        )
    }
}

fn apply_batch(
    conn: &Connection,
    batch: &[Command],
    pending_error: &mut Option<String>,
) -> Result<(), StoreError> {
    let tx = begin_write(conn)?;
    let mut touched: Vec<(&str, i64)> = Vec::new();
    for command in batch {
        if let Some((session, at)) = touches(command) {
            match touched.iter_mut().find(|(s, _)| *s == session) {
                Some(entry) => entry.1 = entry.1.max(at),
                None => touched.push((session, at)),
            }
        }
        if let Err(err) = apply(&tx, command) {
            // A transaction the database could not take goes no further: SQLite may have rolled it back already,
            // and what followed would be written outside it (and fail for want of the rows it held).
            if cannot_take(&err) || matches!(err, StoreError::IndexRebuilt) {
                return Err(err);
            }
            tracing::error!("session store: a write failed: {err}");
            *pending_error = Some(err.to_string());
        }
    }
    for (session, at) in touched {
        tx.prepare_cached("UPDATE sessions SET updated_at = max(updated_at, ?2) WHERE id = ?1")?
            .execute(params![session, at])?;
    }
    retry_busy(|| tx.execute_batch("COMMIT"))?;
    // The transaction is over; dropping it must not roll back.
    let _ = tx.finish();
    Ok(())
}

/// The session a command writes to and when, for `updated_at`.
fn touches(command: &Command) -> Option<(&str, i64)> {
    match command {
        Command::Event { session, at, .. }
        | Command::Messages { session, at, .. }
        | Command::Append { session, at, .. }
        | Command::ToolCall { session, at, .. }
        | Command::Usage { session, at, .. }
        | Command::Request { session, at, .. }
        | Command::Title { session, at, .. }
        | Command::Mode { session, at, .. }
        | Command::WorkList { session, at, .. }
        | Command::SidechainWorkList { session, at, .. }
        | Command::Sidechain { session, at, .. }
        | Command::SidechainMessages { session, at, .. } => Some((session, *at)),
        Command::Create { .. }
        | Command::Delete { .. }
        | Command::Flush(_)
        | Command::IndexAll(_)
        | Command::RebuildIndex(_)
        | Command::Reindex(_)
        | Command::Import { .. } => None,
    }
}

/// Commands the database could not take yet, in order, and the failure told about them.
#[derive(Default)]
struct Kept {
    commands: Vec<Command>,
    /// The message logged when the database first refused them (logged once, not per batch).
    told: Option<String>,
}

impl Kept {
    fn take(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.commands)
    }

    /// Keeps `commands` (in order, before any later ones); returns how many were dropped over [`MAX_KEPT`].
    fn keep(&mut self, commands: Vec<Command>) -> usize {
        let mut commands = commands;
        let room = MAX_KEPT.saturating_sub(self.commands.len());
        let dropped = commands.len().saturating_sub(room);
        commands.truncate(room);
        self.commands.extend(commands);
        dropped
    }

    /// Notes a refusal; whether it is the first since the last success (and so worth logging).
    fn first_failure(&mut self, message: &str) -> bool {
        let first = self.told.is_none();
        self.told.get_or_insert_with(|| message.to_string());
        first
    }

    /// Everything kept was written: the failure told before, if any.
    fn written(&mut self) -> Option<String> {
        self.told.take()
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::mpsc;

    use tandem_protocol::{PermissionMode, SessionEvent};

    use super::*;
    use crate::store::schema::{MIGRATIONS, configure, migrate};
    use crate::store::types::NewSession;
    use crate::store::writer::Reply;

    /// A migrated database that cannot grow by a single page: its disk is full.
    fn full_database(dir: &std::path::Path) -> (Connection, PathBuf) {
        let path = dir.join("sessions.db");
        let mut conn = Connection::open(&path).expect("open");
        configure(&conn).expect("configure");
        migrate(&mut conn, MIGRATIONS).expect("migrate");
        let pages: i64 = conn
            .query_row("PRAGMA page_count", [], |row| row.get(0))
            .expect("page count");
        conn.pragma_update(None, "max_page_count", pages)
            .expect("cap");
        (conn, path)
    }

    fn create(id: &str) -> Command {
        Command::Create {
            session: NewSession {
                id: id.into(),
                folder: "/tmp".into(),
                model: "m".into(),
                mode: PermissionMode::Default,
            },
            at: 1,
        }
    }

    fn delta(id: &str, seq: u64, text: String) -> Command {
        Command::Event {
            session: id.into(),
            seq,
            event: Box::new(SessionEvent::TextDelta { text }),
            at: 2,
        }
    }

    fn flush(tx: &mpsc::Sender<Command>) -> Result<(), String> {
        let (reply, answer) = mpsc::channel();
        tx.send(Command::Flush(Reply::Sync(reply))).expect("send");
        answer.recv().expect("answer")
    }

    #[test]
    fn a_full_disk_is_reported_as_such_and_later_writes_do_not_fail_for_rows_it_held_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (conn, path) = full_database(dir.path());
        let health = Arc::new(Health::new(&path));
        let (tx, rx) = mpsc::channel();
        let writer = {
            let health = health.clone();
            std::thread::spawn(move || run(conn, rx, health, Indexer::new(true, Vec::new())))
        };
        // The session's row and a long answer: more than the database has room for.
        tx.send(create("s")).expect("send");
        tx.send(delta("s", 0, "x".repeat(200_000))).expect("send");
        let first = flush(&tx).expect_err("the disk is full");
        // A small write that would fit, but whose session row was held back with the batch before.
        tx.send(delta("s", 1, "y".into())).expect("send");
        let second = flush(&tx).expect_err("still full");
        for err in [&first, &second] {
            assert!(
                err.contains("is full") && err.contains("sessions.db"),
                "{err}"
            );
            assert!(!err.contains("FOREIGN KEY"), "{err}");
        }
        drop(tx);
        writer.join().expect("writer");
        let failure = health.failure().expect("a failure is kept");
        assert!(failure.contains("is full"), "{failure}");
    }

    #[test]
    fn writes_kept_by_a_full_disk_are_saved_in_order_once_there_is_room() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (conn, path) = full_database(dir.path());
        let health = Health::new(&path);
        let mut kept = Kept::default();
        let mut pending = None;
        write(
            &conn,
            vec![create("s"), delta("s", 0, "x".repeat(200_000))],
            &mut kept,
            &mut pending,
            &health,
        );
        let refused = pending.take().expect("refused");
        assert!(refused.contains("is full"), "{refused}");
        assert_eq!(kept.commands.len(), 2, "the batch is kept whole");
        health.fail(refused);

        conn.pragma_update(None, "max_page_count", 1_000_000)
            .expect("room again");
        let mut retried = kept.take();
        retried.push(delta("s", 1, "y".into()));
        write(&conn, retried, &mut kept, &mut pending, &health);
        assert_eq!(pending, None);
        assert!(kept.commands.is_empty());
        assert_eq!(health.failure(), None, "nothing was lost after all");
        let events: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM events WHERE session_id = 's'",
                [],
                |row| row.get(0),
            )
            .expect("count");
        assert_eq!(events, 2, "the session's row and both events are stored");
    }
}
