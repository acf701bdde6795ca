//! A configurable fake tool for executor tests: sleeps, fails, or changes the permission mode on request, and logs
//! when each call starts and ends (on tokio's clock, so paused-clock tests are exact).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::PermissionMode;

use crate::tool::{ContextChange, InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};

/// One log entry: (label, "start" | "end" | "cancelled", time since the log was made).
pub type LogEntry = (String, &'static str, Duration);

/// A shared log of fake calls.
#[derive(Debug, Clone)]
pub struct CallLog {
    base: tokio::time::Instant,
    entries: Arc<Mutex<Vec<LogEntry>>>,
}

impl Default for CallLog {
    fn default() -> Self {
        Self {
            base: tokio::time::Instant::now(),
            entries: Arc::default(),
        }
    }
}

impl CallLog {
    fn push(&self, label: &str, what: &'static str) {
        if let Ok(mut e) = self.entries.lock() {
            e.push((label.to_string(), what, self.base.elapsed()));
        }
    }

    /// Every entry so far.
    pub fn entries(&self) -> Vec<LogEntry> {
        self.entries.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// When `label` did `what`, if it did.
    pub fn at(&self, label: &str, what: &str) -> Option<Duration> {
        self.entries()
            .into_iter()
            .find(|(l, w, _)| l == label && *w == what)
            .map(|(_, _, t)| t)
    }

    /// The largest number of calls running at once.
    pub fn max_parallel(&self) -> usize {
        let mut running = 0usize;
        let mut max = 0;
        let mut entries = self.entries();
        // At one instant, calls that end free their slot before the next ones start.
        entries.sort_by_key(|(_, what, t)| (*t, *what == "start"));
        for (_, what, _) in entries {
            if what == "start" {
                running += 1;
                max = max.max(running);
            } else {
                running = running.saturating_sub(1);
            }
        }
        max
    }
}

/// Input of the fake tool.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct FakeInput {
    /// A name for the log.
    pub label: String,
    /// How long the call takes.
    #[serde(default)]
    pub ms: u64,
    /// Whether it ends with an error.
    #[serde(default)]
    pub fail: bool,
    /// A permission mode to switch to (a context change for the calls after it).
    #[serde(default)]
    pub set_mode: Option<String>,
}

/// The fake tool.
#[derive(Debug, Clone)]
pub struct FakeTool {
    pub name: &'static str,
    pub concurrency_safe: bool,
    pub interrupt: InterruptBehavior,
    pub aborts_siblings: bool,
    pub log: CallLog,
}

impl FakeTool {
    /// A read-only, concurrency-safe tool that stops when interrupted.
    pub fn safe(name: &'static str, log: &CallLog) -> Self {
        Self {
            name,
            concurrency_safe: true,
            interrupt: InterruptBehavior::Cancel,
            aborts_siblings: false,
            log: log.clone(),
        }
    }

    /// A tool that must run alone and finishes even when interrupted.
    pub fn exclusive(name: &'static str, log: &CallLog) -> Self {
        Self {
            name,
            concurrency_safe: false,
            interrupt: InterruptBehavior::Block,
            aborts_siblings: false,
            log: log.clone(),
        }
    }
}

impl Tool for FakeTool {
    type Input = FakeInput;

    fn name(&self) -> &'static str {
        self.name
    }
    fn description(&self) -> String {
        "A fake tool for tests.".into()
    }
    fn is_concurrency_safe(&self, _input: &FakeInput) -> bool {
        self.concurrency_safe
    }
    fn is_read_only(&self, _input: &FakeInput) -> bool {
        self.concurrency_safe
    }
    fn interrupt_behavior(&self) -> InterruptBehavior {
        self.interrupt
    }
    fn aborts_siblings_on_error(&self) -> bool {
        self.aborts_siblings
    }

    async fn call(&self, input: &FakeInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        self.log.push(&input.label, "start");
        let finished = tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(input.ms)) => true,
            _ = ctx.cancel.cancelled(), if self.interrupt == InterruptBehavior::Cancel => false,
        };
        if !finished {
            self.log.push(&input.label, "cancelled");
            return Err(ToolError::Cancelled);
        }
        self.log.push(&input.label, "end");
        if input.fail {
            return Err(ToolError::to_model(format!("{} failed", input.label)));
        }
        let mut output = ToolOutput::text(format!("{} done", input.label));
        if let Some(mode) = input.set_mode.as_deref().and_then(PermissionMode::parse) {
            output.context_change = Some(ContextChange::SetMode(mode));
        }
        Ok(output)
    }
}
