//! What can go wrong talking to a language server, each worded for the model.

/// A failed request or start. The texts name the server so that the model and the person know which one.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LspError {
    /// No server is configured for the file's extension.
    #[error("no language server is configured for {0} files")]
    NoServer(String),
    /// The server's command could not be started (not installed, not executable).
    #[error("the language server `{server}` could not start (`{command}`: {reason})")]
    Missing {
        server: String,
        command: String,
        reason: String,
    },
    /// The server stopped (crashed, exited, broke the protocol) or never finished starting.
    #[error("the language server `{server}` stopped: {reason}")]
    Crashed { server: String, reason: String },
    /// The server crashed more often than it may be restarted.
    #[error(
        "the language server `{server}` crashed {crashes} times and is not restarted again: {reason}"
    )]
    GaveUp {
        server: String,
        crashes: u32,
        reason: String,
    },
    /// The server did not answer in time.
    #[error("the language server `{server}` did not answer `{method}` within {seconds} s")]
    Timeout {
        server: String,
        method: String,
        seconds: u64,
    },
    /// The server answered with an error.
    #[error("the language server `{server}` answered `{method}` with an error: {message}")]
    Server {
        server: String,
        method: String,
        message: String,
    },
    /// The call was cancelled.
    #[error("cancelled")]
    Cancelled,
}
