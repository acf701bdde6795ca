//! One REPL program's run: `node` in its own process group with the prelude, the program sent on stdin, its
//! function calls (marked JSON lines on stdout) run as inner calls and answered on stdin, until it reports its end,
//! fails, times out or is cancelled (then node's group is killed and the inner call in flight is cancelled).

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout, Command};
use tokio_util::sync::CancellationToken;

use super::MAX_RESULT_CHARS;
use crate::process_group::GroupGuard;
use crate::tool::{DynTool, InnerCalls, ToolContext, ToolError};

/// The prelude node runs (`node -e`).
const PRELUDE: &str = include_str!("prelude.js");
/// How long a stopped program's inner call may take to wind down once cancelled.
const WIND_DOWN: Duration = Duration::from_secs(10);

/// A message from the prelude.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum FromNode {
    /// The program called a wrapped function.
    Call { n: u64, tool: String, input: Value },
    /// The program ended: its output and last value, or its error.
    Done {
        ok: bool,
        #[serde(default)]
        output: String,
        value: Option<String>,
        error: Option<String>,
    },
}

/// What is needed to run one program.
pub(super) struct Run<'a> {
    pub node: &'a Path,
    pub wrapped: &'a [Arc<dyn DynTool>],
    pub inner: Arc<dyn InnerCalls>,
    pub ctx: &'a ToolContext,
    pub timeout: Duration,
}

/// How the conversation with node ended when it was not stopped from outside.
type Ended = Result<String, ToolError>;

impl Run<'_> {
    /// Runs `code` to its end; the result text is the output and the last value, cut to [`MAX_RESULT_CHARS`].
    pub async fn run(&self, code: &str) -> Result<String, ToolError> {
        let mark = format!("\u{1e}TANDEM-REPL:{}:", uuid::Uuid::new_v4().simple());
        let mut child = Command::new(self.node)
            .arg("--expose-internals")
            .arg("-e")
            .arg(PRELUDE)
            .current_dir(&self.ctx.cwd)
            .env("TANDEM_REPL_MARK", &mark)
            .env_remove("NODE_OPTIONS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| ToolError::to_model(format!("could not start node: {e}")))?;
        let mut guard = child.id().map(GroupGuard::new);
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(ToolError::to_model("could not talk to node"));
        };
        // Node's own complaints (a crash before the prelude runs) are kept for the error message.
        let stderr_text = tokio::spawn(async move {
            let mut text = String::new();
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if text.len() < 8_000 {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            text
        });
        let start = json!({
            "code": code,
            "tools": self.wrapped.iter().map(|t| t.name()).collect::<Vec<_>>(),
        });
        let inner_cancel = self.ctx.cancel.child_token();
        let conversation = async {
            send(&mut stdin, &start).await?;
            self.converse(stdout, &mut stdin, &mark, &inner_cancel)
                .await
        };
        tokio::pin!(conversation);
        let stopped = tokio::select! {
            ended = &mut conversation => Some(ended),
            _ = tokio::time::sleep(self.timeout) => None,
            _ = self.ctx.cancel.cancelled() => None,
        };
        let ended = match stopped {
            Some(ended) => ended,
            None => {
                // Stop the program and the call it is waiting for; the call winds down and says so in the window.
                inner_cancel.cancel();
                if let Some(guard) = guard.as_mut() {
                    guard.kill();
                }
                let _ = tokio::time::timeout(WIND_DOWN, &mut conversation).await;
                if self.ctx.cancel.is_cancelled() {
                    Err(ToolError::Cancelled)
                } else {
                    Err(ToolError::to_model(format!(
                        "the program did not finish within {} ms and was stopped",
                        self.timeout.as_millis()
                    )))
                }
            }
        };
        if let Some(guard) = guard.as_mut() {
            guard.kill();
        }
        let _ = child.wait().await;
        // A cancellation that raced the program's end (the inner call it stopped made the program fail) is told
        // as the cancellation it was.
        if self.ctx.cancel.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        match ended {
            Err(ToolError::ToModel(message)) if message == NODE_GONE => {
                let stderr = stderr_text.await.unwrap_or_default();
                Err(ToolError::to_model(format!(
                    "node ended before the program finished{}",
                    if stderr.trim().is_empty() {
                        String::new()
                    } else {
                        format!(":\n{}", stderr.trim_end())
                    }
                )))
            }
            other => other,
        }
    }

    /// Reads node's messages, running each function call, until the program reports its end.
    async fn converse(
        &self,
        stdout: ChildStdout,
        stdin: &mut ChildStdin,
        mark: &str,
        cancel: &CancellationToken,
    ) -> Ended {
        let mut lines = BufReader::new(stdout).lines();
        let mut stray = String::new();
        loop {
            let line = match lines.next_line().await {
                Ok(Some(line)) => line,
                Ok(None) | Err(_) => return Err(ToolError::to_model(NODE_GONE)),
            };
            let Some(message) = line.strip_prefix(mark) else {
                // Output that did not go through the prelude's capture (a child process of node's own).
                stray.push_str(&line);
                stray.push('\n');
                continue;
            };
            let message: FromNode = serde_json::from_str(message).map_err(|e| {
                ToolError::to_model(format!(
                    "the REPL's prelude sent an unreadable message: {e}"
                ))
            })?;
            match message {
                FromNode::Call { n, tool, input } => {
                    let answer = self.inner_call(n, &tool, input, cancel).await;
                    send(stdin, &answer).await?;
                }
                FromNode::Done {
                    ok,
                    output,
                    value,
                    error,
                } => {
                    let output = stray + &output;
                    return finish(ok, &output, value, error);
                }
            }
        }
    }

    /// Runs call `n` of the program through the pipeline; the answer for the prelude.
    async fn inner_call(
        &self,
        n: u64,
        tool: &str,
        input: Value,
        cancel: &CancellationToken,
    ) -> Value {
        if !self.wrapped.iter().any(|t| t.name() == tool) {
            return json!({"n": n, "ok": false, "text": format!("{tool} is not a function of the REPL")});
        }
        let id = format!("{}/{n}", self.ctx.tool_use_id);
        let result = self
            .inner
            .call(tool.to_string(), id, input, cancel.child_token())
            .await;
        json!({"n": n, "ok": result.ok, "text": result.text})
    }
}

/// The marker error of a conversation whose node went away without reporting an end.
const NODE_GONE: &str = "node ended before the program finished";

async fn send(stdin: &mut ChildStdin, message: &Value) -> Result<(), ToolError> {
    let mut line = message.to_string();
    line.push('\n');
    stdin
        .write_all(line.as_bytes())
        .await
        .map_err(|_| ToolError::to_model(NODE_GONE))?;
    stdin
        .flush()
        .await
        .map_err(|_| ToolError::to_model(NODE_GONE))
}

/// The tool's result from the program's report.
fn finish(ok: bool, output: &str, value: Option<String>, error: Option<String>) -> Ended {
    if ok {
        let mut text = output.to_string();
        if let Some(value) = value {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str("=> ");
            text.push_str(&value);
        }
        if text.trim().is_empty() {
            text = "(the program printed nothing and its last expression had no value)".into();
        }
        return Ok(crate::text::cut_middle(
            &text,
            MAX_RESULT_CHARS,
            "the REPL's output",
        ));
    }
    let mut message = format!(
        "The program failed: {}",
        error.unwrap_or_else(|| "no reason given".into())
    );
    if !output.trim().is_empty() {
        message.push_str("\n\nOutput before the error:\n");
        message.push_str(output);
    }
    Err(ToolError::to_model(crate::text::cut_middle(
        &message,
        MAX_RESULT_CHARS,
        "the REPL's output",
    )))
}
