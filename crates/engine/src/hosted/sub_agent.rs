//! Sub-agents on another machine ([`RemoteSubAgents`], the session's [`RemoteAgents`] door): the Agent tool's
//! `isolation: "remote"` run opens `tandem acp` at the settings' `remoteAgentHost` through the same SSH door as
//! `tandem -p --remote` ([`Door::remote_with_ssh`]), hosted against the sub-agent's own runtime — its updates become
//! the sub-agent's tagged events, its permission questions meet the session's rules and hooks, then its approver.
//! docs/remote.md ("Remote sub-agents") describes it.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use super::client::{Host, HostedAgent, HostedError};
use super::door::Door;
use super::permission::HostedApprover;
use super::remote::{Remote, SSH_COMMAND_VAR};
use crate::exec::ToolRuntime;
use crate::session::{RemoteAgents, RemoteConversation};

/// How long a cancelled remote turn may take to answer `session/cancel` before the connection is cut.
const CANCEL_GRACE: Duration = Duration::from_secs(3);
/// How long a finished remote agent may take to end its session there before it is killed.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// The door to remote sub-agents: `ssh` (or the command line `ssh_command`, as `TANDEM_SSH_COMMAND`) to the URL
/// each run names.
#[derive(Debug, Clone, Default)]
pub struct RemoteSubAgents {
    ssh_command: Option<String>,
}

impl RemoteSubAgents {
    /// Reaches the far machine with `TANDEM_SSH_COMMAND`, or `ssh`.
    pub fn standard() -> Arc<Self> {
        Self::with_ssh(std::env::var(SSH_COMMAND_VAR).ok())
    }

    /// Reaches it with the command line `ssh_command` in place of `ssh` when given.
    pub fn with_ssh(ssh_command: Option<String>) -> Arc<Self> {
        Arc::new(Self { ssh_command })
    }
}

impl RemoteAgents for RemoteSubAgents {
    fn open(
        &self,
        url: &str,
        runtime: ToolRuntime,
    ) -> BoxFuture<'_, Result<Box<dyn RemoteConversation>, String>> {
        let url = url.to_string();
        Box::pin(async move {
            let door = Door::remote_with_ssh(&url, self.ssh_command.clone())
                .map_err(|why| format!("the settings' remoteAgentHost cannot be used: {why}"))?;
            let Door::Remote(remote) = &door else {
                return Err(format!("{url} is not a remote machine"));
            };
            let approver = Arc::new(HostedApprover::new(runtime.approver.clone()));
            let host = Host::for_sub_agent(runtime, approver);
            let agent = door
                .start(host, &[], None, None)
                .await
                .map_err(|(_, message)| message)?;
            Ok(Box::new(Far {
                agent,
                remote: remote.clone(),
            }) as Box<dyn RemoteConversation>)
        })
    }
}

/// A remote sub-agent's open session.
struct Far {
    agent: HostedAgent,
    remote: Arc<Remote>,
}

impl RemoteConversation for Far {
    fn turn<'a>(
        &'a self,
        prompt: &'a str,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            let turn = self.agent.prompt(prompt, cancel);
            tokio::pin!(turn);
            // Cancelled: `session/cancel` goes out with the turn; a far side that does not answer soon is cut off.
            let answered = tokio::select! {
                answered = &mut turn => answered,
                _ = cancel.cancelled() => {
                    match tokio::time::timeout(CANCEL_GRACE, &mut turn).await {
                        Ok(answered) => answered,
                        Err(_) => {
                            self.agent.abort();
                            return Err(format!(
                                "the sub-agent on {} did not stop when asked; its connection was cut",
                                self.remote.target.label()
                            ));
                        }
                    }
                }
            };
            answered
                .map(|outcome| outcome.final_text)
                .map_err(|e| failure(&self.remote, &e))
        })
    }

    fn close(self: Box<Self>) -> BoxFuture<'static, ()> {
        Box::pin(async move { self.agent.close(CLOSE_GRACE).await })
    }
}

/// Why a remote sub-agent's turn failed, naming the machine.
fn failure(remote: &Remote, error: &HostedError) -> String {
    let host = remote.target.label();
    match error {
        HostedError::Failed { lost: true, .. } => format!(
            "the connection to {host} was lost while the sub-agent ran there; what it had changed on {host} stays \
             there"
        ),
        other => format!("the sub-agent on {host} failed: {other}"),
    }
}
