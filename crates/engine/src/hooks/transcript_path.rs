//! Where a session's transcript file is (the JSON-lines file hooks read through `transcript_path`), and a
//! sub-agent's own (`agent_transcript_path`): in the session's folder of Tandem's data directory,
//! `<data dir>/tandem/sessions/<session id>/transcript.jsonl` and `…/<session id>/subagents/agent-<agent id>.jsonl`.

use std::path::{Path, PathBuf};

/// The transcript file of session `session_id`.
pub fn transcript_path(session_id: &str) -> PathBuf {
    sessions_root().join(session_id).join("transcript.jsonl")
}

/// The transcript file of sub-agent `agent_id` of session `session_id`.
pub fn agent_transcript_path(session_id: &str, agent_id: &str) -> PathBuf {
    sessions_root()
        .join(session_id)
        .join("subagents")
        .join(format!("agent-{agent_id}.jsonl"))
}

/// `path` as a hook is given it: empty when there is no such file (a call outside any session, such as
/// `tandem tool`).
pub fn given_path(path: &Path) -> String {
    if path.is_file() {
        path.display().to_string()
    } else {
        String::new()
    }
}

fn sessions_root() -> PathBuf {
    crate::fsutil::app_data_dir_or_temp().join("sessions")
}
