//! MCP prompts as the person's slash commands and `@server:uri` mentions, with the workspace's test server (stdio
//! and streamable HTTP) and the fake model: the prompts are listed and follow `prompts/list_changed`, a command's
//! arguments reach the server and its messages become the prompt, failures end the turn with the reason, and
//! mentioned resources are attached (a missing one reported, the prompt still sent).

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::mcp::McpCliConfig;
use tandem_engine::session::Session;
use tandem_engine::testing::{Project, Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent};

use super::common::{fake_config, server};
use super::mcp_support::*;

#[tokio::test]
async fn prompts_are_listed_and_follow_list_changed() {
    let project = Project::new().expect("project");
    let (manager, _) = start(&project.root, json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let mut commands: Vec<String> = manager.prompts().into_iter().map(|p| p.command).collect();
    commands.sort();
    assert_eq!(
        commands,
        ["mcp__t__broken", "mcp__t__greet", "mcp__t__show"]
    );
    let greet = manager
        .prompts()
        .into_iter()
        .find(|p| p.remote == "greet")
        .expect("greet");
    assert_eq!(greet.usage(), "/mcp__t__greet <name> [style]");

    let (rt, _) = runtime(&project.root, &manager);
    let added = tandem_engine::testing::call(&rt, "mcp__t__add_prompt", &json!({})).await;
    assert!(added.ok, "{}", added.text);
    let listed = manager
        .wait_until(PATIENCE, |_| {
            manager
                .prompts()
                .iter()
                .any(|p| p.command == "mcp__t__later")
        })
        .await;
    assert!(listed, "prompts/list_changed brought `later`");
}

/// A session on the test server `t` (over `entry`) with the fake model answering `turns` texts.
async fn session_with(
    entry: Value,
    turns: usize,
) -> (
    Session,
    tandem_engine::testing::FakeServer,
    RecordingSink,
    Workspace,
) {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns(
        (0..turns).map(|i| ScriptedTurn::text(format!("answer {i}"))),
    ))
    .await;
    let events = RecordingSink::default();
    let session = Session::builder(&ws.root())
        .expect("builder")
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::BypassPermissions)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)))
        .events(Arc::new(events.clone()))
        .mcp_config(McpCliConfig {
            configs: vec![json!({"mcpServers": {"t": entry}}).to_string()],
            strict: true,
        })
        .build()
        .expect("session");
    (session, fake, events, ws)
}

/// The content blocks of the last user message of request `i`.
fn prompt_blocks(fake: &tandem_engine::testing::FakeServer, i: usize) -> Vec<Value> {
    let requests = fake.requests();
    let messages = requests[i].body["messages"].as_array().expect("messages");
    let last = messages.last().expect("a message");
    assert_eq!(last["role"], "user");
    match &last["content"] {
        Value::Array(blocks) => blocks.clone(),
        Value::String(text) => vec![json!({"type": "text", "text": text})],
        other => panic!("{other}"),
    }
}

fn texts(blocks: &[Value]) -> String {
    blocks
        .iter()
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn errors_and_notices(events: &RecordingSink) -> Vec<String> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::Error { message } | SessionEvent::Notice { message } => Some(message),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_prompt_command_sends_the_servers_messages_and_failures_end_the_turn() {
    let (session, fake, events, _ws) = session_with(stdio(&[]), 2).await;
    // The command waits for its server: no explicit wait before the first prompt.
    let outcome = session
        .send("/mcp__t__greet \"Ann Lee\" style=warm")
        .await
        .expect("turn");
    assert_eq!(outcome.final_text, "answer 0");
    let blocks = prompt_blocks(&fake, 0);
    assert_eq!(texts(&blocks), "Say hello to Ann Lee. Be warm.");
    let started: Vec<String> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt),
            _ => None,
        })
        .collect();
    assert_eq!(started, ["/mcp__t__greet \"Ann Lee\" style=warm"]);
    let commands = session.slash_commands();
    assert!(
        commands
            .iter()
            .any(|c| c.name == "mcp__t__greet" && c.description.contains("Greets someone")),
        "{commands:?}"
    );

    session.send("/mcp__t__show").await.expect("turn");
    let blocks = prompt_blocks(&fake, 1);
    assert_eq!(blocks[0]["text"], "Describe this picture.");
    assert_eq!(blocks[1]["type"], "image", "{blocks:?}");
    assert!(
        texts(&blocks).contains("hello from a resource"),
        "{blocks:?}"
    );

    let table: &[(&str, &str)] = &[
        (
            "/mcp__t__greet",
            "needs `name`; usage: /mcp__t__greet <name> [style]",
        ),
        ("/mcp__t__broken", "this prompt is broken on purpose"),
        (
            "/mcp__t__nothing",
            "no MCP server offers the prompt /mcp__t__nothing",
        ),
        (
            "/mcp__other__p",
            "no MCP server offers the prompt /mcp__other__p",
        ),
    ];
    for (typed, want) in table {
        let before = fake.requests().len();
        let error = session.send(typed).await.expect_err("the command fails");
        assert!(error.to_string().contains(want), "{typed}: {error}");
        assert_eq!(
            fake.requests().len(),
            before,
            "{typed} sent nothing to the model"
        );
        let said = errors_and_notices(&events);
        assert!(said.iter().any(|m| m.contains(want)), "{typed}: {said:?}");
    }
}

#[tokio::test]
async fn mentions_attach_resources_over_stdio_and_http_and_report_what_fails() {
    let http = HttpServer::start();
    for entry in [stdio(&[]), json!({"type": "http", "url": http.url})] {
        let (session, fake, events, _ws) = session_with(entry.clone(), 1).await;
        let typed =
            "compare @t:test://greeting with @t:test://pixel, and @t:test://missing. me@t:test://x";
        let outcome = session.send(typed).await.expect("turn");
        assert_eq!(outcome.final_text, "answer 0", "{entry}");
        let blocks = prompt_blocks(&fake, 0);
        assert_eq!(blocks[0]["text"], typed, "the typed text goes first");
        let all = texts(&blocks);
        assert!(all.contains("[Attached @t:test://greeting]"), "{all}");
        assert!(all.contains("hello from a resource"), "{all}");
        assert!(
            blocks.iter().any(|b| b["type"] == "image"),
            "{entry}: the pixel is attached as an image: {blocks:?}"
        );
        assert!(!all.contains("@t:test://x]"), "an address is not a mention");
        let said = errors_and_notices(&events);
        assert!(
            said.iter()
                .any(|m| m.contains("@t:test://missing was not attached")
                    && m.contains("no resource test://missing")),
            "{entry}: {said:?}"
        );
    }
}

#[tokio::test]
async fn a_mention_of_a_server_that_cannot_start_is_reported_and_the_prompt_goes() {
    let (session, fake, events, _ws) = session_with(stdio(&["--exit-at-once"]), 1).await;
    let outcome = session
        .send("look at @t:test://greeting")
        .await
        .expect("turn");
    assert_eq!(outcome.final_text, "answer 0");
    assert_eq!(
        texts(&prompt_blocks(&fake, 0)),
        "look at @t:test://greeting"
    );
    let said = errors_and_notices(&events);
    assert!(
        said.iter()
            .any(|m| m.contains("@t:test://greeting was not attached")
                && m.contains("MCP server `t` cannot be used: it failed")),
        "{said:?}"
    );
}
