//! End to end in the real webview: a turn that runs a command by the folder's own rule (trusted in the dialog), asks
//! once with "Yes, and don't ask again" and runs the same command again by the saved rule always shows its end —
//! twenty times in a row, each time in a new untrusted folder.

use fantoccini::Locator;
use serde_json::json;
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

use super::e2e::{click, fixture, launch_untrusted, send_prompt, wait_for_text, wait_gone};

/// How many times the sequence runs (`TANDEM_E2E_RUNS` overrides the default of 20).
fn runs() -> usize {
    std::env::var("TANDEM_E2E_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20)
}

fn touch(id: &str, file: &str) -> ScriptedTurn {
    ScriptedTurn::new(vec![ScriptBlock::ToolUse {
        id: id.into(),
        name: "Bash".into(),
        input: json!({"command": format!("touch {file}")}),
    }])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn a_turn_with_a_trusted_rule_and_a_saved_rule_always_shows_its_answer() {
    for run in 0..runs() {
        let (dir, project) = fixture();
        let project = std::fs::canonicalize(project).expect("canonical");
        std::fs::create_dir_all(project.join(".claude")).expect(".claude");
        std::fs::write(
            project.join(".claude/settings.json"),
            json!({"permissions": {"allow": ["Bash(touch trusted-*)"]}}).to_string(),
        )
        .expect("settings");
        let server = FakeServer::start(Script::turns([
            touch("toolu_trusted", "trusted-a.txt"),
            touch("toolu_agent_1", "agent-b.txt"),
            touch("toolu_agent_2", "agent-b.txt"),
            ScriptedTurn::text(format!("Final answer of run {run}.")),
        ]))
        .await
        .expect("fake server");
        let (_driver, client) = launch_untrusted(&server, dir.path(), &project).await;

        wait_for_text(
            &client,
            "[data-testid=trust-dialog]",
            "Bash(touch trusted-*)",
        )
        .await;
        click(&client, "trust-accept").await;
        wait_gone(&client, "[data-testid=trust-dialog]").await;
        wait_for_text(&client, "[data-testid=trust-badge]", "Trusted").await;
        send_prompt(&client, "Touch the files").await;

        wait_for_text(
            &client,
            "[data-testid=approval-dialog]",
            "touch agent-b.txt",
        )
        .await;
        // The working line is drawn below the last row's reason line, not over it.
        let gap = client
            .execute(
                r#"const working = document.querySelector('[data-testid=working]');
                   const reasons = [...document.querySelectorAll('[data-testid=tool-decision]')];
                   const last = reasons[reasons.length - 1];
                   if (!working || !last) return null;
                   return working.getBoundingClientRect().top - last.getBoundingClientRect().bottom;"#,
                vec![],
            )
            .await
            .expect("script");
        assert!(
            gap.as_f64().is_some_and(|gap| gap >= 0.0),
            "run {run}: the working line against the last reason line: {gap}"
        );
        click(&client, "approval-allow-always").await;

        wait_for_text(
            &client,
            "[data-testid=assistant-text]",
            &format!("Final answer of run {run}."),
        )
        .await;
        // The turn's end reached the window: the working line is gone and the prompt box takes a new prompt.
        wait_gone(&client, "[data-testid=working]").await;
        assert!(
            project.join("trusted-a.txt").exists(),
            "run {run}: the trusted rule ran"
        );
        assert!(
            project.join("agent-b.txt").exists(),
            "run {run}: the approved command ran"
        );
        let requests = server.requests();
        assert_eq!(requests.len(), 4, "run {run}: one request per step");
        let calls = client
            .find_all(Locator::Css("[data-testid=tool-call]"))
            .await
            .expect("calls");
        assert_eq!(calls.len(), 3, "run {run}: three calls shown");
        client.close().await.expect("close");
    }
}
