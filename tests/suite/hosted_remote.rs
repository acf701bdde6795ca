//! The window's remote folders over IPC on Tauri's mock runtime, against the loopback sshd of the command line's
//! remote tests (`crates/cli/tests/suite/acp/sshd.rs`, reused as it is) and the built `tandem` as the far side: a
//! remote folder opens in a tab whose turn runs over there and renders here, stored under the folder this side chose;
//! reopened from the history it goes on with the far session (a new connection, `session/load`), and says so when
//! the far machine cannot be reached; a far machine without `tandem` is refused with the one install command,
//! nothing opened. Skipped (with the reason)
//! without root, sshd, or a built `tandem` (`cargo build -p tandem-cli`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_app::state::AppState;
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};
use tauri::test::MockRuntime;

use super::ipc::{invoke_on, mock_window};
use super::sshd::{RemoteHome, Sshd};

/// The command line's `tandem`, built beside this test (`None`, said why, when it is not).
fn built_tandem() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("tandem");
    if bin.is_file() {
        Some(bin)
    } else {
        eprintln!(
            "skipped: {} is not built (cargo build -p tandem-cli)",
            bin.display()
        );
        None
    }
}

fn app(ssh_command: String, data: &tempfile::TempDir) -> tauri::WebviewWindow<MockRuntime> {
    let mut state = AppState::new(None);
    state.recent_file = Some(data.path().join("recent.json"));
    state.store = Some(Arc::new(
        SessionStore::open(&data.path().join("sessions.db")).expect("store"),
    ));
    state.settings_file = None;
    state.ssh_command = Some(ssh_command);
    let (app, webview) = mock_window(state);
    // The app lives as long as the test: its window is all the test drives.
    std::mem::forget(app);
    webview
}

fn events(webview: &tauri::WebviewWindow<MockRuntime>, session_id: &str) -> Vec<Value> {
    invoke_on(
        webview,
        "session_events",
        json!({"sessionId": session_id, "afterSeq": null}),
    )
    .expect("session_events")
    .as_array()
    .expect("events")
    .iter()
    .map(|envelope| envelope["event"].clone())
    .collect()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_remote_folder_opens_in_a_tab_whose_turn_runs_over_there_and_a_bare_machine_names_the_install()
{
    let Some(bin) = built_tandem() else {
        return;
    };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    let server = tauri::async_runtime::block_on(FakeServer::start(Script::turns([
        ScriptedTurn::text("Hello from the far side."),
        ScriptedTurn::text("Still here."),
    ])))
    .expect("server");
    let sshd = tauri::async_runtime::block_on(Sshd::start(far, &server.url(), true));
    let data = tempfile::tempdir().expect("data");
    let here = tempfile::tempdir().expect("here");
    let here = std::fs::canonicalize(here.path()).expect("canonical");
    let webview = app(sshd.ssh_command(), &data);

    let info = invoke_on(
        &webview,
        "open_hosted_session",
        json!({"path": here, "onEvent": "__CHANNEL__:7", "agent": null, "remote": sshd.url()}),
    )
    .expect("open_hosted_session");
    let session_id = info["session_id"].as_str().expect("id").to_string();
    assert!(
        info["model"]
            .as_str()
            .is_some_and(|m| m.starts_with("acp:ssh://")),
        "{info}"
    );
    assert_eq!(
        info["cwd"],
        json!(here),
        "stored under the folder chosen here"
    );
    invoke_on(
        &webview,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "Say hello"}),
    )
    .expect("send_prompt");
    wait_until("the remote turn's end", || {
        events(&webview, &session_id)
            .iter()
            .any(|e| e["type"] == "turn_ended")
    });
    let said: String = events(&webview, &session_id)
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(said, "Hello from the far side.");
    let listed = invoke_on(&webview, "list_sessions", json!({"path": here})).expect("list");
    assert!(
        listed
            .as_array()
            .expect("sessions")
            .iter()
            .any(|s| s["session_id"] == session_id.as_str()),
        "{listed:#}"
    );
    invoke_on(&webview, "close_session", json!({"sessionId": session_id})).expect("close");

    // Reopened from the history, it goes on over there: a new connection loads the far session.
    let reopen = json!({"path": null, "onEvent": "__CHANNEL__:8", "agent": null, "remote": null, "resume": session_id});
    let reopened = invoke_on(&webview, "open_hosted_session", reopen.clone()).expect("reopened");
    assert_eq!(reopened["session_id"], session_id.as_str());
    let before = server.requests().len();
    invoke_on(
        &webview,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "Are you still there?"}),
    )
    .expect("send_prompt");
    wait_until("the reopened turn's end", || {
        events(&webview, &session_id)
            .iter()
            .filter(|e| e["type"] == "turn_ended")
            .count()
            == 2
    });
    let later: Vec<String> = server.requests()[before..]
        .iter()
        .map(|r| r.body.to_string())
        .collect();
    assert!(
        later
            .iter()
            .any(|b| b.contains("Are you still there?") && b.contains("Say hello")),
        "the far session went on with its first turn: {later:#?}"
    );
    invoke_on(&webview, "close_session", json!({"sessionId": session_id})).expect("close");
    drop(sshd);

    // The far machine unreachable: the reopen says so, naming the host; nothing opens.
    let unreachable = invoke_on(&webview, "open_hosted_session", reopen).expect_err("unreachable");
    assert_eq!(unreachable["code"], "agent");
    assert!(
        unreachable["message"]
            .as_str()
            .is_some_and(|m| m.contains("127.0.0.1")),
        "{unreachable}"
    );

    // A far machine without `tandem`: the message names the one install command, and no tab opens.
    let Some(bare) = RemoteHome::new(&bin) else {
        return;
    };
    let sshd = tauri::async_runtime::block_on(Sshd::start(bare, &server.url(), false));
    let webview = app(sshd.ssh_command(), &data);
    let refused = invoke_on(
        &webview,
        "open_hosted_session",
        json!({"path": here, "onEvent": "__CHANNEL__:7", "agent": null, "remote": sshd.url()}),
    )
    .expect_err("no tandem there");
    assert_eq!(refused["code"], "agent");
    let message = refused["message"].as_str().expect("message");
    assert!(
        message.contains("install this one there with:")
            && message.contains("cat > ~/.local/bin/tandem"),
        "{message}"
    );
}
