//! Background shells as the window lists them: commands the model started with `run_in_background`, and running
//! commands moved to the background (by the person, or by themselves at their timeout).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::TaskStatus;

/// One background shell of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct BackgroundShell {
    /// The id TaskOutput and TaskStop take (`shell_3`).
    pub task_id: String,
    /// The Bash call that started it.
    pub tool_use_id: String,
    pub command: String,
    /// The call's description, when the model gave one.
    pub description: Option<String>,
    pub status: TaskStatus,
    /// Set once it exited with a code.
    pub exit_code: Option<u32>,
    /// Why it runs in the background.
    pub reason: BackgroundReason,
    /// The sub-agent that started it (it ends with that sub-agent); `None` for the session's own agent.
    pub agent_id: Option<String>,
}

/// Why a shell runs in the background.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum BackgroundReason {
    /// The model asked for it (`run_in_background`).
    Requested,
    /// The person moved the running command to the background.
    ByPerson,
    /// It was still running at its timeout.
    Timeout,
    /// It was still running when the assistant mode's blocking budget ran out.
    Budget,
}
