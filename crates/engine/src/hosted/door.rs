//! What every face of a hosted agent sets up the same way — the command line's `tandem -p --agent` and `--remote`,
//! and the window's "New Session with…" and remote folders: which agent runs the turns ([`Door`]: an agent of the
//! settings' `agentServers`, or Tandem on another machine over SSH), the model name its session is stored with, the
//! session's side of the agent ([`Wiring`]: the approver that lets Tandem's rules and hooks answer first, the
//! terminals, the events) and the start of the agent with the messages a person reads when it fails.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::approver::Approver;
use crate::events::EventSink;
use crate::mcp::McpCliConfig;
use crate::session::{EndReason, HOSTED_MODEL_PREFIX, Session};
use crate::settings::{AgentServer, AppSettingsFile, agent_server};

use super::client::{Host, HostedAgent, HostedError, Spawned};
use super::permission::HostedApprover;
use super::remote::Remote;
use super::terminals::{TerminalTap, Terminals};

/// The model name a session hosted by the agent `agent` is stored with.
pub fn model_name(agent: &str) -> String {
    format!("{HOSTED_MODEL_PREFIX}{agent}")
}

/// The agents configured under `agentServers` in Tandem's settings file `file`, by name (none without a file).
/// `Err`: the file cannot be read, or an entry is not an agent; the message names the file.
pub fn configured_agents(
    file: Option<&AppSettingsFile>,
) -> Result<BTreeMap<String, AgentServer>, String> {
    match file {
        Some(file) => file.agent_servers(),
        None => Ok(BTreeMap::new()),
    }
}

/// The entry of the agent `name` in `file`; `Err` says why there is none (naming the agents there are).
pub fn configured_agent(file: Option<&AppSettingsFile>, name: &str) -> Result<AgentServer, String> {
    agent_server(&configured_agents(file)?, name).map_err(|e| e.to_string())
}

/// Who runs a hosted session's turns.
#[derive(Clone)]
pub enum Door {
    /// An agent of the settings' `agentServers`, started on this machine in the session's folder.
    Agent { name: String, server: AgentServer },
    /// Tandem on another machine (`tandem acp` over the system's OpenSSH), in its folder there.
    Remote(Arc<Remote>),
}

impl Door {
    /// The agent `name` of the settings file `file` (Tandem's own: [`AppSettingsFile::standard`]); `Err` says why
    /// there is none.
    pub fn agent(file: Option<&AppSettingsFile>, name: &str) -> Result<Self, String> {
        Ok(Self::Agent {
            name: name.to_string(),
            server: configured_agent(file, name)?,
        })
    }

    /// Tandem at `url` (`ssh://[user@]host[:port]/abs/path`), reached with `ssh` or `TANDEM_SSH_COMMAND`; `Err` says
    /// what is wrong with it.
    pub fn remote(url: &str) -> Result<Self, String> {
        Ok(Self::Remote(Arc::new(Remote::new(url)?)))
    }

    /// [`Self::remote`] reached with the command line `ssh_command` in place of `ssh` when given.
    pub fn remote_with_ssh(url: &str, ssh_command: Option<String>) -> Result<Self, String> {
        Ok(Self::Remote(Arc::new(Remote::with_ssh(url, ssh_command)?)))
    }

    /// The name its turns and messages carry: the agent's name, or `tandem on HOST`.
    pub fn name(&self) -> String {
        match self {
            Self::Agent { name, .. } => name.clone(),
            Self::Remote(remote) => remote.name(),
        }
    }

    /// What the session's model is stored as ([`model_name`], or the remote's URL after `acp:`).
    pub fn model(&self) -> String {
        match self {
            Self::Agent { name, .. } => model_name(name),
            Self::Remote(remote) => remote.model(),
        }
    }

    /// Starts the process early, before the session is built, where that saves time (the ssh connection of a
    /// remote, made while this side's session is built); `None` for an agent of this machine (it starts in the
    /// session's folder) or a folder that does not exist. `Err` is the message for the person.
    pub fn spawn_early(&self, cwd: &Path) -> Result<Option<Spawned>, String> {
        match self {
            Self::Remote(remote) if cwd.is_dir() => {
                HostedAgent::spawn(&self.name(), &remote.server, cwd)
                    .map(Some)
                    .map_err(|e| remote.start_failure(&e))
            }
            _ => Ok(None),
        }
    }

    /// Starts the agent on `host`'s session (using `early` when [`Self::spawn_early`] started it), `initialize`s it
    /// and opens its session — or, with `load`, continues its session of that id (`session/load`); an agent of this
    /// machine gets the `--mcp-config` servers of `mcp_configs` it can use. `Err` is the error and the message for
    /// the person (for a remote, with the one command that installs Tandem there when that is what is missing).
    pub async fn start(
        &self,
        host: Arc<Host>,
        mcp_configs: &[String],
        early: Option<Spawned>,
        load: Option<&str>,
    ) -> Result<HostedAgent, (HostedError, String)> {
        match self {
            Self::Agent { name, server } => {
                let started = match load {
                    Some(id) => HostedAgent::resume(host, name, server, mcp_configs, id).await,
                    None => HostedAgent::start(host, name, server, mcp_configs).await,
                };
                started.map_err(|e| {
                    let message = match &e {
                        HostedError::Closed { stderr, .. } if !stderr.is_empty() => {
                            format!("{e} (it said: {stderr})")
                        }
                        _ => e.to_string(),
                    };
                    (e, message)
                })
            }
            Self::Remote(remote) => {
                let started = async {
                    let spawned = match early {
                        Some(spawned) => spawned,
                        None => HostedAgent::spawn(&self.name(), &remote.server, host.cwd())?,
                    };
                    match load {
                        Some(id) => {
                            HostedAgent::resume_far(host, spawned, remote.far.clone(), id).await
                        }
                        None => HostedAgent::start_far(host, spawned, remote.far.clone()).await,
                    }
                };
                started.await.map_err(|e| {
                    let message = remote.start_failure(&e);
                    (e, message)
                })
            }
        }
    }

    /// Why a turn failed, for the person.
    pub fn turn_failure(&self, error: &HostedError) -> String {
        match self {
            Self::Agent { .. } => error.to_string(),
            Self::Remote(remote) => remote.turn_failure(error),
        }
    }

    /// Ends the agent and the session: a remote's far engine ends and saves its session there (its input closed,
    /// a short grace) while this side ends and saves its own; an agent of this machine is killed with everything it
    /// started, then the session ends with `reason`.
    pub async fn end(&self, agent: HostedAgent, session: &Session, reason: EndReason) {
        match self {
            Self::Remote(_) => {
                tokio::join!(
                    agent.close(std::time::Duration::from_secs(2)),
                    session.end(reason)
                );
            }
            Self::Agent { .. } => {
                drop(agent);
                session.end(reason).await;
            }
        }
    }
}

/// The session's side of a hosted agent, made before the session is built: the approver the session is given (the
/// person's approver — the terminal, the window's dialogs — behind Tandem's rules and hooks, which answer first),
/// the terminals the agent runs commands in, and the events the session is given (the terminals read their output
/// from them on the way to `events`).
pub struct Wiring {
    pub approver: Arc<HostedApprover>,
    pub terminals: Arc<Terminals>,
    pub events: Arc<dyn EventSink>,
}

impl Wiring {
    /// Wraps the person's approver `asks` and the session's sink `events`.
    pub fn new(asks: Arc<dyn Approver>, events: Arc<dyn EventSink>) -> Self {
        let terminals = Arc::new(Terminals::default());
        Self {
            approver: Arc::new(HostedApprover::new(asks)),
            events: Arc::new(TerminalTap {
                terminals: terminals.clone(),
                inner: events,
            }),
            terminals,
        }
    }

    /// The host of the agent's turns in `session` (built with this wiring's approver and events).
    pub fn host(&self, session: Arc<Session>) -> Arc<Host> {
        Host::new(session, self.approver.clone(), self.terminals.clone())
    }
}

/// Tandem's own MCP servers for a hosted session: none (the agent has its own).
pub fn no_own_mcp() -> McpCliConfig {
    McpCliConfig {
        configs: Vec::new(),
        strict: true,
    }
}
