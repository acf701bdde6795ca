//! End to end in the real webview with real key presses (xdotool under the test's X display, as a person's keyboard
//! reaches WebKitGTK): Shift+Tab switches the permission mode, and the model's next request says plan mode is on.

use std::process::Command;
use std::time::Instant;

use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::e2e::{PATIENCE, fixture, launch, send_prompt, wait_for_mode, wait_for_text};

/// Runs xdotool with `args`; fails the test when it cannot.
fn xdotool(args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .output()
        .expect("xdotool runs (scripts/install-deps installs it)");
    assert!(
        out.status.success(),
        "xdotool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Gives the app's window the keyboard (there is no window manager under Xvfb to do it).
async fn focus_window() {
    let start = Instant::now();
    loop {
        let found = Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", "^Tandem"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        if let Some(window) = found.lines().last() {
            xdotool(&["windowfocus", "--sync", window]);
            return;
        }
        assert!(start.elapsed() < PATIENCE, "the app's window never showed");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn shift_tab_from_the_keyboard_switches_mode_and_the_model_is_told_of_plan_mode() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text(
        "Final answer: here is a plan.",
    )]))
    .await
    .expect("fake server");
    let (_driver, client) = launch(&server, dir.path(), &project).await;
    wait_for_text(&client, "[data-testid=folder-name]", "demo-project").await;
    wait_for_mode(&client, "default").await;

    focus_window().await;
    xdotool(&["key", "--clearmodifiers", "shift+Tab"]);
    wait_for_mode(&client, "acceptEdits").await;
    xdotool(&["key", "--clearmodifiers", "shift+Tab"]);
    wait_for_mode(&client, "plan").await;

    send_prompt(&client, "How would you add a cache?").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "here is a plan").await;
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let last = requests[0].body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m.to_string())
        .unwrap_or_default();
    assert!(last.contains("How would you add a cache?"), "{last}");
    assert!(last.contains("Plan mode is on"), "{last}");
    client.close().await.expect("close");
}
