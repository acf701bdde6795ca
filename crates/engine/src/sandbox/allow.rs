//! The one-click answer to something the shell sandbox refused: a refused host is added to
//! `sandbox.network.allowedDomains`, a refused write to `sandbox.filesystem.allowWrite` (the key the command-line
//! agent reads for more writable folders), both in the project's `.claude/settings.local.json`.

use std::path::{Path, PathBuf};

use tandem_protocol::SandboxViolation;

use crate::permission::{SaveError, add_to_list};

/// What allowing a violation adds: the settings key and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxAllowance {
    /// `sandbox.network.allowedDomains` or `sandbox.filesystem.allowWrite`.
    pub key: &'static str,
    pub value: String,
}

/// What allowing `violation` adds. A refused write allows the path when it exists (a file or folder bound as is)
/// and otherwise the nearest folder above it that exists, since only an existing path can be made writable.
pub fn sandbox_allowance(violation: &SandboxViolation) -> SandboxAllowance {
    match violation {
        SandboxViolation::Network { host } => SandboxAllowance {
            key: "sandbox.network.allowedDomains",
            value: host.trim().trim_end_matches('.').to_ascii_lowercase(),
        },
        SandboxViolation::Write { path } => {
            let mut p = PathBuf::from(path);
            while !p.exists() {
                match p.parent() {
                    Some(parent) => p = parent.to_path_buf(),
                    None => break,
                }
            }
            SandboxAllowance {
                key: "sandbox.filesystem.allowWrite",
                value: p.display().to_string(),
            }
        }
    }
}

/// Adds what allows `violation` to the settings file `file` (the project's local settings), written via a
/// temporary file and a rename; returns what was added. The settings watcher then brings it into force.
pub fn allow_sandbox_violation(
    file: &Path,
    violation: &SandboxViolation,
) -> Result<SandboxAllowance, SaveError> {
    let allowance = sandbox_allowance(violation);
    let keys: Vec<&str> = allowance.key.split('.').collect();
    add_to_list(file, &keys, std::slice::from_ref(&allowance.value))?;
    Ok(allowance)
}
