//! [`SessionStore`]: one SQLite file, a writer thread for every write and a reader connection for queries.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::Connection;
use tandem_protocol::{PermissionMode, SessionEvent, Usage};

use super::StoreError;
use super::health::Health;
use super::import_types::{ImportOutcome, ImportedSession};
use super::organise;
use super::read;
use super::recover::recover_streamed_text;
use super::repair::repair_history;
use super::schema::{self, MIGRATIONS};
use super::search;
use super::search_docs;
use super::search_index;
use super::search_indexer::Indexer;
use super::search_query;
use super::search_types::SearchHit;
use super::side_tables::{self, NewSidechain};
use super::types::{
    LoadedSession, NewSession, SessionRecord, SessionSummary, Sidechain, StoredEvent,
};
use super::writer::{Command, Reply, ToolCallUpdate};
use super::writer_thread;
use crate::model::Message;

/// Unix milliseconds now.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// The canonical form of a folder, or the path as given when it cannot be resolved (e.g. it was deleted).
pub fn canonical_folder(folder: &Path) -> PathBuf {
    std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf())
}

/// The sessions database.
///
/// Threads: every write goes through one writer thread that owns the write connection (see `writer.rs`): the
/// write methods only queue a command and return at once, so they are safe to call from async code and from the
/// streaming path, and a slow disk never stalls a stream. Writes are applied in the order they were queued. Reads
/// use a second connection behind a mutex (a short critical section per query); thanks to WAL they never wait for
/// the writer, and they first wait for the queued writes to commit so a caller reads its own writes.
///
/// Errors: queued writes cannot fail at the call; a failure is logged and returned by the next [`flush`]
/// (`Self::flush`). Dropping the store commits everything queued and stops the writer thread.
pub struct SessionStore {
    path: PathBuf,
    tx: Option<Sender<Command>>,
    writer: Option<JoinHandle<()>>,
    reader: Mutex<Connection>,
    health: Arc<Health>,
    /// Whether the file has the search index (files of older schemas opened as such by tests have not).
    search: bool,
}

impl SessionStore {
    /// `<data dir>/tandem/sessions.db` (e.g. `~/.local/share/tandem/sessions.db`), when the platform has a data dir.
    pub fn default_path() -> Option<PathBuf> {
        crate::fsutil::app_data_dir().map(|d| d.join("sessions.db"))
    }

    /// Opens (creating it when needed) the store at [`Self::default_path`].
    pub fn open_default() -> Result<Self, StoreError> {
        let path = Self::default_path().ok_or(StoreError::NoDataDir)?;
        Self::open(&path)
    }

    /// Opens or creates the store at `path` (its folder is created) and migrates it to the current schema.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with_migrations(path, MIGRATIONS)
    }

    /// Opens with a given migration list: tests use it to make files of older versions.
    #[doc(hidden)]
    pub fn open_with_migrations(path: &Path, migrations: &[&str]) -> Result<Self, StoreError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::Io {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        let mut conn = Connection::open(path)?;
        schema::configure(&conn)?;
        schema::migrate(&mut conn, migrations)?;
        let search = search_index::enabled(&conn)?;
        let mut behind = Vec::new();
        if search {
            // The store opens whatever state its search index is in: a search rebuilds what is still damaged.
            if let Err(err) = search_index::ensure(&conn) {
                tracing::warn!("session store: the search index could not be checked: {err}");
            }
            // Events another process (or this one, before it stopped) wrote but did not index.
            behind = search_docs::behind(&conn)?;
        }
        let indexer = Indexer::new(search, behind);
        let reader = Connection::open(path)?;
        schema::configure(&reader)?;
        // A search reads a few thousand texts' pages: keep more of them than SQLite's default 2 MB.
        reader.pragma_update(None, "cache_size", -32_768)?;
        let (tx, rx) = mpsc::channel();
        let health = Arc::new(Health::new(path));
        let writer_health = health.clone();
        let writer = std::thread::Builder::new()
            .name("tandem-session-store".into())
            .spawn(move || writer_thread::run(conn, rx, writer_health, indexer))
            .map_err(|source| StoreError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Self {
            path: path.to_path_buf(),
            tx: Some(tx),
            writer: Some(writer),
            reader: Mutex::new(reader),
            health,
            search,
        })
    }

    /// The folder for the long terminal outputs of session `id` (beside the database).
    pub fn output_dir(&self, id: &str) -> PathBuf {
        let mut dir = self.path.as_os_str().to_owned();
        dir.push(".outputs");
        let name: String = id
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .take(80)
            .collect();
        PathBuf::from(dir).join(name)
    }

    /// The first write that failed since the store was opened (including the file being deleted or replaced, seen
    /// at a flush), if any: a run that saw one must not report success.
    pub fn failure(&self) -> Option<String> {
        self.health.failure()
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the file (`PRAGMA user_version`).
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        self.read(schema::version)
    }

    pub(crate) fn enqueue(&self, command: Command) {
        tracing::trace!(write = command.kind(), "session store write queued");
        let sent = self.tx.as_ref().map(|tx| tx.send(command).is_ok());
        if sent != Some(true) {
            tracing::error!("session store: the writer thread is gone; a write was lost");
        }
    }

    pub(super) fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.flush()?;
        let conn = self.reader.lock().map_err(|_| StoreError::Poisoned)?;
        f(&conn)
    }

    /// Runs SQLite's `integrity_check` (which checks the search index too): `Err(StoreError::Corrupt)` with its
    /// report when the file is damaged. When the search index is what is damaged, it is rebuilt from the stored
    /// text and checked again, so only damage to the sessions themselves is an error.
    pub fn check_integrity(&self) -> Result<(), StoreError> {
        let check = || -> Result<(), StoreError> {
            let report: Vec<String> = self.read(|conn| {
                let mut stmt = conn.prepare("PRAGMA integrity_check")?;
                let rows = stmt.query_map([], |row| row.get::<_, String>(0))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })?;
            if report == ["ok"] {
                Ok(())
            } else {
                Err(StoreError::Corrupt(report.join("; ")))
            }
        };
        match check() {
            Err(err) if self.search && index_damaged(&err) => {
                tracing::warn!("session store: {err}; rebuilding the search index");
                self.rebuild_search_index()?;
                check()
            }
            other => other,
        }
    }

    /// Blocks until every write queued before is committed (typically well under a millisecond). Returns the error
    /// of any queued write that failed since the last flush.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.ask_writer(Command::Flush)
    }

    /// Queues a command that answers, and waits for its answer.
    fn ask_writer(&self, command: impl FnOnce(Reply) -> Command) -> Result<(), StoreError> {
        let (tx, rx) = mpsc::channel();
        self.enqueue(command(Reply::Sync(tx)));
        match rx.recv() {
            Ok(result) => result.map_err(StoreError::Write),
            Err(_) => Err(StoreError::Closed),
        }
    }

    /// Searches everything said in the stored sessions — of `folder` (canonicalised) only, when given — for
    /// `query`: the person's words, each of which must match, and "quoted phrases" (a trailing `*` matches words
    /// that begin so; operators and punctuation are words like any other). The best `limit` hits, best first, at
    /// most a few per session.
    ///
    /// The writer first indexes every event queued before (and what was not indexed when the store opened), so a
    /// search sees everything written before it; an answer still streaming is found once it ends, or once its
    /// stream has been cut off for [`STALE_OPEN`](super::search_docs::STALE_OPEN). A query whose words are in more
    /// than [`CANDIDATES`](super::search::CANDIDATES) texts ranks the newest of them. A damaged index is rebuilt
    /// from its documents and the search runs again. Errors: [`StoreError::BadQuery`] for a query with no words,
    /// or too long; [`StoreError::NoSearchIndex`] for a file of an older schema.
    pub fn search(
        &self,
        query: &str,
        folder: Option<&Path>,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let terms = search_query::terms(query)?;
        if !self.search {
            return Err(StoreError::NoSearchIndex);
        }
        self.ask_writer(Command::IndexAll)?;
        let folder = folder.map(canonical_folder);
        let run = || self.read(|conn| search::run(conn, &terms, folder.as_deref(), limit));
        match run() {
            Err(err) if index_damaged(&err) => {
                tracing::warn!("session store: the search index is damaged ({err}); rebuilding it");
                self.rebuild_search_index()?;
                run()
            }
            other => other,
        }
    }

    /// Rebuilds the search index from its documents (what a search does by itself when it finds the index
    /// damaged).
    pub fn rebuild_search_index(&self) -> Result<(), StoreError> {
        if !self.search {
            return Err(StoreError::NoSearchIndex);
        }
        self.ask_writer(Command::RebuildIndex)
    }

    /// Forgets every search document and indexes every session again from its stored events, and waits for it:
    /// the repair for an index whose documents may be wrong, not only damaged (which [`Self::search`] repairs by
    /// itself). Takes as long as indexing the whole store; other processes may write meanwhile.
    pub fn reindex_search(&self) -> Result<(), StoreError> {
        if !self.search {
            return Err(StoreError::NoSearchIndex);
        }
        self.ask_writer(Command::Reindex)
    }

    /// How many sessions have stored events not yet indexed for search (an answer still streaming counts).
    pub fn sessions_to_index(&self) -> Result<u64, StoreError> {
        if !self.search {
            return Ok(0);
        }
        self.read(|conn| Ok(search_docs::behind(conn)?.len() as u64))
    }

    /// Indexes every event written before for search, and waits for it: what a search does first. Tools that
    /// write many sessions and measure call it to count the indexing.
    pub fn index_for_search(&self) -> Result<(), StoreError> {
        if !self.search {
            return Err(StoreError::NoSearchIndex);
        }
        self.ask_writer(Command::IndexAll)
    }

    /// [`Self::flush`] for async code: awaits the commit without blocking the executor.
    pub async fn flush_async(&self) -> Result<(), StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.enqueue(Command::Flush(Reply::Async(tx)));
        match rx.await {
            Ok(result) => result.map_err(StoreError::Write),
            Err(_) => Err(StoreError::Closed),
        }
    }

    /// The usage of the requests `filter` lets through (every request written before is counted); its `budgets`
    /// are empty (the settings hold them: see [`Self::spent_since`]).
    pub fn usage(
        &self,
        filter: &super::UsageFilter,
    ) -> Result<tandem_protocol::UsageReport, StoreError> {
        self.read(|conn| super::usage_report::report(conn, filter))
    }

    /// Queues a completed model request of session `id` that ended at `at` (Unix ms), as [`super::MeteredModel`]
    /// does for a live session; for importing usage and for tests.
    pub fn record_request(&self, id: &str, request: super::MeteredRequest, at: i64) {
        self.enqueue(Command::Request {
            session: id.to_string(),
            request,
            at,
        });
    }

    /// Dollars every session spent since `from_ms` (Unix ms), counting every request written before.
    pub fn spent_since(&self, from_ms: i64) -> Result<f64, StoreError> {
        self.read(|conn| super::usage_report::spent_since(conn, from_ms))
    }

    /// Creates a session row (nothing happens when the id exists) and returns the stored row.
    pub fn create_session(&self, session: &NewSession) -> Result<SessionRecord, StoreError> {
        self.create_session_queued(session);
        self.session(&session.id)?
            .ok_or_else(|| StoreError::UnknownSession(session.id.clone()))
    }

    /// Queues the creation of a session row (nothing happens when the id exists).
    pub fn create_session_queued(&self, session: &NewSession) {
        let mut session = session.clone();
        session.folder = canonical_folder(&session.folder);
        self.enqueue(Command::Create {
            session,
            at: now_ms(),
        });
    }

    /// One session's row.
    pub fn session(&self, id: &str) -> Result<Option<SessionRecord>, StoreError> {
        self.read(|conn| read::session(conn, id))
    }

    /// The sessions of `folder` (canonicalised), archived ones included: the pinned first (most recently pinned
    /// first), then the rest most recently updated first, with their message counts and how they are organised.
    pub fn list_sessions(&self, folder: &Path) -> Result<Vec<SessionSummary>, StoreError> {
        let folder = canonical_folder(folder);
        self.read(|conn| {
            let mut list = read::list(conn, &folder, None)?;
            organise::fill(conn, &mut list)?;
            Ok(list)
        })
    }

    /// Every folder's sessions, in the order of [`Self::list_sessions`].
    pub fn list_all_sessions(&self) -> Result<Vec<SessionSummary>, StoreError> {
        self.read(|conn| {
            let mut list = read::list_all(conn)?;
            organise::fill(conn, &mut list)?;
            Ok(list)
        })
    }

    /// The most recently updated session of `folder`: what `--continue` resumes.
    pub fn latest_session(&self, folder: &Path) -> Result<Option<SessionSummary>, StoreError> {
        let folder = canonical_folder(folder);
        self.read(|conn| Ok(read::list(conn, &folder, Some(1))?.pop()))
    }

    /// Everything about a session, with its history repaired for the next request; `None` for an unknown id.
    pub fn load_session(&self, id: &str) -> Result<Option<LoadedSession>, StoreError> {
        self.read(|conn| {
            // One read transaction: messages, events and calls from the same moment.
            let tx = conn.unchecked_transaction()?;
            let Some(record) = read::session(&tx, id)? else {
                return Ok(None);
            };
            let messages = read::messages(&tx, id)?;
            let events = read::events(&tx, id, 0)?;
            let tool_calls = read::tool_calls(&tx, id)?;
            let (todos, tasks) = side_tables::work_lists(&tx, id)?;
            let sidechains = side_tables::sidechains(&tx, id)?;
            tx.finish()?;
            let mut history = messages.clone();
            recover_streamed_text(&mut history, &events);
            repair_history(&mut history);
            Ok(Some(LoadedSession {
                record,
                messages,
                history,
                events,
                tool_calls,
                todos,
                tasks,
                sidechains,
            }))
        })
    }

    /// The events of a session from `seq` on.
    pub fn events_since(&self, id: &str, seq: u64) -> Result<Vec<StoredEvent>, StoreError> {
        self.read(|conn| read::events(conn, id, seq))
    }

    /// Queues a message at the end of the session's history.
    pub fn append_message(&self, id: &str, message: &Message) {
        self.enqueue(Command::Append {
            session: id.to_string(),
            message: message.clone(),
            at: now_ms(),
        });
    }

    /// Queues the replacement of the history from ordinal `from` on (later rows are deleted) with `messages`.
    pub fn replace_messages(&self, id: &str, from: usize, messages: &[Message]) {
        self.enqueue(Command::Messages {
            session: id.to_string(),
            from,
            messages: messages.to_vec(),
            at: now_ms(),
        });
    }

    /// Queues an event at position `seq`. Tool-call rows, usage totals and the title follow from the events.
    pub fn record_event(&self, id: &str, seq: u64, event: SessionEvent) {
        self.enqueue(Command::Event {
            session: id.to_string(),
            seq,
            event: Box::new(event),
            at: now_ms(),
        });
    }

    /// Queues a change to a tool call's row (calls that do not stream through a session's events).
    pub fn record_tool_call(&self, id: &str, tool_use_id: &str, update: ToolCallUpdate) {
        self.enqueue(Command::ToolCall {
            session: id.to_string(),
            tool_use_id: tool_use_id.to_string(),
            update,
            at: now_ms(),
        });
    }

    /// Queues the session's cumulative usage and cost.
    pub fn update_usage(&self, id: &str, usage: &Usage, cost_usd: f64) {
        self.enqueue(Command::Usage {
            session: id.to_string(),
            usage: *usage,
            cost_usd,
            at: now_ms(),
        });
    }

    /// Queues the session's permission mode.
    pub fn set_mode(&self, id: &str, mode: PermissionMode) {
        self.enqueue(Command::Mode {
            session: id.to_string(),
            mode,
            at: now_ms(),
        });
    }

    /// Renames a session (the person edited its title).
    pub fn rename_session(&self, id: &str, title: &str) -> Result<(), StoreError> {
        self.enqueue(Command::Title {
            session: id.to_string(),
            title: title.trim().to_string(),
            only_if_empty: false,
            at: now_ms(),
        });
        self.flush()
    }

    /// Queues the start of a sub-agent's conversation (a sidechain of session `id`).
    pub fn record_sidechain(&self, id: &str, chain: NewSidechain) {
        self.enqueue(Command::Sidechain {
            session: id.to_string(),
            chain,
            at: now_ms(),
        });
    }

    /// Queues the replacement of a sidechain's history from ordinal `from` on.
    pub fn replace_sidechain_messages(
        &self,
        id: &str,
        agent_id: &str,
        from: usize,
        messages: &[Message],
    ) {
        self.enqueue(Command::SidechainMessages {
            session: id.to_string(),
            agent_id: agent_id.to_string(),
            from,
            messages: messages.to_vec(),
            at: now_ms(),
        });
    }

    /// The sidechains of session `id`, each with its messages.
    pub fn sidechains(&self, id: &str) -> Result<Vec<Sidechain>, StoreError> {
        self.read(|conn| side_tables::sidechains(conn, id))
    }

    /// Stores a whole session in one transaction of its own: all of it, or (on an error) nothing. A session with
    /// the same id already stored from an earlier state of the same conversation gets what was added since
    /// ([`ImportOutcome::Updated`]); one that is the same or went another way is left as it is
    /// ([`ImportOutcome::AlreadyThere`]), so importing the same conversation twice stores it once. Its events are
    /// indexed for search like any other.
    pub fn import_session(
        &self,
        mut session: ImportedSession,
    ) -> Result<ImportOutcome, StoreError> {
        session.session.folder = canonical_folder(&session.session.folder);
        let (tx, rx) = mpsc::channel();
        self.enqueue(Command::Import {
            session: Box::new(session),
            reply: tx,
        });
        match rx.recv() {
            Ok(result) => result.map_err(StoreError::Write),
            Err(_) => Err(StoreError::Closed),
        }
    }

    /// When each message of the session's history was last written (Unix milliseconds), in history order.
    pub fn message_times(&self, id: &str) -> Result<Vec<i64>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT created_at FROM messages WHERE session_id = ?1 ORDER BY ordinal",
            )?;
            let rows = stmt.query_map([id], |row| row.get::<_, i64>(0))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Deletes a session with its messages, events and tool calls.
    pub fn delete_session(&self, id: &str) -> Result<(), StoreError> {
        self.enqueue(Command::Delete {
            session: id.to_string(),
        });
        self.flush()?;
        match std::fs::remove_dir_all(self.output_dir(id)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(StoreError::Io {
                path: self.output_dir(id),
                source: e,
            }),
            _ => Ok(()),
        }
    }
}

/// Whether a search failed because the index is damaged (its pages corrupt, its tables gone) rather than because
/// the database is busy or gone.
fn index_damaged(err: &StoreError) -> bool {
    let err = match err {
        StoreError::Corrupt(report) => {
            return report.contains("search_index") || report.contains("fts5");
        }
        StoreError::Sqlite(err) => err,
        _ => return false,
    };
    if err.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseCorrupt) {
        return true;
    }
    let text = err.to_string();
    text.contains("search_index") || text.contains("fts5")
}

impl Drop for SessionStore {
    fn drop(&mut self) {
        // Closing the channel lets the writer commit what is queued and return.
        drop(self.tx.take());
        if let Some(writer) = self.writer.take()
            && writer.join().is_err()
        {
            tracing::error!("session store: the writer thread panicked");
        }
    }
}
