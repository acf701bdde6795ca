//! A loopback stand-in for the GitHub REST API (axum on 127.0.0.1), the one service the GitHub tools' tests fake
//! because there is no network: it serves the JSON a test puts at a path with an ETag (answering `304` to a
//! matching `If-None-Match`), answers a rate-limited path with `403` and GitHub's rate-limit headers, takes
//! `POST /repos/{o}/{r}/pulls`, and records every request.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// One request the fake saw.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    /// Without the query.
    pub path: String,
    pub if_none_match: Option<String>,
    pub authorization: Option<String>,
    pub status: u16,
    pub body: Value,
}

#[derive(Debug, Default)]
struct Inner {
    resources: HashMap<String, Value>,
    rate_limited: HashMap<String, u64>,
    seen: Vec<Seen>,
}

/// The running fake; it stops when dropped.
pub struct FakeGithub {
    pub url: String,
    inner: Arc<Mutex<Inner>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeGithub {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn etag_of(value: &Value) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    value.to_string().hash(&mut hasher);
    format!("\"{:016x}\"", hasher.finish())
}

async fn answer(
    State(inner): State<Arc<Mutex<Inner>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let mut inner = inner.lock().expect("fake github");
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let (status, response) = if method == Method::POST && path.ends_with("/pulls") {
        let number = 42;
        let html = format!(
            "https://github.com{}/{number}",
            path.trim_start_matches("/repos").replace("/pulls", "/pull")
        );
        (
            StatusCode::CREATED,
            (
                StatusCode::CREATED,
                axum::Json(json!({"number": number, "html_url": html})),
            )
                .into_response(),
        )
    } else if let Some(after) = inner.rate_limited.get(&path) {
        let reset = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default()
            + after;
        (
            StatusCode::FORBIDDEN,
            (
                StatusCode::FORBIDDEN,
                [
                    ("retry-after", after.to_string()),
                    ("x-ratelimit-remaining", "0".to_string()),
                    ("x-ratelimit-reset", reset.to_string()),
                ],
                axum::Json(json!({"message": "API rate limit exceeded"})),
            )
                .into_response(),
        )
    } else if let Some(value) = inner.resources.get(&path) {
        let etag = etag_of(value);
        if header("if-none-match").as_deref() == Some(etag.as_str()) {
            (
                StatusCode::NOT_MODIFIED,
                StatusCode::NOT_MODIFIED.into_response(),
            )
        } else {
            (
                StatusCode::OK,
                (StatusCode::OK, [("etag", etag)], axum::Json(value.clone())).into_response(),
            )
        }
    } else {
        (
            StatusCode::NOT_FOUND,
            (
                StatusCode::NOT_FOUND,
                axum::Json(json!({"message": "Not Found"})),
            )
                .into_response(),
        )
    };
    inner.seen.push(Seen {
        method: method.to_string(),
        path,
        if_none_match: header("if-none-match"),
        authorization: header("authorization"),
        status: status.as_u16(),
        body,
    });
    response
}

impl FakeGithub {
    /// Starts the fake on a free loopback port.
    pub async fn start() -> Self {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let app = Router::new().fallback(answer).with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, inner, task }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("fake github")
    }

    /// Serves `value` at `path` (from now on).
    pub fn set(&self, path: &str, value: Value) {
        self.inner().resources.insert(path.to_string(), value);
    }

    /// Answers GETs of `path` with a rate-limit refusal asking to wait `secs`.
    pub fn rate_limit(&self, path: &str, secs: u64) {
        self.inner().rate_limited.insert(path.to_string(), secs);
    }

    /// Every request so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.inner().seen.clone()
    }

    /// The requests to `path` so far.
    pub fn seen_at(&self, path: &str) -> Vec<Seen> {
        self.seen().into_iter().filter(|s| s.path == path).collect()
    }

    /// An open pull request `owner/repo#number` with head `sha`, no reviews or comments, and one running check.
    pub fn open_pr(&self, owner: &str, repo: &str, number: u64, sha: &str) {
        let base = format!("/repos/{owner}/{repo}");
        self.set(
            &format!("{base}/pulls/{number}"),
            json!({
                "number": number,
                "title": "Make the widgets faster",
                "state": "open",
                "merged": false,
                "html_url": format!("https://github.com/{owner}/{repo}/pull/{number}"),
                "head": {"sha": sha, "ref": "fast"},
            }),
        );
        self.set(&format!("{base}/pulls/{number}/reviews"), json!([]));
        self.set(&format!("{base}/pulls/{number}/comments"), json!([]));
        self.set(&format!("{base}/issues/{number}/comments"), json!([]));
        self.set(
            &format!("{base}/commits/{sha}/check-runs"),
            json!({"total_count": 1, "check_runs": [{"id": 900, "name": "ci", "status": "in_progress", "conclusion": null}]}),
        );
    }
}
