//! Running one remote trigger: `ssh -T -o BatchMode=yes [-p PORT] DEST -- 'cd PATH && … exec tandem -p PROMPT'`
//! through the system's OpenSSH client (or `TANDEM_SSH_COMMAND`, read from the environment or under `env` in a
//! settings file), in the background; its exit code and final text (what `tandem -p` printed) reach the agent as a
//! `<remote-trigger-notification>` in its mailbox. Runs end with the session (the `ssh` process is killed) or after
//! [`MAX_RUN`].

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Weak;
use std::time::Duration;

use tokio_util::sync::{CancellationToken, DropGuard};

use crate::ssh::{self, SSH_COMMAND_VAR, Target};
use crate::tool::Mailbox;
use crate::tools::cron::ScheduledTask;

/// The longest a remote run may take before it is stopped.
pub const MAX_RUN: Duration = Duration::from_secs(2 * 3600);
/// The most characters of the final text a notification carries.
const MAX_TEXT_CHARS: usize = 4_000;
/// The most characters of `ssh`'s error output a failed run's notification carries.
const MAX_ERROR_CHARS: usize = 1_500;

/// What a far machine's shell runs for `prompt` in `folder`: `tandem -p`, found on its PATH or in
/// `~/.local/bin` (as `tandem -p --remote` finds `tandem acp`).
pub fn remote_command(folder: &std::path::Path, prompt: &str) -> String {
    format!(
        "cd {} && PATH=\"$PATH:$HOME/.local/bin\" exec tandem -p {}",
        ssh::quote(&folder.to_string_lossy()),
        ssh::quote(prompt)
    )
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// `ssh` exited (`None`: killed by a signal), with what it printed.
    Exited {
        code: Option<i32>,
        stdout: String,
        stderr: String,
    },
    /// `ssh` could not be started or the command not built.
    NotStarted(String),
    /// It took longer than [`MAX_RUN`].
    TimedOut,
}

/// The session's remote runs: where `TANDEM_SSH_COMMAND` is read, and the token that ends the runs with the
/// session (when this is dropped).
#[derive(Debug)]
pub struct RemoteRuns {
    settings_files: Vec<PathBuf>,
    ended: CancellationToken,
    _guard: DropGuard,
}

impl RemoteRuns {
    /// Runs reading `TANDEM_SSH_COMMAND` from the environment, then `env` in `settings_files`.
    pub fn new(settings_files: Vec<PathBuf>) -> Self {
        let ended = CancellationToken::new();
        Self {
            settings_files,
            _guard: ended.clone().drop_guard(),
            ended,
        }
    }

    /// The configured `ssh` command line, if any.
    fn ssh_command(&self) -> Option<String> {
        crate::settings::env_value(
            SSH_COMMAND_VAR,
            |n| std::env::var(n).ok(),
            &self.settings_files,
        )
    }

    /// Starts `task` (one with a target) in the background; its outcome is posted to `mailbox`.
    pub fn start(&self, task: ScheduledTask, mailbox: Weak<Mailbox>) {
        let configured = self.ssh_command();
        let ended = self.ended.child_token();
        tokio::spawn(async move {
            let Some(target) = task.target.as_deref() else {
                return;
            };
            let end = match Target::parse(target) {
                Ok(parsed) => {
                    tokio::select! {
                        end = run(&parsed, configured.as_deref(), &task.prompt) => end,
                        _ = ended.cancelled() => return,
                    }
                }
                Err(e) => RunEnd::NotStarted(e),
            };
            if let Some(mailbox) = mailbox.upgrade() {
                mailbox.post(notification(&task, &end));
            }
        });
    }
}

/// Runs `prompt` on `target` to its end (killing `ssh` when dropped).
pub async fn run(target: &Target, configured: Option<&str>, prompt: &str) -> RunEnd {
    let (program, args) =
        match ssh::command(target, configured, &remote_command(&target.path, prompt)) {
            Ok(command) => command,
            Err(e) => return RunEnd::NotStarted(e),
        };
    let child = tokio::process::Command::new(&program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn();
    let child = match child {
        Ok(child) => child,
        Err(e) => {
            return RunEnd::NotStarted(format!(
                "`{program}` could not be started ({e}); remote triggers run the system's OpenSSH client (`ssh`, or \
                 the command in {SSH_COMMAND_VAR})"
            ));
        }
    };
    match tokio::time::timeout(MAX_RUN, child.wait_with_output()).await {
        Err(_) => RunEnd::TimedOut,
        Ok(Err(e)) => RunEnd::NotStarted(format!("`{program}` failed: {e}")),
        Ok(Ok(out)) => RunEnd::Exited {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        },
    }
}

/// The message the agent gets for `task`'s run.
pub fn notification(task: &ScheduledTask, end: &RunEnd) -> String {
    let target = task.target.as_deref().unwrap_or("?");
    let prompt = crate::text::cut_middle(task.prompt.trim(), 200, "prompt");
    let what = match end {
        RunEnd::Exited {
            code: Some(0),
            stdout,
            ..
        } => format!(
            "finished (exit code 0). Its final text:\n{}",
            crate::text::cut_middle(stdout.trim(), MAX_TEXT_CHARS, "text")
        ),
        RunEnd::Exited {
            code,
            stdout,
            stderr,
        } => {
            let code_text = code.map_or("none (killed by a signal)".to_string(), |c| c.to_string());
            let hint = match code {
                Some(255) => {
                    " (ssh could not reach the machine: it must log in without asking anything — keys or an agent, a known host key)"
                }
                Some(127) => {
                    " (the machine has no `tandem` on the PATH its ssh commands see, nor in ~/.local/bin)"
                }
                _ => "",
            };
            let mut text = format!("failed with exit code {code_text}{hint}.");
            if !stdout.trim().is_empty() {
                text.push_str(&format!(
                    "\nIts output:\n{}",
                    crate::text::cut_middle(stdout.trim(), MAX_TEXT_CHARS, "output")
                ));
            }
            if !stderr.trim().is_empty() {
                text.push_str(&format!(
                    "\nIts error output:\n{}",
                    crate::text::cut_middle(stderr.trim(), MAX_ERROR_CHARS, "error output")
                ));
            }
            text
        }
        RunEnd::NotStarted(why) => format!("could not run: {why}."),
        RunEnd::TimedOut => format!(
            "was stopped after {} minutes without finishing.",
            MAX_RUN.as_secs() / 60
        ),
    };
    format!(
        "<remote-trigger-notification>\nRemote trigger {} on {target} (prompt: \"{prompt}\") {what}\n</remote-trigger-notification>",
        task.id
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remote_command_quotes_the_folder_and_the_prompt() {
        assert_eq!(
            remote_command(std::path::Path::new("/srv/my app"), "say 'hi' && rm -rf /"),
            "cd '/srv/my app' && PATH=\"$PATH:$HOME/.local/bin\" exec tandem -p 'say '\\''hi'\\'' && rm -rf /'"
        );
    }
}
