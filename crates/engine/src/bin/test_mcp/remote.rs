//! The test server's remote variants: streamable HTTP guarded by bearer tokens (401 with a `WWW-Authenticate`
//! challenge naming its protected-resource metadata, which names the authorization server given), and the older
//! HTTP+SSE transport (GET `/sse` opens the stream and names `/message?session=N`, where messages are POSTed).

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::channel::mpsc;
use futures::{SinkExt, StreamExt};
use rmcp::ServiceExt;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use serde_json::json;

use crate::TestServer;

/// Serves streamable HTTP at `/mcp` on `addr`; with `tokens`, only requests bearing one of them get through and
/// `/.well-known/oauth-protected-resource/mcp` names `auth_server`.
pub async fn serve_http(
    addr: &str,
    tokens: Option<Vec<String>>,
    auth_server: Option<String>,
) -> Result<(), Box<dyn std::error::Error>> {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let base = format!("http://{}", listener.local_addr()?);
    let service = StreamableHttpService::new(
        || Ok(TestServer::default()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let mut mcp = axum::Router::new().nest_service("/mcp", service);
    if let Some(tokens) = tokens {
        let metadata = format!("{base}/.well-known/oauth-protected-resource/mcp");
        let challenge = format!("Bearer resource_metadata=\"{metadata}\", scope=\"mcp:tools\"");
        let tokens = Arc::new(tokens);
        mcp = mcp.layer(axum::middleware::from_fn(
            move |req: Request, next: Next| {
                let tokens = tokens.clone();
                let challenge = challenge.clone();
                async move {
                    let bearer = req
                        .headers()
                        .get(header::AUTHORIZATION)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.strip_prefix("Bearer "))
                        .map(str::to_string);
                    if bearer.is_some_and(|b| tokens.contains(&b)) {
                        return next.run(req).await;
                    }
                    let mut response = (StatusCode::UNAUTHORIZED, "sign in first").into_response();
                    if let Ok(value) = HeaderValue::from_str(&challenge) {
                        response
                            .headers_mut()
                            .insert(header::WWW_AUTHENTICATE, value);
                    }
                    response
                }
            },
        ));
        let document = json!({
            "resource": format!("{base}/mcp"),
            "authorization_servers": [auth_server.unwrap_or_default()],
            "scopes_supported": ["mcp:tools"],
        });
        mcp = mcp.route(
            "/.well-known/oauth-protected-resource/mcp",
            axum::routing::get(move || {
                let document = document.clone();
                async move { axum::Json(document) }
            }),
        );
    }
    println!("listening on {base}/mcp");
    std::io::stdout().flush()?;
    axum::serve(listener, mcp).await?;
    Ok(())
}

/// The open streams of the older transport, by session.
type Sessions = Arc<Mutex<HashMap<String, mpsc::Sender<ClientJsonRpcMessage>>>>;

/// Serves the older HTTP+SSE transport: GET `/sse`, POST `/message?session=N` (a POST to `/sse` gets 405).
pub async fn serve_legacy_sse(addr: &str) -> Result<(), Box<dyn std::error::Error>> {
    let sessions: Sessions = Arc::default();
    let router = axum::Router::new()
        .route("/sse", axum::routing::get(open_stream))
        .route("/message", axum::routing::post(post_message))
        .with_state(sessions);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("listening on http://{}/sse", listener.local_addr()?);
    std::io::stdout().flush()?;
    axum::serve(listener, router).await?;
    Ok(())
}

async fn open_stream(State(sessions): State<Sessions>) -> Response {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let id = NEXT.fetch_add(1, Ordering::Relaxed).to_string();
    let (client_tx, client_rx) = mpsc::channel::<ClientJsonRpcMessage>(16);
    let (server_tx, server_rx) = mpsc::channel::<ServerJsonRpcMessage>(16);
    if let Ok(mut all) = sessions.lock() {
        all.insert(id.clone(), client_tx);
    }
    tokio::spawn(async move {
        if let Ok(service) = TestServer::default().serve((server_tx, client_rx)).await {
            let _ = service.waiting().await;
        }
    });
    let first = format!("event: endpoint\ndata: /message?session={id}\n\n");
    let events = futures::stream::once(async move { first }).chain(server_rx.map(|message| {
        let data = serde_json::to_string(&message).unwrap_or_default();
        format!("event: message\ndata: {data}\n\n")
    }));
    let body = Body::from_stream(events.map(Ok::<_, Infallible>));
    ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response()
}

async fn post_message(
    State(sessions): State<Sessions>,
    Query(query): Query<HashMap<String, String>>,
    body: String,
) -> StatusCode {
    let Ok(message) = serde_json::from_str::<ClientJsonRpcMessage>(&body) else {
        return StatusCode::BAD_REQUEST;
    };
    let sender = query
        .get("session")
        .and_then(|id| sessions.lock().ok()?.get(id).cloned());
    let Some(mut sender) = sender else {
        return StatusCode::NOT_FOUND;
    };
    match sender.send(message).await {
        Ok(()) => StatusCode::ACCEPTED,
        Err(_) => StatusCode::GONE,
    }
}
