//! `tandem tool`: runs tool calls through the same pipeline a model's calls take (schema, validation, permissions,
//! the call) in one session, printing one JSON line per call.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use serde::Deserialize;
use serde_json::{Value, json};
use tandem_engine::exec::run_tool_use;
use tandem_engine::model::{ContentBlock, ModelConfig};
use tandem_engine::session::Session;
use tandem_protocol::PermissionMode;
use tokio_util::sync::CancellationToken;

use super::headless::{StderrApprover, StderrSink};
use super::lazy_model::LazyModel;
use super::lines::{Line, MAX_LINE_BYTES, bounded_lines};

#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The tool to call (with --input).
    #[arg(required_unless_present = "calls", conflicts_with = "calls")]
    pub name: Option<String>,
    /// The tool input as JSON.
    #[arg(long, requires = "name")]
    pub input: Option<String>,
    /// A JSON-lines file of {"tool": ..., "input": ...} calls, or - for stdin (answered line by line).
    #[arg(long, value_name = "FILE|-")]
    pub calls: Option<PathBuf>,
    /// The folder to work in (default: the current folder).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// The permission mode (`default` lets the settings' `defaultMode` decide).
    #[arg(long, value_parser = super::parse_mode, default_value = "default")]
    pub permission_mode: PermissionMode,
    /// Answer permission questions with yes.
    #[arg(long)]
    pub yes: bool,
}

#[derive(Debug, Deserialize)]
struct Call {
    tool: String,
    #[serde(default)]
    input: Value,
}

fn print_line(value: &Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{value}");
    let _ = out.flush();
}

async fn run_one(session: &Session, n: usize, tool: &str, input: &Value) -> Value {
    let id = format!("toolu_cli_{n}");
    let outcome = run_tool_use(
        session.runtime(),
        &id,
        tool,
        input,
        &CancellationToken::new(),
    )
    .await;
    let (content, is_error) = match outcome.block {
        ContentBlock::ToolResult {
            content, is_error, ..
        } => (content.as_text(), is_error),
        _ => (String::new(), true),
    };
    json!({"tool": tool, "is_error": is_error, "content": content})
}

/// Runs the calls and returns the exit code (0 whatever the tools answered; 2 for unusable arguments).
pub async fn run(args: &ToolArgs) -> i32 {
    let cwd = match &args.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| ".".into()),
    };
    // The model client is made only if a call needs the model, so that a plain call starts fast.
    let model = ModelConfig::default();
    let built = Session::builder(&cwd).and_then(|builder| {
        builder
            .model(model.clone())
            .model_client(Arc::new(LazyModel::new(model)))
            .mode(args.permission_mode)
            .approver(Arc::new(StderrApprover { yes: args.yes }))
            // Settings problems are told on stderr.
            .events(Arc::new(StderrSink))
            // A stream of calls may run long enough for settings to change; one call does not.
            .watch_settings(args.calls.is_some())
            // Command-line runs treat the folder as trusted (docs/permissions.md §2).
            .assume_trusted()
            .build()
    });
    let session = match built {
        Ok(session) => session,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    if let Some(message) =
        crate::permissions::unreadable_settings(&session.runtime().permission_context())
    {
        eprintln!("tandem: {message}");
        return 1;
    }
    if let Some(name) = &args.name {
        let input = match serde_json::from_str::<Value>(args.input.as_deref().unwrap_or("{}")) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("tandem: --input is not valid JSON: {e}");
                return 2;
            }
        };
        print_line(&run_one(&session, 1, name, &input).await);
        return 0;
    }
    let Some(source) = &args.calls else { return 2 };
    let reader: Box<dyn BufRead> = if source.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        match std::fs::File::open(source) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                eprintln!("tandem: cannot read {}: {e}", source.display());
                return 2;
            }
        }
    };
    for (n, line) in bounded_lines(reader, MAX_LINE_BYTES).enumerate() {
        let line = match line.map(Line::into_text) {
            Ok(Ok(l)) => l,
            Ok(Err(why)) => {
                print_line(
                    &json!({"tool": null, "is_error": true, "content": format!("line {}: {why}", n + 1)}),
                );
                continue;
            }
            Err(e) => {
                eprintln!("tandem: cannot read the calls: {e}");
                return 2;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Call>(&line) {
            Ok(call) => print_line(&run_one(&session, n + 1, &call.tool, &call.input).await),
            Err(e) => print_line(
                &json!({"tool": null, "is_error": true, "content": format!("line {}: not a call: {e}", n + 1)}),
            ),
        }
    }
    0
}
