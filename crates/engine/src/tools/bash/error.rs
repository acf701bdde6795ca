//! What can go wrong starting a shell command.

/// A failure to start a command (running it and failing is an exit code, not this).
#[derive(Debug, thiserror::Error)]
pub enum BashError {
    /// The pseudo-terminal could not be opened.
    #[error("cannot open a terminal for the command: {0}")]
    Pty(String),
    /// The shell could not be started.
    #[error("cannot start the shell: {0}")]
    Spawn(String),
    /// A file the tool keeps (output log, working-directory record) could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
