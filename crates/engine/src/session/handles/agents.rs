//! The agents handle: the session's sub-agents as the person sees them — stopping one, their stored
//! conversations, and the worktrees agents left with changes to merge or discard; and the session's agents state
//! (who changed which file, the teams).

use std::path::Path;
use std::sync::Arc;

use crate::exec::ToolRuntime;
use crate::session::agents::Teams;
use crate::session::changes::Attribution;
use crate::store::{SessionRecorder, Sidechain, StoreError};
use crate::tools::worktree::{self, GitError};

/// What a session keeps of its agents beside the runtime's sub-agent door.
pub(in crate::session) struct AgentsState {
    /// Which sub-agents changed which files (the changes view names them).
    pub(in crate::session) attribution: Arc<Attribution>,
    /// The teams (when the switch is on); their members are stopped when the session is dropped.
    pub(in crate::session) teams: Option<Arc<Teams>>,
}

/// What a caller holds to follow and steer a session's sub-agents and the worktrees they left.
#[derive(Clone, Copy)]
pub struct AgentsHandle<'a> {
    pub(in crate::session) id: &'a str,
    pub(in crate::session) cwd: &'a Path,
    pub(in crate::session) runtime: &'a ToolRuntime,
    pub(in crate::session) recorder: Option<&'a Arc<SessionRecorder>>,
}

impl AgentsHandle<'_> {
    /// Stops one sub-agent because the person asked: the one started by the Agent call `id` (or the background task
    /// `id`). The turn and the other sub-agents go on; the parent is told the person stopped it. Returns whether such
    /// a sub-agent was running.
    pub fn stop(&self, id: &str) -> bool {
        self.runtime
            .sub_agents
            .as_ref()
            .is_some_and(|runner| runner.stop_by_person(id))
    }

    /// The sub-agents' conversations of this session as stored (each linked to the Agent call that started it),
    /// oldest first; empty for a session that is not stored.
    pub fn sidechains(&self) -> Result<Vec<Sidechain>, StoreError> {
        match self.recorder {
            Some(recorder) => recorder.store().sidechains(self.id),
            None => Ok(Vec::new()),
        }
    }

    /// The worktrees agents of this project left with changes, for the person to merge or discard (empty when the
    /// folder is not in a git repository).
    pub fn kept_worktrees(&self) -> Vec<tandem_protocol::KeptWorktree> {
        worktree::list_kept(self.cwd)
            .map(|list| list.iter().map(|w| w.to_protocol()).collect())
            .unwrap_or_default()
    }

    /// Merges the kept worktree on `branch` into the project's current branch and removes it (see
    /// [`worktree::merge`]).
    pub fn merge_worktree(&self, branch: &str) -> Result<(), GitError> {
        worktree::merge(self.cwd, branch)
    }

    /// Removes the kept worktree on `branch` with its branch, dropping its changes.
    pub fn discard_worktree(&self, branch: &str) -> Result<(), GitError> {
        worktree::discard(self.cwd, branch)
    }
}
