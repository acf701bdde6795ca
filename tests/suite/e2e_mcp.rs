//! End to end in the real webview: the MCP project's reference server (`@modelcontextprotocol/server-everything`,
//! installed by scripts/install-deps under tests/mcp) named by an untrusted folder's `.mcp.json` starts once the
//! person trusts the folder — the trust question lists it — and the model calls one of its tools.

use std::path::PathBuf;

use serde_json::json;
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

use super::e2e::{click, fixture, launch_untrusted, send_prompt, wait_for_text, wait_gone};

/// The reference server's entry point; the test fails loudly when it (or node) is missing.
fn everything_server() -> PathBuf {
    let entry = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        entry.is_file(),
        "{} is missing: run scripts/install-deps (it installs tests/mcp's npm packages)",
        entry.display()
    );
    entry
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and WebKitWebDriver; run with --ignored under xvfb-run"]
async fn trusting_a_folder_starts_its_mcp_server_and_the_model_calls_its_tool() {
    let entry = everything_server();
    let (dir, project) = fixture();
    let project = std::fs::canonicalize(project).expect("canonical");
    std::fs::write(
        project.join(".mcp.json"),
        json!({"mcpServers": {"everything": {"command": "node", "args": [entry, "stdio"]}}})
            .to_string(),
    )
    .expect(".mcp.json");
    std::fs::create_dir_all(project.join(".claude")).expect(".claude");
    std::fs::write(
        project.join(".claude/settings.json"),
        json!({"permissions": {"allow": ["mcp__everything"]}}).to_string(),
    )
    .expect("settings");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_echo".into(),
            name: "mcp__everything__echo".into(),
            input: json!({"message": "hello from the window"}),
        }]),
        ScriptedTurn::text("Final answer: the server echoed."),
    ]))
    .await
    .expect("fake server");
    let (_driver, client) = launch_untrusted(&server, dir.path(), &project).await;

    // The trust question names the server; trusting is the approval, and it starts on the app's runtime.
    wait_for_text(&client, "[data-testid=trust-mcp]", "everything: node").await;
    click(&client, "trust-accept").await;
    wait_gone(&client, "[data-testid=trust-dialog]").await;
    wait_for_text(&client, "[data-testid=mcp-button]", "MCP 1/1").await;

    send_prompt(&client, "Echo something through the server").await;
    wait_for_text(&client, "[data-testid=assistant-text]", "the server echoed").await;
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let offered = requests[0].body["tools"].to_string();
    assert!(offered.contains("mcp__everything__echo"), "{offered}");
    let result = &requests[1].body["messages"][2]["content"][0];
    assert_eq!(result["tool_use_id"], "toolu_echo");
    assert_ne!(result["is_error"], true, "{result}");
    assert!(
        result.to_string().contains("hello from the window"),
        "{result}"
    );
    client.close().await.expect("close");
}
