//! A whole session written at once (a conversation brought in from another agent's transcript): its row, history,
//! events, tool calls and sidechains in one transaction of its own, so that it is stored whole or not at all.

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
    if inserted == 0 {
        // Dropping the transaction rolls back (nothing was written).
        return Ok(ImportOutcome::AlreadyThere);
    }
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO messages (session_id, ordinal, role, message, marks, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (ordinal, (message, at)) in session.messages.iter().enumerate() {
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
    for (seq, (event, at)) in session.events.iter().enumerate() {
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
    Ok(ImportOutcome::Stored)
}
