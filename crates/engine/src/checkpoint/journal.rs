//! The journal of a checkpoint store: one checkpoint per prompt with the version each file had before its first
//! change during that prompt, and the content Tandem last left each file with. Persisted as JSON beside the blobs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A version of a file: absent, or the blob with this BLAKE3 hash (hex).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "hash", rename_all = "snake_case")]
pub enum Version {
    Missing,
    Blob(String),
}

/// The files changed during one prompt, each with the version it had before.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Checkpoint {
    pub prompt_id: String,
    pub files: BTreeMap<PathBuf, Version>,
}

/// What the UI lists: a prompt and the files changed during it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckpointInfo {
    pub prompt_id: String,
    pub files: Vec<PathBuf>,
}

/// The persisted state of a store.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Journal {
    pub checkpoints: Vec<Checkpoint>,
    /// What Tandem last left each tracked file with; a different content on disk was changed outside Tandem.
    pub last_written: BTreeMap<PathBuf, Version>,
}
