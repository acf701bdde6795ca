//! Executor benchmarks (issue 4, "Speed"): dispatch latency, ten parallel calls against one, and turnaround, for
//! Tandem's engine and for the reference command-line agent, both driven by the same fake model server with the same
//! scripts in the same folder, measured from the server's side. See benchmarks/executor.sh for what each figure is.
//!
//! Usage: `executor_bench bench --work DIR [--reference CLAUDE] [--runs N] [--messages N] [--pairs N] [--history N]`
//! (`--history`: the turnaround figures "with history" count only requests carrying at least N messages, 200 by
//! default; the dispatch scenario's request r carries 2r - 1); the harness runs itself
//! as `executor_bench agent [--sleep] MARKS PROMPT` for the Tandem side.

mod agent;
mod measure;
mod scenarios;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use measure::{Timeline, quantile};
use scenarios::{Agent, Scenario};
use tandem_engine::testing::FakeServer;

const PROMPT: &str = "Go.";

struct Options {
    work: PathBuf,
    reference: Option<PathBuf>,
    runs: usize,
    messages: usize,
    pairs: usize,
    history: usize,
}

#[derive(Default)]
struct Samples {
    dispatch_open: Vec<f64>,
    dispatch_engine: Vec<f64>,
    dispatch_server_engine: Vec<f64>,
    turnaround: Vec<f64>,
    turnaround_engine: Vec<f64>,
    turnaround_long: Vec<f64>,
    turnaround_long_received: Vec<f64>,
    one: Vec<f64>,
    ten: Vec<f64>,
}

/// What one agent run left behind.
struct Run {
    timeline: Timeline,
    trace: PathBuf,
    marks: Vec<agent::EngineMark>,
    /// How many messages each request carried, in order.
    history: Vec<usize>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    if args.first().map(String::as_str) == Some("agent") {
        let sleep = args.iter().any(|a| a == "--sleep");
        let rest: Vec<&String> = args[1..].iter().filter(|a| *a != "--sleep").collect();
        let (marks, prompt) = (rest[0].into(), rest[1].as_str());
        std::process::exit(runtime.block_on(agent::run(prompt, marks, sleep)));
    }
    let options = parse(&args);
    runtime.block_on(bench(options));
}

fn parse(args: &[String]) -> Options {
    let mut options = Options {
        work: PathBuf::from("benchmarks/.cache/executor"),
        reference: None,
        runs: 3,
        messages: 100,
        pairs: 10,
        history: 200,
    };
    let mut it = args.iter().skip(1);
    while let Some(arg) = it.next() {
        let value = it.next().expect("a value after each option");
        match arg.as_str() {
            "--work" => options.work = value.into(),
            "--reference" => options.reference = Some(value.into()),
            "--runs" => options.runs = value.parse().expect("--runs N"),
            "--messages" => options.messages = value.parse().expect("--messages N"),
            "--pairs" => options.pairs = value.parse().expect("--pairs N"),
            "--history" => options.history = value.parse().expect("--history N"),
            other => panic!("unknown option {other}"),
        }
    }
    options.work = std::path::absolute(&options.work).expect("work path");
    options
}

async fn bench(o: Options) {
    let project = o.work.join("project");
    let _ = std::fs::remove_dir_all(&o.work);
    scenarios::make_project(&project, o.messages * scenarios::READS_PER_MESSAGE)
        .expect("make the project folder");
    let project = std::fs::canonicalize(&project).expect("project path");
    let mut agents = vec![Agent::Tandem];
    if o.reference.is_some() {
        agents.push(Agent::Reference);
    }
    let mut samples: Vec<Samples> = agents.iter().map(|_| Samples::default()).collect();
    for run in 0..o.runs {
        for (a, agent) in agents.iter().enumerate() {
            let s = scenarios::dispatch(&project, o.messages, 1);
            let r = run_agent(&o, *agent, &project, &s, true, run).await;
            let out = &mut samples[a];
            out.dispatch_open.extend(measure::dispatch_to_open(
                &s,
                &r.timeline,
                &measure::strace_opens(&r.trace),
            ));
            out.dispatch_engine
                .extend(measure::dispatch_in_engine(&s, &r.marks));
            out.dispatch_server_engine
                .extend(measure::dispatch_server_to_engine(
                    &s,
                    &r.timeline,
                    &r.marks,
                ));
            out.turnaround
                .extend(measure::turnaround_server(&s, &r.timeline));
            out.turnaround_engine
                .extend(measure::turnaround_engine(&s, &r.timeline, &r.marks));
            for (received, into) in [
                (false, &mut out.turnaround_long),
                (true, &mut out.turnaround_long_received),
            ] {
                into.extend(measure::turnaround_with_history(
                    &s,
                    &r.timeline,
                    &r.history,
                    o.history,
                    received,
                ));
            }

            let s = scenarios::ten(*agent, o.pairs);
            let r = run_agent(&o, *agent, &project, &s, false, run).await;
            let (one, ten) = measure::batch_walls(&s, &r.timeline);
            samples[a].one.extend(one);
            samples[a].ten.extend(ten);
        }
        eprintln!("run {} of {} done", run + 1, o.runs);
    }
    report(&agents, &samples, o.history);
}

/// Runs one agent on one scenario against a fresh server (under strace when `trace`) and collects the records.
async fn run_agent(
    o: &Options,
    agent: Agent,
    project: &Path,
    s: &Scenario,
    trace: bool,
    run: usize,
) -> Run {
    let server = FakeServer::start(s.script.clone())
        .await
        .expect("start the fake server");
    let tag = format!(
        "{}-{}-{run}",
        agent.name(),
        if trace { "dispatch" } else { "ten" }
    );
    let home = o.work.join(format!("home-{tag}"));
    std::fs::create_dir_all(&home).expect("home folder");
    let home = std::fs::canonicalize(&home).expect("home path");
    let trace_path = o.work.join(format!("{tag}.strace"));
    let marks_path = o.work.join(format!("{tag}.marks.json"));
    let out_path = o.work.join(format!("{tag}.out.jsonl"));
    let mut argv: Vec<String> = Vec::new();
    if trace {
        argv.extend(
            [
                "strace",
                "-f",
                "--seccomp-bpf",
                "-ttt",
                "-e",
                "trace=openat",
                "-o",
            ]
            .map(String::from),
        );
        argv.push(trace_path.to_string_lossy().into());
        argv.push("--".into());
    }
    match agent {
        Agent::Tandem => {
            argv.push(
                std::env::current_exe()
                    .expect("own path")
                    .to_string_lossy()
                    .into(),
            );
            argv.push("agent".into());
            if !trace {
                argv.push("--sleep".into());
            }
            argv.push(
                std::path::absolute(&marks_path)
                    .expect("marks path")
                    .to_string_lossy()
                    .into(),
            );
            argv.push(PROMPT.into());
        }
        Agent::Reference => {
            let claude = o.reference.as_ref().expect("reference path");
            let config = serde_json::json!({
                "hasCompletedOnboarding": true,
                "lastOnboardingVersion": "2.1.332",
                "projects": {project.to_string_lossy(): {"hasTrustDialogAccepted": true}},
            });
            std::fs::write(home.join(".claude.json"), config.to_string())
                .expect("write .claude.json");
            argv.push(claude.to_string_lossy().into());
            argv.extend(
                [
                    "-p",
                    PROMPT,
                    "--output-format",
                    "stream-json",
                    "--verbose",
                    "--allowedTools",
                    "Read",
                    "Bash(sleep:*)",
                ]
                .map(String::from),
            );
        }
    }
    let out = std::fs::File::create(&out_path).expect("output file");
    let status = tokio::process::Command::new(&argv[0])
        .args(&argv[1..])
        .current_dir(project)
        .env("HOME", &home)
        .env("ANTHROPIC_BASE_URL", server.url())
        .env(
            "ANTHROPIC_API_KEY",
            "sk-ant-api03-benchmark-key-not-real-000000000000",
        )
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::inherit())
        .status()
        .await
        .expect("run the agent");
    let requests = server.requests();
    let rejected: Vec<String> = requests.iter().filter_map(|r| r.rejected.clone()).collect();
    if !status.success() || !rejected.is_empty() || server.remaining() != 0 {
        eprintln!(
            "warning: {tag}: exit {status}, {} requests, {} replies unused, rejected: {rejected:?} (see {})",
            requests.len(),
            server.remaining(),
            out_path.display()
        );
    }
    let history = requests
        .iter()
        .filter(|r| r.rejected.is_none())
        .map(|r| r.body["messages"].as_array().map_or(0, Vec::len))
        .collect();
    let marks = std::fs::read_to_string(&marks_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    Run {
        timeline: Timeline::new(&server.timeline()),
        trace: trace_path,
        marks,
        history,
    }
}

fn fmt(v: f64) -> String {
    if v.is_nan() {
        "-".into()
    } else {
        format!("{v:.3}")
    }
}

fn row(label: &str, tandem: f64, reference: Option<f64>) {
    let (r, ratio) = match reference {
        Some(r) => (fmt(r), fmt(tandem / r)),
        None => ("-".into(), "-".into()),
    };
    println!("{label:<58} {:>12} {:>12} {:>9}", fmt(tandem), r, ratio);
}

fn report(agents: &[Agent], samples: &[Samples], min_history: usize) {
    let t = &samples[0];
    let r = samples.get(1);
    let both = |label: &str, pick: fn(&Samples) -> &Vec<f64>, q: f64| {
        row(label, quantile(pick(t), q), r.map(|r| quantile(pick(r), q)));
    };
    let tandem_only = |label: &str, pick: fn(&Samples) -> &Vec<f64>, q: f64| {
        row(label, quantile(pick(t), q), None);
    };
    println!(
        "{:<58} {:>12} {:>12} {:>9}",
        "figure (ms unless said)",
        "tandem",
        if agents.len() > 1 {
            "reference"
        } else {
            "(no ref)"
        },
        "ratio"
    );
    println!(
        "samples: dispatch {} / {}, turnaround {} / {} (with >= {min_history} messages {} / {}), batches of one \
         {} / {}, of ten {} / {}",
        t.dispatch_open.len(),
        r.map_or(0, |r| r.dispatch_open.len()),
        t.turnaround.len(),
        r.map_or(0, |r| r.turnaround.len()),
        t.turnaround_long.len(),
        r.map_or(0, |r| r.turnaround_long.len()),
        t.one.len(),
        r.map_or(0, |r| r.one.len()),
        t.ten.len(),
        r.map_or(0, |r| r.ten.len()),
    );
    both(
        "dispatch p50: server block_stop -> file opened (strace)",
        |s| &s.dispatch_open,
        0.5,
    );
    both(
        "dispatch p99: server block_stop -> file opened (strace)",
        |s| &s.dispatch_open,
        0.99,
    );
    tandem_only(
        "dispatch p50: in engine, block complete -> executing",
        |s| &s.dispatch_engine,
        0.5,
    );
    tandem_only(
        "dispatch p99: in engine, block complete -> executing",
        |s| &s.dispatch_engine,
        0.99,
    );
    tandem_only(
        "dispatch p50: server block_stop -> engine executing",
        |s| &s.dispatch_server_engine,
        0.5,
    );
    tandem_only(
        "dispatch p99: server block_stop -> engine executing",
        |s| &s.dispatch_server_engine,
        0.99,
    );
    both(
        "turnaround p50: server message_stop -> next request",
        |s| &s.turnaround,
        0.5,
    );
    both(
        "turnaround p99: server message_stop -> next request",
        |s| &s.turnaround,
        0.99,
    );
    tandem_only(
        "turnaround p50: engine last end -> next request",
        |s| &s.turnaround_engine,
        0.5,
    );
    tandem_only(
        "turnaround p99: engine last end -> next request",
        |s| &s.turnaround_engine,
        0.99,
    );
    let long = format!("turnaround, >= {min_history} messages of history");
    both(&format!("{long}, p50"), |s| &s.turnaround_long, 0.5);
    both(&format!("{long}, p99"), |s| &s.turnaround_long, 0.99);
    both(
        "  same, p50, to the body read (before the server parses it)",
        |s| &s.turnaround_long_received,
        0.5,
    );
    both(
        "  same, p99, to the body read (before the server parses it)",
        |s| &s.turnaround_long_received,
        0.99,
    );
    both("one 200 ms call, median wall", |s| &s.one, 0.5);
    both(
        "ten 200 ms calls in one message, median wall",
        |s| &s.ten,
        0.5,
    );
    let ratio = |s: &Samples| quantile(&s.ten, 0.5) / quantile(&s.one, 0.5);
    row("ten / one (x, target <= 1.15)", ratio(t), r.map(ratio));
}
