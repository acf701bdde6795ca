//! The OpenAI-compatible client against the fake server's chat-completions mode: streaming, tool calls in pieces
//! and in every server quirk, usage, HTTP errors with retries, cut streams and malformed input.

use futures::StreamExt;
use serde_json::{Value, json};
use tandem_engine::model::{
    Message, ModelError, ModelEvent, ModelRequest, StopReason, ToolSpec, connect,
};
use tandem_engine::testing::{
    ChatQuirks, FakeServer, Script, ScriptBlock, ScriptedReply, ScriptedTurn,
};

use super::common::{openai_config, server};

fn request() -> ModelRequest {
    ModelRequest {
        model: "qwen3-coder".into(),
        max_tokens: 512,
        system: vec!["You are a careful assistant.".into()],
        messages: vec![Message::user_text("hello")],
        tools: vec![ToolSpec {
            name: "Read".into(),
            description: "Reads a file".into(),
            input_schema: json!({"type": "object", "properties": {"file_path": {"type": "string"}}}),
            server: None,
            strict: false,
        }],
        thinking: None,
    }
}

/// Streams one request to `fake` and returns the events and the error that ended the stream, if any.
async fn run(fake: &FakeServer) -> (Vec<ModelEvent>, Option<ModelError>) {
    let model = connect(openai_config(&fake.url())).expect("client");
    let mut stream = model.stream(request());
    let mut events = Vec::new();
    while let Some(next) = stream.next().await {
        match next {
            Ok(event) => events.push(event),
            Err(err) => {
                assert!(stream.next().await.is_none(), "nothing follows an error");
                return (events, Some(err));
            }
        }
    }
    (events, None)
}

async fn run_turns(turns: Vec<ScriptedTurn>) -> (Vec<ModelEvent>, FakeServer) {
    let fake = server(Script::turns(turns)).await;
    let (events, err) = run(&fake).await;
    assert!(err.is_none(), "{err:?}");
    (events, fake)
}

fn text(events: &[ModelEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            ModelEvent::TextDelta(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

fn completed_calls(events: &[ModelEvent]) -> Vec<(String, String, Value)> {
    events
        .iter()
        .filter_map(|e| match e {
            ModelEvent::ToolUseComplete { id, name, input } => {
                Some((id.clone(), name.clone(), input.clone()))
            }
            _ => None,
        })
        .collect()
}

fn message(events: &[ModelEvent]) -> (Message, StopReason, tandem_protocol::Usage) {
    match events.last() {
        Some(ModelEvent::MessageComplete {
            message,
            stop_reason,
            usage,
        }) => (message.clone(), *stop_reason, *usage),
        other => panic!("the stream did not end with a message: {other:?}"),
    }
}

fn two_reads() -> ScriptedTurn {
    ScriptedTurn::new(vec![
        ScriptBlock::Text {
            text: "Reading both.".into(),
        },
        ScriptBlock::ToolUse {
            id: "call_a".into(),
            name: "Read".into(),
            input: json!({"file_path": "/src/a.rs", "limit": 20}),
        },
        ScriptBlock::ToolUse {
            id: "call_b".into(),
            name: "Read".into(),
            input: json!({"file_path": "/src/b.rs"}),
        },
    ])
}

#[tokio::test]
async fn streams_text_with_usage_and_sends_a_chat_completions_request() {
    let mut turn = ScriptedTurn::text("Hello from a local model, in many small pieces.");
    turn.delta_chars = 3;
    turn.chunk_bytes = Some(5);
    turn.ping_every = Some(2);
    turn.unknown_event = true;
    turn.input_tokens = 42;
    turn.output_tokens = 7;
    let (events, fake) = run_turns(vec![turn]).await;

    assert_eq!(
        text(&events),
        "Hello from a local model, in many small pieces."
    );
    let (message, stop, usage) = message(&events);
    assert_eq!(stop, StopReason::EndTurn);
    assert_eq!(message.content.len(), 1);
    assert_eq!((usage.input_tokens, usage.output_tokens), (42, 7));

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert!(r.rejected.is_none(), "{:?}", r.rejected);
    assert_eq!(r.header("authorization"), Some("Bearer sk-test-key"));
    assert_eq!(r.body["stream"], true);
    assert_eq!(r.body["stream_options"]["include_usage"], true);
    assert_eq!(r.body["model"], "qwen3-coder");
    assert_eq!(r.body["max_tokens"], 512);
    assert_eq!(r.body["messages"][0]["role"], "system");
    assert_eq!(
        r.body["messages"][1],
        json!({"role": "user", "content": "hello"})
    );
    assert_eq!(
        r.body["tools"][0],
        json!({"type": "function", "function": {"name": "Read", "description": "Reads a file",
            "parameters": {"type": "object", "properties": {"file_path": {"type": "string"}}}}})
    );
}

#[tokio::test]
async fn a_missing_key_still_sends_a_non_empty_bearer_token() {
    let fake = server(Script::turns([ScriptedTurn::text("ok")])).await;
    let mut config = openai_config(&fake.url());
    config.api_key = None;
    let model = connect(config).expect("client");
    let events: Vec<_> = model.stream(request()).collect().await;
    assert!(events.iter().all(Result::is_ok), "{events:?}");
    let auth = fake.requests()[0]
        .header("authorization")
        .expect("header")
        .to_string();
    assert!(auth.len() > "Bearer ".len(), "{auth}");
}

#[tokio::test]
async fn a_tool_call_whose_arguments_arrive_in_pieces_completes_at_the_finish() {
    let mut turn = ScriptedTurn::tool_use(
        "call_1",
        "Read",
        json!({"file_path": "/tmp/ünïcode file.txt", "offset": 3}),
    );
    turn.delta_chars = 2;
    turn.chunk_bytes = Some(7);
    let (events, _) = run_turns(vec![turn]).await;

    let started = events
        .iter()
        .position(|e| matches!(e, ModelEvent::ToolUseStarted { id, name } if id == "call_1" && name == "Read"))
        .expect("started");
    let complete = events
        .iter()
        .position(|e| matches!(e, ModelEvent::ToolUseComplete { .. }))
        .expect("complete");
    assert!(
        started < complete && complete + 1 == events.len() - 1,
        "{events:?}"
    );
    assert_eq!(
        completed_calls(&events),
        vec![(
            "call_1".into(),
            "Read".into(),
            json!({"file_path": "/tmp/ünïcode file.txt", "offset": 3})
        )]
    );
    let (message, stop, _) = message(&events);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!(message.tool_uses().count(), 1);
}

#[tokio::test]
async fn parallel_calls_split_at_every_byte_each_complete_when_the_next_one_starts() {
    let mut turn = two_reads();
    turn.delta_chars = 4;
    // Every chunk one byte: JSON and UTF-8 split everywhere.
    turn.chunk_bytes = Some(1);
    let (events, _) = run_turns(vec![turn]).await;

    let a_done = events
        .iter()
        .position(|e| matches!(e, ModelEvent::ToolUseComplete { id, .. } if id == "call_a"))
        .expect("a done");
    let b_started = events
        .iter()
        .position(|e| matches!(e, ModelEvent::ToolUseStarted { id, .. } if id == "call_b"))
        .expect("b started");
    assert!(
        a_done < b_started,
        "call_a completes as call_b starts: {events:?}"
    );
    assert_eq!(text(&events), "Reading both.");
    let calls = completed_calls(&events);
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].2, json!({"file_path": "/src/a.rs", "limit": 20}));
    assert_eq!(calls[1].2, json!({"file_path": "/src/b.rs"}));
    let (message, _, _) = message(&events);
    let ids: Vec<&str> = message.tool_uses().map(|(id, _, _)| id).collect();
    assert_eq!(ids, ["call_a", "call_b"]);
}

#[tokio::test]
async fn every_server_quirk_gives_the_same_calls() {
    let quirks = [
        ChatQuirks {
            whole_calls: true,
            ..ChatQuirks::default()
        },
        ChatQuirks {
            index_zero: true,
            ..ChatQuirks::default()
        },
        ChatQuirks {
            no_index: true,
            ..ChatQuirks::default()
        },
        ChatQuirks {
            whole_calls: true,
            index_zero: true,
            ..ChatQuirks::default()
        },
        ChatQuirks {
            whole_calls: true,
            no_index: true,
            ..ChatQuirks::default()
        },
        ChatQuirks {
            index_zero: true,
            no_finish_reason: true,
            ..ChatQuirks::default()
        },
    ];
    for q in quirks {
        let mut turn = two_reads();
        turn.delta_chars = 3;
        turn.chunk_bytes = Some(11);
        turn.openai = q.clone();
        let (events, _) = run_turns(vec![turn]).await;
        let calls = completed_calls(&events);
        assert_eq!(
            calls,
            vec![
                (
                    "call_a".into(),
                    "Read".into(),
                    json!({"file_path": "/src/a.rs", "limit": 20})
                ),
                (
                    "call_b".into(),
                    "Read".into(),
                    json!({"file_path": "/src/b.rs"})
                ),
            ],
            "{q:?}"
        );
        let starts = events
            .iter()
            .filter(|e| matches!(e, ModelEvent::ToolUseStarted { .. }))
            .count();
        assert_eq!(starts, 2, "{q:?}");
        let (_, stop, _) = message(&events);
        assert_eq!(stop, StopReason::ToolUse, "{q:?}");
    }
}

#[tokio::test]
async fn done_without_a_finish_reason_still_completes_the_message() {
    let mut turn = ScriptedTurn::text("short answer");
    turn.openai.no_finish_reason = true;
    let (events, _) = run_turns(vec![turn]).await;
    let (message, stop, usage) = message(&events);
    assert_eq!(stop, StopReason::EndTurn);
    assert_eq!(message.content.len(), 1);
    assert_eq!(usage.output_tokens, 10);
}

#[tokio::test]
async fn finish_reasons_map_to_stop_reasons() {
    for (reason, expected) in [
        ("max_tokens", StopReason::MaxTokens),
        ("refusal", StopReason::Refusal),
        ("end_turn", StopReason::EndTurn),
    ] {
        let mut turn = ScriptedTurn::text("cut");
        turn.stop_reason = Some(reason.into());
        let (events, _) = run_turns(vec![turn]).await;
        assert_eq!(message(&events).1, expected, "{reason}");
    }
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_of_a_call_yields_no_complete_call() {
    let mut turn = ScriptedTurn::new(vec![
        ScriptBlock::Text {
            text: "Writing it.".into(),
        },
        ScriptBlock::ToolUse {
            id: "call_cut".into(),
            name: "Write".into(),
            input: json!({"file_path": "/tmp/x", "content": "x".repeat(2000)}),
        },
    ]);
    turn.delta_chars = 10;
    turn.chunk_bytes = Some(256);
    turn.cut_after_bytes = Some(8_000);
    let fake = server(Script::turns([turn])).await;
    let (events, err) = run(&fake).await;

    assert!(matches!(err, Some(ModelError::Connection(_))), "{err:?}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ModelEvent::ToolUseStarted { id, .. } if id == "call_cut"))
    );
    assert!(completed_calls(&events).is_empty(), "{events:?}");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ModelEvent::MessageComplete { .. }))
    );
}

#[tokio::test]
async fn malformed_arguments_make_an_invalid_call_not_a_broken_stream() {
    let turn = ScriptedTurn::new(vec![ScriptBlock::RawToolUse {
        id: "call_bad".into(),
        name: "Read".into(),
        json: "{\"file_path\": ".into(),
    }]);
    let fake = server(Script::turns([turn])).await;
    let (events, err) = run(&fake).await;
    assert!(err.is_none(), "{err:?}");
    assert!(completed_calls(&events).is_empty());
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ModelEvent::ToolUseInvalid { id, error, .. }
            if id == "call_bad" && error.contains("not valid JSON"))),
        "{events:?}"
    );
}

#[tokio::test]
async fn an_error_chunk_after_http_200_ends_the_stream_with_its_message() {
    let mut turn = ScriptedTurn::text("a partial answer that never finishes");
    turn.delta_chars = 4;
    turn.error_after_events = Some((3, "server_error".into(), "the GPU fell over".into()));
    let fake = server(Script::turns([turn])).await;
    let (_, err) = run(&fake).await;
    let message = err.expect("an error").to_string();
    assert!(
        message.contains("server_error") && message.contains("GPU"),
        "{message}"
    );
}

fn error(status: u16, kind: &str) -> ScriptedReply {
    ScriptedReply::http_error(status, kind, format!("scripted {kind}"))
}

fn retries(events: &[ModelEvent]) -> Vec<u64> {
    events
        .iter()
        .filter_map(|e| match e {
            ModelEvent::Retrying { wait_ms, .. } => Some(*wait_ms),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_401_is_not_retried_and_says_to_check_the_key() {
    let fake = server(Script {
        replies: vec![error(401, "invalid_request_error")],
    })
    .await;
    let (events, err) = run(&fake).await;
    let message = err.expect("an error").to_string();
    assert!(
        message.contains("authentication failed") && message.contains("401"),
        "{message}"
    );
    assert!(retries(&events).is_empty());
    assert_eq!(fake.requests().len(), 1);
}

#[tokio::test]
async fn a_429_is_retried_after_retry_after_ms_and_a_529_after_retry_after() {
    let mut rate_limited = error(429, "rate_limit_exceeded");
    if let ScriptedReply::Error { retry_after_ms, .. } = &mut rate_limited {
        *retry_after_ms = Some("20".into());
    }
    let mut overloaded = error(529, "overloaded_error");
    if let ScriptedReply::Error { retry_after, .. } = &mut overloaded {
        *retry_after = Some("0.03".into());
    }
    let fake = server(Script {
        replies: vec![
            rate_limited,
            overloaded,
            ScriptedReply::Stream(ScriptedTurn::text("made it")),
        ],
    })
    .await;
    let (events, err) = run(&fake).await;
    assert!(err.is_none(), "{err:?}");
    assert_eq!(retries(&events), vec![20, 30]);
    assert_eq!(text(&events), "made it");
    assert_eq!(fake.requests().len(), 3);
}

#[tokio::test]
async fn a_529_that_persists_ends_after_the_retry_limit() {
    let replies = (0..3).map(|_| {
        let mut e = error(529, "overloaded_error");
        if let ScriptedReply::Error { retry_after, .. } = &mut e {
            *retry_after = Some("0.01".into());
        }
        e
    });
    let fake = server(Script {
        replies: replies.collect(),
    })
    .await;
    let (events, err) = run(&fake).await;
    let message = err.expect("an error").to_string();
    assert!(
        message.contains("overloaded") && message.contains("529"),
        "{message}"
    );
    assert_eq!(retries(&events).len(), 2);
    assert_eq!(fake.requests().len(), 3, "first attempt plus two retries");
}
