//! Scheduled prompts (benchmarks/cron.sh; not a test): how long after its due time a scheduled prompt's first model
//! request reaches the model. Each round schedules a one-shot prompt for the next minute in a session whose
//! scheduler runs beside it, as the window runs it, and times the fake model server's first request against the
//! minute's start; a bare timer set for the same instant in the same process is the peer.
//!
//! Usage: `cron_bench [ROUNDS]` (default 3; each round waits for the next minute). Prints the medians, the ratio
//! to the target (1 s) and the peer's lateness.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Local, Timelike};
use tandem_engine::approver::FixedApprover;
use tandem_engine::model::{AnthropicModel, ModelConfig, RetryPolicy};
use tandem_engine::session::{Session, run_scheduled_prompts};
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn, Workspace};
use tandem_engine::tools::cron::{Schedule, TaskFile};
use tandem_engine::tools::features::Features;
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

/// The start of the minute after `now`.
fn next_minute(now: DateTime<Local>) -> DateTime<Local> {
    let start = now
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .expect("a minute's start");
    start + chrono::Duration::minutes(1)
}

/// Milliseconds from `due` to now (negative: early).
fn late_ms(due: DateTime<Local>) -> f64 {
    (Local::now() - due).num_microseconds().unwrap_or(i64::MAX) as f64 / 1000.0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = FakeServer::start(Script::turns(
        (0..rounds).map(|i| ScriptedTurn::text(format!("done {i}"))),
    ))
    .await
    .expect("fake server");
    let config = ModelConfig {
        base_url: fake.url(),
        api_key: Some("sk-bench".into()),
        model: "fake-model".into(),
        retry: RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        },
        ..ModelConfig::default()
    };
    let session = Arc::new(
        Session::builder(&ws.root())
            .expect("folder")
            .model_client(Arc::new(
                AnthropicModel::new(config.clone()).expect("client"),
            ))
            .model(config)
            .mode(PermissionMode::Default)
            .approver(Arc::new(FixedApprover(ApprovalChoice::Allow)))
            .features(Features {
                triggers: true,
                ..Features::OFF
            })
            .build()
            .expect("session"),
    );
    tokio::spawn(run_scheduled_prompts(Arc::downgrade(&session)));
    let file = TaskFile::of_project(&ws.root());
    let (mut tandem, mut timer) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let now = Local::now();
        let due = next_minute(now);
        let expr = format!("{} {} * * *", due.minute(), due.hour());
        let schedule = Schedule::parse(&expr).expect("schedule");
        file.add(
            &schedule,
            &format!("round {round}"),
            false,
            now.timestamp_millis(),
        )
        .expect("add the job");
        let peer = tokio::spawn(async move {
            let wait = (due - Local::now()).to_std().unwrap_or_default();
            tokio::time::sleep(wait).await;
            late_ms(due)
        });
        let seen = fake.requests().len();
        if std::env::var_os("CRON_BENCH_TRACE").is_some() {
            let file = TaskFile::of_project(&ws.root());
            tokio::spawn(async move {
                let wait =
                    (due - Local::now()).to_std().unwrap_or_default() + Duration::from_millis(500);
                tokio::time::sleep(wait).await;
                eprintln!(
                    "half a second after its time, the file holds {:?}",
                    file.load()
                );
            });
        }
        while fake.requests().len() == seen {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let late = late_ms(due);
        let bare = peer.await.expect("peer");
        println!(
            "round {round}: first request {late:.1} ms after its time; a bare timer {bare:.1} ms"
        );
        tandem.push(late);
        timer.push(bare);
    }
    let (t, b) = (median(&tandem), median(&timer));
    println!(
        "median over {rounds} rounds: first request {t:.1} ms after its time ({:.3}x the 1 s target); a bare timer \
         to the same instant {b:.1} ms",
        t / 1000.0
    );
}
