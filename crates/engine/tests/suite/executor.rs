//! The streaming executor and the batch orchestrator on tokio's paused clock: ordering, the concurrency cap, calls
//! that must run alone, sibling abort, interrupts, context changes, one result per call.

use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::exec::{
    StreamingExecutor, ToolCallOutcome, ToolRuntime, partition_tool_calls, run_tools,
};
use tandem_engine::model::ContentBlock;
use tandem_engine::registry::erase;
use tandem_engine::testing::{CallLog, FakeTool, TestRuntime};
use tandem_engine::tool::InterruptBehavior;
use tandem_protocol::{PermissionMode, SessionEvent, ToolOutcome};
use tokio_util::sync::CancellationToken;

const MS: fn(u64) -> Duration = Duration::from_millis;

fn runtime(tools: Vec<FakeTool>) -> ToolRuntime {
    TestRuntime::new(std::env::temp_dir())
        .session_id("s")
        .tools(tools.into_iter().map(erase).collect())
        .build()
}

fn call(id: &str, tool: &str, input: Value) -> (String, String, Value) {
    (id.to_string(), tool.to_string(), input)
}

fn ids(outcomes: &[ToolCallOutcome]) -> Vec<String> {
    outcomes
        .iter()
        .map(|o| match &o.block {
            ContentBlock::ToolResult { tool_use_id, .. } => tool_use_id.clone(),
            other => panic!("not a result: {other:?}"),
        })
        .collect()
}

fn text(o: &ToolCallOutcome) -> String {
    match &o.block {
        ContentBlock::ToolResult { content, .. } => content.as_text(),
        _ => String::new(),
    }
}

#[tokio::test(start_paused = true)]
async fn ten_safe_calls_run_together_and_take_as_long_as_one() {
    let log = CallLog::default();
    let rt = runtime(vec![FakeTool::safe("Look", &log)]);
    let calls: Vec<_> = (0..10)
        .map(|i| {
            call(
                &format!("t{i}"),
                "Look",
                json!({"label": format!("c{i}"), "ms": 200}),
            )
        })
        .collect();
    let start = tokio::time::Instant::now();

    let outcomes = run_tools(&rt, calls, &CancellationToken::new(), 10).await;

    assert_eq!(start.elapsed(), MS(200));
    assert_eq!(log.max_parallel(), 10);
    assert_eq!(
        ids(&outcomes),
        (0..10).map(|i| format!("t{i}")).collect::<Vec<_>>()
    );
    assert!(outcomes.iter().all(|o| o.outcome == ToolOutcome::Success));
}

#[tokio::test(start_paused = true)]
async fn the_concurrency_cap_holds() {
    let log = CallLog::default();
    let rt = runtime(vec![FakeTool::safe("Look", &log)]);
    let calls: Vec<_> = (0..7)
        .map(|i| {
            call(
                &format!("t{i}"),
                "Look",
                json!({"label": format!("c{i}"), "ms": 100}),
            )
        })
        .collect();
    let start = tokio::time::Instant::now();

    let outcomes = run_tools(&rt, calls, &CancellationToken::new(), 3).await;

    assert_eq!(log.max_parallel(), 3);
    assert_eq!(start.elapsed(), MS(300));
    assert_eq!(outcomes.len(), 7);
}

#[tokio::test(start_paused = true)]
async fn a_call_that_is_not_concurrency_safe_runs_alone_and_in_order() {
    let log = CallLog::default();
    let rt = runtime(vec![
        FakeTool::safe("Look", &log),
        FakeTool::exclusive("Change", &log),
    ]);
    let calls = vec![
        call("a", "Look", json!({"label": "a", "ms": 100})),
        call("b", "Look", json!({"label": "b", "ms": 50})),
        call("x", "Change", json!({"label": "x", "ms": 30})),
        call("c", "Look", json!({"label": "c", "ms": 10})),
        call("d", "Look", json!({"label": "d", "ms": 10})),
    ];
    let batches = partition_tool_calls(&rt, &calls);
    assert_eq!(
        batches
            .iter()
            .map(|b| (b.concurrency_safe, b.calls.len()))
            .collect::<Vec<_>>(),
        [(true, 2), (false, 1), (true, 2)]
    );

    let outcomes = run_tools(&rt, calls, &CancellationToken::new(), 10).await;

    assert_eq!(log.at("a", "start"), Some(MS(0)));
    assert_eq!(log.at("b", "start"), Some(MS(0)));
    assert_eq!(
        log.at("x", "start"),
        Some(MS(100)),
        "waits for every earlier call"
    );
    assert_eq!(
        log.at("c", "start"),
        Some(MS(130)),
        "later calls wait for it"
    );
    assert_eq!(log.at("d", "start"), Some(MS(130)));
    assert_eq!(ids(&outcomes), ["a", "b", "x", "c", "d"]);
}

#[tokio::test(start_paused = true)]
async fn calls_start_as_they_are_added_and_results_come_out_in_call_order() {
    let log = CallLog::default();
    let rt = runtime(vec![FakeTool::safe("Look", &log)]);
    let (mut executor, mut done) = StreamingExecutor::new(rt, CancellationToken::new(), 10);

    executor.add(
        "slow".into(),
        "Look".into(),
        json!({"label": "slow", "ms": 100}),
    );
    tokio::time::sleep(MS(20)).await; // the model is still streaming
    executor.add(
        "fast".into(),
        "Look".into(),
        json!({"label": "fast", "ms": 10}),
    );
    let first = done.recv().await.expect("a completion");
    executor.on_completion(first);
    assert!(
        executor.take_ready().is_empty(),
        "the fast call finished first but must not be yielded before the slow one"
    );
    let outcomes = executor.finish(&mut done).await;

    assert_eq!(log.at("slow", "start"), Some(MS(0)));
    assert_eq!(
        log.at("fast", "start"),
        Some(MS(20)),
        "started before the message ended"
    );
    assert_eq!(ids(&outcomes), ["slow", "fast"]);
}

#[tokio::test(start_paused = true)]
async fn a_failing_shell_call_aborts_its_running_siblings_but_not_the_turn() {
    let log = CallLog::default();
    let mut shell = FakeTool::safe("Shell", &log);
    shell.aborts_siblings = true;
    let (rt, sink) = TestRuntime::new(std::env::temp_dir())
        .session_id("s")
        .tools(vec![erase(shell), erase(FakeTool::safe("Look", &log))])
        .recorded();
    let turn = CancellationToken::new();
    let calls = vec![
        call("sib1", "Look", json!({"label": "sib1", "ms": 500})),
        call(
            "sh",
            "Shell",
            json!({"label": "sh", "ms": 50, "fail": true}),
        ),
        call("sib2", "Look", json!({"label": "sib2", "ms": 500})),
    ];
    let start = tokio::time::Instant::now();

    let outcomes = run_tools(&rt, calls, &turn, 10).await;

    assert_eq!(start.elapsed(), MS(50));
    assert!(!turn.is_cancelled(), "the turn goes on");
    assert_eq!(ids(&outcomes), ["sib1", "sh", "sib2"]);
    assert_eq!(outcomes[1].outcome, ToolOutcome::Error);
    for sibling in [&outcomes[0], &outcomes[2]] {
        assert_eq!(sibling.outcome, ToolOutcome::Cancelled);
        assert!(
            text(sibling).contains("Aborted") && text(sibling).contains("sh"),
            "{}",
            text(sibling)
        );
    }
    // The window is told the same true cause as the model, not "interrupted by the user".
    for id in ["sib1", "sib2"] {
        let shown = sink
            .events()
            .into_iter()
            .find_map(|e| match e {
                SessionEvent::ToolCallResult {
                    tool_use_id,
                    content,
                    ..
                } if tool_use_id == id => Some(content),
                _ => None,
            })
            .expect("a result event");
        assert!(shown.contains("parallel shell call"), "{id}: {shown}");
    }
}

#[tokio::test(start_paused = true)]
async fn an_error_in_another_tool_does_not_abort_siblings() {
    let log = CallLog::default();
    let rt = runtime(vec![FakeTool::safe("Look", &log)]);
    let calls = vec![
        call(
            "bad",
            "Look",
            json!({"label": "bad", "ms": 10, "fail": true}),
        ),
        call("ok", "Look", json!({"label": "ok", "ms": 100})),
    ];
    let outcomes = run_tools(&rt, calls, &CancellationToken::new(), 10).await;
    assert_eq!(outcomes[0].outcome, ToolOutcome::Error);
    assert_eq!(outcomes[1].outcome, ToolOutcome::Success);
}

#[tokio::test(start_paused = true)]
async fn an_interrupt_stops_cancel_tools_lets_block_tools_finish_and_answers_queued_calls() {
    let log = CallLog::default();
    let mut blocking = FakeTool::safe("Write", &log);
    blocking.interrupt = InterruptBehavior::Block;
    let rt = runtime(vec![
        FakeTool::safe("Look", &log),
        blocking,
        FakeTool::exclusive("Change", &log),
    ]);
    let turn = CancellationToken::new();
    let calls = vec![
        call("look", "Look", json!({"label": "look", "ms": 1000})),
        call("write", "Write", json!({"label": "write", "ms": 300})),
        call("later", "Change", json!({"label": "later", "ms": 10})),
    ];
    let interrupter = turn.clone();
    tokio::spawn(async move {
        tokio::time::sleep(MS(100)).await;
        interrupter.cancel();
    });

    let outcomes = run_tools(&rt, calls, &turn, 10).await;

    assert_eq!(
        ids(&outcomes),
        ["look", "write", "later"],
        "every call gets exactly one result"
    );
    assert_eq!(outcomes[0].outcome, ToolOutcome::Cancelled);
    assert!(text(&outcomes[0]).contains("interrupted"));
    assert_eq!(
        outcomes[1].outcome,
        ToolOutcome::Success,
        "a block tool finishes"
    );
    assert_eq!(log.at("write", "end"), Some(MS(300)));
    assert_eq!(outcomes[2].outcome, ToolOutcome::Cancelled);
    assert_eq!(
        log.at("later", "start"),
        None,
        "a queued call never starts after an interrupt"
    );
}

#[tokio::test(start_paused = true)]
async fn a_context_change_from_a_call_that_runs_alone_applies_to_the_calls_after_it() {
    let log = CallLog::default();
    let rt = runtime(vec![
        FakeTool::exclusive("Change", &log),
        FakeTool::safe("Look", &log),
    ]);
    let calls = vec![
        call(
            "m",
            "Change",
            json!({"label": "m", "ms": 5, "set_mode": "plan"}),
        ),
        call(
            "l",
            "Look",
            json!({"label": "l", "ms": 5, "set_mode": "bypassPermissions"}),
        ),
    ];
    run_tools(&rt, calls, &CancellationToken::new(), 10).await;
    assert_eq!(
        rt.permission_context().mode,
        PermissionMode::Plan,
        "only the exclusive call's change applies"
    );
}

#[tokio::test(start_paused = true)]
async fn dropping_the_executor_stops_its_running_calls() {
    let log = CallLog::default();
    // A tool that ignores cancellation: only aborting its task stops it.
    let rt = runtime(vec![FakeTool::exclusive("Build", &log)]);
    let (mut executor, _completions) = StreamingExecutor::new(rt, CancellationToken::new(), 10);
    executor.add(
        "t1".into(),
        "Build".into(),
        json!({"label": "long", "ms": 10_000}),
    );
    while log.at("long", "start").is_none() {
        tokio::task::yield_now().await;
    }

    drop(executor);
    tokio::time::sleep(MS(60_000)).await;

    assert_eq!(log.at("long", "end"), None, "{:?}", log.entries());
}
