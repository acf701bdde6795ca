//! Usage: each model request recorded with its time, model, session and cost; the sums by UTC day, folder, model
//! and session; what each tool result cost in the requests that carried it; and the budget's warning and stop,
//! against the fake model server.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{
    AnthropicModel, ContentBlock, Message, ModelRequest, Role, ToolResultContent,
};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::settings::BudgetSettings;
use tandem_engine::store::{
    CACHE_READ_SHARE, Layout, MeteredRequest, NewSession, SessionStore, UsageFilter, day_start_ms,
    parse_day,
};
use tandem_engine::testing::{Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{
    ApprovalChoice, BudgetAction, BudgetPeriod, PermissionMode, SessionEvent, TurnStopReason, Usage,
};

use super::common::{fake_config, server};

fn temp_store() -> (tempfile::TempDir, Arc<SessionStore>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("data/tandem/sessions.db")).expect("open");
    (dir, Arc::new(store))
}

fn usage(input: u64, output: u64) -> Usage {
    Usage {
        input_tokens: input,
        output_tokens: output,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
    }
}

fn request(model: &str, u: Usage) -> MeteredRequest {
    MeteredRequest {
        model: model.into(),
        usage: u,
        cost_usd: tandem_engine::model::pricing::cost_usd(model, &u),
        carries: Vec::new(),
    }
}

fn ms(day: &str) -> i64 {
    day_start_ms(parse_day(day).expect("day"))
}

fn create(store: &SessionStore, id: &str, folder: &Path) {
    store
        .create_session(&NewSession {
            id: id.into(),
            folder: folder.to_path_buf(),
            model: "claude-sonnet-4-5".into(),
            mode: PermissionMode::Default,
        })
        .expect("create");
}

#[test]
fn sums_by_utc_day_model_folder_and_session() {
    let (_dir, store) = temp_store();
    let a = Workspace::new(&[]).expect("workspace");
    let b = Workspace::new(&[]).expect("workspace");
    create(&store, "sa", &a.root());
    create(&store, "sb", &b.root());
    let last_ms_of_first = ms("2026-12-02") - 1;
    // (session, at, model, input, output)
    let rows = [
        ("sa", last_ms_of_first, "claude-sonnet-4-5", 1_000_000, 0), // $3.00 on 12-01
        ("sa", ms("2026-12-02"), "claude-sonnet-4-5", 0, 100_000),   // $1.50 on 12-02
        ("sb", ms("2026-12-02") + 5, "claude-opus-4-1", 100_000, 0), // $1.50 on 12-02
        ("sb", ms("2026-12-03"), "qwen2.5-coder:7b", 500, 50),       // $0 on 12-03
    ];
    for (id, at, model, input, output) in rows {
        store.record_request(id, request(model, usage(input, output)), at);
    }
    let all = store.usage(&UsageFilter::default()).expect("report");
    assert_eq!(all.totals.requests, 4);
    assert!((all.totals.cost_usd - 6.0).abs() < 1e-9, "{:?}", all.totals);
    assert_eq!(all.totals.input_tokens, 1_100_500);
    assert_eq!(all.totals.output_tokens, 100_050);
    let days: Vec<(&str, u64, f64)> = all
        .by_day
        .iter()
        .map(|r| (r.key.as_str(), r.totals.requests, r.totals.cost_usd))
        .collect();
    assert_eq!(
        days,
        [
            ("2026-12-01", 1, 3.0),
            ("2026-12-02", 2, 3.0),
            ("2026-12-03", 1, 0.0)
        ]
    );
    let models: Vec<(&str, f64)> = all
        .by_model
        .iter()
        .map(|r| (r.key.as_str(), r.totals.cost_usd))
        .collect();
    assert_eq!(
        models,
        [
            ("claude-sonnet-4-5", 4.5),
            ("claude-opus-4-1", 1.5),
            ("qwen2.5-coder:7b", 0.0)
        ]
    );
    let folders: Vec<(String, u64)> = all
        .by_folder
        .iter()
        .map(|r| (r.key.clone(), r.totals.requests))
        .collect();
    assert_eq!(
        folders,
        [
            (a.root().to_string_lossy().into_owned(), 2),
            (b.root().to_string_lossy().into_owned(), 2)
        ]
    );
    assert_eq!(
        all.sessions
            .iter()
            .map(|s| s.session_id.as_str())
            .collect::<Vec<_>>(),
        ["sa", "sb"]
    );

    // From the second day on: the last millisecond of the first is out.
    let since = store
        .usage(&UsageFilter {
            since: parse_day("2026-12-02"),
            folder: None,
        })
        .expect("report");
    assert_eq!(since.since.as_deref(), Some("2026-12-02"));
    assert_eq!(since.totals.requests, 3);
    assert!((since.totals.cost_usd - 3.0).abs() < 1e-9);
    assert_eq!(since.by_day[0].key, "2026-12-02");

    // One folder.
    let only_b = store
        .usage(&UsageFilter {
            since: None,
            folder: Some(b.root().to_string_lossy().into_owned()),
        })
        .expect("report");
    assert_eq!(only_b.totals.requests, 2);
    assert_eq!(only_b.by_folder.len(), 1);
    assert_eq!(only_b.sessions.len(), 1);
    assert_eq!(only_b.sessions[0].session_id, "sb");

    // What was spent since a moment, for the budgets: every folder.
    let spent = store.spent_since(ms("2026-12-02")).expect("spent");
    assert!((spent - 3.0).abs() < 1e-9);
}

fn tool_use(id: &str, name: &str) -> ContentBlock {
    ContentBlock::ToolUse {
        id: id.into(),
        name: name.into(),
        input: json!({}),
    }
}

fn tool_result(id: &str, text: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.into(),
        content: ToolResultContent::Text(text.into()),
        is_error: false,
    }
}

/// A request whose history is a prompt, a call, its (large) result and a short prompt after it.
fn carrying_request(result_chars: usize) -> ModelRequest {
    ModelRequest {
        model: "claude-sonnet-4-5".into(),
        max_tokens: 1_000,
        system: vec!["s".repeat(400)],
        messages: vec![
            Message::user_text("read it"),
            Message::new(Role::Assistant, vec![tool_use("toolu_big", "Read")]),
            Message::new(
                Role::User,
                vec![tool_result("toolu_big", &"x".repeat(result_chars))],
            ),
        ],
        tools: vec![],
        thinking: None,
    }
}

#[test]
fn a_results_cost_follows_how_each_later_request_paid_for_it() {
    let (_dir, store) = temp_store();
    let ws = Workspace::new(&[]).expect("workspace");
    create(&store, "s1", &ws.root());
    let req = carrying_request(400_000); // about 100,000 tokens of the request's ~100,130
    let layout = Layout::of(&req);
    let at = ms("2026-12-04");
    // The first request after the call sends it fresh; the next reads it from the cache, the third on the next
    // day writes it to the cache again (the cache expired).
    let paid = [
        (usage(100_130, 10), at),
        (
            Usage {
                cache_read_input_tokens: 100_130,
                ..usage(0, 10)
            },
            at + 1,
        ),
        (
            Usage {
                cache_creation_input_tokens: 100_130,
                ..usage(0, 10)
            },
            ms("2026-12-05"),
        ),
    ];
    for (u, at) in paid {
        store.record_request(
            "s1",
            MeteredRequest {
                carries: layout.carries(&u),
                ..request("claude-sonnet-4-5", u)
            },
            at,
        );
    }
    let report = store.usage(&UsageFilter::default()).expect("report");
    assert_eq!(report.tool_calls.len(), 1);
    let call = &report.tool_calls[0];
    assert_eq!(call.name, "Read");
    assert_eq!(call.tool_use_id, "toolu_big");
    assert_eq!(call.requests, 3);
    // Each request paid for about 100,000 of its tokens: once fresh, once read, once written.
    for (got, what) in [
        (call.fresh_tokens, "fresh"),
        (call.cache_read_tokens, "read"),
        (call.cache_write_tokens, "write"),
    ] {
        assert!((99_000..=100_130).contains(&got), "{what}: {call:?}");
    }
    assert!((99_000..=100_130).contains(&call.result_tokens), "{call:?}");
    // $3 per million input tokens: fresh 1×, read 0.1×, write 1.25×.
    let want = (call.fresh_tokens as f64
        + call.cache_read_tokens as f64 * CACHE_READ_SHARE
        + call.cache_write_tokens as f64 * 1.25)
        * 3.0
        / 1_000_000.0;
    assert!(
        (call.cost_usd - want).abs() < 1e-4,
        "{} vs {want}",
        call.cost_usd
    );
    assert!(call.cost_usd > 0.6 && call.cost_usd < 0.71, "{call:?}");

    // From the second day on, only the third request's share is counted.
    let since = store
        .usage(&UsageFilter {
            since: parse_day("2026-12-05"),
            folder: None,
        })
        .expect("report");
    let call = &since.tool_calls[0];
    assert_eq!(call.requests, 1);
    assert_eq!(call.fresh_tokens + call.cache_read_tokens, 0);
    assert!(call.cache_write_tokens > 99_000);
}

/// A session on `root` in `store` on a priced model, allowing every call, with `budget`.
fn budget_session(
    root: &Path,
    store: &Arc<SessionStore>,
    url: &str,
    sink: RecordingSink,
    budget: BudgetSettings,
) -> Session {
    let mut config = fake_config(url);
    config.model = "claude-sonnet-4-5".into();
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    Session::builder(root)
        .expect("folder")
        .options(SessionOptions {
            id: None,
            cwd: root.to_path_buf(),
            model: config,
            mode: PermissionMode::Default,
            approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)),
            events: Arc::new(sink),
            store: Some(store.clone()),
            watch_settings: false,
        })
        .model_client(model)
        .budget(budget)
        .build()
        .expect("session")
}

/// A turn that reads `file`, reporting 100,000 input tokens ($0.30 on the priced model).
fn read_turn(id: &str, file: &str) -> ScriptedTurn {
    ScriptedTurn {
        input_tokens: 100_000,
        output_tokens: 0,
        ..ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: id.into(),
            name: "Read".into(),
            input: json!({ "file_path": file }),
        }])
    }
}

fn warnings(sink: &RecordingSink) -> Vec<(BudgetPeriod, bool)> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::BudgetWarning { status, reached } => Some((status.period, reached)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_budget_set_to_stop_ends_the_turn_before_the_next_request() {
    let ws = Workspace::new(&[("notes.txt", "alpha\n")]).expect("workspace");
    let file = ws.path("notes.txt").to_string_lossy().into_owned();
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        read_turn("toolu_1", &file),
        read_turn("toolu_2", &file),
        ScriptedTurn::text("never sent"),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = budget_session(
        &ws.root(),
        &store,
        &fake.url(),
        sink.clone(),
        BudgetSettings {
            daily_usd: Some(0.5),
            monthly_usd: None,
            warn_percent: 80,
            on_limit: BudgetAction::Stop,
        },
    );
    let outcome = s.send("read it twice").await.expect("turn");
    // $0.30, then $0.60: reached after the second call ran, before the third request.
    assert_eq!(outcome.stop_reason, TurnStopReason::BudgetReached);
    assert_eq!(outcome.requests, 2);
    assert_eq!(fake.requests().len(), 2);
    let events = sink.events();
    assert!(
        events.iter().any(|e| matches!(e,
            SessionEvent::ToolCallResult { tool_use_id, .. } if tool_use_id == "toolu_2")),
        "the second call ran before the stop"
    );
    assert!(events.iter().any(|e| matches!(e,
        SessionEvent::Notice { message } if message.contains("daily budget of $0.50 is reached"))));
    assert!(events.iter().any(|e| matches!(
        e,
        SessionEvent::TurnEnded {
            stop_reason: TurnStopReason::BudgetReached
        }
    )));
    assert_eq!(warnings(&sink).last(), Some(&(BudgetPeriod::Day, true)));
    // The history stays valid: every call has its result, the last message holds them.
    let history = s.history().await;
    let last = history.last().expect("history");
    assert_eq!(last.role, Role::User);
    assert!(
        matches!(&last.content[0], ContentBlock::ToolResult { tool_use_id, .. } if tool_use_id == "toolu_2")
    );
    // A new prompt is stopped before it makes a request, and the stored history is the live one.
    let again = s.send("go on").await.expect("turn");
    assert_eq!(again.stop_reason, TurnStopReason::BudgetReached);
    assert_eq!(fake.requests().len(), 2);
    store.flush().expect("flush");
    let loaded = store.load_session(s.id()).expect("load").expect("stored");
    assert_eq!(loaded.messages.len(), s.history().await.len());
    let report = store.usage(&UsageFilter::default()).expect("report");
    assert_eq!(report.totals.requests, 2);
    assert!((report.totals.cost_usd - 0.6).abs() < 1e-9);
}

#[tokio::test]
async fn a_budget_set_to_warn_warns_once_at_its_share_and_once_at_the_limit() {
    let ws = Workspace::new(&[("notes.txt", "alpha\n")]).expect("workspace");
    let file = ws.path("notes.txt").to_string_lossy().into_owned();
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        read_turn("toolu_1", &file),
        read_turn("toolu_2", &file),
        ScriptedTurn {
            input_tokens: 100_000,
            output_tokens: 0,
            ..ScriptedTurn::text("done")
        },
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = budget_session(
        &ws.root(),
        &store,
        &fake.url(),
        sink.clone(),
        BudgetSettings {
            daily_usd: Some(0.7),
            monthly_usd: Some(100.0),
            warn_percent: 80,
            on_limit: BudgetAction::Warn,
        },
    );
    let outcome = s.send("read it twice").await.expect("turn");
    // $0.30, $0.60 (past 80% of $0.70), $0.90 (past the limit): the turn goes on.
    assert_eq!(outcome.stop_reason, TurnStopReason::EndTurn);
    assert_eq!(outcome.requests, 3);
    assert_eq!(
        warnings(&sink),
        [(BudgetPeriod::Day, false), (BudgetPeriod::Day, true)],
        "the monthly budget is far off; each day warning once"
    );
    let statuses = store
        .budget_statuses(
            &BudgetSettings {
                daily_usd: Some(0.7),
                monthly_usd: Some(100.0),
                warn_percent: 80,
                on_limit: BudgetAction::Warn,
            },
            tandem_engine::store::now_ms(),
        )
        .expect("statuses");
    assert_eq!(statuses.len(), 2);
    assert!(statuses[0].reached() && !statuses[1].warned());
}

#[tokio::test]
async fn a_budget_set_while_the_session_is_open_applies_to_its_next_request() {
    let ws = Workspace::new(&[("notes.txt", "alpha\n")]).expect("workspace");
    let file = ws.path("notes.txt").to_string_lossy().into_owned();
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        read_turn("toolu_1", &file),
        ScriptedTurn::text("read"),
        ScriptedTurn::text("never sent"),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = budget_session(
        &ws.root(),
        &store,
        &fake.url(),
        sink.clone(),
        BudgetSettings::default(),
    );
    let first = s.send("read it").await.expect("turn");
    assert_eq!(first.stop_reason, TurnStopReason::EndTurn);
    assert!(warnings(&sink).is_empty(), "no budget, no warning");

    // $0.30 spent; the person sets a daily budget of $0.25 that stops.
    s.set_budget(BudgetSettings {
        daily_usd: Some(0.25),
        monthly_usd: None,
        warn_percent: 80,
        on_limit: BudgetAction::Stop,
    });
    let again = s.send("go on").await.expect("turn");
    assert_eq!(again.stop_reason, TurnStopReason::BudgetReached);
    assert_eq!(
        fake.requests().len(),
        2,
        "no request after the budget was set"
    );
    assert_eq!(warnings(&sink), [(BudgetPeriod::Day, true)]);

    // Lifted again: the next prompt goes on.
    s.set_budget(BudgetSettings::default());
    let lifted = s.send("go on").await.expect("turn");
    assert_eq!(lifted.stop_reason, TurnStopReason::EndTurn);
    assert_eq!(fake.requests().len(), 3);
}
