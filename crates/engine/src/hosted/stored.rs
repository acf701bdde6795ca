//! A stored hosted session, read for continuing it with its agent: who ran it (an agent of `agentServers`, or
//! Tandem on another machine) as its model name says, and the agent's own session id its `hosted_session_opened`
//! event kept — what the command line's `--resume` with `--agent`/`--remote` and the window's reopening share.

use tandem_protocol::SessionEvent;

use crate::session::HOSTED_MODEL_PREFIX;
use crate::settings::AppSettingsFile;
use crate::store::LoadedSession;

use super::door::Door;

/// Who ran a stored hosted session, and the agent's session in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredHosted {
    /// The agent's name in `agentServers`, or the remote folder's `ssh://…` URL.
    pub ran_by: String,
    /// The agent's own session id (the last one opened), `None` when it was stored before Tandem kept it.
    pub agent_session_id: Option<String>,
}

impl StoredHosted {
    /// The hosted session `loaded` is, `None` when Tandem's own agent ran it.
    pub fn of(loaded: &LoadedSession) -> Option<Self> {
        let ran_by = loaded
            .record
            .model
            .strip_prefix(HOSTED_MODEL_PREFIX)?
            .to_string();
        Some(Self {
            ran_by,
            agent_session_id: agent_session_id(loaded),
        })
    }

    /// Whether a remote folder (Tandem on another machine) ran it.
    pub fn is_remote(&self) -> bool {
        self.ran_by.starts_with("ssh://")
    }

    /// The door it goes on through: the agent of that name in the settings file `file`, or the remote URL reached
    /// with `ssh_command` (or `ssh`). `Err` is the message for the person: the agent is no longer configured (the
    /// agents there are named), or the URL cannot be used.
    pub fn door(
        &self,
        file: Option<&AppSettingsFile>,
        ssh_command: Option<String>,
    ) -> Result<Door, String> {
        if self.is_remote() {
            return Door::remote_with_ssh(&self.ran_by, ssh_command);
        }
        Door::agent(file, &self.ran_by).map_err(|why| {
            format!(
                "the agent `{}` that ran this session is no longer configured under `agentServers` ({why})",
                self.ran_by
            )
        })
    }
}

/// The agent's session id the stored session `loaded` last opened (its `hosted_session_opened` event), if any.
pub fn agent_session_id(loaded: &LoadedSession) -> Option<String> {
    loaded
        .events
        .iter()
        .rev()
        .find_map(|stored| match &stored.event {
            SessionEvent::HostedSessionOpened {
                agent_session_id, ..
            } => Some(agent_session_id.clone()),
            _ => None,
        })
}
