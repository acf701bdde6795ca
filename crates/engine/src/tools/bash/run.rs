//! Running one foreground command to its end: output streamed as progress and collected, the timeout and the
//! cancellation token both killing the whole process group.

use std::time::Duration;

use tokio::time::{Instant, sleep_until, timeout};
use tokio_util::sync::CancellationToken;

use super::output::{OutputCollector, Utf8Stream};
use super::pty::{Exit, PtyProcess};
use crate::process_group::GroupGuard;
use crate::tool::ProgressSink;

/// How long output is still collected after the shell exited (its terminal may hold a little more).
const DRAIN_IDLE: Duration = Duration::from_millis(100);
/// The longest output is collected after the shell exited (a leftover background process may print forever).
const DRAIN_MAX: Duration = Duration::from_secs(2);

/// How a foreground run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    Exited(Exit),
    /// The timeout passed; the process group was killed.
    TimedOut,
    /// The call was cancelled; the process group was killed.
    Cancelled,
}

/// A finished foreground run.
#[derive(Debug)]
pub struct Finished {
    pub end: End,
    pub output: OutputCollector,
}

/// Runs `process` until it exits, `limit` passes or `cancel` fires. Every chunk of output is reported raw (ANSI
/// kept) to `progress`. Whatever is left of the process group afterwards is killed, also if this future is
/// dropped.
pub async fn run_to_end(
    mut process: PtyProcess,
    limit: Duration,
    cancel: &CancellationToken,
    progress: &ProgressSink,
) -> Finished {
    let mut guard = GroupGuard::new(process.pid);
    let mut output = OutputCollector::default();
    let mut text = Utf8Stream::default();
    let deadline = Instant::now() + limit;
    let mut take = |bytes: Vec<u8>, output: &mut OutputCollector| {
        output.push(&bytes);
        let chunk = text.push(&bytes);
        if !chunk.is_empty() {
            progress.report(chunk);
        }
    };
    let end = loop {
        tokio::select! {
            chunk = process.chunks.recv() => match chunk {
                Some(bytes) => take(bytes, &mut output),
                // The terminal is closed: only the exit status is still to come.
                None => break End::Exited((&mut process.exit).await.unwrap_or_else(|_| Exit::Unknown("lost".into()))),
            },
            status = &mut process.exit => {
                break End::Exited(status.unwrap_or_else(|_| Exit::Unknown("the status was lost".into())));
            }
            _ = sleep_until(deadline) => break End::TimedOut,
            _ = cancel.cancelled() => break End::Cancelled,
        }
    };
    if !matches!(end, End::Exited(_)) {
        guard.kill();
    }
    let drain_until = Instant::now() + DRAIN_MAX;
    while Instant::now() < drain_until {
        match timeout(DRAIN_IDLE, process.chunks.recv()).await {
            Ok(Some(bytes)) => take(bytes, &mut output),
            Ok(None) | Err(_) => break,
        }
    }
    let rest = text.finish();
    if !rest.is_empty() {
        progress.report(rest);
    }
    // Background jobs the command left behind die with it (use run_in_background for those).
    guard.kill();
    Finished { end, output }
}
