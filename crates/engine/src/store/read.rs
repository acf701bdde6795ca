//! Read queries: session rows, a folder's list, a whole session.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, Row, params};
use tandem_protocol::{PermissionMode, SessionEvent, ToolOutcome, Usage};

use super::StoreError;
use super::types::{Organised, SessionRecord, SessionSummary, StoredEvent, ToolCallRecord};
use crate::model::Message;

const RECORD_COLUMNS: &str = "s.id, s.folder, s.title, s.created_at, s.updated_at, s.model, s.mode, \
     s.input_tokens, s.output_tokens, s.cache_creation_input_tokens, s.cache_read_input_tokens, s.cost_usd";

fn record(row: &Row<'_>) -> rusqlite::Result<SessionRecord> {
    let mode: String = row.get(6)?;
    let tokens = |i: usize| row.get::<_, i64>(i).map(|v| v.max(0) as u64);
    Ok(SessionRecord {
        id: row.get(0)?,
        folder: PathBuf::from(row.get::<_, String>(1)?),
        title: row.get(2)?,
        created_at: row.get(3)?,
        updated_at: row.get(4)?,
        model: row.get(5)?,
        mode: PermissionMode::parse(&mode).unwrap_or_default(),
        usage: Usage {
            input_tokens: tokens(7)?,
            output_tokens: tokens(8)?,
            cache_creation_input_tokens: tokens(9)?,
            cache_read_input_tokens: tokens(10)?,
        },
        cost_usd: row.get(11)?,
    })
}

pub fn session(conn: &Connection, id: &str) -> Result<Option<SessionRecord>, StoreError> {
    let sql = format!("SELECT {RECORD_COLUMNS} FROM sessions s WHERE s.id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row(params![id], record)
        .optional()?)
}

/// The folder's sessions, most recently updated first.
/// Lists leave out a hosted agent's own session stored in this same file: its host session shows the same turns
/// (a file of an older schema, without the table, lists them all).
fn not_an_agents_twin(conn: &Connection) -> Result<&'static str, StoreError> {
    Ok(if knows_hosted_agents(conn)? {
        "s.id NOT IN (SELECT agent_session_id FROM hosted_agent_sessions)"
    } else {
        "1"
    })
}

/// Whether the file has the table of hosted agents' sessions (every file of the current schema does).
pub fn knows_hosted_agents(conn: &Connection) -> Result<bool, StoreError> {
    super::schema::has_table(conn, "hosted_agent_sessions")
}

pub fn list(
    conn: &Connection,
    folder: &Path,
    limit: Option<usize>,
) -> Result<Vec<SessionSummary>, StoreError> {
    let twin = not_an_agents_twin(conn)?;
    let sql = format!(
        "SELECT {RECORD_COLUMNS}, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) \
         FROM sessions s WHERE s.folder = ?1 AND {twin} ORDER BY s.updated_at DESC, s.created_at DESC, s.rowid DESC \
         LIMIT ?2"
    );
    let limit = limit.map_or(-1, |l| l as i64);
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![folder.to_string_lossy(), limit], |row| {
        Ok(SessionSummary {
            record: record(row)?,
            message_count: row.get::<_, i64>(12)?.max(0) as u64,
            organised: Organised::default(),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every session, most recently updated first.
pub fn list_all(conn: &Connection) -> Result<Vec<SessionSummary>, StoreError> {
    let twin = not_an_agents_twin(conn)?;
    let sql = format!(
        "SELECT {RECORD_COLUMNS}, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) \
         FROM sessions s WHERE {twin} ORDER BY s.updated_at DESC, s.created_at DESC, s.rowid DESC"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([], |row| {
        Ok(SessionSummary {
            record: record(row)?,
            message_count: row.get::<_, i64>(12)?.max(0) as u64,
            organised: Organised::default(),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn messages(conn: &Connection, id: &str) -> Result<Vec<Message>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT message, marks FROM messages WHERE session_id = ?1 ORDER BY ordinal",
    )?;
    let rows = stmt.query_map(params![id], |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, Option<String>>(1)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (json, marks) = row?;
        let mut message: Message = serde_json::from_str(&json)?;
        if let Some(marks) = marks {
            message.marks = serde_json::from_str(&marks)?;
        }
        out.push(message);
    }
    Ok(out)
}

/// Events from `from_seq` on, in order. An event this version cannot read (written by a newer Tandem) is skipped.
pub fn events(conn: &Connection, id: &str, from_seq: u64) -> Result<Vec<StoredEvent>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, created_at, event FROM events WHERE session_id = ?1 AND seq >= ?2 ORDER BY seq",
    )?;
    let rows = stmt.query_map(params![id, from_seq as i64], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, i64>(1)?,
            row.get::<_, String>(2)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, at, json) = row?;
        match serde_json::from_str::<SessionEvent>(&json) {
            Ok(event) => out.push(StoredEvent {
                seq: seq.max(0) as u64,
                at,
                event,
            }),
            Err(err) => tracing::warn!("session {id}: skipping unreadable event {seq}: {err}"),
        }
    }
    Ok(out)
}

pub fn tool_calls(conn: &Connection, id: &str) -> Result<Vec<ToolCallRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT tool_use_id, name, input, decision, outcome, started_at, ended_at, duration_ms \
         FROM tool_calls WHERE session_id = ?1 ORDER BY started_at, rowid",
    )?;
    let rows = stmt.query_map(params![id], |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, Option<String>>(2)?,
            row.get::<_, Option<String>>(3)?,
            row.get::<_, Option<String>>(4)?,
            row.get::<_, i64>(5)?,
            row.get::<_, Option<i64>>(6)?,
            row.get::<_, Option<i64>>(7)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (tool_use_id, name, input, decision, outcome, started_at, ended_at, duration_ms) = row?;
        out.push(ToolCallRecord {
            tool_use_id,
            name,
            input: input.map(|j| serde_json::from_str(&j)).transpose()?,
            decision: decision.map(|j| serde_json::from_str(&j)).transpose()?,
            outcome: outcome
                .map(|o| serde_json::from_value::<ToolOutcome>(serde_json::Value::String(o)))
                .transpose()?,
            started_at,
            ended_at,
            duration_ms,
        });
    }
    Ok(out)
}
