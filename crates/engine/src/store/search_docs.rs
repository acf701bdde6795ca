//! Turning a session's events into the documents of the search index, in the writer's transaction (so the index
//! never disagrees with the events): a prompt, a tool call's input, a tool call's result are one document each; an
//! answer's deltas are gathered in `search_open` and become one document when the next event ends the answer. And
//! the indexing of the sessions a file held before it had an index, a few at a time.

use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;
use tandem_protocol::SessionEvent;

use super::StoreError;
use super::read;
use super::search_types::TextKind;

/// The most bytes of one document that are indexed (a longer tool result is indexed up to here).
pub const MAX_BODY: usize = 1 << 20;

/// The characters that mark matches in snippets; they are taken out of indexed text so they cannot be forged.
pub const MARK_OPEN: char = '\u{E000}';
pub const MARK_CLOSE: char = '\u{E001}';

/// An answer still open this long after its last delta is ended when a store opens: its stream was cut off.
pub const STALE_OPEN: Duration = Duration::from_secs(60);

/// Indexes event `seq` of `session`.
pub fn index_event(
    conn: &Connection,
    session: &str,
    seq: u64,
    event: &SessionEvent,
    at: i64,
) -> Result<(), StoreError> {
    match event {
        SessionEvent::SubAgent {
            agent_id, event, ..
        } => index_one(conn, session, agent_id, seq, event, at),
        other => index_one(conn, session, "", seq, other, at),
    }
}

/// Indexes an event of the session's own agent (`agent` empty) or of a sub-agent.
fn index_one(
    conn: &Connection,
    session: &str,
    agent: &str,
    seq: u64,
    event: &SessionEvent,
    at: i64,
) -> Result<(), StoreError> {
    let kind = |own: TextKind| {
        if agent.is_empty() {
            own
        } else {
            TextKind::SubAgent
        }
    };
    let (kind, text) = match event {
        SessionEvent::TextDelta { text } => return append(conn, session, agent, seq, text, at),
        SessionEvent::TurnStarted { prompt, .. } => (kind(TextKind::Prompt), prompt.clone()),
        SessionEvent::ToolCallInput { name, input, .. } => {
            (kind(TextKind::ToolInput), tool_input_text(name, input))
        }
        SessionEvent::ToolCallResult { content, .. } => {
            (kind(TextKind::ToolResult), content.clone())
        }
        SessionEvent::Brief { message, .. } => (kind(TextKind::Answer), message.clone()),
        // What ends an answer without saying anything itself.
        SessionEvent::ToolCallStarted { .. }
        | SessionEvent::UsageUpdated { .. }
        | SessionEvent::TurnEnded { .. }
        | SessionEvent::ConversationRewound { .. }
        | SessionEvent::Error { .. } => return close(conn, session, agent),
        _ => return Ok(()),
    };
    close(conn, session, agent)?;
    insert(conn, session, agent, seq, kind, &text)
}

/// A tool call's input as text: the tool's name, then every string in the input, one a line.
fn tool_input_text(name: &str, input: &Value) -> String {
    fn strings(value: &Value, out: &mut String) {
        match value {
            Value::String(s) => {
                out.push('\n');
                out.push_str(s);
            }
            Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            Value::Object(map) => map.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    let mut out = name.to_string();
    strings(input, &mut out);
    out
}

/// `text` without the snippet markers, cut at [`MAX_BODY`] bytes.
fn clean(text: &str, room: usize) -> String {
    let mut end = text.len().min(room);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].replace([MARK_OPEN, MARK_CLOSE], " ")
}

fn insert(
    conn: &Connection,
    session: &str,
    agent: &str,
    seq: u64,
    kind: TextKind,
    text: &str,
) -> Result<(), StoreError> {
    if text.trim().is_empty() {
        return Ok(());
    }
    conn.prepare_cached(
        "INSERT INTO search_docs (session_id, seq, kind, agent_id, body) VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (session_id, seq, agent_id) DO NOTHING",
    )?
    .execute(params![
        session,
        seq as i64,
        kind.as_str(),
        agent,
        clean(text, MAX_BODY)
    ])?;
    Ok(())
}

/// Adds a delta to the agent's open answer (opening it at `seq`).
fn append(
    conn: &Connection,
    session: &str,
    agent: &str,
    seq: u64,
    text: &str,
    at: i64,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO search_open (session_id, agent_id, seq, body, updated_at) VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (session_id, agent_id) DO UPDATE SET body = body || excluded.body, \
         updated_at = excluded.updated_at WHERE length(CAST(body AS BLOB)) < ?6",
    )?
    .execute(params![
        session,
        agent,
        seq as i64,
        clean(text, MAX_BODY),
        at,
        MAX_BODY as i64
    ])?;
    Ok(())
}

/// Ends the agent's open answer, if any: it becomes a document.
fn close(conn: &Connection, session: &str, agent: &str) -> Result<(), StoreError> {
    let open: Option<(i64, String)> = conn
        .prepare_cached(
            "DELETE FROM search_open WHERE session_id = ?1 AND agent_id = ?2 RETURNING seq, body",
        )?
        .query_row(params![session, agent], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?;
    if let Some((seq, body)) = open {
        let kind = if agent.is_empty() {
            TextKind::Answer
        } else {
            TextKind::SubAgent
        };
        insert(conn, session, agent, seq.max(0) as u64, kind, &body)?;
    }
    Ok(())
}

/// Ends every answer whose last delta came before `before` (Unix ms): streams that were cut off.
pub fn close_stale(conn: &Connection, before: i64) -> Result<(), StoreError> {
    let stale: Vec<(String, String)> = {
        let mut stmt =
            conn.prepare("SELECT session_id, agent_id FROM search_open WHERE updated_at < ?1")?;
        let rows = stmt.query_map([before], |row| Ok((row.get(0)?, row.get(1)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    for (session, agent) in stale {
        close(conn, &session, &agent)?;
    }
    Ok(())
}

/// Indexes a session anew from its stored events, and takes it off the pending list.
pub fn reindex_session(conn: &Connection, session: &str, now: i64) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM search_docs WHERE session_id = ?1")?
        .execute([session])?;
    conn.prepare_cached("DELETE FROM search_open WHERE session_id = ?1")?
        .execute([session])?;
    for stored in read::events(conn, session, 0)? {
        index_event(conn, session, stored.seq, &stored.event, stored.at)?;
    }
    let before = now - STALE_OPEN.as_millis() as i64;
    let stale: Vec<String> = {
        let mut stmt = conn.prepare_cached(
            "SELECT agent_id FROM search_open WHERE session_id = ?1 AND updated_at < ?2",
        )?;
        let rows = stmt.query_map(params![session, before], |row| row.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for agent in stale {
        close(conn, session, &agent)?;
    }
    conn.prepare_cached("DELETE FROM search_pending WHERE session_id = ?1")?
        .execute([session])?;
    Ok(())
}

/// Sessions indexed per look at the pending list.
const PENDING_PAGE: usize = 32;

/// Indexes pending sessions inside the caller's transaction until none is left or `budget` is spent (checked
/// between sessions, so one large session may run over). Returns whether sessions are still pending.
pub fn index_pending(conn: &Connection, budget: Duration, now: i64) -> Result<bool, StoreError> {
    let start = Instant::now();
    loop {
        let page: Vec<String> = {
            let mut stmt = conn.prepare_cached("SELECT session_id FROM search_pending LIMIT ?1")?;
            let rows = stmt.query_map([PENDING_PAGE as i64], |row| row.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        if page.is_empty() {
            return Ok(false);
        }
        for session in page {
            reindex_session(conn, &session, now)?;
            if start.elapsed() >= budget {
                return pending_count(conn).map(|n| n > 0);
            }
        }
    }
}

/// How many sessions wait to be indexed.
pub fn pending_count(conn: &Connection) -> Result<u64, StoreError> {
    let n: i64 = conn.query_row("SELECT COUNT(*) FROM search_pending", [], |row| row.get(0))?;
    Ok(n.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tool_input_is_its_name_and_its_strings() {
        let text = tool_input_text(
            "Bash",
            &json!({"command": "cargo test", "timeout": 5, "env": ["A=b"], "opts": {"x": "deep"}}),
        );
        for part in ["Bash", "cargo test", "A=b", "deep"] {
            assert!(text.contains(part), "{text}");
        }
        assert!(!text.contains("timeout"), "{text}");
    }

    #[test]
    fn pending_sessions_are_indexed_within_the_budget_one_session_at_least() {
        let mut conn = Connection::open_in_memory().expect("open");
        crate::store::schema::migrate(&mut conn, crate::store::MIGRATIONS).expect("migrate");
        for i in 0..3 {
            conn.execute(
                "INSERT INTO sessions (id, folder, created_at, updated_at, model, mode) \
                 VALUES (?1, '/p', 0, 0, 'm', 'default')",
                [format!("s{i}")],
            )
            .expect("session");
            let prompt = SessionEvent::TurnStarted {
                prompt: format!("prompt {i}"),
                prompt_id: None,
            };
            conn.execute(
                "INSERT INTO events (session_id, seq, event, created_at) VALUES (?1, 0, ?2, 0)",
                params![
                    format!("s{i}"),
                    serde_json::to_string(&prompt).expect("json")
                ],
            )
            .expect("event");
            conn.execute(
                "INSERT INTO search_pending (session_id) VALUES (?1)",
                [format!("s{i}")],
            )
            .expect("pending");
        }
        let docs = |conn: &Connection| -> i64 {
            conn.query_row("SELECT COUNT(*) FROM search_docs", [], |r| r.get(0))
                .expect("count")
        };
        // No time at all still indexes one session, so indexing always moves on.
        assert!(index_pending(&conn, Duration::ZERO, 0).expect("step"));
        assert_eq!(
            (docs(&conn), pending_count(&conn).expect("pending")),
            (1, 2)
        );
        assert!(!index_pending(&conn, Duration::from_secs(60), 0).expect("rest"));
        assert_eq!(
            (docs(&conn), pending_count(&conn).expect("pending")),
            (3, 0)
        );
    }

    #[test]
    fn cleaning_takes_out_markers_and_cuts_on_a_character() {
        assert_eq!(clean("a\u{E000}b\u{E001}c", 100), "a b c");
        assert_eq!(clean("héllo", 2), "h");
    }
}
