//! A whole session written at once (a conversation brought in from another agent's transcript): its row, history,
//! events, tool calls and sidechains in one transaction of its own, so that it is stored whole or not at all. A
//! session stored before from an earlier state of the same transcript is brought up to date: what the transcript
//! added since is appended, when what is stored is where the transcript began (it was not continued in Tandem).

use rusqlite::{Connection, params};

use super::StoreError;
use super::import_types::{ImportOutcome, ImportedSession};
use super::schema::{begin_write, retry_busy};
use super::side_tables;
use super::writer::{Command, apply};
use crate::model::Role;

/// Writes `session` in one transaction: everything or, on any error, nothing.
pub(super) fn write(
    conn: &Connection,
    session: &ImportedSession,
) -> Result<ImportOutcome, StoreError> {
    let tx = begin_write(conn)?;
    let id = &session.session.id;
    let inserted = tx
        .prepare_cached(
            "INSERT INTO sessions (id, folder, title, created_at, updated_at, model, mode) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (id) DO NOTHING",
        )?
        .execute(params![
            id,
            session.session.folder.to_string_lossy(),
            session.title,
            session.created_at,
            session.updated_at(),
            session.session.model,
            session.session.mode.as_str()
        ])?;
    let (from_message, from_event) = if inserted == 0 {
        match grown(&tx, session)? {
            Some(from) => {
                tx.prepare_cached(
                    "UPDATE sessions SET updated_at = max(updated_at, ?2) WHERE id = ?1",
                )?
                .execute(params![id, session.updated_at()])?;
                from
            }
            // Dropping the transaction rolls back (nothing was written).
            None => return Ok(ImportOutcome::AlreadyThere),
        }
    } else {
        (0, 0)
    };
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO messages (session_id, ordinal, role, message, marks, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (ordinal, (message, at)) in session.messages.iter().enumerate().skip(from_message) {
            let role = match message.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            let marks = if message.marks.is_empty() {
                None
            } else {
                Some(serde_json::to_string(&message.marks)?)
            };
            insert.execute(params![
                id,
                ordinal as i64,
                role,
                serde_json::to_string(message)?,
                marks,
                at
            ])?;
        }
    }
    for (seq, (event, at)) in session.events.iter().enumerate().skip(from_event) {
        // The same path as a live session's events: tool-call rows, usage and the title follow from them.
        apply(
            &tx,
            &Command::Event {
                session: id.clone(),
                seq: seq as u64,
                event: Box::new(event.clone()),
                at: *at,
            },
        )?;
    }
    for chain in &session.sidechains {
        side_tables::write_sidechain(&tx, id, &chain.chain, chain.created_at)?;
        side_tables::write_sidechain_messages(
            &tx,
            id,
            &chain.chain.agent_id,
            0,
            &chain.messages,
            chain.created_at,
        )?;
    }
    retry_busy(|| tx.execute_batch("COMMIT"))?;
    // The transaction is over; dropping it must not roll back.
    let _ = tx.finish();
    Ok(if inserted == 0 {
        ImportOutcome::Updated
    } else {
        ImportOutcome::Stored
    })
}

/// How many messages and events of `session` are stored already, when the stored session is where `session`
/// began and `session` has gone on since; `None` when it is the same, or the stored one went another way (it was
/// continued in Tandem, or the transcript was rewritten).
fn grown(
    conn: &Connection,
    session: &ImportedSession,
) -> Result<Option<(usize, usize)>, StoreError> {
    let id = &session.session.id;
    let stored_messages = stored_texts(
        conn,
        "SELECT message FROM messages WHERE session_id = ?1 ORDER BY ordinal",
        id,
    )?;
    let stored_events = stored_texts(
        conn,
        "SELECT event FROM events WHERE session_id = ?1 ORDER BY seq",
        id,
    )?;
    let more = session.messages.len() > stored_messages.len()
        && session.events.len() >= stored_events.len();
    if !more {
        return Ok(None);
    }
    for (stored, (message, _)) in stored_messages.iter().zip(&session.messages) {
        if *stored != serde_json::to_string(message)? {
            return Ok(None);
        }
    }
    for (stored, (event, _)) in stored_events.iter().zip(&session.events) {
        if *stored != serde_json::to_string(event)? {
            return Ok(None);
        }
    }
    Ok(Some((stored_messages.len(), stored_events.len())))
}

fn stored_texts(conn: &Connection, sql: &str, id: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map([id], |row| row.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
