//! One monitor at work: it follows its source's new lines, and each time lines match its pattern it posts them to
//! the agent's mailbox (which wakes an idle session, or reaches a running turn at its next step). It ends after the
//! first match unless persistent, when the watched shell ends, at its timeout, or when the session ends (its
//! mailbox is gone or the tool's token fires).

use std::path::PathBuf;
use std::sync::{Arc, Weak};
use std::time::Duration;

use regex::Regex;
use tokio_util::sync::CancellationToken;

use super::follow::Follower;
use crate::tool::Mailbox;
use crate::tools::bash::{BackgroundTask, TaskState, clean_terminal_output};

/// The most matching lines one notification carries (the others are counted).
const MAX_LINES: usize = 20;
/// The most characters of one line a notification carries.
const MAX_LINE_CHARS: usize = 1_000;

/// What a monitor follows.
#[derive(Debug, Clone)]
pub enum Source {
    /// A background shell's output (from its start: what it printed before the monitor began counts too).
    Shell(Arc<BackgroundTask>),
    /// Lines appended to a file after the monitor began.
    File(PathBuf),
}

impl Source {
    /// How the notification names the source.
    pub fn describe(&self) -> String {
        match self {
            Source::Shell(task) => format!("background shell {} (`{}`)", task.id, task.command),
            Source::File(path) => format!("file {}", path.display()),
        }
    }
}

/// One monitor.
#[derive(Debug)]
pub struct Watch {
    pub id: String,
    pub source: Source,
    pub pattern: Regex,
    /// Keeps watching after a match.
    pub persistent: bool,
    pub timeout: Option<Duration>,
    /// Where matches are posted; the monitor ends when it is gone.
    pub mailbox: Weak<Mailbox>,
    /// Fires when the session ends.
    pub ended: CancellationToken,
}

/// Why a monitor stopped without a match to report.
enum Stop {
    /// The session ended (nothing is posted).
    Quiet,
    /// Posted to the agent with this reason.
    Told(String),
}

impl Watch {
    /// Follows the source until the monitor ends. `follower` reads the source's file.
    pub async fn run(self, mut follower: Follower) {
        let stop = self.follow(&mut follower).await;
        if let Stop::Told(why) = stop {
            self.post(&format!(
                "<monitor-notification>\nMonitor {} watching {} for /{}/ has stopped: {why}.\n</monitor-notification>",
                self.id,
                self.source.describe(),
                self.pattern.as_str()
            ));
        }
    }

    async fn follow(&self, follower: &mut Follower) -> Stop {
        let deadline = self.timeout.map(|t| tokio::time::Instant::now() + t);
        let shell = match &self.source {
            Source::Shell(task) => Some(Arc::clone(task)),
            Source::File(_) => None,
        };
        let shell_ended = async {
            match &shell {
                Some(task) => task.ended().await,
                None => std::future::pending::<TaskState>().await,
            }
        };
        tokio::pin!(shell_ended);
        let mut matched_once = false;
        loop {
            match self.look(follower, false) {
                Ok(true) if !self.persistent => return Stop::Quiet,
                Ok(found) => matched_once |= found,
                Err(why) => return Stop::Told(why),
            }
            tokio::select! {
                _ = self.ended.cancelled() => return Stop::Quiet,
                _ = follower.changed() => {}
                state = &mut shell_ended => {
                    // The shell's output is all in its log before its end is known: read the rest.
                    return match self.look(follower, true) {
                        Ok(true) if !self.persistent => Stop::Quiet,
                        Ok(found) if found || matched_once => Stop::Told(format!("the shell {state}")),
                        Ok(_) => Stop::Told(format!("the shell {state} without a matching line")),
                        Err(why) => Stop::Told(why),
                    };
                }
                _ = sleep_until(deadline) => {
                    let ms = self.timeout.map(|t| t.as_millis()).unwrap_or_default();
                    return Stop::Told(format!("its timeout of {ms} ms passed"));
                }
            }
            if self.mailbox.strong_count() == 0 {
                return Stop::Quiet;
            }
        }
    }

    /// Reads the new lines (with the unfinished last one when `at_end`) and posts those that match; returns whether
    /// any did, or why the source cannot be read.
    fn look(&self, follower: &mut Follower, at_end: bool) -> Result<bool, String> {
        let mut lines = follower
            .new_lines()
            .map_err(|e| format!("its source cannot be read: {e}"))?;
        if at_end {
            lines.extend(follower.unfinished());
        }
        let matching: Vec<String> = lines
            .iter()
            .map(|raw| self.line_text(raw))
            .filter(|line| self.pattern.is_match(line))
            .collect();
        if matching.is_empty() {
            return Ok(false);
        }
        self.post(&self.notification(&matching));
        Ok(true)
    }

    /// One line as the model reads it: a shell's terminal escapes removed.
    fn line_text(&self, raw: &[u8]) -> String {
        match self.source {
            Source::Shell(_) => clean_terminal_output(raw),
            Source::File(_) => String::from_utf8_lossy(raw)
                .trim_end_matches('\r')
                .to_string(),
        }
    }

    fn notification(&self, lines: &[String]) -> String {
        let mut shown: Vec<String> = lines
            .iter()
            .take(MAX_LINES)
            .map(|line| crate::text::cut_middle(line, MAX_LINE_CHARS, "line"))
            .collect();
        if lines.len() > MAX_LINES {
            shown.push(format!("[{} more matching lines]", lines.len() - MAX_LINES));
        }
        let next = if self.persistent {
            "It keeps watching."
        } else {
            "It has stopped."
        };
        format!(
            "<monitor-notification>\nMonitor {} watching {} matched /{}/:\n{}\n{next}\n</monitor-notification>",
            self.id,
            self.source.describe(),
            self.pattern.as_str(),
            shown.join("\n")
        )
    }

    fn post(&self, text: &str) {
        if let Some(mailbox) = self.mailbox.upgrade() {
            mailbox.post(text.to_string());
        }
    }
}

/// Waits until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
