//! Model errors: HTTP errors with clear messages, retries with the wait shown, errors inside the stream.

use std::sync::Arc;

use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedReply, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent};

use super::common::{server, session};

fn error(status: u16, kind: &str, retry_after: Option<&str>) -> ScriptedReply {
    ScriptedReply::Error {
        status,
        error_type: kind.into(),
        message: format!("scripted {kind}"),
        retry_after: retry_after.map(str::to_string),
        retry_after_ms: None,
        should_retry: None,
    }
}

async fn run(replies: Vec<ScriptedReply>) -> (Result<String, String>, Vec<SessionEvent>, usize) {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script { replies }).await;
    let sink = RecordingSink::default();
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        sink.clone(),
    );
    let result = s
        .send("hello")
        .await
        .map(|o| o.final_text)
        .map_err(|e| e.to_string());
    (result, sink.events(), fake.requests().len())
}

#[tokio::test]
async fn a_401_is_not_retried_and_says_to_check_the_key() {
    let (result, events, requests) = run(vec![error(401, "authentication_error", None)]).await;
    let message = result.expect_err("fails");
    assert!(
        message.contains("authentication failed") && message.contains("401"),
        "{message}"
    );
    assert_eq!(requests, 1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, SessionEvent::Error { message } if message.contains("API key")))
    );
}

#[tokio::test]
async fn a_529_is_retried_after_the_servers_wait_and_the_wait_is_shown() {
    let (result, events, requests) = run(vec![
        error(529, "overloaded_error", Some("0.05")),
        ScriptedReply::Stream(ScriptedTurn::text("made it")),
    ])
    .await;
    assert_eq!(result.expect("succeeds"), "made it");
    assert_eq!(requests, 2);
    let waits: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Retrying {
                wait_ms, reason, ..
            } => {
                assert!(reason.contains("overloaded"), "{reason}");
                Some(*wait_ms)
            }
            _ => None,
        })
        .collect();
    assert_eq!(waits, vec![50]);
}

#[tokio::test]
async fn a_529_that_persists_ends_with_a_clear_error_after_the_retry_limit() {
    let replies = (0..3)
        .map(|_| error(529, "overloaded_error", Some("0.01")))
        .collect();
    let (result, _events, requests) = run(replies).await;
    let message = result.expect_err("fails");
    assert!(
        message.contains("overloaded") && message.contains("529"),
        "{message}"
    );
    assert_eq!(requests, 3, "first attempt plus two retries");
}

#[tokio::test]
async fn a_429_with_should_retry_false_is_not_retried() {
    let reply = ScriptedReply::Error {
        status: 429,
        error_type: "rate_limit_error".into(),
        message: "slow down".into(),
        retry_after: Some("0.01".into()),
        retry_after_ms: None,
        should_retry: Some(false),
    };
    let (result, _events, requests) = run(vec![reply]).await;
    assert!(result.expect_err("fails").contains("rate limited"));
    assert_eq!(requests, 1);
}

#[tokio::test]
async fn an_error_event_after_http_200_ends_the_turn_with_its_message() {
    let mut turn = ScriptedTurn::text("partial answer that never finishes");
    turn.error_after_events = Some((3, "overloaded_error".into(), "Overloaded".into()));
    let (result, _events, _) = run(vec![ScriptedReply::Stream(turn)]).await;
    let message = result.expect_err("fails");
    assert!(
        message.contains("overloaded_error") && message.contains("Overloaded"),
        "{message}"
    );
}

#[tokio::test]
async fn no_api_key_is_reported_without_a_request() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::default()).await;
    let mut config = super::common::fake_config(&fake.url());
    config.api_key = None;
    let model =
        Arc::new(tandem_engine::model::AnthropicModel::new(config.clone()).expect("client"));
    let s = tandem_engine::session::Session::builder(&ws.root())
        .expect("folder")
        .options(tandem_engine::session::SessionOptions {
            id: None,
            cwd: ws.root(),
            model: config,
            mode: Default::default(),
            approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
            events: Arc::new(RecordingSink::default()),
            store: None,
            watch_settings: true,
        })
        .model_client(model)
        .build()
        .expect("session");
    assert!(
        s.info()
            .setup_hint
            .is_some_and(|h| h.contains("ANTHROPIC_API_KEY"))
    );
    // Auto mode's classifier asks the same model: without a key it is not offered, and asking for it gives default.
    assert!(!s.info().auto_mode_available);
    s.set_mode(tandem_protocol::PermissionMode::Auto);
    assert_eq!(s.info().mode, tandem_protocol::PermissionMode::Default);
    let err = s.send("hi").await.expect_err("no key");
    let said = err.to_string();
    assert!(said.contains("no API key"), "{said}");
    // The way the window and the README give: Settings (the key goes to the keyring), or the environment —
    // never a key written into a plain settings file.
    assert!(
        said.contains("Settings") && said.contains("keyring"),
        "{said}"
    );
    assert!(
        !said.contains("apiKey") && !said.contains("settings.json"),
        "{said}"
    );
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn retry_after_ms_wins_over_retry_after() {
    let reply = ScriptedReply::Error {
        status: 429,
        error_type: "rate_limit_error".into(),
        message: "slow down".into(),
        retry_after: Some("9".into()),
        retry_after_ms: Some("15".into()),
        should_retry: None,
    };
    let (result, events, requests) =
        run(vec![reply, ScriptedReply::Stream(ScriptedTurn::text("ok"))]).await;
    assert_eq!(result.expect("succeeds"), "ok");
    assert_eq!(requests, 2);
    let waits: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Retrying { wait_ms, .. } => Some(*wait_ms),
            _ => None,
        })
        .collect();
    assert_eq!(waits, vec![15]);
}

#[tokio::test]
async fn a_slow_first_byte_and_slow_events_still_make_a_whole_answer() {
    let mut turn = ScriptedTurn::text("slowly, slowly");
    turn.delay_before_ms = 120;
    turn.chunk_delay_ms = 5;
    turn.delta_chars = 4;
    let started = std::time::Instant::now();
    let (result, _events, _) = run(vec![ScriptedReply::Stream(turn)]).await;
    assert_eq!(result.expect("succeeds"), "slowly, slowly");
    assert!(started.elapsed() >= std::time::Duration::from_millis(140));
}

/// A session whose model waits at most `headers` for the response headers and `response` for a whole response,
/// without retries.
async fn run_with_deadlines(
    turn: ScriptedTurn,
    headers: std::time::Duration,
    response: std::time::Duration,
) -> Result<String, String> {
    run_with_policy(vec![ScriptedReply::Stream(turn)], |config| {
        config.retry.max_retries = 0;
        config.retry.headers_timeout = headers;
        config.retry.response_timeout = response;
    })
    .await
    .0
}

/// A session whose model config `change` adjusts (deadlines, retries, the base URL), answering `replies`: the
/// turn's result, its events and how many requests the server got.
async fn run_with_policy(
    replies: Vec<ScriptedReply>,
    change: impl FnOnce(&mut tandem_engine::model::ModelConfig),
) -> (Result<String, String>, Vec<SessionEvent>, usize) {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script { replies }).await;
    let mut config = super::common::fake_config(&fake.url());
    change(&mut config);
    let model =
        Arc::new(tandem_engine::model::AnthropicModel::new(config.clone()).expect("client"));
    let sink = RecordingSink::default();
    let s = super::common::session_with(
        &ws.root(),
        model,
        config,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        sink.clone(),
    );
    let result = s
        .send("hello")
        .await
        .map(|o| o.final_text)
        .map_err(|e| e.to_string());
    (result, sink.events(), fake.requests().len())
}

#[tokio::test]
async fn a_server_that_sends_only_pings_fails_at_the_content_deadline() {
    let mut turn = ScriptedTurn::text("never said");
    // message_start, then keep-alive pings for ever.
    turn.stall_after_chunks = Some(1);
    turn.stall_pings_ms = Some(20);
    let (result, _, _) = run_with_policy(vec![ScriptedReply::Stream(turn)], |config| {
        config.retry.max_retries = 0;
        config.retry.content_timeout = std::time::Duration::from_millis(400);
        config.retry.response_timeout = std::time::Duration::from_secs(120);
    })
    .await;
    let message = result.expect_err("fails");
    assert!(
        message.contains("no content for 0.4 s (only keep-alive pings)"),
        "{message}"
    );
}

#[tokio::test]
async fn a_server_that_never_sends_headers_is_given_up_on_within_the_total_limit() {
    let mut turn = ScriptedTurn::text("too late");
    turn.delay_before_ms = 600_000;
    let replies = vec![ScriptedReply::Stream(turn); 9];
    let (result, _, requests) = run_with_policy(replies, |config| {
        config.retry.max_retries = 8;
        config.retry.headers_timeout = std::time::Duration::from_millis(200);
        config.retry.give_up_after = std::time::Duration::from_millis(900);
    })
    .await;
    let message = result.expect_err("fails");
    assert!(
        message.contains("no answer after") && message.contains("no response headers"),
        "{message}"
    );
    assert!(
        requests < 9,
        "{requests} attempts; the total limit stops them"
    );
}

#[tokio::test]
async fn a_malformed_base_url_fails_at_once_naming_it() {
    for url in ["http://exa mple.test", "localhost:8080", "http://"] {
        let (result, events, requests) = run_with_policy(
            vec![ScriptedReply::Stream(ScriptedTurn::text("unreached"))],
            |config| {
                config.base_url = url.into();
                config.retry.max_retries = 8;
            },
        )
        .await;
        let message = result.expect_err("fails");
        assert!(
            message.contains(&format!("{url:?}")) && message.contains("not a valid"),
            "{url}: {message}"
        );
        assert_eq!(requests, 0);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, SessionEvent::Retrying { .. })),
            "{url}: retried"
        );
    }
}

#[tokio::test]
async fn an_answer_that_is_not_an_event_stream_is_named() {
    let gzip = ScriptedReply::Raw {
        status: 200,
        content_type: "text/event-stream".into(),
        content_encoding: Some("gzip".into()),
        body: vec![
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48,
        ],
    };
    let html = ScriptedReply::raw(
        "text/html; charset=utf-8",
        "<!DOCTYPE html><html><body>Sign in to the proxy</body></html>",
    );
    let json = ScriptedReply::raw(
        "application/json",
        r#"{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}]}"#,
    );
    // (reply, what the error must say)
    let cases = [
        (gzip, vec!["text/event-stream", "compressed with gzip"]),
        (
            html,
            vec!["text/html", "a web page", "Sign in to the proxy"],
        ),
        (
            json,
            vec![
                "application/json",
                "one JSON document",
                r#""type":"message""#,
            ],
        ),
    ];
    for (reply, wanted) in cases {
        let (result, _, requests) = run_with_policy(vec![reply], |_| {}).await;
        let message = result.expect_err("fails");
        for part in wanted {
            assert!(message.contains(part), "{part:?} missing: {message}");
        }
        assert!(
            !message.contains("ended before the message was complete"),
            "{message}"
        );
        assert_eq!(requests, 1, "not retried");
    }
}

#[tokio::test]
async fn a_server_that_never_sends_headers_fails_the_attempt_at_its_deadline() {
    let mut turn = ScriptedTurn::text("too late");
    turn.delay_before_ms = 600_000;
    let result = run_with_deadlines(
        turn,
        std::time::Duration::from_millis(300),
        std::time::Duration::from_secs(600),
    )
    .await;
    let message = result.expect_err("fails");
    assert!(message.contains("no response headers"), "{message}");
}

#[tokio::test]
async fn a_response_that_never_ends_fails_at_the_response_deadline() {
    // Every chunk arrives well inside the idle timeout, but the whole answer would take minutes.
    let mut turn = ScriptedTurn::text("tick ".repeat(400));
    turn.delta_chars = 1;
    turn.chunk_delay_ms = 100;
    let result = run_with_deadlines(
        turn,
        std::time::Duration::from_secs(600),
        std::time::Duration::from_millis(500),
    )
    .await;
    let message = result.expect_err("fails");
    assert!(message.contains("did not end within"), "{message}");
}
