//! WebFetch against a local HTTP server on loopback: markdown, redirects, limits, the cache, the model's answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use futures::future::BoxFuture;

use super::*;
use crate::tool::{CompletionError, CompletionRequest, ModelCompleter};

/// A local site; counts the requests for `/page`.
struct Site {
    url: String,
    page_hits: Arc<AtomicUsize>,
}

async fn site() -> Site {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let app = Router::new()
        .route(
            "/page",
            get(move || {
                counter.fetch_add(1, Ordering::SeqCst);
                async {
                    (
                        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                        "<html><body><h1>Title</h1><p>Some <em>text</em>.</p><script>x()</script></body></html>",
                    )
                }
            }),
        )
        .route("/hop", get(|| async { Redirect::temporary("/page") }))
        .route(
            "/away",
            get(move || async move {
                Redirect::permanent(&format!("http://localhost:{}/page", addr.port()))
            }),
        )
        .route("/loop", get(|| async { Redirect::temporary("/loop") }))
        .route(
            "/big",
            get(|| async { ([(header::CONTENT_TYPE, "text/plain")], "x".repeat(2_000)) }),
        )
        .route("/missing", get(|| async { (StatusCode::NOT_FOUND, "no such page") }))
        .route("/image", get(|| async { ([(header::CONTENT_TYPE, "image/png")], vec![0x89u8, b'P']) }))
        .route("/slow", get(|| async { std::future::pending::<Response>().await }))
        .route(
            "/headers",
            get(|headers: HeaderMap| async move {
                let agent = headers
                    .get(header::USER_AGENT)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_string();
                ([(header::CONTENT_TYPE, "text/plain")], agent).into_response()
            }),
        );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Site {
        url: format!("http://127.0.0.1:{}", addr.port()),
        page_hits: hits,
    }
}

fn input(url: String) -> WebFetchInput {
    WebFetchInput {
        url,
        prompt: "What is the title?".into(),
    }
}

async fn run(tool: &WebFetchTool, ctx: &ToolContext, url: String) -> Result<ToolOutput, ToolError> {
    let input = input(url);
    tool.validate_input(&input, ctx)
        .await
        .map_err(ToolError::ToModel)?;
    tool.call(&input, ctx).await
}

fn ctx() -> ToolContext {
    ToolContext {
        tool_use_id: "toolu_1".into(),
        ..ToolContext::new(std::env::temp_dir())
    }
}

fn fetch_detail(out: &ToolOutput) -> (String, bool, bool, Option<String>) {
    match &out.detail {
        Some(ToolDetail::WebFetch {
            url,
            cached,
            summarized,
            redirect,
            ..
        }) => (url.clone(), *cached, *summarized, redirect.clone()),
        other => panic!("not a WebFetch detail: {other:?}"),
    }
}

#[tokio::test]
async fn an_html_page_is_given_as_markdown() {
    let site = site().await;
    let out = run(
        &WebFetchTool::default(),
        &ctx(),
        format!("{}/page", site.url),
    )
    .await
    .expect("fetched");
    let text = out.content.as_text();
    assert!(
        text.contains("# Title") && text.contains("*text*"),
        "{text}"
    );
    assert!(!text.contains("x()"), "{text}");
    let (url, cached, summarized, redirect) = fetch_detail(&out);
    assert_eq!(url, format!("{}/page", site.url), "loopback keeps http");
    assert!(!cached && !summarized && redirect.is_none());
}

#[tokio::test]
async fn same_host_redirects_are_followed_and_other_hosts_are_reported() {
    let site = site().await;
    let tool = WebFetchTool::default();
    let out = run(&tool, &ctx(), format!("{}/hop", site.url))
        .await
        .expect("followed");
    assert!(out.content.as_text().contains("# Title"));
    assert_eq!(fetch_detail(&out).0, format!("{}/page", site.url));

    let out = run(&tool, &ctx(), format!("{}/away", site.url))
        .await
        .expect("reported");
    let text = out.content.as_text();
    let port = site.url.rsplit(':').next().expect("a port");
    let target = format!("http://localhost:{port}/page");
    assert!(
        text.contains("REDIRECT DETECTED") && text.contains(&target),
        "{text}"
    );
    assert_eq!(fetch_detail(&out).3, Some(target));
    assert_eq!(
        site.page_hits.load(Ordering::SeqCst),
        1,
        "the other host was not fetched"
    );

    let err = run(&tool, &ctx(), format!("{}/loop", site.url))
        .await
        .expect_err("a loop");
    assert!(
        err.to_string().contains("redirected more than 10 times"),
        "{err}"
    );
}

#[tokio::test]
async fn pages_over_the_size_limit_and_failed_pages_are_errors() {
    let site = site().await;
    let small = WebFetchTool::new(WebFetchOptions {
        max_bytes: 1_000,
        ..WebFetchOptions::default()
    });
    let err = run(&small, &ctx(), format!("{}/big", site.url))
        .await
        .expect_err("too big");
    assert!(err.to_string().contains("larger than"), "{err}");
    let tool = WebFetchTool::default();
    let err = run(&tool, &ctx(), format!("{}/missing", site.url))
        .await
        .expect_err("404");
    assert!(
        err.to_string().contains("HTTP 404") && err.to_string().contains("no such page"),
        "{err}"
    );
    let err = run(&tool, &ctx(), format!("{}/image", site.url))
        .await
        .expect_err("binary");
    assert!(err.to_string().contains("image/png"), "{err}");
}

#[tokio::test]
async fn a_page_that_does_not_arrive_in_time_is_an_error() {
    let site = site().await;
    let tool = WebFetchTool::new(WebFetchOptions {
        timeout: Duration::from_millis(200),
        ..WebFetchOptions::default()
    });
    let err = run(&tool, &ctx(), format!("{}/slow", site.url))
        .await
        .expect_err("timed out");
    assert!(err.to_string().contains("did not arrive"), "{err}");
}

#[tokio::test]
async fn a_page_is_fetched_once_while_it_is_cached() {
    let site = site().await;
    let tool = WebFetchTool::default();
    let first = run(&tool, &ctx(), format!("{}/page", site.url))
        .await
        .expect("fetched");
    let second = run(&tool, &ctx(), format!("{}/page", site.url))
        .await
        .expect("cached");
    assert_eq!(site.page_hits.load(Ordering::SeqCst), 1);
    assert!(!fetch_detail(&first).1 && fetch_detail(&second).1);
    assert_eq!(first.content.as_text(), second.content.as_text());

    let uncached = WebFetchTool::new(WebFetchOptions {
        cache_ttl: Duration::ZERO,
        ..WebFetchOptions::default()
    });
    run(&uncached, &ctx(), format!("{}/page", site.url))
        .await
        .expect("fetched");
    run(&uncached, &ctx(), format!("{}/page", site.url))
        .await
        .expect("fetched again");
    assert_eq!(site.page_hits.load(Ordering::SeqCst), 3);
}

/// Answers every completion with a fixed text and keeps the prompts.
#[derive(Debug, Default)]
struct Answering {
    prompts: Mutex<Vec<String>>,
}

impl ModelCompleter for Answering {
    fn complete(
        &self,
        request: CompletionRequest,
    ) -> BoxFuture<'_, Result<String, CompletionError>> {
        if let Ok(mut prompts) = self.prompts.lock() {
            prompts.push(request.prompt);
        }
        Box::pin(async { Ok("The title is Title.".to_string()) })
    }

    fn model_name(&self) -> String {
        "small".into()
    }
}

#[tokio::test]
async fn the_prompt_is_answered_from_the_page_by_the_small_model() {
    let site = site().await;
    let completer = Arc::new(Answering::default());
    let ctx = ToolContext {
        completer: Some(completer.clone()),
        ..ctx()
    };
    let out = run(&WebFetchTool::default(), &ctx, format!("{}/page", site.url))
        .await
        .expect("answered");
    assert_eq!(out.content.as_text(), "The title is Title.");
    assert!(fetch_detail(&out).2, "summarized");
    let prompts = completer.prompts.lock().expect("prompts").clone();
    assert_eq!(prompts.len(), 1);
    assert!(
        prompts[0].contains("# Title") && prompts[0].contains("What is the title?"),
        "{}",
        prompts[0]
    );
}

#[tokio::test]
async fn loopback_and_private_hosts_are_named_in_the_permission_subject() {
    let tool = WebFetchTool::default();
    let ctx = ctx();
    let subject = |url: &str| tool.permission_subject(&input(url.into()), &ctx);
    assert_eq!(
        subject("http://127.0.0.1:8080/x"),
        PermissionSubject::Fetch {
            url: "http://127.0.0.1:8080/x".into(),
            private_address: Some("127.0.0.1 (loopback)".into())
        }
    );
    assert!(matches!(
        subject("http://localhost/"),
        PermissionSubject::Fetch {
            private_address: Some(_),
            ..
        }
    ));
    assert!(
        matches!(subject("http://2130706433/"), PermissionSubject::Fetch { private_address: Some(a), .. } if a.starts_with("127.0.0.1")),
        "a decimal spelling of loopback"
    );
    assert!(
        matches!(subject("http://10.1.1.1/"), PermissionSubject::Fetch { url, private_address: Some(_) } if url == "https://10.1.1.1/")
    );
    assert_eq!(
        subject("http://example.com/a"),
        PermissionSubject::Fetch {
            url: "https://example.com/a".into(),
            private_address: None
        }
    );
    // A name that resolved to a private address during validation is flagged too.
    tool.pending().insert(
        "toolu_1".into(),
        vec!["192.168.7.7:443".parse().expect("an address")],
    );
    assert!(
        matches!(subject("https://intranet.example/"), PermissionSubject::Fetch { private_address: Some(a), .. } if a.contains("192.168.7.7"))
    );
}

#[tokio::test]
async fn the_request_names_the_client() {
    let site = site().await;
    let out = run(
        &WebFetchTool::default(),
        &ctx(),
        format!("{}/headers", site.url),
    )
    .await
    .expect("fetched");
    assert!(
        out.content.as_text().starts_with("Tandem/"),
        "{}",
        out.content.as_text()
    );
}
