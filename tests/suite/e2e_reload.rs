//! End to end in the real webview: reloading the page keeps the person in the same folder and session — while a
//! turn waits for an approval (the dialog comes back and answering it ends the turn), and after the turn.

use serde_json::json;
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

use super::e2e::{click, fixture, launch, send_prompt, wait_for_text};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn a_reloaded_window_shows_the_same_session_even_while_a_turn_waits() {
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_touch".into(),
            name: "Bash".into(),
            input: json!({"command": "touch reloaded.txt"}),
        }]),
        ScriptedTurn::text("Final answer: touched after the reload."),
    ]))
    .await
    .expect("fake server");
    let (_driver, client) = launch(&server, dir.path(), &project).await;
    send_prompt(&client, "Touch a file").await;
    wait_for_text(
        &client,
        "[data-testid=approval-dialog]",
        "touch reloaded.txt",
    )
    .await;

    client.refresh().await.expect("reload");
    wait_for_text(&client, "[data-testid=user-prompt]", "Touch a file").await;
    wait_for_text(
        &client,
        "[data-testid=approval-dialog]",
        "touch reloaded.txt",
    )
    .await;
    click(&client, "approval-allow").await;
    wait_for_text(
        &client,
        "[data-testid=assistant-text]",
        "touched after the reload",
    )
    .await;
    assert!(project.join("reloaded.txt").exists());

    client.refresh().await.expect("reload");
    wait_for_text(&client, "[data-testid=folder-name]", "demo-project").await;
    wait_for_text(&client, "[data-testid=user-prompt]", "Touch a file").await;
    wait_for_text(
        &client,
        "[data-testid=assistant-text]",
        "touched after the reload",
    )
    .await;
    assert_eq!(server.requests().len(), 2);
    client.close().await.expect("close");
}
