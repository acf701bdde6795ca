//! The adapter the official MCP client conformance suite (`@modelcontextprotocol/conformance client`) runs:
//! `tandem-mcp-conformance <server-url>`, with the scenario in `MCP_CONFORMANCE_SCENARIO`. It drives Tandem's own
//! MCP client (the session's manager, its tools and permission-free runtime) against the scenario's server:
//! connect over streamable HTTP (with the scenario's pre-registered client configured as the server's `oauth`), sign
//! in when the server asks (without a person when the configured client may; else the authorization page is
//! followed headlessly: its redirect goes to the client's loopback listener, as a browser's would), list the tools,
//! call each one with arguments made from its schema, and exit.
//! Exit code 0 when the connection and the calls worked, 1 otherwise (the suite's checks decide the scenario).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::mcp::oauth::{SignInOptions, TokenStore};
use tandem_engine::mcp::{ClientSetup, Limits, McpCliConfig, McpManager, plan};
use tandem_engine::settings::McpSettings;
use tandem_engine::testing::{HeadlessOpener, SchemaDefaults, TestRuntime, call};
use tandem_protocol::{McpServerState, PermissionMode};

/// Sign-ins tried before giving up on a server that keeps refusing.
const MAX_SIGN_INS: u32 = 3;

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

/// What the scenario tells the client (a pre-registered client's id and secret, for instance).
fn context() -> Value {
    std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null)
}

/// The server's configuration: its URL, and the pre-registered client the scenario names as `oauth`, as a person
/// would write it in `.mcp.json`.
fn server_config(url: &str) -> Value {
    let context = context();
    let mut server = json!({"type": "http", "url": url});
    if let Some(id) = context.get("client_id").and_then(Value::as_str) {
        let mut oauth = json!({"clientId": id});
        if let Some(secret) = context.get("client_secret").and_then(Value::as_str) {
            oauth["clientSecret"] = json!(secret);
        }
        // A key given as text goes to a file of its own, as a person keeps one.
        if let Some(pem) = context.get("private_key_pem").and_then(Value::as_str) {
            let path = key_file();
            match std::fs::write(&path, pem) {
                Ok(()) => oauth["privateKeyFile"] = json!(path.display().to_string()),
                Err(e) => eprintln!("the scenario's key could not be written: {e}"),
            }
        }
        server["oauth"] = oauth;
    }
    server
}

/// Where a scenario's private key is written for the run (removed at the end).
fn key_file() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tandem-conformance-key-{}.pem", std::process::id()))
}

/// The pre-registered client the scenario names, if any.
fn sign_in_options() -> SignInOptions {
    let context = context();
    let text = |k: &str| context.get(k).and_then(Value::as_str).map(str::to_string);
    SignInOptions {
        client_id: text("client_id"),
        client_secret: text("client_secret"),
        // The document the suite's authorization server expects a client to name.
        client_metadata_url: Some("https://conformance-test.local/client-metadata.json".into()),
        ..SignInOptions::default()
    }
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
        configs: vec![json!({"mcpServers": {"conformance": server_config(&url)}}).to_string()],
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
    let auth = ClientSetup {
        tokens: TokenStore::memory(),
        opener: Arc::new(HeadlessOpener),
        elicitor: Some(Arc::new(SchemaDefaults)),
    };
    let manager = McpManager::start_signed(
        &folder,
        planned,
        limits,
        Arc::new(RecordingSink::default()),
        None,
        auth,
    );
    let mut rt = TestRuntime::new(&folder)
        .mode(PermissionMode::BypassPermissions)
        .build();
    rt.pool = rt.pool.clone().with_live_mcp(manager.tools());
    let state = || manager.status("conformance").map(|s| s.state);
    let needs_sign_in =
        |s: Option<McpServerState>| matches!(s, Some(McpServerState::NeedsSignIn { .. }));
    manager.settled(Duration::from_secs(25)).await;
    let mut sign_ins = 0;
    let ok = loop {
        if needs_sign_in(state()) {
            // A client gives up after a few sign-ins that do not get it the access it needs.
            if sign_ins == MAX_SIGN_INS {
                eprintln!("still refused after {MAX_SIGN_INS} sign-ins");
                break false;
            }
            sign_ins += 1;
            match manager.sign_in("conformance", sign_in_options()).await {
                Ok(started) => eprintln!("signing in at {}", started.authorization_url),
                Err(e) => {
                    eprintln!("sign-in failed: {e}");
                    break false;
                }
            }
            manager
                .wait_until(Duration::from_secs(25), |all| {
                    all.iter().all(|s| match &s.state {
                        McpServerState::Ready | McpServerState::Failed { .. } => true,
                        McpServerState::NeedsSignIn {
                            error,
                            authorization_url,
                        } => error.is_some() || authorization_url.is_none(),
                        _ => false,
                    })
                })
                .await;
            continue;
        }
        if state() != Some(McpServerState::Ready) {
            eprintln!("not connected: {:?}", state());
            break false;
        }
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
        // A call refused for want of scope lists the server as needing sign-in again: sign in and retry.
        let refused = !ok
            && manager
                .wait_until(Duration::from_secs(5), |all| {
                    all.iter()
                        .all(|s| matches!(s.state, McpServerState::NeedsSignIn { .. }))
                })
                .await;
        if !refused {
            break ok;
        }
    };
    drop(manager);
    let _ = std::fs::remove_file(key_file());
    std::process::exit(if ok { 0 } else { 1 });
}
