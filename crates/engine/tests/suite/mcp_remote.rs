//! Remote MCP servers beyond plain streamable HTTP: a server guarded by OAuth (an authorization server built here
//! with axum, the workspace's test server checking bearer tokens) is listed as needing sign-in, signed in to with
//! discovery, registration and PKCE, its token refreshed and kept in a private file for the next session; and a
//! server that speaks only the older HTTP+SSE transport is reached through the fallback.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect};
use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::mcp::legacy_sse::{Event, events};
use tandem_engine::mcp::oauth::TokenStore;
use tandem_engine::mcp::{ClientSetup, McpCliConfig, McpManager, auth_tool, plan};
use tandem_engine::settings::McpSettings;
use tandem_engine::testing::{HeadlessOpener, TestRuntime, call};
use tandem_protocol::{McpServerState, PermissionMode};

use super::mcp_support::{HttpServer, PATIENCE, patient, ready, runtime};

/// What the authorization server saw.
#[derive(Debug, Default)]
struct Seen {
    registrations: Vec<Value>,
    authorizations: Vec<HashMap<String, String>>,
    token_requests: Vec<HashMap<String, String>>,
    /// The code challenge of the last authorization request.
    challenge: Option<String>,
}

type Log = Arc<Mutex<Seen>>;

/// An authorization server on loopback: RFC 8414 metadata, dynamic registration, an authorization endpoint that
/// consents at once, and a token endpoint that hands out `first-token` (already expired) for a code and
/// `fresh-token` for the refresh token. Returns its base URL.
async fn authorization_server(log: Log) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let metadata = json!({
        "issuer": base,
        "authorization_endpoint": format!("{base}/authorize"),
        "token_endpoint": format!("{base}/token"),
        "registration_endpoint": format!("{base}/register"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
    });
    let router = axum::Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            axum::routing::get(move || {
                let metadata = metadata.clone();
                async move { axum::Json(metadata) }
            }),
        )
        .route("/register", axum::routing::post(register))
        .route("/authorize", axum::routing::get(authorize))
        .route("/token", axum::routing::post(token))
        .with_state(log);
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    base
}

async fn register(
    State(log): State<Log>,
    axum::Json(body): axum::Json<Value>,
) -> impl IntoResponse {
    let redirects = body["redirect_uris"].clone();
    log.lock().expect("log").registrations.push(body);
    (
        axum::http::StatusCode::CREATED,
        axum::Json(
            json!({"client_id": "tandem-test-client", "redirect_uris": redirects, "token_endpoint_auth_method": "none"}),
        ),
    )
}

async fn authorize(
    State(log): State<Log>,
    Query(query): Query<HashMap<String, String>>,
) -> Redirect {
    let redirect = format!(
        "{}?code=the-code&state={}",
        query["redirect_uri"], query["state"]
    );
    let mut seen = log.lock().expect("log");
    seen.challenge = query.get("code_challenge").cloned();
    seen.authorizations.push(query);
    Redirect::to(&redirect)
}

async fn token(
    State(log): State<Log>,
    axum::Form(form): axum::Form<HashMap<String, String>>,
) -> axum::Json<Value> {
    let grant = form.get("grant_type").cloned().unwrap_or_default();
    log.lock().expect("log").token_requests.push(form);
    if grant == "refresh_token" {
        axum::Json(
            json!({"access_token": "fresh-token", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-2"}),
        )
    } else {
        axum::Json(
            json!({"access_token": "first-token", "token_type": "Bearer", "expires_in": 0, "refresh_token": "refresh-1"}),
        )
    }
}

fn manager(folder: &std::path::Path, url: &str, tokens: TokenStore) -> McpManager {
    let cli = McpCliConfig {
        configs: vec![json!({"mcpServers": {"guarded": {"type": "http", "url": url}}}).to_string()],
        strict: true,
    };
    let plan = plan(folder, &McpSettings::default(), &cli, None, &|_| None);
    let auth = ClientSetup {
        tokens,
        opener: Arc::new(HeadlessOpener),
        elicitor: None,
    };
    McpManager::start_signed(
        folder,
        plan,
        patient(),
        Arc::new(RecordingSink::default()),
        None,
        auth,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guarded_server_needs_sign_in_then_signs_in_with_pkce_refreshes_and_keeps_its_token_private()
 {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = Log::default();
    let auth_server = authorization_server(log.clone()).await;
    // Only the refreshed token opens the server: a call that works proves the refresh happened.
    let server = HttpServer::start_with(&[
        "--http",
        "127.0.0.1:0",
        "--bearer",
        "fresh-token",
        "--auth-server",
        &auth_server,
    ]);
    let token_file = dir.path().join("config/mcp-tokens.json");
    let manager = manager(
        dir.path(),
        &server.url,
        TokenStore::file(token_file.clone()),
    );

    let needs = manager
        .wait_until(PATIENCE, |all| {
            all.iter()
                .any(|s| matches!(s.state, McpServerState::NeedsSignIn { .. }))
        })
        .await;
    assert!(needs, "{:?}", manager.status("guarded"));
    let mut rt = TestRuntime::new(dir.path())
        .mode(PermissionMode::BypassPermissions)
        .tools(vec![auth_tool(&manager)])
        .build();
    rt.pool = rt.pool.clone().with_live_mcp(manager.tools());
    let refused = call(&rt, "mcp__guarded__echo", &json!({"text": "hi"})).await;
    assert!(!refused.ok, "{}", refused.text);

    // The model asks to sign in; the "browser" follows the page it is given.
    let started = call(&rt, "McpAuth", &json!({"server": "guarded"})).await;
    assert!(started.ok, "{}", started.text);
    assert!(
        started.text.contains(&format!("{auth_server}/authorize?")),
        "{}",
        started.text
    );
    ready(&manager, "guarded").await;
    let answered = call(&rt, "mcp__guarded__echo", &json!({"text": "hi"})).await;
    assert!(answered.ok, "{}", answered.text);

    {
        let seen = log.lock().expect("log");
        assert_eq!(seen.registrations.len(), 1, "{seen:?}");
        let redirect = seen.registrations[0]["redirect_uris"][0]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(redirect.starts_with("http://127.0.0.1:"), "{redirect}");
        let authorization = &seen.authorizations[0];
        assert_eq!(authorization["code_challenge_method"], "S256");
        assert_eq!(authorization["resource"], server.url);
        assert_eq!(authorization["scope"], "mcp:tools");
        let exchange = &seen.token_requests[0];
        assert_eq!(exchange["grant_type"], "authorization_code");
        assert!(exchange.contains_key("code_verifier"), "{exchange:?}");
        assert_eq!(exchange["resource"], server.url);
        assert!(
            seen.token_requests
                .iter()
                .any(|t| t["grant_type"] == "refresh_token" && t["refresh_token"] == "refresh-1"),
            "{seen:?}"
        );
    }

    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&token_file)
        .expect("the tokens are saved")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let saved = std::fs::read_to_string(&token_file).expect("read");
    assert!(saved.contains("fresh-token"), "{saved}");
    drop(rt);
    drop(manager);

    // The next session uses the saved sign-in without asking.
    let again = self::manager(dir.path(), &server.url, TokenStore::file(token_file));
    ready(&again, "guarded").await;
    assert_eq!(log.lock().expect("log").authorizations.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_speaks_only_the_older_sse_transport_is_reached_by_falling_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = HttpServer::start_with(&["--legacy-sse", "127.0.0.1:0"]);
    let (manager, _) = super::mcp_support::start(
        dir.path(),
        json!({
            "fallback": {"type": "http", "url": server.url},
            "declared": {"type": "sse", "url": server.url},
        }),
        patient(),
    );
    for name in ["fallback", "declared"] {
        ready(&manager, name).await;
    }
    let (rt, _) = runtime(dir.path(), &manager);
    for name in ["fallback", "declared"] {
        let result = call(
            &rt,
            &format!("mcp__{name}__echo"),
            &json!({"text": "over sse"}),
        )
        .await;
        assert!(result.ok, "{name}: {}", result.text);
        assert!(result.text.contains("over sse"), "{name}: {}", result.text);
    }
    let status = manager.status("fallback").expect("status");
    assert!(!status.prompts.is_empty(), "{status:?}");
    assert!(!status.resources.is_empty(), "{status:?}");
}

/// An event's name and data.
type Pair = (&'static str, &'static str);

#[test]
fn the_event_stream_parser_splits_events_across_chunks() {
    let table: &[(&[&str], &[Pair])] = &[
        (
            &["event: endpoint\ndata: /m?s=1\n\n"],
            &[("endpoint", "/m?s=1")],
        ),
        (
            &["data: {\"a\":", "1}\n", "\n"],
            &[("message", "{\"a\":1}")],
        ),
        (
            &["event: message\r\ndata: x\r\ndata: y\r\n\r\n"],
            &[("message", "x\ny")],
        ),
        (&[": comment\n\nid: 3\nretry: 10\n\n"], &[]),
        (
            &["data:no-space\n\ndata: two\n\n"],
            &[("message", "no-space"), ("message", "two")],
        ),
    ];
    for (chunks, want) in table {
        let body = futures::stream::iter(
            chunks
                .iter()
                .map(|c| Ok::<_, std::io::Error>(bytes::Bytes::from(c.to_string())))
                .collect::<Vec<_>>(),
        );
        let got: Vec<Event> =
            futures::executor::block_on(futures::StreamExt::collect::<Vec<_>>(events(body)))
                .into_iter()
                .map(|e| e.expect("no body error"))
                .collect();
        let want: Vec<Event> = want
            .iter()
            .map(|(name, data)| Event {
                name: name.to_string(),
                data: data.to_string(),
            })
            .collect();
        assert_eq!(got, want, "{chunks:?}");
    }
}
