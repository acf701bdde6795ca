//! What the shell sandbox refused a command: a write outside its writable folders or a connection to a host its
//! proxy does not admit; shown on the call with a way to allow it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One thing the sandbox refused.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SandboxViolation {
    /// A write to `path` (absolute), outside the folders the sandbox leaves writable.
    Write { path: String },
    /// A connection to `host`, which `sandbox.network.allowedDomains` does not admit.
    Network { host: String },
}

impl SandboxViolation {
    /// One line for the person and the model.
    pub fn describe(&self) -> String {
        match self {
            Self::Write { path } => {
                format!("writing {path} (outside the sandbox's writable folders)")
            }
            Self::Network { host } => {
                format!("connecting to {host} (not in sandbox.network.allowedDomains)")
            }
        }
    }
}
