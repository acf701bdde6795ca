//! Background sub-agents in parallel (benchmarks/parallel_agents.sh; not a test): the wall time from sending a
//! prompt whose answer starts N background agents (Explore) to the last of them ending, for N = 1 and N = 5. Each
//! child makes one model request that the fake model server answers after a fixed delay (the model's "thinking"),
//! so parallel agents should take about as long as one.
//!
//! The same for a team: TeamCreate starting N members, from the prompt to the last member going idle (its first
//! turn answered), for N = 1 and N = 5.
//!
//! Usage: `parallel_agents_bench [RUNS] [DELAY_MS]` (default 10 runs, 100 ms). Prints medians and the ratio; with
//! `SHOW_TIMELINE` set, also the server's timeline (when each request was received, parsed and answered).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use tandem_engine::approver::FixedApprover;
use tandem_engine::model::{AnthropicModel, ModelConfig, RetryPolicy};
use tandem_engine::session::Session;
use tandem_engine::testing::{
    FakeServer, Script, ScriptBlock, ScriptedReply, ScriptedTurn, Workspace,
};
use tandem_engine::tools::features::Features;
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent, TeamMemberStatus};

fn median(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Counts the background agents that ended, and each team's idle members.
#[derive(Default)]
struct Ended(AtomicUsize, Mutex<HashMap<String, usize>>);

impl Ended {
    fn idle(&self, team: &str) -> usize {
        self.1
            .lock()
            .map(|m| m.get(team).copied().unwrap_or(0))
            .unwrap_or(0)
    }
}

impl tandem_engine::events::EventSink for Ended {
    fn emit(&self, event: SessionEvent) {
        match event {
            SessionEvent::Notice { message } if message.starts_with("Background agent") => {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
            SessionEvent::TeamChanged { team } => {
                let idle = team
                    .members
                    .iter()
                    .filter(|m| m.status == TeamMemberStatus::Idle)
                    .count();
                if let Ok(mut teams) = self.1.lock() {
                    teams.insert(team.name, idle);
                }
            }
            _ => {}
        }
    }
}

/// One run with a team of `n`: milliseconds from sending the prompt to the last member going idle.
async fn team_run(
    session: &Session,
    server: &FakeServer,
    ended: &Ended,
    n: usize,
    delay_ms: u64,
    run: usize,
) -> f64 {
    let team = format!("t{run}_{n}");
    let members: Vec<_> = (0..n)
        .map(|i| json!({"name": format!("m{run}_{n}_{i}"), "prompt": "Say hi."}))
        .collect();
    server.push(ScriptedReply::Stream(ScriptedTurn::tool_use(
        format!("c{run}_{n}"),
        "TeamCreate",
        json!({"team_name": team, "members": members}),
    )));
    for _ in 0..=n {
        let mut answer = ScriptedTurn::text("hi");
        answer.delay_before_ms = delay_ms;
        server.push(ScriptedReply::Stream(answer));
    }
    let started = Instant::now();
    session.send("start the team").await.expect("turn");
    while ended.idle(&team) < n {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    started.elapsed().as_secs_f64() * 1000.0
}

/// One run with `n` agents: milliseconds from sending the prompt to the last agent's end.
async fn one_run(
    session: &Session,
    server: &FakeServer,
    ended: &Ended,
    n: usize,
    delay_ms: u64,
    run: usize,
) -> f64 {
    let calls = (0..n)
        .map(|i| ScriptBlock::ToolUse {
            id: format!("a{run}_{n}_{i}"),
            name: "Agent".into(),
            input: json!({"description": "Answer", "prompt": "Say hi.", "subagent_type": "Explore", "run_in_background": true}),
        })
        .collect();
    server.push(ScriptedReply::Stream(ScriptedTurn::new(calls)));
    // The children's answers and the parent's next one are alike: whoever asks first gets the first.
    for _ in 0..=n {
        let mut answer = ScriptedTurn::text("hi");
        answer.delay_before_ms = delay_ms;
        server.push(ScriptedReply::Stream(answer));
    }
    let before = ended.0.load(Ordering::SeqCst);
    let started = Instant::now();
    session.send("start the agents").await.expect("turn");
    while ended.0.load(Ordering::SeqCst) < before + n {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    started.elapsed().as_secs_f64() * 1000.0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args
        .next()
        .map(|n| n.parse().expect("RUNS is a number"))
        .unwrap_or(10);
    let delay_ms: u64 = args
        .next()
        .map(|n| n.parse().expect("DELAY_MS is a number"))
        .unwrap_or(100);
    let ws = Workspace::new(&[]).expect("workspace");
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
    let ended = Arc::new(Ended::default());
    let session = Session::builder(&ws.root())
        .expect("folder")
        .model_client(Arc::new(
            AnthropicModel::new(config.clone()).expect("client"),
        ))
        .model(config)
        .mode(PermissionMode::Default)
        .approver(Arc::new(FixedApprover(ApprovalChoice::Allow)))
        .events(ended.clone())
        .features(Features {
            teams: true,
            ..Features::default()
        })
        .build()
        .expect("session");
    let (mut one, mut five) = (Vec::new(), Vec::new());
    let (mut team_one, mut team_five) = (Vec::new(), Vec::new());
    for run in 0..runs {
        one.push(one_run(&session, &server, &ended, 1, delay_ms, run).await);
        five.push(one_run(&session, &server, &ended, 5, delay_ms, run).await);
        team_one.push(team_run(&session, &server, &ended, 1, delay_ms, run).await);
        team_five.push(team_run(&session, &server, &ended, 5, delay_ms, run).await);
    }
    if std::env::var("SHOW_TIMELINE").is_ok() {
        let marks = server.timeline();
        let first = marks.first().map(|m| m.at).unwrap_or(std::time::UNIX_EPOCH);
        for m in marks
            .iter()
            .filter(|m| m.what == "arrived" || m.what == "end" || m.what == "received")
        {
            let t = m.at.duration_since(first).unwrap_or_default().as_secs_f64() * 1000.0;
            println!("{t:9.2} ms  request {:3}  {}", m.request, m.what);
        }
    }
    let (a, b) = (median(&one), median(&five));
    println!("runs: {runs}, model delay per request: {delay_ms} ms");
    println!("one background agent, prompt -> its end:    {a:8.2} ms");
    println!("five background agents, prompt -> last end: {b:8.2} ms");
    println!("ratio five / one:                           {:8.2}x", b / a);
    let (c, d) = (median(&team_one), median(&team_five));
    println!("team of one, prompt -> member idle:         {c:8.2} ms");
    println!("team of five, prompt -> last member idle:   {d:8.2} ms");
    println!("ratio five / one:                           {:8.2}x", d / c);
}
