//! WebFetch in whole turns against the fake model server and a local site on loopback: the page answered by the
//! small model's request (no tools, the page in it), and a loopback address that asks even though the mode would
//! allow, unless an allow rule names the host.

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::routing::get;
use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{
    ApprovalChoice, DecisionSource, PermissionMode, SafetyCheck, SessionEvent, ToolDetail,
};

use super::common::{server, session};

async fn site() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let app = Router::new().route(
        "/guide",
        get(|| async {
            (
                [(header::CONTENT_TYPE, "text/html")],
                "<html><body><h1>Install</h1><p>Run <code>make install</code>.</p></body></html>",
            )
        }),
    );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}")
}

fn last_result(body: &Value) -> Value {
    body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_array())
        .and_then(|c| c.iter().find(|b| b["type"] == "tool_result"))
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn the_model_fetches_a_page_and_the_small_model_answers_the_prompt() {
    let site = site().await;
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "f1",
            "WebFetch",
            json!({"url": format!("{site}/guide"), "prompt": "How do I install it?"}),
        ),
        ScriptedTurn::text("Run `make install`."),
        ScriptedTurn::text("The guide says: make install."),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new(
        [ApprovalChoice::Allow],
        ApprovalChoice::Deny,
    ));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    let outcome = s.send("how do I install this?").await.expect("turn");
    assert_eq!(outcome.final_text, "The guide says: make install.");
    assert_eq!(approver.asked().len(), 1, "the loopback address asked");

    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    assert!(
        requests[0].body["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "WebFetch"))
    );
    // The small model's request: the page as markdown and the prompt, no tools, no conversation.
    let side = &requests[1].body;
    assert!(
        side.get("tools")
            .is_none_or(|t| t.as_array().is_some_and(|t| t.is_empty()))
    );
    let asked = side["messages"][0]["content"].to_string();
    assert!(
        asked.contains("# Install")
            && asked.contains("`make install`")
            && asked.contains("How do I install it?"),
        "{asked}"
    );
    assert_eq!(side["messages"].as_array().map(Vec::len), Some(1));
    // Its answer is the tool result.
    let result = last_result(&requests[2].body);
    assert_eq!(result["tool_use_id"], "f1");
    assert!(
        result["content"]
            .to_string()
            .contains("Run `make install`."),
        "{result}"
    );

    let detail = events.events().into_iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            tool_use_id,
            detail,
            ..
        } if tool_use_id == "f1" => detail,
        _ => None,
    });
    assert!(
        matches!(
            &detail,
            Some(ToolDetail::WebFetch {
                summarized: true,
                cached: false,
                status: 200,
                ..
            })
        ),
        "{detail:?}"
    );
}

#[tokio::test]
async fn a_loopback_address_asks_even_in_bypass_mode() {
    let site = site().await;
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "f1",
            "WebFetch",
            json!({"url": format!("{site}/guide"), "prompt": "?"}),
        ),
        ScriptedTurn::text("It was refused."),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session(
        &ws.root(),
        &fake,
        approver.clone(),
        RecordingSink::default(),
    );
    s.set_mode(PermissionMode::BypassPermissions);
    assert_eq!(
        s.runtime().permission_context().mode,
        PermissionMode::BypassPermissions
    );
    s.send("fetch the guide").await.expect("turn");

    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "asked once");
    assert!(
        asked[0].reason.contains("127.0.0.1 (loopback)"),
        "{}",
        asked[0].reason
    );
    assert_eq!(
        asked[0].decided_by,
        Some(DecisionSource::SafetyCheck {
            check: SafetyCheck::PrivateAddress
        })
    );
    assert_eq!(
        asked[0].suggestion.as_ref().map(|s| s.rules.clone()),
        Some(vec!["WebFetch(domain:127.0.0.1)".to_string()])
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "no page was summarised");
    assert_eq!(last_result(&requests[1].body)["is_error"], true);
}
