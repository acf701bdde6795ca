//! Turning a session's stored events into the documents of the search index, outside the writer's small
//! transactions: a prompt, a tool call's input, a tool call's result are one document each; an answer's deltas become
//! one document once the next event ends the answer. Each session's `search_state.indexed` says where its events
//! stop being in the documents, so any process can bring a session up to date from there, and doing it twice
//! changes nothing.

use std::collections::HashMap;
use std::time::Duration;

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

/// An answer whose last delta is older than this when its session is indexed is taken as ended: its stream was cut
/// off (the process died). A younger one is still streaming and waits.
pub const STALE_OPEN: Duration = Duration::from_secs(60);

/// The search token of a folder's texts (in the index's `scope` column): `f` and a 64-bit FNV-1a hash of its
/// canonical path, in hex. Two folders sharing a token would only see each other's texts in a folder's search.
pub fn scope_token(folder: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in folder.as_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("f{hash:016x}")
}

/// One searchable text found in the events.
struct Doc {
    seq: u64,
    kind: TextKind,
    agent: String,
    body: String,
}

/// An answer still streaming: where it starts, what it said so far, when its last delta came.
struct Open {
    seq: u64,
    body: String,
    last_at: i64,
}

/// The texts of a run of events, and the answers they leave open.
#[derive(Default)]
struct Gather {
    docs: Vec<Doc>,
    open: HashMap<String, Open>,
}

impl Gather {
    fn event(&mut self, seq: u64, event: &SessionEvent, at: i64) {
        match event {
            SessionEvent::SubAgent {
                agent_id, event, ..
            } => self.one(agent_id, seq, event, at),
            other => self.one("", seq, other, at),
        }
    }

    /// An event of the session's own agent (`agent` empty) or of a sub-agent.
    fn one(&mut self, agent: &str, seq: u64, event: &SessionEvent, at: i64) {
        let kind = |own: TextKind| {
            if agent.is_empty() {
                own
            } else {
                TextKind::SubAgent
            }
        };
        let (kind, text) = match event {
            SessionEvent::TextDelta { text } => {
                let open = self.open.entry(agent.to_string()).or_insert(Open {
                    seq,
                    body: String::new(),
                    last_at: at,
                });
                let room = MAX_BODY.saturating_sub(open.body.len());
                open.body.push_str(&clean(text, room));
                open.last_at = at;
                return;
            }
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
            | SessionEvent::Error { .. } => return self.close(agent),
            _ => return,
        };
        self.close(agent);
        self.push(seq, kind, agent, &text);
    }

    fn push(&mut self, seq: u64, kind: TextKind, agent: &str, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        self.docs.push(Doc {
            seq,
            kind,
            agent: agent.to_string(),
            body: clean(text, MAX_BODY),
        });
    }

    /// Ends the agent's open answer, if any: it becomes a document.
    fn close(&mut self, agent: &str) {
        if let Some(open) = self.open.remove(agent) {
            let kind = if agent.is_empty() {
                TextKind::Answer
            } else {
                TextKind::SubAgent
            };
            self.push(open.seq, kind, agent, &open.body);
        }
    }
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

/// `text` without the snippet markers, cut at `room` bytes.
fn clean(text: &str, room: usize) -> String {
    let mut end = text.len().min(room);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].replace([MARK_OPEN, MARK_CLOSE], " ")
}

/// What indexing a session did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Indexed {
    /// Events read.
    pub events: usize,
    /// Whether an answer is still streaming (the session is indexed up to its start, and read again from there).
    pub open: bool,
}

/// Brings `session`'s documents up to date with its stored events, inside the caller's write transaction. `now`
/// (Unix ms) decides which open answers were cut off ([`STALE_OPEN`]). A session that is gone is nothing to do.
pub fn index_session(conn: &Connection, session: &str, now: i64) -> Result<Indexed, StoreError> {
    let Some(folder) = conn
        .prepare_cached("SELECT folder FROM sessions WHERE id = ?1")?
        .query_row([session], |row| row.get::<_, String>(0))
        .optional()?
    else {
        return Ok(Indexed::default());
    };
    let from: i64 = conn
        .prepare_cached("SELECT indexed FROM search_state WHERE session_id = ?1")?
        .query_row([session], |row| row.get(0))
        .optional()?
        .unwrap_or(0);
    let events = read::events(conn, session, from.max(0) as u64)?;
    let Some(last) = events.last().map(|e| e.seq) else {
        return Ok(Indexed::default());
    };
    let mut gather = Gather::default();
    for stored in &events {
        gather.event(stored.seq, &stored.event, stored.at);
    }
    let before = now - STALE_OPEN.as_millis() as i64;
    let stale: Vec<String> = gather
        .open
        .iter()
        .filter(|(_, open)| open.last_at < before)
        .map(|(agent, _)| agent.clone())
        .collect();
    for agent in stale {
        gather.close(&agent);
    }
    let scope = scope_token(&folder);
    let mut insert = conn.prepare_cached(
        "INSERT INTO search_docs (session_id, seq, kind, agent_id, scope, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
         ON CONFLICT (session_id, seq, agent_id) DO NOTHING",
    )?;
    for doc in &gather.docs {
        insert.execute(params![
            session,
            doc.seq as i64,
            doc.kind.as_str(),
            doc.agent,
            scope,
            doc.body
        ])?;
    }
    let indexed = gather
        .open
        .values()
        .map(|open| open.seq)
        .min()
        .unwrap_or(last + 1);
    conn.prepare_cached(
        "INSERT INTO search_state (session_id, indexed) VALUES (?1, ?2) \
         ON CONFLICT (session_id) DO UPDATE SET indexed = max(indexed, excluded.indexed)",
    )?
    .execute(params![session, indexed as i64])?;
    Ok(Indexed {
        events: events.len(),
        open: !gather.open.is_empty(),
    })
}

/// The sessions with stored events not yet in the documents (an answer still streaming counts), oldest first.
pub fn behind(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.id FROM sessions s LEFT JOIN search_state st ON st.session_id = s.id \
         WHERE EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND e.seq >= COALESCE(st.indexed, 0)) \
         ORDER BY s.updated_at",
    )?;
    let rows = stmt.query_map([], |row| row.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
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

    fn store_with_events(events: &[(u64, SessionEvent, i64)]) -> Connection {
        let mut conn = Connection::open_in_memory().expect("open");
        crate::store::schema::migrate(&mut conn, crate::store::MIGRATIONS).expect("migrate");
        conn.execute(
            "INSERT INTO sessions (id, folder, created_at, updated_at, model, mode) \
             VALUES ('s', '/p', 0, 0, 'm', 'default')",
            [],
        )
        .expect("session");
        for (seq, event, at) in events {
            conn.execute(
                "INSERT INTO events (session_id, seq, event, created_at) VALUES ('s', ?1, ?2, ?3)",
                params![*seq as i64, serde_json::to_string(event).expect("json"), at],
            )
            .expect("event");
        }
        conn
    }

    fn docs(conn: &Connection) -> Vec<(i64, String, String)> {
        let mut stmt = conn
            .prepare("SELECT seq, kind, body FROM search_docs ORDER BY seq")
            .expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    }

    fn delta(text: &str) -> SessionEvent {
        SessionEvent::TextDelta { text: text.into() }
    }

    #[test]
    fn a_streaming_answer_waits_and_its_session_is_read_again_from_its_start() {
        let prompt = SessionEvent::TurnStarted {
            prompt: "hello".into(),
            prompt_id: None,
        };
        let conn = store_with_events(&[(0, prompt, 1_000), (1, delta("half "), 1_000)]);
        let now = 1_000 + 1;
        let first = index_session(&conn, "s", now).expect("index");
        assert_eq!(
            first,
            Indexed {
                events: 2,
                open: true
            }
        );
        assert_eq!(docs(&conn), vec![(0, "prompt".into(), "hello".into())]);
        assert_eq!(behind(&conn).expect("behind"), vec!["s".to_string()]);
        conn.execute(
            "INSERT INTO events (session_id, seq, event, created_at) VALUES ('s', 2, ?1, 1000), \
             ('s', 3, ?2, 1000)",
            params![
                serde_json::to_string(&delta("an answer")).expect("json"),
                serde_json::to_string(&SessionEvent::TurnEnded {
                    stop_reason: tandem_protocol::TurnStopReason::EndTurn
                })
                .expect("json")
            ],
        )
        .expect("more events");
        // Read again from the answer's start; the prompt is not written twice.
        let second = index_session(&conn, "s", now).expect("index");
        assert_eq!(
            second,
            Indexed {
                events: 3,
                open: false
            }
        );
        assert_eq!(
            docs(&conn),
            vec![
                (0, "prompt".into(), "hello".into()),
                (1, "answer".into(), "half an answer".into())
            ]
        );
        assert!(behind(&conn).expect("behind").is_empty());
        // Again: nothing to read, nothing changes.
        assert_eq!(
            index_session(&conn, "s", now).expect("index"),
            Indexed::default()
        );
        assert_eq!(docs(&conn).len(), 2);
    }

    #[test]
    fn an_answer_cut_off_long_ago_is_a_document() {
        let conn = store_with_events(&[(0, delta("cut off"), 0)]);
        let now = STALE_OPEN.as_millis() as i64 + 1;
        assert!(!index_session(&conn, "s", now).expect("index").open);
        assert_eq!(docs(&conn), vec![(0, "answer".into(), "cut off".into())]);
    }

    #[test]
    fn cleaning_takes_out_markers_and_cuts_on_a_character() {
        assert_eq!(clean("a\u{E000}b\u{E001}c", 100), "a b c");
        assert_eq!(clean("héllo", 2), "h");
    }

    #[test]
    fn scope_tokens_are_one_word_per_folder() {
        let a = scope_token("/home/a/project");
        assert_eq!(a, scope_token("/home/a/project"));
        assert_ne!(a, scope_token("/home/a/project2"));
        assert_eq!(a.len(), 17);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
    }
}
