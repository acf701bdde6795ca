//! Running git for the worktree functions.

use std::path::Path;
use std::process::Command;

/// Why a git command failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    /// git could not be started.
    #[error("git could not run: {0}")]
    Io(String),
    /// git ran and failed (not a repository, a conflict, …): its message.
    #[error("git failed: {0}")]
    Failed(String),
}

/// Runs `git args` in `dir` and returns its standard output.
pub(super) fn git(dir: &Path, args: &[&str]) -> Result<String, GitError> {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| GitError::Io(e.to_string()))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr).trim().to_string();
        let out = String::from_utf8_lossy(&output.stdout).trim().to_string();
        return Err(GitError::Failed(if err.is_empty() { out } else { err }));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs `git args` in `dir`, ignoring its output.
pub(super) fn git_ok(dir: &Path, args: &[&str]) -> Result<(), GitError> {
    git(dir, args).map(|_| ())
}
