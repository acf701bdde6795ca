//! MCP servers that fail or misbehave are reported in words a person reads, and one bad tool costs only itself:
//! a closed HTTP port says nothing is listening (no library type names), and a server listing a tool with a broken
//! input schema keeps its good tools, with a notice naming the one left out.

use serde_json::json;
use tandem_engine::testing::{Workspace, call};
use tandem_protocol::SessionEvent;

use super::mcp_support::*;

#[tokio::test]
async fn a_closed_http_port_is_reported_in_plain_words() {
    let ws = Workspace::new(&[]).expect("workspace");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (manager, _) = start(
        &ws.root(),
        json!({"remote": {"type": "http", "url": url}}),
        quick(),
    );
    let (error, _) = failure(&manager, "remote").await;
    assert!(error.contains(&url), "{error}");
    assert!(error.contains("connection refused"), "{error}");
    for internal in [
        "::",
        "Transport [",
        "StreamableHttpError",
        "WorkerTransport",
        "reqwest",
    ] {
        assert!(!error.contains(internal), "{internal:?} in {error}");
    }
}

#[tokio::test]
async fn a_tool_with_a_broken_input_schema_is_left_out_and_the_others_stay() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, events) = start(
        &ws.root(),
        json!({"raw": stdio(&["--raw-tools"])}),
        patient(),
    );
    ready(&manager, "raw").await;
    let (rt, _) = runtime(&ws.root(), &manager);

    let names: Vec<String> = rt.pool.specs().into_iter().map(|s| s.name).collect();
    assert!(names.contains(&"mcp__raw__echo".to_string()), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n.contains("no_schema") || n.contains("bad_schema")),
        "{names:?}"
    );
    let echoed = call(&rt, "mcp__raw__echo", &json!({"text": "still works"})).await;
    assert!(echoed.ok && echoed.text == "still works", "{}", echoed.text);
    let notices: Vec<String> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::Notice { message } => Some(message),
            _ => None,
        })
        .collect();
    for tool in ["no_schema", "bad_schema"] {
        assert!(
            notices
                .iter()
                .any(|n| n.contains("raw") && n.contains(tool) && n.contains("input schema")),
            "{tool}: {notices:?}"
        );
    }
}
