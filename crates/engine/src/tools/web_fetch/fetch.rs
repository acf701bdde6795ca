//! Downloading one page: connections pinned to the addresses the permission check saw (no second lookup that
//! could answer differently), redirects followed by hand and only on the same host, the body read up to a size
//! limit, the whole download under a time limit.

use std::net::SocketAddr;
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{CONTENT_TYPE, LOCATION};

use super::convert::page_text;
use super::url_rules::{host_of, same_site};

/// A fetched page as text.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The URL the page came from (after same-host redirects).
    pub url: String,
    pub status: u16,
    /// Bytes of the body as received.
    pub bytes: u64,
    /// The body as text (HTML converted to markdown).
    pub text: String,
}

/// What a download ended with.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetched {
    Page(Page),
    /// The server sent the client to another host; nothing was fetched from it.
    CrossHostRedirect {
        from: String,
        to: String,
        status: u16,
    },
}

/// Limits of one download.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_bytes: u64,
    pub timeout: Duration,
    pub max_redirects: usize,
}

/// Downloads `url`; `pinned` are the addresses its host resolved to (empty: let the client look it up).
pub async fn fetch(url: Url, pinned: &[SocketAddr], limits: Limits) -> Result<Fetched, String> {
    match tokio::time::timeout(limits.timeout, fetch_inner(url, pinned, limits)).await {
        Ok(result) => result,
        Err(_) => Err(format!(
            "The page did not arrive within {} seconds.",
            limits.timeout.as_secs()
        )),
    }
}

async fn fetch_inner(
    mut url: Url,
    pinned: &[SocketAddr],
    limits: Limits,
) -> Result<Fetched, String> {
    let host = host_of(&url);
    let mut builder = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("Tandem/", env!("CARGO_PKG_VERSION"), " (WebFetch)"))
        .connect_timeout(limits.timeout);
    if !pinned.is_empty() {
        builder = builder.resolve_to_addrs(&host, pinned);
    }
    let client = builder
        .build()
        .map_err(|e| format!("The HTTP client could not start: {e}"))?;
    let mut redirects = 0usize;
    loop {
        let response = client
            .get(url.clone())
            .header(
                "accept",
                "text/markdown, text/html;q=0.9, text/*;q=0.8, */*;q=0.5",
            )
            .send()
            .await
            .map_err(|e| format!("Fetching {url} failed: {}", error_chain(&e)))?;
        let status = response.status();
        if status.is_redirection()
            && let Some(location) = response.headers().get(LOCATION)
        {
            let location = location
                .to_str()
                .map_err(|_| format!("{url} redirected to an unreadable location."))?;
            let next = url
                .join(location)
                .map_err(|e| format!("{url} redirected to an invalid URL {location:?}: {e}"))?;
            if !same_site(&url, &next) {
                return Ok(Fetched::CrossHostRedirect {
                    from: url.to_string(),
                    to: next.to_string(),
                    status: status.as_u16(),
                });
            }
            redirects += 1;
            if redirects > limits.max_redirects {
                return Err(format!(
                    "{url} redirected more than {} times.",
                    limits.max_redirects
                ));
            }
            url = next;
            continue;
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let body = read_limited(response, limits.max_bytes).await?;
        if !status.is_success() {
            let snippet: String = String::from_utf8_lossy(&body).chars().take(500).collect();
            return Err(format!(
                "{url} answered HTTP {}: {}",
                status.as_u16(),
                snippet.trim()
            ));
        }
        let bytes = body.len() as u64;
        let text = tokio::task::spawn_blocking(move || page_text(&content_type, &body))
            .await
            .map_err(|e| format!("The page could not be converted: {e}"))??;
        return Ok(Fetched::Page(Page {
            url: url.to_string(),
            status: status.as_u16(),
            bytes,
            text,
        }));
    }
}

/// The body, refused as soon as it is larger than `max` bytes.
async fn read_limited(mut response: reqwest::Response, max: u64) -> Result<Vec<u8>, String> {
    let too_large = || format!("The page is larger than the {} MB limit.", max / 1_000_000);
    if response.content_length().is_some_and(|len| len > max) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| format!("Reading the page failed: {}", error_chain(&e)))?
    {
        if body.len() as u64 + chunk.len() as u64 > max {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// An error with its causes, for the model.
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
