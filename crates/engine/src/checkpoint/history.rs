//! The checkpoint store as the file tools' [`FileHistory`], and rewinding a session's files with its read state.

use std::path::Path;

use super::store::{CheckpointError, CheckpointStore, RewindReport};
use crate::tool::{FileHistory, FileStateStore, HistoryError};

impl FileHistory for CheckpointStore {
    fn before_change(
        &self,
        path: &Path,
        current: Option<(&[u8], &blake3::Hash)>,
    ) -> Result<(), HistoryError> {
        CheckpointStore::before_change(self, path, current).map_err(|e| HistoryError(e.to_string()))
    }

    fn after_change(&self, path: &Path, new: Option<&blake3::Hash>) -> Result<(), HistoryError> {
        CheckpointStore::after_change(self, path, new).map_err(|e| HistoryError(e.to_string()))
    }
}

impl CheckpointStore {
    /// Rewinds the files to before `prompt_id` (see [`CheckpointStore::rewind`]) while no file tool of the session
    /// runs, and forgets the read state of every file it touched, so that the model must read them again before
    /// changing them.
    pub fn rewind_files(
        &self,
        files: &FileStateStore,
        prompt_id: &str,
        force: bool,
    ) -> Result<RewindReport, CheckpointError> {
        let _guard = files.write_guard();
        let report = self.rewind(prompt_id, force)?;
        for path in report.restored.iter().chain(&report.removed) {
            files.forget(path);
        }
        Ok(report)
    }
}
