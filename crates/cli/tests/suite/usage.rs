//! `tandem usage` over a store written beforehand and over real `tandem -p` runs: the JSON shape, the sums by UTC day,
//! model and folder, `--since`, `--folder`, the costliest tool calls, a bad date; and a budget set to stop that keeps
//! `tandem -p` from making any request.

use std::path::Path;

use serde_json::{Value, json};
use tandem_engine::model::{ContentBlock, Message, ModelRequest, Role, ToolResultContent};
use tandem_engine::store::{
    Layout, MeteredRequest, NewSession, SessionStore, day_start_ms, parse_day,
};
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};
use tandem_protocol::{PermissionMode, Usage};

use super::commands::{Output, project, run, tandem};

async fn usage(home: &Path, args: &[&str]) -> Output {
    let mut cmd = tandem(None, home);
    cmd.arg("usage").args(args);
    run(cmd).await
}

fn json_of(out: &Output) -> Value {
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("one JSON object")
}

fn ms(day: &str) -> i64 {
    day_start_ms(parse_day(day).expect("day"))
}

fn fresh(input: u64, output: u64) -> Usage {
    Usage {
        input_tokens: input,
        output_tokens: output,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
    }
}

fn request(model: &str, usage: Usage) -> MeteredRequest {
    MeteredRequest {
        model: model.into(),
        usage,
        cost_usd: tandem_engine::model::pricing::cost_usd(model, &usage),
        carries: Vec::new(),
    }
}

/// The store `tandem` opens for `home`, with two sessions in two folders: requests on both sides of a UTC midnight,
/// on two models, and one request carrying a large Bash result.
fn seed(home: &Path, a: &Path, b: &Path) {
    let store = SessionStore::open(&home.join(".local/share/tandem/sessions.db")).expect("store");
    for (id, folder) in [("sa", a), ("sb", b)] {
        store
            .create_session(&NewSession {
                id: id.into(),
                folder: folder.to_path_buf(),
                model: "claude-sonnet-4-5".into(),
                mode: PermissionMode::Default,
            })
            .expect("create");
    }
    let carrying = ModelRequest {
        model: "claude-sonnet-4-5".into(),
        max_tokens: 100,
        system: vec![],
        messages: vec![
            Message::user_text("run it"),
            Message::new(
                Role::Assistant,
                vec![ContentBlock::ToolUse {
                    id: "toolu_log".into(),
                    name: "Bash".into(),
                    input: json!({"command": "cat build.log"}),
                }],
            ),
            Message::new(
                Role::User,
                vec![ContentBlock::ToolResult {
                    tool_use_id: "toolu_log".into(),
                    content: ToolResultContent::Text("y".repeat(40_000)),
                    is_error: false,
                }],
            ),
        ],
        tools: vec![],
        thinking: None,
    };
    let carried = fresh(10_050, 0);
    store.record_request(
        "sa",
        request("claude-sonnet-4-5", fresh(1_000_000, 0)),
        ms("2026-12-02") - 1,
    ); // $3 on 12-01
    store.record_request(
        "sa",
        MeteredRequest {
            carries: Layout::of(&carrying).carries(&carried),
            ..request("claude-sonnet-4-5", carried)
        },
        ms("2026-12-02"),
    ); // $0.03015 on 12-02
    store.record_request(
        "sb",
        request("claude-opus-4-1", fresh(0, 20_000)),
        ms("2026-12-02") + 10,
    ); // $1.50 on 12-02
    store.flush().expect("flush");
}

#[tokio::test]
async fn usage_sums_by_day_model_and_folder_as_json_and_text() {
    let home = tempfile::tempdir().expect("home");
    let (a, b) = (project(), project());
    let (a_dir, b_dir) = (
        std::fs::canonicalize(a.path()).expect("a"),
        std::fs::canonicalize(b.path()).expect("b"),
    );
    seed(home.path(), &a_dir, &b_dir);

    let all = json_of(&usage(home.path(), &["--json"]).await);
    let keys: Vec<&str> = all
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "since",
            "folder",
            "totals",
            "by_day",
            "by_folder",
            "by_model",
            "sessions",
            "tool_calls",
            "budgets"
        ]
    );
    assert_eq!(all["since"], Value::Null);
    assert_eq!(all["totals"]["requests"], 3);
    let cost = all["totals"]["cost_usd"].as_f64().expect("cost");
    assert!((cost - 4.53015).abs() < 1e-9, "{cost}");
    let days: Vec<(&str, u64)> = all["by_day"]
        .as_array()
        .expect("days")
        .iter()
        .map(|d| {
            (
                d["key"].as_str().expect("key"),
                d["totals"]["requests"].as_u64().expect("n"),
            )
        })
        .collect();
    assert_eq!(days, [("2026-12-01", 1), ("2026-12-02", 2)]);
    assert_eq!(all["by_model"][0]["key"], "claude-sonnet-4-5");
    assert_eq!(all["by_model"][1]["key"], "claude-opus-4-1");
    assert_eq!(all["by_folder"][0]["key"], a_dir.to_string_lossy().as_ref());
    assert_eq!(all["sessions"][0]["session_id"], "sa");
    let call = &all["tool_calls"][0];
    assert_eq!(call["name"], "Bash");
    assert_eq!(call["tool_use_id"], "toolu_log");
    assert_eq!(call["requests"], 1);
    // The result is nearly all of the request's 10,050 fresh tokens, at $3 per million.
    let tokens = call["fresh_tokens"].as_u64().expect("tokens");
    assert!((9_900..=10_050).contains(&tokens), "{call}");
    let call_cost = call["cost_usd"].as_f64().expect("cost");
    assert!((call_cost - tokens as f64 * 3e-6).abs() < 1e-5, "{call}");
    assert_eq!(all["budgets"], json!([]));

    // --since: from 00:00 UTC of that day; the last millisecond of the day before is out.
    let since = json_of(&usage(home.path(), &["--since", "2026-12-02", "--json"]).await);
    assert_eq!(since["since"], "2026-12-02");
    assert_eq!(since["totals"]["requests"], 2);
    assert_eq!(since["by_day"].as_array().map(Vec::len), Some(1));

    // --folder: that folder's sessions only.
    let only_b = json_of(
        &usage(
            home.path(),
            &["--folder", &b_dir.to_string_lossy(), "--json"],
        )
        .await,
    );
    assert_eq!(only_b["totals"]["requests"], 1);
    assert_eq!(only_b["by_model"][0]["key"], "claude-opus-4-1");
    assert_eq!(only_b["tool_calls"], json!([]));

    // As text, with the budgets of the settings file.
    std::fs::create_dir_all(home.path().join(".config/tandem")).expect("config");
    std::fs::write(
        home.path().join(".config/tandem/settings.json"),
        r#"{"budget": {"monthlyUsd": 1000, "onLimit": "stop"}}"#,
    )
    .expect("settings");
    let text = usage(home.path(), &[]).await;
    assert_eq!(text.code, 0, "{}", text.stderr);
    for line in [
        "Usage of every stored session",
        "By day (UTC)",
        "2026-12-01",
        "claude-opus-4-1",
        "Costliest tool calls",
        "Bash  toolu_log",
        "of $1000.00 (0%), at the limit: stop",
    ] {
        assert!(text.stdout.contains(line), "{line:?} in:\n{}", text.stdout);
    }

    let bad = usage(home.path(), &["--since", "yesterday"]).await;
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("YYYY-MM-DD"), "{}", bad.stderr);
}

#[tokio::test]
async fn print_mode_records_each_request_and_a_budget_set_to_stop_makes_none() {
    let home = tempfile::tempdir().expect("home");
    let dir = project();
    let server = FakeServer::start(Script::turns([
        ScriptedTurn {
            input_tokens: 2_000,
            ..ScriptedTurn::new(vec![ScriptBlock::ToolUse {
                id: "toolu_1".into(),
                name: "Read".into(),
                input: json!({"file_path": dir.path().join("README.md")}),
            }])
        },
        ScriptedTurn {
            input_tokens: 2_100,
            ..ScriptedTurn::text("The answer is 42.")
        },
    ]))
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path())
        .env("ANTHROPIC_MODEL", "claude-sonnet-4-5")
        .args(["-p", "What is the answer?"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);

    let report = json_of(&usage(home.path(), &["--json"]).await);
    assert_eq!(report["totals"]["requests"], 2);
    assert_eq!(report["totals"]["input_tokens"], 4_100);
    assert_eq!(report["by_model"][0]["key"], "claude-sonnet-4-5");
    assert_eq!(report["tool_calls"][0]["name"], "Read");
    assert_eq!(report["tool_calls"][0]["requests"], 1);
    let spent = report["totals"]["cost_usd"].as_f64().expect("cost");
    assert!(spent > 0.0);

    // A daily budget below what was spent, set to stop: the next run makes no request and fails.
    std::fs::create_dir_all(home.path().join(".config/tandem")).expect("config");
    std::fs::write(
        home.path().join(".config/tandem/settings.json"),
        json!({"budget": {"dailyUsd": spent / 2.0, "onLimit": "stop"}}).to_string(),
    )
    .expect("settings");
    let stopped_server = FakeServer::start(Script::turns([ScriptedTurn::text("never")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&stopped_server.url()), home.path());
    cmd.current_dir(dir.path())
        .env("ANTHROPIC_MODEL", "claude-sonnet-4-5")
        .args(["-p", "Again?"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("daily budget"), "{}", out.stderr);
    assert!(stopped_server.requests().is_empty());
    let report = json_of(&usage(home.path(), &["--json"]).await);
    assert_eq!(report["totals"]["requests"], 2);
    assert_eq!(report["budgets"][0]["period"], "day");
    assert_eq!(report["budgets"][0]["on_limit"], "stop");
}
