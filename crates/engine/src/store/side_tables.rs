//! The tables beside a session's main transcript: its checklist (the last to-do and task lists) and its
//! sidechains (each sub-agent's own conversation, linked to the tool call that started it, with its own checklist).

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use tandem_protocol::{TaskItem, TodoItem};

use super::StoreError;
use super::types::Sidechain;
use crate::model::Message;

/// Which list changed.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkList {
    Todos(Vec<TodoItem>),
    Tasks(Vec<TaskItem>),
}

/// A sub-agent run to record.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSidechain {
    pub agent_id: String,
    pub parent_tool_use_id: String,
    pub agent_type: String,
    pub description: String,
}

pub(super) fn write_work_list(
    tx: &Transaction<'_>,
    session: &str,
    list: &WorkList,
    at: i64,
) -> Result<(), StoreError> {
    let (column, json) = match list {
        WorkList::Todos(todos) => ("todos", serde_json::to_string(todos)?),
        WorkList::Tasks(tasks) => ("tasks", serde_json::to_string(tasks)?),
    };
    let sql = format!(
        "INSERT INTO work_lists (session_id, {column}, updated_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (session_id) DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at"
    );
    tx.prepare_cached(&sql)?
        .execute(params![session, json, at])?;
    Ok(())
}

/// The stored lists of a session (empty when never set or unreadable).
pub(super) fn work_lists(
    conn: &Connection,
    session: &str,
) -> Result<(Vec<TodoItem>, Vec<TaskItem>), StoreError> {
    let row: Option<(Option<String>, Option<String>)> = conn
        .prepare_cached("SELECT todos, tasks FROM work_lists WHERE session_id = ?1")?
        .query_row(params![session], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let Some((todos, tasks)) = row else {
        return Ok((Vec::new(), Vec::new()));
    };
    Ok((parse_list(todos), parse_list(tasks)))
}

/// Keeps a sub-agent's own list as it is now beside its conversation.
pub(super) fn write_sidechain_work_list(
    tx: &Transaction<'_>,
    session: &str,
    agent_id: &str,
    list: &WorkList,
) -> Result<(), StoreError> {
    let (column, json) = match list {
        WorkList::Todos(todos) => ("todos", serde_json::to_string(todos)?),
        WorkList::Tasks(tasks) => ("tasks", serde_json::to_string(tasks)?),
    };
    let sql =
        format!("UPDATE sidechains SET {column} = ?3 WHERE session_id = ?1 AND agent_id = ?2");
    tx.prepare_cached(&sql)?
        .execute(params![session, agent_id, json])?;
    Ok(())
}

fn parse_list<T: serde::de::DeserializeOwned>(json: Option<String>) -> Vec<T> {
    json.and_then(|j| serde_json::from_str(&j).ok())
        .unwrap_or_default()
}

pub(super) fn write_sidechain(
    tx: &Transaction<'_>,
    session: &str,
    chain: &NewSidechain,
    at: i64,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO sidechains (session_id, agent_id, parent_tool_use_id, agent_type, description, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (session_id, agent_id) DO NOTHING",
    )?
    .execute(params![
        session,
        chain.agent_id,
        chain.parent_tool_use_id,
        chain.agent_type,
        chain.description,
        at
    ])?;
    Ok(())
}

/// Replaces a sidechain's history from ordinal `from` on.
pub(super) fn write_sidechain_messages(
    tx: &Transaction<'_>,
    session: &str,
    agent_id: &str,
    from: usize,
    messages: &[Message],
    at: i64,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "DELETE FROM sidechain_messages WHERE session_id = ?1 AND agent_id = ?2 AND ordinal >= ?3",
    )?
    .execute(params![session, agent_id, from as i64])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO sidechain_messages (session_id, agent_id, ordinal, message, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (offset, message) in messages.iter().enumerate() {
        let json = serde_json::to_string(message)?;
        insert.execute(params![session, agent_id, (from + offset) as i64, json, at])?;
    }
    Ok(())
}

/// The sidechains of a session in the order they started, each with its messages.
pub(super) fn sidechains(conn: &Connection, session: &str) -> Result<Vec<Sidechain>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT agent_id, parent_tool_use_id, agent_type, description, created_at, todos, tasks \
         FROM sidechains WHERE session_id = ?1 ORDER BY created_at, rowid",
    )?;
    let rows = stmt.query_map(params![session], |row| {
        Ok(Sidechain {
            agent_id: row.get(0)?,
            parent_tool_use_id: row.get(1)?,
            agent_type: row.get(2)?,
            description: row.get(3)?,
            created_at: row.get(4)?,
            messages: Vec::new(),
            todos: parse_list(row.get(5)?),
            tasks: parse_list(row.get(6)?),
        })
    })?;
    let mut out = Vec::new();
    for row in rows {
        out.push(row?);
    }
    let mut messages = conn.prepare_cached(
        "SELECT message FROM sidechain_messages WHERE session_id = ?1 AND agent_id = ?2 ORDER BY ordinal",
    )?;
    for chain in &mut out {
        let rows = messages.query_map(params![session, chain.agent_id], |row| {
            row.get::<_, String>(0)
        })?;
        for json in rows {
            match serde_json::from_str::<Message>(&json?) {
                Ok(message) => chain.messages.push(message),
                Err(err) => {
                    tracing::warn!("sidechain {}: unreadable message: {err}", chain.agent_id)
                }
            }
        }
    }
    Ok(out)
}
