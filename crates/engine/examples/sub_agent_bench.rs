//! The overhead of a sub-agent (benchmarks/sub_agent.sh; not a test). One session in this process talks to the fake
//! model server; every figure is read off the server's timeline (wall clock), so it is what the model side sees.
//!
//! - Plain call: a message calling Read on a small file; from the end of that response to the next request (the
//!   tool ran and its result went back).
//! - Agent call: a message calling Agent (Explore); "start" is from the end of that response to the child's first
//!   request arriving, "finish" from the end of the child's last response to the parent's next request (carrying
//!   the child's answer). Their sum is the Agent call's overhead beside the child's own model time.
//!
//! Usage: `sub_agent_bench [RUNS]` (default 30). Prints medians in milliseconds and the ratio agent / plain.

use std::sync::Arc;
use std::time::SystemTime;

use serde_json::json;
use tandem_engine::approver::FixedApprover;
use tandem_engine::events::NullSink;
use tandem_engine::model::{AnthropicModel, ModelConfig, RetryPolicy};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::testing::{FakeServer, Mark, Script, ScriptedReply, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, PermissionMode};

fn median(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The time of `what` for request `request` (1-based, counted over the server's life).
fn at(marks: &[Mark], request: usize, what: &str) -> SystemTime {
    marks
        .iter()
        .find(|m| m.request == request && m.what == what)
        .map(|m| m.at)
        .unwrap_or_else(|| panic!("no `{what}` mark for request {request}"))
}

fn ms(from: SystemTime, to: SystemTime) -> f64 {
    to.duration_since(from)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

fn push(server: &FakeServer, turns: Vec<ScriptedTurn>) {
    for turn in turns {
        server.push(ScriptedReply::Stream(turn));
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse().expect("RUNS is a number"))
        .unwrap_or(30);
    let ws = Workspace::new(&[("notes.txt", "a small file\n")]).expect("workspace");
    let notes = ws.path("notes.txt").display().to_string();
    let server = FakeServer::start(Script::default())
        .await
        .expect("fake server");
    let config = ModelConfig {
        base_url: server.url(),
        api_key: Some("sk-bench".into()),
        model: "fake-model".into(),
        retry: RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        },
        ..ModelConfig::default()
    };
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    let session = Session::builder(&ws.root())
        .expect("folder")
        .options(SessionOptions {
            id: None,
            cwd: ws.root(),
            model: config,
            mode: PermissionMode::Default,
            approver: Arc::new(FixedApprover(ApprovalChoice::Allow)),
            events: Arc::new(NullSink),
            store: None,
            watch_settings: false,
        })
        .model_client(model)
        .build()
        .expect("session");
    let (mut plain, mut start, mut finish, mut agent) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut request = 0;
    for run in 0..runs {
        push(
            &server,
            vec![
                ScriptedTurn::tool_use(format!("r{run}"), "Read", json!({"file_path": notes})),
                ScriptedTurn::text("read"),
            ],
        );
        session.send("read the notes").await.expect("plain turn");
        let marks = server.timeline();
        plain.push(ms(
            at(&marks, request + 1, "end"),
            at(&marks, request + 2, "arrived"),
        ));
        request += 2;

        push(
            &server,
            vec![
                ScriptedTurn::tool_use(
                    format!("a{run}"),
                    "Agent",
                    json!({"description": "Answer", "prompt": "Say hi.", "subagent_type": "Explore"}),
                ),
                ScriptedTurn::text("hi"),
                ScriptedTurn::text("the agent said hi"),
            ],
        );
        session.send("ask an agent").await.expect("agent turn");
        let marks = server.timeline();
        let s = ms(
            at(&marks, request + 1, "end"),
            at(&marks, request + 2, "arrived"),
        );
        let f = ms(
            at(&marks, request + 2, "end"),
            at(&marks, request + 3, "arrived"),
        );
        start.push(s);
        finish.push(f);
        agent.push(s + f);
        request += 3;
    }
    let (p, s, f, a) = (
        median(&plain),
        median(&start),
        median(&finish),
        median(&agent),
    );
    println!("runs: {runs}");
    println!("plain Read call (response end -> next request):        {p:8.3} ms");
    println!("Agent call start (response end -> child's 1st request): {s:8.3} ms");
    println!("Agent call finish (child's end -> parent's request):    {f:8.3} ms");
    println!("Agent call overhead (start + finish):                   {a:8.3} ms");
    println!(
        "ratio Agent overhead / plain call:                      {:8.2}x",
        a / p
    );
}
