//! The door from the Agent tool to the query loop: a tool asks its session to run a sub-agent through
//! [`SubAgentRunner`], implemented by the session (which can build a child loop), never by importing it.

use futures::future::BoxFuture;
use tandem_protocol::Usage;
use tokio_util::sync::CancellationToken;

/// One sub-agent to run.
#[derive(Debug, Clone)]
pub struct SubAgentRequest {
    /// The agent type (a built-in such as `Explore`, or a custom agent's name).
    pub agent_type: String,
    /// The short task description the model gave (3-5 words).
    pub description: String,
    /// The task, as the sub-agent's first prompt.
    pub prompt: String,
    /// A model to use instead of the agent type's or the session's (`sonnet`, `opus`, `haiku`).
    pub model: Option<String>,
    /// The parent's tool call that starts the sub-agent (its events are tagged with it).
    pub parent_tool_use_id: String,
    /// Fires when the parent's call is cancelled (the person interrupted the turn).
    pub cancel: CancellationToken,
    /// Run in a new git worktree on a new branch instead of the session's folder.
    pub worktree: bool,
    /// With `worktree`: the new branch's exact name (SuggestBackgroundPR's pull request branch) instead of
    /// `tandem/agent-…`.
    pub branch: Option<String>,
    /// A permission mode for this run instead of its type's (never more permissive than the caller's; the Agent
    /// tool checks that).
    pub mode: Option<tandem_protocol::PermissionMode>,
    /// The folder to work in instead of the session's (absolute, inside the working directories; in a worktree,
    /// the same folder there).
    pub cwd: Option<std::path::PathBuf>,
    /// A fork: the sub-agent starts from the parent's conversation instead of an empty one.
    pub fork: Option<ForkStart>,
    /// Run on the machine of the settings' `remoteAgentHost` (`tandem acp` over SSH) instead of here.
    pub remote: bool,
}

/// Where a fork starts: the parent's system prompt and its conversation up to the step that started the fork.
#[derive(Debug, Clone, PartialEq)]
pub struct ForkStart {
    pub system: Vec<String>,
    pub messages: Vec<crate::model::Message>,
}

/// Where a sub-agent run in its own worktree left its work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeReport {
    pub path: std::path::PathBuf,
    pub branch: String,
    /// Files it changed (relative to the worktree).
    pub changed_files: Vec<String>,
    /// Whether the worktree was kept (it has changes) or removed with its branch.
    pub kept: bool,
}

/// Where a sub-agent run on another machine worked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteReport {
    /// The `ssh://` URL it ran at (the settings' `remoteAgentHost`).
    pub url: String,
    /// Files it changed there (absolute paths on that machine), from the diffs its calls reported, in order.
    pub changed_files: Vec<String>,
}

/// What a finished sub-agent reports back to its parent.
#[derive(Debug, Clone, PartialEq)]
pub struct SubAgentReport {
    /// Unique per run.
    pub agent_id: String,
    pub agent_type: String,
    /// The sub-agent's last assistant text: its answer.
    pub final_text: String,
    /// Tokens the sub-agent's requests used.
    pub usage: Usage,
    /// Tool calls the sub-agent made.
    pub tool_calls: u32,
    pub duration_ms: u64,
    /// For a run in its own worktree: where its work is.
    pub worktree: Option<WorktreeReport>,
    /// For a run on another machine: where, and what it changed there.
    pub remote: Option<RemoteReport>,
}

/// Why a sub-agent could not run or finish.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SubAgentError {
    /// No agent of that type exists (or a deny rule removed it).
    #[error("Agent type '{name}' not found. Available agents: {available}")]
    UnknownType { name: String, available: String },
    /// The sub-agent was stopped by a cancellation before it finished.
    #[error("the sub-agent was interrupted")]
    Cancelled,
    /// The person stopped this sub-agent (and only it) before it finished.
    #[error("the user stopped the sub-agent before it finished; it gave no answer")]
    StoppedByPerson,
    /// The sub-agent's conversation failed (the model could not be reached...).
    #[error("the sub-agent failed: {0}")]
    Failed(String),
}

/// Runs sub-agents for the tools of a session.
///
/// Contract: [`SubAgentRunner::run`] runs the sub-agent's whole conversation with the tools its type allows and the
/// session's permission context (questions go to the session's approver, naming the sub-agent), and resolves with
/// its report once it stops. When `request.cancel` fires it stops the sub-agent as soon as its running calls allow
/// and resolves with [`SubAgentError::Cancelled`]; it never leaves the sub-agent running. An unknown type is
/// [`SubAgentError::UnknownType`] and nothing runs.
///
/// A request with `remote` runs the same way on the machine the settings' `remoteAgentHost` names (its events,
/// questions, hooks and outcome as a local run's; its report's `remote` says where and what it changed there); where
/// the session has no such machine it is [`SubAgentError::Failed`] and nothing runs.
///
/// [`SubAgentRunner::start_background`] starts the same run detached from the caller's cancellation (it stops when
/// the session goes away) and returns at once with a task id; nobody can answer its questions, so what would ask is
/// denied. [`SubAgentRunner::background_output`] reads its outcome by task id.
pub trait SubAgentRunner: Send + Sync + std::fmt::Debug {
    /// Runs a sub-agent to its end.
    fn run(&self, request: SubAgentRequest)
    -> BoxFuture<'_, Result<SubAgentReport, SubAgentError>>;

    /// Starts a sub-agent in the background; returns its task id.
    fn start_background(&self, request: SubAgentRequest) -> Result<String, SubAgentError>;

    /// The background sub-agent `task_id` after waiting up to `wait` for it to end: `None` if there is no such
    /// task, `Some(None)` while it still runs, `Some(Some(outcome))` once it ended.
    fn background_output(
        &self,
        task_id: &str,
        wait: std::time::Duration,
    ) -> BoxFuture<'_, Option<Option<Result<SubAgentReport, SubAgentError>>>>;

    /// Stops the background sub-agent `task_id`: `None` if there is no such task, `Some(true)` if it was running
    /// and is being stopped, `Some(false)` if it had already ended.
    fn stop_background(&self, task_id: &str) -> Option<bool> {
        let _ = task_id;
        None
    }

    /// Stops the running sub-agent started by the parent's call `id` (or the background task `id`) because the
    /// person asked, leaving the parent's turn and other sub-agents running: its run ends with
    /// [`SubAgentError::StoppedByPerson`]. Returns whether such a sub-agent was running.
    fn stop_by_person(&self, id: &str) -> bool {
        let _ = id;
        false
    }

    /// The notifications of background sub-agents that ended since the last call (each with its answer), for the
    /// parent's next model request. Each is handed out once.
    fn take_notifications(&self) -> Vec<String> {
        Vec::new()
    }
}
