//! Remote sessions (`tandem -p --remote ssh://[user@]host[:port]/abs/path PROMPT`, and the window's remote folders):
//! Tandem on another machine, reached with the
//! system's OpenSSH, runs the turn as a hosted agent — its `tandem acp` does the tool work on that machine's files
//! under its own rules, and asks this one (`session/request_permission`) what those leave open; this Tandem shows the
//! turn, answers the questions and stores the session. docs/remote.md describes it.

mod ssh;
mod version;

use std::sync::Arc;

use super::{FarSide, HostedError};
use crate::settings::AgentServer;

pub use crate::ssh::{SSH_COMMAND_VAR, Target};

/// The variable that raises the oldest remote Tandem accepted (for checks of the refusal; never lowers it).
const MINIMUM_VAR: &str = "TANDEM_REMOTE_MINIMUM_VERSION";

/// A remote run's parts: the `ssh` process as an agent entry, and the far side's folder and version check.
pub struct Remote {
    pub target: Target,
    pub server: AgentServer,
    pub far: FarSide,
}

impl Remote {
    /// Reads the URL and builds the `ssh` command (`TANDEM_SSH_COMMAND`, or `ssh`); `Err` says what is wrong.
    pub fn new(url: &str) -> Result<Self, String> {
        Self::with_ssh(url, std::env::var(SSH_COMMAND_VAR).ok())
    }

    /// [`Self::new`] with `ssh` replaced by the command line `ssh_command` when given (split like a shell would), as
    /// `TANDEM_SSH_COMMAND` does.
    pub fn with_ssh(url: &str, ssh_command: Option<String>) -> Result<Self, String> {
        let target = Target::parse(url)?;
        let server = ssh::server(&target, ssh_command)?;
        let minimum = std::env::var(MINIMUM_VAR)
            .ok()
            .filter(|v| version::numbers(v) > version::numbers(version::MINIMUM))
            .unwrap_or_else(|| version::MINIMUM.to_string());
        let checked = target.clone();
        let far = FarSide {
            cwd: target.path.clone(),
            accept: Arc::new(move |info| version::accept(&checked, &minimum, info)),
        };
        Ok(Self {
            target,
            server,
            far,
        })
    }

    /// The name its turns and messages carry: `tandem on HOST`.
    pub fn name(&self) -> String {
        format!("tandem on {}", self.target.label())
    }

    /// What the session's model is stored as: the URL's machine and folder.
    pub fn model(&self) -> String {
        format!(
            "acp:ssh://{}{}",
            self.target.label(),
            self.target.path.display()
        )
    }

    /// Why the remote session could not start, for the person: the message and the exit code (always 2: nothing
    /// was run or stored).
    pub fn start_failure(&self, error: &HostedError) -> String {
        let host = self.target.label();
        match error {
            HostedError::Spawn(why) => format!(
                "{why}; a remote session runs the system's OpenSSH client (`ssh`, or the command in {SSH_COMMAND_VAR})"
            ),
            HostedError::Closed {
                code: Some(127), ..
            } => format!(
                "{host} has no `tandem` on the PATH its ssh commands see (nor in ~/.local/bin); install this one \
                 there with:\n  {}",
                ssh::install_command(&self.target)
            ),
            HostedError::Closed {
                code: Some(255),
                stderr,
                ..
            } => format!(
                "ssh could not reach {host} ({}); `ssh {}{}` must log in without asking anything (keys or an agent, \
                 a known host key)",
                if stderr.is_empty() {
                    "its own message is above".to_string()
                } else {
                    stderr.clone()
                },
                self.target
                    .port
                    .map(|p| format!("-p {p} "))
                    .unwrap_or_default(),
                self.target.destination()
            ),
            HostedError::Closed { message, code, .. } => format!(
                "`tandem acp` on {host} ended before its session opened (exit code {}): {message}",
                code.map(|c| c.to_string()).unwrap_or_else(|| "none".into())
            ),
            // These already name the agent, `tandem on HOST`.
            HostedError::Start(why) | HostedError::Refused(why) => why.clone(),
            HostedError::Failed { .. } => error.to_string(),
        }
    }

    /// Why a turn failed, for the person.
    pub fn turn_failure(&self, error: &HostedError) -> String {
        let host = self.target.label();
        match error {
            HostedError::Failed { lost: true, .. } => format!(
                "the connection to {host} was lost during the turn; the turn is stored as ended by an error, and \
                 what it had changed on {host} stays there"
            ),
            // Named `tandem on HOST` already.
            other => other.to_string(),
        }
    }
}
