//! The switchable WebBrowser tool driving a real headless Chromium against a site the test serves on loopback: a
//! page navigated to and read, a field typed into and a form submitted by a click or by Enter, a screenshot that is
//! a whole PNG, a link to another host not followed; the permission rules (a deny rule refuses a domain, loopback
//! asks unless a rule names the host), a missing browser program, a page that never loads and a cancelled load
//! each end the call with a clear result; with its switch off the model is not offered the tool.
//!
//! The tests that start a browser skip (with a note) where no Chromium is installed.

use std::path::PathBuf;
use std::time::Duration;

use axum::Router;
use axum::extract::Query;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use base64::Engine as _;
use serde_json::{Value, json};
use tandem_engine::exec::{ToolRuntime, run_tool_use};
use tandem_engine::model::{ContentBlock, ImageSource, ResultBlock, ToolResultContent};
use tandem_engine::permission::{CallView, PermissionSubject, decide};
use tandem_engine::testing::{Project, ScriptedApprover, TestRuntime, call};
use tandem_engine::tool::erase;
use tandem_engine::tools::web_browser::{WebBrowserOptions, WebBrowserTool, find_chromium};
use tandem_protocol::{ApprovalChoice, DecisionBehavior, PermissionMode, ToolOutcome};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

/// A site on loopback: a form (`/form`) whose submit greets by name (`/greet`), a link to the same site under
/// another host name, a page that opens dialogs as it loads (`/alert`), one
/// that sends itself to the other host name once loaded (`/wander`), and a page that never answers (`/hang`, which tells `hung` each time it is asked for).
async fn site(hung: UnboundedSender<()>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let app = Router::new()
        .route(
            "/form",
            get(move || async move {
                html(format!(
                    "<html><head><title>Greeter</title></head><body><h1>Hello form</h1>\
                     <form action=\"/greet\" method=\"get\"><input id=\"name\" name=\"name\">\
                     <button id=\"go\" type=\"submit\">Go</button></form>\
                     <p><a id=\"away\" href=\"http://localhost:{port}/greet?name=Elsewhere\">away</a></p>\
                     </body></html>"
                ))
            }),
        )
        .route(
            "/greet",
            get(move |Query(q): Query<std::collections::HashMap<String, String>>| async move {
                let name = q.get("name").cloned().unwrap_or_default();
                html(format!(
                    "<html><head><title>Greeting</title></head><body><p id=\"msg\">Hello, {name}!</p></body></html>"
                ))
            }),
        )
        .route(
            "/wander",
            get(move || async move {
                html(format!(
                    "<html><body><p>Staying a moment</p><script>setTimeout(() => {{ \
                     location.href = 'http://localhost:{port}/greet?name=Wanderer'; }}, 0);</script></body></html>"
                ))
            }),
        )
        .route(
            "/alert",
            get(|| async {
                html("<html><body><script>alert('hi'); confirm('sure?');</script><p>After the dialogs</p></body></html>".into())
            }),
        )
        .route(
            "/hang",
            get(move || {
                let hung = hung.clone();
                async move {
                    let _ = hung.send(());
                    std::future::pending::<()>().await;
                    "never".into_response()
                }
            }),
        );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://127.0.0.1:{port}")
}

fn html(body: String) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body)
}

/// Whether a Chromium is installed here; the tests that start one skip without it.
fn have_chromium() -> bool {
    let found = find_chromium(None).is_ok();
    if !found {
        eprintln!("no Chromium installed: skipped");
    }
    found
}

/// A runtime with a WebBrowser tool of `options` and `rules`, its questions going to `approver`.
fn runtime(
    p: &Project,
    rules: &[(&str, &str)],
    options: WebBrowserOptions,
    approver: ScriptedApprover,
) -> ToolRuntime {
    TestRuntime::new(&p.root)
        .permissions(p.ctx(rules, PermissionMode::Default))
        .approver(approver)
        .tools(vec![erase(WebBrowserTool::new(options))])
        .build()
}

/// Generous: a busy machine starts a browser slowly.
fn options() -> WebBrowserOptions {
    WebBrowserOptions {
        start_timeout: Duration::from_secs(120),
        load_timeout: Duration::from_secs(60),
        ..WebBrowserOptions::default()
    }
}

async fn browse(rt: &ToolRuntime, input: Value) -> (bool, String) {
    let r = call(rt, "WebBrowser", &input).await;
    (r.ok, r.text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_reads_a_page_fills_a_form_submits_it_and_takes_a_screenshot() {
    if !have_chromium() {
        return;
    }
    let site = site(unbounded_channel().0).await;
    let p = Project::new().expect("project");
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(
        &p,
        &[("allow", "WebBrowser(domain:127.0.0.1)")],
        options(),
        approver.clone(),
    );

    let (ok, text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/form")}),
    )
    .await;
    assert!(ok, "{text}");
    assert!(text.contains("Title: Greeter"), "{text}");
    assert!(text.contains(&format!("URL: {site}/form")), "{text}");
    assert!(text.contains("Hello form"), "{text}");

    let (ok, text) = browse(&rt, json!({"action": "read", "selector": "h1"})).await;
    assert!(ok && text.ends_with("Hello form"), "{text}");
    let (ok, text) = browse(&rt, json!({"action": "read", "selector": "#nothing"})).await;
    assert!(!ok && text.contains("No element"), "{text}");

    // Typed, then submitted by a click on the button.
    let (ok, text) = browse(
        &rt,
        json!({"action": "type", "selector": "#name", "text": "Ada"}),
    )
    .await;
    assert!(ok, "{text}");
    let (ok, text) = browse(&rt, json!({"action": "click", "selector": "#go"})).await;
    assert!(ok, "{text}");
    assert!(text.contains("Hello, Ada!"), "{text}");
    assert!(text.contains("Title: Greeting"), "{text}");

    // Typed and submitted with Enter.
    let (ok, text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/form")}),
    )
    .await;
    assert!(ok, "{text}");
    let (ok, text) = browse(
        &rt,
        json!({"action": "type", "selector": "#name", "text": "Bob", "submit": true}),
    )
    .await;
    assert!(ok && text.contains("Hello, Bob!"), "{text}");

    // A screenshot reaches the model as a whole PNG.
    let outcome = run_tool_use(
        &rt,
        "s1",
        "WebBrowser",
        &json!({"action": "screenshot"}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(outcome.outcome, ToolOutcome::Success);
    let ContentBlock::ToolResult {
        content: ToolResultContent::Blocks(blocks),
        ..
    } = &outcome.block
    else {
        panic!("blocks: {:?}", outcome.block);
    };
    let png = blocks
        .iter()
        .find_map(|b| match b {
            ResultBlock::Image {
                source: ImageSource::Base64 { media_type, data },
            } if media_type == "image/png" => {
                base64::engine::general_purpose::STANDARD.decode(data).ok()
            }
            _ => None,
        })
        .expect("a PNG image block");
    let img =
        image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("a whole PNG");
    assert!(
        img.width() > 100 && img.height() > 100,
        "{}x{}",
        img.width(),
        img.height()
    );

    // Dialogs a page opens do not hold it.
    let (ok, text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/alert")}),
    )
    .await;
    assert!(ok && text.contains("After the dialogs"), "{text}");

    // A link to another host (the same site under the name localhost) is not read.
    let (ok, text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/form")}),
    )
    .await;
    assert!(ok, "{text}");
    let (ok, text) = browse(&rt, json!({"action": "click", "selector": "#away"})).await;
    assert!(ok, "{text}");
    assert!(
        text.contains("another host") && text.contains("localhost"),
        "{text}"
    );
    assert!(!text.contains("Hello, Elsewhere!"), "{text}");

    // A page that sends itself to another host is left unread: by the navigate itself when it has moved by then,
    // else by a later read.
    let (ok, mut text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/wander")}),
    )
    .await;
    assert!(ok, "{text}");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !text.contains("another host") && std::time::Instant::now() < deadline {
        assert!(!text.contains("Hello, Wanderer!"), "{text}");
        text = browse(&rt, json!({"action": "read"})).await.1;
    }
    assert!(
        text.contains("another host") && !text.contains("Hello, Wanderer!"),
        "{text}"
    );

    let (ok, text) = browse(&rt, json!({"action": "close"})).await;
    assert!(ok && text.contains("closed"), "{text}");
    assert!(approver.asked().is_empty(), "the allow rule answered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_asks_without_a_rule_and_deny_rules_refuse_their_domains() {
    let site = site(unbounded_channel().0).await;
    let p = Project::new().expect("project");
    // A missing program: nothing here may start a browser.
    let nothing = WebBrowserOptions {
        chromium: Some(PathBuf::from("/nonexistent/chromium")),
        ..options()
    };

    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(&p, &[], nothing.clone(), approver.clone());
    let (ok, text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/form")}),
    )
    .await;
    assert!(!ok, "{text}");
    assert_eq!(approver.asked().len(), 1, "loopback asked");
    assert!(
        !text.contains("Chromium"),
        "refused before the browser: {text}"
    );

    // The same in bypass mode: a private address asks whatever the mode.
    let bypass = TestRuntime::new(&p.root)
        .permissions(p.ctx(&[], PermissionMode::BypassPermissions))
        .approver(approver.clone())
        .tools(vec![erase(WebBrowserTool::new(nothing.clone()))])
        .build();
    let (ok, _) = browse(
        &bypass,
        json!({"action": "navigate", "url": format!("{site}/form")}),
    )
    .await;
    assert!(!ok);
    assert_eq!(approver.asked().len(), 2, "loopback asked in bypass mode");

    // WebFetch's domain rules cover the browser; the browser's own cover it alone.
    let cases: &[(&str, String)] = &[
        (
            "WebFetch(domain:localhost)",
            site.replace("127.0.0.1", "localhost"),
        ),
        (
            "WebBrowser(domain:93.184.215.14)",
            "https://93.184.215.14/".into(),
        ),
    ];
    for (rule, url) in cases {
        let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
        let rt = runtime(&p, &[("deny", rule)], nothing.clone(), approver.clone());
        let (ok, text) = browse(&rt, json!({"action": "navigate", "url": url})).await;
        assert!(!ok, "{rule}: {text}");
        assert!(
            text.contains("denied") || text.contains("deny"),
            "{rule}: {text}"
        );
        assert!(
            approver.asked().is_empty(),
            "{rule}: a deny rule does not ask"
        );
    }

    // With an allow rule naming the host the call runs: here it reaches the missing program, a clear error.
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(
        &p,
        &[("allow", "WebBrowser(domain:127.0.0.1)")],
        nothing,
        approver.clone(),
    );
    let (ok, text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/form")}),
    )
    .await;
    assert!(!ok, "{text}");
    assert!(
        text.contains("No Chromium at /nonexistent/chromium"),
        "{text}"
    );
    assert!(text.contains("TANDEM_CHROMIUM"), "{text}");
    assert!(approver.asked().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_never_loads_times_out_and_a_cancel_stops_the_wait() {
    if !have_chromium() {
        return;
    }
    let (hung, mut asked) = unbounded_channel();
    let site = site(hung).await;
    let p = Project::new().expect("project");
    let rt = runtime(
        &p,
        &[("allow", "WebBrowser(domain:127.0.0.1)")],
        WebBrowserOptions {
            load_timeout: Duration::from_secs(3),
            ..options()
        },
        ScriptedApprover::new([], ApprovalChoice::Deny),
    );
    let (ok, text) = browse(
        &rt,
        json!({"action": "navigate", "url": format!("{site}/hang")}),
    )
    .await;
    assert!(!ok, "{text}");
    assert!(text.contains("did not finish loading"), "{text}");
    asked.recv().await.expect("the page was asked for");

    // A cancel while the page hangs ends the call as cancelled.
    let cancel = CancellationToken::new();
    let canceller = {
        let cancel = cancel.clone();
        tokio::spawn(async move {
            asked.recv().await;
            cancel.cancel();
        })
    };
    let outcome = run_tool_use(
        &rt,
        "c1",
        "WebBrowser",
        &json!({"action": "navigate", "url": format!("{site}/hang?again=1")}),
        &cancel,
    )
    .await;
    canceller.await.expect("canceller");
    assert_eq!(
        outcome.outcome,
        ToolOutcome::Cancelled,
        "{:?}",
        outcome.block
    );
}

#[test]
fn webfetch_domain_rules_cover_the_browser_and_the_browsers_own_cover_it_alone() {
    use DecisionBehavior::{Allow, Ask, Deny};
    let p = Project::new().expect("project");
    // (rule, its list, the tool fetching https://example.com/, the decision)
    let rows: &[(&str, &str, &str, DecisionBehavior)] = &[
        ("allow", "WebFetch(domain:example.com)", "WebBrowser", Allow),
        (
            "allow",
            "WebBrowser(domain:example.com)",
            "WebBrowser",
            Allow,
        ),
        ("allow", "WebBrowser(domain:example.com)", "WebFetch", Ask),
        (
            "allow",
            "WebBrowser(domain:*.example.com)",
            "WebBrowser",
            Ask,
        ),
        ("deny", "WebFetch(domain:example.com)", "WebBrowser", Deny),
        ("deny", "WebBrowser(domain:example.com)", "WebFetch", Ask),
        ("ask", "WebFetch(domain:*)", "WebBrowser", Ask),
        ("allow", "WebBrowser", "WebBrowser", Allow),
    ];
    let subject = PermissionSubject::Fetch {
        url: "https://example.com/".into(),
        private_address: None,
    };
    for (list, rule, tool, want) in rows {
        let ctx = p.ctx(&[(list, rule)], PermissionMode::Default);
        let input = json!({"action": "navigate", "url": "https://example.com/"});
        let got = decide(
            &ctx,
            &CallView {
                tool_name: tool,
                input: &input,
                subject: &subject,
                read_only: true,
            },
        );
        assert_eq!(
            got.decision, *want,
            "{list} {rule} for {tool}: {}",
            got.reason
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_that_died_is_started_afresh_by_the_next_call() {
    if !have_chromium() {
        return;
    }
    let site = site(unbounded_channel().0).await;
    let p = Project::new().expect("project");
    let tool = WebBrowserTool::new(options());
    let guard = tool.session_guard();
    let rt = TestRuntime::new(&p.root)
        .permissions(p.ctx(
            &[("allow", "WebBrowser(domain:127.0.0.1)")],
            PermissionMode::Default,
        ))
        .approver(ScriptedApprover::new([], ApprovalChoice::Deny))
        .tools(vec![erase(tool)])
        .build();
    let navigate = json!({"action": "navigate", "url": format!("{site}/form")});
    let (ok, text) = browse(&rt, navigate.clone()).await;
    assert!(ok, "{text}");
    let group = guard.browser_group().expect("a running browser");

    let killed = std::process::Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    // A call may still meet the dying browser and fail; a later one starts a new browser and loads the page.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let mut last = String::new();
    while std::time::Instant::now() < deadline {
        let (ok, text) = browse(&rt, navigate.clone()).await;
        if ok && guard.browser_group().is_some_and(|g| g != group) {
            assert!(text.contains("Hello form"), "{text}");
            return;
        }
        last = text;
    }
    panic!("no new browser: {last}");
}
