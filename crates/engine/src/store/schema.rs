//! The database's pragmas and schema: forward-only migrations, numbered by SQLite's `user_version`.

use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior};

use super::StoreError;

/// The migrations, in order. Entry `n` takes a file from version `n` to `n + 1`; `user_version` counts the applied
/// ones. Never edit an entry once released: add a new one.
pub const MIGRATIONS: &[&str] = &[V1, V2, V3, V4, ORGANISE, USAGE, HOSTED_AGENTS];

/// The first schema. Times are Unix milliseconds; JSON columns hold exactly what serde writes for the engine's types.
pub const V1: &str = r#"
CREATE TABLE sessions (
    id                          TEXT PRIMARY KEY,
    folder                      TEXT NOT NULL,             -- canonical path of the project folder
    title                       TEXT NOT NULL DEFAULT '',  -- from the first prompt until the person renames it
    created_at                  INTEGER NOT NULL,
    updated_at                  INTEGER NOT NULL,
    model                       TEXT NOT NULL,
    mode                        TEXT NOT NULL,             -- PermissionMode::as_str
    input_tokens                INTEGER NOT NULL DEFAULT 0,
    output_tokens               INTEGER NOT NULL DEFAULT 0,
    cache_creation_input_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_input_tokens     INTEGER NOT NULL DEFAULT 0,
    cost_usd                    REAL NOT NULL DEFAULT 0
);
CREATE INDEX sessions_by_folder ON sessions (folder, updated_at DESC);

-- The model history: one row per `model::Message`, `message` is its serde JSON ({"role":..,"content":[..]}).
CREATE TABLE messages (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    ordinal    INTEGER NOT NULL,
    role       TEXT NOT NULL,
    message    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, ordinal)
) WITHOUT ROWID;

-- Every SessionEvent as it streamed, `event` is its serde JSON.
CREATE TABLE events (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    event      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

CREATE TABLE tool_calls (
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tool_use_id TEXT NOT NULL,
    name        TEXT NOT NULL,
    input       TEXT,            -- JSON, as the pipeline showed it
    decision    TEXT,            -- PermissionDecision JSON
    reason      TEXT,            -- the decision's reason, for queries
    outcome     TEXT,            -- ToolOutcome (snake_case) once ended
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    duration_ms INTEGER,
    PRIMARY KEY (session_id, tool_use_id)
);                               -- with a rowid: the order the calls were recorded in
"#;

/// The agent's checklists and the sub-agents' own conversations (sidechains).
pub const V2: &str = r#"
-- The checklist of a session as it last changed: JSON arrays of TodoItem / TaskItem (NULL: never set).
CREATE TABLE work_lists (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    todos      TEXT,
    tasks      TEXT,
    updated_at INTEGER NOT NULL
);

-- One row per sub-agent run, started by the parent's tool call `parent_tool_use_id`.
CREATE TABLE sidechains (
    session_id         TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    agent_id           TEXT NOT NULL,
    parent_tool_use_id TEXT NOT NULL,
    agent_type         TEXT NOT NULL,
    description        TEXT NOT NULL,
    created_at         INTEGER NOT NULL,
    PRIMARY KEY (session_id, agent_id)
);

-- A sub-agent's model history, like `messages`.
CREATE TABLE sidechain_messages (
    session_id TEXT NOT NULL,
    agent_id   TEXT NOT NULL,
    ordinal    INTEGER NOT NULL,
    message    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, agent_id, ordinal),
    FOREIGN KEY (session_id, agent_id) REFERENCES sidechains (session_id, agent_id) ON DELETE CASCADE
) WITHOUT ROWID;
"#;

/// The session's marks on each message (`model::MessageMarks` as serde JSON; NULL: none): the ids of the prompts it
/// holds and whether it opens with a compaction's summary. Histories stored before have none; they are read with
/// the ids they had then (each prompt the place of its message). And each sub-agent's checklist as it last changed,
/// beside its conversation (JSON arrays of TodoItem / TaskItem; NULL: never set).
pub const V3: &str = r#"
ALTER TABLE messages ADD COLUMN marks TEXT;
ALTER TABLE sidechains ADD COLUMN todos TEXT;
ALTER TABLE sidechains ADD COLUMN tasks TEXT;
"#;

/// Full-text search over what was said in each session. `search_docs` holds one row per searchable text — a prompt,
/// an answer, a tool call's input or result, each of a sub-agent's — with the event it starts at (`seq`) and the
/// search scope of its session's folder (a token, so that a folder's texts are found through the index itself); the
/// FTS5 index over it is made by `search_index` (derived data, rebuilt whole when damaged). The index is not written
/// in the writer's transactions: `search_state` keeps, per session, the first event not yet turned into texts
/// (`indexed`; every event before it is in `search_docs`), and the writer brings sessions up to date in large
/// batches while it has nothing else to do, or before a search. A session without a row has nothing indexed yet:
/// every session of a file upgraded to this version.
pub const V4: &str = r#"
CREATE TABLE search_docs (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,           -- the event the text starts at
    kind       TEXT NOT NULL,              -- prompt, answer, tool_input, tool_result, sub_agent
    agent_id   TEXT NOT NULL DEFAULT '',   -- the sub-agent's id; '' for the session's own agent
    scope      TEXT NOT NULL,              -- the folder's search token (see search_docs::scope_token)
    body       TEXT NOT NULL
);
-- One text per event and agent: indexing the same events again (another process did) changes nothing.
CREATE UNIQUE INDEX search_docs_by_event ON search_docs (session_id, seq, agent_id);

CREATE TABLE search_state (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    indexed    INTEGER NOT NULL            -- the first seq not yet in search_docs
) WITHOUT ROWID;
"#;

/// How the person organises a folder's sessions: nested collections (the window calls them folders), pins, tags and
/// the archive. A collection belongs to one project folder; `parent_id` NULL is the top level. `session_places`
/// holds each organised session's collection (NULL: top level), when it was pinned and when archived (NULL: not);
/// a session without a row is unpinned, unarchived, at the top level. Deleting a collection moves its sessions and
/// collections up to its parent (done by the store, in one transaction).
pub const ORGANISE: &str = r#"
CREATE TABLE collections (
    id         INTEGER PRIMARY KEY,
    folder     TEXT NOT NULL,                          -- the project folder (sessions.folder)
    parent_id  INTEGER REFERENCES collections (id),
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX collections_by_folder ON collections (folder, parent_id);

CREATE TABLE session_places (
    session_id    TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    collection_id INTEGER REFERENCES collections (id) ON DELETE SET NULL,
    pinned_at     INTEGER,
    archived_at   INTEGER
) WITHOUT ROWID;
CREATE INDEX session_places_by_collection ON session_places (collection_id);

CREATE TABLE session_tags (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tag        TEXT NOT NULL,
    PRIMARY KEY (session_id, tag)
) WITHOUT ROWID;
CREATE INDEX session_tags_by_tag ON session_tags (tag);
"#;

/// What each model request cost, for usage by day, folder and model, and budgets: one row per request with its
/// time, model, usage and cost at list price (the session's own, its sub-agents', its side requests); and per tool
/// call and UTC day, what its result cost in the requests that carried it after the call (`usage_carry`). A session
/// stored before this version gets one row with its totals at its last update, under its model.
pub const USAGE: &str = r#"
CREATE TABLE model_requests (
    id                          INTEGER PRIMARY KEY,
    session_id                  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    at                          INTEGER NOT NULL,   -- when the response completed (Unix ms)
    model                       TEXT NOT NULL,      -- the model the request named
    input_tokens                INTEGER NOT NULL,
    output_tokens               INTEGER NOT NULL,
    cache_creation_input_tokens INTEGER NOT NULL,
    cache_read_input_tokens     INTEGER NOT NULL,
    cost_usd                    REAL NOT NULL
);
CREATE INDEX model_requests_by_time ON model_requests (at);
CREATE INDEX model_requests_by_session ON model_requests (session_id, at);

-- A tool call's result carried by later requests, summed per UTC day (`day` is YYYY-MM-DD).
CREATE TABLE tool_result_costs (
    session_id         TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tool_use_id        TEXT NOT NULL,
    day                TEXT NOT NULL,
    name               TEXT NOT NULL,
    result_tokens      INTEGER NOT NULL,   -- its estimated size in the last request that carried it
    requests           INTEGER NOT NULL,
    cache_read_tokens  INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    fresh_tokens       INTEGER NOT NULL,
    cost_usd           REAL NOT NULL,
    PRIMARY KEY (session_id, tool_use_id, day)
) WITHOUT ROWID;

INSERT INTO model_requests (session_id, at, model, input_tokens, output_tokens, cache_creation_input_tokens,
                            cache_read_input_tokens, cost_usd)
SELECT id, updated_at, model, input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens,
       cost_usd
FROM sessions
WHERE input_tokens + output_tokens + cache_creation_input_tokens + cache_read_input_tokens > 0 OR cost_usd > 0;
"#;

/// Sets the pragmas every connection needs.
///
/// `journal_mode=WAL`: readers never block the writer and a commit appends to the `-wal` file.
/// `synchronous=NORMAL`: in WAL mode a commit is complete once its frames are written (`write(2)`) to the WAL; the
/// fsync waits for the checkpoint. Data handed to the kernel survives the death of the process — `kill -9`, a panic,
/// an abort — so every committed transaction survives a crash of Tandem. Only an OS crash or power loss can lose the
/// last few commits, and even then the file stays consistent (never corrupt). `FULL` would fsync every commit, which
/// the streaming path cannot afford.
pub fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // Switching a new file to WAL needs the file to itself; another process opening it at the same moment makes
    // SQLite answer "busy" at once, without waiting.
    let mode: String =
        retry_busy(|| conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0)))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::NoWal(mode));
    }
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// How long one statement waits for another process's lock before SQLite answers "busy".
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long an operation is retried while the database stays busy.
pub const BUSY_DEADLINE: Duration = Duration::from_secs(60);

/// Whether SQLite answered "busy" or "locked" (another connection holds the lock).
pub fn is_busy(err: &rusqlite::Error) -> bool {
    matches!(
        err.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Runs `f` again while it fails with "busy", for up to [`BUSY_DEADLINE`].
pub fn retry_busy<T>(
    mut f: impl FnMut() -> Result<T, rusqlite::Error>,
) -> Result<T, rusqlite::Error> {
    let deadline = Instant::now() + BUSY_DEADLINE;
    let mut pause = Duration::from_millis(5);
    loop {
        match f() {
            Err(err) if is_busy(&err) && Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            other => return other,
        }
    }
}

/// The agents' own sessions behind hosted sessions: when Tandem hosts an agent that stores its sessions in this same
/// file (`tandem acp` on this machine), the agent's session is the host's twin and the lists leave it out (it is
/// still opened by id, which is how the agent continues it). Filled from each `HostedSessionOpened` event.
pub const HOSTED_AGENTS: &str = r#"
CREATE TABLE hosted_agent_sessions (
    agent_session_id TEXT PRIMARY KEY,    -- the agent's id for its session (not necessarily a session of this file)
    host_session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT OR IGNORE INTO hosted_agent_sessions (agent_session_id, host_session_id)
    SELECT json_extract(event, '$.agent_session_id'), session_id FROM events
    WHERE json_extract(event, '$.type') = 'hosted_session_opened'
      AND json_extract(event, '$.agent_session_id') IS NOT NULL;
"#;

/// Opens a write transaction that holds the write lock from its start (`BEGIN IMMEDIATE`), waiting while another
/// process writes. A deferred transaction could instead fail half-way, when a read turns into a write.
pub fn begin_write(conn: &Connection) -> Result<Transaction<'_>, StoreError> {
    Ok(retry_busy(|| {
        Transaction::new_unchecked(conn, TransactionBehavior::Immediate)
    })?)
}

/// Brings the file up to `migrations.len()`, in one transaction under the write lock. A file written by a newer Tandem (a higher
/// version than known) is refused rather than misread.
pub fn migrate(conn: &mut Connection, migrations: &[&str]) -> Result<(), StoreError> {
    let known = migrations.len() as i64;
    let found: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found == known {
        return Ok(());
    }
    // Under the write lock, so that processes opening the file at once migrate it once: each reads the version
    // again after taking the lock and applies only what is still missing.
    let tx = begin_write(conn)?;
    let found: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > known {
        return Err(StoreError::TooNew { found, known });
    }
    for (index, sql) in migrations.iter().enumerate().skip(found.max(0) as usize) {
        tx.execute_batch(sql)?;
        // user_version lives in the file header and changes with the transaction.
        tx.pragma_update(None, "user_version", (index + 1) as i64)?;
    }
    tx.commit()?;
    Ok(())
}

/// Whether the file has the table `name` (a file of an older schema, opened as such by tests, lacks the newer ones).
pub fn has_table(conn: &Connection, name: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")?
        .query_row([name], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The schema version of an open file.
pub fn version(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |row| row.get(0))?)
}
