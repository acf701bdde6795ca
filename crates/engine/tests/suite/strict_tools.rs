//! Strict tool definitions against the fake server (which checks them as the Messages API does): a model that takes
//! them gets the core tools strict, in the subset and within the limits; another model gets none; a server that
//! refuses them gets the request again without them, and plain definitions for the rest of the session.

use std::sync::Arc;

use serde_json::Value;
use tandem_engine::model::AnthropicModel;
use tandem_engine::session::{EndReason, Session};
use tandem_engine::testing::{
    FakeServer, Script, ScriptedApprover, ScriptedReply, ScriptedTurn, Workspace,
};
use tandem_protocol::ApprovalChoice;

use super::common::{fake_config, server};

/// The names of the tools a request sent strict.
fn strict_tools(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["strict"] == Value::Bool(true))
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect()
}

async fn run_turns(fake: &FakeServer, model: &str, prompts: &[&str]) {
    let ws = Workspace::new(&[]).expect("workspace");
    let mut config = fake_config(&fake.url());
    config.model = model.into();
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(Arc::new(
            AnthropicModel::new(config.clone()).expect("client"),
        ))
        .model(config)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)))
        .build()
        .expect("session");
    for prompt in prompts {
        s.send(prompt).await.expect("turn");
    }
    s.end(EndReason::Other).await;
}

#[tokio::test]
async fn a_model_that_takes_strict_definitions_gets_the_core_tools_strict() {
    let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
    run_turns(&fake, "claude-sonnet-4-5-20250929", &["hello"]).await;
    let requests = fake.requests();
    assert_eq!(
        requests[0].rejected, None,
        "the strict definitions fit the subset"
    );
    let mut strict = strict_tools(&requests[0].body);
    strict.sort();
    assert_eq!(
        strict,
        ["Bash", "Edit", "Glob", "Read", "TodoWrite", "Write"]
    );
    let read = requests[0].body["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == "Read")
        .expect("Read")
        .clone();
    assert_eq!(read["input_schema"]["additionalProperties"], false);
}

#[tokio::test]
async fn other_models_get_plain_definitions() {
    let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
    run_turns(&fake, "claude-sonnet-4-20250514", &["hello"]).await;
    assert_eq!(strict_tools(&fake.requests()[0].body), Vec::<String>::new());
}

#[tokio::test]
async fn a_server_that_refuses_strict_gets_plain_definitions_from_then_on() {
    let fake = server(Script {
        replies: vec![
            ScriptedReply::http_error(
                400,
                "invalid_request_error",
                "tools.0.custom.strict: Extra inputs are not permitted",
            ),
            ScriptedReply::Stream(ScriptedTurn::text("first")),
            ScriptedReply::Stream(ScriptedTurn::text("second")),
        ],
    })
    .await;
    run_turns(&fake, "claude-opus-4-6", &["one", "two"]).await;
    let requests = fake.requests();
    assert_eq!(requests.len(), 3, "the refused request was sent again once");
    assert!(!strict_tools(&requests[0].body).is_empty());
    assert!(strict_tools(&requests[1].body).is_empty());
    assert!(strict_tools(&requests[2].body).is_empty());
}
