//! Running one foreground command to its end: output streamed as progress and collected, the timeout and the
//! cancellation token both killing the whole process group — unless the command is moved to the background (the
//! person asked, the assistant mode's budget ran out, or the timeout passed where a timeout moves it), in which
//! case it is handed back still running.

use std::time::Duration;

use tandem_protocol::BackgroundReason;
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

/// What may move a running command to the background instead of letting it hold the turn.
#[derive(Debug, Clone, Default)]
pub struct Handoff {
    /// Fires when the person moves the command to the background.
    pub request: CancellationToken,
    /// Moves the command to the background once it has run this long (the assistant mode's blocking budget).
    pub budget: Option<Duration>,
    /// At the timeout the command moves to the background instead of being killed.
    pub at_timeout: bool,
}

/// How a foreground run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    Exited(Exit),
    /// The timeout passed; the process group was killed.
    TimedOut,
    /// The call was cancelled; the process group was killed.
    Cancelled,
    /// The command still runs and is to go on in the background ([`Finished::process`] holds it).
    Backgrounded(BackgroundReason),
}

/// A finished foreground run.
#[derive(Debug)]
pub struct Finished {
    pub end: End,
    pub output: OutputCollector,
    /// The still running command when it was moved to the background.
    pub process: Option<PtyProcess>,
}

/// Runs `process` until it exits, `limit` passes, `cancel` fires or `handoff` moves it to the background. Every
/// chunk of output is reported raw (ANSI kept) to `progress`. Unless it is handed back, whatever is left of the
/// process group afterwards is killed, also if this future is dropped.
pub async fn run_to_end(
    mut process: PtyProcess,
    limit: Duration,
    cancel: &CancellationToken,
    progress: &ProgressSink,
    handoff: &Handoff,
) -> Finished {
    let mut guard = GroupGuard::new(process.pid);
    let mut output = OutputCollector::default();
    let mut text = Utf8Stream::default();
    let started = Instant::now();
    let deadline = started + limit;
    let budget = handoff.budget.map(|b| started + b);
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
            _ = sleep_until(deadline) => {
                break if handoff.at_timeout { End::Backgrounded(BackgroundReason::Timeout) } else { End::TimedOut };
            }
            _ = sleep_until(budget.unwrap_or(deadline)), if budget.is_some() => {
                break End::Backgrounded(BackgroundReason::Budget);
            }
            _ = handoff.request.cancelled() => break End::Backgrounded(BackgroundReason::ByPerson),
            _ = cancel.cancelled() => break End::Cancelled,
        }
    };
    if let End::Backgrounded(_) = end {
        // Output already read stays with the call; what follows goes to the background task's log.
        while let Ok(bytes) = process.chunks.try_recv() {
            take(bytes, &mut output);
        }
        let rest = text.finish();
        if !rest.is_empty() {
            progress.report(rest);
        }
        guard.disarm();
        return Finished {
            end,
            output,
            process: Some(process),
        };
    }
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
    Finished {
        end,
        output,
        process: None,
    }
}
