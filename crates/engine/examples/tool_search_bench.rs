//! Tokens of the first request of a session with 200 deferred (MCP-like) tools, with the tools deferred
//! (`ENABLE_TOOL_SEARCH=auto`: names only, in ToolSearch's description) and not (`false`: every definition),
//! against the in-process fake model server. Tokens are estimated as four bytes of request JSON each, the same
//! estimate the deferral threshold uses. Prints both and their ratio.

use std::sync::Arc;

use serde_json::Value;
use tandem_engine::model::{AnthropicModel, Model, ModelConfig, RetryPolicy};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::testing::{
    FakeServer, RecordingSink, Script, ScriptedApprover, ScriptedTurn, Workspace, synthetic_tools,
};
use tandem_engine::tool::ToolSearchMode;
use tandem_protocol::{ApprovalChoice, PermissionMode};

/// (tokens of the tool list, tokens of the whole request, tools sent) of the first request.
async fn first_request(tools: usize, mode: ToolSearchMode) -> (u64, u64, usize) {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = FakeServer::start(Script::turns([ScriptedTurn::text("ok")]))
        .await
        .expect("fake server");
    let config = ModelConfig {
        base_url: fake.url(),
        api_key: Some("sk-bench".into()),
        model: "fake-model".into(),
        retry: RetryPolicy::default(),
        ..ModelConfig::default()
    };
    let model: Arc<dyn Model> = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    let session = Session::builder(&ws.root())
        .expect("builder")
        .options(SessionOptions {
            id: None,
            cwd: ws.root(),
            model: config,
            mode: PermissionMode::Default,
            approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
            events: Arc::new(RecordingSink::default()),
            store: None,
            watch_settings: false,
        })
        .model_client(model)
        .extra_tools(synthetic_tools(tools))
        .tool_search(mode)
        .build()
        .expect("session");
    session.send("hello").await.expect("turn");
    let body: Value = fake.requests()[0].body.clone();
    let tool_list = body["tools"].to_string().len() as u64 / 4;
    let whole = body.to_string().len() as u64 / 4;
    let sent = body["tools"].as_array().map(Vec::len).unwrap_or(0);
    (tool_list, whole, sent)
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let (all_tools, all_body, all_sent) = first_request(n, ToolSearchMode::Never).await;
    let (def_tools, def_body, def_sent) = first_request(n, ToolSearchMode::Auto).await;
    println!("{n} deferred tools, first request (tokens ≈ bytes / 4)");
    println!(
        "not deferred: {all_sent:>4} tools sent, tool list {all_tools:>7} tokens, request {all_body:>7} tokens"
    );
    println!(
        "deferred:     {def_sent:>4} tools sent, tool list {def_tools:>7} tokens, request {def_body:>7} tokens"
    );
    println!(
        "ratio deferred / not deferred: tool list {:.3}, request {:.3}",
        def_tools as f64 / all_tools.max(1) as f64,
        def_body as f64 / all_body.max(1) as f64
    );
}
