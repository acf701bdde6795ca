//! The hosted agent's process: started from its settings entry in its own process group, in the project folder,
//! with its stdin and stdout as the ACP connection's lines (its stderr goes on to Tandem's, its last lines kept for
//! the message when it fails to start: the window has no terminal to show them); the whole group is killed when the
//! [`AgentProcess`] is dropped.

use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use crate::process_group::GroupGuard;
use crate::settings::AgentServer;
use futures::{Sink, Stream};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStderr, ChildStdin};

/// How many of the agent's last stderr lines are kept.
const KEPT_STDERR_LINES: usize = 5;
/// The longest stderr line kept, in bytes.
const KEPT_STDERR_LINE: usize = 400;

/// Lines to the agent.
pub type Outgoing = Pin<Box<dyn Sink<String, Error = std::io::Error> + Send>>;
/// Lines from the agent.
pub type Incoming = Pin<Box<dyn Stream<Item = std::io::Result<String>> + Send>>;

/// A running agent. Dropping it kills the agent with everything it started.
pub struct AgentProcess {
    child: Child,
    _group: GroupGuard,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The task passing its stderr on (ends when the stderr closes).
    passing: Option<tokio::task::JoinHandle<()>>,
}

/// Starts `server` in `cwd`; returns the process and the connection's two line streams. `Err` says why it could not
/// start.
pub fn spawn(
    name: &str,
    server: &AgentServer,
    cwd: &Path,
) -> Result<(AgentProcess, Outgoing, Incoming), String> {
    let mut command = tokio::process::Command::new(&server.command);
    command
        .args(&server.args)
        .envs(&server.env)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|e| {
        format!(
            "the agent `{name}` ({}) cannot be started: {e}",
            server.command
        )
    })?;
    let group = GroupGuard::new(child.id().unwrap_or_default());
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(format!("the agent `{name}` has no stdin or stdout"));
    };
    let stderr = Arc::new(Mutex::new(VecDeque::new()));
    let passing = child
        .stderr
        .take()
        .map(|err| tokio::spawn(pass_on(err, stderr.clone())));
    let incoming = futures::stream::unfold(BufReader::new(stdout).lines(), |mut lines| async {
        match lines.next_line().await {
            Ok(Some(line)) => Some((Ok(line), lines)),
            Ok(None) => None,
            Err(e) => Some((Err(e), lines)),
        }
    });
    let outgoing = futures::sink::unfold(stdin, write_line);
    Ok((
        AgentProcess {
            child,
            _group: group,
            stderr,
            passing,
        },
        Box::pin(outgoing),
        Box::pin(incoming),
    ))
}

impl AgentProcess {
    /// The agent's exit code once it has exited (waited for a few seconds at most: its output has already closed);
    /// `None` when it was ended by a signal or is still running.
    pub async fn exit_code(&mut self) -> Option<i32> {
        self.exit_code_within(std::time::Duration::from_secs(5))
            .await
    }

    /// The last lines the agent wrote on stderr (a few, each cut short), joined with `; `; empty when it wrote
    /// none. Waits a moment for its stderr to close (it has exited, or is about to).
    pub async fn stderr_tail(&mut self) -> String {
        if let Some(passing) = self.passing.take() {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(1), passing).await;
        }
        self.stderr
            .lock()
            .map(|kept| kept.iter().cloned().collect::<Vec<_>>().join("; "))
            .unwrap_or_default()
    }

    /// The agent's exit code once it has exited, waiting `grace` at most; `None` when it was ended by a signal or is
    /// still running.
    pub async fn exit_code_within(&mut self, grace: std::time::Duration) -> Option<i32> {
        let waited = tokio::time::timeout(grace, self.child.wait()).await;
        waited.ok()?.ok()?.code()
    }
}

/// Copies the agent's stderr to Tandem's, keeping its last lines.
async fn pass_on(err: ChildStderr, kept: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(err).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let _ = writeln!(std::io::stderr(), "{line}");
        if line.trim().is_empty() {
            continue;
        }
        let mut cut = line.len().min(KEPT_STDERR_LINE);
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        if let Ok(mut kept) = kept.lock() {
            if kept.len() == KEPT_STDERR_LINES {
                kept.pop_front();
            }
            kept.push_back(line[..cut].to_string());
        }
    }
}

async fn write_line(mut stdin: ChildStdin, line: String) -> std::io::Result<ChildStdin> {
    let mut bytes = line.into_bytes();
    bytes.push(b'\n');
    stdin.write_all(&bytes).await?;
    stdin.flush().await?;
    Ok(stdin)
}
