//! The adapter the official MCP client conformance suite (`@modelcontextprotocol/conformance client`) runs:
//! `tandem-mcp-conformance <server-url>`, with the scenario in `MCP_CONFORMANCE_SCENARIO`. It drives Tandem's own
//! MCP client (the session's manager, its tools and permission-free runtime) against the scenario's server:
//! connect over streamable HTTP, list the tools, call each one with arguments made from its schema, and exit.
//! Exit code 0 when the connection and the calls worked, 1 otherwise (the suite's checks decide the scenario).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::mcp::{Limits, McpCliConfig, McpManager, plan};
use tandem_engine::settings::McpSettings;
use tandem_engine::testing::{TestRuntime, call};
use tandem_protocol::{McpServerState, PermissionMode};

/// A value of the type a schema property asks for.
fn sample(schema: &Value) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("number") => json!(2.5),
        Some("integer") => json!(3),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => arguments(schema),
        _ => json!("conformance"),
    }
}

/// Arguments for a tool: every required property of its input schema.
fn arguments(schema: &Value) -> Value {
    let mut args = Map::new();
    let properties = schema.get("properties").and_then(Value::as_object);
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let property = properties
            .and_then(|p| p.get(name))
            .cloned()
            .unwrap_or(Value::Null);
        args.insert(name.to_string(), sample(&property));
    }
    Value::Object(args)
}

#[tokio::main]
async fn main() {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: tandem-mcp-conformance <server-url>");
        std::process::exit(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    eprintln!("scenario {scenario} against {url}");
    let folder = std::env::temp_dir();
    let cli = McpCliConfig {
        configs: vec![
            json!({"mcpServers": {"conformance": {"type": "http", "url": url}}}).to_string(),
        ],
        strict: true,
    };
    let planned = plan(&folder, &McpSettings::default(), &cli, None, &|n| {
        std::env::var(n).ok()
    });
    let limits = Limits {
        startup: Duration::from_secs(20),
        tool_call: Some(Duration::from_secs(20)),
        ..Limits::default()
    };
    let manager = McpManager::start(&folder, planned, limits, Arc::new(RecordingSink::default()));
    manager.settled(Duration::from_secs(25)).await;
    let state = manager.status("conformance").map(|s| s.state);
    if state != Some(McpServerState::Ready) {
        eprintln!("not connected: {state:?}");
        std::process::exit(1);
    }
    let mut rt = TestRuntime::new(&folder)
        .mode(PermissionMode::BypassPermissions)
        .build();
    rt.pool = rt.pool.clone().with_live_mcp(manager.tools());
    let mut ok = true;
    for spec in rt
        .offered_specs()
        .into_iter()
        .filter(|s| s.name.starts_with("mcp__conformance__"))
    {
        let input = arguments(&spec.input_schema);
        let result = call(&rt, &spec.name, &input).await;
        eprintln!("{} {input} -> ok={} {}", spec.name, result.ok, result.text);
        ok &= result.ok;
    }
    drop(manager);
    std::process::exit(if ok { 0 } else { 1 });
}
