//! The door from the team tools (TeamCreate, TeamDelete, SendMessage, ListPeers) to the session's teams, and the
//! [`Mailbox`] an agent's messages wait in until its next turn boundary.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use tandem_protocol::TeamInfo;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// The name the session's own agent has in its teams.
pub const LEAD_NAME: &str = "team-lead";

/// The recipient that means every other agent of the sender's teams.
pub const BROADCAST: &str = "*";

/// Messages for one agent, delivered as a user message at its next turn boundary; it also wakes a sleeping agent
/// (Sleep) when a background result arrives.
#[derive(Debug)]
pub struct Mailbox {
    queue: Mutex<Vec<String>>,
    bell: watch::Sender<u64>,
}

impl Default for Mailbox {
    fn default() -> Self {
        Self {
            queue: Mutex::default(),
            bell: watch::channel(0).0,
        }
    }
}

impl Mailbox {
    fn queue(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        match self.queue.lock() {
            Ok(q) => q,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Queues `text` for the agent and wakes it.
    pub fn post(&self, text: String) {
        self.queue().push(text);
        self.ring();
    }

    /// Wakes whoever waits for this mailbox without queueing anything (a background result arrived elsewhere).
    pub fn ring(&self) {
        self.bell.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// The queued messages, oldest first; each is handed out once.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.queue())
    }

    /// Whether messages wait.
    pub fn has_mail(&self) -> bool {
        !self.queue().is_empty()
    }

    /// A bell that rings on every later [`Mailbox::post`] or [`Mailbox::ring`].
    pub fn bell(&self) -> watch::Receiver<u64> {
        self.bell.subscribe()
    }

    /// Waits until a message is queued (`true`) or `cancel` fires (`false`).
    pub async fn wait_for_mail(&self, cancel: &CancellationToken) -> bool {
        let mut bell = self.bell();
        loop {
            if self.has_mail() {
                return true;
            }
            tokio::select! {
                changed = bell.changed() => if changed.is_err() { return false },
                _ = cancel.cancelled() => return false,
            }
        }
    }
}

/// One member TeamCreate starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberSpec {
    /// The name it is addressed by.
    pub name: String,
    /// Its first task.
    pub prompt: String,
    /// Its agent type (`None`: general-purpose).
    pub agent_type: Option<String>,
    /// A model instead of its type's or the session's.
    pub model: Option<String>,
}

/// A team to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamSpec {
    pub name: String,
    pub description: String,
    pub members: Vec<MemberSpec>,
    /// The lead's call that creates the team (its members' events are tagged with it).
    pub parent_tool_use_id: String,
}

/// Why a team operation failed; the text is for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamError {
    #[error("a team named '{0}' already exists")]
    TeamExists(String),
    #[error("no team named '{name}' (teams: {known})")]
    UnknownTeam { name: String, known: String },
    #[error("the name '{0}' is already taken by another agent")]
    NameTaken(String),
    #[error("'{0}' is not a valid agent name: use letters, digits, '-' and '_'")]
    BadName(String),
    #[error("no agent named '{name}' (agents you can message: {known})")]
    UnknownRecipient { name: String, known: String },
    #[error("'{0}' has stopped (its team was deleted or it failed) and cannot receive messages")]
    Stopped(String),
    #[error("{0}")]
    NotAllowed(String),
    #[error("{0}")]
    AgentType(String),
}

/// The session's teams, as the team tools reach them.
///
/// Contract: [`TeamDoor::create`] starts every member at once, in the background, detached from the caller's
/// cancellation (they run until the team is deleted or the session ends), and returns the team; nothing starts when
/// it fails. Members' questions reach the person naming the member. [`TeamDoor::delete`] stops the members, waits
/// for their runs to end and resolves with the team as it was left. [`TeamDoor::send`] queues a message for its
/// recipients (delivered at their next turn boundary; an idle member is woken) and returns who got it; an unknown
/// or stopped recipient is an error and nothing is sent. None of them blocks on a member's model.
pub trait TeamDoor: Send + Sync + std::fmt::Debug {
    /// Creates a team led by the session's agent.
    fn create(&self, spec: TeamSpec) -> Result<TeamInfo, TeamError>;

    /// Adds a member to the live team `team` and starts it, like [`TeamDoor::create`] does for each member;
    /// `parent_tool_use_id` is the lead's call that starts it.
    fn add_member(
        &self,
        team: &str,
        member: MemberSpec,
        parent_tool_use_id: &str,
    ) -> Result<TeamInfo, TeamError>;

    /// Deletes the team `name`, stopping its members.
    fn delete(&self, name: &str) -> BoxFuture<'_, Result<TeamInfo, TeamError>>;

    /// Sends `message` from the agent `from` to the agent `to` ([`BROADCAST`]: every other agent of `from`'s teams).
    fn send(&self, from: &str, to: &str, message: &str) -> Result<Vec<String>, TeamError>;

    /// The teams the agent `asking` belongs to (the lead: every team).
    fn teams_of(&self, asking: &str) -> Vec<TeamInfo>;
}

/// Who a call speaks for in its teams, and the door to them.
#[derive(Debug, Clone)]
pub struct TeamSeat {
    pub door: Arc<dyn TeamDoor>,
    /// The calling agent's name ([`LEAD_NAME`] for the session's own agent).
    pub me: String,
}
