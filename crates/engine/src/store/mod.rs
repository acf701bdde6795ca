//! Sessions in SQLite: every session of every project folder, its model history, every event as it streamed, its
//! tool calls with their decisions and timings, and its token usage — in one file in the app's data directory, so
//! that a killed process loses nothing that had streamed and any session can be resumed. The only module that
//! imports `rusqlite`.
//!
//! - [`SessionStore`]: the database (WAL, a writer thread with group commits, a reader connection).
//! - [`SessionRecorder`]: one live session's writes; [`RecordingStoreSink`] and [`PersistingModel`] feed it from the
//!   event stream and from the model's requests and answers.
//! - [`SessionStore::search`]: full-text search (SQLite FTS5) over everything said in every session, indexed by
//!   the writer in large batches while it is idle (and before each search), ranked in bounded time, rebuilt when
//!   damaged.
//! - [`SessionStore::import_session`]: a whole session (a conversation brought in from another agent) written in
//!   one transaction; [`SessionStore::message_times`] gives when each message was written, for exports.
//! - Organising: nested collections of a folder's sessions (the window's folders), pins, tags and the archive
//!   ([`SessionStore::create_collection`] and the methods beside it).
//! - [`MeteredModel`] and [`SessionStore::usage`]: each model request's usage and cost, what each tool result cost
//!   in the requests that carried it, and their sums by day, folder, model and session.
//! - [`repair_history`]: makes a cut-off history valid for the next request; the text of an answer cut off while it
//!   streamed is taken back from the events.

mod budget_status;
mod health;
mod import;
mod import_types;
mod lock;
mod metered_model;
mod organise;
mod organise_api;
mod output_budget;
mod persisting_model;
mod read;
mod recorder;
mod recover;
mod repair;
mod schema;
mod search;
mod search_docs;
mod search_index;
mod search_indexer;
mod search_query;
mod search_rank;
mod search_types;
mod session_store;
mod side_tables;
mod sink;
mod types;
mod usage_carry;
mod usage_report;
mod usage_write;
mod writer;
mod writer_thread;

use std::path::PathBuf;

pub use import_types::{ImportOutcome, ImportedSession, ImportedSidechain};
pub use lock::SessionLock;
pub use metered_model::MeteredModel;
pub use organise::{MAX_NAME_CHARS, MAX_TAGS};
pub use persisting_model::PersistingModel;
pub use recorder::SessionRecorder;
pub use repair::{INTERRUPTED_RESULT, repair_history};
pub use schema::{MIGRATIONS, ORGANISE as SCHEMA_ORGANISE, V1 as SCHEMA_V1};
pub use search::{CANDIDATES, HITS_PER_SESSION};
pub use search_query::{MAX_QUERY_CHARS, MAX_TERMS, QueryError};
pub use search_types::{SearchHit, SnippetPart, TextKind};
pub use session_store::{SessionStore, canonical_folder, now_ms};
pub use side_tables::{NewSidechain, WorkList};
pub use sink::RecordingStoreSink;
pub use types::{
    Collection, LoadedSession, NewSession, Organised, SessionRecord, SessionSummary, Sidechain,
    StoredEvent, ToolCallRecord,
};
pub use usage_carry::{
    CACHE_READ_SHARE, CACHE_WRITE_SHARE, Carry, IMAGE_TOKENS, Layout, MeteredRequest, carries,
};
pub use usage_report::{UsageFilter, day_start_ms, parse_day, period_starts};
pub use writer::{ToolCallUpdate, title_from_prompt};

/// Why the store could not do something.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("session database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("session database: bad JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("session database: {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no data directory is known on this system")]
    NoDataDir,
    #[error("the session database could not switch to WAL mode (it is in {0} mode)")]
    NoWal(String),
    #[error(
        "the session database has schema version {found}, newer than this Tandem knows ({known}); update Tandem"
    )]
    TooNew { found: i64, known: i64 },
    #[error("the session database is damaged: {0}")]
    Corrupt(String),
    /// An organising change that cannot be made (no such collection, a collection inside itself, an empty name).
    #[error("{0}")]
    Organise(String),
    #[error("no session with id {0}")]
    UnknownSession(String),
    #[error("session database: a queued write failed: {0}")]
    Write(String),
    #[error("session database: the writer thread has stopped")]
    Closed,
    #[error("session database: a lock was poisoned by a panic")]
    Poisoned,
    #[error("session {0} is in use by another Tandem process")]
    InUse(String),
    #[error("{0}")]
    BadQuery(#[from] QueryError),
    #[error("the session database cannot organise sessions (its schema is older)")]
    NoOrganising,
    #[error("the session database has no search index (its schema is older)")]
    NoSearchIndex,
    /// The search index was damaged and has been rebuilt; the writes of the transaction it broke are to be applied
    /// again.
    #[error("session database: the search index was rebuilt; the writes are to be applied again")]
    IndexRebuilt,
}
