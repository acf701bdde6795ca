//! `tandem -p PROMPT`: one headless turn in a folder, printed as text, JSON or a stream of JSON events.

use std::io::Write;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::json;
use tandem_engine::approver::Approver;
use tandem_engine::events::EventSink;
use tandem_engine::model::ModelConfig;
use tandem_engine::session::{Session, SessionOptions};
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, EventEnvelope, SessionEvent, TurnStopReason,
};

use super::{Cli, OutputFormat};

/// Answers every question the same way and tells stderr about it.
pub struct StderrApprover {
    pub yes: bool,
}

impl Approver for StderrApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let choice = if self.yes {
            ApprovalChoice::Allow
        } else {
            ApprovalChoice::Deny
        };
        let answer = if self.yes {
            "yes (--yes)"
        } else {
            "no (no one to ask; pass --yes or a permission mode)"
        };
        eprintln!(
            "tandem: permission asked for {}: {}; answered {answer}",
            request.title, request.reason
        );
        Box::pin(async move { ApprovalAnswer::new(request.id, choice) })
    }
}

/// Prints each event as a JSON line (stream-json), numbering them.
struct JsonLinesSink {
    session_id: String,
    seq: std::sync::atomic::AtomicU64,
}

impl EventSink for JsonLinesSink {
    fn emit(&self, event: SessionEvent) {
        let seq = self.seq.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let envelope = EventEnvelope {
            session_id: self.session_id.clone(),
            seq,
            event,
        };
        if let Ok(line) = serde_json::to_string(&envelope) {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    }
}

/// Reports errors and denials on stderr when the output is not a stream.
struct StderrSink;

impl EventSink for StderrSink {
    fn emit(&self, event: SessionEvent) {
        match event {
            SessionEvent::Retrying {
                attempt,
                wait_ms,
                reason,
            } => {
                eprintln!(
                    "tandem: {reason}; retry {attempt} in {:.1} s",
                    wait_ms as f64 / 1000.0
                )
            }
            SessionEvent::Notice { message } => eprintln!("tandem: {message}"),
            _ => {}
        }
    }
}

/// Runs the turn and returns the exit code.
pub async fn run(cli: &Cli, prompt: &str) -> i32 {
    let cwd = match &cli.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| ".".into()),
    };
    let (mut model, problem) = ModelConfig::load();
    if let Some(problem) = problem {
        eprintln!("tandem: ignoring the settings file: {problem}");
    }
    if let Some(name) = &cli.model {
        model.model = name.clone();
    }
    let session_id = uuid::Uuid::new_v4().to_string();
    let events: Arc<dyn EventSink> = match cli.output_format {
        OutputFormat::StreamJson => Arc::new(JsonLinesSink {
            session_id: session_id.clone(),
            seq: std::sync::atomic::AtomicU64::new(0),
        }),
        _ => Arc::new(StderrSink),
    };
    let session = match Session::open(SessionOptions {
        id: Some(session_id.clone()),
        cwd,
        model,
        mode: cli.permission_mode,
        approver: Arc::new(StderrApprover { yes: cli.yes }),
        events,
        store: None,
    }) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 2;
        }
    };
    // Command-line runs treat the folder as trusted (spec/permissions.md §2).
    session.assume_trusted();
    match session.send(prompt).await {
        Ok(outcome) => {
            let is_error = matches!(
                outcome.stop_reason,
                TurnStopReason::Error | TurnStopReason::Refusal
            );
            match cli.output_format {
                OutputFormat::Text => println!("{}", outcome.final_text),
                OutputFormat::Json | OutputFormat::StreamJson => {
                    let result = json!({
                        "type": "result",
                        "is_error": is_error,
                        "result": outcome.final_text,
                        "stop_reason": outcome.stop_reason,
                        "session_id": session_id,
                        "num_turns": outcome.requests,
                        "usage": outcome.usage,
                    });
                    println!("{result}");
                }
            }
            if is_error { 1 } else { 0 }
        }
        Err(e) => {
            eprintln!("tandem: {e}");
            1
        }
    }
}
