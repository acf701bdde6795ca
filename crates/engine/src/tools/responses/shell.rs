//! Bash's result data: the command's output (a terminal joins both streams, so all of it is `stdout`), whether it
//! was interrupted, and the task id of a command that went on in the background.

use schemars::JsonSchema;
use serde::Serialize;

/// Bash's result.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BashResponse {
    /// What the command printed (both streams: it ran in a terminal), as the model was given it.
    pub stdout: String,
    /// Always empty: the terminal's output is all in `stdout`.
    pub stderr: String,
    pub interrupted: bool,
    pub is_image: bool,
    /// The task id when the command runs on in the background.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background_task_id: Option<String>,
    /// What a non-zero exit code meant for this command (e.g. `grep` finding nothing), when it was not a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_code_interpretation: Option<String>,
}
