//! Drives the file tools for the benchmarks in `benchmarks/` (not a test). Every call goes through the real
//! tool-call pipeline with an approver that allows.
//!
//! - `file_tools_bench grep ROOT JSON [REPEAT]` / `glob ROOT JSON [REPEAT]`: the call (REPEAT times in one
//!   session) with cwd ROOT; the last result text goes to stdout, a JSON summary (`files`, `matches`, `shown`,
//!   `ms` of the first call, `call_ms` of each) to stderr.
//! - `file_tools_bench edit FILE OLD NEW RUNS`: reads FILE once, then edits it RUNS times (OLD→NEW, then back),
//!   timing each Edit call; prints the times in milliseconds as JSON.
//! - `file_tools_bench rg-args PATH JSON`: the `rg` arguments equivalent to a Grep input, as a JSON list.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};
use tandem_engine::events::{EventSink, RecordingSink};
use tandem_engine::exec::{ToolRuntime, run_tool_use};
use tandem_engine::model::ContentBlock;
use tandem_engine::testing::TestRuntime;
use tandem_protocol::{PermissionMode, SessionEvent, ToolOutcome};
use tokio_util::sync::CancellationToken;

fn runtime(cwd: &Path, events: Arc<dyn EventSink>) -> ToolRuntime {
    TestRuntime::new(cwd)
        .session_id("bench")
        .mode(PermissionMode::BypassPermissions)
        .events(events)
        .build()
}

async fn run(rt: &ToolRuntime, tool: &str, input: &Value) -> Result<String, String> {
    let out = run_tool_use(rt, "bench", tool, input, &CancellationToken::new()).await;
    let text = match &out.block {
        ContentBlock::ToolResult { content, .. } => content.as_text(),
        _ => String::new(),
    };
    if out.outcome == ToolOutcome::Success {
        Ok(text)
    } else {
        Err(text)
    }
}

fn detail(events: &RecordingSink) -> Value {
    events
        .events()
        .into_iter()
        .rev()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult { detail, .. } => detail,
            _ => None,
        })
        .and_then(|d| serde_json::to_value(d).ok())
        .unwrap_or(Value::Null)
}

async fn search(tool: &str, root: &str, input: &str, repeat: usize) -> Result<(), String> {
    let input: Value = serde_json::from_str(input).map_err(|e| e.to_string())?;
    let events = RecordingSink::default();
    let rt = runtime(Path::new(root), Arc::new(events.clone()));
    let mut times = Vec::new();
    let mut text = String::new();
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        text = run(&rt, tool, &input).await?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    println!("{text}");
    let mut summary = detail(&events);
    summary["ms"] = json!(times[0]);
    summary["call_ms"] = json!(times);
    eprintln!("{summary}");
    Ok(())
}

async fn edit(file: &str, old: &str, new: &str, runs: usize) -> Result<(), String> {
    let path = Path::new(file);
    let dir = path.parent().ok_or("FILE has no folder")?;
    let rt = runtime(dir, Arc::new(tandem_engine::events::NullSink));
    run(&rt, "Read", &json!({"file_path": file, "limit": 1})).await?;
    let mut times = Vec::with_capacity(runs);
    for i in 0..runs {
        let (from, to) = if i % 2 == 0 { (old, new) } else { (new, old) };
        let input = json!({"file_path": file, "old_string": from, "new_string": to});
        let start = Instant::now();
        run(&rt, "Edit", &input).await?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    println!("{}", json!({"edit_ms": times}));
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["grep", root, input] => search("Grep", root, input, 1).await,
        ["glob", root, input] => search("Glob", root, input, 1).await,
        ["grep", root, input, repeat] => search("Grep", root, input, repeat.parse().unwrap_or(1)).await,
        ["glob", root, input, repeat] => search("Glob", root, input, repeat.parse().unwrap_or(1)).await,
        ["rg-args", path, input] => serde_json::from_str::<tandem_engine::tools::grep::GrepInput>(input)
            .map(|parsed| println!("{}", json!(tandem_engine::tools::grep::rg_args(&parsed, path))))
            .map_err(|e| e.to_string()),
        ["edit", file, old, new, runs] => match runs.parse() {
            Ok(runs) => edit(file, old, new, runs).await,
            Err(e) => Err(format!("RUNS: {e}")),
        },
        _ => Err("usage: file_tools_bench grep|glob ROOT JSON | edit FILE OLD NEW RUNS | rg-args PATH JSON".into()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
