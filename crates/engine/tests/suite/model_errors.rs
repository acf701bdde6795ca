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
    let s = tandem_engine::session::Session::with_model(
        ws.root(),
        model,
        tandem_engine::session::SessionOptions {
            id: None,
            cwd: ws.root(),
            model: config,
            mode: Default::default(),
            approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
            events: Arc::new(RecordingSink::default()),
            store: None,
            watch_settings: true,
        },
    );
    assert!(
        s.info()
            .setup_hint
            .is_some_and(|h| h.contains("ANTHROPIC_API_KEY"))
    );
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
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script {
        replies: vec![ScriptedReply::Stream(turn)],
    })
    .await;
    let mut config = super::common::fake_config(&fake.url());
    config.retry.max_retries = 0;
    config.retry.headers_timeout = headers;
    config.retry.response_timeout = response;
    let model =
        Arc::new(tandem_engine::model::AnthropicModel::new(config.clone()).expect("client"));
    let s = super::common::session_with(
        &ws.root(),
        model,
        config,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        RecordingSink::default(),
    );
    s.send("hello")
        .await
        .map(|o| o.final_text)
        .map_err(|e| e.to_string())
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
