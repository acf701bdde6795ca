//! Sessions carried out and in: the reference agent's real transcript format imported (tool use, answers written a
//! block a line, summaries, sidechains inline and in their own files, a garbage line, a truncated last line),
//! imported once however often, found by search; exports as Markdown, HTML (escaped, self-contained) and JSON lines
//! that import back to the same messages, also when tool output is binary.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tandem_engine::model::{ContentBlock, Message, Role, ToolResultContent};
use tandem_engine::store::{ImportOutcome, LoadedSession, NewSidechain, SessionStore, TextKind};
use tandem_engine::transcript::{self, FileImport, Format};
use tandem_protocol::{SessionEvent, ToolOutcome};

use super::new_session;

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/claude_code")
        .join(name)
}

fn store() -> (tempfile::TempDir, SessionStore) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("sessions.db")).expect("open");
    (dir, store)
}

/// Imports `file` and returns its session id, checking it was stored now.
fn imported(store: &SessionStore, file: &Path) -> (String, FileImport) {
    let report = transcript::import_file(store, file);
    let (id, _, _, outcome) = report.result.as_ref().expect("imported");
    assert_eq!(*outcome, ImportOutcome::Stored);
    (id.clone(), report)
}

fn load(store: &SessionStore, id: &str) -> LoadedSession {
    store.load_session(id).expect("load").expect("stored")
}

fn ms(iso: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(iso)
        .expect("time")
        .timestamp_millis()
}

fn tool_uses(messages: &[Message]) -> Vec<(String, String)> {
    messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolUse { id, name, .. } => Some((id.clone(), name.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_transcript_with_tool_calls_becomes_a_session_the_window_can_replay() {
    let (_dir, store) = store();
    let (id, report) = imported(&store, &corpus("tool_use.jsonl"));
    assert_eq!(id, "4f35e220-c435-4cf7-b9b9-f40426042847");
    assert_eq!(report.first_bad, None);
    let session = load(&store, &id);
    let r = &session.record;
    assert_eq!(
        r.title, "Quokka table migration",
        "the summary line names it"
    );
    assert_eq!(r.folder, Path::new("/home/ana/src/quokka"));
    assert_eq!(r.model, "claude-sonnet-4-5-20250929");
    assert_eq!(r.created_at, ms("2026-02-12T16:02:48.183Z"));
    assert_eq!(r.updated_at, ms("2026-02-12T16:03:14.000Z"));
    // Usage counts each answer once, though the agent repeats it on every line of an answer.
    assert_eq!(r.usage.input_tokens, 3 + 3 + 10 + 3);
    assert_eq!(r.usage.output_tokens, 41 + 41 + 17 + 41);

    // The history: a message per run of lines of one role; the agent's own caveat line is left out.
    let roles: Vec<Role> = session.messages.iter().map(|m| m.role).collect();
    use Role::{Assistant as A, User as U};
    assert_eq!(roles, vec![U, A, U, A, U, A, U, A]);
    assert!(matches!(&session.messages[1].content[..], [
        ContentBlock::Thinking { .. },
        ContentBlock::Text { .. },
        ContentBlock::ToolUse { name, .. },
    ] if name == "Edit"));
    assert_eq!(session.messages[0].marks.prompts, vec!["0"]);
    assert_eq!(session.messages[6].marks.prompts, vec!["1"]);
    assert!(
        session
            .messages
            .iter()
            .all(|m| !format!("{:?}", m.content).contains("Caveat")),
        "meta lines are not the person's"
    );
    assert_eq!(
        session.history, session.messages,
        "the history needs no repair"
    );

    // The events: a turn per prompt, the answers, each call with its input and result.
    let prompts: Vec<&str> = session
        .events
        .iter()
        .filter_map(|e| match &e.event {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        prompts,
        vec![
            "Rename the quokka column in migrations/001.sql",
            "Thanks, create the wombat table too"
        ]
    );
    let ended = session
        .events
        .iter()
        .filter(|e| matches!(e.event, SessionEvent::TurnEnded { .. }))
        .count();
    assert_eq!(ended, 2);
    let calls: Vec<(&str, Option<ToolOutcome>)> = session
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), c.outcome))
        .collect();
    assert_eq!(
        calls,
        vec![
            ("Edit", Some(ToolOutcome::Success)),
            ("Bash", Some(ToolOutcome::Error))
        ]
    );
    assert_eq!(
        session.tool_calls[0]
            .input
            .as_ref()
            .and_then(|i| i["new_string"].as_str()),
        Some("marsupial_id INTEGER")
    );
    let seqs: Vec<u64> = session.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>());
}

#[test]
fn sub_agents_lines_become_their_sidechain_inline_or_in_their_own_file() {
    let (_dir, store) = store();
    // An older transcript: the sub-agent's lines in the same file, threaded by parentUuid only.
    let (id, _) = imported(&store, &corpus("sidechain_inline.jsonl"));
    let session = load(&store, &id);
    assert_eq!(
        session.messages.len(),
        4,
        "the sidechain's lines are not the session's"
    );
    assert_eq!(
        session.record.title,
        "Where do we open the burrow database?"
    );
    let [chain] = &session.sidechains[..] else {
        panic!("one sidechain: {:?}", session.sidechains);
    };
    assert_eq!(chain.parent_tool_use_id, "toolu_task1");
    assert_eq!(chain.agent_type, "Explore");
    assert_eq!(chain.description, "Find database opens");
    assert_eq!(chain.messages.len(), 4);
    assert_eq!(
        tool_uses(&chain.messages),
        vec![("toolu_grep1".into(), "Grep".into())]
    );
    // Its transcript replays under the Task call, after the call's input and before its result.
    let position = |wanted: &dyn Fn(&SessionEvent) -> bool| {
        session
            .events
            .iter()
            .position(|e| wanted(&e.event))
            .expect("event")
    };
    let input = position(
        &|e| matches!(e, SessionEvent::ToolCallInput { tool_use_id, .. } if tool_use_id == "toolu_task1"),
    );
    let inner = position(&|e| {
        matches!(e, SessionEvent::SubAgent { parent_tool_use_id, event, .. }
        if parent_tool_use_id == "toolu_task1" && matches!(**event, SessionEvent::ToolCallResult { .. }))
    });
    let result = position(
        &|e| matches!(e, SessionEvent::ToolCallResult { tool_use_id, .. } if tool_use_id == "toolu_task1"),
    );
    assert!(input < inner && inner < result, "{input} {inner} {result}");

    // A newer one: the sub-agent in <session>/subagents/agent-<id>.jsonl; the agent's compaction file is not one.
    let (id, report) = imported(
        &store,
        &corpus("7b3c0a52-1f0e-4d8e-9b57-2a54e3b1c9d0.jsonl"),
    );
    assert_eq!(report.first_bad, None);
    let session = load(&store, &id);
    let [chain] = &session.sidechains[..] else {
        panic!("one sidechain: {:?}", session.sidechains);
    };
    assert_eq!(chain.agent_id, "a2898e3");
    assert_eq!(chain.parent_tool_use_id, "toolu_agent3");
    assert_eq!(
        tool_uses(&chain.messages),
        vec![("toolu_read3".into(), "Read".into())]
    );
}

#[test]
fn a_damaged_transcript_imports_every_whole_line_and_names_the_first_bad_one() {
    let (_dir, store) = store();
    let file = corpus("damaged.jsonl");
    let (id, report) = imported(&store, &file);
    let bad = report.first_bad.expect("a bad line");
    assert_eq!((bad.path.as_path(), bad.line), (file.as_path(), 3), "{bad}");
    assert!(bad.why.contains("not JSON"), "{bad}");
    assert_eq!(
        report.bad_lines, 2,
        "the garbage line and the truncated last line"
    );
    let session = load(&store, &id);
    let texts: Vec<String> = session
        .messages
        .iter()
        .map(|m| tandem_engine::model::text_of(&m.content, ""))
        .collect();
    assert_eq!(
        texts,
        vec![
            "Count the warren's tunnels",
            "There are seven tunnels.",
            "And the chambers?",
            "Three chambers."
        ]
    );

    // The truncated line alone is named as such.
    let text = std::fs::read_to_string(&file).expect("read");
    let parsed = transcript::parse_transcript(text.replace("garb\u{1}age", "ok\"}}").as_bytes());
    let (line, why) = parsed.first_bad.expect("the last line");
    assert_eq!(line, 6);
    assert!(why.contains("ends in the middle of this line"), "{why}");

    // A file with nothing to import, and one that cannot be read, store nothing.
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(
        &empty,
        b"\xff\xfe not a transcript\n{\"type\":\"summary\",\"summary\":\"x\"}\n",
    )
    .expect("write");
    let report = transcript::import_file(&store, &empty);
    assert!(report.result.is_err());
    assert_eq!(report.first_bad.expect("bad").line, 1);
    assert!(
        transcript::import_file(&store, &dir.path().join("missing.jsonl"))
            .result
            .is_err()
    );
    assert_eq!(store.list_all_sessions().expect("list").len(), 1);
}

#[test]
fn importing_again_stores_nothing_and_search_finds_what_was_imported() {
    let (_dir, store) = store();
    let folder = corpus("");
    let first = transcript::import_claude_code(&store, &folder).expect("import");
    let stored = first
        .iter()
        .filter(|r| matches!(r.result, Ok((_, _, _, ImportOutcome::Stored))))
        .count();
    assert_eq!(stored, 4, "{first:?}");
    let again = transcript::import_claude_code(&store, &folder).expect("import");
    assert!(
        again
            .iter()
            .all(|r| matches!(r.result, Ok((_, _, _, ImportOutcome::AlreadyThere)))),
        "{again:?}"
    );
    assert_eq!(store.list_all_sessions().expect("list").len(), 4);

    let hits = store.search("wombat", None, 10).expect("search");
    assert!(
        hits.iter()
            .all(|h| h.session_id == "4f35e220-c435-4cf7-b9b9-f40426042847")
    );
    assert!(hits.iter().any(|h| h.kind == TextKind::Prompt), "{hits:?}");
    assert!(
        hits.iter().any(|h| h.kind == TextKind::ToolResult),
        "{hits:?}"
    );
    let hits = store.search("open_burrow", None, 10).expect("search");
    assert!(
        hits.iter().any(|h| h.kind == TextKind::SubAgent),
        "{hits:?}"
    );
}

/// A session written through the store's ordinary write path, with a sub-agent and tool output given.
fn live_session(store: &SessionStore, id: &str, folder: &Path, output: &str, hostile: &str) {
    store
        .create_session(&new_session(id, folder))
        .expect("create");
    let messages = vec![
        Message::new(
            Role::User,
            vec![ContentBlock::Text {
                text: hostile.into(),
            }],
        ),
        Message::new(
            Role::Assistant,
            vec![
                ContentBlock::Text {
                    text: format!("Looking: {hostile}"),
                },
                ContentBlock::ToolUse {
                    id: "call-1".into(),
                    name: "Bash".into(),
                    input: json!({"command": format!("cat {hostile}")}),
                },
                ContentBlock::ToolUse {
                    id: "call-2".into(),
                    name: "Edit".into(),
                    input: json!({"file_path": "src/<b>.rs", "old_string": "let a = 1;\n", "new_string": format!("let a = \"{hostile}\";\n")}),
                },
                ContentBlock::ToolUse {
                    id: "call-3".into(),
                    name: "Agent".into(),
                    input: json!({"description": hostile, "prompt": "look around", "subagent_type": "Explore"}),
                },
            ],
        ),
        Message::new(
            Role::User,
            vec![
                ContentBlock::ToolResult {
                    tool_use_id: "call-1".into(),
                    content: ToolResultContent::Text(output.into()),
                    is_error: false,
                },
                ContentBlock::ToolResult {
                    tool_use_id: "call-2".into(),
                    content: ToolResultContent::Text("edited".into()),
                    is_error: false,
                },
                ContentBlock::ToolResult {
                    tool_use_id: "call-3".into(),
                    content: ToolResultContent::Text("found it".into()),
                    is_error: true,
                },
            ],
        ),
        Message::new(
            Role::Assistant,
            vec![ContentBlock::Text {
                text: "done".into(),
            }],
        ),
    ];
    store.replace_messages(id, 0, &messages);
    store.record_event(
        id,
        0,
        SessionEvent::TurnStarted {
            prompt: hostile.into(),
            prompt_id: Some("0".into()),
        },
    );
    store.record_sidechain(
        id,
        NewSidechain {
            agent_id: "agent-1".into(),
            parent_tool_use_id: "call-3".into(),
            agent_type: "Explore".into(),
            description: hostile.into(),
        },
    );
    store.replace_sidechain_messages(
        id,
        "agent-1",
        0,
        &[
            Message::new(
                Role::User,
                vec![ContentBlock::Text {
                    text: "look around".into(),
                }],
            ),
            Message::new(
                Role::Assistant,
                vec![ContentBlock::Text {
                    text: format!("sub says {hostile}"),
                }],
            ),
        ],
    );
    store.flush().expect("flush");
}

fn exported(store: &SessionStore, id: &str, format: Format) -> String {
    let session = load(store, id);
    let times = store.message_times(id).expect("times");
    transcript::export(&session, &times, format)
}

const HOSTILE: &str =
    "<script>alert('x')</script></pre></details><img src=x onerror=alert(1)>&amp;";
const BINARY: &str = "\u{0}\u{1}ELF\u{2}\u{7f}\u{1b}[31mred\u{1b}[0m\r\n\u{fffd}\u{8}tail";

#[test]
fn exports_are_valid_and_escaped_whatever_the_session_holds() {
    let (dir, store) = store();
    live_session(&store, "s1", dir.path(), BINARY, HOSTILE);

    let html = exported(&store, "s1", Format::Html);
    for forbidden in [
        "<script",
        "<img",
        "</pre></details>",
        "<link",
        "src=\"",
        "href=",
        "@import",
        "url(",
    ] {
        assert!(
            !html.contains(forbidden),
            "{forbidden} in the page:\n{html}"
        );
    }
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert!(
        html.contains("&amp;amp;"),
        "an entity in the text is shown, not decoded"
    );
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert_eq!(
        html.matches("<details").count(),
        html.matches("</details>").count()
    );
    assert!(
        html.contains("<span class=\"del\">-let a = 1;</span>"),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"add\">+let a = &quot;&lt;script&gt;"),
        "{html}"
    );
    assert!(html.contains("Sub-agent Explore"));

    let markdown = exported(&store, "s1", Format::Markdown);
    assert!(markdown.contains("## Prompt") && markdown.contains("### Tool call: Bash"));
    assert!(markdown.contains("> ## Answer") && markdown.contains("sub says"));
    assert!(markdown.contains("Result (error):"));
    for text in [&html, &markdown] {
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "control characters are replaced"
        );
        assert!(text.contains("ELF\u{fffd}"));
    }

    let jsonl = exported(&store, "s1", Format::Jsonl);
    for line in jsonl.lines() {
        let value: Value = serde_json::from_str(line).expect("each line is one JSON object");
        assert!(value.is_object());
    }
}

#[test]
fn a_jsonl_export_imports_back_to_the_same_messages() {
    // A session written by the store's write path, with binary output and a sub-agent; and an imported one.
    let (dir, store) = store();
    live_session(&store, "live-1", dir.path(), BINARY, HOSTILE);
    let (imported_id, _) = imported(&store, &corpus("tool_use.jsonl"));
    for id in ["live-1", imported_id.as_str()] {
        let original = load(&store, id);
        let jsonl = exported(&store, id, Format::Jsonl);
        let lines: Vec<Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        for line in lines.iter().filter(|l| l["type"] != "summary") {
            for key in ["uuid", "sessionId", "timestamp", "cwd", "version", "type"] {
                assert!(line[key].is_string(), "{key} in {line}");
            }
            assert!(
                line["isSidechain"].is_boolean() && line["message"]["role"].is_string(),
                "{line}"
            );
            assert!(line.get("parentUuid").is_some(), "{line}");
        }
        let file = dir.path().join(format!("{id}.jsonl"));
        std::fs::write(&file, &jsonl).expect("write");

        let (_other_dir, other) = self::store();
        let (again, report) = imported(&other, &file);
        assert_eq!(report.first_bad, None);
        assert_eq!(again, id);
        let copy = load(&other, id);
        let content = |s: &LoadedSession| -> Vec<(Role, Vec<ContentBlock>)> {
            s.history
                .iter()
                .map(|m| (m.role, m.content.clone()))
                .collect()
        };
        assert_eq!(content(&copy), content(&original), "{id}");
        assert_eq!(copy.record.title, original.record.title);
        assert_eq!(copy.record.folder, original.record.folder);
        let chains = |s: &LoadedSession| -> Vec<(String, String, Vec<Message>)> {
            s.sidechains
                .iter()
                .map(|c| {
                    (
                        c.parent_tool_use_id.clone(),
                        c.agent_id.clone(),
                        c.messages.clone(),
                    )
                })
                .collect()
        };
        assert_eq!(chains(&copy), chains(&original), "{id}");
        // Exporting the copy writes the same file.
        assert_eq!(exported(&other, id, Format::Jsonl), jsonl, "{id}");
    }
}

#[tokio::test]
async fn an_imported_conversation_resumes_where_it_stopped() {
    let ws = tandem_engine::testing::Workspace::new(&[("migrations/001.sql", "x\n")]).expect("ws");
    let dir = tempfile::tempdir().expect("tempdir");
    let store =
        std::sync::Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("open"));
    // The fixture, run in this workspace.
    let text = std::fs::read_to_string(corpus("tool_use.jsonl")).expect("read");
    let file = dir.path().join("tool_use.jsonl");
    std::fs::write(
        &file,
        text.replace("/home/ana/src/quokka", &ws.root().to_string_lossy()),
    )
    .expect("write");
    let (id, _) = imported(&store, &file);
    let loaded = load(&store, &id);
    assert_eq!(loaded.record.folder, ws.root());

    let fake = super::server(tandem_engine::testing::Script::turns([
        tandem_engine::testing::ScriptedTurn::text("Still here."),
    ]))
    .await;
    let sink = tandem_engine::events::RecordingSink::default();
    let resumed = super::resumed_session(&id, &fake, &store, sink).await;
    assert_eq!(resumed.cwd(), ws.root());
    assert_eq!(resumed.history().await, loaded.history);
    let outcome = resumed.send("Are you still there?").await.expect("turn");
    assert_eq!(outcome.final_text, "Still here.");
    let requests = fake.requests();
    let last = requests.last().expect("a request");
    assert!(last.rejected.is_none(), "{:?}", last.rejected);
    assert_eq!(
        last.body["messages"].as_array().map(Vec::len),
        Some(loaded.history.len() + 1),
        "the imported history and the new prompt"
    );
    drop(resumed);
    let after = load(&store, &id);
    assert_eq!(after.messages.len(), loaded.messages.len() + 2);
    assert!(
        after
            .events
            .iter()
            .enumerate()
            .all(|(i, e)| e.seq == i as u64)
    );
    assert_eq!(after.record.title, "Quokka table migration");
}

/// The session's messages and events as comparable JSON.
fn contents(store: &SessionStore, id: &str) -> (Vec<String>, Vec<String>) {
    let loaded = load(store, id);
    let messages = loaded
        .messages
        .iter()
        .map(|m| serde_json::to_string(m).expect("json"))
        .collect();
    let events = loaded
        .events
        .iter()
        .map(|e| serde_json::to_string(&e.event).expect("json"))
        .collect();
    (messages, events)
}

#[test]
fn a_transcript_that_grew_since_its_import_brings_what_it_added_and_one_continued_here_is_left_alone()
 {
    let full_file = corpus("tool_use.jsonl");
    let full = std::fs::read_to_string(&full_file).expect("read");
    let lines: Vec<&str> = full.lines().collect();
    let (_whole_dir, whole) = store();
    let (id, _) = imported(&whole, &full_file);
    let want = contents(&whole, &id);

    // The transcript as the reference agent had written it at each line: imported then, imported again whole.
    let mut updated = 0;
    for cut in 1..lines.len() {
        let (_dir, store) = store();
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir
            .path()
            .join("4f35e220-c435-4cf7-b9b9-f40426042847.jsonl");
        std::fs::write(&file, lines[..cut].join("\n") + "\n").expect("write");
        if transcript::import_file(&store, &file).result.is_err() {
            continue; // nothing to import yet
        }
        let before = contents(&store, &id);
        std::fs::write(&file, &full).expect("write");
        let report = transcript::import_file(&store, &file);
        match report.result.as_ref().expect("imported").3 {
            ImportOutcome::Updated => {
                updated += 1;
                assert_eq!(contents(&store, &id), want, "cut at line {cut}");
                let hits = store.search("wombat", None, 10).expect("search");
                assert!(
                    !hits.is_empty(),
                    "cut at line {cut}: the added text is searchable"
                );
            }
            ImportOutcome::AlreadyThere => {
                assert_eq!(
                    contents(&store, &id),
                    before,
                    "cut at line {cut}: nothing written"
                );
            }
            ImportOutcome::Stored => panic!("cut at line {cut}: stored twice"),
        }
        // Whole now: once more changes nothing.
        let again = transcript::import_file(&store, &file);
        assert_eq!(
            again.result.as_ref().expect("imported").3,
            ImportOutcome::AlreadyThere,
            "cut at line {cut}"
        );
    }
    assert!(
        updated >= 2,
        "a transcript cut after whole messages grows into the whole: {updated}"
    );

    // A session continued in Tandem after its import went its own way: the grown transcript is not mixed in.
    let (_dir, store) = store();
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir
        .path()
        .join("4f35e220-c435-4cf7-b9b9-f40426042847.jsonl");
    std::fs::write(&file, lines[..lines.len() - 2].join("\n") + "\n").expect("write");
    transcript::import_file(&store, &file)
        .result
        .expect("imported");
    store.append_message(
        &id,
        &Message::user_text("and now something else, here in Tandem"),
    );
    store.flush().expect("flush");
    let continued = contents(&store, &id);
    std::fs::write(&file, &full).expect("write");
    let report = transcript::import_file(&store, &file);
    assert_eq!(
        report.result.as_ref().expect("imported").3,
        ImportOutcome::AlreadyThere
    );
    assert_eq!(contents(&store, &id), continued);
}
