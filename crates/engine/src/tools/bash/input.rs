//! The Bash tool's input as the model gives it, with the timeout limits.

use schemars::JsonSchema;
use serde::Deserialize;

/// The timeout when none is given, in milliseconds (2 minutes).
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// The longest timeout a call may ask for, in milliseconds (10 minutes).
pub const MAX_TIMEOUT_MS: u64 = 600_000;

/// Runs a shell command.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BashInput {
    /// The command to run (with `bash -c`).
    pub command: String,
    /// Optional timeout in milliseconds (at most 600000). The default is 120000 (2 minutes).
    #[schemars(range(min = 1, max = 600000))]
    pub timeout: Option<u64>,
    /// A short description of what the command does, in 5-10 words, in the active voice (e.g. "List files in the
    /// current directory", "Install the package's dependencies").
    pub description: Option<String>,
    /// Run the command in the background and return at once with a task id; read its output later with the
    /// TaskOutput tool and stop it with TaskStop. Use it for servers and other long-running commands.
    pub run_in_background: Option<bool>,
    /// Ask to run the command outside the sandbox (only when the sandbox is what stops it). The sandbox never
    /// approves such a call: the usual permission rules or the user do; the settings may refuse the request.
    /// Ignored when commands do not run in a sandbox.
    #[serde(rename = "dangerouslyDisableSandbox")]
    pub dangerously_disable_sandbox: Option<bool>,
}

impl BashInput {
    /// The timeout to apply, clamped to [`MAX_TIMEOUT_MS`].
    pub fn timeout_ms(&self) -> u64 {
        self.timeout
            .unwrap_or(DEFAULT_TIMEOUT_MS)
            .clamp(1, MAX_TIMEOUT_MS)
    }

    /// Whether the command is to run in the background.
    pub fn background(&self) -> bool {
        self.run_in_background.unwrap_or(false)
    }
}
