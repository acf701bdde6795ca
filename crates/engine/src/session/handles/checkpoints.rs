//! The checkpoints handle: what the session changed and the ways back — the file checkpoints, the points a rewind
//! can go to, and rewinding the files, the conversation or both.

use std::sync::Arc;

use tandem_protocol::ChangedFile;

use crate::checkpoint::{CheckpointError, CheckpointInfo, CheckpointStore, RewindReport};
use crate::exec::ToolRuntime;
use crate::model::Message;
use crate::session::changes::{Attribution, changed_file};
use crate::session::rewind::{self, RewindError, RewindOutcome, RewindPoint, RewindScope};
use crate::store::SessionRecorder;

/// What a caller holds to see a session's changes and rewind it.
#[derive(Clone, Copy)]
pub struct CheckpointsHandle<'a> {
    pub(in crate::session) store: Option<&'a Arc<CheckpointStore>>,
    pub(in crate::session) history: &'a tokio::sync::Mutex<Vec<Message>>,
    pub(in crate::session) runtime: &'a ToolRuntime,
    pub(in crate::session) recorder: Option<&'a Arc<SessionRecorder>>,
    pub(in crate::session) attribution: &'a Attribution,
}

impl CheckpointsHandle<'_> {
    /// The file checkpoints of this session, oldest first, each named by the id of the prompt it began with.
    pub fn list(&self) -> Vec<CheckpointInfo> {
        self.store.map(|c| c.checkpoints()).unwrap_or_default()
    }

    /// Rewinds the files changed since prompt `prompt_id` began; changes made outside Tandem stop it unless
    /// `force` (see [`CheckpointStore::rewind_files`]).
    pub fn rewind_files(
        &self,
        prompt_id: &str,
        force: bool,
    ) -> Result<RewindReport, CheckpointError> {
        match self.store {
            Some(store) => store.rewind_files(&self.runtime.file_state, prompt_id, force),
            None => Err(CheckpointError::UnknownPrompt(prompt_id.to_string())),
        }
    }

    /// The prompts and `/compact` rows this session can be rewound to, oldest first, with the files changed from
    /// each on.
    pub async fn rewind_points(self) -> Vec<RewindPoint> {
        rewind::points_of(&self.history.lock().await, &self.list())
    }

    /// Rewinds the files, the conversation or both to before prompt `prompt_id` (waits for a running turn to end;
    /// what a `/compact` row or a compacted prompt rewinds to is told in [`rewind`]).
    /// Files changed outside Tandem stop a file rewind unless `force`; then nothing at all changes.
    pub async fn rewind(
        self,
        prompt_id: &str,
        scope: RewindScope,
        force: bool,
    ) -> Result<RewindOutcome, RewindError> {
        let mut history = self.history.lock().await;
        let cut = rewind::plan(&history, prompt_id, scope)?;
        let mut outcome = RewindOutcome::default();
        if scope != RewindScope::Conversation {
            match rewind::checkpoint_before(prompt_id, &self.list()) {
                Some(id) => {
                    rewind::apply_report(&mut outcome, self.rewind_files(&id, force)?);
                    if !outcome.files_rewound {
                        return Ok(outcome);
                    }
                }
                None => outcome.files_rewound = true,
            }
        }
        if let Some(cut) = cut {
            outcome.messages_removed = cut.apply(&mut history);
            self.runtime
                .events
                .emit(tandem_protocol::SessionEvent::ConversationRewound {
                    prompt_id: prompt_id.to_string(),
                });
            if let Some(recorder) = self.recorder {
                recorder.sync_history(&history);
                recorder.flush().await?;
            }
        }
        Ok(outcome)
    }

    /// Every file this session changed, sorted by path (empty when the session keeps no checkpoints), each naming
    /// the sub-agents that changed it.
    pub fn changes(&self) -> Result<Vec<ChangedFile>, CheckpointError> {
        let Some(store) = self.store else {
            return Ok(Vec::new());
        };
        Ok(store
            .originals()?
            .into_iter()
            .map(|(path, before)| {
                let mut file = changed_file(&path, before);
                file.changed_by = self.attribution.of(&file.path);
                file
            })
            .collect())
    }
}
