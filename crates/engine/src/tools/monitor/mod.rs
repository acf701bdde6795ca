//! Monitor (behind [`crate::tools::features::MONITOR_ENV`]): watches a background shell's output or the lines
//! appended to a file for a regular expression, returning at once with the monitor's id; when a line matches, the
//! agent is told through its mailbox — a new turn when the session is idle, the next step of a running turn
//! otherwise. A file is read under the permission rules of a Read of it.

mod follow;
mod watch;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use regex::Regex;
use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::tool::{
    InterruptBehavior, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names,
};
use crate::tools::bash::ShellSession;
use crate::tools::file_io::paths;
use watch::{Source, Watch};

/// The longest timeout, in milliseconds (a day).
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// What to watch and for what.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MonitorInput {
    /// The id of a background shell (a Bash command run with run_in_background, e.g. `shell_1`) whose output to
    /// watch, from its start. Give this or `path`, not both.
    pub shell_id: Option<String>,
    /// A file whose newly appended lines to watch (as `tail -f`). Give this or `shell_id`, not both.
    pub path: Option<String>,
    /// The regular expression a line must match (Rust regex syntax, e.g. `ERROR|panicked` or `listening on \d+`).
    pub pattern: String,
    /// Keep watching after the first match, reporting every later match too. Default false: stop after the first.
    pub persistent: Option<bool>,
    /// Stop watching after this many milliseconds (at most 86400000). Default: until a match, the shell's end or
    /// the session's end.
    #[schemars(range(min = 1, max = 86400000))]
    pub timeout_ms: Option<u64>,
}

/// The monitors of one session: their ids, and the token that ends them with the session (when the tool is
/// dropped).
#[derive(Debug)]
struct Monitors {
    next: AtomicU64,
    ended: CancellationToken,
    _guard: DropGuard,
}

impl Default for Monitors {
    fn default() -> Self {
        let ended = CancellationToken::new();
        Self {
            next: AtomicU64::new(1),
            _guard: ended.clone().drop_guard(),
            ended,
        }
    }
}

/// The Monitor tool.
#[derive(Debug)]
pub struct MonitorTool {
    shell: Arc<ShellSession>,
    monitors: Monitors,
}

impl MonitorTool {
    /// A Monitor tool on `shell`'s background shells; its monitors end when it is dropped.
    pub fn new(shell: Arc<ShellSession>) -> Self {
        Self {
            shell,
            monitors: Monitors::default(),
        }
    }
}

impl Tool for MonitorTool {
    type Input = MonitorInput;

    fn name(&self) -> &'static str {
        names::MONITOR
    }

    fn description(&self) -> String {
        "Watch a background shell's output (shell_id, from a Bash command run with run_in_background) or the lines \
         appended to a file (path, as tail -f) for a regular expression (pattern). Returns at once with the \
         monitor's id; when a line matches, you are sent a <monitor-notification> naming the monitor, the source \
         and the matching lines — as a new turn if you are idle. It stops after the first match unless persistent \
         is true, when the shell ends, after timeout_ms, or when the session ends. Use it instead of polling \
         TaskOutput or sleeping while waiting for a server to start, a build to fail or a log line to appear."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &MonitorInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &MonitorInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &MonitorInput, _ctx: &ToolContext) -> RenderHints {
        let what = input
            .shell_id
            .as_deref()
            .or(input.path.as_deref())
            .unwrap_or("?");
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Monitor {what} for /{}/", input.pattern),
            collapsible: false,
        }
    }

    fn permission_subject(&self, input: &MonitorInput, ctx: &ToolContext) -> PermissionSubject {
        match &input.path {
            Some(path) => PermissionSubject::ReadPath(paths::absolute(ctx, path)),
            // A shell the session started: its output is the session's own.
            None => PermissionSubject::SessionOwned,
        }
    }

    fn backfill_observable_input(&self, input: &mut serde_json::Value, ctx: &ToolContext) {
        crate::tools::read::backfill_path(input, "path", ctx);
    }

    async fn validate_input(&self, input: &MonitorInput, ctx: &ToolContext) -> Result<(), String> {
        match (&input.shell_id, &input.path) {
            (Some(_), Some(_)) => return Err("give either shell_id or path, not both".into()),
            (None, None) => {
                return Err("give shell_id (a background shell) or path (a file) to watch".into());
            }
            (None, Some(path)) => {
                paths::readable(ctx, "path", path)?;
            }
            (Some(_), None) => {}
        }
        compile(&input.pattern)?;
        if let Some(ms) = input.timeout_ms
            && (ms == 0 || ms > MAX_TIMEOUT_MS)
        {
            return Err(format!(
                "timeout_ms must be between 1 and {MAX_TIMEOUT_MS}, not {ms}"
            ));
        }
        Ok(())
    }

    async fn call(&self, input: &MonitorInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let pattern = compile(&input.pattern).map_err(ToolError::to_model)?;
        let Some(mailbox) = &ctx.mailbox else {
            return Err(ToolError::to_model(
                "Monitor cannot wake this agent: it has no mailbox",
            ));
        };
        let (source, follower) = match (&input.shell_id, &input.path) {
            (Some(id), _) => {
                let task = self.shell.tasks.find(id)?;
                let follower = follow::Follower::open(&task.log, true).map_err(|e| {
                    ToolError::to_model(format!("cannot read the output of {id}: {e}"))
                })?;
                (Source::Shell(task), follower)
            }
            (None, Some(raw)) => {
                let path = paths::readable(ctx, "path", raw).map_err(ToolError::to_model)?;
                if path.is_dir() {
                    return Err(ToolError::to_model(format!(
                        "{} is a folder; Monitor watches a file",
                        path.display()
                    )));
                }
                let follower = follow::Follower::open(&path, false).map_err(|e| {
                    ToolError::to_model(format!("cannot watch {}: {e}", path.display()))
                })?;
                (Source::File(path), follower)
            }
            (None, None) => {
                return Err(ToolError::to_model(
                    "give shell_id (a background shell) or path (a file) to watch",
                ));
            }
        };
        let id = format!(
            "monitor_{}",
            self.monitors.next.fetch_add(1, Ordering::Relaxed)
        );
        let described = source.describe();
        let persistent = input.persistent.unwrap_or(false);
        let watch = Watch {
            id: id.clone(),
            source,
            pattern,
            persistent,
            timeout: input.timeout_ms.map(Duration::from_millis),
            mailbox: Arc::downgrade(mailbox),
            ended: self.monitors.ended.child_token(),
        };
        tokio::spawn(watch.run(follower));
        let until = match (persistent, input.timeout_ms) {
            (false, Some(ms)) => format!("the first match or {ms} ms"),
            (false, None) => "the first match".to_string(),
            (true, Some(ms)) => format!("{ms} ms pass"),
            (true, None) => "the session ends".to_string(),
        };
        Ok(ToolOutput::text(format!(
            "Monitor {id} is watching {described} for /{}/ until {until}. You will be sent a \
             <monitor-notification> when a line matches; there is no need to wait or poll.",
            input.pattern
        )))
    }
}

/// The pattern compiled, or a clear error naming what is wrong with it.
fn compile(pattern: &str) -> Result<Regex, String> {
    if pattern.is_empty() {
        return Err("pattern is empty".into());
    }
    Regex::new(pattern).map_err(|e| format!("pattern is not a valid regular expression: {e}"))
}
