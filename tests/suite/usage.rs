//! The usage view's and the status bar's commands over IPC on Tauri's mock runtime: the usage report of the stored
//! requests since a day and of a folder, the budgets of the settings file with what was spent, a budget saved from
//! the settings dialog (a bad one refused, the file unchanged), and that budget stopping an open session's next turn.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_app::state::AppState;
use tandem_engine::settings::{AppSettingsFile, CredentialStore};
use tandem_engine::store::{
    MeteredRequest, NewSession, SessionStore, day_start_ms, now_ms, parse_day,
};
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};
use tandem_protocol::{PermissionMode, Usage};
use tauri::test::MockRuntime;

use super::ipc::{invoke_on, mock_window, model_for};

struct App {
    _app: tauri::App<MockRuntime>,
    webview: tauri::WebviewWindow<MockRuntime>,
    store: Arc<SessionStore>,
    settings: std::path::PathBuf,
    data: tempfile::TempDir,
}

/// The app with a store and a settings file of its own in a temporary folder, its sessions on `server`.
fn app(server: &FakeServer) -> App {
    let data = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&data.path().join("sessions.db")).expect("store"));
    let settings = data.path().join("settings.json");
    let mut state = AppState::new(None);
    state.model_override = Some(model_for(server));
    state.recent_file = Some(data.path().join("recent.json"));
    state.store = Some(store.clone());
    state.settings_file = Some(AppSettingsFile::new(
        settings.clone(),
        CredentialStore::in_file(data.path().join("credentials.json")),
    ));
    let (app, webview) = mock_window(state);
    App {
        _app: app,
        webview,
        store,
        settings,
        data,
    }
}

fn invoke(app: &App, cmd: &str, body: Value) -> Result<Value, Value> {
    invoke_on(&app.webview, cmd, body)
}

/// A stored session `id` in `folder` with one request on a priced model at `at`: `input` fresh tokens.
fn spent(store: &SessionStore, id: &str, folder: &Path, at: i64, input: u64) {
    store
        .create_session(&NewSession {
            id: id.into(),
            folder: folder.to_path_buf(),
            model: "claude-sonnet-4-5".into(),
            mode: PermissionMode::Default,
        })
        .expect("create");
    let usage = Usage {
        input_tokens: input,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
    };
    let request = MeteredRequest {
        model: "claude-sonnet-4-5".into(),
        usage,
        cost_usd: tandem_engine::model::pricing::cost_usd("claude-sonnet-4-5", &usage),
        carries: Vec::new(),
    };
    store.record_request(id, request, at);
    store.flush().expect("flush");
}

fn cost(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn the_usage_report_and_the_budgets_are_read_over_ipc() {
    let server =
        tauri::async_runtime::block_on(FakeServer::start(Script::turns([]))).expect("fake server");
    let app = app(&server);
    let a = tempfile::tempdir().expect("a");
    let b = tempfile::tempdir().expect("b");
    // $3.00 today in folder a; $1.50 on a day long past in folder b.
    spent(&app.store, "sa", a.path(), now_ms(), 1_000_000);
    let long_ago = day_start_ms(parse_day("2025-06-01").expect("day"));
    spent(&app.store, "sb", b.path(), long_ago, 500_000);

    let all = invoke(&app, "usage_report", json!({"since": null, "folder": null})).expect("report");
    assert_eq!(all["totals"]["requests"], 2);
    assert!(
        (cost(&all["totals"]["cost_usd"]) - 4.5).abs() < 1e-9,
        "{all}"
    );
    assert_eq!(all["by_day"].as_array().expect("days").len(), 2);
    assert_eq!(all["by_day"][0]["key"], "2025-06-01");
    assert_eq!(all["by_folder"].as_array().expect("folders").len(), 2);
    assert_eq!(all["by_model"][0]["key"], "claude-sonnet-4-5");
    assert_eq!(all["budgets"], json!([]), "no budget is set");
    let today = all["by_day"][1]["key"].clone();

    let since = invoke(
        &app,
        "usage_report",
        json!({"since": today, "folder": null}),
    )
    .expect("report since today");
    assert_eq!(since["totals"]["requests"], 1);
    assert_eq!(since["since"], today);
    let of_b = invoke(
        &app,
        "usage_report",
        json!({"since": null, "folder": b.path()}),
    )
    .expect("report of b");
    assert!(
        (cost(&of_b["totals"]["cost_usd"]) - 1.5).abs() < 1e-9,
        "{of_b}"
    );

    let bad = invoke(
        &app,
        "usage_report",
        json!({"since": "yesterday", "folder": null}),
    )
    .expect_err("not a day");
    assert_eq!(bad["code"], "usage");
    assert!(
        bad["message"]
            .as_str()
            .expect("message")
            .contains("is not a day (YYYY-MM-DD)"),
        "{bad}"
    );

    // The budgets of the settings file, each with what every session spent in its period.
    assert_eq!(
        invoke(&app, "budget_status", json!({})).expect("none"),
        json!([])
    );
    std::fs::write(
        &app.settings,
        r#"{"budget": {"dailyUsd": 4, "monthlyUsd": 1000, "onLimit": "stop"}}"#,
    )
    .expect("write settings");
    let budgets = invoke(&app, "budget_status", json!({})).expect("budgets");
    assert_eq!(budgets[0]["period"], "day");
    assert_eq!(budgets[0]["limit_usd"], 4.0);
    assert!(
        (cost(&budgets[0]["spent_usd"]) - 3.0).abs() < 1e-9,
        "{budgets}"
    );
    assert_eq!(budgets[0]["warn_percent"], 80);
    assert_eq!(budgets[0]["on_limit"], "stop");
    assert_eq!(budgets[1]["period"], "month");
    let report =
        invoke(&app, "usage_report", json!({"since": null, "folder": null})).expect("report");
    assert_eq!(report["budgets"], budgets);
    let settings = invoke(&app, "app_settings", json!({})).expect("settings");
    assert_eq!(
        settings["budget"],
        json!({"daily_usd": 4.0, "monthly_usd": 1000.0, "warn_percent": 80, "on_limit": "stop"})
    );
}

#[test]
fn a_budget_saved_from_the_settings_stops_the_open_sessions_next_turn() {
    let server =
        tauri::async_runtime::block_on(FakeServer::start(Script::turns([ScriptedTurn::text(
            "never sent",
        )])))
        .expect("fake server");
    let app = app(&server);
    let project = tempfile::tempdir().expect("project");
    let info = invoke(
        &app,
        "open_session",
        json!({"path": project.path(), "onEvent": "__CHANNEL__:7"}),
    )
    .expect("open_session");
    let session_id = info["session_id"].as_str().expect("id").to_string();
    // $3.00 spent today by another session.
    spent(
        &app.store,
        "elsewhere",
        app.data.path(),
        now_ms(),
        1_000_000,
    );

    let update = |budget: Value| {
        json!({"update": {"provider": "anthropic", "base_url": "", "model": "", "theme": "dark",
            "font_size": 14, "budget": budget}})
    };
    let saved = invoke(
        &app,
        "save_app_settings",
        update(
            json!({"daily_usd": 2.0, "monthly_usd": null, "warn_percent": 90, "on_limit": "stop"}),
        ),
    )
    .expect("saved");
    assert_eq!(saved["settings"]["budget"]["daily_usd"], 2.0);
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(&app.settings).expect("read")).expect("json");
    assert_eq!(
        file["budget"],
        json!({"dailyUsd": 2.0, "warnPercent": 90, "onLimit": "stop"})
    );

    // A bad budget is refused with a clear error and the file is left as it was.
    let refused = invoke(
        &app,
        "save_app_settings",
        update(
            json!({"daily_usd": -1.0, "monthly_usd": null, "warn_percent": 80, "on_limit": "warn"}),
        ),
    )
    .expect_err("refused");
    assert_eq!(refused["code"], "settings");
    assert!(
        refused["message"]
            .as_str()
            .expect("message")
            .contains("the daily budget must be a positive number of dollars"),
        "{refused}"
    );
    let after: Value =
        serde_json::from_str(&std::fs::read_to_string(&app.settings).expect("read")).expect("json");
    assert_eq!(after, file);

    // The open session watches the saved budget: its next turn stops before any request.
    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "go on"}),
    )
    .expect("send_prompt");
    let start = Instant::now();
    let ended = loop {
        let events = invoke(
            &app,
            "session_events",
            json!({"sessionId": session_id, "afterSeq": null}),
        )
        .expect("events");
        let ended = events.as_array().expect("events").iter().find_map(|e| {
            (e["event"]["type"] == "turn_ended").then(|| e["event"]["stop_reason"].clone())
        });
        if let Some(reason) = ended {
            break (reason, events);
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no turn_ended: {events}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(ended.0, "budget_reached", "{}", ended.1);
    assert!(
        ended
            .1
            .as_array()
            .expect("events")
            .iter()
            .any(|e| e["event"]["type"] == "budget_warning" && e["event"]["reached"] == true),
        "{}",
        ended.1
    );
    assert_eq!(server.requests().len(), 0, "no model request was made");
}
