//! The GitHub REST API over HTTP (`reqwest`): conditional GETs with `If-None-Match` (a `304 Not Modified` costs no
//! rate limit and says nothing changed), POSTs, and GitHub's rate-limit answers (`Retry-After`, or
//! `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`) read into how long to wait.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::StatusCode;
use reqwest::header::{
    ACCEPT, AUTHORIZATION, ETAG, HeaderMap, IF_NONE_MATCH, RETRY_AFTER, USER_AGENT,
};
use serde_json::Value;

/// The longest wait a rate-limit answer is taken at (a later reset is waited for in steps of this).
pub const MAX_BACKOFF: Duration = Duration::from_secs(3600);
/// How long a request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a call to the API failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    /// The rate limit is used up (or a secondary limit hit): try again after this long.
    #[error("GitHub's rate limit is reached; it asks to wait {} s", .0.as_secs())]
    RateLimited(Duration),
    /// GitHub answered with an error status.
    #[error("GitHub answered {status} to {method} {path}: {message}")]
    Status {
        method: &'static str,
        path: String,
        status: u16,
        message: String,
    },
    /// GitHub could not be reached (or the answer not read).
    #[error("GitHub could not be reached at {url}: {why}")]
    Unreachable { url: String, why: String },
    /// The answer is not the JSON expected.
    #[error("GitHub's answer to {path} cannot be read: {why}")]
    Shape { path: String, why: String },
}

/// What a conditional GET found.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetched {
    /// `304`: unchanged since the ETag given.
    NotModified { poll_interval: Option<Duration> },
    /// The resource, with its ETag (for the next request) and the poll interval GitHub asks for.
    Fresh {
        etag: Option<String>,
        body: Value,
        poll_interval: Option<Duration>,
    },
}

/// A client of one API base URL with one token.
#[derive(Debug, Clone)]
pub struct Api {
    base: String,
    token: String,
    http: reqwest::Client,
}

impl Api {
    /// A client of `base` (no trailing `/`) sending `token`.
    pub fn new(base: &str, token: &str) -> Result<Self, ApiError> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| ApiError::Unreachable {
                url: base.to_string(),
                why: e.to_string(),
            })?;
        Ok(Self {
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            http,
        })
    }

    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .header(ACCEPT, "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header(USER_AGENT, concat!("tandem/", env!("CARGO_PKG_VERSION")))
            .header(AUTHORIZATION, format!("Bearer {}", self.token))
    }

    /// `GET path`, conditional on `etag` when given.
    pub async fn get(&self, path: &str, etag: Option<&str>) -> Result<Fetched, ApiError> {
        let mut request = self.request(reqwest::Method::GET, path);
        if let Some(etag) = etag {
            request = request.header(IF_NONE_MATCH, etag);
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.unreachable(path, e))?;
        let status = response.status();
        let poll_interval = header_secs(response.headers(), "x-poll-interval");
        if status == StatusCode::NOT_MODIFIED {
            return Ok(Fetched::NotModified { poll_interval });
        }
        let etag = response
            .headers()
            .get(ETAG)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = self.body("GET", path, response).await?;
        Ok(Fetched::Fresh {
            etag,
            body,
            poll_interval,
        })
    }

    /// `POST path` with the JSON `body`; the answer's JSON.
    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, ApiError> {
        let response = self
            .request(reqwest::Method::POST, path)
            .json(body)
            .send()
            .await
            .map_err(|e| self.unreachable(path, e))?;
        self.body("POST", path, response).await
    }

    fn unreachable(&self, path: &str, e: reqwest::Error) -> ApiError {
        ApiError::Unreachable {
            url: format!("{}{path}", self.base),
            why: e.to_string(),
        }
    }

    /// The JSON of a successful answer, or the error an unsuccessful one means.
    async fn body(
        &self,
        method: &'static str,
        path: &str,
        response: reqwest::Response,
    ) -> Result<Value, ApiError> {
        let status = response.status();
        let waited = rate_limit_wait(status, response.headers(), SystemTime::now());
        let text = response
            .text()
            .await
            .map_err(|e| self.unreachable(path, e))?;
        if let Some(wait) = waited {
            return Err(ApiError::RateLimited(wait));
        }
        if !status.is_success() {
            let message = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_string))
                .unwrap_or_else(|| crate::text::cut_middle(text.trim(), 300, "answer"));
            return Err(ApiError::Status {
                method,
                path: path.to_string(),
                status: status.as_u16(),
                message,
            });
        }
        serde_json::from_str(&text).map_err(|e| ApiError::Shape {
            path: path.to_string(),
            why: e.to_string(),
        })
    }
}

/// How long a rate-limited answer (`403` or `429`) asks to wait: `Retry-After` seconds, else until
/// `X-RateLimit-Reset` when `X-RateLimit-Remaining` is `0` (at least a second, at most [`MAX_BACKOFF`]); `None` for
/// any other answer (a `403` without them is a refusal).
pub fn rate_limit_wait(
    status: StatusCode,
    headers: &HeaderMap,
    now: SystemTime,
) -> Option<Duration> {
    if status != StatusCode::FORBIDDEN && status != StatusCode::TOO_MANY_REQUESTS {
        return None;
    }
    let clamp = |d: Duration| d.clamp(Duration::from_secs(1), MAX_BACKOFF);
    if let Some(after) = header_secs(headers, RETRY_AFTER.as_str()) {
        return Some(clamp(after));
    }
    let remaining = headers
        .get("x-ratelimit-remaining")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if remaining != Some(0) {
        return (status == StatusCode::TOO_MANY_REQUESTS).then_some(Duration::from_secs(60));
    }
    let now = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    let reset = header_secs(headers, "x-ratelimit-reset").unwrap_or(now + Duration::from_secs(60));
    Some(clamp(reset.saturating_sub(now)))
}

/// A header holding a whole number of seconds.
fn header_secs(headers: &HeaderMap, name: &str) -> Option<Duration> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limit_answers_say_how_long_to_wait() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000);
        let headers = |pairs: &[(&'static str, &str)]| {
            let mut map = HeaderMap::new();
            for (k, v) in pairs {
                map.insert(*k, v.parse().expect("value"));
            }
            map
        };
        let forbidden = StatusCode::FORBIDDEN;
        type Case<'a> = (StatusCode, &'a [(&'static str, &'a str)], Option<u64>);
        let cases: &[Case<'_>] = &[
            (StatusCode::OK, &[("retry-after", "5")], None),
            (forbidden, &[], None),
            (forbidden, &[("retry-after", "5")], Some(5)),
            (forbidden, &[("retry-after", "0")], Some(1)),
            (forbidden, &[("retry-after", "999999")], Some(3600)),
            (
                forbidden,
                &[
                    ("x-ratelimit-remaining", "0"),
                    ("x-ratelimit-reset", "1030"),
                ],
                Some(30),
            ),
            (
                forbidden,
                &[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "900")],
                Some(1),
            ),
            (forbidden, &[("x-ratelimit-remaining", "12")], None),
            (StatusCode::TOO_MANY_REQUESTS, &[], Some(60)),
        ];
        for (status, pairs, want) in cases {
            let got = rate_limit_wait(*status, &headers(pairs), now);
            assert_eq!(got, want.map(Duration::from_secs), "{status} {pairs:?}");
        }
    }
}
