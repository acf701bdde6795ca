//! The session store: round trips, ordering, listing, migrations, repair, readers during writes, sessions that
//! record and resume, and the crash test (a child process killed with SIGKILL mid-stream).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, ContentBlock, Message, Role, ToolResultContent};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::store::{
    INTERRUPTED_RESULT, MIGRATIONS, NewSession, SCHEMA_V1, SessionStore, StoreError,
    repair_history, title_from_prompt,
};
use tandem_engine::testing::{
    FakeServer, Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace,
};
use tandem_protocol::{
    ApprovalChoice, DecisionBehavior, PermissionDecision, PermissionMode, ReadContent, RewindScope,
    RuleScope, SessionEvent, ToolDetail, ToolOutcome, TurnStopReason, Usage,
};

use super::common::{fake_config, server};

mod carry;
mod compact_rewind;
mod crash;
mod ending;
mod hosted_twins;
mod long_output;
mod old_forms;
mod organise;
mod search;
mod sharing;

/// A store in a fresh temporary folder (kept alive by the returned guard).
fn temp_store() -> (tempfile::TempDir, Arc<SessionStore>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("data/tandem/sessions.db")).expect("open");
    (dir, Arc::new(store))
}

fn new_session(id: &str, folder: &Path) -> NewSession {
    NewSession {
        id: id.into(),
        folder: folder.to_path_buf(),
        model: "fake-model".into(),
        mode: PermissionMode::Default,
    }
}

fn assistant(blocks: Vec<ContentBlock>) -> Message {
    Message::new(Role::Assistant, blocks)
}

fn text(t: &str) -> ContentBlock {
    ContentBlock::Text { text: t.into() }
}

fn tool_use(id: &str) -> ContentBlock {
    ContentBlock::ToolUse {
        id: id.into(),
        name: "Read".into(),
        input: json!({"file_path": "/tmp/x"}),
    }
}

fn result(id: &str, content: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.into(),
        content: ToolResultContent::Text(content.into()),
        is_error: false,
    }
}

fn interrupted(id: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.into(),
        content: ToolResultContent::Text(INTERRUPTED_RESULT.into()),
        is_error: true,
    }
}

fn user(blocks: Vec<ContentBlock>) -> Message {
    Message::new(Role::User, blocks)
}

#[test]
fn a_new_file_gets_every_migration_and_wal() {
    let (dir, store) = temp_store();
    assert_eq!(
        store.schema_version().expect("version"),
        MIGRATIONS.len() as i64
    );
    assert!(store.path().starts_with(dir.path()));
    // WAL mode keeps a `-wal` file beside the database while it is open.
    let mut wal = store.path().as_os_str().to_owned();
    wal.push("-wal");
    assert!(PathBuf::from(wal).exists());
}

#[test]
fn messages_events_and_tool_calls_round_trip() {
    let (_dir, store) = temp_store();
    let folder = Workspace::new(&[]).expect("workspace");
    let record = store
        .create_session(&new_session("s1", &folder.root()))
        .expect("create");
    assert_eq!(record.folder, folder.root());
    assert_eq!(record.title, "");
    assert_eq!(record.usage, Usage::default());

    let history = vec![
        Message::user_text("read it"),
        assistant(vec![
            ContentBlock::Thinking {
                thinking: "hmm".into(),
                signature: "sig==".into(),
            },
            text("Reading."),
            tool_use("toolu_1"),
        ]),
        user(vec![result("toolu_1", "     1\tline")]),
        assistant(vec![text("Done. ünïcödé ✓")]),
    ];
    for m in &history {
        store.append_message("s1", m);
    }
    let decision = PermissionDecision::by_rule(
        DecisionBehavior::Allow,
        "allowed by rule",
        "Read",
        RuleScope::Session,
        None,
    );
    let usage = Usage {
        input_tokens: 120,
        output_tokens: 30,
        cache_creation_input_tokens: 5,
        cache_read_input_tokens: 7,
    };
    let events = [
        SessionEvent::TurnStarted {
            prompt: "read it\nplease, carefully".into(),
            prompt_id: None,
        },
        SessionEvent::TextDelta {
            text: "Reading.".into(),
        },
        SessionEvent::ToolCallStarted {
            tool_use_id: "toolu_1".into(),
            name: "Read".into(),
        },
        SessionEvent::ToolCallDecision {
            tool_use_id: "toolu_1".into(),
            decision: decision.clone(),
        },
        SessionEvent::ToolCallResult {
            tool_use_id: "toolu_1".into(),
            outcome: ToolOutcome::Success,
            content: "     1\tline".into(),
            detail: Some(ToolDetail::Read {
                path: "/p/a.txt".into(),
                content: ReadContent::Text {
                    start_line: 1,
                    lines: 1,
                    total_lines: 1,
                },
            }),
        },
        SessionEvent::UsageUpdated {
            turn: usage,
            session: usage,
            cost_usd: 0.25,
        },
        SessionEvent::TurnEnded {
            stop_reason: TurnStopReason::EndTurn,
        },
    ];
    for (seq, e) in events.iter().enumerate() {
        store.record_event("s1", seq as u64, e.clone());
    }

    let loaded = store.load_session("s1").expect("load").expect("exists");
    assert_eq!(loaded.messages, history);
    assert_eq!(loaded.history, history, "nothing to repair");
    assert_eq!(
        loaded.events.iter().map(|e| &e.event).collect::<Vec<_>>(),
        events.iter().collect::<Vec<_>>()
    );
    assert_eq!(
        loaded.events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (0..events.len() as u64).collect::<Vec<_>>()
    );
    assert_eq!(loaded.next_seq(), events.len() as u64);
    assert_eq!(loaded.record.title, "read it");
    assert_eq!(loaded.record.usage, usage);
    assert_eq!(loaded.record.cost_usd, 0.25);
    assert_eq!(loaded.tool_calls.len(), 1);
    let call = &loaded.tool_calls[0];
    assert_eq!(call.tool_use_id, "toolu_1");
    assert_eq!(call.name, "Read");
    assert_eq!(call.decision.as_ref(), Some(&decision));
    assert_eq!(call.outcome, Some(ToolOutcome::Success));
    assert!(call.ended_at.is_some_and(|end| end >= call.started_at));
    assert!(call.duration_ms.is_some_and(|d| d >= 0));
    assert!(loaded.record.updated_at >= loaded.record.created_at);

    assert!(store.load_session("nope").expect("load").is_none());
}

#[test]
fn replacing_the_tail_of_the_history_rewrites_only_that() {
    let (_dir, store) = temp_store();
    let folder = Workspace::new(&[]).expect("workspace");
    store
        .create_session(&new_session("s", &folder.root()))
        .expect("create");
    let a = Message::user_text("a");
    let b = assistant(vec![text("b")]);
    let c = Message::user_text("c");
    store.replace_messages("s", 0, &[a.clone(), b.clone(), c.clone()]);
    let merged = user(vec![text("c"), text("d")]);
    store.replace_messages("s", 2, std::slice::from_ref(&merged));
    let loaded = store.load_session("s").expect("load").expect("exists");
    assert_eq!(loaded.messages, vec![a.clone(), b, merged]);
    // A shorter history (compaction) drops the rows after it.
    store.replace_messages("s", 1, &[]);
    let loaded = store.load_session("s").expect("load").expect("exists");
    assert_eq!(loaded.messages, vec![a]);
}

#[test]
fn thousands_of_events_keep_their_order() {
    let (_dir, store) = temp_store();
    let folder = Workspace::new(&[]).expect("workspace");
    store
        .create_session(&new_session("s", &folder.root()))
        .expect("create");
    let n = 5_000u64;
    for seq in 0..n {
        store.record_event(
            "s",
            seq,
            SessionEvent::TextDelta {
                text: format!("piece {seq} "),
            },
        );
    }
    let events = store.events_since("s", 0).expect("events");
    assert_eq!(events.len() as u64, n);
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.seq, i as u64);
        assert_eq!(
            e.event,
            SessionEvent::TextDelta {
                text: format!("piece {i} ")
            }
        );
    }
    assert_eq!(store.events_since("s", n - 2).expect("tail").len(), 2);
}

#[test]
fn a_folder_lists_its_sessions_newest_first() {
    let (_dir, store) = temp_store();
    let here = Workspace::new(&[]).expect("workspace");
    let elsewhere = Workspace::new(&[]).expect("workspace");
    for id in ["old", "mid", "new"] {
        store
            .create_session(&new_session(id, &here.root()))
            .expect("create");
        store.record_event(
            id,
            0,
            SessionEvent::TurnStarted {
                prompt: format!("  \n fix the {id} bug\nmore detail"),
                prompt_id: None,
            },
        );
        store.append_message(id, &Message::user_text("x"));
        store.flush().expect("flush");
        std::thread::sleep(Duration::from_millis(5));
    }
    store
        .create_session(&new_session("other", &elsewhere.root()))
        .expect("create");
    store.append_message("mid", &assistant(vec![text("y")]));
    store.flush().expect("flush");

    // A path that is not canonical finds the same folder.
    let dotted = here.root().join(".");
    let list = store.list_sessions(&dotted).expect("list");
    let ids: Vec<&str> = list.iter().map(|s| s.record.id.as_str()).collect();
    assert_eq!(ids, ["mid", "new", "old"]);
    assert_eq!(list[0].message_count, 2);
    assert_eq!(list[1].message_count, 1);
    assert_eq!(list[1].record.title, "fix the new bug");
    let row = list[1].to_protocol();
    assert_eq!(
        (
            row.session_id.as_str(),
            row.title.as_str(),
            row.message_count
        ),
        ("new", "fix the new bug", 1)
    );
    assert_eq!(row.updated_at_ms, list[1].record.updated_at as u64);
    assert_eq!(
        store
            .latest_session(&here.root())
            .expect("latest")
            .map(|s| s.record.id),
        Some("mid".to_string())
    );
    assert_eq!(
        store.list_sessions(&elsewhere.root()).expect("list").len(),
        1
    );

    store.rename_session("old", "Renamed").expect("rename");
    store.record_event(
        "old",
        1,
        SessionEvent::TurnStarted {
            prompt: "a later prompt does not retitle".into(),
            prompt_id: None,
        },
    );
    let old = store.session("old").expect("read").expect("exists");
    assert_eq!(old.title, "Renamed");

    store.delete_session("mid").expect("delete");
    assert!(store.load_session("mid").expect("load").is_none());
    assert!(store.events_since("mid", 0).expect("events").is_empty());
    let ids: Vec<String> = store
        .list_sessions(&here.root())
        .expect("list")
        .into_iter()
        .map(|s| s.record.id)
        .collect();
    assert_eq!(ids, ["old", "new"]);
}

#[test]
fn titles_are_the_first_line_cut_to_eighty_characters() {
    assert_eq!(
        title_from_prompt("\n  hello world  \nsecond"),
        "hello world"
    );
    let long = "word ".repeat(40);
    let title = title_from_prompt(&long);
    assert!(title.chars().count() <= 80);
    assert!(title.ends_with('…'));
    assert_eq!(title_from_prompt(""), "");
}

#[test]
fn a_v1_file_opens_after_a_migration_is_added() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let folder = Workspace::new(&[]).expect("workspace");
    {
        let v1 = SessionStore::open_with_migrations(&path, &[SCHEMA_V1]).expect("v1");
        assert_eq!(v1.schema_version().expect("version"), 1);
        v1.create_session(&new_session("s", &folder.root()))
            .expect("create");
        v1.record_event(
            "s",
            0,
            SessionEvent::Notice {
                message: "v1".into(),
            },
        );
    }
    {
        // As the Tandem of v1 wrote a message (today's writer knows columns v1 did not have).
        let conn = rusqlite::Connection::open(&path).expect("raw connection");
        conn.execute(
            "INSERT INTO messages (session_id, ordinal, role, message, created_at) VALUES ('s', 0, 'user', ?1, 1)",
            [serde_json::to_string(&Message::user_text("kept across the upgrade")).expect("json")],
        )
        .expect("insert");
    }
    // Today's migrations and one more after them.
    let next_step = "ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;\
                     CREATE INDEX events_by_time ON events (created_at);";
    let mut steps = MIGRATIONS.to_vec();
    steps.push(next_step);
    let newest = steps.len() as i64;
    {
        let upgraded = SessionStore::open_with_migrations(&path, &steps).expect("upgraded");
        assert_eq!(upgraded.schema_version().expect("version"), newest);
        let loaded = upgraded.load_session("s").expect("load").expect("exists");
        assert_eq!(
            loaded.messages,
            vec![Message::user_text("kept across the upgrade")]
        );
        assert_eq!(loaded.events.len(), 1);
        assert!(loaded.todos.is_empty() && loaded.sidechains.is_empty());
    }
    // A Tandem that only knows v1 refuses the newer file instead of misreading it.
    match SessionStore::open_with_migrations(&path, &[SCHEMA_V1]) {
        Err(StoreError::TooNew { found, known: 1 }) if found == newest => {}
        Err(other) => panic!("unexpected error {other}"),
        Ok(_) => panic!("a newer file was opened"),
    }
}

#[test]
fn repair_leaves_valid_histories_alone() {
    let text_only = vec![
        Message::user_text("hi"),
        assistant(vec![text("hello")]),
        Message::user_text("trailing prompt of a failed turn"),
    ];
    let answered = vec![
        Message::user_text("read"),
        assistant(vec![tool_use("a"), tool_use("b")]),
        user(vec![result("a", "A"), result("b", "B")]),
        assistant(vec![text("done")]),
    ];
    for history in [text_only, answered, Vec::new()] {
        let mut repaired = history.clone();
        assert_eq!(repair_history(&mut repaired), 0);
        assert_eq!(repaired, history);
    }
}

#[test]
fn repair_answers_an_unanswered_last_message() {
    let mut history = vec![
        Message::user_text("read two"),
        assistant(vec![text("Reading."), tool_use("a"), tool_use("b")]),
    ];
    assert_eq!(repair_history(&mut history), 2);
    assert_eq!(history.len(), 3);
    assert_eq!(history[2], user(vec![interrupted("a"), interrupted("b")]));
}

#[test]
fn repair_adds_the_missing_results_in_call_order() {
    let mut history = vec![
        Message::user_text("read three"),
        assistant(vec![tool_use("a"), tool_use("b"), tool_use("c")]),
        user(vec![
            result("c", "C"),
            result("a", "A"),
            result("zzz", "orphan"),
            text("and a note"),
        ]),
    ];
    assert_eq!(repair_history(&mut history), 1);
    assert_eq!(
        history[2],
        user(vec![
            result("a", "A"),
            interrupted("b"),
            result("c", "C"),
            text("and a note"),
        ])
    );
}

#[test]
fn repair_handles_several_assistant_messages() {
    let mut history = vec![
        Message::user_text("go"),
        assistant(vec![tool_use("a")]),
        user(vec![result("a", "A")]),
        assistant(vec![tool_use("b")]),
        // Two assistant messages in a row: the first one's call was never answered.
        assistant(vec![text("thinking aloud"), tool_use("c")]),
    ];
    assert_eq!(repair_history(&mut history), 2);
    assert_eq!(
        history,
        vec![
            Message::user_text("go"),
            assistant(vec![tool_use("a")]),
            user(vec![result("a", "A")]),
            assistant(vec![tool_use("b")]),
            user(vec![interrupted("b")]),
            assistant(vec![text("thinking aloud"), tool_use("c")]),
            user(vec![interrupted("c")]),
        ]
    );
}

#[test]
fn loading_repairs_but_keeps_the_stored_history() {
    let (_dir, store) = temp_store();
    let folder = Workspace::new(&[]).expect("workspace");
    store
        .create_session(&new_session("s", &folder.root()))
        .expect("create");
    let stored = vec![Message::user_text("read"), assistant(vec![tool_use("a")])];
    store.replace_messages("s", 0, &stored);
    store.record_event(
        "s",
        0,
        SessionEvent::TextDelta {
            text: "partial text of a message that never completed".into(),
        },
    );
    let loaded = store.load_session("s").expect("load").expect("exists");
    assert_eq!(loaded.messages, stored);
    assert_eq!(loaded.history.len(), 3);
    assert_eq!(loaded.history[2], user(vec![interrupted("a")]));
    assert_eq!(
        loaded.events.len(),
        1,
        "the partial text stays in the events"
    );
}

#[test]
fn readers_see_ordered_prefixes_while_a_writer_streams() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let folder = Workspace::new(&[]).expect("workspace");
    let writer = SessionStore::open(&path).expect("writer");
    writer
        .create_session(&new_session("s", &folder.root()))
        .expect("create");
    let n = 3_000u64;
    std::thread::scope(|scope| {
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let path = path.clone();
                scope.spawn(move || {
                    // Another connection, as another window or a CLI run would have.
                    let reader = SessionStore::open(&path).expect("reader");
                    let mut seen = 0;
                    let mut rounds = 0;
                    while seen < n {
                        let events = reader.events_since("s", 0).expect("read while writing");
                        assert!(events.len() as u64 >= seen, "a reader never goes back");
                        for (i, e) in events.iter().enumerate() {
                            assert_eq!(e.seq, i as u64, "no gaps, in order");
                        }
                        seen = events.len() as u64;
                        rounds += 1;
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    rounds
                })
            })
            .collect();
        for seq in 0..n {
            writer.record_event(
                "s",
                seq,
                SessionEvent::TextDelta {
                    text: format!("{seq}"),
                },
            );
            if seq % 100 == 0 {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        writer.flush().expect("flush");
        for r in readers {
            assert!(r.join().expect("reader thread") > 1);
        }
    });
}

#[test]
fn dropping_the_store_commits_what_was_queued() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let folder = Workspace::new(&[]).expect("workspace");
    {
        let store = SessionStore::open(&path).expect("open");
        store.create_session_queued(&new_session("s", &folder.root()));
        for seq in 0..1_000 {
            store.record_event("s", seq, SessionEvent::TextDelta { text: "x".into() });
        }
    }
    let store = SessionStore::open(&path).expect("reopen");
    assert_eq!(store.events_since("s", 0).expect("events").len(), 1_000);
}

fn deny_all() -> Arc<ScriptedApprover> {
    Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny))
}

/// A session on `root` recorded in `store`, talking to `fake`.
fn stored_session(
    root: &Path,
    fake: &FakeServer,
    store: &Arc<SessionStore>,
    sink: RecordingSink,
) -> Session {
    let config = fake_config(&fake.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    Session::builder(root)
        .expect("folder")
        .options(SessionOptions {
            id: None,
            cwd: root.to_path_buf(),
            model: config,
            mode: PermissionMode::Default,
            approver: deny_all(),
            events: Arc::new(sink),
            store: Some(store.clone()),
            watch_settings: true,
        })
        .model_client(model)
        .build()
        .expect("session")
}

/// Reopens stored session `id`. A session just dropped lets go of its store lock once its last tasks end (later on
/// a busy machine): until then the store says it is in use, and this waits for it, as the window does.
async fn resumed_session(
    id: &str,
    fake: &FakeServer,
    store: &Arc<SessionStore>,
    sink: RecordingSink,
) -> Session {
    let config = fake_config(&fake.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    tandem_engine::testing::wait_released(store, id).await;
    let builder = Session::resuming(store.clone(), id);
    builder
        .and_then(|builder| {
            builder
                .options(SessionOptions {
                    id: None,
                    cwd: PathBuf::from("/ignored"),
                    model: config,
                    mode: PermissionMode::Default,
                    approver: deny_all(),
                    events: Arc::new(sink),
                    store: None,
                    watch_settings: true,
                })
                .model_client(model)
                .build()
        })
        .expect("resume")
}

#[tokio::test]
async fn a_session_records_its_turns_and_resumes_where_it_stopped() {
    let ws = Workspace::new(&[("notes.txt", "alpha\nbeta\n")]).expect("workspace");
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "Reading the notes.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_1".into(),
                name: "Read".into(),
                input: json!({"file_path": ws.path("notes.txt")}),
            },
        ]),
        ScriptedTurn::text("Two lines."),
        ScriptedTurn::text("Still here."),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = stored_session(&ws.root(), &fake, &store, sink.clone());
    // A session without a prompt is not listed.
    assert!(store.list_sessions(&ws.root()).expect("list").is_empty());
    s.set_mode(PermissionMode::AcceptEdits);

    let outcome = s.send("What is in notes.txt?").await.expect("turn");
    assert_eq!(outcome.final_text, "Two lines.");

    let loaded = store.load_session(s.id()).expect("load").expect("stored");
    assert_eq!(loaded.messages, s.history().await);
    assert_eq!(loaded.messages.len(), 4);
    assert_eq!(
        loaded
            .events
            .iter()
            .map(|e| e.event.clone())
            .collect::<Vec<_>>(),
        sink.events(),
        "every event the UI saw is stored, in order"
    );
    assert_eq!(loaded.record.title, "What is in notes.txt?");
    assert_eq!(loaded.record.mode, PermissionMode::AcceptEdits);
    assert_eq!(loaded.record.usage, s.usage());
    assert!(loaded.record.cost_usd >= 0.0);
    assert_eq!(loaded.tool_calls.len(), 1);
    let call = &loaded.tool_calls[0];
    assert_eq!(call.name, "Read");
    assert_eq!(
        call.decision.as_ref().map(|d| d.decision),
        Some(DecisionBehavior::Allow)
    );
    assert_eq!(call.outcome, Some(ToolOutcome::Success));
    let listed = store.list_sessions(&ws.root()).expect("list");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].message_count, 4);

    let sink2 = RecordingSink::default();
    // One writer per session: the first one ends before the session is reopened.
    let id = s.id().to_string();
    drop(s);
    let resumed = resumed_session(&id, &fake, &store, sink2.clone()).await;
    assert_eq!(resumed.cwd(), ws.root());
    assert_eq!(resumed.history().await, loaded.messages);
    assert_eq!(resumed.usage(), loaded.record.usage);
    let outcome = resumed.send("Are you still there?").await.expect("turn");
    assert_eq!(outcome.final_text, "Still here.");
    let requests = fake.requests();
    let last = requests.last().expect("a request");
    assert!(last.rejected.is_none(), "{:?}", last.rejected);
    assert_eq!(last.body["messages"].as_array().map(|m| m.len()), Some(5));

    let after = store
        .load_session(resumed.id())
        .expect("load")
        .expect("stored");
    assert_eq!(after.messages.len(), 6);
    assert_eq!(
        after.events.len(),
        loaded.events.len() + sink2.events().len()
    );
    assert!(
        after
            .events
            .iter()
            .enumerate()
            .all(|(i, e)| e.seq == i as u64)
    );
    assert_eq!(after.record.title, "What is in notes.txt?");
}

#[tokio::test]
async fn resuming_an_unknown_session_is_an_error() {
    let (_dir, store) = temp_store();
    let config = fake_config("http://127.0.0.1:9");
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    let result = Session::resuming(store, "missing").and_then(|builder| {
        builder
            .options(SessionOptions {
                id: None,
                cwd: PathBuf::from("/"),
                model: config,
                mode: PermissionMode::Default,
                approver: deny_all(),
                events: Arc::new(RecordingSink::default()),
                store: None,
                watch_settings: true,
            })
            .model_client(model)
            .build()
    });
    assert!(matches!(
        result,
        Err(tandem_engine::session::SessionError::UnknownSession(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_folder_stores_no_session_until_the_first_prompt() {
    let ws = Workspace::new(&[]).expect("workspace");
    // A broken settings file: opening the session shows a notice before any prompt.
    std::fs::create_dir_all(ws.root().join(".claude")).expect("mkdir");
    std::fs::write(ws.root().join(".claude/settings.json"), "{ broken").expect("write");
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([ScriptedTurn::text("hello back")])).await;

    let idle = stored_session(&ws.root(), &fake, &store, RecordingSink::default());
    drop(idle);
    store.flush().expect("flush");
    assert!(
        store.list_sessions(&ws.root()).expect("list").is_empty(),
        "a session without a prompt is not stored"
    );

    let used = stored_session(&ws.root(), &fake, &store, RecordingSink::default());
    used.send("hi").await.expect("turn");
    let id = used.id().to_string();
    drop(used);
    store.flush().expect("flush");
    let listed = store.list_sessions(&ws.root()).expect("list");
    assert_eq!(listed.len(), 1);
    let loaded = store.load_session(&id).expect("load").expect("stored");
    let events: Vec<_> = loaded.events.iter().map(|e| &e.event).collect();
    assert!(
        matches!(events.first(), Some(SessionEvent::Notice { message }) if message.contains("Settings problem")),
        "the notice shown on opening is kept, before the prompt: {events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, SessionEvent::TurnStarted { .. }))
    );
}

/// Prompts carry the id a rewind uses, and a rewind of the conversation is an event of its own, stored with the
/// others: a window replaying the stored events drops exactly the prompts the model no longer sees.
#[tokio::test]
async fn prompts_carry_their_rewind_id_and_a_rewind_is_stored_as_an_event() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        ScriptedTurn::text("one"),
        ScriptedTurn::text("two"),
        ScriptedTurn::text("three"),
        ScriptedTurn::text("two again"),
    ]))
    .await;
    let s = stored_session(&ws.root(), &fake, &store, RecordingSink::default());
    for prompt in ["first", "second", "third"] {
        s.send(prompt).await.expect("turn");
    }
    let points = s.checkpoints().rewind_points().await;
    let ids = |events: &[tandem_engine::store::StoredEvent]| -> Vec<(String, Option<String>)> {
        events
            .iter()
            .filter_map(|e| match &e.event {
                SessionEvent::TurnStarted { prompt, prompt_id } => {
                    Some((prompt.clone(), prompt_id.clone()))
                }
                _ => None,
            })
            .collect()
    };
    let loaded = store.load_session(s.id()).expect("load").expect("stored");
    let started = ids(&loaded.events);
    assert_eq!(started.len(), 3);
    for ((prompt, id), point) in started.iter().zip(&points) {
        assert_eq!(prompt, &point.prompt);
        assert_eq!(id.as_deref(), Some(point.prompt_id.as_str()));
    }

    let second = &points[1].prompt_id;
    s.checkpoints()
        .rewind(second, RewindScope::Conversation, false)
        .await
        .expect("rewind");
    s.send("second, said better").await.expect("turn");
    let loaded = store.load_session(s.id()).expect("load").expect("stored");
    let rewound: Vec<&SessionEvent> = loaded
        .events
        .iter()
        .map(|e| &e.event)
        .filter(|e| matches!(e, SessionEvent::ConversationRewound { .. }))
        .collect();
    assert_eq!(
        rewound,
        vec![&SessionEvent::ConversationRewound {
            prompt_id: second.clone()
        }]
    );
    // The new prompt takes the place of the one rewound away, never its id: an id names one row for good.
    let last = ids(&loaded.events).pop().expect("a prompt");
    assert_eq!(last.0, "second, said better");
    let used: Vec<Option<String>> = started.iter().map(|(_, id)| id.clone()).collect();
    assert!(
        last.1.is_some() && !used.contains(&last.1),
        "{last:?} reuses one of {used:?}"
    );
    let points = s.checkpoints().rewind_points().await;
    assert_eq!(points.len(), 2);
    assert_eq!(points[1].prompt_id, last.1.unwrap_or_default());
}
