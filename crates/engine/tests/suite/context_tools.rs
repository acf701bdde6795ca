//! The context tools behind their switches: CtxInspect (`CONTEXT_COLLAPSE`) reports what fills the
//! context, and Snip (`HISTORY_SNIP`) cuts stale tool results from what later requests carry, keeping
//! every call paired with its result, in the stored history too; switched off, neither is offered or mentioned, and
//! a sub-agent never gets them.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::AnthropicModel;
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{
    FakeServer, Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace,
};
use tandem_engine::tools::features::{CONTEXT_COLLAPSE_ENV, Features, HISTORY_SNIP_ENV};
use tandem_protocol::{ApprovalChoice, PermissionMode};

use super::common::{fake_config, server};

/// Both context tools switched on.
fn both() -> Features {
    Features {
        context_inspect: true,
        snip: true,
        ..Features::default()
    }
}

/// A file of 600 numbered lines, each naming itself, about 36 KB.
fn big_file() -> String {
    (0..600)
        .map(|i| format!("line {i:04}: the quick brown fox jumps over the lazy dog\n"))
        .collect()
}

/// A session on `root` with `features`, talking to `fake`; recorded in `store` (reopening `resume`) when given.
fn session(
    root: &std::path::Path,
    fake: &FakeServer,
    features: Features,
    store: Option<(Arc<SessionStore>, Option<&str>)>,
) -> Session {
    let config = fake_config(&fake.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    let options = SessionOptions {
        id: None,
        cwd: root.to_path_buf(),
        model: config,
        mode: PermissionMode::Default,
        approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        events: Arc::new(RecordingSink::default()),
        store: store.as_ref().map(|(s, _)| s.clone()),
        watch_settings: false,
    };
    let builder = match store {
        Some((store, Some(id))) => Session::resuming(store, id).expect("resume"),
        _ => Session::builder(root).expect("folder"),
    };
    builder
        .options(options)
        .model_client(model)
        .features(features)
        .build()
        .expect("session")
}

/// The text of the tool_result for `id` in a request body, with its error flag.
fn result_of(body: &Value, id: &str) -> Option<(String, bool)> {
    body["messages"]
        .as_array()?
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == id)
        .map(|b| {
            let text = match &b["content"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (text, b["is_error"] == true)
        })
}

/// Every tool_use id and every tool_result id in a request body.
fn call_ids(body: &Value) -> (Vec<String>, Vec<String>) {
    let blocks: Vec<Value> = body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .collect();
    let of = |kind: &str, key: &str| {
        blocks
            .iter()
            .filter(|b| b["type"] == kind)
            .map(|b| b[key].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    (of("tool_use", "id"), of("tool_result", "tool_use_id"))
}

/// The number after `Estimated total: ` in a CtxInspect report.
fn estimated_total(report: &str) -> u64 {
    report
        .split("Estimated total: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no total in {report}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctx_inspect_reports_sizes_that_grow_with_a_large_tool_result() {
    let ws = Workspace::new(&[("big.txt", big_file().as_str())]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("c1", "CtxInspect", json!({})),
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": ws.path("big.txt")})),
        ScriptedTurn::tool_use("c2", "CtxInspect", json!({"limit": 3})),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let s = session(&ws.root(), &fake, both(), None);
    let outcome = s.send("how full is the context?").await.expect("turn");
    assert_eq!(outcome.final_text, "done");
    let requests = fake.requests();
    assert_eq!(requests.len(), 4);
    let (before, error) = result_of(&requests[1].body, "c1").expect("first report");
    assert!(!error, "{before}");
    let (after, error) = result_of(&requests[3].body, "c2").expect("second report");
    assert!(!error, "{after}");
    for report in [&before, &after] {
        assert!(
            report.contains("Context window: 200000 tokens")
                && report.contains("system prompt: ")
                && report.contains("tool definitions (")
                && report.contains("is an estimate"),
            "{report}"
        );
    }
    assert!(
        before.contains("Model's count: none yet"),
        "no answer yet: {before}"
    );
    assert!(
        after.contains("Model's count (usage of the last response): 10 input tokens"),
        "{after}"
    );
    let (small, large) = (estimated_total(&before), estimated_total(&after));
    assert!(
        large > small + 36_000 / 4,
        "the read file (about 9000 tokens) shows: {small} then {large}"
    );
    // The largest message is the read's result, named by its call and tool.
    let largest = after
        .split("Messages, largest first (3 of 5):\n")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("{after}"));
    assert!(
        largest.starts_with("  #4 user ") && largest.contains("tool_result r1 (Read)"),
        "{largest}"
    );
    assert!(after.contains("  Read: 1 call, "), "{after}");
    assert!(after.contains("  CtxInspect: 1 call, "), "{after}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snip_puts_the_marker_in_place_of_a_big_result_and_a_resumed_session_keeps_it() {
    let ws = Workspace::new(&[("big.txt", big_file().as_str())]).expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": ws.path("big.txt")})),
        ScriptedTurn::tool_use(
            "s1",
            "Snip",
            json!({"tool_use_ids": ["r1"], "note": "big.txt: 600 lines about a fox"}),
        ),
        ScriptedTurn::text("done"),
        ScriptedTurn::text("again"),
    ]))
    .await;
    let id = {
        let s = session(&ws.root(), &fake, both(), Some((store.clone(), None)));
        s.send("read big.txt").await.expect("turn");
        s.id().to_string()
    };
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    assert!(
        requests.iter().all(|r| r.rejected.is_none()),
        "every call has its result"
    );
    let (read, _) = result_of(&requests[1].body, "r1").expect("the read");
    assert!(read.contains("line 0599"), "the full result first");
    let (answer, error) = result_of(&requests[2].body, "s1").expect("snip's result");
    assert!(
        !error && answer.contains("Snipped from the next request on: r1 (Read, about "),
        "{answer}"
    );
    let (snipped, _) = result_of(&requests[2].body, "r1").expect("r1 still answered");
    assert!(
        snipped.starts_with("[snipped by the model: the Read result, about ")
            && snipped.ends_with("; big.txt: 600 lines about a fox]"),
        "{snipped}"
    );
    let last = requests[2].body["messages"].to_string();
    assert!(!last.contains("line 0599"), "the content is gone: {last}");
    let (uses, results) = call_ids(&requests[2].body);
    assert_eq!(uses, ["r1", "s1"]);
    assert_eq!(results, uses);

    // The stored events keep the whole result for the person.
    let loaded = store.load_session(&id).expect("load").expect("stored");
    let events = serde_json::to_string(
        &loaded
            .events
            .iter()
            .map(|e| e.event.clone())
            .collect::<Vec<_>>(),
    )
    .expect("json");
    assert!(events.contains("line 0599"), "the events keep everything");

    {
        tandem_engine::testing::wait_released(&store, &id).await;
        let s = session(&ws.root(), &fake, both(), Some((store.clone(), Some(&id))));
        assert_eq!(s.send("and now?").await.expect("turn").final_text, "again");
    }
    let resumed = fake.requests().last().expect("request").body.clone();
    let (kept, _) = result_of(&resumed, "r1").expect("r1 still answered");
    assert!(kept.starts_with("[snipped by the model: "), "{kept}");
    assert!(!resumed["messages"].to_string().contains("line 0599"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snip_removes_a_range_of_whole_steps_and_leaves_one_marker() {
    let ws = Workspace::new(&[("big.txt", big_file().as_str()), ("small.txt", "hello\n")])
        .expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": ws.path("big.txt")})),
        ScriptedTurn::tool_use("r2", "Read", json!({"file_path": ws.path("small.txt")})),
        ScriptedTurn::tool_use(
            "s1",
            "Snip",
            json!({"range": {"from_tool_use_id": "r1", "through_tool_use_id": "r2"}, "note": "both files read; nothing needed"}),
        ),
        ScriptedTurn::text("done"),
        ScriptedTurn::text("again"),
    ]))
    .await;
    let id = {
        let s = session(&ws.root(), &fake, both(), Some((store.clone(), None)));
        s.send("read both").await.expect("turn");
        s.id().to_string()
    };
    let requests = fake.requests();
    assert_eq!(requests.len(), 4);
    assert!(
        requests.iter().all(|r| r.rejected.is_none()),
        "a valid conversation every time"
    );
    let (answer, error) = result_of(&requests[3].body, "s1").expect("snip's result");
    assert!(
        !error
            && answer.contains(
                "Snipped from the next request on: 4 messages with 2 tool calls (r1 through r2)"
            ),
        "{answer}"
    );
    let last = &requests[3].body;
    let (uses, results) = call_ids(last);
    assert_eq!(uses, ["s1"], "the range's calls are gone");
    assert_eq!(results, uses);
    let text = last["messages"].to_string();
    assert!(
        !text.contains("line 0599") && !text.contains("hello"),
        "{text}"
    );
    assert!(
        text.contains("[snipped by the model: 4 messages with 2 tool calls, from r1 through r2"),
        "{text}"
    );
    assert!(text.contains("both files read; nothing needed]"), "{text}");
    assert!(text.contains("read both"), "the prompt stays");
    let roles: Vec<&str> = last["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["role"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user"],
        "the roles still alternate"
    );

    // The stored history keeps the cut.
    {
        tandem_engine::testing::wait_released(&store, &id).await;
        let s = session(&ws.root(), &fake, both(), Some((store.clone(), Some(&id))));
        assert_eq!(s.send("and now?").await.expect("turn").final_text, "again");
    }
    let resumed = fake.requests().last().expect("request").body.clone();
    assert!(!resumed["messages"].to_string().contains("line 0599"));
    assert_eq!(call_ids(&resumed).0, ["s1"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snip_refuses_unknown_ids_and_calls_still_pending() {
    let ws = Workspace::new(&[("small.txt", "hello\n")]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::ToolUse {
                id: "r1".into(),
                name: "Read".into(),
                input: json!({"file_path": ws.path("small.txt")}),
            },
            ScriptBlock::ToolUse {
                id: "s1".into(),
                name: "Snip".into(),
                input: json!({"tool_use_ids": ["r1"]}),
            },
            ScriptBlock::ToolUse {
                id: "s2".into(),
                name: "Snip".into(),
                input: json!({"tool_use_ids": ["nope"]}),
            },
            ScriptBlock::ToolUse {
                id: "s3".into(),
                name: "Snip".into(),
                input: json!({"tool_use_ids": ["s3"]}),
            },
        ]),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let s = session(&ws.root(), &fake, both(), None);
    s.send("tidy up").await.expect("turn");
    let body = &fake.requests()[1].body;
    let expect = [
        ("s1", "`r1` is a call of the current step, still pending"),
        (
            "s2",
            "no tool call with id `nope` has a result in the conversation",
        ),
        ("s3", "`s3` is this Snip call itself"),
    ];
    for (id, words) in expect {
        let (text, error) = result_of(body, id).expect("answered");
        assert!(error && text.contains(words), "{id}: {text}");
    }
    let (read, error) = result_of(body, "r1").expect("read");
    assert!(!error && read.contains("hello"), "nothing was cut: {read}");
}

fn offered(session: &Session) -> Vec<(String, String)> {
    session
        .runtime()
        .offered_specs()
        .into_iter()
        .map(|s| (s.name, s.description))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switched_off_the_context_tools_are_not_offered_nor_mentioned() {
    if std::env::var_os(CONTEXT_COLLAPSE_ENV).is_some()
        || std::env::var_os(HISTORY_SNIP_ENV).is_some()
    {
        // The environment wins over what this test sets.
        return;
    }
    let fake = server(Script::turns(Vec::<ScriptedTurn>::new())).await;
    let off = Workspace::new(&[]).expect("workspace");
    let s = session(&off.root(), &fake, Features::default(), None);
    let tools = offered(&s);
    assert!(!tools.is_empty());
    assert!(
        tools.iter().all(|(name, description)| {
            !["CtxInspect", "Snip"].contains(&name.as_str())
                && !description.contains("CtxInspect")
                && !description.contains("Snip")
        }),
        "{tools:?}"
    );
    // The person's tool list names them with their switch.
    let listing = s.tool_list();
    for (name, switch) in [
        ("CtxInspect", CONTEXT_COLLAPSE_ENV),
        ("Snip", HISTORY_SNIP_ENV),
    ] {
        let entry = listing
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name}: {listing:?}"));
        assert!(
            !entry.offered && entry.reason.as_deref().is_some_and(|r| r.contains(switch)),
            "{entry:?}"
        );
    }

    // One switched on in a settings file: that one is offered, the other is not.
    let on = Workspace::new(&[(".claude/settings.json", r#"{"env": {"HISTORY_SNIP": "1"}}"#)])
        .expect("workspace");
    let s = session(&on.root(), &fake, Features::default(), None);
    let names: Vec<String> = offered(&s).into_iter().map(|(n, _)| n).collect();
    assert!(names.iter().any(|n| n == "Snip"), "{names:?}");
    assert!(!names.iter().any(|n| n == "CtxInspect"), "{names:?}");
}

/// The names of the tools a request offered.
fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sub_agent_gets_neither_context_tool() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "g1",
            "Agent",
            json!({"description": "Look", "prompt": "look around"}),
        ),
        ScriptedTurn::text("looked"),
        ScriptedTurn::text("all seen"),
    ]))
    .await;
    let s = session(&ws.root(), &fake, both(), None);
    s.send("delegate").await.expect("turn");
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    let own = tool_names(&requests[0].body);
    let child = tool_names(&requests[1].body);
    for name in ["CtxInspect", "Snip"] {
        assert!(own.iter().any(|n| n == name), "{name} in {own:?}");
        assert!(!child.iter().any(|n| n == name), "{name} in {child:?}");
    }
    assert!(!child.is_empty());
}
