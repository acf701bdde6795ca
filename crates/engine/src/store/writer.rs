//! The writer's commands and how each is applied inside a write transaction (the thread that batches them is in
//! `writer_thread`).

use std::sync::mpsc::Sender;

use rusqlite::{Connection, ErrorCode, Transaction, params};
use serde::Serialize;
use serde_json::Value;
use tandem_protocol::{PermissionDecision, PermissionMode, SessionEvent, ToolOutcome, Usage};

use super::StoreError;
use super::import_types::{ImportOutcome, ImportedSession};
use super::search_index;
use super::side_tables::{self, NewSidechain, WorkList};
use super::types::NewSession;
use crate::model::{Message, Role};

/// How a flush is answered: from sync code or from async code.
pub enum Reply {
    Sync(Sender<Result<(), String>>),
    Async(tokio::sync::oneshot::Sender<Result<(), String>>),
}

impl Reply {
    pub(super) fn send(self, result: Result<(), String>) {
        // A caller that stopped waiting does not care about the answer.
        match self {
            Self::Sync(tx) => {
                let _ = tx.send(result);
            }
            Self::Async(tx) => {
                let _ = tx.send(result);
            }
        }
    }
}

/// A change to a tool call's row.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCallUpdate {
    /// The tool_use block began streaming.
    Started {
        name: String,
    },
    /// Its input is complete (as the pipeline shows it).
    Input {
        name: String,
        input: Value,
    },
    Decision(PermissionDecision),
    Ended(ToolOutcome),
}

/// One queued write. `at` is when it happened (Unix ms), not when it is committed.
pub enum Command {
    /// Inserts the session row unless it exists.
    Create {
        session: NewSession,
        at: i64,
    },
    Event {
        session: String,
        seq: u64,
        /// Boxed: events are much larger than the other commands.
        event: Box<SessionEvent>,
        at: i64,
    },
    /// Replaces the history from ordinal `from` on with `messages`.
    Messages {
        session: String,
        from: usize,
        messages: Vec<Message>,
        at: i64,
    },
    /// Appends one message after the last stored one.
    Append {
        session: String,
        message: Message,
        at: i64,
    },
    ToolCall {
        session: String,
        tool_use_id: String,
        update: ToolCallUpdate,
        at: i64,
    },
    /// Cumulative usage and cost of the session.
    Usage {
        session: String,
        usage: Usage,
        cost_usd: f64,
        at: i64,
    },
    /// A completed model request: its usage row and what it paid to carry each tool result.
    Request {
        session: String,
        request: super::usage_carry::MeteredRequest,
        at: i64,
    },
    Title {
        session: String,
        title: String,
        only_if_empty: bool,
        at: i64,
    },
    Mode {
        session: String,
        mode: PermissionMode,
        at: i64,
    },
    Delete {
        session: String,
    },
    /// The to-do or task list as it is now.
    WorkList {
        session: String,
        list: WorkList,
        at: i64,
    },
    /// A sub-agent's own to-do or task list as it is now.
    SidechainWorkList {
        session: String,
        agent_id: String,
        list: WorkList,
        at: i64,
    },
    /// A sub-agent's conversation began.
    Sidechain {
        session: String,
        chain: NewSidechain,
        at: i64,
    },
    /// Replaces a sidechain's history from ordinal `from` on.
    SidechainMessages {
        session: String,
        agent_id: String,
        from: usize,
        messages: Vec<Message>,
        at: i64,
    },
    /// Answered once everything queued before it is committed.
    Flush(Reply),
    /// Answered once every event written before is indexed for search (an answer still streaming waits for its
    /// end, or for [`STALE_OPEN`](super::search_docs::STALE_OPEN)).
    IndexAll(Reply),
    /// Rebuilds the search index from its documents, then answers.
    RebuildIndex(Reply),
    /// Forgets the search documents and indexes every session again from its stored events, then answers.
    Reindex(Reply),
    /// Stores a whole session in a transaction of its own (see `import`), then answers.
    Import {
        session: Box<ImportedSession>,
        reply: Sender<Result<ImportOutcome, String>>,
    },
}

impl Command {
    /// What the command writes, as the log names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::Create { .. } => "create",
            Command::Event { .. } => "event",
            Command::Messages { .. } => "messages",
            Command::Append { .. } => "append",
            Command::ToolCall { .. } => "tool_call",
            Command::Usage { .. } => "usage",
            Command::Request { .. } => "request",
            Command::Title { .. } => "title",
            Command::Mode { .. } => "mode",
            Command::Delete { .. } => "delete",
            Command::WorkList { .. } => "work_list",
            Command::SidechainWorkList { .. } => "sidechain_work_list",
            Command::Sidechain { .. } => "sidechain",
            Command::SidechainMessages { .. } => "sidechain_messages",
            Command::Flush(_) => "flush",
            Command::IndexAll(_) => "index_all",
            Command::RebuildIndex(_) => "rebuild_index",
            Command::Reindex(_) => "reindex",
            Command::Import { .. } => "import",
        }
    }
}

/// The marks column of a message: its marks as JSON, NULL when it has none.
fn marks_json(message: &Message) -> Result<Option<String>, serde_json::Error> {
    if message.marks.is_empty() {
        return Ok(None);
    }
    serde_json::to_string(&message.marks).map(Some)
}

/// The serde name of a unit enum value (`"snake_case"` strings).
pub fn enum_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// A title from a prompt: its first non-empty line, at most 80 characters.
pub fn title_from_prompt(prompt: &str) -> String {
    let line = prompt
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    const MAX: usize = 80;
    if line.chars().count() <= MAX {
        line.to_string()
    } else {
        let cut: String = line.chars().take(MAX - 1).collect();
        format!("{}…", cut.trim_end())
    }
}

/// Whether `err` says the database cannot take writes now (the disk is full, the file cannot be written), rather
/// than that one command is wrong.
pub(super) fn cannot_take(err: &StoreError) -> bool {
    let StoreError::Sqlite(err) = err else {
        return false;
    };
    matches!(
        err.sqlite_error_code(),
        Some(
            ErrorCode::DiskFull
                | ErrorCode::SystemIoFailure
                | ErrorCode::OutOfMemory
                | ErrorCode::ReadOnly
                | ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
        )
    )
}

/// Runs `change` to the search index inside a savepoint. When it fails for any reason but the database refusing
/// writes, the index is taken as damaged: it is rebuilt from its documents and `change` runs again. When SQLite
/// rolled back the whole transaction (as it does on a corrupt page), the index is rebuilt on its own and
/// [`StoreError::IndexRebuilt`] tells the writer to apply its batch again. A change that still fails is logged and
/// dropped — the event it indexes is stored all the same, and the next rebuild brings it.
fn change_index(
    conn: &Connection,
    change: impl Fn(&Connection) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let attempt = |conn: &Connection| -> Result<(), StoreError> {
        conn.execute_batch("SAVEPOINT search_change")?;
        // Releasing the savepoint writes FTS5's pending changes, and may fail too.
        let result = change(conn).and_then(|()| Ok(conn.execute_batch("RELEASE search_change")?));
        if result.is_err() {
            // After some failures SQLite has rolled back already, and the savepoint is gone with it.
            let _ = conn.execute_batch("ROLLBACK TO search_change; RELEASE search_change");
        }
        result
    };
    let Err(err) = attempt(conn) else {
        return Ok(());
    };
    if cannot_take(&err) {
        return Err(err);
    }
    tracing::warn!("session store: the search index could not be updated ({err})");
    if conn.is_autocommit() {
        // SQLite rolled the whole transaction back (it does on a corrupt page): rebuild the index on its own, and
        // let the writer apply the batch again.
        search_index::rebuild(conn)?;
        return Err(StoreError::IndexRebuilt);
    }
    if let Err(err) = search_index::rebuild_in(conn) {
        if cannot_take(&err) {
            return Err(err);
        }
        tracing::error!("session store: the search index could not be rebuilt: {err}");
        return Ok(());
    }
    match attempt(conn) {
        Err(err) if cannot_take(&err) => Err(err),
        Err(err) => {
            tracing::error!("session store: the search index could not be updated: {err}");
            Ok(())
        }
        Ok(()) => Ok(()),
    }
}

/// Applies a command inside the writer's transaction. Events are not indexed for search here (the writer's indexer
/// does it later, in large transactions); a deleted session's texts go with it.
pub(super) fn apply(tx: &Transaction<'_>, command: &Command) -> Result<(), StoreError> {
    match command {
        Command::Create { session, at } => {
            tx.prepare_cached(
                "INSERT INTO sessions (id, folder, created_at, updated_at, model, mode) \
                 VALUES (?1, ?2, ?3, ?3, ?4, ?5) ON CONFLICT (id) DO NOTHING",
            )?
            .execute(params![
                session.id,
                session.folder.to_string_lossy(),
                at,
                session.model,
                session.mode.as_str()
            ])?;
        }
        Command::Event {
            session,
            seq,
            event,
            at,
        } => {
            let json = serde_json::to_string(event)?;
            tx.prepare_cached(
                "INSERT INTO events (session_id, seq, event, created_at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![session, *seq as i64, json, at])?;
            project_event(tx, session, event, *at)?;
        }
        Command::Messages {
            session,
            from,
            messages,
            at,
        } => {
            tx.prepare_cached("DELETE FROM messages WHERE session_id = ?1 AND ordinal >= ?2")?
                .execute(params![session, *from as i64])?;
            let mut insert = tx.prepare_cached(
                "INSERT INTO messages (session_id, ordinal, role, message, marks, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for (offset, message) in messages.iter().enumerate() {
                let json = serde_json::to_string(message)?;
                insert.execute(params![
                    session,
                    (from + offset) as i64,
                    role_name(message.role),
                    json,
                    marks_json(message)?,
                    at
                ])?;
            }
        }
        Command::Append {
            session,
            message,
            at,
        } => {
            let json = serde_json::to_string(message)?;
            tx.prepare_cached(
                "INSERT INTO messages (session_id, ordinal, role, message, marks, created_at) \
                 SELECT ?1, COALESCE(MAX(ordinal) + 1, 0), ?2, ?3, ?4, ?5 FROM messages WHERE session_id = ?1",
            )?
            .execute(params![
                session,
                role_name(message.role),
                json,
                marks_json(message)?,
                at
            ])?;
        }
        Command::ToolCall {
            session,
            tool_use_id,
            update,
            at,
        } => tool_call(tx, session, tool_use_id, update, *at)?,
        Command::Usage {
            session,
            usage,
            cost_usd,
            ..
        } => {
            tx.prepare_cached(
                "UPDATE sessions SET input_tokens = ?2, output_tokens = ?3, cache_creation_input_tokens = ?4, \
                 cache_read_input_tokens = ?5, cost_usd = ?6 WHERE id = ?1",
            )?
            .execute(params![
                session,
                usage.input_tokens as i64,
                usage.output_tokens as i64,
                usage.cache_creation_input_tokens as i64,
                usage.cache_read_input_tokens as i64,
                cost_usd
            ])?;
        }
        Command::Request {
            session,
            request,
            at,
        } => super::usage_write::record_request(tx, session, request, *at)?,
        Command::Title {
            session,
            title,
            only_if_empty,
            ..
        } => {
            let sql = if *only_if_empty {
                "UPDATE sessions SET title = ?2 WHERE id = ?1 AND title = ''"
            } else {
                "UPDATE sessions SET title = ?2 WHERE id = ?1"
            };
            tx.prepare_cached(sql)?.execute(params![session, title])?;
        }
        Command::Mode { session, mode, .. } => {
            tx.prepare_cached("UPDATE sessions SET mode = ?2 WHERE id = ?1")?
                .execute(params![session, mode.as_str()])?;
        }
        Command::Delete { session } => {
            if search_index::enabled(tx)? {
                change_index(tx, |conn| {
                    conn.prepare_cached("DELETE FROM search_docs WHERE session_id = ?1")?
                        .execute([session])?;
                    Ok(())
                })?;
            }
            // The other tables follow through ON DELETE CASCADE.
            tx.prepare_cached("DELETE FROM sessions WHERE id = ?1")?
                .execute(params![session])?;
        }
        Command::WorkList { session, list, at } => {
            side_tables::write_work_list(tx, session, list, *at)?
        }
        Command::SidechainWorkList {
            session,
            agent_id,
            list,
            ..
        } => side_tables::write_sidechain_work_list(tx, session, agent_id, list)?,
        Command::Sidechain { session, chain, at } => {
            side_tables::write_sidechain(tx, session, chain, *at)?
        }
        Command::SidechainMessages {
            session,
            agent_id,
            from,
            messages,
            at,
        } => side_tables::write_sidechain_messages(tx, session, agent_id, *from, messages, *at)?,
        Command::Flush(_)
        | Command::IndexAll(_)
        | Command::RebuildIndex(_)
        | Command::Reindex(_)
        | Command::Import { .. } => {}
    }
    Ok(())
}

/// Keeps the tool_calls rows, the usage totals, the mode and the title in step with the events, in the same
/// transaction.
fn project_event(
    tx: &Transaction<'_>,
    session: &str,
    event: &SessionEvent,
    at: i64,
) -> Result<(), StoreError> {
    let session = session.to_string();
    let command = match event {
        SessionEvent::HostedSessionOpened {
            agent_session_id, ..
        } => {
            if !super::read::knows_hosted_agents(tx)? {
                return Ok(());
            }
            tx.prepare_cached(
                "INSERT OR IGNORE INTO hosted_agent_sessions (agent_session_id, host_session_id) VALUES (?1, ?2)",
            )?
            .execute(params![agent_session_id, session])?;
            return Ok(());
        }
        SessionEvent::TurnStarted { prompt, .. } => Command::Title {
            session,
            title: title_from_prompt(prompt),
            only_if_empty: true,
            at,
        },
        SessionEvent::ToolCallStarted { tool_use_id, name } => Command::ToolCall {
            session,
            tool_use_id: tool_use_id.clone(),
            update: ToolCallUpdate::Started { name: name.clone() },
            at,
        },
        SessionEvent::ToolCallInput {
            tool_use_id,
            name,
            input,
            ..
        } => return record_input(tx, &session, tool_use_id, name, input, at),
        SessionEvent::ToolCallDecision {
            tool_use_id,
            decision,
        } => Command::ToolCall {
            session,
            tool_use_id: tool_use_id.clone(),
            update: ToolCallUpdate::Decision(decision.clone()),
            at,
        },
        SessionEvent::ToolCallResult {
            tool_use_id,
            outcome,
            ..
        } => Command::ToolCall {
            session,
            tool_use_id: tool_use_id.clone(),
            update: ToolCallUpdate::Ended(*outcome),
            at,
        },
        SessionEvent::ModeChanged { mode } => Command::Mode {
            session,
            mode: *mode,
            at,
        },
        SessionEvent::TodosChanged { todos } => Command::WorkList {
            session,
            list: WorkList::Todos(todos.clone()),
            at,
        },
        SessionEvent::TasksChanged { tasks } => Command::WorkList {
            session,
            list: WorkList::Tasks(tasks.clone()),
            at,
        },
        SessionEvent::SubAgent {
            agent_id, event, ..
        } => match event.as_ref() {
            SessionEvent::TodosChanged { todos } => Command::SidechainWorkList {
                session,
                agent_id: agent_id.clone(),
                list: WorkList::Todos(todos.clone()),
                at,
            },
            SessionEvent::TasksChanged { tasks } => Command::SidechainWorkList {
                session,
                agent_id: agent_id.clone(),
                list: WorkList::Tasks(tasks.clone()),
                at,
            },
            _ => return Ok(()),
        },
        SessionEvent::UsageUpdated {
            session: usage,
            cost_usd,
            ..
        } => Command::Usage {
            session,
            usage: *usage,
            cost_usd: *cost_usd,
            at,
        },
        _ => return Ok(()),
    };
    apply(tx, &command)
}

/// A tool call's complete input (the row is made when the call's start was not seen).
fn record_input(
    tx: &Transaction<'_>,
    session: &str,
    id: &str,
    name: &str,
    input: &Value,
    at: i64,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO tool_calls (session_id, tool_use_id, name, input, started_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (session_id, tool_use_id) \
         DO UPDATE SET name = excluded.name, input = excluded.input",
    )?
    .execute(params![session, id, name, input.to_string(), at])?;
    Ok(())
}

fn tool_call(
    tx: &Transaction<'_>,
    session: &str,
    id: &str,
    update: &ToolCallUpdate,
    at: i64,
) -> Result<(), StoreError> {
    match update {
        ToolCallUpdate::Started { name } => {
            tx.prepare_cached(
                "INSERT INTO tool_calls (session_id, tool_use_id, name, started_at) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (session_id, tool_use_id) DO NOTHING",
            )?
            .execute(params![session, id, name, at])?;
        }
        ToolCallUpdate::Input { name, input } => {
            record_input(tx, session, id, name, input, at)?;
        }
        ToolCallUpdate::Decision(decision) => {
            let json = serde_json::to_string(decision)?;
            tx.prepare_cached(
                "UPDATE tool_calls SET decision = ?3, reason = ?4 WHERE session_id = ?1 AND tool_use_id = ?2",
            )?
            .execute(params![session, id, json, decision.reason])?;
        }
        ToolCallUpdate::Ended(outcome) => {
            tx.prepare_cached(
                "UPDATE tool_calls SET outcome = ?3, ended_at = ?4, duration_ms = ?4 - started_at \
                 WHERE session_id = ?1 AND tool_use_id = ?2",
            )?
            .execute(params![session, id, enum_name(outcome), at])?;
        }
    }
    Ok(())
}
