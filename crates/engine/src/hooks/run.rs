//! Running hook commands: real child processes (`sh -c`), the event JSON on stdin, stdout and stderr captured (up
//! to a bound each), a timeout each, all matching hooks of an event in parallel.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tracing::Instrument;

use super::payload::{EventInput, HookPayload};
use crate::process_group::GroupGuard;
use crate::settings::HookCommand;

/// What every hook input of one session shares: the common fields of its stdin, and the project root its commands
/// see as `CLAUDE_PROJECT_DIR`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookInput {
    pub session_id: String,
    pub transcript_path: String,
    pub cwd: PathBuf,
    pub permission_mode: String,
    pub project_dir: PathBuf,
}

impl HookInput {
    /// The stdin of a hook of `event` (the event and its own fields).
    pub fn payload(&self, event: EventInput) -> HookPayload {
        HookPayload {
            session_id: self.session_id.clone(),
            transcript_path: self.transcript_path.clone(),
            cwd: self.cwd.display().to_string(),
            permission_mode: self.permission_mode.clone(),
            event,
        }
    }
}

/// What one hook did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookRun {
    pub command: String,
    /// `None` when the process was killed (timeout) or could not start.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
    pub timeout_secs: u64,
    /// Why the process could not be started.
    pub spawn_error: Option<String>,
}

impl HookRun {
    /// What the process did, in a few words: `exit 0`, `timed out after 5 s`, `could not run: …`, `killed by a
    /// signal`.
    pub fn outcome(&self) -> String {
        if self.timed_out {
            format!("timed out after {} s", self.timeout_secs)
        } else if let Some(e) = &self.spawn_error {
            format!("could not run: {e}")
        } else {
            match self.exit_code {
                Some(code) => format!("exit {code}"),
                None => "killed by a signal".into(),
            }
        }
    }
}

async fn run_one(hook: &HookCommand, stdin: &[u8], cwd: &Path, project_dir: &Path) -> HookRun {
    let mut run = HookRun {
        command: hook.command.clone(),
        exit_code: None,
        stdout: String::new(),
        stderr: String::new(),
        timed_out: false,
        timeout_secs: hook.timeout_secs,
        spawn_error: None,
    };
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(&hook.command)
        .current_dir(cwd)
        .env("CLAUDE_PROJECT_DIR", project_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(root) = &hook.plugin_root {
        cmd.env("CLAUDE_PLUGIN_ROOT", root);
    }
    // Its own process group, so that a timeout stops everything the hook started.
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            run.spawn_error = Some(e.to_string());
            tracing::debug!(outcome = %run.outcome(), "hook ended");
            return run;
        }
    };
    let group = child.id().map(GroupGuard::new);
    let writer = child.stdin.take().map(|mut pipe| {
        let data = stdin.to_vec();
        tokio::spawn(async move {
            // A hook that does not read its stdin closes the pipe early; that is not an error.
            let _ = pipe.write_all(&data).await;
            let _ = pipe.shutdown().await;
        })
    });
    let stdout = Captured::start(child.stdout.take());
    let stderr = Captured::start(child.stderr.take());
    let limit = Duration::from_secs(hook.timeout_secs.max(1));
    match tokio::time::timeout(limit, child.wait()).await {
        Ok(Ok(status)) => {
            run.exit_code = status.code();
            // The hook has ended; a process it left running that still holds the pipes must not hold us up.
            run.stdout = stdout.finish().await;
            run.stderr = stderr.finish().await;
            if let Some(mut group) = group {
                group.disarm();
            }
        }
        Ok(Err(e)) => run.spawn_error = Some(e.to_string()),
        Err(_) => {
            run.timed_out = true;
            // Dropping the guard kills the hook's whole process group.
            drop(group);
        }
    }
    if let Some(w) = writer {
        w.abort();
    }
    tracing::debug!(outcome = %run.outcome(), "hook ended");
    run
}

/// How long output already written may take to arrive after the hook's process has exited.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// The most bytes of one pipe of a hook that are kept; the rest is read and dropped (the hook is not held up).
const MAX_CAPTURE_BYTES: usize = 16 << 20;

/// A pipe read to the end in the background into a shared buffer, so that what arrived can be taken even if the
/// pipe never closes.
struct Captured {
    buffer: Arc<Mutex<Vec<u8>>>,
    reader: Option<tokio::task::JoinHandle<()>>,
}

impl Captured {
    fn start(pipe: Option<impl AsyncRead + Unpin + Send + 'static>) -> Self {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let reader = pipe.map(|mut pipe| {
            let buffer = buffer.clone();
            tokio::spawn(async move {
                let mut chunk = [0u8; 8192];
                while let Ok(n) = pipe.read(&mut chunk).await {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut b) = buffer.lock() {
                        let room = MAX_CAPTURE_BYTES.saturating_sub(b.len());
                        b.extend_from_slice(&chunk[..n.min(room)]);
                    }
                }
            })
        });
        Self { buffer, reader }
    }

    /// Waits for the end of the pipe (at most [`DRAIN_GRACE`]) and returns what was read.
    async fn finish(mut self) -> String {
        if let Some(reader) = self.reader.take() {
            let abort = reader.abort_handle();
            if tokio::time::timeout(DRAIN_GRACE, reader).await.is_err() {
                abort.abort();
            }
        }
        let bytes = self.buffer.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Runs `hooks` in parallel with `input` on stdin as JSON (a [`HookPayload`], or the document the person edited in
/// the hooks panel), in `cwd`, with `CLAUDE_PROJECT_DIR` set. Results come back in the order of `hooks`. Identical
/// commands are expected to be de-duplicated already ([`super::HookSet::commands_for`]). Each hook runs in a `hook`
/// span naming its command.
pub async fn run_hooks(
    hooks: &[HookCommand],
    input: &(impl serde::Serialize + ?Sized),
    cwd: &Path,
    project_dir: &Path,
) -> Vec<HookRun> {
    // Serialising a payload or a JSON value cannot fail: every map key is a string.
    let stdin = serde_json::to_vec(input).unwrap_or_default();
    futures::future::join_all(hooks.iter().map(|h| {
        let span = tracing::info_span!("hook", command = %h.command);
        run_one(h, &stdin, cwd, project_dir).instrument(span)
    }))
    .await
}
